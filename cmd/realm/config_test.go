package main

import (
	"flag"
	"slices"
	"testing"
)

// REALM_GRAPH_WARM names the spaces whose graph snapshots serve reads at start: a
// comma-separated list, blanks left out; none by default.
func TestGraphWarm(t *testing.T) {
	for v, want := range map[string][]string{"": nil, " big, other ,": {"big", "other"}} {
		cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_GRAPH_WARM": v}))
		if err != nil || !slices.Equal(cfg.GraphWarm, want) {
			t.Errorf("REALM_GRAPH_WARM=%q: %q %v, want %q", v, cfg.GraphWarm, err, want)
		}
	}
}
