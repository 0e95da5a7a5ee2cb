package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
