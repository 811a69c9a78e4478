package transfer

// Validation of an import: the first reading of the file, which checks every line
// before anything is written (see Import), and the line reader both readings use.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
)

// Validate reads an export through and reports its first bad line, writing nothing; it
// returns what an import would write. Errors: EInvalid, EConflict (the embedder).
func Validate(r io.Reader, opts Options) (Counts, error) {
	scan := newImportScan(opts)
	if err := scan.read(r); err != nil {
		return nil, err
	}
	return scan.counts, nil
}

// importRecord is one line of an export, any kind.
type importRecord struct {
	Kind        string           `json:"kind"`
	Format      string           `json:"format"`
	Version     int              `json:"version"`
	Space       string           `json:"space"`
	Embedder    string           `json:"embedder"`
	Dims        int              `json:"dims"`
	ExportedAt  string           `json:"exported_at"`
	DerivedFrom []string         `json:"derived_from"`
	Repeats     []string         `json:"repeats"`
	Predicate   string           `json:"predicate"`
	From        string           `json:"from"`
	To          string           `json:"to"`
	Props       map[string]any   `json:"props"`
	Counts      map[string]int64 `json:"counts"`
}

// importScan is what validating a file learns: its header, counts and ids.
type importScan struct {
	opts         Options
	header       importRecord
	counts       Counts
	rank         int             // of the last record's kind
	ended        bool            // the end record was read
	observations map[string]bool // observation ids
	memories     map[string]bool // memory ids
	seen         map[string]map[string]bool
	ids          map[string]bool // ids a copy rewrites: memories, edges, traces, edits, reconsolidations, jobs
	forgotten    int64           // the header's forget count (props.forgotten; 0 without one)
}

func newImportScan(opts Options) *importScan {
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxLine
	}
	return &importScan{
		opts: opts, counts: Counts{}, rank: -1, observations: map[string]bool{}, memories: map[string]bool{},
		seen: map[string]map[string]bool{}, ids: map[string]bool{},
	}
}

func scanImport(open func() (io.ReadCloser, error), opts Options) (*importScan, error) {
	rc, err := open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	scan := newImportScan(opts)
	return scan, scan.read(rc)
}

// read validates every line of r.
func (sc *importScan) read(r io.Reader) error {
	last, err := eachRecord(r, sc.opts.MaxLine, func(rec *importRecord, _, n int) error {
		return sc.check(rec, n)
	})
	if err != nil {
		return err
	}
	if !sc.ended {
		if sc.rank < 0 {
			return errLine(1, "the file is empty; an export begins with a space record")
		}
		return errLine(last+1, `the file ends without its "end" record: it is truncated`)
	}
	return nil
}

// eachRecord decodes the lines of r in order and hands each record to fn with its size
// in bytes and its line number; it returns the number of the last line read. Both
// passes of an import read the file through it.
func eachRecord(r io.Reader, maxLine int, fn func(rec *importRecord, size, n int) error) (int, error) {
	lines := newLineReader(r, maxLine)
	for {
		line, n, err := lines.next()
		if err == io.EOF {
			return lines.n, nil
		}
		if err != nil {
			return lines.n, err
		}
		rec, err := decodeRecord(line, n)
		if err != nil {
			return lines.n, err
		}
		if err := fn(&rec, len(line), n); err != nil {
			return lines.n, err
		}
	}
}

var kindRank = func() map[string]int {
	m := map[string]int{}
	for i, k := range kinds {
		m[k] = i
	}
	return m
}()

