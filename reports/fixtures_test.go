package reports

import (
	"math"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/stats"
)

// Synthetic results for golden tests: made from formulas, not from a
// simulation, so the goldens change only when the rendering does.

var fixtureCounters = append(append([]string(nil), sim.BaseCounters...), "attacks_of_opportunity", "criticals", "deaths")

// fixtureResult builds a result of n encounters in which side 0 wins with
// probability p0 and draws happen with probability pd.
func fixtureResult(n int64, p0, pd float64, sets []string) *results.Result {
	draws := int64(math.Round(pd * float64(n)))
	w0 := int64(math.Round(p0 * float64(n-draws)))
	raw := results.Raw{
		Wins: [2]int64{w0, n - draws - w0}, Draws: draws, Encounters: n,
		Counters: fixtureCounters, Roster: []string{"Fighter", "Orc"},
	}
	// Rounds: a geometric-ish shape around 3 rounds, max_rounds 20.
	raw.Rounds = make([]int64, 21)
	left := n
	for v := 1; v <= 20 && left > 0; v++ {
		k := int64(math.Round(float64(n) * 0.35 * math.Pow(0.62, math.Abs(float64(v)-3))))
		k = min(k, left)
		if v == 20 {
			k = left
		}
		raw.Rounds[v] = k
		raw.RoundsSum += int64(v) * k
		if k > 0 {
			raw.RoundsMax = int64(v)
		}
		left -= k
	}
	per := len(fixtureCounters)
	raw.Counts = make([]int64, 2*per)
	for s := 0; s < 2; s++ {
		f := 1 + 0.1*float64(s)
		raw.Counts[s*per+sim.Turns] = int64(2.6 * f * float64(n))
		raw.Counts[s*per+sim.Actions] = int64(2.4 * f * float64(n))
		raw.Counts[s*per+sim.DamageDealt] = int64(11.5 * f * float64(n))
		raw.Counts[s*per+sim.Delays] = int64(0.3 * float64(1-s) * float64(n))
		raw.Counts[per*s+sim.NumBase] = int64(0.05 * f * float64(n))
		raw.Counts[per*s+sim.NumBase+1] = int64(0.12 * f * float64(n))
		raw.Counts[per*s+sim.NumBase+2] = raw.Wins[1-s]
	}
	// Sums of squares as from counts of about Poisson spread (variance
	// equal to the mean); the 0/1 deaths counter's squares are its sum.
	raw.CountsSq = make([]int64, 2*per)
	for i, c := range raw.Counts {
		raw.CountsSq[i] = c*c/n + c
		if i%per == sim.NumBase+2 {
			raw.CountsSq[i] = c
		}
	}
	raw.Survivors = [2]int64{w0, n - draws - w0}
	raw.FirstActor = []int64{int64(0.55 * float64(n)), n - int64(0.55*float64(n))}
	m := results.Meta{Scenario: "Fighter vs Orc", File: "builtin:d20/duel.yaml", Ruleset: "d20", Version: "0.1.0",
		Seed: 7, Sides: [2]string{"heroes", "monsters"}, Sets: sets, Command: "simctl run d20/duel -n 10000 --seed 7"}
	return results.FromRaw(m, raw)
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func fixtureSweep1() *results.Sweep {
	a := results.Axis{Path: "heroes.Fighter.init", Spec: "-4:8:2", Values: []string{"-4", "-2", "0", "2", "4", "6", "8"}}
	s := &results.Sweep{Scenario: "Fighter vs Orc", File: "builtin:d20/duel.yaml", Ruleset: "d20", Seed: 7, Version: "0.1.0",
		Command: "simctl sweep d20/duel --vary heroes.Fighter.init=-4:8:2 -n 10000 --seed 7",
		Axes:    []results.Axis{a}, MaxN: 10000, Sides: [2]string{"heroes", "monsters"}}
	for i, v := range a.Values {
		x := float64(i-3) / 3
		n := int64(10000)
		s.Points = append(s.Points, results.SweepPoint{Values: []string{v}, Result: fixtureResult(n, logistic(x), 0.01, []string{"heroes.Fighter.init=" + v})})
	}
	s.Finish()
	return s
}

func fixtureSweepPrecision() *results.Sweep {
	s := fixtureSweep1()
	s.Precision, s.Batch, s.MaxN = 0.02, 5000, 20000
	s.Command += " --precision 0.02 --batch 5000"
	for i := range s.Points {
		n := int64(5000 * (1 + i%4))
		p := s.Points[i]
		s.Points[i].Result = fixtureResult(n, p.Result.Sides[0].WinRate/(1-p.Result.DrawRate), p.Result.DrawRate, p.Result.Sets)
		s.Points[i].Reached = i%4 != 3
	}
	s.Finish()
	return s
}

func fixtureSweep2() *results.Sweep {
	ax := results.Axis{Path: "heroes.Fighter.init", Spec: "0:4:1", Values: []string{"0", "1", "2", "3", "4"}}
	ay := results.Axis{Path: "monsters.Orc.hp", Spec: "14,18,22,26", Values: []string{"14", "18", "22", "26"}}
	s := &results.Sweep{Scenario: "Fighter vs Orc", File: "builtin:d20/duel.yaml", Ruleset: "d20", Seed: 7, Version: "0.1.0",
		Command: "simctl sweep d20/duel --vary heroes.Fighter.init=0:4:1 --vary monsters.Orc.hp=14,18,22,26 -n 4000 --seed 7",
		Axes:    []results.Axis{ax, ay}, MaxN: 4000, Sides: [2]string{"heroes", "monsters"}}
	for _, pv := range results.Grid(s.Axes) {
		i := indexOf(ax.Values, pv[0])
		j := indexOf(ay.Values, pv[1])
		x := 0.35*float64(i) - 0.45*float64(j) + 0.3
		s.Points = append(s.Points, results.SweepPoint{Values: pv, Result: fixtureResult(4000, logistic(2*x), 0, nil)})
	}
	s.Finish()
	return s
}

func fixtureCompare() *results.Compare {
	c := &results.Compare{Scenario: "Fighter vs Orc", File: "builtin:d20/duel.yaml", Ruleset: "d20", Seed: 7, Version: "0.1.0",
		Command: "simctl compare d20/duel --option base='' --option init+4='--set heroes.Fighter.init=5' --option delay='--set heroes.Fighter.policy={name: delay, until: Orc}' -n 10000 --seed 7",
		Sides:   [2]string{"heroes", "monsters"}}
	opts := []struct {
		name string
		sets []string
		p    float64
		pd   float64
	}{
		{"base", nil, 0.62, 0.01},
		{"init+4", []string{"heroes.Fighter.init=5"}, 0.66, 0.01},
		{"delay", []string{"heroes.Fighter.policy={name: delay, until: Orc}"}, 0.55, 0.02},
	}
	paired := make([][2]stats.Paired, len(opts))
	base := fixtureResult(10000, opts[0].p, opts[0].pd, nil)
	for k, o := range opts {
		r := fixtureResult(10000, o.p, o.pd, o.sets)
		if k > 0 {
			r.Raw.Counts[sim.Delays] += int64(k * 1000)
			r.Raw.CountsSq[sim.Delays] += int64(k * 1000) // the extra delays are one per encounter
			r = results.FromRaw(results.Meta{Scenario: r.Scenario, File: r.File, Ruleset: r.Ruleset, Version: r.Version, Seed: r.Seed,
				Sides: [2]string{"heroes", "monsters"}, Sets: o.sets, Command: r.Command}, r.Raw)
		}
		opt := results.Option{Name: o.name, Sets: o.sets, Result: r}
		if k > 0 {
			// Cross sums with the baseline that leave the differences a
			// spread of a tenth of the counts' own: what common random
			// numbers make of two close options.
			for i := range r.Raw.Counts {
				sa, sb, qa, qb := r.Raw.Counts[i], base.Raw.Counts[i], r.Raw.CountsSq[i], base.Raw.CountsSq[i]
				sd2 := (sa-sb)*(sa-sb)/10000 + (qa+qb)/20
				opt.EconomyCross = append(opt.EconomyCross, (qa+qb-sd2)/2)
			}
		}
		c.Options = append(c.Options, opt)
		// Paired outcomes: a and b agree except on |wins_a - wins_b| + 2·m
		// encounters, m of them flipping each way.
		for s := 0; s < 2; s++ {
			wa, wb := r.Raw.Wins[s], base.Raw.Wins[s]
			m := int64(300 * k)
			both := min(wa, wb) - m
			onlyA, onlyB := wa-both, wb-both
			paired[k][s] = stats.Paired{N: 10000, SumA: wa, SumB: wb, SumD: onlyA - onlyB, SumD2: onlyA + onlyB, SumA2: wa, SumB2: wb}
		}
	}
	c.Finish(paired)
	return c
}

// fixtureOutcomes is a result with per-combatant figures, draw causes and
// distributions: a party of two against three Hobgoblin copies, n
// encounters, made from formulas.
func fixtureOutcomes(n int64) *results.Result {
	r := fixtureResult(n, 0.58, 0.03, nil)
	raw := r.Raw
	raw.Roster = []string{"Fighter", "Cleric", "Hobgoblin#1", "Hobgoblin#2", "Hobgoblin#3"}
	raw.RosterSides = []int{0, 0, 1, 1, 1}
	raw.DrawsMaxRounds = raw.Draws * 2 / 3
	raw.DrawsAllGone = raw.Draws - raw.DrawsMaxRounds
	share := func(f float64) int64 { return int64(math.Round(f * float64(n))) }
	raw.FirstActor = []int64{share(0.31), share(0.12), share(0.2), share(0.19), 0}
	raw.FirstActor[4] = n - raw.FirstActor[0] - raw.FirstActor[1] - raw.FirstActor[2] - raw.FirstActor[3] - share(0.02)
	raw.NoActor = share(0.02)
	raw.FirstInOrder = []int64{share(0.4), share(0.1), share(0.17), share(0.17), 0}
	raw.FirstInOrder[4] = n - raw.FirstInOrder[0] - raw.FirstInOrder[1] - raw.FirstInOrder[2] - raw.FirstInOrder[3]
	raw.Ended = n
	per := len(raw.Counters)
	dealt := [2]int64{raw.Counts[sim.DamageDealt], raw.Counts[per+sim.DamageDealt]}
	raw.Combatants = []sim.Combatant{
		{DamageDealt: dealt[0] * 7 / 10, DamageTaken: dealt[1] * 6 / 10, Kills: share(1.3), Downed: share(0.22), Turns: share(3.1),
			EndedDown: share(0.22), HPLeft: share(9.5), HPLeftWin: share(8.8)},
		{DamageDealt: dealt[0] - dealt[0]*7/10, DamageTaken: dealt[1] - dealt[1]*6/10, Kills: share(0.4), Downed: share(0.35),
			Turns: share(2.6), ActionsLost: share(0.1), EndedDown: share(0.35), EndedGone: share(0.05), HPLeft: share(4.1), HPLeftWin: share(3.9)},
	}
	for k := 0; k < 3; k++ {
		f := 1 + 0.1*float64(k)
		raw.Combatants = append(raw.Combatants, sim.Combatant{DamageDealt: dealt[1] / 3, DamageTaken: dealt[0] / 3, Kills: share(0.15 * f),
			Downed: share(0.5 * f), Turns: share(2.2 / f), EndedDown: share(0.5 * f), EndedGone: share(0.1), HPLeft: share(2.5 / f), HPLeftWin: share(1.9 / f)})
	}
	raw.AnyDown = [2]int64{share(0.45), share(0.81)}
	hist := func(mean, sd float64, count int64) results.HistRaw {
		h := stats.NewHist(sim.DistCap)
		left := count
		for v := 0; v <= 4*int(mean) && left > 0; v++ {
			z := (float64(v) - mean) / sd
			k := min(int64(math.Round(float64(count)*math.Exp(-z*z/2)/(sd*math.Sqrt(2*math.Pi)))), left)
			for ; k > 0; k-- {
				h.Add(v)
				left--
			}
		}
		for ; left > 0; left-- {
			h.Add(int(mean))
		}
		return results.NewHistRaw(&h)
	}
	raw.Damage = [2]results.HistRaw{hist(24, 8, n), hist(31, 11, n)}
	raw.WinnerHP = [2]results.HistRaw{hist(14, 6, raw.Wins[0]), hist(18, 9, raw.Wins[1])}
	m := results.Meta{Scenario: "Party vs Hobgoblins", File: "fixture.yaml", Ruleset: "d20", Version: "0.1.0",
		Seed: 7, Sides: [2]string{"party", "hobgoblins"}, Command: "simctl run fixture.yaml -n 10000 --seed 7"}
	return results.FromRaw(m, raw)
}

// shipped is the section renderers the kinds table gives simctl's own
// documents (cmd/simctl/app), for this package's reports.
func shipped(kind string) SectionFunc {
	return map[string]SectionFunc{"sweep": SweepSection, "compare": CompareSection, "value": ValueSection,
		"matrix": MatrixSection, "tournament": TournamentSection, "optimize": OptimizeSection}[kind]
}
