package cypher

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// Bulk writers of the scale benchmark (bench/scale.go): synthetic spaces of many memories
// written in UNWIND batches, bypassing construction, with the shape the write path gives
// (observations, provenance, typed weighted edges); and what the report needs to know
// about the server.

var (
	//go:embed queries/scale_space.cypher
	scaleSpaceCypher string
	qScaleSpace      = newQuery("scale_space", scaleSpaceCypher)

	//go:embed queries/scale_observations.cypher
	scaleObservationsCypher string
	qScaleObservations      = newQuery("scale_observations", scaleObservationsCypher)

	//go:embed queries/scale_memories.cypher
	scaleMemoriesCypher string
	qScaleMemories      = newQuery("scale_memories", scaleMemoriesCypher)

	//go:embed queries/scale_edges.cypher
	scaleEdgesCypher string
	qScaleEdges      = newQuery("scale_edges", scaleEdgesCypher)

	//go:embed queries/scale_heap.cypher
	scaleHeapCypher string
	qScaleHeap      = newQuery("scale_heap", scaleHeapCypher)

	//go:embed queries/scale_cpu.cypher
	scaleCPUCypher string
	qScaleCPU      = newQuery("scale_cpu", scaleCPUCypher)

	//go:embed queries/scale_degree.cypher
	scaleDegreeCypher string
	qScaleDegree      = newQuery("scale_degree", scaleDegreeCypher)

	//go:embed queries/scale_checkpoint.cypher
	scaleCheckpointCypher string
	qScaleCheckpoint      = newQuery("scale_checkpoint", scaleCheckpointCypher)
)

// ScaleBatch is how many rows one bulk statement of the scale writers carries.
const ScaleBatch = 1000

// PutScaleSpace creates (or updates) the space's node as the write path leaves it after
// seq observations, with the embedder that embedded its memories.
func (s *Store) PutScaleSpace(ctx context.Context, space, embedder string, dims int, seq int64, summary string) error {
	_, err := s.write(ctx, qScaleSpace, map[string]any{
		"space": space, "embedder": embedder, "dims": dims, "seq": seq, "summary": summary, "now": time.Now().UTC(),
	})
	return err
}

// PutScaleObservations writes observations of a space as integrated, in batches of
// ScaleBatch. Ids must be new to the space.
func (s *Store) PutScaleObservations(ctx context.Context, space string, obs []realm.Observation) error {
	now := time.Now().UTC()
	for start := 0; start < len(obs); start += ScaleBatch {
		part := obs[start:min(start+ScaleBatch, len(obs))]
		rows := make([]any, len(part))
		for i, o := range part {
			rows[i] = map[string]any{"id": o.ID, "session_id": o.SessionID, "speaker": o.Speaker,
				"content": o.Content, "observed_at": o.ObservedAt.UTC(), "seq": o.Seq}
		}
		recs, err := s.write(ctx, qScaleObservations, map[string]any{"space": space, "observations": rows, "now": now})
		if err != nil {
			return err
		}
		if len(recs) == 0 || num(recs[0], "written") != int64(len(part)) {
			return fmt.Errorf("put scale observations: %d of %d written", num(recs[0], "written"), len(part))
		}
	}
	return nil
}

// PutScaleMemories writes memories of a space in batches of ScaleBatch, each with a
// DERIVED_FROM edge to every observation of its Sources (which must exist), the first
// realm.SourcesMax of them its sources property, as ingestion keeps them. It returns how
// many provenance edges were written.
func (s *Store) PutScaleMemories(ctx context.Context, space string, nodes []realm.Node) (int64, error) {
	now := time.Now().UTC()
	var derived int64
	for start := 0; start < len(nodes); start += ScaleBatch {
		part := nodes[start:min(start+ScaleBatch, len(nodes))]
		rows := make([]any, len(part))
		for i, n := range part {
			if !n.Type.Valid() {
				return derived, realm.Errorf(realm.EInvalid, "memory %s has type %q", n.ID, n.Type)
			}
			props := fixtureNodeProps(n, now)
			if len(n.Sources) > realm.SourcesMax {
				props["sources"] = n.Sources[:realm.SourcesMax]
			}
			rows[i] = map[string]any{"label": n.Type.Label(), "props": props, "derived": orEmpty(n.Sources)}
		}
		recs, err := s.write(ctx, qScaleMemories, map[string]any{"space": space, "space_key": spaceKey(space), "nodes": rows})
		if err != nil {
			return derived, err
		}
		if len(recs) == 0 || num(recs[0], "written") != int64(len(part)) {
			return derived, fmt.Errorf("put scale memories: not all of %d written", len(part))
		}
		derived += num(recs[0], "derived")
	}
	return derived, nil
}

