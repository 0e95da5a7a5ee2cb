package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// WriteValue renders the value tables in format f: effects, exchange rates,
// and the tornado's swings.
//
// It writes the text tables' own words in l (JSON, CSV and
// Markdown stay English; the document's stored warnings are English, as
// in the report).
func WriteValue(v *results.Value, w io.Writer, f Format, l i18n.Lang) error {
	switch f {
	case JSON:
		return writeJSON(w, v)
	case CSV:
		return valueEffectTable(v, i18n.En).csv(w)
	}
	md := f == Markdown
	if md {
		l = i18n.En
	}
	var b strings.Builder
	b.WriteString(shardLineLang(l, &v.Header))
	b.WriteString(l.T("value.text.head", v.Scenario, v.Ruleset, v.Seed, v.Side, thousands(v.Encounters)) + "\n\n")
	render := func(t *table) {
		if md {
			t.markdown(&b)
		} else {
			t.text(&b, l)
		}
		b.WriteString("\n")
	}
	render(valueEffectTable(v, l))
	if len(v.Effects) > 1 {
		b.WriteString(l.T("value.text.rates") + "\n\n")
		render(valueRateTable(v, l))
	}
	b.WriteString(l.T("value.text.swings") + "\n\n")
	render(valueSwingTable(v, l))
	if _, err := io.WriteString(w, readable(l, b.String())); err != nil {
		return err
	}
	notes := append([]string{valueMultiplicity(v, l)}, warningsLang(l, v.Warnings, v.WarningsMsg)...)
	for i := range notes {
		notes[i] = l.Reading(notes[i]) // after the tables, outside readable
	}
	footnotes(w, notes, md)
	return nil
}

// valueMultiplicity says how many intervals the document prints at 95%
// and what that does not promise.
func valueMultiplicity(v *results.Value, l i18n.Lang) string {
	return l.T("value.multiplicity", len(v.Effects), len(v.Rates), 2*len(v.Swings), len(v.Effects)+len(v.Rates)+2*len(v.Swings))
}

func valueEffectTable(v *results.Value, l i18n.Lang) *table {
	t := &table{header: []string{l.T("value.col.param"), l.T("value.col.step"), l.T("value.col.win_down"), l.T("value.col.win"), l.T("value.col.win_up"), l.T("value.col.per_unit"), l.T("col.ci95")}, left: 1}
	for _, e := range v.Effects {
		t.add(e.Param, strconv.FormatFloat(e.Step, 'f', -1, 64), pct(e.WinRate[0]), pct(e.WinRate[1]), pct(e.WinRate[2]),
			signedPP(e.PerUnit), ppCI(e.CI95[0], e.CI95[1]))
	}
	return t
}

func valueRateTable(v *results.Value, l i18n.Lang) *table {
	t := &table{header: []string{l.T("value.col.unit"), l.T("value.col.worth"), l.T("col.ci95")}, left: 2}
	for _, r := range v.Rates {
		ci := l.T("value.no_interval")
		switch {
		case r.Bounded:
			ci = fmt.Sprintf("[%s, %s]", ratio(r.CI95[0]), ratio(r.CI95[1]))
		case r.Split:
			ci = l.T("value.rays", ratio(r.CI95[0]), ratio(r.CI95[1]))
		}
		t.add(r.A, ratio(r.Value)+" "+r.B, ci)
	}
	return t
}

func valueSwingTable(v *results.Value, l i18n.Lang) *table {
	t := &table{header: []string{l.T("value.col.param"), l.T("value.col.step"), l.T("value.col.swing_down"), l.T("col.ci95"), l.T("value.col.swing_up"), l.T("col.ci95")}, left: 1}
	for _, s := range v.Swings {
		t.add(s.Param, strconv.FormatFloat(s.Step, 'f', -1, 64), signedPP(s.Down), ppCI(s.DownCI[0], s.DownCI[1]),
			signedPP(s.Up), ppCI(s.UpCI[0], s.UpCI[1]))
	}
	return t
}

