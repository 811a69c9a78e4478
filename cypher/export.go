package cypher

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// The export format of a space: JSON Lines, one record a line, each with a "kind", in
// this order:
//
//	{"kind":"space","format":"realm-space","version":1,"space":S,"embedder":…,"dims":…,"exported_at":…,"props":{…}}
//	{"kind":"observation","props":{…}}                                   by id
//	{"kind":"memory","derived_from":[observation ids],"props":{…}}       by id
//	{"kind":"edge","predicate":"precedes","from":ID,"to":ID,"props":{…}} by source id
//	{"kind":"trace","props":{…}}, {"kind":"edit","props":{…}}, {"kind":"job","props":{…}}
//	{"kind":"end","counts":{"observation":n,…}}
//
// props are the node's or relationship's stored properties, all of them but the space
// (the importer sets it), leases and locks (a process's, not the data's) and import
// marks. Values keep their Neo4j type: integers are JSON integers, floats always carry a
// '.' or an exponent (1.0, not 1), datetimes are RFC 3339 strings in UTC with nanoseconds
// under names ending in "_at" and t_start/t_end, lists are arrays; embeddings are
// included, so an import needs no embedder call. The "end" record counts the records, so
// a truncated file is refused. Keys are sorted, so two exports of one graph are equal
// byte for byte but for exported_at.
const (
	ExportFormat  = "realm-space"
	ExportVersion = 1
)

// Record kinds of an export, in file order.
var exportKinds = []string{"space", "observation", "memory", "edge", "trace", "edit", "job", "end"}

// ExportCounts counts the records of an export by kind (observation, memory, edge,
// trace, edit, job).
type ExportCounts map[string]int64

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

// Properties that are not exported: the space (implied by the file, set by the
// importer), leases and locks (they belong to a running process) and import marks.
var unexported = map[string]map[string]bool{
	"space":       {"id": true, "locked_at": true, "import_id": true, "import_until": true, "embedder": true, "dims": true},
	"observation": {"space": true, "lease_owner": true, "lease_until": true},
	"memory":      {"space": true},
	"edge":        {},
	"trace":       {"space": true},
	"edit":        {"space": true},
	"job":         {"space": true},
}

// exportPage is how many nodes one export query reads.
const exportPage = 500

// ExportSpace writes the export of a space to w, streaming: each page of at most a few
// hundred nodes is read in its own transaction and written before the next is read, so
// memory does not grow with the space (but for the ids of its memories and observations,
// kept so that every edge and provenance link written points to a record of the file,
// even when the space changes during the export). flush, when not nil, runs after each
// page. Nothing is written when the space does not exist (ENotFound) or is being
// imported (EConflict). Errors: ENotFound, EConflict, EUnavailable, and w's errors.
func (s *Store) ExportSpace(ctx context.Context, space string, w io.Writer, flush func()) (ExportCounts, error) {
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
	dims, _ := sp["dims"].(int64)
	embedder, _ := sp["embedder"].(string)
	ew := &exportWriter{w: w, counts: ExportCounts{}}
	ew.record(
		kv{"kind", "space"}, kv{"format", ExportFormat}, kv{"version", int64(ExportVersion)}, kv{"space", space},
		kv{"embedder", embedder}, kv{"dims", dims}, kv{"exported_at", time.Now().UTC()},
		kv{"props", exportProps("space", sp)})
	if ew.err != nil {
		return nil, ew.err
	}
	observations := map[string]bool{}
	memories := map[string]bool{}
	pageNodes := func(kind string, q query, each func(props map[string]any, r map[string]any) []kv) error {
		after := ""
		for {
			recs, err := s.read(ctx, q, map[string]any{"space": space, "after": after, "limit": exportPage})
			if err != nil {
				return err
			}
			for _, r := range recs {
				row := map[string]any{}
				for _, k := range r.Keys {
					row[k], _ = r.Get(k)
				}
				props, _ := row["props"].(map[string]any)
				after, _ = props["id"].(string)
				if fields := each(props, row); fields != nil {
					ew.record(fields...)
					ew.counts[kind]++
				}
			}
			if ew.err != nil {
				return ew.err
			}
			if flush != nil {
				flush()
			}
			if len(recs) < exportPage {
				return nil
			}
		}
	}
	plain := func(kind string) func(map[string]any, map[string]any) []kv {
		return func(props, _ map[string]any) []kv {
			return []kv{{"kind", kind}, {"props", exportProps(kind, props)}}
		}
	}
	err = pageNodes("observation", qExportObservations, func(props, _ map[string]any) []kv {
		id, _ := props["id"].(string)
		observations[id] = true
		return []kv{{"kind", "observation"}, {"props", exportProps("observation", props)}}
	})
	if err == nil {
		err = pageNodes("memory", qExportMemories, func(props, row map[string]any) []kv {
			id, _ := props["id"].(string)
			memories[id] = true
			var from []string
			for _, o := range stringList(row["derived_from"]) {
				if observations[o] { // an observation saved after its page was read is not in the file
					from = append(from, o)
				}
			}
			sort.Strings(from)
			return []kv{{"kind", "memory"}, {"derived_from", orEmpty(from)}, {"props", exportProps("memory", props)}}
		})
	}
	if err == nil {
		err = s.exportEdges(ctx, space, ew, memories, flush)
	}
	for _, k := range []struct {
		kind string
		q    query
	}{{"trace", qExportTraces}, {"edit", qExportEdits}, {"job", qExportJobs}} {
		if err == nil {
			err = pageNodes(k.kind, k.q, plain(k.kind))
		}
	}
	if err != nil {
		return ew.counts, err
	}
	counts := map[string]any{}
	for k, n := range ew.counts {
		counts[k] = n
	}
	for _, k := range exportKinds[1 : len(exportKinds)-1] {
		if _, ok := counts[k]; !ok {
			counts[k] = int64(0)
		}
	}
	ew.record(kv{"kind", "end"}, kv{"counts", counts})
	if flush != nil {
		flush()
	}
	return ew.counts, ew.err
}

