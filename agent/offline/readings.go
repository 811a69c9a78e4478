package offline

import (
	"cmp"
	"regexp"
	"strings"
)

// A gauge's reading ("Thermostat living room 21.5C", "Disk /dev/sda1 at 81%", "The living
// room temperature is now 22.0C"): a statement that is a gauge's name and a measure of a
// state, nothing else. A gauge holds one value at a time, so a later reading of the same
// gauge in the same unit replaces the earlier, whoever reports it; a gauge named by one
// word ("Battery at 80%", "Battery 80%") is its reporter's own, which another device's
// reading does not replace. A happening measured
// ("Backup job nightly-db finished OK in 312 s", each night another) is no reading: its
// name holds what happened, and its unit measures no state.

// reReading is a whole statement that reads a gauge: its name (group 1), what joins it to
// the number ("at", "is", "is now", "reads", "set to", a colon or nothing: group 2), a
// number (3) and a unit of a state (4): "Thermostat set to 21 degrees", "House power
// draw 340 W".
var reReading = regexp.MustCompile(`^(\p{L}[\w/.\-]*(?: [\w/.\-]+){0,5}?)(:| at| is| is now| now at| reads| (?:is )?(?:now )?set to)? (-?\d+(?:\.\d+)?) ?(%|°[CF]|[CF]|degrees|ppm|hPa|dB|rpm|[KMGT]B|[kM]?Wh?)\.?$`)

// reSetBy is a person setting a gauge ("I set the thermostat to 20 degrees", as the
// rewrite writes it "Sarah set the thermostat to 20 degrees"; "We turned the heating
// down to 18C"): a reading of the gauge (group 1), the number and its unit the rest (2),
// as the gauge's own "Thermostat set to 21 degrees" is one.
var reSetBy = regexp.MustCompile(`^(?:I|[Ww]e|\p{Lu}[\p{L}'’\-]*) (?:just )?(?:set|turned|put) (?:the |our |my |his |her |their )?(\p{L}[\w/.\-]*(?: [\w/.\-]+){0,3}?) (?:(?:up|down|back) )?to (-?\d.*)$`)

// gaugeWords are what a gauge measures, which names one alone: "Battery 80%" (a device's
// own, as it reports it).
var gaugeWords = setOf(`battery charge cpu memory ram disk storage temperature temp humidity pressure load fuel signal volume brightness`)

// reScore is a whole statement of a person's score on what is measured, a reading of that
// measure of theirs ("Ana scored 62% on the fractions quiz", "Ana is now at 85% on
// fractions"; a chat's user as the rewrite writes them: "user is now at 85% on
// fractions"), or the score alone, its speaker's ("62% on fractions", said by Ana in reply
// to "How did the quiz go?"): the name (group 1, none then), the number (2), the unit (3)
// and what is measured (4), without the test that measured it ("quiz", "test"), so that a
// standing and a test of it read the same measure.
var reScore = regexp.MustCompile(`^(?:(\p{Lu}[\p{L}\-]*|(?:the )?user) (?:scored|got|is at|is now at|now at) )?(\d+(?:\.\d+)?) ?(%) (?:on|in) (?:the |(?:her|his|their) )?(\p{L}[\p{L}\-]*(?: [\p{L}\-]+){0,2}?)(?: (?:quiz|test|exam|assessment|worksheet))?\.?$`)

// notGauges are words of a name that make it no gauge's: a pronoun ("It is 30C") or a
// verb of a happening ("Backup finished at 95%").
var notGauges = setOf(`it this that i we you he she they was were had finished completed took ran failed`)

// readingClaim is the claim of the reading text (said by speaker, as the rewrite writes
// it: "Dana: The living room temperature is now 22.0C") states, if it is one: of the
// gauge, in its unit.
func readingClaim(text, speaker string) (stateClaim, bool) {
	text = withoutLabel(strings.TrimSpace(text), speaker)
	set := reSetBy.FindStringSubmatch(text)
	if set != nil {
		text = set[1] + " set to " + set[2]
	}
	if m := reScore.FindStringSubmatch(text); m != nil && !notGauges[strings.ToLower(m[1])] {
		if who := cmp.Or(strings.TrimPrefix(m[1], "the "), speaker); who != "" {
			return stateClaim{subject: who + "'s " + m[4], slot: "reading in " + m[3], value: m[2] + m[3], speaker: speaker, cued: true}, true
		}
	}
	m := reReading.FindStringSubmatch(text)
	if m == nil {
		return stateClaim{}, false
	}
	name := strings.Fields(m[1])
	if m[2] == "" && len(name) < 2 && !gaugeWords[strings.ToLower(m[1])] {
		return stateClaim{}, false // "lol 100%", "Agreed 100%": a word alone reads no gauge, but a gauge's measure ("Battery 80%")
	}
	for _, w := range name {
		if notGauges[strings.ToLower(w)] {
			return stateClaim{}, false
		}
	}
	if strings.EqualFold(name[0], "the") {
		name = name[1:]
	}
	if len(name) == 0 {
		return stateClaim{}, false
	}
	subject := strings.Join(name, " ")
	if len(name) == 1 && speaker != "" && set == nil && !strings.EqualFold(subject, speaker) {
		subject = speaker + "'s " + strings.ToLower(subject) // "Battery at 80%": the reporting device's battery, not another's; "Thermostat set to 21 degrees" by the thermostat: its own; a person's "I set the thermostat to…" the thermostat's
	}
	value := m[3] + m[4]
	if m[4] == "degrees" {
		value = m[3] + " degrees"
	}
	return stateClaim{subject: subject, slot: "reading in " + m[4], value: value, speaker: speaker, cued: true}, true
}

// isReading: the claim is a gauge's reading or a person's score (readingClaim).
func (c stateClaim) isReading() bool { return strings.HasPrefix(c.slot, "reading in ") }

// reTakenAt: when a reading was taken, said after it ("at 10:05", "on Monday"): no word
// of the gauge's name nor of its measure.
var reTakenAt = regexp.MustCompile(`(?i)\s+(?:at \d{1,2}[:.]\d\d(?: ?[ap]\.?m\.?)?|on (?:` + weekdayNames + `))\b`)

// isReading: s is a gauge's reading, when it was taken aside ("Disk at 81% on Monday",
// "Disk /dev/sda1 at 81% at 10:05 on Tuesday"): a measure already taken, a past, whatever
// a plan's "on Monday" would say ("Dinner with Sam on Friday" is the coming one).
func isReading(s string) bool {
	_, ok := readingClaim(reTakenAt.ReplaceAllString(strings.TrimSpace(s), ""), "")
	return ok
}

// withoutLabel is text without the speaker's label the rewrite writes before it: the
// speaker, or a name a description cuts at its first point ("Ms. Rivera: …" of "Ms").
func withoutLabel(text, speaker string) string {
	if label, rest, ok := strings.Cut(text, ": "); ok && speaker != "" && (label == speaker || strings.HasPrefix(label, speaker+".")) {
		return rest
	}
	return text
}
