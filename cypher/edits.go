package cypher

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// EditBatch is the validated edits of one reconsolidation (REALM.md §4.4).
type EditBatch struct {
	ReconsolidationID string
	TraceID           string
	Source            string // realm.EditSourceAuto or realm.EditSourceFeedback
	Time              time.Time
	Edits             []realm.EditProposal
	// NewWeight is the update rule (REALM.md §4.3, owned by the reconsolidation package):
	// ApplyEdits uses it for the weight of an added edge, NewWeight(add, 0, c).
	NewWeight func(action realm.EditAction, old, c float64) float64
	// Step is the same rule for strengthen and weaken as a step toward a target,
	// new = old + rate·(target − old) kept in [Floor, 1], which must equal NewWeight to the
	// bit: ApplyEdits computes the new weights inside its one statement (edit_batch), from
	// the weights read under the edges' write locks.
	Step  func(action realm.EditAction, c float64) (rate, target float64)
	Floor float64
}

// ApplyEdits applies every edit of b in one statement (edit_batch, in the transaction of
// writeSpace, which refuses a space an import holds with EConflict) and logs each change of a directed edge as an (:Edit) of the space; it
// returns the logged edits in order, as the graph snapshot of the space this process
// holds starts to follow them in the background (followInBackground).
//
// The statement locks the space's node (moving its graph_version, graphcache.go), then
// the memories the batch touches, in id order, then the edges of every edit, and applies
// the edits in order to the weights read under those locks (an edge edited twice is
// edited from its first new weight). Concurrent reconsolidations of
// overlapping subgraphs thus lose no update, and two concurrent adds write one edge; a
// deadlock runs the statement again. A symmetric predicate's edit changes both
// directions. An add between memories not both of the space is skipped and not logged.
// The edits are taken as planned on the edges as they are: when one finds its edge
// otherwise under the locks (an add, one already there; a strengthen or weaken, none),
// another write changed them since it was planned, and the batch applies nothing and
// returns ErrEditsStale, to plan again. A feedback batch (Source realm.EditSourceFeedback)
// is refused with EConflict, under the space's lock, when its trace's earlier feedback
// edits stand.
func (s *Store) ApplyEdits(ctx context.Context, space string, b EditBatch) ([]realm.Edit, error) {
	if b.NewWeight == nil || b.Step == nil {
		return nil, fmt.Errorf("apply edits: no update rule")
	}
	ops := directedEdits(b.Edits)
	if len(ops) == 0 {
		return nil, nil
	}
	for _, op := range ops {
		if !op.Predicate.Valid() || !op.Action.Valid() {
			return nil, realm.Errorf(realm.EInvalid, "edit %s→%s: action %q, predicate %q", op.From, op.To, op.Action, op.Predicate)
		}
	}
	now := b.Time.UTC()
	if b.Time.IsZero() {
		now = time.Now().UTC()
	}
	done := s.graphs.writing(space)
	recs, err := s.writeSpace(ctx, space, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(ctx, tx, qEditBatch, editBatchParams(space, b, ops, now))
	})
	if err != nil || len(recs) == 0 {
		done()
		if err == nil {
			err = realm.Errorf(realm.EConflict, "trace %s already has feedback, given at the same time as this one", b.TraceID)
		}
		return nil, err
	}
	if boolean(recs[0], "stale") {
		done()
		return nil, ErrEditsStale
	}
	s.followInBackground(space, graphMove{before: str(recs[0], "before"), after: str(recs[0], "after"), ids: memoryIDsOf(ops)}, done)
	v, _ := recs[0].Get("logged")
	var applied []realm.Edit
	for _, x := range asList(v) {
		m, _ := x.(map[string]any)
		op := ops[int(propFloat(m, "op"))]
		e := realm.Edit{
			ID: propString(m, "id"), Space: space, TraceID: b.TraceID, ReconsolidationID: b.ReconsolidationID, Source: b.Source, Time: now,
			EdgeID: propString(m, "edge_id"), From: op.From, To: op.To, Predicate: op.Predicate, Action: op.Action, Confidence: op.Confidence,
			NewWeight: propFloat(m, "new_weight"), Query: op.Query, Label: op.Label,
		}
		if w, ok := m["old_weight"].(float64); ok {
			e.OldWeight = &w
		}
		applied = append(applied, e)
	}
	return applied, nil
}

