package construction

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/text"
)

// A run is consecutive observations of one space integrated together (the write path in
// batches): one read of what their extractors see, their extractions in order (each
// seeing the summary the one before left), one embedder call for all their candidates
// (both made in the background, a run ahead: extractAhead), one read of all the candidates'
// neighbourhoods (what needs no vector while they are embedded, then their similar
// memories), the decisions in order, and one write transaction. An observation's neighbourhood is then the stored one as the run began,
// completed in memory with what the observations before it in the run wrote (the run's
// overlay): the memories they added or changed, by vector similarity and by keywords
// (BM25 from the space's statistics, both as the store ranks them), and as recent
// memories. As for one observation, nothing is asked of the agent inside a transaction,
// no transaction waits for the embedder, and the write checks that the stored neighbourhoods are
// still those decided on.

// integrateRun integrates stored, claimed observations of one space in order and
// reports one Result per observation, a single one too as a run (its write skips reading
// the neighbourhoods again when the space did not change). A run that cannot go through
// as one (a failure past extraction, an observation no longer pending, neighbourhoods
// that keep changing) is integrated one observation at a time; observations out of seq
// order make separate runs.
func (p *Pipeline) integrateRun(ctx context.Context, obs []realm.Observation, win cypher.Window) []Result {
	p.inZone(obs)
	results := make([]Result, len(obs))
	for start := 0; start < len(obs); {
		if err := ctx.Err(); err != nil {
			for i := start; i < len(obs); i++ {
				results[i] = Result{ObservationID: obs[i].ID, Seq: obs[i].Seq, Status: StatusPending, Error: realm.ErrorMessage(err)}
			}
			break
		}
		prefix := obs[start : start+inSeqOrder(obs[start:])]
		if start > 0 || !covers(win, prefix) {
			win = cypher.Window{} // read before the run: not the space as the previous ones leave it
		}
		n := p.runPrefix(ctx, prefix, results[start:], win)
		if leftPending(results[start:start+n], obs[start+n:], results[start+n:]) {
			break
		}
		start += n
	}
	return results
}

// leftPending reports whether an attempt among done met Neo4j or a model away, and then
// leaves every observation of rest pending (its result in restResults) with the error it
// met, unattempted: each would wait out the same outage in turn (seconds apiece), while
// the resumption takes them up once it is over. Their error is not recorded on them (a
// job records it as it ends).
func leftPending(done []Result, rest []realm.Observation, restResults []Result) bool {
	i := metUnavailable(done)
	if i < 0 {
		return false
	}
	for k, o := range rest {
		restResults[k] = Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusPending, Error: done[i].Error,
			Usage: restResults[k].Usage, unrecorded: true}
	}
	return true
}

// metUnavailable is the index of the first attempt among done that met Neo4j or a model
// away, or -1.
func metUnavailable(done []Result) int {
	return slices.IndexFunc(done, func(r Result) bool { return r.unavailable })
}

// inZone reads the times of obs, as stored (UTC), where their days are: in the offset
// each was sent with, else in the memory's zone (Options.Zone; realm.LocalTime).
func (p *Pipeline) inZone(obs []realm.Observation) {
	for i := range obs {
		obs[i].ObservedAt = obs[i].Local(p.opts.Zone)
	}
}

// window is how many observations before a run's first it reads: the extractor's and
// N_recent's.
func (p *Pipeline) window() int {
	return max(p.opts.RecentObservations, p.opts.RecentWindow)
}

// covers reports whether win, read with the save, is the window ObservationWindow would
// read for the run obs (in increasing seq): from the same first seq, up to its last or
// beyond.
func covers(win cypher.Window, obs []realm.Observation) bool {
	return win.Read && win.First == obs[0].Seq && win.Last >= obs[len(obs)-1].Seq
}

// inSeqOrder is how many observations from the first are of its space in increasing seq,
// none replacing one of those before it (realm.Observation.Replaces): what that one adds
// is to be stored when its new version reads what to end (endReplaced).
func inSeqOrder(obs []realm.Observation) int {
	n := 1
	for n < len(obs) && obs[n].Space == obs[0].Space && obs[n].Seq > obs[n-1].Seq &&
		!slices.ContainsFunc(obs[:n], func(o realm.Observation) bool { return o.ID == obs[n].Replaces }) {
		n++
	}
	return n
}

