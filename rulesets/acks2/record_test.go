package acks2_test

import (
	"testing"

	"simctl/sim"
)

// Per-combatant recording on a pinned encounter: initiative is pinned,
// spells land for fixed damage, and the sides stand 1000 ft apart so no
// weapon ever reaches anyone. W (number 6) bolts X (15 hp) twice, then K
// (25 hp) three times; K (number 4) blasts F (number 2) for 50 in round 1,
// before F's first segment, then walks; X walks.
func TestRecordPerCombatant(t *testing.T) {
	rolls := func(v string) string { return "[" + v + ", " + v + ", " + v + ", " + v + ", " + v + ", " + v + "]" }
	g := compileYAML(t, `
name: record
ruleset: acks2
max_rounds: 6
distance: 1000
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: W, hp: 30, ac: 0, damage: 1, initiative_rolls: `+rolls("6")+`, spells: [{name: bolt, damage: 10, uses: 10}],
         policy: {name: test-script, declare: bolt, target: X}}
      - {name: F, hp: 12, ac: 0, damage: 1, initiative_rolls: `+rolls("2")+`}
  - name: b
    combatants:
      - {name: X, hp: 15, ac: 0, damage: 1, initiative_rolls: `+rolls("5")+`}
      - {name: K, hp: 25, ac: 0, damage: 1, initiative_rolls: `+rolls("4")+`, spells: [{name: blast, damage: 50}],
         policy: {name: test-script, declare: blast, target: F}}
`)
	for _, seed := range []int64{0, 1, 2} {
		log, o, tl := replay(g, seed)
		if o.Winner != 0 || o.Rounds != 5 {
			t.Fatalf("encounter %d: outcome %+v, want side 0 winning in round 5\n%s", seed, o, log)
		}
		want := []sim.Combatant{
			{DamageDealt: 50, Kills: 2, Turns: 5, HPLeft: 30, HPLeftWin: 30},                // W
			{DamageTaken: 50, Downed: 1, EndedDown: 1},                                      // F: down before its first segment
			{DamageTaken: 20, Downed: 1, Turns: 1, EndedDown: 1},                            // X
			{DamageDealt: 50, DamageTaken: 30, Kills: 1, Downed: 1, Turns: 4, EndedDown: 1}, // K
		}
		checkRecord(t, g, tl, want, log.text)
		if tl.Ended != 1 || tl.AnyDown != [2]int64{1, 1} || tl.Damage[0].Counts[50] != 1 || tl.Damage[1].Counts[50] != 1 || tl.WinnerHP[0].Counts[30] != 1 {
			t.Errorf("encounter %d: ended %d, any down %v, damage %d/%d, winner hp %d", seed, tl.Ended, tl.AnyDown,
				tl.Damage[0].Sum, tl.Damage[1].Sum, tl.WinnerHP[0].Sum)
		}
	}
}

// A combatant that flees on a failed morale check ends Gone, not Down, and
// is nobody's kill.
func TestRecordFledIsGone(t *testing.T) {
	g := compileYAML(t, `
name: flight
ruleset: acks2
max_rounds: 3
distance: 1000
options: {morale_trigger: half_hp, morale_flee_at: 20}
sides:
  - name: a
    combatants:
      - {name: W, hp: 30, ac: 0, damage: 1, initiative_rolls: [6, 6, 6], spells: [{name: bolt, damage: 10}], policy: {name: test-script, declare: bolt}}
  - name: b
    combatants:
      - {name: X, hp: 15, ac: 0, damage: 1, initiative_rolls: [5, 5, 5]}
`)
	log, o, tl := replay(g, 0)
	if o.Winner != 0 {
		t.Fatalf("outcome %+v, want side 0 winning when X flees\n%s", o, log)
	}
	want := []sim.Combatant{
		{DamageDealt: 10, Turns: 1, HPLeft: 30, HPLeftWin: 30},
		{DamageTaken: 10, Turns: 1, EndedGone: 1},
	}
	checkRecord(t, g, tl, want, log.text)
	if tl.AnyDown != [2]int64{0, 0} {
		t.Errorf("any down %v: a flight is not a death", tl.AnyDown)
	}
}

func checkRecord(t *testing.T, g sim.Game, tl *sim.Tally, want []sim.Combatant, log string) {
	t.Helper()
	roster := g.Roster()
	for i, w := range want {
		if got := tl.Counts.Combatants[i]; got != w {
			t.Errorf("%s: got %+v\nwant %+v\n%s", roster[i].Name, got, w, log)
		}
	}
	var dealt, turns, lost [2]int64
	for i, p := range tl.Counts.Combatants {
		s := roster[i].Side
		dealt[s] += p.DamageDealt
		turns[s] += p.Turns
		lost[s] += p.ActionsLost
	}
	for s := 0; s < 2; s++ {
		if dealt[s] != tl.Counts.Get(s, sim.DamageDealt) || turns[s] != tl.Counts.Get(s, sim.Turns) || lost[s] != tl.Counts.Get(s, sim.ActionsLost) {
			t.Errorf("side %d: per-combatant sums dealt %d turns %d lost %d, side counters %d %d %d", s, dealt[s], turns[s], lost[s],
				tl.Counts.Get(s, sim.DamageDealt), tl.Counts.Get(s, sim.Turns), tl.Counts.Get(s, sim.ActionsLost))
		}
	}
}
