package cypher

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/realm-memory/realm"
)

// PutTrace stores the trace of one recall as a (:Trace) node of its space (REALM.md §3.3).
func (s *Store) PutTrace(ctx context.Context, t realm.Trace) error {
	doc, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode trace: %w", err)
	}
	_, err = s.write(ctx, qTraceCreate, traceParams(t, doc))
	return err
}

func traceParams(t realm.Trace, doc []byte) map[string]any {
	return map[string]any{"id": t.ID, "space": t.Space, "created_at": t.CreatedAt.UTC(), "query": t.Query, "json": string(doc)}
}

// Trace returns the trace id of the space; ENotFound when the space has none by that id.
func (s *Store) Trace(ctx context.Context, space, id string) (realm.Trace, error) {
	recs, err := s.read(ctx, qTraceGet, map[string]any{"space": space, "id": id})
	if err != nil {
		return realm.Trace{}, err
	}
	if len(recs) == 0 {
		return realm.Trace{}, realm.Errorf(realm.ENotFound, "trace %q not found in space %q", id, space)
	}
	var t realm.Trace
	if err := json.Unmarshal([]byte(str(recs[0], "json")), &t); err != nil {
		return realm.Trace{}, fmt.Errorf("decode trace %s: %w", id, err)
	}
	return t, nil
}
