package reports

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
)

// The report section of `simctl optimize`: the answer and its guarantee,
// the ranking, the incumbent's win rate against encounters spent, the
// landscape over one or two numeric --vary paths, and the best
// candidate's median fight (replayed by the caller into Input.Traces).

func (b *Bundle) optimizeSection(s *Section, k int, o *results.Optimize, prefix string) {
	l := b.Lang
	s.facts = docFacts(l, &o.Header, l.T("opt.intervals", method(l, intervalWilson)))
	docCommandLang(l, s, &o.Header, nil)
	s.notes = append(s.notes, statusNotesLang(l, &o.Header, "optimize")...)
	s.scenario = ctxYAML(o.Context)
	if o.Oracle != nil {
		or := o.Oracle
		s.title = l.T("section.oracle", k, o.Scenario, or.RowSide, or.ColSide)
		s.facts = append(s.facts, [2]string{l.T("opt.fact.value"), l.T("opt.value", prosePct(l, or.Value), or.RowSide, proseCI(l, or.ValueBounds[0], or.ValueBounds[1]))},
			[2]string{l.T("opt.fact.exploitability"), l.T("opt.at_most", prosePP(l, or.Exploitability, false))},
			[2]string{l.T("fact.guarantee"), optStatementLang(l, o.Guarantee.Statement)})
		for _, side := range []struct {
			name string
			mix  []results.MixOf
		}{{or.RowSide, or.RowMix}, {or.ColSide, or.ColMix}} {
			t := &table{left: 1, header: []string{l.T("opt.col.candidate"), l.T("matrix.col.weight")}}
			for _, m := range side.mix {
				t.add(m.Name, pct(m.Weight))
			}
			s.tables = append(s.tables, titled{title: l.T("opt.table.mix", side.name), t: t})
		}
		steps := &table{left: 0, header: []string{l.T("opt.col.iteration"), l.T("opt.fact.value"), l.T("opt.col.row_gain"), l.T("opt.col.col_gain"), l.T("opt.col.cells")}}
		for i, st := range or.Steps {
			steps.add(strconv.Itoa(i+1), pct(st.Value), signedPP(st.RowGain), signedPP(st.ColGain), strconv.Itoa(st.Cells))
		}
		s.tables = append(s.tables, titled{title: l.T("opt.table.iterations"), t: steps})
		// Each side's space as searched, and the merged duplicates, as the
		// text output says them.
		for _, side := range []struct {
			name  string
			space []string
		}{{or.RowSide, or.RowSpace}, {or.ColSide, or.ColSpace}} {
			if len(side.space) > 0 {
				s.notes = append(s.notes, l.T("opt.text.oracle.space", side.name, len(side.space), strings.Join(side.space, ", ")))
			}
		}
		for _, m := range or.Merged {
			s.notes = append(s.notes, l.T("opt.text.oracle.merged", m.Side, m.Name, m.Into))
		}
		return
	}
	r := o.Search
	if r == nil {
		return
	}
	s.title = l.N("section.optimize", int64(r.Space.Candidates), k, o.Scenario, o.Side)
	base := baselineLabelLang(l, r.Baseline)
	s.facts = append(s.facts,
		[2]string{l.T("fact.side"), o.Side},
		[2]string{l.T("opt.fact.best"), l.T("opt.best", prosePct(l, o.Best.WinRate), proseCI(l, o.Best.CI95[0], o.Best.CI95[1]), prosePP(l, o.Best.Gain, true), base, prosePct(l, r.BaseRate), o.Best.Name)},
		[2]string{l.T("fact.guarantee"), optStatementLang(l, o.Guarantee.Statement)},
		[2]string{l.T("fact.encounters"), searchCostLang(l, r)})
	if c := confirmRange(l, o); c != "" {
		s.notes = append(s.notes, c)
	}
	if o.Interrupted {
		s.notes = append(s.notes, l.T("opt.note.interrupted"))
	}
	tab := optimizeTableLang(o, l)
	s.tables = append(s.tables, titled{title: l.T("opt.table.candidates"), t: tab, notes: []string{l.T("opt.note.candidates")}})
	if len(r.Exploits) > 0 {
		t := &table{left: 1, header: []string{l.T("opt.col.candidate"), l.T("col.win_rate"), l.T("opt.col.gain", base), l.T("opt.col.interval")}}
		for _, e := range r.Exploits {
			t.add(e.Name, pct(e.WinRate), signedPP(e.Gain), ppCI(e.GainCI[0], e.GainCI[1]))
		}
		s.tables = append(s.tables, titled{title: l.T("opt.table.exploits", base), t: t})
	}
	for _, f := range optimizeFigures(l, o) {
		f.Name = prefix + f.Name
		s.figures = append(s.figures, f)
	}
}