// ErrEditsStale is ApplyEdits' error for edits planned on edges that another write has
// changed since: an add of an edge now there, a strengthen or weaken of one now gone. Two
// feedbacks on one question, audited at once, both plan the same learned link; the one
// applied second would add nothing, where given after the first it strengthens it.
var ErrEditsStale = realm.Errorf(realm.EConflict, "the edges these edits were planned on changed before they could be applied")

// editBatchParams are edit_batch's parameters for the directed edits ops of b.
func editBatchParams(space string, b EditBatch, ops []realm.EditProposal, now time.Time) map[string]any {
	keys, pairs := editPairs(ops)
	index := make(map[edgeKey]int64, len(keys))
	for i, k := range keys {
		index[k] = int64(i)
	}
	params := make([]any, len(ops))
	for i, op := range ops {
		k := edgeKey{op.From, op.To, op.Predicate.RelType()}
		log := map[string]any{
			"trace_id": b.TraceID, "reconsolidation_id": b.ReconsolidationID, "from": op.From, "to": op.To, "predicate": string(op.Predicate),
			"action": string(op.Action), "confidence": op.Confidence, "created_at": now, "source": b.Source,
		}
		if op.Query != "" { // the log tells a learned link from an edge every query walks
			// query_held: the retention's sweep finds the edits holding a query's text by it
			// (learned_expiring, edit_erase_orphaned).
			log["query"], log["label"], log["query_held"] = op.Query, string(op.Label), true
		}
		p := map[string]any{"pair": index[k], "action": string(op.Action), "from": op.From, "to": op.To, "add": nil, "rate": 0.0, "target": 0.0, "log": log}
		if op.Action == realm.EditAdd {
			description, query, label := addedEdge(op)
			p["add"] = map[string]any{
				"edge_id": addedEdgeID(space, k), "type": k.relType, "layer": op.Predicate.Layer(), "description": description, "query": query,
				"label": label, "weight": b.NewWeight(realm.EditAdd, 0, op.Confidence), "confidence": op.Confidence,
			}
		} else {
			p["rate"], p["target"] = b.Step(op.Action, op.Confidence)
		}
		params[i] = p
	}
	var feedbackOf any // a feedback is applied once per trace while its edits stand
	if b.Source == realm.EditSourceFeedback {
		feedbackOf = b.TraceID
	}
	return map[string]any{"space": space, "now": now, "floor": b.Floor, "feedback_of": feedbackOf, "ids": memoryIDsOf(ops), "pairs": pairs, "ops": params}
}

// addedEdgeID is the id of the edge an add writes, derived as ingestion's are (DerivedID):
// an add writes an edge only where its (from, to, type) has none, so the key names one edge
// at a time, and the same feedback given twice over the same graph makes the same edges,
// which break ties in the read path's orders the same way.
func addedEdgeID(space string, k edgeKey) string {
	return DerivedID(space, "added\x00"+k.from+"\x00"+k.to+"\x00"+k.relType)
}

// addedEdge is the description, query and label an add writes: a learned link (op.Query
// set) carries its query as description (until its trace's retention ends: ExpireTraces),
// the others the reason.
func addedEdge(op realm.EditProposal) (description string, query, label any) {
	description = op.Reason
	if op.Query != "" {
		description, query, label = op.Query, op.Query, string(op.Label)
	}
	if description == "" {
		description = "added by reconsolidation"
	}
	return description, query, label
}

// edgeKey is the directed pair and type an edit addresses.
type edgeKey struct{ from, to, relType string }

