package transfer

// Internal tests: they reach the value encoding and the id rewriting.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// smallExport is a canonical export of a space SPACE with every kind of record, as
// Export writes it (sorted keys, floats with a point), embedder test:e of 3 dims.
const smallExport = `{"kind":"space","format":"realm-space","version":2,"space":"SPACE","embedder":"test:e","dims":3,"exported_at":"2026-01-01T00:00:00Z","props":{"created_at":"2026-01-01T00:00:00Z","seq":2,"summary":"Ana moved."}}
{"kind":"observation","props":{"added":["m1","m2"],"attempts":0,"content":"I moved to Lisbon.","id":"o1","observed_at":"2023-01-01T09:00:00.123456789Z","role":"user","seq":1,"session_id":"","speaker":"Ana","status":"integrated"}}
{"kind":"observation","props":{"attempts":0,"content":"Still pending.","id":"o2","observed_at":"2023-01-02T09:00:00Z","replaces":"o1","seq":2,"speaker":"Ana","status":"pending"}}
{"kind":"memory","derived_from":["o1"],"props":{"access_count":2,"content":"Ana moved to Lisbon.","created_at":"2026-01-01T00:00:00Z","embedding":[1.0,0.0,0.0],"id":"m1","keywords":["Lisbon"],"learned_at":"2023-01-01T09:00:00.123456789Z","name":"move","sources":["o1"],"t_end":"2023-01-01T00:00:00Z","t_start":"2023-01-01T00:00:00Z","type":"event"}}
{"kind":"memory","derived_from":["o1"],"props":{"access_count":0,"content":"Ana lives in Lisbon.","created_at":"2026-01-01T00:00:00Z","embedding":[0.0,0.6,0.8],"id":"m2","keywords":[],"learned_at":"2023-01-01T09:00:00.123456789Z","name":"home","sources":["o1"],"type":"fact"}}
{"kind":"edge","predicate":"correlates","from":"m1","to":"m2","props":{"confidence":0.9,"id":"e2","initial_weight":0.5,"layer":"associative","weight":1.0}}
{"kind":"edge","predicate":"results_in","from":"m1","to":"m2","props":{"confidence":1.0,"created_at":"2026-01-01T00:00:00Z","description":"the move made the home","id":"e1","initial_weight":0.7,"layer":"causal","weight":0.85}}
{"kind":"trace","props":{"created_at":"2026-01-01T00:00:00Z","id":"t1","json":"{\"id\":\"t1\",\"space\":\"SPACE\",\"query\":\"where does Ana live?\",\"seeds\":[{\"id\":\"m1\",\"score\":0.5}]}","query":"where does Ana live?"}}
{"kind":"edit","props":{"action":"strengthen","confidence":0.6,"created_at":"2026-01-01T00:00:00Z","edge_id":"e1","from":"m1","id":"x1","new_weight":0.85,"old_weight":0.7,"predicate":"results_in","reconsolidation_id":"r1","reverted":false,"seq":0,"source":"feedback","to":"m2","trace_id":"t1"}}
{"kind":"job","props":{"created_at":"2026-01-01T00:00:00Z","id":"j1","observations":["o1"],"status":"done","total":1,"updated_at":"2026-01-01T00:00:00Z"}}
{"kind":"end","counts":{"edge":2,"edit":1,"job":1,"memory":2,"observation":2,"trace":1}}
`

// smallOpts import as the operator does: a file of the space imported into keeps its ids.
var smallOpts = Options{Embedder: "test:e", Dims: 3, KeepIDs: true}

func opener(text string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }
}

func exportOf(t *testing.T, s *cypher.Store, space string) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := Export(context.Background(), s, space, &buf, nil); err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(buf.String(), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(first), &h); err != nil || h["exported_at"] == nil {
		t.Fatalf("header %s: %v", first, err)
	}
	i := strings.Index(first, `"exported_at":"`)
	j := strings.Index(first[i+15:], `"`)
	return first[:i] + `"exported_at":"2026-01-01T00:00:00Z"` + first[i+15+j+1:] + "\n" + rest
}

