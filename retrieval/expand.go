package retrieval

import (
	"context"
	"maps"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// expand is the adaptive expansion loop (REALM.md §3.2): up to max_depth iterations, each
// asking the sufficiency controller whether the nodes are enough and which to expand, and
// the expansion policy for each frontier node's atom. It stops on sufficiency, when an
// iteration adds no node, at max_depth, or when nothing is left to expand.
//
// An iteration's expansions read the graph together (fetch: one statement per hop for
// all its subgraph_beams, one for all its path_searches), then are admitted one after the
// other in the frontier's order (admitBeam, admitPaths), as if each had run alone after
// the ones before it: what an expansion reads depends on its own start and atom only, and
// what it admits on the recall so far.
func (r *Retriever) expand(ctx context.Context, run *run) error {
	if err := r.iterate(ctx, run); err != nil {
		return err
	}
	return r.fillSources(ctx, run)
}

// iterate runs expand's iterations.
func (r *Retriever) iterate(ctx context.Context, run *run) error {
	for depth := 1; depth <= run.set.MaxDepth; depth++ {
		ranked := run.ranked()
		in := agent.SufficiencyInput{Query: run.query, Plans: run.plans, Depth: depth, MaxDepth: run.set.MaxDepth, K: run.set.K}
		for _, c := range ranked {
			in.Nodes = append(in.Nodes, agent.Gathered{Node: c.Node, Score: c.Score, Depth: c.Depth, Expanded: c.Expanded})
		}
		suff, usage, err := r.ag.Sufficiency(ctx, in)
		if err != nil {
			return err
		}
		run.usage.Add(usage)
		frontier := r.frontier(run, ranked, suff.NodesToExpand)
		run.trace.Decisions = append(run.trace.Decisions, realm.TraceDecision{
			Depth: depth, IsEnough: suff.IsEnough, NodesToExpand: frontier, Reason: suff.Reason,
		})
		if suff.IsEnough || len(frontier) == 0 {
			return nil
		}
		exps, err := r.expansions(ctx, run, frontier)
		if err != nil {
			return err
		}
		if err := r.fetch(ctx, run, exps); err != nil {
			return err
		}
		added := 0
		for _, e := range exps {
			var reached []realm.ScoredID
			var n int
			if e.atom.Mode == realm.PathSearch {
				reached, n, err = r.admitPaths(ctx, run, e)
			} else {
				reached, n, err = r.admitBeam(ctx, run, e)
			}
			if err != nil {
				return err
			}
			added += n
			run.trace.Steps = append(run.trace.Steps, realm.TraceStep{
				Depth: depth, Atom: e.atom, Reasoning: e.reasoning, Frontier: []string{e.u.Node.ID}, Reached: reached,
			})
		}
		if added == 0 {
			return nil
		}
	}
	return nil
}

// fillSources reads the sources of the candidates that expansion admitted without them
// (cypher.InlineSources), in one statement, so that every candidate is whole for the
// aggregation and the result.
func (r *Retriever) fillSources(ctx context.Context, run *run) error {
	if len(run.partial) == 0 {
		return nil
	}
	var x cypher.Expander = r.store
	if run.graph != nil {
		x = run.graph // its snapshot holds the sources it read before, as the writes left them
	}
	sources, err := x.MemorySources(ctx, run.space, run.partial)
	if err != nil {
		return err
	}
	for _, id := range run.partial {
		c := run.cands[id]
		c.Node.Sources = sources[id]
		if n, ok := run.nodes[id]; ok && n.Sources == nil {
			n.Sources = sources[id]
			run.nodes[id] = n
		}
	}
	run.partial = nil
	return nil
}

// expansion is one frontier node's expansion in an iteration: its atom and reasoning
// (the policy's), the hops it may take, and what it read.
type expansion struct {
	u         *candidate
	atom      realm.Atom
	reasoning string
	hops      int
	beams     [][]reach         // subgraph_beam: per hop, the beam before the per-seed cap
	paths     cypher.PathsFound // path_search
}

// expansions asks the policy for each frontier node's atom, in order, marks the nodes
// expanded, and embeds the reasoning texts in one call.
func (r *Retriever) expansions(ctx context.Context, run *run, frontier []string) ([]*expansion, error) {
	var exps []*expansion
	var texts []string
	for _, id := range frontier {
		u := run.cands[id]
		u.Expanded = true
		pol, usage, err := r.ag.ExpansionPolicy(ctx, agent.PolicyInput{
			Query: run.query, Time: run.now, Plans: run.plans,
			Node: agent.Gathered{Node: u.Node, Score: u.Score, Depth: u.Depth, Expanded: true},
		})
		if err != nil {
			return nil, err
		}
		run.usage.Add(usage)
		e := &expansion{u: u, atom: r.atom(pol.Atom, run.set.Strategy), reasoning: pol.Reasoning,
			hops: min(run.set.PathMaxDepth, run.set.MaxDepth-u.Depth)}
		if e.reasoning == "" {
			e.reasoning = run.query
		}
		exps = append(exps, e)
		texts = append(texts, e.reasoning)
	}
	return exps, r.embedKept(ctx, run, texts...)
}

// fetch reads what exps need from the graph (through the space's snapshot when the store
// keeps one, cypher.Store.Expander): the paths of every path_search in one
// statement, and the beams of every subgraph_beam hop by hop, one statement a hop for all
// of them; then it embeds, in one call, the edge descriptions of the beams.
func (r *Retriever) fetch(ctx context.Context, run *run, exps []*expansion) error {
	if run.graph == nil {
		g, err := r.store.Expander(ctx, run.space, run.counts)
		if err != nil {
			return err
		}
		run.graph = g
	}
	var starts []cypher.PathStart
	var searches []*expansion
	for _, e := range exps {
		if e.atom.Mode == realm.PathSearch && e.hops >= 1 {
			starts = append(starts, cypher.PathStart{From: e.u.Node.ID, Allowed: e.atom.Predicates, MaxHops: e.hops, Reasoning: run.vectors[e.reasoning]})
			searches = append(searches, e)
		}
	}
	if len(starts) > 0 {
		found, err := run.graph.PathsMany(ctx, run.space, cypher.PathScan{WSuppress: r.opts.WSuppress, Limit: r.opts.PathCandidates,
			Query: run.qvec, SimShare: r.opts.EdgeSimilarity, WeightShare: r.opts.EdgeWeight}, starts)
		if err != nil {
			return err
		}
		for i, e := range searches {
			e.paths = found[i]
		}
	}
	if err := r.fetchBeams(ctx, run, exps); err != nil {
		return err
	}
	var texts []string
	for _, e := range exps {
		for _, beam := range e.beams {
			for _, b := range beam {
				texts = append(texts, b.edge.Description)
			}
		}
	}
	return r.embedKept(ctx, run, texts...)
}

// fetchBeams walks every subgraph_beam of exps hop by hop (REALM.md §3.2), one statement
// a hop for all of them: each hop scores the new neighbours of a beam's frontier by edge
// score, dedupes them by id keeping the max, keeps the best beam_width, and makes them the
// next frontier. It records each hop's beam; which of it the recall admits (at most
// subgraph_max_nodes per seed) is admitBeam's. A beam whose seed reaches its cap in a hop
// admits nothing further, so reading on from the whole beam rather than its admitted part
// changes nothing; and a walk whose seed is sure to have reached its cap before the hop
// is admitted (capped) is not walked further, since that hop and the next would admit
// nothing.
func (r *Retriever) fetchBeams(ctx context.Context, run *run, exps []*expansion) error {
	type walk struct {
		e                 *expansion
		frontier, visited []string
	}
	var walks []*walk
	for _, e := range exps {
		if e.atom.Mode != realm.PathSearch {
			walks = append(walks, &walk{e: e, frontier: []string{e.u.Node.ID}, visited: []string{e.u.Node.ID}})
		}
	}
	for hop := 1; ; hop++ {
		var active []*walk
		var hops []cypher.Hop
		// What each seed will have admitted, at least, before a walk's hop: admitBeam takes
		// the walks in this order, each hop by hop, one node per beam entry until the cap.
		admitted := maps.Clone(run.perRoot)
		for _, w := range walks {
			for _, beam := range w.e.beams {
				admitted[w.e.u.Root] += len(beam)
			}
			capped := admitted[w.e.u.Root] >= run.set.SubgraphMaxNodes
			if hop <= w.e.hops && len(w.frontier) > 0 && !capped {
				active = append(active, w)
				cut := r.beamCut(w.e.atom, run.set.BeamWidth)
				if r.opts.Explore > 0 || run.learnedBy != nil {
					// The explored neighbours are those the cut would leave out; so are, in
					// place of the ones not yet learned then, those of a question as of a past time.
					cut = cypher.BeamCut{}
				}
				hops = append(hops, cypher.Hop{Frontier: w.frontier, Visited: w.visited, Allowed: w.e.atom.Predicates,
					Reasoning: run.vectors[w.e.reasoning], Cut: cut, HubDegree: r.opts.HubDegree})
			}
		}
		if len(active) == 0 {
			return nil
		}
		adj, err := run.graph.AdjacentMany(ctx, run.space, r.opts.WSuppress, run.qvec, hops)
		if err != nil {
			return err
		}
		for i, w := range active {
			// A memory not yet learned at the question's time is no step of a walk either.
			known := slices.DeleteFunc(adj[i], func(a cypher.Adjacent) bool { return !run.known(a.Node) })
			beam := r.beam(w.e.atom, known, w.visited, run.set.BeamWidth)
			w.e.beams = append(w.e.beams, beam)
			w.frontier = w.frontier[:0]
			for _, b := range beam {
				w.frontier = append(w.frontier, b.node.ID)
				w.visited = append(w.visited, b.node.ID)
			}
		}
	}
}

// beam is one hop's beam from the adjacent memories adj: the best width new memories by
// edge score, best first (ties by id), each with its best edge, and the explored ones
// after them (explore).
func (r *Retriever) beam(atom realm.Atom, adj []cypher.Adjacent, visited []string, width int) []reach {
	best := map[string]reach{}
	for _, a := range adj {
		if slices.Contains(visited, a.Node.ID) || !r.opts.walks(a.Edge) {
			continue
		}
		penalty, drop := r.opts.decayPenalty(atom.Decay, a.Node)
		if drop {
			continue
		}
		score := r.opts.edgeScore(a.SimReasoning, a.Edge.Weight, penalty)
		if old, ok := best[a.Node.ID]; !ok || score > old.score {
			best[a.Node.ID] = reach{node: a.Node, simQ: a.SimQuery, edge: a.Edge, from: a.From, score: score, penalty: penalty, partial: a.SourcesLeftOut}
		}
	}
	beam := make([]reach, 0, len(best))
	for _, b := range best {
		beam = append(beam, b)
	}
	sort.Slice(beam, func(i, j int) bool {
		if beam[i].score != beam[j].score {
			return beam[i].score > beam[j].score
		}
		return beam[i].node.ID < beam[j].node.ID
	})
	return r.explore(beam, width)
}

// frontier validates the controller's choice: known, unexpanded nodes that can still go
// deeper, at most FrontierMax. Empty or invalid means the best-scoring such nodes (§3.2).
func (r *Retriever) frontier(run *run, ranked []*candidate, asked []string) []string {
	expandable := func(id string) bool {
		c, ok := run.cands[id]
		return ok && !c.Expanded && c.Depth < run.set.MaxDepth
	}
	var out []string
	for _, id := range asked {
		if expandable(id) && !slices.Contains(out, id) && len(out) < r.opts.FrontierMax {
			out = append(out, id)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range ranked {
		if len(out) == r.opts.FrontierMax {
			break
		}
		if expandable(c.Node.ID) {
			out = append(out, c.Node.ID)
		}
	}
	return out
}

// atom completes the policy's atom: a forced strategy overrides its mode, no predicates
// means all fifteen, and conflict_inhibit removes contradicts (REALM.md §3.2).
func (r *Retriever) atom(a realm.Atom, strategy realm.Strategy) realm.Atom {
	switch strategy {
	case realm.StrategyPath:
		a.Mode = realm.PathSearch
	case realm.StrategyBeam:
		a.Mode = realm.SubgraphBeam
	}
	if !a.Mode.Valid() {
		a.Mode = realm.SubgraphBeam
	}
	var preds []realm.Predicate
	for _, p := range a.Predicates {
		if p.Valid() && !slices.Contains(preds, p) {
			preds = append(preds, p)
		}
	}
	if len(preds) == 0 {
		preds = slices.Clone(realm.Predicates)
	}
	if a.ConflictInhibit {
		preds = slices.DeleteFunc(preds, func(p realm.Predicate) bool { return p == realm.Contradicts })
	}
	a.Predicates = preds
	return a
}

// reach is one way of arriving at node v: over edge e, with its traversal score.
type reach struct {
	node     realm.Node
	simQ     float64 // sim(v, q), computed by Neo4j
	edge     realm.Edge
	from     string  // the memory it was reached from (subgraph_beam)
	score    float64 // edge score (beam) or path score (path_search)
	penalty  float64 // soft temporal decay of v
	strength float64 // path strength: the product of the edge weights from the seed
	depth    int
	partial  bool // node.Sources was not read (cypher.Reached.SourcesLeftOut)
}

// admitBeam admits the beams of a subgraph_beam from e.u, hop by hop and best first, at
// most subgraph_max_nodes per seed (REALM.md §3.2). It returns the admitted nodes with
// their edge scores and how many were new to the recall.
func (r *Retriever) admitBeam(ctx context.Context, run *run, e *expansion) ([]realm.ScoredID, int, error) {
	u := e.u
	var reached []realm.ScoredID
	added := 0
	for i, beam := range e.beams {
		for _, b := range beam {
			if run.perRoot[u.Root] >= run.set.SubgraphMaxNodes {
				break
			}
			run.perRoot[u.Root]++
			b.strength, b.depth = run.strength(b.from)*b.edge.Weight, u.Depth+i+1
			isNew, err := r.admitReach(ctx, run, b, u.Root)
			if err != nil {
				return nil, 0, err
			}
			if isNew {
				added++
			}
			reached = append(reached, realm.ScoredID{ID: b.node.ID, Score: b.score})
		}
	}
	return reached, added, nil
}

// walks reports whether expansion crosses edge e. A learned link (consolidate.go) is a
// label for its query, which only a close query applies: with LearnedWalk 0 expansion
// never crosses one, with 1 it crosses the key-evidence ones like any edge. A misleading
// link is never a path.
func (o Options) walks(e realm.Edge) bool {
	if !e.Learned() {
		return true
	}
	return o.LearnedWalk > 0 && e.Label != realm.Misleading
}

// explore keeps the best width of the sorted beam and, with Explore set (REALM.md §4, no
// rich-get-richer lock-in), also Explore × width (at least one) of the rest: those over
// the lowest-weight edges, the neighbours reconsolidation never strengthened, best edge
// score first among equal weights.
func (r *Retriever) explore(beam []reach, width int) []reach {
	if len(beam) <= width {
		return beam
	}
	if r.opts.Explore <= 0 {
		return beam[:width]
	}
	rest := slices.Clone(beam[width:])
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].edge.Weight < rest[j].edge.Weight })
	extra := max(1, int(math.Round(r.opts.Explore*float64(width))))
	return append(beam[:width:width], rest[:min(extra, len(rest))]...)
}

