package agents_test

import (
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// Tests of the d20 policies against the referee: pinned initiative, the
// decision read from the trace's events and the outcome.

func d20Play(t *testing.T, file string, data []byte, sets ...string) (sim.Outcome, simtest.Events, sim.Game) {
	t.Helper()
	var ss []scenario.Set
	for _, s := range sets {
		set, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, set)
	}
	sc, err := scenario.Load(file, data, ss, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	log := &sim.Log{W: &b}
	o, _ := sim.Replay(g, 1, 0, log)
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	return o, simtest.Of(log, names), g
}

func rosterIndex(t *testing.T, g sim.Game, name string) int {
	t.Helper()
	i, ok := sim.RosterIndex(g.Roster(), name)
	if !ok {
		t.Fatalf("no %s", name)
	}
	return i
}

// Issue 10 item 21 on the built-in duel: the Fighter, first in the order,
// delays until the Orc has acted; the Orc takes the first action.
func TestD20DelayedFighterIsNotFirstActor(t *testing.T) {
	data, file, _ := scenarios.Read("d20/duel")
	o, ev, g := d20Play(t, file, data, "heroes.Fighter.policy={name: delay, until: Orc}",
		"heroes.Fighter.initiative_roll=20", "monsters.Orc.initiative_roll=1")
	ev.InOrder(t, "turn Fighter", "delay Fighter Orc rule=after", "turn Orc", "attack Orc Fighter",
		"turn Fighter rule=delayed", "attack Fighter Orc")
	if f, orc := rosterIndex(t, g, "Fighter"), rosterIndex(t, g, "Orc"); o.FirstInOrder != f || o.FirstActor != orc {
		t.Errorf("first in order %d, first actor %d; want Fighter %d, Orc %d", o.FirstInOrder, o.FirstActor, f, orc)
	}
}

// Issue 10 item 6 with the delay policy: two combatants delaying for each
// other both act at the end of every round instead of never acting.
func TestD20MutualDelayPoliciesAct(t *testing.T) {
	src := `
name: mutual
ruleset: d20
max_rounds: 3
sides:
  - name: a
    combatants:
      - {name: A, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 18, policy: {name: delay, until: B}}
      - {name: B, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 12, policy: {name: delay, until: A}}
  - name: b
    combatants:
      - {name: K, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 8}
`
	o, ev, g := d20Play(t, "mutual.yaml", []byte(src))
	for _, who := range []string{"A", "B"} {
		if n := ev.Count(t, "turn "+who+" rule=delayed"); n != 3 {
			t.Errorf("%s took %d delayed actions in 3 rounds, want 3\n%s", who, n, ev.Dump())
		}
	}
	ev.Absent(t, "lost * rule=delay")
	if o.Draw != sim.DrawMaxRounds || o.FirstActor != rosterIndex(t, g, "K") {
		t.Errorf("outcome %+v: want a max_rounds draw, K acting first", o)
	}
}

// charge: never forbids a charge even when it is the only way to attack
// this turn (the Fighter, 45 feet away with speed 30, double-moves
// instead); auto charges then, and always charges whenever it can.
func TestD20ChargeParameter(t *testing.T) {
	src := []byte(`name: charge
ruleset: d20
max_rounds: 1
distance: 50
sides:
  - name: heroes
    combatants: [{name: Fighter, hp: 30, ac: 15, init: 10, initiative_roll: 20, attacks: [5], damage: 1d8, speed: 30}]
  - name: monsters
    combatants: [{name: Orc, hp: 30, ac: 13, init: 0, initiative_roll: 1, attacks: [3], damage: 1d8, speed: 0, policy: {name: ready, trigger: charge}}]
`)
	for _, c := range []struct {
		mode    string
		charges bool
	}{{"auto", true}, {"always", true}, {"never", false}} {
		_, ev, _ := d20Play(t, "charge.yaml", src, "heroes.Fighter.policy={name: default, charge: "+c.mode+"}")
		if got := ev.Has(t, "action Fighter Orc rule=charge"); got != c.charges {
			t.Errorf("charge: %s: charged %v, want %v\n%s", c.mode, got, c.charges, ev.Dump())
		}
	}
}

// A single-attack combatant 5 ft beyond reach takes a 5-foot step and
// attacks: the step provokes no attack of opportunity from the pikeman's
// reach, where a 5-foot move out of a threatened square would.
func TestD20SingleAttackSteps(t *testing.T) {
	src := []byte(`name: step
ruleset: d20
max_rounds: 1
distance: 10
sides:
  - name: heroes
    combatants: [{name: Fighter, hp: 30, ac: 15, init: 0, initiative_roll: 1, attacks: [5], damage: 1d8, speed: 30}]
  - name: monsters
    combatants: [{name: Pikeman, hp: 30, ac: 13, init: 10, initiative_roll: 20, attacks: [3], damage: 1d8, speed: 0, reach: 10}]
`)
	// The Pikeman acts first (no longer flat-footed, its attack of
	// opportunity unused), then the Fighter closes in.
	_, ev, _ := d20Play(t, "step.yaml", src)
	if ev.Any("interrupt Pikeman Fighter rule='attack of opportunity'") || !ev.Has(t, "attack Fighter Pikeman") {
		t.Errorf("the Fighter should step in and attack without provoking:\n%s", ev.Dump())
	}
}
