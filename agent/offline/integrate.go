package offline

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

// Edge weights of the offline relate step (REALM.md §1: 0.9–1.0 explicit, 0.7–0.8 clear,
// 0.5–0.6 implied).
const (
	weightSupersedes     = 0.9
	weightComprises      = 0.9
	weightPrecedes       = 0.7
	weightTriggers       = 0.8
	weightContextualizes = 0.6
	weightInstantiates   = 0.6
	weightCorrelatesMin  = 0.5
	weightCorrelatesMax  = 0.8
)

// Integrate decides add / merge / skip for every candidate of one observation and the
// edges of each added or merged node (OFFLINE.md, "Integrate" and "Relate").
func (o *Agent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return nil, realm.Usage{}, err
	}
	n := len(in.Candidates)
	out := make([]agent.Integration, n)
	// resolved is the node each candidate ends as: its own ref, the merge target, or for a
	// skipped candidate the neighbour that already says it (so others may still link to it).
	resolved := make([]string, n)
	words := make([]map[string]bool, n)    // each candidate's content words
	scored := make([][]scoredNeighbour, n) // most similar first
	byID := make([][]scoredNeighbour, n)   // the same by id
	renews := make([]string, n)            // the superseded neighbour each added candidate says again
	for i, cc := range in.Candidates {
		words[i] = wordSet(contentWords(cc.Candidate.Content))
		scored[i] = o.score(cc, words[i])
		byID[i] = sortedByID(scored[i])
		var target string
		out[i], target = o.decide(cc, scored[i], byID[i], in.Candidates, in.Observation.ObservedAt)
		switch out[i].Action {
		case agent.ActionAdd:
			resolved[i], renews[i] = agent.CandidateRef(i), target
		case agent.ActionMerge:
			resolved[i] = out[i].MergeInto
		case agent.ActionSkip:
			resolved[i] = target
		}
	}
	r := relater{in: in, out: out, resolved: resolved, words: words, scored: scored, byID: byID, opts: o.opts, seen: map[string]bool{}}
	for i := range in.Candidates {
		if out[i].Action == agent.ActionSkip {
			continue
		}
		out[i].Edges = append(r.relate(i), renewed(renews[i], byID[i], in.Observation.ObservedAt)...)
	}
	return out, realm.Usage{}, nil
}

// renewed supersedes, with a candidate that says again the superseded neighbour old (an id;
// "" for none) once it no longer held ("We're going to Lisbon in May" again, after "Lisbon
// is cancelled"), the neighbours that ended old and still hold when it is said: the events
// and facts learned before it (or earlier in the same batch), on the day old ended (their
// message's, or their own start), that share a content word with old. They hold until it
// is said. A gauge's value said again is a reading like any other: it replaces its gauge's
// current reading (stateChanges), nothing else learned that day ("humidity-sensor:
// Bathroom humidity 48%" again ends no "living-room-sensor: …" reading).
func renewed(old string, nbs []scoredNeighbour, said time.Time) []agent.EdgeOp {
	i := slices.IndexFunc(nbs, func(nb scoredNeighbour) bool { return nb.Node.ID == old })
	if i < 0 || slices.ContainsFunc(nodeClaims(nbs[i].Node), stateClaim.isReading) {
		return nil
	}
	ended := nbs[i].Node
	day := ended.ValidUntil.UTC().Truncate(24 * time.Hour)
	at := func(t *time.Time) bool { return t != nil && t.UTC().Truncate(24*time.Hour).Equal(day) }
	var out []agent.EdgeOp
	for _, nb := range nbs {
		n := nb.Node
		if n.ID == old || n.Type != realm.Event && n.Type != realm.Fact || n.ValidUntil != nil && !n.ValidUntil.After(said) ||
			n.LearnedAt != nil && !n.LearnedAt.Before(said) || !at(n.LearnedAt) && !at(n.TStart) || !sharesWord(n.Content, ended.Content) {
			continue
		}
		out = append(out, agent.EdgeOp{Op: agent.EdgeAdd, From: agent.Self, To: n.ID, Predicate: realm.Supersedes, Weight: weightSupersedes,
			Description: "said again: " + ended.Content, ValidUntil: &said})
	}
	return out
}