// exportEdges writes the memory edges of the space, page by page of source memories,
// each source's edges sorted by predicate, target and id; edges to a memory that is not
// in the file (created after its page was read) are left out.
func (s *Store) exportEdges(ctx context.Context, space string, ew *exportWriter, memories map[string]bool, flush func()) error {
	after := ""
	for {
		recs, err := s.read(ctx, qExportEdges, map[string]any{"space": space, "after": after, "limit": exportPage})
		if err != nil {
			return err
		}
		for _, r := range recs {
			from := str(r, "from")
			after = from
			if !memories[from] {
				continue
			}
			v, _ := r.Get("edges")
			list, _ := v.([]any)
			type edge struct {
				pred  realm.Predicate
				to    string
				props map[string]any
			}
			var edges []edge
			for _, item := range list {
				m, _ := item.(map[string]any)
				rel, _ := m["type"].(string)
				to, _ := m["to"].(string)
				props, _ := m["props"].(map[string]any)
				pred := realm.PredicateOfRelType(rel)
				if !pred.Valid() || !memories[to] {
					continue // not a memory edge of REALM's model, or its target is not in the file
				}
				edges = append(edges, edge{pred, to, props})
			}
			sort.Slice(edges, func(i, j int) bool {
				a, b := edges[i], edges[j]
				if a.pred != b.pred {
					return a.pred < b.pred
				}
				if a.to != b.to {
					return a.to < b.to
				}
				ai, _ := a.props["id"].(string)
				bi, _ := b.props["id"].(string)
				return ai < bi
			})
			for _, e := range edges {
				ew.record(kv{"kind", "edge"}, kv{"predicate", string(e.pred)}, kv{"from", from}, kv{"to", e.to},
					kv{"props", exportProps("edge", e.props)})
				ew.counts["edge"]++
			}
		}
		if ew.err != nil {
			return ew.err
		}
		if flush != nil {
			flush()
		}
		if len(recs) < exportPage {
			return nil
		}
	}
}

func exportProps(kind string, props map[string]any) map[string]any {
	out := make(map[string]any, len(props))
	for k, v := range props {
		if !unexported[kind][k] {
			out[k] = v
		}
	}
	return out
}

// kv is one field of a record, written in the order given.
type kv struct {
	key   string
	value any
}

// exportWriter writes records, one a line, remembering the first error.
type exportWriter struct {
	w      io.Writer
	buf    bytes.Buffer
	counts ExportCounts
	err    error
}