// runPrefix integrates a prefix of obs as one run, writing their results, and returns
// its length: the observations up to the first whose extraction fails, that one
// included (its failure recorded as for one observation).
func (p *Pipeline) runPrefix(ctx context.Context, obs []realm.Observation, results []Result, win cypher.Window) int {
	for k, o := range obs {
		results[k] = Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusIntegrated, Usage: realm.Usage{}}
	}
	if !win.Read {
		var err error
		win, err = p.store.ObservationWindow(ctx, obs[0].Space, obs[0].Seq, obs[len(obs)-1].Seq, p.window())
		if err != nil {
			return p.oneByOne(ctx, obs, nil, 0, results)
		}
	}
	p.inZone(win.Observations)
	return p.runDecided(ctx, obs, win, results)
}

// before is the last n observations of seen (seq order) before seq, oldest first.
func before(seen []realm.Observation, seq int64, n int) []realm.Observation {
	end, _ := slices.BinarySearchFunc(seen, seq, func(o realm.Observation, s int64) int { return int(o.Seq - s) })
	return slices.Clone(seen[max(0, end-n):end])
}

// extract asks the agent for one observation's candidates, as construct does.
// A message whose words are not extracted (extracted) is not asked of the agent: it
// adds nothing, and keeps the summary. The agent is shown each message with its speaker
// and its role (a tool's output under the tool's name, "thermostat-3", who said it), and
// no chat role that is no one, nor the speaker of such a message, is made a person
// (rolePerson), whatever the agent says. An assistant's message is shown with its
// session's user's first messages when recent holds none of them (userOf).
func (p *Pipeline) extract(ctx context.Context, o realm.Observation, summary string, recent []realm.Observation, res *Result) (agent.Extraction, error) {
	if !p.extracted(o) {
		return agent.Extraction{}, nil
	}
	shown := p.shown(recent)
	in := agent.ExtractInput{Observation: o, Summary: summary, Recent: shown}
	if chatRole(o) == "assistant" && o.SessionID != "" && !slices.ContainsFunc(recent, func(r realm.Observation) bool { return userOf(o, r) }) {
		// Sent out of order (async jobs of a shuffled chat), the user's turns of the session
		// may be stored after the assistant's, or long before: its "you" is still the user.
		users, err := p.store.SessionUserMessages(ctx, o.Space, o.SessionID, sessionUserMessages)
		if err != nil {
			return agent.Extraction{}, fmt.Errorf("extract: read the session's user: %w", err)
		}
		in.Session = p.shown(users)
	}
	ext, usage, err := p.agent.Extract(ctx, in)
	res.Usage.Add(usage)
	if err != nil {
		return ext, fmt.Errorf("extract: %w", err)
	}
	ext.Candidates = slices.DeleteFunc(ext.Candidates, func(c agent.Candidate) bool { return rolePerson(o, c) })
	keepRecentSources(ext.Candidates, shown)
	for i, c := range ext.Candidates {
		if !c.Type.Valid() {
			return ext, fmt.Errorf("extract: candidate %d has type %q", i, c.Type)
		}
		composeNames(&ext.Candidates[i])
		if n := ext.Candidates[i].Name; utf8.RuneCountInString(n) > maxName {
			ext.Candidates[i].Name = shortened(n, maxName-1)
		}
	}
	return ext, nil
}

// shown is what of msgs the agent is shown: those whose words are extracted.
func (p *Pipeline) shown(msgs []realm.Observation) []realm.Observation {
	shown := make([]realm.Observation, 0, len(msgs))
	for _, r := range msgs {
		if p.extracted(r) {
			shown = append(shown, r)
		}
	}
	return shown
}

// sessionUserMessages bounds the messages of a session's user an assistant's message is
// shown with (agent.ExtractInput.Session): the user's name is in the first, unless it was
// sent without one.
const sessionUserMessages = 3

