package cypher

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/internal/ctxtime"
	"github.com/realm-memory/realm/schema"
)

// ApplySchema applies the migrations not yet recorded, in order, records each, and
// waits until every index is ONLINE. Every statement is IF NOT EXISTS, so two processes
// applying at once both succeed; a schema race between them is retried. Each migration it
// applies is logged (info, to ctx's logger: zerolog.Ctx), then how long they and the wait
// for the indexes took; nothing when every migration was applied before.
//
// A store that records a migration this build does not know was migrated by a newer
// REALM, which may have dropped or changed what this build reads: ApplySchema changes
// nothing and returns EConflict. If the vector index exists with another dimension than
// dims it is rebuilt when no memory has an embedding yet; otherwise ApplySchema returns
// EConflict.
func (s *Store) ApplySchema(ctx context.Context, dims int) error {
	migrations, err := schema.Migrations(dims, s.filtered)
	if err != nil {
		return err
	}
	recs, err := s.read(ctx, qMigrationApplied, nil)
	if err != nil {
		return err
	}
	if newer := unknownMigration(recs, migrations); newer != "" {
		return migratedByNewer(newer)
	}
	if err := s.fitVectorIndex(ctx, dims); err != nil {
		return err
	}
	started, applied := time.Now(), 0
	for attempt := 0; ; attempt++ {
		var n int
		n, err = s.applyMigrations(ctx, migrations)
		applied += n
		if err == nil || attempt == 3 || ctx.Err() != nil {
			break
		}
		_ = ctxtime.Sleep(ctx, time.Duration(attempt+1)*200*time.Millisecond) // a cancelled ctx ends the loop above
	}
	if err != nil {
		return fmt.Errorf("apply schema: %w", err)
	}
	if _, err = s.write(ctx, qAwaitIndexes, map[string]any{"seconds": 300}); err != nil {
		return err
	}
	if applied > 0 {
		zerolog.Ctx(ctx).Info().Int("migrations", applied).Dur("took", time.Since(started)).
			Msgf("schema: %d migrations applied, every index online", applied)
	}
	return nil
}

// unknownMigration names the first migration recorded in recs (qMigrationApplied) that
// migrations do not hold, NNNN_name, or returns "" when there is none.
func unknownMigration(recs []*neo4j.Record, migrations []schema.Migration) string {
	known := map[int64]bool{}
	for _, m := range migrations {
		known[int64(m.Version)] = true
	}
	for _, r := range recs {
		if v := num(r, "version"); !known[v] {
			return fmt.Sprintf("%04d_%s", v, str(r, "name"))
		}
	}
	return ""
}

// migratedByNewer refuses a store that records a migration this build does not know.
func migratedByNewer(migration string) *realm.Error {
	return realm.Errorf(realm.EConflict, "the store was migrated by a newer REALM (migration %s unknown to this build): "+
		"run that version or restore a backup taken before the upgrade", migration)
}

// applyMigrations applies the migrations not recorded yet and returns how many it applied.
func (s *Store) applyMigrations(ctx context.Context, migrations []schema.Migration) (int, error) {
	recs, err := s.read(ctx, qMigrationApplied, nil)
	if err != nil {
		return 0, err
	}
	applied := map[int64]bool{}
	for _, r := range recs {
		applied[num(r, "version")] = true
	}
	n := 0
	for _, m := range migrations {
		// The vector index is checked every time: its dimension follows the embedder.
		if applied[int64(m.Version)] && m.Name != "memory_embedding" {
			continue
		}
		started := time.Now()
		if err := s.runSchemaStatement(ctx, m.Statement); err != nil {
			return n, fmt.Errorf("migration %04d_%s: %w", m.Version, m.Name, err)
		}
		_, err := s.write(ctx, qMigrationRecord, map[string]any{
			"version": m.Version, "name": m.Name, "now": time.Now().UTC(),
		})
		if err != nil {
			return n, err
		}
		if !applied[int64(m.Version)] {
			n++
			zerolog.Ctx(ctx).Info().Str("migration", fmt.Sprintf("%04d_%s", m.Version, m.Name)).Dur("took", time.Since(started)).
				Msg("schema migration applied")
		}
	}
	return n, nil
}