// beamCut is what a subgraph_beam lets AdjacentMany leave out: neighbours that cannot make the
// beam of width beam, whatever the soft temporal decay subtracts (at most DecayCap) and
// however Neo4j's single-precision cosine differs from ours (far below 1e-6), so that the
// beam is the one all neighbours would give. A hard decay or missing_time=drop removes
// neighbours from the beam after the cut would be made, so then all are returned.
func (r *Retriever) beamCut(atom realm.Atom, beam int) cypher.BeamCut {
	cut := cypher.BeamCut{Beam: beam, Margin: 1e-6, SimShare: r.opts.EdgeSimilarity, WeightShare: r.opts.EdgeWeight}
	if d := atom.Decay; d != nil && !d.Time.IsZero() {
		if d.Mode == realm.DecayHard || d.MissingTime == realm.MissingTimeDrop {
			return cypher.BeamCut{}
		}
		cut.Margin += r.opts.DecayCap
	}
	return cut
}

// admitPaths scores the simple paths a path_search from e.u found (REALM.md §3.2): each
// hop by edge score, a path by its mean hop score − 0.03 per extra hop, and admits the
// nodes of the best path_top_k paths. It returns them with the best path score each and
// how many were new to the recall.
func (r *Retriever) admitPaths(ctx context.Context, run *run, e *expansion) ([]realm.ScoredID, int, error) {
	u, atom, paths, onPaths := e.u, e.atom, e.paths.Paths, e.paths.Nodes
	type scoredPath struct {
		reaches []reach
		score   float64
	}
	var scored []scoredPath
	for _, p := range paths {
		sp := scoredPath{}
		var hopScores []float64
		strength := u.Arrival.strength
		for i, e := range p.Edges {
			v, ok := onPaths[p.IDs[i+1]]
			if !ok || !r.opts.walks(e) || !run.known(v.Node) {
				break // a path through a memory not yet learned at the question's time is none
			}
			penalty, drop := r.opts.decayPenalty(atom.Decay, v.Node)
			if drop {
				break
			}
			h := r.opts.edgeScore(v.SimReasoning, e.Weight, penalty)
			hopScores = append(hopScores, h)
			strength *= e.Weight
			sp.reaches = append(sp.reaches, reach{node: v.Node, simQ: v.SimQuery, edge: e, penalty: penalty, strength: strength, depth: u.Depth + i + 1, partial: v.SourcesLeftOut})
		}
		if len(sp.reaches) != len(p.Edges) {
			continue // a node on it is dropped by the temporal decay or not yet learned
		}
		sp.score = r.opts.pathScore(hopScores)
		scored = append(scored, sp)
	}
	sort.SliceStable(scored, func(i, j int) bool { return scored[i].score > scored[j].score })
	if len(scored) > run.set.PathTopK {
		scored = scored[:run.set.PathTopK]
	}
	var texts []string
	for _, sp := range scored {
		for _, rc := range sp.reaches {
			texts = append(texts, rc.edge.Description)
		}
	}
	if err := r.embedKept(ctx, run, texts...); err != nil {
		return nil, 0, err
	}
	bestOf := map[string]float64{}
	var order []string
	added := 0
	for _, sp := range scored {
		for _, rc := range sp.reaches {
			rc.score = sp.score
			if old, ok := bestOf[rc.node.ID]; !ok {
				order = append(order, rc.node.ID)
				bestOf[rc.node.ID] = sp.score
			} else if sp.score > old {
				bestOf[rc.node.ID] = sp.score
			}
			isNew, err := r.admitReach(ctx, run, rc, u.Root)
			if err != nil {
				return nil, 0, err
			}
			if isNew {
				added++
			}
		}
	}
	reached := make([]realm.ScoredID, 0, len(order))
	for _, id := range order {
		reached = append(reached, realm.ScoredID{ID: id, Score: bestOf[id]})
	}
	return reached, added, nil
}

