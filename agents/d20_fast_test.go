package agents

// The shortcuts of the d20 hot path decide exactly as the plain code did:
// the default policy applied by the referee (StandardPolicy) as through
// Turn, and the tactics group facts read from the table's standing lists as
// by a scan of the roster.

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/rulesets/d20"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

func init() {
	d20.RegisterPolicy("test-default-turn", "test only: the default policy, always decided through Turn",
		func(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
			return readDefault(newParams(d, spec, defaultParams), g, self) // a *d20Default: not a StandardPolicy
		})
}

func fastScenario(distance int) string {
	return fmt.Sprintf(`name: fast %d
ruleset: d20
max_rounds: 40
distance: %d
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: 4, hp: 3d10+6, ac: 17, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2}
      - {name: Pike, hp: 2d10+6, ac: 15, init: 3, attacks: [4], damage: 1d10+3, reach: 10, speed: 20}
  - name: orcs
    combatants:
      - {name: Orc, count: 5, hp: 3d8+6, ac: 14, init: 0, attacks: [5], damage: 1d12+3, crit: 20/x3}
`, distance, distance)
}

func compileD20(t *testing.T, src string, sets ...string) *d20.Game {
	t.Helper()
	return compileSets(t, "fast.yaml", []byte(src), sets...).(*d20.Game)
}

// compileSets compiles the scenario text data (named display) with each
// --set of sets applied.
func compileSets(t *testing.T, display string, data []byte, sets ...string) sim.Game {
	t.Helper()
	var ss []scenario.Set
	for _, s := range sets {
		set, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, set)
	}
	sc, err := scenario.Load(display, data, ss, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func playAll(g sim.Game, n int) *sim.Tally {
	table := g.NewTable()
	tally := sim.NewTally(g)
	var r rng.Stream
	for i := 0; i < n; i++ {
		r.Seed(3, uint64(i))
		tally.Record(table.Play(&r, &tally.Counts, nil))
	}
	return tally
}

func TestStandardPolicyPlaysAsTurn(t *testing.T) {
	for _, distance := range []int{0, 25, 70} {
		for _, target := range []string{"weakest", "strongest", "nearest", "first"} {
			for _, charge := range []string{"auto", "always", "never"} {
				spec := fmt.Sprintf("{name: %%s, target: %s, charge: %s}", target, charge)
				sets := func(name string) []string {
					return []string{"heroes.policy=" + fmt.Sprintf(spec, name), "orcs.policy=" + fmt.Sprintf(spec, name)}
				}
				fast := compileD20(t, fastScenario(distance), sets("default")...)
				slow := compileD20(t, fastScenario(distance), sets("test-default-turn")...)
				if _, ok := fast.C[0].Policy.(d20.StandardPolicy); !ok {
					t.Fatalf("default policy %s is not a StandardPolicy: the shortcut is not tested", spec)
				}
				if _, ok := slow.C[0].Policy.(d20.StandardPolicy); ok {
					t.Fatal("test-default-turn is a StandardPolicy")
				}
				n := 1500
				if underRace {
					n = 150 // one goroutine plays: the detector has nothing to find in the other 1350
				}
				a, b := playAll(fast, n), playAll(slow, n)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("distance %d, %s: the referee's shortcut played differently from Turn: wins %v / %v, rounds %d / %d",
						distance, fmt.Sprintf(spec, "default"), a.Wins, b.Wins, a.Rounds.Sum, b.Rounds.Sum)
				}
			}
		}
	}
}

// enemiesOf lists self's opponents' roster indices, in roster order.
func enemiesOf(t *d20.Table, self int) []int {
	var out []int
	for j, e := range t.Game().Roster() {
		if e.Side != t.Side(self) {
			out = append(out, j)
		}
	}
	return out
}

