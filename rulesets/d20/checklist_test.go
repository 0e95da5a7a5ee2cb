package d20_test

import (
	"os"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim/simtest"
)

// TestSourceChecklist: `simctl rules d20` lists every rule of the seed
// text and of the SRD combat chapter simctl uses, with its status; each
// test it names exists; docs/d20.md carries the same rows.
func TestSourceChecklist(t *testing.T) {
	r, _ := rulesets.Lookup("d20")
	page, err := os.ReadFile("../../docs/d20.md")
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
		if !strings.HasPrefix(a.Doc, "simulated") && !strings.HasPrefix(a.Doc, "stated reading") && !strings.HasPrefix(a.Doc, "not modelled") {
			t.Errorf("%s: status %q does not start with simulated / stated reading / not modelled", heading, a.Doc)
		}
		if names := simtest.ChecklistTests(a.Doc); names != nil {
			for _, name := range names {
				if !simtest.DefinesTest(t, name) {
					t.Errorf("%s: test %s does not exist", heading, name)
				}
			}
		} else if strings.HasPrefix(a.Doc, "simulated") {
			t.Errorf("%s: simulated but no test named", heading)
		}
		if !strings.Contains(string(page), "| "+heading+" |") {
			t.Errorf("docs/d20.md lacks the checklist row for %q", heading)
		}
	}
	// The seed text's rules (file 003: 14) and the combat chapter's.
	if n != 29 {
		t.Errorf("%d checklist entries, want 29", n)
	}
}