// scoredNeighbour is a neighbour with the similarity signals of one candidate.
type scoredNeighbour struct {
	agent.Neighbour
	sim      float64 // cosine when embeddings are known, else the content-word Jaccard
	jaccard  float64
	newWords int     // candidate content words the neighbour lacks
	coverage float64 // share of the neighbour's content words the candidate repeats
}

// score reads the similarity signals of a candidate whose content words are cw.
func (o *Agent) score(cc agent.CandidateContext, cw map[string]bool) []scoredNeighbour {
	out := make([]scoredNeighbour, 0, len(cc.Neighbours))
	for _, nb := range cc.Neighbours {
		if nb.Node.ID == "" {
			continue
		}
		nw := nodeWords(nb.Node.Content)
		s := scoredNeighbour{Neighbour: nb}
		inter := 0
		for w := range cw {
			if nw[w] {
				inter++
			} else {
				s.newWords++
			}
		}
		if union := len(cw) + len(nw) - inter; union > 0 {
			s.jaccard = float64(inter) / float64(union)
		}
		if len(nw) > 0 {
			s.coverage = float64(inter) / float64(len(nw))
		}
		switch {
		case nb.Similarity != 0:
			s.sim = nb.Similarity
		case len(cc.Embedding) > 0 && len(cc.Embedding) == len(nb.Node.Embedding):
			s.sim = realm.Cosine(cc.Embedding, nb.Node.Embedding)
		default:
			s.sim = s.jaccard
		}
		out = append(out, s)
	}
	// Most similar first, ties by id: decisions must not depend on input order.
	return sortedStable(out, func(a, b *scoredNeighbour) bool {
		if a.sim != b.sim {
			return a.sim > b.sim
		}
		return a.Node.ID < b.Node.ID
	})
}

// nodeWords is the content-word set of a neighbour's content, shared (memo.go).
func nodeWords(content string) map[string]bool {
	return wordMemo.get(content, func(content string) map[string]bool { return wordSet(contentWords(content)) })
}

var wordMemo memo[string, map[string]bool]

