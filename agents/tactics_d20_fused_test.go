package agents

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"simctl/rulesets/d20"
	"simctl/sim/rng"
	"simctl/sim/simtest"
)

// fusedTacticsScenario: everyone in one place, as the fused referee
// plays; the fighters have two attacks, the orcs one (a full attack falls
// through for them).
func fusedTacticsScenario(options string) string {
	return fmt.Sprintf(`name: fused tactics
ruleset: d20
max_rounds: 12
distance: 0
options: {%s}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: 4, hp: 3d10+6, ac: 17, dex_ac: 2, init: 1, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2}
  - name: orcs
    combatants:
      - {name: Orc, count: 5, hp: 3d8+6, ac: 14, dex_ac: 2, init: 0, attacks: [5], damage: 1d12+3, crit: 20/x3}
      - {name: Ogre, hp: 4d10+12, ac: 12, init: -1, attacks: [8], damage: 2d8+5, uncanny_dodge: true}
`, options)
}

// fusedBlock writes a tactics block: each rule "WHEN => DO [@ TARGET]", then
// the standard rule (attack the weakest).
func fusedBlock(rules ...string) string {
	var out []string
	for k, r := range rules {
		when, do, _ := strings.Cut(r, " => ")
		rule := fmt.Sprintf("name: r%d, when: %q", k, when)
		if do, target, ok := strings.Cut(do, " @ "); ok {
			rule += fmt.Sprintf(", do: %s, target: %s", do, target)
		} else {
			rule += ", do: " + do
		}
		out = append(out, "{"+rule+"}")
	}
	return "{turn: [" + strings.Join(out, ", ") + ", {name: std, do: attack, target: weakest}]}"
}

// The condition-heavy fights: every fact the d20 binding offers that the
// fused referee answers, in conditions that hold on some turns and not on
// others, deciding with every selector it plays, or falling through.
var fusedTacticsCases = []struct {
	name, options, heroes, orcs string
}{
	{"own state", "", fusedBlock(
		`self.hp_pct < 0.5 and enemies.count >= 2 => attack @ strongest`,
		`self.hp < 12 or self.ac < 17 and round <= 1 => full_attack @ lowest_ac`,
		`self.count > 14 and self.position <= 2 => attack @ first`,
	), fusedBlock(
		`self.hp_pct < 0.6 or self.flat_footed => attack @ strongest`,
		`self.position == 1 and self.count >= 8 => full_attack @ first`,
		`self.ac >= 14 and round >= 2 => attack @ lowest_ac`,
	)},
	{"groups", "", fusedBlock(
		`enemies.flat_footed >= 2 and allies.engaged == 3 => full_attack @ strongest`,
		`enemies.down >= 1 and allies.down == 0 => attack @ strongest`,
		`enemies.in_reach > 4 and allies.count >= 3 or enemies.reachable == 2 => attack @ lowest_ac`,
		`enemies.acted >= 3 and allies.acted <= 1 => attack @ nearest`,
	), fusedBlock(
		`allies.down >= 2 or enemies.count == 1 => attack @ first`,
		`allies.acted >= 2 and enemies.acted == 0 => charge @ strongest`,
		`allies.count < 5 and self.engaged and self.threatened => attack @ strongest`,
	)},
	{"named", "", fusedBlock(
		`ally("Fighter#2").down or ally("Fighter#3").hp < 10 or ally("Fighter#4").hp_pct < 0.4 => attack @ strongest`,
		`enemy("Orc#1").down and enemy("Orc#2").in_reach and enemy("Orc#3").hp_pct > 0.5 => attack @ lowest_ac`,
		`ally("Fighter#1").acted and enemy("Orc#1").acted or ally("Fighter#2").flat_footed and enemy("Ogre").flat_footed => attack @ casters_first`,
		`ally("Fighter#3").count > enemy("Orc#3").count and enemy("Ogre").ac <= 12 => attack @ strongest`,
		`ally("Fighter#1").engaged and enemy("Orc#4").hp < 9 => attack @ first`,
	), fusedBlock(
		`enemy("Fighter#1").down or enemy("Fighter#2").hp < 12 => attack @ strongest`,
		`enemy("Fighter#3").count >= ally("Orc#2").count and ally("Ogre").hp_pct < 0.7 => attack @ lowest_ac`,
		`enemy("Fighter#4").flat_footed or ally("Orc#1").flat_footed and enemy("Fighter#1").ac < 17 => full_attack @ first`,
	)},
	{"kept per side", "", fusedBlock(
		// The facts the fused referee keeps per side as they change, on
		// both sides, as leaves of trees.
		`round == 2 and allies.count == 3 => attack @ strongest`,
		`allies.count == 2 => attack @ first`,
		`enemies.down >= 1 and self.engaged => attack @ lowest_ac`,
		`allies.down >= 1 or enemies.count <= 3 => attack @ first`,
	), fusedBlock(
		`round == 3 => attack @ strongest`,
		`enemies.down == 1 and allies.count >= 4 => attack @ lowest_ac`,
		`allies.count <= 2 => attack @ strongest`,
		`allies.down >= 2 or enemies.count == 3 and self.engaged => attack @ first`,
	)},
	{"order and flanking", "flanking: two", fusedBlock(
		`next_actor.exists and not next_actor.is_ally and round >= 2 => attack @ strongest`,
		`self.flanked and enemies.flanked >= 3 and enemy("Ogre").flanked => attack @ lowest_ac`,
		`next_actor.is_enemy or not next_actor.exists and self.hp_pct < 0.8 => attack @ first`,
	), fusedBlock(
		`not next_actor.exists => attack @ strongest`,
		`self.flanked and next_actor.is_ally => charge @ weakest`,
		`enemy("Fighter#2").flanked and enemies.flanked == 2 => attack @ lowest_ac`,
	)},
	{"zero facts", "", fusedBlock(
		// Each of these is 0 in a fused fight: if one were not, the rule
		// would hold on other turns than round 2's.
		`surprise_round or self.resuming or self.spells_left > 0 or enemies.nearest > 0 or enemies.casters > 0 or ally("Fighter#2").distance > 0 or enemy("Orc#1").distance > 0 or enemy("Orc#1").spells_left > 0 or round == 2 => attack @ strongest`,
		`self.ammo > 0 or self.loaded or enemies.in_range > 0 or enemies.readied > 0 or ally("Fighter#2").readied or ally("Fighter#2").delaying or ally("Fighter#2").charged or round == 3 => attack @ lowest_ac`,
		`enemy("Orc#1").readied or enemy("Orc#1").delaying or enemy("Orc#1").charged or enemy("Orc#1").in_range or round == 4 => attack @ first`,
	), fusedBlock(
		`self.hp_pct < 0.9 => full_attack @ strongest`,
	)},
	{"programs", "", fusedBlock(
		// Arithmetic and a slot read twice: no decision tree, the program.
		`enemies.acted + allies.acted > 3 => attack @ strongest`,
		`self.hp_pct < 0.3 and self.hp < 12 or self.hp_pct > 0.9 and round > 1 => attack @ lowest_ac`,
	), fusedBlock(
		`self.hp * 2 < enemy("Fighter#1").hp => attack @ strongest`,
	)},
}