// scanGroupFact is groupFact as it was: one loop over the roster per fact.
func scanGroupFact(t *d20.Table, self, fact int) float64 {
	me := &t.Game().C[self]
	n := 0
	side := t.Side(self)
	switch fact {
	case fEnemiesCount, fEnemiesDown, fEnemiesInReach, fEnemiesReachable, fEnemiesNearest, fEnemiesCasters, fEnemiesActed:
		reach := max(2*me.Speed, 5) + me.Reach
		nearest := -1
		for _, j := range enemiesOf(t, self) {
			out := t.Out(j)
			switch fact {
			case fEnemiesCount:
				n += ib(!out)
			case fEnemiesDown:
				n += ib(out)
			case fEnemiesInReach:
				n += ib(!out && t.InReach(self, j))
			case fEnemiesReachable:
				n += ib(!out && t.Dist(self, j) <= reach)
			case fEnemiesNearest:
				if d := t.Dist(self, j); !out && (nearest < 0 || d < nearest) {
					nearest = d
				}
			case fEnemiesCasters:
				n += ib(!out && spellsLeft(t, j) > 0)
			case fEnemiesActed:
				n += ib(!out && t.Acted(j))
			}
		}
		if fact == fEnemiesNearest {
			return float64(max(nearest, 0))
		}
		return float64(n)
	}
	for j := 0; j < t.N(); j++ {
		if j == self || t.Side(j) != side {
			continue
		}
		out := t.Out(j)
		switch fact {
		case fAlliesCount:
			n += ib(!out)
		case fAlliesDown:
			n += ib(out)
		case fAlliesEngaged:
			n += ib(!out && t.Engaged(j))
		case fAlliesActed:
			n += ib(!out && t.Acted(j))
		}
	}
	return float64(n)
}

// factChecker compares every group fact with the scan on each turn, then
// lets the tactic decide.
type factChecker struct {
	inner d20.Policy
	fail  *string
}

func (p *factChecker) Turn(t *d20.Table, self int, plan *d20.Plan) {
	for f := fEnemiesCount; f <= fAlliesActed; f++ {
		if got, want := groupFact(t, self, f), scanGroupFact(t, self, f); got != want && *p.fail == "" {
			*p.fail = fmt.Sprintf("round %d, %s: %s = %v, scan %v", t.Round(), t.Game().C[self].Name, d20Facts[f].Name, got, want)
		}
	}
	p.inner.Turn(t, self, plan)
}

func TestD20GroupFactsMatchScans(t *testing.T) {
	block := `{turn: [{when: "enemies.in_reach >= 2 and allies.down < 2", do: full_attack, target: strongest}, {when: "enemies.reachable > 3", do: charge, target: nearest}, {do: attack, target: weakest}]}`
	for _, distance := range []int{0, 25, 70} {
		// Both sides play the conditional block: a standard policy (the
		// default tactic) is applied by the referee without calling Turn, so
		// a checker wrapped around it would check nothing.
		g := compileD20(t, fastScenario(distance), "heroes.tactics="+block, "orcs.tactics="+block)
		var fail string
		for i := range g.C {
			g.C[i].Policy = &factChecker{inner: g.C[i].Policy, fail: &fail}
		}
		tally := playAll(g, 1500)
		if fail != "" {
			t.Errorf("distance %d: %s", distance, fail)
		}
		fired := int64(0)
		for _, v := range tally.Counts.Rules {
			fired += v
		}
		if fired == 0 {
			t.Errorf("distance %d: no tactics rule counted", distance)
		}
	}
}

// A traced encounter calls every policy's Turn (a tactic narrates its rule
// there); an untraced one lets the referee apply a StandardPolicy itself.
// Both must play and count the same: the Go default and library tactics
// whose first rule is an unconditional attack (the headline written as
// tactics) compile to the referee's rule with the tactic's rule counter.
func TestStandardShortcutMatchesTracedTurn(t *testing.T) {
	for _, c := range []struct {
		distance int
		sets     []string
	}{
		{0, []string{"heroes.tactics=default", "orcs.tactics=default"}},
		{25, []string{"heroes.tactics={use: default, params: {target: strongest}}", "orcs.tactics={turn: [{do: attack, target: nearest}]}"}},
		{70, []string{"heroes.tactics={turn: [{do: attack, target: first}, {do: charge}]}", "orcs.policy={name: default, charge: always}"}},
		// Conditional rules before the unconditional attack: the referee's
		// rule guarded by their conditions. They hold on some turns (a
		// different target; a charge that falls through when none is
		// possible; a full attack) and not on others.
		{0, []string{`heroes.tactics={turn: [{when: "self.hp_pct < 60", do: attack, target: strongest}, {when: "round > 2 and allies.down > 0", do: full_attack}, {do: attack}]}`,
			`orcs.tactics={turn: [{when: "enemies.in_reach > 1", do: charge}, {do: attack, target: first}]}`}},
		{25, []string{`heroes.tactics={turn: [{when: "not self.engaged", do: charge}, {when: "round > 1000", do: full_attack}, {do: attack, target: nearest}]}`,
			`orcs.tactics={turn: [{when: "self.hp_pct < 30", do: attack, target: weakest}, {do: attack, target: strongest}]}`}},
	} {
		g := compileD20(t, fastScenario(c.distance), c.sets...)
		std := 0
		for i := range g.C {
			if sp, ok := g.C[i].Policy.(d20.StandardPolicy); ok {
				if _, ok := sp.Standard(); ok {
					std++
				}
			}
		}
		if std == 0 {
			t.Fatalf("%v: no combatant has a standard policy: the shortcut is not tested", c.sets)
		}
		fast := playAll(g, 400)
		traced := sim.NewTally(g)
		for i := 0; i < 400; i++ {
			_, one := sim.Replay(g, 3, int64(i), &sim.Log{W: io.Discard})
			traced.Merge(one)
		}
		if !reflect.DeepEqual(fast.Counts.Sides, traced.Counts.Sides) || !reflect.DeepEqual(fast.Counts.Rules, traced.Counts.Rules) ||
			fast.Wins != traced.Wins || fast.Rounds.Sum != traced.Rounds.Sum {
			t.Errorf("%v: untraced (shortcut) and traced (Turn) runs differ: rules %v / %v, wins %v / %v",
				c.sets, fast.Counts.Rules, traced.Counts.Rules, fast.Wins, traced.Wins)
		}
	}
}

