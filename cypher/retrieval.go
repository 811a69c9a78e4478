package cypher

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog/log"

	"github.com/realm-memory/realm"
)

// The read path's statements (REALM.md §3). Every one filters by space; scoring is done
// by the caller (package retrieval), which gets the embeddings, weights and times it needs.

// SeedQuery is one seed search of a space.
type SeedQuery struct {
	Embedding []float32        // vector searches
	Keywords  []string         // full-text search; each is escaped, then OR-ed
	Types     []realm.NodeType // empty: any type
	TimeRange *realm.TimeRange // nil: any time; memories without a time always pass
	// Among, when not nil, is the only memories the search may return (a recall's
	// filters): the vector searches score each of them exactly (SeedAmong), whatever the
	// space's size; the full-text search and SeedSaidIn keep them alone.
	Among []string
	Limit int // how many candidates to return
	// SpaceSize is the space's memory count, the full-text scores' N (SpaceCounts
	// .InSpace, which a recall reads anyway); 0: SeedByFullText counts them.
	SpaceSize int64
	// SpaceVersion is the space's memories_version read with SpaceSize (SpaceCounts
	// .Version): SeedByFullText answers from the space's in-memory keyword index when it
	// is of that state (keywordindex.go); "": from the full-text index.
	SpaceVersion string
}

// ScoredMemory is a memory with the score of the search that found it.
type ScoredMemory struct {
	Node  realm.Node
	Score float64
}

// SpaceSize returns how many memories the space holds and how many the database holds.
func (s *Store) SpaceSize(ctx context.Context, space string) (inSpace, total int64, err error) {
	c, err := s.SpaceCounts(ctx, space)
	return c.InSpace, c.Total, err
}

// SpaceCounts are the sizes the read path chooses its seed search by, and the space's
// observation seq.
type SpaceCounts struct {
	InSpace int64  // memories of the space
	Total   int64  // memories of the database
	Seq     int64  // the space's last observation seq; -1 without a Space node
	Version string // the space's memories_version ("" when never set; see SpaceState)
	// GraphVersion changes with every write to the space's memories or memory edges
	// (not with a recall's access counts); "" when the space has none yet.
	GraphVersion string
	// NoLearnedLinks: the space's Space node says it holds no learned link, so
	// LearnedLinks would return none (false when it may hold some, or when not known).
	NoLearnedLinks bool
}

// SpaceCounts counts the space's and the database's memories and reads the space's seq.
// Memories are only added with a new observation (which moves seq), by a correction (an
// event or a fact, never an entity) or in bulk by fixtures, and only removed one by one or
// with the space, so an unchanged (InSpace, Seq) means that the space's entities and their
// provenance are as they were.
func (s *Store) SpaceCounts(ctx context.Context, space string) (SpaceCounts, error) {
	known, knownN := s.texts.held(space)
	recs, err := s.read(ctx, qSeedSpaceSize, map[string]any{"space": space, "known": known, "known_n": knownN})
	if err != nil || len(recs) == 0 {
		return SpaceCounts{Seq: -1}, err
	}
	learned, _ := recs[0].Get("learned_links")
	return SpaceCounts{InSpace: num(recs[0], "in_space"), Total: num(recs[0], "total"), Seq: num(recs[0], "seq"), Version: str(recs[0], "version"),
		GraphVersion: str(recs[0], "graph_version"), NoLearnedLinks: learned == false}, nil
}

// LearnedAfter counts the memories of the space learned after t (realm.Node.LearnedAt).
func (s *Store) LearnedAfter(ctx context.Context, space string, t time.Time) (int64, error) {
	recs, err := s.read(ctx, qMemoryLearnedAfter, map[string]any{"space": space, "time": t.UTC()})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return num(recs[0], "later"), nil
}

// CommonNames returns the names of the space's entities derived from at least share of
// its observations and at least min of them: one list per entity, its name then its
// aliases (retrieval keeps apart two participants who share a name in part).
func (s *Store) CommonNames(ctx context.Context, space string, share float64, min int) ([][]string, error) {
	recs, err := s.read(ctx, qSpaceCommonNames, map[string]any{"space": space, "share": share, "min": min, "sources_max": realm.SourcesMax})
	if err != nil {
		return nil, err
	}
	var names [][]string
	for _, r := range recs {
		v, _ := r.Get("aliases")
		names = append(names, append([]string{str(r, "name")}, stringList(v)...))
	}
	return names, nil
}

// filteredSearchTimeout bounds the one attempt at a filtered vector search (see
// SeedByVectorIndex); a healthy one takes milliseconds to a few seconds on a busy machine.
// After a failure the space's searches over-fetch for filteredPause before trying again.
const (
	filteredSearchTimeout = 10 * time.Second
	filteredPause         = 10 * time.Minute
)

