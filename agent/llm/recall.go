package llm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sashabaranov/go-openai/jsonschema"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Usage stage names of the read path's decisions and of the auditor (REALM.md §5).
const (
	StagePlan        = "plan"
	StageSufficiency = "sufficiency"
	StageExpand      = "expand"
	StageAudit       = "audit"
)

// Bounds of the read path's answers (REALM.md §3).
const (
	maxPlans        = 5 // P
	maxToExpand     = 5 // nodes_to_expand
	maxPlanKeywords = 8
)

// PlanSeeds asks the model for 1..5 seed plans (REALM.md §3.1); without a usable
// answer the fallback agent decides (logged and counted).
func (l *Agent) PlanSeeds(ctx context.Context, in agent.PlanInput) ([]realm.Plan, realm.Usage, error) {
	var out []realm.Plan
	view := struct{ Query, Time, Weekday string }{in.Query, in.Time.Format(time.RFC3339), in.Time.Weekday().String()}
	return decideOr(ctx, l, StagePlan, "plan", view, planFormat(), func(content string) error {
		var err error
		out, err = parsePlans(content, in.Time.Location())
		return err
	}, func() []realm.Plan { return out }, func() ([]realm.Plan, realm.Usage, error) { return l.fallback.PlanSeeds(ctx, in) })
}

// Sufficiency asks whether the nodes so far are enough and, if not, which (≤ 5) to
// expand (REALM.md §3.2).
func (l *Agent) Sufficiency(ctx context.Context, in agent.SufficiencyInput) (agent.Sufficiency, realm.Usage, error) {
	refs, view := nodeRefs(in.Nodes)
	data := struct {
		Query           string
		Depth, MaxDepth int
		Nodes           []promptNode
	}{in.Query, in.Depth, in.MaxDepth, view}
	var out agent.Sufficiency
	return decideOr(ctx, l, StageSufficiency, "sufficiency", data, sufficiencyFormat(), func(content string) error {
		var err error
		out, err = parseSufficiency(content, refs)
		return err
	}, func() agent.Sufficiency { return out }, func() (agent.Sufficiency, realm.Usage, error) { return l.fallback.Sufficiency(ctx, in) })
}

// ExpansionPolicy asks for the atom of one frontier node and the reasoning text r the
// edge score compares reached nodes with (REALM.md §3.2).
func (l *Agent) ExpansionPolicy(ctx context.Context, in agent.PolicyInput) (agent.Policy, realm.Usage, error) {
	_, view := nodeRefs([]agent.Gathered{in.Node})
	data := struct {
		Query, Time string
		Node        promptNode
	}{in.Query, in.Time.Format(time.RFC3339), view[0]}
	var out agent.Policy
	return decideOr(ctx, l, StageExpand, "policy", data, policyFormat(), func(content string) error {
		var err error
		out, err = parsePolicy(content, in.Time.Location())
		return err
	}, func() agent.Policy { return out }, func() (agent.Policy, realm.Usage, error) { return l.fallback.ExpansionPolicy(ctx, in) })
}

// Audit asks the model to label the recalled nodes and propose edits of the edges among
// them (REALM.md §4.1–4.2). Confirmed feedback outranks the model: the nodes it names
// keep the client's labels.
func (l *Agent) Audit(ctx context.Context, in agent.AuditInput) (agent.AuditOutput, realm.Usage, error) {
	nodes := make([]agent.Gathered, len(in.Nodes))
	for i, n := range in.Nodes {
		nodes[i] = agent.Gathered{Node: n.Node, Score: n.Score, Depth: n.Depth}
	}
	refs, view := nodeRefs(nodes)
	ids := map[string]string{} // id → ref
	for ref, id := range refs {
		ids[id] = ref
	}
	var cited, edges []string
	for _, id := range in.Cited {
		if ref, ok := ids[id]; ok {
			cited = append(cited, ref)
		}
	}
	for _, e := range in.Edges {
		from, okF := ids[e.From]
		to, okT := ids[e.To]
		if okF && okT {
			edges = append(edges, fmt.Sprintf("%s -[%s %.2f]-> %s", from, e.Predicate, e.Weight, to))
		}
	}
	data := struct {
		Query, Answer string
		Cited, Edges  []string
		Nodes         []promptNode
	}{in.Query, in.Answer, cited, edges, view}
	var out agent.AuditOutput
	out, usage, err := decideOr(ctx, l, StageAudit, "audit", data, auditFormat(), func(content string) error {
		var err error
		out, err = parseAudit(content, refs)
		return err
	}, func() agent.AuditOutput { return out }, func() (agent.AuditOutput, realm.Usage, error) { return l.fallback.Audit(ctx, in) })
	if fb := in.Feedback; err == nil && fb != nil && out.Labels != nil {
		for _, id := range fb.UsefulNodeIDs {
			out.Labels[id] = realm.KeyEvidence
		}
		for _, id := range fb.MisleadingNodeIDs {
			out.Labels[id] = realm.Misleading
		}
	}
	return out, usage, err
}