// check validates one record against the ones before it.
func (sc *importScan) check(rec *importRecord, n int) error {
	rank, ok := kindRank[rec.Kind]
	switch {
	case !ok:
		return errLine(n, "unknown kind %q", rec.Kind)
	case sc.ended:
		return errLine(n, `a %s record after the "end" record`, rec.Kind)
	case sc.rank < 0 && rec.Kind != "space":
		return errLine(n, `an export begins with a "space" record, not %q`, rec.Kind)
	case sc.rank >= 0 && rec.Kind == "space":
		return errLine(n, "a second space record")
	case rank < sc.rank:
		return errLine(n, "a %s record after the %s records: kinds come in the order %s", rec.Kind, kinds[sc.rank], strings.Join(kinds, ", "))
	}
	sc.rank = rank
	for k, v := range rec.Props {
		if _, err := readValue(k, v); err != nil {
			return errLine(n, "%v", err)
		}
	}
	switch rec.Kind {
	case "space":
		return sc.checkHeader(rec, n)
	case "end":
		for k, c := range rec.Counts {
			if _, ok := kindRank[k]; !ok || k == "space" || k == "end" {
				return errLine(n, "the end record counts an unknown kind %q", k)
			}
			if c != sc.counts[k] {
				return errLine(n, "the end record counts %d %s records, the file holds %d: it is incomplete", c, k, sc.counts[k])
			}
		}
		for k, c := range sc.counts {
			if _, ok := rec.Counts[k]; !ok && c > 0 {
				return errLine(n, "the end record does not count the %s records", k)
			}
		}
		sc.ended = true
		return nil
	}
	if rec.Props == nil {
		return errLine(n, "a %s record needs its props", rec.Kind)
	}
	id, _ := rec.Props["id"].(string)
	if id == "" {
		return errLine(n, "a %s record needs a props.id string", rec.Kind)
	}
	if sc.seen[rec.Kind] == nil {
		sc.seen[rec.Kind] = map[string]bool{}
	}
	if sc.seen[rec.Kind][id] {
		return errLine(n, "%s %q appears twice", rec.Kind, id)
	}
	sc.seen[rec.Kind][id] = true
	if rec.Kind != "observation" {
		sc.ids[id] = true
	}
	sc.counts[rec.Kind]++
	switch rec.Kind {
	case "observation":
		sc.observations[id] = true
		// A message takes the space's forget count when it is stored, and the count only
		// grows: a count under a message's generation would, as the messages stored next
		// take it, derive again ids that generation derived (cypher.ObservationKey).
		if v, ok := rec.Props["generation"]; ok {
			if g, ok := nonNegative("generation", v); !ok || g > sc.forgotten {
				return errLine(n, "observation %q: generation %v is not an integer from 0 to the space's forget count, %d (its props.forgotten)", id, v, sc.forgotten)
			}
		}
		// A role says whether the message is extracted and its speaker a person: one
		// construction would not know reads as a person's message.
		if v, ok := rec.Props["role"]; ok {
			if role, _ := v.(string); !slices.Contains(realm.ChatRoles, role) {
				return errLine(n, "observation %q: role %v is not a chat role (%s, in lower case)", id, v, strings.Join(realm.ChatRoles, ", "))
			}
		}
	case "memory":
		typ, _ := rec.Props["type"].(string)
		if !realm.NodeType(typ).Valid() {
			return errLine(n, "memory %q: type %q is not entity, event, episode or fact", id, typ)
		}
		if emb, ok := rec.Props["embedding"]; ok {
			list, _ := emb.([]any)
			if len(list) != sc.opts.Dims {
				return errLine(n, "memory %q: embedding of %d dimensions, the server's are %d", id, len(list), sc.opts.Dims)
			}
			for _, x := range list {
				if v, _ := readValue("embedding", x); fmt.Sprintf("%T", v) != "float64" {
					return errLine(n, "memory %q: the embedding must hold floats (1.0, not 1)", id)
				}
			}
		}
		for _, o := range rec.DerivedFrom {
			if !sc.observations[o] {
				return errLine(n, "memory %q derives from observation %q, which is not in the file before it", id, o)
			}
		}
		for _, o := range rec.Repeats {
			if !slices.Contains(rec.DerivedFrom, o) {
				return errLine(n, "memory %q repeats observation %q, which is not in its derived_from", id, o)
			}
		}
		sc.memories[id] = true
	case "edge":
		if !realm.Predicate(rec.Predicate).Valid() {
			return errLine(n, "edge %q: predicate %q is not one of the fifteen", id, rec.Predicate)
		}
		for _, end := range []string{rec.From, rec.To} {
			if !sc.memories[end] {
				return errLine(n, "edge %q: memory %q is not in the file before it", id, end)
			}
		}
		if w, ok := rec.Props["weight"]; ok {
			v, _ := readValue("weight", w)
			f, isFloat := v.(float64)
			if !isFloat || f < 0 || f > 1 {
				return errLine(n, "edge %q: weight %v is not a float in [0, 1]", id, w)
			}
		}
	case "trace":
		if doc, ok := rec.Props["json"]; ok {
			text, _ := doc.(string)
			if !json.Valid([]byte(text)) {
				return errLine(n, "trace %q: props.json is not a JSON document", id)
			}
		}
	case "edit":
		if rid, _ := rec.Props["reconsolidation_id"].(string); rid != "" {
			sc.ids[rid] = true
		}
		if eid, _ := rec.Props["edge_id"].(string); eid != "" {
			sc.ids[eid] = true
		}
	}
	return nil
}

