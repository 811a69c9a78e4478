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
// max by groups of whole sentences. A fenced code block is one paragraph, blank lines in
// it included, and one sentence; a sentence or a block longer than max is a part of its
// own, never cut. A text of max characters or fewer is one part, itself. Lengths are
// counted in bytes: a letter beyond ASCII takes more of them, as it takes more word pieces.
func partsOf(text string, max int) []segment {
	if len(text) <= max {
		return []segment{{0, len(text)}}
	}
	fences := reFence.FindAllStringIndex(text, -1)
	var units []segment
	for _, p := range paragraphs(text, fences) {
		if p.end-p.start <= max {
			units = append(units, p)
			continue
		}
		for _, s := range sentences(text[p.start:p.end]) {
			units = append(units, segment{p.start + s.start, p.start + s.end})
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

func inFence(fences [][]int, pos int) bool {
	for _, f := range fences {
		if pos > f[0] && pos < f[1] {
			return true
		}
	}
	return false
}
