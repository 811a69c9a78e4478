package cypher

import (
	"context"
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/about_observations.cypher
	aboutObservationsCypher string
	qAboutObservations      = newQuery("about_observations", aboutObservationsCypher)

	//go:embed queries/about_memories.cypher
	aboutMemoriesCypher string
	qAboutMemories      = newQuery("about_memories", aboutMemoriesCypher)

	//go:embed queries/about_memories_named.cypher
	aboutMemoriesNamedCypher string
	qAboutMemoriesNamed      = newQuery("about_memories_named", aboutMemoriesNamedCypher)

	//go:embed queries/about_episodes_named.cypher
	aboutEpisodesNamedCypher string
	qAboutEpisodesNamed      = newQuery("about_episodes_named", aboutEpisodesNamedCypher)

	//go:embed queries/about_traces.cypher
	aboutTracesCypher string
	qAboutTraces      = newQuery("about_traces", aboutTracesCypher)

	//go:embed queries/about_trace_links.cypher
	aboutTraceLinksCypher string
	qAboutTraceLinks      = newQuery("about_trace_links", aboutTraceLinksCypher)

	//go:embed queries/about_traces_delete.cypher
	aboutTracesDeleteCypher string
	qAboutTracesDelete      = newQuery("about_traces_delete", aboutTracesDeleteCypher)
)

// About is what a space holds about someone (POST …/forget): the ids of the messages
// naming them, in the order they were said, of the memories that forgetting those
// messages deletes and of those whose own words name them (MemoriesNaming), in id order,
// of the episodes that stay whose own words name them (EpisodesNaming), in id order, and
// of the traces whose query names them, oldest first.
type About struct {
	Observations []string `json:"observations"`
	Memories     []string `json:"memories"`
	Episodes     []string `json:"episodes"`
	Traces       []string `json:"traces"`
}

// About finds what the space holds about the person phrases name (aboutPatterns and
// sessionPatterns say how a phrase is found), changing nothing. Errors: ENotFound (no such space),
// EConflict (an import holds the space), EUnavailable.
func (s *Store) About(ctx context.Context, space string, phrases []string) (About, error) {
	if err := s.SpaceFound(ctx, space); err != nil {
		return About{}, err
	}
	patterns := aboutPatterns(phrases)
	obs, err := s.ids(ctx, qAboutObservations, map[string]any{"space": space, "patterns": patterns, "sessions": sessionPatterns(phrases)})
	if err != nil {
		return About{}, err
	}
	mems, err := s.MemoriesDeletedWith(ctx, space, obs)
	if err != nil {
		return About{}, err
	}
	named, err := s.MemoriesNaming(ctx, space, phrases)
	if err != nil {
		return About{}, err
	}
	mems = append(mems, named...)
	slices.Sort(mems)
	mems = slices.Compact(mems)
	episodes, err := s.EpisodesNaming(ctx, space, phrases)
	if err != nil {
		return About{}, err
	}
	episodes = slices.DeleteFunc(episodes, func(id string) bool { return slices.Contains(mems, id) })
	traces, err := s.ids(ctx, qAboutTraces, map[string]any{"space": space, "patterns": patterns})
	if err != nil {
		return About{}, err
	}
	return About{Observations: obs, Memories: mems, Episodes: episodes, Traces: traces}, nil
}

// MemoriesDeletedWith are the ids, in id order, of the memories that forgetting the
// observations ids of the space together deletes: DeleteObservation's rule, read for them
// all at once, changing nothing (the dry runs of POST …/forget and DELETE
// …/observations). Errors: EUnavailable.
func (s *Store) MemoriesDeletedWith(ctx context.Context, space string, ids []string) ([]string, error) {
	return s.ids(ctx, qAboutMemories, map[string]any{"space": space, "ids": ids})
}

// MemoriesNaming are the ids, in id order, of the events and facts of the space whose own
// name or content names the person phrases name (aboutPatterns), whatever their messages
// say: a client's correction, an imported memory. Errors: EUnavailable.
func (s *Store) MemoriesNaming(ctx context.Context, space string, phrases []string) ([]string, error) {
	return s.ids(ctx, qAboutMemoriesNamed, map[string]any{"space": space, "patterns": aboutPatterns(phrases)})
}

// EpisodesNaming are the ids, in id order, of the episodes of the space whose own name,
// content, description, participants or keywords name the person phrases name
// (aboutPatterns), whatever their messages say: a session's first speaker taken to
// answer someone of an earlier session, an imported episode. Errors: EUnavailable.
func (s *Store) EpisodesNaming(ctx context.Context, space string, phrases []string) ([]string, error) {
	return s.ids(ctx, qAboutEpisodesNamed, map[string]any{"space": space, "patterns": aboutPatterns(phrases)})
}