// maxName is the longest name of a memory, in characters: Neo4j indexes a memory's name
// (memory_space_name) and refuses a value of more than about 8 kB, which an agent's name of
// a few words can be ("the first eight words" of a message holding one long token), so the
// integration failed, again and again.
const maxName = 200

// composeNames composes (Unicode NFC) what names a candidate and what it is compared and
// found by: an entity's name and aliases, an event's participants, the keywords. A text
// may spell "José" with a combining accent (as macOS and iOS often send it) or with an
// accented letter: both name one entity, and either finds it. The content stays as said.
func composeNames(c *agent.Candidate) {
	if c.Type == realm.Entity {
		c.Name = norm.NFC.String(c.Name)
	}
	for _, names := range [][]string{c.Aliases, c.Participants, c.Keywords} {
		for i, n := range names {
			names[i] = norm.NFC.String(n)
		}
	}
}

// oneByOne integrates each observation on its own, from its extraction in exts when
// there is one (decided again, not extracted twice; made from a context read when the
// space's forget count was forgotten), and returns how many.
func (p *Pipeline) oneByOne(ctx context.Context, obs []realm.Observation, exts []agent.Extraction, forgotten int64, results []Result) int {
	for k, o := range obs {
		var ext *agent.Extraction
		if k < len(exts) {
			ext = &exts[k]
		}
		results[k] = p.integrateExtracted(ctx, o, ext, forgotten, results[k].Usage)
		if leftPending(results[k:k+1], obs[k+1:], results[k+1:len(obs)]) {
			break
		}
	}
	return len(obs)
}

// maxRun bounds the observations decided and written together: a job reports progress
// run by run, and a run's in-memory neighbourhoods approximate the stored ones only for
// what the run itself wrote (LoCoMo's retrieval was checked with runs of 25).
const maxRun = 25

// maxRunBytes bounds the content of a run besides its count: a run ends with the
// observation that brings it to this many bytes. A long message (an email, notes, stored
// in parts: as many candidates as a run of chat turns) is then a run of its own, written,
// and counted in its job's progress, as soon as it is integrated. 25 turns of LoCoMo
// hold 4,806 bytes at most.
const maxRunBytes = 8000

// runEnd is the end of the run of obs that starts at start.
func runEnd(obs []realm.Observation, start int) int {
	end, size := start, 0
	for end < len(obs) && end-start < maxRun && size < maxRunBytes {
		size += len(obs[end].Content)
		end++
	}
	return end
}

// runDecided integrates obs, extracted from win, run by run (runEnd); a run that cannot
// go through as one is integrated one observation at a time. They are extracted and
// their candidates embedded ahead (extractAhead): a run's while Neo4j reads and writes
// the one before, so that the first run is written once it is extracted, not once the
// whole batch is. It returns how many of obs it handled: up to the first whose
// extraction fails, that one included (its failure recorded as for one observation).
func (p *Pipeline) runDecided(ctx context.Context, obs []realm.Observation, win cypher.Window, results []Result) int {
	ahead := p.extractAhead(ctx, obs, win, results)
	defer ahead.stop()
	for start := 0; start < len(obs); {
		end, failure := ahead.extracted(runEnd(obs, start))
		if end == start {
			p.failed(ctx, obs[start], failure, &results[start])
			return start + 1
		}
		exts := ahead.exts[start:end]
		n, forgot := p.applyRun(ctx, obs[start:end], exts, win, results[start:end], func() { ahead.wait(end) })
		if n == 0 {
			redo := exts
			if forgot {
				redo = nil // extracted again, one by one, from the space as it is now
			}
			n = p.oneByOne(ctx, obs[start:end], redo, win.Forgotten, results[start:end])
		}
		if metUnavailable(results[start:start+n]) >= 0 {
			ahead.stop() // it writes the results of those it extracts: not once they are left pending
		}
		if leftPending(results[start:start+n], obs[start+n:], results[start+n:len(obs)]) {
			return len(obs)
		}
		start += n
	}
	return len(obs)
}

