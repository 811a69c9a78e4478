package retrieval

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/text"
)

// Validity on the read path (REALM.md §2 "Ours", §3.3 "Ours" 1): a superseded node — its
// validity ended before the question's time — is demoted, its score multiplied by
// SupersededFactor, when the question asks about the present; when it asks about the past,
// or about something else the node names (the dog Biscuit of "I live in Lisbon with our
// dog Biscuit", after a move), the node keeps its score, unless a correction superseded it
// (realm.IsCorrection: a sample size mistyped never held, in the past either) and the
// question is about what was corrected, not something else the node names (asideOfChange:
// "Where did we meet Anna?" of "We met Anna in Porto; the sample size was 214"), or it was a
// plan that came to pass (cameToPass). Its newer version (a supersedes edge into it) is
// offered beside it: in its place at its score for the present (demoted in
// turn when it too has ended, and its own newer version offered from the score it reached,
// up to the version that holds: laterVersions), just below it (SuccessorShare of its score)
// for the past; not for a question about something else, which the newer version does not
// answer. A question
// that names the slot that changed ("Which flights are we taking to Rome?" after new
// flights) asks about the change, whatever else the old node names (namesSlot). An exchange
// that quotes a demoted node with the reply to it, and still holds, is demoted with it and
// the newer version offered in its place (quotes). A newer version that begins to hold
// only after the question's time (a change effective later) ranks below the older one,
// which holds then (applyComing); validity is judged at a time to come the question names
// (validAt). The trace records each decision.

// validityFactor is the multiplicative validity factor of node n for a question asked at
// asOf: 1 while n holds (no valid_until, or one after asOf) or when the question is about
// the past, demote otherwise. A scorer multiplies a node's relevance by it.
func validityFactor(n realm.Node, asOf time.Time, past bool, demote float64) float64 {
	if n.ValidUntil == nil || past || asOf.Before(*n.ValidUntil) {
		return 1
	}
	return demote
}

// rePastQuestion: words that ask about an earlier state ("used to", "before", "previously",
// a past tense) and rePresentQuestion: words that ask about the present, which win.
var (
	rePastQuestion    = regexp.MustCompile(`(?i)\b(?:used to|before|previously|formerly|former|at first|originally|in the past|earlier|back then|back when|at the time|old|prior|until|ago|last (?:year|month|week|time|summer|winter|spring|fall|autumn)|was|were|did|had)\b`)
	rePresentQuestion = regexp.MustCompile(`(?i)\b(?:now|currently|current|these days|nowadays|still|anymore|any more|at the moment|today|right now|at present|presently)\b`)
	reHowOld          = regexp.MustCompile(`(?i)\bhow old\b`)
	// reFutureQuestion asks about what is to come ("Am I going to Lisbon in October?"):
	// a plan that was cancelled is as ended for it as for the present, whatever the time
	// range it names ("in October", asked in November, is read as the October past).
	reFutureQuestion = regexp.MustCompile(`(?i)\b(?:will|won't|going|gonna|plan|plans|planning|upcoming|soon|next)\b`)
	// reDecided: the past tense of a decision ("What did we decide about the database?",
	// "What was agreed?") asks for what was decided, and the latest decision is what holds:
	// it is no past cue.
	reDecided = regexp.MustCompile(`(?i)\b(?:did(?: \S+){1,2} (?:decide|agree|choose|pick|settle|opt)|(?:was|were) (?:decided|agreed|chosen|picked|settled))\b`)
)

// pastQuestion reports whether a question asks about the past: a past cue and no present
// cue in its words, or, with no future cue either, a time range of its plans that ends
// before asOf's day.
func pastQuestion(query string, plans []realm.Plan, asOf time.Time) bool {
	q := reDecided.ReplaceAllString(reHowOld.ReplaceAllString(query, ""), "")
	if rePresentQuestion.MatchString(q) {
		return false
	}
	if rePastQuestion.MatchString(q) {
		return true
	}
	if reFutureQuestion.MatchString(q) {
		return false
	}
	for _, p := range plans {
		if p.TimeRange != nil && !p.TimeRange.To.IsZero() && p.TimeRange.To.Before(asOf.AddDate(0, 0, -1)) {
			return true
		}
	}
	return false
}