// SeedByVectorIndex returns the best q.Limit memories of the space passing the filters
// by the vector index. On Neo4j 2026.x the index searches this space only, for q.Limit
// nearest, or 4·q.Limit when types or a time range filter them after; on 5.26 it is asked
// for its fetch nearest memories of all spaces, and this space's are kept. Score is the
// cosine similarity in [-1, 1].
func (s *Store) SeedByVectorIndex(ctx context.Context, space string, q SeedQuery, fetch int) ([]ScoredMemory, error) {
	if q.Among != nil {
		return s.SeedAmong(ctx, space, q)
	}
	params := seedParams(space, q)
	params["embedding"] = vector64(q.Embedding)
	params["fetch"] = fetch
	if s.filtered && !s.pausedFiltered(space) {
		limit := params["limit"].(int)
		params["fetch"] = limit
		if len(q.Types) > 0 || q.TimeRange != nil {
			params["fetch"] = 4 * limit
		}
		recs, err := s.searchFiltered(ctx, space, qSeedVectorFiltered, params)
		if err == nil {
			return scoredOf(recs, true), nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		params["fetch"] = fetch
	}
	return s.scoredMemories(ctx, qSeedVectorIndex, params, true)
}

// searchFiltered runs q, a vector search filtered by space inside the index, once, in a
// transaction of its own bounded by filteredSearchTimeout. Neo4j 2026.08.1's filtered
// search can fail on an index with deletions (Lucene's filter bits out of bounds), the
// same way when tried again, and the server may leave the connection without an answer
// rather than say so: after a failure (not ctx's) the space's searches over-fetch like
// 5.26's during filteredPause.
func (s *Store) searchFiltered(ctx context.Context, space string, q query, params map[string]any) ([]*neo4j.Record, error) {
	if err := q.check(params); err != nil {
		return nil, err
	}
	once, cancel := context.WithTimeout(ctx, filteredSearchTimeout)
	defer cancel()
	recs, err := s.attemptAlone(once, neo4j.AccessModeRead, q, params)
	if err != nil && ctx.Err() == nil {
		log.Warn().Err(err).Str("space", space).Dur("pause", filteredPause).Msg("filtered vector search failed; over-fetching the index instead")
		s.unfiltered.Store(space, time.Now().Add(filteredPause))
	}
	return recs, err
}

// pausedFiltered: a filtered vector search of the space failed less than filteredPause ago.
func (s *Store) pausedFiltered(space string) bool {
	until, ok := s.unfiltered.Load(space)
	return ok && time.Now().Before(until.(time.Time))
}

// SeedByExactScan computes the cosine of q.Embedding with every embedded memory of the
// space passing the filters and returns the best q.Limit. Score is in [-1, 1].
func (s *Store) SeedByExactScan(ctx context.Context, space string, q SeedQuery) ([]ScoredMemory, error) {
	if q.Among != nil {
		return s.SeedAmong(ctx, space, q)
	}
	params := seedParams(space, q)
	params["embedding"] = vector64(q.Embedding)
	return s.scoredMemories(ctx, qSeedVectorExact, params, true)
}

// SeedAmong returns the best q.Limit of the memories q.Among passing q's other filters,
// by the cosine of q.Embedding with each of them (seed_among.cypher): its cost is that of
// reading them, not the space. Score is in [-1, 1].
func (s *Store) SeedAmong(ctx context.Context, space string, q SeedQuery) ([]ScoredMemory, error) {
	params := seedParams(space, q)
	params["embedding"] = vector64(q.Embedding)
	params["among"] = orEmpty(q.Among)
	return s.scoredMemories(ctx, qSeedAmong, params, true)
}

// SeedSaidIn returns the best q.Limit events and facts said in the window in (derived
// from the messages observed in it), and when dated is not nil those whose own time meets
// it, of the types q.Types, among q.Among when not nil, by the cosine of q.Embedding
// (seed_said_in.cypher). Score is in [-1, 1].
func (s *Store) SeedSaidIn(ctx context.Context, space string, q SeedQuery, in realm.TimeRange, dated *realm.TimeRange) ([]ScoredMemory, error) {
	params := seedParams(space, q)
	params["embedding"] = vector64(q.Embedding)
	params["time_from"], params["time_to"] = in.From.UTC(), in.To.UTC()
	params["dated_from"], params["dated_to"] = nil, nil
	if dated != nil {
		params["dated_from"], params["dated_to"] = dated.From.UTC(), dated.To.UTC()
	}
	params["among"] = amongParam(q.Among)
	return s.scoredMemories(ctx, qSeedSaidIn, params, true)
}

// SaidBy returns the ids of the memories of the space said in the sessions and times of
// f (realm.RecallFilters.BySaying; its types are not read): derived from a message of one
// of its sessions (any when it names none) observed between its said_since and said_until,
// both included (said_by.cypher). At most limit are read: all is false when there are
// more, and ids is then only some of them. Its cost is that of reading the messages of
// its sessions (or of its time span) by index and at most limit+1 memories.
func (s *Store) SaidBy(ctx context.Context, space string, f *realm.RecallFilters, limit int) (ids map[string]bool, all bool, err error) {
	params := saidParams(space, f)
	params["limit"] = limit + 1
	recs, err := s.read(ctx, qSaidBy, params)
	if err != nil {
		return nil, false, err
	}
	ids = make(map[string]bool, len(recs))
	for _, r := range recs[:min(len(recs), limit)] {
		ids[str(r, "id")] = true
	}
	return ids, len(recs) <= limit, nil
}

// SaidAmong returns which of ids are memories of the space said in the sessions and
// times of f, as SaidBy tells them (said_among.cypher): its cost is that of reading those
// memories' messages.
func (s *Store) SaidAmong(ctx context.Context, space string, f *realm.RecallFilters, ids []string) (map[string]bool, error) {
	said := map[string]bool{}
	if len(ids) == 0 {
		return said, nil
	}
	params := saidParams(space, f)
	params["ids"] = ids
	recs, err := s.read(ctx, qSaidAmong, params)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		said[str(r, "id")] = true
	}
	return said, nil
}

