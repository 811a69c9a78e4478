package main

import (
	"strconv"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api"
)

// running bounds the work that clients start and serve runs at once: async ingestions,
// which run on after their requests, a key's synchronous ingestions, and imports, each a
// file of up to REALM_MAX_IMPORT_BYTES spooled to disk (api.Config).
type running struct {
	AsyncJobsPerKey      int // REALM_MAX_ASYNC_JOBS_PER_KEY
	AsyncJobs            int // REALM_MAX_ASYNC_JOBS
	SyncIngestionsPerKey int // REALM_MAX_SYNC_INGESTIONS_PER_KEY
	Imports              int // REALM_MAX_IMPORTS
	ImportsPerKey        int // REALM_MAX_IMPORTS_PER_KEY
}

// loadRunning reads REALM_MAX_ASYNC_JOBS_PER_KEY, REALM_MAX_ASYNC_JOBS,
// REALM_MAX_SYNC_INGESTIONS_PER_KEY, REALM_MAX_IMPORTS and REALM_MAX_IMPORTS_PER_KEY; a
// key's bound of async ingestions or imports may not exceed the process's.
func loadRunning(getenv func(string) string) (running, error) {
	var l running
	for _, s := range []struct {
		name string
		def  int
		v    *int
	}{
		{"REALM_MAX_ASYNC_JOBS_PER_KEY", api.DefaultMaxAsyncJobsPerKey, &l.AsyncJobsPerKey},
		{"REALM_MAX_ASYNC_JOBS", api.DefaultMaxAsyncJobs, &l.AsyncJobs},
		{"REALM_MAX_SYNC_INGESTIONS_PER_KEY", api.DefaultMaxSyncIngestionsPerKey, &l.SyncIngestionsPerKey},
		{"REALM_MAX_IMPORTS", api.DefaultMaxImports, &l.Imports},
		{"REALM_MAX_IMPORTS_PER_KEY", api.DefaultMaxImportsPerKey, &l.ImportsPerKey},
	} {
		*s.v = s.def
		v := getenv(s.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return l, realm.Errorf(realm.EInvalid, "%s %q: want a positive number", s.name, v)
		}
		*s.v = n
	}
	for _, b := range []struct {
		perKey, process string
		k, p            int
	}{
		{"REALM_MAX_ASYNC_JOBS_PER_KEY", "REALM_MAX_ASYNC_JOBS", l.AsyncJobsPerKey, l.AsyncJobs},
		{"REALM_MAX_IMPORTS_PER_KEY", "REALM_MAX_IMPORTS", l.ImportsPerKey, l.Imports},
	} {
		if b.k <= b.p {
			continue
		}
		// The process's bound would win: a key's bound above it only misleads.
		perKey := strconv.Itoa(b.k)
		if getenv(b.perKey) == "" {
			perKey += " (its default)"
		}
		return l, realm.Errorf(realm.EInvalid, "%s %s is above %s %d, the bound of the whole process: set it to at most %d",
			b.perKey, perKey, b.process, b.p, b.p)
	}
	return l, nil
}
