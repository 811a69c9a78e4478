package construction

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/text"
)

// correctionWeight is the supersedes edge's weight from a correction to the memory it
// corrects: a change said outright, as the offline agent weighs a cued change
// (agent/offline/update.go weightChangeCued).
const correctionWeight = 0.9

// correctedTypes are the memory types a client may correct. An entity's names and
// aliases, and an episode's summary of a session, are kept by ingestion from what was
// said; a correction of them is out of scope.
var correctedTypes = []realm.NodeType{realm.Event, realm.Fact}

// copiedTypes: a correction gets copies of its memory's edges to and from memories of
// these types — who or what it is about, the session it was said in — so that expansion
// from them still reaches the memory's current version. Its edges to other events and
// facts (causes, contradictions, correlations) were judged on the words the client just
// said are wrong: they stay with the old memory, one supersedes edge away.
var copiedTypes = []realm.NodeType{realm.Entity, realm.Episode}

// ValidateCorrection is Correct's check of its content, which needs no memory: an
// EInvalid error naming content, or nil; a caller may check a request with it before
// reading anything.
func (p *Pipeline) ValidateCorrection(content string) error {
	if msg := p.contentErr(content); msg != "" {
		return realm.FieldErrors{"content": msg}.Err()
	}
	return nil
}

// Correct corrects memory id of space by hand ("her name is Marina, not Marta"), as
// REALM.md §2 writes a state change: never an overwrite, an add plus a supersedes edge.
// The new memory says content, in the old one's type, name (correctedName), times, participants and
// provenance, embedded and indexed as ingestion would, with the first content words as
// keywords; the old one held until validFrom (zero: now) and stays as history: for
// questions about the past when validFrom says when it changed, below the new one when
// none is sent (it was wrong). The new memory was learned at validFrom (when given, it
// must not be before the old one became valid: validSince). Only events and facts are corrected (correctedTypes),
// and only a memory that holds: a superseded one is history, whose newer version is the
// one to correct. by is the name of the API key that corrects ("" without keys): the new
// memory's CorrectedBy, and its description's "corrected by"; "the client" without one.
// A memory is corrected with its siblings (siblings: the other copies of the turn that
// said the words the correction changed, correctedWords): each says them as the memory
// did and is corrected alike, or is left and named. The same correction sent again
// answers as the first did (the memory it made, its siblings corrected and left) and
// writes only what the first did not: the siblings an error stopped it before.
// Errors: EInvalid (content), ENotFound (space or memory), EConflict (the memory is an
// entity or an episode, says content already, was superseded or began after validFrom; an
// import holds the space), EUnavailable; an error after the memory's correction leaves
// the siblings not yet corrected as they are, until the correction is sent again.
func (p *Pipeline) Correct(ctx context.Context, space, id, content string, validFrom time.Time, by string) (Corrected, error) {
	if err := p.ValidateCorrection(content); err != nil {
		return Corrected{}, err
	}
	old, _, err := p.store.GetMemory(ctx, space, id)
	if err != nil {
		return Corrected{}, err
	}
	res := Corrected{AlsoCorrected: []SiblingCorrected{}, NotCorrected: []SiblingLeft{}}
	if res.ID, err = p.correct(ctx, space, old, content, validFrom, by); err != nil {
		return res, err
	}
	from, to := correctedWords(old.Content, content)
	siblings, err := p.siblings(ctx, space, old, res.ID, from)
	if err != nil {
		return res, err
	}
	// A sibling whose validity ended is history, or one this correction, sent before,
	// corrected already (its correction is stored): it is named as then, and its new
	// version is no sibling to correct.
	var holding []realm.Node
	for _, s := range siblings {
		switch {
		case s.ValidUntil == nil:
			holding = append(holding, s)
		case strings.Contains(s.Content, from):
			sid, err := p.correction(ctx, space, s.ID, strings.ReplaceAll(s.Content, from, to))
			if err != nil {
				return res, err
			}
			if sid != "" {
				res.AlsoCorrected = append(res.AlsoCorrected, SiblingCorrected{Corrected: s.ID, MemoryID: sid})
			}
		}
	}
	for _, s := range holding {
		if slices.ContainsFunc(res.AlsoCorrected, func(c SiblingCorrected) bool { return c.MemoryID == s.ID }) {
			continue
		}
		if !strings.Contains(s.Content, from) {
			res.NotCorrected = append(res.NotCorrected, SiblingLeft{ID: s.ID, Reason: fmt.Sprintf("does not say the corrected words %q", from)})
			continue
		}
		sid, err := p.correct(ctx, space, s, strings.ReplaceAll(s.Content, from, to), validFrom, by)
		switch {
		case realm.ErrorCode(err) == realm.EConflict:
			res.NotCorrected = append(res.NotCorrected, SiblingLeft{ID: s.ID, Reason: realm.ErrorMessage(err)})
		case err != nil:
			return res, err
		default:
			res.AlsoCorrected = append(res.AlsoCorrected, SiblingCorrected{Corrected: s.ID, MemoryID: sid})
		}
	}
	slices.SortFunc(res.AlsoCorrected, func(a, b SiblingCorrected) int { return strings.Compare(a.Corrected, b.Corrected) })
	return res, nil
}

