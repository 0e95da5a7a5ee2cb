package stats

import (
	"math"
	"strings"
	"testing"
)

// Reference values marked "mpmath" were computed independently of this
// package with Python's mpmath at 40 significant digits, straight from the
// defining formulas: z = √2·erfinv(c) for Z (with c the float64 input, so
// the ≈2 ulp by which the float64 0.95 differs from 0.95 is accounted for),
// the Wilson and Newcombe formulas in exact arithmetic, and Clopper-Pearson
// bounds by bisection on the regularized incomplete beta function.

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.17g, want %.17g ± %g (off by %.3g)", what, got, want, tol, got-want)
	}
}

func wantPanic(t *testing.T, what, prefix string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", what)
			return
		}
		if s, ok := r.(string); !ok || !strings.HasPrefix(s, prefix) {
			t.Errorf("%s: panic %v, want a string starting %q", what, r, prefix)
		}
	}()
	f()
}

func TestZ(t *testing.T) {
	// The textbook value of z_0.975 for the real number 0.95.
	near(t, "Z(0.95)", Z(0.95), 1.959963984540054, 1e-15)
	for _, c := range []struct{ conf, z float64 }{ // mpmath
		{0.5, 0.674489750196081743202227},
		{0.8, 1.281551565544600593487448},
		{0.9, 1.644853626951472822510732},
		{0.95, 1.959963984540053855604431},
		{0.99, 2.575829303548900453857483},
		{0.999, 3.290526731491894543338878},
	} {
		near(t, "Z", Z(c.conf), c.z, 4e-15*c.z)
	}
	// Far in the tail relative precision must survive: Φ(-z) = α/2,
	// checked with the standard library's erfc. (1 - c is exact in float64
	// for c >= 0.5, so α is exactly what the caller passed.)
	c := 1 - 1e-12
	z := Z(c)
	near(t, "tail of Z(1-1e-12)", 0.5*math.Erfc(z/math.Sqrt2)/((1-c)/2), 1, 1e-13)
	for _, bad := range []float64{0, 1, -0.5, 1.5, math.NaN(), math.Inf(1)} {
		wantPanic(t, "Z(bad)", "stats: ", func() { Z(bad) })
	}
}

// wilsonTextbook is Wilson's interval in its textbook form (Newcombe 1998,
// method 3), written independently of the implementation's algebra.
func wilsonTextbook(k, n, z float64) (lo, hi float64) {
	p := k / n
	den := 1 + z*z/n
	c := p + z*z/(2*n)
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return (c - h) / den, (c + h) / den
}

func TestWilsonFormula(t *testing.T) {
	confs := []struct{ conf, z float64 }{{0.95, 1.959963984540054}, {0.99, 2.5758293035489004}, {0.8, 1.2815515655446004}}
	ns := []int64{1, 2, 3, 7, 10, 50, 263, 1000, 12345, 1_000_000, 1_000_000_000}
	for _, c := range confs {
		for _, n := range ns {
			ks := []int64{0, 1, 2, n / 3, n / 2, n - 2, n - 1, n}
			for _, k := range ks {
				if k < 0 || k > n {
					continue
				}
				got := Wilson(k, n, c.conf)
				lo, hi := wilsonTextbook(float64(k), float64(n), c.z)
				near(t, "Wilson.Lo", got.Lo, math.Max(lo, 0), 1e-12)
				near(t, "Wilson.Hi", got.Hi, math.Min(hi, 1), 1e-12)
				// Both bounds solve (p̂ - p)² = z² p(1-p)/n.
				p := float64(k) / float64(n)
				for _, b := range []float64{got.Lo, got.Hi} {
					near(t, "Wilson root residual", (p-b)*(p-b), c.z*c.z*b*(1-b)/float64(n), 1e-13)
				}
				if !(0 <= got.Lo && got.Lo <= p && p <= got.Hi && got.Hi <= 1) {
					t.Errorf("Wilson(%d, %d) = %v does not bracket %v inside [0, 1]", k, n, got, p)
				}
			}
		}
	}
}

