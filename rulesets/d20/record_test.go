package d20

import (
	"testing"

	"simctl/sim"
)

// Per-combatant recording on a pinned encounter: spells always land for
// their fixed damage and initiative is fixed, so every figure is known in
// advance. W (count 20) bolts X (15 hp) twice, then K (25 hp) three times;
// K (count 12) blasts F (count 10) for 50 in round 1, before F's first
// turn; X idles, and K, which attacks after round 1, never gets near W:
// the sides stand 1000 ft apart, so nobody threatens anyone either (no
// attacks of opportunity against the casters).
func TestRecordPerCombatant(t *testing.T) {
	g := compileGame(t, `
name: record
ruleset: d20
distance: 1000
max_rounds: 10
sides:
  - name: a
    combatants:
      - {name: W, hp: 30, ac: 10, init: 0, initiative_roll: 20, attacks: [0], damage: 1, concentration: 100,
         spells: [{name: bolt, damage: 10, level: 1, uses: 10}], policy: {name: test-script, do: cast, spell: bolt, target: X}}
      - {name: F, hp: 12, ac: 10, init: 0, initiative_roll: 10, attacks: [0], damage: 1, policy: {name: test-script, do: idle}}
  - name: b
    combatants:
      - {name: X, hp: 15, ac: 10, init: 0, initiative_roll: 15, attacks: [0], damage: 1, policy: {name: test-script, do: idle}}
      - {name: K, hp: 25, ac: 10, init: 0, initiative_roll: 12, attacks: [0], damage: 1, concentration: 100,
         spells: [{name: blast, damage: 50, level: 1}], policy: {name: test-script, do: cast, spell: blast, target: F, rounds: [1]}}
`)
	for _, seed := range []uint64{1, 2, 3} {
		o, tl := sim.Replay(g, seed, 0, nil)
		if o.Winner != 0 || o.Rounds != 5 {
			t.Fatalf("seed %d: outcome %+v, want side 0 winning in round 5", seed, o)
		}
		want := []sim.Combatant{
			{DamageDealt: 50, Kills: 2, Turns: 5, HPLeft: 30, HPLeftWin: 30},                // W
			{DamageTaken: 50, Downed: 1, EndedDown: 1},                                      // F: down before its first turn
			{DamageTaken: 20, Downed: 1, Turns: 1, EndedDown: 1},                            // X
			{DamageDealt: 50, DamageTaken: 30, Kills: 1, Downed: 1, Turns: 4, EndedDown: 1}, // K
		}
		checkRecord(t, g, tl, want)
		if tl.Ended != 1 || tl.AnyDown != [2]int64{1, 1} {
			t.Errorf("seed %d: ended %d, any down %v; want 1, [1 1]", seed, tl.Ended, tl.AnyDown)
		}
		if tl.Damage[0].Sum != 50 || tl.Damage[0].Counts[50] != 1 || tl.Damage[1].Counts[50] != 1 ||
			tl.WinnerHP[0].Counts[30] != 1 || tl.WinnerHP[1].N != 0 {
			t.Errorf("seed %d: distributions damage %d/%d, winner hp %d/%d", seed,
				tl.Damage[0].Sum, tl.Damage[1].Sum, tl.WinnerHP[0].Sum, tl.WinnerHP[1].N)
		}
	}
}

// checkRecord compares the per-combatant totals with want and checks them
// against the side counters the referee keeps on its own.
func checkRecord(t *testing.T, g *Game, tl *sim.Tally, want []sim.Combatant) {
	t.Helper()
	for i, w := range want {
		if got := tl.Counts.Combatants[i]; got != w {
			t.Errorf("%s: got %+v\nwant %+v", g.C[i].Name, got, w)
		}
	}
	var dealt, turns, lost [2]int64
	for i, p := range tl.Counts.Combatants {
		s := g.C[i].Side
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
