package offline

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

// State changes (OFFLINE.md, "Knowledge that changes"): what a text says holds for a
// subject (a slot and its value: "lives in" Lisbon), what it says no longer holds ("quit
// Spotify", "no longer allergic to cats") and what it plans. A later statement of another
// value for the same subject and slot, an ended state, or a plan carried out supersedes
// the older node; two values with no change cue from two speakers contradict each other.

// stateClaim is one thing a text states about a subject.
type stateClaim struct {
	subject string // a name as written ("Nora", "Uma's son"); "we" resolved to the speaker
	slot    string // "lives in", "favourite book", "number of cat"…; "" for an ended state
	value   string
	ended   bool   // the text says the value no longer holds (of its slot only, when it names one)
	death   bool   // an ended state that is a death: the value no longer holds for anyone ("Tom's dog Rex died")
	plan    bool   // value is what the subject plans to do
	speaker string // who said it
	role    string // what a tool is used for ("pipelines", "lint"), for a team's "uses" (decisions.go)
	by      string // what replaces an ended value, when the text names it ("use Vitest instead of Jest")
	cued    bool   // the claim itself says its value is new ("switch the linter to ruff")
	label   bool   // a value a label gives ("Stage: offer", "moved to stage: screened"): one at a time, the later replacing the earlier
	said    string // the text a team's claim was read from, which a change restates (decisions.go)
	we      bool   // the subject was "we" or "our": the speaker's household or team, which a space's members share
}

// decision: the claim is a team's (decisions.go).
func (c stateClaim) decision() bool { return c.said != "" }

// team: the claim is what the team uses, or no longer does, whoever of it said so
// (decisions.go); an owner's subject is the thing owned, a status's the ticket.
func (c stateClaim) team() bool { return c.decision() && c.slot != "owner" && c.slot != "status" }

// sameHolder: two claims are of one subject, the same person or the team.
func sameHolder(a, b stateClaim) bool {
	return sameSubject(a.subject, b.subject) || a.team() && b.team() || ours(a, b) || ours(b, a)
}

// ours: we, a claim of "we" or "our", is of the same holder as c, another member's claim of
// themselves, of a slot that holds one value at a time: a space's "we" and "our" are its
// members' ("we moved to Berlin", told by Tom, ends Ana's "I live in Lisbon").
func ours(we, c stateClaim) bool {
	return we.we && !c.ended && !we.ended && we.slot == c.slot && exclusive(c.slot) && sameSubject(c.subject, c.speaker)
}

// Weights of the edges drawn from state changes (REALM.md §1).
const (
	weightChangeCued  = 0.9 // another value with a change cue, or an ended state said outright
	weightChangeBare  = 0.8 // another value of a slot that holds one value at a time
	weightPlanDone    = 0.7 // a plan carried out
	weightContradicts = 0.7
)

// claimSubject is a name, a name's relative ("Uma's son"), or "we" (the speaker).
const claimSubject = `([A-Z][\p{L}\-]*(?:'s (?:son|daughter|kids?|children|child|wife|husband|partner|boyfriend|girlfriend|mom|mum|dad|mother|father|brother|sister|family))?|[Ww]e)`

// claimAdverbs may stand between the subject and the verb.
const claimAdverbs = `(?: (?:now|currently|still|just|recently|finally|also|really|only|fully|actually|officially|again|already|even))*`

const claimValue = `((?:[^.,;!?()"]|\.\w|,\d{3})+?)` // "$2,100" whole

// claimEnd ends a value: punctuation (a point after an abbreviation too: "Hartwell & Co.,";
// a point that closes a quotation: `… is +1 415 555 0199."`; not the comma of "$2,100"),
// or a word that starts something else.
const claimEnd = `(?:\s+(?:and|but|because|since|with|for|now|these days|too|anymore|any more|again|instead|from now on|after all|on|every|most|if|so|which|who|when|while|as well|already|at the moment|right now|nowadays|this|last|next|yesterday|today|tonight|tomorrow|recently|lately|in (?:January|February|March|April|May|June|July|August|September|October|November|December|the|a|\d))\b|,(?:\D|$)|[;!?()"]|\.(?:\s|$|[,;"”])|$)`

// exclusiveSlots hold one value at a time: another value replaces the old one without a
// cue. Other slots (plays, uses, learning…) take several at once and change only with a
// change cue.
var exclusiveSlots = setOf(`lives-in works-at works-as studies favourite number-of relationship-status phone-number email address age diet drives hobby school plan ships-to owner version standing`)

func exclusive(slot string) bool {
	key := strings.ReplaceAll(slot, " ", "-")
	for k := range exclusiveSlots {
		if key == k || strings.HasPrefix(key, k+"-") {
			return true
		}
	}
	return false
}

// Kinds of claim patterns: which group holds what.
const (
	plainClaim       = iota // 1 subject, 2 value
	favouriteClaim          // 1 subject, 2 the favourite's kind, 3 value
	favouriteFirst          // 1 value, 2 subject, 3 the favourite's kind ("Pizza is Nora's favourite food")
	countClaim              // 1 subject, 2 a number, 3 what is counted
	contactChanged          // 1 subject, 2 which contact detail changed
	contactChangedTo        // 1 subject, 2 which contact detail, 3 its new value ("my email changed to …")
	roleClaim               // as plainClaim, only in a text about work ("Raj is now the team lead")
	habitClaim              // 1 subject, 2 what the subject does: only an ended state can end it
	nameClaim               // as plainClaim, the value a name ("I'm Maya", "Call me Max"), not a nationality
	possessiveClaim         // 1 subject, 2 what of the subject (the slot), 3 value: "my account manager is Tom"
	begunClaim              // as habitClaim, 3 the word after the verb: a thing begun, not "why I started, and…"
	promotedClaim           // as plainClaim, the value new: "senior analyst" after "analyst"
	ownClaim                // as plainClaim; with no subject (group 1 empty), the speaker's: "our cat Mochi", "First day at Lumen"
	labelClaim              // 1 subject, 2 a label (the slot, its colon at most after it), 3 value: "moved to stage: screened"
	changedClaim            // as possessiveClaim, the value new: "Alex Kim's stage changed from offer to hired"
	statusClaim             // as plainClaim, a labelled status: "withdrew" is "withdrawn"
	startedClaim            // as plainClaim, the value new: "Mia started 6th grade at Jefferson Middle School"
	standingClaim           // 1 the other, 2 subject, 3 value: "Aldric is Mira's best friend" (Mira's standing with Aldric)
)

// aboutWork: a text in which "X is now the Y" names a role.
var aboutWork = regexp.MustCompile(`(?i)\b(?:promot\w*|job|career|hired|position|role|work\w*|employ\w*)\b`)

// claimPattern finds one slot.
type claimPattern struct {
	re   literalPattern
	slot string
	kind int
}

// claimRe: subject, verbs, then a free value.
func claimRe(verbs string) literalPattern {
	return mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` ` + verbs + ` ` + claimValue + claimEnd)
}

// claimCoordinated lets a verb follow another of the same subject: "We packed everything
// and relocated to Austin".
const claimCoordinated = `(?: [a-z][^.,;!?"]{0,40}? and)?`

// namedRe: subject, verbs, then a value that is a name ("joined Stripe", not "joined a
// new group": one may join many).
func namedRe(verbs string) literalPattern {
	return mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` ` + verbs + ` (?:the )?([A-Z](?:[^.,;!?()"]|\.\w)*?)` + claimEnd)
}

// fixedRe: subject, then verbs whose own group is the value.
func fixedRe(verbs string) literalPattern {
	return mustPattern(claimSubject + claimAdverbs + ` ` + verbs + `\b`)
}

// possessiveRe: "Nora's <what> is <value>".
func possessiveRe(what string) literalPattern {
	return mustPattern(claimSubject + `'s (?:new |current |old |all-time )?` + what + ` (?:is|are)(?: now| still)? (?:an? |the )?` + claimValue + claimEnd)
}

var claimPatterns = []claimPattern{
	{claimRe(`(?:lives?|is living|are living|living|has lived|have lived|is based|are based|resides?) in`), "lives in", plainClaim},
	{mustPattern(movedTo + ` ` + claimValue + claimEnd), "lives in", plainClaim},
	{namedRe(`(?:lives?|is living|are living|living) on`), "lives in", plainClaim}, // "We now live on Canal Road in Manchester"
	// A street address: "We live at 12 Oak Street".
	{mustPattern(claimSubject + claimAdverbs + ` (?:lives?|is living|are living|living) at (` + streetHome + `)`), "lives in", plainClaim},
	// A line with no subject, as one writes in a journal, is the speaker's ("Moved to
	// Manchester today.", "Work at Brightline Insurance as an analyst.").
	{mustPattern(ownLine + `(?:[Mm]oved|[Rr]elocated)(?: back| house| again)?(?: from [^.,;!?]+?)? to ` + claimValue + claimEnd), "lives in", ownClaim},
	{mustPattern(ownLine + `(?:[Ww]ork|[Ww]orking|[Ss]tarted working) (?:at|for) ` + employerValue), "works at", ownClaim},
	{mustPattern(`[Hh]ome for ` + claimSubject + ` is (?:now )?` + claimValue + claimEnd), "lives in", plainClaim},
	{claimRe(`(?:works?|(?:is|are)(?: now)? working|started working|has worked) (?:at|for)`), "works at", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` ` + joinedVerbs + ` (?:the )?([A-Z](?:[^.,;!?()"]|\.\w)*?)(?: as |` + claimEnd + `)`), "works at", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` ` + joinedVerbs + ` (?:the )?[A-Z](?:[^.,;!?()"]|\.\w)*? as (?:an? |the )?` + claimValue + claimEnd), "works as", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + ` (?:works?|is working) as (?:an? |the )?(?:[a-z\-]+ ){1,4}(?:at|for) ` + employerValue), "works at", plainClaim},
	{mustPattern(`(?:\b` + claimSubject + `'s |(?:^|[.!?:]\s+)(?:[Mm]y )?)[Ff]irst (?:day|week|shift) (?:at|with) (?:(?:my|the|a) (?:new )?job (?:at|with) )?` + employerValue), "works at", ownClaim},
	{namedRe(`(?:is|are)` + claimAdverbs + ` ` + roleNoun + ` (?:at|for|with)`), "works at", plainClaim},
	{claimRe(`(?:works?|is working) as(?: an?| the)?`), "works as", plainClaim},
	{claimRe(`(?:got|started|took|landed|accepted|began|has|have) (?:a|my) (?:new )?(?:job|position|role) as(?: an?| the)?`), "works as", plainClaim},
	{possessiveRe(`(?:job|profession|occupation|position|role|title)`), "works as", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + becameVerbs + ` (?:an?|the) (` + becameRole + `)` + claimEnd), "works as", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + becameVerbs + `(?: an?| the)? (\p{Lu}{2,4}(?: (?:at|of) ` + valueWords + `)?)` + claimEnd), "works as", plainClaim},
	{claimRe(`(?:got|was|has been|have been|just got) promoted to(?: an?| the)?`), "works as", promotedClaim},
	// A move to an employer as a title is a job, not a home ("Raj moved from Acme to Globex
	// as VP Sales"): where, and as what.
	{mustPattern(movedTo + ` ` + employerValue + ` as (?:an? |the )?` + titleWords), "works at", plainClaim},
	{mustPattern(movedTo + ` [A-Z][^.,;!?()"]*? as (?:an? |the )?(` + titleWords + `)`), "works as", plainClaim},
	// A title in capitals, as a contact's card or a note says it ("Raj Patel is VP
	// Engineering at Initech", "New contact: Raj Patel, VP Engineering at Initech", "Raj
	// Patel is now CTO"): the title, and where.
	{mustPattern(claimSubject + titleCopula + `(` + titleWords + `)(?: (?:at|of|for|with) [A-Z]|` + claimEnd + `)`), "works as", plainClaim},
	{mustPattern(claimSubject + titleCopula + titleWords + ` (?:at|for|with) ` + employerValue), "works at", plainClaim},
	{claimRe(`(?:is|are) now(?: an?| the)`), "works as", roleClaim},
	{claimRe(`(?:stud(?:y|ies|ying)|is studying|are studying|majors? in|is majoring in|is doing a degree in|is taking (?:an? )?(?:[a-z]+ )?(?:course|class|classes|degree) in)`), "studies", plainClaim},
	{mustPattern(claimSubject + `'s (?:major|degree|course) (?:is(?: now)?|to) ` + claimValue + claimEnd), "studies", plainClaim},
	{mustPattern(claimSubject + `'s (?:new |current |all-time )?favou?rite ([a-z]+(?: [a-z]+)?) (?:is|are|has to be|would be)(?: now| still| probably| definitely)* ` + claimValue + claimEnd), "favourite", favouriteClaim},
	{mustPattern(`([\p{L}][\p{L}\- ]{0,30}?) (?:is|are|has become|have become|became|is now|are now) ` + claimSubject + `'s (?:new |current |all-time )?favou?rite ([a-z]+)\b`), "favourite", favouriteFirst},
	{mustPattern(claimSubject + claimAdverbs + ` (?:has|have|owns?|keeps?)(?: just| only)? (one|two|three|four|five|six|seven|eight|nine|ten|a couple of|\d{1,3}) ([a-z]+)`), "number of", countClaim},
	{claimRe(`(?:drives?|is driving)(?: an?| the)?`), "drives", plainClaim},
	{possessiveRe(`car`), "drives", plainClaim},
	{claimRe(`(?:plays?|is playing|are playing|started playing)(?: the)?`), "plays", plainClaim},
	{claimRe(`(?:uses?|is using|switched to|has switched to|changed to)(?: an?| the)?`), "uses", plainClaim},
	{claimRe(`(?:is learning|are learning|learns?|started learning)`), "learning", plainClaim},
	{claimRe(`(?:drinks?|is drinking)`), "drinks", plainClaim},
	{namedRe(`(?:supports?|roots? for)`), "supports", plainClaim},
	{claimRe(`(?:goes|go) to`), "goes to", plainClaim},
	// A school one goes to, one at a time; a start at another the newer ("Mia started 6th
	// grade at Jefferson Middle School today" after "Mia goes to Lincoln Elementary").
	{mustPattern(claimSubject + claimAdverbs + ` (?:goes to|go to|attends?|is at|are at) (?:the )?` + schoolValue + claimEnd), "school", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + ` (?:started|starts|began|begins|is starting|has started)(?: school| kindergarten| preschool| [a-z0-9]+ grade)? at (?:the )?` + schoolValue + claimEnd), "school", startedClaim},
	// A plan for the next session, lesson or class, which the plan for the next one said
	// later replaces ("Next session we should review decimals").
	{mustPattern(`(?:^|[.!?:]\s+)(?:(?:[Ii]n|[Aa]t|[Ff]or) )?(?:[Tt]he |[Oo]ur )?[Nn]ext (?:session|lesson|class)[,:]? ` + claimSubject + claimAdverbs + `(?:'ll| should| will| are going to| is going to| need to| needs to| plan to| plans to)` + claimAdverbs + ` ` + claimValue + claimEnd), "plan for next session", plainClaim},
	{possessiveRe(`hobby`), "hobby", plainClaim},
	{possessiveRe(`(?:name|first name|nickname)`), "name", plainClaim},
	{mustPattern(`(?:^|[.!?,] )` + claimSubject + ` (?:is|am) ([A-Z][\p{L}\-]+)(?:[.,;!?]|$)`), "name", nameClaim},
	// A subscription's plan ("I'm on the Starter plan", "I upgraded to the Pro plan").
	{mustPattern(claimSubject + claimAdverbs + ` (?:is|are|am)(?: now| currently| still)? (?:on|subscribed to) (?:the |an? )?` + planValue), "plan", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` (?:switched|upgraded|downgraded|moved|changed|went|subscribed|signed up)(?: back)? (?:to|for) (?:the |an? )?` + planValue), "plan", plainClaim},
	// Where an order ships ("my order ships to Boston", "ship my order to Denver instead").
	{mustPattern(claimSubject + `'s (?:orders?|packages?|parcels?|deliver(?:y|ies)|shipments?) (?:ships|ship|is shipping|are shipping|will ship|goes|go|is going|are going|(?:is|are|will be|gets|get) (?:being )?(?:shipped|sent|delivered)|should (?:ship|go))(?: now)? to ` + claimValue + claimEnd), "ships to", plainClaim},
	{mustPattern(`(?i:ship|send|deliver|redirect|forward)(?:s|ed)? ` + claimSubject + `'s (?:orders?|packages?|parcels?|deliver(?:y|ies)|shipments?) to ` + claimValue + claimEnd), "ships to", plainClaim},
	// Any "my <what> is <value>" (what the patterns above do not name): one value replaces
	// another with a change cue ("is now", "new"), or without one for a slot that holds one.
	{mustPattern(claimSubject + `'s (?:new |current )?([a-z]+(?: [a-z]+){0,2}) (?:is|are)(?: now| still)? (?:an? |the )?` + claimValue + claimEnd), "", possessiveClaim},
	{mustPattern(claimSubject + `'s ([a-z]+(?: [a-z]+)?) (?:has )?(?:changed|moved|gone|went) from [^.,;!?]+? to (?:an? |the )?` + claimValue + claimEnd), "", changedClaim},
	// A record's labelled value of a subject, as a tracker's notes say it ("Liam Fischer moved
	// to stage: screened", "Alex Kim is now at stage: interviewed", "is at stage screened"):
	// a label with its colon, or without one a label of a stage.
	{mustPattern(claimSubject + claimAdverbs + ` (?:(?:moved|advanced|progressed|went) to|(?:is|are)(?: now| currently| still)? (?:at|in)) (?:the )?((?:stage|status|phase|step)|[a-z]+:):? ` + claimValue + claimEnd), "", labelClaim},
	// A candidate's withdrawal and return, as a recruiter's notes tell them ("Olivia Turner
	// withdrew from the process", "Olivia Turner is back in the process"): a status, as a
	// tracker's "Status: withdrawn" labels it, the later replacing the earlier.
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` (?:has |have |had )?(withdr(?:ew|awn))(?: (?:from|of) [^.,;!?()"]+?| (?:the|her|his|their|my) (?:application|candidacy))?` + claimEnd), "status", statusClaim},
	{mustPattern(claimSubject + claimAdverbs + ` (?:is|are)(?: now)? (back in (?:the )?(?:process|running|race|pipeline))\b`), "status", statusClaim},
	{mustPattern(`\b(?:[Cc]all|[Yy]ou can call) ` + claimSubject + ` ([A-Z][\p{L}\-]+)` + claimEnd), "name", nameClaim},
	{possessiveRe(`(?:(?:phone |mobile |cell )?number|phone|mobile|cell)`), "phone number", plainClaim},
	{possessiveRe(`e-?mail(?: address)?`), "email", plainClaim},
	{possessiveRe(`(?:home )?address`), "address", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` (?:lives?|is living|are living|living|resides?) at ` + streetAddress + claimEnd), "address", plainClaim},
	{mustPattern(`(?:changed|updated|has a new) ` + claimSubject + `'s ((?:phone |mobile )?number|e-?mail(?: address)?|address)`), "", contactChanged},
	{mustPattern(claimSubject + `'s (?:new )?((?:phone |mobile |cell )?number|e-?mail(?: address)?|(?:home )?address) (?:has )?(?:changed|moved) to ` + claimValue + claimEnd), "", contactChangedTo},
	{fixedRe(`(?:is|are) (\d{1,3}) years? old`), "age", plainClaim},
	{fixedRe(`(?:is|are|got|has been|became)(?: now)?(?: happily)? (single|married|divorced|engaged|separated|widowed|dating someone|dating|in a relationship|seeing someone)`), "relationship status", plainClaim},
	{fixedRe(`(broke up|split up|separated)`), "relationship status", plainClaim},
	{fixedRe(`(?:is|are|went|has gone|became|turned)(?: an?)?(?: fully| strictly| mostly)? (vegan|vegetarian|pescatarian|keto|paleo|gluten-free|dairy-free|carnivore|omnivore)`), "diet", plainClaim},
	{fixedRe(`(?:eats?|is eating|started eating) (meat|fish|dairy|everything)`), "diet", plainClaim},
	{claimRe(`(?:is|are) allergic to`), "allergic to", plainClaim},
	// A preference changes only with a cue, and only for the same kind of thing (kindSlots).
	{claimRe(`(?:prefers?|(?:would|'d) rather(?: have| do| go with| take)?|(?:has|have) come to prefer)`), "prefers", plainClaim},
	{mustPattern(claimSubject + claimAdverbs + ` (?:likes?|loves?|enjoys?) ` + claimValue + ` (?:best|most|the most)\b`), "prefers", plainClaim},
	{possessiveRe(`preference`), "prefers", plainClaim},
	// A partner named in passing ("Nina lives in Lisbon with Nina's partner Tomás"), whom a
	// break-up ends (partingPattern).
	{mustPattern(claimSubject + `'s (?:partner|boyfriend|girlfriend|husband|wife|fianc[eé]e?|spouse),?(?: is)? ([A-Z][\p{L}\-]+)` + claimEnd), "partner", plainClaim},
	// Where one stands with another, friend or foe ("Aldric is Mira's enemy now", after "Aldric
	// is Mira's best friend"), one at a time.
	{mustPattern(`([A-Z][\p{L}\-]+) (?:is|are)(?: now| still)? ` + claimSubject + `'s (?:best |close |good |old |worst |sworn |new )?(friend|enemy|rival|ally|nemesis|foe)s?\b`), "standing with", standingClaim},
	{mustPattern(claimSubject + claimAdverbs + ` ((?:is|are|has|have|[a-z]+[^aious]s|[a-z]+[aeiou]es|drink|drive|eat|walk|play|use|own|keep|take|write|smoke|follow)\b[^.;!?"]*)`), "habit", habitClaim},
	// Something begun or signed up for ("I started the keto diet", "I signed up for the half
	// marathon") holds, as a habit, until an ended state ends it ("I gave up on keto").
	{mustPattern(claimSubject + claimAdverbs + ` ((?:started|began|took up|signed up for|registered for|enrolled in) ([\p{L}']+)[^.;!?"]*)`), "habit", begunClaim},
	// A pet held ("our cat Mochi", "user's dog Rex", "user has a cat named Mochi"), which its
	// death ends (deathPattern).
	{mustPattern(`\b(?:` + claimSubject + `'s|[Oo]ur) (?:new |old |little )?` + petKinds + `,? (?:named |called )?([A-Z][\p{L}\-]*)\b`), "pet", ownClaim},
	{mustPattern(claimSubject + claimAdverbs + ` (?:has|have|owns?|adopted|got) (?:an? |another )?(?:new )?` + petKinds + ` (?:named|called) ([A-Z][\p{L}\-]*)\b`), "pet", plainClaim},
}

