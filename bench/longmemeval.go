package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/realm-memory/realm"
)

// LongMemEval question types (Wu et al., 2024), in the order the reports list them.
var LongMemEvalTypes = []string{
	"single-session-user",
	"single-session-assistant",
	"single-session-preference",
	"multi-session",
	"temporal-reasoning",
	"knowledge-update",
}

// AbstentionSuffix ends the question id of an abstention question: its answer is not in
// the haystack, and the right response says so.
const AbstentionSuffix = "_abs"

// LongMemEvalMaxContent is the most bytes of one turn the bench ingests (the construction
// pipeline's default bound); longer turns, a few of LongMemEval's pasted documents, are cut
// at a rune boundary and counted in the report.
const LongMemEvalMaxContent = 20000

// LMEItem is one LongMemEval question with its haystack.
type LMEItem struct {
	QuestionID       string
	Type             string
	Question         string
	Answer           string // a number in the file becomes its text
	QuestionDate     time.Time
	Sessions         []LMESession // in file order
	AnswerSessionIDs []string
}

// LMESession is one dated chat session of a haystack.
type LMESession struct {
	ID    string
	Date  time.Time
	Turns []LMETurn
}

// LMETurn is one message; HasAnswer marks the evidence turns (absent in the file: false).
type LMETurn struct {
	Role      string
	Content   string
	HasAnswer bool
}

// Abstention reports whether the item is an abstention question (id ending in _abs).
func (it LMEItem) Abstention() bool { return strings.HasSuffix(it.QuestionID, AbstentionSuffix) }

// TurnID is the observation id of turn i of session: the session id and the turn's index,
// so that a recalled node's provenance maps back to the haystack.
func TurnID(session string, i int) string { return session + ":" + strconv.Itoa(i) }

// EvidenceTurns are the ids of the turns marked has_answer.
func (it LMEItem) EvidenceTurns() []string {
	var out []string
	for _, s := range it.Sessions {
		for i, t := range s.Turns {
			if t.HasAnswer {
				out = append(out, TurnID(s.ID, i))
			}
		}
	}
	return out
}

// LoadLongMemEval reads a LongMemEval file (the _s, _m or _oracle release: a JSON array of
// questions). It is lenient where the released data is: an answer may be a number and
// has_answer may be absent. Anything else malformed is an EInvalid error naming the item
// by index and question id.
func LoadLongMemEval(path string) ([]LMEItem, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, realm.Errorf(realm.EInvalid, "%v", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, realm.Errorf(realm.EInvalid, "%s: not a LongMemEval file (want a JSON array of questions): %v", path, err)
	}
	out := make([]LMEItem, 0, len(raw))
	ids := map[string]int{}
	for i, r := range raw {
		it, err := parseLMEItem(r)
		if err != nil {
			return nil, realm.Errorf(realm.EInvalid, "%s: item %d%s: %v", path, i, lmeIDHint(r), err)
		}
		if j, dup := ids[it.QuestionID]; dup {
			return nil, realm.Errorf(realm.EInvalid, "%s: item %d: question_id %q already used by item %d", path, i, it.QuestionID, j)
		}
		ids[it.QuestionID] = i
		out = append(out, it)
	}
	return out, nil
}

// lmeIDHint is " (question_id X)" when the raw item has one, for error messages.
func lmeIDHint(r json.RawMessage) string {
	var v struct {
		ID string `json:"question_id"`
	}
	if json.Unmarshal(r, &v) == nil && v.ID != "" {
		return fmt.Sprintf(" (question_id %q)", v.ID)
	}
	return ""
}

type rawLMEItem struct {
	QuestionID         string            `json:"question_id"`
	QuestionType       string            `json:"question_type"`
	Question           string            `json:"question"`
	Answer             json.RawMessage   `json:"answer"`
	QuestionDate       string            `json:"question_date"`
	HaystackSessionIDs []string          `json:"haystack_session_ids"`
	HaystackDates      []string          `json:"haystack_dates"`
	HaystackSessions   [][]rawLMETurn    `json:"haystack_sessions"`
	AnswerSessionIDs   []json.RawMessage `json:"answer_session_ids"`
}

type rawLMETurn struct {
	Role      string          `json:"role"`
	Content   *string         `json:"content"`
	HasAnswer json.RawMessage `json:"has_answer"`
}

