package experiment_test

import (
	"context"
	"math"
	"simctl/sim/experiment"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/stats"
)

// TestPrecisionCoverage is the stopping rule's coverage, measured: a duel
// whose win probability is known in closed form is run to --precision
// under 2,000 seeds, and the share of final 95% Wilson intervals that
// contain the exact value must be 95% within 4 binomial SE. The rule
// stops on the intervals' width alone, which for a proportion hardly
// depends on the estimate, so stopping early does not bend the coverage.
// Power: the same runs judged by 90% intervals (a procedure whose stated
// level is wrong) must fall outside the tolerance.
func TestPrecisionCoverage(t *testing.T) {
	// One hit drops either side: the hero (+4 vs AC 13) hits on 9+, 60%;
	// the orc (+3 vs AC 15) on 12+, 45%. Initiative +1 against +2.
	const src = `name: one-hit duel
ruleset: d20
max_rounds: 100
sides:
  - name: heroes
    combatants: [{name: Fighter, hp: 1, ac: 15, dex_ac: 0, init: 1, attacks: [4], damage: 1d4, crit: none}]
  - name: monsters
    combatants: [{name: Orc, hp: 1, ac: 13, dex_ac: 0, init: 2, attacks: [3], damage: 1d4, crit: none}]
`
	sc, err := scenario.Load("duel.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	h0, h1 := 0.60, 0.45
	pFirst := 0.0 // P(hero first): d20+1 against d20+2, ties to the higher modifier
	for a := 1; a <= 20; a++ {
		for b := 1; b <= 20; b++ {
			if a+1 > b+2 {
				pFirst += 1.0 / 400
			}
		}
	}
	cycle := 1 - (1-h0)*(1-h1)
	exact := pFirst*h0/cycle + (1-pFirst)*(1-h1)*h0/cycle

	seeds := 2000
	if raceEnabled || testing.Short() {
		seeds = 500
	}
	const w = 0.04
	covered, covered90, reached := 0, 0, 0
	for s := 1; s <= seeds; s++ {
		runs, err := experiment.RunSweep(context.Background(), []sim.Game{g},
			experiment.SweepConfig{Seed: uint64(s), N: 100_000, Precision: w, Batch: 500, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		tl := runs[0].Tally
		if runs[0].Reached {
			reached++
		}
		if ci := stats.Wilson95(tl.Wins[0], tl.Encounters); ci.Lo <= exact && exact <= ci.Hi {
			covered++
		}
		if ci := stats.Wilson(tl.Wins[0], tl.Encounters, 0.90); ci.Lo <= exact && exact <= ci.Hi {
			covered90++
		}
	}
	cov, cov90 := float64(covered)/float64(seeds), float64(covered90)/float64(seeds)
	se := math.Sqrt(0.95 * 0.05 / float64(seeds))
	t.Logf("exact %.5f; coverage of the 95%% interval at stopping %.4f (SE %.4f); of a 90%% one %.4f; %d/%d reached", exact, cov, se, cov90, reached, seeds)
	if reached != seeds {
		t.Errorf("only %d of %d runs reached the precision", reached, seeds)
	}
	if math.Abs(cov-0.95) > 4*se {
		t.Errorf("coverage %.4f, want 0.95 ± %.4f (4 SE)", cov, 4*se)
	}
	if seeds == 2000 && math.Abs(cov90-0.95) <= 4*se {
		t.Errorf("power: a 90%% procedure's coverage %.4f is within the tolerance of 95%%", cov90)
	}
}