// TestFusedTacticsPlayTheGeneralReferee: a tactics block with conditions
// before its standard rule keeps the fight on the fused referee, which
// plays exactly the general referee's encounters: the same outcomes,
// counters and rule counts (sim.Tally whole) and the same draws. Every
// fact mapped to the fused referee is asked, every rule both holds and
// not.
func TestFusedTacticsPlayTheGeneralReferee(t *testing.T) {
	asked := map[int]bool{}
	for _, c := range fusedTacticsCases {
		t.Run(c.name, func(t *testing.T) {
			g := compileD20(t, fusedTacticsScenario(c.options), "heroes.tactics="+c.heroes, "orcs.tactics="+c.orcs)
			if !g.Fused() {
				t.Fatal("the fight is not fused")
			}
			for i := range g.C {
				for _, r := range g.C[i].Policy.(*d20Tactic).rules {
					if r.when != nil {
						for _, s := range r.when.Slots {
							asked[s.Fact] = true
						}
					}
				}
			}
			gen := g.General()
			if gen.Fused() {
				t.Fatal("General is fused")
			}
			ft, gt := simtest.PlaySame(t, g, gen, 5, 3000) // fused, then general
			if !reflect.DeepEqual(ft, gt) {
				t.Errorf("tallies differ:\nfused   %+v\ngeneral %+v", ft.Counts.Rules, gt.Counts.Rules)
			}
			// The fused conditions (the walk and a program's EvalFunc)
			// allocate nothing per encounter.
			fTable, fr, n := g.NewTable(), rng.Stream{}, 0
			if allocs := testing.AllocsPerRun(200, func() {
				fr.Seed(6, uint64(n))
				n++
				ft.Record(fTable.Play(&fr, &ft.Counts, nil))
			}); allocs != 0 {
				t.Errorf("a fused encounter allocates %v times", allocs)
			}
			// Every rule of the heroes' block fired or fell through, and
			// the standard rule decided too: the conditions hold on some
			// turns and not on others.
			counted := map[string]int64{}
			for k, rc := range g.RuleCounters() {
				if rc.Combatant == 0 || rc.Combatant == 4 {
					counted[fmt.Sprintf("%d/%s", rc.Combatant, rc.Rule)] += ft.Counts.Rules[k]
				}
			}
			for name, n := range counted {
				if n == 0 && !strings.HasSuffix(name, "fallback") {
					t.Errorf("rule %s never fired or fell through: the case tests less than it says (%v)", name, counted)
				}
			}
		})
	}
	for id, f := range fusedFacts {
		if f != d20.FactNone && !asked[id] {
			t.Errorf("fact %s is mapped to the fused referee but no case asks it", d20Facts[id].Name)
		}
	}
	if len(fusedFacts) != len(d20Facts) {
		t.Errorf("fusedFacts maps %d facts, the binding has %d", len(fusedFacts), len(d20Facts))
	}
}

// TestFusedTacticsOnlyWhereItApplies: a rule or fact the fused referee
// does not play keeps the fight on the general referee.
func TestFusedTacticsOnlyWhereItApplies(t *testing.T) {
	for _, c := range []struct {
		block string
		fused bool
	}{
		{fusedBlock(`self.hp_pct < 0.5 => attack @ strongest`), true},
		{fusedBlock(`round > 1 => charge @ weakest`), true},
		{fusedBlock(`enemy("Orc#1").shot_penalty < 0 => attack @ strongest`), false},
		{fusedBlock(`self.hp_pct < 0.5 => attack @ random`), false},
		{fusedBlock(`self.hp_pct < 0.5 => attack @ Orc#2`), false},
		{fusedBlock(`round == 1 => delay to 3`), false},
		{fusedBlock(`round == 1 => ready attack on enemy_in_reach`), false},
	} {
		g := compileD20(t, fusedTacticsScenario(""), "heroes.tactics="+c.block)
		if g.Fused() != c.fused {
			t.Errorf("%s: fused %v, want %v", c.block, g.Fused(), c.fused)
		}
	}
}
