package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm/cypher/cyphertest"
)

// streamedImport is an import whose body the test writes as it goes.
type streamedImport struct {
	body *io.PipeWriter
	done chan struct{} // closed once the response has come
	code int
	p    problemDoc
}

// streamImport starts an import into space whose body is what the test writes to body.
func streamImport(t *testing.T, c client, space string) *streamedImport {
	t.Helper()
	pr, pw := io.Pipe()
	s := &streamedImport{body: pw, done: make(chan struct{})}
	req, err := http.NewRequest("POST", c.base+"/v1/spaces/"+space+"/import", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	go func() {
		defer close(s.done)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("import: %v", err)
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		s.code = resp.StatusCode
		_ = json.Unmarshal(b, &s.p)
	}()
	t.Cleanup(func() { pw.Close(); <-s.done })
	return s
}

// answered waits for the response while the body is held back, and reports whether it
// came: it must not wait for the rest of a body it refuses at its first line. The wait
// is bounded so that a server that does wait fails the test rather than hang it.
func (s *streamedImport) answered() bool {
	select {
	case <-s.done:
		return true
	case <-time.After(2 * time.Minute):
		s.body.Close()
		<-s.done
		return false
	}
}

// importFiles are the import files spooled in dir (the server's temporary directory).
func importFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "realm-import-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestImportRefusedAtHeader: a body that does not begin with an export's space record
// is refused as soon as its first line (or its first MiB without one) has arrived, not
// once the whole body has been read to disk; no file is left behind.
func TestImportRefusedAtHeader(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	srv := newTestServer(t, nil, Config{})
	c := client{t: t, base: srv.URL}
	tests := []struct {
		name, first, want string
	}{
		{"Junk", "this is no export, only junk\n", "line 1: not a JSON record"},
		{"NotTheSpaceRecord", `{"kind":"observation","props":{"id":"o1"}}` + "\n", `begins with a "space" record`},
		{"NoLineEnd", strings.Repeat("x", 2<<20), "line 1: longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := streamImport(t, c, cyphertest.NewSpace(t))
			go s.body.Write([]byte(tt.first)) // a write the refused server no longer reads fails
			if !s.answered() {
				t.Fatalf("no answer while the rest of the body was held back")
			}
			if s.code != http.StatusBadRequest || s.p.Code != "invalid" || !strings.Contains(s.p.Detail, tt.want) {
				t.Errorf("%d %+v, want 400 saying %q", s.code, s.p, tt.want)
			}
			if left := importFiles(t, tmp); len(left) > 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

// TestImportsBounded: at most MaxImports run at once; one more is refused with 429 and
// Retry-After before its body is read, saying the bound is reached but not how many run,
// and is taken once the running one has ended. The spooled file is removed whichever way
// an import ends.
func TestImportsBounded(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	srv := newTestServer(t, nil, Config{MaxImports: 1})
	c := client{t: t, base: srv.URL}
	source := cyphertest.NewSpace(t)
	c.remember("/v1/spaces/"+source, exportMessages[:2])
	file := export(t, c, source)
	header, rest, _ := bytes.Cut(file, []byte("\n"))

	running := streamImport(t, c, cyphertest.NewSpace(t))
	go running.body.Write(append(header, '\n'))
	awaitSpooled(t, tmp)
	other := cyphertest.NewSpace(t)
	resp, b := raw(t, c, "POST", "/v1/spaces/"+other+"/import", file)
	var p problemDoc
	_ = json.Unmarshal(b, &p)
	if resp.StatusCode != http.StatusTooManyRequests || p.Code != "rate_limited" || resp.Header.Get("Retry-After") == "" || !strings.Contains(p.Detail, "REALM_MAX_IMPORTS") || namesCount(p.Detail) {
		t.Errorf("a second import while one runs: %d, Retry-After %q, %+v", resp.StatusCode, resp.Header.Get("Retry-After"), p)
	}

	if _, err := running.body.Write(rest); err != nil {
		t.Fatal(err)
	}
	running.body.Close()
	<-running.done
	if running.code != http.StatusCreated {
		t.Fatalf("the running import: %d %+v", running.code, running.p)
	}
	if code, res, p := importInto(t, c, other, file); code != http.StatusCreated || res.Counts["observation"] != 2 {
		t.Errorf("the second import sent again: %d %+v %+v", code, res, p)
	}
	if left := importFiles(t, tmp); len(left) > 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// awaitSpooled waits (bounded) until an import has spooled its header: its file exists.
func awaitSpooled(t *testing.T, dir string) {
	t.Helper()
	for i := 0; len(importFiles(t, dir)) == 0; i++ {
		if i > 600 {
			t.Fatalf("the import spooled nothing")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stalledImport starts a server with cfg and two keys, a and b, on every test space; as
// a, it exports a space of two messages and starts an import of the file that sends its
// first line and then stalls. It returns a's and b's clients, the file, the stalled import
// and the server's temporary directory.
func stalledImport(t *testing.T, cfg Config) (a, b client, file []byte, stalled *streamedImport, tmp string) {
	t.Helper()
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	keys, err := ParseKeys("test keys", `
		a  sk-a-0123456789abcdef  read,write  test_*
		b  sk-b-0123456789abcdef  read,write  test_*`)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Keys = keys
	srv := newTestServer(t, nil, cfg)
	a = client{t: t, base: srv.URL, key: "sk-a-0123456789abcdef"}
	b = client{t: t, base: srv.URL, key: "sk-b-0123456789abcdef"}
	source := cyphertest.NewSpace(t)
	a.remember("/v1/spaces/"+source, exportMessages[:2])
	file = export(t, a, source)
	header, _, _ := bytes.Cut(file, []byte("\n"))
	stalled = streamImport(t, a, cyphertest.NewSpace(t))
	go stalled.body.Write(append(header, '\n'))
	return a, b, file, stalled, tmp
}

// TestImportsBoundedPerKey: a key runs at most MaxImportsPerKey imports (1 by default),
// so that one tenant cannot take every slot of the process: its second is refused with
// 429 naming REALM_MAX_IMPORTS_PER_KEY, while another key's import is taken.
func TestImportsBoundedPerKey(t *testing.T) {
	a, b, file, _, tmp := stalledImport(t, Config{MaxImports: 2})
	awaitSpooled(t, tmp)
	code, _, p := importInto(t, a, cyphertest.NewSpace(t), file)
	if code != http.StatusTooManyRequests || p.Code != "rate_limited" || !strings.Contains(p.Detail, "REALM_MAX_IMPORTS_PER_KEY") {
		t.Errorf("the key's second import while its first stalls: %d %+v, want 429 naming REALM_MAX_IMPORTS_PER_KEY", code, p)
	}
	if code, res, p := importInto(t, b, cyphertest.NewSpace(t), file); code != http.StatusCreated || res.Counts["observation"] != 2 {
		t.Errorf("another key's import meanwhile: %d %+v %+v", code, res, p)
	}
}

// TestImportIdleCut: an upload that stops sending is cut off after ImportIdleTimeout, not
// held for the whole upload time: 400 saying so, its file removed, and its slot given back,
// so that the same key's next import is taken.
func TestImportIdleCut(t *testing.T) {
	a, _, file, stalled, tmp := stalledImport(t, Config{ImportIdleTimeout: time.Second})
	if !stalled.answered() {
		t.Fatalf("a stalled upload was not cut off")
	}
	if stalled.code != http.StatusBadRequest || stalled.p.Code != "invalid" || !strings.Contains(stalled.p.Detail, "sent nothing for 1s") {
		t.Errorf("the stalled import: %d %+v, want 400 saying the upload sent nothing", stalled.code, stalled.p)
	}
	if left := importFiles(t, tmp); len(left) > 0 {
		t.Errorf("files left behind: %v", left)
	}
	if code, res, p := importInto(t, a, cyphertest.NewSpace(t), file); code != http.StatusCreated || res.Counts["observation"] != 2 {
		t.Errorf("the key's next import: %d %+v %+v", code, res, p)
	}
}
