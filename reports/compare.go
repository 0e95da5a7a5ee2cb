package reports

import (
	"fmt"
	"io"
	"simctl/reports/i18n"
	"strings"

	"simctl/reports/results"
)

// WriteCompare renders the comparison in format f: the win-rate table with the
// paired differences, then the action-economy deltas.
//
// It writes the text table's own words in l (JSON, CSV and
// Markdown stay English; the numbers keep the point in every language).
func WriteCompare(c *results.Compare, w io.Writer, f Format, l i18n.Lang) error {
	switch f {
	case JSON:
		return writeJSON(w, c)
	case CSV:
		return compareCSVTable(c).csv(w)
	}
	md := f == Markdown
	if md {
		l = i18n.En
	}
	var b strings.Builder
	if md {
		fmt.Fprintf(&b, "**%s** (%s), seed %d: %d options, %s encounters each (the same for every option)\n\n",
			c.Scenario, c.Ruleset, c.Seed, len(c.Options), thousands(c.Encounters))
	} else {
		b.WriteString(l.T("compare.text.head", c.Scenario, c.Ruleset, c.Seed, len(c.Options), thousands(c.Encounters)) + "\n")
	}
	// The answer first: each option's verdict, then the tables behind it.
	if a := compareAnswer(c, l); a != "" {
		if md {
			b.WriteString("**Answer:** " + a + "\n")
		} else {
			b.WriteString(wrapText(l.T("answer.text", a), 100, "  ") + "\n")
		}
	}
	b.WriteString("\n")
	// Two narrow tables rather than displayTable's one: a terminal table
	// stays within 100 columns (the report's HTML keeps the single one).
	t, d, e := compareWinTable(c, l), compareDiffTable(c, l), compareEconomyTable(c, l)
	if md {
		t.markdown(&b)
		fmt.Fprintf(&b, "\nPaired differences to the baseline, %s.\n\n", c.Baseline)
		d.markdown(&b)
	} else {
		t.text(&b, l)
		b.WriteString("\n" + l.T("compare.text.diffs", c.Baseline) + "\n\n")
		d.text(&b, l)
	}
	if len(e.rows) > 0 {
		if md {
			b.WriteString("\nAction economy, per encounter: the baseline's mean and each option's change.\n\n")
			e.markdown(&b)
		} else {
			b.WriteString("\n" + l.T("compare.text.economy") + "\n\n")
			e.text(&b, l)
		}
	}
	footnotes(&b, compareNotes(c, l), md)
	_, err := io.WriteString(w, readable(l, b.String()))
	return err
}

func compareNotes(c *results.Compare, l i18n.Lang) []string {
	s0 := c.Sides[0]
	notes := []string{}
	if compareAnswer(c, l) != "" {
		notes = append(notes, l.T("answer.size.rule", proseG(l, "%g", 100*ClearPP)))
	}
	notes = append(notes,
		l.T("compare.note.crn", c.Seed),
		l.T("compare.note.delta", s0, s0, c.Baseline, method(l, intervalWilson)),
		l.T("compare.note.vr"),
	)
	for _, o := range c.Options[1:] {
		if o.EconomyDeltaCI95 != nil {
			notes = append(notes, l.T("compare.note.economy"))
			break
		}
	}
	for _, w := range warningsLang(l, c.Warnings, c.WarningsMsg) {
		notes = append(notes, l.T("warning")+" "+w)
	}
	return notes
}

// compareWinTable is each option's own win rates, draws and rounds.
func compareWinTable(c *results.Compare, l i18n.Lang) *table {
	s0, s1 := c.Sides[0], c.Sides[1]
	ci := l.T("col.ci95")
	t := &table{left: 1, header: []string{l.T("col.option"), l.T("col.side_win", s0), ci, l.T("col.side_win", s1), ci, l.T("col.draws"), l.T("col.rounds")}}
	for _, o := range c.Options {
		r := o.Result
		t.add(o.Name, pct(r.Sides[0].WinRate), pctCI(r.Sides[0].WinCI95[0], r.Sides[0].WinCI95[1]),
			pct(r.Sides[1].WinRate), pctCI(r.Sides[1].WinCI95[0], r.Sides[1].WinCI95[1]), pct(r.DrawRate), fmt.Sprintf("%.2f", r.Rounds.Mean))
	}
	return t
}

