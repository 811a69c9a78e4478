package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sashabaranov/go-openai/jsonschema"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// The wire types are what the model returns. Every field is required and "" or []
// stands for "none", because OpenAI's strict mode rejects optional properties; decodeJSON
// rejects a reply without one, except a field tagged wire:"optional": one the schema
// gained later, whose absence means none, as in a reply written for the schema before.

type wireExtraction struct {
	Summary    string          `json:"summary"`
	Candidates []wireCandidate `json:"candidates"`
}

type wireCandidate struct {
	Type         string   `json:"type"`
	Name         string   `json:"name"`
	Content      string   `json:"content"`
	Description  string   `json:"description"`
	Keywords     []string `json:"keywords"`
	TStart       string   `json:"t_start"`
	TEnd         string   `json:"t_end"`
	Aliases      []string `json:"aliases"`
	Category     string   `json:"category"`
	Role         string   `json:"role"`
	Participants []string `json:"participants"`
	Subject      string   `json:"subject"`
	Attribute    string   `json:"attribute"`
	AlsoFrom     []string `json:"also_from" wire:"optional"`
}

type wireIntegration struct {
	Decisions []wireDecision `json:"decisions"`
}

type wireDecision struct {
	Candidate     string     `json:"candidate"`
	Action        string     `json:"action"`
	MergeInto     string     `json:"merge_into"`
	MergedContent string     `json:"merged_content"`
	Reason        string     `json:"reason"`
	Edges         []wireEdge `json:"edges"`
}

type wireEdge struct {
	Op          string  `json:"op"`
	From        string  `json:"from"`
	To          string  `json:"to"`
	Predicate   string  `json:"predicate"`
	Weight      float64 `json:"weight"`
	Description string  `json:"description"`
	ValidUntil  string  `json:"valid_until" wire:"optional"`
}

// maxCandidates bounds the candidates taken from one extraction. Each becomes a memory and
// a part of the integration prompt, so a model listing hundreds for one message would
// store hundreds and send an integration prompt of as many; a message rarely says more
// than a handful of things. The prompt asks for at most this many, the most important
// first; the excess of an answer is dropped (logged, and counted as LLMDropped).
const maxCandidates = 20

// minEdgeWeight is the floor of the weakest band of REALM.md §1: below it, don't write.
const minEdgeWeight = 0.3

const selfRef = "self"

func strictObject(props map[string]jsonschema.Definition) jsonschema.Definition {
	required := make([]string, 0, len(props))
	for k := range props {
		required = append(required, k)
	}
	slices.Sort(required) // a stable request body, friendlier to prompt caches
	return jsonschema.Definition{Type: jsonschema.Object, Properties: props, Required: required, AdditionalProperties: false}
}

var (
	schemaString  = jsonschema.Definition{Type: jsonschema.String}
	schemaStrings = jsonschema.Definition{Type: jsonschema.Array, Items: &jsonschema.Definition{Type: jsonschema.String}}
)

func extractFormat() *openai.ChatCompletionResponseFormat {
	types := make([]string, len(realm.NodeTypes))
	for i, t := range realm.NodeTypes {
		types[i] = string(t)
	}
	candidate := strictObject(map[string]jsonschema.Definition{
		"type":         {Type: jsonschema.String, Enum: types},
		"name":         schemaString,
		"content":      schemaString,
		"description":  schemaString,
		"keywords":     schemaStrings,
		"t_start":      {Type: jsonschema.String, Description: "YYYY-MM-DD or RFC3339, \"\" when none"},
		"t_end":        {Type: jsonschema.String, Description: "YYYY-MM-DD or RFC3339, \"\" when none"},
		"aliases":      schemaStrings,
		"category":     {Type: jsonschema.String, Enum: []string{"person", "object", "place", "concept", ""}},
		"role":         schemaString,
		"participants": schemaStrings,
		"subject":      schemaString,
		"attribute":    schemaString,
		"also_from": {Type: jsonschema.Array, Items: &jsonschema.Definition{Type: jsonschema.String},
			Description: "refs O<k> of the recent observations the unit also derives from, e.g. the question an answer completes; [] when none"},
	})
	root := strictObject(map[string]jsonschema.Definition{
		"summary":    schemaString,
		"candidates": {Type: jsonschema.Array, Items: &candidate},
	})
	return jsonSchemaFormat("realm_extraction", &root)
}

