package cypher

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/internal/ctxtime"
)

// Config says where Neo4j is and how long a call waits for it. Zero durations take the
// defaults below.
type Config struct {
	URI      string // bolt://, neo4j:// (routing) …
	User     string
	Password string
	Database string // "" is the server's default database

	// UnavailableTimeout bounds how long one call keeps trying while Neo4j cannot be
	// reached (connection refused or lost, no pooled connection free, its database not
	// available) before it fails EUnavailable, which the API answers at once with 503 and
	// Retry-After. The driver alone would retry for its whole retry time, plus connect
	// timeouts: about a minute.
	UnavailableTimeout time.Duration // NEO4J_UNAVAILABLE_TIMEOUT, default 3 s
	// AnswerTimeout bounds how long one attempt waits for each answer of Neo4j: a pooled
	// connection (or a new one: TCP connect, Bolt handshake, login) and the answer to its
	// first statement, then the answer to each statement after it. A Neo4j that is starting takes connections but answers their
	// handshake only once its database is up, and a hung one answers nothing: a call
	// waits AnswerTimeout, then fails EUnavailable as above. A Neo4j that answers a
	// trivial statement on another connection meanwhile is busy, not away (the statement
	// waits for a lock another transaction holds): the call waits on, within RetryTime.
	// After a failure to reach Neo4j, each attempt of the call waits no longer than
	// UnavailableTimeout. A statement Neo4j answered runs for as long as it needs.
	// It is longer than UnavailableTimeout because a cold Neo4j on a busy machine takes
	// seconds to log a connection in and plan a statement.
	AnswerTimeout time.Duration // NEO4J_ANSWER_TIMEOUT, default 10 s
	// RetryTime bounds how long the calls of one request (WithSharedWait; else one call)
	// wait for Neo4j, from their first wait, in all: running again a transaction that
	// Neo4j failed for a transient reason (a deadlock, a lock it could not take), and
	// waiting for statements that Neo4j does not answer while it answers others
	// (awaitAnswer). Past it, a call that waits fails EUnavailable.
	RetryTime time.Duration // NEO4J_RETRY_TIME, default 30 s
	// ConnectTimeout bounds one TCP connect to Neo4j.
	ConnectTimeout time.Duration // NEO4J_CONNECT_TIMEOUT, default 2 s
	// GraphCacheMax is how many memories, all spaces together, expansion keeps in memory
	// (graphcache.go); 0 is DefaultGraphCacheMax, a negative number keeps none (every
	// hop is a statement). REALM_GRAPH_CACHE.
	GraphCacheMax int
	// TraceRetention is how long a recall's trace (which holds the user's query) is kept:
	// Trace does not return an older one and ExpireTraces deletes them. 0 keeps traces
	// until their space is erased. REALM_TRACE_RETENTION.
	TraceRetention time.Duration
}

// Defaults of Config's durations.
const (
	DefaultUnavailableTimeout = 3 * time.Second
	DefaultAnswerTimeout      = 10 * time.Second
	DefaultRetryTime          = 30 * time.Second
	DefaultConnectTimeout     = 2 * time.Second
)

// TimeoutsFromEnv sets the durations of c from NEO4J_UNAVAILABLE_TIMEOUT,
// NEO4J_ANSWER_TIMEOUT, NEO4J_RETRY_TIME and NEO4J_CONNECT_TIMEOUT (Go durations: "3s",
// "500ms"), leaving the unset ones alone. A bad value is an EInvalid error naming the
// variable.
func (c *Config) TimeoutsFromEnv(getenv func(string) string) error {
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{
		{"NEO4J_UNAVAILABLE_TIMEOUT", &c.UnavailableTimeout},
		{"NEO4J_ANSWER_TIMEOUT", &c.AnswerTimeout},
		{"NEO4J_RETRY_TIME", &c.RetryTime},
		{"NEO4J_CONNECT_TIMEOUT", &c.ConnectTimeout},
	} {
		s := getenv(v.name)
		if s == "" {
			continue
		}
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return realm.Errorf(realm.EInvalid, "%s %q: want a positive duration such as 3s or 500ms", v.name, s)
		}
		*v.dst = d
	}
	return nil
}

