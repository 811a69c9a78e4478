package reconsolidation

import (
	"math"
	"testing"

	"github.com/realm-memory/realm"
)

func TestRule(t *testing.T) {
	cfg := DefaultConfig()
	confirmed, self := cfg.Rule(true), cfg.Rule(false)
	tests := []struct {
		name   string
		rule   Rule
		action realm.EditAction
		old, c float64
		want   float64
	}{
		// add: w = γ·c = 0.8·c
		{"AddConfident", confirmed, realm.EditAdd, 0, 0.9, 0.72},
		{"AddAtCMin", confirmed, realm.EditAdd, 0, 0.5, 0.4},
		// strengthen: w + η·c·(1 − w)
		{"Strengthen", confirmed, realm.EditStrengthen, 0.5, 1, 0.75},          // 0.5 + 0.5·1·0.5
		{"StrengthenPartial", confirmed, realm.EditStrengthen, 0.4, 0.6, 0.58}, // 0.4 + 0.5·0.6·0.6
		{"StrengthenSelfAudit", self, realm.EditStrengthen, 0.5, 1, 0.625},     // η/2: 0.5 + 0.25·1·0.5
		{"StrengthenAtOne", confirmed, realm.EditStrengthen, 1, 1, 1},
		{"StrengthenZeroConfidence", confirmed, realm.EditStrengthen, 0.3, 0, 0.3},
		// weaken: w − η·c·(w − w_min)
		{"Weaken", confirmed, realm.EditWeaken, 0.85, 1, 0.45},         // 0.85 − 0.5·0.8
		{"WeakenPartial", confirmed, realm.EditWeaken, 0.4, 0.8, 0.26}, // 0.4 − 0.5·0.8·0.35
		{"WeakenSelfAudit", self, realm.EditWeaken, 0.85, 1, 0.65},     // 0.85 − 0.25·0.8
		{"WeakenAtFloor", confirmed, realm.EditWeaken, 0.05, 1, 0.05},
		// bounds: [w_min, 1] whatever the stored weight
		{"ClampAboveOne", confirmed, realm.EditStrengthen, 1.2, 1, 1},
		{"ClampBelowFloor", confirmed, realm.EditWeaken, 0.01, 1, 0.05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rule.NewWeight(tt.action, tt.old, tt.c); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("%s(%g, c=%g) = %.15g, want %g", tt.action, tt.old, tt.c, got, tt.want)
			}
		})
	}
	t.Run("AddBelowCMinIgnored", func(t *testing.T) {
		if w, ok := confirmed.Add(0.49); ok {
			t.Errorf("add with c = 0.49 < c_min gave weight %g", w)
		}
	})
	t.Run("Bounds", func(t *testing.T) {
		// Repeated edits approach but never pass the bounds, and one edit never reaches them.
		w := 0.5
		for range 200 {
			w = confirmed.Strengthen(w, 1)
			if w > 1 {
				t.Fatalf("strengthen went above 1: %g", w)
			}
		}
		if got := confirmed.Strengthen(0.99, 1); got >= 1 {
			t.Errorf("one strengthen saturated 0.99 to %g", got)
		}
		w = 0.5
		for range 200 {
			w = confirmed.Weaken(w, 1)
			if w < cfg.WMin {
				t.Fatalf("weaken went below w_min: %g", w)
			}
		}
		if got := confirmed.Weaken(0.06, 1); got <= cfg.WMin {
			t.Errorf("one weaken zeroed 0.06 to %g", got)
		}
	})
	t.Run("StrengthensCommute", func(t *testing.T) {
		// w_final = 1 − (1 − w0)·Π(1 − η·c_i), in any order.
		cs := []float64{0.3, 0.9, 0.55, 1}
		w0, w1, w2 := 0.2, 0.2, 0.2
		prod := 1.0
		for i := range cs {
			w1 = confirmed.Strengthen(w1, cs[i])
			w2 = confirmed.Strengthen(w2, cs[len(cs)-1-i])
			prod *= 1 - confirmed.Eta*cs[i]
		}
		if want := 1 - (1-w0)*prod; math.Abs(w1-want) > 1e-12 || math.Abs(w2-want) > 1e-12 {
			t.Errorf("forward %g, backward %g, closed form %g", w1, w2, want)
		}
	})
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	bad := DefaultConfig()
	bad.Eta, bad.EtaUnconfirmed, bad.WMin, bad.Gamma = 1.5, 2, 1, 0
	err := bad.Validate()
	if realm.ErrorCode(err) != realm.EInvalid {
		t.Fatalf("got %v, want invalid", err)
	}
	for _, field := range []string{"eta", "eta_unconfirmed", "w_min", "gamma"} {
		if _, ok := err.(*realm.Error).Fields[field]; !ok {
			t.Errorf("%s not reported: %v", field, err)
		}
	}
}

// Step gives NewWeight's strengthen and weaken to the bit, as the store computes them
// (new = clamp(old + rate·(target − old))), over a grid of weights and confidences.
func TestRuleStep(t *testing.T) {
	cfg := DefaultConfig()
	for _, rule := range []Rule{cfg.Rule(true), cfg.Rule(false)} {
		for _, action := range []realm.EditAction{realm.EditStrengthen, realm.EditWeaken} {
			for i := 0; i <= 200; i++ {
				for j := 0; j <= 20; j++ {
					old, c := rule.WMin+(1-rule.WMin)*float64(i)/200+float64(i%7)*1e-13, float64(j)/20
					rate, target := rule.Step(action, c)
					got := min(max(old+rate*(target-old), rule.WMin), 1)
					if want := rule.NewWeight(action, old, c); got != want {
						t.Fatalf("%s of %v with c = %v: step gives %v, NewWeight %v", action, old, c, got, want)
					}
				}
			}
		}
	}
}