// schoolValue is a school's name: capitalised words that end with what a school is
// ("Lincoln Elementary School", "Sunny Days Preschool", "Maple Grove Elementary").
const schoolValue = `((?:[A-Z][\p{L}'\-]* ){1,4}(?:School|Elementary|Preschool|Kindergarten|Academy|Middle|High|Montessori|Nursery|Daycare)(?: School)?)`

// roleWord is a noun of what someone does for a living: the shape of most ("manager",
// "editor", "dentist", "librarian", "accountant") or one of a few that lack it (bareRole).
const roleWord = `(?:[a-z]+(?:er|or|ist|ian|ant)|` + bareRole + `)`

const bareRole = `(?:nurse|doctor|chef|intern|lead|head|cook)`

// roleNoun is a job as a statement of one says it: a noun phrase, its determiner first ("a
// backend engineer", "the head chef"), or one of the few role words that stand bare ("head
// chef", "team lead"). Without a determiner, a word of that shape is an adjective as often
// ("is getting better at", "are important for").
const roleNoun = `(?:(?:an?|the) (?:[a-z]+ ){0,3}` + roleWord + `|(?:[a-z]+ ){0,2}` + bareRole + `)`

// becameVerbs say one took up a job, which becameRole is, after its determiner: a noun
// phrase headed by a role word, then where or of what ("a nurse at the clinic", "the
// manager of the store"), or a phrase of one or two words, then where at most ("a
// paramedic", "a vet at the zoo"); not a longer phrase ("an important part of Ana's
// life"). A statement of a job has the determiner: "has become so confident" and "like an
// escape" are none; a title in capitals needs none ("became CEO of Acme").
const (
	becameVerbs = ` (?:became|has become|have become|is becoming)`
	becameRole  = `(?:[a-z]+ ){0,3}` + roleWord + `(?: (?:at|of|for|with|in) ` + valueWords + `)?|(?:[a-z]+ )?[a-z]+(?: at ` + valueWords + `)?`
	valueWords  = `(?:[^.,;!?()"]|\.\w)+?`
)

// joinedVerbs say one took a job at an employer, whose name follows them, then the job as
// what, when said: "joined Globex as CTO" works at Globex, as CTO.
const joinedVerbs = `(?:joined|(?:got|started|took|landed|accepted) (?:a|the) (?:new )?job (?:at|with)|was hired by|is employed by|(?:starts|started|is starting) (?:work |working )?at)`

// ownLine opens a sentence with no subject (its empty group 1), an adverb at most before
// its verb: the speaker's.
const ownLine = `(?:^|[.!?:]\s+)()(?:(?:[Jj]ust|[Ff]inally|[Nn]ow|[Ss]till|[Aa]lso) )?`

// movedTo: the subject moved (from where) to a home, or, as a title, to an employer.
const movedTo = claimSubject + claimAdverbs + claimCoordinated + ` (?:moved|relocated|(?:have|has) (?:moved|relocated)|(?:are|is) (?:moving|relocating))(?: back| house| again)?(?: from [^.,;!?]+?)? to`

// titleCopula joins a subject to its title: "is", "is now", or the comma of a card.
const titleCopula = `(?:` + claimAdverbs + ` (?:is|are)(?: now| currently)?(?: the| an?)? |, )`

// titleWords are a job title in capitals: a head (CEO, VP, Head, Director…), up to two
// capitalised words before it and those of its field after it ("VP Engineering", "IT
// Director", "Head of Data", "Chief Revenue Officer").
const titleWords = `(?:[A-Z][\p{L}\-]* ){0,2}?(?:C[A-Z]{1,2}O|S?VP|EVP|Head|Director|Chief|President|Manager|Founder|Co-founder|Officer)(?: (?:of |for )?[A-Z][\p{L}\-]*)*`

// employerValue is an employer's name: capitalised words, joined by "&", "of" or "and"
// ("Hartwell & Co", "Bank of America"), not what follows it ("Lumen Analytics today").
const employerValue = `((?:the )?[A-Z][\p{L}\d'\-]*(?:\.\w+)*(?: (?:&|of|and|de|[A-Z][\p{L}\d'\-]*))*)`

// opensThing: a word after "started" opens what was begun: a content word or a
// determiner ("started the keto diet", "started my own store"), not "started on", "to".
func opensThing(w string) bool {
	w = strings.ToLower(w)
	return !text.IsStopword(w) || determiners[w]
}

// petKinds are the animals kept as pets.
const petKinds = `(?:cat|dog|kitten|puppy|pup|rabbit|bunny|parrot|hamster|guinea pig|horse|pony|bird|turtle|tortoise|snake|lizard|ferret)`

// deathPattern: someone held died ("Mochi died this morning", "my husband Tom passed
// away", "Tom's dog Rex died"): group 1 names them. Whoever held them, they are held no
// more (stateClaim.death).
var deathPattern = mustPattern(`\b([A-Z][\p{L}\-]*) (?:has |had )?(?:died|passed away|passed on|was put down|was put to sleep)\b`)

// heldSlots are what a subject holds that a parting or a death ends: a partner, a pet.
var heldSlots = []string{"partner", "pet"}

// streetAddress is where one lives at, a street and its number ("Hauptstrasse 5", "12 Oak
// Lane"): an address, as "my address is …" states one; not "lives at home".
const streetAddress = `(\d+[A-Za-z]? [A-Z][^.,;!?()"]*?|[A-Z][^.,;!?()"]*? \d+[A-Za-z]?)`

// planValue is a plan's name, capitalised as products are ("Starter plan", "Pro tier"; not
// "a meal plan"), and the word that says it is one.
const planValue = `([\p{Lu}\d][\p{L}\d+\-]*(?: [\p{Lu}\d][\p{L}\d+\-]*)?) (?:plan|subscription|tier)\b`

var rePlanValue = regexp.MustCompile(`(?i)\b(?:plan|subscription|tier)$`)

// streetHome is a house number and its street ("12 Oak Street", "48 Maple Avenue"),
// which a home is as much as a town is.
const streetHome = `\d+[A-Za-z]? (?:[A-Z][\p{L}\-]* ){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|Terrace|Close|Square|Crescent)\b`

var reStreetHome = regexp.MustCompile(`^` + streetHome)

// reTimeValue: a value that is a time, what a meeting moves to, no home.
var reTimeValue = regexp.MustCompile(`(?i)^(?:the |next |this )?(?:\d|tomorrow|today|tonight|` + text.MonthNames + `|` + weekdayNames + `)`)

// reWorkPlace: a place one moves to at work, not a home.
var reWorkPlace = regexp.MustCompile(`(?i)\b(?:team|squad|department|division|unit|group|office|desk|project|role|position)$`)

// A title in capitals and where ("CTO at Initech", of a promotion), and one after "as"
// (a move "to Globex as VP Sales"): a job, not a home.
var (
	reTitleAt = regexp.MustCompile(`^(` + titleWords + `) (?:at|for|with) ` + employerValue + `$`)
	reAsTitle = regexp.MustCompile(` as (?:an? |the )?` + titleWords + `$`)
)

// possessedSlot: "X's <slot> is <value>" states a value of its own slot: not one the
// other patterns read ("name", "job", "favourite …"), not a person's (a relative has many
// things said of them: "my sister is a nurse", "my sister is now in Berlin"), and a value
// that is a thing, not a clause ("my plan is to move", "my problem is that…").
func possessedSlot(slot, value string) bool {
	for _, w := range strings.Fields(slot) {
		if possessedTaken[w] || relatives[w] || text.IsStopword(w) {
			return false
		}
	}
	return !text.IsStopword(strings.ToLower(firstWord(value))) && !possessedTaken[strings.ToLower(firstWord(value))]
}

// possessedTaken: words of slots other patterns read, or that say nothing of a value.
var possessedTaken = setOf(`name nickname job profession occupation position role title major degree course favourite favorite
number phone mobile cell email e-mail address car hobby preference partner boyfriend girlfriend husband wife fiance fiancee
spouse goal dream plan idea problem question issue point guess advice opinion favorite thing hope wish worry fear concern
reason excuse answer point to in at on so very really not that also just`)

// kindSlots hold values of many kinds at once, one of each kind: a preference for
// late-afternoon meetings replaces one for morning meetings (a word in common: sameKind),
// not one for tea; a switch to a Mediterranean diet replaces a diet, not an inhaler used.
var kindSlots = setOf(`prefers uses plays learning drinks allergic-to`)

// heldClaims are the claims of a text that state a value its slot holds until another
// replaces it (changeable, or a preference): the slot a candidate states a value of
// (agent.Candidate's Subject and Attribute), whose current holders the write path reads
// however large the space.
func heldClaims(text, speaker string) []stateClaim {
	return slices.DeleteFunc(stateClaims(text, speaker), func(c stateClaim) bool {
		return !changeable(c) && (c.plan || c.ended || c.slot != "prefers")
	})
}

// partingPattern: two people broke up ("Tomás and Nina broke up"); each ends the other as
// partner, and nothing else they did together. The verb ends a clause or a time follows
// it: "Tom and we split the bill" is none.
var partingPattern = mustPattern(claimSubject + ` and ` + claimSubject + claimAdverbs + ` (?:broke up|split up|split|separated|got divorced|divorced|called it quits)` +
	`(?:[.,;!?)]|$| (?:last|in|on|after|a few|two|three|this|that|and|but|because|so|when|recently|earlier|months|years|weeks|amicably|for good)\b)`)

// endedPatterns say a state no longer holds: the subject is group 1, the ended value group 2.
var endedPatterns = []literalPattern{
	claimRe(`(?:quit|left|sold|replaced|gave up|gave away|stopped|dropped out of|dropped|cancell?ed|ended|lost|got rid of|ditched|retired from|moved out of|moved away from|broke up with|outgrew|(?:has|have) outgrown|grew out of|no longer)(?: playing| doing| using| going to| taking| drinking| eating| learning| studying| working at| working for| living in| seeing| dating| the| my| an?)?`),
	// Something given to someone ("gave Kiwi to my aunt"), not a talk given.
	mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` gave (?:the |my |an? )?` + claimValue + ` (?:to|away)\b`),
	claimRe(`(?:is|are) no longer`),
	mustPattern(claimSubject + claimAdverbs + ` (?:doesn't|does not|don't|do not|isn't|is not|aren't|are not|can't|cannot|won't) ([^.,;!?()"]+?) (?:anymore|any more|after all)\b`),
	mustPattern(claimSubject + `\b[^.;!?"]{0,60}? instead of (?:[a-z]+ing )?(?:the |an? )?` + claimValue + claimEnd),
	// What one moved or switched from, not what to: "switched from metformin to insulin" ends
	// the metformin, not "insulin glargine, 12 units".
	mustPattern(claimSubject + claimAdverbs + claimCoordinated + ` (?:moved|switched|changed) from(?: the| my| an?)? ` + claimValue + changedTo + claimEnd),
	// Off what one took ("user is off metformin now"), or taken off it by someone else, the
	// subject the verb's object ("the doctor took user off lisinopril", "switched user from
	// metformin to insulin").
	claimRe(`(?:is|are|went|has gone|have gone|has been|have been|came|got) off(?: of)?(?: the| my)?`),
	mustPattern(`\b(?:switched|changed|moved|took|taken) ` + claimSubject + ` (?:off|from)(?: of)?(?: the| my)? ` + claimValue + changedTo + claimEnd),
}

// changedTo is what a value changed to, after the value that ended.
const changedTo = `(?: (?:to|onto|into) [^.,;!?()"]*?)?`

// planPattern: the subject plans something (group 2: what).
var planPattern = claimRe(`(?:is planning to|are planning to|plans? to|planned to|is going to|are going to|wants? to|hopes? to|intends? to|is hoping to|are hoping to|would like to|is thinking about|dreams? of)`)

// changeCue: words that say a value replaces another.
var changeCue = regexp.MustCompile(`(?i)(?:'s new\b|\bnew (?:job|number|address|email|phone|car|home|house|flat|apartment|favou?rite)\b|\b(?:now|anymore|any more|no longer|switched|moved|relocated|quit|instead|changed|stopped|gave up|dropped|left|these days|nowadays|again|from now on|became|promoted|not .* after all|updated?)\b)`)

// saidBy is the speaker of a candidate or node, from its description.
var saidBy = regexp.MustCompile(`^Said by (.+?)(?: on |\.|$)`)

func speakerOfDescription(desc string) string {
	if m := saidBy.FindStringSubmatch(desc); m != nil && m[1] != "someone" {
		return m[1]
	}
	return ""
}

