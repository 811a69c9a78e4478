package cypher

import "strings"

// WordCount is a memory's length for the full-text seed's scores (seed_fulltext.cypher's
// dl): the words of its name, its content and each of its keywords, split at spaces and
// counted when not empty, as Cypher's split(text, ' ') of their concatenation counts
// them. Every statement that writes a memory's text stores it as word_count
// (integration_write.cypher computes it in Cypher; migration 0019 filled the older memories).
func WordCount(name, content string, keywords []string) int64 {
	n := words(name) + words(content)
	for _, k := range keywords {
		n += words(k)
	}
	return n
}

func words(s string) int64 {
	var n int64
	for _, w := range strings.Split(s, " ") {
		if w != "" {
			n++
		}
	}
	return n
}