// decide returns the integration action and, for a skip, the neighbour that already
// says the candidate, for an add one it says again that had ended before it was said
// (renewed); nbs are the scored neighbours, most similar first, byID the same by id;
// siblings are the candidates of the same observation, said at said.
func (o *Agent) decide(cc agent.CandidateContext, nbs, byID []scoredNeighbour, siblings []agent.CandidateContext, said time.Time) (agent.Integration, string) {
	c := cc.Candidate
	switch c.Type {
	case realm.Entity:
		// An entity of the candidate's own name first: the speaker, also called "Alice
		// Nguyen", stays the speaker's entity (which learns the name) when another entity
		// of that name exists. Else one that shares a name with it, in full: "Alice" is not
		// "Alice Nguyen"; a relation shared ("user's sister") only with a name that agrees
		// ("Kat" of "Katherine Thompson": two sisters are two people). Else the one
		// person whose full name the candidate's one word opens ("Katherine"), or for a full
		// name the one entity named by its first word alone, no other person of that first
		// name named in full.
		names := map[string]bool{normName(c.Name): true}
		for _, a := range c.Aliases {
			names[normName(a)] = true
		}
		var byAlias string
		var byFirstName []string
		var saidShort []realm.Node // entities named by the candidate's first name alone
		namesakes := 0             // other persons of the candidate's first name, named in full
		for _, nb := range byID {
			if nb.Node.Type != realm.Entity {
				continue
			}
			if normName(nb.Node.Name) == normName(c.Name) {
				return agent.Integration{Action: agent.ActionMerge, MergeInto: nb.Node.ID, Reason: "same entity name"}, ""
			}
			if byAlias == "" && sharesName(c, names, nb.Node) {
				byAlias = nb.Node.ID
			}
			if opensFullName(c, nb.Node) {
				byFirstName = append(byFirstName, nb.Node.ID)
			}
			switch {
			case nb.Node.Category == "person" && slices.ContainsFunc(append([]string{nb.Node.Name}, nb.Node.Aliases...), func(n string) bool { return isNamesake(n, c.Name) }):
				namesakes++
			case isFirstNameOf(nb.Node.Name, nb.Node.Category, c.Name, c.Category):
				saidShort = append(saidShort, nb.Node)
			}
		}
		for _, o := range siblings {
			if o.Candidate.Type == realm.Entity && o.Candidate.Category == "person" && isNamesake(o.Candidate.Name, c.Name) {
				namesakes++ // "Tom Becker and Tom Ruiz both confirmed": which is the Tom said before?
			}
		}
		switch {
		case byAlias != "":
			return agent.Integration{Action: agent.ActionMerge, MergeInto: byAlias, Reason: "same entity, by alias"}, ""
		case len(byFirstName) == 1:
			return agent.Integration{Action: agent.ActionMerge, MergeInto: byFirstName[0], Reason: "same entity, by first name"}, ""
		case len(saidShort) == 1 && namesakes == 0:
			// The first name said before the full name ("Tom called.", then "Tom Becker from
			// Acme confirmed"): the one person of that first name the space names in full.
			return agent.Integration{Action: agent.ActionMerge, MergeInto: saidShort[0].ID, Reason: "same entity, by first name said before",
				Merged: strings.TrimSuffix(c.Content, ".") + ", called " + saidShort[0].Name + "."}, ""
		}
		return agent.Integration{Action: agent.ActionAdd}, ""
	case realm.Episode:
		for _, nb := range byID {
			if nb.Node.Type == realm.Episode && c.Name != "" && nb.Node.Name == c.Name {
				return agent.Integration{Action: agent.ActionMerge, MergeInto: nb.Node.ID, Reason: "same session"}, ""
			}
		}
		return agent.Integration{Action: agent.ActionAdd}, ""
	}
	if q := askedAlone(c, byID); q != "" {
		return agent.Integration{Action: agent.ActionMerge, MergeInto: q, Merged: c.Content, Reason: "the question, said again as answered"}, ""
	}
	var cs *factSlot
	if c.Type == realm.Fact {
		// An event's slot is for construction to look its holders up: two tellings of one
		// move read different values ("Lisbon in May", "Lisbon"), and are one event.
		cs = slotOf(c)
	}
	var renews string // a superseded neighbour the candidate says again
	for _, nb := range nbs {
		if nb.Node.Type != realm.Event && nb.Node.Type != realm.Fact {
			continue
		}
		if conflicts(cs, nb.Node) {
			continue // a state change: add, relate by supersedes
		}
		says := nb.sim >= o.opts.SkipSimilarity && nb.newWords == 0 && (timeCovered(c, nb.Node) || pastedAgain(c, nb.Node)) && numbersIn(c.Content, nb.Node.Content)
		if nb.Node.ValidUntil != nil && !said.Before(*nb.Node.ValidUntil) {
			// Said again once superseded ("We're going to Lisbon in May" after "Lisbon is
			// cancelled"): no repeat of what ended, it holds anew.
			if says && renews == "" {
				renews = nb.Node.ID
			}
			continue
		}
		if says {
			return agent.Integration{Action: agent.ActionSkip, MergeInto: nb.Node.ID, Reason: "the neighbour says every word of it, at the same time"}, nb.Node.ID
		}
		if nb.Node.Type == c.Type && nb.sim >= o.opts.MergeSimilarity && nb.coverage >= o.opts.MergeCoverage && sameTime(c, nb.Node) && numbersIn(nb.Node.Content, c.Content) &&
			!statesAnother(c, nb.Node) && !saidByAnother(c, nb.Node) {
			merged := c.Content
			if nb.coverage < 1 {
				merged = strings.TrimSpace(nb.Node.Content) + " " + c.Content
			}
			return agent.Integration{Action: agent.ActionMerge, MergeInto: nb.Node.ID, Merged: merged, Reason: "the same statement, completed"}, ""
		}
	}
	return agent.Integration{Action: agent.ActionAdd}, renews
}

