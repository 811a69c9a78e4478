package cypher

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/rs/zerolog/log"

	"github.com/realm-memory/realm"
)

// The read path's keyword seeds (SeedByFullText) of a space are computed here, in Go,
// from an in-memory index of the space's memories, instead of by seed_fulltext.cypher,
// whose full-text query reads every memory of the space holding a common word (61,000 of
// 100,000) and then scores them in Cypher. The index matches a word as the full-text
// index does (the english analyzer, analyzer.go) and scores as seed_fulltext.cypher does
// with every match (no fetch limit), so both return the same seeds with the same scores.
// A space's index is read in one statement (memory_texts.cypher) and used only while the
// space's fingerprint (textKey) is the one it was read at or that this process's writes
// it followed left (keywords.go, written and deleted); when the fingerprint moved
// otherwise (another process wrote), the seeds come from seed_fulltext.cypher while the
// index is read again in the background, so that no recall waits for a read of a large
// space.

// maxCachedTexts bounds the memories indexed, all spaces together; the least recently
// used spaces go first.
const maxCachedTexts = 100_000

// keywordLoadTimeout bounds one background read of a space's index.
const keywordLoadTimeout = 2 * time.Minute

// textKey is the state of a space that an index read at it serves: the space's memory
// count and memories_version (SpaceState), as seed_space_size.cypher and
// memory_texts.cypher read them. Every write that changes a memory's text, type or time
// changes one of them (a space whose version was never set is never served from the
// index). To key on another version, change it in both statements.
func textKey(n int64, version string) SpaceState {
	return SpaceState{N: n, Version: version}
}

// keywordCache holds the keyword indexes of recently searched spaces.
type keywordCache struct {
	mu     sync.Mutex
	spaces map[string]*spaceTexts
	reads  backgroundReads // of spaces' indexes (refresh)
	clock  int64           // counts uses: the least recently used space has the smallest used
	// reading holds, per space whose index is being read, this process's writes to it
	// since the read began (keywords.go, written), for the read to catch up with.
	reading ownWriteLog
}

// textsRead, when set, runs after a read's statement (tests write there).
var textsRead func()

// spaceTexts is the keyword index of one space in one state; never changed once built
// (but for used). A write of this process makes a new one from it (keywordCache.written,
// keywords.go) that shares what the write left alone: the per-memory slices and the lists
// of terms and runs are only ever appended to past the length an older index sees, a
// memory's changed text is indexed again at a new position (the old one is dead), a list
// that loses a memory is copied, and the lists a follow changed are held in small maps
// (recentTerms, recentHits) in front of the ones read or last merged.
type spaceTexts struct {
	state SpaceState
	ids   []string
	texts []string  // lower-cased name, content and keywords, as seed_fulltext.cypher builds them
	dls   []float64 // word_count, or the words of texts without it
	// The words of texts split on single spaces: a posting's DL as the statement gives it
	// (posting), counted once per text rather than once per word asked.
	splits []float64
	types  []realm.NodeType
	start  []time.Time        // t_start; zero when none
	end    []time.Time        // coalesce(t_end, t_start); zero when none
	terms  map[string][]int32 // analyzer term → memories holding it in name, content or keywords, ascending
	// The runs of letters and digits of texts, each once, with the memories holding them:
	// a word of letters and digits only occurs in a text only inside such runs, so its
	// count in every text (seed_fulltext's tf) is read from the runs that hold it
	// (wordCounts) instead of from every text.
	runs    []string
	runHits [][]runHit
	// Followed writes (keywords.go): the lists of terms and runs they changed, in place of
	// terms' and runHits' (an empty list: the term is in no memory), and the positions no
	// memory is at any more (a merged memory's text before, a deleted memory), which are
	// in no list of terms; their runs' hits stay, never read (wordCounts counts for the
	// memories a term matched).
	recentTerms map[string][]int32
	recentHits  map[int32][]runHit
	dead        []int32
	// next is set when a follow made a newer index of this one: the slices past this
	// one's lengths are that index's, so no other may be made from this one.
	next atomic.Bool
	// where is the follows' map of each live memory's position and each run's, carried
	// from an index to the one made from it (built at the first follow).
	where *textPositions
	used  int64
}

// textPositions is where a followed index holds each memory (by id) and each run.
type textPositions struct {
	at, runAt map[string]int32
}

// term is the list of memories holding term.
func (t *spaceTexts) term(term string) []int32 {
	if list, ok := t.recentTerms[term]; ok {
		return list
	}
	return t.terms[term]
}

