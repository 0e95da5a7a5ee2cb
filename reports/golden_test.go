package reports

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

var update = flag.Bool("update", false, "rewrite reports/testdata golden tables and images from the current output")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./reports -update rewrites it after checking the change):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGoldenTables(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer, Format) error
	}{
		{"sweep", func(b *bytes.Buffer, f Format) error { return WriteSweep(fixtureSweep1(), b, f, i18n.En) }},
		{"sweep-precision", func(b *bytes.Buffer, f Format) error { return WriteSweep(fixtureSweepPrecision(), b, f, i18n.En) }},
		{"sweep-2d", func(b *bytes.Buffer, f Format) error { return WriteSweep(fixtureSweep2(), b, f, i18n.En) }},
		{"compare", func(b *bytes.Buffer, f Format) error { return WriteCompare(fixtureCompare(), b, f, i18n.En) }},
		{"value", func(b *bytes.Buffer, f Format) error { return WriteValue(fixtureValue(), b, f, i18n.En) }},
		{"matrix", func(b *bytes.Buffer, f Format) error { return WriteMatrix(fixtureMatrix(), b, f, i18n.En) }},
	} {
		for _, f := range []struct {
			format Format
			ext    string
		}{{Text, "txt"}, {CSV, "csv"}, {Markdown, "md"}} {
			var b bytes.Buffer
			if err := c.write(&b, f.format); err != nil {
				t.Fatal(err)
			}
			golden(t, c.name+"."+f.ext, b.Bytes())
		}
	}
}

func fixtureFigures(t *testing.T) map[string]*Figure {
	t.Helper()
	r := fixtureResult(10000, 0.6, 0.01, nil)
	figs := map[string]*Figure{}
	add := func(name string, f *Figure, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		figs[name] = f
	}
	f, err := SweepFigure(i18n.En, fixtureSweep1())
	add("sweep-line", f, err)
	f, err = SweepFigure(i18n.En, fixtureSweep2())
	add("sweep-heat", f, err)
	f, err = CompareFigure(i18n.En, fixtureCompare())
	add("compare-bars", f, err)
	f, err = RoundsFigure(i18n.En, r)
	add("rounds-hist", f, err)
	f, err = EconomyFigure(i18n.En, r)
	add("economy-bars", f, err)
	f, err = FirstActorFigure(i18n.En, r, []int{0, 1})
	add("first-bars", f, err)
	o := fixtureOutcomes(10000)
	f, err = FirstActorFigure(i18n.En, o, nil)
	add("first-both-bars", f, err)
	f, err = CombatantsFigure(i18n.En, o)
	add("combatants-bars", f, err)
	f, err = DamageFigure(i18n.En, o)
	add("damage-hist", f, err)
	f, err = HPLeftFigure(i18n.En, o)
	add("hpleft-hist", f, err)
	f, err = TornadoFigure(i18n.En, fixtureValue())
	add("tornado", f, err)
	f, err = MatrixFigure(i18n.En, fixtureMatrix())
	add("matrix-heat", f, err)
	return figs
}

// TestGoldenFigures renders one figure of each kind from fixed data and
// compares the SVG text byte for byte and the PNG pixel for pixel with
// testdata (-update rewrites them). Rendering is deterministic, so both
// must be identical on one platform; the PNG comparison tolerates a few
// antialiasing differences (another CPU's floating point), which the exact
// SVG comparison does not need.
func TestGoldenFigures(t *testing.T) {
	for name, f := range fixtureFigures(t) {
		var svg, svg2, pngB bytes.Buffer
		if err := f.SVG(&svg); err != nil {
			t.Fatal(err)
		}
		if err := f.SVG(&svg2); err != nil || !bytes.Equal(svg.Bytes(), svg2.Bytes()) {
			t.Errorf("%s: two renderings differ", name)
		}
		golden(t, name+".svg", svg.Bytes())
		if raceEnabled && !*update && name != "sweep-line" && name != "compare-bars" {
			continue
		}
		if err := f.PNG(&pngB); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name+".png")
		if *update {
			if err := os.WriteFile(path, pngB.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./reports -update to create it)", err)
		}
		if n, total, err := pixelDiff(pngB.Bytes(), want); err != nil {
			t.Errorf("%s.png: %v", name, err)
		} else if n*1000 > total {
			t.Errorf("%s.png: %d of %d pixels differ from the golden image", name, n, total)
		}
	}
}

// pixelDiff counts the pixels of two PNG images that differ by more than
// a faint antialiasing step in some channel.
func pixelDiff(a, b []byte) (n, total int, err error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, 0, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, 0, err
	}
	if ia.Bounds() != ib.Bounds() {
		return 0, 0, errSize(ia.Bounds(), ib.Bounds())
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := ia.At(x, y).RGBA()
			r2, g2, b2, a2 := ib.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) || far(a1, a2) {
				n++
			}
		}
	}
	return n, r.Dx() * r.Dy(), nil
}

func far(a, b uint32) bool { return a > b+0x0800 || b > a+0x0800 }

type sizeError struct{ got, want image.Rectangle }

func (e sizeError) Error() string { return "size " + e.got.String() + ", golden " + e.want.String() }

func errSize(a, b image.Rectangle) error { return sizeError{a, b} }

func TestSweepFinishWarns(t *testing.T) {
	s := fixtureSweepPrecision()
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "1 of 7 points") {
		t.Errorf("warnings: %q", s.Warnings)
	}
	if s.Encounters != 80000 {
		t.Errorf("total %d", s.Encounters)
	}
}