// editPairs returns the distinct edgeKeys of ops, and the same as the read statement's
// $pairs (i: the key's index).
func editPairs(ops []realm.EditProposal) ([]edgeKey, []any) {
	var keys []edgeKey
	var pairs []any
	seen := map[edgeKey]bool{}
	for _, op := range ops {
		k := edgeKey{op.From, op.To, op.Predicate.RelType()}
		if !seen[k] {
			seen[k] = true
			pairs = append(pairs, map[string]any{"i": int64(len(keys)), "from": k.from, "to": k.to, "type": k.relType})
			keys = append(keys, k)
		}
	}
	return keys, pairs
}

// directedEdits expands each symmetric edit into its two directions.
func directedEdits(edits []realm.EditProposal) []realm.EditProposal {
	var out []realm.EditProposal
	for _, e := range edits {
		out = append(out, e)
		if e.Predicate.Symmetric() && e.From != e.To {
			rev := e
			rev.From, rev.To = e.To, e.From
			out = append(out, rev)
		}
	}
	return out
}

// memoryIDsOf returns the distinct ends of ops, sorted: every transaction locks in this
// order.
func memoryIDsOf(ops []realm.EditProposal) []string {
	var ids []string
	for _, op := range ops {
		ids = append(ids, op.From, op.To)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// RevertReconsolidation undoes the reconsolidation that id names (its id, or the id of one
// of its edits) in one write transaction of two statements: every edge it strengthened or
// weakened gets back the exact weight it had before (old_weight, a float64 stored as is),
// every edge it added is deleted, and its edits are marked reverted. It returns the edits it
// reverted: none when they all were already (reverting twice is a no-op); EConflict while
// an import holds the space (writeSpace). A later
// reconsolidation's change of the same edge is overwritten. ENotFound when the space logged
// no such edit. The snapshot of the space follows in the background, as after ApplyEdits.
func (s *Store) RevertReconsolidation(ctx context.Context, space, id string, now time.Time) ([]realm.Edit, error) {
	done := s.graphs.writing(space)
	var reverted []realm.Edit
	var touched []string // the memories it wrote edges of
	var before, after string
	found := false
	_, err := s.writeSpace(ctx, space, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		reverted, found = nil, false
		recs, err := collect(ctx, tx, qEditOfReconsolidation, map[string]any{"space": space, "id": id})
		if err != nil || len(recs) == 0 {
			return nil, err
		}
		found = true
		var todo []realm.Edit // latest first
		for _, r := range recs {
			if e := editFromProps(propsOf(r, "edit")); !e.Reverted {
				todo = append(todo, e)
			}
		}
		if len(todo) == 0 {
			return nil, nil
		}
		var ops []realm.EditProposal
		var ids []string
		for _, e := range todo {
			ops = append(ops, realm.EditProposal{From: e.From, To: e.To})
			ids = append(ids, e.ID)
		}
		touched = memoryIDsOf(ops)
		recs, err = collect(ctx, tx, qEditRevert, map[string]any{
			"space": space, "ids": touched, "undo": undoOf(todo), "edits": ids, "now": now.UTC(),
		})
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 {
			before, after = str(recs[0], "before"), str(recs[0], "after")
		}
		reverted = todo
		return nil, nil
	})
	if err != nil || len(reverted) == 0 {
		done()
	} else {
		s.followInBackground(space, graphMove{before: before, after: after, ids: touched}, done)
	}
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, realm.Errorf(realm.ENotFound, "no edit or reconsolidation %q in space %q", id, space)
	}
	for i := range reverted {
		t := now.UTC()
		reverted[i].Reverted, reverted[i].RevertedAt = true, &t
	}
	return reverted, nil
}