// saidByAnother: candidate c and node n are two speakers' words ("Said by Sam …", "Said by
// Chandra …"). Sam's reply quoting Chandra's statement (`Chandra said: "…" Sam: That's on
// the pricey side.`) covers its words, yet is no telling of it again: merged, it would
// read as Chandra's words, and end with her statement when it changes.
func saidByAnother(c agent.Candidate, n realm.Node) bool {
	a, b := speakerOfDescription(c.Description), speakerOfDescription(n.Description)
	return a != "" && b != "" && !strings.EqualFold(a, b)
}

// numbersIn reports whether every number of a (a word with a digit: "17", "40mg", "20.5"
// with its decimals) is in b. Content words leave numbers out, so "I bought item 17" was
// skipped for "I bought item 3", and "I take 40mg" merged over "I take 20mg": neither says
// the other; nor does "set to 20.5 degrees" say "set to 20 degrees".
func numbersIn(a, b string) bool {
	inB := map[string]bool{}
	for _, w := range digitWords(b) {
		inB[w] = true
	}
	for _, w := range digitWords(a) {
		if !inB[w] {
			return false
		}
	}
	return true
}

func digitWords(s string) []string {
	return slices.DeleteFunc(text.Words(reDecimalPoint.ReplaceAllString(s, "${1}point$2")), func(w string) bool { return !strings.ContainsFunc(w, unicode.IsDigit) })
}

// reDecimalPoint is the point of a decimal number, which words split at.
var reDecimalPoint = regexp.MustCompile(`(\d)\.(\d)`)

func sortedByID(nbs []scoredNeighbour) []scoredNeighbour {
	return sortedStable(nbs, func(a, b *scoredNeighbour) bool { return a.Node.ID < b.Node.ID })
}

// byObservation orders neighbours as they were told: by creation (all memories of one
// observation share it), then content, then id.
func byObservation(nbs []scoredNeighbour) []scoredNeighbour {
	return sortedStable(nbs, func(x, y *scoredNeighbour) bool {
		a, b := &x.Node, &y.Node
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.Before(b.CreatedAt)
		}
		if a.Content != b.Content {
			return a.Content < b.Content
		}
		return a.ID < b.ID
	})
}

// sortedStable is a copy of nbs in the stable order of less. It sorts their indices: a
// neighbour holds a whole node, too large to move around at every swap.
func sortedStable(nbs []scoredNeighbour, less func(a, b *scoredNeighbour) bool) []scoredNeighbour {
	idx := make([]int, len(nbs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return less(&nbs[idx[i]], &nbs[idx[j]]) })
	out := make([]scoredNeighbour, len(nbs))
	for i, k := range idx {
		out[i] = nbs[k]
	}
	return out
}

// slotOf is the candidate's fact slot with its value, read back from its content.
func slotOf(c agent.Candidate) *factSlot {
	if c.Subject == "" || c.Attribute == "" {
		return nil
	}
	for _, s := range factSlots(c.Content) {
		if strings.EqualFold(s.subject, c.Subject) && s.attribute == c.Attribute {
			return &s
		}
	}
	return &factSlot{subject: c.Subject, attribute: c.Attribute}
}

// conflicts reports whether node states another value for the candidate's slot.
func conflicts(cs *factSlot, node realm.Node) bool {
	_, ok := conflictingSlot(cs, node)
	return ok
}

