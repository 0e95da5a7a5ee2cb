package stats

import (
	"math"
	"testing"
)

// pairedFrom builds the paired sums of n encounters of 0/1 outcomes with
// n10 where only a won, n01 where only b won and n11 where both won.
func pairedFrom(n, n10, n01, n11 int64) Paired {
	return Paired{N: n, SumA: n10 + n11, SumB: n01 + n11, SumD: n10 - n01, SumD2: n10 + n01, SumA2: n10 + n11, SumB2: n01 + n11}
}

// exactCoverage is the exact probability, by enumerating every trinomial
// outcome (n10, n01, rest) of n encounters, that ci covers Δ = p10 - p01.
func exactCoverage(n int64, p10, p01 float64, ci func(Paired) Interval) float64 {
	delta := p10 - p01
	lf := func(k int64) float64 { v, _ := math.Lgamma(float64(k + 1)); return v }
	cov := 0.0
	for a := int64(0); a <= n; a++ {
		for b := int64(0); a+b <= n; b++ {
			lp := lf(n) - lf(a) - lf(b) - lf(n-a-b)
			if a > 0 {
				lp += float64(a) * math.Log(p10)
			}
			if b > 0 {
				lp += float64(b) * math.Log(p01)
			}
			if r := 1 - p10 - p01; n-a-b > 0 {
				lp += float64(n-a-b) * math.Log(r)
			}
			if (a > 0 && p10 == 0) || (b > 0 && p01 == 0) {
				continue
			}
			iv := ci(pairedFrom(n, a, b, 0))
			if iv.Lo <= delta && delta <= iv.Hi {
				cov += math.Exp(lp)
			}
		}
	}
	return cov
}

// TestPairedExactCICoverage computes the exact coverage of PairedExactCI
// (by enumeration, no simulation) over a grid of rare and common
// discordance, and checks it is at least 95% everywhere, as its derivation
// promises; the normal interval DiffCI, the procedure compare used before,
// falls well below on the same grid (the check that this test can fail).
func TestPairedExactCICoverage(t *testing.T) {
	skipUnderRace(t)
	exact := func(p Paired) Interval { iv, _ := PairedExactCI(p, 0.95); return iv }
	normal := func(p Paired) Interval { return p.DiffCI(0.95) }
	worstNormal := 1.0
	for _, n := range []int64{20, 60, 150} {
		for _, c := range [][2]float64{{0, 0.001}, {0, 0.01}, {0.002, 0.01}, {0.01, 0.01}, {0, 0.05}, {0.03, 0.1}, {0.2, 0.25}, {0.4, 0.1}, {0.005, 0}} {
			got := exactCoverage(n, c[0], c[1], exact)
			if got < 0.95-1e-9 {
				t.Errorf("N=%d p10=%v p01=%v: exact coverage %.4f < 0.95", n, c[0], c[1], got)
			}
			worstNormal = math.Min(worstNormal, exactCoverage(n, c[0], c[1], normal))
		}
	}
	t.Logf("worst normal coverage %.4f", worstNormal)
	if worstNormal > 0.90 {
		t.Errorf("the normal interval's worst coverage is %.4f: the grid no longer shows its failure", worstNormal)
	}
}

func TestPairedExactCIEdges(t *testing.T) {
	// No discordant encounter: an interval of positive width around 0.
	iv, ok := PairedExactCI(pairedFrom(2000, 0, 0, 700), 0.95)
	want := -math.Expm1(math.Log(0.0125) / 2000)
	if !ok || math.Abs(iv.Hi-want) > 1e-12 || math.Abs(iv.Lo+want) > 1e-12 {
		t.Errorf("D=0: got %+v ok=%v, want ±%v", iv, ok, want)
	}
	if PairedCI(pairedFrom(2000, 0, 0, 700), 0.95).Hi <= 0 {
		t.Error("PairedCI of no discordant encounters has zero width")
	}
	// Not 0/1 outcomes: not available, and PairedCI falls back to normal.
	p := Paired{}
	p.Add(2, 0)
	p.Add(0, 0)
	p.Add(1, 1)
	if _, ok := PairedExactCI(p, 0.95); ok {
		t.Error("PairedExactCI accepted counts that are not 0/1")
	}
	if got, want := PairedCI(p, 0.95), p.DiffCI(0.95); got != want {
		t.Errorf("PairedCI on counts = %+v, want DiffCI %+v", got, want)
	}
	// Many discordant encounters: the normal interval.
	q := pairedFrom(100000, 3000, 2500, 40000)
	if got, want := PairedCI(q, 0.95), q.DiffCI(0.95); got != want {
		t.Errorf("PairedCI at D=5500 = %+v, want DiffCI %+v", got, want)
	}
	// 0 vs 6 discordant: 4·P(X <= 0) = 4/64 (issue 35's compare printed
	// the exact McNemar 2/64 beside a 95% interval holding 0).
	if got := PairedP(pairedFrom(100, 0, 6, 10)); math.Abs(got-4.0/64) > 1e-12 {
		t.Errorf("PairedP(0 vs 6) = %v, want %v", got, 4.0/64)
	}
	if got := PairedP(pairedFrom(100, 0, 0, 10)); got != 1 {
		t.Errorf("PairedP with no discordant encounter = %v, want 1", got)
	}
}

