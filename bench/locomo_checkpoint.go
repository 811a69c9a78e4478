package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/realm-memory/realm"
)

// checkpointHeader is what a run's results depend on; a checkpoint is resumed only by a
// run with the same header.
type checkpointHeader struct {
	Protocol string            `json:"protocol"`
	K        int               `json:"k"`
	Limit    int               `json:"limit"`
	Variants []string          `json:"variants"`
	Settings map[string]string `json:"settings"`
}

// checkpointFile is the content of a checkpoint file: the header and finished samples.
type checkpointFile struct {
	Header  checkpointHeader `json:"header"`
	Samples []SampleResult   `json:"samples"`
}

const locomoProtocol = "locomo-full"

func (c LoCoMoConfig) fingerprint(variants []LoCoMoVariant) checkpointHeader {
	h := checkpointHeader{Protocol: locomoProtocol, K: c.K, Limit: c.Limit, Settings: map[string]string{}}
	for _, v := range variants {
		h.Variants = append(h.Variants, v.Name)
	}
	maps.Copy(h.Settings, c.Settings)
	return h
}

// differences names what differs between two headers, for the error message.
func (h checkpointHeader) differences(o checkpointHeader) []string {
	var d []string
	if h.Protocol != o.Protocol {
		d = append(d, fmt.Sprintf("protocol %q, not %q", o.Protocol, h.Protocol))
	}
	if h.K != o.K {
		d = append(d, fmt.Sprintf("k %d, not %d", o.K, h.K))
	}
	if h.Limit != o.Limit {
		d = append(d, fmt.Sprintf("limit %d, not %d", o.Limit, h.Limit))
	}
	if !slices.Equal(h.Variants, o.Variants) {
		d = append(d, fmt.Sprintf("runs [%s], not [%s]", strings.Join(o.Variants, "; "), strings.Join(h.Variants, "; ")))
	}
	keys := slices.Collect(maps.Keys(h.Settings))
	for k := range o.Settings {
		if _, ok := h.Settings[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if h.Settings[k] != o.Settings[k] {
			d = append(d, fmt.Sprintf("%s %q, not %q", k, o.Settings[k], h.Settings[k]))
		}
	}
	return d
}

// checkpoint stores finished samples: all in one file, or one file per sample in a
// directory. The zero checkpoint stores nothing.
type checkpoint struct {
	path   string // "" : none
	dir    bool
	header checkpointHeader
	done   []SampleResult // file mode: every sample saved so far
}

// openCheckpoint opens path (a file, or a directory: one that exists or a name ending
// in a separator) and returns the samples already finished by a run with header h. A
// checkpoint of another run is an EConflict error, an unreadable one EInvalid.
func openCheckpoint(path string, h checkpointHeader) (*checkpoint, map[string]SampleResult, error) {
	ck := &checkpoint{path: path, header: h}
	done := map[string]SampleResult{}
	if path == "" {
		return ck, done, nil
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir(), errors.Is(err, os.ErrNotExist) && strings.HasSuffix(path, string(os.PathSeparator)):
		ck.dir = true
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, nil, err
		}
	case errors.Is(err, os.ErrNotExist):
		return ck, done, nil
	case err != nil:
		return nil, nil, err
	}
	var files []string
	if ck.dir {
		if files, err = filepath.Glob(filepath.Join(path, "*.json")); err != nil {
			return nil, nil, err
		}
	} else {
		files = []string{path}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		var cf checkpointFile
		if err := json.Unmarshal(b, &cf); err != nil || cf.Header.Protocol == "" {
			return nil, nil, realm.Errorf(realm.EInvalid, "checkpoint %s is not a checkpoint of realm bench locomo: %v", f, err)
		}
		if d := h.differences(cf.Header); len(d) > 0 {
			return nil, nil, realm.Errorf(realm.EConflict, "checkpoint %s was written by a run with other settings (%s): resume with the same flags, or use another --checkpoint",
				f, strings.Join(d, "; "))
		}
		for _, s := range cf.Samples {
			done[s.Sample] = s
			if !ck.dir {
				ck.done = append(ck.done, s)
			}
		}
	}
	return ck, done, nil
}

// save stores a finished sample, atomically (a crash leaves the previous checkpoint).
func (c *checkpoint) save(s SampleResult) error {
	if c.path == "" {
		return nil
	}
	file := c.path
	cf := checkpointFile{Header: c.header}
	if c.dir {
		file = filepath.Join(c.path, checkpointName(s.Sample)+".json")
		cf.Samples = []SampleResult{s}
	} else {
		c.done = append(c.done, s)
		cf.Samples = c.done
	}
	b, err := json.MarshalIndent(cf, "", " ")
	if err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// checkpointName makes a sample id safe as a file name.
func checkpointName(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, id)
}