// extraction extracts a sequence of observations in the background, in order (each
// seeing the summary the one before left), and embeds the candidates of each run (runEnd)
// once it is extracted, into the pipeline's cache (embedcache.go): the model takes the
// cores while Neo4j reads and writes a run, and Neo4j is not idle while the agent
// extracts and the model embeds. A run's decisions do not depend on when its vectors
// were computed: it still reads them from the cache, in order, after the runs before it
// were written.
type extraction struct {
	exts    []agent.Extraction // per observation, written before its count is sent on extractedUpTo
	failure error              // the failed extraction's, once extractedUpTo is closed early
	// extractedUpTo and embeddedUpTo carry how many observations are extracted, and
	// embedded, after each run; each is closed at the end, or on a failure.
	extractedUpTo, embeddedUpTo chan int
	extractedN, embeddedN       int // the last counts received
	cancel                      context.CancelFunc
	stopped                     bool
}

// extractAhead starts extracting obs, from win, and embedding their candidates.
func (p *Pipeline) extractAhead(ctx context.Context, obs []realm.Observation, win cypher.Window, results []Result) *extraction {
	ctx, cancel := context.WithCancel(ctx)
	e := &extraction{exts: make([]agent.Extraction, len(obs)), cancel: cancel,
		extractedUpTo: make(chan int, len(obs)), embeddedUpTo: make(chan int, len(obs))}
	toEmbed := make(chan int, len(obs))
	go func() {
		defer close(e.extractedUpTo)
		defer close(toEmbed)
		summary, seen := win.Summary, win.Observations
		for start := 0; start < len(obs); {
			end := runEnd(obs, start)
			for k := start; k < end; k++ {
				ext, err := p.extract(ctx, obs[k], summary, before(seen, obs[k].Seq, p.opts.RecentObservations), &results[k])
				if err != nil {
					e.failure = err
					e.extractedUpTo <- k
					return
				}
				e.exts[k] = ext
				if ext.Summary != "" {
					summary = ext.Summary
				}
			}
			e.extractedUpTo <- end
			toEmbed <- end
			start = end
		}
	}()
	go func() {
		defer close(e.embeddedUpTo)
		embedded := 0
		for end := range toEmbed {
			if texts := candidateTexts(e.exts[embedded:end]); len(texts) > 0 {
				if _, err := p.embed(ctx, texts); err != nil {
					return // met again, and handled, by the run that embeds them
				}
			}
			e.embeddedUpTo <- end
			embedded = end
		}
	}()
	return e
}

// extracted waits until the first end observations are extracted, or one of them failed,
// and returns how many are: end, or the failed one's index and its failure.
func (e *extraction) extracted(end int) (int, error) {
	for e.extractedN < end {
		n, ok := <-e.extractedUpTo
		if !ok {
			return e.extractedN, e.failure
		}
		e.extractedN = n
	}
	return end, nil
}

// wait returns once the candidates of the first k observations are embedded, or the
// embedding stopped.
func (e *extraction) wait(k int) {
	for e.embeddedN < k {
		n, ok := <-e.embeddedUpTo
		if !ok {
			e.embeddedN = k
			return
		}
		e.embeddedN = n
	}
}

// stop ends the extraction and the embedding and waits for them.
func (e *extraction) stop() {
	if e.stopped {
		return
	}
	e.stopped = true
	e.cancel()
	for range e.extractedUpTo {
	}
	for range e.embeddedUpTo {
	}
}

// candidateTexts is what the candidates of exts are embedded as, in order.
func candidateTexts(exts []agent.Extraction) []string {
	var texts []string
	for _, ext := range exts {
		for _, c := range ext.Candidates {
			texts = append(texts, embedText(c.Name, c.Content))
		}
	}
	return texts
}

