package reconsolidation_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// TestLearnedLinks: query-conditioned consolidation (REALM.md §4 "ours") on a hand-built
// graph in a real Neo4j. Three memories match the question Q on axis 0, none by keyword
// (the contents share no word with the queries): concert 0.8, violin 0.7, clarinet 0.5,
// so their seed scores are 0.6 × that. The client says of Q's recall: clarinet useful,
// violin misleading. Then:
//
//   - for P, a paraphrase of Q (cos(P, Q) = 0.9), clarinet comes back higher and violin
//     lower than before the feedback;
//   - for U, a question on another topic (cos(U, Q) = 0) that also finds violin, violin
//     keeps its rank and score: nothing was learned for questions like U;
//   - reverting the reconsolidation gives P the ranking it had before, to the bit.
//
// No edge joins the memories before, so whatever moves, the learned links moved it.
func TestLearnedLinks(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	const (
		q          = "What instrument does Melanie play?"
		paraphrase = "Which instrument is Melanie playing?"
		unrelated  = "Where did Caroline travel in June?"
	)
	emb := loopEmbedder{
		q:          loopAxes(0, 1),
		paraphrase: loopAxes(0, 0.9, 1, 0.43589),
		unrelated:  loopAxes(4, 0.8, 5, 0.6),
	}
	nodes := []loopNode{
		{"concert", realm.Event, "Mel went to a symphony concert downtown", loopAxes(0, 0.8, 3, 0.6), "2023-05-01"},
		{"violin", realm.Fact, "Her neighbour owns an old violin", loopAxes(0, 0.7, 4, 0.71414), ""},
		{"clarinet", realm.Fact, "Mel has practised the clarinet since school", loopAxes(0, 0.5, 2, 0.86603), ""},
		{"paris", realm.Event, "Caro flew to Paris with friends", loopAxes(5, 1), "2023-06-10"},
	}
	space := loopGraph(t, s, nodes, nil)
	id := func(name string) string { return space + ":" + name }
	recall, recon := loopRig(t, s, emb, space)

	resQ := recall(q)
	paraBefore, unrelatedBefore := recall(paraphrase), recall(unrelated)
	clarinetBefore, violinBefore := placeOf(paraBefore, id("clarinet")), placeOf(paraBefore, id("violin"))
	if clarinetBefore.rank == 0 || violinBefore.rank == 0 || violinBefore.rank > clarinetBefore.rank {
		t.Fatalf("before feedback, for the paraphrase: clarinet %v, violin %v; the fixture wants violin above clarinet", clarinetBefore, violinBefore)
	}

	res, err := recon.Reconsolidate(ctx, space, resQ.TraceID, reconsolidation.Request{
		Feedback: &realm.Feedback{UsefulNodeIDs: []string{id("clarinet")}, MisleadingNodeIDs: []string{id("violin")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var labels []realm.NodeLabel
	for _, e := range res.Edits {
		if e.Action != realm.EditAdd {
			continue
		}
		edges, err := s.InducedEdges(ctx, space, []string{e.From, e.To})
		if err != nil {
			t.Fatal(err)
		}
		for _, edge := range edges {
			if edge.ID == e.EdgeID {
				if edge.Query != q || edge.Description != q {
					t.Errorf("learned link %+v: want it to carry the query %q", edge, q)
				}
				labels = append(labels, edge.Label)
			}
		}
	}
	if !slices.Contains(labels, realm.KeyEvidence) || !slices.Contains(labels, realm.Misleading) {
		t.Fatalf("learned links labelled %v; edits %+v", labels, res.Edits)
	}

	paraAfter := recall(paraphrase)
	clarinetAfter, violinAfter := placeOf(paraAfter, id("clarinet")), placeOf(paraAfter, id("violin"))
	t.Logf("paraphrase: clarinet %v → %v; violin %v → %v", clarinetBefore, clarinetAfter, violinBefore, violinAfter)
	if clarinetAfter.rank == 0 || clarinetAfter.rank >= clarinetBefore.rank || clarinetAfter.score <= clarinetBefore.score {
		t.Errorf("useful clarinet for the paraphrase: %v after feedback, %v before; want higher", clarinetAfter, clarinetBefore)
	}
	if violinAfter.rank != 0 && (violinAfter.rank <= violinBefore.rank || violinAfter.score >= violinBefore.score) {
		t.Errorf("misleading violin for the paraphrase: %v after feedback, %v before; want lower", violinAfter, violinBefore)
	}
	tr, err := s.Trace(ctx, space, paraAfter.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Learned) == 0 {
		t.Error("the paraphrase's trace records no learned link")
	}

	// The anti-lock-in decay (REALM.md §4): with a half-life of 3.6 µs, the links learned
	// at least a millisecond ago act with a weight below 2^-277, which moves no score.
	decayed := retrieval.DefaultOptions()
	decayed.LearnedHalfLife = 1e-9
	paraDecayed, err := retrieval.New(s, emb, offline.New(offline.Options{}), decayed, zerolog.Nop()).
		Recall(ctx, space, realm.RecallRequest{Query: paraphrase})
	if err != nil {
		t.Fatal(err)
	}
	if !sameRanking(paraDecayed, paraBefore) {
		t.Errorf("with the links decayed the paraphrase ranks %v, before the feedback %v", ranking(paraDecayed), ranking(paraBefore))
	}

	unrelatedAfter := recall(unrelated)
	if a, b := placeOf(unrelatedAfter, id("violin")), placeOf(unrelatedBefore, id("violin")); a != b || b.rank == 0 {
		t.Errorf("violin for an unrelated question: %v after feedback, %v before; want it put", a, b)
	}

	if _, err := recon.Revert(ctx, space, res.ReconsolidationID); err != nil {
		t.Fatal(err)
	}
	reverted := recall(paraphrase)
	if !sameRanking(reverted, paraBefore) {
		t.Errorf("after the revert the paraphrase ranks %v, before the feedback %v", ranking(reverted), ranking(paraBefore))
	}
}

type rankedNode struct {
	id    string
	score float64
	depth int
}

func ranking(res realm.RecallResult) []rankedNode {
	out := make([]rankedNode, len(res.Nodes))
	for i, n := range res.Nodes {
		out[i] = rankedNode{n.Node.ID, n.Score, n.Depth}
	}
	return out
}

// sameRanking: the same nodes in the same order with scores of the same bits.
func sameRanking(a, b realm.RecallResult) bool { return slices.Equal(ranking(a), ranking(b)) }

// TestLearnedLinkNotWalked: a learned link is a label for its query, not a path for every
// query. Q finds tea (0.6) and garden (0.8); the client marks both useful, which links
// them (correlates, carrying Q). U, far from Q (cosine 0), finds tea alone (0.8): garden,
// orthogonal to U, is no seed. With LearnedWalk 0 (the default) U's recall does not reach
// garden over the link; with 1 expansion crosses it like any edge and brings garden in.
func TestLearnedLinkNotWalked(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	const (
		q = "What does Nora grow at home?"
		u = "Which drink did Omar order?"
	)
	emb := loopEmbedder{q: loopAxes(0, 1), u: loopAxes(5, 1)}
	space := loopGraph(t, s, []loopNode{
		{"tea", realm.Fact, "Green leaves steeped in a pot", loopAxes(0, 0.6, 5, 0.8), ""},
		{"garden", realm.Fact, "Tomatoes ripen by the window", loopAxes(0, 0.8, 6, 0.6), ""},
	}, nil)
	id := func(name string) string { return space + ":" + name }
	recaller := func(walk float64) *retrieval.Retriever {
		o := retrieval.DefaultOptions()
		o.LearnedWalk = walk
		return retrieval.New(s, emb, offline.New(offline.Options{}), o, zerolog.Nop())
	}
	recall := func(r *retrieval.Retriever, query string) realm.RecallResult {
		t.Helper()
		return recallIn(t, r, space, query)
	}
	resQ := recall(recaller(0), q)
	if placeOf(resQ, id("tea")).rank == 0 || placeOf(resQ, id("garden")).rank == 0 {
		t.Fatalf("Q recalled %v; the fixture wants tea and garden", ranking(resQ))
	}
	if p := placeOf(recall(recaller(1), u), id("garden")); p.rank != 0 {
		t.Fatalf("before any feedback U recalls garden (%v); the fixture wants it out of reach", p)
	}
	recon := reconsolidation.New(s, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), zerolog.Nop())
	if _, err := recon.Reconsolidate(ctx, space, resQ.TraceID, reconsolidation.Request{
		Feedback: &realm.Feedback{UsefulNodeIDs: []string{id("tea"), id("garden")}},
	}); err != nil {
		t.Fatal(err)
	}
	if p := placeOf(recall(recaller(0), u), id("garden")); p.rank != 0 {
		t.Errorf("U, far from Q, recalls garden over the learned link (%v) with LearnedWalk 0", p)
	}
	if p := placeOf(recall(recaller(1), u), id("garden")); p.rank == 0 || p.depth != 1 {
		t.Errorf("with LearnedWalk 1, U does not reach garden over the learned link: %v", p)
	}

	// Once the sweep has erased Q with its trace, the link is still a label, not a path,
	// and feedback on a later recall of Q confirms it (a strengthen) as it would with the text.
	t.Run("QueryErased", func(t *testing.T) {
		cfg := cyphertest.Config()
		cfg.TraceRetention = 720 * time.Hour
		retaining, err := cypher.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { retaining.Close(context.WithoutCancel(ctx)) })
		if _, err := retaining.ExpireTraces(ctx, time.Now().Add(721*time.Hour), recaller(0).QueryVectors); err != nil {
			t.Fatal(err)
		}
		links, err := s.LearnedLinks(ctx, space, []string{id("garden")})
		if err != nil || len(links) != 2 || !links[0].Edge.QueryErased || !links[1].Edge.QueryErased {
			t.Fatalf("learned links after the sweep: %+v (%v), want the two of the correlates link, their query erased", links, err)
		}
		if p := placeOf(recall(recaller(0), u), id("garden")); p.rank != 0 {
			t.Errorf("U recalls garden over the link whose query was erased (%v) with LearnedWalk 0", p)
		}
		again, err := recon.Reconsolidate(ctx, space, recall(recaller(0), q).TraceID, reconsolidation.Request{
			Feedback: &realm.Feedback{UsefulNodeIDs: []string{id("tea"), id("garden")}},
		})
		if err != nil {
			t.Fatal(err)
		}
		confirmed := 0
		for _, e := range again.Edits {
			if e.Action == realm.EditStrengthen && (e.EdgeID == links[0].Edge.ID || e.EdgeID == links[1].Edge.ID) {
				confirmed++
			}
		}
		if confirmed != 2 {
			t.Errorf("feedback confirming the link whose query was erased: edits %+v, want it strengthened both ways", again.Edits)
		}
	})
}

// TestFeedbackLeavesOtherQueries: feedback on a node reached by expansion acts through
// the learned links only, never through the ordinary edge that led there. Q and U, two
// questions far apart (cosine 0), both seed on hub and reach answer over hub→answer
// (correlates 0.5): answer is too faint to be a seed of either (similarity 0.3, a seed
// score of 0.18 under the threshold 0.2). The client marks answer useful on Q's recall.
// The auditor would strengthen hub→answer (the path from a seed to key evidence), which
// every later query crossing it would feel, U included. So: for P, a paraphrase of Q,
// answer scores higher; for U every node keeps its rank and score to the bit; no edit
// touches an edge that carries no query; the revert gives P its ranking back.
func TestFeedbackLeavesOtherQueries(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	const (
		q          = "What instrument does Melanie play?"
		paraphrase = "Which instrument is Melanie playing?"
		unrelated  = "Where did Caroline travel in June?"
	)
	emb := loopEmbedder{
		q:          loopAxes(0, 1),
		paraphrase: loopAxes(0, 0.9, 1, 0.43589),
		unrelated:  loopAxes(5, 1),
	}
	space := loopGraph(t, s, []loopNode{
		{"hub", realm.Fact, "Mel and Caro talk most evenings", loopAxes(0, 0.6, 5, 0.6, 3, 0.52915), ""},
		{"decoy", realm.Fact, "A parcel arrived on Tuesday", loopAxes(0, 0.4, 5, 0.4, 8, 0.82462), ""},
		{"answer", realm.Fact, "Mel has practised the clarinet since school", loopAxes(0, 0.3, 5, 0.3, 6, 0.90554), ""},
	}, []loopEdge{{"hub", "answer", realm.Correlates, 0.5}})
	id := func(name string) string { return space + ":" + name }
	recall, recon := loopRig(t, s, emb, space)

	resQ := recall(q)
	paraBefore, unrelatedBefore := recall(paraphrase), recall(unrelated)
	for name, res := range map[string]realm.RecallResult{"Q": resQ, "U": unrelatedBefore} {
		if p := placeOf(res, id("answer")); p.rank == 0 || p.depth != 1 {
			t.Fatalf("%s recalls answer %v; the fixture wants it reached at depth 1", name, p)
		}
	}

	res, err := recon.Reconsolidate(ctx, space, resQ.TraceID, reconsolidation.Request{
		Feedback: &realm.Feedback{UsefulNodeIDs: []string{id("answer")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	learned := map[string]bool{}
	for _, e := range res.Edits {
		if e.Action == realm.EditAdd {
			learned[e.EdgeID] = true
		}
	}
	for _, e := range res.Edits {
		if !learned[e.EdgeID] {
			t.Errorf("feedback edited an edge that carries no query: %+v", e)
		}
	}

	paraAfter := recall(paraphrase)
	before, after := placeOf(paraBefore, id("answer")), placeOf(paraAfter, id("answer"))
	t.Logf("paraphrase: answer %v → %v", before, after)
	if after.rank == 0 || after.score <= before.score || after.rank > before.rank {
		t.Errorf("useful answer for the paraphrase: %v after feedback, %v before; want higher", after, before)
	}
	if unrelatedAfter := recall(unrelated); !sameRanking(unrelatedAfter, unrelatedBefore) {
		t.Errorf("the unrelated question ranks %v after feedback, %v before; want it unchanged", ranking(unrelatedAfter), ranking(unrelatedBefore))
	}

	if _, err := recon.Revert(ctx, space, res.ReconsolidationID); err != nil {
		t.Fatal(err)
	}
	if reverted := recall(paraphrase); !sameRanking(reverted, paraBefore) {
		t.Errorf("after the revert the paraphrase ranks %v, before the feedback %v", ranking(reverted), ranking(paraBefore))
	}
}

// TestLearnedNearest: with LearnedNearest, only the links of the earlier query closest to
// this one act. Two questions, A and B, each had a node confirmed useful (a and b); P is
// close to both (cosine 0.8 with A, 0.6 with B). Each feedback links its node from hub,
// which all three questions find. By default both links act on P; with LearnedNearest 1
// only A's does, and b scores as it did before any feedback.
func TestLearnedNearest(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	const (
		qa = "What instrument does Melanie play?"
		qb = "Which concerts did Melanie attend?"
		p  = "Does Melanie play in a band?"
	)
	emb := loopEmbedder{qa: loopAxes(0, 1), qb: loopAxes(1, 1), p: loopAxes(0, 0.8, 1, 0.6)}
	space := loopGraph(t, s, []loopNode{
		{"a", realm.Fact, "Mel has practised the clarinet since school", loopAxes(0, 0.6, 2, 0.8), ""},
		{"b", realm.Event, "Mel heard a symphony downtown", loopAxes(1, 0.6, 3, 0.8), "2023-05-01"},
		{"hub", realm.Fact, "Mel and Caro talk most evenings", loopAxes(0, 0.5, 1, 0.5, 4, 0.70711), ""},
	}, nil)
	id := func(name string) string { return space + ":" + name }
	recaller := func(nearest float64) *retrieval.Retriever {
		o := retrieval.DefaultOptions()
		o.LearnedClose = 0.5 // P's cosines with A and B: 0.8 and 0.6
		o.LearnedNearest = nearest
		return retrieval.New(s, emb, offline.New(offline.Options{}), o, zerolog.Nop())
	}
	recall := func(r *retrieval.Retriever, query string) realm.RecallResult {
		t.Helper()
		return recallIn(t, r, space, query)
	}
	before := placeOf(recall(recaller(0), p), id("b"))
	recon := reconsolidation.New(s, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), zerolog.Nop())
	for q, useful := range map[string]string{qa: "a", qb: "b"} {
		res := recall(recaller(0), q)
		if _, err := recon.Reconsolidate(ctx, space, res.TraceID, reconsolidation.Request{
			Feedback: &realm.Feedback{UsefulNodeIDs: []string{id(useful)}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	links, err := s.LearnedLinks(ctx, space, []string{id("a"), id("b")})
	if err != nil {
		t.Fatal(err)
	}
	queryOf := map[string]string{} // the learned links' queries, by edge: a trace names the links only
	for _, l := range links {
		queryOf[l.Edge.ID] = l.Edge.Query
	}
	queries := func(res realm.RecallResult) map[string]bool {
		t.Helper()
		tr, err := s.Trace(ctx, space, res.TraceID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, l := range tr.Learned {
			out[queryOf[l.EdgeID]] = true
		}
		return out
	}
	if got := queries(recall(recaller(0), p)); !got[qa] || !got[qb] {
		t.Errorf("by default the links that acted on P carry %v, want both A's and B's", got)
	}
	res := recall(recaller(1), p)
	if got := queries(res); !got[qa] || got[qb] {
		t.Errorf("with LearnedNearest the links that acted on P carry %v, want A's alone", got)
	}
	if after := placeOf(res, id("b")); after.rank == 0 || after.score != before.score || after.depth != before.depth {
		t.Errorf("with LearnedNearest b is %v for P, before any feedback %v", after, before)
	}
}

// loopRig is a loop test's recall of space and its reconsolidator, both with default settings.
func loopRig(t *testing.T, s *cypher.Store, emb loopEmbedder, space string) (func(string) realm.RecallResult, *reconsolidation.Reconsolidator) {
	rec := retrieval.New(s, emb, offline.New(offline.Options{}), retrieval.Options{}, zerolog.Nop())
	recon := reconsolidation.New(s, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), zerolog.Nop())
	return func(query string) realm.RecallResult { t.Helper(); return recallIn(t, rec, space, query) }, recon
}

// recallIn is r's recall of query in space.
func recallIn(t *testing.T, r *retrieval.Retriever, space, query string) realm.RecallResult {
	t.Helper()
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLearnedRelevance: Q finds a (0.8) and b (0.7); the client marks both useful, which
// links them (correlates, carrying Q). P is close to Q (cosine 0.8); a is as relevant to P
// as to Q (1.0 against 0.8), b less (0.56 against 0.7: a ratio of 0.8). By default the
// links lift both for P; with LearnedRelevance 0.9 b keeps its score to the bit (P is on
// Q's topic but less about b than Q was) and a is still lifted.
func TestLearnedRelevance(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	const (
		q = "What instrument does Melanie play?"
		p = "Does Melanie play in a band?"
	)
	emb := loopEmbedder{q: loopAxes(0, 1), p: loopAxes(0, 0.8, 1, 0.6)}
	space := loopGraph(t, s, []loopNode{
		{"a", realm.Fact, "Mel has practised the clarinet since school", loopAxes(0, 0.8, 1, 0.6), ""},
		{"b", realm.Fact, "Mel keeps her reeds in a tin", loopAxes(0, 0.7, 2, 0.71414), ""},
	}, nil)
	id := func(name string) string { return space + ":" + name }
	recaller := func(relevance float64) *retrieval.Retriever {
		o := retrieval.DefaultOptions()
		o.LearnedRelevance = relevance
		return retrieval.New(s, emb, offline.New(offline.Options{}), o, zerolog.Nop())
	}
	before := recallIn(t, recaller(0), space, p)
	a0, b0 := placeOf(before, id("a")), placeOf(before, id("b"))
	if a0.rank == 0 || b0.rank == 0 {
		t.Fatalf("before feedback P finds a %v, b %v; the fixture wants both", a0, b0)
	}
	recon := reconsolidation.New(s, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), zerolog.Nop())
	if _, err := recon.Reconsolidate(ctx, space, recallIn(t, recaller(0), space, q).TraceID, reconsolidation.Request{
		Feedback: &realm.Feedback{UsefulNodeIDs: []string{id("a"), id("b")}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		relevance float64
		liftsB    bool
	}{{0, true}, {0.9, false}} {
		after := recallIn(t, recaller(c.relevance), space, p)
		a, b := placeOf(after, id("a")), placeOf(after, id("b"))
		t.Logf("LearnedRelevance %g: a %v → %v, b %v → %v", c.relevance, a0, a, b0, b)
		if a.score <= a0.score {
			t.Errorf("LearnedRelevance %g: a %v for P, before feedback %v; want it lifted", c.relevance, a, a0)
		}
		if c.liftsB && b.score <= b0.score || !c.liftsB && b.score != b0.score {
			t.Errorf("LearnedRelevance %g: b %v for P, before feedback %v; want lifted %v", c.relevance, b, b0, c.liftsB)
		}
	}
}

// TestLearnedMismatch: Q finds a and b; the client marks a useful, which links it from b
// (carrying Q). U and W are far from Q (cosine 0) and both find a; U shares no word with
// a's content, W names the clarinet. By default a scores for U and W as before the
// feedback; with LearnedMismatch 0.5 a's score for U is halved (it is Q's answer, not U's)
// and for W it stays to the bit; the revert gives U its ranking back.
func TestLearnedMismatch(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	const (
		q = "What instrument does Melanie play?"
		u = "Where did Melanie travel in June?"
		w = "When did Melanie buy a new clarinet?"
	)
	emb := loopEmbedder{q: loopAxes(0, 1), u: loopAxes(5, 1), w: loopAxes(5, 1)}
	space := loopGraph(t, s, []loopNode{
		{"a", realm.Fact, "Mel has practised the clarinet since school", loopAxes(0, 0.6, 5, 0.6, 2, 0.52915), ""},
		{"b", realm.Fact, "Mel keeps her reeds in a tin", loopAxes(0, 0.5, 3, 0.86603), ""},
	}, nil)
	id := func(name string) string { return space + ":" + name }
	recaller := func(mismatch float64) *retrieval.Retriever {
		o := retrieval.DefaultOptions()
		o.LearnedMismatch = mismatch
		return retrieval.New(s, emb, offline.New(offline.Options{}), o, zerolog.Nop())
	}
	before := map[string]realm.RecallResult{u: recallIn(t, recaller(0.5), space, u), w: recallIn(t, recaller(0.5), space, w)}
	for query, res := range before {
		if placeOf(res, id("a")).rank == 0 {
			t.Fatalf("before feedback %q does not find a; the fixture wants it", query)
		}
	}
	recon := reconsolidation.New(s, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), zerolog.Nop())
	res, err := recon.Reconsolidate(ctx, space, recallIn(t, recaller(0), space, q).TraceID, reconsolidation.Request{
		Feedback: &realm.Feedback{UsefulNodeIDs: []string{id("a")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mismatch float64
		query    string
		factor   float64
	}{{0, u, 1}, {0, w, 1}, {0.5, u, 0.5}, {0.5, w, 1}} {
		a0, a := placeOf(before[c.query], id("a")), placeOf(recallIn(t, recaller(c.mismatch), space, c.query), id("a"))
		t.Logf("LearnedMismatch %g, %q: a %v → %v", c.mismatch, c.query, a0, a)
		if a.rank == 0 || a.score != a0.score*c.factor {
			t.Errorf("LearnedMismatch %g, %q: a %v after feedback, %v before; want its score times %g", c.mismatch, c.query, a, a0, c.factor)
		}
	}
	if _, err := recon.Revert(ctx, space, res.ReconsolidationID); err != nil {
		t.Fatal(err)
	}
	if reverted := recallIn(t, recaller(0.5), space, u); !sameRanking(reverted, before[u]) {
		t.Errorf("after the revert U ranks %v, before the feedback %v", ranking(reverted), ranking(before[u]))
	}
}
