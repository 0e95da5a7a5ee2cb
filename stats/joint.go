package stats

import (
	"fmt"
	"math"
	"math/big"
)

// Joint accumulates K integer outcomes measured on the same encounter: K
// options (or parameter steps) played on common random numbers, x_k the
// outcome of option k ("side 0 won" under it). Besides N and each sum it
// keeps every cross sum Σ x_j·x_k, so the full sample covariance matrix of
// the K outcomes is known exactly, and with it the standard error of any
// contrast Σ c_k·mean_k and the covariance of two contrasts:
//
//	Cov(mean_j, mean_k) = (N·S_jk - S_j·S_k) / (N²(N-1))
//
// That is what a ratio of two paired effects ("+1 initiative is worth 2.8
// HP") needs for an honest interval: the effects share the baseline and the
// dice, so they are correlated. Every field is an int64 sum, so merging
// shards is exact and order-independent; the range limits of [Mean] apply
// to each outcome. A Joint is not safe for concurrent use.
type Joint struct {
	K     int
	N     int64
	Sum   []int64
	Cross []int64 // Cross[j*K+k] = Σ x_j·x_k, kept for j <= k only
}

// NewJoint returns an empty accumulator for k outcomes per observation.
func NewJoint(k int) Joint {
	if k < 1 {
		panic("stats: NewJoint with k < 1")
	}
	return Joint{K: k, Sum: make([]int64, k), Cross: make([]int64, k*k)}
}

// Add records one observation: x[k] is option k's outcome. It panics if
// len(x) != K.
func (j *Joint) Add(x []int64) {
	if len(x) != j.K {
		panic(fmt.Sprintf("stats: Joint.Add with %d outcomes, want %d", len(x), j.K))
	}
	j.N++
	for a, xa := range x {
		j.Sum[a] += xa
		if xa == 0 {
			continue // most outcomes are 0/1: skip the row of zero products
		}
		row := j.Cross[a*j.K:]
		for b := a; b < j.K; b++ {
			row[b] += xa * x[b]
		}
	}
}

// Merge adds the observations of o into j, exactly. It panics if the two
// have different K.
func (j *Joint) Merge(o *Joint) {
	if j.K != o.K {
		panic(fmt.Sprintf("stats: merging Joint of %d and %d outcomes", j.K, o.K))
	}
	j.N += o.N
	for i, v := range o.Sum {
		j.Sum[i] += v
	}
	for i, v := range o.Cross {
		j.Cross[i] += v
	}
}

func (j *Joint) cross(a, b int) int64 {
	if a > b {
		a, b = b, a
	}
	return j.Cross[a*j.K+b]
}

// Mean returns option k's mean outcome; 0 when N == 0.
func (j *Joint) Mean(k int) float64 {
	if j.N == 0 {
		return 0
	}
	return float64(j.Sum[k]) / float64(j.N)
}

// Cov returns the sample covariance (divisor N-1) of outcomes a and b, from
// the exact integer N·S_ab - S_a·S_b; Cov(a, a) is a's sample variance.
// +Inf when N < 2.
func (j *Joint) Cov(a, b int) float64 {
	if j.N < 2 {
		return math.Inf(1)
	}
	return exactCoSpread(j.N, j.Sum[a], j.Sum[b], j.cross(a, b)) / (float64(j.N) * float64(j.N-1))
}

// Paired returns the paired accumulator of outcome a against outcome b on
// the same observations (the two-option view [Paired] gives).
func (j *Joint) Paired(a, b int) Paired {
	saa, sbb, sab := j.cross(a, a), j.cross(b, b), j.cross(a, b)
	return Paired{
		N: j.N, SumA: j.Sum[a], SumB: j.Sum[b], SumD: j.Sum[a] - j.Sum[b],
		SumD2: saa + sbb - 2*sab, SumA2: saa, SumB2: sbb,
	}
}

// Contrast returns the estimate Σ c_k·mean_k.
func (j *Joint) Contrast(c []float64) float64 {
	s := 0.0
	for k, ck := range c {
		s += ck * j.Mean(k)
	}
	return s
}

// ContrastCov returns the estimated covariance of the contrasts Σ c_k·mean_k
// and Σ d_k·mean_k, Σ_jk c_j d_k Cov(j, k) / N; ContrastCov(c, c) is the
// squared standard error of the contrast. +Inf when N < 2.
func (j *Joint) ContrastCov(c, d []float64) float64 {
	if j.N < 2 {
		return math.Inf(1)
	}
	s := 0.0
	for a, ca := range c {
		if ca == 0 {
			continue
		}
		for b, db := range d {
			if db != 0 {
				s += ca * db * j.Cov(a, b)
			}
		}
	}
	return s / float64(j.N)
}

// exactCoSpread returns n·sab - sa·sb as a float64, computed exactly in
// big-integer arithmetic (the products need up to 126 bits and may be of
// either sign) and rounded once.
func exactCoSpread(n, sa, sb, sab int64) float64 {
	var x, y big.Int
	x.Mul(big.NewInt(n), big.NewInt(sab))
	y.Mul(big.NewInt(sa), big.NewInt(sb))
	x.Sub(&x, &y)
	f, _ := new(big.Float).SetInt(&x).Float64()
	return f
}

// Ratio is an estimated ratio a/b of two correlated estimates and its
// Fieller confidence set.
type Ratio struct {
	Value float64 // a/b (±Inf or NaN when b is 0)
	// When Bounded, the confidence set is [Lo, Hi]. Otherwise b is not
	// distinguishable from 0 at this confidence and no finite interval can
	// be stated: the set is the whole line, or with Split the two rays
	// (-Inf, Lo] and [Hi, +Inf).
	Lo, Hi  float64
	Bounded bool
	Split   bool
}

// Contains reports whether x is in the confidence set.
func (r Ratio) Contains(x float64) bool {
	switch {
	case r.Bounded:
		return r.Lo <= x && x <= r.Hi
	case r.Split:
		return x <= r.Lo || x >= r.Hi
	}
	return true
}

// FiellerRatio is Fieller's confidence set for the ratio ρ = A/B of two
// jointly normal estimates a and b with variances vaa, vbb and covariance
// vab: the ρ for which (a - ρb)² <= z²(vaa - 2ρ·vab + ρ²·vbb), z = Z(conf).
// Its coverage is exact under normality with known variances, it accounts
// for the correlation of a and b, and it is bounded only when b is
// significantly different from 0 (b² > z²·vbb), where the delta method's
// symmetric interval is overconfident. Fieller, "Some problems in interval
// estimation", JRSS B 16 (1954).
func FiellerRatio(a, b, vaa, vbb, vab, confidence float64) Ratio {
	z := Z(confidence)
	z2 := z * z
	r := Ratio{Value: a / b, Lo: math.Inf(-1), Hi: math.Inf(1)}
	// (b² - z²vbb)ρ² - 2(ab - z²vab)ρ + (a² - z²vaa) <= 0
	qa := b*b - z2*vbb
	qb := a*b - z2*vab
	qc := a*a - z2*vaa
	disc := qb*qb - qa*qc
	switch {
	case qa > 0 && disc >= 0:
		s := math.Sqrt(disc)
		r.Lo, r.Hi = (qb-s)/qa, (qb+s)/qa
		r.Bounded = true
	case qa < 0 && disc > 0:
		s := math.Sqrt(disc)
		r.Lo, r.Hi = (qb+s)/qa, (qb-s)/qa // qa < 0: the smaller root first
		r.Split = true
	}
	return r
}
