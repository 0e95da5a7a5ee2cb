package d20_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
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
	compile := func(sets []scenario.Set) sim.Game { return compileDuel(t, src, sets) }
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
		j := judgePick(t, sp, points, games, base, exact, best, delta, experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: delta, First: first, Cap: 200_000, Budget: 1 << 40, Confirm: 100, Top: 1})
		spent += j.spent
		uniform += j.uniform
		wrong += b2i(j.wrong)
		notSep += b2i(j.notSep)
		naiveWrong += b2i(j.naiveWrong)
	}
	t.Logf("%d runs: %d wrong (%d not separated), the naive pick wrong in %d; encounters in all %d, uniform allocation for the same guarantee %d (the search costs %.2g times as much)",
		runs, wrong, notSep, naiveWrong, spent, uniform, float64(spent)/float64(uniform))
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

// A tactics threshold: the Fighter delays until the Orc has acted from
// round $r on (while the Orc has not acted yet this round), giving up the
// first strike once and for all. duelSchedule is the duel's dynamic
// program for any order of turns: turns(round) lists the sides acting that
// round in order, each turn a full attack, and a side stops being
// flat-footed when its first turn begins, delayed or not (round.go).
func duelSchedule(f [2]duelist, maxRounds int, r rules, turns func(round int) (order []int, delayer int)) float64 {
	h0, h1 := f[0].hp, f[1].hp
	at := func(a, b int) int { return a*(h1+1) + b }
	cur := make([]float64, (h0+1)*(h1+1))
	next := make([]float64, len(cur))
	cur[at(h0, h1)] = 1
	var win0 float64
	flat := [2]bool{r.flatFooted, r.flatFooted}
	attack := func(a, bonus int) {
		ac := f[1-a].ac
		if flat[1-a] {
			ac -= f[1-a].dexAC
		}
		k := attackDist(f[a], bonus, ac, r)
		clear(next)
		for x := 1; x <= h0; x++ {
			for y := 1; y <= h1; y++ {
				w := cur[at(x, y)]
				if w == 0 {
					continue
				}
				for dmg, p := range k {
					nx, ny := x, y
					if a == 0 {
						ny -= dmg
					} else {
						nx -= dmg
					}
					switch {
					case nx <= 0 || ny <= 0:
						if a == 0 {
							win0 += w * p
						}
					default:
						next[at(nx, ny)] += w * p
					}
				}
			}
		}
		cur, next = next, cur
	}
	for round := 1; round <= maxRounds; round++ {
		order, delayer := turns(round)
		if delayer >= 0 {
			flat[delayer] = false // its turn began: it delays
		}
		for _, a := range order {
			flat[a] = false
			for _, b := range f[a].attacks {
				attack(a, b)
			}
		}
		if sum(cur) < 1e-18 {
			break
		}
	}
	return win0
}

// delayExact is P(Fighter wins) with the wait rule from round rr on.
func delayExact(f [2]duelist, rr int) float64 {
	pFirst := exactFirst([]initiant{{f[0].name, f[0].init, 0}, {f[1].name, f[1].init, 0}}, srdTies)
	orcFirst := duelSchedule(f, duelRounds, srdRules, func(int) ([]int, int) { return []int{1, 0}, -1 })
	fighterFirst := duelSchedule(f, duelRounds, srdRules, func(round int) ([]int, int) {
		switch {
		case round < rr:
			return []int{0, 1}, -1
		case round == rr:
			return []int{1, 0}, 0 // delays until the Orc has acted
		}
		return []int{1, 0}, -1 // its count is now right after the Orc's
	})
	return pFirst[0]*fighterFirst + pFirst[1]*orcFirst
}

const delayTactics = `
        tactics:
          params: {r: 1}
          turn:
            - name: wait
              when: round >= $r and not enemy("Orc").acted
              do: delay until Orc
            - name: fight
              do: attack`

