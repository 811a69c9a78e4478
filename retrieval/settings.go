package retrieval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
)

// ScoreSettings names the scoring settings that Options.SetScore takes.
var ScoreSettings = []string{"scorer", "path_exponent", "learned_close", "learned_boost", "learned_drop"}

// SetScore sets the aggregation's settings (REALM.md §3.3 "Ours") from a list such as
// "scorer=ours,path_exponent=0.5,learned_close=0.5,learned_boost=1,learned_drop=0.5"
// (REALM_SCORE); "" changes nothing. It returns an EInvalid *Error naming the bad entries.
func (o *Options) SetScore(settings string) error {
	f := realm.FieldErrors{}
	for _, kv := range strings.Split(settings, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, value, _ := strings.Cut(kv, "=")
		if name == "scorer" {
			if !slices.Contains(Scorers, value) {
				f.Add(name, fmt.Sprintf("must be one of %s", strings.Join(Scorers, ", ")))
			}
			o.Scorer = value
			continue
		}
		target := map[string]*float64{"path_exponent": &o.PathExponent, "learned_close": &o.LearnedClose,
			"learned_boost": &o.LearnedBoost, "learned_drop": &o.LearnedDrop}[name]
		if target == nil {
			f.Add(name, fmt.Sprintf("unknown setting; known: %s", strings.Join(ScoreSettings, ", ")))
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		hi := 1.0
		if name == "path_exponent" || name == "learned_boost" {
			hi = 4
		}
		if err != nil || v < 0 || v > hi {
			f.Add(name, fmt.Sprintf("must be a number in [0, %g]", hi))
			continue
		}
		*target = v
	}
	return f.Err()
}
