package experiment_test

// Exchange rates against dynamic programming: a d20 duel with one attack a
// side, no criticals and no Dex bonus to AC, whose exact win probability
// at every step of every parameter is computed here, independently of the
// engine. The simulated effects and rates must lie within 4 standard
// errors of the exact ones; a plausible wrong design (a one-sided
// difference from the base instead of the central difference) must be
// rejected by the same tolerance.

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

type duelist struct {
	hp, ac, init, attack int
	damage               string
}

func duelYAML(f [2]duelist) string {
	s := "name: value duel\nruleset: d20\nmax_rounds: 100\nsides:\n"
	for i, name := range []string{"heroes", "monsters"} {
		c := []string{"Fighter", "Orc"}[i]
		d := f[i]
		s += fmt.Sprintf("  - name: %s\n    combatants:\n      - {name: %s, hp: %d, ac: %d, dex_ac: 0, init: %d, attacks: [%d], damage: %s, crit: none}\n",
			name, c, d.hp, d.ac, d.init, d.attack, d.damage)
	}
	return s
}

// pFirst is P(side 0 acts first): d20 + init, the higher total first; a
// tie goes to the higher modifier, then either way with equal chance.
func pFirst(i0, i1 int) float64 {
	p := 0.0
	for a := 1; a <= 20; a++ {
		for b := 1; b <= 20; b++ {
			switch t0, t1 := a+i0, b+i1; {
			case t0 > t1, t0 == t1 && i0 > i1:
				p += 1.0 / 400
			case t0 == t1 && i0 == i1:
				p += 0.5 / 400
			}
		}
	}
	return p
}

// hitChance: a natural 1 misses, a natural 20 hits, else d20 + bonus >= ac.
func hitChance(bonus, ac int) float64 {
	n := 0
	for d := 1; d <= 20; d++ {
		if d == 20 || d != 1 && d+bonus >= ac {
			n++
		}
	}
	return float64(n) / 20
}

// exactWin is P(side 0 wins) by dynamic programming over the hit points
// left, with no round limit (P(100 rounds) is below 1e-40 here). With W_a
// the chance that side 0 wins when side a attacks next,
//
//	W_0 = A_0 + m_0 W_1,  W_1 = A_1 + m_1 W_0  =>  W_0 = (A_0 + m_0 A_1) / (1 - m_0 m_1)
//
// where m_a is a's miss chance and A_a sums a's hits over the damage dealt
// (at least 1 a hit), states with fewer hit points having been solved.
func exactWin(f [2]duelist) float64 {
	h0, h1 := f[0].hp, f[1].hp
	p := [2]float64{hitChance(f[0].attack, f[1].ac), hitChance(f[1].attack, f[0].ac)}
	dmg := [2]dice.Dist{dice.MustParse(f[0].damage).Dist(), dice.MustParse(f[1].damage).Dist()}
	w := make([][][2]float64, h0+1)
	for x := range w {
		w[x] = make([][2]float64, h1+1)
	}
	for x := 1; x <= h0; x++ {
		for y := 1; y <= h1; y++ {
			var a [2]float64
			for i, q := range dmg[0].P {
				k := max(dmg[0].Min+i, 1)
				if y-k <= 0 {
					a[0] += p[0] * q
				} else {
					a[0] += p[0] * q * w[x][y-k][1]
				}
			}
			for i, q := range dmg[1].P {
				k := max(dmg[1].Min+i, 1)
				if x-k > 0 {
					a[1] += p[1] * q * w[x-k][y][0]
				}
			}
			m0, m1 := 1-p[0], 1-p[1]
			w0 := (a[0] + m0*a[1]) / (1 - m0*m1)
			w[x][y] = [2]float64{w0, a[1] + m1*w0}
		}
	}
	pf := pFirst(f[0].init, f[1].init)
	return pf*w[h0][h1][0] + (1-pf)*w[h0][h1][1]
}

var raceEnabled = func() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}()

