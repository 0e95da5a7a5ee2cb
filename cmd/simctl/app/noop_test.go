package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"simctl/cmd/simctl/app"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

// TestCompareRefusesNoOpOption: an option whose --set leaves the scenario
// as the baseline has it (the duel's Fighter already has init 1) is a
// usage error naming the option and the way to ask for a null control;
// asked for with NullControls it plays, and a "null control" that changes
// the scenario is refused.
func TestCompareRefusesNoOpOption(t *testing.T) {
	req := func(nulls ...string) *app.CompareRequest {
		return &app.CompareRequest{Source: duel(t), N: 200, Seed: 1, Workers: 1, Batch: 1, NullControls: nulls, Options: []app.Option{
			{Name: "base"}, {Name: "same", Sets: []scenario.Set{set(t, "heroes.Fighter.init=1")}}, {Name: "ac", Sets: []scenario.Set{set(t, "heroes.Fighter.ac=19")}}}}
	}
	_, err := app.Compare(context.Background(), req(), nil)
	var e *app.Error
	if !errors.As(err, &e) || e.Kind != app.Usage || !strings.Contains(err.Error(), "option same plays the same scenario as the baseline base") || !strings.Contains(err.Error(), "--null-control same") {
		t.Fatalf("an option equal to the baseline: got %v, want a usage error naming it and --null-control", err)
	}
	c, err := app.Compare(context.Background(), req("same"), nil)
	if err != nil {
		t.Fatalf("asked for as a null control: %v", err)
	}
	if d := c.Options[1].Diff[0]; d.Diff != 0 || c.Options[1].Result.Sides[0].Wins != c.Options[0].Result.Sides[0].Wins {
		t.Errorf("the null control differs from the baseline: %+v", d)
	}
	if _, err := app.Compare(context.Background(), req("same", "ac"), nil); err == nil || !strings.Contains(err.Error(), "option ac changes the scenario, so it is no null control") {
		t.Errorf("a null control that changes the scenario: got %v", err)
	}
}

// TestIgnoredPolicySetIsAnError: a --set of a policy that the combatant's
// tactics overrule is an error naming the --set and what to write
// instead; the same policy written in the file stays a warning.
func TestIgnoredPolicySetIsAnError(t *testing.T) {
	data, disp, ok := scenarios.Read("d20/tactics-combo")
	if !ok {
		t.Fatal("no built-in d20/tactics-combo")
	}
	src := &app.Source{Name: "d20/tactics-combo", Display: disp, Data: data}
	_, _, err := src.Compile([]scenario.Set{set(t, "heroes.Pikeman.policy=default")}, nil)
	if err == nil {
		t.Fatal("a --set the tactics overrule was accepted")
	}
	for _, want := range []string{"this --set changes nothing: tactics: decides for this combatant", "write --set heroes.Pikeman.tactics=NAME", "--set heroes.Pikeman.tactics.params.NAME=VALUE", "(from --set heroes.Pikeman.policy=default)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q lacks %q", err, want)
		}
	}
	// Played as the error suggests, it runs.
	if _, _, err := src.Compile([]scenario.Set{set(t, "heroes.Pikeman.tactics=default")}, nil); err != nil {
		t.Errorf("the suggested --set fails: %v", err)
	}
	// The same in the file: a warning, and the scenario compiles.
	file := strings.Replace(string(data), "        brace: true\n", "        brace: true\n        policy: default\n", 1)
	if file == string(data) {
		t.Fatal("the Pikeman's brace: line moved; update the test")
	}
	fsrc := &app.Source{Name: "x.yaml", Display: "x.yaml", Data: []byte(file)}
	_, _, warns, err := fsrc.CompileWarn(nil)
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Error(), "ignored: tactics: decides for this combatant") {
		t.Errorf("policy: in the file: err %v, warnings %v; want one warning", err, warns)
	}
}