// TestOptimizeDelayThresholdExact: the threshold $r of a delay rule (never
// a gain here: the Orc gets two turns in a row once), searched over
// r = 1..6 and 100 (never, within the fight's length), against the exact
// win rate of each by dynamic programming: over 60 seeds the optimizer's
// answer is within δ (0.5 pp) of the exact best in at least 1−α of the
// runs (0 wrong at this writing; picking the leader after the first
// 500-encounter stage is wrong in 5, above the 3 allowed). The dynamic
// program is checked first: with r = 100 it equals exact_test.go's
// duelOutcome to 1e-12, and at r = 1 the simulation agrees with it within
// 4 SE while the rule ignored would be 52 SE away.
func TestOptimizeDelayThresholdExact(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("40 searches: run without -short and -race")
	}
	f := [2]duelist{duelFighter, duelOrc}
	f[0].init = 4 // the Fighter is first often enough for the rule to matter
	if w, _ := duelOutcome(f, duelRounds, srdRules); math.Abs(w[0]-delayExact(f, 100)) > 1e-12 {
		t.Fatalf("model: the schedule DP without delay %.15f differs from duelOutcome %.15f", delayExact(f, 100), w[0])
	}
	src := duelYAML(f, false, "")
	// The Fighter's line as a block mapping, so its tactics: block fits.
	block := fmt.Sprintf("      - name: Fighter\n        hp: %d\n        ac: %d\n        dex_ac: %d\n        init: %d\n        attacks: [5, 0]\n        damage: %s\n        crit: 19-20/x2%s",
		f[0].hp, f[0].ac, f[0].dexAC, f[0].init, f[0].damage, delayTactics)
	src = strings.Replace(src, "      - "+f[0].yaml(), block, 1)
	values := []string{"1", "2", "3", "4", "5", "6", "100"}
	exact := make([]float64, len(values))
	for i, v := range values {
		r, _ := strconv.Atoi(v)
		exact[i] = delayExact(f, r)
		t.Logf("r=%-3s exact %.4f", v, exact[i])
	}
	sp := &experiment.Space{Dims: []experiment.Dim{experiment.NewDim("heroes.Fighter.tactics.params.r", values)}}
	points, _, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
	if err != nil {
		t.Fatal(err)
	}
	games := make([]sim.Game, len(points))
	for k, p := range points {
		sc, err := scenario.Load("delay.yaml", []byte(src), p.Sets, rulesets.Schema)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if games[k], err = rulesets.Compile(sc); err != nil {
			t.Fatal(err)
		}
	}
	// The model against the engine at r = 1 (the largest effect).
	n := encounters(200_000)
	tally := runGame(t, games[0], n)
	checkProb(t, "P(Fighter wins), delay from round 1", tally.Wins[0], n, exact[0])
	checkPower(t, "no delay (the rule ignored)", tally.Wins[0], n, exact[len(exact)-1])
	best := 0
	for k := range exact {
		if exact[k] > exact[best] {
			best = k
		}
	}
	const runs, alpha, delta = 60, 0.05, 0.005
	wrong, naiveWrong := 0, 0
	for seed := uint64(1); seed <= runs; seed++ {
		res, err := experiment.Optimize(context.Background(), sp, points, games, games[len(games)-1], "", 0, "heroes", experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: delta, First: 500, Cap: 100_000, Budget: 1 << 40, Confirm: 100, Top: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Separated {
			if exact[res.Best] < exact[best]-delta {
				wrong++
			}
		} else {
			hasBest := false
			for _, i := range res.Selection.Group {
				hasBest = hasBest || exact[res.Finalists[i]] >= exact[best]
			}
			if !hasBest {
				wrong++
			}
		}
		crn, err := experiment.RunCRN(context.Background(), games, sim.RunConfig{Seed: seed, N: 500, Workers: 2})
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
	t.Logf("%d runs: %d wrong; the naive pick after 500 encounters wrong in %d", runs, wrong, naiveWrong)
	if float64(wrong) > alpha*runs {
		t.Errorf("wrong in %d of %d runs; the guarantee allows %.0f", wrong, runs, alpha*runs)
	}
	if float64(naiveWrong) <= alpha*runs {
		t.Errorf("power: the naive pick after 500 encounters was wrong in only %d of %d runs (the guarantee allows %.0f): the test cannot tell a wrong procedure", naiveWrong, runs, alpha*runs)
	}
}

// The point-buy, verbatim: the built-in d20/duel, four points on
// +1 initiative, +1 AC or +2 hit points from the Fighter as written
// (init 1, AC 17, 20 hp), δ = 0.5 pp; 35 candidates.
const verbatimWhere = "(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 4"

// TestOptimizePointBuyVerbatim: the command (simctl optimize
// d20/duel --side heroes --vary heroes.Fighter.init=1:5 --vary
// heroes.Fighter.ac=17:21 --vary heroes.Fighter.hp=20:28:2 --where
// '...' --delta 0.5pp) over 50 seeds, each answer judged against every
// candidate's exact win rate from the duel's dynamic program
// (duelOutcome, 100 rounds as the scenario's max_rounds): the candidate
// selected is within δ of the exact best, or, when the budget ends first,
// the group left holds an exact best, in at least 1−α of the runs. The
// selection runs as the command runs it (stages of 1,000, 100,000 per
// candidate at most); the confirmation, which the guarantee does not
// rest on, plays 100 encounters instead of 20,000 to keep the test
// cheap. The dynamic program is checked against the engine first (the
// scenario as written, 200,000 encounters, within 4 SE). A plausible
// wrong procedure fails on the same seeds: the highest win rate after
// the first 1,000-encounter stage misses by more than δ in more than α
// of the runs.
func TestOptimizePointBuyVerbatim(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("50 searches: run without -short and -race")
	}
	src, display, ok := scenarios.Read("d20/duel")
	if !ok {
		t.Fatal("no built-in d20/duel")
	}
	fighter := duelist{name: "Fighter", hp: 20, ac: 17, dexAC: 1, init: 1, attacks: []int{6, 1}, damage: "1d8+3", threatFrom: 19, mult: 2}
	orc := duelist{name: "Orc", hp: 22, ac: 14, dexAC: 0, init: 0, attacks: []int{5}, damage: "1d12+3", threatFrom: 20, mult: 3}
	sp := &experiment.Space{Dims: []experiment.Dim{
		experiment.NewDim("heroes.Fighter.init", []string{"1", "2", "3", "4", "5"}),
		experiment.NewDim("heroes.Fighter.ac", []string{"17", "18", "19", "20", "21"}),
		experiment.NewDim("heroes.Fighter.hp", []string{"20", "22", "24", "26", "28"}),
	}}
	if err := sp.Constrain(verbatimWhere); err != nil {
		t.Fatal(err)
	}
	points, cnt, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
	if err != nil || cnt.Candidates != 35 {
		t.Fatalf("space: %v, %+v", err, cnt)
	}
	compile := func(sets []scenario.Set) sim.Game {
		sc, err := scenario.Load(display, src, sets, rulesets.Schema)
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
	best := 0
	for k, p := range points {
		games[k] = compile(p.Sets)
		f := fighter
		f.init, _ = strconv.Atoi(p.Sets[0].Value)
		f.ac, _ = strconv.Atoi(p.Sets[1].Value)
		f.hp, _ = strconv.Atoi(p.Sets[2].Value)
		win, _ := duelOutcome([2]duelist{f, orc}, 100, srdRules)
		exact[k] = win[0]
		if exact[k] > exact[best] {
			best = k
		}
	}
	within := 0
	for k, p := range points {
		if exact[k] >= exact[best]-0.005 {
			within++
			t.Logf("%-62s exact %.4f%s", p.Name, exact[k], map[bool]string{true: "  <- best"}[k == best])
		}
	}
	base := compile(nil)
	asWritten, _ := duelOutcome([2]duelist{fighter, orc}, 100, srdRules)
	n := encounters(200_000)
	checkProb(t, "P(Fighter wins), d20/duel as written", runGame(t, base, n).Wins[0], n, asWritten[0])
	const runs, alpha, delta, first = 50, 0.05, 0.005, 1000
	wrong, naiveWrong, notSep := 0, 0, 0
	var spent int64
	for seed := uint64(1); seed <= runs; seed++ {
		j := judgePick(t, sp, points, games, base, exact, best, delta, experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: delta, First: first, Cap: 100_000, Budget: 20_000_000, Confirm: 100, Top: 1})
		spent += j.spent
		wrong += b2i(j.wrong)
		notSep += b2i(j.notSep)
		naiveWrong += b2i(j.naiveWrong)
	}
	t.Logf("%d candidates within δ of the exact best; %d runs: %d wrong (%d not separated), the highest rate after %d encounters wrong in %d; %d encounters in all",
		within, runs, wrong, notSep, first, naiveWrong, spent)
	if float64(wrong) > alpha*runs {
		t.Errorf("wrong in %d of %d runs; the guarantee allows %.1f", wrong, runs, alpha*runs)
	}
	if float64(naiveWrong) <= alpha*runs {
		t.Errorf("power: the highest rate after the first stage was wrong in only %d of %d runs: the test cannot tell a wrong procedure", naiveWrong, runs)
	}
}

