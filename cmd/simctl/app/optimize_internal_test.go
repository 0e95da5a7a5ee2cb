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
	if k := candidateKey(src, nil, sp, p, sc, warn("sides[0].combatants[0].tactics.turn[1]")); !strings.Contains(k, "[focus, full, close]") {
		t.Errorf("another combatant's warning changed the key: %q", k)
	}
	if k := candidateKey(src, nil, sp, p, sc, warn("sides[0].combatants[1].tactics.turn[2]")); !strings.Contains(k, "=[focus, full]\n") {
		t.Errorf("the Knight's own unreachable rule is still in the key: %q", k)
	}
}