// TestImportExportSmall: a hand-written export with every kind of record and value
// (integers, floats such as 1.0, datetimes with nanoseconds, empty strings and lists,
// an absent property) is imported and exported again unchanged.
func TestImportExportSmall(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	file := strings.ReplaceAll(smallExport, "SPACE", space)
	res, err := Import(context.Background(), s, space, opener(file), smallOpts)
	if err != nil {
		t.Fatal(err)
	}
	if res.IDsRewritten || res.Counts["memory"] != 2 || res.Counts["edge"] != 2 {
		t.Errorf("result %+v", res)
	}
	if got := exportOf(t, s, space); got != file {
		t.Errorf("export after import:\n%s\nwant:\n%s", got, file)
	}
}

// TestImportVersion1: an export of format version 1, whose space's memories_version is an
// integer, is imported as it is and exported again in the current version.
func TestImportVersion1(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	file := strings.Replace(strings.ReplaceAll(smallExport, "SPACE", space), `"seq":2,"summary"`, `"memories_version":7,"seq":2,"summary"`, 1)
	v1 := strings.Replace(file, `"version":2`, `"version":1`, 1)
	if _, err := Import(context.Background(), s, space, opener(v1), smallOpts); err != nil {
		t.Fatal(err)
	}
	if got := exportOf(t, s, space); got != file {
		t.Errorf("export after importing version 1:\n%s\nwant:\n%s", got, file)
	}
}

// TestImportRestoreWithoutKeepIDs: without KeepIDs, a file of the very space imported
// into gets new ids, as a copy does.
func TestImportRestoreWithoutKeepIDs(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	file := strings.ReplaceAll(smallExport, "SPACE", space)
	opts := smallOpts
	opts.KeepIDs = false
	res, err := Import(context.Background(), s, space, opener(file), opts)
	if err != nil || !res.IDsRewritten || res.SourceSpace != space {
		t.Fatalf("restore: %+v %v", res, err)
	}
	rw := rewriter{from: space, to: space, on: true}
	got := exportOf(t, s, space)
	if !strings.Contains(got, `"`+rw.id("m1")+`"`) || strings.Contains(got, `"m1"`) {
		t.Errorf("memory m1 kept its id:\n%s", got)
	}
}

// TestImportCopy: the same file under another name gets new ids everywhere they are
// referenced (edges, provenance, observations' added lists, edits, the trace document),
// and the original is untouched.
func TestImportCopy(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	src, dst := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	file := strings.ReplaceAll(smallExport, "SPACE", src)
	if _, err := Import(ctx, s, src, opener(file), smallOpts); err != nil {
		t.Fatal(err)
	}
	res, err := Import(ctx, s, dst, opener(file), smallOpts)
	if err != nil || !res.IDsRewritten || res.SourceSpace != src {
		t.Fatalf("copy: %+v %v", res, err)
	}
	rw := rewriter{from: src, to: dst, on: true}
	copied := exportOf(t, s, dst)
	for _, old := range []string{"m1", "m2", "e1", "t1", "x1", "r1", "j1"} {
		if !strings.Contains(copied, `"`+rw.id(old)+`"`) && !strings.Contains(copied, `\"`+rw.id(old)+`\"`) {
			t.Errorf("the copy lacks the new id of %s", old)
		}
		if strings.Contains(copied, `"`+old+`"`) || strings.Contains(copied, `\"`+old+`\"`) {
			t.Errorf("the copy still holds id %s", old)
		}
	}
	if strings.Contains(copied, src) || !strings.Contains(copied, `\"space\":\"`+dst+`\"`) {
		t.Errorf("the copy's trace still names the source space:\n%s", copied)
	}
	if !strings.Contains(copied, `"derived_from":["o1"]`) {
		t.Errorf("observation ids must stay (they are the client's): %s", copied)
	}
	if got := exportOf(t, s, src); got != file {
		t.Errorf("the original changed")
	}
	if ns, err := s.MemoriesByIDs(ctx, dst, []string{rw.id("m1")}); err != nil || len(ns) != 1 || ns[0].Space != dst {
		t.Errorf("copied memory: %+v %v", ns, err)
	}
	// The copy's memories are the new space's in the full-text index (its space key).
	seeds, err := s.SeedByFullText(ctx, dst, cypher.SeedQuery{Keywords: []string{"Lisbon"}, Limit: 5})
	if err != nil || len(seeds) != 2 || seeds[0].Node.Space != dst || seeds[1].Node.Space != dst {
		t.Errorf("the copy's seeds by keyword: %+v %v", seeds, err)
	}
	// A second copy: other ids, ordered as the first copy's (cypher.DerivedID), so that
	// both are recalled alike.
	dst2 := cyphertest.NewSpace(t)
	if _, err := Import(ctx, s, dst2, opener(file), smallOpts); err != nil {
		t.Fatal(err)
	}
	rw2 := rewriter{from: src, to: dst2, on: true}
	for _, old := range []string{"m1", "m2", "e1"} {
		if a, b := rw.id(old), rw2.id(old); a == b || a[:18] != b[:18] {
			t.Errorf("ids of %s in two copies: %s, %s", old, a, b)
		}
	}
	if ns, err := s.MemoriesByIDs(ctx, dst2, []string{rw2.id("m1")}); err != nil || len(ns) != 1 {
		t.Errorf("second copy's memory: %+v %v", ns, err)
	}
}