// GraphCacheFromEnv sets c.GraphCacheMax from REALM_GRAPH_CACHE (memories, all spaces
// together; 0 keeps none), leaving it alone when unset. A bad value is an EInvalid error.
func (c *Config) GraphCacheFromEnv(getenv func(string) string) error {
	v := getenv("REALM_GRAPH_CACHE")
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return realm.Errorf(realm.EInvalid, "REALM_GRAPH_CACHE %q: want a number of memories (0: none)", v)
	}
	c.GraphCacheMax = n
	if n == 0 {
		c.GraphCacheMax = -1
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.UnavailableTimeout <= 0 {
		c.UnavailableTimeout = DefaultUnavailableTimeout
	}
	if c.AnswerTimeout <= 0 {
		c.AnswerTimeout = DefaultAnswerTimeout
	}
	if c.RetryTime <= 0 {
		c.RetryTime = DefaultRetryTime
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.GraphCacheMax == 0 {
		c.GraphCacheMax = DefaultGraphCacheMax
	}
	return c
}

// poolSize is how many connections to Neo4j a store holds at most.
const poolSize = 50

// Store runs REALM's queries on one Neo4j database. It is safe for concurrent use.
type Store struct {
	driver neo4j.DriverWithContext
	db     string

	unavailableTimeout time.Duration
	answerTimeout      time.Duration
	retryTime          time.Duration
	traceRetention     time.Duration // Config.TraceRetention

	openTx atomic.Int64 // transactions running now (OpenTransactions)

	heard atomic.Int64                // when Neo4j last answered a statement of this store, in Unix nanoseconds (Ready)
	ready atomic.Pointer[schemaState] // what SchemaReady last found (Ready)

	// filtered: the server filters vector searches by space inside the index (Neo4j
	// 2026.01 and later, detected at Open); 5.26 over-fetches and filters after.
	filtered bool
	// unfiltered holds, per space, until when its vector searches over-fetch instead
	// because a filtered one failed (SeedByVectorIndex).
	unfiltered sync.Map

	vectors vectorCache  // embeddings of small spaces for the write path's exact search (vectors.go)
	graphs  graphCache   // snapshots of spaces' memory graphs for expansion (graphcache.go)
	texts   keywordCache // keyword indexes of recently searched spaces for the read path's seeds (keywordindex.go)

	keptGraph statsMemo[graphCounts]     // spaces' counts of memories and edges by graph_version (statsmemo.go)
	keptEdits statsMemo[realm.EditStats] // spaces' edit log totals by graph_version (statsmemo.go)
	// erasing, when set, runs in DeleteSpace between its batches and the deletion of the
	// space's node: tests write into the space there, as a concurrent request may.
	erasing func(space string)
}

// Open connects to Neo4j and checks that it answers with these credentials. It waits
// (bounded) while the server is still starting or does not serve statements yet, but
// fails at once on bad credentials or an address nothing listens on, with one clear
// message.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	cfg = cfg.withDefaults()
	auth := neo4j.BasicAuth(cfg.User, cfg.Password, "")
	driver, err := neo4j.NewDriverWithContext(cfg.URI, auth, func(c *config.Config) {
		c.SocketConnectTimeout = cfg.ConnectTimeout
		// A backstop only: awaitAnswer ends a wait for a connection at AnswerTimeout once a
		// probe is not answered either, saying why (errNoAnswer); the driver's own timeout,
		// at the same instant, would race it with its words.
		c.ConnectionAcquisitionTimeout = 2 * cfg.AnswerTimeout
		c.MaxConnectionPoolSize = poolSize
		// One attempt per driver call: runTx retries, with a short budget when Neo4j cannot
		// be reached and a long one for transient errors, which the driver cannot tell apart.
		c.MaxTransactionRetryTime = 0
	})
	if err != nil {
		return nil, realm.Errorf(realm.EInvalid, "NEO4J_URI %q: %v", cfg.URI, err)
	}
	s := &Store{driver: driver, db: cfg.Database, unavailableTimeout: cfg.UnavailableTimeout, answerTimeout: cfg.AnswerTimeout,
		retryTime: cfg.RetryTime, traceRetention: cfg.TraceRetention}
	s.graphs.max = cfg.GraphCacheMax
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = driver.VerifyConnectivity(ctx)
		if err == nil {
			// A server that logs in may still not serve its database's statements (it was
			// just started, a dump just loaded): that is waited for too.
			version, _, err := s.ServerInfo(ctx)
			if err == nil {
				s.filtered = FiltersVectors(version)
				return s, nil
			}
			if realm.ErrorCode(err) != realm.EUnavailable || time.Now().After(deadline) || ctx.Err() != nil {
				driver.Close(context.WithoutCancel(ctx))
				return nil, err
			}
		} else if !isTransient(err) || time.Now().After(deadline) || ctx.Err() != nil {
			driver.Close(context.WithoutCancel(ctx))
			return nil, describeOpenError(cfg, err)
		}
		_ = ctxtime.Sleep(ctx, time.Second) // a cancelled ctx ends the loop above
	}
}

