package agents

import (
	"reflect"
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
	{"cross", nil},
	{"cross", []string{"heroes.policy.target=strongest", "options.spend=unlock"}},
}

// cavCross is a fight across Areas: the Scouts start between two enemies
// equally near (the nearest is the first in roster order), the Lancer
// two Areas away; everyone may use every ability.
const cavCross = `ruleset: cavaliers
max_rounds: 60
options: {spend: budget}
sides:
  - name: heroes
    policy: default
    combatants:
      - {name: Scout, count: 2, specialty: impulse, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6, area: 1}
      - {name: Lancer, specialty: vigilance, attribute: d10, pool: 2d6, hp: 14, attack: 2d6, defence: 2d6, damage: 1d6+1, area: 4}
  - name: foes
    policy: {name: default, move: hold}
    combatants:
      - {name: Left, specialty: timing, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6, area: 0}
      - {name: Right, specialty: vigilance, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6, area: 2}
      - {name: Late, specialty: impulse, attribute: d8, pool: 2d6, hp: 10, attack: 2d6, defence: 2d6, damage: 1d6, area: 3, enters: 2, policy: default}
`

func compileCav(t *testing.T, name string, sets []string) *cavaliers.Game {
	t.Helper()
	if name == "cross" {
		return compileSets(t, "cross.yaml", []byte(cavCross), sets...).(*cavaliers.Game)
	}
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

// cavNoStd hides a policy's standard rule: the referee calls its Move
// and Target.
type cavNoStd struct{ cavaliers.Policy }

// TestCavStandardMatchesPolicy: the referee's standard rules choose what
// the default policy's Move and Target choose: 3,000 encounters of every
// variant (and of the melee with focus and hold) played with the rules
// and with the policies' methods give the same tally, and each encounter
// ends at the same place of its stream.
func TestCavStandardMatchesPolicy(t *testing.T) {
	vs := append(cavVariants[:len(cavVariants):len(cavVariants)],
		struct {
			name string
			sets []string
		}{"cavaliers/melee", []string{"duelists.policy.focus=Cavalier#2", "heroes.policy.move=hold", "heroes.policy.target=first"}},
		struct {
			name string
			sets []string
		}{"cavaliers/bodyguard", []string{"bravos.policy.target=strongest"}})
	for _, c := range vs {
		play := func(hide bool) (*sim.Tally, []rng.Stream, int) {
			g := compileCav(t, c.name, c.sets)
			std := 0
			for i := range g.C {
				if sp, ok := g.C[i].Policy.(cavaliers.StandardPolicy); ok {
					if _, ok := sp.Standard(); ok {
						std++
					}
				}
				if hide {
					g.C[i].Policy = cavNoStd{g.C[i].Policy}
				}
			}
			table := g.NewTable()
			tally := sim.NewTally(g)
			var ends []rng.Stream
			var r rng.Stream
			for e := 0; e < 3000; e++ {
				r.Seed(11, uint64(e))
				tally.Record(table.Play(&r, &tally.Counts, nil))
				ends = append(ends, r)
			}
			return tally, ends, std
		}
		want, wantEnds, _ := play(true)
		got, gotEnds, std := play(false)
		for e := range wantEnds {
			if gotEnds[e] != wantEnds[e] {
				t.Fatalf("%s %v: encounter %d ends at another place of its stream with the standard rules", c.name, c.sets, e)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %v: tallies differ: standard rules %+v\npolicy methods %+v", c.name, c.sets, got.Counts.Sides, want.Counts.Sides)
		}
		random := len(c.sets) == 1 && c.sets[0] == "heroes.policy.target=random"
		if std == 0 && c.name != "cavaliers/tactics-ward" || random && std != 3 {
			t.Errorf("%s %v: %d combatants with a standard rule", c.name, c.sets, std)
		}
	}
}
