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
func TestCavChecklistTestsExist(t *testing.T) {
	r, ok := rulesets.Lookup("cavaliers")
	if !ok {
		t.Fatal("cavaliers is not registered")
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
			if !strings.HasPrefix(name, "TestCav") {
				continue
			}
			n++
			if !strings.Contains(defined.String(), "func "+name+"(") {
				t.Errorf("%s: test %s does not exist in package agents", a.Name, name)
			}
		}
	}
	if n == 0 {
		t.Error("the cavaliers checklist names no TestCav test: the split between packages has changed")
	}
}