func describeOpenError(cfg Config, err error) error {
	var n4j *neo4j.Neo4jError
	if errors.As(err, &n4j) && strings.Contains(n4j.Code, "Security.Unauthorized") {
		return realm.Errorf(realm.EUnauthorized, "neo4j at %s refused user %q: wrong NEO4J_USER or NEO4J_PASSWORD", cfg.URI, cfg.User)
	}
	if errors.As(err, &n4j) && strings.Contains(n4j.Code, "Security.AuthenticationRateLimit") {
		return realm.Errorf(realm.EUnauthorized, "neo4j at %s: too many failed logins for user %q; check NEO4J_PASSWORD and wait", cfg.URI, cfg.User)
	}
	return realm.Errorf(realm.EUnavailable, "neo4j at %s does not answer (check NEO4J_URI, or start it with `make neo4j`): %v", cfg.URI, firstLine(err))
}

func firstLine(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// isTransient reports whether err may go away by itself: the server is starting or a
// transaction lost a deadlock.
func isTransient(err error) bool {
	var n4j *neo4j.Neo4jError
	if errors.As(err, &n4j) {
		return strings.Contains(n4j.Code, "TransientError") || strings.Contains(n4j.Code, "DatabaseUnavailable")
	}
	return false
}

// Close releases the driver's connections.
func (s *Store) Close(ctx context.Context) error { return s.driver.Close(ctx) }

// Ping checks that Neo4j answers a query now.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.read(ctx, qPing, nil)
	return err
}

// ServerInfo returns Neo4j's version and edition.
func (s *Store) ServerInfo(ctx context.Context) (version, edition string, err error) {
	recs, err := s.read(ctx, qServerInfo, nil)
	if err != nil {
		return "", "", err
	}
	if len(recs) == 0 {
		return "", "", realm.Errorf(realm.EInternal, "neo4j returned no components")
	}
	return str(recs[0], "version"), str(recs[0], "edition"), nil
}

// FiltersVectors reports whether a Neo4j of this kernel version filters a vector search
// by a property inside the index (Cypher 25's SEARCH … WHERE, from 2026.01): calendar
// versions from 2026 on; 5.x over-fetches and filters after.
func FiltersVectors(version string) bool {
	major, rest, _ := strings.Cut(version, ".")
	minor, _, _ := strings.Cut(rest, ".")
	y, err1 := strconv.Atoi(major)
	m, err2 := strconv.Atoi(minor)
	return err1 == nil && err2 == nil && (y > 2026 || y == 2026 && m >= 1)
}

// FiltersVectors reports whether the server filters vector searches by space inside the
// index (Neo4j 2026.x), as detected at Open.
func (s *Store) FiltersVectors() bool { return s.filtered }

// query is one Cypher statement and the $params it names.
type query struct {
	name   string
	text   string
	params []string
}

var paramPattern = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)

// newQuery binds a statement read from queries/name.cypher.
func newQuery(name, text string) query {
	seen := map[string]bool{}
	var params []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		for _, m := range paramPattern.FindAllStringSubmatch(line, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				params = append(params, m[1])
			}
		}
	}
	sort.Strings(params)
	return query{name: name, text: text, params: params}
}

