package reconsolidation

import (
	"fmt"
	"math"

	"github.com/realm-memory/realm"
)

// Config holds the parameters of the confidence-guided update (REALM.md §4.3). Every
// value is configurable; DefaultConfig gives ours.
type Config struct {
	Gamma          float64 // add: w = γ·c
	CMin           float64 // add only when c ≥ c_min
	Eta            float64 // learning rate of confirmed feedback
	EtaUnconfirmed float64 // learning rate of the system's own audits (ours: η/2)
	WMin           float64 // floor of every weight; weaken pulls toward it
	// MaxLinks bounds the learned links one reconsolidation adds (consolidate.go; 0: none).
	MaxLinks int
}

// DefaultConfig is γ = 0.8, c_min = 0.5, η = 0.5, η/2 unconfirmed, w_min = 0.05 (REALM.md
// §4.3), and at most 6 learned links per reconsolidation.
func DefaultConfig() Config {
	return Config{Gamma: 0.8, CMin: 0.5, Eta: 0.5, EtaUnconfirmed: 0.25, WMin: 0.05, MaxLinks: 6}
}

// Validate returns an EInvalid *Error naming every parameter out of range, or nil.
func (c Config) Validate() error {
	f := realm.FieldErrors{}
	in := func(name string, v, lo, hi float64, loOpen bool) {
		if math.IsNaN(v) || v < lo || v > hi || (loOpen && v == lo) {
			f.Add(name, fmt.Sprintf("must be in %s%g, %g]", map[bool]string{true: "(", false: "["}[loOpen], lo, hi))
		}
	}
	in("gamma", c.Gamma, 0, 1, true)
	in("c_min", c.CMin, 0, 1, false)
	in("eta", c.Eta, 0, 1, true)
	in("eta_unconfirmed", c.EtaUnconfirmed, 0, c.Eta, true)
	in("w_min", c.WMin, 0, 1, false)
	if c.WMin == 1 {
		f.Add("w_min", "must be below 1")
	}
	if c.MaxLinks < 0 {
		f.Add("max_links", "must be 0 or more")
	}
	return f.Err()
}

// Rule is the update rule with the learning rate of one reconsolidation chosen.
type Rule struct {
	Gamma, CMin, Eta, WMin float64
}

// Rule returns the update rule for confirmed feedback (η) or a self-audit (η/2).
func (c Config) Rule(confirmed bool) Rule {
	eta := c.EtaUnconfirmed
	if confirmed {
		eta = c.Eta
	}
	return Rule{Gamma: c.Gamma, CMin: c.CMin, Eta: eta, WMin: c.WMin}
}

// Add is the weight of a new edge, w = γ·c (REALM.md §4.3); ok is false when c < c_min
// and the edge must not be written.
func (r Rule) Add(c float64) (w float64, ok bool) {
	if c < r.CMin {
		return 0, false
	}
	return r.clamp(r.Gamma * c), true
}

// Strengthen is w ← w + η·c·(1 − w) (REALM.md §4.3): it never reaches 1 in one step.
func (r Rule) Strengthen(w, c float64) float64 { return r.clamp(w + r.Eta*c*(1-w)) }

// Weaken is w ← w − η·c·(w − w_min) (REALM.md §4.3): it never reaches w_min in one step.
func (r Rule) Weaken(w, c float64) float64 { return r.clamp(w - r.Eta*c*(w-r.WMin)) }

// NewWeight applies action to an edge of weight old (ignored for add) with confidence c.
// Callers drop adds below c_min first (Add's ok).
func (r Rule) NewWeight(action realm.EditAction, old, c float64) float64 {
	switch action {
	case realm.EditAdd:
		w, _ := r.Add(c)
		return w
	case realm.EditStrengthen:
		return r.Strengthen(old, c)
	case realm.EditWeaken:
		return r.Weaken(old, c)
	}
	return old
}

// Step is Strengthen and Weaken as a step toward a target, w ← clamp(w + rate·(target −
// w)) with rate η·c and target 1 or w_min: the same weights to the bit, which the store
// computes inside its one statement (cypher.EditBatch.Step, with Floor w_min).
func (r Rule) Step(action realm.EditAction, c float64) (rate, target float64) {
	if action == realm.EditWeaken {
		return r.Eta * c, r.WMin
	}
	return r.Eta * c, 1
}

// clamp keeps a weight in [w_min, 1] (REALM.md §4.4).
func (r Rule) clamp(w float64) float64 {
	return min(max(w, r.WMin), 1)
}
