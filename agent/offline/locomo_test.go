package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// The LoCoMo development data stays outside the repository (its license forbids copying
// it): at REALM_LOCOMO when set, else beside the checkout or beside the directory of
// worktrees holding it; these tests skip when it is absent.
var locomoDevs = []string{os.Getenv("REALM_LOCOMO"), "../../../shared/data/locomo/locomo-dev.json", "../../../../shared/data/locomo/locomo-dev.json"}

type locomoSession struct {
	id    string
	at    time.Time
	turns []realm.Observation
}

func loadLocomo(tb testing.TB) [][]locomoSession {
	tb.Helper()
	var raw []byte
	var err error
	for _, path := range locomoDevs {
		if path == "" {
			continue
		}
		if raw, err = os.ReadFile(path); err == nil {
			break
		}
	}
	if err != nil {
		tb.Skipf("LoCoMo data not available: %v", err)
	}
	var samples []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
	}
	if err := json.Unmarshal(raw, &samples); err != nil {
		tb.Fatal(err)
	}
	var convs [][]locomoSession
	for _, s := range samples {
		var sessions []locomoSession
		for n := 1; ; n++ {
			key := "session_" + strconv.Itoa(n)
			rawTurns, ok := s.Conversation[key]
			if !ok {
				break
			}
			var date string
			if err := json.Unmarshal(s.Conversation[key+"_date_time"], &date); err != nil {
				tb.Fatal(err)
			}
			at, err := time.Parse("3:04 pm on 2 January, 2006", date)
			if err != nil {
				tb.Fatal(err)
			}
			var turns []struct {
				Speaker     string `json:"speaker"`
				DiaID       string `json:"dia_id"`
				Text        string `json:"text"`
				BlipCaption string `json:"blip_caption"`
			}
			if err := json.Unmarshal(rawTurns, &turns); err != nil {
				tb.Fatal(err)
			}
			sess := locomoSession{id: key, at: at}
			for _, t := range turns {
				text := t.Text
				if t.BlipCaption != "" {
					text += " [shares " + t.BlipCaption + "]"
				}
				sess.turns = append(sess.turns, realm.Observation{ID: s.SampleID + ":" + t.DiaID, Space: s.SampleID, SessionID: key, Speaker: t.Speaker, Content: text, ObservedAt: at})
			}
			sessions = append(sessions, sess)
		}
		convs = append(convs, sessions)
	}
	return convs
}

// ingestOffline runs Extract and Integrate over one conversation, with neighbours built
// as a simple stand-in for the pipeline: the nodes of the last three observations, the
// entities of the same names, and the session's episode. Similarity is lexical.
func ingestOffline(tb testing.TB, a *Agent, sessions []locomoSession, visit func(obs realm.Observation, ex agent.Extraction, out []agent.Integration)) {
	ctx := context.Background()
	var recent []realm.Observation
	var recentNodes [][]realm.Node
	entities := map[string]realm.Node{}
	episodes := map[string]realm.Node{}
	summary := ""
	next := 0
	for _, s := range sessions {
		for _, obs := range s.turns {
			ex, _, err := a.Extract(ctx, agent.ExtractInput{Observation: obs, Summary: summary, Recent: recent})
			if err != nil {
				tb.Fatal(err)
			}
			summary = ex.Summary
			in := agent.IntegrateInput{Observation: obs}
			for _, c := range ex.Candidates {
				var nbs []agent.Neighbour
				for _, ns := range recentNodes {
					for _, n := range ns {
						nbs = append(nbs, agent.Neighbour{Node: n, Recent: true})
					}
				}
				if n, ok := entities[normName(c.Name)]; ok && c.Type == realm.Entity {
					nbs = append(nbs, agent.Neighbour{Node: n, Similar: true})
				}
				for _, name := range c.Participants {
					if n, ok := entities[normName(name)]; ok {
						nbs = append(nbs, agent.Neighbour{Node: n, Similar: true})
					}
				}
				if n, ok := episodes[obs.SessionID]; ok {
					nbs = append(nbs, agent.Neighbour{Node: n, Similar: true})
				}
				in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c, Neighbours: nbs})
			}
			out, _, err := a.Integrate(ctx, in)
			if err != nil {
				tb.Fatal(err)
			}
			var added []realm.Node
			for i, o := range out {
				if o.Action != agent.ActionAdd {
					continue
				}
				c := ex.Candidates[i]
				next++
				n := realm.Node{ID: fmt.Sprintf("n%d", next), Type: c.Type, Name: c.Name, Content: c.Content, TStart: c.TStart, TEnd: c.TEnd, Participants: c.Participants, Aliases: c.Aliases}
				added = append(added, n)
				switch c.Type {
				case realm.Entity:
					entities[normName(c.Name)] = n
				case realm.Episode:
					episodes[c.Name] = n
				}
			}
			if visit != nil {
				visit(obs, ex, out)
			}
			recent = append(recent, obs)
			recentNodes = append(recentNodes, added)
			if len(recent) > 5 {
				recent = recent[1:]
			}
			if len(recentNodes) > 3 {
				recentNodes = recentNodes[1:]
			}
		}
	}
}

