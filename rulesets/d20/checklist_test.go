package d20_test

import (
	"testing"

	"simctl/rulesets"
	"simctl/sim/simtest"
)

// TestSourceChecklist: `simctl rules d20` lists every rule of the seed
// text and of the SRD combat chapter simctl uses, with its status; each
// test it names exists; docs/d20.md carries the same rows.
func TestSourceChecklist(t *testing.T) {
	r, _ := rulesets.Lookup("d20")
	n := simtest.CheckSourceChecklist(t, r.Doc().Actions, "../../docs/d20.md", []string{"simulated", "stated reading", "not modelled"}, nil)
	// The seed text's rules (file 003: 14) and the combat chapter's.
	if n != 29 {
		t.Errorf("%d checklist entries, want 29", n)
	}
}
