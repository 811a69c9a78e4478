package bench

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/realm-memory/realm"
)

// UpdateScenario is a fact about someone that a later message replaces with another value
// of the same slot (a city, a job, a diet…), among distractors: realm bench updates.
type UpdateScenario struct {
	ID       string          `json:"id"`
	Slot     string          `json:"slot"`
	Messages []UpdateMessage `json:"messages"`
	Old      int             `json:"old"`  // index of the message stating the replaced value
	New      int             `json:"new"`  // index of the message stating the value that holds now
	Now      string          `json:"now"`  // a question about what holds after the last message
	Past     string          `json:"past"` // a question about what held before the change
}

// UpdateMessage is one turn; messages of one date form one session.
type UpdateMessage struct {
	Speaker string `json:"speaker"`
	Date    string `json:"date"` // YYYY-MM-DD
	Text    string `json:"text"`
}

// UpdateSet is the file realm bench updates reads.
type UpdateSet struct {
	About     string           `json:"about,omitempty"`
	Scenarios []UpdateScenario `json:"scenarios"`
}

//go:embed testdata/updates.json
var builtinUpdates []byte

// LoadUpdates reads a scenario file, or the built-in set when path is "".
func LoadUpdates(path string) (UpdateSet, error) {
	data := builtinUpdates
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return UpdateSet{}, err
		}
		data = b
	}
	var set UpdateSet
	if err := json.Unmarshal(data, &set); err != nil {
		return UpdateSet{}, fmt.Errorf("update scenarios: %w", err)
	}
	seen := map[string]bool{}
	for i, s := range set.Scenarios {
		switch {
		case s.ID == "" || seen[s.ID]:
			return UpdateSet{}, fmt.Errorf("scenario %d: missing or repeated id %q", i, s.ID)
		case s.Old < 0 || s.Old >= len(s.Messages) || s.New < 0 || s.New >= len(s.Messages) || s.Old >= s.New:
			return UpdateSet{}, fmt.Errorf("scenario %s: old %d and new %d must index messages, old first", s.ID, s.Old, s.New)
		case s.Now == "" || s.Past == "":
			return UpdateSet{}, fmt.Errorf("scenario %s: both questions are required", s.ID)
		}
		for j, m := range s.Messages {
			if _, err := time.Parse(time.DateOnly, m.Date); err != nil || m.Speaker == "" || m.Text == "" {
				return UpdateSet{}, fmt.Errorf("scenario %s, message %d: speaker, text and a YYYY-MM-DD date are required", s.ID, j)
			}
		}
		seen[s.ID] = true
	}
	if len(set.Scenarios) == 0 {
		return UpdateSet{}, fmt.Errorf("update scenarios: none")
	}
	return set, nil
}

// Observations are the scenario's messages as observations: ids id-0, id-1…, one session
// per date, a minute apart from 10:00 UTC.
func (s UpdateScenario) Observations() []realm.Observation {
	out := make([]realm.Observation, len(s.Messages))
	for i, m := range s.Messages {
		day, _ := time.Parse(time.DateOnly, m.Date)
		out[i] = realm.Observation{
			ID: s.obsID(i), SessionID: m.Date, Speaker: m.Speaker, Content: m.Text,
			ObservedAt: day.Add(10*time.Hour + time.Duration(i)*time.Minute),
		}
	}
	return out
}

func (s UpdateScenario) obsID(i int) string { return fmt.Sprintf("%s-%d", s.ID, i) }

// UpdateGraph reads and erases the scenario spaces (cypher.Store).
type UpdateGraph interface {
	Graph(ctx context.Context, space, around string, depth, limit int) ([]realm.Node, []realm.Edge, error)
	DeleteSpace(ctx context.Context, space string) (int64, error)
}

// UpdateDeps are the pipelines an update run drives.
type UpdateDeps struct {
	Ingest Ingester
	Recall Recaller
	Graph  UpdateGraph
}

// UpdateResult is one scenario's outcome. Ranks are 1-based positions of the best node
// derived from the old or the new message among the recalled ones, 0 when not recalled.
type UpdateResult struct {
	ID         string `json:"id"`
	Slot       string `json:"slot"`
	NowNew     int    `json:"now_new_rank"`
	NowOld     int    `json:"now_old_rank"`
	PastOld    int    `json:"past_old_rank"`
	PastNew    int    `json:"past_new_rank"`
	Supersedes bool   `json:"supersedes"`  // an edge new → old was drawn
	Contradict bool   `json:"contradicts"` // a contradicts edge between them was drawn
	NewerFirst bool   `json:"newer_first"` // the now question ranks the new fact above the old one
	OldInTop3  bool   `json:"old_in_top3"` // the past question has the old fact in its top 3
}

// UpdateReport is the whole run.
type UpdateReport struct {
	Scenarios   int               `json:"scenarios"`
	K           int               `json:"k"`
	NewerFirst  float64           `json:"newer_first_rate"`
	OldInTop3   float64           `json:"past_old_in_top3_rate"`
	MeanOldRank float64           `json:"past_old_mean_rank"` // over scenarios where it was recalled
	OldMissing  int               `json:"past_old_missing"`
	Supersedes  float64           `json:"supersedes_rate"`
	Contradicts int               `json:"contradicts_edges"`
	Results     []UpdateResult    `json:"results"`
	Config      map[string]string `json:"config,omitempty"`
}

