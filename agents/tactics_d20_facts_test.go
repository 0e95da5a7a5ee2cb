package agents_test

import (
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/simtest"
)

// eventsOf plays encounter (seed, 0) of src with a trace: the narration
// and the events.
func eventsOf(t *testing.T, src string, seed uint64) (string, simtest.Events) {
	t.Helper()
	g := load(t, src)
	c := sim.NewCounts(len(g.Counters()))
	var sb strings.Builder
	log := &sim.Log{W: &sb}
	g.NewTable().Play(rng.New(seed, 0), &c, log)
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	return sb.String(), simtest.Of(log, names)
}

// Issue 24 item 4: facts that lied. In the surprise round the unaware U
// (count 10) gets no turn, so after A (20) the next actor is its ally C
// (5), not U; one standard action reaches a charge of speed (35 ft with
// reach), not twice speed, so U at 50 ft is not reachable; C, aware but
// flat-footed until its first regular turn, has AC 20 - dex_ac 4 = 16.
// In round 1 W, dropped by A's spell, no longer counts toward C's place.
func TestD20FactsTellTheTruth(t *testing.T) {
	src := `
name: facts
ruleset: d20
max_rounds: 1
distance: 50
sides:
  - name: a
    combatants:
      - name: A
        hp: 1000
        ac: 10
        attacks: [30]
        damage: 1
        crit: none
        speed: 30
        initiative_roll: 20
        spells: [{name: bolt, damage: 50, level: 1}]
        tactics:
          turn:
            - {name: look, when: "surprise_round and next_actor.is_ally and not next_actor.is_enemy and enemies.reachable == 0", do: delay to -5}
            - {name: kill, when: "not surprise_round", do: cast bolt, target: W}
      - name: C
        hp: 1000
        ac: 20
        dex_ac: 4
        attacks: [30]
        damage: 1
        crit: none
        initiative_roll: 5
        tactics:
          turn:
            - {name: flat, when: "surprise_round and self.ac == 16", do: delay to -5}
            - {name: third, when: "not surprise_round and self.position == 3", do: attack}
  - name: b
    aware: false
    combatants:
      - {name: U, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 10}
      - {name: W, hp: 1, ac: 10, attacks: [-100], damage: 1, crit: none, initiative_roll: 15}
`
	// Each rule decides only where its condition, the facts' truth, holds.
	_, ev := eventsOf(t, src, 1)
	ev.InOrder(t, "rule A rule=turn/look ok=true round=0", "rule C rule=turn/flat ok=true round=0",
		"spell A W rule=bolt", "down W", "rule C rule=turn/third ok=true round=1")
}

// Issue 24 item 15: the ranged decisions. close_in walks to one range
// increment (30 ft) and shoots once after moving; shoot without moving is a
// full attack; keep_distance takes a 5-foot step out of the threatening
// enemy's reach (no attack of opportunity) and may still full attack.
func TestD20RangedDecisions(t *testing.T) {
	src := func(distance string) string {
		return `
name: ranged
ruleset: d20
max_rounds: 4
distance: ` + distance + `
sides:
  - name: a
    combatants:
      - name: S
        hp: 1000
        ac: 10
        attacks: [30]
        damage: 1
        crit: none
        speed: 30
        initiative_roll: 20
        ranged: {bonus: [5, 0], damage: 1, crit: none, increment: 30}
        tactics:
          turn:
            - {name: back, when: "self.threatened", do: keep_distance, target: T}
            - {name: near, when: "enemy(\"T\").distance > 30", do: close_in, target: T}
            - {name: fire, do: shoot, target: T}
  - name: b
    combatants:
      - {name: T, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, speed: 0, initiative_roll: 10, policy: {name: test-idle}}
`
	}
	_, ev := eventsOf(t, strings.Replace(src("100"), "policy: {name: test-idle}", "tactics: {turn: [{name: wait, do: delay to -50}]}", 1), 1)
	ev.InOrder(t, "rule S rule=turn/near ok=true", "move S T amount=30", "action S T rule=shoot amount=70",
		"move S T amount=30", "action S T rule=shoot amount=40",
		"move S T amount=10", "action S T rule=shoot amount=30",
		"rule S rule=turn/fire ok=true", "action S T rule=shoot amount=30", "action S T rule=shoot amount=30")
	if n := ev.Count(t, "action S T rule=shoot"); n != 5 {
		t.Errorf("%d shots, want 5 (one after each move, two in the full attack)\n%s", n, ev.Dump())
	}
	_, ev = eventsOf(t, strings.Replace(src("5"), "policy: {name: test-idle}", "tactics: {turn: [{name: step, do: attack}]}", 1), 1)
	ev.InOrder(t, "rule S rule=turn/back ok=true", "move S - rule='5-foot step back'", "action S T rule=shoot amount=10")
	ev.Absent(t, "interrupt T S rule='attack of opportunity'")
	if n := ev.Round(1).Count(t, "action S T rule=shoot"); n != 2 {
		t.Errorf("round 1: %d shots after the 5-foot step, want a full attack of 2\n%s", n, ev.Dump())
	}
}

