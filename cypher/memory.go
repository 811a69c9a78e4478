package cypher

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// ExactScanMax is the space size up to which the similarity search scans the space
// exactly instead of asking the vector index. An exact scan of a few thousand
// 384-d vectors takes milliseconds and is exact and tenant-safe (the write path's runs in
// Go, vectors.go); the 5.26 vector index cannot pre-filter by space, so above this size
// we over-fetch from it (2026.x filters inside the index: nearestAhead).
const ExactScanMax = 5000

// writeScanMax is ExactScanMax for the write path. A variable so that tests can shrink it.
var writeScanMax int64 = ExactScanMax

// heldScanMax: the write path also scans in Go a space of up to heldScanMax memories
// whose embeddings this process holds (read in the background the first time, then kept
// current by its writes: vectorCache.refresh), exactly, and searches the vector index
// while it does not hold them. The scan (internal/vec, in float32, the few cosines that
// could change its top k again to the bit) costs about 0.15 ms of CPU a candidate at
// 10,000 memories (an observation has about eight) and grows with the space. A variable
// so that tests can shrink it.
var heldScanMax int64 = 10_000

// heldSearchMax: above heldScanMax and up to heldSearchMax memories, the write path
// searches the embeddings it holds approximately, in lists (ivf.go), about 4,000
// memories a candidate: measured (docs/benchmarks/scale.md), ingestion in batches of
// 100 at 30,000 memories 78 → 112 observations/s against the exact scan, and at 100,000
// 48–66 → 90–121 against Neo4j's filtered vector search (about 1 ms an embedding there),
// which also found fewer of the exact nearest. Above heldSearchMax, the vector index. A
// variable so that tests can shrink it.
var heldSearchMax int64 = 150_000

// heldReadMax is the largest space whose embeddings the write path starts to read: a fifth
// below heldSearchMax, so that a space about to outgrow the search is not read for nothing
// (a read costs both processes about a second of CPU a 10,000 memories).
func heldReadMax() int64 { return heldSearchMax - heldSearchMax/5 }

// vectorOverFetch multiplies k when the vector index is asked: it returns nodes of every
// space, and only this space's count.
const vectorOverFetch = 20

// A full-text query of a space (its clause matches its memories only: spaceClause) costs
// what reading its hits does (45k for three common words on a 100k-memory space), so it
// is asked for the index's best fullTextFetch(k) hits, which the statement then scores
// from the space's own statistics and filters by type and time: the index's order is
// not that score's, so k are kept from 50·k; the floor of 500 costs about what 50 does (64 ms against 370–520 ms unlimited, measured in
// docs/benchmarks/scale.md). When the fetch was truncated and fewer than k of the space
// remain (or the space holds at most keywordFetch memories: its in-memory keyword index
// reads every match, and the statement must give the same), the query runs again
// without a limit. Variables so that tests can shrink them.
var (
	fullTextOverFetch = 50
	fullTextFetchMin  = 500
)

// fullTextFetch is how many hits the full-text index is asked for k of one space.
func fullTextFetch(k int) int { return max(fullTextOverFetch*k, fullTextFetchMin) }

// fullTextOptions is the index's options map: {limit: fetch}, or {} (every hit) for
// fetch <= 0.
func fullTextOptions(fetch int) map[string]any {
	if fetch <= 0 {
		return map[string]any{}
	}
	return map[string]any{"limit": int64(fetch)}
}

// NeighbourQuery asks for the neighbourhood N(x) = N_sim(x) ∪ N_recent(x) of the
// candidates of one observation (REALM.md §2 step 3).
type NeighbourQuery struct {
	Space      string
	Embeddings [][]float32 // one per candidate
	Texts      []string    // one per candidate: matched against the full-text index
	K          int         // similar nodes per candidate, from the vector and from the keyword search each
	Recent     int         // N_recent: memories derived from this many last observations
	BeforeSeq  int64       // the observation's seq: "recent" means before it
	Slots      []string    // one per candidate, or none: the slot it states a value of (slotHolders)
}

// CandidateNeighbour is a memory near a candidate, with its embedding so the caller can compute
// cosine similarities, and why it is there.
type CandidateNeighbour struct {
	Node    realm.Node
	Similar bool // found by the vector or the keyword search
	Recent  bool // derived from one of the last observations
}

// Neighbourhoods returns, per candidate, its similar memories (vector top-k ∪ full-text
// top-k) and the memories derived from the recent observations, deduplicated and tagged.
// Every node is of q.Space. Errors: EUnavailable.
func (s *Store) Neighbourhoods(ctx context.Context, q NeighbourQuery) ([][]CandidateNeighbour, error) {
	var out [][]CandidateNeighbour
	ahead := s.nearestAhead(ctx, q.Space, q.Embeddings, q.K, s.knownState(q.Space))
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		var err error
		out, _, err = s.neighbourhoods(ctx, tx, q, ahead)
		return nil, err
	})
	return out, err
}

// Episodes are the stored episodes new memories are linked to (episodes.cypher).
type Episodes struct {
	Before []*realm.Node // per time asked for, the episode that starts last among those ending before it, or nil
	Named  []*realm.Node // per name asked for, the episode of that name (a session's), or nil
}

// Episodes returns, for each time of times, the space's episode that starts last among
// those that end before it (a new session's predecessor), and for each name of names
// the space's episode of that name (a session's episode); nil where there is none.
func (s *Store) Episodes(ctx context.Context, space string, times []time.Time, names []string) (Episodes, error) {
	var out Episodes
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		var err error
		out, err = episodes(ctx, tx, space, times, names)
		return nil, err
	})
	return out, err
}

// episodes is Store.Episodes inside tx.
func episodes(ctx context.Context, tx neo4j.ManagedTransaction, space string, times []time.Time, names []string) (Episodes, error) {
	out := Episodes{Before: make([]*realm.Node, len(times)), Named: make([]*realm.Node, len(names))}
	if len(times) == 0 && len(names) == 0 {
		return out, nil
	}
	utc := make([]time.Time, len(times))
	for i, t := range times {
		utc[i] = t.UTC()
	}
	recs, err := collect(ctx, tx, qEpisodes, map[string]any{"space": space, "times": utc, "names": names})
	if err != nil {
		return out, err
	}
	for _, r := range recs {
		n := nodeOf(mapOf(r, "m"))
		if str(r, "kind") == "before" {
			out.Before[num(r, "i")] = &n
		} else {
			out.Named[num(r, "i")] = &n
		}
	}
	return out, nil
}

// neighbourhoods also returns the space's state they were read in.
// ahead is nearestAhead's answer, or nil.
func (s *Store) neighbourhoods(ctx context.Context, tx neo4j.ManagedTransaction, q NeighbourQuery, ahead [][]realm.Node) ([][]CandidateNeighbour, SpaceState, error) {
	out := make([][]CandidateNeighbour, len(q.Embeddings))
	if len(q.Embeddings) == 0 {
		return out, SpaceState{}, nil
	}
	state, _, stats, err := s.keywordContext(ctx, tx, q.Space, q.Texts, nil)
	if err != nil || state.N == 0 {
		return out, state, err
	}
	var recent []realm.Node
	if q.Recent > 0 {
		recs, err := collect(ctx, tx, qMemoryRecent, map[string]any{"space": q.Space, "before": q.BeforeSeq, "n": q.Recent})
		if err != nil {
			return nil, state, err
		}
		for _, r := range recs {
			recent = append(recent, nodeOf(mapOf(r, "m")))
		}
	}
	similar, text, err := s.similarAndKeywordNodes(ctx, tx, q.Space, q.Embeddings, q.Texts, q.K, state, stats, ahead)
	if err != nil {
		return nil, state, err
	}
	holders, err := slotHolders(ctx, tx, q.Space, q.Slots, q.K)
	if err != nil {
		return nil, state, err
	}
	for i := range q.Embeddings {
		byID := map[string]int{}
		var hood []CandidateNeighbour
		add := func(n realm.Node, similar, recent bool) {
			if j, ok := byID[n.ID]; ok {
				hood[j].Similar = hood[j].Similar || similar
				hood[j].Recent = hood[j].Recent || recent
				return
			}
			byID[n.ID] = len(hood)
			hood = append(hood, CandidateNeighbour{Node: n, Similar: similar, Recent: recent})
		}
		for _, n := range similar[i] {
			add(n, true, false)
		}
		if i < len(text) {
			for _, n := range text[i][:min(q.K, len(text[i]))] {
				add(n, true, false)
			}
		}
		if i < len(holders) {
			for _, n := range holders[i] {
				add(n, true, false)
			}
		}
		for _, n := range recent {
			add(n, false, true)
		}
		out[i] = hood
	}
	return out, state, nil
}

