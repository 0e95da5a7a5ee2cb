package acks2_test

import (
	"os"
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
	page, err := os.ReadFile("../../docs/acks2.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range r.Doc().Actions {
		heading, ok := strings.CutPrefix(a.Name, "source: ")
		if !ok {
			continue
		}
		n++
		if !strings.HasPrefix(a.Doc, "simulated") && !strings.HasPrefix(a.Doc, "not simulated") && !strings.HasPrefix(a.Doc, "no rule") {
			t.Errorf("%s: status %q does not start with simulated / not simulated / no rule", heading, a.Doc)
		}
		if names := simtest.ChecklistTests(a.Doc); names != nil {
			for _, name := range names {
				if strings.HasPrefix(name, agentsTestPrefix) {
					continue // agents' TestAcksChecklistTestsExist checks it
				}
				if !simtest.DefinesTest(t, name) {
					t.Errorf("%s: test %s does not exist", heading, name)
				}
			}
		} else if strings.HasPrefix(a.Doc, "simulated") {
			t.Errorf("%s: simulated but no test named", heading)
		}
		if !strings.Contains(string(page), "| "+heading+" |") {
			t.Errorf("docs/acks2.md lacks the checklist row for %q", heading)
		}
	}
	// The source's headings and run-in titles (shared/rules/004).
	if n != 14 {
		t.Errorf("%d checklist entries, want 14 (every heading of the source)", n)
	}
}