func (ew *exportWriter) record(fields ...kv) {
	if ew.err != nil {
		return
	}
	ew.buf.Reset()
	ew.buf.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			ew.buf.WriteByte(',')
		}
		writeJSONString(&ew.buf, f.key)
		ew.buf.WriteByte(':')
		if err := writeValue(&ew.buf, f.key, f.value); err != nil {
			ew.err = realm.Errorf(realm.EInternal, "export: %v", err)
			return
		}
	}
	ew.buf.WriteString("}\n")
	_, ew.err = ew.w.Write(ew.buf.Bytes())
}

// isTimeKey reports whether a property holds a datetime by its name: the export format
// relies on this convention (created_at, observed_at, t_start …).
func isTimeKey(k string) bool {
	return strings.HasSuffix(k, "_at") || k == "t_start" || k == "t_end" || strings.HasSuffix(k, "_until")
}

// writeValue writes one property value in the export's typed JSON (see ExportFormat);
// maps are written with sorted keys.
func writeValue(buf *bytes.Buffer, key string, v any) error {
	if _, isTime := v.(time.Time); isTime != isTimeKey(key) && !isList(v) && !isMap(v) {
		return fmt.Errorf("property %q holds a %T: datetimes must be, and only be, under names ending in _at", key, v)
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case string:
		writeJSONString(buf, x)
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case int:
		buf.WriteString(strconv.Itoa(x))
	case int64:
		buf.WriteString(strconv.FormatInt(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("property %q holds %v, which JSON cannot carry", key, x)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		buf.WriteString(s)
	case time.Time:
		writeJSONString(buf, x.UTC().Format(time.RFC3339Nano))
	case []string:
		buf.WriteByte('[')
		for i, s := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, s)
		}
		buf.WriteByte(']')
	case []any:
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeValue(buf, key, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, k)
			buf.WriteByte(':')
			if err := writeValue(buf, k, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("property %q holds a %T, which the export format does not carry", key, v)
	}
	return nil
}

func isList(v any) bool {
	switch v.(type) {
	case []any, []string:
		return true
	}
	return false
}

func isMap(v any) bool { _, ok := v.(map[string]any); return ok }

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}

// readValue turns a decoded JSON value of a props object (numbers as json.Number) back
// into the Neo4j value the export wrote; see ExportFormat.
func readValue(key string, v any) (any, error) {
	switch x := v.(type) {
	case string:
		if isTimeKey(key) {
			t, err := time.Parse(time.RFC3339Nano, x)
			if err != nil {
				return nil, fmt.Errorf("property %q: %q is not an RFC 3339 datetime", key, x)
			}
			return t.UTC(), nil
		}
		return x, nil
	case bool:
		return x, nil
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			f, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("property %q: %s is not a float", key, x)
			}
			return f, nil
		}
		n, err := x.Int64()
		if err != nil {
			return nil, fmt.Errorf("property %q: %s is not a 64-bit integer", key, x)
		}
		return n, nil
	case []any:
		out := make([]any, len(x))
		var kind string
		for i, item := range x {
			if _, nested := item.([]any); nested || item == nil {
				return nil, fmt.Errorf("property %q: a list may hold only strings, numbers, booleans or datetimes", key)
			}
			val, err := readValue(key, item)
			if err != nil {
				return nil, err
			}
			if k := fmt.Sprintf("%T", val); i == 0 {
				kind = k
			} else if k != kind {
				return nil, fmt.Errorf("property %q: a list must hold values of one type (%s and %s)", key, kind, k)
			}
			out[i] = val
		}
		return out, nil
	case nil:
		return nil, fmt.Errorf("property %q is null; leave it out instead", key)
	}
	return nil, fmt.Errorf("property %q holds an object; properties are strings, numbers, booleans, datetimes or lists", key)
}

// errLine is a refusal of one line of an import, with its number.
func errLine(line int, format string, args ...any) error {
	return &realm.Error{
		Code:    realm.EInvalid,
		Message: fmt.Sprintf("line %d: %s", line, fmt.Sprintf(format, args...)),
		Fields:  map[string]string{"line": strconv.Itoa(line)},
	}
}

