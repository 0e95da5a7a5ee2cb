package reports

import (
	"bytes"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"simctl/sim/msg"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/stats"
)

// Plots are compositions of small gonum/plot Plotters. Every figure keeps
// the same conventions so that a reader never hunts through a legend:
// side 0 is always SideColors[0] (blue) and side 1 always SideColors[1]
// (vermilion), win rates are in percent on a fixed 0-100 axis, intervals are
// 95% (Wilson for proportions, the paired interval for differences), and
// every axis label names its unit.
//
// Rendering is deterministic: no map is iterated while drawing, no clock or
// random number is read, fonts are gonum/plot's embedded Liberation fonts,
// and SVG text is plain (fonts not embedded), so the same data always gives
// byte-identical SVG and pixel-identical PNG on one platform.

// SideColors are the side colours of every figure (Okabe-Ito blue and
// vermilion, distinguishable with the common colour-vision deficiencies).
var SideColors = [2]color.RGBA{{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, {R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}}

var (
	neutral = color.RGBA{R: 0x66, G: 0x66, B: 0x66, A: 0xFF}
	ink     = color.RGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xFF}
	grid    = color.RGBA{R: 0xDD, G: 0xDD, B: 0xDD, A: 0xFF}
)

// FigureDPI is the resolution of PNG figures.
const FigureDPI = 96

// Figure is a drawing ready to be rendered as PNG or SVG.
type Figure struct {
	Name    string // file stem, e.g. "sweep"
	Caption string // one sentence saying what is drawn, for alt text and captions
	W, H    vg.Length
	draw    func(dc draw.Canvas)
}

// figureMargin is left free on every side of a figure: gonum/plot puts
// the rotated axis label and a title as wide as the canvas against the
// edge, where a parenthesis' descender or a first letter is cut.
const figureMargin = 4 * vg.Millimeter / 2

// render draws f on c inside the margin.
func (f *Figure) render(c draw.Canvas) {
	f.draw(draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin))
}

// PNG renders f as a PNG image at FigureDPI.
func (f *Figure) PNG(w io.Writer) error {
	c := vgimg.NewWith(vgimg.UseWH(f.W, f.H), vgimg.UseDPI(FigureDPI), vgimg.UseBackgroundColor(color.White))
	f.render(draw.New(c))
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}

// SVG renders f as an SVG document, with the text's fonts widened to the
// ones metric-compatible with Liberation Sans (see svgFonts).
func (f *Figure) SVG(w io.Writer) error {
	c := vgsvg.New(f.W, f.H)
	f.render(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	_, err := w.Write(svgFonts(buf.Bytes()))
	return err
}

// svgFonts gives the figures' text the fonts metric-compatible with the
// Liberation Sans gonum/plot measured it in (Arimo, Arial, Helvetica), so
// that a browser without Liberation draws labels the width they were laid
// out for.
func svgFonts(svg []byte) []byte {
	svg = bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;"))
	// A font loaded for a language (UseFigureFont) falls back to others
	// with the same script.
	fontMu.RLock()
	defer fontMu.RUnlock()
	for family, list := range svgFamilies {
		svg = bytes.ReplaceAll(svg, []byte("font-family:"+family+";"), []byte("font-family:"+list+";"))
	}
	return svg
}

// Save writes f to path as PNG or SVG, by the extension, atomically (see
// safeio.WriteFile).
func (f *Figure) Save(path string) error {
	var buf bytes.Buffer
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		err = f.PNG(&buf)
	case ".svg":
		err = f.SVG(&buf)
	default:
		return msg.Errorf("%s: a plot is written as .png or .svg", path)
	}
	if err != nil {
		return err
	}
	return safeio.WriteFile(path, "--plot", buf.Bytes())
}

func single(p *plot.Plot) func(draw.Canvas) {
	return func(dc draw.Canvas) { drawPlot(p, dc) }
}

// sans is the font of every text in a figure of l.
func sans(l i18n.Lang, size vg.Length) font.Font {
	return font.From(figureFont(l), size)
}

// newPlot makes a plot with the common look: sans-serif text, a light
// grid, the title and axis labels given.
func newPlot(l i18n.Lang, title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(l, 12)
	p.Title.TextStyle.Handler = spacedText{text.Plain{Fonts: font.DefaultCache}}
	p.Title.Padding = 6
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		// gonum/plot's own ticks where a figure sets none, their labels
		// in l's number format.
		a.Tick.Marker = figTicks{l: l, Ticker: plot.DefaultTicks{}}
		a.Label.TextStyle.Font = sans(l, 11)
		a.Label.TextStyle.Handler = spacedText{text.Plain{Fonts: font.DefaultCache}}
		a.Tick.Label.Font = sans(l, 9)
		a.Color, a.Tick.Color = ink, ink
		a.Label.TextStyle.Color, a.Tick.Label.Color = ink, ink
	}
	p.Legend.TextStyle.Font = sans(l, 10)
	p.Legend.Top = true
	// gonum/plot stacks legend rows at the text's height above the
	// baseline: a descender (and a Hangul font's taller glyphs) then runs
	// into the next row. Space them by the font's descent and a point.
	p.Legend.Padding = p.Legend.TextStyle.FontExtents().Descent + vg.Points(1)
	return p
}

