// A recall reads the learned links touching its candidates (learned_links.cypher), which
// reads every memory edge of each candidate: 320,000 database hits for a candidate set
// holding a speaker's entity at 100,000 memories, in spaces that mostly hold no learned
// link at all. A space's learned_links says whether it may hold one (true) or holds none
// (false); absent, a recall reads them as before. Every statement that can write an edge
// with a query sets it (cypher/learned.go lists them). This gives every space one:
// whether one of its memory edges carries a query. Idempotent: only missing markers are set.
MATCH (s:Space) WHERE s.learned_links IS NULL
SET s.learned_links = EXISTS {
  MATCH (m:Memory)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
                     COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->()
  WHERE m.space = s.id AND r.query IS NOT NULL
}
