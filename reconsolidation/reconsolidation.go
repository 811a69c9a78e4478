package reconsolidation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// Reconsolidator audits a traced recall and applies the validated edits (REALM.md §4).
// It is safe for concurrent use: the store serializes overlapping reconsolidations.
type Reconsolidator struct {
	store   *cypher.Store
	auditor agent.Agent
	cfg     Config
	log     zerolog.Logger
	now     func() time.Time
	// edits, when set, learns of every edit applied or reverted (ObserveEdits).
	edits func(source string, edits []realm.Edit)
	// giving holds the traces whose feedback this process is applying (shared by the
	// copies ObserveEdits makes).
	giving *traceSet
}

// traceSet is a set of traces, safe for concurrent use.
type traceSet struct {
	mu sync.Mutex
	m  map[string]bool
}

// add adds the trace of space and reports whether it was not there yet.
func (s *traceSet) add(space, traceID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := space + "\x00" + traceID
	if s.m[k] {
		return false
	}
	s.m[k] = true
	return true
}

func (s *traceSet) remove(space, traceID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, space+"\x00"+traceID)
}

// New returns a Reconsolidator; cfg must be valid (Config.Validate).
func New(store *cypher.Store, auditor agent.Agent, cfg Config, logger zerolog.Logger) *Reconsolidator {
	return &Reconsolidator{store: store, auditor: auditor, cfg: cfg, log: logger, now: time.Now, giving: &traceSet{m: map[string]bool{}}}
}

// EditsReverted is the source ObserveEdits reports for the edits a revert undid.
const EditsReverted = "revert"

// ObserveEdits returns a Reconsolidator like r that calls fn with the edits of every
// reconsolidation once applied (source realm.EditSourceAuto or EditSourceFeedback) and
// of every revert (source EditsReverted). It is how cmd turns them into metrics.
func (r *Reconsolidator) ObserveEdits(fn func(source string, edits []realm.Edit)) *Reconsolidator {
	c := *r
	c.edits = fn
	return &c
}

// Request is what one reconsolidation of a trace is given: the answer (may be empty or
// wrong), the ids of the recalled nodes the answer cites, and the client's feedback, if
// any. Feedback.Answer, when set, replaces Answer. Cited is the system's own signal (the
// answerer's citations), never confirmed feedback.
type Request struct {
	Answer   string
	Cited    []string
	Feedback *realm.Feedback
	Source   string // realm.EditSourceAuto or realm.EditSourceFeedback; empty: feedback when Feedback is set
}

// Result is what one reconsolidation did.
type Result struct {
	ReconsolidationID string                     `json:"reconsolidation_id"`
	TraceID           string                     `json:"trace_id"`
	Confirmed         bool                       `json:"confirmed"` // η, not η/2
	Labels            map[string]realm.NodeLabel `json:"labels"`
	Edits             []realm.Edit               `json:"edits"`    // applied, one per directed edge
	Rejected          []agent.Rejection          `json:"rejected"` // proposals not applied, and why
	Usage             realm.Usage                `json:"usage"`
}

// Reconsolidate loads the trace of the space (its query, returned nodes with their scores
// and first depths) and the edges among those nodes as they are now, audits them with
// req, and applies the valid edits in one transaction. It returns ENotFound for an
// unknown trace, EInvalid for feedback that names nodes the trace did not return (or one
// both useful and misleading), and EConflict for a trace's second feedback.
func (r *Reconsolidator) Reconsolidate(ctx context.Context, space, traceID string, req Request) (Result, error) {
	if req.Feedback != nil {
		if err := req.Feedback.Validate(); err != nil {
			return Result{}, err
		}
	}
	in, err := r.loadInput(ctx, space, traceID)
	if err != nil {
		return Result{}, err
	}
	in.Answer, in.Cited, in.Feedback = req.Answer, req.Cited, req.Feedback
	if req.Feedback != nil {
		if req.Feedback.Answer != "" {
			in.Answer = req.Feedback.Answer
		}
		if err := checkRecalled(in, *req.Feedback); err != nil {
			return Result{}, err
		}
		if err := r.noFeedbackYet(ctx, space, traceID); err != nil {
			return Result{}, err
		}
		// Two feedbacks sent at once both pass noFeedbackYet, and the store refuses the
		// second one's edits only after its audit (a model call on the LLM path): refused
		// here, before it, when both reach this process.
		if !r.giving.add(space, traceID) {
			return Result{}, realm.Errorf(realm.EConflict, "trace %s: other feedback on it is being applied; send this one again once that one has answered", traceID)
		}
		defer r.giving.remove(space, traceID)
	}
	source := req.Source
	if source == "" {
		source = realm.EditSourceAuto
		if req.Feedback != nil {
			source = realm.EditSourceFeedback
		}
	}
	return r.ReconsolidateInput(ctx, space, traceID, in, source)
}

