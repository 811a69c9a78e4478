package offline

import (
	"regexp"
	"slices"
	"strings"
)

// Claims said in German or Spanish (OFFLINE.md, "Knowledge that changes"): the common
// forms of a move, a phone number, email or address (new or not), and a plan, said of the
// speaker. A short table, not a grammar: the other rules read English. The verbs are
// first-person forms, so the speaker is the subject however the rewrite wrote the pronoun
// ("Me mudé a Valencia" may reach the rules as "Ana mudé a Valencia").
type otherClaim struct {
	re   literalPattern // group 1: the value
	slot string
	cued bool // the words say the value is new (a move, "neue", "nuevo")
}

const (
	// otherPlace is a place's name: one or two capitalised words ("Hamburg", "Bad Tölz").
	otherPlace = `(\p{Lu}[\p{L}\-]+(?: \p{Lu}[\p{L}\-]+)?)`
	// otherDetail runs to punctuation or a word that starts something else.
	otherDetail = `((?:[^.,;!?()"]|\.\w)+?)(?:[,;!?()"]|\.(?:\s|$)|$| (?i:und|aber|y|pero|ahora|jetzt|bitte|por favor)\b)`
	// otherPlan is a plan's name, one word as products are named ("Pro", "Básico").
	otherPlan = `([\p{Lu}\d][\p{L}\d+]*)`
	// otherPlanWord says a name is a plan's: "Pro-Tarif", "plan Pro".
	otherPlanWord = `(?i:tarif|abo|abonnement|plan|paket)`
	// A few words between a verb and its place: "Ich bin letzte Woche nach Hamburg umgezogen".
	someWords = `(?: [\p{L}\d]+){0,3}?`
)

// Contact details by their words in each language, longest first.
const (
	dePhone   = `(?i:telefonnummer|handynummer|mobilnummer|rufnummer|nummer)`
	deEmail   = `(?i:e-mail-adresse|email-adresse|mailadresse|e-mail|email)`
	deAddress = `(?i:wohnadresse|adresse|anschrift)`
	esPhone   = `(?i:número de teléfono|número de móvil|número de celular|número|teléfono|móvil|celular)`
	esEmail   = `(?i:correo electrónico|correo|e-?mail)`
	esAddress = `(?i:dirección|domicilio)`
)

// germanDetail: "Meine (neue) Nummer ist …", "Neue Nummer: …", "Ich habe eine neue Nummer: …".
func germanDetail(noun, slot string) []otherClaim {
	return []otherClaim{
		{mustPattern(`\b(?i:meine|unsere) ` + noun + ` (?i:ist|lautet)(?i: jetzt| nun| ab sofort)?:? ` + otherDetail), slot, false},
		{mustPattern(`\b(?i:meine|unsere) (?i:neue) ` + noun + `(?: (?i:ist|lautet))?:? ` + otherDetail), slot, true},
		{mustPattern(`(?:^|[.!?:]\s+|\b(?i:ich habe|wir haben) (?i:eine) )(?i:neue) ` + noun + `(?: (?i:ist|lautet))?:? ` + otherDetail), slot, true},
	}
}

// spanishDetail: "Mi (nuevo) número es …", "Nuevo número: …", "Tengo un número nuevo: …".
func spanishDetail(noun, slot string) []otherClaim {
	return []otherClaim{
		{mustPattern(`\b(?i:mi|nuestro|nuestra) ` + noun + ` (?i:es)(?i: ahora)?:? ` + otherDetail), slot, false},
		{mustPattern(`\b(?i:mi|nuestro|nuestra) (?:(?i:nuevo|nueva) ` + noun + `|` + noun + ` (?i:nuevo|nueva))(?: (?i:es)(?i: ahora)?)?:? ` + otherDetail), slot, true},
		{mustPattern(`(?:^|[.!?:]\s+|\b(?i:tengo|tenemos) (?i:un|una) )(?:(?i:nuevo|nueva) ` + noun + `|` + noun + ` (?i:nuevo|nueva))(?: (?i:es))?:? ` + otherDetail), slot, true},
	}
}

