package api

import (
	"net/http"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestAnswerScope: forcing a reconsolidation (reconsolidate: true) needs the write scope
// (403 forbidden, nothing written, otherwise); the automatic one and turning it off run
// under read.
func TestAnswerScope(t *testing.T) {
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "reader sk-reader-0123456789abcdef read "+space+";writer sk-writer-0123456789abcdef read,write "+space)
	if err != nil {
		t.Fatal(err)
	}
	base := newAnswerServer(t, apitest.New(t), Config{Keys: keys}, fake).base
	reader := client{t: t, base: base, key: "sk-reader-0123456789abcdef"}
	writer := client{t: t, base: base, key: "sk-writer-0123456789abcdef"}
	sp := "/v1/spaces/" + space
	ingestHiking(t, writer, sp)

	yes, no := true, false
	tests := []struct {
		name          string
		c             client
		reconsolidate *bool
		status        int
		edits         bool
	}{
		{"ReaderAuto", reader, nil, http.StatusOK, true},
		{"ReaderOff", reader, &no, http.StatusOK, false},
		{"ErrReaderForces", reader, &yes, http.StatusForbidden, false},
		{"WriterForces", writer, &yes, http.StatusOK, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(fake.Requests())
			body := map[string]any{"query": "Where does Melanie go hiking?"}
			if tt.reconsolidate != nil {
				body["reconsolidate"] = *tt.reconsolidate
			}
			var res struct {
				answerDoc
				Code string
			}
			resp := tt.c.do("POST", sp+"/answer", body, &res)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status == http.StatusForbidden {
				if res.Code != realm.EForbidden || len(fake.Requests()) != before {
					t.Errorf("code %q, %d LLM calls; want forbidden before any", res.Code, len(fake.Requests())-before)
				}
				return
			}
			if got := res.Reconsolidation != nil && len(editsOf(tt.c, sp, res.TraceID)) > 0; got != tt.edits {
				t.Errorf("edits applied %v, want %v", got, tt.edits)
			}
		})
	}
}