// undoOf folds the edits of one reconsolidation, latest first, into one undo an edge
// (edit_revert.cypher): an edge it added is deleted, any other is set to the old weight
// of its first edit, so that an edge edited twice gets the weight it had before both.
func undoOf(latestFirst []realm.Edit) []map[string]any {
	type edge struct {
		edgeKey
		id string
	}
	at := map[edge]map[string]any{} // an edge → its undo
	var out []map[string]any
	for _, e := range latestFirst {
		if e.Action != realm.EditAdd && e.OldWeight == nil {
			continue
		}
		k := edge{edgeKey{e.From, e.To, e.Predicate.RelType()}, e.EdgeID}
		u := at[k]
		if u == nil {
			u = map[string]any{"from": e.From, "to": e.To, "type": e.Predicate.RelType(), "edge_id": e.EdgeID, "delete": false, "weight": 0.0}
			at[k] = u
			out = append(out, u)
		}
		switch {
		case e.Action == realm.EditAdd:
			u["delete"] = true
		case !u["delete"].(bool):
			u["weight"] = *e.OldWeight
		}
	}
	return out
}

// ListEdits returns up to f.Limit logged edits of a space that f selects, newest first,
// after the opaque cursor ("" for the first page), and the cursor of the next page (""
// at the end). Errors: EInvalid (bad cursor), EUnavailable.
func (s *Store) ListEdits(ctx context.Context, space string, f realm.EditFilter, cursor string) ([]realm.Edit, string, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = realm.DefaultEditLimit
	}
	limit = min(limit, realm.MaxEditLimit)
	afterAt, afterSeq, afterID, err := decodeEditCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	params := map[string]any{
		"space": space, "trace_id": f.TraceID, "node_id": f.NodeID, "since": nil,
		"after_at": nil, "after_seq": afterSeq, "after_id": afterID, "limit": int64(limit + 1),
	}
	if !f.Since.IsZero() {
		params["since"] = f.Since.UTC()
	}
	if !afterAt.IsZero() {
		params["after_at"] = afterAt
	}
	recs, err := s.read(ctx, qEditList, params)
	if err != nil {
		return nil, "", err
	}
	out := make([]realm.Edit, 0, len(recs))
	for _, r := range recs {
		out = append(out, editFromProps(propsOf(r, "edit")))
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		last := out[limit-1]
		seq, _ := propsOf(recs[limit-1], "edit")["seq"].(int64)
		next = encodeCursor(last.Time, strconv.FormatInt(seq, 10)+"|"+last.ID)
	}
	return out, next, nil
}

// decodeEditCursor reads a cursor of ListEdits: the time, seq and id of the last edit of
// the page before; zero for "".
func decodeEditCursor(c string) (time.Time, int64, string, error) {
	at, rest, err := decodeCursor(c)
	if err != nil || c == "" {
		return at, 0, "", err
	}
	seq, id, ok := strings.Cut(rest, "|")
	n, err := strconv.ParseInt(seq, 10, 64)
	if !ok || err != nil {
		return time.Time{}, 0, "", realm.Errorf(realm.EInvalid, "cursor %q is not one this server gave out", c)
	}
	return at, n, id, nil
}

// EditStats counts the logged edits of a space by action; reverted edits are counted
// apart. They are read again only when the space's graph_version has moved since this
// store last read them (statsmemo.go).
func (s *Store) EditStats(ctx context.Context, space string) (realm.EditStats, error) {
	var st realm.EditStats
	err := s.readSettled(ctx, space, func(settled *string) (unsettled bool, err error) {
		_, err = s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			version, err := spaceGraphVersion(ctx, tx, space)
			if err != nil {
				return nil, err
			}
			st, unsettled, err = s.keptEditStats(ctx, tx, space, version, settled)
			return nil, err
		})
		return unsettled, err
	})
	return st, err
}