// slotHolders reads, per slot of slots (a candidate's subject and slot, "Nora lives in";
// "" for none), the space's current events and facts that say it, at most k
// (memory_slot_holders.cypher): the values a change of the slot supersedes, which the
// similar memories miss in a space where many more mention the old value ("had lunch in
// Lisbon today") than hold it. A slot is matched as a phrase, its words in order within a
// few positions ("Nora has lived in"); one of fewer than two indexed words (no stop
// words) would match most of the space, and is not looked up.
func slotHolders(ctx context.Context, tx neo4j.ManagedTransaction, space string, slots []string, k int) ([][]realm.Node, error) {
	out := make([][]realm.Node, len(slots))
	var rows []map[string]any
	for i, slot := range slots {
		ts := tokens(strings.ToLower(slot))
		indexed := 0
		for _, t := range ts {
			if indexTerm(t) != "" {
				indexed++
			}
		}
		if indexed < 2 || len(ts) > maxLuceneTerms {
			continue
		}
		rows = append(rows, map[string]any{"i": i, "lucene": spaceClause(space) + `+content:"` + EscapeLucene(strings.Join(ts, " ")) + `"~3`})
	}
	if len(rows) == 0 || k <= 0 {
		return out, nil
	}
	recs, err := collect(ctx, tx, qMemorySlotHolders, map[string]any{"space": space, "slots": rows, "k": k, "fetch": slotHoldersFetch * k})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		i := num(r, "i")
		v, _ := r.Get("nodes")
		for _, p := range asList(v) {
			if m, ok := p.(map[string]any); ok {
				out[i] = append(out[i], nodeOf(m))
			}
		}
	}
	return out, nil
}

// slotHoldersFetch bounds the matches of a slot read from the index, per holder kept: a
// slot's phrase matches the memories that held it before (superseded) too.
const slotHoldersFetch = 4

// similarAndKeywordNodes is N_sim per candidate: by vector (similarIDs, with ahead) and
// by keywords (the k+keywordSlack best of each text by RankKeywords, from stats read by
// keywordContext), the memories read in one statement.
func (s *Store) similarAndKeywordNodes(ctx context.Context, tx neo4j.ManagedTransaction, space string, embs [][]float32, texts []string, k int, state SpaceState, stats KeywordStats, ahead [][]realm.Node) (vector, text [][]realm.Node, err error) {
	if k <= 0 {
		return make([][]realm.Node, len(embs)), make([][]realm.Node, len(texts)), nil
	}
	vecIDs, nodes, err := s.similarIDs(ctx, tx, space, embs, k, state, ahead)
	if err != nil {
		return nil, nil, err
	}
	textIDs := make([][]string, len(texts))
	for i, t := range texts {
		textIDs[i] = RankKeywords(stats.N, KeywordWords(t), func(w string) []KeywordPosting { return stats.Words[w] }, k+keywordSlack)
	}
	var missing []string
	for _, id := range slices.Concat(slices.Concat(vecIDs...), slices.Concat(textIDs...)) {
		if _, ok := nodes[id]; !ok {
			missing = append(missing, id)
		}
	}
	read, err := nodesByIDs(ctx, tx, space, missing, s.vectors.cached(space, state))
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(nodes, read)
	return pickNodes(vecIDs, nodes), pickNodes(textIDs, nodes), nil
}

// pickNodes is ids with each id replaced by its node, those not in nodes left out.
func pickNodes(ids [][]string, nodes map[string]realm.Node) [][]realm.Node {
	out := make([][]realm.Node, len(ids))
	for i, list := range ids {
		for _, id := range list {
			if n, ok := nodes[id]; ok {
				out[i] = append(out[i], n)
			}
		}
	}
	return out
}

// similarIDs is N_sim by vector, per embedding, as ids best first, and the memories it
// read meanwhile: an exact scan in Go (vectors.go) of small spaces and of spaces up to
// heldScanMax whose embeddings this process holds (in lists above it, up to
// heldSearchMax: ivf.go), the vector index for the others (ahead, the filtered search
// run before the transaction, else an over-fetch of the index in it: one query for all
// embeddings), falling back to an exact scan in Cypher for the embeddings the index
// returns too few of this space's nodes for.
func (s *Store) similarIDs(ctx context.Context, tx neo4j.ManagedTransaction, space string, embs [][]float32, k int, state SpaceState, ahead [][]realm.Node) ([][]string, map[string]realm.Node, error) {
	out := make([][]string, len(embs))
	nodes := map[string]realm.Node{}
	asked := embedded(embs)
	if len(asked) == 0 {
		return out, nodes, nil
	}
	if state.N <= writeScanMax {
		vs, err := s.vectors.vectors(ctx, tx, space, state)
		if err != nil {
			return nil, nil, err
		}
		return vs.nearest(embs, k), nodes, nil
	}
	if state.N <= heldSearchMax {
		if vs := s.vectors.cached(space, state); vs != nil {
			return vs.nearest(embs, k), nodes, nil
		}
		if state.N <= heldReadMax() {
			s.vectors.refresh(s, space)
		}
	}
	params := func(idx []int) map[string]any { return nearestParams(space, embs, idx, k) }
	found := ahead
	if found == nil {
		p := params(asked)
		p["fetch"] = k * vectorOverFetch
		recs, err := collect(ctx, tx, qMemorySimilarIndex, p)
		if err != nil {
			return nil, nil, err
		}
		found = make([][]realm.Node, len(embs))
		for j, list := range groupByIndex(recs, len(asked)) {
			found[asked[j]] = list
		}
	}
	var exact []int
	for _, i := range asked {
		if len(found[i]) < k {
			exact = append(exact, i)
			continue
		}
		for _, n := range found[i] {
			out[i] = append(out[i], n.ID)
			nodes[n.ID] = n
		}
	}
	if len(exact) == 0 {
		return out, nodes, nil
	}
	recs, err := collect(ctx, tx, qMemorySimilarExact, params(exact))
	if err != nil || len(recs) == 0 {
		return out, nodes, err
	}
	v, _ := recs[0].Get("nodes")
	for _, item := range asList(v) {
		p, _ := item.(map[string]any)
		n := nodeOf(p)
		nodes[n.ID] = n
	}
	v, _ = recs[0].Get("lists")
	for _, item := range asList(v) {
		list, _ := item.(map[string]any)
		j, _ := list["i"].(int64)
		if j < 0 || int(j) >= len(exact) {
			continue
		}
		for _, b := range asList(list["best"]) {
			best, _ := b.(map[string]any)
			out[exact[j]] = append(out[exact[j]], propString(best, "id"))
		}
	}
	return out, nodes, nil
}

