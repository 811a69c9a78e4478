package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallNoSuchSpace: `realm recall` of a space that holds no memory (a typo) fails
// with ENotFound naming the space, as GET /v1/spaces/{space}/recall answers 404, prints
// no table nor trace, and leaves no space behind.
func TestRecallNoSuchSpace(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var out bytes.Buffer
	err := run(ctx, []string{"realm", "recall", "--space", space, "hello"}, testEnv(nil), &out)
	if realm.ErrorCode(err) != realm.ENotFound || !strings.Contains(err.Error(), space) {
		t.Errorf("recall of a space that does not exist: %v, want not found naming %s", err, space)
	}
	if out.Len() > 0 {
		t.Errorf("it printed %q", out.String())
	}
	if exists, err := store.SpaceExists(ctx, space); err != nil || exists {
		t.Errorf("the recall left the space behind (exists %v, %v)", exists, err)
	}
}