// stateClaims finds what a (pronoun-rewritten) text states about subjects; "we" is the
// speaker, but pasted text's (quoted.go). Claims about unknown subjects (lowercase words,
// nonName) are dropped.
func stateClaims(text, speaker string) []stateClaim {
	var out []stateClaim
	said := text
	text, aliased := speakerAsWe(theirsInPasted(text, speaker), speaker)
	// A chat role's counterpart as the rewrite writes it ("Noted: user takes metformin",
	// said by the assistant) is a subject too: a name the patterns read, the role again in
	// the claim.
	counterpart := chatCounterpart[strings.ToLower(speaker)]
	if counterpart != "" {
		text = replaceWord(text, counterpart, strings.ToUpper(counterpart[:1])+counterpart[1:])
	}
	subject := func(s string) string {
		if strings.EqualFold(s, "we") {
			return speaker
		}
		if nonName[strings.ToLower(s)] {
			return ""
		}
		return s
	}
	add := func(c stateClaim) {
		c.we = strings.EqualFold(c.subject, "we")
		if aliased {
			c.subject, c.value = weAsSpeaker(c.subject, speaker), weAsSpeaker(c.value, speaker)
		}
		if counterpart != "" {
			c.subject, c.value = replaceWord(c.subject, counterpart, counterpart), replaceWord(c.value, counterpart, counterpart)
		}
		c.subject, c.value, c.speaker = subject(c.subject), strings.TrimSpace(strings.ReplaceAll(c.value, "We's", speaker+"'s")), speaker
		if c.subject == "" || c.value == "" {
			return
		}
		out = append(out, c)
	}
	// A team's claims first: where another rule reads the same words ("we moved from
	// Postgres 14 to Postgres 16" is also an ended state), theirs names what replaces what.
	for _, c := range teamClaims(text) {
		if c.ended && phrasalParticle[strings.ToLower(firstWord(c.value))] {
			continue // "and drop by the office": not an end
		}
		c.said = said
		add(c)
	}
	// A sentence that opens with "our" ("Our address is …", "Our car is a Civic") tells of
	// the speaker's, as "we" does.
	text = reOur.ReplaceAllString(text, "${1}We's")
	for _, p := range claimPatterns {
		for _, loc := range p.re.findAllIndex(text) {
			m, at := submatches(text, loc), loc[2]
			c := stateClaim{subject: m[1], slot: p.slot, value: m[2]}
			switch p.kind {
			case favouriteClaim:
				c.slot, c.value = "favourite "+normFavourite(m[2]), m[3]
			case favouriteFirst:
				c.subject, c.slot, c.value = m[2], "favourite "+normFavourite(m[3]), m[1]
				at = loc[4]
			case countClaim:
				c.slot, c.value = "number of "+singular(m[3]), numberValue(m[2])
			case contactChanged:
				c.slot, c.value = contactSlot(m[2]), "changed"
			case contactChangedTo:
				c.slot, c.value, c.cued = contactSlot(m[2]), m[3], true
			case roleClaim:
				if !aboutWork.MatchString(text) {
					continue
				}
			case nameClaim:
				if languages[strings.ToLower(c.value)] || nonName[strings.ToLower(c.value)] {
					continue
				}
			case habitClaim:
				if len(contentWords(c.value)) == 0 {
					continue // "Yes, I do.", "she is": an answer, no habit of its own
				}
			case begunClaim:
				if !opensThing(m[3]) {
					continue // "the petition I started - it's tricky", "started on a book"
				}
			case startedClaim:
				c.cued = true
			case promotedClaim:
				c.cued = true
				if t := reTitleAt.FindStringSubmatch(c.value); t != nil {
					// "promoted to CTO at Initech": the title, and where, as a note's title says them
					c.value = t[1]
					add(stateClaim{subject: fullName(text, at, c.subject), slot: "works at", value: t[2]})
				}
			case ownClaim:
				if m[1] == "" {
					c.subject = "we"
				}
			case possessiveClaim, changedClaim:
				c.slot, c.value, c.cued = m[2], m[3], p.kind == changedClaim
				if !possessedSlot(c.slot, c.value) {
					continue
				}
			case labelClaim:
				c.slot, c.value, c.label = strings.TrimSuffix(m[2], ":"), m[3], true
			case standingClaim:
				c.subject, c.slot, c.value = m[2], "standing with "+m[1], m[3]
				at = loc[4]
			case statusClaim:
				c.label = true
				if strings.HasPrefix(c.value, "withdr") {
					c.value = "withdrawn"
				}
			}
			if (c.slot == "lives in" || c.slot == "uses") && rePlanValue.MatchString(c.value) {
				continue // "moved to the Pro plan" is a plan, not a home
			}
			if c.slot == "lives in" && (reWorkPlace.MatchString(c.value) || reAsTitle.MatchString(c.value) || strings.Contains(c.value, ":") || reTimeValue.MatchString(c.value) && !reStreetHome.MatchString(c.value)) {
				continue // "moved to the fraud detection team", "to the Porto office", "to Globex as VP Sales", "to stage: screened", "Moved to Thursday": work, a label, a time, not a home
			}
			if c.slot == "relationship status" && (c.value == "broke up" || c.value == "split up" || c.value == "separated") {
				c.value = "single"
			}
			c.subject = fullName(text, at, c.subject)
			add(c)
			if m := reChannelPreferred.FindStringSubmatch(c.value); c.slot == "prefers" && m != nil {
				add(stateClaim{subject: c.subject, slot: "contacted by", value: channelOf(m[1])}) // "now I prefer phone calls"
			}
		}
	}
	for _, c := range slices.Concat(requestClaims(text, speaker), otherLanguageClaims(text)) {
		add(c)
	}
	for _, c := range cardDetails(text) {
		c.speaker = speaker
		out = append(out, c) // of no one when the text names no card's person: cardClaims
	}
	for _, c := range labelledDetails(text, speaker) {
		add(c)
	}
	if c, ok := readingClaim(said, speaker); ok {
		out = append(out, c) // the gauge's, whoever reports it: not "we"
	}
	for _, re := range endedPatterns {
		for _, m := range namedMatches(re, text) {
			if w := strings.ToLower(firstWord(m[2])); phrasalParticle[w] || w == "to" {
				continue // "dropped off the cake", "left for Paris", "is off to Paris": not an end
			}
			add(stateClaim{subject: m[1], value: m[2], ended: true})
		}
	}
	for _, loc := range partingPattern.findAllIndex(text) {
		m := submatches(text, loc)
		add(stateClaim{subject: fullName(text, loc[2], m[1]), slot: "partner", value: m[2], ended: true})
		add(stateClaim{subject: fullName(text, loc[4], m[2]), slot: "partner", value: m[1], ended: true})
	}
	for _, m := range deathPattern.findAll(text) {
		if nonName[strings.ToLower(m[1])] {
			continue
		}
		for _, slot := range heldSlots {
			add(stateClaim{subject: "we", slot: slot, value: m[1], ended: true, death: true})
		}
	}
	for _, loc := range planPattern.findAllIndex(text) {
		add(stateClaim{subject: fullName(text, loc[2], text[loc[2]:loc[3]]), value: text[loc[4]:loc[5]], plan: true})
	}
	return withoutRoleless(out)
}

// reOur is "our" opening a sentence: group 1 what opens it.
var reOur = regexp.MustCompile(`(^|[.!?:]\s+)[Oo]ur\b`)

// withoutRoleless drops a "uses" claim of no role when a team's claim says what the same
// tool is used for: "we now use GitLab CI for all pipelines" changes what runs pipelines,
// not whatever else is used.
func withoutRoleless(cs []stateClaim) []stateClaim {
	return slices.DeleteFunc(cs, func(c stateClaim) bool {
		return c.slot == "uses" && c.role == "" && slices.ContainsFunc(cs, func(r stateClaim) bool {
			return r.slot == "uses" && r.role != "" && sameSubject(r.subject, c.subject) && sameValue(r.value, c.value)
		})
	})
}

// namedMatches are p's matches in text whose subject (group 1) is a name, whole
// (fullName), or "we". A match whose subject is no name is looked for again after that
// word, where the subject may follow: in "Actually, now we prefer coffee instead of
// tea", "instead of" first reads "Actually" as the subject, and so never "we".
func namedMatches(p literalPattern, text string) [][]string {
	var out [][]string
	for at := 0; at < len(text) && p.mayMatch(text[at:]); {
		loc := p.FindStringSubmatchIndex(text[at:])
		if loc == nil {
			break
		}
		if subject := strings.ToLower(text[at+loc[2] : at+loc[3]]); subject != "we" && nonName[subject] {
			at += loc[3]
			continue
		}
		m := submatches(text[at:], loc)
		m[1] = fullName(text, at+loc[2], m[1])
		out = append(out, m)
		at += max(loc[1], 1)
	}
	return out
}

// submatches are the groups of a match at loc in text, as FindStringSubmatch gives them.
func submatches(text string, loc []int) []string {
	m := make([]string, len(loc)/2)
	for g := range m {
		if loc[2*g] >= 0 {
			m[g] = text[loc[2*g]:loc[2*g+1]]
		}
	}
	return m
}

// phrasalParticle: an ended verb followed by one of these says something else ("on"
// is not one: "gave up on Spanish" ends it).
var phrasalParticle = setOf(`off by for over in into down through around`)

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// nameLike is a speaker the subject patterns read as a name.
var nameLike = regexp.MustCompile(`^[A-Z][\p{L}\-]*$`)

// speakerAsWe writes "We" for the speaker when the subject patterns cannot read the
// speaker's name as one: a chat role ("user lives in Lisbon", as the first-person rewrite
// writes the role "user"), a handle ("ana_92"). It reports whether it did.
func speakerAsWe(text, speaker string) (string, bool) {
	if speaker == "" || nameLike.MatchString(speaker) {
		return text, false
	}
	out := replaceWord(text, speaker, "We")
	return out, out != text
}

// weAsSpeaker undoes speakerAsWe in a claim's subject or value.
func weAsSpeaker(s, speaker string) string { return replaceWord(s, "We", speaker) }

// replaceWord replaces each whole-word occurrence of word in text, in any case, with by.
func replaceWord(text, word, by string) string {
	lt, lw := strings.ToLower(text), strings.ToLower(word)
	if len(lt) != len(text) || len(lw) != len(word) {
		lt, lw = text, word // lower case changed a length: match the case as written
	}
	var b strings.Builder
	last := 0
	for s, e := range wholeWords(lt, lw) {
		b.WriteString(text[last:s])
		b.WriteString(by)
		last = e
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

func normFavourite(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.ReplaceAll(s, "color", "colour")
}

func contactSlot(s string) string {
	s = strings.ToLower(s)
	switch {
	case strings.Contains(s, "mail"):
		return "email"
	case strings.Contains(s, "number") || rePhoneLabel.MatchString(s):
		return "phone number"
	}
	return "address"
}

// opensCardDetail: text opens with a detail a card labels ("phone +1 415 555 0101"), a
// value of its own beside the card's others.
func opensCardDetail(text string) bool {
	loc := reCardDetail.FindStringIndex(text)
	return loc != nil && loc[0] == 0
}

// cardLabel labels an email or a phone number on a card.
const cardLabel = `(?i:e-?mail|phone|mobile|cell|tel)`

var rePhoneLabel = regexp.MustCompile(`^(?:phone|mobile|cell|tel)$`)

// A contact's card: its person ("New contact: Lisa Schultz, Head of Data at Acme.", or a
// full name that opens the text, then a title or a detail: "Raj Patel, IT Director at
// Initech. Email …"; group 1 or 2), and the details it labels ("Email
// lisa.schultz@acme.com, phone +1 415 555 0101", "Title: Head of Data"): group 1 the
// label, 2 its value, or, of a title, groups 3 and 4.
var (
	reCardPerson = regexp.MustCompile(`\b[Cc]ontact: ([A-Z][\p{L}\-]*(?: [A-Z][\p{L}\-]*)*)|` +
		`^(?:[^:.]*: )?([A-Z][\p{L}\-]*(?: [A-Z][\p{L}\-]*)+)(?:, ` + titleWords + `|[,.;:]?\s+(?:` + cardLabel + `|(?i:title))\b)`)
	reCardDetail = regexp.MustCompile(`(?:^|[.;,:]\s+)(` + cardLabel + `)(?::\s*|\s+)([\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|\+?\d[\d \-.()]{5,}\d)|(?:^|[.;,:]\s+)(?i:(title)):\s*([^.,;]+)`)
)

// cardDetails are the claims of the details a card labels, of the card's person; of no
// one ("") in a clause of the card that names no person, which takes the card's
// (cardClaims).
func cardDetails(said string) []stateClaim {
	person := ""
	if m := reCardPerson.FindStringSubmatch(said); m != nil {
		person = m[1] + m[2]
	}
	var out []stateClaim
	for _, m := range reCardDetail.FindAllStringSubmatch(said, -1) {
		c := stateClaim{subject: person, slot: contactSlot(m[1]), value: m[2]}
		if m[3] != "" {
			c.slot, c.value = "works as", strings.TrimSpace(m[4])
		}
		out = append(out, c)
	}
	return out
}

// reLabelledDetail: a sentence that is a label and a short value ("Stage: offer."), as a
// tracker's notes write a record's field: group 1 the label, 2 the value, up to three words.
var reLabelledDetail = regexp.MustCompile(`^([A-Z][a-z]+): ([\p{L}\d'\-]+(?: [\p{L}\d'\-]+){0,2})[.!]?$`)

// reFullName: two capitalised words or more in a row, a full name when the first is a known
// first name ("Alex Kim"; not "Product Designer").
var reFullName = regexp.MustCompile(`\b\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)+\b`)

// labelledDetails are the claims of the labelled values of text (reLabelledDetail) of the
// one person it names by a full name besides the speaker ("Offer approved for Alex Kim: …
// Stage: offer."): the label is the slot, one value at a time. Of no one, no claim: a
// text that names two people ("Interview feedback for Emma Dubois from Sam Patel") or
// none, and a label that a card or another slot reads ("Title: …", "Email: …"), or that
// says no field ("Note: …").
func labelledDetails(text, speaker string) []stateClaim {
	var person string
	for _, name := range reFullName.FindAllString(text, -1) {
		if !firstNames[strings.ToLower(firstWord(name))] || sameSubject(name, speaker) || sameSubject(name, person) {
			continue
		}
		if person != "" {
			return nil
		}
		person = name
	}
	if person == "" {
		return nil
	}
	var out []stateClaim
	for _, seg := range sentences(text) {
		m := reLabelledDetail.FindStringSubmatch(text[seg.start:seg.end])
		if m != nil && !possessedTaken[strings.ToLower(m[1])] && !headingLabels[strings.ToLower(m[1])] {
			out = append(out, stateClaim{subject: person, slot: strings.ToLower(m[1]), value: m[2], label: true})
		}
	}
	return out
}

// headingLabels open a note, not a field of a record.
var headingLabels = setOf(`note notes reminder reminders update fyi todo ps tip warning edit summary question answer`)

var numberWords = map[string]string{"one": "1", "a": "1", "two": "2", "a couple of": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}

func numberValue(s string) string {
	if n, ok := numberWords[strings.ToLower(s)]; ok {
		return n
	}
	return s
}

func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies"):
		return strings.TrimSuffix(w, "ies") + "y"
	case strings.HasSuffix(w, "ses"), strings.HasSuffix(w, "xes"):
		return strings.TrimSuffix(w, "es")
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// sameSubject compares two claim subjects.
func sameSubject(a, b string) bool { return a != "" && normName(a) == normName(b) }

// fullName is the name that subject, as the patterns read it at at in said (a name's
// last word: "Patel"), ends: "Raj Patel" of "Raj Patel is VP Engineering at Initech", so
// that a claim of Tom Becker is none of Tom Ruiz's; subject itself when no capitalised
// word that may open a name stands right before it.
func fullName(said string, at int, subject string) string {
	if at < 0 {
		return subject // none said: "our cat Mochi"
	}
	before, ok := strings.CutSuffix(said[:at], " ")
	if !ok || !nameLike.MatchString(subject) || strings.EqualFold(subject, "we") {
		return subject // "we", "Uma's son"
	}
	from := strings.LastIndexAny(before, " \t\n\"(") + 1
	first, lead := before[from:], strings.TrimRight(before[:from], " \t\n\"'(")
	// A word that opens a sentence or a clause is capitalised whatever it is ("Whenever
	// Caroline…", "Lately Jon…"): there, a known first name only, as findNames reads them.
	opens := lead == "" || strings.ContainsAny(lead[len(lead)-1:], ".!?:;,")
	if !nameLike.MatchString(first) || nonName[strings.ToLower(first)] || text.IsStopword(strings.ToLower(first)) || opens && !firstNames[strings.ToLower(first)] {
		return subject
	}
	return first + " " + subject
}

// fullNames are the names of two words or more that the claims of nbs have as subjects.
func fullNames(nbs []scoredNeighbour) []string {
	var out []string
	for _, nb := range nbs {
		for _, c := range nodeClaims(nb.Node) {
			if strings.Contains(c.subject, " ") && !slices.Contains(out, c.subject) {
				out = append(out, c.subject)
			}
		}
	}
	return out
}

// namedFully is the statement with each subject that is a first name alone ("Raj was
// promoted to CTO") the one of names it opens ("Raj Patel"); a first name that opens two
// ("Tom Becker", "Tom Ruiz") stays as said, of neither.
func (s *statement) namedFully(names []string) *statement {
	claims := slices.Clone(s.claims)
	for k, c := range claims {
		if !nameLike.MatchString(c.subject) {
			continue
		}
		opened := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !strings.EqualFold(firstWord(n), c.subject) })
		if len(opened) == 1 {
			claims[k].subject = opened[0]
		}
	}
	named := *s
	named.claims = claims
	return &named
}

// sameValue: one normalised value holds the other ("Lisbon" and "Lisbon near the river").
func sameValue(a, b string) bool {
	x, y := normValue(a), normValue(b)
	return x == y || (x != "" && y != "" && (strings.Contains(" "+x+" ", " "+y+" ") || strings.Contains(" "+y+" ", " "+x+" ")))
}

// stateChange is how a new text relates to an older one's claims.
type stateChange struct {
	predicate   string // "supersedes" or "contradicts"; "" when neither
	weight      float64
	description string
}

// statement is a new text with its speaker and claims, as changeBetween compares it with
// the claims of older nodes; its cues are read when a pair of claims first needs them
// (most pairs never do).
type statement struct {
	text, speaker string
	claims        []stateClaim
	past          lazy[bool] // it tells of a past event (a plan carried out is said in the past)
	changeCued    lazy[bool] // it says a value replaces another
	moves         lazy[bool] // it moves something to another day (reReschedule)
	corrections   lazy[[]correction]
	amountCued    lazy[bool] // it says an amount changed (reAmountCue), or amends a contract
	amounts       lazy[[]amount]
	newHolder     lazy[string]   // what an amount changed to, a name (reNewHolder)
	scheduleMove  lazy[[]string] // what reScheduleMoved finds in it
	alterations   lazy[[]planAlteration]
	namesReplaced lazy[bool] // it names what its value replaces (reInsteadOf)
}

// reInsteadOf: a text that names what its value replaces, which its ended claim reads:
// "instead of low-carb", "switched from metformin".
var reInsteadOf = regexp.MustCompile(`(?i)\binstead of\b|\b(?:switched|changed) from\b`)

func newStatement(text, speaker string) *statement {
	return &statement{
		text: text, speaker: speaker, claims: saidMemo.get([2]string{text, speaker}, statementClaims),
		past:        lazy[bool]{f: func() bool { return hasPastCue(text) && !hasFutureCue(text) }},
		changeCued:  lazy[bool]{f: func() bool { return changeCue.MatchString(text) }},
		moves:       lazy[bool]{f: func() bool { return reReschedule.MatchString(reToDuration.ReplaceAllString(withoutLabels(text), "")) }},
		corrections: lazy[[]correction]{f: func() []correction { return correctionsOf(text) }},
		amountCued:  lazy[bool]{f: func() bool { return reAmountCue.MatchString(text) || amends(text) }},
		amounts:     lazy[[]amount]{f: func() []amount { return amountsOf(text) }},
		newHolder: lazy[string]{f: func() string {
			if m := reNewHolder.FindStringSubmatch(text); m != nil {
				return m[1]
			}
			return ""
		}},
		scheduleMove:  lazy[[]string]{f: func() []string { return reScheduleMoved.FindStringSubmatch(withoutLabels(text)) }},
		alterations:   lazy[[]planAlteration]{f: func() []planAlteration { return planAlterations(text, speaker) }},
		namesReplaced: lazy[bool]{f: func() bool { return reInsteadOf.MatchString(text) }},
	}
}

// saidMemo remembers the claims of statements (text, speaker): a newer memory is read as
// one for every older candidate sent after it (stateChanges).
var saidMemo memo[[2]string, []stateClaim]

func statementClaims(said [2]string) []stateClaim { return stateClaims(said[0], said[1]) }

