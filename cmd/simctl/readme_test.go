//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEWalkthrough runs the README's walkthrough ("A new scenario,
// from nothing to a report": the ```sh block with `simctl init`) verbatim
// in bash, in a fresh folder, with `simctl` on PATH being this test binary
// re-executed as simctl (TestMain). Every line must succeed and the report
// it promises must exist.
func TestREADMEWalkthrough(t *testing.T) {
	if raceEnabled {
		t.Skip("runs the README walkthrough through a built binary: nothing concurrent for the detector, minutes of instrumented compiles")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	script := ""
	for _, block := range strings.Split(string(data), "```sh\n")[1:] {
		body, _, _ := strings.Cut(block, "```")
		if strings.Contains(body, "simctl init") {
			script = body
			break
		}
	}
	if script == "" {
		t.Fatal("README.md has no ```sh block with `simctl init`")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nSIMCTL_AS_MAIN=1 exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "simctl"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	cmd := exec.Command(bash, "-euo", "pipefail", "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README walkthrough fails: %v\n%s\n--- the script:\n%s", err, out, script)
	}
	for _, f := range []string{"report/report.html", "report/report.md"} {
		if _, err := os.Stat(filepath.Join(work, f)); err != nil {
			t.Errorf("the walkthrough promises %s: %v", f, err)
		}
	}
}