// editStats counts the logged edits of a space inside tx (keptEditStats).
func editStats(ctx context.Context, tx neo4j.ManagedTransaction, space string) (realm.EditStats, error) {
	var st realm.EditStats
	recs, err := collect(ctx, tx, qEditStats, map[string]any{"space": space})
	if err != nil {
		return st, err
	}
	for _, r := range recs {
		n := num(r, "edits")
		if boolean(r, "reverted") {
			st.Reverted += n
			continue
		}
		switch realm.EditAction(str(r, "action")) {
		case realm.EditAdd:
			st.Added += n
		case realm.EditStrengthen:
			st.Strengthened += n
		case realm.EditWeaken:
			st.Weakened += n
		}
	}
	recs, err = collect(ctx, tx, qEditReconsolidationCount, map[string]any{"space": space})
	if err != nil {
		return st, err
	}
	if len(recs) > 0 {
		st.Reconsolidations = num(recs[0], "reconsolidations")
	}
	return st, nil
}

// EdgeWeightHistogram counts the memory edges of a space in bins equal bins of weight
// over [0, 1]; out[i] counts the weights in [i/bins, (i+1)/bins), the last bin closed.
func (s *Store) EdgeWeightHistogram(ctx context.Context, space string, bins int) ([]int64, error) {
	if bins <= 0 || bins > 1000 {
		return nil, realm.Errorf(realm.EInvalid, "bins must be between 1 and 1000")
	}
	recs, err := s.read(ctx, qEdgeWeightHistogram, map[string]any{
		"space": space, "types": relTypes(realm.Predicates), "bins": int64(bins),
	})
	if err != nil {
		return nil, err
	}
	out := make([]int64, bins)
	for _, r := range recs {
		if b := num(r, "bin"); b >= 0 && b < int64(bins) {
			out[b] += num(r, "edges")
		}
	}
	return out, nil
}

// EdgeWeights returns the weight of every memory edge of a space, keyed by
// "from>to>predicate>edge id", as stored (a float64 to the bit). Two snapshots are equal
// when a run of reconsolidations was reverted exactly.
func (s *Store) EdgeWeights(ctx context.Context, space string) (map[string]float64, error) {
	recs, err := s.read(ctx, qEdgeWeights, map[string]any{"space": space, "types": relTypes(realm.Predicates)})
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(recs))
	for _, r := range recs {
		p := realm.PredicateOfRelType(str(r, "type"))
		out[str(r, "from")+">"+str(r, "to")+">"+string(p)+">"+str(r, "edge_id")] = float(r, "weight")
	}
	return out, nil
}

// DeleteEdits deletes the edit log of a space: when the space is removed, and after tests.
func (s *Store) DeleteEdits(ctx context.Context, space string) error {
	_, err := s.write(ctx, qEditDeleteSpace, map[string]any{"space": space})
	return err
}

func editFromProps(p map[string]any) realm.Edit {
	e := realm.Edit{
		ID:                propString(p, "id"),
		Space:             propString(p, "space"),
		TraceID:           propString(p, "trace_id"),
		ReconsolidationID: propString(p, "reconsolidation_id"),
		EdgeID:            propString(p, "edge_id"),
		From:              propString(p, "from"),
		To:                propString(p, "to"),
		Predicate:         realm.Predicate(propString(p, "predicate")),
		Action:            realm.EditAction(propString(p, "action")),
		Confidence:        propFloat(p, "confidence"),
		NewWeight:         propFloat(p, "new_weight"),
		Source:            propString(p, "source"),
		RevertedAt:        propTime(p, "reverted_at"),
		Query:             propString(p, "query"),
		Label:             realm.NodeLabel(propString(p, "label")),
	}
	if w, ok := p["old_weight"].(float64); ok {
		e.OldWeight = &w
	}
	if t := propTime(p, "created_at"); t != nil {
		e.Time = *t
	}
	e.Reverted, _ = p["reverted"].(bool)
	e.QueryErased, _ = p["query_erased"].(bool)
	return e
}

func boolean(r *neo4j.Record, key string) bool {
	v, _ := r.Get(key)
	b, _ := v.(bool)
	return b
}
