package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// langBundle is one run, one comparison and one value document, the
// report's three kinds the golden reports in Korean and Russian cover.
func langBundle(l i18n.Lang) *Bundle {
	r := fixtureResult(10000, 0.6, 0.01, []string{"heroes.Fighter.init=3"})
	ctx := &results.Context{ScenarioYAML: "name: Fighter vs Orc\nruleset: d20\n", RosterSides: []int{0, 1},
		Options: []results.OptionValue{{Name: "dying", Value: "out-at-0", Default: true}, {Name: "confirm_crits", Value: "false"}}}
	c := fixtureCompare()
	c.Context = ctx
	return &Bundle{Section: shipped, Title: l.T("report.title.scenario", "Fighter vs Orc"), Lang: l, Version: "0.1.0+test",
		Command: "simctl report run.json compare.json value.json -o out --lang " + string(l),
		Inputs:  []*results.Input{{Path: "run.json", Run: r, Context: ctx}, {Path: "compare.json", Compare: c}, {Path: "value.json", Value: fixtureValueDoc()}}}
}

func langSections(t *testing.T, b *Bundle) []*Section {
	t.Helper()
	var secs []*Section
	for i, in := range b.Inputs {
		s, err := b.section(i+1, in)
		if err != nil {
			t.Fatal(err)
		}
		secs = append(secs, s)
	}
	return secs
}

// TestGoldenReportLang: the Markdown report of a run, a comparison and a
// value document in Korean and Russian against testdata/report.LANG.md
// (-update rewrites them), and no sentence of simctl's English catalog
// left in them.
func TestGoldenReportLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		b := langBundle(l)
		secs := langSections(t, b)
		var md bytes.Buffer
		b.markdown(&md, secs)
		golden(t, "report."+string(l)+".md", md.Bytes())
		// Every figure's title, labels and caption are in l too.
		var figText strings.Builder
		for _, s := range secs {
			for _, f := range s.figures {
				var svg bytes.Buffer
				if err := f.SVG(&svg); err != nil {
					t.Fatal(err)
				}
				figText.WriteString(f.Caption + "\n" + svg.String())
			}
		}
		leftovers(t, l, md.String()+figText.String())
	}
}

