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

// Correct corrects memory id of space by hand ("her name is Marina, not Marta"), as
// REALM.md §2 writes a state change: never an overwrite, an add plus a supersedes edge.
// The new memory says content, in the old one's type, name (correctedName), times, participants and
// provenance, embedded and indexed as ingestion would, with the first content words as
// keywords; the old one held until validFrom (zero: now) and stays for questions about
// the past. The new memory was learned at validFrom (when given, it must not be before the
// old one became valid: validSince). Only events and facts are corrected (correctedTypes),
// and only a memory that holds: a superseded one is history, whose newer version is the
// one to correct. by is the name of the API key that corrects ("" without keys): the new
// memory's CorrectedBy, and its description's "corrected by"; "the client" without one.
// The same correction sent again returns the memory it made and writes nothing.
// Errors: EInvalid (content), ENotFound (space or memory), EConflict (the memory is an
// entity or an episode, says content already, was superseded or began after validFrom; an
// import holds the space), EUnavailable.
func (p *Pipeline) Correct(ctx context.Context, space, id, content string, validFrom time.Time, by string) (string, error) {
	if msg := p.contentErr(content); msg != "" {
		return "", realm.FieldErrors{"content": msg}.Err()
	}
	old, _, err := p.store.GetMemory(ctx, space, id)
	if err != nil {
		return "", err
	}
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
	// Derived from what it corrects and says: the same correction sent again is the same
	// memory (another when a memory of another space holds the id, FreeMemoryIDs).
	newID, err := p.store.FreeMemoryIDs(ctx, space, []string{cypher.DerivedID(space, "correction\x00"+id+"\x00"+content)})
	if err != nil {
		return "", err
	}
	now := time.Now().UTC()
	if validFrom.IsZero() {
		validFrom = now
	}
	asOf, err := p.correctionLocal(ctx, space, old, validFrom)
	if err != nil {
		return "", err
	}
	start, end := correctedTime(old, content, asOf)
	corrector := "the client"
	if by != "" {
		corrector = by
	}
	n := realm.Node{
		ID: newID[0], Space: space, Type: old.Type, Name: name,
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
			Confidence: correctionWeight, Description: "corrected by " + corrector + ": " + shortened(old.Content, 120),
		},
	})
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

// correctedName is the name of old's correction saying content: a name that is the first
// words of old's content (as the offline agent names: eight at most) becomes the first
// words of content (maxName characters at most, as every name); another name (a label: "Ana's
// colleague") stays.
func correctedName(old realm.Node, content string) string {
	words, said := strings.Fields(strings.TrimSuffix(old.Name, "…")), strings.Fields(old.Content)
	if len(words) == 0 || len(words) > len(said) || !slices.Equal(words, said[:len(words)]) {
		return old.Name
	}
	n, f := max(len(words), 8), strings.Fields(content)
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