// drawPlot draws p on c with its title broken into lines that fit c's
// width (a Russian or Korean title is often longer than the English one
// it was laid out for).
func drawPlot(p *plot.Plot, c draw.Canvas) {
	p.Title.Text = fitLines(p.Title.TextStyle, p.Title.Text, c.Max.X-c.Min.X)
	// The y axis's label runs along the data area, below the title and
	// above the x axis: about three quarters of the height.
	p.Y.Label.Text = fitLines(p.Y.Label.TextStyle, p.Y.Label.Text, (c.Max.Y-c.Min.Y)*3/4)
	p.X.Label.Text = fitLines(p.X.Label.TextStyle, p.X.Label.Text, c.Max.X-c.Min.X)
	p.Draw(c)
}

// fitLines breaks each line of s at spaces so that none is wider than w
// in style st; a single word wider than w stays whole.
func fitLines(st text.Style, s string, w vg.Length) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		words := strings.Split(line, " ")
		cur := ""
		for _, word := range words {
			next := word
			if cur != "" {
				next = cur + " " + word
			}
			if cur != "" && st.Width(next) > w {
				out = append(out, cur)
				cur = word
				continue
			}
			cur = next
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// figNum writes v with dec decimals (-1: as few as needed) as l's figures
// write numbers (i18n.FigureNumber): a Russian axis reads 0,5 and 12 000.
func figNum(l i18n.Lang, v float64, dec int) string {
	return l.FigureNumber(strconv.FormatFloat(v, 'f', dec, 64))
}

// figPct writes the percentage v (0..100) with dec decimals for a label
// inside a figure, the sign close as in a table's cell (45,0% in Russian).
func figPct(l i18n.Lang, v float64, dec int) string { return figNum(l, v, dec) + "%" }

// figValues writes the values of a varied path as l's figures write
// numbers; a category (a policy's name) stays as typed.
func figValues(l i18n.Lang, vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = l.FigureNumber(strings.TrimSpace(v))
	}
	return out
}

func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: sans(i18n.En, size), XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
}

// hgrid draws horizontal grid lines at the Y axis's major ticks.
func hgrid(p *plot.Plot) {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal.Color = grid
	g.Horizontal.Width = vg.Points(0.5)
	p.Add(g)
}

// zoomSideAxis fits one side's win-rate axis to that side's intervals,
// with a margin, so that a 5-point effect and a ±0.4-point interval are
// both visible rather than squeezed into a 0..100 axis shared with the
// other side.
func zoomSideAxis(l i18n.Lang, a *plot.Axis, s *results.Sweep, side int) {
	lo, hi := 100.0, 0.0
	for _, pt := range s.Points {
		if pt.Unfinished {
			continue
		}
		r := pt.Result.Sides[side]
		lo, hi = math.Min(lo, 100*r.WinCI95[0]), math.Max(hi, 100*r.WinCI95[1])
	}
	if lo > hi { // nothing finished
		percentAxis(l, a)
		return
	}
	span := math.Max(hi-lo, 4)
	a.Min, a.Max = math.Max(0, lo-0.15*span), math.Min(100, hi+0.15*span)
	a.Tick.Marker = niceTicks{l: l, most: 6}
}

// percentAxis fixes the Y axis to 0..100 % (ticks stop at 100 when Max is
// raised to make room for a legend).
func percentAxis(l i18n.Lang, a *plot.Axis) {
	a.Min, a.Max = 0, 100
	a.Tick.Marker = plot.ConstantTicks(percentTicks(l, 0, 100, 20, 10))
}

func percentTicks(l i18n.Lang, lo, hi, major, minor float64) []plot.Tick {
	var ts []plot.Tick
	for v := lo; v <= hi+1e-9; v += minor {
		t := plot.Tick{Value: v}
		if math.Mod(v-lo+1e-9, major) < 1e-6 {
			t.Label = figNum(l, v, -1)
		}
		ts = append(ts, t)
	}
	return ts
}

// bar is one bar in data coordinates, with an optional interval.
type bar struct {
	X, W, Y  float64
	Lo, Hi   float64 // the interval, when HasCI
	HasCI    bool
	Color    color.Color
	Label    string // drawn above the bar (or above its interval)
	Baseline float64
}