// maxPlans bounds the audits of one reconsolidation whose edits keep finding the edges
// changed (cypher.ErrEditsStale): each time, another reconsolidation of the same memories
// was applied between its audit and its apply, so n feedbacks sent at once settle in at
// most n plans; past this bound the client is asked to send it again.
const maxPlans = 8

// ReconsolidateInput audits in (already loaded, e.g. by a caller that holds the recall
// result) and applies the valid edits in one transaction, logged under traceID and source.
// When another reconsolidation changed the edges among the nodes between the audit and
// the apply, the edges are read again and audited anew: concurrent reconsolidations
// are applied one after the other, each as it would have been alone (two feedbacks on
// one question: the second strengthens the link the first added, instead of finding its
// own add done). EConflict when they kept changing for maxPlans audits.
func (r *Reconsolidator) ReconsolidateInput(ctx context.Context, space, traceID string, in agent.AuditInput, source string) (Result, error) {
	res := Result{ReconsolidationID: uuid.NewString(), TraceID: traceID, Confirmed: in.Confirmed(), Usage: realm.Usage{}}
	for plan := 1; ; plan++ {
		err := r.auditAndApply(ctx, space, traceID, in, source, &res)
		if !errors.Is(err, cypher.ErrEditsStale) {
			return res, err
		}
		if plan == maxPlans {
			return res, realm.Errorf(realm.EConflict, "trace %s: the links among its memories changed under %d audits of it, by other reconsolidations applied at the same time; nothing was applied: send it again", traceID, maxPlans)
		}
		ids := make([]string, len(in.Nodes))
		for i, n := range in.Nodes {
			ids[i] = n.Node.ID
		}
		if in.Edges, err = r.store.InducedEdges(ctx, space, ids); err != nil {
			return res, err
		}
	}
}

// auditAndApply audits in and applies the valid edits (ReconsolidateInput), filling res;
// cypher.ErrEditsStale when in.Edges are no longer the edges among the nodes.
func (r *Reconsolidator) auditAndApply(ctx context.Context, space, traceID string, in agent.AuditInput, source string, res *Result) error {
	out, usage, err := r.auditor.Audit(ctx, in)
	res.Usage.Add(usage)
	if err != nil {
		return err
	}
	res.Labels = out.Labels
	links, grounded := learnedLinks(in, out, r.cfg.MaxLinks)
	edits := withLearnedLinks(links, grounded, out.Edits)
	valid, rejected := agent.ValidateEdits(in, edits)
	res.Rejected = rejected
	rule := r.cfg.Rule(res.Confirmed)
	var apply []realm.EditProposal
	for _, e := range valid {
		if _, ok := rule.Add(e.Confidence); e.Action == realm.EditAdd && !ok {
			res.Rejected = append(res.Rejected, agent.Rejection{Edit: e, Reason: fmt.Sprintf("add with confidence below c_min = %g", rule.CMin)})
			continue
		}
		apply = append(apply, e)
	}
	res.Edits, err = r.store.ApplyEdits(ctx, space, cypher.EditBatch{
		ReconsolidationID: res.ReconsolidationID, TraceID: traceID, Source: source,
		Time: r.now(), Edits: apply, NewWeight: rule.NewWeight, Step: rule.Step, Floor: rule.WMin,
	})
	if err != nil {
		return err
	}
	if r.edits != nil {
		r.edits(source, res.Edits)
	}
	r.log.Debug().Str("space", space).Str("trace_id", traceID).Str("reconsolidation_id", res.ReconsolidationID).
		Str("source", source).Bool("confirmed", res.Confirmed).Int("proposed", len(out.Edits)).
		Int("rejected", len(res.Rejected)).Int("applied", len(res.Edits)).Msg("reconsolidated")
	return nil
}