func integrateFormat() *openai.ChatCompletionResponseFormat {
	preds := make([]string, len(realm.Predicates))
	for i, p := range realm.Predicates {
		preds[i] = string(p)
	}
	edge := strictObject(map[string]jsonschema.Definition{
		"op":          {Type: jsonschema.String, Enum: []string{agent.EdgeAdd, agent.EdgeModify, agent.EdgeDelete}},
		"from":        {Type: jsonschema.String, Description: "\"self\", a neighbour ref N<k> or a candidate ref C<i>"},
		"to":          {Type: jsonschema.String, Description: "\"self\", a neighbour ref N<k> or a candidate ref C<i>"},
		"predicate":   {Type: jsonschema.String, Enum: preds},
		"weight":      {Type: jsonschema.Number, Description: "0.3 to 1.0"},
		"description": schemaString,
		"valid_until": {Type: jsonschema.String, Description: "supersedes only: YYYY-MM-DD when the old node (to) stopped being true, \"\" when it ended when the observation says so; \"\" for every other predicate"},
	})
	decision := strictObject(map[string]jsonschema.Definition{
		"candidate":      {Type: jsonschema.String, Description: "the candidate ref, C<i>"},
		"action":         {Type: jsonschema.String, Enum: []string{agent.ActionAdd, agent.ActionMerge, agent.ActionSkip}},
		"merge_into":     {Type: jsonschema.String, Description: "neighbour ref N<k>: the one merged into, or for skip the one that already says all of it; \"\" for add"},
		"merged_content": schemaString,
		"reason":         {Type: jsonschema.String, Description: "for merge and skip: what the neighbour already holds; \"\" for add"},
		"edges":          {Type: jsonschema.Array, Items: &edge},
	})
	root := strictObject(map[string]jsonschema.Definition{
		"decisions": {Type: jsonschema.Array, Items: &decision},
	})
	return jsonSchemaFormat("realm_integration", &root)
}

func jsonSchemaFormat(name string, schema *jsonschema.Definition) *openai.ChatCompletionResponseFormat {
	return &openai.ChatCompletionResponseFormat{
		Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: name, Schema: schema, Strict: true},
	}
}

// problems collects validation errors so that one repair can fix them all.
type problems []string

func (p *problems) addf(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	const shown = 8
	if len(p) > shown {
		p = append(p[:shown:shown], fmt.Sprintf("and %d more", len(p)-shown))
	}
	return errors.New(strings.Join(p, "; "))
}

// decodeJSON unmarshals content into the wire type v points to, tolerating a Markdown
// code fence that some OpenAI-compatible servers add even in JSON mode. Every field of
// a wire type is required (strictObject): a reply lacking one answers another question,
// and decoding it would silently give the missing fields their zero values.
func decodeJSON(content string, v any) error {
	s := strings.TrimSpace(content)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("invalid JSON: %v", err)
	}
	var bad problems
	missingFields(json.RawMessage(s), reflect.TypeOf(v).Elem(), "", &bad)
	return bad.err()
}

// missingFields adds to bad the fields of the wire type t that data lacks, in data's
// nested objects too (at is the path of data). A field may be null; it must be there.
func missingFields(data json.RawMessage, t reflect.Type, at string, bad *problems) {
	switch t.Kind() {
	case reflect.Slice:
		var items []json.RawMessage
		_ = json.Unmarshal(data, &items) // the shape was checked by decoding into t
		for i, item := range items {
			missingFields(item, t.Elem(), fmt.Sprintf("%s[%d]", at, i), bad)
		}
	case reflect.Struct:
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(data, &fields)
		if at != "" {
			at += "."
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if raw, ok := fields[name]; !ok {
				if f.Tag.Get("wire") != "optional" {
					bad.addf("%s%s is missing", at, name)
				}
			} else {
				missingFields(raw, f.Type, at+name, bad)
			}
		}
	}
}

// parseDate accepts RFC3339, and a zone-less date-time or YYYY-MM-DD (midnight), read in
// loc: the observation's or the question's zone (the memory's days, REALM_TIME_ZONE).
func parseDate(s string, loc *time.Location) (*time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return &t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc); err == nil {
		return &t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		return &t, nil
	}
	return nil, fmt.Errorf("date %q is neither YYYY-MM-DD nor RFC3339", s)
}