func (sc *importScan) checkHeader(rec *importRecord, n int) error {
	switch {
	case rec.Format != Format:
		return errLine(n, "format %q is not %q: not a REALM space export", rec.Format, Format)
	case rec.Version < 1:
		return errLine(n, "format version %d: versions begin at 1", rec.Version)
	case rec.Version > Version:
		return errLine(n, "format version %d: this REALM reads versions 1 to %d; a newer REALM wrote the file: import it with that version", rec.Version, Version)
	case !realm.ValidSpace(rec.Space):
		return errLine(n, "space %q is not a space id", rec.Space)
	case rec.Dims != 0 && rec.Dims != sc.opts.Dims: // 0: a space without a record of its embedder
		return &realm.Error{Code: realm.EConflict, Fields: map[string]string{"line": strconv.Itoa(n)}, Message: fmt.Sprintf(
			"line %d: the export's embeddings have %d dimensions (%s), this server's embedder %s has %d: "+
				"import with a server configured with the export's embedder, then change embedders with `realm reembed`",
			n, rec.Dims, rec.Embedder, sc.opts.Embedder, sc.opts.Dims)}
	case rec.Embedder != "" && rec.Embedder != sc.opts.Embedder:
		return &realm.Error{Code: realm.EConflict, Fields: map[string]string{"line": strconv.Itoa(n)}, Message: fmt.Sprintf(
			"line %d: the export was embedded by %s, this server embeds with %s: its vectors would not compare; "+
				"import with a server configured with %s, then change embedders with `realm reembed`",
			n, rec.Embedder, sc.opts.Embedder, rec.Embedder)}
	}
	if v, ok := rec.Props["forgotten"]; ok { // absent from an export of a space that never forgot a message
		f, ok := nonNegative("forgotten", v)
		if !ok {
			return errLine(n, "props.forgotten %v is not a count of the messages the space forgot (an integer, 0 or more)", v)
		}
		sc.forgotten = f
	}
	sc.header = *rec
	return nil
}

// nonNegative reads a property that holds an integer, 0 or more.
func nonNegative(key string, v any) (int64, bool) {
	x, err := readValue(key, v)
	n, isInt := x.(int64)
	return n, err == nil && isInt && n >= 0
}

func decodeRecord(line []byte, n int) (importRecord, error) {
	var rec importRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return rec, errLine(n, "not a JSON record of an export: %v", err)
	}
	if dec.More() {
		return rec, errLine(n, "more than one JSON value on the line")
	}
	return rec, nil
}

// lineReader reads lines of at most max bytes, skipping blank ones, counting all.
type lineReader struct {
	r   *bufio.Reader
	max int
	n   int // number of the last line read
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<20), max: max}
}

func (lr *lineReader) next() ([]byte, int, error) {
	for {
		line, err := readLine(lr.r, lr.max, lr.n+1)
		if err != nil {
			return nil, lr.n + 1, err
		}
		lr.n++
		if len(bytes.TrimSpace(line)) > 0 {
			return line, lr.n, nil
		}
	}
}

// readLine reads line n of r, with its newline (none at the end of the file): at most
// max bytes are taken before a longer line is refused. At the end of r it returns io.EOF.
func readLine(r *bufio.Reader, max, n int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		switch {
		case len(line) > max:
			return nil, errLine(n, "longer than %d bytes", max)
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(line) > 0:
			return line, nil
		case err != nil:
			return nil, translateRead(err)
		}
		return line, nil
	}
}

// maxHeaderLine bounds the first line of an import, an export's space record: its
// properties, the space's running summary the longest, take a few KiB.
const maxHeaderLine = 1 << 20

// ReadHeader reads the first line of an import from r, and nothing after it, and checks
// it as Import's validation does: a body that does not begin with the space record of an
// export this server can take is refused as soon as that line, or its first
// maxHeaderLine bytes, have arrived, rather than once the whole file has. It returns the
// line, which stays the file's first. Errors: EInvalid (Fields["line"] 1), EConflict
// (the embedder).
func ReadHeader(r *bufio.Reader, opts Options) ([]byte, error) {
	line, err := readLine(r, maxHeaderLine, 1)
	if err == io.EOF {
		return nil, errLine(1, "the file is empty; an export begins with a space record")
	}
	if err != nil {
		return nil, err
	}
	rec, err := decodeRecord(line, 1)
	if err != nil {
		return nil, err
	}
	return line, newImportScan(opts).check(&rec, 1)
}

// translateRead keeps io.EOF and domain errors (a body over its limit) and wraps others.
func translateRead(err error) error {
	var re *realm.Error
	if err == io.EOF || errors.As(err, &re) {
		return err
	}
	return fmt.Errorf("reading the import: %w", err)
}