// check returns an error when params does not name exactly the statement's $params.
func (q query) check(params map[string]any) error {
	var got []string
	for k := range params {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(q.params, ",") {
		return fmt.Errorf("cypher %s: caller passes params %v, statement names %v", q.name, got, q.params)
	}
	return nil
}

// read runs q alone in a read transaction and returns all its records.
//
// A statement alone runs as an auto-commit transaction: one round trip to Neo4j (RUN and
// PULL sent together), where a managed transaction takes three (BEGIN, RUN and PULL,
// COMMIT); on a busy machine each costs a millisecond or more. Retries are as runTx's.
func (s *Store) read(ctx context.Context, q query, params map[string]any) ([]*neo4j.Record, error) {
	return s.runAlone(ctx, neo4j.AccessModeRead, q, params)
}

// write runs q alone in a write transaction (auto-commit, as read) and returns all its
// records.
func (s *Store) write(ctx context.Context, q query, params map[string]any) ([]*neo4j.Record, error) {
	return s.runAlone(ctx, neo4j.AccessModeWrite, q, params)
}

// runAlone runs q as one auto-commit transaction, again on the errors runTx retries.
func (s *Store) runAlone(ctx context.Context, mode neo4j.AccessMode, q query, params map[string]any) ([]*neo4j.Record, error) {
	if err := q.check(params); err != nil {
		return nil, err
	}
	return s.retry(ctx, func(ctx context.Context) ([]*neo4j.Record, error) { return s.attemptAlone(ctx, mode, q, params) })
}

// attemptAlone runs q once, auto-committed, in a session of its own. An error the driver
// says may go away is returned as a TransactionExecutionLimit, as a managed transaction's
// (runTx tells them apart by that).
func (s *Store) attemptAlone(ctx context.Context, mode neo4j.AccessMode, q query, params map[string]any) ([]*neo4j.Record, error) {
	var recs []*neo4j.Record
	err := s.attemptEach(ctx, mode, q, params, func(r *neo4j.Record) error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

// readEach runs q as read does, but hands each record to the func that begin returns as
// it arrives instead of collecting them all first: a large result (a space's graph
// snapshot) is decoded as it streams. A failed attempt runs again from the first record,
// with a func begin makes afresh.
func (s *Store) readEach(ctx context.Context, q query, params map[string]any, begin func() func(*neo4j.Record) error) error {
	if err := q.check(params); err != nil {
		return err
	}
	_, err := s.retry(ctx, func(ctx context.Context) ([]*neo4j.Record, error) {
		return nil, s.attemptEach(ctx, neo4j.AccessModeRead, q, params, begin())
	})
	return err
}

// attemptEach runs q once as attemptAlone does, handing each record to each as it arrives.
func (s *Store) attemptEach(ctx context.Context, mode neo4j.AccessMode, q query, params map[string]any, each func(*neo4j.Record) error) error {
	defer s.countOpen(ctx)()
	log := statementLogOf(ctx)
	st, text := log.begin(q)
	defer func(started time.Time) {
		st.Duration = time.Since(started)
		log.statement(st)
		log.transaction(st.Duration)
	}(time.Now())
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db, AccessMode: mode})
	defer sess.Close(ctx)
	res, err := sess.Run(ctx, text, params)
	answered(ctx, err)
	if err == nil {
		for err == nil && res.Next(ctx) {
			err = each(res.Record())
		}
		if err == nil {
			err = res.Err()
		}
	}
	if err == nil && log.profiled() {
		st.DBHits, st.Rows = profileCounts(ctx, res)
	}
	if err != nil && ctx.Err() == nil && neo4j.IsRetryable(err) {
		return &neo4j.TransactionExecutionLimit{Cause: "one attempt", Errors: []error{err}}
	}
	return err
}

// txWork is the body of a managed transaction.
type txWork = func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error)

// readTx and writeTx run fn in a managed transaction, run again on retryable errors
// (see runTx), so fn must be safe to run again.
func (s *Store) readTx(ctx context.Context, fn txWork) ([]*neo4j.Record, error) {
	return s.runTx(ctx, neo4j.AccessModeRead, fn)
}

