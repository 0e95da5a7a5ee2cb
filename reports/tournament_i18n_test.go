package reports

import (
	"bytes"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
)

// tournamentAfter is a tournament of n candidates after the given stage
// sums, made by the selection's own Apply (so its outcome, statement and
// standings are experiment's).
func tournamentAfter(p experiment.SelectParams, n int, sums ...*experiment.StageSums) *results.Tournament {
	t := &results.Tournament{Header: results.Header{Kind: "tournament", Scenario: "Braced spears", File: "builtin:d20/tactics-combo.yaml", Ruleset: "d20", Seed: 3,
		Version: "0.1.0+test", Command: "simctl tournament d20/tactics-combo"}, Format: results.TournamentFormat}
	for i := 0; i < n; i++ {
		s := "heroes.Wizard.tactics.params.crowd=" + string(rune('1'+i))
		t.Options = append(t.Options, results.NamedSets{Name: s, Sets: []string{s}})
	}
	st, err := experiment.NewSelectState(n, p)
	if err != nil {
		panic(err)
	}
	for _, s := range sums {
		if err := st.Apply(s); err != nil {
			panic(err)
		}
	}
	t.Selection = *st.Result(t.Names(), "heroes")
	return t
}

// outcomeTournaments are tournaments that ended each way experiment.Select
// can end: the interrupted fixture (not finished), one that separated, one
// that ran out of budget.
func outcomeTournaments() []*results.Tournament {
	sep := tournamentAfter(experiment.SelectParams{First: 1000, Batch: 1000, Budget: 2000}, 2,
		&experiment.StageSums{Alive: []int{0, 1}, Ranges: []sim.Range{{Lo: 0, Hi: 1000}}, Wins: []int64{900, 100}, Only: [][2]int64{{800, 0}}})
	budget := tournamentAfter(experiment.SelectParams{First: 1000, Batch: 1000, Budget: 1000, Delta: 0.0001}, 2,
		&experiment.StageSums{Alive: []int{0, 1}, Ranges: []sim.Range{{Lo: 0, Hi: 1000}}, Wins: []int64{500, 498}, Only: [][2]int64{{30, 28}}})
	return []*results.Tournament{fixtureTournament(), sep, budget}
}

// TestTournamentStatementForms: every guarantee statement experiment
// writes is one simctl knows by key; its English text with the arguments
// read back is the statement itself, and Korean and Russian say it in
// their own words.
func TestTournamentStatementForms(t *testing.T) {
	seen := map[string]bool{}
	for _, tt := range outcomeTournaments() {
		seen[tt.Outcome] = true
		st := tt.Guarantee.Statement
		matched := false
		for _, f := range statementForms {
			if m := f.re.FindStringSubmatch(st); m != nil {
				matched = true
				args := make([]any, len(m)-1)
				for i, a := range m[1:] {
					args[i] = a
				}
				if got := i18n.En.T(f.key, args...); got != st {
					t.Errorf("%s does not say the statement again:\n got %q\nwant %q", f.key, got, st)
				}
			}
		}
		if !matched {
			t.Errorf("statement not known to the reports: %q", st)
		}
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			if got := statementLang(l, st); got == st {
				t.Errorf("%s: statement left in English: %q", l, st)
			}
		}
	}
	if len(seen) < 3 {
		t.Errorf("the fixtures end in %d ways, want 3: %v", len(seen), seen)
	}
}

// TestGoldenTournamentLang: the tournament section of simctl report in
// Korean and Russian against testdata/report-tournament.LANG.md, with no
// English sentence of the catalog left in it.
func TestGoldenTournamentLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		b := &Bundle{Section: shipped, Title: l.T("report.title.scenario", "Braced spears"), Lang: l, Version: "0.1.0+test",
			Command: "simctl report t.json -o out --lang " + string(l)}
		for i, tt := range outcomeTournaments() {
			b.Inputs = append(b.Inputs, &results.Input{Path: "t" + string(rune('1'+i)) + ".json", Tournament: tt})
		}
		secs := langSections(t, b)
		var md bytes.Buffer
		b.markdown(&md, secs)
		golden(t, "report-tournament."+string(l)+".md", md.Bytes())
		leftovers(t, l, md.String())
		if strings.Contains(md.String(), "with probability at least") {
			t.Errorf("%s: an English guarantee statement is left", l)
		}
	}
}
