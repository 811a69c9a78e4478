package construction

import (
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// validityEnd: the memory a supersedes edge written here points to stops holding (REALM.md
// §2 "Ours": never an overwrite, the old node stays and its validity ends) — when the
// agent says, else when its newer version (the edge's start) began: that node's start
// time, else the time of the observation that told of the change. A deleted edge ends
// nothing.
func validityEnd(op agent.EdgeOp, e cypher.EdgeWrite, known map[string]realm.Node, observed time.Time) (cypher.ValidityEnd, bool) {
	if e.Predicate != realm.Supersedes || e.Op == agent.EdgeDelete {
		return cypher.ValidityEnd{}, false
	}
	until := observed
	switch n, ok := known[e.From]; {
	case op.ValidUntil != nil:
		until = *op.ValidUntil
	case ok && n.TStart != nil:
		until = *n.TStart
	}
	if until.IsZero() {
		return cypher.ValidityEnd{}, false
	}
	return cypher.ValidityEnd{ID: e.To, ValidUntil: until}, true
}
