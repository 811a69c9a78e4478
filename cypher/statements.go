package cypher

import (
	"context"
	"sync"
	"time"
)

// StatementLog records the statements and transactions a piece of work runs against the
// store, with their durations: a benchmark counts a recall's round trips with it, and a
// profile says where a recall's time goes.
type StatementLog struct {
	mu           sync.Mutex
	Statements   []Statement
	Transactions int
	TxTime       time.Duration // the transactions' wall time, sessions and commits included
}

// Statement is one statement run: its name (queries/<name>.cypher) and how long it took
// from sending it to reading its last record.
type Statement struct {
	Name     string
	Duration time.Duration
}

type statementLogKey struct{}

// WithStatementLog returns a context whose store calls are recorded in the returned log.
func WithStatementLog(ctx context.Context) (context.Context, *StatementLog) {
	l := &StatementLog{}
	return context.WithValue(ctx, statementLogKey{}, l), l
}

func statementLogOf(ctx context.Context) *StatementLog {
	l, _ := ctx.Value(statementLogKey{}).(*StatementLog)
	return l
}

func (l *StatementLog) statement(name string, d time.Duration) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Statements = append(l.Statements, Statement{Name: name, Duration: d})
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
