package cypher

import (
	"context"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// StatementLog records the statements and transactions a piece of work runs against the
// store, with their durations: a benchmark counts a recall's round trips with it, and a
// profile says where a recall's time goes.
type StatementLog struct {
	mu           sync.Mutex
	Statements   []Statement
	Transactions int
	TxTime       time.Duration // the transactions' wall time, sessions and commits included
	profile      bool
}

// Statement is one statement run: its name (queries/<name>.cypher) and how long it took
// from sending it to reading its last record; with a profiling log, its database hits and
// the rows its operators produced, from Neo4j's PROFILE (counts that do not depend on how
// busy the machine is).
type Statement struct {
	Name     string
	Duration time.Duration
	DBHits   int64
	Rows     int64
}

type statementLogKey struct{}

// WithStatementLog returns a context whose store calls are recorded in the returned log.
func WithStatementLog(ctx context.Context) (context.Context, *StatementLog) {
	l := &StatementLog{}
	return context.WithValue(ctx, statementLogKey{}, l), l
}

// WithStatementProfile is WithStatementLog whose statements run under PROFILE, each
// recording its database hits and rows. PROFILE adds work of its own: durations of such a
// log are not timings.
func WithStatementProfile(ctx context.Context) (context.Context, *StatementLog) {
	l := &StatementLog{profile: true}
	return context.WithValue(ctx, statementLogKey{}, l), l
}

func statementLogOf(ctx context.Context) *StatementLog {
	l, _ := ctx.Value(statementLogKey{}).(*StatementLog)
	return l
}

func (l *StatementLog) statement(st Statement) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Statements = append(l.Statements, st)
}

// profiled reports whether the statements of l run under PROFILE.
func (l *StatementLog) profiled() bool { return l != nil && l.profile }

// begin is the record of q about to run and the text to send: under PROFILE when l profiles.
func (l *StatementLog) begin(q query) (Statement, string) {
	if l.profiled() {
		return Statement{Name: q.name}, "PROFILE " + q.text
	}
	return Statement{Name: q.name}, q.text
}

// planTotals sums the database hits and rows of every operator of a profiled plan.
func planTotals(p neo4j.ProfiledPlan) (hits, rows int64) {
	hits, rows = p.DbHits(), p.Records()
	for _, c := range p.Children() {
		h, r := planTotals(c)
		hits, rows = hits+h, rows+r
	}
	return hits, rows
}

func (l *StatementLog) transaction(d time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Transactions++
	l.TxTime += d
}
