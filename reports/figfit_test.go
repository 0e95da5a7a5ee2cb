package reports

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"simctl/reports/i18n"
)

// box is a drawn text's or shape's extent in the figure's own points,
// origin at the bottom left.
type box struct {
	what                   string
	x0, y0, x1, y1         float64
	fill                   color.Color
	text                   bool
	rotated                bool
	legendSwatch, plotArea bool
}

func (b box) String() string {
	return fmt.Sprintf("%q [%.1f,%.1f]-[%.1f,%.1f]", b.what, b.x0, b.y0, b.x1, b.y1)
}

// affine is x' = a·x + c·y + e, y' = b·x + d·y + f.
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) mul(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

func (m affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.c*y + m.e, m.b*x + m.d*y + m.f
}

// layout replays f's drawing and returns where each text and each filled
// shape lands: the transforms (rotated axis labels) applied, a text's box
// from its font's measured width, ascent and descent.
func layout(t *testing.T, f *Figure) []box {
	t.Helper()
	var rec recorder.Canvas
	f.render(draw.NewCanvas(&rec, f.W, f.H))
	m := affine{a: 1, d: 1}
	var stack []affine
	var col color.Color = color.Black
	var out []box
	bound := func(what string, pts [][2]float64) box {
		b := box{what: what, x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
		for _, p := range pts {
			x, y := m.apply(p[0], p[1])
			b.x0, b.y0, b.x1, b.y1 = math.Min(b.x0, x), math.Min(b.y0, y), math.Max(b.x1, x), math.Max(b.y1, y)
		}
		return b
	}
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.Push:
			stack = append(stack, m)
		case *recorder.Pop:
			m, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case *recorder.Translate:
			m = m.mul(affine{a: 1, d: 1, e: float64(a.Point.X), f: float64(a.Point.Y)})
		case *recorder.Scale:
			m = m.mul(affine{a: a.X, d: a.Y})
		case *recorder.Rotate:
			s, c := math.Sincos(a.Angle)
			m = m.mul(affine{a: c, b: s, c: -s, d: c})
		case *recorder.SetColor:
			col = a.Color
		case *recorder.Fill:
			var pts [][2]float64
			for _, c := range a.Path {
				if c.Type == vg.CloseComp {
					continue // carries no point
				}
				pts = append(pts, [2]float64{float64(c.Pos.X), float64(c.Pos.Y)})
			}
			if len(pts) > 0 {
				b := bound("fill", pts)
				b.fill = col
				out = append(out, b)
			}
		case *recorder.FillString:
			face := font.DefaultCache.Lookup(a.Font, a.Size)
			if face.Face == nil {
				t.Fatalf("%s: font %v not loaded", f.Name, a.Font)
			}
			w := float64(face.Width(a.String))
			ext := face.Extents()
			x, y := float64(a.Point.X), float64(a.Point.Y)
			b := bound(a.String, [][2]float64{{x, y - float64(ext.Descent)}, {x + w, y + float64(ext.Ascent)}, {x, y + float64(ext.Ascent)}, {x + w, y - float64(ext.Descent)}})
			b.text, b.rotated = true, m.b != 0 || m.c != 0
			if strings.TrimSpace(a.String) != "" {
				out = append(out, b)
			}
		}
	}
	return out
}

// fitProblems is what a reader would see wrong in f: text or a filled
// shape outside the canvas, and texts that overlap.
func fitProblems(t *testing.T, f *Figure) []string {
	const slack = 0.5 // points: antialiasing, not a cut letter
	W, H := float64(f.W), float64(f.H)
	var bad []string
	boxes := layout(t, f)
	var texts []box
	for _, b := range boxes {
		if b.x0 < -slack || b.y0 < -slack || b.x1 > W+slack || b.y1 > H+slack {
			bad = append(bad, fmt.Sprintf("%s lies outside the %.0f×%.0f canvas", b, W, H))
		}
		if b.text {
			texts = append(texts, b)
		}
	}
	// Overlap: boxes share more than a sliver in both directions (a
	// descender touching the line below is not an overlap).
	const sliver = 1.5
	for i := range texts {
		for j := i + 1; j < len(texts); j++ {
			a, b := texts[i], texts[j]
			dx := math.Min(a.x1, b.x1) - math.Max(a.x0, b.x0)
			dy := math.Min(a.y1, b.y1) - math.Max(a.y0, b.y0)
			if dx > sliver && dy > sliver {
				bad = append(bad, fmt.Sprintf("%s overlaps %s", a, b))
			}
		}
	}
	return bad
}