// condChecker evaluates, on each turn of a tactic's combatant, every
// condition of its block both ways: the guard's walk over the resolved
// decision tree (d20Cond) and the stack machine with every fact given.
type condChecker struct {
	inner *d20Tactic
	conds []d20Cond
	fail  *string
	n     *[2]int // evaluations, and those that held
}

func (p *condChecker) Turn(t *d20.Table, self int, plan *d20.Plan) {
	for i := range p.conds {
		w := p.conds[i].w
		slots := make([]float64, len(w.Slots))
		for k, s := range w.Slots {
			slots[k] = d20Fact(t, self, s.Fact, s.Arg)
		}
		got, want := p.conds[i].holds(t, self), w.Eval(slots)
		p.n[0]++
		if want {
			p.n[1]++
		}
		if got != want && *p.fail == "" {
			*p.fail = fmt.Sprintf("round %d, %s: %q is %v, the machine says %v (facts %v)", t.Round(), t.Game().C[self].Name, w.Src, got, want, slots)
		}
	}
	p.inner.Turn(t, self, plan)
}

func TestD20CondWalkMatchesMachine(t *testing.T) {
	conds := []string{
		"self.hp_pct < 0.5 or enemies.in_reach > 1 and round > 2 or allies.down >= 1",
		"not (self.engaged and enemies.count >= 3) or self.hp <= 10",
		"enemies.nearest == 0 and not self.flanked",
		"ally(\"Pike\").down or enemy(\"Orc#2\").hp_pct > 0.75 and enemies.down != 2",
		"round == 1 or round == 3 or self.ac < 16.5",
		"self.hp_pct < 0.3 and self.hp < 12 or self.hp_pct > 0.9", // reads a slot twice: the program
		"enemies.acted + allies.acted > 3",                        // arithmetic: the program
	}
	var rules []string
	for _, c := range conds {
		rules = append(rules, fmt.Sprintf("{when: %q, do: full_attack}", c))
	}
	block := "{turn: [" + strings.Join(rules, ", ") + ", {do: attack, target: weakest}]}"
	for _, distance := range []int{0, 25} {
		g := compileD20(t, fastScenario(distance), "heroes.tactics="+block)
		var fail string
		var n [2]int
		walked := 0
		for i := range g.C {
			tac, ok := g.C[i].Policy.(*d20Tactic)
			if !ok {
				continue
			}
			ch := &condChecker{inner: tac, fail: &fail, n: &n}
			for _, r := range tac.rules {
				if r.when != nil {
					c := newD20Cond(r.when)
					ch.conds = append(ch.conds, c)
					walked += ib(c.leaves != nil)
				}
			}
			g.C[i].Policy = ch
		}
		// The general referee: at distance 0 the fused one plays these
		// conditions itself, without Turn (TestFusedTacticsPlayTheGeneralReferee).
		playAll(g.General(), 500)
		if fail != "" {
			t.Errorf("distance %d: %s", distance, fail)
		}
		if walked == 0 || n[1] == 0 || n[1] == n[0] {
			t.Errorf("distance %d: %d trees walked, %d of %d evaluations held: the test tests nothing", distance, walked, n[1], n[0])
		}
	}
}
