package acks2_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim/simtest"
)

// TestSourceChecklist: `simctl rules acks2` lists every heading of the
// source with its status; each test it names exists; docs/acks2.md
// carries the same headings. Tests named with agentsTestPrefix live in
// package agents (the tactics binding and the Go policies) and are checked
// there, so this test reads no other package's files.
const agentsTestPrefix = "TestAcks"

func TestSourceChecklist(t *testing.T) {
	r, _ := rulesets.Lookup("acks2")
	// A tactics test is checked by package agents (TestAcksChecklistTestsExist).
	inAgents := func(name string) bool { return strings.HasPrefix(name, agentsTestPrefix) }
	n := simtest.CheckSourceChecklist(t, r.Doc().Actions, "../../docs/acks2.md", []string{"simulated", "not simulated", "no rule"}, inAgents)
	// The source's headings and run-in titles (shared/rules/004).
	if n != 14 {
		t.Errorf("%d checklist entries, want 14 (every heading of the source)", n)
	}
}