// runSchemaStatement runs one migration as an auto-commit transaction: Neo4j refuses schema
// and data changes in one transaction, and a data migration commits in batches (CALL … IN
// TRANSACTIONS), which only an auto-commit transaction may. It is run again as any
// statement (runAlone) when Neo4j is away for a while or fails it for a transient reason
// (a Neo4j just restarted); its records are read, so that a batch's failure is the
// migration's. Migration text comes from our embedded files.
func (s *Store) runSchemaStatement(ctx context.Context, stmt string) error {
	_, err := s.runAlone(ctx, neo4j.AccessModeWrite, query{name: "migration", text: stmt}, nil)
	// Another process created the same index between our check and our statement.
	if err != nil && strings.Contains(err.Error(), "EquivalentSchemaRuleAlreadyExists") {
		return nil
	}
	return err
}

// fitVectorIndex drops a vector index of another dimension when no memory would lose
// its index entry; with embedded memories, the dimension change is a clear error. On
// Neo4j 2026.x it also drops an index that does not hold the space (one made by 5.26,
// whose store was upgraded): the migration makes it again with the space, from the
// memories' embeddings.
func (s *Store) fitVectorIndex(ctx context.Context, dims int) error {
	recs, err := s.read(ctx, qVectorIndexDims, nil)
	if err != nil || len(recs) == 0 {
		return err
	}
	if num(recs[0], "dims") == int64(dims) {
		if filtered, _ := recs[0].Get("filtered"); s.filtered && filtered != true {
			_, err = s.write(ctx, qVectorIndexDrop, nil)
		}
		return err
	}
	have := num(recs[0], "dims")
	recs, err = s.read(ctx, qEmbeddedMemoryCount, nil)
	if err != nil {
		return err
	}
	if n := num(recs[0], "n"); n > 0 {
		return realm.Errorf(realm.EConflict,
			"the vector index has dimension %d and %d memories are embedded, but the configured embedder has dimension %d: "+
				"configure the embedder they were made with, or run `realm reembed`", have, n, dims)
	}
	_, err = s.write(ctx, qVectorIndexDrop, nil)
	return err
}

// CheckEmbedder returns EConflict, naming the spaces (the first 20) and the fix, when any
// space's memories were embedded by another embedder than id/dims. Spaces whose id starts
// with unchecked, when it is not empty, are left out: a database shared with test runs
// holds their throwaway spaces, made with test embedders, and a server under test must
// start whatever other runs left there. `realm serve` checks every space unless
// REALM_UNCHECKED_SPACE_PREFIX is set. Errors: EConflict, EUnavailable.
func (s *Store) CheckEmbedder(ctx context.Context, id string, dims int, unchecked string) error {
	others, err := s.SpacesOtherEmbedder(ctx, id, dims, unchecked)
	if err != nil || len(others) == 0 {
		return err
	}
	spaces := make([]string, len(others))
	for i, o := range others {
		spaces[i] = fmt.Sprintf("%s (%s, %d)", o.Space, o.Embedder, o.Dims)
	}
	return realm.Errorf(realm.EConflict,
		"the configured embedder is %s (%d dims) but these spaces were embedded with another: %s; "+
			"set REALM_EMBEDDER back, or run `realm reembed --space ID` to re-embed them",
		id, dims, listSome(spaces))
}

