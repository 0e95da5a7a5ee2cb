package reports_test

import (
	"bytes"
	"strings"
	"testing"

	_ "simctl/agents" // the d20 policies
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

func duel(t *testing.T) sim.Game {
	t.Helper()
	data, display, _ := scenarios.Read("d20/duel")
	sc, err := scenario.Load(display, data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A result of no encounters (a run interrupted at once) prints without
// dividing by zero.
func TestTextOfEmptyResult(t *testing.T) {
	g := duel(t)
	m := results.Meta{Scenario: "Fighter vs Orc", Ruleset: "d20", Version: "test", Seed: 7,
		Sides: [2]string{"heroes", "monsters"}, Elapsed: 1, Interrupted: true}
	r := results.New(m, g, sim.NewTally(g))
	var b strings.Builder
	if err := reports.WriteResultText(r, &b, i18n.En); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("text of an empty result shows %s:\n%s", bad, b.String())
		}
	}
	if !strings.Contains(b.String(), "0 encounters") || !strings.Contains(b.String(), "interrupted") {
		t.Errorf("text of an empty result:\n%s", b.String())
	}
	var j bytes.Buffer
	if err := r.WriteJSON(&j); err != nil {
		t.Fatalf("JSON of an empty result: %v", err)
	}
}