// hits is the list of memories holding run r, and how many times.
func (t *spaceTexts) hits(r int32) []runHit {
	if hits, ok := t.recentHits[r]; ok {
		return hits
	}
	return t.runHits[r]
}

// live is, per position, whether a memory is at it; nil when every position holds one.
func (t *spaceTexts) live() []bool {
	if len(t.dead) == 0 {
		return nil
	}
	live := make([]bool, len(t.ids))
	for i := range live {
		live[i] = true
	}
	for _, i := range t.dead {
		live[i] = false
	}
	return live
}

// runHit is a memory holding a run, and how many times.
type runHit struct {
	i, n int32
}

// KeywordIndexStats describes a space's keyword index as LoadKeywordIndex read it.
type KeywordIndexStats struct {
	Memories, Terms, Postings int
	Load                      time.Duration
}

// LoadKeywordIndex reads the space's keyword index now (the read path does it in the
// background when it finds none current) and says what it holds.
func (s *Store) LoadKeywordIndex(ctx context.Context, space string) (KeywordIndexStats, error) {
	started := time.Now()
	t, err := s.texts.load(ctx, s, space)
	if err != nil || t == nil {
		return KeywordIndexStats{}, err
	}
	st := KeywordIndexStats{Memories: len(t.ids), Terms: len(t.terms), Load: time.Since(started)}
	for _, ps := range t.terms {
		st.Postings += len(ps)
	}
	return st, nil
}

// current returns the space's index when it is of state, else nil.
func (c *keywordCache) current(space string, state SpaceState) *spaceTexts {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.spaces[space]
	if t == nil || t.state != state || state.Version == "" {
		return nil
	}
	c.clock++
	t.used = c.clock
	return t
}

// held returns the version and memory count of the space's index held ("" and 0: none).
func (c *keywordCache) held(space string) (string, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.spaces[space]; t != nil {
		return t.state.Version, t.state.N
	}
	return "", 0
}

// refresh reads the space's index in the background unless a read of it is running.
func (c *keywordCache) refresh(s *Store, space string) {
	c.reads.start(space, func(ctx context.Context) {
		if _, err := c.load(ctx, s, space); err != nil {
			log.Warn().Err(err).Str("space", space).Msg("keyword index not read; keyword seeds stay in Cypher")
		}
	})
}

// backgroundReads runs a cache's reads of spaces in the background, one at a time per
// space, and after a slow one (a large space) not again before readGap times its
// duration: both paths ask for a read whenever another process wrote, and while it
// keeps writing, each read of a large space ends stale and is dropped, so reads one
// after the other would keep Neo4j reading the whole space all the time.
type backgroundReads struct {
	mu      sync.Mutex
	running map[string]bool
	next    map[string]time.Time // after a slow read: when the space's next may start
}

// slowRead and readGap: a read taking more than slowRead is followed by a pause of
// readGap times its duration (at most a tenth of the time spent reading a space).
const (
	slowRead = 100 * time.Millisecond
	readGap  = 10
)

// start runs read in a goroutine of its own, bounded by keywordLoadTimeout and left out of
// OpenTransactions, unless a read of the space is running or paused after a slow one.
func (b *backgroundReads) start(space string, read func(ctx context.Context)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running[space] || time.Now().Before(b.next[space]) {
		return
	}
	if b.running == nil {
		b.running, b.next = map[string]bool{}, map[string]time.Time{}
	}
	b.running[space] = true
	go func() {
		ctx, cancel := context.WithTimeout(inBackground(context.Background()), keywordLoadTimeout)
		defer cancel()
		started := time.Now()
		read(ctx)
		took := time.Since(started)
		b.mu.Lock()
		delete(b.running, space)
		delete(b.next, space)
		if took > slowRead {
			b.next[space] = time.Now().Add(readGap * took)
		}
		b.mu.Unlock()
	}()
}

// busy says whether a read of space is running.
func (b *backgroundReads) busy(space string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.running[space]
}