// compareDiffTable is each option's --set and its paired difference to the
// baseline.
func compareDiffTable(c *results.Compare, l i18n.Lang) *table {
	s0 := c.Sides[0]
	t := &table{left: 2, header: []string{l.T("col.option"), "--set", "Δ " + s0, l.T("col.ci95.paired"), "p", "VR"}}
	for k, o := range c.Options {
		sets := strings.Join(o.Sets, " ")
		if sets == "" {
			sets = l.T("col.none")
		}
		if k == 0 {
			t.add(o.Name, sets, l.T("fact.baseline"), "", "", "")
			continue
		}
		d := o.Diff[0]
		t.add(o.Name, sets, signedPP(d.Diff), ppCI(float64(d.CI95[0]), float64(d.CI95[1])), pvalue(float64(d.PValue)), factor(float64(d.VarianceReduction)))
	}
	return t
}

// compareEconomyTable has a row per side and counter that some option used: the
// baseline's mean per encounter and each option's difference, with its
// paired 95% interval when the document has the cross sums.
func compareEconomyTable(c *results.Compare, l i18n.Lang) *table {
	t := &table{left: 2, header: []string{l.T("col.counter"), l.T("col.side"), c.Baseline}}
	for _, o := range c.Options[1:] {
		t.header = append(t.header, "Δ "+o.Name)
		if o.EconomyDeltaCI95 != nil {
			t.header = append(t.header, l.T("col.ci95.paired"))
		}
	}
	base := c.Options[0].Result
	for _, name := range base.Raw.Counters {
		for s := 0; s < 2; s++ {
			side := c.Sides[s]
			if !c.CounterUsed(side, name) {
				continue
			}
			row := []string{keyed(l, "counter", name), side, fmt.Sprintf("%.3f", base.PerEncounter[side][name])}
			for _, o := range c.Options[1:] {
				row = append(row, fmt.Sprintf("%+.3f", o.EconomyDelta[side][name]))
				if o.EconomyDeltaCI95 != nil {
					if ci, ok := o.EconomyDeltaCI95[side][name]; ok {
						row = append(row, fmt.Sprintf("[%+.3f, %+.3f]", ci[0], ci[1]))
					} else {
						row = append(row, "—") // few differ: see the warning
					}
				}
			}
			t.add(row...)
		}
	}
	return t
}

func compareCSVTable(c *results.Compare) *table {
	t := &table{header: []string{"option", "sets", "encounters"}}
	for k := 0; k < 2; k++ {
		n := c.Sides[k]
		t.header = append(t.header, n+"_wins", n+"_win_rate", n+"_ci95_lo", n+"_ci95_hi")
	}
	t.header = append(t.header, "draws", "rounds_mean")
	for k := 0; k < 2; k++ {
		n := c.Sides[k]
		t.header = append(t.header, n+"_diff", n+"_diff_ci95_lo", n+"_diff_ci95_hi", n+"_diff_p", n+"_diff_se", n+"_diff_independent_se", n+"_variance_reduction")
	}
	for _, o := range c.Options {
		r := o.Result
		row := []string{o.Name, strings.Join(o.Sets, " "), rawInt(r.Encounters)}
		for k := 0; k < 2; k++ {
			sd := r.Sides[k]
			row = append(row, rawInt(sd.Wins), raw(sd.WinRate), raw(sd.WinCI95[0]), raw(sd.WinCI95[1]))
		}
		row = append(row, rawInt(r.Draws), raw(r.Rounds.Mean))
		for k := 0; k < 2; k++ {
			if o.Diff == nil {
				row = append(row, "", "", "", "", "", "", "")
				continue
			}
			d := o.Diff[k]
			row = append(row, raw(d.Diff), raw(float64(d.CI95[0])), raw(float64(d.CI95[1])), raw(float64(d.PValue)),
				raw(float64(d.SE)), raw(float64(d.IndependentSE)), raw(float64(d.VarianceReduction)))
		}
		t.add(row...)
	}
	return t
}