// decideOr renders the prompts name_system.tmpl and name_user.tmpl with data, asks the
// stage's model for an answer accept takes (one repair), and returns result(); without
// a usable answer it logs, counts and returns fallback's decision, and so it does at once,
// without asking, for the rest of a recall in which the stage failed (agent.RecallScope).
func decideOr[T any](ctx context.Context, l *Agent, stage, name string, data any, format *openai.ChatCompletionResponseFormat,
	accept func(string) error, result func() T, fallback func() (T, realm.Usage, error)) (T, realm.Usage, error) {
	usage := realm.Usage{}
	scope := agent.RecallScopeOf(ctx)
	if scope.Failed(stage) {
		return fallbackDecision(l, usage, stage, fallback)
	}
	system, err := l.render(name+"_system.tmpl", data)
	if err != nil {
		var zero T
		return zero, usage, err
	}
	user, err := l.render(name+"_user.tmpl", data)
	if err != nil {
		var zero T
		return zero, usage, err
	}
	if err = l.structured(ctx, usage, stage, format, system, user, accept); err == nil {
		return result(), usage, nil
	}
	if ctx.Err() != nil {
		var zero T
		return zero, usage, ctx.Err()
	}
	scope.Fail(stage)
	l.log.Warn().Str("stage", stage).Err(err).Msg("LLM decision failed; using the offline decision")
	return fallbackDecision(l, usage, stage, fallback)
}

// fallbackDecision returns fallback's decision of stage, counted, with usage.
func fallbackDecision[T any](l *Agent, usage realm.Usage, stage string, fallback func() (T, realm.Usage, error)) (T, realm.Usage, error) {
	out, fu, ferr := fallback()
	usage.Add(fu)
	l.markFallback(usage, stage, 1)
	return out, usage, ferr
}

// promptNode is a node as the prompts show it, under a ref.
type promptNode struct {
	Ref, Type, Name, Content, Time string
	Score                          float64
	Depth                          int
	Expanded                       bool
}

// nodeRefs names nodes M1, M2, … for the model: ref → id, and the prompt view.
func nodeRefs(nodes []agent.Gathered) (map[string]string, []promptNode) {
	refs := make(map[string]string, len(nodes))
	view := make([]promptNode, len(nodes))
	for i, n := range nodes {
		ref := "M" + strconv.Itoa(i+1)
		refs[ref] = n.Node.ID
		view[i] = promptNode{Ref: ref, Type: string(n.Node.Type), Name: n.Node.Name, Content: n.Node.Content,
			Time: NodeTime(n.Node), Score: n.Score, Depth: n.Depth, Expanded: n.Expanded}
	}
	return refs, view
}

// Wire types of the read path and the auditor; as for construction, every field is
// required and "" or [] stands for none.

type wirePlans struct {
	Plans []wirePlan `json:"plans"`
}

type wirePlan struct {
	Query    string   `json:"query"`
	Keywords []string `json:"keywords"`
	Types    []string `json:"types"`
	From     string   `json:"from"`
	To       string   `json:"to"`
	Mode     string   `json:"mode"`
	Said     bool     `json:"said" wire:"optional"`
	Latest   bool     `json:"latest" wire:"optional"`
}

type wireSufficiency struct {
	IsEnough      bool     `json:"is_enough"`
	NodesToExpand []string `json:"nodes_to_expand"`
	Reason        string   `json:"reason"`
}

