package d20_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// A point-buy on the exact duel (exact_test.go): the Fighter spends up to
// two points on +1 initiative, +1 AC or +2 hit points. Ten candidates,
// each one's exact win rate from the duel's dynamic program.
const pointBuyWhere = "(heroes.Fighter.init - 0) + (heroes.Fighter.ac - 19) + (heroes.Fighter.hp - 12) / 2 <= 2"

func pointBuy(t *testing.T) (*experiment.Space, []experiment.Point, []sim.Game, sim.Game, []float64) {
	t.Helper()
	src := []byte(duelYAML([2]duelist{duelFighter, duelOrc}, false, ""))
	sp := &experiment.Space{Dims: []experiment.Dim{
		experiment.NewDim("heroes.Fighter.init", []string{"0", "1", "2"}),
		experiment.NewDim("heroes.Fighter.ac", []string{"19", "20", "21"}),
		experiment.NewDim("heroes.Fighter.hp", []string{"12", "14", "16"}),
	}}
	if err := sp.Constrain(pointBuyWhere); err != nil {
		t.Fatal(err)
	}
	points, cnt, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
	if err != nil || cnt.Candidates != 10 {
		t.Fatalf("space: %v, %+v", err, cnt)
	}
	compile := func(sets []scenario.Set) sim.Game {
		sc, err := scenario.Load("duel.yaml", src, sets, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	games := make([]sim.Game, len(points))
	exact := make([]float64, len(points))
	for k, p := range points {
		games[k] = compile(p.Sets)
		f := duelFighter
		f.init, _ = strconv.Atoi(p.Sets[0].Value)
		f.ac, _ = strconv.Atoi(p.Sets[1].Value)
		f.hp, _ = strconv.Atoi(p.Sets[2].Value)
		win, draw := duelOutcome([2]duelist{f, duelOrc}, duelRounds, srdRules)
		if draw > 1e-12 {
			t.Fatalf("model: P(draw) %.3g", draw)
		}
		exact[k] = win[0]
	}
	return sp, points, games, compile(nil), exact
}

// TestOptimizePointBuyExact: over 100 seeds, the optimizer's answer is
// right at least 1−α of the time, checked against the dynamic program:
// when it selects a candidate, that candidate's exact win rate is within δ
// of the exact best; when the budget ends first ("not separated"), the
// group left holds an exact best. The candidates are close (the best
// three within 1.2 pp), so a plausible wrong procedure fails: picking the
// highest win rate after the same first stage (no sequential test) misses
// by more than δ in far more than α of the runs, checked below on the same
// seeds. Exact ties: init 1 and init 2 against the Orc's +4 are not tied,
// but the test also checks the selection never reports two candidates as
// separated when their exact rates are equal (none are here; see
// TestOptimizeExactTie).
func TestOptimizePointBuyExact(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("100 searches: run without -short and -race")
	}
	sp, points, games, base, exact := pointBuy(t)
	best := 0
	for k := range exact {
		if exact[k] > exact[best] {
			best = k
		}
	}
	for k, p := range points {
		t.Logf("%-60s exact %.4f%s", p.Name, exact[k], map[bool]string{true: "  <- best"}[k == best])
	}
	const runs, alpha, delta, first = 100, 0.05, 0.01, 500
	wrong, naiveWrong, notSep := 0, 0, 0
	var spent, uniform int64
	for seed := uint64(1); seed <= runs; seed++ {
		res, err := experiment.Optimize(context.Background(), sp, points, games, base, "", 0, "heroes", experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: delta, First: first, Cap: 200_000, Budget: 1 << 40, Confirm: 100, Top: 1})
		if err != nil {
			t.Fatal(err)
		}
		spent += res.Selection.Encounters
		uniform += res.Uniform
		if res.Separated {
			if exact[res.Best] < exact[best]-delta {
				wrong++
			}
		} else {
			notSep++
			hasBest := false
			for _, i := range res.Selection.Group {
				hasBest = hasBest || exact[res.Finalists[i]] >= exact[best]
			}
			if !hasBest {
				wrong++
			}
		}
		// The wrong procedure: the highest win rate after the first stage.
		crn, err := experiment.RunCRN(context.Background(), games, sim.RunConfig{Seed: seed, N: first, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		top := 0
		for k := range games {
			if crn.Wins[0].Sum[k] > crn.Wins[0].Sum[top] {
				top = k
			}
		}
		if exact[top] < exact[best]-delta {
			naiveWrong++
		}
	}
	t.Logf("%d runs: %d wrong (%d not separated), the naive pick wrong in %d; selection encounters %d, uniform allocation %d (%.1fx)",
		runs, wrong, notSep, naiveWrong, spent, uniform, float64(uniform)/float64(spent))
	if float64(wrong) > alpha*runs {
		t.Errorf("wrong in %d of %d runs; the guarantee allows %.0f", wrong, runs, alpha*runs)
	}
	if float64(naiveWrong) <= 3*alpha*runs {
		t.Errorf("power: the naive pick was wrong in only %d of %d runs; the test cannot tell a wrong procedure", naiveWrong, runs)
	}
}

// TestOptimizeExactTie: six candidates exactly tied (the six orders of
// the Fighter's full attack [5, 0, -5]: in a melee duel the total damage of
// a full attack does not depend on the order, which the dynamic program
// confirms to 1e-12) and one clearly worse (a single attack). Over 40
// seeds no tied candidate is ever reported eliminated (shown worse) in
// more than α of the runs, and none is reported as the lone survivor;
// the worse one is eliminated. Power: the same runs judged by a
// per-comparison 95% interval after the first stage, the tournament's old
// rule, eliminate a tied candidate far more often.
func TestOptimizeExactTie(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("40 searches: run without -short and -race")
	}
	orders := []string{"[5, 0, -5]", "[5, -5, 0]", "[0, 5, -5]", "[0, -5, 5]", "[-5, 5, 0]", "[-5, 0, 5]", "[5]"}
	src := []byte(duelYAML([2]duelist{duelFighter, duelOrc}, false, ""))
	sp := &experiment.Space{Dims: []experiment.Dim{experiment.NewDim("heroes.Fighter.attacks", orders)}}
	points, _, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
	if err != nil {
		t.Fatal(err)
	}
	games := make([]sim.Game, len(points))
	exact := make([]float64, len(points))
	for k, p := range points {
		sc, err := scenario.Load("duel.yaml", src, p.Sets, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if games[k], err = rulesets.Compile(sc); err != nil {
			t.Fatal(err)
		}
		f := duelFighter
		f.attacks = nil
		var a, b, c int
		if n, _ := fmt.Sscanf(orders[k], "[%d, %d, %d]", &a, &b, &c); n == 3 {
			f.attacks = []int{a, b, c}
		} else {
			f.attacks = []int{5}
		}
		win, _ := duelOutcome([2]duelist{f, duelOrc}, duelRounds, srdRules)
		exact[k] = win[0]
	}
	for k := 1; k < 6; k++ {
		if math.Abs(exact[k]-exact[0]) > 1e-12 {
			t.Fatalf("model: order %s gives %.15f, order %s %.15f: not a tie", orders[k], exact[k], orders[0], exact[0])
		}
	}
	if exact[6] > exact[0]-0.02 {
		t.Fatalf("model: the single attack (%.4f) is not clearly worse than the full attack (%.4f)", exact[6], exact[0])
	}
	base := games[0]
	const runs, alpha = 40, 0.05
	tiedOut, lone, worseKept, naiveOut := 0, 0, 0, 0
	for seed := uint64(1); seed <= runs; seed++ {
		res, err := experiment.Optimize(context.Background(), sp, points, games, base, "", 0, "heroes", experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: 0.01, First: 500, Cap: 10_000, Budget: 1 << 40, Confirm: 100, Top: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Ranked {
			if r.Point < 6 && r.Status == "eliminated" {
				tiedOut++
				break
			}
		}
		if res.Outcome == experiment.OutcomeSeparated {
			lone++
		}
		for _, r := range res.Ranked {
			if r.Point == 6 && r.Status != "eliminated" {
				worseKept++
			}
		}
		// The old rule: drop anyone whose paired 95% interval to the
		// leader after the first stage lies below 0.
		crn, err := experiment.RunCRN(context.Background(), games[:6], sim.RunConfig{Seed: seed, N: 500, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		lead := 0
		for k := 0; k < 6; k++ {
			if crn.Wins[0].Sum[k] > crn.Wins[0].Sum[lead] {
				lead = k
			}
		}
		for k := 0; k < 6; k++ {
			if k != lead && crn.Wins[0].Paired(lead, k).DiffCI(0.95).Lo > 0 {
				naiveOut++
				break
			}
		}
	}
	t.Logf("%d runs: a tied candidate eliminated in %d, a lone survivor in %d, the worse kept in %d; the per-comparison rule eliminated a tied one in %d", runs, tiedOut, lone, worseKept, naiveOut)
	if float64(tiedOut) > alpha*runs || lone > 0 {
		t.Errorf("tied candidates separated: eliminated in %d runs (at most %.0f allowed), a lone survivor in %d", tiedOut, alpha*runs, lone)
	}
	if worseKept > 0 {
		t.Errorf("the clearly worse candidate survived in %d runs", worseKept)
	}
	if float64(naiveOut) <= 2*alpha*runs {
		t.Errorf("power: the per-comparison rule eliminated a tied candidate in only %d runs", naiveOut)
	}
}
