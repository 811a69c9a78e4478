package offline

import (
	"regexp"
	"strings"
)

// reParagraphBreak: a blank line ends a paragraph.
var reParagraphBreak = regexp.MustCompile(`\n[ \t]*\n\s*`)

// partsOf splits a text longer than max characters into parts of at most max that the
// embedder reads whole (it cuts a text after 256 word pieces, about 1,000 characters of
// English): whole paragraphs in order, as many to a part as fit; a paragraph longer than
// max by groups of whole sentences, and a sentence longer than max by groups of its
// clauses or, failing them, its words (cutLong). A fenced code block is one paragraph,
// blank lines in it included, and one sentence; a block longer than max is a part of its
// own, never cut, as is a word longer than max. A text of max characters or fewer is one
// part, itself. Lengths are
// counted in bytes: a letter beyond ASCII takes more of them, as it takes more word pieces.
// The parts of a text longer than max leave room bytes of max, half of it at most, for
// the head a part is read with (headRoom).
func partsOf(text string, max, room int) []segment {
	if len(text) <= max {
		return []segment{{0, len(text)}}
	}
	max -= min(room, max/2) // the head takes half of a part at most: a sentence is cut to fit the rest
	fences := reFence.FindAllStringIndex(text, -1)
	var units []segment
	for _, p := range paragraphs(text, fences) {
		if p.end-p.start <= max {
			units = append(units, p)
			continue
		}
		for _, s := range sentences(text[p.start:p.end]) {
			s = segment{p.start + s.start, p.start + s.end}
			if holdsFence(fences, s) {
				units = append(units, s)
				continue
			}
			units = append(units, cutLong(text, s, max)...)
		}
	}
	units = joinFenced(units, fences)
	var parts []segment
	for _, u := range units {
		if n := len(parts); n > 0 && u.end-parts[n-1].start <= max {
			parts[n-1].end = u.end
			continue
		}
		parts = append(parts, u)
	}
	return parts
}

// paragraphs are the spans of text between blank lines that are not inside a fence.
func paragraphs(text string, fences [][]int) []segment {
	var out []segment
	start := 0
	add := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			lead := start + strings.Index(text[start:end], s)
			out = append(out, segment{lead, lead + len(s)})
		}
	}
	for _, ix := range reParagraphBreak.FindAllStringIndex(text, -1) {
		if inFence(fences, ix[0]) {
			continue
		}
		add(ix[0])
		start = ix[1]
	}
	add(len(text))
	return out
}

// joinFenced makes one unit of the units that overlap one fence: a sentence is never
// ended inside a code block.
func joinFenced(units []segment, fences [][]int) []segment {
	var out []segment
	for _, u := range units {
		if n := len(out); n > 0 && overlapsFence(fences, out[n-1], u) {
			out[n-1].end = u.end
			continue
		}
		out = append(out, u)
	}
	return out
}

// overlapsFence: one fence holds both the end of a and the start of b.
func overlapsFence(fences [][]int, a, b segment) bool {
	for _, f := range fences {
		if a.end > f[0] && a.end <= f[1] && b.start >= f[0] && b.start < f[1] {
			return true
		}
	}
	return false
}

// holdsFence: s and a fence overlap.
func holdsFence(fences [][]int, s segment) bool {
	for _, f := range fences {
		if f[0] < s.end && f[1] > s.start {
			return true
		}
	}
	return false
}

// reGap is the space between two words.
var reGap = regexp.MustCompile(`\s+`)

// cutLong splits the span s of text, when longer than max, at the spaces after which a
// clause starts, those after a semicolon or before a dash ("… 2019; Smith …", "… – and
// …"), then, for a piece still too long, at those after a comma or a colon, then at any
// space: a paragraph without a sentence's end (a reference list, a transcript without
// punctuation) in pieces the embedder reads whole, which partsOf joins again up to max.
// The spaces cut at are left out of the pieces.
func cutLong(text string, s segment, max int) []segment {
	if s.end-s.start <= max {
		return []segment{s}
	}
	for level := range 3 {
		var pieces []segment
		start := s.start
		for _, ix := range reGap.FindAllStringIndex(text[s.start:s.end], -1) {
			if ix[0] > 0 && ix[1] < s.end-s.start && gapLevel(text, s.start+ix[0], s.start+ix[1]) <= level {
				pieces = append(pieces, segment{start, s.start + ix[0]})
				start = s.start + ix[1]
			}
		}
		if len(pieces) > 0 {
			var out []segment
			for _, p := range append(pieces, segment{start, s.end}) {
				out = append(out, cutLong(text, p, max)...)
			}
			return out
		}
	}
	return []segment{s}
}

// gapLevel is how far the space text[start:end] is from ending a clause: 0 after a
// semicolon or before a dash, 1 after a comma or a colon, 2 between any two words.
func gapLevel(text string, start, end int) int {
	before, after := text[start-1], text[end:]
	switch {
	case before == ';' || strings.HasPrefix(after, "- ") || strings.HasPrefix(after, "– ") || strings.HasPrefix(after, "— "):
		return 0
	case before == ',' || before == ':':
		return 1
	}
	return 2
}

func inFence(fences [][]int, pos int) bool {
	for _, f := range fences {
		if pos > f[0] && pos < f[1] {
			return true
		}
	}
	return false
}

// titleLength is how many of its first words name a long text.
const titleLength = 16

// maxTableHead is the longest header row (with its rule) a part of a table is read with.
const maxTableHead = 200

// reTableRule is the line under a table's header row: "|---|:--:|".
var reTableRule = regexp.MustCompile(`(?m)^[ \t]*\|?([ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$`)

// titleOf names a long text by its first line, cut to titleLength words: the title, the
// citation or the opening that says which document, table or transcript the text is.
// A part after the first, which names none of these, is named by it (Name), which is
// embedded and indexed with it: "What were the results of Smith et al. 2021?" finds the
// results part of the pasted paper.
func titleOf(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return shortName(strings.TrimSpace(line), titleLength)
}

// tableHeader is the header row and rule of the table that the row at pos continues,
// when they are before pos and no longer than maxTableHead; "" otherwise. A part of a
// table after the first is read with it: bare rows name no column.
func tableHeader(text string, pos int) string {
	if !strings.HasPrefix(text[pos:], "|") {
		return ""
	}
	lines := strings.Split(strings.TrimRight(text[:pos], " \t\n"), "\n")
	first := len(lines)
	for first > 0 && strings.HasPrefix(strings.TrimSpace(lines[first-1]), "|") {
		first--
	}
	if len(lines)-first < 2 || !reTableRule.MatchString(lines[first+1]) {
		return ""
	}
	head := strings.TrimSpace(lines[first]) + "\n" + strings.TrimSpace(lines[first+1])
	if len(head) > maxTableHead {
		return ""
	}
	return head
}

// headRoom is what the head of a part after the first may take of the embedder's
// reading: the title, which the embedded text opens with ("title: content"), and a
// table's header row.
func headRoom(text string) int {
	room := len(titleOf(text)) + len(": ")
	if reTableRule.MatchString(text) {
		room += maxTableHead + 1
	}
	return room
}