// bars is a Plotter of bars with interval whiskers.
type bars []bar

// Plot implements plot.Plotter.
func (bs bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	whisker := draw.LineStyle{Color: ink, Width: vg.Points(1)}
	lab := textStyle(8, ink)
	lab.YAlign = draw.YBottom
	for _, b := range bs {
		x0, x1 := trX(b.X-b.W/2), trX(b.X+b.W/2)
		y0, y1 := trY(b.Baseline), trY(b.Y)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(b.Color, c.ClipPolygonXY(pts))
		top := math.Max(b.Y, b.Baseline)
		if b.HasCI {
			xm, cap := trX(b.X), (x1-x0)/4
			lo, hi := trY(b.Lo), trY(b.Hi)
			c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: xm, Y: lo}, {X: xm, Y: hi}})...)
			c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: xm - cap, Y: lo}, {X: xm + cap, Y: lo}})...)
			c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: xm - cap, Y: hi}, {X: xm + cap, Y: hi}})...)
			top = math.Max(top, b.Hi)
		}
		if b.Label != "" {
			c.FillText(lab, vg.Point{X: trX(b.X), Y: trY(top) + 2}, b.Label)
		}
	}
}

// DataRange implements plot.DataRanger.
func (bs bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, b := range bs {
		xmin, xmax = math.Min(xmin, b.X-b.W/2), math.Max(xmax, b.X+b.W/2)
		ymin, ymax = math.Min(ymin, math.Min(b.Y, b.Baseline)), math.Max(ymax, math.Max(b.Y, b.Baseline))
		if b.HasCI {
			ymin, ymax = math.Min(ymin, b.Lo), math.Max(ymax, b.Hi)
		}
	}
	return
}

// swatch is a legend thumbnail: a filled square.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.c, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// hline is a horizontal reference line across the data area.
type hline struct {
	Y     float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (h hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.Y)
	c.StrokeLines(h.Style, c.ClipLinesY([]vg.Point{{X: c.Min.X, Y: y}, {X: c.Max.X, Y: y}})...)
}

// fieldUnits names the unit of the last segment of a --set path, for axis
// labels.
var fieldUnits = map[string]string{
	"init":            "initiative modifier",
	"initiative_roll": "d20 result",
	"hp":              "hit points",
	"ac":              "armour class",
	"dex_ac":          "AC points",
	"attacks":         "attack bonus",
	"damage":          "damage dice",
	"speed":           "feet per round",
	"distance":        "feet",
	"max_rounds":      "rounds",
	"count":           "combatants",
	"reach":           "feet",
	"save":            "save bonus",
	"concentration":   "skill bonus",
	"spellcraft":      "skill bonus",
	"policy":          "tactic",
	"until":           "combatant",
	"trigger":         "trigger",
	"aware":           "true/false",
	"crit":            "threat range/multiplier",
}

// AxisLabel is the axis label of a varied path: the path and its unit.
func AxisLabel(path string) string { return axisLabel(i18n.En, path) }

// axisLabel is AxisLabel in l: the path as written (it is the file
// format), its unit in l.
func axisLabel(l i18n.Lang, path string) string {
	last := path[strings.LastIndexByte(path, '.')+1:]
	if _, ok := fieldUnits[last]; ok {
		return path + " (" + l.T("unit."+last) + ")"
	}
	return path
}

