package acks2_test

import (
	"reflect"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/rulesets/acks2"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// shortcutVariants are fights beside the built-ins that reach the
// shortcuts' edges: both sides on one number with some choosing after
// (uniform ranks: the masked order; the referee's side first in the roster), uneven ranks (the sort), lingering
// effects at the start and end of segments, delays, readies and receives,
// spells, retreats, a flyer, and negative initiative numbers.
var shortcutVariants = []string{`name: masked order
ruleset: acks2
max_rounds: 30
distance: 30
sides:
  - name: a
    referee: true
    combatants:
      - {name: W, count: 3, hp: 2d8, ac: 3, damage: 1d8, weapon: long}
      - {name: X, hp: 1d8, ac: 2, damage: 1d6, weapon: missile, range: 60, behind: 10, policy: {name: default, same_number: after}}
      - {name: V, count: 2, hp: 1d8, ac: 2, damage: 1d6, policy: {name: default, same_number: after, charge: never}}
  - name: b
    combatants:
      - {name: O, count: 4, hp: 1d8, ac: 2, damage: 1d6, size: small, policy: {name: default, same_number: after}}
      - {name: R, count: 3, hp: 2d6, ac: 2, damage: 1d6, cleaves: 2}
      - {name: F, hp: 2d6, ac: 3, damage: 1d4, flies: true, speed: 60}
`, `name: ranks and effects
ruleset: acks2
max_rounds: 30
distance: 40
options: {morale_repeat: every_round}
sides:
  - name: a
    combatants:
      - {name: W, count: 2, hp: 2d8, ac: 3, damage: 1d8, policy: {name: default, withdraw_below: 6, rank: 3}}
      - {name: M, hp: 2d6, ac: 0, damage: 1d4, behind: 10, spells: [{name: burn, damage: 1d4, ongoing: 1d4, ongoing_at: end, ongoing_rounds: 3, uses: 2}, {name: rot, ongoing: 1d3, ongoing_rounds: 2, ongoing_save: true}]}
      - {name: C, hp: 1d6, ac: 0, damage: 1d4, behind: 10, spells: [{name: missile, damage: 1d6+1, uses: 2, push: 5}], policy: {name: ready, rank: -2}}
  - name: b
    referee: true
    combatants:
      - {name: O, count: 4, hp: 1d8, ac: 2, damage: 1d6, policy: {name: default, same_number: after, rank: 7}}
      - {name: R, count: 2, hp: 2d8, ac: 2, damage: 1d6, policy: {name: default, withdraw_below: 5, withdraw: retreat}}
`, `name: delays and receives
ruleset: acks2
max_rounds: 30
distance: 50
sides:
  - name: a
    combatants:
      - {name: S, count: 3, hp: 1d8+2, ac: 4, damage: 1d6, weapon: long, policy: {name: receive}}
      - {name: D, hp: 1d8, ac: 2, damage: 1d6, init: -4, policy: {name: delay, count: -2}}
      - {name: U, hp: 1d8, ac: 2, damage: 1d6, init: -3, policy: {name: delay, until: "G#2", rounds: first}}
  - name: b
    referee: true
    combatants:
      - {name: G, count: 6, hp: 1d6, ac: 2, damage: 1d6, size: small, morale: -1}
      - {name: Q, count: 2, hp: 1d6, ac: 2, damage: 1d6, policy: {name: ready, when: always}}
`}

// TestShortcutsMatchGeneral plays every built-in ACKS II scenario, some of
// them under options that change the order of play, and the variants
// above, once with the shortcuts newTable decides from the game
// (shortcuts.go) and once without them (SetGeneral): over thousands of
// encounters every outcome, the stream's next word after each encounter
// and the whole tally must be the same.
func TestShortcutsMatchGeneral(t *testing.T) {
	type fight struct {
		name, src string
		sets      []string
	}
	var fights []fight
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "acks2/") {
			continue
		}
		data, _, _ := scenarios.Read(name)
		fights = append(fights, fight{name: name, src: string(data)})
	}
	for _, set := range []string{"options.group_initiative=true", "options.size_engagement=true", "options.ready_same_round=true",
		"options.morale_repeat=every_round", "options.retreat_free_attack=false", "options.cleave_limit=2", "options.declare_first=goblins"} {
		data, _, _ := scenarios.Read("acks2/skirmish-morale")
		fights = append(fights, fight{name: "skirmish-morale " + set, src: string(data), sets: []string{set}})
	}
	for k, src := range shortcutVariants {
		fights = append(fights, fight{name: "variant " + string(rune('A'+k)), src: src})
	}
	encounters := 3000
	if testing.Short() {
		encounters = 500
	}
	for _, f := range fights {
		var sets []scenario.Set
		for _, x := range f.sets {
			st, err := scenario.ParseSet(x)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, st)
		}
		sc, err := scenario.Load(f.name+".yaml", []byte(f.src), sets, rulesets.Schema)
		if err != nil {
			t.Fatal(f.name, err)
		}
		gg, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(f.name, err)
		}
		g := gg.(*acks2.Game)
		h := *g
		acks2.SetGeneral(&h, true)
		fast, gen := g.NewTable(), h.NewTable()
		ft, gt := sim.NewTally(g), sim.NewTally(&h)
		var r, s rng.Stream
		for enc := 0; enc < encounters; enc++ {
			r.Seed(5, uint64(enc))
			s.Seed(5, uint64(enc))
			a := fast.Play(&r, &ft.Counts, nil)
			b := gen.Play(&s, &gt.Counts, nil)
			if a != b {
				t.Fatalf("%s: encounter %d: outcome %+v with the shortcuts, %+v without", f.name, enc, a, b)
			}
			if x, y := r.Uint64(), s.Uint64(); x != y {
				t.Fatalf("%s: encounter %d: the stream's next word differs (%#x with the shortcuts, %#x without): the draws differ", f.name, enc, x, y)
			}
			ft.Record(a)
			gt.Record(b)
		}
		if !reflect.DeepEqual(ft, gt) {
			t.Errorf("%s: the tallies of %d encounters differ with and without the shortcuts", f.name, encounters)
		}
	}
}
