package transfer

import (
	"context"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/realm-memory/realm/cypher"
)

// exportPage is how many nodes one export query reads.
const exportPage = 500

// Export writes the export of a space to w, streaming: each page of at most a few
// hundred nodes is read in its own transaction and written before the next is read, so
// memory does not grow with the space (but for the ids of its memories and observations,
// kept so that every edge and provenance link written points to a record of the file,
// even when the space changes during the export). flush, when not nil, runs after each
// page. Nothing is written when the space does not exist (ENotFound) or is being
// imported (EConflict). Errors: ENotFound, EConflict, EUnavailable, and w's errors.
func Export(ctx context.Context, store *cypher.Store, space string, w io.Writer, flush func()) (Counts, error) {
	sp, err := store.ExportSpaceProps(ctx, space)
	if err != nil {
		return nil, err
	}
	dims, _ := sp["dims"].(int64)
	embedder, _ := sp["embedder"].(string)
	ex := &exporter{store: store, space: space, flush: flush, rw: &recordWriter{w: w, counts: Counts{}},
		observations: map[string]bool{}, memories: map[string]bool{}}
	ex.rw.record(
		kv{"kind", "space"}, kv{"format", Format}, kv{"version", int64(Version)}, kv{"space", space},
		kv{"embedder", embedder}, kv{"dims", dims}, kv{"exported_at", time.Now().UTC()},
		kv{"props", exportProps("space", sp)})
	if ex.rw.err != nil {
		return nil, ex.rw.err
	}
	for _, kind := range kinds[1 : len(kinds)-1] {
		if kind == "edge" {
			err = ex.edges(ctx)
		} else {
			err = ex.nodes(ctx, kind)
		}
		if err != nil {
			return ex.rw.counts, err
		}
	}
	counts := map[string]any{}
	for _, k := range kinds[1 : len(kinds)-1] {
		counts[k] = ex.rw.counts[k]
	}
	ex.rw.record(kv{"kind", "end"}, kv{"counts", counts})
	if flush != nil {
		flush()
	}
	return ex.rw.counts, ex.rw.err
}

// exporter writes the records of one space.
type exporter struct {
	store        *cypher.Store
	space        string
	rw           *recordWriter
	flush        func()
	observations map[string]bool // ids written
	memories     map[string]bool
}

// nodes writes the space's nodes of kind, page by page.
func (ex *exporter) nodes(ctx context.Context, kind string) error {
	after := ""
	for {
		page, err := ex.store.ExportNodes(ctx, ex.space, kind, after, exportPage)
		if err != nil {
			return err
		}
		for _, n := range page {
			id, _ := n.Props["id"].(string)
			after = id
			fields := []kv{{"kind", kind}}
			switch kind {
			case "observation":
				ex.observations[id] = true
			case "memory":
				ex.memories[id] = true
				var from []string
				for _, o := range n.DerivedFrom {
					if ex.observations[o] { // an observation saved after its page was read is not in the file
						from = append(from, o)
					}
				}
				sort.Strings(from)
				if from == nil {
					from = []string{}
				}
				fields = append(fields, kv{"derived_from", from})
				if repeats := slices.DeleteFunc(slices.Clone(n.Repeats), func(o string) bool { return !slices.Contains(from, o) }); len(repeats) > 0 {
					slices.Sort(repeats)
					fields = append(fields, kv{"repeats", repeats})
				}
			}
			ex.rw.record(append(fields, kv{"props", exportProps(kind, n.Props)})...)
			ex.rw.counts[kind]++
		}
		if done, err := ex.pageDone(len(page)); done || err != nil {
			return err
		}
	}
}

// edges writes the memory edges of the space, page by page of source memories, each
// source's edges sorted by predicate, target and id; edges to a memory that is not in
// the file (created after its page was read) are left out.
func (ex *exporter) edges(ctx context.Context) error {
	after := ""
	for {
		page, err := ex.store.ExportEdges(ctx, ex.space, after, exportPage)
		if err != nil {
			return err
		}
		for _, src := range page {
			after = src.From
			if !ex.memories[src.From] {
				continue
			}
			var edges []cypher.ExportEdge
			for _, e := range src.Edges {
				if ex.memories[e.To] {
					edges = append(edges, e)
				}
			}
			sort.Slice(edges, func(i, j int) bool {
				a, b := edges[i], edges[j]
				if a.Predicate != b.Predicate {
					return a.Predicate < b.Predicate
				}
				if a.To != b.To {
					return a.To < b.To
				}
				ai, _ := a.Props["id"].(string)
				bi, _ := b.Props["id"].(string)
				return ai < bi
			})
			for _, e := range edges {
				ex.rw.record(kv{"kind", "edge"}, kv{"predicate", string(e.Predicate)}, kv{"from", src.From}, kv{"to", e.To},
					kv{"props", exportProps("edge", e.Props)})
				ex.rw.counts["edge"]++
			}
		}
		if done, err := ex.pageDone(len(page)); done || err != nil {
			return err
		}
	}
}

// pageDone flushes after a page of n rows and says whether it was the last.
func (ex *exporter) pageDone(n int) (bool, error) {
	if ex.rw.err != nil {
		return true, ex.rw.err
	}
	if ex.flush != nil {
		ex.flush()
	}
	return n < exportPage, nil
}

// exportProps are the properties of a node of kind that the file carries.
func exportProps(kind string, props map[string]any) map[string]any {
	out := make(map[string]any, len(props))
	for k, v := range props {
		if !unexported[kind][k] {
			out[k] = v
		}
	}
	return out
}
