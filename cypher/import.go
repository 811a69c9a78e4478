package cypher

import (
	"context"
	_ "embed"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// The statements of an import and the hold it keeps on its space. What a file holds, how
// it is validated and turned into rows, is package transfer's.

var (
	//go:embed queries/import_begin.cypher
	importBeginCypher string
	qImportBegin      = newQuery("import_begin", importBeginCypher)

	//go:embed queries/import_claim.cypher
	importClaimCypher string
	qImportClaim      = newQuery("import_claim", importClaimCypher)

	//go:embed queries/import_renew.cypher
	importRenewCypher string
	qImportRenew      = newQuery("import_renew", importRenewCypher)

	//go:embed queries/import_finish.cypher
	importFinishCypher string
	qImportFinish      = newQuery("import_finish", importFinishCypher)

	//go:embed queries/import_props.cypher
	importPropsCypher string
	qImportProps      = newQuery("import_props", importPropsCypher)

	//go:embed queries/import_nodes.cypher
	importNodesCypher string
	qImportNodes      = newQuery("import_nodes", importNodesCypher)

	//go:embed queries/import_memories.cypher
	importMemoriesCypher string
	qImportMemories      = newQuery("import_memories", importMemoriesCypher)

	//go:embed queries/import_provenance.cypher
	importProvenanceCypher string
	qImportProvenance      = newQuery("import_provenance", importProvenanceCypher)

	//go:embed queries/import_learned.cypher
	importLearnedCypher string
	qImportLearned      = newQuery("import_learned", importLearnedCypher)

	//go:embed queries/import_repeats.cypher
	importRepeatsCypher string
	qImportRepeats      = newQuery("import_repeats", importRepeatsCypher)

	//go:embed queries/import_edges.cypher
	importEdgesCypher string
	qImportEdges      = newQuery("import_edges", importEdgesCypher)

	//go:embed queries/import_dated_changes.cypher
	importDatedChangesCypher string
	qImportDatedChanges      = newQuery("import_dated_changes", importDatedChangesCypher)

	//go:embed queries/space_import_mark.cypher
	spaceImportMarkCypher string
	qSpaceImportMark      = newQuery("space_import_mark", spaceImportMarkCypher)
)

// importLease is how long an import holds its space without renewing (it renews before
// every batch); an import found holding a space past it was interrupted and is wiped by
// the next import into that space.
const importLease = 2 * time.Minute

// Import is an import into a space, which it holds from BeginImport until Finish or
// Abandon: meanwhile the space refuses every request but its erasure (CheckNotImporting)
// with EConflict, and the writes of its clients check again under the space's lock
// (SaveObservations, CorrectMemory, writeSpace), so nothing is read from a half-written
// space, nothing sent to it is taken in and then erased by the import, and nothing the
// import wrote is changed or deleted before it ends. Each Write… is one
// transaction that first renews the hold.
type Import struct {
	store       *Store
	space       string
	id          string // the mark on the space while it is imported
	stopRenewal context.CancelFunc
	renewed     chan struct{} // closed when the renewal has stopped
	stopOnce    sync.Once
}

// BeginImport claims space, which must be empty, for an import, before its file is read:
// a client uploading a large file learns of a conflict at once, and the space is held
// during the upload. The hold is renewed in the background until Finish or Abandon; one
// of them must be called. What an interrupted import left in the space is erased here.
// Errors: EConflict (the space is not empty or is being imported), EUnavailable.
func (s *Store) BeginImport(ctx context.Context, space string) (*Import, error) {
	imp := &Import{store: s, space: space, id: uuid.NewString(), renewed: make(chan struct{})}
	interrupted, err := imp.begin(ctx)
	if err != nil {
		return nil, err
	}
	if interrupted {
		if err := imp.wipe(ctx); err != nil {
			imp.abandon(ctx)
			return nil, err
		}
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	imp.stopRenewal = cancel
	go imp.renewInBackground(rctx)
	return imp, nil
}

// Space is the space the import holds.
func (imp *Import) Space() string { return imp.space }

// begin claims the space for this import, refusing one that is not empty or that
// another import holds; it reports whether an interrupted import's data must be wiped.
func (imp *Import) begin(ctx context.Context) (interrupted bool, err error) {
	_, err = imp.store.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		now := time.Now().UTC()
		// Lock an existing space with MATCH, then SET, before import_begin's MERGE, as
		// SaveObservations does: a MERGE waiting for the node's lock holds its index
		// entry's, and deadlocks with a writer holding the node's.
		if _, err := collect(ctx, tx, qSpaceLock, map[string]any{"space": imp.space, "id": "", "now": now}); err != nil {
			return nil, err
		}
		recs, err := collect(ctx, tx, qImportBegin, map[string]any{"space": imp.space, "now": now})
		if err != nil {
			return nil, err
		}
		r := recs[0]
		marked, _ := r.Get("import_id")
		interrupted = false
		switch {
		case marked != nil && timeOf(valueOf(r, "import_until")).After(now):
			until := holdEnd(valueOf(r, "import_until"))
			return nil, realm.Errorf(realm.EConflict, "space %q is being imported by another request, which holds it until %s, "+
				"renewed while it runs: wait for it to end; if that import's server stopped, send the import again after %s",
				imp.space, until, until)
		case marked != nil:
			interrupted = true // its importer is gone: its data is wiped below
		case num(r, "contents") > 0:
			return nil, realm.Errorf(realm.EConflict,
				"space %q is not empty (it holds %d memories, observations, traces, edits or jobs): an import needs an empty space; "+
					"erase it first (DELETE /v1/spaces/%s) or import under another name", imp.space, num(r, "contents"), imp.space)
		}
		_, err = collect(ctx, tx, qImportClaim, map[string]any{"space": imp.space, "import": imp.id, "until": now.Add(importLease)})
		return nil, err
	})
	return interrupted, err
}