// changeBetween compares the claims of a new statement with those of an older node.
// Speakers tell two people's claims apart, not a team's (sameHolder).
func changeBetween(s *statement, old []stateClaim) stateChange {
	var best stateChange
	better := func(c stateChange) {
		if c.weight > best.weight {
			best = c
		}
	}
	for _, n := range s.claims {
		for _, o := range old {
			if !(sameHolder(n, o) || n.death) || o.ended {
				continue
			}
			switch {
			case n.ended && !o.plan && (n.slot == "" || n.slot == o.slot) && endsValue(n.value, o):
				what := strings.TrimSpace(o.subject + " " + changedWhat(o)) // "Chloe works at: no longer Crumbs", what changed named
				if n.by != "" && !sameValue(n.by, o.value) {
					better(stateChange{"supersedes", weightChangeCued, restatedOr(o, n.by, fmt.Sprintf("%s: %s, previously %s", what, n.by, o.value))})
				} else {
					better(stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s: no longer %s", what, o.value)})
				}
			case n.plan || n.ended || o.plan || namesWhatItReplaces(s, n, o):
			case n.slot == o.slot && n.slot != "habit" && !sameOrHeld(n, o) && sameKind(n, o) && sameRole(n, o):
				desc := restatedOr(o, n.value, fmt.Sprintf("%s %s: %s, previously %s", n.subject, changedWhat(o), n.value, o.value))
				switch {
				case s.changeCued.get() || n.cued || n.label:
					better(stateChange{"supersedes", weightChangeCued, desc})
				case !exclusive(n.slot):
				case n.speaker != "" && o.speaker != "" && !strings.EqualFold(n.speaker, o.speaker):
					// Two people say two values and nothing says which came later.
					better(stateChange{"contradicts", weightContradicts, fmt.Sprintf("%s %s: %s or %s", n.subject, n.slot, n.value, o.value)})
				default:
					better(stateChange{"supersedes", weightChangeBare, desc})
				}
			}
		}
	}
	// A plan carried out: the subject named (or the speaker, for "we") in a past text that
	// says what was planned.
	for _, o := range old {
		if o.plan && s.past.get() && (containsName(s.text, o.subject) || sameSubject(o.subject, s.speaker)) && planDone(o.value, o.subject, s.text) {
			better(stateChange{"supersedes", weightPlanDone, fmt.Sprintf("%s did what was planned: %s", o.subject, o.value)})
		}
	}
	return best
}

// sameOrHeld: n's value is o's, or holds it ("Lisbon near the river", "Lisbon"), unless n
// says its value is new: a promotion to "senior data analyst" changes "data analyst".
func sameOrHeld(n, o stateClaim) bool {
	if n.cued && n.slot == "works as" {
		return normValue(n.value) == normValue(o.value)
	}
	if same, ok := sameVersion(n.value, o.value); ok {
		return same
	}
	return sameValue(n.value, o.value) || sameAmounts(n.value, o.value)
}

// sameAmounts: two values say the same amounts, however written ("$85k", "$85,000 a
// year"), and beside them nothing that differs: what one says besides is none, or holds
// the other's ("a year"; "Comcast at $70" and "Sonic at $70" are two values).
func sameAmounts(a, b string) bool {
	as, bs := amountsOf(a), amountsOf(b)
	same := func(x, y amount) bool { return x.value == y.value && x.unit == y.unit }
	if len(as) == 0 || !slices.EqualFunc(as, bs, same) {
		return false
	}
	ra, rb := withoutAmounts(a, as), withoutAmounts(b, bs)
	return ra == "" || rb == "" || sameValue(ra, rb)
}

// withoutAmounts is text without the words of its amounts as.
func withoutAmounts(text string, as []amount) string {
	for _, a := range as {
		text = strings.Replace(text, a.word, "", 1)
	}
	return strings.TrimSpace(text)
}

// namesWhatItReplaces: the statement says what its value n replaces ("we use ruff format
// instead of black", "I switched to a Mediterranean diet instead of low-carb"), and that
// is not o's value: n changes the tool or the diet it names, not every one the subject
// uses ("we use TypeScript 5.6", "I use a diet tracker" hold).
func namesWhatItReplaces(s *statement, n, o stateClaim) bool {
	named := false
	for _, e := range s.claims {
		if e.ended && (e.by != "" && sameValue(e.by, n.value) || e.by == "" && sameSubject(e.subject, n.subject) && s.namesReplaced.get()) {
			if endsValue(e.value, o) {
				return false
			}
			named = true
		}
	}
	return named
}

// restatedOr describes a change of a team's claim o to value as o's own clause with the
// new value ("Our pipelines run on GitLab CI (previously Jenkins)"), so that a question
// asked in o's words ("Where do our pipelines run?") names nothing of o that the change
// does not (the read path, retrieval/validity.go); else, as for any other claim, plain.
func restatedOr(o stateClaim, value, plain string) string {
	if !o.decision() {
		return plain
	}
	said := rePrompt.ReplaceAllString(o.said, "")
	if o.slot == "owner" { // what the old owner is, not the new one: "Jane Porter, General Counsel, signs for Acme Corp"
		said = regexp.MustCompile(regexp.QuoteMeta(o.value)+`, [^,.;:!?]{1,40},`).ReplaceAllLiteralString(said, o.value)
	}
	if r, ok := restated(said, []string{o.value}, []string{value}); ok {
		return r
	}
	return plain
}

// restated is the clause of text that says the first of froms, with each of tos in the
// place of its from and the froms named after it: "Nina takes 40mg of sertraline every
// morning (previously 20mg)"; the whole text when no one clause says them all, and
// nothing when text does not say them.
func restated(text string, froms, tos []string) (string, bool) {
	for _, from := range froms {
		if !containsWord(text, from) {
			return "", false
		}
	}
	clause := text
	for _, c := range clauses(text) {
		if part := text[c.start:c.end]; allWordsIn(part, froms) {
			clause = part
			break
		}
	}
	for i, from := range froms {
		clause = replaceWord(clause, from, tos[i])
	}
	return fmt.Sprintf("%s (previously %s)", strings.TrimRight(clause, ".!"), strings.Join(froms, ", ")), true
}

func allWordsIn(text string, ws []string) bool {
	return !slices.ContainsFunc(ws, func(w string) bool { return !containsWord(text, w) })
}

// changedWhat names what changed in an edge's description: the slot ("lives in"), a tool's
// role ("pipelines") or nothing for a habit.
func changedWhat(o stateClaim) string {
	switch {
	case o.role != "":
		return o.role
	case o.slot == "habit":
		return ""
	}
	return o.slot
}

// endsValue: an ended value names what an older claim states (a content word in common,
// not counting the verbs the patterns share; of an email or a phone number, a word of its
// slot only), or is a habit's verb done ("quit smoking" ends "smoke ten cigarettes a day").
func endsValue(ended string, o stateClaim) bool {
	ow := map[string]bool{}
	if o.slot != "email" && o.slot != "phone number" {
		ow = wordSet(contentWords(o.value)) // "left Initech" ends no raj.patel@initech.com
	}
	for w := range wordSet(contentWords(o.slot)) {
		ow[w] = true
	}
	subject := wordSet(contentWords(o.subject))
	for _, w := range contentWords(ended) {
		if !genericStateWords[w] && !subject[w] && ow[w] {
			return true
		}
	}
	doing, verb := strings.ToLower(firstWord(ended)), strings.ToLower(firstWord(o.value))
	return o.slot == "habit" && strings.HasSuffix(doing, "ing") && !genericStateWords[doing] && text.Stem(doing) == text.Stem(verb)
}

// sameKind: n's value may replace o's: of a slot that holds many kinds of thing at once
// (kindSlots), one of the same kind only, but for a team's tool, replaced for its role
// (sameRole).
func sameKind(n, o stateClaim) bool {
	return !kindSlots[strings.ReplaceAll(n.slot, " ", "-")] || n.decision() || sharesWord(n.value, o.value)
}

// sharesWord: two values have a content word in common ("morning meetings",
// "late-afternoon meetings"), or one ends with a word of the other, the kind it names
// ("iPhone", "Pixel phone").
func sharesWord(a, b string) bool {
	aw, bw := contentWords(a), contentWords(b)
	for _, x := range aw {
		for _, y := range bw {
			if x == y || len(y) >= minKindWord && strings.HasSuffix(x, y) || len(x) >= minKindWord && strings.HasSuffix(y, x) {
				return true
			}
		}
	}
	return false
}

// minKindWord is the shortest word that names a kind at the end of another: "phone" of
// "iPhone", not "day" of "today".
const minKindWord = 4

var genericStateWords = setOf(`live lives living play plays playing use uses using work works working go goes going take takes taking drink drinks eat eats study studies new old`)

// planDone: a past text carries out a plan when its subject (or "we") did the plan's verb
// ("Gwen ran", "we finally bought") and it names one of the plan's other content words.
func planDone(plan, subject, text string) bool {
	pw := contentWords(plan)
	if len(pw) < 2 {
		return false
	}
	tw := wordSet(contentWords(text))
	shared := 0
	for _, w := range pw[1:] {
		if tw[w] {
			shared++
		}
	}
	verb := pw[0]
	forms := []string{verb + "ed", verb + "d"}
	if p := irregularPast[verb]; p != "" {
		forms = append(forms, p)
	}
	did := regexp.MustCompile(`(?i)\b(?:` + regexp.QuoteMeta(subject) + `|we)` + claimAdverbs + `(?: then| eventually)? (?:` + strings.Join(forms, "|") + `)\b`)
	return shared >= 1 && did.MatchString(text)
}

// stateChanges draws supersedes (new → old; old → new when the candidate tells of an
// older state) or contradicts edges between candidate i and the event and fact
// neighbours whose claims it changes, and marks those neighbours in superseded. Only the
// candidate's own words count, not the other speaker's an exchange quotes; every claim of
// a neighbour counts, so an exchange that quotes an old statement is superseded with it.
// A change that a clause of a whole turn carries goes to the clause alone (sparedWholes).
func (r *relater) stateChanges(edges []agent.EdgeOp, i int, c agent.Candidate, superseded map[string]bool) []agent.EdgeOp {
	if c.Type != realm.Event && c.Type != realm.Fact {
		return edges
	}
	said := ownWords(c.Content, c.Description).namedFully(fullNames(r.byID[i]))
	var changes []nodeChange
	for _, nb := range r.byID[i] {
		n := nb.Node
		if (n.Type != realm.Event && n.Type != realm.Fact) || n.ID == r.resolved[i] || sectionsApart(said.text, n.Content) {
			continue
		}
		ch, untilTold := changeOf(said, c, n)
		if ch.predicate == "" {
			ch = changeBetween(said, r.cardClaims(i, n))
		}
		if _, older := r.olderThan(c, n); older && !untilTold {
			// The candidate tells of an older state (a chat's history sent late): the
			// change is the one the node would have made, had it come after the candidate:
			// its cue counts ("we now use GitLab CI…" before "our pipelines run on Jenkins"),
			// and its description tells the change from the node's side ("lives in:
			// Seattle, previously Portland"). An amount too: "raised my dose to 100 mg"
			// before "I take 50 mg".
			if back := changeBack(n, c, said); back.predicate == string(realm.Supersedes) {
				ch = back
			}
		}
		if ch.predicate != "" && !repliesApart(said, c, n) {
			changes = append(changes, nodeChange{n, ch, untilTold})
		}
	}
	changes = append(changes, r.referredPlans(said, c, i, changes)...)
	spared := sparedWholes(changes)
	changes = slices.DeleteFunc(changes, func(nc nodeChange) bool { return spared[nc.node.ID] })
	for _, nc := range currentHolders(changes, r.in.Observation.ObservedAt) {
		n, ch := nc.node, nc.change
		superseded[n.ID] = true
		if ch.predicate == string(realm.Contradicts) {
			edges = r.emit(edges, i, agent.Self, n.ID, realm.Contradicts, ch.weight, ch.description)
			continue
		}
		if begins, ok := r.olderThan(c, n); ok && !nc.untilTold {
			// The candidate tells of an older state: the node is the newer version, holding
			// from when it began.
			edges = r.emit(edges, i, n.ID, agent.Self, realm.Supersedes, ch.weight, ch.description)
			if len(edges) > 0 && edges[len(edges)-1].From == n.ID {
				edges[len(edges)-1].ValidUntil = &begins
			}
			continue
		}
		edges = r.emit(edges, i, agent.Self, n.ID, realm.Supersedes, ch.weight, ch.description)
		// The old day held until the move was told, not until the new day comes; a detail
		// until corrected; and what a change dated only by the day it was told ends ("I
		// cancelled my gym membership") until it was told, not from that day's start, when
		// no one knew of it yet.
		at := r.in.Observation.ObservedAt
		if day, _ := text.DaySpan(at); !at.IsZero() && (nc.untilTold || c.TStart != nil && c.TStart.Equal(day)) && len(edges) > 0 && edges[len(edges)-1].To == n.ID {
			edges[len(edges)-1].ValidUntil = &at
		}
	}
	return edges
}

// cardClaims are the claims of n, a clause of a card's details that names no one ("Email
// lisa.schultz@acme.com, phone +1 415 555 0101"), of the person of its whole card, a
// neighbour of candidate i that says the same details of them: so that a change of one
// supersedes the clause, and the card, spared (sparedWholes), still says the rest.
func (r *relater) cardClaims(i int, n realm.Node) []stateClaim {
	if !slices.ContainsFunc(nodeClaims(n), func(d stateClaim) bool { return d.subject == "" }) {
		return nil // most neighbours: no card's details
	}
	var out []stateClaim
	for _, nb := range r.byID[i] {
		if !isClauseOf(n, nb.Node) {
			continue
		}
		for _, d := range nodeClaims(n) {
			for _, w := range nodeClaims(nb.Node) {
				if d.subject == "" && w.subject != "" && w.slot == d.slot && w.value == d.value {
					d.subject = w.subject
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// statesAnother: candidate c states another value of a claim of node n ("Carlos's email is
// now carlos.sato@globex.com" of "Carlos's email is carlos.sato@initech.com"): a change,
// which relates the two by supersedes (stateChanges), never a merge, however alike they
// read.
func statesAnother(c agent.Candidate, n realm.Node) bool {
	return changeBetween(ownWords(c.Content, c.Description), nodeClaims(n)).predicate != ""
}

// ownWords is the statement of a memory's own words, not those of the other speaker an
// exchange quotes.
func ownWords(content, description string) *statement {
	return newStatement(rePrompt.ReplaceAllString(content, ""), speakerOfDescription(description))
}

// changeBack is the change newer node n makes to candidate c (its own words: said), which
// tells of an older state: their claims, else any change n would have made to c had c
// been integrated first (changeOf, the roles swapped: a day moved or corrected, a plan
// called off, an amount changed…), so that the order of integration does not matter.
func changeBack(n realm.Node, c agent.Candidate, said *statement) stateChange {
	newer := ownWords(n.Content, n.Description)
	if ch := changeBetween(newer, said.claims); ch.predicate != "" {
		return ch
	}
	asCandidate := agent.Candidate{Type: n.Type, Name: n.Name, Content: n.Content, Description: n.Description, TStart: n.TStart, TEnd: n.TEnd}
	older := realm.Node{Type: c.Type, Name: c.Name, Content: said.text, Description: c.Description, TStart: c.TStart, TEnd: c.TEnd}
	ch, _ := changeOf(newer, asCandidate, older)
	return ch
}

// repliesApart: n is an exchange that the candidate changes by the words it quotes, not by
// a claim (a claim of the statement it quotes ends it with that statement), and whose
// reply says something of its own (more than one content word the quoted statement lacks,
// besides its speaker) that the candidate does not change: "assistant said: "Noted:
// levothyroxine 75 mcg." user's grandmother had breast cancer." keeps holding after "my
// levothyroxine was changed to 88 mcg", for the grandmother's cancer. An exchange cannot
// end in part; one whose reply only acknowledges ("Noted: levothyroxine 75 mcg.") ends with
// the statement it quotes. Nor is n one when it quotes its own speaker: the statement
// itself, which a reply was merged into as the same statement, completed (Integrate).
func repliesApart(said *statement, c agent.Candidate, n realm.Node) bool {
	prompt := rePrompt.FindString(n.Content)
	if prompt == "" || changeBetween(said, nodeClaims(n)).predicate != "" {
		return false
	}
	if m := reAsker.FindStringSubmatch(prompt); m != nil && strings.EqualFold(m[1], speakerOfDescription(n.Description)) {
		return false
	}
	reply := n
	reply.Content = n.Content[len(prompt):]
	if ch, _ := changeOf(said, c, reply); ch.predicate != "" {
		return false
	}
	quoted, speaker := nodeWords(prompt), strings.ToLower(speakerOfDescription(n.Description))
	own := 0
	for w := range nodeWords(reply.Content) {
		if !quoted[w] && w != speaker { // not the reply's label ("assistant: Noted: …")
			own++
		}
	}
	return own > 1
}

// nodeChange is how a candidate changes one neighbour.
type nodeChange struct {
	node      realm.Node
	change    stateChange
	untilTold bool
}

// currentHolders are the changed nodes that still held when the candidate was said, when
// there are any: a second change of a dose ("lowered my sertraline to 75mg") supersedes the
// first ("raised my sertraline dose to 100mg"), which holds, and not in its place the
// original dose that the first one already superseded. A gauge's reading that ended is
// never among them: a later reading replaced it, and a reading replaces what holds only.
func currentHolders(changed []nodeChange, at time.Time) []nodeChange {
	ended := func(nc nodeChange) bool {
		until := nc.node.ValidUntil
		return until != nil && (at.IsZero() || !at.Before(*until))
	}
	if !slices.ContainsFunc(changed, func(nc nodeChange) bool { return !ended(nc) }) {
		return slices.DeleteFunc(changed, func(nc nodeChange) bool {
			return ended(nc) && slices.ContainsFunc(nodeClaims(nc.node), stateClaim.isReading)
		})
	}
	return slices.DeleteFunc(changed, ended)
}

// sparedWholes are the whole turns among changed whose change a clause of theirs, changed
// too, carries ("user lives in Lisbon" of "user lives in Lisbon, user is on the Basic plan,
// and user's email is …", after "user moved to Berlin"): the clause is superseded, its
// validity ends, and the whole keeps holding, for what else it says still holds (the read
// path, retrieval/validity.go, demotes it for a question about what the clause said). The
// clause is one that states a value apart (changeable: a home, a job, a partner…), as the
// clause rule makes it for that; one made for its date alone ("user started the keto diet
// today (9 June 2026)" of "…today. No more bread for user!") says what its whole says,
// which ends with it.
func sparedWholes(changed []nodeChange) map[string]bool {
	spared := map[string]bool{}
	for _, whole := range changed {
		for _, part := range changed {
			if isClauseOf(part.node, whole.node) && slices.ContainsFunc(nodeClaims(part.node), changeable) {
				spared[whole.node.ID] = true
				break
			}
		}
	}
	return spared
}

// isClauseOf: clause is a clause of whole, as Integrate draws comprises — derived from the
// same message (the last source of each; an exchange also has the turn it answers) and with
// fewer content words, all of them whole's. An exchange that quotes an older statement is
// no whole of it: said later, it is superseded with it.
func isClauseOf(clause, whole realm.Node) bool {
	if clause.ID == whole.ID || len(clause.Sources) == 0 || len(whole.Sources) == 0 || clause.Sources[len(clause.Sources)-1] != whole.Sources[len(whole.Sources)-1] {
		return false
	}
	for _, s := range clause.Sources {
		if !slices.Contains(whole.Sources, s) {
			return false
		}
	}
	cw, ww := nodeWords(clause.Content), nodeWords(whole.Content)
	return len(cw) < len(ww) && subset(cw, ww)
}

// changeOf is how candidate c (its own words: said) changes node n, the rules tried in
// turn: their claims, a day moved, a detail corrected, a weekly schedule moved, a plan
// called off or changed, an hour moved, a flight changed, a debt paid off, an amount changed. untilTold: n held until c was told, whatever
// times the two tell of (a day moved; a detail corrected, which a visit planned for next
// week is, told before that week; a schedule, which a week's session dated before the
// move followed; a plan, which held until it was called off or moved).
func changeOf(said *statement, c agent.Candidate, n realm.Node) (ch stateChange, untilTold bool) {
	if ch = changeBetween(said, nodeClaims(n)); ch.predicate != "" {
		return ch, false
	}
	if ch = rescheduled(said, c, n); ch.predicate != "" {
		return ch, true
	}
	if ch = corrected(said, c, n); ch.predicate != "" {
		return ch, true
	}
	if ch = scheduleMoved(said, n); ch.predicate != "" {
		return ch, true
	}
	if ch = planChanged(said, c, n); ch.predicate != "" {
		return ch, true
	}
	if ch = hourMoved(said, n); ch.predicate != "" {
		return ch, true
	}
	if ch = flightChanged(said, n); ch.predicate != "" {
		return ch, true
	}
	if ch = debtPaid(said, n); ch.predicate != "" {
		return ch, false
	}
	if ch = payRaised(said, n); ch.predicate != "" {
		return ch, false
	}
	return amountChanged(said, n), false
}

// reScheduleMoved: a text that moves what recurs to another weekday ("my therapy moved to
// Thursdays at 6pm", "yoga is now on Mondays", "book club switched to every Friday"):
// group 1 the weekday, group 2 its plural "s".
var reScheduleMoved = regexp.MustCompile(`(?i)\b(?:moved|switched|changed|shifted|rescheduled|now)(?: [\w']+){0,3}? (?:to|on|for) (?:every )?(` + weekdayNames + `)(s?)\b`)

const weekdayNames = `monday|tuesday|wednesday|thursday|friday|saturday|sunday`

var (
	reWeekday   = regexp.MustCompile(`(?i)\b(?:` + weekdayNames + `)`)
	reRecurring = regexp.MustCompile(`(?i)\b(?:every|each|usually|as usual|always|weekly)\b|\b(?:` + weekdayNames + `)s\b`)
)

// scheduleWords are words any two schedules share.
var scheduleWords = setOf(`every each usual usually always weekly schedule pm am`)

// scheduleMoved is the change from node n to a statement of n's speaker that moves
// something recurring to another weekday (reScheduleMoved, plural or "every": "moved to
// Thursdays", not "moved to Thursday", a day, which rescheduled reads): n tells of it
// recurring on another weekday ("therapy every Tuesday", "therapy is on Tuesday this week
// as usual"), not on the new one, and the two share a word besides weekdays, schedule
// words, numbers and the speaker ("therapy"). Nothing otherwise.
func scheduleMoved(said *statement, n realm.Node) stateChange {
	speaker := speakerOfDescription(n.Description)
	m := said.scheduleMove.get()
	if m == nil || speaker == "" || !strings.EqualFold(speaker, said.speaker) || m[2] == "" && !strings.Contains(strings.ToLower(m[0]), "every ") {
		return stateChange{}
	}
	old := withoutLabels(n.Content)
	days := reWeekday.FindAllString(old, -1)
	if len(days) == 0 || !reRecurring.MatchString(old) || slices.ContainsFunc(days, func(d string) bool { return strings.EqualFold(d, m[1]) }) {
		return stateChange{}
	}
	nw := nodeWords(old)
	var shared []string
	for _, w := range contentWords(withoutLabels(said.text)) {
		if nw[w] && !dateWords[w] && !scheduleWords[w] && !rescheduleWords[w] && !strings.ContainsFunc(w, unicode.IsDigit) && w != strings.ToLower(speaker) && !slices.Contains(shared, w) {
			shared = append(shared, w)
		}
	}
	if len(shared) == 0 {
		return stateChange{}
	}
	return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's %s: %s%s, previously %s", speaker, strings.Join(shared, " "), m[1], m[2], days[0])}
}

// reReschedule: a text that moves something to another day ("my flight got moved to
// December 14th", "the dentist rescheduled my appointment for Thursday", "the boiler
// service moved to Jan 19"), not somewhere else ("we moved to Lisbon in May", "to Mars").
var reReschedule = regexp.MustCompile(`(?i)\b(?:moved|moves|rescheduled|postponed|pushed(?: back| out)?|bumped|delayed|slipped|slips|brought forward|changed)(?: [\w']+){0,3}? (?:to|until|till|for) (?:the |next |this )?(?:\d|tomorrow|` +
	text.MonthNames + `|` + abbreviatedDay + `|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)`)

// reToDuration: a change to a length of time ("the notice period is changed to 60 days"),
// an amount, which moves nothing to another day.
var reToDuration = regexp.MustCompile(`(?i)\b(?:to|until|till) \d[\d.,]* ?(?:business |calendar |working )?(?:days?|weeks?|months?|years?)\b`)

// rescheduled is the change from node n to candidate c when c, said by n's speaker (or by
// another member who may move it: mayMove), moves what n tells of to another time: c's own words (said) move something, c and n are dated
// differently, and they share two words besides the move's, their dates and who said it
// ("flight", "Madrid"). Nothing otherwise.
func rescheduled(said *statement, c agent.Candidate, n realm.Node) stateChange {
	speaker := speakerOfDescription(n.Description)
	if c.TStart == nil || n.TStart == nil || sameSpan(c.TStart, c.TEnd, n.TStart, n.TEnd) || !mayMove(said, speaker, n) ||
		!said.moves.get() {
		return stateChange{}
	}
	nw := nodeWords(n.Content)
	var shared []string
	for _, w := range contentWords(said.text) {
		if nw[w] && !dateWords[w] && !rescheduleWords[w] && w != strings.ToLower(speaker) && !slices.Contains(shared, w) {
			shared = append(shared, w)
		}
	}
	if len(shared) < 2 {
		return stateChange{}
	}
	from, to := text.FormatDay(*n.TStart), text.FormatDay(*c.TStart)
	if from == to { // the spans differ, not their first days (a month read for a day): say no wrong day
		return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's %s: moved from %s", speaker, strings.Join(shared, " "), from)}
	}
	return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's %s: moved from %s to %s", speaker, strings.Join(shared, " "), from, to)}
}

// mayMove: the statement may move or call off what n, said by speaker, tells of: it is
// speaker's own statement, or another member's that tells of none of its own speaker's
// ("my flight" is theirs; "our" and "we" are the space's members', so that "our launch
// slipped" counts) and either names speaker ("Anna's dentist moved to Thursday"), or
// moves a date (a day of the calendar or an hour: "to May 6", "to 4pm", not "to Thursday"
// nor to a place), or where a thing is now kept ("the spare key is now with the
// neighbour": reNowKept), or calls a plan off, of what n does not tell as speaker's own ("the
// launch", "our wedding", "Mia's dentist appointment", "the Lisbon trip", not "Sarah's
// dentist appointment"), or says "we" or "our" ("We're on the 9:40 flight now").
func mayMove(said *statement, speaker string, n realm.Node) bool {
	if speaker == "" || said.speaker == "" {
		return false
	}
	if strings.EqualFold(speaker, said.speaker) {
		return true
	}
	if namesOwn(said.text, said.speaker) {
		return false
	}
	definite := reToCalendarDay.MatchString(withoutLabels(said.text)) || reOwnGroup.MatchString(said.text) || reNowKept.MatchString(said.text) ||
		slices.ContainsFunc(said.alterations.get(), func(a planAlteration) bool { return a.cancelled })
	return namesOwn(said.text, speaker) || definite && !namesOwn(n.Content, speaker)
}

// reToCalendarDay: a move to a day of the calendar, its weekday said before it or not
// ("to May 6", "to Tuesday the 22nd"), or to an hour.
var reToCalendarDay = regexp.MustCompile(`(?i)\b(?:to|until|till|for) (?:the )?(?:(?:` + weekdayNames + `),? (?:the )?)?(?:\d|` + text.MonthNames + `|` + abbreviatedDay + `)`)

// abbreviatedDay is a day of a month said by its abbreviation ("Jan 19", "Sept. 3"): not
// "Mars", nor "Jan" alone, who may be a person.
const abbreviatedDay = `(?:` + text.MonthAbbrevs + `)\.? \d`

// reOwnGroup: words of the speaker's own group, a space's members'.
var reOwnGroup = regexp.MustCompile(`(?i)\b(?:we|our|ours|us)\b`)

// namesOwn: text names person, besides the label it opens with ("Sara: ").
func namesOwn(text, person string) bool {
	return containsWord(strings.TrimPrefix(text, person+": "), person)
}

// reTimeOfDay is a time of day: group 1 its hour, 2 its minutes, 3 "am" or "pm"; one
// with neither minutes nor am or pm ("at 9") is no time read.
var reTimeOfDay = regexp.MustCompile(`(?i)\b([01]?\d|2[0-3])(?::([0-5]\d))?\s?([ap]\.?m\b)?`)

// timeOfDay is a time of day as written ("9:40", "6pm") and as a minute of the day.
type timeOfDay struct {
	word   string
	minute int
}

// timesOfDay are the times of day text says, but in the dates the rewrite wrote in
// parentheses.
func timesOfDay(text string) []timeOfDay {
	var out []timeOfDay
	for _, m := range reTimeOfDay.FindAllStringSubmatch(withoutLabels(text), -1) {
		if m[2] == "" && m[3] == "" {
			continue
		}
		hour, _ := strconv.Atoi(m[1])
		minute, _ := strconv.Atoi(m[2])
		switch pm := strings.HasPrefix(strings.ToLower(m[3]), "p"); {
		case pm && hour < 12:
			hour += 12
		case m[3] != "" && !pm && hour == 12:
			hour = 0
		}
		out = append(out, timeOfDay{strings.TrimSpace(m[0]), hour*60 + minute})
	}
	return out
}

// hourMoved is the change from node n, a plan (plannedIn) at a time of day, to a
// statement of n's speaker (or of another member who may move it: mayMove) that moves it to another hour, dated or not: it says a move
// or a change (reReschedule, changeCue: "The flight moved to 9:40", "Our flight TP218 now
// departs at 9:40 instead of 18:25"), a time of day n does not say, and a word of n
// besides dates, numbers, schedule words and the move's ("flight"). Nothing otherwise.
func hourMoved(said *statement, n realm.Node) stateChange {
	speaker := speakerOfDescription(n.Description)
	if !mayMove(said, speaker, n) || !said.moves.get() && !said.changeCued.get() || !plannedIn(n) {
		return stateChange{}
	}
	olds, news := timesOfDay(n.Content), timesOfDay(said.text)
	at := func(t timeOfDay) bool {
		return slices.ContainsFunc(olds, func(o timeOfDay) bool { return o.minute == t.minute })
	}
	i := slices.IndexFunc(news, func(t timeOfDay) bool { return !at(t) })
	if len(olds) == 0 || i < 0 {
		return stateChange{}
	}
	shared := sharedWords(withoutLabels(said.text), withoutLabels(n.Content), speaker, func(w string) bool {
		return !dateWords[w] && !scheduleWords[w] && !rescheduleWords[w] && !strings.ContainsFunc(w, unicode.IsDigit)
	})
	if len(shared) == 0 {
		return stateChange{}
	}
	return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's %s: moved from %s to %s", speaker, strings.Join(shared, " "), olds[0].word, news[i].word)}
}

// reFlightNumber is a flight's number: its airline's code, two letters or a letter and a
// digit (group 1), and its number (group 2): "BA117", "TP218", "U2 8143" written whole.
var reFlightNumber = regexp.MustCompile(`\b([A-Z]{2}|[A-Z]\d|\d[A-Z])(\d{1,4})\b`)

// reFlightWord: a text about flights.
var reFlightWord = regexp.MustCompile(`(?i)\b(?:flights?|fly|flying|flew)\b`)

// reNew: a text that says something is new ("New flights: NH223 and LH1456").
var reNew = regexp.MustCompile(`(?i)\bnew\b`)

// flightChanged is the change from node n, a plan (plannedIn), to a statement of n's
// speaker (or of another member who may change it: mayMove) that changes its flight: either says flights, the statement says a change or
// something new (changeCue, "new": "We switched to BA115", "New flights: NH223 and
// LH1456"), and a flight number n does not say of an airline whose other number n says
// (BA117). Nothing otherwise.
func flightChanged(said *statement, n realm.Node) stateChange {
	speaker := speakerOfDescription(n.Description)
	if !mayMove(said, speaker, n) || !said.changeCued.get() && !reNew.MatchString(said.text) ||
		!reFlightWord.MatchString(said.text) && !reFlightWord.MatchString(n.Content) || !plannedIn(n) {
		return stateChange{}
	}
	olds := reFlightNumber.FindAllStringSubmatch(n.Content, -1)
	var froms, tos []string
	for _, m := range reFlightNumber.FindAllStringSubmatch(said.text, -1) {
		for _, o := range olds {
			if o[1] == m[1] && o[2] != m[2] && !containsWord(n.Content, m[0]) && !slices.Contains(froms, o[0]) {
				froms, tos = append(froms, o[0]), append(tos, m[0])
				break
			}
		}
	}
	if len(tos) == 0 {
		return stateChange{}
	}
	return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's flight: %s, previously %s", speaker, strings.Join(tos, ", "), strings.Join(froms, ", "))}
}

// rePlanAltered: a plan called off or changed, named before the verb ("the party for Jonas
// is cancelled", "the Acme workshop moved to Munich", "yoga is now at 7:30pm", "it's off")
// or after it ("we postponed the Lisbon trip to September", "brought my haircut forward to
// June 11", "we called it off"): group 1 the words before the verb (not its auxiliary: "got", "is", "'s"), 2
// the verb, 3 the words after it.
var rePlanAltered = regexp.MustCompile(`(?i)^(.*?)(?:(?:\b(?:is|are|was|were|got|gets|has been|have been|had been|will be|had to be)|['’]s(?: been)?)(?: now| just| also)? )?\b(cancell?ed|called off|called|moved|moves|rescheduled|postponed|pushed back|pushed|delayed|slipped|slips|brought forward|brought|(?:is|are|['’]s) (?:now|off))\b(.*)$`)

// reNowKeep and reNowKept: where a thing is kept now, which moves it as "we moved the
// spare key to the neighbour" does: "we now keep the spare key with the neighbour", "the
// spare key is now with the neighbour" (not "we keep it there", nor "Mia is now in 6th
// grade").
var (
	reNowKeep = regexp.MustCompile(`(?i)\bnow keeps? ((?:the|our|my|his|her|their) [^,;]+?) ` + keptAt + ` `)
	reNowKept = regexp.MustCompile(`(?i)\b(?:is|are) now (?:kept ` + keptAt + `|with|under|behind|inside|next to) `)
)

// keptAt is where a thing is kept: "with the neighbour", "in the garage".
const keptAt = `(?:with|at|in|under|on|behind|inside|next to)`

// rePlanObject is a plan named after its verb, a determiner first ("the Lisbon trip", "my
// haircut", "Mia's piano lesson") or a pronoun ("we called it off"), up to what it changes to.
var rePlanObject = regexp.MustCompile(`(?i)^ ((?:the|my|our|his|her|their|[\p{L}\-]+'s) .+?|it|that|this)(?: (?:forward|back|off))?(?: (?:to|until|till|for) (.+))?$`)

// rePlanNamedBefore: the words after a verb that follows the plan's name: nothing (a
// cancellation, "now" at most: "that's off now"), or where or when it goes ("to Munich",
// "forward to June 11", "from April 15 to May 6", "again to Tuesday the 22nd"), or for
// "is now", a time ("at 7:30pm"): group 1 the new value.
var rePlanNamedBefore = regexp.MustCompile(`(?i)^(?: forward| back| now| again)?(?: from [^,;]+?)?(?:$| (?:to|until|till|for) (.+)| (?:at|on) (\d.*))$`)

// particles: the verbs that alter a plan only with a particle after it: "brought my
// haircut forward", "pushed it back", "called it off"; not "brought my camera", "called
// the venue".
var particles = map[string]*regexp.Regexp{"brought": reForwardBack, "pushed": rePushed, "called": regexp.MustCompile(`(?i) off\b`)}

// rePushed: "pushed" moves a plan forward, back or out, or to a day ("the launch was pushed
// to May 6"), not "pushed the door".
var rePushed = regexp.MustCompile(`(?i) (?:forward|back|out)\b|^ (?:to|until|till) (?:the |next )?(?:\d|` + text.MonthNames + `|` + weekdayNames + `)`)

var reForwardBack = regexp.MustCompile(`(?i) (?:forward|back)\b`)

// reValueTail is what follows a plan's alteration: why or when it changed ("to February 12
// because of my flight", "was cancelled because Paul got sick", "yesterday").
var reValueTail = regexp.MustCompile(`(?i)\s+(?:because|since|due to|as|so|but|and|yesterday|today|(?:at the )?last minute|after all)\b.*$`)

// reOnce: a change of one time of what recurs ("moved to Thursday this week", "next
// week's standup"), which leaves the rest as it was.
var reOnce = regexp.MustCompile(`(?i)\b(?:(?:this|next) (?:week|time)|just once|(?:today|tomorrow|tonight|` + weekdayNames + `)['’]s)\b`)

// planNouns are the words a plan's name has that its first telling may lack ("the Lisbon
// trip" of "we are going to Lisbon in June").
var planNouns = setOf(`trip trips flight flights travel journey vacation holiday visit appointment class classes lesson lessons session booking reservation membership subscription plan plans`)

// planPronouns name the plan just told of: "it's off", "that's off now".
var planPronouns = setOf(`it that this`)

// planAlteration is a plan that a text calls off or changes.
type planAlteration struct {
	name      string // as said: "the Lisbon trip", "the trip", "it"
	value     string // what it changes to ("September", "Munich"); "" when called off
	cancelled bool
	once      bool // of one time of what recurs
}

// planAlterations are the plans that text, said by speaker, calls off or changes
// (rePlanAltered), each named by words of its own, by a plan noun alone or by a pronoun.
func planAlterations(text, speaker string) []planAlteration {
	text = strings.TrimPrefix(withoutLabels(text), speaker+": ") // a turn's memory opens with its speaker: "Lena: It's off."
	text = reNowKept.ReplaceAllString(reNowKeep.ReplaceAllString(text, "moved $1 to "), "moved to ")
	text = reAgainTo.ReplaceAllString(text, "$1 $2")
	var out []planAlteration
	for _, cl := range clauses(text) {
		// Each part between commas: "Actually, it's off", "the party is cancelled, he's sick".
		for _, part := range strings.Split(text[cl.start:cl.end], ",") {
			if a, ok := planAlteredIn(part, speaker); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// reAgainTo: "again" set off by a comma from where a plan moves to ("the release moved
// again, to Tuesday the 22nd"), which the move's part keeps: groups 1 and 2.
var reAgainTo = regexp.MustCompile(`(?i)\b(again), (to|until|till)\b`)

// planAlteredIn is the plan that part, a clause or a part of one between commas, calls off
// or changes (planAlterations).
func planAlteredIn(part, speaker string) (planAlteration, bool) {
	m := rePlanAltered.FindStringSubmatch(strings.TrimSpace(strings.TrimRight(part, ".!? ")))
	if m == nil {
		return planAlteration{}, false
	}
	verb, after := strings.ToLower(m[2]), reValueTail.ReplaceAllString(m[3], "")
	if p := particles[verb]; p != nil && !p.MatchString(after) {
		return planAlteration{}, false
	}
	cancelled := strings.HasPrefix(verb, "cancel") || strings.HasPrefix(verb, "called") || strings.HasSuffix(verb, " off")
	a := planAlteration{cancelled: cancelled, once: reOnce.MatchString(part)}
	copular := strings.HasSuffix(verb, " now") || strings.HasSuffix(verb, " off") && verb != "called off" // "is now", "'s off"
	if o := rePlanObject.FindStringSubmatch(after); o != nil && !copular {
		a.name, a.value = o[1], o[2]
	} else if b := rePlanNamedBefore.FindStringSubmatch(after); b != nil {
		a.name, a.value = lastNounPhrase(m[1]), b[1]+b[2]
	} else {
		return planAlteration{}, false
	}
	// "it got moved": to nothing said; "Lena is off to bed": no plan named.
	named := len(planWords(a.name, speaker)) > 0 || a.referent() != ""
	return a, named && (a.cancelled || a.value != "")
}

// referent is what a plan named by no words of its own is named by: a pronoun ("it") or
// a plan noun alone ("trip" of "the trip"); "" when the name has words of its own.
func (a planAlteration) referent() string {
	ws := contentWords(a.name)
	if len(ws) == 0 {
		if w := strings.ToLower(strings.Join(strings.Fields(a.name), " ")); planPronouns[w] {
			return w
		}
		return ""
	}
	for _, w := range ws {
		if !planNouns[w] && !dateWords[w] {
			return ""
		}
	}
	return ws[len(ws)-1]
}

// changes: the alteration changes what n tells of (old, without its labels): it calls it
// off, or names what n does not say, dated otherwise when both are dated; not a day n
// already names ("moved to Thursdays" of "therapy is on Thursday this week"), nor one time
// of what n tells recurring.
func (a planAlteration) changes(c agent.Candidate, n realm.Node, old string) bool {
	if a.once && reRecurring.MatchString(old) {
		return false
	}
	if day := reWeekday.FindString(firstWord(a.value)); day != "" && containsWord(old, day) {
		return false
	}
	return a.cancelled || a.value != "" && !containsWord(old, a.value) &&
		(c.TStart == nil || n.TStart == nil || !sameSpan(c.TStart, c.TEnd, n.TStart, n.TEnd))
}

// what the alteration makes of the plan, for an edge's description.
func (a planAlteration) what() string {
	if a.cancelled {
		return "cancelled"
	}
	return "now " + a.value
}

// planChanged is the change from node n to a statement of n's speaker (or of another
// member who may move it: mayMove) that calls off or changes a plan it names by n's own words (planAlterations): each content word of the
// name but dates, the speaker and planNouns is n's, at least one. n tells of a plan:
// something ahead when it was said or recurring, not a past event ("the party was great"
// is no party that a move changes). A plan named by a pronoun or a plan noun alone is
// referredPlans'. Nor is a plan's name the subject of a claim of the statement: a person
// who moved ("Liam Fischer moved to stage: screened", "… moved to Berlin") states
// something of theirs, and ends only what the claim's slot holds, not every memory that
// names them ("Email liam.fischer@…"). Nothing otherwise.
func planChanged(said *statement, c agent.Candidate, n realm.Node) stateChange {
	speaker := speakerOfDescription(n.Description)
	if !mayMove(said, speaker, n) || !plannedIn(n) {
		return stateChange{}
	}
	old := withoutLabels(n.Content)
	for _, a := range said.alterations.get() {
		words := planWords(a.name, speaker)
		if a.referent() != "" || !allIn(words, nodeWords(old)) || !a.changes(c, n, old) || oneOfCompany(a.name, old) || claimsOf(said.claims, a.name) {
			continue
		}
		return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's %s: %s", speaker, strings.Join(words, " "), a.what())}
	}
	return stateChange{}
}

// claimsOf: a claim of claims states a slot of the subject name (a habit's is none: "Yoga
// is now at 7:30pm" reads as one).
func claimsOf(claims []stateClaim, name string) bool {
	return slices.ContainsFunc(claims, func(c stateClaim) bool { return c.slot != "" && c.slot != "habit" && sameSubject(c.subject, name) })
}

// oneOfCompany: a plan's name is a person alone, a name as old writes it within a
// sentence ("Leah cancelled" of "My partner Dev is coming, and my friend Leah joins us"),
// and old names a relative or friend besides: one of the company calls off their own
// part, not the plan, which still holds for the others.
func oneOfCompany(name, old string) bool {
	fields := strings.Fields(name)
	for _, f := range fields {
		if !slices.ContainsFunc(wordsOf(old), func(w wordSpan) bool { return w.lower == strings.ToLower(f) && nameWithin(old, w) }) {
			return false
		}
	}
	return len(fields) > 0 && namesRelative(old, name)
}

// nameWithin: the word w of text is capitalised within a sentence, as a name is.
func nameWithin(text string, w wordSpan) bool {
	r, _ := utf8.DecodeRuneInString(w.text)
	before := strings.TrimRight(text[:w.start], " ")
	return unicode.IsUpper(r) && before != "" && !strings.ContainsAny(before[len(before)-1:], ".!?:\"")
}

// referredPlans are the changes of candidate i (its own words: said) to a plan it names
// by a pronoun ("It's off.", "That's off now.") or a plan noun alone ("The trip is
// cancelled."): a plan of the speaker's own conversation just before (a neighbour from the
// last observations, of the same session), recurring or dated after the day it was told,
// that says the noun when one is said and that the alteration changes (a pronoun moves a
// plan to another time only, not to a place: "I moved it to my calendar"). The plan must
// be one, told in one observation (a whole turn and its clauses): "the trip" of two trips
// names neither. With no such plan, a plan noun names the speaker's one current plan
// among the neighbours that says it ("The trip is postponed to June", days after "We're
// going to Italy for the 3rd week of May"), never one a pronoun names. Not a plan another
// rule already changes (changed).
func (r *relater) referredPlans(said *statement, c agent.Candidate, i int, changed []nodeChange) []nodeChange {
	for _, a := range said.alterations.get() {
		ref := a.referent()
		if ref == "" {
			continue
		}
		justBefore := func(nb scoredNeighbour, old string) bool {
			return nb.Recent && sameConversation(c.Description, nb.Node.Description) && (reRecurring.MatchString(old) || datedAhead(nb.Node))
		}
		out, one := r.plansReferred(said, c, i, a, changed, justBefore)
		if one && len(out) == 0 && !planPronouns[ref] {
			at := r.in.Observation.ObservedAt
			current := func(nb scoredNeighbour, _ string) bool {
				until := nb.Node.ValidUntil
				return plannedIn(nb.Node) && (until == nil || at.Before(*until))
			}
			out, _ = r.plansReferred(said, c, i, a, changed, current)
		}
		return out
	}
	return nil
}

// plansReferred are the changes of candidate i by alteration a (referredPlans) to the
// neighbours that plan keeps (given each one's words), when they are one plan, told in one
// observation; one is false when they are two, or one whose telling is unknown.
func (r *relater) plansReferred(said *statement, c agent.Candidate, i int, a planAlteration, changed []nodeChange, plan func(scoredNeighbour, string) bool) (out []nodeChange, one bool) {
	ref := a.referent()
	told := ""
	for _, nb := range r.byID[i] {
		n := nb.Node
		old := withoutLabels(rePrompt.ReplaceAllString(n.Content, ""))
		if n.Type != realm.Event && n.Type != realm.Fact || n.ID == r.resolved[i] ||
			!strings.EqualFold(speakerOfDescription(n.Description), said.speaker) || !plan(nb, old) {
			continue
		}
		if planPronouns[ref] && a.value != "" && !said.moves.get() || !planPronouns[ref] && !saysPlanNoun(old, ref) || !a.changes(c, n, old) ||
			slices.ContainsFunc(changed, func(nc nodeChange) bool { return nc.node.ID == n.ID }) {
			continue
		}
		src := lastSource(n)
		if src == "" || told != "" && src != told {
			return nil, false // two plans, or one whose telling is unknown
		}
		told = src
		desc := fmt.Sprintf("%s (%s)", strings.TrimRight(old, " .!"), a.what())
		out = append(out, nodeChange{n, stateChange{"supersedes", weightChangeCued, desc}, true})
	}
	return out, true
}

// saysPlanNoun: old says the plan noun ref, or for a noun of trips, a plan of going
// somewhere ("We're going to Italy", "planning Italy for May").
func saysPlanNoun(old, ref string) bool {
	return containsWord(old, ref) || containsWord(old, singular(ref)) || tripPlanNouns[ref] && reGoingSomewhere.MatchString(old)
}

// tripPlanNouns are the plan nouns of a trip.
var tripPlanNouns = setOf(`trip trips travel journey vacation holiday`)

// reGoingSomewhere: a text that tells of going to a place, a name ("going to Italy",
// "flying to New York", "visiting Porto").
var reGoingSomewhere = regexp.MustCompile(`\b(?i:go|going|travel|travell?ing|fly|flying|head|heading) to \p{Lu}|\b(?i:visit|visiting|planning) \p{Lu}`)

func lastSource(n realm.Node) string {
	if len(n.Sources) == 0 {
		return ""
	}
	return n.Sources[len(n.Sources)-1]
}

// sameConversation: two descriptions are of one session, or, naming none, of one day.
func sameConversation(a, b string) bool {
	sa, sb := inSession.FindStringSubmatch(a), inSession.FindStringSubmatch(b)
	if sa != nil || sb != nil {
		return sa != nil && sb != nil && sa[1] == sb[1]
	}
	da, db := saidOn.FindStringSubmatch(a), saidOn.FindStringSubmatch(b)
	return da != nil && db != nil && da[1] == db[1]
}

// lastNounPhrase is the end of words from its last determiner on ("the party for Jonas" of
// "I think the party for Jonas"; "Mia's piano lesson"), else all of them.
func lastNounPhrase(words string) string {
	ws := wordsOf(words)
	for i := len(ws) - 1; i >= 0; i-- {
		if determiners[ws[i].lower] || strings.HasSuffix(ws[i].lower, "'s") {
			return words[ws[i].start:]
		}
	}
	return words
}

// planWords are the content words of a plan's name that its first telling must have.
func planWords(name, speaker string) []string {
	var out []string
	for _, w := range contentWords(name) {
		if !dateWords[w] && !planNouns[w] && w != strings.ToLower(speaker) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// plannedIn: n tells of a plan, something recurring or ahead of when it was said: dated
// after the day it was said, with no word of a past event, booked ("We booked Hotel
// Infante Sagres in Porto": the booking is past, what it holds is ahead), or moved to a day
// ("The release moved to Friday the 18th": the move is past, the day it names is the plan's).
func plannedIn(n realm.Node) bool {
	said := withoutLabels(n.Content)
	return reRecurring.MatchString(said) || !hasPastCue(said) || datedAhead(n) || reBooked.MatchString(said) || reReschedule.MatchString(said)
}

// reBooked: a text that tells of a booking.
var reBooked = regexp.MustCompile(`(?i)\b(?:booked|reserved|booking|reservation)\b`)

// datedAhead: n is dated after the day it was said.
func datedAhead(n realm.Node) bool {
	m := saidOn.FindStringSubmatch(n.Description)
	if m == nil || n.TStart == nil {
		return false
	}
	day, err := time.ParseInLocation(text.DayLayout, m[1], n.TStart.Location())
	return err == nil && !n.TStart.Before(day.AddDate(0, 0, 1))
}

// sameSpan: two times are one span. Dated the same day, a move says nothing new; a month
// that starts on a day ("moved from December 1 to December 8" read as December) is not it.
func sameSpan(aStart, aEnd, bStart, bEnd *time.Time) bool {
	endsEqual := (aEnd == nil) == (bEnd == nil) && (aEnd == nil || aEnd.Equal(*bEnd))
	return aStart.Equal(*bStart) && endsEqual
}

// withoutLabels is text without the dates the rewrite wrote in parentheses, which are not
// words said: "moved from December (December 2026) 1 to December 8" moves a day.
func withoutLabels(text string) string {
	return strings.Join(strings.Fields(reParenthesis.ReplaceAllString(text, " ")), " ")
}

// rescheduleWords are reReschedule's verbs.
var rescheduleWords = setOf(`moved moves rescheduled postponed pushed back bumped delayed slipped slips brought forward changed`)

// dateWords are the words a date is written with, which two dates of anything share.
var dateWords = setOf(`january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday morning afternoon evening night today tomorrow week month year ` +
	strings.ReplaceAll(strings.ToLower(text.MonthAbbrevs), "|", " "))

// correction is a detail said again rightly: "Her name is Marina, not Marta".
type correction struct{ right, wrong string }

// Corrections: "X, not Y" at the end of a clause ("Biscuit is a golden retriever, not a
// beagle") and "not Y but X". Group 1 is X (with up to three words before it, and the date
// the rewrite wrote after it aside: "Tuesday (10 March 2026), not Monday"), group 2 Y in
// the first; the other way round in the second.
var (
	reCorrectedNot = mustPattern(`(?i)(?:^|[\s:])((?:[\p{L}\d'\-]+ ){0,3}[\p{L}\d'\-]+)(?: \([^()]*\))?, not (?:` + correctionArticle + `)?([\p{L}\d'\-]+(?: [\p{L}\d'\-]+){0,2})(?:[.!;,)]|$)`)
	reCorrectedBut = mustPattern(`(?i)\bnot (?:` + correctionArticle + `)?([\p{L}\d'\-]+(?: [\p{L}\d'\-]+){0,2}),? but (?:` + correctionArticle + `)?([\p{L}\d'\-]+(?: [\p{L}\d'\-]+){0,3})(?:[.!;,)]|$)`)
)

const correctionArticle = `an? |the |my |our |his |her |their |in |at |on `

// reCopula ends the words before a corrected value: "Her name is Marina" → "Marina".
var reCopula = regexp.MustCompile(`(?i)^.*\b(?:is|are|was|were|am|it's|that's)\s+(?:an?\s+|the\s+)?`)

// notAValue: what "not" says of the time or manner, not of a detail ("not now", "not yet",
// "not just winning").
var notAValue = setOf(`now yet today tonight tomorrow anymore here there really sure always ever exactly quite much enough
everyone everything anything just only even simply merely necessarily`)

// correctionsOf are the corrections a text makes; not a negation in a row ("not bad, not
// great"), nor one whose wrong value has no content word ("not now", "not today").
func correctionsOf(text string) []correction {
	var out []correction
	add := func(right, wrong string) {
		right = strings.TrimSpace(reCopula.ReplaceAllString(right, ""))
		for _, w := range strings.Fields(strings.ToLower(right + " " + wrong)) {
			if w == "not" || w == "never" || w == "no" || w == "nor" {
				return
			}
		}
		if notAValue[strings.ToLower(firstWord(wrong))] {
			return
		}
		if _, ok := countCorrected(correction{right: right, wrong: wrong}); ok {
			out = append(out, correction{right: right, wrong: wrong})
			return
		}
		// A day corrected by a day ("the dentist was on Tuesday, not Monday") is a detail;
		// another date word is what "not" says of the time ("this week, not next").
		day := reWeekday.MatchString(lastWord(right)) && reWeekday.MatchString(wrong) && len(strings.Fields(wrong)) == 1
		content := 0
		for _, w := range contentWords(wrong) {
			if dateWords[w] && !day || notAValue[w] {
				return
			}
			content++
		}
		if content == 0 || len(contentWords(right)) == 0 {
			return
		}
		out = append(out, correction{right: right, wrong: wrong})
	}
	for _, m := range reCorrectedNot.findAll(text) {
		add(m[1], m[2])
	}
	for _, m := range reCorrectedBut.findAll(text) {
		add(m[2], m[1])
	}
	if reCorrectionCue.MatchString(text) {
		for _, m := range reRestatedNumber.FindAllStringSubmatch(text, -1) {
			add(m[1], "")
		}
	}
	return out
}

// reRestatedNumber: a number said as a correction, the wrong one unsaid ("Actually the
// sample size of the Smith study is 412."): group 1 the number and the word after it, if
// any ("was 412 adolescents"), ending a clause.
var reRestatedNumber = regexp.MustCompile(`(?i)\b(?:is|are|was|were) ((?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?: \p{L}+)?)(?:[.!;]|$)`)

// corrected is the change from node n to a statement that corrects a detail of it: said
// by n's speaker, it says "X, not Y" of a word Y of n, which n does not say the same way
// and whose X n lacks, and it names another word of n besides Y and X, in a sentence
// with Y in each (the sister of "Nina's sister's name is Marina, not Marta"; Biscuit),
// or, in n's session, says it corrects ("Her name is Marina, not Marta", "sorry", "I
// meant"). Nothing otherwise, nor when n was said on a later day than c (a chat's
// history sent late).
func corrected(said *statement, c agent.Candidate, n realm.Node) stateChange {
	speaker := speakerOfDescription(n.Description)
	if speaker == "" || !strings.EqualFold(speaker, said.speaker) || saidAfter(n.Description, c.Description) {
		return stateChange{}
	}
	nw := nodeWords(n.Content)
	for _, k := range said.corrections.get() {
		if to, ok := countCorrected(k); ok {
			// "We need 5 seats, not 3": n says the wrong number of the same unit, not the right one.
			if from, what, ok := countOf(said, k, to, n); ok {
				return stateChange{"supersedes", weightChangeCued, fmt.Sprintf(realm.CorrectionMark+"%s's %s: %s, not %s", speaker, what, to.value, from.value)}
			}
			continue
		}
		wrong, right := contentWords(k.wrong), wordSet(contentWords(k.right))
		if !allIn(wrong, nw) || allIn(contentWords(k.right), nw) || slices.ContainsFunc(correctionsOf(n.Content), func(o correction) bool {
			return strings.EqualFold(o.wrong, k.wrong)
		}) {
			continue
		}
		// The other word is said beside the wrong one, in a sentence of each.
		near := map[string]bool{}
		for _, s := range sentencesWith(n.Content, wrong) {
			for _, w := range contentWords(s) {
				near[w] = true
			}
		}
		var shared []string // as written: "Biscuit"
		for _, s := range sentencesWith(said.text, wrong) {
			for _, sw := range wordsOf(s) {
				w := strings.TrimSuffix(sw.lower, "'s")
				if isContentWord(w) && near[w] && !slices.Contains(wrong, w) && !right[w] && !dateWords[w] && !notAValue[w] && w != strings.ToLower(speaker) &&
					!slices.ContainsFunc(shared, func(s string) bool { return strings.EqualFold(s, w) }) {
					shared = append(shared, strings.TrimSuffix(strings.TrimSuffix(sw.text, "'s"), "’s"))
				}
			}
		}
		switch {
		case len(shared) > 0:
			return stateChange{"supersedes", weightChangeCued, fmt.Sprintf(realm.CorrectionMark+"%s's %s: %s, not %s", speaker, strings.Join(shared, " "), k.right, k.wrong)}
		case sameSession(c.Description, n.Description) && reCorrecting.MatchString(said.text):
			// "Her name is Marina, not Marta" a few turns after the sister was named.
			return stateChange{"supersedes", weightChangeCued, fmt.Sprintf(realm.CorrectionMark+"%s: %s, not %s", speaker, k.right, k.wrong)}
		}
	}
	return stateChange{}
}

// correctedDays are the dates ms of said with the weekday a correction names ("Actually
// the dentist was on Tuesday, not Monday", told on a later day) dated in the week of the
// day it corrects: the wrong weekday as the latest earlier message of the speaker among
// recent that names it and a word of the correction ("Went to the dentist on Monday")
// dated it, not the last such weekday before the correction. Dates stay as read when no
// such message is among recent.
func correctedDays(ms []text.Mention, said, speaker string, recent []realm.Observation) []text.Mention {
	for _, k := range correctionsOf(said) {
		right, okR := weekdayNamed(lastWord(k.right))
		wrong, okW := weekdayNamed(k.wrong)
		if !okR || !okW {
			continue
		}
		corrected, ok := dayNamedBefore(wrong, said, speaker, recent)
		if !ok {
			continue
		}
		day := corrected.AddDate(0, 0, mondayFirst(right)-mondayFirst(wrong))
		for i, m := range ms {
			if strings.EqualFold(lastWord(said[m.Start:m.End]), right.String()) {
				ms[i].From, ms[i].To = text.DaySpan(day)
				ms[i].Label = day.Format("Monday 2 January 2006")
			}
		}
	}
	return ms
}

// dayNamedBefore is the day of weekday wd as the latest of recent said by speaker that
// names it and a word of said besides dates dated it.
func dayNamedBefore(wd time.Weekday, said, speaker string, recent []realm.Observation) (time.Time, bool) {
	words := wordSet(slices.DeleteFunc(contentWords(said), func(w string) bool { return dateWords[w] }))
	for _, r := range slices.Backward(recent) {
		if !strings.EqualFold(strings.TrimSpace(r.Speaker), speaker) || !slices.ContainsFunc(contentWords(r.Content), func(w string) bool { return words[w] }) {
			continue
		}
		for _, m := range datesOf(r.Content, speaker, r.ObservedAt) {
			if m.From.Weekday() == wd && strings.EqualFold(lastWord(r.Content[m.Start:m.End]), wd.String()) {
				return m.From, true
			}
		}
	}
	return time.Time{}, false
}

// weekdayNamed is the weekday a word names ("Tuesday").
func weekdayNamed(w string) (time.Weekday, bool) {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(strings.TrimSpace(w), d.String()) {
			return d, true
		}
	}
	return 0, false
}

// mondayFirst numbers a weekday in a week that starts on Monday, as weeks do (internal/text).
func mondayFirst(d time.Weekday) int { return (int(d) + 6) % 7 }

// reBareNumber is a corrected count: "not 3".
var reBareNumber = regexp.MustCompile(`^\d{1,6}$`)

// countCorrected: k corrects a count ("we need 5 seats, not 3"): its wrong value a bare
// number, or none said ("Actually the sample size is 412": reRestatedNumber), its right
// value ending in another number and the unit counted, or that number alone, said of
// something ("the sample size was 412, not 214"). to is that amount.
func countCorrected(k correction) (to amount, ok bool) {
	if k.wrong != "" && !reBareNumber.MatchString(strings.TrimSpace(k.wrong)) {
		return amount{}, false
	}
	as := amountsOf(k.right)
	if len(as) == 0 {
		return amount{}, false
	}
	to = as[len(as)-1]
	right := strings.ToLower(k.right)
	endsWithIt := strings.HasSuffix(right, strings.ToLower(to.word)) || strings.HasSuffix(right, strings.ToLower(to.word)+" "+lastWord(right))
	if to.unit == "" && right != to.word || to.value == k.wrong || !endsWithIt {
		return amount{}, false
	}
	return to, true
}

// countOf is the amount of node n that count correction k (to: its right amount)
// corrects, and what it counts: one of the unit k names, if any, whose value is k's wrong
// one (none said: n's only amount of that unit), n saying no amount of the right value. A
// count of the unit corrected outright ("5 seats, not 3") needs nothing else; without a
// unit or the wrong value, n says the same thing: two words in common with the statement
// besides numbers, dates and the unit ("the Smith 2021 study's sample size"), and the
// statement names no one n does not (the Garcia study) nor another number (Smith 2019).
func countOf(said *statement, k correction, to amount, n realm.Node) (from amount, what string, ok bool) {
	olds := slices.DeleteFunc(amountsOf(n.Content), func(a amount) bool { return to.unit != "" && a.unit != to.unit })
	if slices.ContainsFunc(olds, func(a amount) bool { return a.value == to.value }) {
		return amount{}, "", false
	}
	i := slices.IndexFunc(olds, func(a amount) bool { return a.value == k.wrong })
	if k.wrong == "" && len(olds) == 1 {
		i = 0
	}
	if i < 0 {
		return amount{}, "", false
	}
	if to.unit != "" && k.wrong != "" {
		return olds[i], to.unit, true
	}
	shared := sharedWords(said.text, n.Content, said.speaker, func(w string) bool {
		return !strings.ContainsFunc(w, unicode.IsDigit) && !dateWords[w] && !amountWords[w] && singular(w) != olds[i].unit
	})
	otherNumber := slices.ContainsFunc(wordsOf(said.text), func(w wordSpan) bool {
		return strings.ContainsFunc(w.text, unicode.IsDigit) && !strings.Contains(to.word, w.text) && w.text != k.wrong && !containsWord(n.Content, w.text)
	})
	if len(shared) < 2 || otherNumber || namesAnother(said.text, n.Content, said.speaker) {
		return amount{}, "", false
	}
	return olds[i], strings.Join(shared, " "), true
}

func lastWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return strings.ToLower(f[len(f)-1])
	}
	return ""
}

// reCorrecting: words that say a correction is one, which lets it correct a memory of the
// same session that it shares no other word with; reCorrectionCue: those but "name", which
// let a number said alone correct one (reRestatedNumber).
var (
	reCorrecting    = regexp.MustCompile(`(?i)\b(?:name|` + correctionCues + `)\b`)
	reCorrectionCue = regexp.MustCompile(`(?i)\b(?:` + correctionCues + `)\b`)
)

const correctionCues = `actually|sorry|meant|correction|oops|typo|my bad|my mistake|misspoke|got (?:that|it) wrong`

// inSession is the session a description names ("Said by Nina on 8 May 2023 in session
// s1.", "… in session s1, in reply to Sam.", "… in session s1. Part 1 of 2.").
var inSession = regexp.MustCompile(` in session (\S+?)[,.]?(?:\s|$)`)

func sameSession(a, b string) bool {
	ma, mb := inSession.FindStringSubmatch(a), inSession.FindStringSubmatch(b)
	return ma != nil && mb != nil && ma[1] == mb[1]
}

// saidAfter: description a says its node was said on a later day than b's.
func saidAfter(a, b string) bool {
	ma, mb := saidOn.FindStringSubmatch(a), saidOn.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		return false
	}
	ta, errA := time.Parse(text.DayLayout, ma[1])
	tb, errB := time.Parse(text.DayLayout, mb[1])
	return errA == nil && errB == nil && ta.After(tb)
}

// sentencesWith are the sentences of text that hold every content word of ws.
func sentencesWith(text string, ws []string) []string {
	var out []string
	for _, s := range sentences(text) {
		if part := text[s.start:s.end]; allIn(ws, wordSet(contentWords(part))) {
			out = append(out, part)
		}
	}
	return out
}

func allIn(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if !set[w] {
			return false
		}
	}
	return len(ws) > 0
}

// amount is a number as written ("40mg", "45", "$2,100", "three cups", "twice") and what
// it counts: the letters joined to it, else a currency sign before it, else the word after
// it ("euro", "cup"; the word written with the number then). value is the number alone,
// its separators read ("2100" of "2,100" and "2.100,00", "52500" of "52.5k"), so that two
// ways of writing one amount are one.
type amount struct{ word, value, unit string }

// timesWords are the numbers of times said in one word ("twice a day").
var timesWords = map[string]string{"once": "1", "twice": "2", "thrice": "3"}

// rePhoneNumber is a phone number, one value of a contact, not amounts: a "+" and digit
// groups ("+44 20 7946 0958"), or digit groups after "phone", "mobile" or "tel" ("phone 415
// 555 0101"): groups 1 and 2 what comes before it, which amountsOf keeps.
var rePhoneNumber = regexp.MustCompile(`(^|[^\w+])\+\d{1,3}` + phoneGroups + `|(?i:\b((?:phone|mobile|cell|tel)(?: number)?:? ))\d{2,}` + phoneGroups)

// phoneGroups are the digit groups of a phone number after its first: two or more, of
// two digits or more ("+1 415 555 0101"), not an amount's ("+5 kg").
const phoneGroups = `(?:[ \-.]?\d{2,}){2,}`

var (
	// reNumberAt is a number at the start of a text, written with thousands separators
	// ("2,100", "1,298,001.10", "1.310,75", "1.250.000") or a decimal part ("72.5", "2,5"),
	// and the letters joined to it ("mg", "k", "th").
	reNumberAt    = regexp.MustCompile(`^(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+|\d+(?:[.,]\d+)?)([\p{L}%]*)`)
	reThousands   = regexp.MustCompile(`^\d{1,3}(?:([.,])\d{3})+(?:[.,]\d+)?$`)
	reParenthesis = regexp.MustCompile(`\([^()]*\)`)
	reMonth       = regexp.MustCompile(`^(?i:` + text.MonthNames + `)$`)
)

// sectionsOf are the sections of a text that a text names by their numbers: a section,
// clause, article or paragraph ("Section 7.2", "§ 4.3", "clause 9.1(b)", "the cap in
// 9.1"), not an amendment, schedule or exhibit, which names a change or an attachment
// rather than the clause it changes.
func sectionsOf(s string) []text.SectionRef {
	return slices.DeleteFunc(text.SectionRefs(s), func(r text.SectionRef) bool { return !clauseNouns[r.Noun] })
}

var clauseNouns = setOf(`section clause article paragraph`)

// sectionsMet: a statement and an older memory each name sections of a text (named), and
// one section of one is one of the other's, or a sub-clause of it (met): "clause 9.1(b)"
// is of Section 9.1, not of 9.1(c) nor 9.10.
func sectionsMet(said, old string) (named, met bool) {
	ours, theirs := sectionsOf(said), sectionsOf(old)
	met = slices.ContainsFunc(ours, func(a text.SectionRef) bool {
		return slices.ContainsFunc(theirs, func(b text.SectionRef) bool {
			return a.Number == b.Number && (strings.HasPrefix(a.Sub, b.Sub) || strings.HasPrefix(b.Sub, a.Sub))
		})
	})
	return len(ours) > 0 && len(theirs) > 0, met
}

// sectionsApart: a statement and an older memory each name sections of a text, and no
// section of one is one of the other's: "the notice period in Section 7.2" changes nothing
// of Section 22.2 or 4.3, whatever amounts they share.
func sectionsApart(said, old string) bool {
	named, met := sectionsMet(said, old)
	return named && !met
}

// currencySigns stand before an amount of money, which they are the unit of.
const currencySigns = "$£€₹¥"

// moneyWords, after a number, make it an amount of money even when it could be a year
// ("1900 dollars", "2000 gold").
var moneyWords = setOf(`dollar dollars euro euros pound pounds buck bucks yen rupee rupees franc francs usd eur gbp gold coins credits`)

// amountsOf are the amounts of a text: not years, times of day or days of a month named
// with it ("May 9th"), phone numbers, nor what the rewrite wrote in parentheses (dates).
// An ordinal is one only as a day of every month ("due on the 15th"), a number written as
// a word ("three cups", "twice") only with what it counts.
func amountsOf(s string) []amount {
	s = rePhoneNumber.ReplaceAllString(reParenthesis.ReplaceAllString(s, ""), "$1$2")
	ws, parts := wordsOf(s), text.SectionRefs(s)
	var out []amount
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if n, ok := timesWords[w.lower]; ok {
			out = append(out, amount{word: w.text, value: n, unit: "time"})
			continue
		}
		m := reNumberAt.FindStringSubmatch(s[w.start:])
		spelt := numberWords[w.lower] != "" && w.lower != "a"
		if spelt {
			m = []string{w.lower, numberWords[w.lower], ""}
		}
		if m == nil || gluedToWord(s, w.start) || !spelt && !endsWord(s, w.start+len(m[0])) {
			continue
		}
		// A number that names a part of a text is no amount ("Section 7.2", "the cap in 9.1").
		part := slices.ContainsFunc(parts, func(r text.SectionRef) bool { return r.Start == w.start })
		if !spelt { // the number's words as one: "2,100" is not 2 and 100
			end := w.start + len(m[0])
			for i+1 < len(ws) && ws[i+1].start < end {
				i++
			}
			w = wordSpan{start: w.start, end: end, text: s[w.start:end], lower: strings.ToLower(s[w.start:end])}
		}
		unit := strings.ToLower(m[2])
		next, after, prev := "", "", ""
		if i+1 < len(ws) {
			next = ws[i+1].lower
		}
		if i+2 < len(ws) {
			after = ws[i+2].text
		}
		if i > 0 {
			prev = ws[i-1].text
		}
		ordinal := unit == "st" || unit == "nd" || unit == "rd" || unit == "th"
		switch {
		case part:
			continue
		case len(m[1]) == 4 && (strings.HasPrefix(m[1], "19") || strings.HasPrefix(m[1], "20")) && unit == "" && !moneyWords[next],
			ordinal && (!dayOfEveryMonth(m[1], prev, next, w.end == len(s) || strings.ContainsRune(".,;!?", rune(s[w.end]))) || next == "of" && reMonth.MatchString(after)),
			unit == "am" || unit == "pm",
			next == "am" || next == "pm" || reMonth.MatchString(prev) || reMonth.MatchString(next),
			w.end < len(s) && s[w.end] == ':':
			continue
		}
		sign, _ := utf8.DecodeLastRuneInString(s[:w.start])
		value := m[1]
		if !spelt {
			value = amountValue(m[1], unit == "k", strings.ContainsRune(currencySigns, sign))
		}
		word := w.text
		switch {
		case ordinal:
			unit = "day"
		case unit == "k" || unit == "" && strings.ContainsRune(currencySigns, sign):
			unit = string(sign) // "£48k": thousands of pounds
			if !strings.ContainsRune(currencySigns, sign) {
				unit = ""
			}
		}
		if unit == "" && next == "times" {
			unit, word = "time", s[w.start:ws[i+1].end] // "three times a day", which "twice" changes
		}
		if unit == "" && next != "" && !dateWords[next] && !notAValue[next] && (isContentWord(next) || len(next) <= 3 && !text.IsStopword(next) && !strings.ContainsFunc(next, unicode.IsDigit)) {
			unit, word = singular(next), s[w.start:ws[i+1].end] // "45 euros", "20 mg"
		}
		if spelt && unit == "" {
			continue // "the one I like"
		}
		if strings.ContainsRune(currencySigns, sign) && unit == string(sign) {
			word = s[w.start-utf8.RuneLen(sign) : w.end] // "$2,100", as a description says it
		}
		out = append(out, amount{word: word, value: value, unit: unit})
	}
	return out
}

// endsWord: a number read up to end is the whole of it, not the start of one the pattern
// does not read ("1,2345").
func endsWord(s string, end int) bool {
	r, _ := utf8.DecodeRuneInString(s[end:])
	return end == len(s) || !unicode.IsDigit(r) && !unicode.IsLetter(r)
}

// dayOfEveryMonth: an ordinal n, after prev and before next (or ending a clause: ends),
// is a day of every month ("due on the 15th", "moved to the 22nd of each month"), not a
// rank ("the 3rd time", "the 5th floor") nor a date (a month beside it, which amountsOf
// reads apart).
func dayOfEveryMonth(n, prev, next string, ends bool) bool {
	return strings.EqualFold(prev, "the") && (len(n) == 1 || len(n) == 2 && n >= "10" && n <= "31") && (ends || next == "of")
}

// amountValue is a number as a value: its thousands separators dropped and its decimal
// separator a point ("2100" of "2,100" and of "€2.100", "1310.75" of "1.310,75", "2.5" of
// "2,5"), in thousands for a "k" after it ("52.5k"). A point before one group of three
// digits, with no other group nor a comma, is a decimal point as English writes one
// ("2.1" of "2.100 km", "2100" of "$2.100k"), but in money without a "k", which may be
// written in the European way ("€2.100").
func amountValue(n string, thousands, money bool) string {
	m := reThousands.FindStringSubmatch(n)
	decimal := m != nil && m[1] == "." && strings.Count(n, ".") == 1 && !strings.Contains(n, ",") && (thousands || !money)
	if m != nil && !decimal {
		n = strings.ReplaceAll(n, m[1], "")
	}
	n = strings.ReplaceAll(n, ",", ".")
	if !thousands && !decimal {
		return n
	}
	v, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return n
	}
	if thousands {
		v *= 1000
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// gluedToWord: the word at start is joined to the one before it by a hyphen or a point,
// part of a name or of a number: the 1 of "db-prod-1", the 4 of "16.4".
func gluedToWord(s string, start int) bool {
	if start < 2 || (s[start-1] != '-' && s[start-1] != '.') {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:start-1])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// reAmountCue: a text that says an amount changed.
var reAmountCue = regexp.MustCompile(`(?i)\b(?:raised|lowered|increased|decreased|reduced|upped|doubled|halved|cut|hiked|bumped|adjusted|changed|switched|moved|updated|went (?:up|down)|gone (?:up|down)|goes (?:up|down)|rose|risen|fell|dropped|now|instead|new dose|these days|from now on)\b`)

// reAmendmentHeading: a text that opens as an amendment of a contract ("Amendment 4:",
// "Amendment 2, effective March 1 2027:"), after the speaker's label.
var reAmendmentHeading = regexp.MustCompile(`(?i)^(?:[^:]{1,80}: )?amendment \d+\b[^:.;]{0,60}:`)

// amends: a text is an amendment of a contract that names the sections it changes: what
// it says of them holds from now on, said with a verb of change or not ("Amendment 4: the
// payment term in Section 4.3 is 30 days").
func amends(s string) bool {
	return reAmendmentHeading.MatchString(s) && len(sectionsOf(s)) > 0
}

// rePaid: past verbs of amounts that hasPastCue does not know: what was paid stays paid.
var rePaid = regexp.MustCompile(`(?i)\b(?:paid|sold|lent)\b`)

// reNotPast: words in the past that tell of no past event: when a dose is taken ("1 puff
// when needed"), a loan's kind ("a 5.19% fixed rate"), a limit ("capped at $2,000,000"), an echo's acknowledgement ("assistant: Noted: user takes 500 mg"), the
// label of the statement an exchange quotes ("user said: …").
var reNotPast = regexp.MustCompile(`(?i)\b(?:as|when|if) needed\b|\bnoted\b|\bfixed[ -](?:rate|term)\b|\b(?:capped|limited|priced|valued|pegged) (?:at|to)\b|^[^"\n]{1,80}? said(?: [^":\n]{1,60})?: `)

// amountWords are words that any two amounts may share: what an amount costs or takes.
var amountWords = setOf(`cost costs costing price paid pay pays paying take takes taking dose amount total per every each`)

// rePhraseBreak ends a phrase of a clause: a comma or a semicolon and a space ("pay $5,000
// within 30 days, then $2,000 within 60 days"), not the comma inside "$5,000".
var rePhraseBreak = regexp.MustCompile(`[,;] `)

// replacedAmount is the amount of old (olds) that a, said anew, replaces: one of a's unit
// and another value, not replaced already (taken). Of several, the one the statement names
// (said): its value ("the $5,000 payment is changed to $4,500"), else an amount of another
// unit in its phrase ("pay $5,000 within 30 days, then $2,000 within 60 days": "the payment
// due within 30 days is changed to $4,000" replaces $5,000); else the last.
func replacedAmount(a amount, said []amount, old string, olds, taken []amount) amount {
	same := func(b amount) func(amount) bool {
		return func(c amount) bool { return c.value == b.value && c.unit == b.unit }
	}
	var ofUnit []amount
	for _, b := range olds {
		if b.unit == a.unit && b.value != a.value && !slices.Contains(taken, b) {
			ofUnit = append(ofUnit, b)
		}
	}
	if len(ofUnit) == 0 {
		return amount{}
	}
	named := func(b amount) bool { return slices.ContainsFunc(said, same(b)) }
	if k := slices.IndexFunc(ofUnit, named); k >= 0 {
		return ofUnit[k]
	}
	for _, phrase := range rePhraseBreak.Split(old, -1) {
		in := amountsOf(phrase)
		if !slices.ContainsFunc(in, func(b amount) bool { return b.unit != a.unit && named(b) }) {
			continue
		}
		if k := slices.IndexFunc(ofUnit, func(b amount) bool { return slices.ContainsFunc(in, same(b)) }); k >= 0 {
			return ofUnit[k]
		}
	}
	return ofUnit[len(ofUnit)-1]
}

// amountChanged is the change from node n, the speaker's own or a copy of it (saysOf), to
// a statement of the speaker that says, with a cue (raised, went up, now…), another amount
// of the same unit ("40mg", "20mg") of the same thing: a word in common besides amounts,
// dates, the speaker and words any amount has ("costs", "month"), two when the amount has
// no unit. Not when n tells of a past event other than an amount changed, nor when the
// statement names a person n does not (but for what it changed to: "switched my phone
// plan to Mint"), or n a relative the statement does not (someone else's amount), nor
// when n tells of a plan and the statement does not (plansOnly).
func amountChanged(said *statement, n realm.Node) stateChange {
	speaker := said.speaker
	if !saysOf(n, speaker) || !said.amountCued.get() || len(said.amounts.get()) == 0 {
		return stateChange{}
	}
	olds := amountsOf(n.Content)
	var froms, tos []amount // each new amount with the old one of its unit: "£1,336.20" and "£1,420", "4.39%" and "5.19%"
	for _, a := range said.amounts.get() {
		if slices.ContainsFunc(olds, func(b amount) bool { return b.value == a.value && b.unit == a.unit }) {
			continue
		}
		if from := replacedAmount(a, said.amounts.get(), n.Content, olds, froms); from.word != "" {
			froms, tos = append(froms, from), append(tos, a)
		}
	}
	// A past event is no amount that holds, unless it changed the amount itself ("my doctor
	// raised my dose to 100mg", "paid some back; now I owe 40 gold"): that is the amount since.
	changedBefore := reAmountCue.MatchString(withoutLabels(n.Content))
	newHolder, others := said.newHolder.get(), said.text
	if newHolder != "" {
		others = replaceWord(others, newHolder, "")
	}
	if len(tos) == 0 || (hasPastCue(reNotPast.ReplaceAllString(n.Content, "")) || rePaid.MatchString(n.Content)) && !changedBefore ||
		namesAnother(others, n.Content, speaker) || namesRelative(n.Content, said.text) || plansOnly(nodeClaims(n), said.claims) ||
		anotherKind(said.text, n.Content) {
		return stateChange{}
	}
	from, to := froms[len(froms)-1], tos[len(tos)-1]
	shared := sharedWords(said.text, n.Content, speaker, func(w string) bool {
		return !strings.ContainsFunc(w, unicode.IsDigit) && !dateWords[w] && !amountWords[w] && singular(w) != to.unit
	})
	need := 2
	switch {
	case to.unit != "" && slices.ContainsFunc(said.amounts.get(), func(a amount) bool { return a.value == from.value && (a.unit == "" || a.unit == from.unit) }):
		need = 0 // the statement names the old amount too: "2 puffs instead of 1", "from 50 mg to 100 mg"
	case to.unit != "":
		need = 1 // the unit is a second word in common
	}
	// A section both name is a word in common: "the cap in 9.1 is raised to $3,000,000" and
	// "Section 9.1 (Indemnity): … capped at $2,000,000".
	if _, met := sectionsMet(said.text, n.Content); len(shared) < need && !met {
		return stateChange{}
	}
	// n's own words say how it changed, which the new amount does not repeat; or what
	// holds the amount now is another ("remortgaged to Halifax"), whom n does not name.
	// The change names its thing ("the period in Section 7.2 is changed to 20 days"): that
	// is what changed, rather than the words the two changes share ("amendment period").
	if changedBefore || newHolder != "" && !containsWord(n.Content, newHolder) {
		what := speaker + "'s " + strings.Join(shared, " ")
		if m := reAmountIn.FindStringSubmatch(said.text); m != nil && m[2] != "" {
			what = "the " + m[1] + m[2]
		}
		return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s: %s, previously %s", what, strings.Join(amountWordsOf(tos), ", "), strings.Join(amountWordsOf(froms), ", "))}
	}
	// What holds now: n's clause that has the old amount, with the new one, so that a
	// question about the amount names nothing n says that the change does not.
	desc, ok := restated(n.Content, amountWordsOf(froms), amountWordsOf(tos))
	if !ok {
		return stateChange{}
	}
	return stateChange{"supersedes", weightChangeCued, desc}
}

// reAmountOf: what a change of an amount names as its thing ("the notice period in Section
// 7.2 is changed to 60 days", "the indemnity cap is raised"): group 1, and group 2 the
// section it is of.
var reAmountOf = regexp.MustCompile(amountIs + ` (?:changed|raised|lowered|increased|decreased|reduced|extended|shortened|cut|amended|updated)\b`)

// reAmountIn: what a statement of an amount names as its thing, changed or not ("the
// notice period in Section 7.2 is 60 days"): the groups of reAmountOf.
var reAmountIn = regexp.MustCompile(amountIs + `\b`)

const amountIs = `(?i)\bthe ((?:[\p{L}-]+ )*?[\p{L}-]+)((?: (?:in|under|of) ` + text.SectionPattern + `)?) (?:is|are|was|were|has been|have been|will be|shall be)(?: now)?`

// anotherKind: a change names its thing by a kind ("the notice period"), and old says the
// thing's word of another kind only ("the payment period"): another amount.
func anotherKind(said, old string) bool {
	m := reAmountOf.FindStringSubmatch(said)
	if m == nil {
		return false
	}
	thing := strings.Fields(strings.ToLower(m[1]))
	if len(thing) < 2 || !isContentWord(thing[len(thing)-2]) {
		return false // "the period", "the rent for my flat"
	}
	head, kind := text.Stem(thing[len(thing)-1]), text.Stem(thing[len(thing)-2])
	ws, others := wordsOf(old), false
	for i := 1; i < len(ws); i++ {
		if text.Stem(ws[i].lower) != head {
			continue
		}
		if text.Stem(ws[i-1].lower) == kind {
			return false
		}
		others = others || isContentWord(ws[i-1].lower)
	}
	return others
}

func amountWordsOf(as []amount) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.word)
	}
	return out
}

// plansOnly: an older memory tells of a plan (a goal: "I want to save $10,000 by
// December") and the statement does not: an amount reached on the way ("my emergency fund
// is at $6,420.18 now") changes no goal.
func plansOnly(old, claims []stateClaim) bool {
	plan := func(c stateClaim) bool { return c.plan }
	return slices.ContainsFunc(old, plan) && !slices.ContainsFunc(claims, plan)
}

// reNewHolder: what a change went to, a name ("switched my phone plan to Mint",
// "remortgaged to Halifax"): no other person whose amount it is.
var reNewHolder = regexp.MustCompile(`\b(?i:switched|changed|moved|remortgaged|refinanced|transferred)\b[^.,;!?]*? to ([\p{Lu}][\p{L}\-]*)`)

// sharedWords are the content words of said that old says too, as old writes them, but
// the speaker and those keep does not keep: "mortgage" of "remortgaged" (a word again
// with "re" before it).
func sharedWords(said, old, speaker string, keep func(string) bool) []string {
	stems := map[string]string{}
	for _, w := range contentWords(old) {
		stems[text.Stem(w)] = w
	}
	var out []string
	for _, w := range contentWords(said) {
		o, ok := stems[text.Stem(w)]
		if again := strings.TrimPrefix(w, "re"); !ok && len(again) > 4 && again != w {
			o, ok = stems[text.Stem(again)]
		}
		if ok && keep(o) && o != strings.ToLower(speaker) && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// saysOf: node n is speaker's own, or tells of them in another's words: an assistant's
// echo ("Noted: user takes metformin 500 mg twice a day", or, naming no one, "Noted:
// salary $85,000/year."), an exchange that quotes them.
func saysOf(n realm.Node, speaker string) bool {
	by := speakerOfDescription(n.Description)
	return by != "" && speaker != "" && (strings.EqualFold(by, speaker) || containsWord(n.Content, speaker) || echoes(n, by, speaker))
}

// reAcknowledged: a reply that opens by acknowledging what it was told.
var reAcknowledged = regexp.MustCompile(`(?i)^(?:noted|got it|okay|ok|updated|logged|recorded)\b`)

// echoes: node n, said by a chat's assistant, acknowledges what its user told ("Got it —
// rent $1,850/month."), which is the user's though it does not name them: a chat's
// assistant speaks to its user. Not when it states something of someone else ("Noted: Tom
// takes metformin").
func echoes(n realm.Node, by, speaker string) bool {
	if !strings.EqualFold(speaker, "user") || !strings.EqualFold(by, chatCounterpart["user"]) {
		return false
	}
	said := strings.TrimSpace(strings.TrimPrefix(withoutLabels(n.Content), by+":"))
	return reAcknowledged.MatchString(said) && !slices.ContainsFunc(stateClaims(said, by), func(c stateClaim) bool { return !sameSubject(c.subject, speaker) })
}

// reDebtPaid: a debt paid off or back, cleared or settled ("I paid off the car loan!",
// "Paid back my brother Lukas", "Cleared the overdraft completely"): group 1 the verb, 2
// what was paid.
var reDebtPaid = regexp.MustCompile(`(?i)\b(paid (?:off|back)|repaid|cleared|settled)\b([^.,;!?]*)`)

// reDebt: a memory that tells of a debt.
var reDebt = regexp.MustCompile(`(?i)\b(?:owe[ds]?|owing|loans?|debts?|overdraft|borrowed|mortgage)\b`)

// rePartly: a debt not paid whole, or not at all.
var rePartly = regexp.MustCompile(`(?i)\b(?:not|never|half|part|partly|partially|some|almost|nearly)\b|n't\b`)

// debtPaid is the change from node n, a debt of the speaker's or a copy of it (saysOf:
// "I have a car loan, $14,500 left", "I owe my brother Lukas €800"), to a statement of the
// speaker that says it was paid off (reDebtPaid), naming a word n says ("the car loan",
// "my brother Lukas"): the debt holds no more. Not a payment that n tells of ("I paid 300
// euros for the flight", which rePaid keeps from changing), a debt paid in part, a
// question, a plan, nor someone else's debt. Nothing otherwise.
func debtPaid(said *statement, n realm.Node) stateChange {
	m := reDebtPaid.FindStringSubmatch(said.text)
	if m == nil || !saysOf(n, said.speaker) || !reDebt.MatchString(withoutLabels(n.Content)) || rePartly.MatchString(said.text) ||
		strings.Contains(said.text, "?") || hasFutureCue(said.text) || namesRelative(n.Content, said.text) || namesRelative(said.text, n.Content) {
		return stateChange{}
	}
	shared := sharedWords(m[2], n.Content, said.speaker, func(w string) bool { return !dateWords[w] && !amountWords[w] })
	if len(shared) == 0 {
		return stateChange{}
	}
	return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's %s: %s", said.speaker, strings.Join(shared, " "), strings.ToLower(m[1]))}
}

// rePayRaised: pay raised or cut in percent ("got a 5% raise", "a 10% pay cut"): group 1
// the percent, 2 the word that says which way.
var rePayRaised = regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?) ?% (?:pay |salary )?(raise|rise|increase|cut)\b`)

// rePay: a memory that tells of pay.
var rePay = regexp.MustCompile(`(?i)\b(?:salary|salaries|wages?|income|earns?|earning|paycheck)\b`)

// payRaised is the change from node n, the speaker's pay or a copy of it (saysOf: "my
// salary is $85,000 a year", "Noted: salary $85,000/year."), an amount of money, to a
// statement of the speaker that their pay was raised or cut in percent (rePayRaised: "I
// got a 5% raise"): the pay holds no more, and the edge says by how much ("user's salary:
// raised 5%, previously $85,000"), not the new amount, which the percent of a rounded
// salary gives only roughly. Not a question, a plan, nor someone else's pay (a relative
// named by one of the two only).
func payRaised(said *statement, n realm.Node) stateChange {
	m := rePayRaised.FindStringSubmatch(said.text)
	if m == nil || !saysOf(n, said.speaker) || !rePay.MatchString(withoutLabels(n.Content)) || strings.Contains(said.text, "?") ||
		hasFutureCue(said.text) || namesRelative(n.Content, said.text) || namesRelative(said.text, n.Content) {
		return stateChange{}
	}
	olds := amountsOf(n.Content)
	i := slices.IndexFunc(olds, func(a amount) bool { return a.unit != "" && strings.Contains(currencySigns, a.unit) })
	if i < 0 {
		return stateChange{}
	}
	how := "raised"
	if strings.EqualFold(m[2], "cut") {
		how = "cut"
	}
	return stateChange{"supersedes", weightChangeCued, fmt.Sprintf("%s's salary: %s %s%%, previously %s", said.speaker, how, m[1], olds[i].word)}
}

// relatives are the people a text about someone else's amount names.
var relatives = setOf(`sister brother mother father mom mum dad son daughter wife husband partner boyfriend girlfriend
friend boss colleague kid kids children child cousin aunt uncle grandma grandpa grandmother grandfather neighbour neighbor roommate`)

// namesAnother: text names a person old does not, a name (a capitalised word within a
// sentence, not the speaker's) or a relative.
func namesAnother(text, old, speaker string) bool {
	ow := map[string]bool{}
	for _, w := range wordsOf(old) {
		ow[strings.TrimSuffix(w.lower, "'s")] = true
	}
	for _, w := range wordsOf(text) {
		l := strings.TrimSuffix(w.lower, "'s")
		if ow[l] || strings.EqualFold(l, speaker) {
			continue
		}
		if relatives[l] {
			return true
		}
		if nameWithin(text, w) && !nonName[l] {
			return true
		}
	}
	return false
}

// namesRelative: text names a relative old does not ("user's sister takes levothyroxine
// 50 mcg", beside "my levothyroxine was changed"). Not any name, as namesAnother reads
// them: what an older memory names may be a product ("Postgres 14 on RDS").
func namesRelative(text, old string) bool {
	ow := wordSet(contentWords(old))
	return slices.ContainsFunc(contentWords(text), func(w string) bool { return relatives[w] && !ow[w] })
}

func containsWord(s, w string) bool {
	for range wholeWords(strings.ToLower(s), strings.ToLower(w)) {
		return true
	}
	return false
}

// olderThan reports whether candidate c of this observation tells of a state before node
// n's, and from when n holds instead: when c's time (its end, else its start, else when
// it was said) is before n's start, or, a chat's history sent late, when c was said
// before n was said (the day from n's description, the hour from its learned_at when
// that is of the same day). n holds from its start, else from the day it was said, and
// not before c was said. A start after the day n was said is a
// plan's ("a trip to Lisbon in October", said in June): the plan holds from when it was
// said, so a change told in September is the newer one.
func (r *relater) olderThan(c agent.Candidate, n realm.Node) (time.Time, bool) {
	said := r.in.Observation.ObservedAt
	if said.IsZero() {
		return time.Time{}, false
	}
	cLast := said
	if c.TEnd != nil {
		cLast = *c.TEnd
	} else if c.TStart != nil {
		cLast = *c.TStart
	}
	nSaid, saidKnown := time.Time{}, false
	if m := saidOn.FindStringSubmatch(n.Description); m != nil {
		t, err := time.ParseInLocation(text.DayLayout, m[1], said.Location())
		nSaid, saidKnown = t, err == nil
	}
	start := n.TStart
	if start != nil && saidKnown && !start.Before(nSaid.AddDate(0, 0, 1)) {
		start = nil // a plan's: it holds from the day it was said
	}
	if start != nil && cLast.Before(*start) {
		return *start, true
	}
	if !saidKnown {
		return time.Time{}, false
	}
	if at := n.LearnedAt; at != nil && !at.Before(nSaid) && at.Before(nSaid.AddDate(0, 0, 1)) {
		nSaid = *at // the hour it was said, that day: two changes of one day keep their order
	}
	if !said.Before(nSaid) {
		return time.Time{}, false
	}
	begins := nSaid
	if start != nil {
		begins = *start
	}
	if begins.Before(said) {
		begins = said
	}
	return begins, true
}

// saidOn is the day a node was said, from its description ("Said by Maya on 3 March 2025").
var saidOn = regexp.MustCompile(`^Said by .+? on (\d{1,2} \p{Lu}\p{Ll}+ \d{4})`)

// reAsker is the speaker an exchange quotes, at the start of its prompt.
var reAsker = regexp.MustCompile(`^([^"\n]{1,80}?) (?:asked|said)\b`)

// nodeClaims are a node's claims, each with its speaker: in an exchange, the quoted
// prompt's are the asker's, the rest the node's own speaker's.
func nodeClaims(n realm.Node) []stateClaim {
	return claimMemo.get([2]string{n.Description, n.Content}, readNodeClaims)
}

// claimMemo remembers the claims of node texts (description, content): the patterns are
// most of the write path's own work.
var claimMemo memo[[2]string, []stateClaim]

func readNodeClaims(node [2]string) []stateClaim {
	description, content := node[0], node[1]
	speaker := speakerOfDescription(description)
	prompt := rePrompt.FindString(content)
	if prompt == "" {
		return stateClaims(content, speaker)
	}
	asker := ""
	if m := reAsker.FindStringSubmatch(prompt); m != nil {
		asker = m[1]
	}
	return append(stateClaims(prompt, asker), stateClaims(content[len(prompt):], speaker)...)
}
