package scenario_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// FuzzLoad feeds the scenario loader arbitrary text, with an override:
// decoding, validation and compilation must never panic, and a scenario
// that compiles must play a few encounters without panicking (a ruleset
// panic would reach the user as an internal error).
// Corpus: every built-in scenario plus testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	for _, n := range scenarios.Names() {
		data, _, _ := scenarios.Read(n)
		f.Add(data, "max_rounds=3")
	}
	f.Add([]byte("name: x\nruleset: d20\nsides: [{name: a, combatants: [{name: A, hp: 1d4, damage: 1}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]\n---\n"), "a.A.hp=0")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []scenario.Set
		if s, err := scenario.ParseSet(set); err == nil {
			sets = append(sets, s)
		}
		sc, err := scenario.Load("fuzz.yaml", data, sets, rulesets.Schema)
		if err != nil {
			if sc != nil {
				t.Fatalf("Load returned a scenario and an error: %v", err)
			}
			return
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			return
		}
		if sc.MaxRounds > 200 {
			return // a few encounters of a long fight is a slow fuzz input, not a bug
		}
		for i := int64(0); i < 3; i++ {
			o, _ := sim.Replay(g, 1, i, nil)
			if o.Winner < -1 || o.Winner > 1 || o.Rounds < 0 {
				t.Fatalf("encounter %d: impossible outcome %+v", i, o)
			}
		}
	})
}

// FuzzParseSet: --set PATH=VALUE parsing never panics, and what it
// accepts prints back to a string it parses to the same path.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{"heroes.Fighter.init=4", "max_rounds=3", "a.b={name: x}", "=", "a.", "x=[1, 2", "heroes.Fighter#2.hp=3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return
		}
		y, err := scenario.ParseSet(x.String())
		if err != nil || y.Path != x.Path {
			t.Fatalf("ParseSet(%q) = %+v, but its String %q parses to %+v, %v", s, x, x.String(), y, err)
		}
	})
}

// FuzzNesting: deeply nested YAML, in a file or a --set value, is refused
// with a position (or by the library's own limit), never by the stack or
// the memory. The seeds are the deep shapes; go test runs them.
func FuzzNesting(f *testing.F) {
	head := "name: x\nruleset: d20\nsides: []\nextra: "
	f.Add([]byte(head+strings.Repeat("[", 300000)+strings.Repeat("]", 300000)+"\n"), "max_rounds=3")
	f.Add([]byte(head+strings.Repeat("{a: ", 200)+"1"+strings.Repeat("}", 200)+"\n"), "max_rounds="+strings.Repeat("[", 5000))
	f.Add([]byte(head+"\n"+blockNest(100)), "max_rounds="+strings.Repeat("{a: ", 100)+"1"+strings.Repeat("}", 100))
	f.Add([]byte(head+strings.Repeat("- ", 2000)+"1\n"), "options.x="+strings.Repeat("- ", 500)+"1")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []scenario.Set
		if s, err := scenario.ParseSet(set); err == nil {
			sets = append(sets, s)
		}
		if _, err := scenario.Load("fuzz.yaml", data, sets, rulesets.Schema); err == nil {
			return
		}
		scenario.ValueAt(data, sets, "max_rounds")
	})
}

// blockNest is n levels of block mappings, each indented one more.
func blockNest(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i+1) + "k:\n")
	}
	return b.String()
}
