package cavaliers

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim/simtest"
)

// TestSourceChecklist: `simctl rules cavaliers` lists every heading of the
// source with its status; each test it names exists; docs/cavaliers.md
// carries the same headings. Tests named with agentsTestPrefix live in
// package agents (the tactics binding) and are checked there, so this test
// reads no other package's files.
const agentsTestPrefix = "TestCav"

func TestSourceChecklist(t *testing.T) {
	r, _ := rulesets.Lookup("cavaliers")
	// A tactics test is checked by package agents (TestCavChecklistTestsExist).
	inAgents := func(name string) bool { return strings.HasPrefix(name, agentsTestPrefix) }
	n := simtest.CheckSourceChecklist(t, r.Doc().Actions, "../../docs/cavaliers.md", []string{"simulated", "not simulated", "no rule"}, inAgents)
	// The source's headings and run-in titles (shared/rules/001).
	if n != 12 {
		t.Errorf("%d checklist entries, want 12 (every heading of the source)", n)
	}
}