// ForgetTraces deletes the traces ids of the space and erases their query's text from
// everywhere else the space kept it, as the retention's sweep does for an expired trace
// (ExpireTraces): first from the learned links their reconsolidations added (each keeps
// instead the query's vector as embed gives it, and acts as before), then, with the
// traces, from their logged edits, which stay revertible. A failure to erase the links'
// text deletes no trace. It returns how many traces went.
// Errors: EConflict (an import holds the space: writeSpace), EUnavailable, and embed's.
func (s *Store) ForgetTraces(ctx context.Context, space string, ids []string, embed QueryVectors) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	recs, err := s.read(ctx, qAboutTraceLinks, map[string]any{"space": space, "ids": ids})
	if err != nil {
		return 0, err
	}
	if len(recs) > 0 {
		links := make([]map[string]any, 0, len(recs))
		for _, r := range recs {
			links = append(links, linkToErase(r))
		}
		if err := s.eraseLinkQueries(ctx, space, links, embed); err != nil {
			return 0, err
		}
	}
	recs, err = s.writeSpace(ctx, space, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(ctx, tx, qAboutTracesDelete, map[string]any{"space": space, "ids": ids})
	})
	if err != nil {
		return 0, err
	}
	return num(recs[0], "deleted"), nil
}

// SpaceFound is ENotFound when the space does not exist, EConflict while an import holds
// it (CheckNotImporting), read in that order: a space that was not there, or was not held
// when a search of it began (About, a bulk forget), is searched as it was then (an import
// claims only an empty space), and what an import claiming it since wrote is refused to
// the writes (writeSpace).
// Errors: EUnavailable.
func (s *Store) SpaceFound(ctx context.Context, space string) error {
	exists, err := s.SpaceExists(ctx, space)
	if err == nil && !exists {
		err = realm.Errorf(realm.ENotFound, "space %q does not exist", space)
	}
	if err == nil {
		err = s.CheckNotImporting(ctx, space)
	}
	return err
}

// ids runs q and returns its id column, in its order, never nil.
func (s *Store) ids(ctx context.Context, q query, params map[string]any) ([]string, error) {
	recs, err := s.read(ctx, q, params)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, str(r, "id"))
	}
	return out, nil
}

// aboutPatterns are the regular expressions (Neo4j's =~, Java's syntax) that a text
// naming one of phrases matches, both in Unicode's composed form (NFC: a "ü" written as
// "u" and a combining diaeresis is the letter "ü"; the queries compose the text): the
// phrase's words, in any case, with any white space between them (a no-break space
// too), as whole words (no letter or digit right before or after, as an entity's name is
// found in observation_derived.cypher), an email address as a whole token (nor the
// characters of an address: "becker@acme.com" is not found in "tom.becker@acme.com", nor
// "tom.becker@acme.co" in "tom.becker@acme.com"), a number (isNumber) however its groups
// are written ("DE89 3704 0044 0532 0130 00" in "DE89370400440532013000",
// "4111-1111-1111-1111"), never inside a longer one, a phone number in any of its
// spellings (phoneRe: "+34600111222" in "0034 600-111-222" and "600111222").
func aboutPatterns(phrases []string) []string {
	out := make([]string, 0, len(phrases))
	for _, p := range phrases {
		before, after := wordBefore, wordAfter
		switch {
		case strings.Contains(p, "@"):
			before, after = `(?<![\p{L}\p{N}._%+@-])`, `(?![\p{L}\p{N}_%+@-]|\.[\p{L}\p{N}])`
		case isNumber(p):
			// Nor right after a +: a national number is not the tail of another
			// international one ("600111222" of "+600111222", a Malaysian number).
			before = `(?<![\p{L}\p{N}+])`
		}
		out = append(out, `(?isu).*`+before+phraseRe(p)+after+`.*`)
	}
	return out
}

// sessionPatterns are the regular expressions that a session id naming one of phrases
// matches: the phrase as whole words, an email address too ("tom.becker@acme.com" in
// "ticket-tom.becker@acme.com"), composed as aboutPatterns composes them.
func sessionPatterns(phrases []string) []string {
	out := make([]string, 0, len(phrases))
	for _, p := range phrases {
		out = append(out, `(?isu).*`+wordBefore+phraseRe(p)+wordAfter+`.*`)
	}
	return out
}