// applyValidity demotes or keeps the superseded candidates and offers their newer
// versions (see above), recording what it did in the trace. A whole turn that still holds
// but comprises a superseded clause (the home of "I live in Lisbon, I'm on the Basic plan,
// and my email is …", after a move) is demoted in the same way, the clause's newer version
// offered in its place, for a question about the present closer to the clause than to the
// whole ("Where does the user live?"): the whole still says the old value. For one about
// what else it says ("What is the user's email?") it keeps its score. So is an exchange that
// quotes a demoted node (quotes). For a question about the past, a whole is demoted so
// only for its clause a correction superseded, which never held, as that clause is.
func (r *Retriever) applyValidity(ctx context.Context, run *run) error {
	if r.opts.SupersededFactor <= 0 {
		return nil
	}
	at := run.validAt()
	var ended, holding []string
	for id, c := range run.cands {
		switch {
		case c.Node.ValidUntil != nil && !at.Before(*c.Node.ValidUntil):
			ended = append(ended, id)
		case c.Node.Type == realm.Event || c.Node.Type == realm.Fact:
			holding = append(holding, id)
		}
	}
	past := pastQuestion(run.trace.Query, run.plans, run.now)
	partly, err := r.store.EndedClauses(ctx, run.space, sortedIDs(holding), at, run.qvec)
	if err != nil {
		return err
	}
	if len(ended) == 0 && len(partly) == 0 {
		return nil
	}
	lookup := slices.Clone(ended)
	for _, p := range partly {
		lookup = append(lookup, p.Clause)
	}
	successors, err := r.store.Successors(ctx, run.space, lookup, r.opts.WSuppress)
	if err != nil {
		return err
	}
	// The past keeps what held until it changed: of the changes, only corrections concern
	// it (realm.IsCorrection), and a whole only for its clause a correction superseded.
	changes := successors
	if past {
		changes = slices.DeleteFunc(slices.Clone(successors), func(s cypher.Successor) bool { return !realm.IsCorrection(s.Description) })
	}
	aside, err := r.asideOfChange(ctx, run, changes)
	if err != nil {
		return err
	}
	if past {
		partly = slices.DeleteFunc(partly, func(p cypher.EndedClause) bool {
			return aside[p.Clause] || !slices.ContainsFunc(changes, func(s cypher.Successor) bool { return s.Of == p.Clause })
		})
		successors = slices.DeleteFunc(successors, func(s cypher.Successor) bool {
			return !slices.Contains(ended, s.Of) && !slices.ContainsFunc(partly, func(p cypher.EndedClause) bool { return p.Clause == s.Of })
		})
	}
	wholesOf := map[string][]string{} // an ended clause's id → the holding wholes that comprise it
	for _, p := range partly {
		wholesOf[p.Clause] = append(wholesOf[p.Clause], p.Whole)
	}
	came := cameToPass(run, successors)
	var quoting []string // holding exchanges that quote a demoted node
	if !past {
		for _, id := range sortedIDs(ended) {
			if aside[id] {
				continue
			}
			for _, q := range quotes(run, id, holding) {
				wholesOf[id] = append(wholesOf[id], q)
				quoting = append(quoting, q)
			}
		}
	}
	// A whole's newer versions are its ended clause's.
	for _, s := range slices.Clone(successors) {
		for _, w := range wholesOf[s.Of] {
			s.Of = w
			successors = append(successors, s)
		}
	}
	later, err := r.laterVersions(ctx, run, successors)
	if err != nil {
		return err
	}
	successors = append(successors, later...)
	// A memory a correction supersedes never held (realm.IsCorrection): the past does not
	// keep it either, and its correction is offered in its place.
	wrong := map[string]bool{}
	for _, s := range successors {
		if realm.IsCorrection(s.Description) {
			wrong[s.Of] = true
		}
	}
	pastOf := func(id string) bool { return past && !came[id] && !wrong[id] }
	before := map[string]float64{}
	demote := func(id string, f float64) {
		c := run.cands[id]
		before[id] = c.Score
		c.Score *= f
		action := realm.ValidityDemoted
		if f == 1 {
			action = realm.ValidityKept
		}
		run.trace.Validity = append(run.trace.Validity, realm.TraceValidity{ID: id, Action: action, Factor: f, Score: c.Score})
	}
	for _, id := range sortedIDs(ended) {
		demote(id, validityFactor(run.cands[id].Node, at, pastOf(id) || aside[id], r.opts.SupersededFactor))
	}
	for _, p := range partly {
		if _, done := before[p.Whole]; !done {
			demote(p.Whole, r.opts.SupersededFactor)
		}
	}
	for _, id := range quoting {
		if _, done := before[id]; !done {
			demote(id, r.opts.SupersededFactor)
		}
	}
	// A newer version that has itself been superseded (the middle of two moves) is offered
	// as what it is, demoted for the present like any ended node, and its own newer version
	// from the score it reached before that; the links of such a chain come in any order, so
	// the offers are made again until none rises.
	reached := map[string]float64{}
	for range maxVersions + 1 {
		rose := false
		for _, s := range successors {
			if c := run.cands[s.Node.ID]; c != nil {
				c.Newer = true
			}
			old := run.cands[s.Of]
			if old == nil || s.Node.ID == "" || aside[s.Of] || !run.known(s.Node) {
				continue
			}
			share := 1.0
			if pastOf(s.Of) {
				share = r.opts.SuccessorShare
			}
			from := max(before[s.Of], reached[s.Of])
			if from*share > reached[s.Node.ID] {
				reached[s.Node.ID], rose = from*share, true
			}
			share *= validityFactor(s.Node, at, past, r.opts.SupersededFactor)
			score := from * share
			c, ok := run.cands[s.Node.ID]
			if ok && c.Score >= score {
				continue
			}
			if !ok {
				c = &candidate{Node: s.Node, Depth: old.Depth + 1, Root: old.Root, Newer: true}
				run.cands[s.Node.ID] = c
				run.trace.FirstDepth[s.Node.ID] = c.Depth
			}
			c.Score = score
			run.trace.Validity = append(run.trace.Validity, realm.TraceValidity{ID: s.Node.ID, Action: realm.ValiditySuccessor, Of: s.Of, Factor: share, Score: score})
		}
		if !rose {
			break
		}
	}
	return nil
}

