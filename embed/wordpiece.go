package embed

import (
	"encoding/json"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// wordPiece is the BertTokenizer of all-MiniLM-L6-v2 (uncased BERT vocabulary), written
// to give the same ids as HuggingFace tokenizers with the model's tokenizer.json:
// BertNormalizer (clean text, pad CJK characters, strip accents, lowercase),
// BertPreTokenizer (split on whitespace and punctuation), greedy longest-match WordPiece
// with "##" continuations, [CLS] … [SEP], right truncation. The golden test checks it
// against the HF tokenizer.
type wordPiece struct {
	vocab         map[string]int64
	cls, sep, unk int64
	maxTokens     int // including [CLS] and [SEP]
}

// maxWordChars is WordPiece's max_input_chars_per_word: longer words become one [UNK].
const maxWordChars = 100

// loadWordPiece reads the vocabulary from a HuggingFace tokenizer.json.
func loadWordPiece(path string, maxTokens int) (*wordPiece, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct {
		Model struct {
			Type  string           `json:"type"`
			Vocab map[string]int64 `json:"vocab"`
		} `json:"model"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, errorf("%s: %v", path, err)
	}
	if file.Model.Type != "WordPiece" {
		return nil, errorf("%s: model type %q, want WordPiece", path, file.Model.Type)
	}
	t := &wordPiece{vocab: file.Model.Vocab, maxTokens: maxTokens}
	for tok, id := range map[string]*int64{"[CLS]": &t.cls, "[SEP]": &t.sep, "[UNK]": &t.unk} {
		v, ok := t.vocab[tok]
		if !ok {
			return nil, errorf("%s: no %s in the vocabulary", path, tok)
		}
		*id = v
	}
	return t, nil
}

// encode returns the input ids of text: [CLS], word pieces (truncated), [SEP].
func (t *wordPiece) encode(text string) []int64 {
	ids := []int64{t.cls}
	for _, word := range bertWords(bertNormalize(text)) {
		ids = t.appendWord(ids, word)
		if len(ids) >= t.maxTokens-1 {
			ids = ids[:t.maxTokens-1]
			break
		}
	}
	return append(ids, t.sep)
}

// appendWord appends word's pieces, or one [UNK] when some part of it is not in the vocabulary.
func (t *wordPiece) appendWord(ids []int64, word string) []int64 {
	if utf8.RuneCountInString(word) > maxWordChars {
		return append(ids, t.unk)
	}
	n := len(ids)
	for start := 0; start < len(word); {
		end, id := len(word), int64(-1)
		for end > start {
			piece := word[start:end]
			if start > 0 {
				piece = "##" + piece
			}
			if v, ok := t.vocab[piece]; ok {
				id = v
				break
			}
			_, size := utf8.DecodeLastRuneInString(word[start:end])
			end -= size
		}
		if id < 0 {
			return append(ids[:n], t.unk)
		}
		ids = append(ids, id)
		start = end
	}
	return ids
}

// bertNormalize is HF's BertNormalizer with clean_text, handle_chinese_chars,
// strip_accents and lowercase all on, in HF's order.
func bertNormalize(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch {
		case r == 0 || r == utf8.RuneError || isOther(r) && r != '\t' && r != '\n' && r != '\r':
			// Dropped: control and format characters (zero-width joiners, soft hyphens …).
		case unicode.Is(unicode.White_Space, r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	// Accents are stripped by decomposing (NFD) and dropping the nonspacing marks.
	decomposed := norm.NFD.String(b.String())
	b.Reset()
	for _, r := range decomposed {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// bertWords splits on whitespace and makes every punctuation character a word of its own.
func bertWords(text string) []string {
	var words []string
	start := -1
	for i, r := range text {
		switch {
		case unicode.Is(unicode.White_Space, r):
			if start >= 0 {
				words = append(words, text[start:i])
			}
			start = -1
		case isBertPunct(r):
			if start >= 0 {
				words = append(words, text[start:i])
			}
			words = append(words, text[i:i+utf8.RuneLen(r)])
			start = -1
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, text[start:])
	}
	return words
}

// isBertPunct: all ASCII non-alphanumeric printable characters (so $, +, ^ … count, as in
// BERT) and every Unicode punctuation character.
func isBertPunct(r rune) bool {
	if r >= 33 && r <= 47 || r >= 58 && r <= 64 || r >= 91 && r <= 96 || r >= 123 && r <= 126 {
		return true
	}
	return unicode.IsPunct(r)
}

// isOther is Rust's char::is_other as HF uses it: control, format, private use, unassigned.
func isOther(r rune) bool {
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co) {
		return true
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

// isCJK are the CJK Unified Ideograph blocks HF pads with spaces (not kana or hangul).
func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF ||
		r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F ||
		r >= 0x2B920 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF ||
		r >= 0x2F800 && r <= 0x2FA1F
}