// embedded is the indexes of the embeddings of embs that are not empty: those to search.
func embedded(embs [][]float32) []int {
	var out []int
	for i, emb := range embs {
		if len(emb) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// nearestParams are the vector statements' parameters for the embeddings asked of embs.
func nearestParams(space string, embs [][]float32, asked []int, k int) map[string]any {
	vecs := make([][]float64, len(asked))
	for j, i := range asked {
		vecs[j] = vector64(embs[i])
	}
	return map[string]any{"space": space, "embeddings": vecs, "k": k}
}

// nearestAhead is, per embedding of embs (none for an empty one), the k nearest memories of
// a space in state by the vector index filtered by space inside it (Neo4j 2026.x,
// memory_similar_filtered.cypher), for a read transaction to take (similarIDs), or nil
// when the space is scanned in Go (small enough to read in the transaction, or its
// embeddings held for state) or the server does not filter. It runs before that
// transaction (searchFiltered, as SeedByVectorIndex), not inside it (a transaction
// waiting for a second connection could wait for the pool); after a failure the space's
// searches over-fetch in the transaction during filteredPause. The write path's reads
// under the space's lock never take it: they may not hang.
func (s *Store) nearestAhead(ctx context.Context, space string, embs [][]float32, k int, state SpaceState) [][]realm.Node {
	asked := embedded(embs)
	if state.N <= writeScanMax || state.N <= heldSearchMax && s.vectors.cached(space, state) != nil || k <= 0 || len(asked) == 0 || !s.filtered || s.pausedFiltered(space) {
		return nil
	}
	recs, err := s.searchFiltered(ctx, space, qMemorySimilarFiltered, nearestParams(space, embs, asked, k))
	if err != nil {
		return nil
	}
	out := make([][]realm.Node, len(embs))
	for j, list := range groupByIndex(recs, len(asked)) {
		out[asked[j]] = list
	}
	return out
}

// groupByIndex splits rows of (i, m, score) into n lists by i, each best score first
// (ties in the order the rows came). Rows with a null m are left out.
func groupByIndex(recs []*neo4j.Record, n int) [][]realm.Node {
	type scored struct {
		node  realm.Node
		score float64
	}
	groups := make([][]scored, n)
	for _, r := range recs {
		i := int(num(r, "i"))
		if m := mapOf(r, "m"); i < 0 || i >= n || m == nil {
			continue
		}
		score, _ := r.Get("score")
		f, _ := score.(float64)
		groups[i] = append(groups[i], scored{nodeOf(mapOf(r, "m")), f})
	}
	out := make([][]realm.Node, n)
	for i, g := range groups {
		sort.SliceStable(g, func(a, b int) bool { return g[a].score > g[b].score })
		for _, s := range g {
			out[i] = append(out[i], s.node)
		}
	}
	return out
}

// maxLuceneTerms bounds the words of a keyword search (spaceTerms) and the tokens of a
// Lucene query (LuceneText): Lucene refuses more than 1024 clauses, and the first words
// of a memory carry most of its subject.
const maxLuceneTerms = 64

// LuceneText turns free text into a Lucene query matching any of its first
// maxLuceneTerms tokens (a clause each in each of the index's four fields), lower-cased
// and escaped by EscapeLucene.
func LuceneText(text string) string {
	ts := tokens(strings.ToLower(text))
	return EscapeLucene(strings.Join(ts[:min(len(ts), maxLuceneTerms)], " "))
}

// Integration is everything one observation's integration writes (REALM.md §2 steps
// 4–5), applied in one transaction by ApplyIntegration.
type Integration struct {
	Adds    []realm.Node // complete nodes with ids, embeddings and timestamps; their provenance is the observation
	Merges  []Merge
	Skipped int // candidates skipped: what each said, a neighbour held already
	// Repeats are the memories that held what a skipped candidate said, each once: the
	// observation becomes one of their sources by provenance, as a merge's does, without
	// changing them, so that forgetting another message that said it keeps what this one
	// says, and the memory was said at this one's time too (learned_at, said filters).
	// Their sources list is left as it is: it names the messages that gave their content.
	Repeats []string
	Edges   []EdgeWrite   // between nodes of the space, including the ones added here
	Ends    []ValidityEnd // superseded memories whose validity ends (validity.go)
	Summary string        // the space's new running summary; "" keeps the old one
	// Forgotten is the space's forget count when the extraction this integration comes
	// from read the summary and the recent messages (Window.Forgotten). It is written only
	// when the space forgot no message since (else Applied.Forgot): that extraction may
	// quote the forgotten message, in a memory or in the summary.
	Forgotten int64
	// Usage is what the attempt that decided it spent on the LLM: added to the
	// observation's in the write that marks it integrated (JobResult.Usage).
	Usage realm.Usage
	// Saved is when the observation was stored (realm.Observation.Saved): gone from a
	// space created after it, it was erased with the space it was stored in (Applied.Erased),
	// not forgotten. Zero: gone is forgotten.
	Saved time.Time
}

// RepeatsKept bounds the observations a memory derives from as a repeat (Integration.Repeats):
// it keeps the first one said each day (UTC) and the last RepeatsKept-1, so that a reading
// sent every ten minutes for a week gives its memory 38 provenance edges, not a thousand,
// to read and to reintegrate when one of its messages is forgotten, and is said on every
// day it was sent (said filters). Those left out say nothing the kept ones do not; each
// lists the memory in its repeat_of and has an edge REPEAT_OF to it, and is integrated
// again when forgetting deletes it (DeleteObservation).
const RepeatsKept = 32

// Merge folds a candidate into an existing memory of the same space.
type Merge struct {
	ID        string
	Content   string    // the merged content; "" keeps the old one
	Embedding []float32 // the embedding of the merged name and content; nil keeps the old one
	Keywords  []string  // the complete new keyword list
	Name      string    // an entity's new name (the full name its first name opens: "Tom Becker" of "Tom"); "" keeps the old one
	Aliases   []string  // an entity's complete new alias list; nil keeps the old one
}

// Edge operations.
const (
	EdgeAdd    = "add"    // create, or update weight and description of the existing edge
	EdgeModify = "modify" // same write as add
	EdgeDelete = "delete"
)

// EdgeWrite is one relate operation. Symmetric predicates are written both ways.
type EdgeWrite struct {
	Op          string
	From, To    string
	Predicate   realm.Predicate
	Weight      float64
	Confidence  float64
	Description string
}

// Applied is what ApplyIntegration did.
type Applied struct {
	// Applied is false when nothing was written: the observation was no longer pending
	// under the space lock (another worker integrated it), it was Gone, Forgot, or Changed.
	Applied bool
	// Gone is true when the observation is no longer stored: forgotten while it was
	// integrated (DeleteObservation).
	Gone bool
	// Erased is true when its space is no longer stored, or being erased (DeleteSpace),
	// or was erased and made anew since the observation was stored (Integration.Saved),
	// the observation with it: there is nothing to write into.
	Erased bool
	// Forgot is true when the space forgot another message since the extraction read its
	// context (Integration.Forgotten): the caller extracts again.
	Forgot bool
	Edges  []realm.Edge // edges written (both directions of a symmetric one); deleted ones are not listed
	// Changed is true when the neighbourhood read under the lock differs from the one
	// the integration was decided on; Neighbourhoods is the one read, to decide again on.
	Changed        bool
	Neighbourhoods [][]CandidateNeighbour
}

// ApplyIntegration writes one observation's integration, decided on the neighbourhood
// decided (read by Neighbourhoods with the same q), in ONE write transaction: it locks
// the space's node (serializing the writes of a space across processes), re-checks that
// the observation is still pending (so a concurrent or repeated integration writes
// nothing) and that the space forgot no message since the extraction (else Forgot: the
// caller extracts again), reads the neighbourhood q again under the lock and, when it is still the
// one decided on, writes the added nodes with provenance, the merges, the edges, the
// summary and the observation's integrated mark. When it changed (a concurrent
// observation added or merged a near-identical memory), it writes nothing and returns
// the new neighbourhood, so the caller decides again: no decision, and no model call,
// runs while the transaction is open. A crash at any point leaves the observation
// pending and nothing half-written.
// Errors: EInvalid (bad type, predicate or merge target), EUnavailable.
func (s *Store) ApplyIntegration(ctx context.Context, space, observationID string, q NeighbourQuery, decided [][]CandidateNeighbour, in Integration) (Applied, error) {
	defer s.graphs.writing(space)()
	var out Applied
	var written func(context.Context) // records the writes in the embeddings cache and the graph snapshot once committed (the transaction's context has ended)
	_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		out, written = Applied{}, nil
		now := time.Now().UTC()
		recs, err := collect(ctx, tx, qSpaceLock, map[string]any{"space": space, "id": observationID, "now": now})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			out.Erased = true // the space erased meanwhile (DeleteSpace): write nothing
			return nil, nil
		}
		switch status := str(recs[0], "status"); {
		case boolean(recs[0], "erasing"):
			out.Erased = true // the space being erased: its observations and memories go
			return nil, nil
		case status == "" && !in.Saved.IsZero() && timeOf(valueOf(recs[0], "created_at")).After(in.Saved):
			out.Erased = true // erased with its space, which another writer made anew since
			return nil, nil
		case status == "":
			out.Gone = true // deleted meanwhile (DeleteObservation): write nothing but what the attempt spent
			return nil, keepSpent(ctx, tx, qJobForgottenUsage, space, observationID, in.Usage, map[string]realm.Usage{observationID: in.Usage})
		case status != realm.ObservationPending:
			// integrated (or failed) meanwhile: write nothing but what the attempt spent
			return nil, keepSpent(ctx, tx, qObservationUsage, space, observationID, in.Usage, in.Usage)
		}
		if num(recs[0], "forgotten") != in.Forgotten {
			out.Forgot = true
			return nil, nil
		}
		q.Space = space
		hoods, state, err := s.neighbourhoods(ctx, tx, q, nil)
		if err != nil {
			return nil, err
		}
		if !SameNeighbourhoods(decided, hoods) {
			out = Applied{Changed: true, Neighbourhoods: hoods}
			return nil, nil
		}
		ins := []ObservationIntegration{{ObservationID: observationID, Generation: num(recs[0], "generation"), Integration: in}}
		edges, after, move, err := writeIntegrations(ctx, tx, space, ins, now, state)
		if err != nil {
			return nil, err
		}
		out = Applied{Applied: true, Edges: edges[0]}
		written = func(ctx context.Context) {
			s.vectors.written(space, state, after, ins)
			s.texts.written(space, state, after, ins, neighbourNodes(decided))
			s.followWrite(ctx, space, move)
		}
		return nil, nil
	})
	if err == nil && written != nil {
		written(ctx)
	}
	return out, err
}

