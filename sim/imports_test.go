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

// Package results holds the documents, plain data: it reads and merges
// them with no plotting, font, image or HTML code, so that simctl merge
// and the application layer need none. Its dependencies (go list, non-test
// files, the whole graph) must include no gonum.org/v1/plot package, no
// image or font package, no html/template, and nothing of reports (but
// its sibling safeio), agents, rulesets or cmd.
func TestResultsImportNoDrawing(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Deps " "}}`, "simctl/reports/results").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkg, deps, ok := strings.Cut(strings.TrimSpace(string(out)), ": ")
	if !ok || pkg != "simctl/reports/results" {
		t.Fatalf("go list answered %q", out)
	}
	if problems := drawingDeps(strings.Fields(deps)); len(problems) > 0 {
		t.Errorf("%s must import no drawing code and nothing above it:\n%s", pkg, strings.Join(problems, "\n"))
	}
}

// drawingDeps names the dependencies results must not have, and why.
func drawingDeps(deps []string) []string {
	var out []string
	for _, d := range deps {
		switch {
		case d == "gonum.org/v1/plot" || strings.HasPrefix(d, "gonum.org/v1/plot/"):
			out = append(out, d+": plotting")
		case strings.HasPrefix(d, "golang.org/x/image"), d == "image" || strings.HasPrefix(d, "image/"),
			strings.Contains(d, "/font"), d == "html/template":
			out = append(out, d+": image, font or HTML code")
		case d == "simctl/reports" || strings.HasPrefix(d, "simctl/reports/") && d != "simctl/reports/safeio":
			out = append(out, d+": reports imports results, never the other way")
		default:
			for _, up := range []string{"simctl/agents", "simctl/rulesets", "simctl/cmd"} {
				if d == up || strings.HasPrefix(d, up+"/") {
					out = append(out, d+": results knows nothing of agents, rulesets or cmd")
				}
			}
		}
	}
	return out
}

// The check itself fails on what it must refuse: a plot import (direct
// or a subpackage), the font stack, reports and a ruleset; and lets
// the standard library and sim through.
func TestDrawingDepsRefuses(t *testing.T) {
	for _, d := range []string{"gonum.org/v1/plot", "gonum.org/v1/plot/vg/draw", "golang.org/x/image/font/sfnt", "image/png",
		"html/template", "simctl/reports", "simctl/reports/i18n", "simctl/rulesets/d20", "simctl/agents", "simctl/cmd/simctl/app"} {
		if len(drawingDeps([]string{d})) != 1 {
			t.Errorf("drawingDeps lets %s through", d)
		}
	}
	for _, d := range []string{"encoding/json", "simctl/sim", "simctl/stats", "simctl/reports/safeio", "simctl/sim/experiment", "gonum.org/v1/gonum/mat"} {
		if p := drawingDeps([]string{d}); len(p) != 0 {
			t.Errorf("drawingDeps refuses %s: %v", d, p)
		}
	}
}