// TestImportInterrupted: while another import holds the space, an import and an export
// are refused; an import whose reading fails half way through the writing erases what
// it wrote. (What an import whose process died leaves is cypher's TestImportInterrupted.)
func TestImportInterrupted(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	file := strings.ReplaceAll(smallExport, "SPACE", space)
	other, err := s.BeginImport(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(ctx, s, space, opener(file), smallOpts); realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "being imported") {
		t.Fatalf("import while another holds the space: %v", err)
	}
	var buf bytes.Buffer
	if _, err := Export(ctx, s, space, &buf, nil); realm.ErrorCode(err) != realm.EConflict || buf.Len() != 0 {
		t.Errorf("export of a space being imported: %v, %d bytes", err, buf.Len())
	}
	other.Abandon(ctx)
	if _, err := Import(ctx, s, space, opener(file), smallOpts); err != nil {
		t.Fatalf("import after an abandoned one: %v", err)
	}
	if got := exportOf(t, s, space); got != file {
		t.Errorf("after an abandoned import:\n%s", got)
	}

	// A read error half way through the writing: nothing stays.
	failed := cyphertest.NewSpace(t)
	calls := 0
	failing := func() (io.ReadCloser, error) {
		calls++
		text := strings.ReplaceAll(smallExport, "SPACE", failed)
		if calls == 2 {
			cut := strings.Index(text, `{"kind":"edge"`)
			return io.NopCloser(io.MultiReader(strings.NewReader(text[:cut]), errReader{})), nil
		}
		return io.NopCloser(strings.NewReader(text)), nil
	}
	if _, err := Import(ctx, s, failed, failing, Options{Embedder: "test:e", Dims: 3, MaxLine: 1 << 10}); err == nil {
		t.Fatal("an import whose reading failed succeeded")
	}
	if _, err := Export(ctx, s, failed, io.Discard, nil); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("after a failed import the space exists: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// TestValidateImport: every bad line is refused with its number, and the embedder must
// be the server's.
func TestValidate(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(smallExport, "SPACE", "src"), "\n"), "\n")
	with := func(i int, line string) string { // line i (1-based) replaced; "" removes it
		out := append([]string(nil), lines...)
		if line == "" {
			out = append(out[:i-1], out[i:]...)
		} else {
			out[i-1] = line
		}
		return strings.Join(out, "\n") + "\n"
	}
	tests := []struct {
		name, file string
		code       string
		line       string
		want       string
	}{
		{"ErrEmpty", "", realm.EInvalid, "1", "empty"},
		{"ErrNotJSON", with(3, "not json"), realm.EInvalid, "3", "not a JSON record"},
		{"ErrUnknownField", with(3, `{"kind":"observation","props":{"id":"o9"},"colour":"red"}`), realm.EInvalid, "3", "colour"},
		{"ErrNoHeader", with(1, ""), realm.EInvalid, "1", `begins with a "space" record`},
		{"ErrFormat", with(1, strings.Replace(lines[0], "realm-space", "other", 1)), realm.EInvalid, "1", "not a REALM space export"},
		{"ErrVersionNewer", with(1, strings.Replace(lines[0], `"version":2`, `"version":3`, 1)), realm.EInvalid, "1",
			"format version 3: this REALM reads versions 1 to 2; a newer REALM wrote the file"},
		{"ErrVersionZero", with(1, strings.Replace(lines[0], `"version":2`, `"version":0`, 1)), realm.EInvalid, "1", "format version 0"},
		{"ErrDims", with(1, strings.Replace(lines[0], `"dims":3`, `"dims":384`, 1)), realm.EConflict, "1", "384 dimensions"},
		{"ErrEmbedder", with(1, strings.Replace(lines[0], `test:e`, `local:x`, 1)), realm.EConflict, "1", "embedded by local:x"},
		{"ErrUnknownKind", with(3, `{"kind":"note","props":{"id":"n"}}`), realm.EInvalid, "3", `unknown kind "note"`},
		{"ErrOrder", with(7, strings.Replace(lines[3], `"m1"`, `"m3"`, 1)), realm.EInvalid, "7", "a memory record after the edge records"},
		{"ErrDuplicate", with(3, lines[1]), realm.EInvalid, "3", "appears twice"},
		{"ErrNoID", with(3, `{"kind":"observation","props":{"content":"x"}}`), realm.EInvalid, "3", "props.id"},
		{"ErrType", with(4, strings.Replace(lines[3], `"type":"event"`, `"type":"dream"`, 1)), realm.EInvalid, "4", `type "dream"`},
		{"ErrEmbeddingDims", with(4, strings.Replace(lines[3], `[1.0,0.0,0.0]`, `[1.0,0.0]`, 1)), realm.EInvalid, "4", "2 dimensions"},
		{"ErrEmbeddingInts", with(4, strings.Replace(lines[3], `[1.0,0.0,0.0]`, `[1,0,0]`, 1)), realm.EInvalid, "4", "floats"},
		{"ErrProvenance", with(4, strings.Replace(lines[3], `"derived_from":["o1"]`, `"derived_from":["o9"]`, 1)), realm.EInvalid, "4", `observation "o9"`},
		{"ErrPredicate", with(6, strings.Replace(lines[5], `"correlates"`, `"likes"`, 1)), realm.EInvalid, "6", `predicate "likes"`},
		{"ErrEdgeEnd", with(6, strings.Replace(lines[5], `"to":"m2"`, `"to":"m9"`, 1)), realm.EInvalid, "6", `memory "m9"`},
		{"ErrWeight", with(6, strings.Replace(lines[5], `"weight":1.0`, `"weight":1.5`, 1)), realm.EInvalid, "6", "weight"},
		{"ErrTime", with(4, strings.Replace(lines[3], `"t_end":"2023-01-01T00:00:00Z"`, `"t_end":"yesterday"`, 1)), realm.EInvalid, "4", "RFC 3339"},
		{"ErrNull", with(4, strings.Replace(lines[3], `"name":"move"`, `"name":null`, 1)), realm.EInvalid, "4", "null"},
		{"ErrMixedList", with(4, strings.Replace(lines[3], `"keywords":["Lisbon"]`, `"keywords":["Lisbon",3]`, 1)), realm.EInvalid, "4", "one type"},
		{"ErrTraceJSON", with(8, strings.Replace(lines[7], `"json":"{`, `"json":"{{`, 1)), realm.EInvalid, "8", "not a JSON document"},
		{"ErrTruncated", with(11, ""), realm.EInvalid, "11", "truncated"},
		{"ErrCounts", with(11, strings.Replace(lines[10], `"edge":2`, `"edge":3`, 1)), realm.EInvalid, "11", "incomplete"},
		{"ErrForgotten", with(1, strings.Replace(lines[0], `"seq":2`, `"forgotten":"2","seq":2`, 1)), realm.EInvalid, "1", "props.forgotten"},
		{"ErrForgottenNegative", with(1, strings.Replace(lines[0], `"seq":2`, `"forgotten":-1,"seq":2`, 1)), realm.EInvalid, "1", "props.forgotten"},
		{"ErrGeneration", with(3, strings.Replace(lines[2], `"content"`, `"generation":1,"content"`, 1)), realm.EInvalid, "3", "generation 1"},
		{"ErrGenerationAboveCount", strings.Replace(with(3, strings.Replace(lines[2], `"content"`, `"generation":2,"content"`, 1)), `"seq":2,"summary"`, `"forgotten":1,"seq":2,"summary"`, 1), realm.EInvalid, "3", "forget count, 1"},
		{"ErrRole", with(3, strings.Replace(lines[2], `"seq"`, `"role":"moderator","seq"`, 1)), realm.EInvalid, "3", `observation "o2": role moderator is not a chat role`},
		{"ErrRoleCase", with(3, strings.Replace(lines[2], `"seq"`, `"role":"User","seq"`, 1)), realm.EInvalid, "3", "role User is not a chat role (user, assistant, system, tool, in lower case)"},
		{"ErrRoleNumber", with(3, strings.Replace(lines[2], `"seq"`, `"role":3,"seq"`, 1)), realm.EInvalid, "3", "role 3 is not a chat role"},
		{"ErrAfterEnd", strings.Join(lines, "\n") + "\n" + lines[9] + "\n", realm.EInvalid, "12", "after the \"end\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate(strings.NewReader(tt.file), smallOpts)
			var re *realm.Error
			if !errorAs(err, &re) || re.Code != tt.code || re.Fields["line"] != tt.line || !strings.Contains(re.Message, tt.want) {
				t.Errorf("got %v, want %s on line %s saying %q", err, tt.code, tt.line, tt.want)
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		counts, err := Validate(strings.NewReader(smallExport), smallOpts)
		if err != nil || counts["memory"] != 2 || counts["observation"] != 2 {
			t.Errorf("%v %v", counts, err)
		}
	})
	t.Run("ErrLineTooLong", func(t *testing.T) {
		_, err := Validate(strings.NewReader(smallExport), Options{Embedder: "test:e", Dims: 3, MaxLine: 100})
		if realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "line 1: longer than 100 bytes") {
			t.Errorf("got %v", err)
		}
	})
}

