package stats

import (
	"math"
	"math/bits"
)

// Mean accumulates an integer-valued quantity (damage, rounds, hit points
// left) exactly: N, the sum and the sum of squares are int64, so merging
// shards is exact and order-independent. Values must satisfy |v| < 3.03e9
// (so that v² fits in an int64) and the sums must stay within int64; for a
// quantity bounded by 1000 that is 9·10¹² observations. The zero Mean is
// empty and ready to use. A Mean is not safe for concurrent use.
type Mean struct{ N, Sum, SumSq int64 }

// Add records one observation.
func (m *Mean) Add(v int64) {
	m.N++
	m.Sum += v
	m.SumSq += v * v
}

// Merge adds the observations of o into m, exactly.
func (m *Mean) Merge(o Mean) {
	m.N += o.N
	m.Sum += o.Sum
	m.SumSq += o.SumSq
}

// Value returns the mean Sum/N; 0 when N == 0.
func (m Mean) Value() float64 {
	if m.N == 0 {
		return 0
	}
	return float64(m.Sum) / float64(m.N)
}

// Var returns the sample variance with divisor n-1,
//
//	s² = (N·SumSq - Sum²) / (N(N-1)),
//
// whose numerator is computed exactly in 128-bit integer arithmetic (no
// catastrophic cancellation however large the mean). +Inf when N < 2.
func (m Mean) Var() float64 { return variance(m.N, m.Sum, m.SumSq) }

// SE returns the standard error of the mean, sqrt(s²/N); +Inf when N < 2.
func (m Mean) SE() float64 { return math.Sqrt(m.Var() / float64(m.N)) }

// Paired accumulates two outcomes a and b measured on the same encounter
// seeds (common random numbers) and their difference d = a - b: for
// instance a, b in {0, 1}, "side 0 won" under option A and under option B.
// Because both options face the same dice, most of the luck cancels in d and
//
//	Var(d) = Var(a) + Var(b) - 2 Cov(a, b)
//
// is much smaller than the Var(a) + Var(b) of two independent runs whenever
// the outcomes are positively correlated: the paired standard error
// sqrt(Var(d)/N) needs [Paired.VarianceReduction] times fewer encounters
// than independent seeds for the same precision. For runs on independent
// seeds use [NewcombeDiff] instead.
//
// All fields are int64 sums, so merging is exact; the same range limits as
// [Mean] apply. The zero Paired is empty and ready to use. A Paired is not
// safe for concurrent use.
type Paired struct{ N, SumA, SumB, SumD, SumD2, SumA2, SumB2 int64 }

// Add records one encounter with outcome a under option A and b under
// option B.
func (p *Paired) Add(a, b int64) {
	d := a - b
	p.N++
	p.SumA += a
	p.SumB += b
	p.SumD += d
	p.SumD2 += d * d
	p.SumA2 += a * a
	p.SumB2 += b * b
}

// Merge adds the encounters of o into p, exactly.
func (p *Paired) Merge(o Paired) {
	p.N += o.N
	p.SumA += o.SumA
	p.SumB += o.SumB
	p.SumD += o.SumD
	p.SumD2 += o.SumD2
	p.SumA2 += o.SumA2
	p.SumB2 += o.SumB2
}

// A returns the accumulated outcomes of option A alone.
func (p Paired) A() Mean { return Mean{p.N, p.SumA, p.SumA2} }

// B returns the accumulated outcomes of option B alone.
func (p Paired) B() Mean { return Mean{p.N, p.SumB, p.SumB2} }

// D returns the accumulated differences d = a - b.
func (p Paired) D() Mean { return Mean{p.N, p.SumD, p.SumD2} }

// Diff returns the mean difference d̄ = SumD/N, which equals mean(a) -
// mean(b); 0 when N == 0.
func (p Paired) Diff() float64 { return p.D().Value() }

// SE returns the paired standard error of [Paired.Diff], sqrt(s_d²/N) with
// s_d² the sample variance of d; +Inf when N < 2.
func (p Paired) SE() float64 { return p.D().SE() }