func TestWilsonPublished(t *testing.T) {
	// Newcombe (1998a) Table II, method 3 (Wilson score, 95%), four
	// decimals, and the same bounds from mpmath.
	for _, c := range []struct {
		k, n           int64
		pubLo, pubHi   float64
		wantLo, wantHi float64
	}{
		{81, 263, 0.2553, 0.3662, 0.25528851987827422577, 0.36620957698280007015},
		{15, 148, 0.0624, 0.1605, 0.062386399530736279792, 0.16048724172330803892},
		{0, 20, 0, 0.1611, 0, 0.16112515805281938715},
		{1, 29, 0.0061, 0.1718, 0.0061132142927626605164, 0.17175521879320288131},
	} {
		got := Wilson95(c.k, c.n)
		near(t, "Wilson95 published Lo", got.Lo, c.pubLo, 0.5e-4+1e-12)
		near(t, "Wilson95 published Hi", got.Hi, c.pubHi, 0.5e-4+1e-12)
		near(t, "Wilson95 Lo", got.Lo, c.wantLo, 1e-14)
		near(t, "Wilson95 Hi", got.Hi, c.wantHi, 1e-14)
	}
}

func TestWilsonEdges(t *testing.T) {
	const z = 1.959963984540054
	if got := Wilson95(0, 0); got != (Interval{0, 1}) {
		t.Errorf("Wilson95(0, 0) = %v, want {0 1}", got)
	}
	for _, n := range []int64{1, 10, 1000, 1 << 40} {
		nf := float64(n)
		got := Wilson95(0, n)
		if got.Lo != 0 {
			t.Errorf("Wilson95(0, %d).Lo = %v, want exactly 0", n, got.Lo)
		}
		near(t, "Wilson95(0, n).Hi", got.Hi, z*z/(nf+z*z), 1e-15)
		got = Wilson95(n, n)
		if got.Hi != 1 {
			t.Errorf("Wilson95(%d, %d).Hi = %v, want exactly 1", n, n, got.Hi)
		}
		near(t, "Wilson95(n, n).Lo", got.Lo, nf/(nf+z*z), 1e-15)
	}
	// Symmetry: the interval for n-k failures mirrors the one for k.
	for k := int64(0); k <= 17; k++ {
		a, b := Wilson95(k, 17), Wilson95(17-k, 17)
		near(t, "mirror Lo", a.Lo, 1-b.Hi, 1e-15)
		near(t, "mirror Hi", a.Hi, 1-b.Lo, 1e-15)
	}
	// Tiny rates keep their relative precision (mpmath values).
	got := Wilson95(3, 100_000_000)
	near(t, "Wilson95(3, 1e8).Lo relative", got.Lo/1.020270733490353095194581e-8, 1, 1e-14)
	near(t, "Wilson95(3, 1e8).Hi relative", got.Hi/8.821187709148197944221888e-8, 1, 1e-14)
	for _, bad := range [][2]int64{{-1, 5}, {6, 5}, {0, -1}} {
		wantPanic(t, "Wilson bad counts", "stats: ", func() { Wilson95(bad[0], bad[1]) })
	}
	wantPanic(t, "Wilson bad confidence", "stats: ", func() { Wilson(1, 2, 95) })
}

// binomPMF returns the Binomial(n, p) probabilities of 0..n, in log space so
// that no term underflows on the way.
func binomPMF(n int, p float64) []float64 {
	pmf := make([]float64, n+1)
	ln, _ := math.Lgamma(float64(n + 1))
	for k := 0; k <= n; k++ {
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		lp := ln - lk - lnk
		if k > 0 {
			lp += float64(k) * math.Log(p)
		}
		if k < n {
			lp += float64(n-k) * math.Log1p(-p)
		}
		pmf[k] = math.Exp(lp)
	}
	return pmf
}

// coverage is the exact probability that the interval built from
// X ~ Binomial(n, p) contains p: Σ_k pmf(k)·[lo(k) <= p <= hi(k)].
func coverage(ivs []Interval, p float64) float64 {
	n := len(ivs) - 1
	cov := 0.0
	for k, pk := range binomPMF(n, p) {
		if ivs[k].Lo <= p && p <= ivs[k].Hi {
			cov += pk
		}
	}
	return cov
}

