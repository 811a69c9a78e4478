package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// Options are the server's embedder, which an export must have been made with, the
// longest line accepted, and whether the file's ids may be kept.
type Options struct {
	Embedder string
	Dims     int
	MaxLine  int // bytes; 0 is DefaultMaxLine
	// KeepIDs keeps the ids of a file whose header names the space imported into (a
	// restore). Ids are derived by a public formula (cypher.DerivedID), so a file may
	// hold those another space will derive, or holds: kept, they would take that
	// space's future ids, or their refusal would say it holds them. Only a caller who
	// may read every space (the operator) may keep them; otherwise every id is
	// rewritten as for a copy, and a rewritten id is never another space's.
	KeepIDs bool
}

// DefaultMaxLine bounds one record of an import (a trace is the longest).
const DefaultMaxLine = 64 << 20

// Result says what an import wrote.
type Result struct {
	Space       string `json:"space"`
	SourceSpace string `json:"source_space"` // the space the file was exported from
	// IDsRewritten: every memory, edge, trace, edit and job got a new id (derived from
	// the old one and the new space), because the file came from another space (a copy
	// then lives beside its original) or the caller may not keep ids (Options.KeepIDs).
	IDsRewritten bool   `json:"ids_rewritten"`
	Counts       Counts `json:"counts"`
}

// Import batches: at most this many records or bytes of lines in one transaction.
const (
	batchRecords = 500
	batchBytes   = 4 << 20
)

// Import imports an export (see Format) into space, which must be empty. open is called
// twice: the first reading validates every line, and a bad line refuses the whole import
// with its number before anything of the file is written (EInvalid, Fields["line"]); the
// second writes, in batches of one transaction each, under a mark on the space that the
// batches renew. If writing fails, what was written is erased before returning; if even
// that fails (Neo4j gone), the mark stays and the next import into the space erases it,
// so a space is never left half imported unnoticed. An export of another space, or any
// export without opts.KeepIDs, is imported with new ids (see Result). It is
// cypher.BeginImport, then Run.
// Errors: EInvalid (a bad line), EConflict (the space is not empty, is being imported,
// or the file's embedder is not opts'), EUnavailable.
func Import(ctx context.Context, store *cypher.Store, space string, open func() (io.ReadCloser, error), opts Options) (Result, error) {
	hold, err := store.BeginImport(ctx, space)
	if err != nil {
		return Result{Space: space}, err
	}
	return Run(ctx, hold, open, opts)
}

// Run imports the export that open opens (see Import) into the space hold claimed, and
// finishes or abandons hold. Errors: as Import's.
func Run(ctx context.Context, hold *cypher.Import, open func() (io.ReadCloser, error), opts Options) (Result, error) {
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxLine
	}
	res := Result{Space: hold.Space()}
	sc, err := scanImport(open, opts)
	if err == nil {
		res.SourceSpace, res.IDsRewritten, res.Counts = sc.header.Space, sc.header.Space != res.Space || !opts.KeepIDs, sc.counts
		im := &importer{hold: hold, scan: sc, rw: rewriter{from: sc.header.Space, to: res.Space, on: res.IDsRewritten}}
		err = im.setSpace(ctx, opts)
		if err == nil {
			err = im.write(ctx, open, opts)
		}
	}
	if err == nil {
		err = hold.Finish(ctx)
	}
	if err != nil {
		hold.Abandon(ctx)
		return res, err
	}
	return res, nil
}

// rewriter gives a copy new ids: each derived from the old id and the new space
// (cypher.DerivedID), so the same file imported twice under one name gets the same ids,
// and imported under two names, ids that order alike.
type rewriter struct {
	from, to string
	on       bool
}

func (rw rewriter) id(old string) string {
	if !rw.on || old == "" {
		return old
	}
	return cypher.DerivedID(rw.to, "import\x00"+old)
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

// importer writes one validated file into the space its hold claimed.
type importer struct {
	hold *cypher.Import
	scan *importScan
	rw   rewriter
}

// setSpace gives the space the exported space's properties, embedder and dimension.
func (im *importer) setSpace(ctx context.Context, opts Options) error {
	h := im.scan.header
	props := map[string]any{}
	for k, v := range h.Props {
		if !unexported["space"][k] {
			props[k], _ = readValue(k, v)
		}
	}
	embedder, dims := h.Embedder, h.Dims
	if embedder == "" {
		embedder = opts.Embedder
	}
	if dims == 0 {
		dims = opts.Dims
	}
	return im.hold.SetSpace(ctx, props, embedder, dims)
}

// batch gathers the rows of one kind for one transaction.
type batch struct {
	kind     string
	nodes    []map[string]any
	memories []cypher.ImportMemory
	edges    []cypher.ImportEdge
	records  int
	bytes    int
}

// write reads the file again and writes it in batches.
func (im *importer) write(ctx context.Context, open func() (io.ReadCloser, error), opts Options) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b := &batch{}
	_, err = eachRecord(rc, opts.MaxLine, func(rec *importRecord, size, n int) error {
		if rec.Kind == "space" || rec.Kind == "end" {
			return nil
		}
		if rec.Kind != b.kind || b.records >= batchRecords || b.bytes >= batchBytes {
			if err := im.flush(ctx, b); err != nil {
				return err
			}
			*b = batch{kind: rec.Kind}
		}
		if err := im.add(b, rec, n); err != nil {
			return err
		}
		b.records++
		b.bytes += size
		return nil
	})
	if err != nil {
		return err
	}
	return im.flush(ctx, b)
}

// add turns one record into the row of its batch, with, for a copy, the ids rewritten.
func (im *importer) add(b *batch, rec *importRecord, n int) error {
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
		for _, k := range []string{"added", "merged", "repeat_of"} {
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
		b.edges = append(b.edges, cypher.ImportEdge{From: rw.id(rec.From), To: rw.id(rec.To), Predicate: realm.Predicate(rec.Predicate), Props: props})
	case "memory":
		typ, _ := props["type"].(string)
		b.memories = append(b.memories, cypher.ImportMemory{Type: realm.NodeType(typ), Props: props, DerivedFrom: rec.DerivedFrom, Repeats: rec.Repeats})
	default:
		b.nodes = append(b.nodes, props)
	}
	return nil
}

// flush writes one batch in one transaction.
func (im *importer) flush(ctx context.Context, b *batch) error {
	switch {
	case b.records == 0:
		return nil
	case b.kind == "memory":
		return im.hold.WriteMemories(ctx, b.memories)
	case b.kind == "edge":
		return im.hold.WriteEdges(ctx, b.edges)
	}
	return im.hold.WriteNodes(ctx, b.kind, b.nodes)
}