// validAt is the time validity is judged at: the question's, or, when it names a time to
// come ("What will the notice period be in April 2027?"), the start of the earliest such
// time: what held until then has ended for it, and a newer version that began to hold by
// then holds, offered in its place whatever day it is dated (applyValidity).
func (run *run) validAt() time.Time {
	at := run.now
	for _, p := range run.plans {
		if p.TimeRange != nil && p.TimeRange.From.After(run.now) && (at.Equal(run.now) || p.TimeRange.From.Before(at)) {
			at = p.TimeRange.From
		}
	}
	return at
}

// applyComing ranks what holds at the question's time (validAt) above its newer versions
// that begin to hold only later (a PATCH with a valid_from to come, "Amendment 2,
// effective March 1 2027: the notice period is changed to 60 days", asked in December):
// the older version takes the newer one's score when it is lower (offered in its place
// when the recall did not gather it), and the newer one gets SuccessorShare of that, just
// below it, findable. Not for a question about what is to come ("What will the notice
// period be?", or one naming a time after the change: it holds then), nor about what only
// the newer one names ("What does Amendment 2 say?": namesUnchanged). A memory begins
// to hold when its older version's validity ends, which is when it starts or, for a
// client's correction, when it was learned (its valid_from): only the memories that
// start or were learned after the question's time are looked up.
func (r *Retriever) applyComing(ctx context.Context, run *run) error {
	if r.opts.SupersededFactor <= 0 || reFutureQuestion.MatchString(run.trace.Query) {
		return nil
	}
	at := run.validAt()
	var ahead []string
	for id, c := range run.cands {
		n := c.Node
		if (n.Type == realm.Event || n.Type == realm.Fact) && (n.ValidUntil == nil || at.Before(*n.ValidUntil)) &&
			(n.LearnedAt != nil && n.LearnedAt.After(at) || n.TStart != nil && n.TStart.After(at)) {
			ahead = append(ahead, id)
		}
	}
	older, err := r.store.Predecessors(ctx, run.space, sortedIDs(ahead), at, r.opts.WSuppress)
	if err != nil {
		return err
	}
	// Of a change of several things ("the notice period is changed to 60 days; the payment
	// term to 30 days"), the older version closest to the question takes its place.
	older = slices.DeleteFunc(older, func(p cypher.Predecessor) bool {
		return namesUnchanged(run.query, run.cands[p.Of].Node.Content, p.Node.Content) || !run.known(p.Node)
	})
	closest := map[string]cypher.Predecessor{}
	for _, p := range older {
		if best, ok := closest[p.Of]; !ok || sim(run.qvec, p.Node.Embedding) > sim(run.qvec, best.Node.Embedding) {
			closest[p.Of] = p
		}
	}
	for _, id := range sortedIDs(slices.Collect(maps.Keys(closest))) {
		p, c := closest[id], run.cands[id]
		old, ok := run.cands[p.Node.ID]
		if !ok {
			old = &candidate{Node: p.Node, Depth: c.Depth + 1, Root: c.Root}
			run.cands[p.Node.ID] = old
			run.trace.FirstDepth[p.Node.ID] = old.Depth
		}
		if old.Score < c.Score {
			run.trace.Validity = append(run.trace.Validity, realm.TraceValidity{ID: old.Node.ID, Action: realm.ValidityHolding, Of: c.Node.ID, Factor: 1, Score: c.Score})
			old.Score = c.Score
		}
		if below := old.Score * r.opts.SuccessorShare; c.Score > below {
			run.trace.Validity = append(run.trace.Validity, realm.TraceValidity{ID: c.Node.ID, Action: realm.ValidityComing, Of: old.Node.ID, Factor: below / c.Score, Score: below})
			c.Score = below
		}
	}
	return nil
}

