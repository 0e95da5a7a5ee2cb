package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"
	"simctl/sim/scenario"
)

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		``:                       nil,
		`  a  b `:                {"a", "b"},
		`--set 'x={a: 1, b: 2}'`: {"--set", "x={a: 1, b: 2}"},
		`--set "x=\"q\" y"`:      {"--set", `x="q" y`},
		`a\ b c`:                 {"a b", "c"},
		`''`:                     {""},
		`x='it'\''s'`:            {"x=it's"},
	} {
		got, err := app.SplitWords(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`'open`, `"open`} {
		if _, err := app.SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q) accepted", bad)
		}
	}
}

func TestParseOptionSpec(t *testing.T) {
	got, err := app.ParseSets(`--set heroes.Fighter.init=5 --set='heroes.Fighter.policy={name: delay, until: Orc}' max_rounds=3`)
	want := []scenario.Set{{Path: "heroes.Fighter.init", Value: "5"}, {Path: "heroes.Fighter.policy", Value: "{name: delay, until: Orc}"}, {Path: "max_rounds", Value: "3"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, %v", got, err)
	}
	for _, bad := range []string{`--set`, `-n 5`, `novalue`} {
		if _, err := app.ParseSets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

var vrColumn = regexp.MustCompile(`(?m)^  init\+4 .*<0\.0001\s+(\d+\.\d\d)\s`)

// TestCompare: every option's result is exactly `simctl run` with the same
// seed and its overrides, the difference is the difference of those win
// rates, and the table prints the variance reduction factor.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	res, png := filepath.Join(dir, "c.json"), filepath.Join(dir, "c.png")
	args := []string{"compare", "d20/duel", "--option", "base=", "--option", "init+4=--set heroes.Fighter.init=5",
		"--option", "delay=--set 'heroes.Fighter.policy={name: delay, until: Orc}'", "-n", "10000", "--seed", "3",
		"--results", res, "--plot", png}
	code, out, errOut := cli(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := vrColumn.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no VR for init+4 in:\n%s", out)
	}
	vr, _ := strconv.ParseFloat(m[1], 64)
	t.Logf("variance reduction of init+4 against base: %.2f", vr)
	if vr < 2 {
		t.Errorf("VR %.2f", vr)
	}
	for _, want := range []string{"VR: variance reduction", "Δ heroes", "action economy per encounter", "delays", "not adjusted for multiple"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "warning: 2 options") {
		t.Errorf("the warning is not on stderr: %q", errOut)
	}
	if b, _ := os.ReadFile(png); len(b) < 1000 {
		t.Errorf("no plot")
	}
	in, err := results.ReadInput(res)
	if err != nil {
		t.Fatal(err)
	}
	c := in.Compare
	if c.Baseline != "base" || len(c.Options) != 3 || c.Encounters != 10000 {
		t.Fatalf("%s %d %d", c.Baseline, len(c.Options), c.Encounters)
	}
	for k, o := range c.Options {
		words, err := app.SplitWords(o.Command)
		if err != nil || words[0] != "simctl" || words[1] != "run" {
			t.Fatalf("option %s: command %q", o.Name, o.Command)
		}
		code, out, errOut := cli(t, append(words[1:], "--json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", o.Command, code, errOut)
		}
		var r results.Result
		json.Unmarshal([]byte(out), &r)
		if !reflect.DeepEqual(r.Raw, o.Result.Raw) {
			t.Errorf("option %s differs from %s", o.Name, o.Command)
		}
		if k > 0 {
			d := float64(o.Result.Raw.Wins[0]-c.Options[0].Result.Raw.Wins[0]) / 10000
			if diff := o.Diff[0].Diff - d; diff > 1e-12 || diff < -1e-12 {
				t.Errorf("option %s: Δ %v, win rates differ by %v", o.Name, o.Diff[0].Diff, d)
			}
		}
	}
}

func TestCompareFile(t *testing.T) {
	file := tempFile(t, "c.yaml", `scenario: d20/duel
baseline: init+4
options:
  - name: base
  - name: init+4
    set: [heroes.Fighter.init=5]
  - name: tough
    set: {monsters.Orc.hp: 30, heroes.Fighter.policy: {name: delay, until: Orc}}
`)
	code, out, errOut := cli(t, "compare", "--compare", file, "-n", "2000", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "init+4,heroes.Fighter.init=5,2000,") ||
		!strings.HasPrefix(lines[3], `tough,"monsters.Orc.hp=30 heroes.Fighter.policy={name: delay, until: Orc}",2000,`) {
		t.Errorf("csv:\n%s", out)
	}
	code, out, _ = cli(t, "compare", "--compare", file, "-n", "500", "--format", "markdown", "--option", "fast=--set heroes.Fighter.speed=40")
	if code != 0 || !strings.Contains(out, "| fast |") || !strings.Contains(out, "4 options") {
		t.Errorf("a file and --option together: exit %d\n%s", code, out)
	}
}

func TestCompareErrors(t *testing.T) {
	bad := tempFile(t, "bad.yaml", "options:\n  - {name: a, sett: [x=1]}\n  - nope\nextra: 1\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare", "d20/duel", "--option", "a="}, exitUsage, "at least two"},
		{[]string{"compare", "d20/duel", "--option", "a=", "--option", "a=--set max_rounds=3"}, exitUsage, "given twice"},
		{[]string{"compare", "d20/duel", "--option", "a=", "--option", "b=", "--baseline", "c"}, exitUsage, "not an option"},
		{[]string{"compare", "d20/duel", "--option", "=x"}, exitUsage, "NAME="},
		{[]string{"compare", "d20/duel", "--option", "a=-n 5"}, exitUsage, "--set"},
		{[]string{"compare", "--option", "a=", "--option", "b="}, exitUsage, "give one SCENARIO"},
		{[]string{"compare", "d20/duel", "--compare", bad}, exitUsage, "bad.yaml:2:"},
		{[]string{"compare", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.hp=-3"}, exitScenario, "option b:"},
	} {
		code, out, errOut := cli(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, errOut, c.want)
		}
	}
	// Every problem of a compare file at once.
	_, _, errOut := cli(t, "compare", "d20/duel", "--compare", bad)
	if strings.Count(errOut, "bad.yaml:") != 3 {
		t.Errorf("compare file problems:\n%s", errOut)
	}
}