func parseLMEItem(b json.RawMessage) (LMEItem, error) {
	var r rawLMEItem
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&r); err != nil {
		return LMEItem{}, err
	}
	it := LMEItem{QuestionID: strings.TrimSpace(r.QuestionID), Type: strings.TrimSpace(r.QuestionType), Question: strings.TrimSpace(r.Question)}
	switch {
	case it.QuestionID == "":
		return it, fmt.Errorf("question_id is missing")
	case !slices.Contains(LongMemEvalTypes, it.Type):
		return it, fmt.Errorf("question_type %q is none of %s", r.QuestionType, strings.Join(LongMemEvalTypes, ", "))
	case it.Question == "":
		return it, fmt.Errorf("question is missing")
	}
	answer, ok := lmeScalarText(r.Answer)
	if !ok {
		return it, fmt.Errorf("answer must be a string or a number, not %s", lmeAbbrev(string(r.Answer), 40))
	}
	it.Answer = answer
	var err error
	if it.QuestionDate, err = ParseLongMemEvalDate(r.QuestionDate); err != nil {
		return it, fmt.Errorf("question_date: %w", err)
	}
	n := len(r.HaystackSessions)
	if len(r.HaystackSessionIDs) != n || len(r.HaystackDates) != n {
		return it, fmt.Errorf("haystack_session_ids (%d), haystack_dates (%d) and haystack_sessions (%d) must have one entry per session",
			len(r.HaystackSessionIDs), len(r.HaystackDates), n)
	}
	seen := map[string]int{}
	for si, turns := range r.HaystackSessions {
		id := strings.TrimSpace(r.HaystackSessionIDs[si])
		if id == "" {
			return it, fmt.Errorf("haystack_session_ids[%d] is empty", si)
		}
		if seen[id]++; seen[id] > 1 {
			// The same session twice would collide on turn ids; keep both apart.
			id = fmt.Sprintf("%s#%d", id, seen[id])
		}
		date, err := ParseLongMemEvalDate(r.HaystackDates[si])
		if err != nil {
			return it, fmt.Errorf("haystack_dates[%d]: %w", si, err)
		}
		s := LMESession{ID: id, Date: date}
		for ti, t := range turns {
			if strings.TrimSpace(t.Role) == "" {
				return it, fmt.Errorf("haystack_sessions[%d][%d]: role is missing", si, ti)
			}
			if t.Content == nil {
				return it, fmt.Errorf("haystack_sessions[%d][%d]: content is missing", si, ti)
			}
			has, ok := lmeBool(t.HasAnswer)
			if !ok {
				return it, fmt.Errorf("haystack_sessions[%d][%d]: has_answer must be true or false, not %s", si, ti, lmeAbbrev(string(t.HasAnswer), 20))
			}
			s.Turns = append(s.Turns, LMETurn{Role: strings.TrimSpace(t.Role), Content: *t.Content, HasAnswer: has})
		}
		it.Sessions = append(it.Sessions, s)
	}
	for ai, a := range r.AnswerSessionIDs {
		id, ok := lmeScalarText(a)
		if !ok || id == "" {
			return it, fmt.Errorf("answer_session_ids[%d] must be a session id, not %s", ai, lmeAbbrev(string(a), 40))
		}
		it.AnswerSessionIDs = append(it.AnswerSessionIDs, id)
	}
	return it, nil
}

// lmeScalarText reads a JSON string or number as text.
func lmeScalarText(b json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return strings.TrimSpace(s), true
	}
	var n json.Number
	if json.Unmarshal(b, &n) == nil {
		return n.String(), true
	}
	return "", false
}

// lmeBool reads an absent or null value as false, and true/false, 1/0 or "true"/"false".
func lmeBool(b json.RawMessage) (bool, bool) {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	switch strings.ToLower(s) {
	case "", "null", "false", "0":
		return false, true
	case "true", "1":
		return true, true
	}
	return false, false
}

func lmeAbbrev(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// LongMemEval dates look like "2023/05/20 (Sat) 02:21"; the other layouts are accepted
// for hand-written files.
var lmeDateLayouts = []string{
	"2006/01/02 (Mon) 15:04",
	"2006/01/02 (Mon) 15:04:05",
	"2006/01/02 (Mon)",
	"2006/01/02 15:04",
	"2006/01/02",
	time.RFC3339,
	"2006-01-02 15:04",
	"2006-01-02",
}

// ParseLongMemEvalDate reads a LongMemEval date such as "2023/05/20 (Sat) 02:21" as UTC.
func ParseLongMemEvalDate(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	for _, layout := range lmeDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("date %q: want like \"2023/05/20 (Sat) 02:21\"", s)
}

// LMEObservations is what one item's haystack becomes for ingestion.
type LMEObservations struct {
	Observations []realm.Observation // in time order
	Sessions     map[string]string   // observation id → session id
	Truncated    int                 // turns cut to LongMemEvalMaxContent
	Empty        int                 // turns without content, left out
}

// Observations turns the haystack into observations in date order (sessions with equal
// dates keep their file order): one per turn, with TurnID as the observation id, the
// role as the speaker and the session date plus the turn's index in seconds as the time;
// a session dated no later than the previous one's last turn starts one second after it,
// so that the times keep the order of ingestion.
func (it LMEItem) Observations() LMEObservations {
	sessions := slices.Clone(it.Sessions)
	slices.SortStableFunc(sessions, func(a, b LMESession) int { return a.Date.Compare(b.Date) })
	out := LMEObservations{Sessions: map[string]string{}}
	var last time.Time
	for _, s := range sessions {
		start := s.Date
		if !last.IsZero() && !start.After(last) {
			start = last.Add(time.Second)
		}
		for i, t := range s.Turns {
			id := TurnID(s.ID, i)
			out.Sessions[id] = s.ID
			at := start.Add(time.Duration(i) * time.Second)
			last = at
			content := strings.TrimSpace(t.Content)
			if content == "" {
				out.Empty++
				continue
			}
			if len(content) > LongMemEvalMaxContent {
				content = lmeCutUTF8(content, LongMemEvalMaxContent)
				out.Truncated++
			}
			out.Observations = append(out.Observations, realm.Observation{
				ID: id, SessionID: s.ID, Speaker: t.Role, Content: content, ObservedAt: at,
			})
		}
	}
	return out
}

// lmeCutUTF8 returns at most n bytes of s, never splitting a rune.
func lmeCutUTF8(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

var notSpaceChar = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// LMESpace is the space of one item: prefix + question id, with characters a space id
// cannot hold replaced; too long, the id is shortened with a hash to stay unique.
func LMESpace(prefix, questionID string) string {
	s := prefix + notSpaceChar.ReplaceAllString(questionID, "_")
	if len(s) <= 64 {
		return s
	}
	h := sha256.Sum256([]byte(questionID))
	tail := "-" + hex.EncodeToString(h[:6])
	return s[:64-len(tail)] + tail
}
