package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestServeLLMTimeout: REALM_LLM_TIMEOUT bounds each attempt of a chat call. A model that
// answers after 5 s is given up on after one retry, and the offline agent decides,
// counted; with the 60 s default its late answer would be taken.
func TestServeLLMTimeout(t *testing.T) {
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(func(r agenttest.ChatRequest) agenttest.Response {
		if !r.Contains("Lisbon") {
			// Pending observations of other spaces, which serve resumes at start, are
			// decided offline at once: their calls are no timeouts.
			return agenttest.Content("not JSON", 1, 1)
		}
		moved := agenttest.JSON(t, map[string]any{"summary": "Caroline moved to Berlin.", "candidates": []map[string]any{{
			"type": "event", "name": "Caroline moves to Berlin", "content": "Caroline moved from Lisbon to Berlin.",
			"description": "", "keywords": []string{}, "t_start": "", "t_end": "", "aliases": []string{}, "category": "",
			"role": "", "participants": []string{}, "subject": "", "attribute": "", "also_from": []string{}}}}, 50, 20)
		moved.Delay = 5 * time.Second
		return moved
	})
	base := startServe(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL(),
		"REALM_LLM_TIMEOUT": "300ms"}))
	sp := base + "/v1/spaces/" + cyphertest.NewSpace(t)
	var res struct {
		Results []struct {
			Status string
			Usage  realm.Usage
		}
	}
	msg := map[string]string{"id": "m1", "speaker": "Caroline", "content": "We moved from Lisbon to Berlin last week.", "timestamp": "2023-05-08T13:56:00Z"}
	if code := send(t, "POST", sp+"/observations", map[string]any{"messages": []any{msg}}, &res); code != http.StatusOK || len(res.Results) != 1 {
		t.Fatalf("ingest: %d %+v", code, res)
	}
	r := res.Results[0]
	if u := r.Usage["extract"]; r.Status != "integrated" || u.Calls != 2 || u.Failures != 2 || u.Fallbacks != 1 {
		t.Errorf("status %s, extract usage %+v: want two timed-out attempts, then the offline extraction", r.Status, u)
	}
	if got := scrapeMetrics(t, base)[`realm_llm_failures_total{reason="timeout",stage="extract"}`]; got != 2 {
		t.Errorf("metrics count %v extract timeouts, want 2", got)
	}
}