// DiffCI returns the normal-approximation interval d̄ ± z·SE with
// z = [Z](confidence) and SE the paired standard error [Paired.SE]. It is
// {-Inf, +Inf} when N < 2 and the single point {d̄, d̄} when every d is the
// same. It panics unless 0 < confidence < 1.
func (p Paired) DiffCI(confidence float64) Interval {
	z := Z(confidence)
	if p.N < 2 {
		return Interval{math.Inf(-1), math.Inf(1)}
	}
	d, h := p.Diff(), z*p.SE()
	return Interval{d - h, d + h}
}

// PValue returns the two-sided p-value of H0: E[d] = 0 under the normal
// approximation, P(|Z| >= |d̄/SE|) = erfc(|d̄/SE|/√2). When SE is 0 (every d
// the same) it is 1 if d̄ == 0 and 0 otherwise; with N < 2 it is 1 (no
// evidence).
func (p Paired) PValue() float64 {
	if p.N < 2 {
		return 1
	}
	d := p.Diff()
	if exactSpread(p.N, p.SumD, p.SumD2) == 0 {
		if d == 0 {
			return 1
		}
		return 0
	}
	return math.Erfc(math.Abs(d/p.SE()) / math.Sqrt2)
}

// IndependentSE returns the standard error the same difference of means
// would have if A and B had been run on independent seeds,
// sqrt(s_a²/N + s_b²/N), from the sample variances of a and b; +Inf when
// N < 2.
func (p Paired) IndependentSE() float64 {
	return math.Sqrt((p.A().Var() + p.B().Var()) / float64(p.N))
}

// VarianceReduction returns IndependentSE² / SE² = (s_a² + s_b²) / s_d², the
// factor by which common random numbers cut the variance of the estimated
// difference: how many times fewer encounters the paired design needs than
// independent seeds for the same precision. It is about 1 when a and b are
// uncorrelated, above 1 when they are positively correlated. It is +Inf when
// the paired SE is 0 and the independent one is not, 1 when both are 0, and
// NaN when N < 2.
func (p Paired) VarianceReduction() float64 {
	if p.N < 2 {
		return math.NaN()
	}
	ind := exactSpread(p.N, p.SumA, p.SumA2) + exactSpread(p.N, p.SumB, p.SumB2)
	pair := exactSpread(p.N, p.SumD, p.SumD2)
	switch {
	case pair == 0 && ind == 0:
		return 1
	case pair == 0:
		return math.Inf(1)
	}
	return ind / pair
}

// variance returns the sample variance (divisor n-1) of n values whose sum
// is sum and whose sum of squares is sumSq, from the exact integer
// n·sumSq - sum² (computed in 128 bits, so neither overflow nor cancellation
// loses precision), divided by n(n-1). It returns +Inf when n < 2: one
// observation carries no information about spread.
func variance(n, sum, sumSq int64) float64 {
	if n < 2 {
		return math.Inf(1)
	}
	return exactSpread(n, sum, sumSq) / (float64(n) * float64(n-1))
}

// exactSpread returns n·sumSq - sum² as a float64: computed exactly in 128
// bits, then converted with a relative error of at most about 2⁻⁵²; it is
// exactly 0 when every observation is equal. It is >= 0 for consistent sums
// (Cauchy-Schwarz); a negative result, possible only after an int64
// overflow of the sums, is reported as 0.
func exactSpread(n, sum, sumSq int64) float64 {
	abs := uint64(sum)
	if sum < 0 {
		abs = -abs // two's complement magnitude, right even for MinInt64
	}
	h1, l1 := bits.Mul64(uint64(n), uint64(sumSq))
	h2, l2 := bits.Mul64(abs, abs)
	lo, borrow := bits.Sub64(l1, l2, 0)
	hi, borrow := bits.Sub64(h1, h2, borrow)
	if borrow != 0 {
		return 0
	}
	return float64(hi)*(1<<64) + float64(lo)
}