// prosePct, proseCI and prosePP write a win rate, its interval and a
// difference in percentage points for the section's facts, which are
// prose: Russian writes 91,85%, [89,87%; 93,47%] and +15,30 п.п. (the
// tables keep the point in every language).
func prosePct(l i18n.Lang, x float64) string { return proseNumber(l, pct(x)) }

func proseCI(l i18n.Lang, lo, hi float64) string {
	if l.Or() == i18n.Ru {
		return "[" + prosePct(l, lo) + "; " + prosePct(l, hi) + "]"
	}
	return pctCI(lo, hi)
}

func prosePP(l i18n.Lang, x float64, signed bool) string {
	f := "%.2f"
	if signed {
		f = "%+.2f"
	}
	return l.T("opt.pp", proseNumber(l, fmt.Sprintf(f, 100*x)))
}

func selectionSpentLang(l i18n.Lang, r *experiment.OptimizeResult) string {
	if r.Selection == nil {
		return "0"
	}
	return l.Int(r.Selection.Encounters)
}

// searchCostLang says what the search spent, stage by stage, against
// uniform allocation for the same guarantee
// (experiment.OptimizeResult.Uniform), and which costs more.
func searchCostLang(l i18n.Lang, r *experiment.OptimizeResult) string {
	var screening, confirmation int64
	for _, st := range r.Stages {
		switch {
		case strings.HasPrefix(st.Name, "screening"):
			screening += st.Encounters
		case st.Name == "confirmation":
			confirmation += st.Encounters
		}
	}
	parts := []string{l.T("opt.cost.selection", selectionSpentLang(l, r)), l.T("opt.cost.confirmation", l.Int(confirmation))}
	if screening > 0 {
		parts = append([]string{l.T("opt.cost.screening", l.Int(screening))}, parts...)
	}
	s := l.T("opt.cost.all", l.Int(r.Encounters), strings.Join(parts, ", "))
	if !r.Separated && r.Selection != nil {
		// No guarantee reached: nothing to price a design "for the same
		// guarantee" against (a document from before issue 35 may still
		// hold a uniform figure here).
		return s + l.T("opt.cost.no_guarantee")
	}
	if r.Uniform <= 0 || r.Encounters <= 0 {
		return s
	}
	k := r.Uniform / max(r.UniformPer, 1)
	s += l.T("opt.cost.uniform", k, l.Int(r.UniformPer), max(k-1, 1), proseNumber(l, fmt.Sprintf("%.1f", 100*r.UniformDiscordance))+"%", l.Int(r.Uniform))
	ratio := proseNumber(l, fmt.Sprintf("%.2g", float64(r.Encounters)/float64(r.Uniform)))
	if r.Encounters > r.Uniform {
		return s + l.T("opt.cost.more", ratio)
	}
	return s + l.T("opt.cost.less", ratio)
}