// load reads the space's index (memory_texts.cypher) and keeps it, caught up with the
// writes this process made to the space meanwhile (caughtUp), when the space has a
// version and every write that overlapped the read is one of them; it returns nil for
// an empty space or a read it could not keep. A process writing a large space without
// pause overlaps every read of it: without its own writes to catch up with, its write
// path would never get the index.
func (c *keywordCache) load(ctx context.Context, s *Store, space string) (*spaceTexts, error) {
	own, done := c.reading.begin(&c.mu, space)
	defer done()
	recs, err := s.read(ctx, qMemoryTexts, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	if textsRead != nil {
		textsRead()
	}
	r := recs[0]
	t := &spaceTexts{state: textKey(num(r, "n"), str(r, "version")), terms: map[string][]int32{}}
	runAt, memo := map[string]int32{}, map[string]string{}
	v, _ := r.Get("memories")
	for i, row := range asList(v) {
		f := asList(row)
		if len(f) < 8 {
			continue
		}
		name, _ := f[1].(string)
		content, _ := f[2].(string)
		keywords := stringList(f[3])
		text := memoryText(name, content, keywords)
		dl := posting("", text, "").DL
		if wc, ok := f[4].(int64); ok {
			dl = float64(wc)
		}
		kind, _ := f[5].(string)
		start, end := timeOf(f[6]), timeOf(f[7])
		if end.IsZero() {
			end = start
		}
		id, _ := f[0].(string)
		t.ids = append(t.ids, id)
		t.texts = append(t.texts, text)
		t.dls = append(t.dls, dl)
		t.splits = append(t.splits, float64(spaceSplitWords(text)))
		t.types = append(t.types, realm.NodeType(kind))
		t.start = append(t.start, start)
		t.end = append(t.end, end)
		t.addRuns(int32(i), text, runAt)
		seen := map[string]bool{}
		for _, field := range append([]string{name, content}, keywords...) {
			for _, term := range analyzeWith(field, memo) {
				if !seen[term] {
					seen[term] = true
					t.terms[term] = append(t.terms[term], int32(i))
				}
			}
		}
	}
	if t.state.Version == "" || len(t.ids) == 0 {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t = t.caughtUp(own.writes, str(r, "after"))
	if t == nil {
		return nil, nil
	}
	c.putLocked(space, t)
	return t, nil
}

// caughtUp is t, read from the store between the versions t.state.Version and after,
// caught up with writes (catchUp): nil when it cannot be. A memory t already holds (the
// read saw its write) is indexed again, as the write left it.
func (t *spaceTexts) caughtUp(writes []ownWrite, after string) *spaceTexts {
	u, ok := catchUp(t, t.state, writes, after, func(t *spaceTexts, w ownWrite) (*spaceTexts, bool) {
		t.next.Store(true)
		u, ok := t.with(w.ins, w.nodes)
		if ok {
			u.state = w.after
		}
		return u, ok
	})
	if !ok {
		return nil
	}
	return u
}

// addRuns records the runs of letters and digits of memory i's text.
func (t *spaceTexts) addRuns(i int32, text string, runAt map[string]int32) {
	for run, n := range runCounts(text) {
		at := t.runIndex(run, runAt)
		t.runHits[at] = append(t.runHits[at], runHit{i, n})
	}
}

func notAlphanumeric(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// wordCounts returns word's count in each text (as a substring), indexed like texts, for
// the memories of docs; nil when word holds other characters than letters and digits
// (then termFrequency counts it in each text).
func (t *spaceTexts) wordCounts(word string) []int32 {
	if word == "" || strings.IndexFunc(word, notAlphanumeric) >= 0 {
		return nil
	}
	counts := make([]int32, len(t.ids))
	for at, run := range t.runs {
		if len(run) < len(word) {
			continue
		}
		if c := int32(strings.Count(run, word)); c > 0 {
			for _, h := range t.hits(int32(at)) {
				counts[h.i] += c * h.n
			}
		}
	}
	return counts
}

// put stores t as space's index, evicting the least recently used spaces beyond
// maxCachedTexts.
func (c *keywordCache) put(space string, t *spaceTexts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(space, t)
}

// putLocked is put with c.mu held.
func (c *keywordCache) putLocked(space string, t *spaceTexts) {
	if c.spaces == nil {
		c.spaces = map[string]*spaceTexts{}
	}
	c.clock++
	t.used = c.clock
	c.spaces[space] = t
	evictOldest(c.spaces, space, maxCachedTexts, func(t *spaceTexts) (int, int64) { return len(t.ids), t.used })
}

// drop forgets space's index.
func (c *keywordCache) drop(space string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.spaces, space)
}

// textScore is a memory of the index (its position) with its score.
type textScore struct {
	i     int32
	score float64
}

// search returns the best limit memories passing the filters of q (q.Among too) for the
// words of terms (spaceTerms), best first, ties by id, as seed_fulltext.cypher scores them
// with every match: a word the analyzer leaves no term of (a stop word) matches every
// memory, as its Lucene query does.
func (t *spaceTexts) search(terms []map[string]any, q SeedQuery, limit int) []textScore {
	n := len(t.ids)
	found := make([]bool, n)
	type match struct {
		word string
		idf  float64
		docs []int32
	}
	matches := make([]match, 0, len(terms))
	dlSum, nFound := 0.0, 0
	for _, term := range terms {
		word := term["word"].(string)
		docs := t.matching(word, n)
		for _, i := range docs {
			if !found[i] {
				found[i] = true
				dlSum += t.dls[i]
				nFound++
			}
		}
		size := float64(len(docs))
		idf := math.Log(1.0 + (float64(t.state.N)-size+0.5)/(size+0.5))
		matches = append(matches, match{word, idf, docs})
	}
	if nFound == 0 {
		return nil
	}
	avgdl := dlSum / float64(nFound)
	var among map[string]bool
	if q.Among != nil {
		among = make(map[string]bool, len(q.Among))
		for _, id := range q.Among {
			among[id] = true
		}
	}
	pass := make([]bool, n)
	for i := range n {
		pass[i] = found[i] && t.passes(i, q) && (among == nil || among[t.ids[i]])
	}
	scores := make([]float64, n)
	for _, m := range matches {
		counts := t.wordCounts(m.word)
		for _, i := range m.docs {
			if !pass[i] {
				continue
			}
			tf := 1.0
			if counts == nil {
				tf = termFrequency(t.texts[i], m.word)
			} else if counts[i] > 0 {
				tf = float64(counts[i])
			}
			scores[i] += m.idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*t.dls[i]/avgdl))
		}
	}
	better := func(a, b textScore) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return t.ids[a.i] < t.ids[b.i]
	}
	best := make([]textScore, 0, limit+1)
	for i := range n {
		if !pass[i] {
			continue
		}
		best = keepBest(best, textScore{int32(i), scores[i]}, limit, better)
	}
	return best
}