func TestWilsonCoverage(t *testing.T) {
	const n = 50
	sum := 0.0
	for _, pk := range binomPMF(n, 0.3) {
		sum += pk
	}
	near(t, "Σ pmf", sum, 1, 1e-12)
	ivs := make([]Interval, n+1)
	for k := range ivs {
		ivs[k] = Wilson95(int64(k), n)
	}
	cov := coverage(ivs, 0.3)
	t.Logf("exact coverage of Wilson 95%% at n=50, p=0.3: %.6f", cov)
	if cov < 0.93 || cov > 0.97 {
		t.Errorf("coverage %v not in [0.93, 0.97]", cov)
	}
}

func TestClopperPearsonPublished(t *testing.T) {
	// k = 0, n = 10: Hi = 1 - 0.025^(1/10) exactly.
	got := ClopperPearson(0, 10, 0.95)
	if got.Lo != 0 {
		t.Errorf("ClopperPearson(0, 10).Lo = %v, want 0", got.Lo)
	}
	near(t, "ClopperPearson(0, 10).Hi", got.Hi, 1-math.Pow(0.025, 0.1), 1e-15)
	near(t, "ClopperPearson(0, 10).Hi published", got.Hi, 0.3084971078187608, 1e-15)
	got = ClopperPearson(10, 10, 0.95)
	near(t, "ClopperPearson(10, 10).Lo", got.Lo, math.Pow(0.025, 0.1), 1e-15)
	if got.Hi != 1 {
		t.Errorf("ClopperPearson(10, 10).Hi = %v, want 1", got.Hi)
	}
	got = ClopperPearson(5, 10, 0.95)
	near(t, "ClopperPearson(5, 10).Lo published", got.Lo, 0.187086, 0.5e-6)
	near(t, "ClopperPearson(5, 10).Hi published", got.Hi, 0.812914, 0.5e-6)
	// Newcombe (1998a) Table II, method 5 (exact), four decimals, and the
	// same bounds from mpmath.
	for _, c := range []struct {
		k, n           int64
		pubLo, pubHi   float64
		wantLo, wantHi float64
	}{
		{81, 263, 0.2527, 0.3676, 0.25273674558527116302, 0.36762192260135136465},
		{15, 148, 0.0578, 0.1617, 0.057844010083448559489, 0.16165049034947900847},
		{0, 20, 0, 0.1684, 0, 0.16843347098308533706},
		{1, 29, 0.0009, 0.1776, 0.00087264688357992199413, 0.17764429548872293418},
		{5, 10, 0.1871, 0.8129, 0.18708602844739853164, 0.81291397155260146836},
		{3, 7, 0.0990, 0.8159, 0.09898827844250786464, 0.81594843235991698781},
	} {
		got := ClopperPearson(c.k, c.n, 0.95)
		near(t, "ClopperPearson published Lo", got.Lo, c.pubLo, 0.5e-4+1e-12)
		near(t, "ClopperPearson published Hi", got.Hi, c.pubHi, 0.5e-4+1e-12)
		near(t, "ClopperPearson Lo", got.Lo, c.wantLo, 1e-12)
		near(t, "ClopperPearson Hi", got.Hi, c.wantHi, 1e-12)
	}
}

func TestClopperPearsonTails(t *testing.T) {
	// The defining property: P(X >= k | Lo) = α/2 and P(X <= k | Hi) = α/2,
	// with the binomial tails summed term by term here.
	for _, conf := range []float64{0.9, 0.95, 0.99} {
		half := (1 - conf) / 2
		for _, n := range []int{1, 2, 9, 40, 300} {
			for _, k := range []int{0, 1, n / 3, n / 2, n - 1, n} {
				got := ClopperPearson(int64(k), int64(n), conf)
				if k > 0 {
					up := 0.0
					for i, pi := range binomPMF(n, got.Lo) {
						if i >= k {
							up += pi
						}
					}
					near(t, "P(X >= k | Lo)/(α/2)", up/half, 1, 1e-9)
				} else if got.Lo != 0 {
					t.Errorf("ClopperPearson(0, %d).Lo = %v", n, got.Lo)
				}
				if k < n {
					down := 0.0
					for i, pi := range binomPMF(n, got.Hi) {
						if i <= k {
							down += pi
						}
					}
					near(t, "P(X <= k | Hi)/(α/2)", down/half, 1, 1e-9)
				} else if got.Hi != 1 {
					t.Errorf("ClopperPearson(%d, %d).Hi = %v", n, n, got.Hi)
				}
			}
		}
	}
	if got := ClopperPearson(0, 0, 0.95); got != (Interval{0, 1}) {
		t.Errorf("ClopperPearson(0, 0) = %v", got)
	}
	wantPanic(t, "ClopperPearson bad counts", "stats: ", func() { ClopperPearson(3, 2, 0.95) })
	wantPanic(t, "ClopperPearson bad confidence", "stats: ", func() { ClopperPearson(1, 2, 1) })
}