func errorAs(err error, target **realm.Error) bool {
	e, ok := err.(*realm.Error)
	if ok {
		*target = e
	}
	return ok
}

// TestExportValues: every value type a property holds survives writing and reading, and
// what JSON cannot carry is refused.
func TestExportValues(t *testing.T) {
	when := time.Date(2023, 5, 8, 13, 56, 0, 123456789, time.UTC)
	ok := []struct {
		key  string
		in   any
		text string
	}{
		{"weight", 1.0, "1.0"},
		{"weight", 0.1, "0.1"},
		{"weight", 1e-7, "1e-07"},
		{"seq", int64(42), "42"},
		{"name", `say "hi" <b>`, `"say \"hi\" <b>"`},
		{"reverted", true, "true"},
		{"created_at", when, `"2023-05-08T13:56:00.123456789Z"`},
		{"t_start", when, `"2023-05-08T13:56:00.123456789Z"`},
		{"embedding", []any{0.5, -1.0, 2e-9}, "[0.5,-1.0,2e-09]"},
		{"keywords", []any{"a", "b"}, `["a","b"]`},
		{"keywords", []any{}, `[]`},
	}
	for _, tt := range ok {
		var buf bytes.Buffer
		if err := writeValue(&buf, tt.key, tt.in); err != nil || buf.String() != tt.text {
			t.Errorf("write %s %v: %q %v, want %q", tt.key, tt.in, buf.String(), err, tt.text)
			continue
		}
		dec := json.NewDecoder(&buf)
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		back, err := readValue(tt.key, v)
		if err != nil {
			t.Errorf("read %s %s: %v", tt.key, tt.text, err)
			continue
		}
		a, _ := json.Marshal(back)
		b, _ := json.Marshal(tt.in)
		if string(a) != string(b) || (tt.key == "weight" && back != tt.in) {
			t.Errorf("%s: %v came back as %#v", tt.key, tt.in, back)
		}
	}
	for _, bad := range []struct {
		key string
		in  any
	}{{"weight", math.NaN()}, {"weight", math.Inf(1)}, {"name", when}, {"created_at", "2023"}, {"x", struct{}{}}} {
		if err := writeValue(&bytes.Buffer{}, bad.key, bad.in); err == nil {
			t.Errorf("write %s %v: no error", bad.key, bad.in)
		}
	}
}