func conflictingSlot(cs *factSlot, node realm.Node) (factSlot, bool) {
	if cs == nil || cs.value == "" {
		return factSlot{}, false
	}
	for _, s := range nodeSlots(node.Content) {
		if strings.EqualFold(s.subject, cs.subject) && s.attribute == cs.attribute && normValue(s.value) != normValue(cs.value) {
			return s, true
		}
	}
	return factSlot{}, false
}

// nodeSlots are the fact slots of a neighbour's content, shared (memo.go).
func nodeSlots(content string) []factSlot { return slotMemo.get(content, factSlots) }

var slotMemo memo[string, []factSlot]

// sameTime: the candidate brings no time change (no time, or the node's same days).
func sameTime(c agent.Candidate, n realm.Node) bool {
	if c.TStart == nil {
		return true
	}
	if n.TStart == nil || n.TEnd == nil || c.TEnd == nil {
		return false
	}
	return sameDay(*c.TStart, *n.TStart) && sameDay(*c.TEnd, *n.TEnd)
}

// pastedAgain: the candidate is a document's text, a part of a long message or a message
// of several lines (a note, a runbook), that says word for word what the node says: the
// same text pasted again. Dated the day it was told only because it tells no time of its
// own (told), it is no new event on another day, as a line said again is ("Front door
// opened", each day its own).
func pastedAgain(c agent.Candidate, n realm.Node) bool {
	return (c.Part > 0 || strings.Contains(strings.TrimSpace(c.Content), "\n")) && c.Content == n.Content
}

// timeCovered: the candidate's time, if any, lies within the node's.
func timeCovered(c agent.Candidate, n realm.Node) bool {
	if c.TStart == nil {
		return true
	}
	if n.TStart == nil || n.TEnd == nil || c.TEnd == nil {
		return false
	}
	return !c.TStart.Before(*n.TStart) && !c.TEnd.After(*n.TEnd)
}

// relater writes the edges of one observation's integrations without duplicates.
type relater struct {
	in       agent.IntegrateInput
	out      []agent.Integration
	resolved []string
	words    []map[string]bool   // each candidate's content words
	scored   [][]scoredNeighbour // each candidate's neighbours, most similar first
	byID     [][]scoredNeighbour // the same by id
	opts     Options
	seen     map[string]bool // resolved edge keys already written
}

func (r *relater) resolve(i int, ref string) string {
	if ref == agent.Self {
		return r.resolved[i]
	}
	if strings.HasPrefix(ref, "$cand:") {
		var j int
		if _, err := fmt.Sscanf(ref, "$cand:%d", &j); err == nil && j >= 0 && j < len(r.resolved) {
			return r.resolved[j]
		}
	}
	return ref
}

// emit appends an edge unless its ends coincide or an equal edge was already written.
func (r *relater) emit(edges []agent.EdgeOp, i int, from, to string, p realm.Predicate, w float64, desc string) []agent.EdgeOp {
	rf, rt := r.resolve(i, from), r.resolve(i, to)
	if rf == "" || rt == "" || rf == rt || !p.Valid() {
		return edges
	}
	if p.Symmetric() && rt < rf {
		rf, rt = rt, rf
	}
	key := rf + "|" + rt + "|" + string(p)
	if r.seen[key] {
		return edges
	}
	r.seen[key] = true
	w = math.Max(0.3, math.Min(1, w))
	return append(edges, agent.EdgeOp{Op: agent.EdgeAdd, From: from, To: to, Predicate: p, Weight: math.Round(w*1000) / 1000, Description: desc})
}

// candRef is another candidate as an edge end, or "" when it became no node.
func (r *relater) candRef(j int) string {
	if r.out[j].Action == agent.ActionSkip {
		if r.resolved[j] == "" {
			return ""
		}
		return r.resolved[j]
	}
	return agent.CandidateRef(j)
}

