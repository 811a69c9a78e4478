package llm

import (
	"bytes"
	"embed"
	"fmt"
	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"strings"
	"sync"
	"text/template"
	"time"
)

// promptFiles holds the prompt templates; a missing file fails the build or New.
//
//go:embed prompts/*.tmpl
var promptFiles embed.FS

func parsePrompts() (*template.Template, error) {
	return template.New("prompts").Option("missingkey=error").ParseFS(promptFiles, "prompts/*.tmpl")
}

// sharedPrompts are the templates parsed once, for renderings outside an Agent.
var sharedPrompts = sync.OnceValues(parsePrompts)

func (l *Agent) render(name string, data any) (string, error) {
	return renderPrompt(l.prompts, name, data)
}

func renderPrompt(prompts *template.Template, name string, data any) (string, error) {
	var b bytes.Buffer
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("prompt %s: %w", name, err)
	}
	return b.String(), nil
}

type promptObservation struct {
	Ref, Time, Speaker, Content string
}

type extractView struct {
	Time, Weekday, Speaker, Session, Summary, Content string
	Recent                                            []promptObservation
	SessionUser                                       []promptObservation // no refs: never a source
}

// speakerOf is who said o as the model is shown it: a tool's output or a system prompt sent
// under a name says its role beside it ("thermostat-3 (tool)"), the name of no person.
func speakerOf(o realm.Observation) string {
	if (o.Role == "tool" || o.Role == "system") && !strings.EqualFold(o.Speaker, o.Role) {
		return o.Speaker + " (" + o.Role + ")"
	}
	return o.Speaker
}

func (l *Agent) extractMessages(in agent.ExtractInput) (system, user string, err error) {
	o := in.Observation
	v := extractView{
		Time:    o.ObservedAt.Format(time.RFC3339),
		Weekday: o.ObservedAt.Weekday().String(),
		Speaker: speakerOf(o),
		Session: o.Session(),
		Summary: in.Summary,
		Content: o.Content,
	}
	for i, r := range in.Recent {
		v.Recent = append(v.Recent, promptObservation{recentRef(i), r.ObservedAt.Format(time.RFC3339), speakerOf(r), r.Content})
	}
	for _, r := range in.Session {
		v.SessionUser = append(v.SessionUser, promptObservation{"", r.ObservedAt.Format(time.RFC3339), speakerOf(r), r.Content})
	}
	if system, err = l.render("extract_system.tmpl", struct{ MaxCandidates int }{maxCandidates}); err != nil {
		return "", "", err
	}
	user, err = l.render("extract_user.tmpl", v)
	return system, user, err
}

// promptUnit is a candidate or a neighbour as the model sees it, under a short ref
// ("C0", "N3") rather than a node id: shorter prompts, and ids the model cannot garble.
type promptUnit struct {
	Ref, Type, Name, Content, Time, Keywords, Tags string
	ValidUntil                                     string // a superseded neighbour's end of validity
	Neighbours                                     []promptUnit
}

// dayText is a validity end as the prompt shows it, "" when none.
func dayText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format(time.DateOnly)
}

type integrateView struct {
	Time, Speaker, Content string
	Decide, Others         []promptUnit
}

func (l *Agent) integrateMessages(r *integrateRequest) (system, user string, err error) {
	if system, err = l.render("integrate_system.tmpl", nil); err != nil {
		return "", "", err
	}
	user, err = l.render("integrate_user.tmpl", r.view)
	return system, user, err
}

// NodeTime renders n's time for a prompt (SpanText), and when n was said again within it,
// the last time ("2026-12-07, last said 2026-12-07T18:00:00Z": the front door opened at
// 08:00 and again at 18:00 is one memory of the day).
func NodeTime(n realm.Node) string {
	span := SpanText(n.TStart, n.TEnd)
	if t, ok := n.SaidWithin(); ok && n.LearnedAt != nil && t.After(*n.LearnedAt) {
		span += ", last said " + t.Format(time.RFC3339)
	}
	return span
}

// SpanText renders a time span for a prompt: one date for a point, "a to b" for a range.
func SpanText(start, end *time.Time) string {
	format := func(t time.Time) string {
		if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
			return t.Format(time.DateOnly)
		}
		return t.Format(time.RFC3339)
	}
	switch {
	case start == nil && end == nil:
		return ""
	case start == nil:
		return "until " + format(*end)
	case end == nil:
		return "from " + format(*start)
	case start.Equal(*end):
		return format(*start)
	}
	return format(*start) + " to " + format(*end)
}

func neighbourTags(n agent.Neighbour) string {
	var tags []string
	switch {
	case n.Similar && n.Recent:
		tags = append(tags, "similar+recent")
	case n.Similar:
		tags = append(tags, "similar")
	case n.Recent:
		tags = append(tags, "recent")
	}
	if n.Similarity > 0 {
		tags = append(tags, fmt.Sprintf("sim %.2f", n.Similarity))
	}
	return strings.Join(tags, ", ")
}
