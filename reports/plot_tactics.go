package reports

import (
	"fmt"
	"image/color"
	"math"
	"simctl/reports/i18n"
	"simctl/sim/msg"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/reports/results"
)

// ErrNoTactics is returned for the tactics figure of a run whose scenario
// has no tactics: block.
var ErrNoTactics = msg.Errorf("reports: the run has no tactics rules to draw")

// ruleRow is one rule of one combatant in the tactics figure.
type ruleRow struct {
	label       string
	fired, fell float64 // per encounter
	side        int     // -1: unknown
}

// TacticsFigure draws how often each tactics rule decided (fired) and how
// often its condition held but its decision could not be carried out
// (fell through), per encounter, one bar per combatant and rule in the
// order of the table. The counts are exact tallies of the run's
// encounters; the tally keeps no sum of squares per rule, so no interval
// is drawn (the caption says so).
//
// Its words (titles, axes, legends, captions) are in l.
func TacticsFigure(l i18n.Lang, r *results.Result) (*Figure, error) {
	if r.Encounters == 0 {
		return nil, ErrNoData
	}
	if len(r.Raw.Tactics) == 0 {
		return nil, ErrNoTactics
	}
	rows := tacticsRows(r)
	p := newPlot(l, l.T("fig.tactics.title", r.Scenario, r.Seed, l.Int(r.Encounters)), l.T("fig.tactics.x"), "")
	names := make([]string, len(rows))
	for i, row := range rows {
		names[len(rows)-1-i] = row.label // the first rule at the top
	}
	p.Add(ruleBars{l: l, rows: rows})
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4+0.9 // a free row above for the legend
	hi := 0.0
	for _, row := range rows {
		hi = math.Max(hi, row.fired+row.fell)
	}
	p.X.Min, p.X.Max = 0, math.Max(hi*1.3, 0.1) // room for the figures after the bars
	p.X.Tick.Marker = niceTicks{l: l}
	// The swatches in the bars' own colours: each side's that has a row
	// (ink for a row of no side).
	var fired, fell stripes
	for _, c := range tacticsColours(rows, false) {
		fired = append(fired, c)
	}
	for _, c := range tacticsColours(rows, true) {
		fell = append(fell, lighter(c))
	}
	p.Legend.Add(l.T("fig.tactics.fired"), fired)
	p.Legend.Add(l.T("fig.tactics.fell"), fell)
	p.Legend.Top, p.Legend.Left = true, false
	h := vg.Length(1.5+0.28*float64(len(rows))) * vg.Inch
	f := &Figure{Name: "tactics", W: 8 * vg.Inch, H: h,
		Caption: l.T("fig.tactics.caption", l.Int(r.Encounters))}
	f.draw = func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		// gonum measures the category labels a little short: a margin
		// keeps the longest from being cut at the left edge.
		drawPlot(p, draw.Crop(dc, 0.25*vg.Inch, 0, 0, 0))
	}
	return f, nil
}

func isFallback(label string) bool { return strings.Contains(label, ": fallback (") }

// lighter mixes c halfway to white: the fell-through part of a bar.
func lighter(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8((v>>8 + 255*1) / 2) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 0xFF}
}

// ruleBars is a Plotter of stacked horizontal bars: fired, then fell
// through, one row per rule from the top.
type ruleBars struct {
	l    i18n.Lang // the figures' number format
	rows []ruleRow
}

// Plot implements plot.Plotter.
func (rb ruleBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	bs := rb.rows
	for i, b := range bs {
		y := float64(len(bs) - 1 - i)
		col := color.Color(ink)
		if b.side == 0 || b.side == 1 {
			col = SideColors[b.side]
		}
		y0, y1 := trY(y-0.35), trY(y+0.35)
		for _, seg := range []struct {
			from, to float64
			col      color.Color
		}{{0, b.fired, col}, {b.fired, b.fired + b.fell, lighter(col)}} {
			if seg.to <= seg.from {
				continue
			}
			x0, x1 := trX(seg.from), trX(seg.to)
			c.FillPolygon(seg.col, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
		}
		lab := textStyle(8, ink)
		lab.XAlign = draw.XLeft
		text := figNum(rb.l, b.fired, 3)
		if b.fell > 0 {
			text += " + " + figNum(rb.l, b.fell, 3)
		}
		c.FillText(lab, vg.Point{X: trX(b.fired+b.fell) + vg.Points(3), Y: trY(y)}, text)
	}
}

// DataRange implements plot.DataRanger.
func (rb ruleBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmax = 0
	bs := rb.rows
	for _, b := range bs {
		xmax = math.Max(xmax, b.fired+b.fell)
	}
	return 0, xmax, -0.5, float64(len(bs)) - 0.5
}

// tacticsRows are the bars of the tactics figure: per combatant and rule,
// in the table's order, the times per encounter it fired and fell through.
func tacticsRows(r *results.Result) []ruleRow {
	sideOf := map[string]int{}
	if len(r.Raw.RosterSides) == len(r.Raw.Roster) {
		for i, name := range r.Raw.Roster {
			sideOf[name] = r.Raw.RosterSides[i]
		}
	}
	n := float64(r.Encounters)
	var rows []ruleRow
	at := map[string]int{} // looked up only; rows keep the table's order
	for _, rc := range r.Raw.Tactics {
		k := rc.Combatant + "\x00" + rc.Moment + "\x00" + rc.Rule
		i, ok := at[k]
		if !ok {
			side, known := sideOf[rc.Combatant]
			if !known {
				side = -1
			}
			rows = append(rows, ruleRow{label: fmt.Sprintf("%s: %s (%s)", rc.Combatant, rc.Rule, rc.Moment), side: side})
			i = len(rows) - 1
			at[k] = i
		}
		if rc.Event == "fired" {
			rows[i].fired += float64(rc.Count) / n
		} else {
			rows[i].fell += float64(rc.Count) / n
		}
	}
	// A fallback that never acted says nothing; every rule is kept, so a
	// rule that never fires shows as an empty bar.
	kept := rows[:0]
	for _, row := range rows {
		if row.fired > 0 || row.fell > 0 || !isFallback(row.label) {
			kept = append(kept, row)
		}
	}
	rows = kept
	return rows
}

// tacticsColours are the colours the rows' bars are drawn in, each once,
// side 0 first; with fell, those of the rows with a fell-through part (all
// of them when none has one).
func tacticsColours(rows []ruleRow, fell bool) []color.Color {
	var has [3]bool
	for _, r := range rows {
		if fell && r.fell == 0 {
			continue
		}
		if r.side == 0 || r.side == 1 {
			has[r.side] = true
		} else {
			has[2] = true
		}
	}
	if has == [3]bool{} && fell {
		return tacticsColours(rows, false)
	}
	var out []color.Color
	for s, c := range []color.Color{SideColors[0], SideColors[1], ink} {
		if has[s] {
			out = append(out, c)
		}
	}
	return out
}

// stripes is a legend thumbnail of side-by-side colours: one legend entry
// for bars that take each side's colour.
type stripes []color.Color

// Thumbnail implements plot.Thumbnailer.
func (st stripes) Thumbnail(c *draw.Canvas) {
	w := (c.Max.X - c.Min.X) / vg.Length(max(len(st), 1))
	for i, col := range st {
		x0 := c.Min.X + vg.Length(i)*w
		c.FillPolygon(col, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0 + w, Y: c.Min.Y}, {X: x0 + w, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}})
	}
}
