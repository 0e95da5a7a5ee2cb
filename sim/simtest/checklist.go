package simtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