// TestImportHoldsSpace: from BeginImport until its Run returns, the space refuses ingest
// (nothing stored) and recall (CheckNotImporting) with a conflict that says an import
// runs, and its imported pending observations are not claimed for integration; after the
// import all of them work.
func TestImportHoldsSpace(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	file := strings.ReplaceAll(smallExport, "SPACE", space)
	obs := []realm.Observation{{ID: "n1", Space: space, Speaker: "Ana", Content: "Ana adopted a cat.", ObservedAt: time.Now().UTC()}}
	// An expired lease: whatever this claims of other spaces' pending work stays free for them.
	claimer := cypher.Lease{Owner: "claimer-" + space, Until: time.Now().Add(-time.Minute)}
	claimsMine := func() bool {
		t.Helper()
		got, err := s.ClaimPending(ctx, space, claimer, 1_000_000, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range got {
			if o.Space == space {
				return true
			}
		}
		return false
	}

	imp, err := s.BeginImport(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	// The second reading (the writing) is held after the first memory record: the
	// observations are written, the memories not yet.
	memories := strings.Index(file, `{"kind":"memory"`)
	secondMemory := memories + strings.Index(file[memories:], "\n") + 1
	edges := strings.Index(file, `{"kind":"edge"`)
	pr, pw := io.Pipe()
	calls := 0
	open := func() (io.ReadCloser, error) {
		if calls++; calls == 1 {
			return io.NopCloser(strings.NewReader(file)), nil
		}
		return pr, nil
	}
	done := make(chan error, 1)
	go func() { _, err := Run(ctx, imp, open, smallOpts); done <- err }()
	if _, err := pw.Write([]byte(file[:secondMemory])); err != nil {
		t.Fatal(err)
	}
	// Taken only once the lines before it are processed: the observations' batch is written.
	if _, err := pw.Write([]byte(file[secondMemory:edges])); err != nil {
		t.Fatal(err)
	}

	if o, err := s.Observation(ctx, space, "o2"); err != nil || o.Status != realm.ObservationPending {
		t.Fatalf("mid-import, the imported pending observation: %+v %v", o, err)
	}
	for name, err := range map[string]error{
		"ingest": func() error {
			_, err := s.SaveObservations(ctx, space, "test:e", 3, obs, cypher.Lease{})
			return err
		}(),
		"recall": s.CheckNotImporting(ctx, space),
	} {
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "import into space") || !strings.Contains(err.Error(), "holds it until") {
			t.Errorf("%s during the import: %v, want a conflict saying until when an import holds the space", name, err)
		}
	}
	if claimsMine() {
		t.Errorf("an imported pending observation was claimed during the import")
	}
	if _, err := s.Observation(ctx, space, "n1"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("the refused observation was stored: %v", err)
	}
	if _, err := s.BeginImport(ctx, space); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("a second import during the first: %v", err)
	}

	if _, err := pw.Write([]byte(file[edges:])); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := exportOf(t, s, space); got != file {
		t.Errorf("export after the held import:\n%s", got)
	}
	if err := s.CheckNotImporting(ctx, space); err != nil {
		t.Errorf("recall after the import: %v", err)
	}
	if !claimsMine() {
		t.Errorf("the imported pending observation is not claimable after the import")
	}
	if saved, err := s.SaveObservations(ctx, space, "test:e", 3, obs, cypher.Lease{}); err != nil || !saved[0].New {
		t.Errorf("ingest after the import: %+v %v", saved, err)
	}
}