// saidParams are said_by's and said_among's parameters for f's sessions and times. An
// open end of the time span is a bound no message passes, so that the messages are read
// by an index range whatever the filter (every message has a time).
func saidParams(space string, f *realm.RecallFilters) map[string]any {
	params := map[string]any{"space": space, "sessions": nil, "since": time.Time{}, "until": saidEver}
	if f.SessionIDs != nil {
		params["sessions"] = f.SessionIDs
	}
	if f.SaidSince != nil {
		params["since"] = f.SaidSince.UTC()
	}
	if f.SaidUntil != nil {
		params["until"] = f.SaidUntil.UTC()
	}
	return params
}

// saidEver is after every message's time: said_by's until when the filter sets none.
var saidEver = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

// SeedByFullText searches the full-text index for each of q.Keywords' words (escaped)
// within the space and returns the best q.Limit memories of the space passing the
// filters, scored from the space's own statistics (seed_fulltext.cypher), so that what
// other spaces hold changes neither the matches nor their scores. No word left after
// escaping returns nothing. Each word's matches are fetched up to fullTextFetch(q.Limit),
// and all of them when one word's fetch was truncated and fewer than q.Limit passed the
// filters or the space holds at most keywordFetch memories (so that its seeds are its
// in-memory index's, whichever answers); a larger space with more matches of a word than
// the fetch is scored from those.
// When the space's in-memory keyword index is of the state q.SpaceSize and
// q.SpaceVersion say, the seeds come from it instead, scored from every match
// (keywordindex.go); when it is not, it is read again in the background.
func (s *Store) SeedByFullText(ctx context.Context, space string, q SeedQuery) ([]ScoredMemory, error) {
	terms := spaceTerms(space, q.Keywords)
	if len(terms) == 0 {
		return nil, nil
	}
	if q.SpaceVersion != "" {
		if t := s.texts.current(space, textKey(q.SpaceSize, q.SpaceVersion)); t != nil {
			return s.seedFromIndex(ctx, space, t, terms, q, seedParams(space, q)["limit"].(int))
		}
		s.texts.refresh(s, space)
	}
	n := q.SpaceSize
	if n <= 0 {
		var err error
		if n, _, err = s.SpaceSize(ctx, space); err != nil {
			return nil, err
		}
	}
	params := seedParams(space, q)
	params["terms"] = terms
	params["n"] = n
	params["among"] = amongParam(q.Among)
	limit := params["limit"].(int)
	search := func(fetch int) (out []ScoredMemory, hits int64, err error) {
		params["options"] = fullTextOptions(fetch)
		recs, err := s.read(ctx, qSeedFulltext, params)
		if err != nil {
			return nil, 0, err
		}
		out = make([]ScoredMemory, 0, len(recs))
		for _, r := range recs {
			hits = max(hits, num(r, "hits"))
			if p := propsOf(r, "node"); p != nil {
				out = append(out, ScoredMemory{Node: nodeOf(p), Score: float(r, "score")})
			}
		}
		return out, hits, nil
	}
	fetch := fullTextFetch(limit)
	out, hits, err := search(fetch)
	if err != nil || hits < int64(fetch) || len(out) >= limit && n > keywordFetch {
		return out, err
	}
	out, _, err = search(0)
	return out, err
}