// numeric returns the values as numbers when every one is a number.
func numeric(vals []string) ([]float64, bool) {
	out := make([]float64, len(vals))
	for i, v := range vals {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}

// ErrNoData is returned for a figure of a result with no encounters.
var ErrNoData = msg.Errorf("reports: no encounters to plot")

// SweepFigure draws a sweep: for one axis, each side's win rate against
// the value with 95% interval bars; for two, a heat map of side 0's win
// rate with a colour bar.
//
// Its words (titles, axes, legends, captions) are in l.
func SweepFigure(l i18n.Lang, s *results.Sweep) (*Figure, error) {
	finished := 0
	for _, p := range s.Points {
		if !p.Unfinished {
			finished++
		}
	}
	if s.Encounters == 0 || finished == 0 {
		return nil, ErrNoData
	}
	switch len(s.Axes) {
	case 1:
		return sweepLine(l, s), nil
	case 2:
		return sweepHeat(l, s), nil
	}
	return nil, msg.Errorf("reports: a sweep plot draws one or two varied paths, not %d", len(s.Axes))
}

func sweepLine(l i18n.Lang, s *results.Sweep) *Figure {
	a := s.Axes[0]
	xs, isNum := numeric(a.Values)
	if !isNum {
		xs = make([]float64, len(a.Values))
		for i := range xs {
			xs[i] = float64(i)
		}
	}
	// One panel per side, each on its own zoomed axis: on one shared axis
	// the two curves sit 50 points apart and their intervals vanish.
	var panels [2]*plot.Plot
	for side := 0; side < 2; side++ {
		title, xLabel := "", ""
		if side == 0 {
			title = l.T("fig.sweep.title", a.Path, s.Scenario, s.Seed, sweepN(l, s))
		} else {
			xLabel = axisLabel(l, a.Path)
		}
		p := newPlot(l, title, xLabel, l.T("fig.sweep.y", s.Sides[side]))
		p.Y.Label.TextStyle.Color = SideColors[side]
		hgrid(p)
		zoomSideAxis(l, &p.Y, s, side)
		switch {
		case !isNum:
			p.NominalX(figValues(l, a.Values)...)
			p.X.Padding = vg.Points(20)
		case len(xs) <= 15:
			ticks := make([]plot.Tick, len(xs))
			for i, x := range xs {
				ticks[i] = plot.Tick{Value: x, Label: l.FigureNumber(strings.TrimSpace(a.Values[i]))}
			}
			p.X.Tick.Marker = plot.ConstantTicks(ticks)
		default:
			p.X.Tick.Marker = niceTicks{l: l}
		}
		if isNum {
			// A margin beyond the first and last values, so their points,
			// interval caps and tick labels are not cut at the frame.
			lo, hi := slices.Min(xs), slices.Max(xs)
			pad := 0.04 * math.Max(hi-lo, 1)
			p.X.Min, p.X.Max = lo-pad, hi+pad
		}
		if p.Y.Min <= 50 && 50 <= p.Y.Max {
			p.Add(hline{Y: 50, Style: draw.LineStyle{Color: neutral, Width: vg.Points(0.5), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}})
		}
		var pts plotter.XYs
		var errs plotter.YErrors
		for i, pt := range s.Points {
			if pt.Unfinished {
				continue // no estimate to draw
			}
			r := pt.Result.Sides[side]
			pts = append(pts, plotter.XY{X: xs[i], Y: 100 * r.WinRate})
			errs = append(errs, struct{ Low, High float64 }{100 * (r.WinRate - r.WinCI95[0]), 100 * (r.WinCI95[1] - r.WinRate)})
		}
		col := SideColors[side]
		sc, _ := plotter.NewScatter(pts)
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		if side == 1 {
			sc.GlyphStyle.Shape = draw.BoxGlyph{}
		}
		eb, _ := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		eb.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1)}
		eb.CapWidth = vg.Points(6)
		if isNum {
			// Categories (policies, tactics, dice) have no order between
			// them: points with their intervals, never a line.
			line, _ := plotter.NewLine(pts)
			line.Color, line.Width = col, vg.Points(1.5)
			if side == 1 {
				line.Dashes = []vg.Length{vg.Points(5), vg.Points(2)}
			}
			p.Add(line)
		}
		p.Add(eb, sc)
		panels[side] = p
	}
	const w, h = 6.4 * vg.Inch, 5.2 * vg.Inch
	const lower = 0.46 * h // the second panel; the first has the title above it
	return &Figure{Name: "sweep", W: w, H: h,
		draw: func(dc draw.Canvas) {
			drawPlot(panels[0], draw.Crop(dc, 0, 0, lower, 0))
			drawPlot(panels[1], draw.Crop(dc, 0, 0, 0, -(h-lower)))
		},
		Caption: l.T("fig.sweep.caption", s.Sides[0], s.Sides[1], a.Path)}
}

func sweepN(l i18n.Lang, s *results.Sweep) string {
	if s.Precision > 0 {
		lo, hi := int64(math.MaxInt64), int64(0)
		for _, p := range s.Points {
			if !p.Unfinished {
				lo, hi = min(lo, p.Result.Encounters), max(hi, p.Result.Encounters)
			}
		}
		n := l.Int(lo)
		if hi != lo {
			n += rangeDash(l) + l.Int(hi)
		}
		return l.T("fig.sweep.n.precision", n, l.Reading(pp(s.Precision)))
	}
	return l.T("fig.sweep.n", l.Int(s.MaxN))
}

// winColor maps side 0's win rate in percent to a diverging colour
// centred on 50: white at 50, side 0's colour at 50+span and above, side
// 1's at 50-span and below. span fits the data (heatSpan), so cells a few
// points from even are tinted, not left nearly white by a 0..100 scale.
func winColor(v, span float64) color.RGBA {
	t := math.Max(-1, math.Min(1, (v-50)/span))
	from := SideColors[0]
	if t < 0 {
		from, t = SideColors[1], -t
	}
	mix := func(a uint8) uint8 { return uint8(math.Round(255 + (float64(a)-255)*t)) }
	return color.RGBA{R: mix(from.R), G: mix(from.G), B: mix(from.B), A: 0xFF}
}