// keepSpent records with q what an integration attempt that wrote nothing spent on the
// LLM, as one JSON text of record (the usage, or the usage by id of an observation
// forgotten), so that its job counts it (Job); nothing when it spent nothing (the offline
// agent).
func keepSpent(ctx context.Context, tx neo4j.ManagedTransaction, q query, space, id string, spent realm.Usage, record any) error {
	if len(spent) == 0 {
		return nil
	}
	doc, err := json.Marshal(record)
	if err != nil {
		return err
	}
	_, err = collect(ctx, tx, q, map[string]any{"space": space, "id": id, "usage": []string{string(doc)}})
	return err
}

// neighbourNodes is every memory of hoods, by id.
func neighbourNodes(hoods [][]CandidateNeighbour) map[string]realm.Node {
	out := map[string]realm.Node{}
	for _, hood := range hoods {
		for _, n := range hood {
			out[n.Node.ID] = n.Node
		}
	}
	return out
}

// SameNeighbourhoods reports whether a and b hold, per candidate, the same memories in
// the same state (last update) for the same reasons (similar, recent), in any order.
func SameNeighbourhoods(a, b [][]CandidateNeighbour) bool {
	if len(a) != len(b) {
		return false
	}
	type state struct {
		updated         time.Time
		similar, recent bool
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		seen := make(map[string]state, len(a[i]))
		for _, n := range a[i] {
			seen[n.Node.ID] = state{n.Node.UpdatedAt, n.Similar, n.Recent}
		}
		for _, n := range b[i] {
			st, ok := seen[n.Node.ID]
			if !ok || !st.updated.Equal(n.Node.UpdatedAt) || st.similar != n.Similar || st.recent != n.Recent {
				return false
			}
		}
	}
	return true
}

// ObservationIntegration is one observation's integration in a run (ApplyRun).
type ObservationIntegration struct {
	ObservationID string
	Generation    int64 // the observation's (realm.Observation.Generation)
	Integration
}

// writeIntegrations writes the integrations of a run of observations of one space, in
// order, in one statement whatever their number (integration_write.cypher): the added
// nodes, the merges, the edges, the validity ends, and the observations' marks with the
// last summary given. It returns the edges written per integration, the state of the
// space's memories it leaves, from before, the state its lock read, and its move of the
// space's graph version, for the snapshot to follow once committed (followWrite).
func writeIntegrations(ctx context.Context, tx neo4j.ManagedTransaction, space string, ins []ObservationIntegration, now time.Time, before SpaceState) ([][]realm.Edge, SpaceState, graphMove, error) {
	nodes, repeats, marks, ends, edgeRows := []map[string]any{}, []map[string]any{}, []map[string]any{}, []map[string]any{}, []map[string]any{}
	var merges mergeRows
	var edgeOf []realm.Edge // the edge each row of edgeRows writes
	var edgeOwner []int     // index in ins of each row of edgeRows
	summary := ""
	for k, in := range ins {
		// Each observation's memories are created a microsecond after the one's before it,
		// so that listing by creation keeps the order in which they were said.
		at := now.Add(time.Duration(k-len(ins)+1) * time.Microsecond)
		added, merged := []string{}, []string{}
		for _, n := range in.Adds {
			if !n.Type.Valid() {
				return nil, SpaceState{}, graphMove{}, realm.Errorf(realm.EInvalid, "memory type %q is not one of entity, event, episode, fact", n.Type)
			}
			nodes = append(nodes, map[string]any{"observation": in.ObservationID, "label": n.Type.Label(), "props": nodeProps(space, in.ObservationID, n, at)})
			added = append(added, n.ID)
		}
		for _, m := range in.Merges {
			merges = merges.add(in.ObservationID, m, at)
			merged = append(merged, m.ID)
		}
		for _, id := range in.Repeats {
			repeats = append(repeats, map[string]any{"observation": in.ObservationID, "id": id})
		}
		first := len(edgeRows)
		var err error
		if edgeRows, edgeOf, err = appendEdgeWrites(edgeRows, edgeOf, space, ObservationKey(in.ObservationID, in.Generation), in.Edges, now); err != nil {
			return nil, SpaceState{}, graphMove{}, err
		}
		for range edgeRows[first:] {
			edgeOwner = append(edgeOwner, k)
		}
		for _, e := range in.Ends {
			ends = append(ends, map[string]any{"id": e.ID, "valid_until": e.ValidUntil.UTC()})
		}
		if in.Summary != "" {
			summary = in.Summary
		}
		usage, err := usageRecord(in.Usage)
		if err != nil {
			return nil, SpaceState{}, graphMove{}, err
		}
		marks = append(marks, map[string]any{"id": in.ObservationID, "added": added, "merged": merged, "skipped": int64(in.Skipped),
			"superseded": supersededBy(in.Edges), "usage": usage})
	}
	recs, err := collect(ctx, tx, qIntegrationWrite, map[string]any{
		"space": space, "now": now, "sources_max": realm.SourcesMax, "repeats_kept": RepeatsKept, "w": map[string]any{
			"nodes": nodes, "merges": merges.rows(), "repeats": repeats, "edges": edgeRows, "ends": ends, "marks": marks, "summary": summary,
		},
	})
	if constraintViolated(err) {
		return nil, SpaceState{}, graphMove{}, ErrMemoryIDHeld
	}
	if err != nil || len(recs) == 0 {
		return nil, SpaceState{}, graphMove{}, err
	}
	r := recs[0]
	if num(r, "created") != int64(len(nodes)) {
		return nil, SpaceState{}, graphMove{}, realm.Errorf(realm.ENotFound, "an observation of the run is not in space %q", space)
	}
	done := map[[2]string]bool{}
	v, _ := r.Get("merged")
	for _, item := range asList(v) {
		m, _ := item.(map[string]any)
		done[[2]string{propString(m, "observation"), propString(m, "id")}] = true
	}
	for _, m := range merges {
		for _, o := range m.observations {
			if !done[[2]string{o, m.id}] {
				return nil, SpaceState{}, graphMove{}, realm.Errorf(realm.EInvalid, "merge target %q is not a memory of space %q", m.id, space)
			}
		}
	}
	edges := make([][]realm.Edge, len(ins))
	v, _ = r.Get("edges")
	for _, item := range asList(v) {
		m, _ := item.(map[string]any)
		i, _ := m["i"].(int64)
		e := edgeOf[i]
		// An edge written again keeps its id, initial weight and creation.
		e.ID, e.InitialWeight, e.CreatedAt = propString(m, "id"), propFloat(m, "initial_weight"), timeOf(m["created_at"])
		k := edgeOwner[i]
		edges[k] = append(edges[k], e)
	}
	move := graphMove{before: str(r, "graph_before"), after: str(r, "graph_after"), recalledOnly: true}
	move.ids, move.lean = touchedMemories(ins)
	move.merged = mergedObservations(ins)
	return edges, SpaceState{N: before.N + int64(len(nodes)), Version: str(r, "version")}, move, nil
}

// supersededBy are the memories the supersedes edges among edges end, once each: what
// the observation said a newer version of, kept on it for its job (Job.Results).
func supersededBy(edges []EdgeWrite) []string {
	out := []string{}
	for _, e := range edges {
		if e.Op != EdgeDelete && e.Predicate == realm.Supersedes && !slices.Contains(out, e.To) {
			out = append(out, e.To)
		}
	}
	return out
}