// Revert undoes the reconsolidation that id names (its id or one of its edits' ids); see
// cypher.Store.RevertReconsolidation. Reverting twice is a no-op.
func (r *Reconsolidator) Revert(ctx context.Context, space, id string) ([]realm.Edit, error) {
	edits, err := r.store.RevertReconsolidation(ctx, space, id, r.now())
	if err == nil && r.edits != nil {
		r.edits(EditsReverted, edits)
	}
	return edits, err
}

// noFeedbackYet refuses a trace's second feedback while its first one's edits stand: a
// client's retry would apply them twice (EConflict names the reconsolidation to revert
// for other feedback). Feedback that applied no edit leaves nothing to apply twice.
func (r *Reconsolidator) noFeedbackYet(ctx context.Context, space, traceID string) error {
	edits, _, err := r.store.ListEdits(ctx, space, realm.EditFilter{TraceID: traceID, Limit: realm.MaxEditLimit}, "")
	if err != nil {
		return err
	}
	for _, e := range edits {
		if e.Source == realm.EditSourceFeedback && !e.Reverted {
			return realm.Errorf(realm.EConflict, "trace %s already has feedback, reconsolidation %s: revert it (POST …/edits/%s/revert) to give other feedback",
				traceID, e.ReconsolidationID, e.ReconsolidationID)
		}
	}
	return nil
}

// loadInput reads the trace's query and returned nodes, and the edges among them now.
func (r *Reconsolidator) loadInput(ctx context.Context, space, traceID string) (agent.AuditInput, error) {
	t, err := r.store.Trace(ctx, space, traceID)
	if err != nil {
		return agent.AuditInput{}, err
	}
	ids := make([]string, 0, len(t.Scores))
	for _, s := range t.Scores {
		ids = append(ids, s.ID)
	}
	nodes, err := r.store.MemoriesByIDs(ctx, space, ids)
	if err != nil {
		return agent.AuditInput{}, err
	}
	byID := make(map[string]realm.Node, len(nodes))
	for _, n := range nodes {
		byID[n.ID] = n
	}
	in := agent.AuditInput{Query: t.Query}
	for _, s := range t.Scores { // best first; memories deleted since are left out
		if n, ok := byID[s.ID]; ok {
			in.Nodes = append(in.Nodes, realm.RecalledNode{Node: n, Score: s.Score, Depth: t.FirstDepth[s.ID]})
		}
	}
	if in.Edges, err = r.store.InducedEdges(ctx, space, ids); err != nil {
		return agent.AuditInput{}, err
	}
	return in, nil
}

// checkRecalled rejects feedback naming nodes the trace did not return, or one node both
// useful and misleading.
func checkRecalled(in agent.AuditInput, fb realm.Feedback) error {
	recalled := map[string]bool{}
	for _, n := range in.Nodes {
		recalled[n.Node.ID] = true
	}
	f := realm.FieldErrors{}
	for field, ids := range map[string][]string{"useful_node_ids": fb.UsefulNodeIDs, "misleading_node_ids": fb.MisleadingNodeIDs} {
		for _, id := range ids {
			if !recalled[id] {
				f.Add(field, fmt.Sprintf("%s is not among this trace's memories: not returned by it, or deleted since", id))
				break
			}
		}
	}
	for _, id := range fb.MisleadingNodeIDs {
		if slices.Contains(fb.UsefulNodeIDs, id) {
			f.Add("misleading_node_ids", fmt.Sprintf("%s is also marked useful", id))
			break
		}
	}
	return f.Err()
}
