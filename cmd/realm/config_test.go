package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm/cypher/cyphertest"
)

// REALM_GRAPH_WARM names the spaces whose graph snapshots serve reads at start: a
// comma-separated list, blanks left out; none by default. An id that no space can have is
// refused, naming the variable and the id.
func TestGraphWarm(t *testing.T) {
	for v, want := range map[string][]string{"": nil, " big, other ,": {"big", "other"}} {
		cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_GRAPH_WARM": v}))
		if err != nil || !slices.Equal(cfg.GraphWarm, want) {
			t.Errorf("REALM_GRAPH_WARM=%q: %q %v, want %q", v, cfg.GraphWarm, err, want)
		}
	}
	_, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_GRAPH_WARM": "nosuch,bad!id"}))
	if err == nil || !strings.Contains(err.Error(), `REALM_GRAPH_WARM: "bad!id" is not a space id`) {
		t.Errorf(`REALM_GRAPH_WARM="nosuch,bad!id": %v, want the bad id refused`, err)
	}
}

// TestConfigPrintMasksURLs: a password in NEO4J_URI or OPENAI_BASE_URL is masked where the
// configuration is printed, as NEO4J_PASSWORD and OPENAI_API_KEY are.
func TestConfigPrintMasksURLs(t *testing.T) {
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{
		"NEO4J_URI": "bolt://neo4j:bolt-secret@127.0.0.1:7687", "REALM_LLM": "openai",
		"OPENAI_BASE_URL": "http://llmuser:llm-secret@127.0.0.1:9/v1", "OPENAI_API_KEY": "sk-secret",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cfg.print(&out)
	for _, secret := range []string{"bolt-secret", "llm-secret", "sk-secret"} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("printed %q holds %s", out.String(), secret)
		}
	}
	if !strings.Contains(out.String(), "NEO4J_URI=bolt://neo4j:xxxxx@127.0.0.1:7687") || !strings.Contains(out.String(), "OPENAI_BASE_URL=http://llmuser:xxxxx@127.0.0.1:9/v1") {
		t.Errorf("printed %q: want the URLs with their passwords masked", out.String())
	}
}

// TestServeStdoutIsJSON: every line serve writes on stdout is a JSON log line (for log
// shippers), among them the configuration, which holds every variable of README.md's
// configuration table (the API keys by name as api_keys, REALM_LLM_MODEL as the model of
// each role), secrets masked, and the address served.
func TestServeStdoutIsJSON(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(cyphertest.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(readme), "\n| variable | default | meaning |\n")
	table, _, _ = strings.Cut(table, "\n\n")
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([A-Z0-9_]+)`(?:, `([A-Z0-9_]+)`)?").FindAllStringSubmatch(table, -1) {
		documented = append(documented, m[1])
		if m[2] != "" {
			documented = append(documented, m[2])
		}
	}
	if len(documented) < 30 {
		t.Fatalf("found %d variables in README.md's configuration table: %q", len(documented), documented)
	}
	_, out := startServeLog(t, testEnv(map[string]string{"NEO4J_PASSWORD": cyphertest.Config().Password, "OPENAI_API_KEY": "sk-secret"}))
	var config map[string]string
	served := false
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var rec struct {
			Message string
			Config  map[string]string
			Addr    string
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("stdout line is not JSON: %q", line)
		}
		if rec.Message == "config" {
			config = rec.Config
		}
		served = served || strings.HasPrefix(rec.Message, "REALM serving on http://"+rec.Addr+" ")
	}
	if !served {
		t.Errorf("no JSON line says where REALM serves:\n%s", out.String())
	}
	aliases := map[string]string{"REALM_API_KEYS": "api_keys", "REALM_API_KEYS_FILE": "api_keys", "REALM_LLM_MODEL": "REALM_MODEL_EXTRACTION"}
	for _, v := range documented {
		if _, ok := config[cmp.Or(aliases[v], v)]; !ok {
			t.Errorf("the config line lacks %s", v)
		}
	}
	if config["OPENAI_API_KEY"] != "****" || config["NEO4J_PASSWORD"] != "****" {
		t.Errorf("secrets not masked: OPENAI_API_KEY=%q NEO4J_PASSWORD=%q", config["OPENAI_API_KEY"], config["NEO4J_PASSWORD"])
	}
}