func (r *relater) relate(i int) []agent.EdgeOp {
	c := r.in.Candidates[i].Candidate
	var edges []agent.EdgeOp
	switch c.Type {
	case realm.Episode:
		return r.episodeEdges(i, c)
	case realm.Entity:
		return nil // mentions point to entities (instantiates), see OFFLINE.md
	}
	cands := r.in.Candidates
	nbs, byID := r.scored[i], r.byID[i]
	session := r.in.Observation.Session()

	// contextualizes: the session's episode → this event or fact.
	ep := ""
	for j, o := range cands {
		if o.Candidate.Type == realm.Episode && (session == "" || o.Candidate.Name == session) {
			ep = r.candRef(j)
			break
		}
	}
	if ep == "" && session != "" {
		for _, nb := range byID {
			if nb.Node.Type == realm.Episode && nb.Node.Name == session {
				ep = nb.Node.ID
				break
			}
		}
	}
	if ep != "" {
		edges = r.emit(edges, i, ep, agent.Self, realm.Contextualizes, weightContextualizes, "session "+session+" is the context of this")
	}

	// comprises: the whole turn (or the part of it) → a clause candidate whose words it
	// contains. Parts of one turn follow each other; none comprises another.
	cw := r.words[i]
	for j, o := range cands {
		if j == i || (o.Candidate.Type != realm.Event && o.Candidate.Type != realm.Fact) || c.Part > 0 && o.Candidate.Part > 0 {
			continue
		}
		if ow := r.words[j]; len(ow) > len(cw) && subset(cw, ow) {
			if ref := r.candRef(j); ref != "" {
				edges = r.emit(edges, i, ref, agent.Self, realm.Comprises, weightComprises, "the whole turn comprises this clause")
			}
			break
		}
	}

	// triggers: the question just asked → this answer. The edge carries the question, so
	// that a query asking it again reaches the answer (REALM.md §3.3, access score).
	if c.InReplyTo != "" {
		if q, question := questionNode(byID, c.InReplyTo); q != "" {
			edges = r.emit(edges, i, q, agent.Self, realm.Triggers, weightTriggers, question)
		}
	}

	// instantiates: this event or fact → each entity it mentions.
	for j, o := range cands {
		if o.Candidate.Type == realm.Entity && mentions(c, o.Candidate.Name) {
			if ref := r.candRef(j); ref != "" {
				edges = r.emit(edges, i, agent.Self, ref, realm.Instantiates, weightInstantiates, "mentions "+o.Candidate.Name)
			}
		}
	}
	for _, nb := range byID {
		if nb.Node.Type != realm.Entity {
			continue
		}
		for _, name := range append([]string{nb.Node.Name}, nb.Node.Aliases...) {
			if mentions(c, name) {
				edges = r.emit(edges, i, agent.Self, nb.Node.ID, realm.Instantiates, weightInstantiates, "mentions "+nb.Node.Name)
				break
			}
		}
	}

	// supersedes / contradicts: a state change (update.go).
	superseded := map[string]bool{}
	edges = r.stateChanges(edges, i, c, superseded)
	// results_in, enables, implies, verifies, summarizes, analogous_to: what a reply says
	// outright of the turn before it (predicates.go).
	edges = r.discourseEdges(edges, i, c)

	// precedes: the nearest earlier and the nearest later event sharing a participant,
	// among neighbours and the other candidates. Events of one session share their time;
	// a tie goes to the one told last (this observation's candidates, else the latest
	// neighbour by creation, then content, then id), so that the same conversation gives
	// the same graph whatever ids the memories got.
	if c.Type == realm.Event && c.TStart != nil && c.TEnd != nil {
		type timed struct {
			ref        string
			start, end time.Time
		}
		var pool []timed
		for _, nb := range byObservation(nbs) {
			n := nb.Node
			if n.Type == realm.Event && n.TStart != nil && n.TEnd != nil && n.ID != r.resolved[i] && shareParticipant(c.Participants, n.Participants) {
				pool = append(pool, timed{n.ID, *n.TStart, *n.TEnd})
			}
		}
		for j, o := range cands {
			oc := o.Candidate
			if j != i && oc.Type == realm.Event && oc.TStart != nil && oc.TEnd != nil && shareParticipant(c.Participants, oc.Participants) {
				if ref := r.candRef(j); ref != "" {
					pool = append(pool, timed{ref, *oc.TStart, *oc.TEnd})
				}
			}
		}
		var before, after *timed
		for k := range pool { // on a tie the later in the pool wins: the one told last
			t := &pool[k]
			if t.end.Before(*c.TStart) && (before == nil || !t.end.Before(before.end)) {
				before = t
			}
			if t.start.After(*c.TEnd) && (after == nil || !t.start.After(after.start)) {
				after = t
			}
		}
		if before != nil {
			edges = r.emit(edges, i, before.ref, agent.Self, realm.Precedes, weightPrecedes, "happened before")
		}
		if after != nil {
			edges = r.emit(edges, i, agent.Self, after.ref, realm.Precedes, weightPrecedes, "happened before")
		}
	}

	// precedes: a part of a long turn → the next part, as the turn goes on, so that
	// expansion from the part a query finds reaches what is said around it.
	if c.Part > 0 {
		for j, o := range cands {
			if o.Candidate.Part == c.Part+1 {
				if ref := r.candRef(j); ref != "" {
					edges = r.emit(edges, i, agent.Self, ref, realm.Precedes, weightPrecedes, "the message goes on")
				}
			}
		}
	}

	// correlates: the closest neighbours above the threshold.
	k := 0
	for _, nb := range nbs {
		if k >= r.opts.MaxCorrelates || nb.sim < r.opts.CorrelateSimilarity {
			break
		}
		t := nb.Node.Type
		if (t != realm.Event && t != realm.Fact) || superseded[nb.Node.ID] || nb.Node.ID == r.resolved[i] {
			continue
		}
		span := 1 - r.opts.CorrelateSimilarity
		w := weightCorrelatesMin
		if span > 0 {
			w += (weightCorrelatesMax - weightCorrelatesMin) * math.Min(1, (nb.sim-r.opts.CorrelateSimilarity)/span)
		}
		before := len(edges)
		edges = r.emit(edges, i, agent.Self, nb.Node.ID, realm.Correlates, w, fmt.Sprintf("similar content (%.2f)", nb.sim))
		if len(edges) > before {
			k++
		}
	}
	return edges
}

