package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a two-sided confidence interval for a proportion or a
// difference: [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// Z returns the two-sided standard normal quantile for the given confidence
// level: the z with P(-z <= Z <= z) = confidence, i.e. Φ⁻¹(1 - α/2) with
// α = 1 - confidence. Z(0.95) = 1.959963984540054 (to within the rounding of
// the float64 0.95 itself, about 2 ulp), Z(0.99) = 2.5758293035489.
//
// It is computed as -Φ⁻¹(α/2) with gonum's normal quantile: for confidence
// >= 0.5, α and α/2 are exact in floating point, so high confidence levels
// (0.999999) keep full relative precision. It panics unless
// 0 < confidence < 1.
func Z(confidence float64) float64 {
	checkConfidence(confidence)
	return -distuv.UnitNormal.Quantile((1 - confidence) / 2)
}

func checkConfidence(confidence float64) {
	if !(confidence > 0 && confidence < 1) { // also catches NaN
		panic(fmt.Sprintf("stats: confidence %v not in (0, 1)", confidence))
	}
}

func checkCounts(k, n int64) {
	if n < 0 || k < 0 || k > n {
		panic(fmt.Sprintf("stats: need 0 <= k <= n, got k=%d n=%d", k, n))
	}
}

// Wilson returns the Wilson score interval for a binomial proportion with k
// successes in n trials (Wilson 1927, "Probable inference, the law of
// succession, and statistical inference", JASA 22:209-212; method 3 of
// Newcombe 1998, "Two-sided confidence intervals for the single proportion:
// comparison of seven methods", Stat Med 17:857-872).
//
// The bounds are the two p solving (p̂ - p)² = z² p(1-p)/n, with p̂ = k/n and
// z = [Z](confidence):
//
//	(p̂ + z²/2n ± z·sqrt(p̂(1-p̂)/n + z²/4n²)) / (1 + z²/n)
//	= (k + z²/2 ± z·sqrt(k(n-k)/n + z²/4)) / (n + z²)
//
// Unlike the Wald interval p̂ ± z·SE it stays inside [0, 1], is not
// degenerate at k = 0 or k = n, and its coverage stays close to nominal
// even for small n or p near 0 or 1. The bound nearer to 0 or 1 is computed
// from the product of the roots, Lo·Hi = k²/(n(n+z²)), which avoids
// cancellation, so tiny bounds (a win rate of 3 in 10⁸) keep their
// relative precision; k = 0 gives Lo = 0 and k = n gives Hi = 1 exactly.
//
// n == 0 gives {0, 1}. It panics unless 0 <= k <= n and
// 0 < confidence < 1.
func Wilson(k, n int64, confidence float64) Interval {
	checkCounts(k, n)
	z := Z(confidence)
	if n == 0 {
		return Interval{0, 1}
	}
	// Work on the side with fewer events, m = min(k, n-k), and reflect.
	m, flip := k, false
	if n-k < k {
		m, flip = n-k, true
	}
	nf, mf, z2 := float64(n), float64(m), z*z
	a := nf + z2
	hi := (mf + z2/2 + z*math.Sqrt(mf*(nf-mf)/nf+z2/4)) / a
	lo := mf * mf / (nf * a * hi) // Lo·Hi = m²/(n(n+z²)); hi > 0 always
	hi = math.Min(hi, 1)
	if flip {
		return Interval{1 - hi, 1 - lo}
	}
	return Interval{lo, hi}
}

// Wilson95 is [Wilson] at 95% confidence.
func Wilson95(k, n int64) Interval { return Wilson(k, n, 0.95) }

// ClopperPearson returns the Clopper-Pearson "exact" interval for a binomial
// proportion with k successes in n trials (Clopper & Pearson 1934, "The use
// of confidence or fiducial limits illustrated in the case of the binomial",
// Biometrika 26:404-413; method 5 of Newcombe 1998). With α = 1-confidence,
// Lo is the p with P(X >= k | p) = α/2 and Hi the p with P(X <= k | p) = α/2,
// X ~ Binomial(n, p), which are Beta quantiles:
//
//	Lo = B⁻¹(α/2; k, n-k+1)      (0 when k == 0)
//	Hi = B⁻¹(1-α/2; k+1, n-k)    (1 when k == n)
//
// computed with gonum's distuv.Beta. For k == 0 and k == n the closed forms
// Hi = 1-(α/2)^(1/n) and Lo = (α/2)^(1/n) are used. Its coverage is never
// below the nominal level, at the price of being wider than [Wilson]; use it
// when a guaranteed bound matters more than a tight one.
//
// n == 0 gives {0, 1}. It panics unless 0 <= k <= n and
// 0 < confidence < 1.
func ClopperPearson(k, n int64, confidence float64) Interval {
	checkCounts(k, n)
	checkConfidence(confidence)
	if n == 0 {
		return Interval{0, 1}
	}
	half := (1 - confidence) / 2
	kf, nf := float64(k), float64(n)
	var iv Interval
	switch k {
	case 0:
		iv.Lo = 0
	case n:
		iv.Lo = math.Exp(math.Log(half) / nf)
	default:
		iv.Lo = distuv.Beta{Alpha: kf, Beta: nf - kf + 1}.Quantile(half)
	}
	switch k {
	case n:
		iv.Hi = 1
	case 0:
		iv.Hi = -math.Expm1(math.Log(half) / nf)
	default:
		iv.Hi = distuv.Beta{Alpha: kf + 1, Beta: nf - kf}.Quantile(1 - half)
	}
	return iv
}

// BinomialSE returns the standard error of a proportion p estimated from n
// trials, sqrt(p(1-p)/n). It is 0 at p = 0 or 1 (where the Wald interval it
// gives is degenerate: prefer [Wilson] for intervals) and +Inf when n <= 0.
// p should lie in [0, 1].
func BinomialSE(p float64, n int64) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	return math.Sqrt(p * (1 - p) / float64(n))
}

// NewcombeDiff returns an interval for p1 - p2, the difference of two
// independent proportions k1/n1 and k2/n2, by Newcombe's hybrid score method
// (Newcombe 1998, "Interval estimation for the difference between
// independent proportions: comparison of eleven methods", Stat Med
// 17:873-890, method 10). With [l1, u1] and [l2, u2] the [Wilson] intervals
// of p̂1 and p̂2 at the same confidence:
//
//	δ = sqrt((p̂1 - l1)² + (u2 - p̂2)²)
//	ε = sqrt((u1 - p̂1)² + (p̂2 - l2)²)
//	[p̂1 - p̂2 - δ, p̂1 - p̂2 + ε]
//
// It is for two arms run on independent seeds; for two options run on the
// same seeds use [Paired], whose interval is much narrower when the outcomes
// are correlated. If n1 or n2 is 0 it returns {-1, 1}. It panics unless
// 0 <= k1 <= n1, 0 <= k2 <= n2 and 0 < confidence < 1.
func NewcombeDiff(k1, n1, k2, n2 int64, confidence float64) Interval {
	checkCounts(k1, n1)
	checkCounts(k2, n2)
	checkConfidence(confidence)
	if n1 == 0 || n2 == 0 {
		return Interval{-1, 1}
	}
	p1, p2 := float64(k1)/float64(n1), float64(k2)/float64(n2)
	w1, w2 := Wilson(k1, n1, confidence), Wilson(k2, n2, confidence)
	d := p1 - p2
	delta := math.Hypot(p1-w1.Lo, w2.Hi-p2)
	eps := math.Hypot(w1.Hi-p1, p2-w2.Lo)
	return Interval{math.Max(d-delta, -1), math.Min(d+eps, 1)}
}