// renewInBackground extends the hold on the space well before its lease ends, while the
// file is uploaded or read (batches renew it too).
func (imp *Import) renewInBackground(ctx context.Context) {
	defer close(imp.renewed)
	tick := time.NewTicker(importLease / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			// A failure is not fatal here: the next batch's renewal says whether the hold was lost.
			_, _ = imp.store.write(ctx, qImportRenew, map[string]any{
				"space": imp.space, "import": imp.id, "until": time.Now().UTC().Add(importLease)})
		}
	}
}

func (imp *Import) stop() {
	imp.stopOnce.Do(func() {
		if imp.stopRenewal != nil {
			imp.stopRenewal()
			<-imp.renewed
		}
	})
}

// renew extends the import's hold on the space inside tx; EConflict when it lost it.
func (imp *Import) renew(ctx context.Context, tx neo4j.ManagedTransaction) error {
	recs, err := collect(ctx, tx, qImportRenew, map[string]any{"space": imp.space, "import": imp.id, "until": time.Now().UTC().Add(importLease)})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return realm.Errorf(realm.EConflict, "the import into space %q was cancelled: the space was erased or another import took it over", imp.space)
	}
	return nil
}

// wipe erases what an interrupted import left in the space, keeping the space's node.
func (imp *Import) wipe(ctx context.Context) error {
	for {
		var deleted int64
		_, err := imp.store.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			if err := imp.renew(ctx, tx); err != nil {
				return nil, err
			}
			recs, err := collect(ctx, tx, qSpaceDeleteBatch, map[string]any{"space": imp.space, "batch": spaceDeleteBatch, "import": imp.id})
			if err == nil {
				deleted = num(recs[0], "deleted")
			}
			return nil, err
		})
		if err != nil || deleted == 0 {
			return err
		}
	}
}

// Finish links the observations the file's memories let go of too many repeats to them
// (import_repeats.cypher) and releases the space: the import is complete. Errors:
// EConflict (the hold was lost), EUnavailable.
func (imp *Import) Finish(ctx context.Context) error {
	if err := imp.writeSteps(ctx, importStep{qImportRepeats, map[string]any{"space": imp.space}, -1}); err != nil {
		return err
	}
	imp.stop()
	imp.store.texts.drop(imp.space) // the file's memories_version is kept: it may be one this process read other memories at
	recs, err := imp.store.write(ctx, qImportFinish, map[string]any{"space": imp.space, "import": imp.id})
	if err == nil && len(recs) == 0 {
		err = realm.Errorf(realm.EConflict, "the import into space %q was cancelled: the space was erased or another import took it over", imp.space)
	}
	return err
}