// No letter or digit right before or after a word.
const wordBefore, wordAfter = `(?<![\p{L}\p{N}])`, `(?![\p{L}\p{N}])`

// phraseRe is the regular expression of phrase's words, in NFC, any white space between
// them, or of a number's characters, any of its separators between them.
func phraseRe(phrase string) string {
	phrase = norm.NFC.String(phrase)
	if country, national, ok := phoneNumber(phrase); ok {
		return phoneRe(country, national)
	}
	words, between := strings.Fields(phrase), `[\s\p{Z}]+`
	if isNumber(phrase) {
		// A card, an account or an ID is written in groups of any size and any
		// separator, or none: each of its characters, any of those between.
		words, between = strings.Split(numberRe.ReplaceAllString(phrase, ""), ""), numberSep
	}
	return quoted(words, between)
}

// quoted is the regular expression of words, each taken literally, between between them.
func quoted(words []string, between string) string {
	for i, w := range words {
		words[i] = `\Q` + strings.ReplaceAll(w, `\E`, `\E\\E\Q`) + `\E`
	}
	return strings.Join(words, between)
}

// numberSeparator is what separates the groups of a number as people write it: white
// space (a no-break space too), points, hyphens, slashes, parentheses ("(020) 7946
// 0958"); numberRe is a run of them, numberSep any of them or none.
const numberSeparator = `[\s\p{Z}.\-/()]`

var numberRe = regexp.MustCompile(numberSeparator + `+`)

const numberSep = numberSeparator + `*`

// isNumber: phrase is a number (a card's, an IBAN, a phone's, an ID): at least six
// letters and digits once its separators are gone, half of them digits or more.
func isNumber(phrase string) bool {
	chars := []rune(numberRe.ReplaceAllString(phrase, ""))
	digits := 0
	for _, r := range chars {
		switch {
		case unicode.IsDigit(r):
			digits++
		case !unicode.IsLetter(r) && r != '+':
			return false
		}
	}
	return len(chars) >= 6 && 2*digits >= len(chars)
}

// phoneRe is the regular expression of a phone number (phoneNumber) in any of its
// spellings: its national number's digits, any separators between them, after its
// country code ("+44 20 7946 0958", "0044 20 7946 0958", "+44 (0)20 7946 0958": the
// phrase's, any for a phrase in national form, which says none), or on their own (no
// digit nor + before them, even across a few separators: not after another country's
// code, nor the end of a longer number), after the trunk prefix ("020 7946 0958") or not
// ("20 7946 0958").
func phoneRe(country, national string) string {
	code := `\d{1,3}`
	if country != "" {
		code = quoted([]string{country}, "")
	}
	return `(?:(?:\+|00)` + numberSep + code + numberSep + `|(?<![\p{N}+]` + numberSeparator + `{0,3}))` +
		`(?:0` + numberSep + `)?` + quoted(strings.Split(national, ""), numberSep)
}

// phoneChars is a phrase written as a phone number is: digits and separators, a + first.
var phoneChars = regexp.MustCompile(`^\+?[\d\s\p{Z}.\-/()]+$`)

// phoneNumber reads phrase as a phone number: digits alone (phoneChars), its national
// number, without the trunk prefix 0 ("020 7946 0958": "2079460958"), six digits or more,
// after a country code when it is in international form ("+44" or "0044": "44").
func phoneNumber(phrase string) (country, national string, ok bool) {
	if !phoneChars.MatchString(phrase) {
		return "", "", false
	}
	digits := numberRe.ReplaceAllString(phrase, "")
	international, found := strings.CutPrefix(digits, "+")
	if !found {
		international, found = strings.CutPrefix(digits, "00")
	}
	if found {
		country = international[:countryCodeLength(international)]
		digits = international[len(country):]
	}
	national = strings.TrimPrefix(digits, "0")
	return country, national, len(national) >= 6
}

// countryCodeLength is how many of the first digits of an international number (after
// its + or 00) are its country code. The codes of ITU-T E.164 are prefix-free, so the
// first digits say: 1 (North America) and 7 (Russia, Kazakhstan) alone, those of
// twoDigitCountryCodes, three digits otherwise.
func countryCodeLength(digits string) int {
	switch {
	case strings.HasPrefix(digits, "1") || strings.HasPrefix(digits, "7"):
		return 1
	case len(digits) >= 2 && slices.Contains(twoDigitCountryCodes, digits[:2]):
		return 2
	}
	return min(3, len(digits))
}

// twoDigitCountryCodes are the country codes of two digits (Spain's 34, the United
// Kingdom's 44).
var twoDigitCountryCodes = strings.Fields("20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 " +
	"51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98")
