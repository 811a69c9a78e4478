package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/realm-memory/realm/bench"
)

// TestScaleReportMakesItsDirectory: a run of minutes does not end in "no such file or
// directory" for an --out whose directory does not exist yet.
func TestScaleReportMakesItsDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "reports", "scale.json")
	if err := writeScaleReport(bench.ScaleReport{}, out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{out, filepath.Join(filepath.Dir(out), "scale.md")} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}
