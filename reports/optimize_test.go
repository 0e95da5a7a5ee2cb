package reports

import (
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
)

// TestOptimizeWithinDeltaWording: when the selection stopped "within
// delta" and the confirmation shows a candidate left beside the best
// ahead of it, the text says plainly that it may be up to δ better and
// names it with its interval; with another outcome no such line appears.
func TestOptimizeWithinDeltaWording(t *testing.T) {
	doc := func(outcome, status string) *results.Optimize {
		o := &results.Optimize{Side: "heroes"}
		o.Guarantee.Alpha, o.Guarantee.Delta = 0.05, 0.01
		o.Best.Name = "a"
		o.Search = &experiment.OptimizeResult{Outcome: outcome, Best: 0, Separated: outcome != experiment.OutcomeNotSeparated, Confirmed: []int{0, 1, 2, -1}, Ranked: []experiment.Ranked{
			{Point: 0, Name: "a", Status: "best", Confirmed: true, ConfirmRate: 0.60, ConfirmCI: [2]float64{0.58, 0.62}},
			{Point: 1, Name: "b", Status: status, Confirmed: true, ConfirmRate: 0.608, ConfirmCI: [2]float64{0.588, 0.628}, Diff: 0.008, DiffCI: [2]float64{0.002, 0.014}},
			{Point: 2, Name: "c", Status: status, Confirmed: true, ConfirmRate: 0.598, ConfirmCI: [2]float64{0.578, 0.618}, Diff: -0.002, DiffCI: [2]float64{-0.008, 0.004}},
		}}
		return o
	}
	var b strings.Builder
	if err := WriteOptimize(doc(experiment.OutcomeWithinDelta, experiment.StatusAtMostDelta), &b, Text, i18n.En); err != nil {
		t.Fatal(err)
	}
	// Issue 35 item 3: the status names its one-sided claim, and the
	// sentence says the candidates may be worse by any amount.
	for _, want := range []string{
		"at most δ better than the best: the selection stopped when each of the 2 other candidate(s) left was shown to be at most 1.00 pp better than the best (status \"at most δ better\"); that is all it claims of them: each may be up to 1.00 pp better than the best, or worse by any amount",
		"on the confirmation encounters these are ahead of the best: b by +0.80 pp [+0.20, +1.40] pp (an answer within 1.00 pp of the best either way)",
		"at most δ better (left when the selection stopped: shown to be at most delta better than the",
		"c          at most δ better",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "c by") {
		t.Errorf("c is not shown ahead of the best but is named:\n%s", b.String())
	}
	b.Reset()
	if err := WriteOptimize(doc(experiment.OutcomeNotSeparated, "not separated"), &b, Text, i18n.En); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "at most δ better than the best:") {
		t.Errorf("a not-separated search says within δ:\n%s", b.String())
	}
}

// TestOptimizeSaysWhichEncounters: the "as written" rate comes from the
// confirmation's fresh encounters, and the output names them (its first
// and last index, from the document) beside the indices simctl run plays,
// so the two figures are not taken for one.
func TestOptimizeSaysWhichEncounters(t *testing.T) {
	o := &results.Optimize{Side: "heroes"}
	o.Seed = 3
	o.Guarantee.Alpha, o.Guarantee.Delta = 0.05, 0.01
	o.Search = &experiment.OptimizeResult{Outcome: experiment.OutcomeSeparated, Confirmed: []int{0, -1},
		ConfirmStart: experiment.ConfirmBase, ConfirmN: 20000,
		Ranked: []experiment.Ranked{{Point: 0, Name: "a", Status: "best", Confirmed: true}}}
	var b strings.Builder
	if err := WriteOptimize(o, &b, Text, i18n.En); err != nil {
		t.Fatal(err)
	}
	want := "as written and the candidates confirmed played the same 20,000 fresh encounters, indices 2,199,023,255,552 to 2,199,023,275,551 of seed 3; `simctl run` plays indices 0 to N-1"
	if lines := strings.Split(b.String(), "\n"); len(lines) < 4 || !strings.HasPrefix(lines[3], want) {
		t.Errorf("the line after the answer should say which encounters it used (%q...):\n%s", want, b.String())
	}
}
