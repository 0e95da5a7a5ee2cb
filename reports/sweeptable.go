package reports

import (
	"fmt"
	"io"
	"simctl/reports/i18n"
	"strings"

	"simctl/reports/results"
)

// WriteSweep renders the sweep in format f: one row per point.
//
// It writes the text table's own words in l (JSON,
// CSV and Markdown stay English; the numbers keep the point in every
// language).
func WriteSweep(s *results.Sweep, w io.Writer, f Format, l i18n.Lang) error {
	switch f {
	case JSON:
		return writeJSON(w, s)
	case CSV:
		return sweepCSVTable(s).csv(w)
	}
	var b strings.Builder
	md := f == Markdown
	if md {
		fmt.Fprintf(&b, "**%s** (%s), seed %d: sweep of %s, %s, %s encounters\n\n",
			s.Scenario, s.Ruleset, s.Seed, sweepAxisNames(s), plural(len(s.Points), "point"), thousands(s.Encounters))
		l = i18n.En
	} else {
		b.WriteString(l.T("sweep.text.head", s.Scenario, s.Ruleset, s.Seed, sweepAxisNames(s), l.N("sweep.text.points", int64(len(s.Points))), thousands(s.Encounters)) + "\n\n")
	}
	t := sweepDisplayTable(s, l)
	if md {
		t.markdown(&b)
	} else {
		t.text(&b, l)
	}
	footnotes(&b, sweepNotes(s, l), md)
	_, err := io.WriteString(w, readable(l, b.String()))
	return err
}

func sweepAxisNames(s *results.Sweep) string {
	var names []string
	for _, a := range s.Axes {
		names = append(names, a.Path)
	}
	return strings.Join(names, " × ")
}

func sweepNotes(s *results.Sweep, l i18n.Lang) []string {
	var notes []string
	notes = append(notes, l.T("sweep.note.crn", s.Seed, method(l, intervalWilson)))
	if s.Precision > 0 {
		notes = append(notes, l.T("sweep.note.precision", l.Int(s.Batch), pp(s.Precision), l.Int(s.MaxN)))
	}
	for _, w := range warningsLang(l, s.Warnings, s.WarningsMsg) {
		notes = append(notes, l.T("warning")+" "+w)
	}
	return notes
}

func sweepDisplayTable(s *results.Sweep, l i18n.Lang) *table {
	t := &table{left: len(s.Axes)}
	for _, a := range s.Axes {
		t.header = append(t.header, a.Path)
	}
	ci := l.T("col.ci95")
	t.header = append(t.header, l.T("fact.encounters"),
		l.T("col.side_win", s.Sides[0]), ci, l.T("col.side_win", s.Sides[1]), ci, l.T("col.draws"), l.T("col.rounds"))
	for _, p := range s.Points {
		r := p.Result
		if p.Unfinished {
			// No estimate for a point the interruption cut short.
			row := append(append([]string(nil), p.Values...), l.T("sweep.unfinished"))
			for len(row) < len(t.header) {
				row = append(row, "-")
			}
			t.add(row...)
			continue
		}
		n := thousands(r.Encounters)
		if s.Precision > 0 && !p.Reached {
			n += "*"
		}
		row := append(append([]string(nil), p.Values...), n)
		for k := 0; k < 2; k++ {
			sd := r.Sides[k]
			row = append(row, pct(sd.WinRate), pctCI(sd.WinCI95[0], sd.WinCI95[1]))
		}
		row = append(row, pct(r.DrawRate), fmt.Sprintf("%.2f", r.Rounds.Mean))
		t.add(row...)
	}
	return t
}

func sweepCSVTable(s *results.Sweep) *table {
	t := &table{}
	for _, a := range s.Axes {
		t.header = append(t.header, a.Path)
	}
	t.header = append(t.header, "encounters", "precision_reached")
	for k := 0; k < 2; k++ {
		n := s.Sides[k]
		t.header = append(t.header, n+"_wins", n+"_win_rate", n+"_ci95_lo", n+"_ci95_hi")
	}
	t.header = append(t.header, "draws", "rounds_mean")
	for _, p := range s.Points {
		r := p.Result
		if p.Unfinished {
			// Empty cells: a tool reading the CSV sees no estimate.
			row := append(append([]string(nil), p.Values...), "", "unfinished")
			for len(row) < len(t.header) {
				row = append(row, "")
			}
			t.add(row...)
			continue
		}
		row := append(append([]string(nil), p.Values...), rawInt(r.Encounters), fmt.Sprint(p.Reached))
		for k := 0; k < 2; k++ {
			sd := r.Sides[k]
			row = append(row, rawInt(sd.Wins), raw(sd.WinRate), raw(sd.WinCI95[0]), raw(sd.WinCI95[1]))
		}
		row = append(row, rawInt(r.Draws), raw(r.Rounds.Mean))
		t.add(row...)
	}
	return t
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
