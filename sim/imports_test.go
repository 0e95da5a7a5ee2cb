package sim_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Imports run downward only: nothing under sim/ or stats/ may depend,
// directly or through another package, on agents, rulesets, reports or cmd.
// go list follows the whole graph of every package's non-test files (an
// external test package may well play a ruleset end to end).
func TestImportsRunDownward(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Deps " "}}`, "simctl/sim/...", "simctl/stats/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 {
		t.Fatalf("go list listed %d packages, expected every package under sim/ and stats/:\n%s", len(lines), out)
	}
	for _, line := range lines {
		pkg, deps, _ := strings.Cut(line, ": ")
		for _, d := range strings.Fields(deps) {
			for _, up := range []string{"simctl/agents", "simctl/rulesets", "simctl/reports", "simctl/cmd"} {
				if d == up || strings.HasPrefix(d, up+"/") {
					t.Errorf("%s imports %s: sim and stats must know nothing of agents, rulesets, reports or cmd", pkg, d)
				}
			}
		}
	}
}