// PutScaleEdges writes directed memory edges in batches of ScaleBatch, as given (a
// symmetric predicate needs both directions in edges). Both ends must be of the space.
func (s *Store) PutScaleEdges(ctx context.Context, space string, edges []realm.Edge) error {
	now := time.Now().UTC()
	for start := 0; start < len(edges); start += ScaleBatch {
		part := edges[start:min(start+ScaleBatch, len(edges))]
		rows := make([]any, len(part))
		for i, e := range part {
			if !e.Predicate.Valid() {
				return realm.Errorf(realm.EInvalid, "edge %s has predicate %q", e.ID, e.Predicate)
			}
			rows[i] = fixtureEdgeRow(e, e.From, e.To, e.ID, now)
		}
		recs, err := s.write(ctx, qScaleEdges, map[string]any{"space": space, "edges": rows})
		if err != nil {
			return err
		}
		if len(recs) == 0 || num(recs[0], "written") != int64(len(part)) {
			return fmt.Errorf("put scale edges: only some of %d edges have both ends in space %s", len(part), space)
		}
	}
	return nil
}

// Heap is the server's JVM heap in bytes.
type Heap struct {
	Used      int64 `json:"used"`
	Committed int64 `json:"committed"`
	Max       int64 `json:"max"`
}

// ServerHeap reads the server's JVM heap usage over JMX.
func (s *Store) ServerHeap(ctx context.Context) (Heap, error) {
	recs, err := s.read(ctx, qScaleHeap, map[string]any{})
	if err != nil || len(recs) == 0 {
		return Heap{}, err
	}
	return Heap{Used: num(recs[0], "used"), Committed: num(recs[0], "committed"), Max: num(recs[0], "max")}, nil
}

// ServerCPU reads the CPU time the server's process has used so far, over JMX.
func (s *Store) ServerCPU(ctx context.Context) (time.Duration, error) {
	recs, err := s.read(ctx, qScaleCPU, map[string]any{})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return time.Duration(num(recs[0], "cpu")), nil
}

// Checkpoint asks Neo4j to write its dirty pages to the store files now and waits for it
// (db.checkpoint()), and reports whether it did. Community 5.26 has no such procedure:
// there it returns false and no error, and the store files lag the transaction logs until
// the periodic checkpoint (db.checkpoint.interval.time, 15 min, or .tx, 100,000
// transactions).
func (s *Store) Checkpoint(ctx context.Context) (bool, error) {
	recs, err := s.write(ctx, qScaleCheckpoint, map[string]any{})
	var n4j *neo4j.Neo4jError
	if errors.As(err, &n4j) && n4j.Code == "Neo.ClientError.Procedure.ProcedureNotFound" {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if len(recs) == 0 {
		return false, fmt.Errorf("checkpoint: no answer")
	}
	if ok, _ := recs[0].Get("success"); ok != true {
		return false, fmt.Errorf("checkpoint: %s", str(recs[0], "message"))
	}
	return true, nil
}

// GraphShape is the size and degree of a space's memory graph.
type GraphShape struct {
	Memories  int64 `json:"memories"`
	Edges     int64 `json:"edges"` // directed memory edges (a symmetric pair counts twice)
	MaxDegree int64 `json:"max_degree"`
	Derived   int64 `json:"derived_from"` // provenance edges
}

// SpaceShape measures the space's memory graph.
func (s *Store) SpaceShape(ctx context.Context, space string) (GraphShape, error) {
	recs, err := s.read(ctx, qScaleDegree, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return GraphShape{}, err
	}
	r := recs[0]
	return GraphShape{Memories: num(r, "memories"), Edges: num(r, "edges"), MaxDegree: num(r, "max_degree"), Derived: num(r, "derived")}, nil
}
