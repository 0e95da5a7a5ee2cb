package d20

import (
	"math"
	"testing"

	"simctl/sim/lang"
	"simctl/sim/rng"
)

// TestFusedLeafMatchesHolds checks the fused leaf's integer test (the
// interval as whole-number bounds, one unsigned comparison, the negation
// folded into next) against lang.Leaf.Holds for every whole number a
// fact kept per side can take near the bounds, over special bounds (the
// infinities, NaN, signed zeros, fractions, huge and empty intervals) and
// random ones.
func TestFusedLeafMatchesHolds(t *testing.T) {
	special := []float64{math.Inf(-1), math.Inf(1), math.NaN(), 0, math.Copysign(0, -1),
		-0.5, 0.5, -1, 1, 2.5, 3, math.Nextafter(3, 4), math.Nextafter(3, 2), -3,
		math.Nextafter(0, -1), math.Nextafter(0, 1), 1e300, -1e300, maxExact, -maxExact,
		maxExact + 2, -maxExact - 2, math.MaxInt32, math.MinInt32, 1 << 62, -(1 << 62)}
	r := rng.New(7, 1)
	bounds := append([]float64(nil), special...)
	for i := 0; i < 200; i++ {
		bounds = append(bounds, float64(int64(r.Uint64()%41)-20)/float64(1+r.Uint64()%4))
	}
	var xs []int64
	for x := int64(-25); x <= 25; x++ {
		xs = append(xs, x)
	}
	xs = append(xs, math.MaxInt32, math.MinInt32, maxExact-1, -maxExact+1, 1<<40, -(1 << 40))
	checked := 0
	for _, lo := range bounds {
		for _, hi := range bounds {
			for _, neg := range []bool{false, true} {
				l := lang.Leaf{Lo: lo, Hi: hi, Neg: neg, Next: [2]int32{lang.ResultFalse, 3}}
				fl := compileLeaf(l, FactAlliesDown, 0)
				if fl.kind >= numSideFacts {
					t.Fatalf("allies.down compiled as kind %d, not a fact kept per side", fl.kind)
				}
				for _, x := range xs {
					want := l.Next[b2i(l.Holds(float64(x)))]
					if got := fl.next[b2i(fl.holdsInt(x))]; got != want {
						t.Fatalf("leaf [%v, %v] neg %v at %d: fused next %d, Holds gives %d", lo, hi, neg, x, got, want)
					}
					checked++
				}
			}
		}
	}
	if checked < 100000 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// TestAsksActed checks that each fact reading fusedState.acted, and only
// those, keeps the mask (playFused sets it only then).
func TestAsksActed(t *testing.T) {
	for f := FactZero; f < numFusedFacts; f++ {
		want := f == FactEnemiesActed || f == FactAlliesActed || f == FactActed
		rules := []fusedRule{{slots: []FusedSlot{{Fact: FactRound}}}, {slots: []FusedSlot{{Fact: FactSelfHP}, {Fact: f}}}}
		if got := asksActed(rules); got != want {
			t.Errorf("fact %d: asksActed %v, want %v", f, got, want)
		}
	}
}

// TestHPDivComparesAsPct checks that hp/hpDiv, which the turn's walk
// compares with a self.hp_pct leaf's bounds, compares as pct does, also
// for a combatant that started with no hit points.
func TestHPDivComparesAsPct(t *testing.T) {
	bounds := []float64{math.Inf(-1), math.Inf(1), math.NaN(), 0, math.Copysign(0, -1),
		math.Nextafter(0, -1), math.Nextafter(0, 1), 0.25, 0.5, 1.0 / 3, 2.0 / 3, 0.75, 1, 1.5, -0.5}
	var fs fusedState
	checked := 0
	for _, m := range []int32{-4, 0, 1, 3, 7, 12, 25} {
		fs.hpDiv[0] = hpDivOf(m)
		for hp := int32(-30); hp <= 30; hp++ {
			fs.hp[0] = hp
			for _, lo := range bounds {
				for _, hi := range bounds {
					l := lang.Leaf{Lo: lo, Hi: hi, Next: [2]int32{lang.ResultFalse, lang.ResultTrue}}
					fl := compileLeaf(l, FactSelfHPPct, 0)
					// package agents' self.hp_pct (and pct before hpDiv)
					ref := 0.0
					if m > 0 {
						ref = float64(hp) / float64(m)
					}
					if p := fs.pct(0); math.Float64bits(p) != math.Float64bits(ref) {
						t.Fatalf("hp %d of %d: pct %v, want %v", hp, m, p, ref)
					}
					want := l.Holds(ref)
					if got := fl.holdsFloat(float64(hp) / hpDivOf(m)); got != want {
						t.Fatalf("hp %d of %d in [%v, %v]: %v, pct gives %v", hp, m, lo, hi, got, want)
					}
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
