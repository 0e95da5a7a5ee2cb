package reports

import (
	"context"
	"testing"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/rng"
)

// rareGame is a stand-in ruleset with an exactly known rare difference: on
// a draw u of 0..9999, side 0 wins when u < p, except that u in
// [p-lose, p) loses and u in [p, p+gain) wins. Played on common random
// numbers against rareGame{p, 0, 0}, the two differ on lose+gain in 10000
// encounters and the true difference of side 0's win rate is exactly
// (gain-lose)/10000: no simulation estimate needed.
type rareGame struct{ p, lose, gain int }

func (g rareGame) Roster() []sim.Entrant {
	return []sim.Entrant{{Name: "A", Side: 0}, {Name: "B", Side: 1}}
}
func (g rareGame) Counters() []string  { return sim.BaseCounters }
func (g rareGame) MaxRounds() int      { return 10 }
func (g rareGame) NewTable() sim.Table { return rareTable{g} }

type rareTable struct{ g rareGame }

func (t rareTable) Play(r *rng.Stream, c *sim.Counts, _ *sim.Log) sim.Outcome {
	u := r.IntN(10000)
	o := sim.Outcome{Winner: 1, Rounds: 1}
	if u < t.g.p-t.g.lose || t.g.p <= u && u < t.g.p+t.g.gain {
		o.Winner = 0
	}
	c.Add(0, sim.Turns, 1)
	o.Survivors[o.Winner] = 1
	return o
}

// TestCompareRareDifferenceCoverage: compare's paired interval covers an
// exactly known rare difference (a handful of discordant encounters in
// 2000, often none) in at least 93% of 400 seeds, and is never of zero
// width. The normal interval compare printed before (Paired.DiffCI,
// d̄ ± 1.96·SE) is judged on the same seeds and must fail the same
// criterion (it covers 0.880 and 0.807, with 46 and 52 zero-width
// intervals).
func TestCompareRareDifferenceCoverage(t *testing.T) {
	const seeds, n = 400, 2000
	for _, opt := range []rareGame{{5000, 12, 0}, {5000, 8, 2}} {
		truth := float64(opt.gain-opt.lose) / 10000
		games := []sim.Game{rareGame{p: 5000}, opt}
		covered, zero := 0, 0
		waldCovered, waldZero := 0, 0 // the wrong procedure
		for seed := uint64(1); seed <= seeds; seed++ {
			p, err := experiment.RunPaired(context.Background(), games, sim.RunConfig{Seed: seed, N: n, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			d := results.NewPairedDiff("A", p.Paired[1][0])
			lo, hi := float64(d.CI95[0]), float64(d.CI95[1])
			if hi <= lo {
				zero++
			}
			if lo <= truth && truth <= hi {
				covered++
			}
			w := p.Paired[1][0].DiffCI(0.95)
			if w.Hi <= w.Lo {
				waldZero++
			}
			if w.Lo <= truth && truth <= w.Hi {
				waldCovered++
			}
		}
		cov := float64(covered) / seeds
		t.Logf("lose %d gain %d: Δ=%+.4f, coverage %.3f, %d zero-width", opt.lose, opt.gain, truth, cov, zero)
		if cov < 0.93 || zero > 0 {
			t.Errorf("lose %d gain %d: coverage %.3f (want >= 0.93), %d zero-width intervals (want 0)", opt.lose, opt.gain, cov, zero)
		}
		waldCov := float64(waldCovered) / seeds
		t.Logf("lose %d gain %d: the normal interval d̄ ± 1.96·SE covers %.3f, %d zero-width", opt.lose, opt.gain, waldCov, waldZero)
		if waldCov >= 0.93 && waldZero == 0 {
			t.Errorf("lose %d gain %d: the normal interval passes too (coverage %.3f, no zero-width interval): the test cannot tell a wrong procedure", opt.lose, opt.gain, waldCov)
		}
	}
}
