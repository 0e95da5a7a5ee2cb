package cavaliers

import (
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// Per-combatant recording on a pinned encounter: initiative dice, attack,
// defence and damage are constants, so every blow is known. W (10) hits X
// (15 hp) twice, then K (25 hp) three times; K (5) hits F (2, 12 hp) for 50
// in round 1, before F's first turn, and then cannot beat W's defence; X
// never hits.
func TestRecordPerCombatant(t *testing.T) {
	roll := "[10]"
	a := row(`name: W, specialty: none, attribute: d10, initiative_dice: %s, hp: 30, attack: "10", defence: "20", damage: "10", policy: {name: script, target: X}`, roll) +
		row(`name: F, specialty: none, attribute: d10, initiative_dice: [2], hp: 12, attack: "1", defence: "5", damage: "1", policy: script`)
	b := row(`name: X, specialty: none, attribute: d10, initiative_dice: [9], hp: 15, attack: "1", defence: "5", damage: "1", policy: script`) +
		row(`name: K, specialty: none, attribute: d10, initiative_dice: [5], hp: 25, attack: "10", defence: "5", damage: "50", policy: {name: script, target: F}`)
	g := compile(t, scen(6, "budget", a, b))
	for _, seed := range []uint64{1, 2, 3} {
		_, _, log, _ := play(g, seed)
		o, tl := sim.Replay(g, seed, 0, nil)
		if o.Winner != 0 || o.Rounds != 5 {
			t.Fatalf("seed %d: outcome %+v, want side 0 winning in round 5\n%s", seed, o, log)
		}
		want := []sim.Combatant{
			{DamageDealt: 50, Kills: 2, Turns: 5, HPLeft: 30, HPLeftWin: 30},                // W
			{DamageTaken: 50, Downed: 1, EndedDown: 1},                                      // F: down before its first turn
			{DamageTaken: 20, Downed: 1, Turns: 1, EndedDown: 1},                            // X
			{DamageDealt: 50, DamageTaken: 30, Kills: 1, Downed: 1, Turns: 4, EndedDown: 1}, // K
		}
		for i, w := range want {
			if got := tl.Counts.Combatants[i]; got != w {
				t.Errorf("seed %d: %s: got %+v\nwant %+v\n%s", seed, g.C[i].Name, got, w, log)
			}
		}
		for s := 0; s < 2; s++ {
			var dealt, turns int64
			for i, p := range tl.Counts.Combatants {
				if g.C[i].Side == s {
					dealt += p.DamageDealt
					turns += p.Turns
				}
			}
			if dealt != tl.Counts.Get(s, sim.DamageDealt) || turns != tl.Counts.Get(s, sim.Turns) {
				t.Errorf("side %d: per-combatant dealt %d turns %d, side counters %d %d", s, dealt, turns,
					tl.Counts.Get(s, sim.DamageDealt), tl.Counts.Get(s, sim.Turns))
			}
		}
		if tl.Ended != 1 || tl.AnyDown != [2]int64{1, 1} || tl.Damage[1].Counts[50] != 1 || tl.WinnerHP[0].Counts[30] != 1 {
			t.Errorf("seed %d: ended %d, any down %v, damage %d, winner hp %d", seed, tl.Ended, tl.AnyDown, tl.Damage[1].Sum, tl.WinnerHP[0].Sum)
		}
	}
	// Without a Tally the calls record nothing and cost nothing.
	c := sim.NewCounts(len(g.Counters()))
	g.NewTable().Play(rng.New(1, 0), &c, nil)
	if c.Combatants != nil {
		t.Errorf("a Counts without a roster grew per-combatant totals")
	}
}