// leftovers fails on any English catalog text of four words or more (its
// literal parts between the verbs) found in out: a surface still wired to
// English.
func leftovers(t *testing.T, l i18n.Lang, out string) {
	t.Helper()
	verbs := regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]|\n`)
	for _, k := range i18n.Keys(i18n.En) {
		for _, part := range verbs.Split(i18n.Text(i18n.En, k), -1) {
			part = strings.TrimSpace(part)
			if len(strings.Fields(part)) >= 4 && strings.Contains(out, part) {
				t.Errorf("%s report: English %q (message %s) is left in it", l, part, k)
			}
		}
	}
}

// TestFigureWithoutGlyphs: a figure whose font lacks a character it draws
// (a Hangul name in a figure with Liberation Sans) is an error naming the
// package to install, never a figure with boxes.
func TestFigureWithoutGlyphs(t *testing.T) {
	r := fixtureResult(1000, 0.6, 0.01, nil)
	r.Sides[0].Name = "영웅들"
	f, err := EconomyFigure(i18n.En, r)
	if err != nil {
		t.Fatal(err)
	}
	err = f.checkGlyphs()
	if err == nil || !strings.Contains(err.Error(), "fonts-nanum") || !strings.Contains(err.Error(), "영웅들") {
		t.Fatalf("want an error naming the letters and fonts-nanum, got %v", err)
	}
	r.Sides[0].Name = "герои" // Liberation Sans has Cyrillic
	if f, err = EconomyFigure(i18n.Ru, r); err != nil {
		t.Fatal(err)
	}
	if err := f.checkGlyphs(); err != nil {
		t.Fatal(err)
	}
}

func TestUseFigureFontErrors(t *testing.T) {
	if err := UseFigureFont(i18n.Ru, ""); err != nil {
		t.Fatalf("Russian needs no font: %v", err)
	}
	err := UseFigureFont(i18n.Ko, "testdata/compare.csv")
	if err == nil || !strings.Contains(err.Error(), "not a TrueType or OpenType font") {
		t.Errorf("a CSV as --font: %v", err)
	}
	dejavu := "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
	if _, err := os.Stat(dejavu); err == nil {
		err := UseFigureFont(i18n.Ko, dejavu)
		if err == nil || !strings.Contains(err.Error(), "no glyphs") || !strings.Contains(err.Error(), "fonts-nanum") {
			t.Errorf("DejaVu Sans for Korean: %v", err)
		}
	}
}

// nanumSHA256 is the fonts-nanum NanumGothic.ttf (Debian 20200506-1) the
// Korean golden figure was drawn with: another font has other metrics.
const nanumSHA256 = "48a28e97b34fc8e5b157657633670cd1b7de126cfc414da65ce9c3d5bc8be733"

// TestGoldenKoreanFigure: a Korean figure drawn with NanumGothic against
// testdata/ko-first-bars.png (and .svg). It needs the font: skipped
// without it, unless SIMCTL_FONTS is set (CI installs fonts-nanum).
func TestGoldenKoreanFigure(t *testing.T) {
	path := systemFonts[0]
	data, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("SIMCTL_FONTS") != "" {
			t.Fatalf("SIMCTL_FONTS is set and %v", err)
		}
		t.Skipf("no NanumGothic (%v): apt-get install fonts-nanum", err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != nanumSHA256 {
		t.Skipf("%s is another version of the font (SHA-256 %x); the golden figure was drawn with %s", path, sum, nanumSHA256)
	}
	if err := UseFigureFont(i18n.Ko, path); err != nil {
		t.Fatal(err)
	}
	r := fixtureResult(10000, 0.6, 0.01, nil)
	f, err := FirstActorFigure(i18n.Ko, r, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.checkGlyphs(); err != nil {
		t.Fatal(err)
	}
	var svg, pngB bytes.Buffer
	if err := f.SVG(&svg); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg.Bytes(), []byte("font-family:'NanumGothic',NanumGothic,'Noto Sans CJK KR'")) {
		t.Error("the SVG does not name NanumGothic with its fallbacks")
	}
	golden(t, "ko-first-bars.svg", svg.Bytes())
	if err := f.PNG(&pngB); err != nil {
		t.Fatal(err)
	}
	gp := filepath.Join("testdata", "ko-first-bars.png")
	if *update {
		if err := os.WriteFile(gp, pngB.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(gp)
	if err != nil {
		t.Fatal(err)
	}
	if n, total, err := pixelDiff(pngB.Bytes(), want); err != nil || n*1000 > total {
		t.Errorf("ko-first-bars.png: %d of %d pixels differ (%v)", n, total, err)
	}
}

// TestUnitsTranslated: every unit an axis label can name has a message
// in every language (the key is built at run time, so the catalog test
// cannot see it).
func TestUnitsTranslated(t *testing.T) {
	for field := range fieldUnits {
		for _, l := range i18n.Langs {
			if !i18n.Has(l, "unit."+field) {
				t.Errorf("%s: no unit.%s", l, field)
			}
		}
		if got := i18n.Text(i18n.En, "unit."+field); got != fieldUnits[field] {
			t.Errorf("unit.%s: English %q, fieldUnits %q", field, got, fieldUnits[field])
		}
	}
}

// BenchmarkFigureGlyphCheck against BenchmarkFigurePNG (the economy figure): what the check
// that no text becomes boxes adds to rendering a figure (one more draw
// into a recorder, each string's runes looked up in its font).
func BenchmarkFigureGlyphCheck(b *testing.B) {
	f, err := EconomyFigure(i18n.Ru, fixtureResult(10000, 0.6, 0.01, nil))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := f.checkGlyphs(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFigurePNG(b *testing.B) {
	f, err := EconomyFigure(i18n.Ru, fixtureResult(10000, 0.6, 0.01, nil))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var buf bytes.Buffer
		if err := f.PNG(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