// applyRun reads the neighbourhoods of every candidate of the run, decides in order and
// writes in one transaction, under the space's lock. It reads what needs no vector
// (cypher.RunContext) while the candidates may still be being embedded, then calls
// embedded, takes their vectors from the cache and reads their similar memories
// (cypher.RunSimilar). The run ends before an observation whose keyword neighbours would
// include a stored memory it did not read (the run's own memories moved the words'
// statistics so far that one ranked past keywordSlack comes in): that observation reads
// them from the store once the run is written (runDecided starts the next run there).
// It returns how many of obs it integrated: 0 when they must be integrated one
// observation at a time, and forgot when that is because the space forgot a message
// since the extractions read their context (they may quote it: made again).
func (p *Pipeline) applyRun(ctx context.Context, obs []realm.Observation, exts []agent.Extraction, win cypher.Window, results []Result, embedded func()) (n int, forgot bool) {
	space := obs[0].Space
	q := cypher.RunQuery{Space: space, K: p.opts.NeighbourK}
	first := make([]int, len(obs)+1) // candidates of observation k: first[k]..first[k+1]
	for k, ext := range exts {
		first[k] = len(q.Texts)
		for _, c := range ext.Candidates {
			q.Texts = append(q.Texts, strings.Join(append([]string{c.Name}, c.Keywords...), " "))
			q.Slots = append(q.Slots, slotOf(c))
		}
	}
	first[len(obs)] = len(q.Texts)
	texts := candidateTexts(exts)
	recent := make([]map[string]bool, len(obs)) // the observations whose memories are recent to each
	from := map[string]bool{}
	for k, o := range obs {
		recent[k] = map[string]bool{}
		for _, r := range before(win.Observations, o.Seq, p.opts.RecentWindow) {
			recent[k][r.ID] = true
			if !from[r.ID] {
				from[r.ID] = true
				q.RecentFrom = append(q.RecentFrom, r.ID)
			}
		}
	}
	unlock, err := p.spaces.lock(ctx, space)
	if err != nil {
		return 0, false
	}
	defer unlock()
	var cands []agent.Candidate
	for _, ext := range exts {
		cands = append(cands, ext.Candidates...)
	}
	var at []int // per candidate, its episode among q.EpisodesBefore or EpisodesNamed
	q.EpisodesBefore, q.EpisodesNamed, at = episodeQuery(obs, exts)
	read, err := p.store.RunContext(ctx, q)
	if err != nil {
		return 0, false
	}
	embedded()
	if len(texts) > 0 {
		if q.Embeddings, err = p.embed(ctx, texts); err != nil {
			return 0, false
		}
	}
	if read, err = p.store.RunSimilar(ctx, q, read); err != nil {
		return 0, false
	}
	stored := perCandidate(cands, at, read.Episodes)
	for round := 1; round <= p.opts.MaxDecisions; round++ {
		ov := newOverlay(read)
		ins := make([]cypher.ObservationIntegration, 0, len(obs))
	run:
		for k, o := range obs {
			embs := q.Embeddings[first[k]:first[k+1]]
			hoods := make([][]cypher.CandidateNeighbour, len(embs))
			for i := range hoods {
				var complete bool
				hoods[i], complete = ov.neighbourhood(read, first[k]+i, q.Texts[first[k]+i], embs[i], recent[k], p.opts.NeighbourK)
				if !complete && k > 0 {
					break run
				}
				j := first[k] + i
				hoods[i] = withNeighbour(hoods[i], ov.episode(cands[j], o.Session(), at[j] >= 0, stored[j]))
			}
			// A run whose ids another space holds fails, and its observations are then
			// integrated one by one, which avoid them (apply).
			in, err := p.decide(ctx, o, exts[k], embs, hoods, &results[k], false)
			if err != nil {
				return 0, false
			}
			ov.apply(o, in, hoods)
			in.Forgotten, in.Usage = win.Forgotten, results[k].Usage
			ins = append(ins, cypher.ObservationIntegration{ObservationID: o.ID, Generation: o.Generation, Integration: in})
		}
		applied, err := p.store.ApplyRun(ctx, q, read, ins)
		switch {
		case err != nil || applied.NotPending:
			return 0, false
		case applied.Forgot:
			return 0, true
		case applied.Changed:
			p.log.Debug().Str("space", space).Int("observations", len(obs)).Int("round", round).
				Msg("the neighbourhoods changed before the run was applied; deciding again")
			read = applied.Neighbours
			continue
		}
		for k := range ins {
			results[k].Edges = applied.Edges[k]
		}
		return len(ins), false
	}
	return 0, false
}

