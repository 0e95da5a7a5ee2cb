package stats

import (
	"fmt"
	"math"
)

// SeqPair is two options' 0/1 outcomes on the same N observations (common
// random numbers), reduced to what a paired comparison of their rates
// needs: the discordant counts. AOnly counts the observations where A
// succeeded and B did not, BOnly the reverse; the other N-AOnly-BOnly
// agree. The difference of the rates, Δ = p_A - p_B, is estimated by
// (AOnly-BOnly)/N, and all the evidence about its sign is in the
// discordant observations: with none, nothing can be said about the sign.
//
// Its tests and confidence sequence stay valid under continuous
// monitoring: they may be read after every observation (or every batch),
// and the procedure may stop, eliminate or go on depending on what it
// read, and the stated error level still holds for the whole history
// (Ville's inequality). They are built on betting (Waudby-Smith & Ramdas,
// "Estimating means of bounded random variables by betting", JRSS B 86,
// 2024; Shafer & Vovk's game-theoretic testing): to test H0: Δ <= c, a
// bettor starting with wealth 1 stakes a fixed fraction λ on each paired
// difference D ∈ {-1, 0, +1}, her wealth multiplying by 1 + λ(D - c). If
// H0 holds, E[1 + λ(D - c)] <= 1, so her wealth is a nonnegative
// supermartingale and P(it ever reaches 1/α) <= α. Rather than choosing λ
// from the data (which would need the order of the observations), the
// wealth is the average over a fixed grid of bettors, λ_j = f_j/(1+c)
// with f_j = 0.9·2^(-j/2), j = 0..23 (from 0.9 down to 3·10⁻⁴): an average
// of supermartingales is one, and the grid holds, for any effect and
// discordance, a fraction within √2 of the growth-optimal one, which keeps
// at least 83% of the optimal growth rate at a cost of log 24 in the
// threshold. Since the wealth after N observations depends only on how
// many were +1, 0 and -1, it is a function of the exact integer counts:
// merging shards, resuming and reordering give exactly the same decision.
//
// Zero discordance needs no special case: when every observation agrees,
// each factor is 1 - λc, so for c = 0 the wealth stays 1 and H0: Δ <= 0
// is never rejected (two options that never differed are never
// separated, however long they ran), while for c > 0 agreement is real
// evidence that |Δ| is small (an option δ better would have shown
// discordance) and the wealth against H0: Δ >= δ grows.
//
// The fields are counts with 0 <= AOnly, BOnly and AOnly+BOnly <= N; the
// methods panic otherwise. A SeqPair is a plain value.
type SeqPair struct {
	N, AOnly, BOnly int64
}

// betGrid is the number of fractions the mixture bettor averages over.
const betGrid = 24

// betFractions are f_j = 0.9·2^(-j/2): the stake is λ_j = f_j/(1+c).
var betFractions = func() (f [betGrid]float64) {
	for j := range f {
		f[j] = 0.9 * math.Pow(2, -float64(j)/2)
	}
	return f
}()

// logUp0 and logDown0 are log(1+f_j) and log(1-f_j): the factors at c = 0
// (the test of "no better", run for every pair at every stage).
var logUp0, logDown0 = func() (u, d [betGrid]float64) {
	for j, f := range betFractions {
		u[j], d[j] = math.Log1p(f), math.Log1p(-f)
	}
	return u, d
}()

func (p SeqPair) check() {
	if p.N < 0 || p.AOnly < 0 || p.BOnly < 0 || p.AOnly+p.BOnly > p.N {
		panic(fmt.Sprintf("stats: SeqPair counts out of range: N=%d AOnly=%d BOnly=%d", p.N, p.AOnly, p.BOnly))
	}
}