var (
	//go:embed queries/import_begin.cypher
	importBeginCypher string
	qImportBegin      = newQuery("import_begin", importBeginCypher)

	//go:embed queries/import_claim.cypher
	importClaimCypher string
	qImportClaim      = newQuery("import_claim", importClaimCypher)

	//go:embed queries/import_renew.cypher
	importRenewCypher string
	qImportRenew      = newQuery("import_renew", importRenewCypher)

	//go:embed queries/import_finish.cypher
	importFinishCypher string
	qImportFinish      = newQuery("import_finish", importFinishCypher)

	//go:embed queries/import_nodes.cypher
	importNodesCypher string
	qImportNodes      = newQuery("import_nodes", importNodesCypher)

	//go:embed queries/import_memories.cypher
	importMemoriesCypher string
	qImportMemories      = newQuery("import_memories", importMemoriesCypher)

	//go:embed queries/import_provenance.cypher
	importProvenanceCypher string
	qImportProvenance      = newQuery("import_provenance", importProvenanceCypher)

	//go:embed queries/import_edges.cypher
	importEdgesCypher string
	qImportEdges      = newQuery("import_edges", importEdgesCypher)
)

// ImportOptions are the server's embedder, which an export must have been made with,
// and the longest line accepted.
type ImportOptions struct {
	Embedder string
	Dims     int
	MaxLine  int // bytes; 0 is DefaultMaxImportLine
}

// DefaultMaxImportLine bounds one record of an import (a trace is the longest).
const DefaultMaxImportLine = 64 << 20

// ImportResult says what an import wrote.
type ImportResult struct {
	Space       string `json:"space"`
	SourceSpace string `json:"source_space"` // the space the file was exported from
	// IDsRewritten: the file came from another space, so every memory, edge, trace, edit
	// and job got a new id (derived from the old one and the new space), which lets a
	// copy live beside its original.
	IDsRewritten bool         `json:"ids_rewritten"`
	Counts       ExportCounts `json:"counts"`
}

// importLease is how long an import holds its space without renewing (it renews before
// every batch); an import found holding a space past it was interrupted and is wiped by
// the next import into that space.
const importLease = 2 * time.Minute

// Import batches: at most this many records or bytes of lines in one transaction.
const (
	importBatchRecords = 500
	importBatchBytes   = 4 << 20
)

// rewriter gives a copy new ids: each derived from the old id and the new space, so
// the same file imported twice under one name gets the same ids.
type rewriter struct {
	from, to string
	on       bool
}

var importNamespace = uuid.MustParse("6f1d0c2e-8a43-4f5b-9c1e-52a7d3b0e9a1")

func (rw rewriter) id(old string) string {
	if !rw.on || old == "" {
		return old
	}
	return uuid.NewSHA1(importNamespace, []byte(rw.to+"\x00"+old)).String()
}

func (rw rewriter) ids(v any) any {
	list, ok := v.([]any)
	if !rw.on || !ok {
		return v
	}
	out := make([]any, len(list))
	for i, x := range list {
		s, _ := x.(string)
		out[i] = rw.id(s)
	}
	return out
}

