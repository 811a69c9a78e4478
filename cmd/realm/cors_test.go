package main

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestCORSOrigins: REALM_CORS_ORIGINS is a comma-separated list of origins, none by
// default; anything else is refused with the variable's name.
func TestCORSOrigins(t *testing.T) {
	load := func(v string) (config, error) {
		return loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_CORS_ORIGINS": v}))
	}
	cfg, err := load("")
	if err != nil || len(cfg.CORSOrigins) != 0 {
		t.Fatalf("default: %v %v, want none", cfg.CORSOrigins, err)
	}
	cfg, err = load(" https://app.example.com, http://localhost:3000 ,")
	if err != nil || !slices.Equal(cfg.CORSOrigins, []string{"https://app.example.com", "http://localhost:3000"}) {
		t.Errorf("two origins: %v %v", cfg.CORSOrigins, err)
	}
	for _, bad := range []string{"app.example.com", "https://app.example.com/", "*"} {
		if _, err := load(bad); err == nil || !strings.Contains(err.Error(), "REALM_CORS_ORIGINS") {
			t.Errorf("%q: %v, want an error naming REALM_CORS_ORIGINS", bad, err)
		}
	}
}