// heatSpan is the half-range of a heat map's colour scale around 50%: the
// farthest cell's distance from 50, rounded up to a step the colour bar
// can label (at least 5 points).
func heatSpan(vals []float64) float64 {
	far := 0.0
	for _, v := range vals {
		if !math.IsNaN(v) {
			far = math.Max(far, math.Abs(v-50))
		}
	}
	for _, s := range []float64{5, 10, 15, 20, 25, 30, 40} {
		if far <= s {
			return s
		}
	}
	return 50
}

// cells is a Plotter of heat-map cells centred on integer coordinates.
type cells struct {
	l      i18n.Lang // the labels' number format
	nx, ny int
	v      []float64 // side 0 win rate in %, index i*ny+j for x=i, y=j
	labels bool
	span   float64 // the colour scale's half-range around 50 (heatSpan)
}

// Plot implements plot.Plotter.
func (h cells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := 0; i < h.nx; i++ {
		for j := 0; j < h.ny; j++ {
			v := h.v[i*h.ny+j]
			if math.IsNaN(v) {
				continue // an unfinished point: no colour, no label
			}
			x0, x1 := trX(float64(i)-0.5), trX(float64(i)+0.5)
			y0, y1 := trY(float64(j)-0.5), trY(float64(j)+0.5)
			c.FillPolygon(winColor(v, h.span), c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
			if h.labels {
				col := color.Color(ink)
				if math.Abs(v-50) > 0.6*h.span {
					col = color.White // on a deep colour
				}
				c.FillText(textStyle(8, col), vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, figPct(h.l, v, 1))
			}
		}
	}
}

// DataRange implements plot.DataRanger.
func (h cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(h.nx) - 0.5, -0.5, float64(h.ny) - 0.5
}

func sweepHeat(l i18n.Lang, s *results.Sweep) *Figure {
	ax, ay := s.Axes[0], s.Axes[1]
	p := newPlot(l, l.T("fig.sweep.heat.title", s.Sides[0], ax.Path, ay.Path, s.Scenario, s.Seed, sweepN(l, s)),
		axisLabel(l, ax.Path), axisLabel(l, ay.Path))
	h := cells{l: l, nx: len(ax.Values), ny: len(ay.Values), labels: len(ax.Values) <= 14 && len(ay.Values) <= 20}
	for _, pt := range s.Points {
		v := 100 * pt.Result.Sides[0].WinRate
		if pt.Unfinished {
			v = math.NaN() // drawn blank
		}
		h.v = append(h.v, v)
	}
	h.span = heatSpan(h.v)
	p.Add(h)
	p.NominalX(figValues(l, ax.Values)...)
	p.NominalY(figValues(l, ay.Values)...)
	p.X.Padding, p.Y.Padding = 0, 0
	const barW = 1.25 * vg.Inch
	f := &Figure{Name: "sweep", W: 6.8 * vg.Inch, H: 4.6 * vg.Inch,
		Caption: l.T("fig.sweep.heat.caption", s.Sides[0], ax.Path, ay.Path, s.Sides[0], s.Sides[1])}
	f.draw = func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		main := draw.Crop(dc, 0, -barW, 0, 0)
		drawPlot(p, main)
		data := p.DataCanvas(main)
		colourBar(l, dc, data, dc.Max.X-barW+vg.Points(14), l.T("fig.sweep.bar", s.Sides[0]), h.span)
	}
	return f
}

// colourBar draws the heat map's scale at x, spanning the data area's
// height: side 0's win rate from 50-span to 50+span percent (the colours
// saturate beyond), with five labelled ticks.
func colourBar(l i18n.Lang, dc, data draw.Canvas, x vg.Length, label string, span float64) {
	const steps = 50
	w := vg.Points(14)
	y0, y1 := data.Min.Y, data.Max.Y
	lo := 50 - span
	for k := 0; k < steps; k++ {
		a := y0 + (y1-y0)*vg.Length(k)/steps
		b := y0 + (y1-y0)*vg.Length(k+1)/steps
		dc.FillPolygon(winColor(lo+2*span*(float64(k)+0.5)/steps, span), []vg.Point{{X: x, Y: a}, {X: x + w, Y: a}, {X: x + w, Y: b + 0.3}, {X: x, Y: b + 0.3}})
	}
	line := draw.LineStyle{Color: ink, Width: vg.Points(0.5)}
	dc.StrokeLines(line, []vg.Point{{X: x, Y: y0}, {X: x + w, Y: y0}, {X: x + w, Y: y1}, {X: x, Y: y1}, {X: x, Y: y0}})
	tick := textStyle(9, ink)
	tick.XAlign = draw.XLeft
	for k := 0; k <= 4; k++ {
		v := lo + 2*span*float64(k)/4
		y := y0 + (y1-y0)*vg.Length(k)/4
		dc.StrokeLine2(line, x+w, y, x+w+3, y)
		lab := figNum(l, v, -1)
		if k == 0 && lo > 0 {
			lab = "≤" + lab
		} else if k == 4 && lo+2*span < 100 {
			lab = "≥" + lab
		}
		dc.FillText(tick, vg.Point{X: x + w + 5, Y: y}, lab)
	}
	lab := textStyle(11, ink)
	lab.Rotation = math.Pi / 2
	dc.FillText(lab, vg.Point{X: x + w + vg.Points(38), Y: (y0 + y1) / 2}, label)
}