// TestImportCarriesForgetCount: the space's forget count (the generation of the messages
// it stores next: cypher.ObservationKey) goes with an export and its import, so that a
// message sent after the import derives ids no earlier generation of it derived; an
// export without it (from before the count, which then never moved) imports with 0.
func TestImportCarriesForgetCount(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	save := func(id string) realm.Observation {
		t.Helper()
		o := realm.Observation{ID: id, Speaker: "Ana", Content: "message " + id, ObservedAt: time.Date(2023, 1, 1, 9, 0, 0, 0, time.UTC)}
		saved, err := s.SaveObservations(ctx, space, smallOpts.Embedder, smallOpts.Dims, []realm.Observation{o}, cypher.Lease{})
		if err != nil {
			t.Fatal(err)
		}
		return saved[0].Observation
	}
	save("o1")
	save("o2")
	for _, id := range []string{"o1", "o2"} {
		if _, err := s.DeleteObservation(ctx, space, id, cypher.Lease{}); err != nil {
			t.Fatal(err)
		}
	}
	if o := save("o1"); o.Generation != 2 {
		t.Fatalf("o1 sent again: generation %d, want 2", o.Generation)
	}
	file := exportOf(t, s, space)
	if header, _, _ := strings.Cut(file, "\n"); !strings.Contains(header, `"forgotten":2`) {
		t.Errorf("the export's header does not carry the forget count: %s", header)
	}
	if _, err := s.DeleteSpace(ctx, space); err != nil {
		t.Fatal(err)
	}
	if _, err := Import(ctx, s, space, opener(file), smallOpts); err != nil {
		t.Fatal(err)
	}
	if o := save("o3"); o.Generation != 2 {
		t.Errorf("a message after the import: generation %d, want 2, the count exported", o.Generation)
	}

	old := cyphertest.NewSpace(t)
	if _, err := Import(ctx, s, old, opener(strings.ReplaceAll(smallExport, "SPACE", old)), smallOpts); err != nil {
		t.Fatal(err)
	}
	space = old
	if o := save("o3"); o.Generation != 0 {
		t.Errorf("a message after the import of an export without a count: generation %d, want 0", o.Generation)
	}
}