// optimizeFigures draws the incumbent's win rate against encounters spent
// and, when the space has one or two numeric dimensions, the landscape
// (each evaluated candidate's win rate in the selection).
func optimizeFigures(l i18n.Lang, o *results.Optimize) []*Figure {
	r := o.Search
	if r == nil || len(r.Incumbent) == 0 {
		return nil
	}
	var out []*Figure
	p := newPlot(l, l.T("opt.fig.incumbent.title", o.Scenario, o.Seed), l.T("opt.fig.incumbent.x"), l.T("opt.fig.incumbent.y"))
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
	p.X.Tick.Marker = niceTicks{l: l}
	out = append(out, &Figure{Name: "optimize-incumbent", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("opt.fig.incumbent.caption")})
	var dims []results.Axis
	for _, a := range o.Vary {
		if _, ok := numeric(a.Values); ok {
			dims = append(dims, a)
		}
	}
	if len(o.Traits) > 0 {
		// The trait sets are categories: a landscape over the --vary
		// values alone would mix them.
		if f := traitLandscape(l, o); f != nil {
			out = append(out, f)
		}
	} else if len(dims) == 1 && len(o.Vary) == 1 {
		out = append(out, landscapeLine(l, o, dims[0]))
	} else if len(dims) == 2 && len(o.Vary) == 2 {
		out = append(out, landscapeHeat(l, o, dims[0], dims[1]))
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

func landscapeLine(l i18n.Lang, o *results.Optimize, a results.Axis) *Figure {
	p := newPlot(l, l.T("opt.fig.line.title", o.Side, a.Path, o.Scenario, o.Seed), axisLabel(l, a.Path), l.T("opt.fig.y"))
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
			ticks[i] = plot.Tick{Value: x, Label: l.FigureNumber(strings.TrimSpace(a.Values[i]))}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	return &Figure{Name: "optimize-landscape", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("opt.fig.line.caption", o.Side, a.Path)}
}

func landscapeHeat(l i18n.Lang, o *results.Optimize, ax, ay results.Axis) *Figure {
	p := newPlot(l, l.T("opt.fig.heat.title", o.Side, ax.Path, ay.Path, o.Scenario, o.Seed), axisLabel(l, ax.Path), axisLabel(l, ay.Path))
	m := rateAt(o, ax.Path, ay.Path)
	h := cells{l: l, nx: len(ax.Values), ny: len(ay.Values), labels: len(ax.Values) <= 14 && len(ay.Values) <= 20}
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
	p.NominalX(figValues(l, ax.Values)...)
	p.NominalY(figValues(l, ay.Values)...)
	p.X.Padding, p.Y.Padding = 0, 0
	return &Figure{Name: "optimize-landscape", W: 6.4 * vg.Inch, H: 4.6 * vg.Inch, draw: single(p),
		Caption: l.T("opt.fig.heat.caption", o.Side, ax.Path, ay.Path)}
}

// maxTraitSets bounds the trait sets a landscape draws, one row each.
const maxTraitSets = 32

// traitSets lists every trait set of o's --traits lists, as a candidate's
// settings name it ("[dodge, power_attack]", the lists joined by "; " with
// their owner when there are several): fewer traits first, then in the
// --traits order. nil when there are more than maxTraitSets.
func traitSets(o *results.Optimize) []string {
	sets := []string{""}
	for _, tl := range o.Traits {
		k := len(tl.Names)
		if k > 5 || len(sets)<<k > maxTraitSets {
			return nil
		}
		masks := make([]int, 1<<k)
		for m := range masks {
			masks[m] = m
		}
		// Fewer traits first; among as many, the earlier names first.
		sort.SliceStable(masks, func(a, b int) bool {
			ca, cb := bits.OnesCount(uint(masks[a])), bits.OnesCount(uint(masks[b]))
			if ca != cb {
				return ca < cb
			}
			return bits.Reverse(uint(masks[a])) > bits.Reverse(uint(masks[b]))
		})
		var next []string
		for _, prev := range sets {
			for _, m := range masks {
				var taken []string
				for i, n := range tl.Names {
					if m>>i&1 == 1 {
						taken = append(taken, n)
					}
				}
				label := "[" + strings.Join(taken, ", ") + "]"
				if len(o.Traits) > 1 {
					label = tl.Owner + "=" + label
				}
				if prev != "" {
					label = prev + "; " + label
				}
				next = append(next, label)
			}
		}
		sets = next
	}
	return sets
}

// traitSetOf is the trait set of candidate settings, as traitSets names it.
func traitSetOf(o *results.Optimize, settings map[string]string) string {
	var parts []string
	for _, tl := range o.Traits {
		v := settings[tl.Owner+".traits"]
		if len(o.Traits) > 1 {
			v = tl.Owner + "=" + v
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, "; ")
}

// traitGrid is the landscape of a --traits search with the trait sets as
// categories: the sets (traitSets), the values of the one numeric --vary
// path (none: traits are the whole space) and each evaluated candidate's
// win rate in %, v[i*len(sets)+j] for value i (0 without one) and set j,
// NaN where none played. ok is false when the space has more (options, a
// rule list, two --vary paths, or a varied trait parameter, which only
// some sets have) or too many sets to draw.
func traitGrid(o *results.Optimize) (sets, xs []string, v []float64, ok bool) {
	if len(o.Options) > 0 || o.Rules != "" || len(o.Vary) > 1 || o.Search == nil {
		return nil, nil, nil, false
	}
	if len(o.Vary) == 1 {
		a := o.Vary[0]
		if _, num := numeric(a.Values); !num || strings.Contains(a.Path, ".traits.") {
			return nil, nil, nil, false
		}
		xs = a.Values
	}
	if sets = traitSets(o); sets == nil {
		return nil, nil, nil, false
	}
	rate := map[string]float64{}
	for _, c := range o.Search.Ranked {
		if c.Encounters == 0 {
			continue
		}
		key := traitSetOf(o, c.Settings)
		if xs != nil {
			key += "\x00" + c.Settings[o.Vary[0].Path]
		}
		rate[key] = c.WinRate
	}
	for i := range max(len(xs), 1) {
		for _, set := range sets {
			key := set
			if xs != nil {
				key += "\x00" + xs[i]
			}
			w, played := rate[key]
			if !played {
				v = append(v, math.NaN())
				continue
			}
			v = append(v, 100*w)
		}
	}
	return sets, xs, v, true
}

// traitLandscape draws traitGrid: each set's win rate as a dot when
// traits are the whole space, else a heat map of the sets (up) against
// the --vary path (across). Nil when traitGrid has none.
func traitLandscape(l i18n.Lang, o *results.Optimize) *Figure {
	sets, xs, v, ok := traitGrid(o)
	if !ok {
		return nil
	}
	owners := make([]string, len(o.Traits))
	for i, tl := range o.Traits {
		owners[i] = tl.Owner + ".traits"
	}
	what := strings.Join(owners, ", ")
	if xs == nil {
		p := newPlot(l, l.T("opt.fig.traits.title", o.Side, what, o.Scenario, o.Seed), l.T("opt.fig.y"), what)
		var pts plotter.XYs
		for j, w := range v {
			if !math.IsNaN(w) {
				pts = append(pts, plotter.XY{X: w, Y: float64(j)})
			}
		}
		sc, _ := plotter.NewScatter(pts)
		sc.GlyphStyle = draw.GlyphStyle{Color: SideColors[0], Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		g := plotter.NewGrid()
		g.Horizontal.Color = nil
		p.Add(g, sc)
		p.NominalY(sets...)
		// A dot at either end stays clear of the axes.
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, q := range pts {
			lo, hi = math.Min(lo, q.X), math.Max(hi, q.X)
		}
		if pad := math.Max(0.5, 0.08*(hi-lo)); len(pts) > 0 {
			p.X.Min, p.X.Max = lo-pad, hi+pad
		}
		p.Y.Min, p.Y.Max = -0.6, float64(len(sets))-0.4
		return &Figure{Name: "optimize-landscape", W: 6.4 * vg.Inch, H: vg.Length(1.6+0.25*float64(len(sets))) * vg.Inch, draw: single(p),
			Caption: l.T("opt.fig.traits.caption", o.Side, what)}
	}
	a := o.Vary[0]
	p := newPlot(l, l.T("opt.fig.traitheat.title", o.Side, a.Path, what, o.Scenario, o.Seed), axisLabel(l, a.Path), what)
	h := cells{l: l, nx: len(xs), ny: len(sets), v: v, labels: len(xs) <= 14 && len(sets) <= 20}
	h.span = heatSpan(h.v)
	p.Add(h)
	p.NominalX(figValues(l, xs)...)
	p.NominalY(sets...)
	p.X.Padding, p.Y.Padding = 0, 0
	return &Figure{Name: "optimize-landscape", W: 6.4 * vg.Inch, H: vg.Length(2+0.3*float64(len(sets))) * vg.Inch, draw: single(p),
		Caption: l.T("opt.fig.traitheat.caption", o.Side, a.Path, what)}
}