func (s *Store) writeTx(ctx context.Context, fn txWork) ([]*neo4j.Record, error) {
	return s.runTx(ctx, neo4j.AccessModeWrite, fn)
}

// runTx runs fn until it succeeds or fails for good. The driver makes one attempt and
// says whether the error is retryable: a transient error of Neo4j (a deadlock) is retried
// within the request's retryTime (sharedWait); a failure to reach Neo4j, for
// unavailableTimeout only, so that a request fails fast with EUnavailable while Neo4j is
// down, starting or hung, the last attempt once unavailableTimeout has passed. Each is
// counted from a first failure or wait, not from the call: under contention a
// transaction may wait long for the space's lock before it is chosen as a deadlock's
// victim, and it still deserves its retries. The first retry is immediate: a dead pooled
// connection (Neo4j restarted) clears the older idle ones, and the next attempt dials
// afresh.
func (s *Store) runTx(ctx context.Context, mode neo4j.AccessMode, fn txWork) ([]*neo4j.Record, error) {
	return s.retry(ctx, func(ctx context.Context) ([]*neo4j.Record, error) { return s.attempt(ctx, mode, fn) })
}

// retry runs attempt until it succeeds or fails for good (see runTx). Neo4j must answer
// each statement of an attempt, or a probe on another connection, within
// answerTimeout, and after a failure to reach it within unavailableTimeout
// (awaitAnswer): a Neo4j that is starting accepts connections but answers their
// handshake only once its database is up, and a hung one answers nothing, so an attempt
// would otherwise wait for as long as either lasts.
func (s *Store) retry(ctx context.Context, attempt func(context.Context) ([]*neo4j.Record, error)) ([]*neo4j.Record, error) {
	shared, _ := ctx.Value(sharedWaitKey{}).(*sharedWait)
	if shared == nil {
		shared = &sharedWait{} // a call of no request waits on its own
		ctx = context.WithValue(ctx, sharedWaitKey{}, shared)
	}
	var unreachableSince time.Time
	var wait time.Duration
	for {
		answerWithin := s.answerTimeout
		if !unreachableSince.IsZero() {
			answerWithin = min(answerWithin, s.unavailableTimeout)
		}
		started := time.Now()
		recs, err := s.awaitAnswer(ctx, answerWithin, attempt)
		if err == nil {
			return recs, nil
		}
		var limit *neo4j.TransactionExecutionLimit
		if !errors.As(err, &limit) || len(limit.Errors) == 0 {
			return nil, translate(err) // not retryable, or the context ended
		}
		cause := limit.Errors[len(limit.Errors)-1]
		var since time.Time
		budget := s.retryTime
		if unreachable(cause) {
			if unreachableSince.IsZero() {
				unreachableSince = time.Now()
				if cause == errNoAnswer {
					unreachableSince = started // it waited for Neo4j from the start
				}
			}
			since, budget = unreachableSince, s.unavailableTimeout
		} else {
			since = shared.start(time.Now())
		}
		// The last attempt is made once budget has passed, not before the pause that
		// would reach it: a request tries for the whole of NEO4J_UNAVAILABLE_TIMEOUT.
		left := budget - time.Since(since)
		if left <= 0 {
			return nil, translate(err)
		}
		if err := ctxtime.Sleep(ctx, min(jitter(wait), left)); err != nil {
			return nil, err
		}
		wait = min(max(2*wait, 50*time.Millisecond), time.Second)
	}
}

// unreachable reports whether a retryable error says that Neo4j cannot serve at all:
// the connection failed, Neo4j did not answer, or its database is not available (it is
// starting or stopping), as opposed to a transient error of one transaction.
func unreachable(err error) bool {
	var n4j *neo4j.Neo4jError
	return !errors.As(err, &n4j) || strings.Contains(n4j.Code, "DatabaseUnavailable")
}

// errNoAnswer ends an attempt that Neo4j did not answer in time, nor a probe on another
// connection (awaitAnswer).
var errNoAnswer = errors.New("neo4j did not answer")

// errBusy ends an attempt with a statement Neo4j did not answer, while it answered the
// probes, once its request has waited retryTime (awaitAnswer).
var errBusy = errors.New("neo4j is busy")