// cameToPass returns the superseded candidates that told of a time to come when they were
// learned (a plan: "Gwen is planning to run the Boston marathon next spring") and whose
// newer versions tell of none (what happened: "Gwen ran the Boston marathon on Monday", or
// the plan called off; not a plan moved to another day, still to come). A question in the
// past tense that asks about no plan ("Did Gwen run the Boston marathon?") asks what
// happened, which such a plan does not tell: it is demoted as for the present, its newer
// version offered in its place. One that asks about the plan ("What was Gwen planning to
// do?", "Was I going to Lisbon in October?") keeps it, as any past question does.
func cameToPass(run *run, successors []cypher.Successor) map[string]bool {
	if reFutureQuestion.MatchString(run.trace.Query) {
		return nil
	}
	out := map[string]bool{}
	for _, s := range successors {
		old := run.cands[s.Of]
		came, seen := out[s.Of]
		out[s.Of] = old != nil && toldAhead(old.Node) && !toldAhead(s.Node) && (came || !seen)
	}
	return out
}

// toldAhead: n tells of a time that began after it was learned.
func toldAhead(n realm.Node) bool {
	return n.TStart != nil && n.LearnedAt != nil && n.TStart.After(*n.LearnedAt)
}

// maxVersions bounds how many newer versions in a row laterVersions follows.
const maxVersions = 8

// laterVersions are the newer versions of the newer versions among successors that have
// ended in turn, and theirs, up to the ones that hold (maxVersions deep at most): a reading
// replaced three times over leads to the one that holds, not only to the next.
func (r *Retriever) laterVersions(ctx context.Context, run *run, successors []cypher.Successor) ([]cypher.Successor, error) {
	looked := map[string]bool{}
	for _, s := range successors {
		looked[s.Of] = true
	}
	var out []cypher.Successor
	wave := successors
	for range maxVersions {
		var ids []string
		for _, s := range wave {
			if n := s.Node; n.ValidUntil != nil && !run.validAt().Before(*n.ValidUntil) && !looked[n.ID] {
				looked[n.ID] = true
				ids = append(ids, n.ID)
			}
		}
		if len(ids) == 0 {
			break
		}
		next, err := r.store.Successors(ctx, run.space, ids, r.opts.WSuppress)
		if err != nil {
			return nil, err
		}
		out, wave = append(out, next...), next
	}
	return out, nil
}

