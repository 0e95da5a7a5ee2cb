package app

import (
	"strings"
	"testing"

	_ "simctl/agents" // registers the scripted policies
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// TestCandidateKeyOwnBlock: a "can never fire" warning about another
// combatant's rule list (the Pikeman's, combatants[0]) does not drop the
// rule at the same index of the searched one (the Knight's,
// combatants[1]), and one about the Knight's own list does.
func TestCandidateKeyOwnBlock(t *testing.T) {
	data, disp, ok := scenarios.Read("d20/tactics-combo")
	if !ok {
		t.Fatal("no built-in d20/tactics-combo")
	}
	src := &Source{Name: "d20/tactics-combo", Display: disp, Data: data}
	sc, _, err := src.Compile(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := experiment.NewRuleBlock(src.Data, nil, "heroes.Knight.tactics.turn", experiment.RulesOrder)
	if err != nil {
		t.Fatal(err)
	}
	sp := &experiment.Space{Block: blk}
	p := experiment.Point{Alt: -1, Rules: []int{0, 1, 2}}
	warn := func(path string) scenario.Errors {
		return scenario.Errors{{Path: path, Msg: "rule x can never fire: rule y before it has no when: and its decision cannot fall through"}}
	}
	if k := candidateKey(scenario.Parse(src.Display, src.Data), nil, sp, p, sc, warn("sides[0].combatants[0].tactics.turn[1]")); !strings.Contains(k, "[focus, full, close]") {
		t.Errorf("another combatant's warning changed the key: %q", k)
	}
	if k := candidateKey(scenario.Parse(src.Display, src.Data), nil, sp, p, sc, warn("sides[0].combatants[1].tactics.turn[2]")); !strings.Contains(k, "=[focus, full]\n") {
		t.Errorf("the Knight's own unreachable rule is still in the key: %q", k)
	}
}

// TestBlockProbeKeys: a searched rule list is keyed without compiling
// its candidates (blockProbe), and every key is the one the candidate's
// own compile gives, for every order of every subset of the blocks of the
// built-in tactics scenarios (rules that end a list, and ones that do not).
func TestBlockProbeKeys(t *testing.T) {
	for _, c := range []struct{ name, block string }{
		{"d20/tactics-combo", "heroes.Knight.tactics.turn"},
		{"acks2/tactics-shieldwall", "foot.tactics.before_initiative"},
		{"acks2/tactics-shieldwall", "foot.tactics.turn"},
	} {
		data, disp, ok := scenarios.Read(c.name)
		if !ok {
			t.Fatalf("no built-in %s", c.name)
		}
		src := &Source{Name: c.name, Display: disp, Data: data}
		blk, err := experiment.NewRuleBlock(src.Data, nil, c.block, experiment.RulesBoth)
		if err != nil {
			t.Fatal(err)
		}
		sp := &experiment.Space{Block: blk}
		base, probed := blockProbe(scenario.Parse(src.Display, src.Data), nil, sp)
		if probed == nil {
			t.Fatalf("%s %s: no probe", c.name, c.block)
		}
		points, _, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
		if err != nil {
			t.Fatal(err)
		}
		dropped := 0
		for _, p := range points {
			sc, _, warns, err := src.CompileWarn(p.Sets)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			want := candidateKey(scenario.Parse(src.Display, src.Data), nil, sp, p, sc, warns)
			got := candidateKey(scenario.Parse(src.Display, src.Data), nil, sp, p, base, probed(p))
			if got != want {
				t.Fatalf("%s %s: probed key\n%s\ncompiled key\n%s", c.name, p.Name, got, want)
			}
			if len(probed(p)) > 0 {
				dropped++
			}
		}
		t.Logf("%s %s: %d structures, %d with unreachable rules dropped", c.name, c.block, len(points), dropped)
	}
}
