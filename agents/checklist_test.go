package agents

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"simctl/rulesets"
)

// TestCavChecklistTestsExist: the tests that `simctl rules cavaliers`
// names for a source heading and that live here (the TestCav prefix; the
// others live in rulesets/cavaliers and are checked there) exist.
func TestCavChecklistTestsExist(t *testing.T) { checkChecklistTests(t, "cavaliers", "TestCav") }

// TestAcksChecklistTestsExist: the same for `simctl rules acks2` and its
// TestAcks tests (the others live in rulesets/acks2).
func TestAcksChecklistTestsExist(t *testing.T) { checkChecklistTests(t, "acks2", "TestAcks") }

// checkChecklistTests: every test the ruleset's source checklist names
// with prefix exists in this package, and there is at least one, so a
// ruleset's checklist test can leave those to this one and read no other
// package's files.
func checkChecklistTests(t *testing.T, ruleset, prefix string) {
	r, ok := rulesets.Lookup(ruleset)
	if !ok {
		t.Fatalf("%s is not registered", ruleset)
	}
	var defined strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defined.Write(b)
	}
	testsRe := regexp.MustCompile(`\(tests: ([^)]*)\)$`)
	n := 0
	for _, a := range r.Doc().Actions {
		m := testsRe.FindStringSubmatch(a.Doc)
		if m == nil {
			continue
		}
		for _, name := range strings.Split(m[1], ", ") {
			if !strings.HasPrefix(name, prefix) {
				continue
			}
			n++
			if !strings.Contains(defined.String(), "func "+name+"(") {
				t.Errorf("%s: test %s does not exist in package agents", a.Name, name)
			}
		}
	}
	if n == 0 {
		t.Errorf("the %s checklist names no %s test: the split between packages has changed", ruleset, prefix)
	}
}
