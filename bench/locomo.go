package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/realm-memory/realm"
)

// LoCoMo categories (REALM.md §6; Mem0's evaluation code mislabels 1/3/4).
var CategoryNames = map[int]string{
	1: "multi-hop",
	2: "temporal",
	3: "open-domain",
	4: "single-hop",
	5: "adversarial",
}

// Sample is one LoCoMo conversation with its questions. Only the turns are read: the
// generated observations and summaries of the file would leak answers.
type Sample struct {
	ID        string
	SpeakerA  string
	SpeakerB  string
	Sessions  []Session
	Questions []Question

	NoSessionIDs bool // its turns are sent without their session's id (SamplesWithoutSessionIDs)
}

// Session is one dated conversation session.
type Session struct {
	Number int
	Date   time.Time
	Turns  []Turn
}

// Turn is one message; Text includes an image's caption.
type Turn struct {
	DiaID   string // D<session>:<turn>
	Speaker string
	Text    string
}

// Question is one QA item; Evidence holds the dia ids that parsed, Skipped those that did not.
type Question struct {
	Question string
	Answer   string
	Category int
	Evidence []string
	Skipped  []string
}

// LoadLoCoMo reads a LoCoMo JSON file (a list of samples).
func LoadLoCoMo(path string) ([]Sample, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
		QA           []struct {
			Question          string          `json:"question"`
			Answer            json.RawMessage `json:"answer"`
			AdversarialAnswer json.RawMessage `json:"adversarial_answer"`
			Evidence          []string        `json:"evidence"`
			Category          int             `json:"category"`
		} `json:"qa"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a LoCoMo file: %w", path, err)
	}
	var out []Sample
	for _, r := range raw {
		s := Sample{ID: r.SampleID}
		_ = json.Unmarshal(r.Conversation["speaker_a"], &s.SpeakerA)
		_ = json.Unmarshal(r.Conversation["speaker_b"], &s.SpeakerB)
		sessions, err := loadSessions(r.Conversation)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", path, r.SampleID, err)
		}
		s.Sessions = sessions
		for _, q := range r.QA {
			answer := q.Answer
			if len(answer) == 0 {
				answer = q.AdversarialAnswer
			}
			evidence, skipped := ParseEvidence(q.Evidence)
			s.Questions = append(s.Questions, Question{
				Question: q.Question, Answer: rawText(answer), Category: q.Category,
				Evidence: evidence, Skipped: skipped,
			})
		}
		out = append(out, s)
	}
	return out, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// loadSessions reads the session_N keys that exist, in order, with their dates.
func loadSessions(conv map[string]json.RawMessage) ([]Session, error) {
	var out []Session
	for key, value := range conv {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var dateText string
		_ = json.Unmarshal(conv[key+"_date_time"], &dateText)
		date, err := ParseLoCoMoDate(dateText)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		var turns []struct {
			Speaker     string `json:"speaker"`
			DiaID       string `json:"dia_id"`
			Text        string `json:"text"`
			BlipCaption string `json:"blip_caption"`
		}
		if err := json.Unmarshal(value, &turns); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		sess := Session{Number: n, Date: date}
		for _, t := range turns {
			text := t.Text
			if t.BlipCaption != "" {
				text = strings.TrimSpace(text + " [shares a photo of " + t.BlipCaption + "]")
			}
			sess.Turns = append(sess.Turns, Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: text})
		}
		out = append(out, sess)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out, nil
}

// ParseLoCoMoDate reads "1:56 pm on 8 May, 2023".
func ParseLoCoMoDate(s string) (time.Time, error) {
	t, err := time.Parse("3:04 pm on 2 January, 2006", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("session date %q: want like \"1:56 pm on 8 May, 2023\"", s)
	}
	return t.UTC(), nil
}

var diaID = regexp.MustCompile(`D:?(\d+):(\d+)`)

// ParseEvidence normalises evidence ids leniently ("D8:6; D9:17", "D:11:26", "D30:05")
// and returns the ids that parsed and the strings that yielded none.
func ParseEvidence(raw []string) (ids, skipped []string) {
	seen := map[string]bool{}
	for _, r := range raw {
		ms := diaID.FindAllStringSubmatch(r, -1)
		if len(ms) == 0 {
			skipped = append(skipped, r)
			continue
		}
		for _, m := range ms {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			id := fmt.Sprintf("D%d:%d", a, b)
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, skipped
}

// Observations turns a sample's turns into observations, one per turn, with the turn's
// dia id as the observation id (so provenance can be scored against evidence) and the
// session date plus the turn's index in seconds as the time, to keep their order.
func (s Sample) Observations() []realm.Observation {
	var out []realm.Observation
	for _, sess := range s.Sessions {
		for i, t := range sess.Turns {
			o := realm.Observation{
				ID:         t.DiaID,
				SessionID:  fmt.Sprintf("session_%d", sess.Number),
				Speaker:    t.Speaker,
				Content:    t.Text,
				ObservedAt: sess.Date.Add(time.Duration(i) * time.Second),
			}
			if s.NoSessionIDs {
				o.SessionID = ""
			}
			out = append(out, o)
		}
	}
	return out
}

// SamplesWithoutSessionIDs are samples whose turns are sent as many clients send chat:
// without session ids (the sessions' dates and the turns stay as they are).
func SamplesWithoutSessionIDs(samples []Sample) []Sample {
	out := slices.Clone(samples)
	for i := range out {
		out[i].NoSessionIDs = true
	}
	return out
}

func rawText(b json.RawMessage) string {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(b))
}