// CompareFigure draws a comparison: each option's win rates with 95%
// Wilson intervals (left) and the paired difference of side 0's win rate
// to the baseline with its 95% interval (right).
//
// Its words (titles, axes, legends, captions) are in l.
func CompareFigure(l i18n.Lang, c *results.Compare) (*Figure, error) {
	if c.Encounters == 0 {
		return nil, ErrNoData
	}
	names := make([]string, len(c.Options))
	for i, o := range c.Options {
		names[i] = o.Name
	}
	left := newPlot(l, l.T("fig.compare.title", c.Scenario, c.Seed, l.Int(c.Encounters)),
		l.T("fig.compare.x"), l.T("fig.compare.y"))
	hgrid(left)
	percentAxis(l, &left.Y)
	var bs bars
	for i, o := range c.Options {
		for s := 0; s < 2; s++ {
			r := o.Result.Sides[s]
			bs = append(bs, bar{X: float64(i) + (float64(s)-0.5)*0.36, W: 0.34, Y: 100 * r.WinRate,
				Lo: 100 * r.WinCI95[0], Hi: 100 * r.WinCI95[1], HasCI: true, Color: SideColors[s]})
		}
	}
	left.Add(bs)
	left.Y.Max = 114 // room for the legend above 100 %
	left.NominalX(names...)
	left.X.Min, left.X.Max = -0.6, float64(len(names))-0.4
	for s := 0; s < 2; s++ {
		left.Legend.Add(legendText(l, l.T("fig.compare.legend", c.Sides[s])), swatch{SideColors[s]})
	}

	right := newPlot(l, l.T("fig.compare.diff.title", c.Sides[0], c.Baseline),
		l.T("fig.compare.x"), l.T("fig.compare.diff.y"))
	hgrid(right)
	var ds bars
	for i, o := range c.Options[1:] {
		d := o.Diff[0]
		ds = append(ds, bar{X: float64(i), W: 0.5, Y: 100 * d.Diff, Lo: 100 * float64(d.CI95[0]), Hi: 100 * float64(d.CI95[1]),
			HasCI: !math.IsNaN(float64(d.CI95[0])), Color: SideColors[0], Label: "VR " + l.FigureNumber(factor(float64(d.VarianceReduction)))})
	}
	right.Add(hline{Y: 0, Style: draw.LineStyle{Color: ink, Width: vg.Points(0.75)}}, ds)
	right.NominalX(names[1:]...)
	right.X.Min, right.X.Max = -0.6, float64(len(names)-1)-0.4
	// Leave room above the bars for the VR labels.
	lo, hi := right.Y.Min, right.Y.Max
	span := math.Max(hi-lo, 0.5)
	right.Y.Min, right.Y.Max = math.Min(lo, 0)-0.05*span, math.Max(hi, 0)+0.15*span
	right.Y.Tick.Marker = niceTicks{l: l}

	f := &Figure{Name: "compare", W: 9 * vg.Inch, H: 4.2 * vg.Inch,
		Caption: l.T("fig.compare.caption", c.Sides[0], c.Sides[1], c.Sides[0], c.Baseline)}
	f.draw = func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		t := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(16), PadLeft: 4, PadRight: 4, PadTop: 4, PadBottom: 4}
		drawPlot(left, t.At(dc, 0, 0))
		drawPlot(right, t.At(dc, 1, 0))
	}
	return f, nil
}