// LogWealth returns the log of the mixture bettor's wealth against
// H0: Δ <= c after the N observations, for -1 < c < 1: log of
// (1/24)·Σ_j (1+λ_j(1-c))^AOnly·(1-λ_j·c)^agree·(1-λ_j(1+c))^BOnly with
// λ_j = f_j/(1+c). It is non-increasing in c. It panics if c is outside
// (-1, 1).
func (p SeqPair) LogWealth(c float64) float64 {
	p.check()
	if !(c > -1 && c < 1) {
		panic(fmt.Sprintf("stats: SeqPair.LogWealth threshold %v not in (-1, 1)", c))
	}
	up, down := float64(p.AOnly), float64(p.BOnly)
	agree := float64(p.N - p.AOnly - p.BOnly)
	var l [betGrid]float64
	top := math.Inf(-1)
	for j, f := range betFractions {
		var v float64
		if c == 0 {
			v = up*logUp0[j] + down*logDown0[j]
		} else {
			lam := f / (1 + c)
			v = down * logDown0[j] // λ(1+c) = f
			if up > 0 {
				v += up * math.Log1p(lam*(1-c))
			}
			if agree > 0 {
				v += agree * math.Log1p(-lam*c)
			}
		}
		l[j] = v
		if v > top { // v is finite: no NaN to care for, unlike math.Max
			top = v
		}
	}
	s := 0.0
	for _, v := range l {
		s += math.Exp(v - top)
	}
	return top + math.Log(s/betGrid)
}

// Greater reports whether H0: Δ <= c is rejected at level alpha: the
// evidence says Δ > c. Under H0 the probability that Greater is ever true,
// over all N (continuous monitoring), is at most alpha. It panics unless
// 0 < alpha < 1 and -1 < c < 1.
func (p SeqPair) Greater(c, alpha float64) bool {
	checkConfidence(1 - alpha)
	return p.LogWealth(c) >= -math.Log(alpha)
}

// Less reports whether H0: Δ >= c is rejected at level alpha: the evidence
// says Δ < c. It is Greater on the swapped pair and threshold.
func (p SeqPair) Less(c, alpha float64) bool {
	return p.Swap().Greater(-c, alpha)
}

// Swap returns the pair seen from B: Δ changes sign.
func (p SeqPair) Swap() SeqPair { return SeqPair{N: p.N, AOnly: p.BOnly, BOnly: p.AOnly} }

// Diff returns the estimate (AOnly-BOnly)/N of Δ; 0 when N == 0.
func (p SeqPair) Diff() float64 {
	if p.N == 0 {
		return 0
	}
	return float64(p.AOnly-p.BOnly) / float64(p.N)
}

// CS returns the confidence sequence for Δ with alpha on each side: the c
// in [-1, 1] that neither Greater(c, alpha) nor Less(c, alpha) rejects.
// With probability at least 1 - 2·alpha it contains Δ at every N at once,
// so it stays valid whenever it is read and whatever was decided from it.
// Its bounds are found by bisection to within 2⁻⁶⁰ and rounded outward.
func (p SeqPair) CS(alpha float64) Interval {
	checkConfidence(1 - alpha)
	p.check()
	t := -math.Log(alpha)
	lo := bisectBound(func(c float64) bool { return p.LogWealth(c) >= t })
	hi := -bisectBound(func(c float64) bool { return p.Swap().LogWealth(c) >= t })
	return Interval{lo, hi}
}

// bisectBound returns the sup of the c in (-1, 1) where rejected(c) holds,
// for a rejected that is true up to some point and false after it; -1 when
// it holds nowhere. The result is a rejected point or -1, so the interval
// it starts is never narrower than the set of c not rejected.
func bisectBound(rejected func(float64) bool) float64 {
	lo, hi := -1.0, 1.0 // rejected(lo) "true" (the boundary), rejected(hi) false
	for i := 0; i < 62 && hi-lo > 1e-15; i++ {
		m := lo + (hi-lo)/2
		if m <= -1 || m >= 1 {
			break
		}
		if rejected(m) {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}