// Issue 24 item 16: facts for flat-footed, readied and each combatant's
// count (and the current AC of an enemy).
func TestD20StateFacts(t *testing.T) {
	src := `
name: state
ruleset: d20
max_rounds: 1
distance: 0
sides:
  - name: a
    combatants:
      - name: R
        hp: 1000
        ac: 12
        dex_ac: 2
        attacks: [30]
        damage: 1
        initiative_roll: 20
        tactics: {turn: [{name: wait, do: ready attack on enemy_in_reach}]}
  - name: b
    combatants:
      - name: X
        hp: 1000
        ac: 10
        attacks: [30]
        damage: 1
        initiative_roll: 15
        tactics:
          turn:
            - name: look
              when: enemy("R").readied and enemy("R").count == 20 and not enemy("R").flat_footed and enemy("R").ac == 12 and ally("Z").flat_footed and ally("Z").count == 5 and not self.flat_footed and enemies.readied == 1
              do: attack
      - {name: Z, hp: 1000, ac: 10, attacks: [30], damage: 1, initiative_roll: 5}
`
	_, ev := eventsOf(t, src, 1)
	ev.InOrder(t, "rule X rule=turn/look ok=true", "attack X R")
}

// Issue 24 item 16: "move, then ready" as a decision.
func TestD20AdvanceAndReady(t *testing.T) {
	src := `
name: advance
ruleset: d20
max_rounds: 1
distance: 40
sides:
  - name: a
    combatants:
      - name: A
        hp: 1000
        ac: 10
        attacks: [30]
        damage: 1
        speed: 30
        initiative_roll: 20
        tactics: {turn: [{name: hold, do: advance and ready attack on enemy_in_reach, target: nearest}]}
  - name: b
    combatants:
      - {name: M, hp: 1000, ac: 10, attacks: [30], damage: 1, speed: 30, initiative_roll: 10}
`
	_, ev := eventsOf(t, src, 1)
	ev.InOrder(t, "rule A rule=turn/hold ok=true", "move A M amount=30", "ready A", "interrupt A M")
}

// Issue 24 item 4: the default policy's "enemies it can attack this turn"
// in the surprise round is a charge up to speed (35 ft with reach), not
// twice speed: at 50 ft nobody qualifies, so A falls back to the nearest
// (ties: the fewer hit points), W, rather than the strongest, S.
func TestD20SurpriseTargetLimit(t *testing.T) {
	src := `
name: limit
ruleset: d20
max_rounds: 1
distance: 50
sides:
  - name: a
    combatants:
      - {name: A, hp: 100, ac: 10, attacks: [5], damage: 1, speed: 30, initiative_roll: 20, policy: {name: default, target: strongest}}
  - name: b
    aware: false
    combatants:
      - {name: W, hp: 5, ac: 10, attacks: [5], damage: 1, initiative_roll: 10}
      - {name: S, hp: 50, ac: 10, attacks: [5], damage: 1, initiative_roll: 5}
`
	_, ev := eventsOf(t, src, 1)
	if !ev.Has(t, "move A W amount=30 round=0") {
		t.Errorf("A did not close on W in the surprise round\n%s", ev.Dump())
	}
}

// Issue 34 item 13: flanking facts. With flanking: two, F (at the Orc)
// flanks it once R, 10 ft behind the line, comes up: R's rule sees
// enemy("Orc").flanked and enemies.flanked from where it would attack
// (F threatens the Orc); the Orc, threatened by both, is flanked
// (self.flanked) on its turn. With flanking: line (the default) nobody is.
func TestD20FlankingFacts(t *testing.T) {
	src := func(opt string) string {
		return `
name: flank
ruleset: d20
max_rounds: 1
distance: 5
options: {flanking: ` + opt + `}
sides:
  - name: a
    combatants:
      - {name: F, hp: 1000, ac: 10, attacks: [0], damage: 1, crit: none, initiative_roll: 20}
      - name: R
        hp: 1000
        ac: 10
        attacks: [0]
        damage: 1
        crit: none
        position: 10
        initiative_roll: 15
        tactics: {turn: [{name: flank, when: enemy("Orc").flanked and enemies.flanked == 1 and not self.flanked, do: attack}]}
  - name: b
    combatants:
      - name: Orc
        hp: 1000
        ac: 10
        attacks: [0]
        damage: 1
        crit: none
        initiative_roll: 10
        tactics: {turn: [{name: hemmed, when: self.flanked, do: attack}]}
`
	}
	_, ev := eventsOf(t, src("two"), 1)
	ev.InOrder(t, "attack F Orc", "rule R rule=turn/flank ok=true", "move R", "attack R Orc", "rule Orc rule=turn/hemmed ok=true")
	_, ev = eventsOf(t, src("line"), 1)
	if got := append(ev.Match(t, "rule rule=turn/flank ok=true"), ev.Match(t, "rule rule=turn/hemmed ok=true")...); len(got) != 0 {
		t.Errorf("flanking: line, with everyone on one side: rules fired %v", got)
	}
}