// RoundsFigure draws the distribution of regular rounds to finish, with a
// 95% Wilson interval on every bar. Rare long fights beyond the 99.9th
// percentile are left out of the drawing and counted in the title.
//
// Its words (titles, axes, legends, captions) are in l.
func RoundsFigure(l i18n.Lang, r *results.Result) (*Figure, error) {
	n := r.Raw.Encounters
	if n == 0 {
		return nil, ErrNoData
	}
	h := r.Raw.RoundsHist()
	top := h.Quantile(0.999)
	top = max(top, 1)
	var bs bars
	var cut int64
	for v, k := range r.Raw.Rounds {
		if k == 0 && len(bs) == 0 {
			continue // start at the shortest fight
		}
		if v > top {
			cut += k
			continue
		}
		ci := stats.Wilson95(k, n)
		bs = append(bs, bar{X: float64(v), W: 0.8, Y: 100 * float64(k) / float64(n), Lo: 100 * ci.Lo, Hi: 100 * ci.Hi, HasCI: k > 0, Color: neutral})
	}
	cut += r.Raw.RoundsOver
	title := l.T("fig.rounds.title", r.Scenario, l.Decimal(r.Rounds.Mean, 2), r.Rounds.P50, r.Rounds.P90, r.Rounds.Max)
	if cut > 0 {
		title += " " + l.T("fig.rounds.cut", l.Percent(float64(cut)/float64(n), 2), top)
	}
	p := newPlot(l, title, l.T("fig.rounds.x"), l.T("fig.encounters_ci"))
	hgrid(p)
	p.Add(bs)
	p.Y.Min = 0
	p.Y.Tick.Marker = niceTicks{l: l}
	p.X.Tick.Marker = niceTicks{l: l, most: 12, integer: true}
	return &Figure{Name: "rounds", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("fig.rounds.caption", l.Int(n))}, nil
}

// figTicks is a Ticker whose labels are rewritten as l's figures write
// numbers.
type figTicks struct {
	l i18n.Lang
	plot.Ticker
}

// Ticks implements plot.Ticker.
func (t figTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := t.Ticker.Ticks(lo, hi)
	for i := range ts {
		ts[i].Label = t.l.FigureNumber(ts[i].Label)
	}
	return ts
}

// niceTicks labels about `most` round values (1, 2 or 5 times a power of
// ten apart), with unlabelled minor ticks halfway; whole numbers only when
// integer is set.
type niceTicks struct {
	l       i18n.Lang // the labels' number format
	most    int
	integer bool
}

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) {
		return []plot.Tick{{Value: lo, Label: t.l.FigureNumber(strconv.FormatFloat(lo, 'g', 4, 64))}}
	}
	most := t.most
	if most == 0 {
		most = 8
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/float64(most))))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(m*mag) <= float64(most) {
			step = m * mag
			break
		}
	}
	if t.integer {
		step = math.Max(step, 1)
	}
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ts []plot.Tick
	first := math.Ceil(lo/step-1e-9) * step
	for k := 0; ; k++ {
		v := first + float64(k)*step
		if v > hi+1e-9*span {
			break
		}
		if v == 0 {
			v = 0 // no "-0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: figNum(t.l, v, dec)})
		if half := v + step/2; half <= hi && !(t.integer && step < 2) {
			ts = append(ts, plot.Tick{Value: half})
		}
	}
	return ts
}

// EconomyFigure draws the action economy: each side's mean count per
// encounter of every action-economy counter some side used (damage is in
// the title: it is not a count of actions), with the 95% interval of each
// mean as a whisker when the result has the sums of squares for it.
//
// Its words (titles, axes, legends, captions) are in l.
func EconomyFigure(l i18n.Lang, r *results.Result) (*Figure, error) {
	n := r.Raw.Encounters
	if n == 0 {
		return nil, ErrNoData
	}
	per := len(r.Raw.Counters)
	var names []string
	var bs bars
	for k, name := range r.Raw.Counters {
		a, b := r.Raw.Counts[k], r.Raw.Counts[per+k]
		if name == "damage_dealt" || (a == 0 && b == 0 && name != "turns" && name != "actions") {
			continue
		}
		x := float64(len(names))
		label := strings.ReplaceAll(name, "_", " ")
		if l.Or() != i18n.En && i18n.Has(l, "counter."+name) {
			// The figure's axis: the word alone, on two lines when it is
			// long (атаки по / возможности), so neighbours do not overlap.
			label = l.T("counter." + name)
			if w := strings.Fields(label); len(w) > 1 && len([]rune(label)) > 10 {
				k := (len(w) + 1) / 2
				label = strings.Join(w[:k], " ") + "\n" + strings.Join(w[k:], " ")
			}
		}
		names = append(names, label)
		for s, v := range []int64{a, b} {
			br := bar{X: x + (float64(s)-0.5)*0.36, W: 0.34, Y: float64(v) / float64(n), Color: SideColors[s]}
			if ci, ok := r.EconomyCI95[r.Sides[s].Name][name]; ok {
				br.Lo, br.Hi, br.HasCI = math.Max(ci[0], 0), ci[1], true
			}
			bs = append(bs, br)
		}
	}
	k := indexOf(r.Raw.Counters, "damage_dealt")
	title := l.T("fig.economy.title", r.Scenario)
	if k >= 0 {
		title += "\n" + l.T("fig.economy.damage", r.Sides[0].Name, l.Decimal(float64(r.Raw.Counts[k])/float64(n), 2), r.Sides[1].Name, l.Decimal(float64(r.Raw.Counts[per+k])/float64(n), 2))
	}
	ylabel := l.T("fig.economy.y")
	if r.EconomyCI95 != nil {
		ylabel = l.T("fig.economy.y.ci")
	}
	p := newPlot(l, title, "", ylabel)
	hgrid(p)
	p.Add(bs)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min = 0
	p.Y.Max *= 1.18 // room for the legend
	p.Y.Tick.Marker = niceTicks{l: l}
	if len(names) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	for s := 0; s < 2; s++ {
		p.Legend.Add(legendText(l, r.Sides[s].Name), swatch{SideColors[s]})
	}
	return &Figure{Name: "economy", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("fig.economy.caption", r.Sides[0].Name, r.Sides[1].Name, ciCaption(l, r.EconomyCI95 != nil))}, nil
}