// Abandon gives up the import: what it wrote is erased, the space's node with it, if the
// space is still its own; the mark stays when even that fails, for the next import to wipe.
func (imp *Import) Abandon(ctx context.Context) {
	imp.stop()
	imp.abandon(ctx)
}

func (imp *Import) abandon(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), importLease)
	defer cancel()
	_, err := imp.store.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return nil, imp.renew(ctx, tx)
	})
	if err == nil {
		_, _ = imp.store.DeleteSpace(ctx, imp.space)
	}
}

// SetSpace gives the space the exported space's properties, embedder and dimension.
func (imp *Import) SetSpace(ctx context.Context, props map[string]any, embedder string, dims int) error {
	return imp.writeSteps(ctx, importStep{qImportProps, map[string]any{
		"space": imp.space, "props": props, "embedder": embedder, "dims": int64(dims)}, -1})
}

// importLabels are the node labels WriteNodes creates, by kind.
var importLabels = map[string]string{"observation": "Observation", "trace": "Trace", "edit": "Edit", "job": "Job"}

// WriteNodes creates one batch of observations, traces, edits or jobs (kind), each with
// its properties; the space is set here, and an edit holding its query's text is marked so
// (query_held, which the retention's sweep seeks: migration 0039).
func (imp *Import) WriteNodes(ctx context.Context, kind string, props []map[string]any) error {
	label, ok := importLabels[kind]
	if !ok {
		return realm.Errorf(realm.EInternal, "import: no node kind %q", kind)
	}
	rows := make([]any, len(props))
	for i, p := range props {
		p["space"] = imp.space
		if label == "Edit" && propString(p, "query") != "" {
			p["query_held"] = true
		}
		rows[i] = p
	}
	return imp.writeSteps(ctx, importStep{qImportNodes, map[string]any{"label": label, "rows": rows}, len(rows)})
}

// ImportMemory is a memory to create, with the ids of the observations it derives from,
// and of those of them it derives from as a repeat (Integration.Repeats).
type ImportMemory struct {
	Type        realm.NodeType
	Props       map[string]any
	DerivedFrom []string
	Repeats     []string
}

// WriteMemories creates one batch of memories and their provenance; the space, its key
// (spaceKey) and the word count (a file may come from a version without it) are set here,
// and so is, from their provenance, when the space learned those a file of a version
// without it gives none (import_learned.cypher).
func (imp *Import) WriteMemories(ctx context.Context, memories []ImportMemory) error {
	var rows, prov, unlearned []any
	for _, m := range memories {
		if _, ok := m.Props["learned_at"]; !ok { // an export of a version that did not keep it
			unlearned = append(unlearned, m.Props["id"])
		}
		m.Props["space"], m.Props["space_key"] = imp.space, spaceKey(imp.space)
		m.Props["word_count"] = WordCount(propString(m.Props, "name"), propString(m.Props, "content"), stringList(m.Props["keywords"]))
		rows = append(rows, map[string]any{"label": m.Type.Label(), "props": m.Props})
		for _, o := range m.DerivedFrom {
			prov = append(prov, map[string]any{"memory": m.Props["id"], "observation": o, "repeat": slices.Contains(m.Repeats, o)})
		}
	}
	return imp.writeSteps(ctx,
		importStep{qImportMemories, map[string]any{"space": imp.space, "rows": rows}, len(rows)},
		importStep{qImportProvenance, map[string]any{"space": imp.space, "rows": prov}, len(prov)},
		importStep{qImportLearned, map[string]any{"space": imp.space, "ids": unlearned}, -min(len(unlearned), 1)}) // -1: not counted, 0: none to set
}

// ImportEdge is a memory edge to create between two memories of the space.
type ImportEdge struct {
	From, To  string
	Predicate realm.Predicate
	Props     map[string]any
}

// WriteEdges creates one batch of memory edges; a dated correction's that a file of a
// version before such an edge said so holds is written as this version writes it
// (import_dated_changes.cypher).
func (imp *Import) WriteEdges(ctx context.Context, edges []ImportEdge) error {
	rows := make([]any, len(edges))
	for i, e := range edges {
		rows[i] = map[string]any{"from": e.From, "to": e.To, "type": e.Predicate.RelType(), "props": e.Props}
	}
	params := map[string]any{"space": imp.space, "rows": rows}
	return imp.writeSteps(ctx, importStep{qImportEdges, params, len(rows)}, importStep{qImportDatedChanges, params, -1})
}