// pick is how one search of a point-buy test fared against the exact
// win rates: wrong when it selected a candidate more than delta below the
// exact best, or ended not separated without an exact best in its group;
// naiveWrong when the highest win rate after the same first stage (the
// plausible wrong procedure) is more than delta below the exact best.
type pick struct {
	wrong, notSep, naiveWrong bool
	spent, uniform            int64
}

func judgePick(t *testing.T, sp *experiment.Space, points []experiment.Point, games []sim.Game, base sim.Game, exact []float64, best int, delta float64, cfg experiment.OptimizeConfig) pick {
	t.Helper()
	res, err := experiment.Optimize(context.Background(), sp, points, games, base, "", 0, "heroes", cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := pick{spent: res.Encounters, uniform: res.Uniform}
	if res.Separated {
		out.wrong = exact[res.Best] < exact[best]-delta
	} else {
		out.notSep = true
		hasBest := false
		for _, i := range res.Selection.Group {
			hasBest = hasBest || exact[res.Finalists[i]] >= exact[best]
		}
		out.wrong = !hasBest
	}
	crn, err := experiment.RunCRN(context.Background(), games, sim.RunConfig{Seed: cfg.Seed, N: cfg.First, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	top := 0
	for k := range games {
		if crn.Wins[0].Sum[k] > crn.Wins[0].Sum[top] {
			top = k
		}
	}
	out.naiveWrong = exact[top] < exact[best]-delta
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOptimizeAtMostDeltaExact: issue 35 item 3. A candidate left beside
// the best when the selection stops "within δ" carries the status "at most
// delta better", and that is what it is: over 40 seeds of the exact
// point-buy, in at least 1−α of the runs every candidate so labelled has an
// exact win rate at most δ above the selected one's. The old label,
// "within delta", read as |difference| <= δ; judged on the same runs that
// reading is false in far more than α of them (candidates left are often
// more than δ worse), so the label said more than the procedure did.
func TestOptimizeAtMostDeltaExact(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("40 searches: run without -short and -race")
	}
	sp, points, games, base, exact := pointBuy(t)
	const runs, alpha, delta = 40, 0.05, 0.01
	stopped, wrong, labelled, oldWrong := 0, 0, 0, 0
	for seed := uint64(1); seed <= runs; seed++ {
		res, err := experiment.Optimize(context.Background(), sp, points, games, base, "", 0, "heroes", experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: delta, First: 500, Cap: 200_000, Budget: 1 << 40, Confirm: 100, Top: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != experiment.OutcomeWithinDelta {
			continue
		}
		stopped++
		bad, oldBad := false, false
		for _, r := range res.Ranked {
			if r.Status == "within delta" {
				t.Fatalf("seed %d: the old status %q", seed, r.Status)
			}
			if r.Status != experiment.StatusAtMostDelta {
				continue
			}
			labelled++
			d := exact[r.Point] - exact[res.Best]
			bad = bad || d > delta
			oldBad = oldBad || math.Abs(d) > delta
		}
		wrong += b2i(bad)
		oldWrong += b2i(oldBad)
	}
	t.Logf("%d runs stopped within δ, %d candidates labelled %q; the label false in %d runs, the old reading (|difference| <= δ) false in %d",
		stopped, labelled, experiment.StatusAtMostDelta, wrong, oldWrong)
	if stopped < runs/3 || labelled == 0 {
		t.Fatalf("only %d of %d runs stopped within δ (%d labelled): the test checks too little", stopped, runs, labelled)
	}
	if float64(wrong) > alpha*runs {
		t.Errorf("the label was false in %d of %d runs; at most %.0f allowed", wrong, runs, alpha*runs)
	}
	if float64(oldWrong) <= 3*alpha*runs {
		t.Errorf("power: the old reading was false in only %d runs; the test cannot tell a label that says too much", oldWrong)
	}
}

// TestOptimizeBudgetExact: issue 35 item 2. With a budget too small to
// decide (the exact point-buy, --budget 60,000), the selection often ends
// not separated; then the search reached no guarantee and sets no cost
// against a design "for the same guarantee" (Uniform is 0), where before it
// did so in every such run. When it decides, the comparison is there. In
// every run the screening and the selection together stay within the
// budget (here the space is not screened, so the selection alone is
// bounded by it; the confirmation is outside it, as --budget's help says), and
// the group left when the budget ends holds an exact best in at least
// 1−α of the runs.
func TestOptimizeBudgetExact(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("40 searches: run without -short and -race")
	}
	sp, points, games, base, exact := pointBuy(t)
	best := 0
	for k := range exact {
		if exact[k] > exact[best] {
			best = k
		}
	}
	const runs, alpha, delta, budget = 40, 0.05, 0.01, 60_000
	notSep, claims, over, wrong := 0, 0, 0, 0
	for seed := uint64(1); seed <= runs; seed++ {
		res, err := experiment.Optimize(context.Background(), sp, points, games, base, "", 0, "heroes", experiment.OptimizeConfig{
			Seed: seed, Workers: 2, Alpha: alpha, Delta: delta, First: 500, Cap: 200_000, Budget: budget, Confirm: 100, Top: 1})
		if err != nil {
			t.Fatal(err)
		}
		var confirm int64
		for _, st := range res.Stages {
			if st.Name == "confirmation" {
				confirm += st.Encounters
			}
		}
		if res.Encounters-confirm > budget {
			over++
		}
		if res.Separated {
			if res.Uniform <= 0 {
				t.Errorf("seed %d: decided, but no cost comparison", seed)
			}
			wrong += b2i(exact[res.Best] < exact[best]-delta)
			continue
		}
		notSep++
		claims += b2i(res.Uniform > 0)
		hasBest := false
		for _, i := range res.Selection.Group {
			hasBest = hasBest || exact[res.Finalists[i]] >= exact[best]
		}
		wrong += b2i(!hasBest)
	}
	t.Logf("%d runs: %d ended not separated, of which %d still priced a design for the same guarantee; %d over the budget; wrong in %d", runs, notSep, claims, over, wrong)
	if notSep < runs/4 {
		t.Fatalf("only %d of %d runs ended not separated: the test checks too little", notSep, runs)
	}
	if claims > 0 || over > 0 {
		t.Errorf("%d runs without a guarantee priced one; %d runs spent more than the budget on screening and selection", claims, over)
	}
	if float64(wrong) > alpha*runs {
		t.Errorf("wrong in %d of %d runs; at most %.0f allowed", wrong, runs, alpha*runs)
	}
}

// compileDuel compiles the duel's text src with sets applied.
func compileDuel(t *testing.T, src []byte, sets []scenario.Set) sim.Game {
	t.Helper()
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
