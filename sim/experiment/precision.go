package experiment

import (
	"context"
	"math"

	"simctl/sim"
	"simctl/stats"
)

// --precision W stops a run once its 95% intervals are narrower than W.
// Deciding that from the very encounters the intervals are built on bends
// their coverage: with small batches the run stops at the first look where
// the estimate happens to sit far from 1/2 (a narrow interval), and on a
// rare outcome that is where it is too low (issue 35: 92.2% over 1,000
// seeds at --batch 10, against the fixed-N interval's 94.4%).
//
// So the decision is taken on a separate, auxiliary sample: encounter
// indices from AuxBase on, ⌈n/4⌉ of them when the run has played n. At
// each look (every Batch encounters) the rule predicts each side's 95%
// Wilson width at n from the auxiliary sample alone, conservatively (at
// the p(1−p) largest within the auxiliary estimate's 90% Wilson interval),
// and stops once every prediction is below W. The run's own encounters
// 0..n−1 never enter the decision, so given the n it stopped at they are n
// independent encounters like any fixed-N run's, and the interval printed
// is exactly a fixed-N interval: its coverage is the fixed-N Wilson
// interval's at that n, however small the batches (tested against exact
// answers in rulesets/d20 TestPrecisionSmallBatchExact). The result is
// still the one `simctl run -n N --seed S` gives. The price is the
// auxiliary encounters, a quarter of the run's, and a stop a little later
// than the width of the run's own interval would allow.

// AuxBase is the first encounter index of --precision's auxiliary sample,
// apart from every stage of a search (ScreenBase, ConfirmBase).
const AuxBase = int64(3) << 40

// PrecisionRule is --precision's stopping rule over one or more games
// played on the same encounters (a run, a sweep point, a comparison's
// options): it owns the auxiliary sample.
type PrecisionRule struct {
	W       float64
	Seed    uint64
	Workers int
	games   []sim.Game
	aux     []*sim.Tally
}

// NewPrecisionRule is the rule for games at width w.
func NewPrecisionRule(games []sim.Game, w float64, seed uint64, workers int) *PrecisionRule {
	r := &PrecisionRule{W: w, Seed: seed, Workers: workers, games: games}
	for _, g := range games {
		r.aux = append(r.aux, sim.NewTally(g))
	}
	return r
}

// AuxSize is the auxiliary sample's size when the run has played n.
func AuxSize(n int64) int64 { return (n + 3) / 4 }

// Stop plays the auxiliary sample up to AuxSize(n) and reports whether
// every game's predicted 95% intervals at n encounters are narrower than W.
// It depends only on the seed and n, never on the run's own encounters.
func (r *PrecisionRule) Stop(ctx context.Context, n int64) (bool, error) {
	m := AuxSize(n)
	for k, g := range r.games {
		a := r.aux[k]
		if a.Encounters < m {
			t, err := sim.Run(ctx, g, sim.RunConfig{Seed: r.Seed, Start: AuxBase + a.Encounters, N: m - a.Encounters, Workers: r.Workers})
			if err != nil {
				return false, err
			}
			a.Merge(t)
		}
	}
	for _, a := range r.aux {
		for s := 0; s < 2; s++ {
			if PredictedWidth(a.Wins[s], a.Encounters, n) >= r.W {
				return false, nil
			}
		}
	}
	return true, nil
}

// PredictedWidth is a conservative prediction of the 95% Wilson
// interval's width after n encounters, from k wins in an auxiliary sample
// of m: the width at the p(1−p) largest within the auxiliary's 90% Wilson
// interval (1/4 when it holds 1/2). With m = 0 it is the width at 1/4.
func PredictedWidth(k, m, n int64) float64 {
	v := 0.25
	if m > 0 {
		ci := stats.Wilson(k, m, 0.90)
		if ci.Hi < 0.5 {
			v = ci.Hi * (1 - ci.Hi)
		} else if ci.Lo > 0.5 {
			v = ci.Lo * (1 - ci.Lo)
		}
	}
	z := stats.Z(0.95)
	nf := float64(n)
	return 2 * z / (1 + z*z/nf) * math.Sqrt(v/nf+z*z/(4*nf*nf))
}
