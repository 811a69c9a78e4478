// Writes the integrations of a run of observations of one space (cypher.writeIntegrations)
// in ONE statement, in this order:
// - the memory nodes they add, each with its type label beside :Memory (checked against
//   the four node types by the caller) and its provenance edges to the observation that
//   adds it and to the space's other observations among its sources (a reply's exchange
//   derives from the turn it answers too: agent.Candidate.AlsoFrom), and when the space
//   learned it (learned_at, unless its properties give it): the earliest observed_at of
//   those observations, and when it was last said (last_said_at): the latest;
// - the merges of candidates into existing memories, one row per memory (cypher.mergeRows:
//   a speaker's entity, merged into by most observations, has its long sources list read
//   and written once a run): the properties the run's last merges gave (content,
//   embedding, an entity's name and aliases when given, the complete keyword list,
//   updated_at; an embedding not given is neither read nor written), the run's
//   observations added to sources in order, each
//   once, up to $sources_max (realm.SourcesMax: a memory derived from that many already
//   has its list neither read nor written, its provenance edges counted instead), the
//   word count of the new text (cypher.WordCount), provenance, and learned_at moved to
//   an observation's time when it is earlier (one without learned_at keeps none: it was
//   stored with no timed source, and what it said then was known all along), last_said_at
//   when it is later; an edge
//   that was a repeat's (an observation integrated again after a forgetting) loses its
//   repeat mark: the content comes from it now;
// - the typed edges between memories, in list order, each row in turn (a later row of
//   the same pair and type sees what an earlier one wrote): a merge writes at most one
//   edge of a type between an ordered pair, a new one with every property (its id the
//   row's, derived by the caller: cypher.edgeID), an existing one taking the new weight
//   and description; a delete removes it. Each type is a
//   whitelisted predicate's RelType;
// - the ends of superseded memories' validity (REALM.md §2 "Ours", bi-temporal):
//   valid_until is when the newer version began to hold, superseded_at when the space
//   learned it; an end already recorded is never moved later, the first superseded_at kept;
// - the observations marked integrated (with what each added, merged into, skipped and
//   superseded, and the attempt's LLM usage added to the list of theirs: a job reads
//   one integrated only with it), their leases released, the space given a new
//   memories_version (cypher.SpaceState) and its running summary replaced unless
//   its summary is '' (after the repeats);
// - the repeats (cypher.Integration.Repeats): provenance to the memory that held what the
//   observation said again, marked {repeat: true} when new, and learned_at and
//   last_said_at moved as a merge moves them; sources and updated_at unchanged. Of a memory's repeat edges, only
//   the first of each day (UTC) and the last $repeats_kept - 1 by the time their
//   observations were said stay (cypher.RepeatsKept); an observation whose edge goes
//   lists the memory in its repeat_of and gets an edge REPEAT_OF to it, by which
//   deleting the memory finds it without reading the space's observations, so that
//   forgetting brings it back (observation_trimmed.cypher). After the marks: before
//   them, its deletions made Neo4j read the marks' observations by a scan of their
//   index, not a seek (a hundred times the database hits of a run of repeats).
// One statement instead of one per kind of write (six): a one-message request runs 8
// statements instead of 11; what they write costs Neo4j the same.
// It moves the space's graph_version first, read under the Space node's lock (taken by
// space_lock, so before is the version the write's memories had): the snapshot of the
// space this process holds follows the write (graphcache.go followWrite).
// Params: $space, $now, $sources_max, $repeats_kept, $w, a map of: nodes (list of {observation, label, props}), merges
// (list of {id, observations, set}, set being the properties to write), repeats (list of
// {observation, id}), edges (list of {i, id, delete, from, to, type, layer, description, weight,
// confidence}), ends (list of {id, valid_until}), marks (list of {id, added, merged,
// skipped, superseded, usage: [] or [the attempt's usage as JSON text]}), summary. One map, not a parameter each: Neo4j keys its cached plans on the
// parameters' types and list sizes (by bucket), so that lists each empty or not in turn
// made it plan this statement again, at ~100 ms, for one request in several; a map
// keeps one plan.
// Returns one row: created (the nodes whose observation is in the space), merged (list of
// {observation, id}, one per merge whose memory and observation are in the space), edges
// (list of {i, id, initial_weight, created_at}, one per edge merged whose ends are both in
// the space: an existing edge's own id, initial weight and creation), n (the
// observations marked), version (the space's new memories_version), graph_before and
// graph_after (the space's graph_version before and after; null without a Space node).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  WITH g, g.graph_version AS graph_before
  SET g.graph_version = randomUUID()
  RETURN graph_before, g.graph_version AS graph_after
}
CALL () {
  UNWIND $w.nodes AS n
  MATCH (o:Observation {space: $space, id: n.observation})
  USING INDEX o:Observation(space, id)
  CREATE (m:Memory:$(n.label))
  SET m = n.props
  CREATE (m)-[:DERIVED_FROM]->(o)
  WITH m, n
  CALL (m, n) {
    UNWIND n.props.sources AS sid
    MATCH (p:Observation {space: $space, id: sid})
    USING INDEX p:Observation(space, id)
    WHERE sid <> n.observation
    MERGE (m)-[:DERIVED_FROM]->(p)
  }
  WITH m, [(m)-[:DERIVED_FROM]->(p:Observation) | p.observed_at] AS said
  SET m.learned_at = coalesce(m.learned_at, reduce(first = null, t IN said | CASE WHEN first IS NULL OR t < first THEN t ELSE first END)),
      m.last_said_at = reduce(last = null, t IN said | CASE WHEN last IS NULL OR t > last THEN t ELSE last END)
  RETURN count(m) AS created
}
CALL () {
  UNWIND $w.merges AS x
  MATCH (m:Memory {id: x.id, space: $space})
  USING INDEX m:Memory(id)
  SET m += x.set
  FOREACH (_ IN CASE WHEN COUNT { (m)-[:DERIVED_FROM]->() } < $sources_max THEN [1] ELSE [] END |
    SET m.sources = (coalesce(m.sources, []) + [o IN x.observations WHERE NOT o IN coalesce(m.sources, [])])[..$sources_max])
  SET m.word_count = size([w IN split(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', y IN coalesce(m.keywords, []) | k + ' ' + y), ' ') WHERE w <> ''])
  WITH m, x
  UNWIND x.observations AS oid
  MATCH (o:Observation {space: $space, id: oid})
  USING INDEX o:Observation(space, id)
  MERGE (m)-[d:DERIVED_FROM]->(o)
    ON MATCH SET d.repeat = null
  SET m.learned_at = CASE WHEN o.observed_at < m.learned_at THEN o.observed_at ELSE m.learned_at END,
      m.last_said_at = CASE WHEN m.last_said_at >= o.observed_at THEN m.last_said_at ELSE o.observed_at END
  RETURN collect({observation: oid, id: m.id}) AS merged
}
CALL () {
  UNWIND $w.edges AS e
  CALL (e) {
    MATCH (a:Memory {id: e.from, space: $space})
    USING INDEX a:Memory(id)
    MATCH (b:Memory {id: e.to, space: $space})
    USING INDEX b:Memory(id)
    WHERE NOT e.delete
    MERGE (a)-[r:$(e.type)]->(b)
      ON CREATE SET r.id = e.id, r.layer = e.layer, r.initial_weight = e.weight, r.created_at = $now
    SET r.description = e.description, r.weight = e.weight, r.confidence = e.confidence, r.updated_at = $now
    RETURN r.id AS id, r.initial_weight AS initial_weight, r.created_at AS created_at
    UNION ALL
    MATCH (a:Memory {id: e.from, space: $space})-[r:$(e.type)]->(b:Memory {id: e.to, space: $space})
    USING INDEX a:Memory(id)
    WHERE e.delete
    DELETE r
    RETURN null AS id, null AS initial_weight, null AS created_at
  }
  RETURN collect(CASE WHEN id IS NOT NULL THEN {i: e.i, id: id, initial_weight: initial_weight, created_at: created_at} END) AS edges
}
CALL () {
  UNWIND $w.ends AS e
  MATCH (m:Memory {id: e.id, space: $space})
  USING INDEX m:Memory(id)
  SET m.valid_until = CASE WHEN m.valid_until IS NULL OR e.valid_until < m.valid_until THEN e.valid_until ELSE m.valid_until END,
      m.superseded_at = coalesce(m.superseded_at, $now)
  RETURN count(m) AS ended
}
CALL () {
  UNWIND $w.marks AS x
  MATCH (o:Observation {space: $space, id: x.id})
  USING INDEX o:Observation(space, id)
  SET o.status = 'integrated', o.integrated_at = $now, o.updated_at = $now,
      o.added = x.added, o.merged = x.merged, o.skipped = x.skipped, o.superseded = x.superseded,
      o.lease_owner = null, o.lease_until = null, o.error = null,
      o.usage = CASE WHEN x.usage = [] THEN o.usage ELSE coalesce(o.usage, []) + x.usage END
  RETURN count(o) AS n
}
CALL () {
  UNWIND $w.repeats AS x
  MATCH (m:Memory {id: x.id, space: $space})
  USING INDEX m:Memory(id)
  MATCH (o:Observation {space: $space, id: x.observation})
  USING INDEX o:Observation(space, id)
  MERGE (m)-[d:DERIVED_FROM]->(o)
    ON CREATE SET d.repeat = true
  // Written only when earlier: most repeats come later, and a write locks the memory.
  FOREACH (_ IN CASE WHEN o.observed_at < m.learned_at THEN [1] ELSE [] END | SET m.learned_at = o.observed_at)
  FOREACH (_ IN CASE WHEN m.last_said_at >= o.observed_at THEN [] ELSE [1] END | SET m.last_said_at = o.observed_at)
  WITH m, count(o) AS linked
  // Its provenance edges are counted without reading them (a dense node keeps the count).
  CALL (m) {
    WITH m WHERE COUNT { (m)-[:DERIVED_FROM]->() } > $repeats_kept
    MATCH (m)-[d:DERIVED_FROM {repeat: true}]->(p:Observation)
    WITH m, d, p ORDER BY p.observed_at, p.seq
    WITH m, collect({d: d, p: p, day: date(p.observed_at)}) AS ds // observed_at is in UTC
    // Before the last $repeats_kept - 1, those said on the day of the one before them.
    UNWIND range(1, size(ds) - $repeats_kept) AS i
    WITH m, ds[i - 1].day AS before, ds[i] AS x
    WITH m, x.d AS d, x.p AS p WHERE x.day = before
    SET p.repeat_of = coalesce(p.repeat_of, []) + m.id
    MERGE (p)-[:REPEAT_OF]->(m)
    DELETE d
  }
  RETURN count(m) AS repeated
}
OPTIONAL MATCH (s:Space {id: $space})
SET s.memories_version = randomUUID()
FOREACH (_ IN CASE WHEN s IS NULL OR $w.summary = '' THEN [] ELSE [1] END |
  SET s.summary = $w.summary, s.summary_updated_at = $now)
RETURN created, merged, edges, n, s.memories_version AS version, graph_before, graph_after