// SpacesOtherEmbedder returns every space whose memories were embedded by another
// embedder than id/dims, ordered by id, but those CheckEmbedder leaves out for unchecked.
// Errors: EUnavailable.
func (s *Store) SpacesOtherEmbedder(ctx context.Context, id string, dims int, unchecked string) ([]SpaceEmbedder, error) {
	recs, err := s.read(ctx, qSpacesOtherEmbedder, map[string]any{"embedder": id, "dims": dims, "unchecked": unchecked})
	if err != nil {
		return nil, err
	}
	out := make([]SpaceEmbedder, len(recs))
	for i, r := range recs {
		out[i] = SpaceEmbedder{Space: str(r, "id"), Embedder: str(r, "embedder"), Dims: int(num(r, "dims"))}
	}
	return out, nil
}

// EmbeddedSpaces returns every space that records an embedder, ordered by id, but those
// CheckEmbedder leaves out for unchecked: the spaces of another embedder than none at all.
// Errors: EUnavailable.
func (s *Store) EmbeddedSpaces(ctx context.Context, unchecked string) ([]SpaceEmbedder, error) {
	return s.SpacesOtherEmbedder(ctx, "", 0, unchecked)
}

// ListedSpaces is how many spaces an error message names; it says how many more there are.
const ListedSpaces = 20

// listSome joins the first ListedSpaces items and counts the rest.
func listSome(items []string) string {
	if len(items) <= ListedSpaces {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:ListedSpaces], ", "), len(items)-ListedSpaces)
}

// Index is one Neo4j index as SHOW INDEXES reports it.
type Index struct {
	Name  string `json:"name"`
	Type  string `json:"type"`  // RANGE, VECTOR, FULLTEXT, LOOKUP …
	State string `json:"state"` // ONLINE, POPULATING, FAILED
}

// Indexes lists the database's indexes.
func (s *Store) Indexes(ctx context.Context) ([]Index, error) {
	recs, err := s.read(ctx, qIndexes, nil)
	if err != nil {
		return nil, err
	}
	out := make([]Index, 0, len(recs))
	for _, r := range recs {
		out = append(out, Index{Name: str(r, "name"), Type: str(r, "type"), State: str(r, "state")})
	}
	return out, nil
}

// schemaState is an answer of SchemaReady.
type schemaState struct {
	ok     bool
	reason string
}

// Ready is SchemaReady for a readiness probe, which must not take a busy Neo4j for an
// absent one: when the check gets no answer before ctx ends (every pooled connection is
// taken by work, or a loaded Neo4j answers slowly) but Neo4j answered other statements of
// this store meanwhile, Neo4j is there, and the last answer of the check stands. A Neo4j
// that is out of reach or hung answers none of them: the check's error is returned.
func (s *Store) Ready(ctx context.Context, dims int) (ok bool, reason string, err error) {
	asked := time.Now()
	ok, reason, err = s.SchemaReady(ctx, dims)
	if err == nil {
		s.ready.Store(&schemaState{ok: ok, reason: reason})
		return ok, reason, nil
	}
	if last := s.ready.Load(); last != nil && s.heardSince(asked) {
		return last.ok, last.reason, nil
	}
	return false, "", err
}

// SchemaReady reports whether every migration is recorded, none unknown to this build
// (see ApplySchema), and every index ONLINE; the reason says what is missing.
func (s *Store) SchemaReady(ctx context.Context, dims int) (ok bool, reason string, err error) {
	migrations, err := schema.Migrations(dims, s.filtered)
	if err != nil {
		return false, "", err
	}
	recs, err := s.read(ctx, qMigrationApplied, nil)
	if err != nil {
		return false, "", err
	}
	if newer := unknownMigration(recs, migrations); newer != "" {
		return false, migratedByNewer(newer).Message, nil
	}
	if len(recs) < len(migrations) {
		return false, fmt.Sprintf("%d of %d schema migrations applied", len(recs), len(migrations)), nil
	}
	indexes, err := s.Indexes(ctx)
	if err != nil {
		return false, "", err
	}
	for _, ix := range indexes {
		if ix.State != "ONLINE" {
			return false, fmt.Sprintf("index %s is %s", ix.Name, ix.State), nil
		}
	}
	return true, "", nil
}