// overlay is what the observations of a run decided so far write: the memories they add
// or change, as they will be, and the observations of the run each derives from.
type overlay struct {
	nodes map[string]realm.Node
	order []string                   // node ids, in the order first written
	from  map[string][]string        // node id → observations of the run it derives from
	words map[string]map[string]bool // node id → the stems of its text, for those whose text the run wrote
	added int                        // nodes the run added
	read  map[string]realm.Node      // the stored keyword matches read, by id
}

func newOverlay(read cypher.RunNeighbours) *overlay {
	ov := &overlay{nodes: map[string]realm.Node{}, from: map[string][]string{}, words: map[string]map[string]bool{}, read: map[string]realm.Node{}}
	for _, list := range read.Text {
		for _, n := range list {
			ov.read[n.ID] = n
		}
	}
	return ov
}

// state is n as the run so far leaves it.
func (ov *overlay) state(n realm.Node) realm.Node {
	if m, ok := ov.nodes[n.ID]; ok {
		return m
	}
	return n
}

// put records n as the run leaves it; text tells that the run wrote its text (an add
// or a merge), which the keyword search then matches as the index would.
func (ov *overlay) put(n realm.Node, obsID string, text bool) {
	if _, ok := ov.nodes[n.ID]; !ok {
		ov.order = append(ov.order, n.ID)
	}
	ov.nodes[n.ID] = n
	if text {
		ov.words[n.ID] = stems(n.Name + " " + n.Content + " " + strings.Join(n.Keywords, " "))
	}
	if obsID != "" && !slices.Contains(ov.from[n.ID], obsID) {
		ov.from[n.ID] = append(ov.from[n.ID], obsID)
	}
}

// apply records one observation's integration, decided on hoods.
func (ov *overlay) apply(o realm.Observation, in cypher.Integration, hoods [][]cypher.CandidateNeighbour) {
	known := map[string]realm.Node{}
	for _, hood := range hoods {
		for _, n := range hood {
			known[n.Node.ID] = n.Node
		}
	}
	now := time.Now().UTC()
	for _, n := range in.Adds {
		ov.put(n, o.ID, true)
		ov.added++
	}
	for _, m := range in.Merges {
		n, ok := known[m.ID]
		if !ok {
			continue
		}
		if m.Name != "" {
			n.Name = m.Name
		}
		if m.Content != "" {
			n.Content = m.Content
		}
		if m.Embedding != nil {
			n.Embedding = m.Embedding
		}
		n.Keywords = m.Keywords
		if m.Aliases != nil {
			n.Aliases = m.Aliases
		}
		// A memory read without its sources (derived from many observations: cypher.DerivedMemory)
		// stays without them: with this one alone it would look derived from it alone.
		if len(n.Sources) > 0 && !slices.Contains(n.Sources, o.ID) {
			n.Sources = append(slices.Clone(n.Sources), o.ID)
		}
		n.UpdatedAt = now
		ov.put(n, o.ID, true)
	}
	for _, id := range in.Repeats {
		if n, ok := known[id]; ok {
			ov.put(ov.state(n), o.ID, false) // derived from o too: recent to the observations after it
		}
	}
	for _, e := range in.Ends {
		n, ok := ov.nodes[e.ID]
		if !ok {
			if n, ok = known[e.ID]; !ok {
				continue
			}
		}
		if n.ValidUntil == nil || e.ValidUntil.Before(*n.ValidUntil) {
			until := e.ValidUntil
			n.ValidUntil = &until
		}
		if n.SupersededAt == nil {
			n.SupersededAt = &now
		}
		ov.put(n, "", false)
	}
}

