package scenario_test

import (
	"fmt"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

// aliased uses an anchor and an alias: a copy of its tree must keep the
// two places one node, as the parsed text has them.
const aliased = `ruleset: d20
sides:
  - name: heroes
    combatants:
      - &f {name: Fighter, hp: 20, damage: 1d8+3, policy: {name: delay, until: Orc}}
  - name: monsters
    combatants:
      - name: Orc
        hp: 3d10+6
        damage: 1d12+3
        count: 3
      - *f
`

// TestParsedIsDecode: decoding the text parsed once, under many lists of
// overrides one after another (values repeated, so some come from the
// cache), gives what Decode of the text gives each time: the same tree,
// the same errors; and Apply reads back what ValueAt reads. One Parsed
// serves every list, so an override that leaked into the shared tree or
// a value cached wrongly shows in a later list.
func TestParsedIsDecode(t *testing.T) {
	lists := [][]string{
		nil,
		{"heroes.Fighter.hp=30"},
		{"monsters.Orc.hp=30", "heroes.Fighter.init=3"},
		{"heroes.Fighter.hp=30", "heroes.Fighter.hp=31"},
		{"heroes.Fighter.policy.until=Fighter"},
		{"heroes.Fighter.hp=-1"}, // an error
		{"heroes.Fighter.hp=[1"}, // not YAML
		{"heroes.Figter.hp=30"},  // no such combatant
		{"heroes.Fighter.damage=2d6", "distance=30"},
		{"heroes.Fighter.tactics={turn: [{do: attack}]}"},
		{"max_rounds=7", "heroes.aware=false"},
		{},
	}
	paths := []string{"heroes.Fighter.hp", "monsters.Orc.hp", "heroes.Fighter.policy", "distance", "heroes.Fighter.tactics", "max_rounds", "heroes.aware"}
	for _, text := range []string{minimal, aliased} {
		p := scenario.Parse("test.yaml", []byte(text))
		for round := 0; round < 2; round++ {
			for _, l := range lists {
				sets := parseSets(t, l)
				want, werr := scenario.Decode("test.yaml", []byte(text), sets, rulesets.Schema)
				got, gerr := p.Decode(sets, rulesets.Schema)
				if fmt.Sprint(werr) != fmt.Sprint(gerr) || (want == nil) != (got == nil) {
					t.Fatalf("%v: Parsed.Decode says %v, Decode %v", l, gerr, werr)
				}
				if want != nil && !scenario.SameTree(want.Root, got.Root) {
					t.Errorf("%v: Parsed.Decode's tree differs from Decode's", l)
				}
				if want != nil && werr == nil {
					_, cw := rulesets.Compile(want)
					_, cg := rulesets.Compile(got)
					if fmt.Sprint(cw) != fmt.Sprint(cg) {
						t.Errorf("%v: compiles with %v, from the text %v", l, cg, cw)
					}
				}
				a, aerr := p.Apply(sets)
				for _, path := range paths {
					v, ok, err := scenario.ValueAt([]byte(text), sets, path)
					var gv string
					var gok bool
					gerr := aerr
					if aerr == nil {
						gv, gok, gerr = a.ValueAt(path)
					}
					if v != gv || ok != gok || fmt.Sprint(err) != fmt.Sprint(gerr) {
						t.Errorf("%v %s: Apply reads %q %v %v, ValueAt %q %v %v", l, path, gv, gok, gerr, v, ok, err)
					}
				}
			}
		}
	}
}

// TestParseErrors: a text that does not parse gives, from every Decode
// of the Parsed, the error Decode gives.
func TestParseErrors(t *testing.T) {
	for _, text := range []string{"", "a: [1", "name: x\n---\nname: y\n", "- 1\n- 2\n"} {
		_, want := scenario.Decode("bad.yaml", []byte(text), nil, rulesets.Schema)
		_, got := scenario.Parse("bad.yaml", []byte(text)).Decode(nil, rulesets.Schema)
		if fmt.Sprint(got) != fmt.Sprint(want) || want == nil {
			t.Errorf("%q: Parsed.Decode says %v, Decode %v", text, got, want)
		}
	}
}

// BenchmarkParsedApply: what a candidate's key costs in a space with
// options, the overrides applied to a copy of the parsed tree and every
// varied path read back.
func BenchmarkParsedApply(b *testing.B) {
	data, disp, _ := scenarios.Read("d20/duel")
	p := scenario.Parse(disp, data)
	sets := parseSets(b, []string{"heroes.Fighter.init=3", "heroes.Fighter.ac=15", "heroes.Fighter.hp=30", "monsters.Orc.init=2", "monsters.Orc.ac=14"})
	paths := []string{"heroes.Fighter.init", "heroes.Fighter.ac", "heroes.Fighter.hp", "monsters.Orc.init", "monsters.Orc.ac"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a, err := p.Apply(sets)
		if err != nil {
			b.Fatal(err)
		}
		for _, path := range paths {
			a.ValueAt(path)
		}
	}
}