// admitReach scores a node reached over an edge (REALM.md §3.3; Options.score): the
// paper's access score is s_acc(v) = β·sim(q, edge description or v) + (1−β)·w_e −
// decay(t_v); ours takes the path strength and the decay. sim(v, q) is Neo4j's (rc.simQ),
// the description's is computed here. It keeps the best score per node.
func (r *Retriever) admitReach(ctx context.Context, run *run, rc reach, root string) (bool, error) {
	simQ := rc.simQ
	if rc.edge.Description != "" {
		vecs, err := r.embed(ctx, run, rc.edge.Description)
		if err != nil {
			return false, err
		}
		simQ = sim(run.qvec, vecs[0])
	}
	a := arrival{strength: rc.strength, penalty: rc.penalty, access: r.opts.accessScore(simQ, rc.edge.Weight, rc.penalty)}
	if old, ok := run.nodes[rc.node.ID]; !ok || !rc.partial || old.Sources == nil {
		run.nodes[rc.node.ID] = rc.node
	}
	isNew := r.admit(run, rc.node, a, rc.simQ, rc.depth, root)
	if isNew && rc.partial {
		run.partial = append(run.partial, rc.node.ID)
	}
	return isNew, nil
}

// strength is the path strength of candidate id (1 when it is not one).
func (run *run) strength(id string) float64 {
	if c, ok := run.cands[id]; ok {
		return c.Arrival.strength
	}
	return 1
}