// AsChatRoles rewrites a set as an assistant's conversation with its user: the person of
// each scenario (the speaker of its old message) speaks as "user", everyone else as
// "assistant", and the texts and questions call that person "the user" ("Where does the
// user live now?").
func (set UpdateSet) AsChatRoles() UpdateSet {
	out := UpdateSet{About: set.About, Scenarios: make([]UpdateScenario, len(set.Scenarios))}
	for i, s := range set.Scenarios {
		person := s.Messages[s.Old].Speaker
		asUser := nameAs(person, "the user")
		s.Messages = slices.Clone(s.Messages)
		for j, m := range s.Messages {
			m.Speaker = roleOf(m.Speaker, person)
			m.Text = asUser(m.Text)
			s.Messages[j] = m
		}
		s.Now, s.Past = asUser(s.Now), asUser(s.Past)
		out.Scenarios[i] = s
	}
	return out
}

// RunUpdates ingests each scenario into its own space (prefix + id, erased first), asks
// its two questions at a day after its last message, and reads the edges drawn.
func RunUpdates(ctx context.Context, set UpdateSet, deps UpdateDeps, prefix string, k int, progress io.Writer) (UpdateReport, error) {
	rep := UpdateReport{Scenarios: len(set.Scenarios), K: k}
	var oldRanks, found int
	for n, s := range set.Scenarios {
		space := prefix + s.ID
		if _, err := deps.Graph.DeleteSpace(ctx, space); err != nil {
			return rep, err
		}
		obs := s.Observations()
		if _, err := deps.Ingest.Ingest(ctx, space, obs); err != nil {
			return rep, fmt.Errorf("scenario %s: %w", s.ID, err)
		}
		at := obs[len(obs)-1].ObservedAt.Add(24 * time.Hour)
		r := UpdateResult{ID: s.ID, Slot: s.Slot}
		oldID, newID := s.obsID(s.Old), s.obsID(s.New)
		for _, q := range []struct {
			text     string
			old, new *int
		}{{s.Now, &r.NowOld, &r.NowNew}, {s.Past, &r.PastOld, &r.PastNew}} {
			res, err := deps.Recall.Recall(ctx, space, realm.RecallRequest{Query: q.text, Time: &at, K: k})
			if err != nil {
				return rep, fmt.Errorf("scenario %s: %w", s.ID, err)
			}
			*q.old, *q.new = rankOf(res.Nodes, oldID), rankOf(res.Nodes, newID)
		}
		nodes, edges, err := deps.Graph.Graph(ctx, space, "", 0, 1000)
		if err != nil {
			return rep, err
		}
		r.Supersedes, r.Contradict = updateEdges(nodes, edges, oldID, newID)
		r.NewerFirst = r.NowNew > 0 && (r.NowOld == 0 || r.NowNew < r.NowOld)
		r.OldInTop3 = r.PastOld > 0 && r.PastOld <= 3
		rep.Results = append(rep.Results, r)
		if r.NewerFirst {
			rep.NewerFirst++
		}
		if r.OldInTop3 {
			rep.OldInTop3++
		}
		if r.Supersedes {
			rep.Supersedes++
		}
		if r.Contradict {
			rep.Contradicts++
		}
		if r.PastOld > 0 {
			oldRanks += r.PastOld
			found++
		} else {
			rep.OldMissing++
		}
		fmt.Fprintf(progress, "\rupdates %d/%d", n+1, len(set.Scenarios))
	}
	fmt.Fprintln(progress)
	total := float64(len(set.Scenarios))
	rep.NewerFirst /= total
	rep.OldInTop3 /= total
	rep.Supersedes /= total
	if found > 0 {
		rep.MeanOldRank = float64(oldRanks) / float64(found)
	}
	return rep, nil
}

// rankOf is the 1-based rank of the first recalled node derived from observation id (an
// exchange quoting it counts: it says it too), 0 when none is.
func rankOf(nodes []realm.RecalledNode, id string) int {
	for i, n := range nodes {
		if t := n.Node.Type; t != realm.Entity && t != realm.Episode && slices.Contains(n.Node.Sources, id) {
			return i + 1
		}
	}
	return 0
}

// updateEdges reports whether a supersedes edge runs from a node derived from the new
// message to one derived from the old, and whether a contradicts edge joins two such.
func updateEdges(nodes []realm.Node, edges []realm.Edge, oldID, newID string) (supersedes, contradicts bool) {
	from := map[string][]string{}
	for _, n := range nodes {
		from[n.ID] = n.Sources
	}
	for _, e := range edges {
		newToOld := slices.Contains(from[e.From], newID) && slices.Contains(from[e.To], oldID)
		switch {
		case e.Predicate == realm.Supersedes && newToOld:
			supersedes = true
		case e.Predicate == realm.Contradicts && newToOld:
			contradicts = true
		}
	}
	return supersedes, contradicts
}

// Markdown is the report's summary table and the scenarios that missed.
func (r UpdateReport) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| scenarios | newer fact first (now) | old fact in top 3 (past) | old fact mean rank (past) | old fact not recalled (past) | supersedes drawn | contradicts drawn |\n|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %d | %.3f | %.3f | %.2f | %d | %.3f | %d |\n", r.Scenarios, r.NewerFirst, r.OldInTop3, r.MeanOldRank, r.OldMissing, r.Supersedes, r.Contradicts)
	var misses []string
	for _, x := range r.Results {
		if !x.NewerFirst || !x.OldInTop3 || !x.Supersedes {
			misses = append(misses, fmt.Sprintf("| %s | %s | %d / %d | %d | %v |", x.ID, x.Slot, x.NowNew, x.NowOld, x.PastOld, x.Supersedes))
		}
	}
	if len(misses) > 0 {
		fmt.Fprintf(&b, "\nScenarios with a miss (ranks are 1-based, 0: not recalled in the top %d):\n\n| scenario | slot | now: new / old rank | past: old rank | supersedes |\n|---|---|---|---|---|\n%s\n", r.K, strings.Join(misses, "\n"))
	}
	return b.String()
}
