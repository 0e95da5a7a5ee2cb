package agents_test

import (
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	_ "simctl/rulesets/acks2"
	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// Tests of the ACKS II policies: each sets up an encounter with pinned
// initiative and reads what the policy decided from the trace's events.

// acksEvents plays encounter enc of src with a trace: the narration and
// the events.
func acksEvents(t *testing.T, src string, enc int64) (string, simtest.Events) {
	t.Helper()
	sc, err := scenario.Load("acks.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	log, ev, _ := traced(g, 1, enc)
	return log, ev
}

const acksHead = "name: p\nruleset: acks2\nmax_rounds: 1\noptions: {morale_trigger: none}\n"

func TestAcksReceiveHoldsForTheCharge(t *testing.T) {
	// The spearman's number (5) is above the raider's (3): policy receive
	// delays it to -5, keeping its round-1 spear ready; the raider charges
	// on 3 and is stabbed first.
	_, ev := acksEvents(t, acksHead+`distance: 40
sides:
  - name: a
    combatants:
      - {name: Spearman, hp: 100, damage: 1, weapon: long, initiative_rolls: [5], policy: receive}
  - name: b
    combatants:
      - {name: Raider, hp: 100, damage: 1, initiative_rolls: [3]}
`, 0)
	ev.InOrder(t, "delay Spearman - need=-5", "action Raider Spearman rule=charge",
		"interrupt Spearman Raider rule='charge: round-1 long weapon'", "attack Raider Spearman rule='charges into'")
	ev.Absent(t, "turn Spearman rule=delayed") // it gave its number: it does not act again
}

func TestAcksReceiveActsAtLimitWithoutCharge(t *testing.T) {
	// Nobody charges (the raider is too far): the spearman acts at -5.
	_, ev := acksEvents(t, acksHead+`distance: 200
sides:
  - name: a
    combatants:
      - {name: Spearman, hp: 100, damage: 1, weapon: long, initiative_rolls: [5], policy: receive}
  - name: b
    combatants:
      - {name: Raider, hp: 100, damage: 1, initiative_rolls: [3]}
`, 0)
	ev.InOrder(t, "delay Spearman - need=-5", "action Raider Spearman rule=march", "turn Spearman rule=delayed roll=-5")
}

func TestAcksDefaultCharges(t *testing.T) {
	_, ev := acksEvents(t, acksHead+`distance: 40
sides:
  - name: a
    combatants:
      - {name: Fighter, hp: 100, damage: 1, initiative_rolls: [5]}
      - {name: Careful, hp: 100, damage: 1, initiative_rolls: [4], policy: {name: default, charge: never}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, damage: 1, speed: 0, initiative_rolls: [1]}
`, 0)
	ev.InOrder(t, "action Fighter Orc rule=charge", "action Careful Orc rule=march")
}

func TestAcksReadyVsCharge(t *testing.T) {
	// The option ready_same_round lets the attack readied at 5 meet the
	// charge at 1 of the same round (by default it only counts from the
	// next round, when the source's "begins the round" holds).
	_, ev := acksEvents(t, strings.Replace(acksHead, "morale_trigger: none", "morale_trigger: none, ready_same_round: true", 1)+`distance: 40
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, damage: 1, initiative_rolls: [5], policy: ready}
  - name: b
    combatants:
      - {name: Orc, hp: 100, damage: 1, initiative_rolls: [1]}
`, 0)
	ev.InOrder(t, "ready Guard rule=attack", "action Orc Guard rule=charge", "interrupt Guard Orc rule='readied attack'", "attack Orc Guard rule='charges into'")
}

func TestAcksLongWeaponAtSelf(t *testing.T) {
	// Two spearmen; the raider charges Spearman A. By default only A
	// interrupts (B keeps its number); with interrupt: always both do.
	src := acksHead + `distance: 40
sides:
  - name: a
    combatants:
      - {name: A, hp: 100, damage: 1, weapon: long, initiative_rolls: [1]}
      - {name: B, hp: 100, damage: 1, weapon: long, initiative_rolls: [1], policy: POLICY}
  - name: b
    combatants:
      - {name: Raider, hp: 100, damage: 1, initiative_rolls: [6], policy: {name: default, prefer: A}}
`
	_, ev := acksEvents(t, strings.Replace(src, "POLICY", "default", 1), 0)
	ev.InOrder(t, "action Raider A rule=charge", "interrupt A Raider rule^=charge:", "attack Raider A rule='charges into'", "turn B")
	ev.Absent(t, "interrupt B Raider")
	_, ev = acksEvents(t, strings.Replace(src, "POLICY", "{name: default, interrupt: always}", 1), 0)
	ev.InOrder(t, "interrupt A Raider rule^=charge:", "interrupt B Raider rule^=charge:")
}

func TestAcksTargetsDeclaredCasters(t *testing.T) {
	_, ev := acksEvents(t, acksHead+`distance: 30
sides:
  - name: a
    combatants:
      - {name: Fighter, hp: 3, damage: 1, initiative_rolls: [1]}
      - {name: Mage, hp: 9, damage: 1, initiative_rolls: [1], spells: [{name: bolt, damage: 1d6}]}
  - name: b
    combatants:
      - {name: Archer, hp: 100, damage: 1, weapon: missile, initiative_rolls: [6], policy: {name: default, target: casters}}
      - {name: Archer2, hp: 100, damage: 1, weapon: missile, initiative_rolls: [5]}
`, 0)
	ev.InOrder(t, "action Mage rule='declare a spell (bolt)'", "attack Archer Mage", "attack Archer2 Fighter")
}

func TestAcksWithdrawWhenLow(t *testing.T) {
	_, ev := acksEvents(t, strings.Replace(acksHead, "max_rounds: 1", "max_rounds: 2", 1)+`distance: 0
sides:
  - name: a
    combatants:
      - {name: Fighter, hp: 3, damage: 1, initiative_rolls: [6, 6], policy: {name: default, withdraw_below: 3}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, damage: 1, speed: 0, attack_throw: 40, initiative_rolls: [1, 1]}
`, 0)
	ev.InOrder(t, "action Fighter rule='declare a withdrawal'", "action Fighter rule=withdraws amount=15",
		"turn Fighter round=2", "ready Fighter rule=attack round=2")
}

func TestAcksDelayPolicy(t *testing.T) {
	_, ev := acksEvents(t, acksHead+`distance: 0
sides:
  - name: a
    combatants:
      - {name: Quintus, hp: 100, damage: 1, initiative_rolls: [4], policy: {name: delay, until: Balbus}}
      - {name: Balbus, hp: 100, damage: 1, initiative_rolls: [2]}
      - {name: Titus, hp: 100, damage: 1, initiative_rolls: [6], policy: {name: delay, count: 1}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, damage: 1, initiative_rolls: [3]}
`, 0)
	ev.InOrder(t, "delay Titus - need=1", "delay Quintus Balbus rule=after", "turn Orc",
		"turn Balbus", "turn Quintus rule=delayed roll=2", "turn Titus rule=delayed roll=1")
}

func TestAcksPolicyParams(t *testing.T) {
	for _, tc := range []struct{ policy, want string }{
		{"{name: default, target: bravest}", `"bravest" is not valid`},
		{"{name: default, colour: red}", `unknown field "colour"`},
		{"{name: delay, until: Nobody}", `no combatant "Nobody"`},
		{"{name: delay, until: Orc, count: 2}", "give until or count, not both"},
		{"{name: ready, when: sometimes}", `"sometimes" is not valid`},
		{"{name: receive, when: always}", `unknown field "when"`},
	} {
		src := acksHead + "distance: 0\nsides:\n  - name: a\n    combatants:\n      - {name: A, hp: 5, damage: 1, policy: " + tc.policy +
			"}\n  - name: b\n    combatants:\n      - {name: Orc, hp: 5, damage: 1}\n"
		sc, err := scenario.Load("acks.yaml", []byte(src), nil, rulesets.Schema)
		if err == nil {
			_, err = rulesets.Compile(sc)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("policy %s: error %v; want %q", tc.policy, err, tc.want)
		}
	}
}

// Declarations are heard only once every declarer has declared (the source
// has them made "publicly" before the dice, in no order): swapping the
// sides in the file changes nothing, and each side's caster, declaring
// only when no enemy caster has declared, casts. With declare_first the
// named side declares in the open first, whichever side the file lists
// first, and the other side's caster hears it and holds its spell.
func TestAcksDeclarationsIgnoreFileOrder(t *testing.T) {
	side := func(name, caster, init string) string {
		return `  - name: ` + name + `
    combatants:
      - {name: ` + caster + `, hp: 50, damage: 1, speed: 0, initiative_rolls: [` + init + `], spells: [{name: bolt, damage: 3}],
         tactics: {before_initiative: [{when: enemies.casters == 0, do: declare bolt}, {do: nothing}]}}
`
	}
	a, b := side("west", "Wizard", "2"), side("east", "Witch", "5")
	cast := func(opt string, sides ...string) map[string]int64 {
		src := "name: p\nruleset: acks2\nmax_rounds: 1\ndistance: 200\noptions: {morale_trigger: none, disrupt_declared_casters: false" + opt + "}\nsides:\n" + sides[0] + sides[1]
		sc, err := scenario.Load("acks.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		_, tally := sim.Replay(g, 1, 0, nil)
		out := map[string]int64{}
		for k, name := range g.Counters() {
			if name == "spells_cast" {
				for s := range 2 {
					out[sc.Sides[s].Name] = tally.Counts.Get(s, k)
				}
			}
		}
		return out
	}
	for _, tc := range []struct {
		opt        string
		west, east int64
	}{
		{"", 1, 1},
		{", declare_first: none", 1, 1},
		{", declare_first: west", 1, 0},
		{", declare_first: east", 0, 1},
	} {
		ab, ba := cast(tc.opt, a, b), cast(tc.opt, b, a)
		if ab["west"] != tc.west || ab["east"] != tc.east || ba["west"] != tc.west || ba["east"] != tc.east {
			t.Errorf("options%q: spells cast west-first %v, east-first %v; want west %d, east %d either way",
				tc.opt, ab, ba, tc.west, tc.east)
		}
	}
}

// Issue 24 item 16: the other combatants' initiative numbers are facts, so
// a tactic can wait for a slower enemy (or act before it) by its number.
func TestAcksOtherNumbersFacts(t *testing.T) {
	src := acksHead + `distance: 0
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, damage: 1, initiative_rolls: [6],
         tactics: {turn: [{name: wait, when: enemy("Orc").number < self.number and ally("Page").number < enemy("Orc").number and not enemy("Orc").acted, do: delay until Orc}]}}
      - {name: Page, hp: 100, damage: 1, initiative_rolls: [PAGE]}
  - name: b
    combatants:
      - {name: Orc, hp: 100, damage: 1, initiative_rolls: [3]}
`
	_, ev := acksEvents(t, strings.Replace(src, "PAGE", "1", 1), 0)
	ev.InOrder(t, "rule Guard rule=turn/wait ok=true", "delay Guard Orc rule=after", "turn Orc", "turn Guard rule=delayed")
	// The Page faster than the Orc: the rule does not hold.
	log, ev := acksEvents(t, strings.Replace(src, "PAGE", "5", 1), 0)
	if ev.Has(t, "rule Guard rule=turn/wait") || ev.Has(t, "delay Guard") {
		t.Errorf("the Guard waited though the Page (5) is faster than the Orc (3):\n%s", log)
	}
}