// episodeEdges: a session's episode follows the episode among its neighbours that starts
// last of those ending before it, ties to the smaller id (precedes); construction gives
// every episode candidate that one among its neighbours.
func (r *relater) episodeEdges(i int, c agent.Candidate) []agent.EdgeOp {
	if c.TStart == nil {
		return nil
	}
	var prev *realm.Node
	for _, nb := range r.byID[i] {
		n := nb.Node
		if n.Type != realm.Episode || n.TStart == nil || n.TEnd == nil || n.Name == c.Name || !n.TEnd.Before(*c.TStart) {
			continue
		}
		if prev == nil || n.TStart.After(*prev.TStart) {
			nn := n
			prev = &nn
		}
	}
	if prev == nil {
		return nil
	}
	return r.emit(nil, i, prev.ID, agent.Self, realm.Precedes, weightPrecedes, "the previous session")
}

// questionNode is the whole-turn node of observation obsID among the neighbours (the
// event or fact with the most content whose own turn is obsID: derived from it alone, or
// the exchange it completes, whose last source it is) and the question sentences of that
// turn, without the prompt an exchange quotes before it. byID are the neighbours by id.
func questionNode(byID []scoredNeighbour, obsID string) (id, question string) {
	best := -1
	for _, nb := range byID {
		n := nb.Node
		if (n.Type != realm.Event && n.Type != realm.Fact) || len(n.Sources) == 0 || len(n.Sources) > 2 || n.Sources[len(n.Sources)-1] != obsID {
			continue
		}
		own := rePrompt.ReplaceAllString(n.Content, "")
		if words := len(contentWords(own)); words > best {
			best, id = words, n.ID
			question = questionsOf(own)
		}
	}
	return id, question
}