func ciCaption(l i18n.Lang, has bool) string {
	if has {
		return l.T("fig.economy.caption.ci")
	}
	return ""
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// FirstActorFigure draws who acts first: the share of encounters in which
// each combatant took the first turn, with 95% Wilson intervals, coloured
// by side when sides (one per roster entry) is given, grey otherwise.
//
// A result that records who was first in the initiative order as well
// draws both, per copy group (firstBothFigure).
//
// Its words (titles, axes, legends, captions) are in l.
func FirstActorFigure(l i18n.Lang, r *results.Result, sides []int) (*Figure, error) {
	n := r.Raw.Encounters
	if n == 0 {
		return nil, ErrNoData
	}
	if len(r.Raw.FirstInOrder) == len(r.Raw.Roster) && len(r.Raw.RosterSides) == len(r.Raw.Roster) {
		return firstBothFigure(l, r), nil
	}
	names := append([]string(nil), r.Raw.Roster...)
	counts := append([]int64(nil), r.Raw.FirstActor...)
	if r.Raw.NoActor > 0 {
		names = append(names, l.T("fig.nobody"))
		counts = append(counts, r.Raw.NoActor)
	}
	var bs bars
	for i, k := range counts {
		col := color.Color(neutral)
		if i < len(sides) && len(sides) == len(r.Raw.Roster) && sides[i] >= 0 && sides[i] < 2 {
			col = SideColors[sides[i]]
		}
		ci := stats.Wilson95(k, n)
		bs = append(bs, bar{X: float64(i), W: 0.6, Y: 100 * float64(k) / float64(n), Lo: 100 * ci.Lo, Hi: 100 * ci.Hi, HasCI: true, Color: col,
			Label: figPct(l, 100*float64(k)/float64(n), 1)})
	}
	p := newPlot(l, l.T("fig.first.title", r.Scenario, l.Int(n)), l.T("fig.combatant"), l.T("fig.first.y"))
	hgrid(p)
	p.Add(bs)
	percentAxis(l, &p.Y)
	p.Y.Max = 114 // room for the legend above 100 %
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	if len(names) > 8 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	if len(sides) == len(r.Raw.Roster) {
		for s := 0; s < 2; s++ {
			p.Legend.Add(legendText(l, r.Sides[s].Name), swatch{SideColors[s]})
		}
	}
	return &Figure{Name: "first", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("fig.first.caption")}, nil
}

// spacedText is gonum/plot's plain text with lines a line's height apart
// (the font's ascent, descent and gap, as the text's box counts them)
// rather than one em: with Liberation Sans a title's lines touch, with a
// Hangul font they overlap.
type spacedText struct{ text.Plain }

// Draw implements text.Handler.
func (h spacedText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if !strings.Contains(txt, "\n") {
		// One line: where gonum/plot puts it, which its axes' layout
		// (tick labels drawn the same way) expects.
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	fnt := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	e := fnt.Extents()
	step := max(e.Height, e.Ascent+e.Descent)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := h.Lines(txt)
	// The box's top is at YAlign·height above pt; each line's baseline
	// is its ascent below the line's top.
	top := pt.Y + sty.Height(txt)*(vg.Length(sty.YAlign)+1)
	for i, line := range lines {
		xoffs := vg.Length(sty.XAlign) * fnt.Width(line)
		c.FillString(fnt, vg.Point{X: pt.X + xoffs, Y: top - vg.Length(i)*step - e.Ascent}, line)
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

// rangeDash joins the ends of a range of numbers: Russian typography
// writes an en dash (5000–20 000), the others keep the hyphen their
// figures were drawn with.
func rangeDash(l i18n.Lang) string {
	if l.Or() == i18n.Ru {
		return "–"
	}
	return "-"
}