var otherClaims = slices.Concat(
	[]otherClaim{
		// German: "Ich wohne (jetzt) in München", "Ich bin nach Hamburg umgezogen", "Wir ziehen nach Köln um".
		{mustPattern(`\b(?i:(?:ich|wir) (?:wohne|wohnen|lebe|leben)|(?:wohne|wohnen|lebe|leben) (?:ich|wir))(?i: jetzt| nun| inzwischen| mittlerweile| seit kurzem| wieder| schon)* (?i:in) ` + otherPlace), "lives in", false},
		{mustPattern(`\b(?i:ich bin|wir sind|bin ich|sind wir)` + someWords + ` (?i:nach) ` + otherPlace + ` (?i:umgezogen|gezogen)\b`), "lives in", true},
		{mustPattern(`\b(?i:ich ziehe|wir ziehen|ziehe ich|ziehen wir)` + someWords + ` (?i:nach) ` + otherPlace + ` (?i:um)\b`), "lives in", true},
		// Spanish: "Vivo en Madrid", "Me mudé a Valencia", "Nos hemos mudado a Sevilla".
		{mustPattern(`\b(?i:vivo|vivimos)(?i: ahora| actualmente| ya)? (?i:en) ` + otherPlace), "lives in", false},
		{mustPattern(`\b(?i:mudé|mude|mudamos|he mudado|hemos mudado|mudo|voy a mudar|vamos a mudar|trasladé|trasladamos|he trasladado|fui a vivir|fuimos a vivir)` + someWords + ` (?i:a|para) ` + otherPlace), "lives in", true},
		// German plans: "Ich bin im Basic-Tarif", "Ich möchte zu Pro wechseln", "Bitte stellen Sie mich auf den Pro-Tarif um".
		{mustPattern(`\b(?i:ich bin|wir sind|bin ich|sind wir|ich habe|wir haben|habe ich|haben wir)(?i: jetzt| nun| gerade| noch)? (?i:im|beim|auf dem|den|das) ` + otherPlan + `(?:-| )?` + otherPlanWord + `\b`), "plan", false},
		{mustPattern(`\b(?i:ich|wir|mich|uns|meinen (?:tarif|plan|vertrag)|mein (?:abo|paket))(?: [\p{L}\-]+){0,4}? (?i:auf|zu|zum|in den|ins) (?:(?i:den|das|dem) )?` + otherPlan + `(?:(?:-| )` + otherPlanWord + `)? (?i:wechseln|gewechselt|umsteigen|umgestiegen|upgraden|umstellen|umgestellt)\b`), "plan", true},
		{mustPattern(`\b(?i:stellen sie|stell|stellt) (?i:mich|uns|meinen (?:tarif|plan|vertrag)|mein (?:abo|paket)) (?i:auf) (?:(?i:den|das) )?` + otherPlan + `(?:(?:-| )` + otherPlanWord + `)? (?i:um)\b`), "plan", true},
		// Spanish plans: "Estoy en el plan Básico", "Cambia mi plan a Pro", "Me pasé al plan Premium".
		{mustPattern(`\b(?i:estoy|estamos)(?i: ahora)? (?i:en el) (?i:plan|tarifa|paquete) ` + otherPlan), "plan", false},
		{mustPattern(`\b(?i:tengo|tenemos)(?i: ahora)? (?i:el) (?i:plan) ` + otherPlan), "plan", false},
		{mustPattern(`\b(?i:cámbiame|cambiame|pásame|pasame|cambié|cambiamos|he cambiado|pasé|he pasado|cambiarme|pasarme|(?:cambia|cambie|cambiar|cambié|mejora) mi (?:plan|suscripción|tarifa))(?i: ya)? (?i:al|a la|a) (?:(?i:plan|tarifa|suscripción) )?` + otherPlan), "plan", true},
	},
	germanDetail(dePhone, "phone number"), germanDetail(deEmail, "email"), germanDetail(deAddress, "address"),
	spanishDetail(esPhone, "phone number"), spanishDetail(esEmail, "email"), spanishDetail(esAddress, "address"),
)

// reOtherWords are words one of the table's patterns needs, so that an English text (most
// are) is searched once, not by every pattern: their words are case-folded, which leaves
// literalPattern no literal to look for.
var reOtherWords = regexp.MustCompile(`(?i)\b(?:ich|wir|mich|uns|meine[nm]?|mein|unsere|neuen?|stell\p{L}*|viv\p{L}*|mud\p{L}*|traslad\p{L}*|fui|fuimos|mi|nuestr[oa]|nuev[oa]|tengo|tenemos|estoy|estamos|c[aá]mbi\p{L}*|p[aá]s\p{L}*)(?:[^\p{L}]|$)`)

// otherLanguageClaims are the speaker's claims a German or Spanish text makes, each
// said as a change (saidAsChange: no question, nothing hedging it).
func otherLanguageClaims(text string) []stateClaim {
	if !reOtherWords.MatchString(text) {
		return nil
	}
	var out []stateClaim
	for _, p := range otherClaims {
		for _, m := range p.re.findAllIndex(text) {
			value := strings.TrimSpace(group(text, m, 1))
			if saidAsChange(text, m[0], "we") {
				out = append(out, stateClaim{subject: "we", slot: p.slot, value: value, cued: p.cued})
			}
		}
	}
	return out
}