// importStep is one statement of an import's transaction and how many things it must
// create (-1: not counted; 0: skipped).
type importStep struct {
	q      query
	params map[string]any
	want   int
}

// writeSteps runs steps in one transaction, after renewing the import's hold.
func (imp *Import) writeSteps(ctx context.Context, steps ...importStep) error {
	_, err := imp.store.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		if err := imp.renew(ctx, tx); err != nil {
			return nil, err
		}
		for _, st := range steps {
			if st.want == 0 {
				continue
			}
			recs, err := collect(ctx, tx, st.q, st.params)
			if err != nil {
				return nil, importConflict(err)
			}
			if st.want < 0 {
				continue
			}
			if got := num(recs[0], "created"); got != int64(st.want) {
				return nil, realm.Errorf(realm.EInternal, "import %s: wrote %d of %d", st.q.name, got, st.want)
			}
		}
		return nil, nil
	})
	return err
}

// importConflict reports a uniqueness violation (an id that exists in another space)
// as EConflict.
func importConflict(err error) error {
	if constraintViolated(err) {
		return realm.Errorf(realm.EConflict, "an id of the export (a memory, trace, edit or job) exists already in another space")
	}
	return err
}

// constraintViolated reports whether err is Neo4j refusing a write that breaks a
// uniqueness constraint.
func constraintViolated(err error) bool {
	var n4j *neo4j.Neo4jError
	return errors.As(err, &n4j) && strings.Contains(n4j.Code, "ConstraintValidationFailed")
}

func valueOf(r *neo4j.Record, key string) any { v, _ := r.Get(key); return v }

// holdEnd is when an import's hold on its space (import_until) lapses unless renewed, for
// an error message: the lease is minutes long, so the time of day says it.
func holdEnd(until any) string { return timeOf(until).UTC().Format("15:04:05 UTC") }

// CheckNotImporting returns EConflict when space is marked by an import: one running, or
// one interrupted that left it incomplete. Every route of the space but the import and
// the space's erasure calls it first (api); a write that must not touch what an import
// writes checks again in its transaction (writeSpace), as ingest and correction do.
// Errors: EConflict, EUnavailable.
func (s *Store) CheckNotImporting(ctx context.Context, space string) error {
	recs, err := s.read(ctx, qSpaceImportMark, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return err
	}
	return importRefusal(space, recs[0])
}

// writeSpace runs fn, a client's write of space, in a write transaction that first takes
// the space's lock and refuses (EConflict) while an import holds the space
// (space_lock_import.cypher): under that lock no import can claim the space between the
// check and fn, and fn touches nothing an import writes. It is writeTx otherwise, and a
// space that does not exist is fn's to report.
func (s *Store) writeSpace(ctx context.Context, space string, fn txWork) ([]*neo4j.Record, error) {
	return s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		recs, err := collect(ctx, tx, qSpaceLockImport, map[string]any{"space": space, "now": time.Now().UTC()})
		if err == nil && len(recs) > 0 {
			err = importRefusal(space, recs[0])
		}
		if err != nil {
			return nil, err
		}
		return fn(ctx, tx)
	})
}

// importRefusal is the error of a request into a space whose record r (import_id,
// import_until) carries the import mark, nil when it carries none. A running import renews its hold; one whose
// server stopped (killed, crashed) holds the space until its lease lapses, which the
// error names, as nothing tells the two apart before then (another server on the same
// Neo4j may be running it).
func importRefusal(space string, r *neo4j.Record) error {
	mark, until := valueOf(r, "import_id"), valueOf(r, "import_until")
	switch {
	case mark == nil:
		return nil
	case timeOf(until).After(time.Now()):
		return realm.Errorf(realm.EConflict,
			"an import into space %q holds it until %s, renewed while it runs: every request of the space but its erasure is refused until it ends; "+
				"retry then, and if that import's server stopped, send the import again after %s", space, holdEnd(until), holdEnd(until))
	default:
		return realm.Errorf(realm.EConflict,
			"an import into space %q was interrupted and left it incomplete: import the file again (what it left is erased first) "+
				"or erase the space (DELETE /v1/spaces/%s)", space, space)
	}
}
