package d20_test

import (
	"context"
	"strings"
	"testing"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
)

// TestTournamentEliminatedIntervalsExact: issue 35 item 6. An option the
// tournament eliminates stopped playing when it looked bad, so its Wilson
// interval, one per option and not adjusted for the selection, carries no
// 95% promise (the audit measured 77% to 89% on close options; on the
// exact point-buy, where the eliminated are clearly worse, about 94%,
// logged here against the duel's dynamic program). Where they are
// printed, the column says they are unadjusted (before issue 35 it said
// "95% CI"); the simultaneous difference intervals beside them keep their
// level: over 30 seeds they cover every exact difference at once in at
// least 1−α of the runs.
func TestTournamentEliminatedIntervalsExact(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("30 tournaments: run without -short and -race")
	}
	_, points, games, _, exact := pointBuy(t)
	names := make([]string, len(points))
	for k, p := range points {
		names[k] = p.Name
	}
	const runs, alpha = 30, 0.05
	elim, covered, diffMiss := 0, 0, 0
	var last *experiment.Selection
	for seed := uint64(1); seed <= runs; seed++ {
		res, err := experiment.Select(context.Background(), games, names, 0, "heroes",
			experiment.SelectConfig{Seed: seed, Workers: 2, Params: experiment.SelectParams{Alpha: alpha, Delta: 0.01, First: 500, Batch: 500, Budget: 100_000}})
		if err != nil {
			t.Fatal(err)
		}
		last = res
		ref := res.Selected
		if ref < 0 {
			ref = res.Leader
		}
		miss := false
		for k, c := range res.Candidates {
			if c.Status == experiment.StatusEliminated {
				elim++
				if c.CI95[0] <= exact[k] && exact[k] <= c.CI95[1] {
					covered++
				}
			}
			if d := exact[k] - exact[ref]; k != ref && !(c.DiffCI[0] <= d && d <= c.DiffCI[1]) {
				miss = true
			}
		}
		diffMiss += b2i(miss)
	}
	cov := float64(covered) / float64(elim)
	t.Logf("%d runs: %d options eliminated, their Wilson intervals cover the exact rate in %.3f; the simultaneous differences missed in %d runs", runs, elim, cov, diffMiss)
	if elim < runs {
		t.Errorf("only %d options eliminated in %d runs: the test checks too little", elim, runs)
	}
	if float64(diffMiss) > alpha*runs {
		t.Errorf("the simultaneous difference intervals missed in %d of %d runs", diffMiss, runs)
	}
	// Where the intervals are printed, they are labelled.
	doc := &results.Tournament{Selection: *last}
	doc.Scenario, doc.Ruleset = "exact duel", "d20"
	for _, f := range []reports.Format{reports.Text, reports.Markdown} {
		var b strings.Builder
		if err := reports.WriteTournament(doc, &b, f, i18n.En); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "95% CI, unadjusted") {
			t.Errorf("format %v: the ranking's win-rate intervals are not labelled unadjusted:\n%s", f, b.String())
		}
	}
}
