package reports

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"simctl/reports/results"
	"simctl/sim/experiment"
)

// WriteOptimize renders the answer in format f.
func WriteOptimize(o *results.Optimize, w io.Writer, f Format) error {
	if f == JSON {
		return writeJSON(w, o)
	}
	if f == CSV {
		return optimizeCSVTable(o).csv(w)
	}
	md := f == Markdown
	var b strings.Builder
	if o.Oracle != nil {
		writeOptimizeOracle(o, &b, md)
	} else if s := o.Search; s != nil {
		fmt.Fprintf(&b, "%s (%s), seed %d: optimize %s over %d candidate(s)", o.Scenario, o.Ruleset, o.Seed, o.Side, s.Space.Candidates)
		var parts []string
		if s.Space.Excluded > 0 {
			parts = append(parts, fmt.Sprintf("%d excluded by --where", s.Space.Excluded))
		}
		if s.Space.Duplicates > 0 {
			parts = append(parts, fmt.Sprintf("%d duplicates", s.Space.Duplicates))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, " (%d combinations; %s)", s.Space.Combinations, strings.Join(parts, ", "))
		}
		b.WriteString("\n\n")
		fmt.Fprintf(&b, "%s: %s %s; best found: %s %s, %s %s, by: %s\n", baselineLabel(s.Baseline), pct(s.BaseRate), pctCI(s.BaseCI[0], s.BaseCI[1]),
			pct(o.Best.WinRate), pctCI(o.Best.CI95[0], o.Best.CI95[1]), signedPP(o.Best.Gain), ppCI(o.Best.GainCI[0], o.Best.GainCI[1]), o.Best.Name)
		fmt.Fprintf(&b, "guarantee: %s\nencounters: the selection %s (uniform allocation for the same decision: %s); %s in all with screening and confirmation\n\n", o.Guarantee.Statement, selectionSpent(s), thousands(o.Guarantee.Uniform), thousands(o.Guarantee.Encounters))
		if w := optimizeWithinDelta(o); w != "" {
			b.WriteString(w + "\n\n")
		}
		tab := optimizeTable(o)
		if md {
			tab.markdown(&b)
		} else {
			tab.text(&b)
		}
		b.WriteString("\n")
		if len(s.Exploits) > 0 {
			fmt.Fprintf(&b, "of the %d candidates confirmed, these beat %s by more than %s (confidence %s, simultaneous), biggest first:\n", len(s.Confirmed)-1, baselineLabel(s.Baseline), strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+"), strconv.FormatFloat(100*(1-o.Guarantee.Alpha), 'f', -1, 64)+"%")
			for _, e := range s.Exploits {
				fmt.Fprintf(&b, "  %s %s: %s\n", signedPP(e.Gain), ppCI(e.GainCI[0], e.GainCI[1]), e.Name)
			}
		} else {
			fmt.Fprintf(&b, "none of the %d candidates confirmed beats %s by more than %s with confidence %s\n", len(s.Confirmed)-1, baselineLabel(s.Baseline), strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+"), strconv.FormatFloat(100*(1-o.Guarantee.Alpha), 'f', -1, 64)+"%")
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if o.Oracle != nil {
		notes := []string{"each cell (a candidate of one side against one of the other) played the same encounters; the bounds use every cell's Wilson interval at the Bonferroni level alpha/(cells of the whole space), so they hold together for every cell ever estimated; candidates with no weight in either mix are not listed"}
		footnotes(w, notes, md)
		return nil
	}
	notes := []string{
		"status (of the selection): best (selected: within delta of the best evaluated, or shown better than all); within delta (left when the best was shown within delta of it: it may be up to delta better than the best, and no more, with the stated confidence); not separated (still in contention when the selection stopped, not shown worse; exact ties end here); eliminated (shown worse than another candidate, with the procedure's confidence); screened out (dropped while screening: no claim); encounters and win rate are the selection's (or screening's)",
		"confirmed: rates and intervals from fresh encounters played after the selection (the best, the top finalists and the baseline), so not bent by the selection; simultaneous at the stated confidence (Bonferroni over every rate and difference shown), differences by the confidence sequence of the discordant pairs",
	}
	if o.Interrupted {
		notes = append(notes, "interrupted: nothing here is a result; run again (or --resume)")
	}
	footnotes(w, notes, md)
	return nil
}

// optimizeWithinDelta says, when the selection stopped "within delta", that the
// candidates left beside the best may be better than it by up to delta,
// and which of them the confirmation shows ahead of it: without this
// line a confirmed "+0.8 pp [+0.2, +1.4]" beside "best" reads as a
// contradiction. Empty for any other outcome.
func optimizeWithinDelta(o *results.Optimize) string {
	s := o.Search
	if s == nil || s.Outcome != experiment.OutcomeWithinDelta {
		return ""
	}
	d := strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+")
	n := 0
	var ahead []string
	for _, r := range s.Ranked {
		if r.Status != "within delta" {
			continue
		}
		n++
		if r.Confirmed && r.DiffCI[0] > 0 {
			ahead = append(ahead, fmt.Sprintf("%s by %s %s", r.Name, signedPP(r.Diff), ppCI(r.DiffCI[0], r.DiffCI[1])))
		}
	}
	out := fmt.Sprintf("within δ of the best: the selection stopped when the best was shown within %s of the %d other candidate(s) left (status \"within delta\"); any of them may be up to %s better than the best, which is all the guarantee promises", d, n, d)
	if len(ahead) > 0 {
		out += fmt.Sprintf("; on the confirmation encounters these are ahead of the best: %s (an answer within %s of the best either way)", strings.Join(ahead, "; "), d)
	}
	return out
}

func baselineLabel(name string) string {
	if name == "" {
		return "as written"
	}
	return name
}

func optimizeTable(o *results.Optimize) *table {
	tab := &table{header: []string{"rank", "candidate", "status", "encounters", "win rate", "confirmed", "interval", "vs best", "interval"}, left: 3}
	if o.Search == nil {
		return tab
	}
	shown := 0
	for i, r := range o.Search.Ranked {
		if shown >= 15 && !r.Confirmed { // the confirmed all, then the first 15
			continue
		}
		shown++
		conf, ci, diff, dci := "", "", "", ""
		if r.Confirmed {
			conf, ci = pct(r.ConfirmRate), pctCI(r.ConfirmCI[0], r.ConfirmCI[1])
			if r.Status != "best" {
				diff, dci = signedPP(r.Diff), ppCI(r.DiffCI[0], r.DiffCI[1])
			} else {
				diff = "best"
			}
		}
		tab.add(strconv.Itoa(i+1), r.Name, r.Status, thousands(r.Encounters), pct(r.WinRate), conf, ci, diff, dci)
	}
	return tab
}

// optimizeCSVTable is every ranked candidate with raw numbers, each interval as
// its two ends (the simultaneous intervals of the confirmation; empty when
// the candidate was not confirmed, and the difference to the best empty
// for the best itself).
func optimizeCSVTable(o *results.Optimize) *table {
	tab := &table{header: []string{"rank", "candidate", "status", "encounters", "wins", "win_rate",
		"confirmed_win_rate", "confirmed_ci_lo", "confirmed_ci_hi", "diff_to_best", "diff_ci_lo", "diff_ci_hi",
		"gain_over_baseline", "gain_ci_lo", "gain_ci_hi"}}
	if o.Search == nil {
		return tab
	}
	for i, r := range o.Search.Ranked {
		row := []string{strconv.Itoa(i + 1), r.Name, r.Status, rawInt(r.Encounters), rawInt(r.Wins), raw(r.WinRate)}
		conf := make([]string, 9)
		if r.Confirmed {
			conf[0], conf[1], conf[2] = raw(r.ConfirmRate), raw(r.ConfirmCI[0]), raw(r.ConfirmCI[1])
			if r.Point != o.Search.Best {
				conf[3], conf[4], conf[5] = raw(r.Diff), raw(r.DiffCI[0]), raw(r.DiffCI[1])
			}
			conf[6], conf[7], conf[8] = raw(r.Gain), raw(r.GainCI[0]), raw(r.GainCI[1])
		}
		tab.add(append(row, conf...)...)
	}
	return tab
}

func writeOptimizeOracle(o *results.Optimize, b *strings.Builder, md bool) {
	or := o.Oracle
	fmt.Fprintf(b, "%s (%s), seed %d: double oracle, %s against %s (%d cells of %s encounters, %d iteration(s))\n\n", o.Scenario, o.Ruleset, o.Seed, or.RowSide, or.ColSide, or.Cells, thousands(or.Encounters/int64(max(or.Cells, 1))), len(or.Steps))
	state := "converged: neither side's best response beats the equilibrium by more than " + strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+")
	if !or.Converged {
		state = "NOT converged within the iterations allowed"
	}
	fmt.Fprintf(b, "%s\nvalue (%s's win rate): %s, bounds %s (confidence %s, simultaneous over every cell); exploitability at most %s\n\n",
		state, or.RowSide, pct(or.Value), pctCI(or.ValueBounds[0], or.ValueBounds[1]), strconv.FormatFloat(100*(1-o.Guarantee.Alpha), 'f', -1, 64)+"%", strings.TrimPrefix(signedPP(or.Exploitability), "+"))
	for _, side := range []struct {
		name string
		mix  []results.MixOf
	}{{or.RowSide, or.RowMix}, {or.ColSide, or.ColMix}} {
		tab := &table{header: []string{side.name + " mix", "weight"}, left: 1}
		mix := append([]results.MixOf(nil), side.mix...)
		sort.SliceStable(mix, func(a, c int) bool { return mix[a].Weight > mix[c].Weight })
		for _, m := range mix {
			if m.Weight > 1e-9 {
				tab.add(m.Name, pct(m.Weight))
			}
		}
		if md {
			tab.markdown(b)
		} else {
			tab.text(b)
		}
		b.WriteString("\n")
	}
}
