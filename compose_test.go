package realm_test

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestCompose checks the Docker path that cannot run here: the compose file parses and
// names what the README says it does.
func TestCompose(t *testing.T) {
	b, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image       string
			Build       any
			Environment map[string]string
			Ports       []string
			Volumes     []string
			Healthcheck struct{ Test []string }
			DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
		}
		Volumes map[string]any
	}
	if err := yaml.Unmarshal(b, &compose); err != nil {
		t.Fatalf("docker-compose.yml does not parse: %v", err)
	}
	neo4j, ok := compose.Services["neo4j"]
	if !ok || neo4j.Image != "neo4j:5.26" {
		t.Fatalf("service neo4j with image neo4j:5.26 missing: %+v", neo4j)
	}
	if !strings.Contains(neo4j.Environment["NEO4J_AUTH"], "NEO4J_PASSWORD") {
		t.Errorf("neo4j auth is not taken from NEO4J_PASSWORD: %q", neo4j.Environment["NEO4J_AUTH"])
	}
	if len(neo4j.Healthcheck.Test) == 0 || len(neo4j.Volumes) == 0 || !containsPrefix(neo4j.Ports, "127.0.0.1:7474") {
		t.Errorf("neo4j needs a healthcheck, named volumes and Browser on 7474: %+v", neo4j)
	}
	for _, v := range neo4j.Volumes {
		name, _, _ := strings.Cut(v, ":")
		if _, ok := compose.Volumes[name]; !ok {
			t.Errorf("volume %q is not a named volume", name)
		}
	}
	realm, ok := compose.Services["realm"]
	if !ok || realm.Build == nil {
		t.Fatal("service realm built from the Dockerfile missing")
	}
	if realm.Environment["NEO4J_URI"] != "bolt://neo4j:7687" || realm.DependsOn["neo4j"].Condition != "service_healthy" {
		t.Errorf("realm must reach neo4j by its service name once healthy: %+v", realm)
	}
	if len(realm.Healthcheck.Test) == 0 {
		t.Error("realm has no healthcheck")
	}

	dockerfile, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"AS build", "USER 10001", "HEALTHCHECK"} {
		if !strings.Contains(string(dockerfile), want) {
			t.Errorf("Dockerfile lacks %q (multi-stage, non-root, healthcheck)", want)
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "docker compose up") {
		t.Error("README does not say how to run with Docker")
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