// Busy reports whether err is the EUnavailable of a statement that Neo4j did not answer
// for RetryTime while it answered others ("neo4j is busy", awaitAnswer): Neo4j is there,
// the statement waits for a lock another transaction holds, and statements that need
// other locks go through, unlike when Neo4j is out of reach.
func Busy(err error) bool {
	var e *realm.Error
	return errors.As(err, &e) && e.Code == realm.EUnavailable && e.Message == errBusy.Error()
}

type sharedWaitKey struct{}

// sharedWait is the one wait for Neo4j of the store calls of a request: it starts at the
// first of them that waits (a statement answered late while Neo4j answers the probes, or
// a transaction retried after a transient error), and every wait of theirs ends retryTime
// after that. Each call alone would wait retryTime afresh, and a request runs many (an
// ingestion of two messages, four transactions of ten statements): on a cold Neo4j
// that answers each of them slowly, they added up to minutes.
type sharedWait struct {
	mu    sync.Mutex
	since time.Time // zero until the first wait
}

// WithSharedWait returns a context whose store calls wait for Neo4j retryTime in all,
// from the first of them that waits, instead of retryTime each (the API's requests).
func WithSharedWait(ctx context.Context) context.Context {
	return context.WithValue(ctx, sharedWaitKey{}, &sharedWait{})
}

// WithOwnWaits returns a context whose store calls wait for Neo4j retryTime each, as
// without WithSharedWait: work that outlives its request (an asynchronous ingestion's)
// is not bounded by the request's wait.
func WithOwnWaits(ctx context.Context) context.Context {
	return context.WithValue(ctx, sharedWaitKey{}, (*sharedWait)(nil))
}

// start starts the wait at t unless it started before, and returns when it started.
func (w *sharedWait) start(t time.Time) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.since.IsZero() {
		w.since = t
	}
	return w.since
}

type answerKey struct{}

// awaitAnswer runs attempt with a context that ends once Neo4j has answered nothing for
// d: neither a statement of the attempt nor a trivial statement on another connection
// (alive), sent when that statement's answer is late by d/2 and again every d/2 while
// it waits. The first wait covers taking a connection (a new one's TCP connect, Bolt
// handshake and login) and the answer to the first statement; each later statement's
// starts when it is sent (awaiting); each ends at answered. A
// Neo4j that is starting or hung answers neither: the attempt ends after d as a
// TransactionExecutionLimit of errNoAnswer, which retry takes for Neo4j out of reach. A
// Neo4j that answers the probe is there and busy: the statement waits for a lock another
// transaction holds (a recall's record, a feedback's edits behind an ingestion of the
// same space), or works long before its first row. It waits on, until its request has
// waited retryTime from its first wait (sharedWait, started by this one when it is the
// first), then ends EUnavailable ("neo4j is busy"), not retried. Only the waits are
// bounded, so a statement that Neo4j answers streams its records for as long as it needs.
func (s *Store) awaitAnswer(ctx context.Context, d time.Duration, attempt func(context.Context) ([]*neo4j.Record, error)) ([]*neo4j.Record, error) {
	actx, cut := context.WithCancelCause(ctx)
	defer cut(nil)
	shared := ctx.Value(sharedWaitKey{}).(*sharedWait)
	waits := &answerWaits{heard: s.hear, watch: func() *answerWait {
		wctx, stop := context.WithCancel(actx)
		w := &answerWait{stop: stop, cut: cut}
		go s.watchAnswer(wctx, w, d, shared)
		return w
	}}
	waits.await()
	recs, err := attempt(context.WithValue(actx, answerKey{}, waits))
	if err != nil && ctx.Err() == nil {
		switch context.Cause(actx) {
		case errNoAnswer:
			return nil, &neo4j.TransactionExecutionLimit{Cause: "no answer", Errors: []error{errNoAnswer}}
		case errBusy:
			return nil, &realm.Error{Code: realm.EUnavailable, Message: errBusy.Error(),
				Cause: fmt.Sprintf("neo4j answered other statements but not this one once the request had waited %s (NEO4J_RETRY_TIME) for it: it waits for a lock another transaction holds, or works long before its first row", s.retryTime)}
		}
	}
	return recs, err
}