// figureKinds builds every kind of figure simctl draws, in l, from the
// test fixtures: a run's six, the tactics figure, a sweep's line and heat
// map, a comparison, the tornado, the matrix, and optimize's figures.
func figureKinds(t *testing.T, l i18n.Lang) map[string]*Figure {
	t.Helper()
	figs := map[string]*Figure{}
	add := func(name string, f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		figs[name] = f
	}
	r := fixtureResult(10000, 0.6, 0.01, nil)
	o := fixtureOutcomesTactics()
	f, err := RoundsFigure(l, r)
	add("rounds", f, err)
	f, err = EconomyFigure(l, r)
	add("economy", f, err)
	f, err = FirstActorFigure(l, r, []int{0, 1})
	add("first", f, err)
	f, err = FirstActorFigure(l, o, nil)
	add("first-both", f, err)
	f, err = CombatantsFigure(l, o)
	add("combatants", f, err)
	f, err = DamageFigure(l, o)
	add("damage", f, err)
	f, err = HPLeftFigure(l, o)
	add("hpleft", f, err)
	f, err = TacticsFigure(l, o)
	add("tactics", f, err)
	f, err = SweepFigure(l, fixtureSweep1())
	add("sweep", f, err)
	f, err = SweepFigure(l, fixtureSweep2())
	add("sweep-heat", f, err)
	f, err = CompareFigure(l, fixtureCompare())
	add("compare", f, err)
	f, err = TornadoFigure(l, fixtureValue())
	add("tornado", f, err)
	f, err = MatrixFigure(l, fixtureMatrix())
	add("matrix", f, err)
	for i, doc := range optimizeDocs(t)[:2] {
		for _, f := range optimizeFigures(l, doc) {
			figs[fmt.Sprintf("optimize%d-%s", i+1, f.Name)] = f
		}
	}
	return figs
}

// TestFiguresFit draws every figure kind in English, Korean and Russian
// and fails on any text or bar outside the canvas and on texts that run
// into each other: what a reader sees as a cut letter, a lost bar or two
// subtitles printed over one another.
func TestFiguresFit(t *testing.T) {
	langs := []i18n.Lang{i18n.En, i18n.Ru}
	if _, err := os.Stat(systemFonts[0]); err == nil {
		if err := UseFigureFont(i18n.Ko, systemFonts[0]); err != nil {
			t.Fatal(err)
		}
		langs = append(langs, i18n.Ko)
	} else if os.Getenv("SIMCTL_FONTS") != "" {
		t.Fatalf("SIMCTL_FONTS is set and %v", err)
	} else {
		t.Logf("Korean figures not checked: no %s (apt-get install fonts-nanum)", systemFonts[0])
	}
	for _, l := range langs {
		for name, f := range figureKinds(t, l) {
			for _, p := range fitProblems(t, f) {
				t.Errorf("%s %s: %s", l, name, p)
			}
		}
	}
}

// TestLegendSwatchesMatchBars: every colour a legend swatch of the tactics
// figure shows is the colour of some bar (the swatches were black and
// grey beside blue and orange bars).
func TestLegendSwatchesMatchBars(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		f, err := TacticsFigure(l, fixtureOutcomesTactics())
		if err != nil {
			t.Fatal(err)
		}
		var swatches, bars []box
		for _, b := range layout(t, f) {
			if b.text || b.fill == nil {
				continue
			}
			// A legend thumbnail is 20 points wide and a text line high
			// (or a stripe of one); the bars are taller.
			if b.x1-b.x0 <= 20.5 && b.y1-b.y0 < 12 {
				swatches = append(swatches, b)
			} else {
				bars = append(bars, b)
			}
		}
		if len(swatches) == 0 {
			t.Fatalf("%s: no legend swatch found", l)
		}
		for _, s := range swatches {
			found := false
			for _, b := range bars {
				found = found || sameColour(s.fill, b.fill)
			}
			if !found {
				t.Errorf("%s: a legend swatch at %s is %v, the colour of no bar", l, s, s.fill)
			}
		}
	}
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