// coverage is the share of want found in got (conjugation turns "agree" into "agrees").
func coverage(want, got map[string]bool) float64 {
	n := 0
	for w := range want {
		if got[w] || got[w+"s"] || got[w+"es"] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func TestOfflineLoCoMo(t *testing.T) {
	convs := loadLocomo(t)
	a := New(Options{})
	types := map[realm.NodeType]int{}
	preds := map[realm.Predicate]int{}
	actions := map[string]int{}
	turns, contentful, carried, episodes, sessions := 0, 0, 0, 0, 0
	for _, conv := range convs {
		sessions += len(conv)
		ingestOffline(t, a, conv, func(obs realm.Observation, ex agent.Extraction, out []agent.Integration) {
			in := agent.IntegrateInput{Observation: obs}
			for _, c := range ex.Candidates {
				in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c})
			}
			turns++
			if n := len(strings.Fields(ex.Summary)); n > 200 {
				t.Fatalf("%s: summary of %d words", obs.ID, n)
			}
			words := wordSet(contentWords(obs.Content))
			if len(words) >= 3 {
				contentful++
			}
			for i, c := range ex.Candidates {
				types[c.Type]++
				actions[out[i].Action]++
				for _, e := range out[i].Edges {
					preds[e.Predicate]++
				}
				if c.Type == realm.Episode {
					episodes++
				}
				if len(words) >= 3 && (c.Type == realm.Event || c.Type == realm.Fact) && coverage(words, wordSet(contentWords(c.Content))) >= 0.85 {
					carried++
					words = nil // count the turn once
				}
			}
		})
	}
	t.Logf("%d turns, %d with ≥3 content words, %d of them carried whole by a candidate; candidates by type %v; actions %v; edges %v",
		turns, contentful, carried, types, actions, preds)
	if carried < contentful*97/100 {
		t.Errorf("only %d of %d turns with content are carried whole by an event or fact", carried, contentful)
	}
	if episodes != sessions {
		t.Errorf("%d episodes for %d sessions", episodes, sessions)
	}
	if len(types) < 4 || len(preds) < 5 {
		t.Errorf("types %v, predicates %v: want all four types and at least five predicates", types, preds)
	}
}

// checkEdges on real data: run it on every observation of one conversation.
func TestOfflineLoCoMoEdgeInvariants(t *testing.T) {
	convs := loadLocomo(t)
	a := New(Options{})
	ctx := context.Background()
	var recent []realm.Observation
	for _, s := range convs[0] {
		for _, obs := range s.turns {
			ex, _, _ := a.Extract(ctx, agent.ExtractInput{Observation: obs, Recent: recent})
			in := agent.IntegrateInput{Observation: obs}
			for _, c := range ex.Candidates {
				in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c})
			}
			mustIntegrate(t, in)
			recent = append(recent, obs)
		}
	}
}

func BenchmarkOfflineLoCoMo(b *testing.B) {
	convs := loadLocomo(b)
	a := New(Options{})
	n := 0
	for _, s := range convs[0] {
		n += len(s.turns)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ingestOffline(b, a, convs[0], nil)
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "obs/s")
}