// answerWaits are an attempt's waits for Neo4j's answers, one at a time (awaitAnswer).
type answerWaits struct {
	watch func() *answerWait // starts a wait
	heard func()             // tells the store that Neo4j answered
	mu    sync.Mutex
	now   *answerWait // the wait not answered yet, if any
}

// await starts a wait, unless one is not answered yet: the attempt's first, from its
// start, covers its first statement.
func (ws *answerWaits) await() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.now == nil {
		ws.now = ws.watch()
	}
}

// answer ends the wait not answered yet.
func (ws *answerWaits) answer() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.now != nil {
		ws.now.answer()
		ws.now = nil
	}
}

// answerWait is one wait of an attempt for Neo4j's answer (answerWaits).
type answerWait struct {
	mu       sync.Mutex
	answered bool
	stop     context.CancelFunc      // ends watchAnswer
	cut      context.CancelCauseFunc // ends the attempt
}

// answer ends the wait: the attempt is no longer cut.
func (w *answerWait) answer() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.answered = true
	w.stop()
}

// end cuts the attempt with cause, unless Neo4j answered it meanwhile.
func (w *answerWait) end(cause error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.answered {
		w.cut(cause)
	}
}

// watchAnswer ends w's attempt when Neo4j answers neither it nor a probe within d, or,
// while Neo4j answers the probes, when the request has waited retryTime since shared
// started (awaitAnswer). ctx ends at the answer.
func (s *Store) watchAnswer(ctx context.Context, w *answerWait, d time.Duration, shared *sharedWait) {
	started := time.Now()
	for heard := started; ctxtime.Sleep(ctx, time.Until(heard.Add(d/2))) == nil; heard = time.Now() {
		pctx, cancel := context.WithDeadline(ctx, heard.Add(d))
		alive := s.alive(pctx)
		cancel()
		switch {
		case !alive:
			w.end(errNoAnswer)
			return
		case time.Since(shared.start(started)) >= s.retryTime:
			w.end(errBusy)
			return
		}
	}
}

// alive reports whether Neo4j answers a trivial statement before ctx ends, on another
// connection than the attempt's that waits (a session takes one of its own): a pooled
// one, or a new one if none is idle. It is no request's statement: neither logged nor
// counted in OpenTransactions.
func (s *Store) alive(ctx context.Context) bool {
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(ctx)
	res, err := sess.Run(ctx, qPing.text, nil)
	if err == nil {
		_, err = res.Consume(ctx)
	}
	if err == nil {
		s.hear()
	}
	return err == nil
}

// hear notes that Neo4j answered a statement now (Ready).
func (s *Store) hear() { s.heard.Store(time.Now().UnixNano()) }

// heardSince reports whether Neo4j answered a statement of this store at t or after.
func (s *Store) heardSince(t time.Time) bool { return s.heard.Load() >= t.UnixNano() }

// awaiting starts the wait of ctx's attempt for Neo4j's answer to a statement about to be
// sent (awaitAnswer).
func awaiting(ctx context.Context) {
	if ws, ok := ctx.Value(answerKey{}).(*answerWaits); ok {
		ws.await()
	}
}

// answered ends the wait of ctx's attempt for Neo4j's answer to a statement
// (awaitAnswer), answered or failed (err); only an answer tells the store that Neo4j
// answered (Ready).
func answered(ctx context.Context, err error) {
	if ws, ok := ctx.Value(answerKey{}).(*answerWaits); ok {
		if err == nil {
			ws.heard()
		}
		ws.answer()
	}
}

// OpenTransactions is the number of transactions of this store running now, but for
// the caches' reads in the background (inBackground). Tests use it to prove that no model
// or embedder call happens while one is open (ARCHITECTURE.md, Layout).
func (s *Store) OpenTransactions() int { return int(s.openTx.Load()) }

type backgroundKey struct{}

