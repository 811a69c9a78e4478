package main

import (
	"strings"
	"testing"
)

func TestLoadRunning(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want running
		err  string
	}{
		{"Defaults", nil, running{AsyncJobsPerKey: 4, AsyncJobs: 16, SyncIngestionsPerKey: 4, Imports: 2, ImportsPerKey: 1}, ""},
		{"OK", map[string]string{"REALM_MAX_ASYNC_JOBS_PER_KEY": "1", "REALM_MAX_ASYNC_JOBS": "3", "REALM_MAX_SYNC_INGESTIONS_PER_KEY": "2",
			"REALM_MAX_IMPORTS": "5", "REALM_MAX_IMPORTS_PER_KEY": "2"},
			running{AsyncJobsPerKey: 1, AsyncJobs: 3, SyncIngestionsPerKey: 2, Imports: 5, ImportsPerKey: 2}, ""},
		{"ErrImportsPerKeyAbove", map[string]string{"REALM_MAX_IMPORTS": "2", "REALM_MAX_IMPORTS_PER_KEY": "3"}, running{},
			"REALM_MAX_IMPORTS_PER_KEY 3 is above REALM_MAX_IMPORTS 2"},
		{"ErrSyncZero", map[string]string{"REALM_MAX_SYNC_INGESTIONS_PER_KEY": "0"}, running{}, `REALM_MAX_SYNC_INGESTIONS_PER_KEY "0"`},
		{"ErrZero", map[string]string{"REALM_MAX_ASYNC_JOBS": "0"}, running{}, `REALM_MAX_ASYNC_JOBS "0"`},
		{"ErrPerKeyAbove", map[string]string{"REALM_MAX_ASYNC_JOBS": "2", "REALM_MAX_ASYNC_JOBS_PER_KEY": "8"}, running{},
			"REALM_MAX_ASYNC_JOBS_PER_KEY 8 is above REALM_MAX_ASYNC_JOBS 2"},
		{"ErrDefaultPerKeyAbove", map[string]string{"REALM_MAX_ASYNC_JOBS": "2"}, running{},
			"REALM_MAX_ASYNC_JOBS_PER_KEY 4 (its default) is above REALM_MAX_ASYNC_JOBS 2"},
		{"ErrNotANumber", map[string]string{"REALM_MAX_IMPORTS": "two"}, running{}, `REALM_MAX_IMPORTS "two"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := loadRunning(func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("%+v %v, want %+v", got, err, tt.want)
			}
		})
	}
}
