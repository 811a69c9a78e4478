package main

import (
	"flag"
	"slices"
	"strings"
	"testing"
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
