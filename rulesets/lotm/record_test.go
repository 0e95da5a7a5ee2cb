package lotm

import (
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// playRecorded is playScript on a Tally's counters, so the per-combatant
// figures are recorded, and folds the encounter into the tally.
func playRecorded(t *testing.T, g *Game, script ...int) (*sim.Tally, sim.Outcome, string) {
	t.Helper()
	tl := sim.NewTally(g)
	tb := newTable(g)
	tb.script = script
	var b strings.Builder
	o := tb.Play(rng.New(1, 0), &tl.Counts, &sim.Log{W: &b})
	if len(tb.script) != 0 {
		t.Fatalf("%d scripted dice left over\n%s", len(tb.script), b.String())
	}
	tl.Record(o)
	return tl, o, b.String()
}

// Per-combatant recording on pinned dice: V hits B (25 hp) for 10 three
// times (d20 8: 8 + 13 = 21 vs defence 10); B misses twice (d20 1).
func TestRecordPerCombatant(t *testing.T) {
	g := compile(t, `name: record
ruleset: lotm
max_rounds: 5
sides:
  - name: a
    policy: test
    combatants:
      - {name: V, hp: 30, ac: 10, attacks: [13], damage: 10, initiative_roll: 20}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 25, ac: 10, attacks: [0], damage: 10, initiative_roll: 5}
`)
	tl, o, log := playRecorded(t, g, 8, 1, 8, 1, 8)
	if o.Winner != 0 || o.Rounds != 3 {
		t.Fatalf("outcome %+v, want side 0 winning in round 3\n%s", o, log)
	}
	want := []sim.Combatant{
		{DamageDealt: 30, Kills: 1, Turns: 3, HPLeft: 30, HPLeftWin: 30},
		{DamageTaken: 30, Downed: 1, Turns: 2, EndedDown: 1},
	}
	for i, w := range want {
		if got := tl.Counts.Combatants[i]; got != w {
			t.Errorf("%s: got %+v\nwant %+v\n%s", g.C[i].Name, got, w, log)
		}
	}
	if tl.Ended != 1 || tl.AnyDown != [2]int64{0, 1} || tl.Damage[0].Counts[30] != 1 || tl.Damage[1].Counts[0] != 1 || tl.WinnerHP[0].Counts[30] != 1 {
		t.Errorf("ended %d, any down %v, damage %d/%d, winner hp %d", tl.Ended, tl.AnyDown, tl.Damage[0].Sum, tl.Damage[1].Sum, tl.WinnerHP[0].Sum)
	}
}

// A Vital Strike to the head stuns: the stunned combatant's lost turn is
// its own lost action (and still a turn).
func TestRecordStunnedLosesAction(t *testing.T) {
	g := compile(t, `name: vital
ruleset: lotm
max_rounds: 2
sides:
  - name: a
    policy: test
    combatants:
      - {name: V, hp: 30, ac: 10, attacks: [13], damage: 1, initiative_roll: 20}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 60, ac: 10, attacks: [0], damage: 1, initiative_roll: 5, speed: 30}
`)
	pol(t, g, "V").plan = Plan{Main: MainVital, Part: Head}
	tl := sim.NewTally(g)
	tb := newTable(g)
	tb.script = []int{8, 19}
	o := tb.Play(rng.New(1, 0), &tl.Counts, nil)
	tl.Record(o)
	v, b := tl.Counts.Combatants[0], tl.Counts.Combatants[1]
	if b.ActionsLost != 2 || b.Turns != 2 || v.ActionsLost != 0 || v.Turns != 2 {
		t.Errorf("V %+v, B %+v: B must lose both its turns", v, b)
	}
	if v.DamageDealt != tl.Counts.Get(0, sim.DamageDealt) || b.DamageTaken != v.DamageDealt || v.DamageDealt < 2*(1+2) {
		t.Errorf("V dealt %d, B took %d, side counter %d", v.DamageDealt, b.DamageTaken, tl.Counts.Get(0, sim.DamageDealt))
	}
	if tl.Ended != 1 || tl.WinnerHP[0].N != 0 || b.HPLeft != int64(60-v.DamageDealt) {
		t.Errorf("ended %d, winner hp %+v, B's hp left %d", tl.Ended, tl.WinnerHP[0], b.HPLeft)
	}
}