// englishStopwords are the words the full-text index's english analyzer drops.
var englishStopwords = strings.Fields(`a an and are as at be but by for if in into is it no not of on or such
	that the their then there these they this to was will with`)

// spaceKey is the space's term in the full-text index (a memory's space_key, indexed by
// memory_text_space_key: schema/migrations 0024–0026), so that a query restricted to it
// matches this space's memories only. The id itself is no such term: the analyzer splits it at
// '-', lower-cases it and drops stop words ("a-conv-41" shares "conv" and "41" with
// "b-conv-41"; "to-be" has no term left). Here every character of a valid id
// ([A-Za-z0-9_-]) becomes letters, digits and underscores, which the tokenizer keeps
// in one word: a lower-case letter or a digit itself, an upper-case letter '_' and its
// lower case, '_' "__", '-' "_0" (one id, one key); the key starts with 's' and ends
// with '0', so that it is no stop word and no Porter suffix (which all end in a letter)
// stems it. At most 130 characters: Lucene splits words of more than 255.
// Migration 0024 computes the same in Cypher for the memories written before.
func spaceKey(space string) string {
	var b strings.Builder
	b.WriteByte('s')
	for _, c := range space {
		switch {
		case c == '-':
			b.WriteString("_0")
		case c == '_':
			b.WriteString("__")
		case 'A' <= c && c <= 'Z':
			b.WriteByte('_')
			b.WriteRune(unicode.ToLower(c))
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('0')
	return b.String()
}

// spaceClause is the Lucene clause that restricts a query of memory_text_space_key to
// the space: its key (spaceKey), which matches no other space's memories.
func spaceClause(space string) string { return "+space_key:" + spaceKey(space) + " " }

// spaceTerms turns keywords into seed_fulltext's terms: one per distinct word
// (queryWords; at most maxLuceneTerms), with its Lucene query restricted to the space and
// matching the word in the name, the content or the keywords of a memory.
func spaceTerms(space string, keywords []string) []map[string]any {
	clause := spaceClause(space)
	var out []map[string]any
	seen := map[string]bool{}
	for _, k := range keywords {
		for _, w := range queryWords(k) {
			if seen[w] || len(out) == maxLuceneTerms {
				continue
			}
			seen[w] = true
			e := EscapeLucene(w)
			out = append(out, map[string]any{"word": w, "lucene": clause + "+(name:(" + e + ") content:(" + e + ") keywords:(" + e + "))"})
		}
	}
	return out
}

// maxWordTokens bounds the tokens of a term's word: its query asks for each token in
// three fields, and Lucene refuses more than 1024 clauses. An English word holds far
// fewer ("state-of-the-art": 4); a word of 16 tokens in a message of 20000 bytes is at
// most 94 of Lucene's, which splits a token at 255 characters.
const maxWordTokens = 16

// queryWords is the words of text the keyword search asks about, in order, with
// repeats: its words at spaces, lower-cased, without what is not a letter or a digit at
// their ends, each matching a memory that shares one of its tokens' terms. A word
// holding a Han or Hiragana character, which the analyzer makes a token of each (Chinese
// and Japanese are written without spaces: a sentence would be one word of as many
// tokens), or holding more than maxWordTokens tokens, is asked as its tokens instead (a
// Katakana run is one token).
func queryWords(text string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.TrimFunc(w, notAlphanumeric)
		if w == "" {
			continue
		}
		if ts := tokens(w); len(ts) > maxWordTokens || strings.ContainsFunc(w, isCharToken) {
			out = append(out, ts...)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// isCharToken reports whether r is a character the analyzer makes a token of its own
// (Lucene's StandardTokenizer: a Han ideograph or a Hiragana character).
func isCharToken(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana) }

func seedParams(space string, q SeedQuery) map[string]any {
	types := make([]any, 0, len(q.Types))
	for _, t := range q.Types {
		types = append(types, string(t))
	}
	var from, to any
	if q.TimeRange != nil {
		if !q.TimeRange.From.IsZero() {
			from = q.TimeRange.From.UTC()
		}
		if !q.TimeRange.To.IsZero() {
			to = q.TimeRange.To.UTC()
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	return map[string]any{"space": space, "types": types, "time_from": from, "time_to": to, "limit": limit}
}

// amongParam is q.Among as a statement's $among: null for any memory.
func amongParam(among []string) any {
	if among == nil {
		return nil
	}
	return among
}

func (s *Store) scoredMemories(ctx context.Context, q query, params map[string]any, cosine bool) ([]ScoredMemory, error) {
	recs, err := s.read(ctx, q, params)
	if err != nil {
		return nil, err
	}
	return scoredOf(recs, cosine), nil
}

// scoredOf reads the node and score of each record.
func scoredOf(recs []*neo4j.Record, cosine bool) []ScoredMemory {
	out := make([]ScoredMemory, 0, len(recs))
	for _, r := range recs {
		score := float(r, "score")
		if cosine {
			score = 2*score - 1 // Neo4j reports cosine as (1 + cos) / 2
		}
		out = append(out, ScoredMemory{Node: nodeOf(propsOf(r, "node")), Score: score})
	}
	return out
}

// luceneSpecial are the characters Lucene's classic query parser gives a meaning to.
const luceneSpecial = `\+-!():^[]"{}~*?|&/`

// EscapeLucene makes s a literal for Lucene's query parser: every special character is
// backslash-escaped, and the operator words AND, OR, NOT are lower-cased (the english
// analyzer lower-cases terms anyway).
func EscapeLucene(s string) string {
	var b strings.Builder
	for _, word := range strings.Fields(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if word == "AND" || word == "OR" || word == "NOT" {
			word = strings.ToLower(word)
		}
		for _, c := range word {
			if strings.ContainsRune(luceneSpecial, c) {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Adjacent is a memory adjacent to a frontier memory, with the edge between them and the
// memory's similarities to the expansion's texts, computed by Neo4j (its embedding is not
// read back).
type Adjacent struct {
	From string // the frontier memory's id
	Edge realm.Edge
	Reached
}

// Reached is a memory reached by expansion with its cosine similarities, clipped to
// [0, 1], to the reasoning text and to the query (0 for a missing vector), computed by
// Neo4j where the memory is; Node.Embedding is left empty.
type Reached struct {
	Node                   realm.Node
	SimReasoning, SimQuery float64
	// SourcesLeftOut: the memory derives from more than InlineSources observations and
	// Node.Sources was not read (MemorySources reads it).
	SourcesLeftOut bool
}

// InlineSources is the most observations a memory reached by expansion may derive from
// and come with its sources (Node.Sources). A speaker's entity derives from every
// observation that names it (38,745 at 100,000 memories, hundreds in a LoCoMo
// conversation) and meets an expansion in many of its rows: reading and sending that list
// with every row cost more than the rest of the statement. The few such memories a recall
// keeps have their sources read once, by MemorySources.
const InlineSources = 32

// ExpandScoring is what an expansion statement scores the memories it reaches against.
type ExpandScoring struct {
	Query, Reasoning []float32
}

// BeamCut tells Adjacent which neighbours cannot make a beam and need not be returned:
// a neighbour's score is at most SimShare·sim(reasoning, v) + WeightShare·weight of its
// best edge (REALM.md §3.2: the edge score before temporal decay); per frontier memory,
// those whose bound is more than Margin below its Beam-th best neighbour's are left out
// (the Beam best of all the frontier are among the Beam best of each). Beam 0 returns
// all. The caller must choose Margin to cover what lowers a score below its bound (the
// most a temporal decay subtracts) and the rounding of Neo4j's cosine (single precision:
// within 1e-6 of realm.Cosine).
type BeamCut struct {
	Beam                  int
	Margin                float64
	SimShare, WeightShare float64
}

// HubScan is the most edges an expansion statement reads of one memory: of a memory with
// more (a speaker's entity in a space of 100,000 memories has 40,000), the first HubScan
// matching edges in the store's order are read and the others are not. It sits above
// every memory of the LoCoMo dev graphs (their speakers' entities have 304–606 memory
// edges), which are read whole as before.
const HubScan = 1000

// HubBranch is the most neighbours of a hub (a memory of more than PathMaxViaDegree
// memory edges) an expansion scores: of the HubScan edges read, the heaviest HubBranch
// (ties by edge id). Scoring a neighbour means reading its embedding for a cosine, and a
// hub in a frontier cost HubScan of them; no memory of the LoCoMo dev graphs is a hub.
const HubBranch = 100

// Adjacent returns the memories adjacent to any of frontier but not in visited, in either
// direction, over edges of the allowed predicates whose weight is at least wSuppress
// (REALM.md §3.2), with their similarities to sc's texts; at most HubScan edges of each
// frontier memory are read, at most HubBranch of a hub's scored, and those that cut says
// cannot make the beam are left out.
func (s *Store) Adjacent(ctx context.Context, space string, frontier, visited []string, allowed []realm.Predicate, wSuppress float64, sc ExpandScoring, cut BeamCut) ([]Adjacent, error) {
	out, err := s.AdjacentMany(ctx, space, wSuppress, sc.Query, []Hop{{Frontier: frontier, Visited: visited, Allowed: allowed, Reasoning: sc.Reasoning, Cut: cut}})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// Hop is one hop of one expansion (subgraph_beam): from Frontier, not into Visited, over
// the Allowed predicates, scored against Reasoning, cut by Cut (see Adjacent). HubDegree
// (0: PathMaxViaDegree) is the most memory edges a frontier memory may have and still be
// read whole; of one with more, the HubBranch heaviest are scored.
type Hop struct {
	Frontier, Visited []string
	Allowed           []realm.Predicate
	Reasoning         []float32
	Cut               BeamCut
	HubDegree         int
}

// settled is h with its defaults made explicit: a Cut of Beam 0 keeps all, a HubDegree
// of 0 is PathMaxViaDegree.
func (h Hop) settled() Hop {
	if h.Cut.Beam <= 0 {
		h.Cut = BeamCut{Beam: math.MaxInt32}
	}
	if h.HubDegree <= 0 {
		h.HubDegree = PathMaxViaDegree
	}
	return h
}

// AdjacentMany is Adjacent for several hops at once, in one statement: out[i] is what
// Adjacent returns for hops[i] (with the query vector query and the floor wSuppress). A
// memory in the frontier of several hops with the same predicates and reasoning vector is
// read once for all of them.
func (s *Store) AdjacentMany(ctx context.Context, space string, wSuppress float64, query []float32, hops []Hop) ([][]Adjacent, error) {
	out := make([][]Adjacent, len(hops))
	var reqs []any
	var reasonings [][]float32
	visits := 0
	for i, h := range hops {
		if len(h.Frontier) == 0 || len(h.Allowed) == 0 {
			continue
		}
		h = h.settled()
		cut := h.Cut
		visited := h.Visited
		if visited == nil {
			visited = []string{}
		}
		visits = max(visits, len(visited))
		ri := slices.IndexFunc(reasonings, func(v []float32) bool { return slices.Equal(v, h.Reasoning) })
		if ri < 0 {
			ri = len(reasonings)
			reasonings = append(reasonings, h.Reasoning)
		}
		reqs = append(reqs, map[string]any{
			"i": int64(i), "frontier": h.Frontier, "visited": visited, "types": relTypes(h.Allowed), "reasoning": int64(ri), "hub_degree": int64(h.HubDegree),
			"beam": int64(cut.Beam), "margin": cut.Margin, "sim_share": cut.SimShare, "weight_share": cut.WeightShare,
		})
	}
	if len(reqs) == 0 {
		return out, nil
	}
	vectors := make([]any, len(reasonings))
	for i, v := range reasonings {
		vectors[i] = vectorParam(v)
	}
	recs, err := s.read(ctx, qExpandNeighbours, map[string]any{
		"space": space, "requests": reqs, "reasonings": vectors, "w_suppress": wSuppress, "query": vectorParam(query),
		"scan": HubScan, "hub_branch": HubBranch, "hub_read": HubBranch + 2*visits, "inline_sources": InlineSources,
	})
	if err != nil {
		return nil, err
	}
	type row struct {
		pos, seq int64
		adj      Adjacent
	}
	rows := make([][]row, len(hops))
	for _, r := range recs {
		i, reached := num(r, "request"), reachedOf(propsOf(r, "node"))
		if reached.Node.Space != space {
			continue // the statement trusts writers to join memories of one space; never return another's
		}
		rows[i] = append(rows[i], row{num(r, "pos"), num(r, "seq"), Adjacent{From: str(r, "from_id"), Edge: edgeFromProps(propsOf(r, "edge")), Reached: reached}})
	}
	for i, rs := range rows {
		slices.SortFunc(rs, func(a, b row) int { return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.seq, b.seq)) })
		for _, r := range rs {
			out[i] = append(out[i], r.adj)
		}
	}
	return out, nil
}

// reachedOf reads a map {node, sim_r, sim_q} of an expansion statement, whose
// similarities are Neo4j's (1 + cos) / 2.
func reachedOf(m map[string]any) Reached {
	n, _ := m["node"].(map[string]any)
	cos := func(key string) float64 {
		v, ok := m[key].(float64)
		if !ok {
			return 0
		}
		return max(0, min(1, 2*v-1))
	}
	left, _ := m["sources_left_out"].(bool)
	return Reached{Node: nodeOf(n), SimReasoning: cos("sim_r"), SimQuery: cos("sim_q"), SourcesLeftOut: left}
}

// vectorParam is a vector as a query parameter; an empty one is null (no similarity).
func vectorParam(v []float32) any {
	if len(v) == 0 {
		return nil
	}
	return vector64(v)
}

// Path is a simple path from a memory: IDs[0] is the start, Edges[i] joins IDs[i] and IDs[i+1]
// (in either direction; Edge.From and Edge.To say which).
type Path struct {
	IDs   []string
	Edges []realm.Edge
}

// PathMaxViaDegree is the most memory edges a memory may have for Paths to walk through
// it; one of more can still start or end a path. In the LoCoMo dev graphs the largest
// memories are the two speakers' entities, with 304–606 memory edges (65–81% of their
// conversation's 400–793 memories; conv-26: 380 and 333 of 498), and the next largest
// have at most 96. The bound sits above all of them, so path_search reads those graphs as
// before (200 changed the expansions of 4 of 10 conv-26 recalls), and below the speakers
// of the synthetic 10k and 100k spaces (4,100 and 40,000 memory edges), through which one
// statement enumerated 76,000–90,000 paths from most memories at 10k and up to 2.8
// million at 100k; without them, at most 11,400.
const PathMaxViaDegree = 1000

// PathBranch is the most edges Paths follows from one memory: from the start, the best
// by edge score before temporal decay (REALM.md §3.2), further on the heaviest, among the
// HubScan edges read. In the LoCoMo dev graphs only the speakers' entities and a few
// others have more memory edges.
const PathBranch = 50

// Paths returns up to limit simple paths of 1..maxHops hops (at most 3) from the memory
// from, over edges of the allowed predicates at or above wSuppress, within the space,
// through no memory of more than PathMaxViaDegree memory edges, following at most
// PathBranch edges of each memory (the start's scored with simShare and weightShare);
// the best by mean weight − 0.03 per extra hop first (REALM.md §3.2, path_search); and
// every memory on them by id, with its similarities to sc's texts. No path longer than
// maxHops is walked.
func (s *Store) Paths(ctx context.Context, space, from string, allowed []realm.Predicate, wSuppress float64, maxHops, limit int, sc ExpandScoring, simShare, weightShare float64) ([]Path, map[string]Reached, error) {
	out, err := s.PathsMany(ctx, space, PathScan{WSuppress: wSuppress, Limit: limit, Query: sc.Query, SimShare: simShare, WeightShare: weightShare},
		[]PathStart{{From: from, Allowed: allowed, MaxHops: maxHops, Reasoning: sc.Reasoning}})
	if err != nil {
		return nil, nil, err
	}
	return out[0].Paths, out[0].Nodes, nil
}

// PathStart is one path_search of several (PathsMany): from a memory, over the Allowed
// predicates, up to MaxHops hops, scored against Reasoning.
type PathStart struct {
	From      string
	Allowed   []realm.Predicate
	MaxHops   int
	Reasoning []float32
}

// PathScan is what the path searches of one PathsMany share (see Paths).
type PathScan struct {
	WSuppress             float64
	Limit                 int
	Query                 []float32
	SimShare, WeightShare float64
}

// PathsFound is what Paths returns for one start.
type PathsFound struct {
	Paths []Path
	Nodes map[string]Reached
}

// PathsMany is Paths for several starts at once, in one statement: out[i] is what Paths
// returns for starts[i].
func (s *Store) PathsMany(ctx context.Context, space string, scan PathScan, starts []PathStart) ([]PathsFound, error) {
	out := make([]PathsFound, len(starts))
	var reqs []any
	for i, st := range starts {
		if len(st.Allowed) == 0 || st.MaxHops < 1 {
			continue
		}
		reqs = append(reqs, map[string]any{
			"i": int64(i), "from_id": st.From, "types": relTypes(st.Allowed), "max_hops": int64(min(st.MaxHops, 3)), "reasoning": vectorParam(st.Reasoning),
		})
	}
	if len(reqs) == 0 {
		return out, nil
	}
	recs, err := s.read(ctx, qExpandPaths, map[string]any{
		"space": space, "requests": reqs, "w_suppress": scan.WSuppress, "max_via_degree": PathMaxViaDegree, "scan": HubScan,
		"hub_branch": HubBranch, "branch": PathBranch, "limit": scan.Limit, "inline_sources": InlineSources, "query": vectorParam(scan.Query), "sim_share": scan.SimShare, "weight_share": scan.WeightShare,
	})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		out[num(r, "request")] = pathsOf(r, space)
	}
	return out, nil
}

// pathsOf reads one row of expand_paths: its paths name their edges by key, each edge
// is sent once. A path through a memory of another space than space is left out: the
// statement trusts every writer to join memories of one space, this makes sure.
func pathsOf(r *neo4j.Record, space string) PathsFound {
	edgeList, _ := r.Get("edges")
	edges := make(map[string]realm.Edge, len(asList(edgeList)))
	for _, x := range asList(edgeList) {
		m, _ := x.(map[string]any)
		edges[propString(m, "key")] = edgeFromProps(m)
	}
	paths, _ := r.Get("paths")
	out := make([]Path, 0, len(asList(paths)))
	for _, x := range asList(paths) {
		m, _ := x.(map[string]any)
		var p Path
		for _, id := range asList(m["ids"]) {
			s, _ := id.(string)
			p.IDs = append(p.IDs, s)
		}
		for _, k := range asList(m["edges"]) {
			s, _ := k.(string)
			p.Edges = append(p.Edges, edges[s])
		}
		out = append(out, p)
	}
	nodes, _ := r.Get("nodes")
	byID := make(map[string]Reached, len(asList(nodes)))
	for _, x := range asList(nodes) {
		m, _ := x.(map[string]any)
		if n := reachedOf(m); n.Node.Space == space {
			byID[n.Node.ID] = n
		}
	}
	out = slices.DeleteFunc(out, func(p Path) bool {
		return slices.ContainsFunc(p.IDs, func(id string) bool { _, ok := byID[id]; return !ok })
	})
	return PathsFound{Paths: out, Nodes: byID}
}

// MemoriesByIDs returns the memories of the space among ids, in no particular order;
// ids of other spaces or of no memory are left out.
func (s *Store) MemoriesByIDs(ctx context.Context, space string, ids []string) ([]realm.Node, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	recs, err := s.read(ctx, qMemoriesByIDs, map[string]any{"space": space, "ids": ids})
	if err != nil {
		return nil, err
	}
	out := make([]realm.Node, 0, len(recs))
	for _, r := range recs {
		out = append(out, nodeOf(propsOf(r, "node")))
	}
	return out, nil
}

// MemorySources returns the sources (Node.Sources) of the memories of the space among
// ids, by id; ids of other spaces or of no memory are left out.
func (s *Store) MemorySources(ctx context.Context, space string, ids []string) (map[string][]string, error) {
	out := map[string][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	recs, err := s.read(ctx, qMemorySources, map[string]any{"space": space, "ids": ids})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		v, _ := r.Get("sources")
		out[str(r, "id")] = stringList(v)
	}
	return out, nil
}

// InducedEdges returns every memory edge between two of ids, within the space (REALM.md §3.3).
func (s *Store) InducedEdges(ctx context.Context, space string, ids []string) ([]realm.Edge, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	recs, err := s.read(ctx, qInducedEdges, map[string]any{"space": space, "ids": ids, "types": relTypes(realm.Predicates)})
	if err != nil {
		return nil, err
	}
	out := make([]realm.Edge, 0, len(recs))
	for _, r := range recs {
		out = append(out, edgeFromProps(propsOf(r, "edge")))
	}
	return out, nil
}

// RecordRecall stores the trace of one recall and counts one access to each memory of ids
// (its top K) in the space, at now, in one statement (one round trip, one commit). The
// memories are locked in id order, so two recalls touching the same memories never wait
// for each other in a cycle (in score order they deadlocked, and one was retried).
func (s *Store) RecordRecall(ctx context.Context, t realm.Trace, ids []string, now time.Time) error {
	doc, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode trace: %w", err)
	}
	params := traceParams(t, doc)
	params["ids"] = slices.Sorted(slices.Values(ids))
	params["now"] = now.UTC()
	_, err = s.write(ctx, qRecallRecord, params)
	return err
}

func relTypes(preds []realm.Predicate) []string {
	out := make([]string, 0, len(preds))
	for _, p := range preds {
		if p.Valid() {
			out = append(out, p.RelType())
		}
	}
	return out
}

func propsOf(r *neo4j.Record, key string) map[string]any {
	v, _ := r.Get(key)
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// edgeFromProps reads an edge map of the form r {.*, type, start, end}.
func edgeFromProps(p map[string]any) realm.Edge {
	return edgeOf(p, propString(p, "type"), propString(p, "start"), propString(p, "end"))
}

func propString(p map[string]any, key string) string {
	s, _ := p[key].(string)
	return s
}

func propFloat(p map[string]any, key string) float64 {
	switch n := p[key].(type) {
	case float64:
		return n
	case int64:
		return float64(n)
	}
	return 0
}

func propTime(p map[string]any, key string) *time.Time {
	t := timeOf(p[key])
	if t.IsZero() {
		return nil
	}
	return &t
}
