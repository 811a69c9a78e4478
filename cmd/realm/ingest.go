package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api"
	"github.com/realm-memory/realm/bench"
)

// runIngest reads a JSONL file of messages or a LoCoMo file (--sample picks one
// conversation) and ingests it into --space, with a progress bar and a summary line.
func runIngest(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	space := fs.String("space", "", "space to ingest into (required)")
	sample := fs.String("sample", "", "LoCoMo sample id, e.g. conv-26")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if !realm.ValidSpace(*space) || len(cfg.Args) != 1 {
		return realm.Errorf(realm.EInvalid, "usage: realm ingest --space SPACE [--sample ID] FILE (space: [A-Za-z0-9_-]{1,64})")
	}
	obs, err := readObservations(cfg.Args[0], *sample)
	if err != nil {
		return err
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	start := time.Now()
	const batch = 100 // a run of observations integrated together (construction)
	for i := 0; i < len(obs); i += batch {
		end := min(i+batch, len(obs))
		if _, err := p.ingest.Ingest(ctx, *space, obs[i:end]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\r%s", bench.ProgressLine("ingest", end, len(obs), time.Since(start)))
	}
	fmt.Fprintln(stdout)
	elapsed := time.Since(start)
	st, err := d.store.Stats(ctx, *space)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d observations, %d memories (%s), %d edges (%s), %.1f s, %.1f observations/s\n",
		len(obs), st.Memories, counts(st.ByType), st.Edges, counts(st.ByPredicate),
		elapsed.Seconds(), float64(len(obs))/elapsed.Seconds())
	if st.ObservationsPending > 0 || st.ObservationsFailed > 0 {
		fmt.Fprintf(stdout, "warning: %d observations pending, %d failed (see GET /v1/spaces/%s/stats)\n",
			st.ObservationsPending, st.ObservationsFailed, *space)
	}
	return nil
}

// readObservations reads a LoCoMo JSON file (a list of samples) or JSONL messages, each
// line one message as POST /v1/spaces/{space}/observations takes them (api.ReadMessage).
func readObservations(path, sample string) ([]realm.Observation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, realm.Errorf(realm.EInvalid, "%v", err)
	}
	if strings.HasPrefix(strings.TrimSpace(string(b)), "[") {
		samples, err := bench.LoadLoCoMo(path)
		if err != nil {
			return nil, realm.Errorf(realm.EInvalid, "%v", err)
		}
		var ids []string
		for _, s := range samples {
			if s.ID == sample || sample == "" && len(samples) == 1 {
				return s.Observations(), nil
			}
			ids = append(ids, s.ID)
		}
		return nil, realm.Errorf(realm.EInvalid, "%s holds samples %s; pick one with --sample", path, strings.Join(ids, ", "))
	}
	var out []realm.Observation
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		o, err := api.ReadMessage(sc.Bytes())
		if err != nil {
			bad := &realm.Error{Code: realm.EInvalid, Message: fmt.Sprintf("%s line %d: %s", path, line, realm.ErrorMessage(err))}
			var e *realm.Error
			if errors.As(err, &e) {
				bad.Fields = e.Fields
			}
			return nil, bad
		}
		out = append(out, o)
	}
	return out, sc.Err()
}

// counts renders a count map as "a 3, b 2", largest first.
func counts[K ~string](m map[K]int64) string {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
