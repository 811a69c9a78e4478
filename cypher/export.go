package cypher

import (
	"context"
	_ "embed"

	"github.com/realm-memory/realm"
)

// The statements an export reads a space with, page by page. The file they make, its
// records and the order and typing of their values, is package transfer's.

var (
	//go:embed queries/export_space.cypher
	exportSpaceCypher string
	qExportSpace      = newQuery("export_space", exportSpaceCypher)

	//go:embed queries/export_observations.cypher
	exportObservationsCypher string
	qExportObservations      = newQuery("export_observations", exportObservationsCypher)

	//go:embed queries/export_memories.cypher
	exportMemoriesCypher string
	qExportMemories      = newQuery("export_memories", exportMemoriesCypher)

	//go:embed queries/export_edges.cypher
	exportEdgesCypher string
	qExportEdges      = newQuery("export_edges", exportEdgesCypher)

	//go:embed queries/export_traces.cypher
	exportTracesCypher string
	qExportTraces      = newQuery("export_traces", exportTracesCypher)

	//go:embed queries/export_edits.cypher
	exportEditsCypher string
	qExportEdits      = newQuery("export_edits", exportEditsCypher)

	//go:embed queries/export_jobs.cypher
	exportJobsCypher string
	qExportJobs      = newQuery("export_jobs", exportJobsCypher)
)

// exportNodeQueries read one page of a kind of node of an export.
var exportNodeQueries = map[string]query{
	"observation": qExportObservations, "memory": qExportMemories,
	"trace": qExportTraces, "edit": qExportEdits, "job": qExportJobs,
}

// ExportSpaceProps returns the stored properties of space's node (import marks, embedder
// and dims among them) for the header of its export. Errors: ENotFound (no such space),
// EConflict (it is being imported, or its import was interrupted), EUnavailable.
func (s *Store) ExportSpaceProps(ctx context.Context, space string) (map[string]any, error) {
	recs, err := s.read(ctx, qExportSpace, map[string]any{"space": space})
	if err != nil {
		return nil, err
	}
	sp := mapOf(recs[0], "s")
	if sp == nil && num(recs[0], "contents") == 0 {
		return nil, realm.Errorf(realm.ENotFound, "space %q not found", space)
	}
	if sp["import_id"] != nil {
		return nil, realm.Errorf(realm.EConflict, "space %q is being imported (or its import was interrupted); export it when the import is done", space)
	}
	if sp == nil {
		sp = map[string]any{}
	}
	return sp, nil
}

// ExportNode is one node of an export page: all its stored properties and, for a
// memory, the ids of the observations it derives from, and of those it derives from as
// a repeat (Integration.Repeats).
type ExportNode struct {
	Props       map[string]any
	DerivedFrom []string
	Repeats     []string
}

// ExportNodes reads one page of the space's nodes of kind (observation, memory, trace,
// edit or job), at most limit of them, by id after after. Each page is its own read
// transaction. Errors: EUnavailable.
func (s *Store) ExportNodes(ctx context.Context, space, kind, after string, limit int) ([]ExportNode, error) {
	q, ok := exportNodeQueries[kind]
	if !ok {
		return nil, realm.Errorf(realm.EInternal, "export: no node kind %q", kind)
	}
	recs, err := s.read(ctx, q, map[string]any{"space": space, "after": after, "limit": limit})
	if err != nil {
		return nil, err
	}
	out := make([]ExportNode, len(recs))
	for i, r := range recs {
		out[i].Props = mapOf(r, "props")
		if kind == "memory" {
			out[i].DerivedFrom = stringList(valueOf(r, "derived_from"))
			out[i].Repeats = stringList(valueOf(r, "repeats"))
		}
	}
	return out, nil
}

// ExportEdge is a memory edge of an export, from the memory of its ExportSource.
type ExportEdge struct {
	Predicate realm.Predicate
	To        string
	Props     map[string]any
}

// ExportSource is a memory with its outgoing memory edges.
type ExportSource struct {
	From  string
	Edges []ExportEdge
}

// ExportEdges reads the outgoing edges of one page of the space's memories, at most
// limit of them, by id after after. Relationships that are not one of REALM's predicates
// are left out. Errors: EUnavailable.
func (s *Store) ExportEdges(ctx context.Context, space, after string, limit int) ([]ExportSource, error) {
	recs, err := s.read(ctx, qExportEdges, map[string]any{"space": space, "after": after, "limit": limit})
	if err != nil {
		return nil, err
	}
	out := make([]ExportSource, len(recs))
	for i, r := range recs {
		out[i].From = str(r, "from")
		list, _ := valueOf(r, "edges").([]any)
		for _, item := range list {
			m, _ := item.(map[string]any)
			rel, _ := m["type"].(string)
			to, _ := m["to"].(string)
			props, _ := m["props"].(map[string]any)
			if pred := realm.PredicateOfRelType(rel); pred.Valid() {
				out[i].Edges = append(out[i].Edges, ExportEdge{pred, to, props})
			}
		}
	}
	return out, nil
}