// mergeRows are the merges of a run, one row per memory merged into, so that Neo4j reads
// and rewrites a memory's sources once a run: a speaker's entity is merged into by most
// observations, and its sources list grows with every one (thousands of ids in a large
// space).
type mergeRows []*mergeRow

// mergeRow is what the merges of a run leave of one memory: the observations merged
// into it, in order, each once, and what the last merge that gave each property wrote
// (content, embedding, an entity's name and aliases when given, keywords and updated_at
// always).
type mergeRow struct {
	id           string
	observations []string
	set          map[string]any
}

// add is rows with the merge m of observation obs at time at.
func (rows mergeRows) add(obs string, m Merge, at time.Time) mergeRows {
	i := slices.IndexFunc(rows, func(r *mergeRow) bool { return r.id == m.ID })
	if i < 0 {
		rows = append(rows, &mergeRow{id: m.ID, set: map[string]any{}})
		i = len(rows) - 1
	}
	r := rows[i]
	if !slices.Contains(r.observations, obs) {
		r.observations = append(r.observations, obs)
	}
	if m.Content != "" {
		r.set["content"] = m.Content
	}
	if m.Embedding != nil {
		r.set["embedding"] = vector64(m.Embedding)
	}
	if m.Name != "" {
		r.set["name"] = m.Name
	}
	if m.Aliases != nil {
		r.set["aliases"] = m.Aliases
	}
	r.set["keywords"], r.set["updated_at"] = orEmpty(m.Keywords), at
	return rows
}

// rows is the parameter integration_write.cypher takes.
func (rows mergeRows) rows() []map[string]any {
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		out[i] = map[string]any{"id": r.id, "observations": r.observations, "set": r.set}
	}
	return out
}

// graphMove is a write's move of its space's graph version, from before to after, the
// memories it touched (added, changed, or whose edges it changed), those of them whose
// edges it left alone (lean: merged into or ended only) and those it deleted (followWrite).
type graphMove struct {
	before, after   string
	ids, lean, gone []string
	// merged: per memory merged into, the observations merged into it, in the order
	// integration_write.cypher appends them to its sources.
	merged map[string][]string
	// recalledOnly: followed only when a recall expanded from the snapshot since it was
	// read or last followed such a write (an ingestion's). Following costs a statement
	// (about 10 ms at 1,000 memories): an agent that recalls between its writes keeps its
	// snapshot, a bulk ingestion pays once and leaves it to be read again.
	recalledOnly bool
}

// mergedObservations is, per memory the integrations ins merge into, the observations
// that merge into it, in order.
func mergedObservations(ins []ObservationIntegration) map[string][]string {
	out := map[string][]string{}
	for _, in := range ins {
		for _, m := range in.Merges {
			out[m.ID] = append(out[m.ID], in.ObservationID)
		}
	}
	return out
}

// touchedMemories is every memory the integrations ins write: the ones they add, merge
// into and repeat (an earlier learned_at), the ends of their edges (written or deleted)
// and the memories whose validity they end; no other memory's snapshot row changes (its
// degree and edges are its own). lean are those merged into, repeated or ended only,
// whose edges did not change (provenance is not one).
func touchedMemories(ins []ObservationIntegration) (ids, lean []string) {
	edges := map[string]bool{} // added or an edge's end
	for _, in := range ins {
		for _, n := range in.Adds {
			ids = append(ids, n.ID)
			edges[n.ID] = true
		}
		for _, m := range in.Merges {
			ids = append(ids, m.ID)
		}
		ids = append(ids, in.Repeats...)
		for _, e := range in.Edges {
			ids = append(ids, e.From, e.To)
			edges[e.From], edges[e.To] = true, true
		}
		for _, e := range in.Ends {
			ids = append(ids, e.ID)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		if !edges[id] {
			lean = append(lean, id)
		}
	}
	return ids, lean
}

// appendEdgeWrites appends to rows integration_write's edge rows for the relate ops of
// observation's integration, in order, both ways for a symmetric predicate (REALM.md §1),
// and to edges the edge each row writes, its ID the one a row that creates the edge gives
// it (edgeID; an existing edge keeps its own). An edge with an end that is not a memory
// of the space (deleted meanwhile) writes nothing.
func appendEdgeWrites(rows []map[string]any, edges []realm.Edge, space, observation string, ops []EdgeWrite, now time.Time) ([]map[string]any, []realm.Edge, error) {
	first := len(rows)
	for _, e := range ops {
		if !e.Predicate.Valid() {
			return nil, nil, realm.Errorf(realm.EInvalid, "predicate %q is not one of the fifteen", e.Predicate)
		}
		pairs := [][2]string{{e.From, e.To}}
		if e.Predicate.Symmetric() {
			pairs = append(pairs, [2]string{e.To, e.From})
		}
		for _, p := range pairs {
			edge := realm.Edge{
				ID: edgeID(space, observation, len(rows)-first), From: p[0], To: p[1], Predicate: e.Predicate,
				Layer: e.Predicate.Layer(), Description: e.Description,
				Weight: clampWeight(e.Weight), Confidence: clampWeight(e.Confidence), UpdatedAt: now,
			}
			rows = append(rows, map[string]any{
				"i": int64(len(rows)), "id": edge.ID, "delete": e.Op == EdgeDelete, "from": edge.From, "to": edge.To,
				"type": edge.Predicate.RelType(), "layer": edge.Layer, "description": edge.Description,
				"weight": edge.Weight, "confidence": edge.Confidence,
			})
			edges = append(edges, edge)
		}
	}
	return rows, edges, nil
}

// nodeProps are the stored properties of a new node; nulls are left out by SET m = $props.
func nodeProps(space, obsID string, n realm.Node, now time.Time) map[string]any {
	sources := n.Sources
	if len(sources) == 0 {
		sources = []string{obsID}
	}
	p := map[string]any{
		"id": n.ID, "space": space, "space_key": spaceKey(space), "type": string(n.Type), "name": n.Name, "content": n.Content,
		"description": n.Description, "keywords": orEmpty(n.Keywords), "sources": sources,
		"created_at": now, "updated_at": now, "access_count": int64(0),
		"word_count": WordCount(n.Name, n.Content, n.Keywords),
	}
	if n.TStart != nil {
		p["t_start"] = n.TStart.UTC()
	}
	if n.TEnd != nil {
		p["t_end"] = n.TEnd.UTC()
	}
	if n.LearnedAt != nil { // else integration_write sets it from the node's observations
		p["learned_at"] = n.LearnedAt.UTC()
	}
	if len(n.Embedding) > 0 {
		p["embedding"] = vector64(n.Embedding)
	}
	for k, v := range map[string][]string{"aliases": n.Aliases, "participants": n.Participants} {
		if len(v) > 0 {
			p[k] = v
		}
	}
	for k, v := range map[string]string{"category": n.Category, "role": n.Role, "corrected_by": n.CorrectedBy} {
		if v != "" {
			p[k] = v
		}
	}
	return p
}

// GetMemory returns one memory of a space (without its embedding) and its edges in
// both directions. Errors: ENotFound, EUnavailable.
func (s *Store) GetMemory(ctx context.Context, space, id string) (realm.Node, []realm.Edge, error) {
	recs, err := s.read(ctx, qMemoryGet, map[string]any{"space": space, "id": id})
	if err != nil {
		return realm.Node{}, nil, err
	}
	if len(recs) == 0 {
		return realm.Node{}, nil, realm.Errorf(realm.ENotFound, "memory %q not found in space %q", id, space)
	}
	return nodeOf(mapOf(recs[0], "m")), edgesOf(recs[0], "edges"), nil
}

// MemoryFilter narrows ListMemories. Zero fields do not filter.
type MemoryFilter struct {
	Type  realm.NodeType
	Since time.Time // created at or after
	Until time.Time // created before
	Q     string    // case-insensitive substring of name or content
	// Current, when set, keeps only the memories that hold now (true: no valid_until, or
	// one after now, and no supersedes edge to a memory that still holds: a change that
	// begins later, a correction with a valid_from to come) or only the others (false:
	// superseded, corrected, or not begun yet).
	Current *bool
	// IDs, when not nil, keeps only the memories among them, read by id.
	IDs []string
}

// ListMemories returns up to limit memories of a space in (created_at, id) order after
// the opaque cursor ("" for the first page), and the cursor of the next page ("" at the
// end). Errors: EInvalid (bad cursor or type), EUnavailable.
func (s *Store) ListMemories(ctx context.Context, space string, f MemoryFilter, cursor string, limit int) ([]realm.Node, string, error) {
	if f.Type != "" && !f.Type.Valid() {
		return nil, "", realm.Errorf(realm.EInvalid, "type %q is not one of entity, event, episode, fact", f.Type)
	}
	afterAt, afterID, err := decodeCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	params := map[string]any{
		"space": space, "type": nil, "q": nil, "current": nil, "now": time.Now().UTC(),
		"from": f.Since.UTC(), "until": noLaterThan, "after_at": nil, "after_id": afterID, "limit": limit + 1,
	}
	if f.Current != nil {
		params["current"] = *f.Current
	}
	if f.Type != "" {
		params["type"] = string(f.Type)
	}
	if !f.Until.IsZero() {
		params["until"] = f.Until.UTC()
	}
	if f.Q != "" {
		params["q"] = strings.ToLower(f.Q)
	}
	if !afterAt.IsZero() {
		params["after_at"] = afterAt
		if afterAt.After(f.Since) { // the index is read from the cursor on, not from since
			params["from"] = afterAt
		}
	}
	list := qMemoryList
	if f.IDs != nil {
		list, params["ids"] = qMemoryListIDs, f.IDs
	}
	recs, err := s.read(ctx, list, params)
	if err != nil {
		return nil, "", err
	}
	nodes := nodesOf(recs, "m")
	next := ""
	if len(nodes) > limit {
		nodes = nodes[:limit]
		last := nodes[len(nodes)-1]
		next = encodeCursor(last.CreatedAt, last.ID)
	}
	return nodes, next, nil
}

// HoldsMemory reports whether the space holds a memory. Finding none, it looks again once
// the space's writes in flight are applied whole (under its write lock, as
// settledGraphVersion): Neo4j makes a write's integrated marks visible before the index
// entries of the memories it wrote, and a client that read its message integrated, or
// its job done, would be told that the space holds nothing. Errors: EUnavailable.
func (s *Store) HoldsMemory(ctx context.Context, space string) (bool, error) {
	some, _, err := s.ListMemories(ctx, space, MemoryFilter{}, "", 1)
	if err != nil || len(some) > 0 {
		return len(some) > 0, err
	}
	if _, err := s.settledGraphVersion(ctx, space); err != nil {
		return false, err
	}
	some, _, err = s.ListMemories(ctx, space, MemoryFilter{}, "", 1)
	return len(some) > 0, err
}

func encodeCursor(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(at.UTC().Format(time.RFC3339Nano) + "|" + id))
}

