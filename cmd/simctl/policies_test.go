package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

func TestPolicies(t *testing.T) {
	var out, errb strings.Builder
	if code := Main(context.Background(), []string{"policies", "d20"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"  delay\n", "  ready\n", "self.hp_pct", `ally("NAME").acted`, "delay until NAME"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("simctl policies d20 lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := Main(context.Background(), []string{"policies", "show", "d20/ready"}, &out, &errb); code != exitOK || !strings.Contains(out.String(), "do: ready attack on $trigger") {
		t.Errorf("policies show d20/ready: exit %d\n%s", code, out.String())
	}
	errb.Reset()
	if code := Main(context.Background(), []string{"policies", "show", "d20/wait"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), `no library tactic "wait" for d20; library: charge, counterspell, default, delay, ready`) {
		t.Errorf("policies show d20/wait: exit %d: %s", code, errb.String())
	}
}

// A bad condition fails the run with exit 3 and the caret message; a
// built-in run with tactics writes its rule counts into the JSON result.
func TestRunTactics(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(`ruleset: d20
sides:
  - name: a
    combatants:
      - {name: F, hp: 10, ac: 10, attacks: [1], damage: 1, tactics: {turn: [{when: self.hp_pct < $low, do: attack}]}}
  - name: b
    combatants:
      - {name: G, hp: 10, ac: 10, attacks: [1], damage: 1, tactics: {turn: [{do: attack}, {do: charge}]}}
`), 0o644)
	var out, errb strings.Builder
	code := Main(context.Background(), []string{"run", bad, "-n", "10"}, &out, &errb)
	want := bad + ":5:98: sides[0].combatants[0].tactics.turn[0].when: unknown parameter $low: this block has no params: (declare it, e.g. params: {low: 0.5})\n    self.hp_pct < $low\n                  ^"
	if code != exitScenario || !strings.Contains(errb.String(), want) {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, errb.String(), want)
	}
	out.Reset()
	errb.Reset()
	code = Main(context.Background(), []string{"run", "d20/tactics-combo", "-n", "200", "--json"}, &out, &errb)
	if code != exitOK || !strings.Contains(out.String(), `"tactics_rules"`) || !strings.Contains(out.String(), `"rule": "set spear"`) {
		t.Errorf("exit %d, json lacks tactics_rules: %s", code, errb.String())
	}
}

// A sweep over a tactics parameter and a compare of whole tactics blocks
// run from the CLI, and the report shows them; a run's report has the
// rule counts.
func TestSweepAndCompareTactics(t *testing.T) {
	dir := t.TempDir()
	sw, cmp := filepath.Join(dir, "sweep.json"), filepath.Join(dir, "compare.json")
	code, out, errOut := cli(t, "sweep", "d20/tactics-combo", "--vary", "heroes.Wizard.tactics.params.crowd=1:4:3", "-n", "3000", "--results", sw)
	if code != 0 || !strings.Contains(out, "heroes.Wizard.tactics.params.crowd") {
		t.Fatalf("sweep: exit %d: %s\n%s", code, errOut, out)
	}
	code, out, errOut = cli(t, "compare", "d20/tactics-combo", "-n", "3000", "--results", cmp,
		"--option", "as-written=",
		"--option", "spear-always=--set 'heroes.Pikeman.tactics={use: ready, params: {trigger: charge, always: 1}}'")
	if code != 0 || !strings.Contains(out, "spear-always") {
		t.Fatalf("compare: exit %d: %s\n%s", code, errOut, out)
	}
	run := filepath.Join(dir, "run.json")
	if code, _, errOut = cli(t, "run", "d20/tactics-combo", "-n", "1000", "--json", "-o", run); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	rep := filepath.Join(dir, "rep")
	if code, _, errOut = cli(t, "report", sw, cmp, run, "-o", rep); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	md, err := os.ReadFile(filepath.Join(rep, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sweep of heroes.Wizard.tactics.params.crowd", "heroes.Pikeman.tactics={use: ready, params: {trigger: charge, always: 1}}",
		"Tactics: how often each rule decided", "| Pikeman | turn | set spear | fired |",
		"Option spear-always: Tactics: how often each rule decided"} { // each compared option's rule counts
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestRulesPoliciesLang: simctl rules and policies speak --lang, else the
// locale's language, and refuse an unknown one.
func TestRulesPoliciesLang(t *testing.T) {
	for _, args := range [][]string{{"rules", "d20"}, {"policies"}, {"policies", "d20"}} {
		code, out, stderr := simctl(t, context.Background(), append(args, "--lang", "ko")...)
		if code != exitOK || !strings.Contains(out, i18n.Ko.T("policies.footer")) && !strings.Contains(out, i18n.Ko.T("rules.d20.title")) {
			t.Errorf("simctl %v --lang ko: exit %d, not Korean:\n%.300s%s", args, code, out, stderr)
		}
		code, _, stderr = simctl(t, context.Background(), append(args, "--lang", "fr")...)
		if code != exitUsage || !strings.Contains(stderr, "--lang") {
			t.Errorf("simctl %v --lang fr: exit %d, %s", args, code, stderr)
		}
	}
	t.Setenv("LC_ALL", "ko_KR.UTF-8")
	if _, out, _ := simctl(t, context.Background(), "rules", "d20"); !strings.Contains(out, i18n.Ko.T("rules.d20.title")) {
		t.Errorf("LC_ALL=ko_KR.UTF-8 simctl rules d20 is not Korean:\n%.300s", out)
	}
	if _, out, _ := simctl(t, context.Background(), "rules", "d20", "--lang", "en"); !strings.Contains(out, i18n.En.T("rules.d20.title")) {
		t.Errorf("--lang en does not win over LC_ALL:\n%.300s", out)
	}
}