// quotes returns the holding candidates (of holding) that quote the ended candidate id:
// an exchange of a few turns, the ended one among them, that says every word it says
// ("Kenji said: \"We're going to Italy for the 3rd week of May.\" Sam: Italy in May sounds
// wonderful", after the trip was postponed to June). The exchange still says the old
// value, often in more of the question's words than the ended turn or its newer version,
// and is not superseded with it when the change did not reach it; what else it holds, the
// other speaker's reply, is a memory of its own, which keeps its score.
func quotes(run *run, id string, holding []string) []string {
	ended := run.cands[id]
	if len(ended.Node.Sources) == 0 {
		return nil
	}
	var out []string
	for _, h := range sortedIDs(holding) {
		c := run.cands[h]
		if len(c.Node.Sources) > len(ended.Node.Sources) && len(c.Node.Sources) <= FullerMaxSources &&
			containsAll(c.Node.Sources, ended.Node.Sources) && saysAll(c.Node.Content, ended.Node.Content) {
			out = append(out, h)
		}
	}
	return out
}

// asideOfChange returns the superseded candidates that the question asks about something
// else than what changed: it names something the old node names (namesUnchanged) that
// neither a newer version nor what its supersedes edge says changed ("user lives in:
// Berlin, previously Lisbon") does, and it is closer to the old node than to each of them.
// A node without a newer version, or without vectors to compare, is not aside: it is
// demoted as before.
func (r *Retriever) asideOfChange(ctx context.Context, run *run, successors []cypher.Successor) (map[string]bool, error) {
	var descs []string
	for _, s := range successors {
		descs = append(descs, s.Description)
	}
	vecs, err := r.embed(ctx, run, descs...)
	if err != nil {
		return nil, err
	}
	aside := map[string]bool{}
	for i, s := range successors {
		old := run.cands[s.Of]
		if old == nil || old.Node.Embedding == nil || s.Node.Embedding == nil {
			continue
		}
		own := sim(run.qvec, old.Node.Embedding)
		apart := namesUnchanged(run.query, old.Node.Content, s.Node.Content+" "+s.Description) && !namesSlot(run.query, s.Description) &&
			!(realm.IsCorrection(s.Description) && asksCorrected(run.query, old.Node.Content, s.Node.Content)) &&
			sim(run.qvec, s.Node.Embedding) < own && (vecs[i] == nil || sim(run.qvec, vecs[i]) < own)
		if prev, ok := aside[s.Of]; ok {
			apart = apart && prev // aside of every newer version
		}
		aside[s.Of] = apart
	}
	return aside, nil
}

// namesUnchanged: a content word of query (stemmed; "now", "currently"… do not count) is
// one by which old names something (namedIn) and is not in change. Only a name counts, not
// any word old says: "Which package manager do we use?" shares "use" and "package" with
// the superseded "We use npm for JavaScript packages" and asks about what changed (npm →
// pnpm), whereas "What is the name of Nora's dog?" asks about the dog that "Nora lives in
// Lisbon with her dog Biscuit" names, which a move does not change.
func namesUnchanged(query, old, change string) bool {
	query = rePresentQuestion.ReplaceAllString(query, " ")
	stems := func(t string) map[string]bool {
		out := map[string]bool{}
		for _, w := range text.Keywords(t, 200) {
			out[text.Stem(w)] = true
		}
		return out
	}
	named, changed := namedIn(old), stems(change)
	for w := range stems(query) {
		if named[w] && !changed[w] && !calendarName(w) {
			return true
		}
	}
	return false
}