func ratio(f float64) string {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		return "—"
	case math.Abs(f) >= 100:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case math.Abs(f) >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// TornadoFigure draws the one-at-a-time swings: for each parameter, the
// change in the side's win rate when it steps down (left of zero when it
// hurts) and up, with paired 95% intervals, largest swing at the top.
//
// Its words (titles, axes, legends, captions) are in l.
func TornadoFigure(l i18n.Lang, v *results.Value) (*Figure, error) {
	if v.Encounters == 0 || len(v.Swings) == 0 {
		return nil, ErrNoData
	}
	p := newPlot(l, l.T("fig.tornado.title", v.Side, v.Scenario, v.Seed, l.Int(v.Encounters)), l.T("fig.tornado.x"), "")
	var hb hbars
	names := make([]string, len(v.Swings))
	for i, s := range v.Swings {
		y := float64(len(v.Swings) - 1 - i) // largest at the top
		names[len(v.Swings)-1-i] = l.T("fig.tornado.param", s.Param, l.Decimal(s.Step, -1))
		hb = append(hb,
			hbar{Y: y - 0.17, H: 0.32, X: 100 * s.Down, Lo: 100 * s.DownCI[0], Hi: 100 * s.DownCI[1], Color: SideColors[1]},
			hbar{Y: y + 0.17, H: 0.32, X: 100 * s.Up, Lo: 100 * s.UpCI[0], Hi: 100 * s.UpCI[1], Color: SideColors[0]})
	}
	p.Add(vline{X: 0, Style: draw.LineStyle{Color: ink, Width: vg.Points(0.75)}}, hb)
	p.NominalY(names...)
	// A free row above the bars holds the legend; a margin either side
	// keeps the whiskers off the frame.
	p.Y.Min, p.Y.Max = -0.6, float64(len(names))+0.4
	lo, hi := p.X.Min, p.X.Max
	pad := 0.08 * math.Max(hi-lo, 0.5)
	p.X.Min, p.X.Max = math.Min(lo, 0)-pad, math.Max(hi, 0)+pad
	p.X.Tick.Marker = niceTicks{l: l}
	p.Legend.Add(legendText(l, l.T("fig.tornado.down")), swatch{SideColors[1]})
	p.Legend.Add(legendText(l, l.T("fig.tornado.up")), swatch{SideColors[0]})
	p.Legend.Top, p.Legend.Left = true, false
	h := vg.Length(1.6+0.55*float64(len(names))) * vg.Inch
	f := &Figure{Name: "tornado", W: 8 * vg.Inch, H: h,
		Caption: l.T("fig.tornado.caption", v.Side)}
	f.draw = func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		// gonum measures the category labels a little short: a margin
		// keeps the longest from being cut at the left edge.
		drawPlot(p, draw.Crop(dc, 0.25*vg.Inch, 0, 0, 0))
	}
	return f, nil
}

// hbar is one horizontal bar from 0 to X with an interval whisker.
type hbar struct {
	Y, H, X, Lo, Hi float64
	Color           color.Color
}

type hbars []hbar

// Plot implements plot.Plotter.
func (bs hbars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	whisker := draw.LineStyle{Color: ink, Width: vg.Points(1)}
	for _, b := range bs {
		y0, y1 := trY(b.Y-b.H/2), trY(b.Y+b.H/2)
		x0, x1 := trX(0), trX(b.X)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(b.Color, c.ClipPolygonXY(pts))
		ym, cap := trY(b.Y), (y1-y0)/4
		lo, hi := trX(b.Lo), trX(b.Hi)
		c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: lo, Y: ym}, {X: hi, Y: ym}})...)
		c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: lo, Y: ym - cap}, {X: lo, Y: ym + cap}})...)
		c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: hi, Y: ym - cap}, {X: hi, Y: ym + cap}})...)
	}
}

// DataRange implements plot.DataRanger.
func (bs hbars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = 0, math.Inf(1)
	xmax, ymax = 0, math.Inf(-1)
	for _, b := range bs {
		xmin, xmax = math.Min(xmin, math.Min(b.X, b.Lo)), math.Max(xmax, math.Max(b.X, b.Hi))
		ymin, ymax = math.Min(ymin, b.Y-b.H/2), math.Max(ymax, b.Y+b.H/2)
	}
	return
}

// vline is a vertical reference line across the data area.
type vline struct {
	X     float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (l vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(l.X)
	c.StrokeLines(l.Style, c.ClipLinesX([]vg.Point{{X: x, Y: c.Min.Y}, {X: x, Y: c.Max.Y}})...)
}