// embedKept makes run.vectors hold every text (but empty ones): those of neither this
// recall nor r.kept are embedded in one call and kept.
func (r *Retriever) embedKept(ctx context.Context, run *run, texts ...string) error {
	var missing []string
	for _, t := range texts {
		if _, ok := run.vectors[t]; ok || t == "" {
			continue
		}
		if v := r.kept.get(t); v != nil {
			run.vectors[t] = v
			continue
		}
		missing = append(missing, t)
	}
	vecs, err := r.embed(ctx, run, missing...)
	for i, v := range vecs {
		r.kept.put(missing[i], v)
	}
	return err
}

// vectorCache keeps the embeddings of the expansion's texts across recalls: edge
// descriptions are few and repeat ("mentions Nate", "happened before", "similar content
// (0.86)": 264 distinct among the 4,078 memory edges of LoCoMo conv-42, 169 of them a
// question answered), and so do the reasoning texts of the nodes expanded (an LLM
// policy's); embedding them was most of an expansion's time. The offline policy's
// reasoning is the query, embedded by the seed stage.
// A Retriever has one embedder, so a text has one vector.
type vectorCache struct {
	mu   sync.Mutex
	vecs map[string][]float32
}

// vectorCacheMax bounds the texts remembered; past it, the cache starts over.
const vectorCacheMax = 8192

func (c *vectorCache) get(text string) []float32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.vecs[text]
}

func (c *vectorCache) put(text string, v []float32) {
	if len(v) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.vecs) >= vectorCacheMax {
		c.vecs = map[string][]float32{}
	}
	c.vecs[text] = v
}
