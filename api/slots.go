package api

import (
	"errors"
	"fmt"
	"sync"

	"github.com/realm-memory/realm"
)

// Defaults of the work a process runs at once for its clients (Config).
const (
	DefaultMaxAsyncJobsPerKey = 4
	DefaultMaxAsyncJobs       = 16
	DefaultMaxImports         = 2
	// DefaultMaxImportsPerKey: one tenant's imports leave the process's others to the
	// other tenants.
	DefaultMaxImportsPerKey = 1
	// DefaultMaxSyncIngestionsPerKey is the async bound's: a batch sent without async
	// loads Neo4j and the embedder as much, for as long.
	DefaultMaxSyncIngestionsPerKey = 4
)

// slots counts what runs at once, in all and by API key, against a limit for each: the
// async ingestions (Config.MaxAsyncJobs, MaxAsyncJobsPerKey), whose background work
// outlives their requests, the imports (Config.MaxImports, MaxImportsPerKey), each a file of up to
// MaxImportBytes on disk and a space written at length, and a key's synchronous
// ingestions (Config.MaxSyncIngestionsPerKey), each holding Neo4j and the embedder for as
// long as its batch takes.
type slots struct {
	what          string // "async ingestions"
	max           int    // 0: no limit for the process
	maxPerKey     int    // 0: no limit of its own for a key
	setting       string
	perKeySetting string

	mu    sync.Mutex
	total int
	byKey map[string]int
}

func newSlots(what string, max int, setting string, maxPerKey int, perKeySetting string) *slots {
	return &slots{what: what, max: max, setting: setting, maxPerKey: maxPerKey, perKeySetting: perKeySetting, byKey: map[string]int{}}
}

// take takes a slot for key and returns the function that gives it back (any number of
// calls give it back once); when every slot of the key or of the process is taken, it
// returns nil and why, naming the setting. A key learns its own count, never the
// process's: how busy the server is with other tenants' work is none of its business.
func (s *slots) take(key string) (release func(), full string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.maxPerKey > 0 && s.byKey[key] >= s.maxPerKey:
		return nil, fmt.Sprintf("this API key runs %d %s, the most it may at once (%s)", s.byKey[key], s.what, s.perKeySetting)
	case s.max > 0 && s.total >= s.max:
		return nil, fmt.Sprintf("the server runs the most %s it runs at once (%s)", s.what, s.setting)
	}
	s.total++
	s.byKey[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.total--
			if s.byKey[key]--; s.byKey[key] == 0 {
				delete(s.byKey, key)
			}
		})
	}, ""
}

// syncSlotTaken marks err, a key's synchronous ingestion refused for want of a slot, to be
// sent again after a second: a slot comes back when one of the key's batches is answered,
// most within a second or two.
func syncSlotTaken(err error) error {
	var e *realm.Error
	if errors.As(err, &e) {
		e.RetryAfter = 1
	}
	return err
}