// recentRef is the ref under which the extract prompt shows the i-th recent observation
// (oldest first): "O1", "O2", … Short refs rather than ids, as in the integrate prompt.
func recentRef(i int) string { return "O" + strconv.Itoa(i+1) }

// recentSources is what a candidate's also_from may name: a recent observation by the
// ref the prompt shows it under, or by its id. The observation extracted is not among
// them: it is always a source.
type recentSources struct {
	byRef, byID map[string]string // → observation id
}

func newRecentSources(in agent.ExtractInput) recentSources {
	s := recentSources{byRef: map[string]string{}, byID: map[string]string{}}
	for i, r := range in.Recent {
		if r.ID == "" || r.ID == in.Observation.ID {
			continue
		}
		s.byRef[recentRef(i)] = r.ID
		s.byID[r.ID] = r.ID
	}
	return s
}

// resolve maps names to observation ids, in order, once each; a ref wins over an id
// spelled the same, and a ref matches in any case ("o3"). What names no recent
// observation is dropped rather than sent back for repair: the candidate stands without
// it (and construction keeps only recent sources anyway).
func (s recentSources) resolve(names []string) []string {
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		id, ok := s.byRef[n]
		if !ok {
			id, ok = s.byID[n]
		}
		if !ok {
			id, ok = s.byRef[strings.ToUpper(n)]
		}
		if ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// parseExtraction validates an extraction's first maxCandidates candidates and says how
// many more it dropped.
func parseExtraction(content string, in agent.ExtractInput) (agent.Extraction, int, error) {
	var w wireExtraction
	if err := decodeJSON(content, &w); err != nil {
		return agent.Extraction{}, 0, err
	}
	dropped := max(len(w.Candidates)-maxCandidates, 0)
	w.Candidates = w.Candidates[:len(w.Candidates)-dropped]
	var bad problems
	out := agent.Extraction{Summary: strings.TrimSpace(w.Summary)}
	if out.Summary == "" {
		// An empty summary would erase the space's context; keep the old one.
		out.Summary = in.Summary
	}
	loc := in.Observation.ObservedAt.Location()
	sources := newRecentSources(in)
	for i, wc := range w.Candidates {
		c := agent.Candidate{
			Type:         realm.NodeType(wc.Type),
			Name:         strings.TrimSpace(wc.Name),
			Content:      strings.TrimSpace(wc.Content),
			Description:  strings.TrimSpace(wc.Description),
			Keywords:     nonEmpty(wc.Keywords),
			Participants: nonEmpty(wc.Participants),
			Subject:      strings.TrimSpace(wc.Subject),
			Attribute:    strings.TrimSpace(wc.Attribute),
			AlsoFrom:     sources.resolve(wc.AlsoFrom),
		}
		if !c.Type.Valid() {
			bad.addf("candidates[%d].type %q is not one of entity, event, episode, fact", i, wc.Type)
		}
		if c.Name == "" {
			bad.addf("candidates[%d].name is empty", i)
		}
		if c.Content == "" {
			bad.addf("candidates[%d].content is empty", i)
		}
		if len(c.Keywords) > 5 {
			c.Keywords = c.Keywords[:5]
		}
		var err error
		if c.TStart, err = parseDate(wc.TStart, loc); err != nil {
			bad.addf("candidates[%d].t_start: %v", i, err)
		}
		if c.TEnd, err = parseDate(wc.TEnd, loc); err != nil {
			bad.addf("candidates[%d].t_end: %v", i, err)
		}
		// A point in time has both ends equal (REALM.md §1).
		if c.TStart != nil && c.TEnd == nil {
			c.TEnd = c.TStart
		} else if c.TEnd != nil && c.TStart == nil {
			c.TStart = c.TEnd
		}
		if c.TStart != nil && c.TEnd.Before(*c.TStart) {
			bad.addf("candidates[%d]: t_end is before t_start", i)
		}
		if c.Type == realm.Entity {
			c.Aliases = nonEmpty(wc.Aliases)
			c.Category = wc.Category
			c.Role = strings.TrimSpace(wc.Role)
			switch c.Category {
			case "", "person", "object", "place", "concept":
			default:
				bad.addf("candidates[%d].category %q is not one of person, object, place, concept", i, wc.Category)
			}
		}
		out.Candidates = append(out.Candidates, c)
	}
	if err := bad.err(); err != nil {
		return agent.Extraction{}, 0, err
	}
	return out, dropped, nil
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// integrateRequest is one integrate call: the candidates to decide, the refs the model
// may use, and the prompt view.
type integrateRequest struct {
	n          int               // candidates in the observation
	decide     map[int]bool      // indexes decided by this call
	neighbours map[string]string // neighbour ref → node id
	own        map[int]map[string]bool
	view       integrateView
	loc        *time.Location // the observation's zone, for valid_until dates
}

func candRef(i int) string { return "C" + strconv.Itoa(i) }

func newIntegrateRequest(in agent.IntegrateInput, decide []int) *integrateRequest {
	r := &integrateRequest{
		n:          len(in.Candidates),
		decide:     map[int]bool{},
		neighbours: map[string]string{},
		own:        map[int]map[string]bool{},
		loc:        in.Observation.ObservedAt.Location(),
		view: integrateView{
			Time:    in.Observation.ObservedAt.Format(time.RFC3339),
			Speaker: speakerOf(in.Observation),
			Content: in.Observation.Content,
		},
	}
	refOf := map[string]string{} // node id → ref, so a node shared by candidates has one ref
	for _, i := range decide {
		r.decide[i] = true
		cc := in.Candidates[i]
		u := candidateUnit(i, cc.Candidate)
		r.own[i] = map[string]bool{}
		for _, nb := range cc.Neighbours {
			ref, ok := refOf[nb.Node.ID]
			if !ok {
				ref = "N" + strconv.Itoa(len(refOf)+1)
				refOf[nb.Node.ID] = ref
				r.neighbours[ref] = nb.Node.ID
			}
			r.own[i][ref] = true
			u.Neighbours = append(u.Neighbours, promptUnit{
				Ref: ref, Type: string(nb.Node.Type), Name: nb.Node.Name, Content: nb.Node.Content,
				Time: SpanText(nb.Node.TStart, nb.Node.TEnd), Tags: neighbourTags(nb), ValidUntil: dayText(nb.Node.ValidUntil),
			})
		}
		r.view.Decide = append(r.view.Decide, u)
	}
	for i, cc := range in.Candidates {
		if !r.decide[i] {
			r.view.Others = append(r.view.Others, candidateUnit(i, cc.Candidate))
		}
	}
	return r
}

func candidateUnit(i int, c agent.Candidate) promptUnit {
	return promptUnit{
		Ref: candRef(i), Type: string(c.Type), Name: c.Name, Content: c.Content,
		Time: SpanText(c.TStart, c.TEnd), Keywords: strings.Join(c.Keywords, ", "),
	}
}

// parse validates the model's decisions against the request: every candidate decided
// once, merge targets among the candidate's own neighbours, predicates whitelisted,
// refs that exist, weights in [0,1]. Harmless excess (edges on a skip, edges below the
// weight floor, self-loops) is dropped rather than sent back for repair.
func (r *integrateRequest) parse(content string) ([]agent.Integration, error) {
	var w wireIntegration
	if err := decodeJSON(content, &w); err != nil {
		return nil, err
	}
	var bad problems
	out := make([]agent.Integration, r.n)
	seen := map[int]bool{}
	for di, d := range w.Decisions {
		i, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(d.Candidate), "C"))
		if err != nil || !r.decide[i] {
			bad.addf("decisions[%d].candidate %q is not a candidate to decide", di, d.Candidate)
			continue
		}
		if seen[i] {
			bad.addf("candidate %s is decided twice", candRef(i))
			continue
		}
		seen[i] = true
		var in agent.Integration
		switch d.Action {
		case agent.ActionAdd:
			in.Action = d.Action
		case agent.ActionMerge, agent.ActionSkip:
			// Nothing said may be lost: a merge or a skip names the neighbour that holds
			// the candidate, and says why.
			in.Action = d.Action
			ref := strings.TrimSpace(d.MergeInto)
			if !r.own[i][ref] {
				bad.addf("decisions[%d].merge_into %q is not a neighbour of candidate %s (a %s names the neighbour that holds it)", di, d.MergeInto, candRef(i), d.Action)
				continue
			}
			if in.Reason = strings.TrimSpace(d.Reason); in.Reason == "" {
				bad.addf("decisions[%d].reason is empty: a %s says what neighbour %s already holds", di, d.Action, ref)
				continue
			}
			in.MergeInto = r.neighbours[ref]
			if d.Action == agent.ActionMerge {
				in.Merged = strings.TrimSpace(d.MergedContent)
			}
		default:
			bad.addf("decisions[%d].action %q is not add, merge or skip", di, d.Action)
			continue
		}
		if in.Action != agent.ActionSkip {
			in.Edges = r.parseEdges(di, i, in.MergeInto, d.Edges, &bad)
		}
		out[i] = in
	}
	for i := range r.decide {
		if !seen[i] {
			bad.addf("candidate %s has no decision", candRef(i))
		}
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (r *integrateRequest) parseEdges(di, cand int, mergeInto string, edges []wireEdge, bad *problems) []agent.EdgeOp {
	var out []agent.EdgeOp
	for ei, e := range edges {
		at := fmt.Sprintf("decisions[%d].edges[%d]", di, ei)
		op := agent.EdgeOp{Op: e.Op, Predicate: realm.Predicate(e.Predicate), Weight: e.Weight, Description: strings.TrimSpace(e.Description)}
		ok := true
		if until, err := parseDate(e.ValidUntil, r.loc); err != nil {
			bad.addf("%s.valid_until: %v", at, err)
			ok = false
		} else if op.Predicate == realm.Supersedes {
			op.ValidUntil = until
		}
		switch e.Op {
		case agent.EdgeAdd, agent.EdgeModify, agent.EdgeDelete:
		default:
			bad.addf("%s.op %q is not add, modify or delete", at, e.Op)
			ok = false
		}
		if !op.Predicate.Valid() {
			bad.addf("%s.predicate %q is not an allowed predicate", at, e.Predicate)
			ok = false
		}
		if math.IsNaN(e.Weight) || e.Weight < 0 || e.Weight > 1 {
			bad.addf("%s.weight %v is outside [0, 1]", at, e.Weight)
			ok = false
		}
		var fromOK, toOK bool
		op.From, fromOK = r.resolve(cand, e.From)
		op.To, toOK = r.resolve(cand, e.To)
		if !fromOK {
			bad.addf("%s.from %q is not self, a listed neighbour or a candidate", at, e.From)
		}
		if !toOK {
			bad.addf("%s.to %q is not self, a listed neighbour or a candidate", at, e.To)
		}
		if fromOK && toOK && op.From != agent.Self && op.To != agent.Self {
			bad.addf("%s has neither from nor to equal to \"self\"", at)
			ok = false
		}
		if !ok || !fromOK || !toOK {
			continue
		}
		if e.Op != agent.EdgeDelete && e.Weight < minEdgeWeight {
			continue // too weak to write (REALM.md §1)
		}
		if endpoint(op.From, mergeInto) == endpoint(op.To, mergeInto) {
			continue // a self-loop, e.g. self → the neighbour self merges into
		}
		out = append(out, op)
	}
	return out
}

// resolve maps a model ref to an EdgeOp end: Self, CandidateRef(i) or a node id.
func (r *integrateRequest) resolve(cand int, ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if strings.EqualFold(ref, selfRef) {
		return agent.Self, true
	}
	if id, ok := r.neighbours[ref]; ok {
		return id, true
	}
	if rest, ok := strings.CutPrefix(ref, "C"); ok {
		if i, err := strconv.Atoi(rest); err == nil && i >= 0 && i < r.n {
			if i == cand {
				return agent.Self, true
			}
			return agent.CandidateRef(i), true
		}
	}
	return "", false
}

func endpoint(end, mergeInto string) string {
	if end == agent.Self && mergeInto != "" {
		return mergeInto
	}
	return end
}

// dropEdgesToSkipped removes edges to candidates that were skipped: they become no node.
func dropEdgesToSkipped(ins []agent.Integration) []agent.Integration {
	skipped := map[string]bool{}
	for i, in := range ins {
		if in.Action == agent.ActionSkip {
			skipped[agent.CandidateRef(i)] = true
		}
	}
	if len(skipped) == 0 {
		return ins
	}
	for i := range ins {
		kept := ins[i].Edges[:0:0]
		for _, e := range ins[i].Edges {
			if !skipped[e.From] && !skipped[e.To] {
				kept = append(kept, e)
			}
		}
		ins[i].Edges = kept
	}
	return ins
}
