package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/experiment"
)

// A mistyped built-in names the one meant instead of listing them all.
func TestBuiltinDidYouMean(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"run", "d20/dual", "-n", "10"}, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), `did you mean "d20/duel"?`) || strings.Contains(errb.String(), "acks2/duel") {
		t.Errorf("exit %d, stderr %q; want exit 2 suggesting d20/duel only", code, errb.String())
	}
}

// Every format a command's help lists is one it writes.
func TestHelpListsWorkingFormats(t *testing.T) {
	for _, f := range helps["find"].formats {
		var out, errb bytes.Buffer
		code := Main(context.Background(), []string{"find", "d20/duel", "-n", "50", "--where", "rounds >= 1", "--format", f}, &out, &errb)
		if code != exitOK {
			t.Errorf("find --format %s: exit %d: %s", f, code, errb.String())
		}
	}
	var out bytes.Buffer
	Main(context.Background(), []string{"help", "find"}, &out, &out)
	if strings.Contains(out.String(), "csv") || strings.Contains(out.String(), "markdown") {
		t.Errorf("help find offers formats find refuses:\n%s", out.String())
	}
}

// Every starter mentions tactics, names no common field its ruleset
// refuses (each one it names compiles when set), and runs.
func TestStartersNameOnlyAcceptedFields(t *testing.T) {
	for _, r := range rulesets.Names() {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), []string{"init", r, "-o", "-"}, &out, &errb); code != exitOK {
			t.Fatalf("init %s: exit %d: %s", r, code, errb.String())
		}
		text := out.String()
		if !strings.Contains(text, "# tactics:") || !strings.Contains(text, "simctl policies "+r) {
			t.Errorf("the %s starter does not mention tactics:", r)
		}
		head, _, _ := strings.Cut(text, "\n#\n# tactics:")
		_, fields, _ := strings.Cut(head, "Every combatant")
		if r == "cavaliers" && (strings.Contains(fields, " ac,") || strings.Contains(fields, " init,")) {
			t.Errorf("the cavaliers starter names ac or init, which cavaliers refuses:%s", fields)
		}
		if r == "d20" && !strings.Contains(fields, " ac,") {
			t.Errorf("the d20 starter leaves out ac:%s", fields)
		}
	}
}

// simctl scenarios fits 100 columns; the full description is in show.
func TestScenariosListFits100Columns(t *testing.T) {
	var out bytes.Buffer
	if code := Main(context.Background(), []string{"scenarios"}, &out, &out); code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("%d columns: %s", n, l)
		}
	}
	if !strings.Contains(out.String(), "d20/duel ") {
		t.Errorf("the list lacks d20/duel:\n%s", out.String())
	}
}

// run --plot draws the figure --figure names, the same drawing as the
// report's figure of that run's JSON.
func TestRunPlot(t *testing.T) {
	dir := t.TempDir()
	png, js := dir+"/economy.png", dir+"/run.json"
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"run", "d20/duel", "-n", "2000", "--plot", png, "--figure", "economy", "--json", "-o", js}, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	r, err := results.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	f, err := reports.EconomyFigure(i18n.En, r)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := f.PNG(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("run --plot --figure economy differs from EconomyFigure of the run's own JSON")
	}
	errb.Reset()
	if code := Main(context.Background(), []string{"run", "d20/duel", "--plot", png, "--figure", "pie"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "valid: rounds") {
		t.Errorf("--figure pie: exit %d, %s", code, errb.String())
	}
}

// find --where rule("NAME").fired counts what each encounter's own replay
// counted for that rule, summed over every combatant and moment.
func TestFindRuleFired(t *testing.T) {
	sc, g, err := load(context.Background(), "d20/tactics-combo", nil)
	if err != nil {
		t.Fatal(err)
	}
	rg := g.(sim.RuleGame)
	const n = 300
	for _, c := range []struct {
		rule, event, cond string
		atLeast           int64
	}{
		{"focus", "fired", `rule("focus").fired > 0`, 1},
		{"charge", "fell", `rule("charge").fell >= 2`, 2},
	} {
		want := []int64{}
		for i := int64(0); i < n; i++ {
			_, tally := sim.Replay(g, 1, i, nil)
			got := int64(0)
			for k, rc := range rg.RuleCounters() {
				if rc.Rule == c.rule && (rc.Event == "fired") == (c.event == "fired") {
					got += tally.Counts.Rules[k]
				}
			}
			if got >= c.atLeast {
				want = append(want, i)
			}
		}
		probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
		cond, err := probe.Condition(c.cond)
		if err != nil {
			t.Fatal(err)
		}
		res, err := experiment.Find(context.Background(), probe, cond, sim.RunConfig{Seed: 1, N: n, Workers: 2}, n)
		if err != nil {
			t.Fatal(err)
		}
		if res.Matches != int64(len(want)) || fmt.Sprint(res.First) != fmt.Sprint(want) || len(want) == 0 || len(want) == n {
			t.Errorf("%s: find matched %d %v; the replays %d %v (and neither none nor all)", c.cond, res.Matches, res.First, len(want), want)
		}
	}
}
