package retrieval

import (
	"regexp"
	"strings"

	"github.com/realm-memory/realm"
)

// applySubjects: a memory keeps whose fact it is, the speaker's "my" rewritten ("user's
// brother is allergic to shellfish", "user is allergic to peanuts", "Melanie's son loves
// dinosaurs"), which similarity barely tells apart: both allergies are as close to "What
// am I allergic to?". A question about the asker (I, me, my but for "my mother") asks of
// the asker's facts, not their family's; one about a relative ("What is my mother allergic
// to?", "What does Melanie's son like?") of that relative's, not the asker's or another
// relative's. When a gathered event or fact is of the subject asked about, every one of
// another (as its opening tells: asksOf, subjectOf) is lowered by SubjectMiss; the
// memories whose opening tells no subject keep their score.
func (r *Retriever) applySubjects(run *run) {
	if r.opts.SubjectMiss <= 0 {
		return
	}
	asked, ok := asksOf(run.trace.Query)
	if !ok {
		return
	}
	var of, other []*candidate
	for _, c := range run.cands {
		if c.Node.Type != realm.Event && c.Node.Type != realm.Fact {
			continue
		}
		if s, ok := subjectOf(c.Node.Content); ok {
			if asked.fits(s) {
				of = append(of, c)
			} else {
				other = append(other, c)
			}
		}
	}
	if len(of) == 0 {
		return
	}
	for _, c := range other {
		c.Score *= 1 - r.opts.SubjectMiss
	}
}

// subject is whose fact a memory tells or a question asks about: a person (owner alone),
// or a relative of one (owner's relation; the owner of a question's "my" is "").
type subject struct {
	owner, relation string
}

// fits: a memory of subject s tells of the subject asked about. A question about the
// asker fits any person: the asker's name is not in the question. One about a relative
// fits a relative of the same kind ("mom" a mother, "kids" a son) of the owner it names.
func (asked subject) fits(s subject) bool {
	if asked.relation == "" || s.relation == "" {
		return asked.relation == s.relation
	}
	return (asked.owner == "" || strings.EqualFold(asked.owner, s.owner)) && sameRelatives(asked.relation, s.relation)
}

var (
	// reAsksOfRelative: "my mother", "Melanie's son".
	reAsksOfRelative = regexp.MustCompile(`(?i)\b(my|\p{L}[\p{L}\-]*['’]s) (\p{L}+)\b`)
	// reAsksOfAsker: the first person of a question.
	reAsksOfAsker = regexp.MustCompile(`(?i)\b(?:i|me|my|mine|myself|i['’](?:m|ve|d|ll))\b`)
	// reQuotedPrompt: an exchange's memory opens with what the other speaker said, quoted.
	reQuotedPrompt = regexp.MustCompile(`^[^"\n]{1,80}? (?:asked|said): "`)
	// reRelativeSubject: a memory of a relative ("user's brother is …", "Ana's mother …").
	reRelativeSubject = regexp.MustCompile(`^(\p{L}[\p{L}\-]*(?: \p{Lu}[\p{L}\-]*)?)'s (\p{L}+) `)
	// rePersonSubject: a memory of a person, named or the chat role, before its verb
	// ("user is allergic to peanuts", "Melanie took the kids camping").
	rePersonSubject = regexp.MustCompile(`^(user|\p{Lu}[\p{L}\-]*(?: \p{Lu}[\p{L}\-]*)?) \p{Ll}`)
)

// asksOf returns whom a question asks about: a relative it names ("my mother", "Melanie's
// son"), else the asker when it speaks in the first person; false for any other question.
func asksOf(query string) (subject, bool) {
	for _, m := range reAsksOfRelative.FindAllStringSubmatch(query, -1) {
		if rel := strings.ToLower(m[2]); relatives[rel] != "" {
			owner := strings.TrimSuffix(strings.TrimSuffix(m[1], "'s"), "’s")
			if strings.EqualFold(owner, "my") {
				owner = ""
			}
			return subject{owner: owner, relation: rel}, true
		}
	}
	return subject{}, reAsksOfAsker.MatchString(query)
}

// subjectOf returns whose fact content tells, from its opening (or its quoted prompt's).
func subjectOf(content string) (subject, bool) {
	if loc := reQuotedPrompt.FindStringIndex(content); loc != nil {
		content = content[loc[1]:]
	}
	if m := reRelativeSubject.FindStringSubmatch(content); m != nil && relatives[strings.ToLower(m[2])] != "" {
		return subject{owner: m[1], relation: strings.ToLower(m[2])}, true
	}
	if m := rePersonSubject.FindStringSubmatch(content); m != nil {
		return subject{owner: m[1]}, true
	}
	return subject{}, false
}

// relatives maps each word for a relative to its kind; a word for several of them
// ("kids", "parents", "family") to a kind of its own, which sameRelatives relates to them.
var relatives = map[string]string{
	"mother": "mother", "mom": "mother", "mum": "mother", "mama": "mother", "mommy": "mother",
	"father": "father", "dad": "father", "daddy": "father", "papa": "father",
	"son": "son", "sons": "son", "daughter": "daughter", "daughters": "daughter",
	"kid": "child", "kids": "child", "child": "child", "children": "child",
	"brother": "brother", "brothers": "brother", "sister": "sister", "sisters": "sister", "siblings": "sibling",
	"parents": "parent", "wife": "wife", "husband": "husband", "partner": "partner",
	"boyfriend": "boyfriend", "girlfriend": "girlfriend", "fiance": "fiance", "fiancé": "fiance", "fiancee": "fiance", "fiancée": "fiance",
	"grandmother": "grandmother", "grandma": "grandmother", "granny": "grandmother",
	"grandfather": "grandfather", "grandpa": "grandfather", "grandparents": "grandparent",
	"aunt": "aunt", "uncle": "uncle", "cousin": "cousin", "niece": "niece", "nephew": "nephew",
	"family": "family",
}

// groups are the kinds of relatives a word for several of them includes.
var groups = map[string][]string{
	"child":       {"son", "daughter"},
	"sibling":     {"brother", "sister"},
	"parent":      {"mother", "father"},
	"grandparent": {"grandmother", "grandfather"},
}

// sameRelatives: words a and b may name the same relatives: of one kind, one of a group
// the other names, or either the family.
func sameRelatives(a, b string) bool {
	ka, kb := relatives[a], relatives[b]
	if ka == kb || ka == "family" || kb == "family" {
		return true
	}
	for _, k := range groups[ka] {
		if k == kb {
			return true
		}
	}
	for _, k := range groups[kb] {
		if k == ka {
			return true
		}
	}
	return false
}
