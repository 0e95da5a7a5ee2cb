package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PairedExactBelow is the number of discordant encounters below which
// [PairedCI] and [PairedP] use the exact, conservative method on 0/1
// outcomes ([PairedExactCI], the exact McNemar test) instead of the normal
// approximation. Above it the paired difference is a sum of at least two
// hundred non-zero ±1 terms and the normal interval's coverage is within a
// few tenths of a point of nominal (by exact enumeration, 94.75% to 95.0%
// already at about 100 discordant encounters, however they split); below
// it, and above all near 0, the normal interval undercovers (it is the
// single point {0, 0} when no encounter differs, whatever the true rare
// difference). The exact interval is not used everywhere because it is
// wider: 15% to 50% at a few hundred discordant encounters.
const PairedExactBelow = 200

// Binary reports whether p's outcomes are all 0 or 1 (win indicators):
// then Σa² = Σa, Σb² = Σb, and the sums can come from 0/1 pairs.
func (p Paired) Binary() bool {
	b10, b01 := p.Discordant()
	return p.N >= 0 && p.SumA2 == p.SumA && p.SumB2 == p.SumB && p.SumA >= 0 && p.SumB >= 0 &&
		p.SumA <= p.N && p.SumB <= p.N && b10 >= 0 && b01 >= 0 && (p.SumD2+p.SumD)%2 == 0 &&
		b10 <= p.SumA && b01 <= p.SumB && p.SumD2 <= p.N
}

// Discordant returns, for 0/1 outcomes, the encounters where a won and b
// did not (n10) and where b won and a did not (n01): with d = a - b in
// {-1, 0, 1}, Σd = n10 - n01 and Σd² = n10 + n01. Meaningless unless
// [Paired.Binary].
func (p Paired) Discordant() (n10, n01 int64) {
	return (p.SumD2 + p.SumD) / 2, (p.SumD2 - p.SumD) / 2
}

// PairedExactCI is a confidence interval for the difference of two paired
// proportions, Δ = P(a=1) - P(b=1) = p10 - p01, from 0/1 outcomes, whose
// coverage is at least the nominal level for every N and every true
// distribution (no normal approximation): it stays honest when few
// encounters differ. ok is false when p is not [Paired.Binary].
//
// All the information about Δ is in the D = n10 + n01 discordant
// encounters. Write π = p10 + p01 (the chance an encounter is discordant)
// and θ = p10/π (the chance a discordant encounter favours a), so that
//
//	Δ = π·(2θ - 1).
//
// Conditional on D, n10 ~ Binomial(D, θ) exactly (the conditional argument
// of McNemar's test: McNemar 1947, "Note on the sampling error of the
// difference between correlated proportions or percentages",
// Psychometrika 12:153-157), and D ~ Binomial(N, π). With α = 1 -
// confidence, take the [ClopperPearson] interval [θL, θU] of n10 out of D
// at level 1-α/2 (its conditional coverage is ≥ 1-α/2 for every D, hence
// also unconditionally) and the Clopper-Pearson interval [πL, πU] of D out
// of N at level 1-α/2. By the union bound (Bonferroni) both hold together
// with probability ≥ 1-α, and then Δ lies in the range of π·(2θ-1) over the
// rectangle, which is monotone in each coordinate:
//
//	Lo = min(πL·(2θL-1), πU·(2θL-1)),  Hi = max(πL·(2θU-1), πU·(2θU-1)).
//
// So the coverage is ≥ 1-α exactly (conservative: the union bound and
// the Clopper-Pearson discreteness both widen it). With D = 0 the interval
// is [-πU, πU], πU = 1 - (α/4)^(1/N) ≈ 4.4/N at 95%: never of zero width.
// The price, against the normal interval, is width when D is large: about
// 15% when the discordant encounters split evenly, 50% when they split
// 70/30, from the union bound and the π factor. [PairedCI] therefore uses it only below [PairedExactBelow]
// discordant encounters. N == 0 gives {-1, 1}. It panics unless 0 <
// confidence < 1.
func PairedExactCI(p Paired, confidence float64) (iv Interval, ok bool) {
	checkConfidence(confidence)
	if !p.Binary() {
		return Interval{}, false
	}
	if p.N == 0 {
		return Interval{-1, 1}, true
	}
	half := 1 - (1-confidence)/2
	n10, _ := p.Discordant()
	d := p.SumD2
	th := ClopperPearson(n10, d, half) // {0, 1} when d == 0
	pi := ClopperPearson(d, p.N, half)
	lo, hi := 2*th.Lo-1, 2*th.Hi-1
	iv.Lo = math.Min(pi.Lo*lo, pi.Hi*lo)
	iv.Hi = math.Max(pi.Lo*hi, pi.Hi*hi)
	return iv, true
}

// PairedCI is the paired interval simctl prints for a difference measured
// on common random numbers: for 0/1 outcomes with fewer than
// [PairedExactBelow] discordant encounters, the exact conservative
// [PairedExactCI]; otherwise the normal interval [Paired.DiffCI]. Its
// width is never 0 on 0/1 outcomes. It panics unless 0 < confidence < 1.
func PairedCI(p Paired, confidence float64) Interval {
	if p.Binary() && p.SumD2 < PairedExactBelow {
		iv, _ := PairedExactCI(p, confidence)
		return iv
	}
	return p.DiffCI(confidence)
}

// PairedP is the two-sided p-value of H0: Δ = 0 read off [PairedCI]'s
// own construction: the smallest α at which PairedCI at level 1-α
// excludes 0, so that p < α exactly when that interval excludes 0 (never
// a p below 0.05 beside a 95% interval holding 0).
//
// Below [PairedExactBelow] discordant 0/1 encounters the interval is
// [PairedExactCI]: its lower end is above 0 exactly when D > 0 and the
// Clopper-Pearson lower bound θL of n10 out of D (tail α/4: the
// construction gives θ half of α, split over two tails) is above 1/2,
// that is when P(X >= n10) < α/4 for X ~ Binomial(D, 1/2); its upper end
// is below 0 when P(X <= n10) < α/4. So
//
//	p = min(1, 4·P(X <= min(n10, n01))),
//
// twice the exact McNemar test's p (that test spends all of α on θ; the
// interval spends half on π, the chance an encounter is discordant, to
// bound Δ itself and not only its sign). 1 when D = 0. Otherwise
// [Paired.PValue], the normal test that [Paired.DiffCI] inverts.
func PairedP(p Paired) float64 {
	if !p.Binary() || p.SumD2 >= PairedExactBelow {
		return p.PValue()
	}
	n10, n01 := p.Discordant()
	if p.SumD2 == 0 {
		return 1
	}
	m := min(n10, n01)
	return math.Min(1, 4*distuv.Binomial{N: float64(p.SumD2), P: 0.5}.CDF(float64(m)))
}
