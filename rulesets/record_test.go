package rulesets_test

import (
	"context"
	"testing"

	_ "simctl/agents" // the named policies the built-in scenarios use
	"simctl/rulesets"
	_ "simctl/rulesets/acks2"
	_ "simctl/rulesets/cavaliers"
	_ "simctl/rulesets/d20"
	_ "simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// Every referee's per-combatant recording agrees with what it records
// elsewhere, on every built-in scenario: per-combatant sums equal the side
// counters, damage dealt equals damage taken, end states agree with the
// survivors, and the distributions with the totals.
func TestRecordingConsistentOnBuiltins(t *testing.T) {
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			data, file, _ := scenarios.Read(name)
			sc, err := scenario.Load(file, data, nil, rulesets.Schema)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rulesets.Compile(sc)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 3, N: 1500, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, g, tl)
		})
	}
}

func checkConsistent(t *testing.T, g sim.Game, tl *sim.Tally) {
	t.Helper()
	n := tl.Encounters
	if tl.Ended != n {
		t.Fatalf("end states recorded for %d of %d encounters", tl.Ended, n)
	}
	roster := g.Roster()
	var dealt, taken, turns, lost, standing, hpWin, kills, downed, maxDown, sumDown [2]int64
	for i, p := range tl.Counts.Combatants {
		s := roster[i].Side
		dealt[s] += p.DamageDealt
		taken[s] += p.DamageTaken
		turns[s] += p.Turns
		lost[s] += p.ActionsLost
		standing[s] += n - p.EndedDown - p.EndedGone
		hpWin[s] += p.HPLeftWin
		kills[s] += p.Kills
		downed[s] += p.Downed
		maxDown[s] = max(maxDown[s], p.EndedDown)
		sumDown[s] += p.EndedDown
		if p.EndedDown > p.Downed || p.HPLeftWin > p.HPLeft || p.EndedDown+p.EndedGone > n {
			t.Errorf("%s: %+v: ended down more often than put down, or more hp when winning than overall", roster[i].Name, p)
		}
	}
	// A duel: the one combatant of a side ends out when the other side won
	// and in the draws with nobody left fighting, never in a draw at
	// max_rounds. (A referee that does not yet report draw causes counts
	// both kinds as max_rounds: then out lies between wins and wins+draws.)
	if len(roster) == 2 && roster[0].Side != roster[1].Side {
		for i, p := range tl.Counts.Combatants {
			s := roster[i].Side
			if out := p.EndedDown + p.EndedGone; out < tl.Wins[1-s]+tl.AllGoneDraws || out > tl.Wins[1-s]+tl.Draws {
				t.Errorf("%s ended out in %d encounters; the other side won %d, draws %d (all gone %d)",
					roster[i].Name, out, tl.Wins[1-s], tl.Draws, tl.AllGoneDraws)
			}
		}
	}
	if dealt[0]+dealt[1] != taken[0]+taken[1] {
		t.Errorf("damage dealt %v, taken %v: the sums differ", dealt, taken)
	}
	if kills[0]+kills[1] > downed[0]+downed[1] {
		t.Errorf("kills %v exceed combatants put down %v", kills, downed)
	}
	for s := 0; s < 2; s++ {
		c := &tl.Counts
		if dealt[s] != c.Get(s, sim.DamageDealt) || turns[s] != c.Get(s, sim.Turns) || lost[s] != c.Get(s, sim.ActionsLost) {
			t.Errorf("side %d: per-combatant dealt %d turns %d lost %d; side counters %d %d %d", s,
				dealt[s], turns[s], lost[s], c.Get(s, sim.DamageDealt), c.Get(s, sim.Turns), c.Get(s, sim.ActionsLost))
		}
		if standing[s] != tl.Survivors[s] {
			t.Errorf("side %d: %d combatants ended standing, %d survivors", s, standing[s], tl.Survivors[s])
		}
		if tl.Damage[s].N != n || tl.Damage[s].Sum != dealt[s] {
			t.Errorf("side %d: damage distribution of %d encounters summing %d; want %d, %d", s, tl.Damage[s].N, tl.Damage[s].Sum, n, dealt[s])
		}
		if tl.WinnerHP[s].N != tl.Wins[s] || tl.WinnerHP[s].Sum != hpWin[s] {
			t.Errorf("side %d: winner hp distribution of %d encounters summing %d; want %d, %d", s, tl.WinnerHP[s].N, tl.WinnerHP[s].Sum, tl.Wins[s], hpWin[s])
		}
		if tl.AnyDown[s] < maxDown[s] || tl.AnyDown[s] > sumDown[s] {
			t.Errorf("side %d: %d encounters with a death, but per combatant at most %d and in all %d", s, tl.AnyDown[s], maxDown[s], sumDown[s])
		}
	}
}