// traceJSON rewrites the ids and the space inside a trace's JSON document.
func (rw rewriter) traceJSON(doc string, ids map[string]bool) (string, error) {
	if !rw.on {
		return doc, nil
	}
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	var walk func(key string, v any) any
	walk = func(key string, v any) any {
		switch x := v.(type) {
		case string:
			if key == "space" && x == rw.from {
				return rw.to
			}
			if ids[x] {
				return rw.id(x)
			}
		case []any:
			for i := range x {
				x[i] = walk(key, x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(k, x[k])
			}
		}
		return v
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(walk("", v)); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// importer writes one validated file into one space.
type importer struct {
	store *Store
	space string
	id    string // the mark on the space while it is imported
	scan  *importScan
	rw    rewriter
}

func newImportID() string { return uuid.NewString() }

// begin claims the space for this import, refusing one that is not empty or that
// another import holds; it reports whether an interrupted import's data must be wiped.
// The exported space's properties come later (setProps), once the file is read.
func (im *importer) begin(ctx context.Context) (interrupted bool, err error) {
	_, err = im.store.writeTx(ctx, func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		now := time.Now().UTC()
		// Lock an existing space with MATCH, then SET, before import_begin's MERGE, as
		// SaveObservations does: a MERGE waiting for the node's lock holds its index
		// entry's, and deadlocks with a writer holding the node's.
		if _, err := collect(ctx, tx, qSpaceLock, map[string]any{"space": im.space, "id": "", "now": now}); err != nil {
			return nil, err
		}
		recs, err := collect(ctx, tx, qImportBegin, map[string]any{"space": im.space, "now": now})
		if err != nil {
			return nil, err
		}
		r := recs[0]
		marked, _ := r.Get("import_id")
		interrupted = false
		switch {
		case marked != nil && timeOf(valueOf(r, "import_until")).After(now):
			return nil, realm.Errorf(realm.EConflict, "space %q is being imported by another request; wait for it to end", im.space)
		case marked != nil:
			interrupted = true // its importer is gone: its data is wiped below
		case num(r, "contents") > 0:
			return nil, realm.Errorf(realm.EConflict,
				"space %q is not empty (%d memories, observations, traces, edits and jobs): an import needs an empty space; "+
					"erase it first (DELETE /v1/spaces/%s) or import under another name", im.space, num(r, "contents"), im.space)
		}
		_, err = collect(ctx, tx, qImportClaim, map[string]any{"space": im.space, "import": im.id, "until": now.Add(importLease)})
		return nil, err
	})
	return interrupted, err
}

// setProps gives the space the exported space's properties, embedder and dimension.
func (im *importer) setProps(ctx context.Context, opts ImportOptions) error {
	h := im.scan.header
	props := map[string]any{}
	for k, v := range h.Props {
		if !unexported["space"][k] {
			props[k], _ = readValue(k, v)
		}
	}
	embedder := h.Embedder
	if embedder == "" {
		embedder = opts.Embedder
	}
	dims := int64(h.Dims)
	if dims == 0 {
		dims = int64(opts.Dims)
	}
	_, err := im.store.writeTx(ctx, func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		if err := im.renew(ctx, tx); err != nil {
			return nil, err
		}
		_, err := collect(ctx, tx, qImportProps, map[string]any{"space": im.space, "props": props, "embedder": embedder, "dims": dims})
		return nil, err
	})
	return err
}

func valueOf(r *neo4j.Record, key string) any { v, _ := r.Get(key); return v }

// renew extends the import's hold on the space inside tx; EConflict when it lost it.
func (im *importer) renew(ctx context.Context, tx neo4j.ManagedTransaction) error {
	recs, err := collect(ctx, tx, qImportRenew, map[string]any{"space": im.space, "import": im.id, "until": time.Now().UTC().Add(importLease)})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return realm.Errorf(realm.EConflict, "the import into space %q was cancelled: the space was erased or another import took it over", im.space)
	}
	return nil
}

// wipe erases what an interrupted import left in the space, keeping the space's node.
func (im *importer) wipe(ctx context.Context) error {
	for {
		var deleted int64
		_, err := im.store.writeTx(ctx, func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			if err := im.renew(ctx, tx); err != nil {
				return nil, err
			}
			recs, err := collect(ctx, tx, qSpaceDeleteBatch, map[string]any{"space": im.space, "batch": 5000})
			if err == nil {
				deleted = num(recs[0], "deleted")
			}
			return nil, err
		})
		if err != nil || deleted == 0 {
			return err
		}
	}
}

func (im *importer) finish(ctx context.Context) error {
	recs, err := im.store.write(ctx, qImportFinish, map[string]any{"space": im.space, "import": im.id})
	if err == nil && len(recs) == 0 {
		err = realm.Errorf(realm.EConflict, "the import into space %q was cancelled: the space was erased or another import took it over", im.space)
	}
	return err
}

// abandon erases what a failed import wrote, if the space is still its own; the mark
// stays when even that fails, for the next import to wipe.
func (im *importer) abandon(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), importLease)
	defer cancel()
	_, err := im.store.writeTx(ctx, func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return nil, im.renew(ctx, tx)
	})
	if err == nil {
		_, _ = im.store.DeleteSpace(ctx, im.space)
	}
}

// importBatch gathers the rows of one kind for one transaction.
type importBatch struct {
	kind  string
	rows  []any
	prov  []any // memories: {memory, observation}
	bytes int
}

// write reads the file again and writes it in batches.
func (im *importer) write(ctx context.Context, open func() (io.ReadCloser, error), opts ImportOptions) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b := &importBatch{}
	_, err = eachRecord(rc, opts.MaxLine, func(rec *importRecord, size, n int) error {
		if rec.Kind == "space" || rec.Kind == "end" {
			return nil
		}
		if rec.Kind != b.kind || len(b.rows) >= importBatchRecords || b.bytes >= importBatchBytes {
			if err := im.flush(ctx, b); err != nil {
				return err
			}
			*b = importBatch{kind: rec.Kind}
		}
		if err := im.add(b, rec, n); err != nil {
			return err
		}
		b.bytes += size
		return nil
	})
	if err != nil {
		return err
	}
	return im.flush(ctx, b)
}