func TestClopperPearsonCoverage(t *testing.T) {
	// The exact interval is conservative: its coverage is at least the
	// nominal level for every p. Checked exactly for n = 50 on a grid of p.
	const n = 50
	ivs := make([]Interval, n+1)
	for k := range ivs {
		ivs[k] = ClopperPearson(int64(k), n, 0.95)
	}
	for i := 1; i < 200; i++ {
		p := float64(i) / 200
		if cov := coverage(ivs, p); cov < 0.95-1e-12 {
			t.Errorf("Clopper-Pearson coverage at p=%v is %v < 0.95", p, cov)
		}
	}
	for k := int64(1); k < n; k++ {
		w, c := Wilson95(k, n), ivs[k]
		if !(c.Lo < w.Lo && w.Hi < c.Hi) {
			t.Errorf("k=%d: Clopper-Pearson %v not wider than Wilson %v", k, c, w)
		}
	}
}

func TestBinomialSE(t *testing.T) {
	near(t, "BinomialSE(0.5, 100)", BinomialSE(0.5, 100), 0.05, 1e-17)
	near(t, "BinomialSE(0.3, 50)", BinomialSE(0.3, 50), math.Sqrt(0.21/50), 1e-17)
	if got := BinomialSE(0, 10); got != 0 {
		t.Errorf("BinomialSE(0, 10) = %v", got)
	}
	if got := BinomialSE(0.5, 0); !math.IsInf(got, 1) {
		t.Errorf("BinomialSE(0.5, 0) = %v, want +Inf", got)
	}
}

func TestNewcombeDiff(t *testing.T) {
	// Newcombe (1998b) Table II, method 10 (hybrid score), examples (a)-(h),
	// four decimals, and the same bounds from mpmath.
	for _, c := range []struct {
		k1, n1, k2, n2 int64
		pubLo, pubHi   float64
		wantLo, wantHi float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339, 0.0524314724, 0.333872654},
		{9, 10, 3, 10, 0.1705, 0.8090, 0.1705227239, 0.8090179735},
		{6, 7, 2, 7, 0.0582, 0.8062, 0.05822792748, 0.8062496375},
		{5, 56, 0, 29, -0.0381, 0.1926, -0.0381371479, 0.1925600139},
		{0, 10, 0, 20, -0.1611, 0.2775, -0.1611251581, 0.2775327999},
		{0, 10, 0, 10, -0.2775, 0.2775, -0.2775327999, 0.2775327999},
		{10, 10, 0, 20, 0.6791, 1, 0.6790860371, 1},
		{10, 10, 0, 10, 0.6075, 1, 0.6075093504, 1},
	} {
		got := NewcombeDiff(c.k1, c.n1, c.k2, c.n2, 0.95)
		near(t, "NewcombeDiff published Lo", got.Lo, c.pubLo, 0.5e-4+1e-12)
		near(t, "NewcombeDiff published Hi", got.Hi, c.pubHi, 0.5e-4+1e-12)
		near(t, "NewcombeDiff Lo", got.Lo, c.wantLo, 1e-10) // mpmath values given to 10 digits
		near(t, "NewcombeDiff Hi", got.Hi, c.wantHi, 1e-10)
		// Swapping the arms negates the interval.
		sw := NewcombeDiff(c.k2, c.n2, c.k1, c.n1, 0.95)
		near(t, "swapped Lo", sw.Lo, -got.Hi, 1e-15)
		near(t, "swapped Hi", sw.Hi, -got.Lo, 1e-15)
	}
	if got := NewcombeDiff(0, 0, 3, 5, 0.95); got != (Interval{-1, 1}) {
		t.Errorf("NewcombeDiff with n1 = 0: %v", got)
	}
	wantPanic(t, "NewcombeDiff bad counts", "stats: ", func() { NewcombeDiff(1, 2, 3, 2, 0.95) })
}