// TestPairedPAgreesWithCI: issue 35 item 4. The p-value compare prints and
// its interval come from one construction: at every level tried, p < α
// exactly when PairedCI at 1-α excludes 0 (α = 0.05, and 0.05/6 as a
// Bonferroni level), for every split of fewer than
// PairedExactBelow discordant encounters at two N (the exact branch,
// exhaustively) and for normal-branch tallies. And the test it defines is
// valid: under H0 (θ = 1/2 given D) its exact rejection rate at α = 0.05
// is at most 0.05 for every D. The old p (exact McNemar, 2·P(X <= min))
// disagreed with the interval, e.g. 0 vs 6 discordant: p = 0.031 beside an
// interval holding 0; that case is checked to still show the old rule's
// disagreement, so the test can tell it.
func TestPairedPAgreesWithCI(t *testing.T) {
	disagree, oldDisagree := 0, 0
	for _, n := range []int64{60, 1_000_000} {
		for d := int64(0); d < PairedExactBelow && d <= n; d++ {
			for n10 := int64(0); n10 <= d; n10++ {
				p := pairedFrom(n, n10, d-n10, (n-d)/2)
				pv := PairedP(p)
				for _, alpha := range []float64{0.05, 0.05 / 6} {
					iv := PairedCI(p, 1-alpha)
					excl := iv.Lo > 0 || iv.Hi < 0
					if (pv < alpha) != excl {
						disagree++
						if disagree <= 5 {
							t.Errorf("N=%d n10=%d n01=%d alpha=%v: p=%.6g, interval [%.6g, %.6g]", n, n10, d-n10, alpha, pv, iv.Lo, iv.Hi)
						}
					}
					if alpha == 0.05 && d > 0 {
						old := math.Min(1, 2*binomCDFHalf(d, min(n10, d-n10)))
						if (old < alpha) != excl {
							oldDisagree++
						}
					}
				}
			}
		}
	}
	// The normal branch: many discordant encounters.
	for _, c := range [][3]int64{{100000, 3000, 2500}, {5000, 130, 100}, {5000, 120, 120}, {20000, 400, 330}} {
		p := pairedFrom(c[0], c[1], c[2], c[0]/3)
		for _, alpha := range []float64{0.05, 0.01} {
			iv := PairedCI(p, 1-alpha)
			if (PairedP(p) < alpha) != (iv.Lo > 0 || iv.Hi < 0) {
				disagree++
				t.Errorf("normal branch %v alpha=%v: p=%.6g, interval %+v", c, alpha, PairedP(p), iv)
			}
		}
	}
	if disagree > 0 {
		t.Errorf("p and interval disagree in %d cases", disagree)
	}
	if oldDisagree == 0 {
		t.Error("power: the exact McNemar p agrees with the interval everywhere; the test cannot tell the old rule")
	}
	t.Logf("the old p (exact McNemar) disagreed with the interval in %d cases at alpha 0.05", oldDisagree)
	// Size: under H0, n10 ~ Binomial(D, 1/2); the rejection rate is exact.
	for d := int64(1); d < PairedExactBelow; d++ {
		rate := 0.0
		for n10 := int64(0); n10 <= d; n10++ {
			if PairedP(pairedFrom(1_000_000, n10, d-n10, 1000)) < 0.05 {
				rate += binomPMFHalf(d, n10)
			}
		}
		if rate > 0.05+1e-12 {
			t.Errorf("D=%d: the exact rejection rate under H0 is %.4f", d, rate)
		}
	}
}

// binomCDFHalf is P(X <= k), X ~ Binomial(n, 1/2), summed in logs.
func binomCDFHalf(n, k int64) float64 {
	s := 0.0
	for i := int64(0); i <= k; i++ {
		s += binomPMFHalf(n, i)
	}
	return s
}

func binomPMFHalf(n, k int64) float64 {
	lg := func(x int64) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) - float64(n)*math.Ln2)
}