// add turns one record into the row its statement takes, with the space set and, for
// a copy, the ids rewritten.
func (im *importer) add(b *importBatch, rec *importRecord, n int) error {
	props := make(map[string]any, len(rec.Props)+1)
	for k, v := range rec.Props {
		if unexported[rec.Kind][k] {
			continue
		}
		val, err := readValue(k, v)
		if err != nil {
			return errLine(n, "%v", err)
		}
		props[k] = val
	}
	rw := im.rw
	if rec.Kind != "observation" { // observation ids are the client's, unique within a space only
		props["id"] = rw.id(props["id"].(string))
	}
	switch rec.Kind {
	case "observation":
		for _, k := range []string{"added", "merged"} {
			if v, ok := props[k]; ok {
				props[k] = rw.ids(v)
			}
		}
	case "edit":
		for _, k := range []string{"trace_id", "reconsolidation_id", "edge_id", "from", "to"} {
			if v, ok := props[k].(string); ok {
				props[k] = rw.id(v)
			}
		}
	case "trace":
		if doc, ok := props["json"].(string); ok {
			text, err := rw.traceJSON(doc, im.scan.ids)
			if err != nil {
				return errLine(n, "trace: props.json: %v", err)
			}
			props["json"] = text
		}
	}
	switch rec.Kind {
	case "edge":
		b.rows = append(b.rows, map[string]any{
			"from": rw.id(rec.From), "to": rw.id(rec.To), "type": realm.Predicate(rec.Predicate).RelType(), "props": props,
		})
		return nil
	case "memory":
		props["space"] = im.space
		typ, _ := props["type"].(string)
		b.rows = append(b.rows, map[string]any{"label": realm.NodeType(typ).Label(), "props": props})
		for _, o := range rec.DerivedFrom {
			b.prov = append(b.prov, map[string]any{"memory": props["id"], "observation": o})
		}
		return nil
	}
	props["space"] = im.space
	b.rows = append(b.rows, props)
	return nil
}

// importLabels are the node labels import_nodes creates, by record kind.
var importLabels = map[string]string{"observation": "Observation", "trace": "Trace", "edit": "Edit", "job": "Job"}

// flush writes one batch in one transaction, after renewing the import's hold.
func (im *importer) flush(ctx context.Context, b *importBatch) error {
	if len(b.rows) == 0 {
		return nil
	}
	type step struct {
		q      query
		params map[string]any
		want   int
	}
	var steps []step
	switch b.kind {
	case "memory":
		steps = []step{
			{qImportMemories, map[string]any{"rows": b.rows}, len(b.rows)},
			{qImportProvenance, map[string]any{"space": im.space, "rows": b.prov}, len(b.prov)},
		}
	case "edge":
		steps = []step{{qImportEdges, map[string]any{"space": im.space, "rows": b.rows}, len(b.rows)}}
	default:
		steps = []step{{qImportNodes, map[string]any{"label": importLabels[b.kind], "rows": b.rows}, len(b.rows)}}
	}
	_, err := im.store.writeTx(ctx, func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		if err := im.renew(ctx, tx); err != nil {
			return nil, err
		}
		for _, st := range steps {
			if st.want == 0 {
				continue
			}
			recs, err := collect(ctx, tx, st.q, st.params)
			if err != nil {
				return nil, importConflict(err)
			}
			if got := num(recs[0], "created"); got != int64(st.want) {
				return nil, realm.Errorf(realm.EInternal, "import %s: wrote %d of %d", st.q.name, got, st.want)
			}
		}
		return nil, nil
	})
	return err
}

// importConflict reports a uniqueness violation (an id that exists in another space)
// as EConflict.
func importConflict(err error) error {
	var n4j *neo4j.Neo4jError
	if errors.As(err, &n4j) && strings.Contains(n4j.Code, "ConstraintValidationFailed") {
		return realm.Errorf(realm.EConflict, "an id of the export (a memory, trace, edit or job) exists already in another space")
	}
	return err
}
