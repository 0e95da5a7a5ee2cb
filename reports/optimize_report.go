package reports

import (
	"fmt"
	"math"
	"simctl/reports/i18n"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/reports/results"
	"simctl/sim/experiment"
)

// The report section of `simctl optimize`: the answer and its guarantee,
// the ranking, the incumbent's win rate against encounters spent, the
// landscape over one or two numeric --vary paths, and the best
// candidate's median fight (replayed by the caller into Input.Traces).

func (b *Bundle) optimizeSection(s *section, k int, o *results.Optimize, prefix string) {
	s.facts = docFacts(b.Lang, &o.Header, intervalWilson+" (win rates, simultaneous); confidence sequences of the discordant pairs (differences)")
	docCommand(s, &o.Header, nil)
	s.notes = append(s.notes, statusNotes(&o.Header, "optimize")...)
	s.scenario = ctxYAML(o.Context)
	if o.Oracle != nil {
		or := o.Oracle
		s.title = fmt.Sprintf("%d. %s: double oracle, %s against %s", k, o.Scenario, or.RowSide, or.ColSide)
		s.facts = append(s.facts, [2]string{"value", fmt.Sprintf("%s (%s's win rate), bounds %s", pct(or.Value), or.RowSide, pctCI(or.ValueBounds[0], or.ValueBounds[1]))},
			[2]string{"exploitability", "at most " + strings.TrimPrefix(signedPP(or.Exploitability), "+")},
			[2]string{"guarantee", o.Guarantee.Statement})
		for _, side := range []struct {
			name string
			mix  []results.MixOf
		}{{or.RowSide, or.RowMix}, {or.ColSide, or.ColMix}} {
			t := &table{left: 1, header: []string{"candidate", "weight"}}
			for _, m := range side.mix {
				t.add(m.Name, pct(m.Weight))
			}
			s.tables = append(s.tables, titled{title: side.name + "'s equilibrium mix", t: t})
		}
		steps := &table{left: 0, header: []string{"iteration", "value", "row best response gain", "column best response gain", "cells"}}
		for i, st := range or.Steps {
			steps.add(strconv.Itoa(i+1), pct(st.Value), signedPP(st.RowGain), signedPP(st.ColGain), strconv.Itoa(st.Cells))
		}
		s.tables = append(s.tables, titled{title: "Iterations", t: steps})
		return
	}
	r := o.Search
	if r == nil {
		return
	}
	s.title = fmt.Sprintf("%d. %s: optimize %s over %d candidates", k, o.Scenario, o.Side, r.Space.Candidates)
	s.facts = append(s.facts,
		[2]string{"side", o.Side},
		[2]string{"best found", fmt.Sprintf("%s %s, %s against %s (%s), by: %s", pct(o.Best.WinRate), pctCI(o.Best.CI95[0], o.Best.CI95[1]), signedPP(o.Best.Gain), baselineLabel(r.Baseline), pct(r.BaseRate), o.Best.Name)},
		[2]string{"guarantee", o.Guarantee.Statement},
		[2]string{"encounters", fmt.Sprintf("%s in all; the selection alone %s where uniform allocation would need %s", thousands(r.Encounters), selectionSpent(r), thousands(r.Uniform))})
	if o.Interrupted {
		s.notes = append(s.notes, "Interrupted: the standing below is not a result.")
	}
	tab := optimizeTable(o)
	s.tables = append(s.tables, titled{title: "Candidates", t: tab, notes: []string{
		"Confirmed rates and differences come from fresh encounters played after the selection, with simultaneous intervals."}})
	if len(r.Exploits) > 0 {
		t := &table{left: 1, header: []string{"candidate", "win rate", "gain over " + baselineLabel(r.Baseline), "interval"}}
		for _, e := range r.Exploits {
			t.add(e.Name, pct(e.WinRate), signedPP(e.Gain), ppCI(e.GainCI[0], e.GainCI[1]))
		}
		s.tables = append(s.tables, titled{title: "Candidates that beat " + baselineLabel(r.Baseline) + " by more than delta", t: t})
	}
	for _, f := range OptimizeFigures(o) {
		f.Name = prefix + f.Name
		s.figures = append(s.figures, f)
	}
}

func selectionSpent(r *experiment.OptimizeResult) string {
	if r.Selection == nil {
		return "0"
	}
	return thousands(r.Selection.Encounters)
}

