package tests

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/realmtest"
)

// binary is the `realm` program built once for the package's tests (TestMain).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "realm-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "realm")
	build := exec.Command("go", "build", "-o", binary, "github.com/realm-memory/realm/cmd/realm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building realm:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is one REALM under test: its base URL and the admin key its requests carry.
type server struct {
	t   testing.TB
	URL string
	Key string
}

// randomKey is a fresh API key secret.
func randomKey(tb testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	return "sk-test-" + hex.EncodeToString(b)
}

var servingLine = regexp.MustCompile(`REALM serving on (http://\S+) `)

// startRealm starts a REALM with one admin key and the environment env on top, and
// stops it when the test ends. With REALM_TEST_NEO4J=container and a Docker engine that
// answers, it is realmtest's REALM and Neo4j containers (realmtest.OptionsFromEnv: other
// images, the host's network); else `realm serve` runs here (startProcess).
func startRealm(tb testing.TB, env map[string]string) *server {
	tb.Helper()
	if os.Getenv("REALM_TEST_NEO4J") == "container" {
		err := realmtest.EngineAnswers(context.Background())
		if err == nil {
			opts := realmtest.OptionsFromEnv(os.Getenv)
			opts.Env = env
			r := realmtest.Run(tb, opts)
			return &server{t: tb, URL: r.URL, Key: r.Key}
		}
		tb.Logf("REALM_TEST_NEO4J=container, but %v: running realm serve on the tests' Neo4j instead", err)
	}
	return startProcess(tb, env)
}

// startProcess runs `realm serve` on a free loopback port against the tests' Neo4j (the
// local one is started when needed), with one admin key and the environment env on top,
// and stops it (SIGTERM) when the test ends. The throwaway test_ spaces of other runs are
// left out of its embedder check.
func startProcess(tb testing.TB, env map[string]string) *server {
	tb.Helper()
	cyphertest.MustOpen(tb) // the local Neo4j is started, or the test fails under CI
	cfg := cyphertest.Config()
	key := randomKey(tb)
	vars := map[string]string{
		"REALM_ADDR": "127.0.0.1:0", "NEO4J_URI": cfg.URI, "NEO4J_USER": cfg.User,
		"NEO4J_PASSWORD": cfg.Password, "NEO4J_DATABASE": cfg.Database, "REALM_LLM": "offline",
		"REALM_UNCHECKED_SPACE_PREFIX": cyphertest.SpacePrefix, "REALM_API_KEYS": "e2e " + key + " admin *",
	}
	for k, v := range env {
		vars[k] = v
	}
	if keys := env["REALM_API_KEYS"]; keys != "" { // the test's keys, and the admin key as realmtest adds it
		vars["REALM_API_KEYS"] = "e2e " + key + " admin *;" + keys
	}
	cmd := exec.Command(binary, "serve")
	cmd.Env = os.Environ()
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				url <- m[1]
			}
		}
		close(url)
	}()
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	select {
	case u, ok := <-url:
		if !ok {
			tb.Fatalf("realm serve stopped before listening:\n%s", logs.String())
		}
		return &server{t: tb, URL: u, Key: key}
	case <-time.After(3 * time.Minute):
		tb.Fatalf("realm serve did not listen within 3 minutes:\n%s", logs.String())
	}
	return nil
}

// newSpace is a fresh throwaway space, erased through the API when the test ends.
func (s *server) newSpace() string {
	space := newSpaceID(s.t)
	s.eraseAtEnd(space)
	return space
}

// newSpaceID is the id of a fresh throwaway space.
func newSpaceID(tb testing.TB) string {
	return cyphertest.SpacePrefix + "e2e_" + randomKey(tb)[8:20]
}

// eraseAtEnd erases space through the API when the test ends (before the server stops).
func (s *server) eraseAtEnd(space string) {
	s.t.Cleanup(func() {
		if code := s.do("DELETE", "/v1/spaces/"+space, nil, nil); code != http.StatusOK && code != http.StatusNotFound {
			s.t.Errorf("erasing %s: status %d", space, code)
		}
	})
}

// do sends a JSON request with the server's key and decodes a JSON answer into v.
func (s *server) do(method, path string, body, v any) int {
	s.t.Helper()
	return s.doWithKey(s.Key, method, path, body, v)
}

// doWithKey is do with another key ("" for none).
func (s *server) doWithKey(key, method, path string, body, v any) int {
	s.t.Helper()
	var data []byte
	contentType := ""
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		data, contentType = b, "application/json"
	}
	code, header, answer := s.send(key, method, path, contentType, data)
	if v != nil && len(answer) > 0 && strings.Contains(header.Get("Content-Type"), "json") {
		if err := json.Unmarshal(answer, v); err != nil {
			s.t.Fatalf("%s %s: %v in %.300s", method, path, err, answer)
		}
	}
	return code
}

// send sends body (none when nil) with key ("" for none) and returns the answer.
func (s *server) send(key, method, path, contentType string, body []byte) (int, http.Header, []byte) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, answer
}

// seed remembers the conversation of testdata/conversation.json in space.
func (s *server) seed(space string) {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "conversation.json"))
	if err != nil {
		s.t.Fatal(err)
	}
	var batch map[string]any
	if err := json.Unmarshal(b, &batch); err != nil {
		s.t.Fatal(err)
	}
	if code := s.do("POST", "/v1/spaces/"+space+"/observations", batch, nil); code != http.StatusOK {
		s.t.Fatalf("seeding %s: status %d", space, code)
	}
}