// matching returns the memories whose name, content or keywords share a term with word,
// ascending; all n positions that hold a memory when the analyzer leaves no term of word.
func (t *spaceTexts) matching(word string, n int) []int32 {
	qterms := analyze(word)
	if len(qterms) == 0 {
		live := t.live()
		all := make([]int32, 0, n)
		for i := range n {
			if live == nil || live[i] {
				all = append(all, int32(i))
			}
		}
		return all
	}
	if len(qterms) == 1 {
		return t.term(qterms[0])
	}
	var out []int32
	for _, q := range qterms {
		out = append(out, t.term(q)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// passes reports whether memory i passes q's type and time filters, as seed_fulltext.cypher
// filters: memories without a time always pass a time range.
func (t *spaceTexts) passes(i int, q SeedQuery) bool {
	if len(q.Types) > 0 && !slices.Contains(q.Types, t.types[i]) {
		return false
	}
	if q.TimeRange == nil || t.start[i].IsZero() {
		return true
	}
	if !q.TimeRange.From.IsZero() && t.end[i].Before(q.TimeRange.From) {
		return false
	}
	return q.TimeRange.To.IsZero() || !t.start[i].After(q.TimeRange.To)
}

// seedFromIndex is SeedByFullText answered by the space's index t: the best memories'
// scores from t, their properties read by id (one statement).
func (s *Store) seedFromIndex(ctx context.Context, space string, t *spaceTexts, terms []map[string]any, q SeedQuery, limit int) ([]ScoredMemory, error) {
	best := t.search(terms, q, limit)
	if len(best) == 0 {
		return []ScoredMemory{}, nil // as the statement: a list, empty
	}
	ids := make([]string, len(best))
	for j, b := range best {
		ids[j] = t.ids[b.i]
	}
	nodes, err := s.MemoriesByIDs(ctx, space, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]realm.Node, len(nodes))
	for _, n := range nodes {
		byID[n.ID] = n
	}
	out := make([]ScoredMemory, 0, len(best))
	for j, b := range best {
		if n, ok := byID[ids[j]]; ok {
			out = append(out, ScoredMemory{Node: n, Score: b.score})
		}
	}
	return out, nil
}

// memoryText is a memory's lower-cased text as the full-text statements build it: name,
// content, then ' ' + each keyword, after one more space.
func memoryText(name, content string, keywords []string) string {
	var b strings.Builder
	b.WriteString(name + " " + content + " ")
	for _, k := range keywords {
		b.WriteString(" " + k)
	}
	return strings.ToLower(b.String())
}