// TestImportedQueryIsSwept: an imported edit that holds its query's text, from a file
// that left its trace out, loses the text at the retention's next sweep, as one logged
// here does; the file exported again is the file imported (what the sweep seeks it by is
// not exported).
func TestImportedQueryIsSwept(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var lines []string
	for _, line := range strings.Split(strings.ReplaceAll(smallExport, "SPACE", space), "\n") {
		if !strings.HasPrefix(line, `{"kind":"trace"`) {
			lines = append(lines, line)
		}
	}
	file := strings.Join(lines, "\n")
	file = strings.Replace(file, `"predicate":"results_in","reconsolidation_id"`, `"predicate":"results_in","query":"where does Ana live?","reconsolidation_id"`, 1)
	file = strings.Replace(file, `"trace":1}`, `"trace":0}`, 1)
	if _, err := Import(ctx, s, space, opener(file), smallOpts); err != nil {
		t.Fatal(err)
	}
	if got := exportOf(t, s, space); got != file {
		t.Errorf("export after import:\n%s\nwant:\n%s", got, file)
	}
	cfg := cyphertest.Config()
	cfg.TraceRetention = 720 * time.Hour
	sweeping, err := cypher.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sweeping.Close(ctx)
	if _, err := sweeping.ExpireTraces(ctx, time.Now(), func(_ context.Context, _ string, queries []string) ([][]float32, error) {
		return make([][]float32, len(queries)), nil
	}); err != nil {
		t.Fatal(err)
	}
	edits, _, err := s.ListEdits(ctx, space, realm.EditFilter{}, "")
	if err != nil || len(edits) != 1 {
		t.Fatalf("edits after the sweep: %+v %v", edits, err)
	}
	if edits[0].Query != "" || !edits[0].QueryErased {
		t.Errorf("the imported edit after the sweep: query %q, erased %v; want the text erased", edits[0].Query, edits[0].QueryErased)
	}
}
