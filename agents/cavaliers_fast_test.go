package agents

import (
	"testing"

	"simctl/rulesets/cavaliers"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
)

// The Cavaliers referee's shortcuts of issue 38's third pass, each against
// the computation it replaces, over thousands of encounters of every
// built-in and the variants the benchmarks compare.

// cavVariants are the scenarios the shortcut tests play: every built-in,
// and the melee with the options and target modes that change its paths.
var cavVariants = []struct {
	name string
	sets []string
}{
	{"cavaliers/melee", nil},
	{"cavaliers/melee", []string{"options.spend=unlock"}},
	{"cavaliers/melee", []string{"options.attack_ties=miss"}},
	{"cavaliers/melee", []string{"heroes.policy.target=strongest", "duelists.policy.target=first"}},
	{"cavaliers/melee", []string{"heroes.policy.target=random"}},
	{"cavaliers/bodyguard", nil},
	{"cavaliers/bodyguard", []string{"options.spend=unlock"}},
	{"cavaliers/duel", nil},
	{"cavaliers/house-rules", nil},
	{"cavaliers/house-rules", []string{"heroes.Cavalier.tactics.params.retake=1"}},
	{"cavaliers/tactics-ward", nil},
}

func compileCav(t *testing.T, name string, sets []string) *cavaliers.Game {
	t.Helper()
	data, display, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	return compileSets(t, display, data, sets...).(*cavaliers.Game)
}

// TestCavCountsMatchEvents: the counters the referee adds once an
// encounter (turns, actions, attack rolls, hits, damage dealt and taken,
// per side and per combatant) equal those counted from the encounter's
// events, as the calls per event made them.
func TestCavCountsMatchEvents(t *testing.T) {
	for _, c := range cavVariants {
		g := compileCav(t, c.name, c.sets)
		n := len(g.C)
		table := g.NewTable()
		tally := sim.NewTally(g)
		per := tally.Counts.PerSide
		var r rng.Stream
		checked := int64(0)
		for e := 0; e < 2000; e++ {
			before := append([]int64(nil), tally.Counts.Sides...)
			cb := append([]sim.Combatant(nil), tally.Counts.Combatants...)
			log := &sim.Log{}
			r.Seed(9, uint64(e))
			o := table.Play(&r, &tally.Counts, log)
			tally.Record(o)
			// What the events say.
			want := make([]int64, 2*per)
			turns, dealt, taken := make([]int64, n), make([]int64, n), make([]int64, n)
			for _, ev := range log.Events {
				switch ev.Kind {
				case sim.EvTurn:
					turns[ev.Actor]++
					want[g.C[ev.Actor].Side*per+sim.Turns]++
				case sim.EvAttack:
					s := g.C[ev.Actor].Side
					want[s*per+cavaliers.Attacks]++
					want[s*per+sim.Actions]++ // less the reprises, below
					if ev.OK {
						want[s*per+cavaliers.Hits]++
						want[s*per+sim.DamageDealt] += int64(ev.Amount)
						dealt[ev.Actor] += int64(ev.Amount)
						taken[ev.Target] += int64(ev.Amount)
					}
				case sim.EvAction:
					s := g.C[ev.Actor].Side
					if ev.Rule == "reprise" {
						want[s*per+sim.Actions]-- // a reprise is part of the attack's action
					} else {
						want[s*per+sim.Actions]++ // a special action in place of an attack
					}
				}
			}
			for s := 0; s < 2; s++ {
				for _, k := range []int{sim.Turns, sim.Actions, cavaliers.Attacks, cavaliers.Hits, sim.DamageDealt} {
					if got := tally.Counts.Sides[s*per+k] - before[s*per+k]; got != want[s*per+k] {
						t.Fatalf("%s %v encounter %d side %d counter %s: %d, the events say %d",
							c.name, c.sets, e, s, g.Counters()[k], got, want[s*per+k])
					}
					checked += want[s*per+k]
				}
			}
			for i := 0; i < n; i++ {
				got := tally.Counts.Combatants[i]
				if d := [3]int64{got.Turns - cb[i].Turns, got.DamageDealt - cb[i].DamageDealt, got.DamageTaken - cb[i].DamageTaken}; d != [3]int64{turns[i], dealt[i], taken[i]} {
					t.Fatalf("%s %v encounter %d %s: turns, dealt, taken %v, the events say %v",
						c.name, c.sets, e, g.C[i].Name, d, [3]int64{turns[i], dealt[i], taken[i]})
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s %v: no counter checked", c.name, c.sets)
		}
	}
}