func decodeCursor(c string) (time.Time, string, error) {
	if c == "" {
		return time.Time{}, "", nil
	}
	bad := realm.Errorf(realm.EInvalid, "cursor %q is not one this server gave out", c)
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, "", bad
	}
	at, id, ok := strings.Cut(string(b), "|")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil {
		return time.Time{}, "", bad
	}
	return t, id, nil
}

// DeleteMemory deletes one memory of a space with its edges and provenance; it leaves
// the indexes with the node. Errors: ENotFound, EConflict (an import holds the space:
// writeSpace), EUnavailable.
func (s *Store) DeleteMemory(ctx context.Context, space, id string) error {
	defer s.graphs.writing(space)()
	recs, err := s.writeSpace(ctx, space, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(ctx, tx, qMemoryDelete, map[string]any{"space": space, "id": id, "now": time.Now().UTC()})
	})
	if err != nil {
		return err
	}
	if len(recs) == 0 || num(recs[0], "deleted") == 0 {
		return realm.Errorf(realm.ENotFound, "memory %q not found in space %q", id, space)
	}
	r := recs[0]
	v, _ := r.Get("neighbours")
	var neighbours []string
	for _, x := range asList(v) {
		if x != id { // a loop
			neighbours = append(neighbours, x.(string))
		}
	}
	slices.Sort(neighbours)
	neighbours = slices.Compact(neighbours)
	s.texts.deleted(space, []string{id}, nil, str(r, "version_before"), str(r, "version_after"))
	if len(neighbours) <= deleteFollowMax {
		s.followWrite(ctx, space, graphMove{before: str(r, "graph_before"), after: str(r, "graph_after"), ids: neighbours, gone: []string{id}})
	}
	return nil
}

// deleteFollowMax is the most neighbours a deleted memory may have for the snapshot to
// follow its deletion (they are read again); a hub's deletion leaves the snapshot stale.
const deleteFollowMax = 1000

// ObservationDeleted is what DeleteObservation deleted.
type ObservationDeleted struct {
	Observation     string
	MemoriesDeleted int
	MemoryIDs       []string // the memories deleted with it, in no particular order
	// Reintegrate are the observations that stay and were sources of a memory deleted
	// with it, marked pending in the same transaction and leased to the caller, by seq:
	// their integration anew brings back what they said.
	Reintegrate []realm.Observation
	// Trimmed are the observations that a memory deleted with it let go from its
	// provenance, of too many repeats (RepeatsKept), marked pending for the resumption.
	Trimmed []string
	// Episodes are the episodes that stay and derived from it, in id order: what they
	// said of their session may be its words (its speaker), so they say only their name
	// and times when it is gone, with no embedding, to derive again from the messages that
	// stay (construction.Pipeline.Forget). They and Renamed are marked to be derived
	// again (RederivePending) until RederiveMemory writes them.
	Episodes []string
	// Renamed are the entities that stay and derived from it that a message that stays
	// does not name by all their names, as they are when it is gone (keptNames): with no
	// embedding, to make again of their new name.
	Renamed []realm.Node
}

// observationDeleteBatch is how many memories a statement of DeleteObservation deletes
// (a variable for the tests).
var observationDeleteBatch = 500