// OptimizeFigures draws the incumbent's win rate against encounters spent
// and, when the space has one or two numeric dimensions, the landscape
// (each evaluated candidate's win rate in the selection).
func OptimizeFigures(o *results.Optimize) []*Figure {
	r := o.Search
	if r == nil || len(r.Incumbent) == 0 {
		return nil
	}
	var out []*Figure
	p := newPlot(i18n.En, fmt.Sprintf("Incumbent win rate against encounters spent\n%s, seed %d", o.Scenario, o.Seed), "encounters spent (all candidates)", "incumbent win rate (%)")
	hgrid(p)
	var pts plotter.XYs
	for _, q := range r.Incumbent {
		pts = append(pts, plotter.XY{X: float64(q.Encounters), Y: 100 * q.WinRate})
	}
	line, _ := plotter.NewLine(pts)
	line.Color, line.Width = SideColors[0], vg.Points(1.5)
	sc, _ := plotter.NewScatter(pts)
	sc.GlyphStyle = draw.GlyphStyle{Color: SideColors[0], Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	p.Add(line, sc)
	p.X.Tick.Marker = niceTicks{}
	out = append(out, &Figure{Name: "optimize-incumbent", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: "The win rate of the candidate leading the search after each stage, against the encounters spent so far."})
	var dims []results.Axis
	for _, a := range o.Vary {
		if _, ok := numeric(a.Values); ok {
			dims = append(dims, a)
		}
	}
	if len(dims) == 1 && len(o.Vary) == 1 {
		out = append(out, landscapeLine(o, dims[0]))
	} else if len(dims) == 2 && len(o.Vary) == 2 {
		out = append(out, landscapeHeat(o, dims[0], dims[1]))
	}
	return out
}

// rateAt maps each evaluated candidate's settings of the given paths to
// its win rate in the selection (screening when it went no further).
func rateAt(o *results.Optimize, paths ...string) map[string]float64 {
	m := map[string]float64{}
	for _, c := range o.Search.Ranked {
		if c.Encounters == 0 {
			continue
		}
		var key []string
		for _, p := range paths {
			key = append(key, c.Settings[p])
		}
		m[strings.Join(key, "\x00")] = c.WinRate
	}
	return m
}

func landscapeLine(o *results.Optimize, a results.Axis) *Figure {
	p := newPlot(i18n.En, fmt.Sprintf("%s win rate against %s (each candidate evaluated)\n%s, seed %d", o.Side, a.Path, o.Scenario, o.Seed), AxisLabel(a.Path), "win rate (%)")
	hgrid(p)
	xs, _ := numeric(a.Values)
	m := rateAt(o, a.Path)
	var pts plotter.XYs
	for i, v := range a.Values {
		if w, ok := m[v]; ok {
			pts = append(pts, plotter.XY{X: xs[i], Y: 100 * w})
		}
	}
	sc, _ := plotter.NewScatter(pts)
	sc.GlyphStyle = draw.GlyphStyle{Color: SideColors[0], Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	if len(xs) <= 15 {
		ticks := make([]plot.Tick, len(xs))
		for i, x := range xs {
			ticks[i] = plot.Tick{Value: x, Label: a.Values[i]}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	return &Figure{Name: "optimize-landscape", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: fmt.Sprintf("The landscape: each evaluated candidate's win rate for %s in the search, against %s (candidates never played are not drawn).", o.Side, a.Path)}
}

func landscapeHeat(o *results.Optimize, ax, ay results.Axis) *Figure {
	p := newPlot(i18n.En, fmt.Sprintf("%s win rate over %s and %s (candidates evaluated)\n%s, seed %d", o.Side, ax.Path, ay.Path, o.Scenario, o.Seed), AxisLabel(ax.Path), AxisLabel(ay.Path))
	m := rateAt(o, ax.Path, ay.Path)
	h := cells{nx: len(ax.Values), ny: len(ay.Values), labels: len(ax.Values) <= 14 && len(ay.Values) <= 20}
	for _, x := range ax.Values {
		for _, y := range ay.Values {
			v, ok := m[x+"\x00"+y]
			if !ok {
				h.v = append(h.v, math.NaN())
				continue
			}
			h.v = append(h.v, 100*v)
		}
	}
	p.Add(h)
	p.NominalX(ax.Values...)
	p.NominalY(ay.Values...)
	p.X.Padding, p.Y.Padding = 0, 0
	return &Figure{Name: "optimize-landscape", W: 6.4 * vg.Inch, H: 4.6 * vg.Inch, draw: single(p),
		Caption: fmt.Sprintf("The landscape: each evaluated candidate's win rate for %s in the search over %s (across) and %s (up); blank: never played or excluded.", o.Side, ax.Path, ay.Path)}
}
