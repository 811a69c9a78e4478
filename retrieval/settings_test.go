package retrieval_test

import (
	"strings"
	"testing"

	"github.com/realm-memory/realm/retrieval"
)

// TestSetScore: REALM_SCORE's entries set the options they name, and bad ones are
// refused with the entry named, the options left for the caller to discard.
func TestSetScore(t *testing.T) {
	o := retrieval.DefaultOptions()
	if err := o.SetScore("learned_close=0.3, learned_full=0.6,learned_boost=2,learned_nearest=1,learned_half_life=24,explore=0.125,hub_degree=200"); err != nil {
		t.Fatal(err)
	}
	if o.LearnedClose != 0.3 || o.LearnedFull != 0.6 || o.LearnedBoost != 2 || o.LearnedNearest != 1 || o.LearnedHalfLife != 24 || o.Explore != 0.125 || o.HubDegree != 200 {
		t.Errorf("options %+v", o)
	}
	for setting, want := range map[string]string{
		"learned_full=0.4,learned_close=0.5": "learned_full",
		"explore=2":                          "explore",
		"seed_share=1.5":                     "seed_share",
		"learned_nearest=2":                  "learned_nearest",
		"learned_half_life=-1":               "learned_half_life",
		"learned_boost=x":                    "learned_boost",
		"closeness=0.5":                      "unknown setting",
		"hub_degree=0":                       "hub_degree",
		"hub_degree=1.5":                     "hub_degree",
	} {
		o := retrieval.DefaultOptions()
		err := o.SetScore(setting)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("SetScore(%q) = %v, want an error naming %s", setting, err, want)
		}
	}
}