// rePrompt matches the other speaker's words an exchange starts with (withPrompt):
// `Melanie asked: "…" `, `Melanie said: "…" `, or with the addressee named when the words
// are quoted as said, `Melanie asked Caroline: "…" ` (offline_persons.go).
var rePrompt = regexp.MustCompile(`^[^"\n]{1,80}? (?:asked|said)(?: [^":\n]{1,60})?: "(?:[^"\\]|\\.)*" `)

// questionsOf keeps the sentences of text that ask something.
func questionsOf(text string) string {
	var qs []string
	for _, s := range sentences(text) {
		if part := text[s.start:s.end]; strings.Contains(part, "?") {
			qs = append(qs, part)
		}
	}
	if len(qs) == 0 {
		return text
	}
	return strings.Join(qs, " ")
}

func subset(a, b map[string]bool) bool {
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return len(a) > 0
}

// sharesName: the entity n has a name or an alias among names, the candidate c's. A
// relation ("user's sister") is shared by every sister: it joins c to n only when their
// names agree (namesAgree).
func sharesName(c agent.Candidate, names map[string]bool, n realm.Node) bool {
	return slices.ContainsFunc(append([]string{n.Name}, n.Aliases...), func(a string) bool {
		return names[normName(a)] && (!isKinName(a) || namesAgree(c.Name, n))
	})
}

// isKinName: name is a relation, someone's relative or acquaintance ("user's sister").
func isKinName(name string) bool {
	ws := wordsOf(name)
	return len(ws) == 2 && isOwner(ws[0]) && relationNouns[ws[1].lower]
}

// namesAgree: name's first word and the first word of a name of n, not a relation, are one
// the other's beginning: "Kat" and "Katherine Thompson" may name one person, "Marta" and
// "Marina" do not.
func namesAgree(name string, n realm.Node) bool {
	first := firstWord(normName(name))
	return first != "" && slices.ContainsFunc(append([]string{n.Name}, n.Aliases...), func(a string) bool {
		other := firstWord(normName(a))
		return !isKinName(a) && other != "" && (strings.HasPrefix(other, first) || strings.HasPrefix(first, other))
	})
}

// opensFullName: the candidate c, one word said of a person or a place ("talked to
// Katherine", "visited Katherine": the name of a person is no place), is the first word of
// the person n's full name ("Katherine Thompson"). Two people may share a first name, so
// it joins n only when no other neighbour is so named (decide).
func opensFullName(c agent.Candidate, n realm.Node) bool {
	return isFirstNameOf(c.Name, c.Category, n.Name, n.Category)
}

// isNamesake: name is another full name than full of the same first name ("Tom Ruiz" of
// "Tom Becker").
func isNamesake(name, full string) bool {
	n, f := normName(name), normName(full)
	return strings.Contains(n, " ") && n != f && firstWord(n) == firstWord(f)
}

// isFirstNameOf: short, one word said of a person or a place, is the first word of full, a
// person's full name. Said before the full name, the short name's entity is the one the
// full name joins (decide), when no other person of that first name is named in full.
func isFirstNameOf(short, shortCategory, full, fullCategory string) bool {
	return (shortCategory == "person" || shortCategory == "place") && fullCategory == "person" &&
		len(strings.Fields(short)) == 1 && len(strings.Fields(full)) > 1 && firstWord(normName(full)) == normName(short)
}

// mentions: an event or fact names an entity in its content or participants.
func mentions(c agent.Candidate, name string) bool {
	if name == "" {
		return false
	}
	for _, p := range c.Participants {
		if normName(p) == normName(name) {
			return true
		}
	}
	return containsName(c.Content, name)
}

func shareParticipant(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if normName(x) == normName(y) && normName(x) != "" {
				return true
			}
		}
	}
	return false
}
