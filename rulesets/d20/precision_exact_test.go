package d20_test

import (
	"context"
	"math"
	"testing"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/stats"
)

// fixedNCoverage is the exact coverage of the 95% Wilson interval of k
// wins in n encounters for a true rate p: the sum of the binomial
// probabilities of the k whose interval holds p.
func fixedNCoverage(n int64, p float64) float64 {
	lg := func(x int64) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	cov := 0.0
	for k := int64(0); k <= n; k++ {
		if ci := stats.Wilson95(k, n); ci.Lo <= p && p <= ci.Hi {
			cov += math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
		}
	}
	return cov
}

// TestPrecisionSmallBatchExact: issue 35 item 5, at --batch 10 on a rare
// outcome. A duel the heroes win about 9% of the time (exact, from the
// dynamic program) is run to --precision 10pp over 500 seeds. The rule
// decides on an auxiliary sample, so the 95% interval where a run stops is
// a fixed-N interval: its coverage over the seeds must match the average
// of the exact fixed-N coverages at the sizes the runs stopped at, within
// 3 SE. The old rule, stopping on the run's own interval width, is run on
// the same seeds and misses its own fixed-N average by more than 3 SE:
// which way depends on where p falls among the few win counts a narrow
// interval allows (the audit's p = 8.93% gave 92.2% against 94.4%; this
// p = 8.68% gives about 98.7% against 95.2%); either way the stated 95%
// is not what the interval is.
func TestPrecisionSmallBatchExact(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("1,000 sequential runs: run without -short and -race")
	}
	f := duelFighter
	f.hp, f.ac = 2, 17
	win, draw := duelOutcome([2]duelist{f, duelOrc}, duelRounds, srdRules)
	p := win[0]
	if draw > 1e-12 || p < 0.05 || p > 0.15 {
		t.Fatalf("model: P(heroes win) %.4f, P(draw) %.3g; want a rare win", p, draw)
	}
	g := compileYAML(t, "rare.yaml", duelYAML([2]duelist{f, duelOrc}, false, ""))
	const seeds, w, batch = 500, 0.10, 10
	cache := map[int64]float64{}
	fixed := func(n int64) float64 {
		if c, ok := cache[n]; ok {
			return c
		}
		cache[n] = fixedNCoverage(n, p)
		return cache[n]
	}
	var cov, want, oldCov, oldWant float64
	var spent, oldSpent int64
	for seed := uint64(1); seed <= seeds; seed++ {
		runs, err := experiment.RunSweep(context.Background(), []sim.Game{g}, experiment.SweepConfig{Seed: seed, N: 100_000, Precision: w, Batch: batch, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		tl := runs[0].Tally
		if ci := stats.Wilson95(tl.Wins[0], tl.Encounters); ci.Lo <= p && p <= ci.Hi {
			cov++
		}
		want += fixed(tl.Encounters)
		spent += tl.Encounters + experiment.AuxSize(tl.Encounters)
		// The old rule: stop at the first batch whose own intervals are
		// narrower than w.
		old := sim.NewTally(g)
		for !experiment.PrecisionReached(old, w) || old.Encounters == 0 {
			b, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: seed, Start: old.Encounters, N: batch, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			old.Merge(b)
		}
		if ci := stats.Wilson95(old.Wins[0], old.Encounters); ci.Lo <= p && p <= ci.Hi {
			oldCov++
		}
		oldWant += fixed(old.Encounters)
		oldSpent += old.Encounters
	}
	cov, want, oldCov, oldWant = cov/seeds, want/seeds, oldCov/seeds, oldWant/seeds
	se := math.Sqrt(want * (1 - want) / seeds)
	t.Logf("exact P(win) %.4f; auxiliary rule: coverage %.3f, fixed-N coverage at its sizes %.3f (SE %.4f), %.0f encounters a run with the auxiliary sample; old rule: coverage %.3f, fixed-N %.3f, %.0f encounters a run",
		p, cov, want, se, float64(spent)/seeds, oldCov, oldWant, float64(oldSpent)/seeds)
	if math.Abs(cov-want) > 3*se {
		t.Errorf("coverage %.3f, the fixed-N coverage at the same sizes %.3f: stopping bent it by more than 3 SE", cov, want)
	}
	if math.Abs(oldWant-oldCov) <= 3*se {
		t.Errorf("power: the old rule's coverage %.3f is within 3 SE of its fixed-N %.3f; the test cannot tell it", oldCov, oldWant)
	}
}
