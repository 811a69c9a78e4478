package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

// TestCheckpoint: finished samples saved to a file or a directory are found again by a
// run with the same settings; another run's checkpoint is a conflict, a foreign file invalid.
func TestCheckpoint(t *testing.T) {
	h := checkpointHeader{Protocol: locomoProtocol, K: 10, Variants: []string{"adaptive, reconsolidation on"}, Settings: map[string]string{"judge_model": "m"}}
	dir := t.TempDir()
	for _, tt := range []struct {
		name, path string
		files      int // files in the directory afterwards
	}{
		{"File", filepath.Join(dir, "run.ckpt"), 1},
		{"NewDirectory", filepath.Join(dir, "ckpt") + string(os.PathSeparator), 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ck, done, err := openCheckpoint(tt.path, h)
			if err != nil || len(done) != 0 {
				t.Fatalf("fresh: %v, %v", done, err)
			}
			for _, s := range []string{"conv-1", "conv/2"} {
				if err := ck.save(SampleResult{Sample: s, Observations: 7}); err != nil {
					t.Fatal(err)
				}
			}
			_, done, err = openCheckpoint(tt.path, h)
			if err != nil || len(done) != 2 || done["conv/2"].Observations != 7 {
				t.Fatalf("reopened: %v, %v", done, err)
			}
			if ck.dir {
				files, _ := filepath.Glob(filepath.Join(tt.path, "*"))
				if len(files) != tt.files || filepath.Base(files[1]) != "conv_2.json" {
					t.Errorf("files %v", files)
				}
			}
			other := h
			other.Settings = map[string]string{"judge_model": "n"}
			other.K = 5
			_, _, err = openCheckpoint(tt.path, other)
			if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), `judge_model "m", not "n"`) || !strings.Contains(err.Error(), "k 10, not 5") {
				t.Errorf("other settings: %v", err)
			}
		})
	}
	t.Run("ErrForeignFile", func(t *testing.T) {
		p := filepath.Join(dir, "foreign.json")
		if err := os.WriteFile(p, []byte(`{"samples": []}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := openCheckpoint(p, h); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
	t.Run("None", func(t *testing.T) {
		ck, done, err := openCheckpoint("", h)
		if err != nil || len(done) != 0 || ck.save(SampleResult{Sample: "x"}) != nil {
			t.Errorf("no checkpoint: %v %v", done, err)
		}
	})
}
