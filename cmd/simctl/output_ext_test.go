package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpperCaseExtension: the output format follows -o's extension in any
// case: -o x.JSON writes JSON (a resumable one, for an interrupted run),
// -o x.CSV a CSV table, and --results r.JSON is accepted.
func TestUpperCaseExtension(t *testing.T) {
	oneGoroutineUnderRace(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		file string
		json bool
	}{
		{[]string{"run", "d20/duel", "-n", "300", "-o"}, "run.JSON", true},
		{[]string{"run", "d20/duel", "-n", "300", "-o"}, "run.Json", true},
		{[]string{"compare", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.init=4", "-n", "300", "-o"}, "cmp.JSON", true},
		{[]string{"run", "d20/duel", "-n", "300", "-o"}, "run.CSV", false},
		{[]string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "200", "--format", "csv", "--results"}, "sweep.JSON", true},
	} {
		p := filepath.Join(dir, c.file)
		if code, _, errOut := cli(t, append(c.args, p)...); code != exitOK {
			t.Errorf("%v %s: exit %d, %s", c.args, c.file, code, errOut)
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if isJSON := json.Valid(data); isJSON != c.json {
			t.Errorf("%s: JSON %v, want %v: %.200s", c.file, isJSON, c.json, data)
		}
	}
	// An interrupted run to x.JSON saves what it left, and resumes.
	p := filepath.Join(dir, "part.JSON")
	args := []string{"run", "d20/duel", "-n", "400000", "--seed", "3", "--workers", "1", "-o", p}
	code, _, errOut := interruptAfter(t, 5000, args...)
	if code != exitInterrupted || !strings.Contains(errOut, "--resume "+p) {
		t.Fatalf("interrupted: exit %d, %s", code, errOut)
	}
	if code, _, errOut := cli(t, append(args, "--resume", p)...); code != exitOK {
		t.Errorf("resume from %s: exit %d, %s", p, code, errOut)
	}
}