// inBackground marks ctx as a cache's read of its own goroutine (a space's keyword index
// or graph snapshot), which holds no request's transaction and is left out of
// OpenTransactions.
func inBackground(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

// countOpen counts a transaction in OpenTransactions until the returned func is called.
func (s *Store) countOpen(ctx context.Context) func() {
	if ctx.Value(backgroundKey{}) != nil {
		return func() {}
	}
	s.openTx.Add(1)
	return func() { s.openTx.Add(-1) }
}

// attempt runs fn once in a session of its own.
func (s *Store) attempt(ctx context.Context, mode neo4j.AccessMode, fn txWork) ([]*neo4j.Record, error) {
	defer s.countOpen(ctx)()
	defer func(started time.Time) { statementLogOf(ctx).transaction(time.Since(started)) }(time.Now())
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db, AccessMode: mode})
	defer sess.Close(ctx)
	work := func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) { return fn(ctx, tx) }
	if mode == neo4j.AccessModeRead {
		return neo4j.ExecuteRead(ctx, sess, work)
	}
	return neo4j.ExecuteWrite(ctx, sess, work)
}

// jitter spreads d by ±25%, so that transactions that deadlocked together do not retry
// together.
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d*3/4 + rand.N(d/2+1)
}

// collect runs q inside tx and reads every record.
func collect(ctx context.Context, tx neo4j.ManagedTransaction, q query, params map[string]any) ([]*neo4j.Record, error) {
	if err := q.check(params); err != nil {
		return nil, err
	}
	log := statementLogOf(ctx)
	st, text := log.begin(q)
	defer func(started time.Time) { st.Duration = time.Since(started); log.statement(st) }(time.Now())
	awaiting(ctx)
	res, err := tx.Run(ctx, text, params)
	answered(ctx, err)
	if err != nil {
		return nil, err
	}
	recs, err := res.Collect(ctx)
	if err == nil && log.profiled() {
		st.DBHits, st.Rows = profileCounts(ctx, res)
	}
	return recs, err
}

// profileCounts sums the database hits and rows of a profiled statement's plan (0 when
// it has none).
func profileCounts(ctx context.Context, res neo4j.ResultWithContext) (hits, rows int64) {
	sum, err := res.Consume(ctx)
	if err != nil || sum.Profile() == nil {
		return 0, 0
	}
	return planTotals(sum.Profile())
}

// translate maps driver errors to domain errors: an unreachable server or a lost
// connection is EUnavailable (the API answers 503), with the driver's cause (its errors
// name no credentials), anything else stays internal.
func translate(err error) error {
	if err == nil {
		return nil
	}
	var re *realm.Error
	if errors.As(err, &re) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// The driver gives up retrying (a server gone, a deadlock that persists) with an
	// error that does not unwrap to its causes.
	var gaveUp *neo4j.TransactionExecutionLimit
	var conn *neo4j.ConnectivityError
	if errors.As(err, &gaveUp) && len(gaveUp.Errors) > 0 {
		return unavailable(gaveUp.Errors[len(gaveUp.Errors)-1]) // the last attempt's cause, not the retry's summary
	}
	if errors.As(err, &conn) || errors.As(err, &gaveUp) || isTransient(err) || neo4j.IsRetryable(err) {
		return unavailable(err)
	}
	var usage *neo4j.UsageError
	if errors.As(err, &usage) && strings.Contains(usage.Message, "closed") {
		return unavailable(err)
	}
	// A handshake cut off by a Neo4j stopping or starting offers no version, in an error
	// of the driver's words alone.
	if strings.Contains(err.Error(), "none of the server offered Bolt versions are supported") {
		return unavailable(err)
	}
	return err
}

// unavailable is the EUnavailable of a Neo4j that cannot serve now, saying why to the
// logs only: the driver's words can name the database's address.
func unavailable(cause error) error {
	return &realm.Error{Code: realm.EUnavailable, Message: "neo4j is unavailable", Cause: firstLine(cause)}
}

// Record accessors that tolerate nulls.

func str(r *neo4j.Record, key string) string {
	v, _ := r.Get(key)
	s, _ := v.(string)
	return s
}

func num(r *neo4j.Record, key string) int64 {
	v, _ := r.Get(key)
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

func float(r *neo4j.Record, key string) float64 {
	v, _ := r.Get(key)
	switch n := v.(type) {
	case float64:
		return n
	case int64:
		return float64(n)
	}
	return 0
}
