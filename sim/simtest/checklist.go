package simtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"simctl/sim"
)

// DefinesTest reports whether the test files of the package under test
// (its *_test.go, read from the test's working directory: only its own
// files) define test function name. It serves the checklist tests: a
// ruleset's source checklist names the tests that pin each rule.
func DefinesTest(tb testing.TB, name string) bool {
	tb.Helper()
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if strings.Contains(string(b), "func "+name+"(") {
			return true
		}
	}
	return false
}

var checklistTests = regexp.MustCompile(`\(tests: ([^)]*)\)$`)

// ChecklistTests lists the tests a checklist entry's status names, as
// "… (tests: TestA, TestB)" at its end; nil when it names none.
func ChecklistTests(status string) []string {
	m := checklistTests.FindStringSubmatch(status)
	if m == nil {
		return nil
	}
	return strings.Split(m[1], ", ")
}

// CheckSourceChecklist checks a ruleset's source checklist: the entries of
// actions named "source: HEADING". Each status starts with one of statuses;
// a "simulated" entry names its tests, and each named test is defined in the
// package under test, except those elsewhere reports (tactics tests checked
// in package agents); the page (docs/NAME.md, read from docPath) has a row
// for every heading. It returns how many entries there are.
func CheckSourceChecklist(t *testing.T, actions []sim.Field, docPath string, statuses []string, elsewhere func(test string) bool) int {
	t.Helper()
	page, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range actions {
		heading, ok := strings.CutPrefix(a.Name, "source: ")
		if !ok {
			continue
		}
		n++
		known := false
		for _, s := range statuses {
			known = known || strings.HasPrefix(a.Doc, s)
		}
		if !known {
			t.Errorf("%s: status %q does not start with %s", heading, a.Doc, strings.Join(statuses, " / "))
		}
		if names := ChecklistTests(a.Doc); names != nil {
			for _, name := range names {
				if elsewhere != nil && elsewhere(name) {
					continue
				}
				if !DefinesTest(t, name) {
					t.Errorf("%s: test %s does not exist", heading, name)
				}
			}
		} else if strings.HasPrefix(a.Doc, "simulated") {
			t.Errorf("%s: simulated but no test named", heading)
		}
		if !strings.Contains(string(page), "| "+heading+" |") {
			t.Errorf("%s lacks the checklist row for %q", strings.TrimPrefix(docPath, "../../"), heading)
		}
	}
	return n
}