// neighbourhood is candidate i's N_sim ∪ N_recent (REALM.md §2 step 3) as the run so far
// leaves the stored one read: the K most similar memories by vector among the stored
// ones and the run's, the K best keyword matches of its text among the stored ones and
// the run's, the stored current holders of its slot (cypher.RunNeighbours.Holders) and
// the memories derived from the observations recent to it. complete is
// false when a keyword match is a stored memory that was not read.
func (ov *overlay) neighbourhood(read cypher.RunNeighbours, i int, keywords string, emb []float32, recentFrom map[string]bool, k int) (hood []cypher.CandidateNeighbour, complete bool) {
	byID := map[string]int{}
	add := func(n realm.Node, similar, recent bool) {
		n = ov.state(n)
		if j, ok := byID[n.ID]; ok {
			hood[j].Similar = hood[j].Similar || similar
			hood[j].Recent = hood[j].Recent || recent
			return
		}
		byID[n.ID] = len(hood)
		hood = append(hood, cypher.CandidateNeighbour{Node: n, Similar: similar, Recent: recent})
	}
	for _, n := range ov.similar(read.Vector[i], emb, k) {
		add(n, true, false)
	}
	matches, complete := ov.keywordMatches(read, i, keywords, k)
	for _, n := range matches {
		add(n, true, false)
	}
	if i < len(read.Holders) {
		for _, n := range read.Holders[i] {
			add(n, true, false)
		}
	}
	for _, d := range read.Recent {
		if slices.ContainsFunc(d.From, func(id string) bool { return recentFrom[id] }) {
			add(d.Node, false, true)
		}
	}
	for _, id := range ov.order {
		if slices.ContainsFunc(ov.from[id], func(id string) bool { return recentFrom[id] }) {
			add(ov.nodes[id], false, true)
		}
	}
	return hood, complete
}

// keywordMatches is the k best keyword matches of a candidate's text among the stored
// memories read and the run's, ranked as the store ranks them (cypher.RankKeywords):
// the run's memories match the words the index would match (stems), and count in the
// space's statistics. ok is false when one of them is a stored memory that was not read.
func (ov *overlay) keywordMatches(read cypher.RunNeighbours, i int, keywords string, k int) (out []realm.Node, ok bool) {
	if i >= len(read.Text) {
		return nil, true
	}
	if len(ov.words) == 0 {
		return read.Text[i][:min(k, len(read.Text[i]))], true
	}
	n := read.Keywords.N + int64(ov.added)
	postings := func(w string) []cypher.KeywordPosting {
		if read.Keywords.Common[w] {
			return nil // ranks nothing, the run's memories neither (cypher.KeywordStats)
		}
		var out []cypher.KeywordPosting
		for _, p := range read.Keywords.Words[w] {
			if ov.words[p.ID] == nil {
				out = append(out, p)
			}
		}
		if cypher.IsIndexStopword(w) {
			return out
		}
		stem := text.Stem(w)
		for _, id := range ov.order {
			if ov.words[id][stem] {
				out = append(out, cypher.TextPosting(ov.nodes[id], w))
			}
		}
		if cypher.IsCommonWord(n, len(out)) {
			return nil // as the store will count it once the run is written
		}
		return out
	}
	for _, id := range cypher.RankKeywords(n, cypher.KeywordWords(keywords), postings, k) {
		n, ok := ov.nodes[id]
		if !ok {
			if n, ok = ov.read[id]; !ok {
				return out, false
			}
		}
		out = append(out, n)
	}
	return out, true
}

// similar is the k most similar to emb of the stored nodes read and the run's, best
// first, ties by id (as the store ranks them).
func (ov *overlay) similar(stored []realm.Node, emb []float32, k int) []realm.Node {
	if len(ov.nodes) == 0 || len(emb) == 0 {
		return stored
	}
	type scored struct {
		n     realm.Node
		score float64
	}
	var all []scored
	seen := map[string]bool{}
	for _, n := range stored {
		n = ov.state(n)
		seen[n.ID] = true
		all = append(all, scored{n, realm.Cosine(emb, n.Embedding)})
	}
	for _, id := range ov.order {
		if n := ov.nodes[id]; !seen[id] && len(n.Embedding) == len(emb) {
			all = append(all, scored{n, realm.Cosine(emb, n.Embedding)})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.n.ID, b.n.ID)
	})
	out := make([]realm.Node, 0, k)
	for _, s := range all[:min(k, len(all))] {
		out = append(out, s.n)
	}
	return out
}

// stems is the set of the words of s, stemmed.
func stems(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range text.Words(s) {
		out[text.Stem(w)] = true
	}
	return out
}