func TestValueMatchesDP(t *testing.T) {
	base := [2]duelist{
		{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"},
		{hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"},
	}
	data := []byte(duelYAML(base))
	sc, err := scenario.Load("duel.yaml", data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"init", "hp", "ac", "attack"}
	var params []experiment.Param
	for _, name := range names {
		p, err := experiment.NewParam(data, nil, sc, "heroes", name, 1)
		if err != nil {
			t.Fatal(err)
		}
		params = append(params, p)
	}
	var games []sim.Game
	for _, sets := range experiment.Games(params) {
		sc, err := scenario.Load("duel.yaml", data, sets, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	// The power checks below hold at the full N (the ordinary go test);
	// the race detector's and -short's quarter run checks exactness only.
	n, full := int64(400_000), !raceEnabled && !testing.Short()
	if !full {
		n /= 4
	}
	res, _, err := experiment.Value(context.Background(), games, params, 0, "heroes", sim.RunConfig{Seed: 11, N: n, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The exact win probability with the hero's field moved by d.
	at := func(name string, d int) float64 {
		f := base
		switch name {
		case "init":
			f[0].init += d
		case "hp":
			f[0].hp += d
		case "ac":
			f[0].ac += d
		case "attack":
			f[0].attack += d
		}
		return exactWin(f)
	}
	exact := map[string]float64{}
	for i, name := range names {
		e := res.Effects[i]
		want := (at(name, 1) - at(name, -1)) / 2
		exact[name] = want
		z := (e.PerUnit - want) / e.SE
		t.Logf("%-6s effect per unit: exact %.5f simulated %.5f (SE %.5f, %+.2f SE); base win %.4f exact %.4f",
			name, want, e.PerUnit, e.SE, z, e.WinRate[1], at(name, 0))
		if math.Abs(z) > 4 {
			t.Errorf("%s: simulated effect %.5f is %.1f SE from the exact %.5f", name, e.PerUnit, z, want)
		}
		// The wrong design: a forward difference from the base. Initiative
		// (whose step crosses the orc's modifier, so ties change hands) and
		// attack are curved enough here for the tolerance to reject it.
		wrong := at(name, 1) - at(name, 0)
		zw := math.Abs(e.PerUnit-wrong) / e.SE
		t.Logf("       forward difference %.5f is %.1f SE away", wrong, zw)
		if full && (name == "init" || name == "attack") && zw < 6 {
			t.Errorf("power: the forward difference %.5f of %s is only %.1f SE from the simulated central one", wrong, name, zw)
		}
	}
	for _, r := range res.Rates {
		want := exact[r.A] / exact[r.B]
		// The delta method's SE, only to scale the tolerance.
		if !r.Bounded {
			t.Errorf("rate %s in %s has no finite interval at N=%d", r.A, r.B, n)
			continue
		}
		half := (r.CI95[1] - r.CI95[0]) / 2
		se := half / 1.96
		t.Logf("1 %s = %.3f %s: exact %.3f, 95%% [%.3f, %.3f]", r.A, r.Value, r.B, want, r.CI95[0], r.CI95[1])
		if math.Abs(r.Value-want) > 4*se {
			t.Errorf("rate %s in %s: simulated %.4f, exact %.4f (tolerance 4 SE = %.4f)", r.A, r.B, r.Value, want, 4*se)
		}
	}
}

// TestValueWholeSteps: whole-number fields take whole steps; dice
// expressions step their constant; lists step every element.
func TestValueWholeSteps(t *testing.T) {
	data := []byte(duelYAML([2]duelist{{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"}, {hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"}}))
	sc, err := scenario.Load("duel.yaml", data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	p, err := experiment.NewParam(data, nil, sc, "heroes", "damage", 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(p.Down, p.Up); got != "[heroes.Fighter.damage=1d8] [heroes.Fighter.damage=1d8+4]" {
		t.Errorf("damage steps: %s", got)
	}
	p, err = experiment.NewParam(data, nil, sc, "heroes", "attack", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(p.Down, p.Up); got != "[heroes.Fighter.attacks=[3]] [heroes.Fighter.attacks=[5]]" {
		t.Errorf("attack steps: %s", got)
	}
	for _, tc := range []struct {
		name string
		step float64
		want string
	}{
		{"hp", 0.5, "parameter hp: heroes.Fighter.hp = 14: a whole-number field takes whole steps, not 0.5"},
		{"speed", 1, `unknown parameter "speed": give one of init, hp, ac, attack, damage, or a scenario path such as heroes.Fighter.init`},
		{"hp", 0, "parameter hp: the step must be a positive number, got 0"},
		{"heroes.Fighter.speed", 5, "parameter heroes.Fighter.speed: heroes.Fighter.speed is not set in the scenario, so there is no value to step from"},
	} {
		_, err := experiment.NewParam(data, nil, sc, "heroes", tc.name, tc.step)
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewParam(%s, %v) error %v, want %s", tc.name, tc.step, err, tc.want)
		}
	}
	if _, err := experiment.NewParam(data, nil, sc, "heros", "hp", 1); err == nil || err.Error() != `no side "heros" (did you mean "heroes"?); sides: heroes, monsters` {
		t.Errorf("bad side: %v", err)
	}
}

// TestSwingsMatchDP: the tornado's one-sided swings against the exact
// differences, and its order by size.
func TestSwingsMatchDP(t *testing.T) {
	base := [2]duelist{
		{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"},
		{hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"},
	}
	data := []byte(duelYAML(base))
	sc, err := scenario.Load("duel.yaml", data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	var params []experiment.Param
	steps := map[string]float64{"init": 4, "hp": 2, "ac": 1}
	for _, name := range []string{"init", "hp", "ac"} {
		p, err := experiment.NewParam(data, nil, sc, "heroes", name, steps[name])
		if err != nil {
			t.Fatal(err)
		}
		params = append(params, p)
	}
	var games []sim.Game
	for _, sets := range experiment.Games(params) {
		sc, _ := scenario.Load("duel.yaml", data, sets, rulesets.Schema)
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	n := int64(100_000)
	crn, err := experiment.RunCRN(context.Background(), games, sim.RunConfig{Seed: 3, N: n})
	if err != nil {
		t.Fatal(err)
	}
	res := experiment.Swings(crn.Wins[0], params, "heroes")
	var order []string
	for _, s := range res.Swings {
		order = append(order, s.Param)
		f0 := exactWin(base)
		moved := func(d int) float64 {
			f := base
			switch s.Param {
			case "init":
				f[0].init += d * 4
			case "hp":
				f[0].hp += d * 2
			case "ac":
				f[0].ac += d
			}
			return exactWin(f)
		}
		for _, c := range []struct {
			what      string
			got, want float64
			ci        [2]float64
		}{{"down", s.Down, moved(-1) - f0, s.DownCI}, {"up", s.Up, moved(1) - f0, s.UpCI}} {
			se := (c.ci[1] - c.ci[0]) / 2 / 1.959964
			t.Logf("%-4s %-4s exact %+.5f simulated %+.5f (SE %.5f)", s.Param, c.what, c.want, c.got, se)
			if math.Abs(c.got-c.want) > 4*se {
				t.Errorf("%s %s: simulated %+.5f, exact %+.5f: more than 4 SE (%.5f)", s.Param, c.what, c.got, c.want, se)
			}
		}
	}
	// ±1 AC swings about 5.4 points, ±2 HP about 6.6, ±4 init about 3.
	if fmt.Sprint(order) != "[hp ac init]" {
		t.Errorf("tornado order %v, want [hp ac init]", order)
	}
}

// skipUnderRace skips a statistical test over many seeds under -race: it
// runs in the ordinary go test (the README's command), its concurrency is
// the runner's, which the race run checks in the shorter tests, and the
// detector would make it cost many minutes of CI.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("statistical coverage over many seeds: checked by the ordinary go test")
	}
}