// Corrected is what a correction wrote: the new memory (ID) and what became of the
// corrected memory's siblings.
type Corrected struct {
	ID            string
	AlsoCorrected []SiblingCorrected // corrected alike
	NotCorrected  []SiblingLeft      // left as they are
}

// SiblingCorrected is a sibling corrected alike: Corrected is superseded by MemoryID.
type SiblingCorrected struct {
	Corrected string `json:"corrected"`
	MemoryID  string `json:"memory_id"`
}

// SiblingLeft is a sibling left as it is, and why.
type SiblingLeft struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// siblings are the events and facts of space other than old and its correction newID
// that derive from a message old derives from that says from (the words the correction
// changed, correctedWords), in id order: the other copies of the turn that said them
// (its exchanges with the turn before and after it), the whole message of a clause, a
// clause of the whole message; not those of the other turn of an exchange. When no
// message of old says from word for word (old says them in other words), those of
// every message of old.
func (p *Pipeline) siblings(ctx context.Context, space string, old realm.Node, newID, from string) ([]realm.Node, error) {
	var ids, turn []string // of every message of old, and of those saying from
	said := false
	for _, src := range old.Sources {
		o, derived, err := p.store.GetObservation(ctx, space, src)
		if realm.ErrorCode(err) == realm.ENotFound {
			continue // forgotten meanwhile
		} else if err != nil {
			return nil, err
		}
		says := strings.Contains(o.Content, from)
		said = said || says
		for _, m := range derived {
			if slices.Contains(correctedTypes, m.Type) && m.ID != old.ID && m.ID != newID {
				ids = append(ids, m.ID)
				if says {
					turn = append(turn, m.ID)
				}
			}
		}
	}
	if said {
		ids = turn
	}
	slices.Sort(ids)
	var out []realm.Node
	for _, id := range slices.Compact(ids) {
		m, _, err := p.store.GetMemory(ctx, space, id)
		if realm.ErrorCode(err) == realm.ENotFound {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// correctedWords are the words a correction of old to content changed, as old says them
// (from) and as content does (to): what differs between them, widened on each side to
// the sentence that holds it (a quote's ends bound one too), so that a sibling saying
// the same words of the same message ('Priya said: "We go with MySQL."') says from,
// whatever else each says ('Jonas asked: "Which database?" Priya: We go with MySQL.').
func correctedWords(old, content string) (from, to string) {
	a := 0
	for a < len(old) && a < len(content) && old[a] == content[a] {
		a++
	}
	s := 0
	for s < len(old)-a && s < len(content)-a && old[len(old)-1-s] == content[len(content)-1-s] {
		s++
	}
	a, b := sentenceStart(old, a), sentenceEnd(old, len(old)-s)
	return old[a:b], content[a : len(content)-(len(old)-b)]
}

// quotes bound a sentence as its ends do.
const quotes = "\"“”«»"

// sentenceStart is where the sentence of t holding byte i begins: after a quote, or after
// the white space that follows a sentence's end or a colon; else 0.
func sentenceStart(t string, i int) int {
	for ; i > 0; i-- {
		if r, _ := utf8.DecodeLastRuneInString(t[:i]); strings.ContainsRune(quotes, r) {
			return i
		}
		if i >= 2 && t[i-1] == ' ' && strings.ContainsRune(".!?:", rune(t[i-2])) {
			return i
		}
	}
	return 0
}

// sentenceEnd is where the sentence of t holding byte i-1 ends: after its end (".", "!",
// "?" before white space, a quote or the end of t), or before a quote; else len(t).
func sentenceEnd(t string, i int) int {
	for ; i < len(t); i++ {
		if r, _ := utf8.DecodeRuneInString(t[i:]); strings.ContainsRune(quotes, r) {
			return i
		}
		if next, _ := utf8.DecodeRuneInString(t[i+1:]); strings.ContainsRune(".!?", rune(t[i])) && (i+1 == len(t) || next == ' ' || strings.ContainsRune(quotes, next)) {
			return i + 1
		}
	}
	return len(t)
}

// correct writes the correction of old to content (Correct) and returns its id.
func (p *Pipeline) correct(ctx context.Context, space string, old realm.Node, content string, validFrom time.Time, by string) (string, error) {
	id := old.ID
	// What the memory is and says is the space's state, not the request's shape: a
	// request that fits the API is refused as a conflict with it.
	switch {
	case !slices.Contains(correctedTypes, old.Type):
		return "", realm.Errorf(realm.EConflict, "memory %q is an %s: only events and facts can be corrected", id, old.Type)
	case content == old.Content:
		return "", realm.Errorf(realm.EConflict, "memory %q says this already", id)
	}
	if began := validSince(old); !validFrom.IsZero() && began != nil && validFrom.Before(*began) {
		return "", realm.Errorf(realm.EConflict, "valid_from is before %s, when memory %q became valid: a correction cannot end it before it began",
			began.UTC().Format(time.RFC3339), id)
	}
	name := correctedName(old, content)
	embs, err := p.embed(ctx, []string{embedText(name, content)})
	if err != nil {
		return "", fmt.Errorf("embed the correction: %w", err)
	}
	newID, err := p.correctionID(ctx, space, id, content)
	if err != nil {
		return "", err
	}
	corrector := "the client"
	if by != "" {
		corrector = by
	}
	now := time.Now().UTC()
	// Sent without the time it holds from, a correction says the memory was wrong, which
	// never held (realm.IsCorrection: recall ranks it below the new one for the past too);
	// with it, that the memory changed then, and held until then.
	edge := realm.CorrectionMark + "by " + corrector + ": "
	if validFrom.IsZero() {
		validFrom = now
	} else {
		edge = realm.ChangeMark + corrector + " as of " + validFrom.Format(time.RFC3339) + ": "
	}
	asOf, err := p.correctionLocal(ctx, space, old, validFrom)
	if err != nil {
		return "", err
	}
	start, end := correctedTime(old, content, asOf)
	n := realm.Node{
		ID: newID, Space: space, Type: old.Type, Name: name,
		Content: content, Description: "corrected by " + corrector + " on " + now.Format(time.RFC3339), CorrectedBy: by,
		Keywords: text.Keywords(content, p.opts.MaxKeywords), TStart: start, TEnd: end,
		Participants: old.Participants, Embedding: embs[0], CreatedAt: now, UpdatedAt: now,
		// Learned when it holds from: a correction dated back is the client's record of
		// when the change happened, and the old memory's validity ends then (bi-temporal).
		LearnedAt: &validFrom,
	}
	return p.store.CorrectMemory(ctx, space, cypher.Correction{
		Old: old, New: n, ValidUntil: validFrom, CopyEdgesOf: copiedTypes,
		Supersedes: cypher.EdgeWrite{
			Op: cypher.EdgeAdd, From: n.ID, To: id, Predicate: realm.Supersedes, Weight: correctionWeight,
			Confidence: correctionWeight, Description: edge + shortened(old.Content, 120),
		},
	})
}

// correctionID is the id of the correction of memory id of space saying content: derived
// from what it corrects and says, so that the same correction sent again is the same
// memory (another when a memory of another space holds the id, FreeMemoryIDs).
func (p *Pipeline) correctionID(ctx context.Context, space, id, content string) (string, error) {
	ids, err := p.store.FreeMemoryIDs(ctx, space, []string{cypher.DerivedID(space, "correction\x00"+id+"\x00"+content)})
	if err != nil {
		return "", err
	}
	return ids[0], nil
}

// correction is the id of the correction of memory id of space saying content when it
// is stored (the correction was sent before), else "".
func (p *Pipeline) correction(ctx context.Context, space, id, content string) (string, error) {
	cid, err := p.correctionID(ctx, space, id, content)
	if err != nil {
		return "", err
	}
	if _, _, err := p.store.GetMemory(ctx, space, cid); realm.ErrorCode(err) == realm.ENotFound {
		return "", nil
	} else if err != nil {
		return "", err
	}
	return cid, nil
}

// correctedTime is when the correction of old saying content happens: the first time its
// words name ("Dinner with Paul is on February 12 now"), read as of asOf (when it holds
// from: its "tomorrow" is the day after), else old's.
func correctedTime(old realm.Node, content string, asOf time.Time) (*time.Time, *time.Time) {
	for _, m := range text.Dates(content, asOf, text.TenseUnknown) {
		if !m.From.IsZero() {
			return &m.From, &m.To
		}
	}
	return old.TStart, old.TEnd
}

// correctionLocal is validFrom read where the days of a correction of old are: in the UTC
// offset validFrom was sent with, else in the one of the first message old derives from
// (realm.LocalTime), so that its "12 February" is the day ingestion would have dated, not
// UTC's. A message since forgotten leaves the memory's zone.
func (p *Pipeline) correctionLocal(ctx context.Context, space string, old realm.Node, validFrom time.Time) (time.Time, error) {
	if _, offset := validFrom.Zone(); offset != 0 {
		return validFrom, nil
	}
	offset := 0
	if len(old.Sources) > 0 {
		said, _, err := p.store.GetObservation(ctx, space, old.Sources[0])
		if err != nil && realm.ErrorCode(err) != realm.ENotFound {
			return time.Time{}, err
		}
		offset = said.Offset
	}
	return realm.LocalTime(validFrom, offset, p.opts.Zone), nil
}

// validSince is when n became valid, as far as the space knows: the earlier of its start
// time and when it was learned (a plan said today of next month held from today); nil
// when it has neither.
func validSince(n realm.Node) *time.Time {
	began := n.TStart
	if began == nil || n.LearnedAt != nil && n.LearnedAt.Before(*began) {
		began = n.LearnedAt
	}
	return began
}

// correctedName is the name of old's correction saying content: a name that is words of
// old's content (as the offline agent names: eight at most; the first, or those of an
// exchange's second turn, "Priya: We go with MySQL for the billing…") becomes the words of
// content from the same place (maxName characters at most, as every name), when what
// comes before them is unchanged; another name (a label: "Ana's colleague") stays.
func correctedName(old realm.Node, content string) string {
	words, said, f := strings.Fields(strings.TrimSuffix(old.Name, "…")), strings.Fields(old.Content), strings.Fields(content)
	k := -1 // where the name's words are in old's
	for i := 0; k < 0 && len(words) > 0 && i+len(words) <= len(said); i++ {
		if slices.Equal(words, said[i:i+len(words)]) {
			k = i
		}
	}
	if k < 0 || k >= len(f) || !slices.Equal(said[:k], f[:k]) {
		return old.Name
	}
	n, f := max(len(words), 8), f[k:]
	name, cut := strings.Join(f, " "), len(f) > n
	if cut {
		name = strings.Join(f[:n], " ")
	}
	if utf8.RuneCountInString(name) >= maxName {
		return shortened(name, maxName-1)
	}
	if cut {
		name += "…"
	}
	return name
}

// shortened is s cut to at most n characters, at a word if one ends near, with "…".
func shortened(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	for i := len(r) - 1; i > n*3/4; i-- {
		if r[i] == ' ' {
			r = r[:i]
			break
		}
	}
	return string(r) + "…"
}
