package cypher

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Keyword search over unspaced text: Chinese and Japanese write no spaces, and the
// index's analyzer makes a token of each Han and Hiragana character, so a long sentence
// must not become one word of as many tokens (Lucene refuses more than 1024 clauses).

// longTexts are long words within the documented limits (a recall query of 4000 bytes, a
// message of 20000): unspaced Chinese and Japanese and a hyphenated word, which the
// analyzer splits into more tokens than a query takes clauses, and words of emoji and of
// Katakana, which it does not.
var longTexts = map[string]string{
	"Chinese":  strings.Repeat("我上周和妻子王芳一起去了杭州出差顺便看望了她的父母", 100)[:3900],
	"Japanese": strings.Repeat("今日は友達と公園に行きました", 200)[:3900],
	"hyphens":  strings.Repeat("ab-", 1333),
	"emoji":    "a" + strings.Repeat("😀", 990) + "b",
	"Katakana": strings.Repeat("カタカナ", 1600),
}

// cjkSpace writes a memory holding one character of a Chinese one (with a smaller id: it
// ranks first on a tie), the Chinese one and a Japanese one, and returns the space and
// the ids of the last two.
func cjkSpace(t *testing.T, s *Store) (space, shanghai, tokyo string) {
	t.Helper()
	space = fullTextSpace(t, s)
	putTexts(t, s, space, "cjk", []string{"海边", "我住在上海，在银行工作。", "昨日、東京タワーに行きました。"})
	return space, space + "cjk1", space + "cjk2"
}

// TestLongCJKRecall: a long query of unspaced words seeds from the full-text index (no
// keyword index held: a cold store) without error, and finds the memories holding its
// characters.
func TestLongCJKRecall(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space, shanghai, tokyo := cjkSpace(t, s)
	for what, text := range longTexts {
		if _, err := s.SeedByFullText(ctx, space, SeedQuery{Keywords: []string{text}}); err != nil {
			t.Errorf("%s (%d bytes): %v", what, len(text), err)
		}
	}
	for query, want := range map[string]string{
		"上海银行": shanghai,
		strings.Repeat("王芳住在上海吗？", 160): shanghai,
		"東京に行った":                        tokyo,
	} {
		got, err := s.SeedByFullText(ctx, space, SeedQuery{Keywords: []string{query}})
		if err != nil || len(got) == 0 || got[0].Node.ID != want {
			t.Errorf("%.30q: seeds %v, %v; want %s first", query, scoredIDs(got), err, want)
		}
	}
}

// TestLongCJKNeighbours: the write path's keyword neighbours of a long unspaced text
// (memory_run_context.cypher) are read without error and rank the memory holding most of
// its characters first.
func TestLongCJKNeighbours(t *testing.T) {
	s := testStore(t, Config{})
	if err := s.ApplySchema(context.Background(), 384); err != nil {
		t.Fatal(err)
	}
	space, shanghai, _ := cjkSpace(t, s)
	texts := []string{strings.Repeat("我在上海的银行工作。", 200)}
	for _, text := range longTexts {
		texts = append(texts, text)
	}
	got := textMatchesOf(t, s, space, texts, 3)
	if len(got[0]) == 0 || got[0][0].ID != shanghai {
		t.Errorf("neighbours %v, want %s first", ids(got[0]), shanghai)
	}
}

// TestKeywordWordsUnspaced: an unspaced Chinese or Japanese word is asked as a word per
// Han or Hiragana character (a Katakana run is one token); a word of many tokens as its
// tokens; an English word stays whole.
func TestKeywordWordsUnspaced(t *testing.T) {
	for in, want := range map[string][]string{
		"我住在上海，在银行工作。":                                             {"我", "住", "在", "上", "海", "银", "行", "工", "作"},
		"昨日、東京タワーに行きました。":                                          {"昨", "日", "東", "京", "タワー", "に", "行", "き", "ま", "し", "た"},
		"iPhone的价格":                                                {"iphone", "的", "价", "格"},
		"カタカナ and 한국어":                                             {"カタカナ", "and", "한국어"},
		strings.Repeat("ab-", 20) + "c":                            {"ab", "c"},
		"Caroline's state-of-the-art e-mail, (U.S.A.) 2023-05-07!": {"caroline's", "state-of-the-art", "e-mail", "u.s.a", "2023-05-07"},
	} {
		if got := KeywordWords(in); !slices.Equal(got, want) {
			t.Errorf("KeywordWords(%q) = %q, want %q", in, got, want)
		}
	}
}