// asksCorrected: the query names a word (stemmed) that correction says and old does not
// name (namedIn): it asks about what was corrected, which never held as old said it,
// whatever else only old names ("What is the termination notice period?" of "Section 7.2
// (Termination for Convenience): the termination notice period is 30 days", corrected by
// "the Section 7.2 notice period was 60 days, not 30"); "Where did we meet Anna?" of "We
// met Anna in Porto; the sample size was 214" names nothing "the sample size was 412, not
// 214" says.
func asksCorrected(query, old, correction string) bool {
	named, said := namedIn(old), stems(correction)
	for _, w := range text.Keywords(rePresentQuestion.ReplaceAllString(query, " "), 200) {
		if k := text.Stem(w); said[k] && !named[k] {
			return true
		}
	}
	return false
}

// namesSlot: the query names a word of the slot that changed, as the description of a
// supersedes edge opens with it before its colon, past its subject ("flight" of "Kenji's
// flight: NH223, LH1456, previously NH215, LH1454", "lives" of "Nora lives in: Berlin,
// previously Lisbon"). "Which flights are we taking to Rome?" asks about the flights that
// changed, though it names Rome, which only the older booking names. A client's
// correction ("changed by ops as of 2026-06-01T10:00:00Z: …", realm.IsClientChange) names
// who corrected and when before its colon, no slot.
func namesSlot(query, description string) bool {
	head, _, ok := strings.Cut(description, ":")
	if !ok || realm.IsClientChange(description) {
		return false
	}
	slot := map[string]bool{}
	for i, w := range reWord.FindAllString(head, -1) {
		if r, _ := utf8.DecodeRuneInString(w); i > 0 && !unicode.IsUpper(r) {
			for _, k := range text.Keywords(w, 1) {
				slot[text.Stem(k)] = true
			}
		}
	}
	for _, w := range text.Keywords(query, 200) {
		if slot[text.Stem(w)] {
			return true
		}
	}
	return false
}

// calendarName: a stem is a month's or a weekday's, a name of when, not of something
// else the older memory tells ("in October" of a trip planned, then cancelled).
func calendarName(stem string) bool {
	for _, name := range calendarNames {
		if len(stem) >= 3 && strings.HasPrefix(name, stem) {
			return true
		}
	}
	return false
}

var calendarNames = strings.Fields(strings.ToLower(strings.ReplaceAll(text.MonthNames, "|", " ")) + " monday tuesday wednesday thursday friday saturday sunday")

// reWord is a word of namedIn, and reSentenceBreak what ends a sentence between two words.
var (
	reWord          = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'’-]*`)
	reSentenceBreak = regexp.MustCompile(`[.!?:;]`)
	reDeterminer    = regexp.MustCompile(`(?i)^(?:my|our|your|his|her|their|its|the|a|an|\S+['’]s)$`)
)

// namedIn returns the stems of the words by which content names something: a capitalized
// word within a sentence (a name: "Biscuit", "Tomás", "JavaScript"), and the noun that
// introduces a name after a possessive or an article ("dog" of "our dog Biscuit" or
// "Nora's dog, Biscuit"; "partner" of "my partner Tomás"). A sentence's first word is
// capitalized whatever it is, and tells nothing.
func namedIn(content string) map[string]bool {
	out := map[string]bool{}
	spans := reWord.FindAllStringIndex(content, -1)
	word := func(i int) string { return content[spans[i][0]:spans[i][1]] }
	gap := func(i int) string { return content[spans[i-1][1]:spans[i][0]] } // before word i
	for i := range spans {
		w := word(i)
		r, _ := utf8.DecodeRuneInString(w)
		if i == 0 || !unicode.IsUpper(r) || w == "I" || reSentenceBreak.MatchString(gap(i)) {
			continue
		}
		for _, k := range text.Keywords(w, 1) {
			out[text.Stem(k)] = true
		}
		if i >= 2 && strings.Trim(gap(i), " ,") == "" && strings.TrimSpace(gap(i-1)) == "" && reDeterminer.MatchString(word(i-2)) {
			role := word(i - 1)
			if r, _ := utf8.DecodeRuneInString(role); unicode.IsLower(r) {
				for _, k := range text.Keywords(role, 1) {
					out[text.Stem(k)] = true
				}
			}
		}
	}
	return out
}

func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}
