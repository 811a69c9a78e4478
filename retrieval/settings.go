package retrieval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
)

// ScoreSettings names the scoring settings that Options.SetScore takes.
var ScoreSettings = []string{"scorer", "path_exponent", "seed_share", "reach_bonus", "learned_close", "learned_full", "learned_walk", "learned_boost", "learned_drop",
	"learned_nearest", "learned_relevance", "learned_mismatch", "learned_half_life", "explore", "hub_degree"}

// SetScore sets the aggregation's settings (REALM.md §3.3 "Ours") from a list such as
// "scorer=ours,path_exponent=0.5,seed_share=0.25,learned_close=0.7,learned_full=1,learned_boost=1,learned_drop=0.5"
// (REALM_SCORE); "" changes nothing. It returns an EInvalid *Error naming the bad entries.
func (o *Options) SetScore(settings string) error {
	f := realm.FieldErrors{}
	for _, kv := range strings.Split(settings, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, value, _ := strings.Cut(kv, "=")
		if name == "hub_degree" {
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 1_000_000 {
				f.Add(name, "must be a whole number in [1, 1000000]")
				continue
			}
			o.HubDegree = n
			continue
		}
		if name == "scorer" {
			if !slices.Contains(Scorers, value) {
				f.Add(name, fmt.Sprintf("must be one of %s", strings.Join(Scorers, ", ")))
			}
			o.Scorer = value
			continue
		}
		target := map[string]*float64{"path_exponent": &o.PathExponent, "seed_share": &o.SeedShare, "reach_bonus": &o.ReachBonus, "learned_close": &o.LearnedClose,
			"learned_full": &o.LearnedFull, "learned_walk": &o.LearnedWalk, "learned_boost": &o.LearnedBoost, "learned_drop": &o.LearnedDrop,
			"learned_nearest": &o.LearnedNearest, "learned_relevance": &o.LearnedRelevance,
			"learned_mismatch": &o.LearnedMismatch, "learned_half_life": &o.LearnedHalfLife, "explore": &o.Explore}[name]
		if target == nil {
			f.Add(name, fmt.Sprintf("unknown setting; known: %s", strings.Join(ScoreSettings, ", ")))
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		hi := map[string]float64{"path_exponent": 4, "learned_boost": 4, "learned_half_life": 1e6}[name]
		if hi == 0 {
			hi = 1
		}
		if err != nil || v < 0 || v > hi {
			f.Add(name, fmt.Sprintf("must be a number in [0, %g]", hi))
			continue
		}
		*target = v
	}
	if o.LearnedFull <= o.LearnedClose && o.LearnedClose < 1 {
		f.Add("learned_full", fmt.Sprintf("must be above learned_close (%g)", o.LearnedClose))
	}
	return f.Err()
}