// DeleteObservation forgets one observation of a space: the observation and the
// memories derived from it that go with it (observation_derived.cypher, as GetObservation
// reports them), with their edges (observation_delete_memories.cypher): every event and
// fact whose provenance holds it, even one other observations are in too, since its
// content may say the message's words; every episode that nothing else holds up (no
// other observation in its provenance, no event or fact that stays related to it); every
// entity that no message that stays names (in its provenance or in that of an event or
// fact that stays related to it), so that none keeps a name only forgotten messages
// said. The entities and episodes that stay lose it from their sources, one that nothing
// in its own provenance held up deriving from the messages that hold it up instead
// (observation_delete_finish.cypher), and the space's running summary, which may hold
// its words, is emptied (observation_delete_lock.cypher). The episodes that stay and
// derived from it say only their name and times, and the entities that stay only the
// names a message that stays says (keptNames), with no embedding: whatever of them the
// caller then derives again and embeds anew may fail, and leaves none of its words. The
// observations that stay and were sources of a deleted memory are marked pending, leased
// to lease.Owner (observation_reintegrate.cypher): what they said went with it, and their integration
// anew brings it back, by the caller or, should it not, by the resumption; so are,
// free for the resumption (Trimmed), those that a deleted memory let go from its
// provenance, of too many repeats (RepeatsKept), found by their edges to it (REPEAT_OF),
// not by reading the space's observations: what they said comes back too, as a
// repeat of what the others bring back, once they are all forgotten. It runs in
// one write transaction under the space's lock, the one the write path takes: an
// integration of the observation that has not written yet then finds it gone and writes
// nothing (ApplyRun, ApplyIntegration); one that wrote before has its memories deleted
// here. The memories are deleted a batch at a time, in that transaction. The keyword
// index (the rewritten texts too) and the graph snapshot follow as they follow DeleteMemory (the embeddings held
// are read again: the space's state moved). Errors: ENotFound (space or observation),
// EConflict (an import holds the space: writeSpace), EUnavailable.
func (s *Store) DeleteObservation(ctx context.Context, space, id string, lease Lease) (ObservationDeleted, error) {
	defer s.graphs.writing(space)()
	var out ObservationDeleted
	var move graphMove
	var versionBefore, versionAfter string
	var texts []textRewrite // of the memories that stay, for the keyword index
	_, err := s.writeSpace(ctx, space, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		out = ObservationDeleted{Observation: id, MemoryIDs: []string{}}
		texts = nil
		now := time.Now().UTC()
		recs, err := collect(ctx, tx, qObservationDeleteLock, map[string]any{"space": space, "id": id, "now": now})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 || !boolean(recs[0], "found") {
			// Rolled back: nothing moved.
			return nil, observationNotFound(space, id)
		}
		r := recs[0]
		move = graphMove{before: str(r, "graph_before"), after: str(r, "graph_after")}
		versionBefore, versionAfter = str(r, "version_before"), str(r, "version_after")
		// What goes is read as GET …/observations/{id} reads it (GetObservation), with
		// what those that stay derive from in its place.
		recs, err = collect(ctx, tx, qObservationDerived, map[string]any{"space": space, "id": id, "sources_max": realm.SourcesMax})
		if err != nil {
			return nil, err
		}
		var going, touched, sources, letGo []string
		adopted, rewritten := map[string]any{}, map[string]any{}
		if len(recs) > 0 {
			for _, m := range derivedOf(recs[0]) {
				switch {
				case m.DeletedWithIt:
					going = append(going, m.ID)
				case len(m.adopted) > 0:
					adopted[m.ID] = m.adopted
				}
				was := realm.Node{ID: m.ID, Name: m.name, Content: m.content, Keywords: m.keywords}
				switch {
				case m.DeletedWithIt:
				case m.Type == realm.Episode:
					out.Episodes = append(out.Episodes, m.ID)
					texts = append(texts, textRewrite{was, realm.Node{ID: m.ID, Name: m.name, Content: m.name}})
					rewritten[m.ID] = map[string]any{"content": m.name, "description": "", "keywords": []string{}, "participants": nil,
						"embedding": nil, "word_count": WordCount(m.name, m.name, nil), "updated_at": now, "rederive": true}
				case m.Type == realm.Entity && m.said != nil:
					n := keptNames(m)
					out.Renamed = append(out.Renamed, n)
					texts = append(texts, textRewrite{was, n})
					props := map[string]any{"name": n.Name, "aliases": nil, "content": n.Content, "keywords": orEmpty(n.Keywords),
						"embedding": nil, "word_count": WordCount(n.Name, n.Content, n.Keywords), "updated_at": now, "rederive": true}
					if len(n.Aliases) > 0 {
						props["aliases"] = n.Aliases
					}
					rewritten[m.ID] = props
				}
			}
		}
		for batch := range slices.Chunk(going, observationDeleteBatch) {
			recs, err := collect(ctx, tx, qObservationDeleteMemories, map[string]any{"space": space, "ids": batch})
			if err != nil {
				return nil, err
			}
			if len(recs) == 0 {
				continue
			}
			v, _ := recs[0].Get("deleted")
			out.MemoryIDs = append(out.MemoryIDs, stringList(v)...)
			v, _ = recs[0].Get("neighbours")
			touched = append(touched, stringList(v)...)
			v, _ = recs[0].Get("sources")
			sources = append(sources, stringList(v)...)
			v, _ = recs[0].Get("let_go")
			letGo = append(letGo, stringList(v)...)
		}
		if len(letGo) > 0 {
			recs, err := collect(ctx, tx, qObservationTrimmed, map[string]any{"space": space, "id": id, "ids": out.MemoryIDs, "let_go": letGo})
			if err != nil {
				return nil, err
			}
			trimmed := slices.DeleteFunc(stringList(valueOf(recs[0], "ids")), func(x string) bool { return slices.Contains(sources, x) })
			recs, err = collect(ctx, tx, qObservationReintegrate, map[string]any{"space": space, "ids": trimmed, "owner": "", "until": nil, "now": time.Now().UTC()})
			if err != nil {
				return nil, err
			}
			for _, r := range recs {
				out.Trimmed = append(out.Trimmed, observationOf(r, "o").ID)
			}
		}
		recs, err = collect(ctx, tx, qObservationDeleteFinish, map[string]any{"space": space, "id": id, "adopted": adopted,
			"rewritten": rewritten, "sources_max": realm.SourcesMax})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 || num(recs[0], "deleted") == 0 {
			return nil, observationNotFound(space, id)
		}
		v, _ := recs[0].Get("kept")
		touched = append(touched, stringList(v)...)
		slices.Sort(sources)
		recs, err = collect(ctx, tx, qObservationReintegrate, map[string]any{"space": space, "ids": slices.Compact(sources),
			"owner": lease.Owner, "until": lease.Until.UTC(), "now": time.Now().UTC()})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			out.Reintegrate = append(out.Reintegrate, observationOf(r, "o"))
		}
		// The memories left whose edges or sources changed are read again; the deleted
		// ones are gone from the snapshot.
		slices.Sort(touched)
		touched = slices.Compact(touched)
		move.ids = slices.DeleteFunc(touched, func(x string) bool { return slices.Contains(out.MemoryIDs, x) })
		move.gone = out.MemoryIDs
		return nil, nil
	})
	if err != nil {
		return ObservationDeleted{}, err
	}
	out.MemoriesDeleted = len(out.MemoryIDs)
	s.texts.deleted(space, out.MemoryIDs, texts, versionBefore, versionAfter)
	if len(move.ids) <= deleteFollowMax {
		s.followWrite(ctx, space, move)
	}
	return out, nil
}

