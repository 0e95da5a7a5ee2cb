package acks2_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"simctl/rulesets"
)

// TestSourceChecklist: `simctl rules acks2` lists every heading of the
// source with its status; each test it names exists; docs/acks2.md
// carries the same headings. Tests named with agentsTestPrefix live in
// package agents (the tactics binding and the Go policies) and are checked
// there, so this test reads no other package's files.
const agentsTestPrefix = "TestAcks"

func TestSourceChecklist(t *testing.T) {
	r, _ := rulesets.Lookup("acks2")
	var defined strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defined.Write(b)
	}
	page, err := os.ReadFile("../../docs/acks2.md")
	if err != nil {
		t.Fatal(err)
	}
	testsRe := regexp.MustCompile(`\(tests: ([^)]*)\)$`)
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
		if m := testsRe.FindStringSubmatch(a.Doc); m != nil {
			for _, name := range strings.Split(m[1], ", ") {
				if strings.HasPrefix(name, agentsTestPrefix) {
					continue // agents' TestAcksChecklistTestsExist checks it
				}
				if !strings.Contains(defined.String(), "func "+name+"(") {
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
