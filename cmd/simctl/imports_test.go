package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestFrontEndsImports keeps the split of issue 20: the CLI (this
// package) is commands and flags, the web lab (cmd/simctl/lab) is its own
// package, and both call the application layer (cmd/simctl/app), which
// knows neither. go list reads the non-test files only.
func TestFrontEndsImports(t *testing.T) {
	list := func(format string, pkgs ...string) map[string][]string {
		t.Helper()
		out, err := exec.Command("go", append([]string{"list", "-f", format}, pkgs...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		m := map[string][]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			pkg, rest, _ := strings.Cut(line, ": ")
			m[pkg] = strings.Fields(rest)
		}
		return m
	}
	const cli, lab, app = "simctl/cmd/simctl", "simctl/cmd/simctl/lab", "simctl/cmd/simctl/app"
	imports := list(`{{.ImportPath}}: {{join .Imports " "}}`, cli, lab, app)
	deps := list(`{{.ImportPath}}: {{join .Deps " "}}`, lab, app)
	if len(imports) != 3 || len(deps) != 2 {
		t.Fatalf("go list listed %v and %v, expected the CLI, the lab and the app layer", imports, deps)
	}
	// The lab builds the app layer's requests and calls its Run: it
	// imports app, and nothing else of cmd/simctl (package main cannot be
	// imported; a hook package passing the CLI's commands in could).
	if !slices.Contains(imports[lab], app) {
		t.Errorf("%s does not import %s: the lab must call the same Run as the CLI", lab, app)
	}
	for _, d := range deps[lab] {
		if strings.HasPrefix(d, cli+"/") && d != app {
			t.Errorf("%s depends on %s: the lab may use only the app layer of cmd/simctl", lab, d)
		}
	}
	// The app layer serves no page and parses no flag.
	for _, d := range deps[app] {
		if d == lab || d == cli || d == "net/http" || d == "flag" {
			t.Errorf("%s depends on %s: the application layer knows neither front end", app, d)
		}
	}
	// The CLI has no server of its own: simctl serve's flags become a
	// lab.Config, and the lab serves.
	if !slices.Contains(imports[cli], lab) {
		t.Errorf("%s does not import %s: simctl serve must call lab.Serve", cli, lab)
	}
	for _, d := range imports[cli] {
		if d == "net/http" || d == "net" || d == "embed" {
			t.Errorf("%s imports %s: HTTP serving and the embedded page belong to %s", cli, d, lab)
		}
	}
}