// keptNames is entity m, which stays, once the names no message that stays says are gone
// (m.said are the others): named by the longest it keeps, the others its aliases, its
// keywords without the names gone, and each name gone that none it keeps holds replaced
// in its content by its new name, as whole words, in any case; a clause of the content
// that then calls it by its own name goes ("Tom (person), called Tom Becker." and "Tom
// Becker (person), called Tom." are "Tom (person).").
func keptNames(m ObservationMemory) realm.Node {
	n := realm.Node{ID: m.ID, Type: realm.Entity, Content: m.content}
	for _, name := range m.said {
		if utf8.RuneCountInString(name) > utf8.RuneCountInString(n.Name) {
			n.Name = name
		}
	}
	for _, name := range m.said {
		if name != n.Name {
			n.Aliases = append(n.Aliases, name)
		}
	}
	var gone []string
	for _, name := range append([]string{m.name}, m.aliases...) {
		if !slices.Contains(m.said, name) {
			gone = append(gone, name)
		}
	}
	n.Keywords = slices.DeleteFunc(slices.Clone(m.keywords), func(k string) bool {
		return slices.ContainsFunc(gone, func(name string) bool { return strings.EqualFold(k, name) })
	})
	// The longest first: "Tom Becker" is not "Tom" and "Becker".
	slices.SortFunc(gone, func(a, b string) int { return utf8.RuneCountInString(b) - utf8.RuneCountInString(a) })
	for _, name := range gone {
		if slices.ContainsFunc(m.said, func(kept string) bool { return strings.Contains(strings.ToLower(kept), strings.ToLower(name)) }) {
			continue
		}
		re := regexp.MustCompile(`(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(name) + `([^\pL\pN]|$)`)
		n.Content = re.ReplaceAllString(n.Content, "${1}"+strings.ReplaceAll(n.Name, "$", "$$")+"${2}")
	}
	if len(gone) > 0 {
		n.Content = regexp.MustCompile(`(?i)(?:, called `+regexp.QuoteMeta(n.Name)+`)+([.,;]|$)`).ReplaceAllString(n.Content, "${1}")
	}
	return n
}

// Stats summarizes a space.
type Stats struct {
	Memories            int64                     `json:"memories"`
	ByType              map[realm.NodeType]int64  `json:"by_type"`
	Edges               int64                     `json:"edges"`
	ByPredicate         map[realm.Predicate]int64 `json:"by_predicate"`
	WeightHistogram     [10]int64                 `json:"weight_histogram"` // bin i: weights in [i/10, (i+1)/10)
	Observations        int64                     `json:"observations"`
	ObservationsPending int64                     `json:"observations_pending"`
	ObservationsFailed  int64                     `json:"observations_failed"`
	Reconsolidation     realm.EditStats           `json:"reconsolidation"` // totals of the edit log (REALM.md §4.4)
}

// Stats counts a space's memories by type, edges by predicate with a weight histogram,
// observations by status, and the reconsolidation totals (edits by action, reverted
// edits, reconsolidations), all in one read transaction; the counts of memories, edges
// and edits are read again only when the space's graph_version has moved since this
// store last read them, then after a statement that takes the space's lock, so that no
// write is half applied when they are counted (statsmemo.go). Errors: EUnavailable.
func (s *Store) Stats(ctx context.Context, space string) (Stats, error) {
	var st Stats
	err := s.readSettled(ctx, space, func(settled *string) (unsettled bool, err error) {
		_, err = s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			version, err := spaceGraphVersion(ctx, tx, space)
			if err != nil {
				return nil, err
			}
			g, graphUnsettled, err := s.keptGraph.kept(space, version, settled, func() (graphCounts, error) { return readGraphCounts(ctx, tx, space) })
			if err != nil {
				return nil, err
			}
			edits, editsUnsettled, err := s.keptEditStats(ctx, tx, space, version, settled)
			if unsettled = graphUnsettled || editsUnsettled; err != nil || unsettled {
				return nil, err
			}
			st = Stats{Memories: g.memories, ByType: maps.Clone(g.byType), Edges: g.edges, ByPredicate: maps.Clone(g.byPredicate),
				WeightHistogram: g.weightHistogram, Reconsolidation: edits}
			recs, err := collect(ctx, tx, qStatsObservations, map[string]any{"space": space})
			if err != nil {
				return nil, err
			}
			for _, r := range recs {
				st.Observations += num(r, "n")
				switch str(r, "status") {
				case realm.ObservationPending:
					st.ObservationsPending = num(r, "n")
				case realm.ObservationFailed:
					st.ObservationsFailed = num(r, "n")
				}
			}
			return nil, nil
		})
		return unsettled, err
	})
	return st, err
}

// readGraphCounts counts the space's memories by type and its edges by predicate and
// weight inside tx.
func readGraphCounts(ctx context.Context, tx neo4j.ManagedTransaction, space string) (graphCounts, error) {
	g := graphCounts{byType: map[realm.NodeType]int64{}, byPredicate: map[realm.Predicate]int64{}}
	p := map[string]any{"space": space}
	recs, err := collect(ctx, tx, qStatsTypes, p)
	if err != nil {
		return g, err
	}
	for _, r := range recs {
		g.byType[realm.NodeType(str(r, "type"))] = num(r, "n")
		g.memories += num(r, "n")
	}
	if recs, err = collect(ctx, tx, qStatsPredicates, p); err != nil {
		return g, err
	}
	for _, r := range recs {
		if str(r, "type") == "DERIVED_FROM" {
			continue
		}
		g.byPredicate[realm.PredicateOfRelType(str(r, "type"))] += num(r, "n")
		g.edges += num(r, "n")
		bin, _ := r.Get("bin") // null for an edge without a weight, in no bin
		if i, ok := bin.(int64); ok && i >= 0 && i < 10 {
			g.weightHistogram[i] += num(r, "n")
		}
	}
	return g, nil
}

// MaxGraphDepth bounds Graph's depth: two hops already reach most of a small graph.
const MaxGraphDepth = 2

// Graph returns memories (without embeddings) and the edges among them, for viewers:
// those within depth (0..2) hops of memory around, nearest first, or the space's most
// recent ones when around is "". At most limit nodes. Errors: ENotFound (around),
// EInvalid (depth), EUnavailable.
func (s *Store) Graph(ctx context.Context, space, around string, depth, limit int) ([]realm.Node, []realm.Edge, error) {
	if depth < 0 || depth > MaxGraphDepth {
		return nil, nil, realm.Errorf(realm.EInvalid, "depth %d is not in 0..%d", depth, MaxGraphDepth)
	}
	var nodes []realm.Node
	var edges []realm.Edge
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		var recs []*neo4j.Record
		var err error
		if around == "" {
			recs, err = collect(ctx, tx, qGraphSpace, map[string]any{"space": space, "limit": limit})
		} else {
			recs, err = collect(ctx, tx, qGraphAround, map[string]any{"space": space, "id": around, "depth": depth, "limit": limit})
		}
		if err != nil {
			return nil, err
		}
		ids, _ := recs[0].Get("ids")
		if list, _ := ids.([]any); around != "" && len(list) == 0 {
			return nil, realm.Errorf(realm.ENotFound, "memory %q not found in space %q", around, space)
		}
		if recs, err = collect(ctx, tx, qGraphSubgraph, map[string]any{"space": space, "ids": ids}); err != nil {
			return nil, err
		}
		nodes, edges = nil, nil
		if len(recs) > 0 {
			v, _ := recs[0].Get("nodes")
			list, _ := v.([]any)
			for _, n := range list {
				m, _ := n.(map[string]any)
				nodes = append(nodes, nodeOf(m))
			}
			edges = edgesOf(recs[0], "edges")
		}
		return nil, nil
	})
	return nodes, edges, err
}

// Conversions from stored properties.

func nodesOf(recs []*neo4j.Record, key string) []realm.Node {
	out := make([]realm.Node, 0, len(recs))
	for _, r := range recs {
		out = append(out, nodeOf(mapOf(r, key)))
	}
	return out
}

// nodeOf is the one decoder of a memory's property map as Neo4j returns it.
func nodeOf(p map[string]any) realm.Node {
	return realm.Node{
		ID: propString(p, "id"), Space: propString(p, "space"), Type: realm.NodeType(propString(p, "type")),
		Name: propString(p, "name"), Content: propString(p, "content"), Description: propString(p, "description"),
		Keywords: stringList(p["keywords"]), Aliases: stringList(p["aliases"]), Category: propString(p, "category"),
		Role: propString(p, "role"), Participants: stringList(p["participants"]), Sources: stringList(p["sources"]),
		Embedding: vector32(p["embedding"]), CreatedAt: timeOf(p["created_at"]), UpdatedAt: timeOf(p["updated_at"]),
		TStart: propTime(p, "t_start"), TEnd: propTime(p, "t_end"), LastAccessedAt: propTime(p, "last_accessed_at"),
		AccessCount: int64(propFloat(p, "access_count")),
		ValidUntil:  propTime(p, "valid_until"), SupersededAt: propTime(p, "superseded_at"),
		LearnedAt: propTime(p, "learned_at"), LastSaidAt: propTime(p, "last_said_at"), CorrectedBy: propString(p, "corrected_by"),
	}
}

// edgesOf decodes the list under key of maps {r: properties, type, from, to}, leaving
// out DERIVED_FROM, in a stable order.
func edgesOf(r *neo4j.Record, key string) []realm.Edge {
	v, _ := r.Get(key)
	var out []realm.Edge
	for _, item := range asList(v) {
		e, _ := item.(map[string]any)
		if e == nil {
			continue
		}
		props, _ := e["r"].(map[string]any)
		rel := propString(e, "type")
		if rel == "DERIVED_FROM" {
			continue
		}
		out = append(out, edgeOf(props, rel, propString(e, "from"), propString(e, "to")))
	}
	sort.Slice(out, func(i, j int) bool {
		return fmt.Sprint(out[i].From, out[i].To, out[i].Predicate) < fmt.Sprint(out[j].From, out[j].To, out[j].Predicate)
	})
	return out
}

// edgeOf is the one decoder of an edge: its property map, relationship type and ends.
func edgeOf(p map[string]any, relType, from, to string) realm.Edge {
	pred := realm.PredicateOfRelType(relType)
	e := realm.Edge{
		ID: propString(p, "id"), From: from, To: to, Predicate: pred, Layer: propString(p, "layer"),
		Description: propString(p, "description"), Query: propString(p, "query"), Label: realm.NodeLabel(propString(p, "label")),
		Weight:        propFloat(p, "weight"),
		InitialWeight: propFloat(p, "initial_weight"), Confidence: propFloat(p, "confidence"),
		CreatedAt: timeOf(p["created_at"]), UpdatedAt: timeOf(p["updated_at"]),
	}
	e.QueryErased, _ = p["query_erased"].(bool)
	if e.Layer == "" {
		e.Layer = pred.Layer()
	}
	return e
}

func stringList(v any) []string {
	list, _ := v.([]any)
	if len(list) == 0 {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func vector32(v any) []float32 {
	list, _ := v.([]any)
	if len(list) == 0 {
		return nil
	}
	out := make([]float32, len(list))
	for i, x := range list {
		f, _ := x.(float64)
		out[i] = float32(f)
	}
	return out
}

// vector64 converts a vector for the driver, which stores float64 lists.
func vector64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func clampWeight(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Max(0, math.Min(1, x))
}