type wirePolicy struct {
	Mode            string   `json:"mode"`
	Predicates      []string `json:"predicates"`
	DecayTime       string   `json:"decay_time"`
	DecayDays       float64  `json:"decay_days"`
	DecayMode       string   `json:"decay_mode"`
	MissingTime     string   `json:"missing_time"`
	ConflictInhibit bool     `json:"conflict_inhibit"`
	Reasoning       string   `json:"reasoning"`
}

type wireAudit struct {
	Labels []wireLabel `json:"labels"`
	Edits  []wireEdit  `json:"edits"`
}

type wireLabel struct {
	Node  string `json:"node"`
	Label string `json:"label"`
}

type wireEdit struct {
	From       string  `json:"from"`
	To         string  `json:"to"`
	Action     string  `json:"action"`
	Predicate  string  `json:"predicate"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
}

func enumOf[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

func predicateNames() []string { return enumOf(realm.Predicates...) }

func planFormat() *openai.ChatCompletionResponseFormat {
	plan := strictObject(map[string]jsonschema.Definition{
		"query":    schemaString,
		"keywords": schemaStrings,
		"types":    {Type: jsonschema.Array, Items: &jsonschema.Definition{Type: jsonschema.String, Enum: enumOf(realm.NodeTypes...)}},
		"from":     {Type: jsonschema.String, Description: "YYYY-MM-DD or \"\" when the question sets no time"},
		"to":       {Type: jsonschema.String, Description: "YYYY-MM-DD or \"\""},
		"mode":     {Type: jsonschema.String, Enum: enumOf(realm.QueryMatch, realm.KeywordsMatch, realm.HybridMatch)},
		"said":     {Type: jsonschema.Boolean, Description: "true when the question asks what was said in the conversations of from–to"},
		"latest":   {Type: jsonschema.Boolean, Description: "true when the question asks for the most recent of what it matches"},
	})
	root := strictObject(map[string]jsonschema.Definition{"plans": {Type: jsonschema.Array, Items: &plan}})
	return jsonSchemaFormat("realm_plans", &root)
}

func sufficiencyFormat() *openai.ChatCompletionResponseFormat {
	root := strictObject(map[string]jsonschema.Definition{
		"is_enough":       {Type: jsonschema.Boolean},
		"nodes_to_expand": {Type: jsonschema.Array, Items: &jsonschema.Definition{Type: jsonschema.String}, Description: "at most 5 refs M<k>; [] when is_enough"},
		"reason":          schemaString,
	})
	return jsonSchemaFormat("realm_sufficiency", &root)
}

func policyFormat() *openai.ChatCompletionResponseFormat {
	root := strictObject(map[string]jsonschema.Definition{
		"mode":             {Type: jsonschema.String, Enum: enumOf(realm.PathSearch, realm.SubgraphBeam)},
		"predicates":       {Type: jsonschema.Array, Items: &jsonschema.Definition{Type: jsonschema.String, Enum: predicateNames()}, Description: "[] allows all"},
		"decay_time":       {Type: jsonschema.String, Description: "YYYY-MM-DD the question is about, or \"\" for no temporal decay"},
		"decay_days":       {Type: jsonschema.Number, Description: "width of the window in days; 0 when decay_time is \"\""},
		"decay_mode":       {Type: jsonschema.String, Enum: []string{realm.DecayHard, realm.DecaySoft, ""}},
		"missing_time":     {Type: jsonschema.String, Enum: []string{"keep", "drop", ""}},
		"conflict_inhibit": {Type: jsonschema.Boolean},
		"reasoning":        schemaString,
	})
	return jsonSchemaFormat("realm_policy", &root)
}

func auditFormat() *openai.ChatCompletionResponseFormat {
	label := strictObject(map[string]jsonschema.Definition{
		"node":  {Type: jsonschema.String, Description: "a ref M<k>"},
		"label": {Type: jsonschema.String, Enum: enumOf(realm.KeyEvidence, realm.SupportingContext, realm.Misleading, realm.Unrelated)},
	})
	edit := strictObject(map[string]jsonschema.Definition{
		"from":       {Type: jsonschema.String, Description: "a ref M<k>"},
		"to":         {Type: jsonschema.String, Description: "a ref M<k>"},
		"action":     {Type: jsonschema.String, Enum: enumOf(realm.EditAdd, realm.EditStrengthen, realm.EditWeaken)},
		"predicate":  {Type: jsonschema.String, Enum: predicateNames()},
		"confidence": {Type: jsonschema.Number, Description: "0 to 1"},
		"reason":     schemaString,
	})
	root := strictObject(map[string]jsonschema.Definition{
		"labels": {Type: jsonschema.Array, Items: &label},
		"edits":  {Type: jsonschema.Array, Items: &edit},
	})
	return jsonSchemaFormat("realm_audit", &root)
}

func parsePlans(content string, loc *time.Location) ([]realm.Plan, error) {
	var w wirePlans
	if err := decodeJSON(content, &w); err != nil {
		return nil, err
	}
	var bad problems
	switch {
	case len(w.Plans) == 0:
		bad.addf("plans is empty: give 1 to %d plans", maxPlans)
	case len(w.Plans) > maxPlans:
		bad.addf("%d plans: give at most %d", len(w.Plans), maxPlans)
	}
	var out []realm.Plan
	for i, wp := range w.Plans {
		p := realm.Plan{Query: strings.TrimSpace(wp.Query), Keywords: nonEmpty(wp.Keywords), Mode: realm.MatchMode(wp.Mode), Latest: wp.Latest}
		if p.Query == "" {
			bad.addf("plans[%d].query is empty", i)
		}
		if !p.Mode.Valid() {
			bad.addf("plans[%d].mode %q is not query_match, keywords_match or hybrid_match", i, wp.Mode)
		}
		if p.Mode == realm.KeywordsMatch && len(p.Keywords) == 0 {
			bad.addf("plans[%d]: keywords_match without keywords", i)
		}
		if len(p.Keywords) > maxPlanKeywords {
			p.Keywords = p.Keywords[:maxPlanKeywords]
		}
		for _, t := range wp.Types {
			if nt := realm.NodeType(t); nt.Valid() {
				p.Types = append(p.Types, nt)
			} else {
				bad.addf("plans[%d].types: %q is not entity, event, episode or fact", i, t)
			}
		}
		from, err := parseDate(wp.From, loc)
		if err != nil {
			bad.addf("plans[%d].from: %v", i, err)
		}
		to, err := parseDate(wp.To, loc)
		if err != nil {
			bad.addf("plans[%d].to: %v", i, err)
		}
		if from != nil || to != nil {
			p.TimeRange = &realm.TimeRange{}
			if from != nil {
				p.TimeRange.From = *from
			}
			if to != nil {
				p.TimeRange.To = to.Add(24*time.Hour - time.Nanosecond) // the whole last day
			}
			if from != nil && to != nil && to.Before(*from) {
				bad.addf("plans[%d]: to is before from", i)
			}
		}
		switch {
		case wp.Said && (from == nil || to == nil):
			bad.addf("plans[%d]: said needs from and to", i)
		case wp.Said && p.TimeRange.To.Sub(p.TimeRange.From) <= agent.MaxSaidIn:
			said := *p.TimeRange
			p.SaidIn = &said
		}
		out = append(out, p)
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func parseSufficiency(content string, refs map[string]string) (agent.Sufficiency, error) {
	var w wireSufficiency
	if err := decodeJSON(content, &w); err != nil {
		return agent.Sufficiency{}, err
	}
	var bad problems
	out := agent.Sufficiency{IsEnough: w.IsEnough, Reason: strings.TrimSpace(w.Reason)}
	if len(w.NodesToExpand) > maxToExpand {
		bad.addf("nodes_to_expand names %d nodes: at most %d", len(w.NodesToExpand), maxToExpand)
	}
	seen := map[string]bool{}
	for _, ref := range w.NodesToExpand {
		ref = strings.TrimSpace(ref)
		id, ok := refs[ref]
		if !ok {
			bad.addf("nodes_to_expand: %q is not a listed node", ref)
			continue
		}
		if !seen[id] {
			seen[id] = true
			out.NodesToExpand = append(out.NodesToExpand, id)
		}
	}
	if err := bad.err(); err != nil {
		return agent.Sufficiency{}, err
	}
	if out.IsEnough {
		out.NodesToExpand = nil
	}
	return out, nil
}

func parsePolicy(content string, loc *time.Location) (agent.Policy, error) {
	var w wirePolicy
	if err := decodeJSON(content, &w); err != nil {
		return agent.Policy{}, err
	}
	var bad problems
	out := agent.Policy{Atom: realm.Atom{Mode: realm.ExpansionMode(w.Mode), ConflictInhibit: w.ConflictInhibit}, Reasoning: strings.TrimSpace(w.Reasoning)}
	if !out.Atom.Mode.Valid() {
		bad.addf("mode %q is not path_search or subgraph_beam", w.Mode)
	}
	if out.Reasoning == "" {
		bad.addf("reasoning is empty: say what the expansion looks for")
	}
	for _, p := range w.Predicates {
		if pr := realm.Predicate(p); pr.Valid() {
			out.Atom.Predicates = append(out.Atom.Predicates, pr)
		} else {
			bad.addf("predicates: %q is not one of the fifteen", p)
		}
	}
	at, err := parseDate(w.DecayTime, loc)
	switch {
	case err != nil:
		bad.addf("decay_time: %v", err)
	case at != nil:
		d := realm.TemporalDecay{Time: *at, DeltaT: time.Duration(w.DecayDays * float64(24*time.Hour)), Mode: w.DecayMode, MissingTime: w.MissingTime}
		if d.DeltaT <= 0 {
			bad.addf("decay_days %v: a window of a positive number of days", w.DecayDays)
		}
		if d.Mode != realm.DecayHard && d.Mode != realm.DecaySoft {
			bad.addf("decay_mode %q: hard or soft with a decay_time", w.DecayMode)
		}
		if d.MissingTime == "" {
			d.MissingTime = "keep"
		}
		out.Atom.Decay = &d
	}
	if err := bad.err(); err != nil {
		return agent.Policy{}, err
	}
	return out, nil
}

func parseAudit(content string, refs map[string]string) (agent.AuditOutput, error) {
	var w wireAudit
	if err := decodeJSON(content, &w); err != nil {
		return agent.AuditOutput{}, err
	}
	var bad problems
	out := agent.AuditOutput{Labels: map[string]realm.NodeLabel{}}
	for i, l := range w.Labels {
		id, ok := refs[strings.TrimSpace(l.Node)]
		label := realm.NodeLabel(l.Label)
		switch {
		case !ok:
			bad.addf("labels[%d].node %q is not a listed node", i, l.Node)
		case !label.Valid():
			bad.addf("labels[%d].label %q is not key_evidence, supporting_context, misleading or unrelated", i, l.Label)
		default:
			out.Labels[id] = label
		}
	}
	for ref, id := range refs {
		if _, ok := out.Labels[id]; !ok {
			bad.addf("node %s has no label", ref)
		}
	}
	for i, e := range w.Edits {
		from, okF := refs[strings.TrimSpace(e.From)]
		to, okT := refs[strings.TrimSpace(e.To)]
		p := realm.EditProposal{From: from, To: to, Action: realm.EditAction(e.Action), Predicate: realm.Predicate(e.Predicate),
			Confidence: e.Confidence, Reason: strings.TrimSpace(e.Reason)}
		switch {
		case !okF || !okT:
			bad.addf("edits[%d]: from %q and to %q must both be listed nodes", i, e.From, e.To)
		case from == to:
			bad.addf("edits[%d]: from and to are the same node", i)
		case p.Action != realm.EditAdd && p.Action != realm.EditStrengthen && p.Action != realm.EditWeaken:
			bad.addf("edits[%d].action %q is not add, strengthen or weaken", i, e.Action)
		case !p.Predicate.Valid():
			bad.addf("edits[%d].predicate %q is not one of the fifteen", i, e.Predicate)
		case p.Confidence < 0 || p.Confidence > 1:
			bad.addf("edits[%d].confidence %v is outside [0, 1]", i, e.Confidence)
		default:
			out.Edits = append(out.Edits, p)
		}
	}
	if err := bad.err(); err != nil {
		return agent.AuditOutput{}, err
	}
	out.Judged = true
	return out, nil
}
