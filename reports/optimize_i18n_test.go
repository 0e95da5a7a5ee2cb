package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// optimizeDocs are the optimize fixtures (testdata/optimize-*.json, real
// documents of small searches): a one-dimensional search that separated
// with candidates beating the baseline, a two-dimensional one screened
// first that stopped within δ, and a double oracle; then the first again,
// interrupted, with the statement of a budget that ended undecided.
func optimizeDocs(t testing.TB) []*results.Optimize {
	t.Helper()
	var out []*results.Optimize
	for _, name := range []string{"optimize-1d.json", "optimize-2d.json", "optimize-oracle.json"} {
		path := filepath.Join("testdata", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in, err := results.ParseInput(path, data)
		if err != nil {
			t.Fatal(err)
		}
		if in.Optimize == nil {
			t.Fatalf("%s: not an optimize document", path)
		}
		out = append(out, in.Optimize)
	}
	undecided := *out[0]
	undecided.Interrupted = true
	g := undecided.Guarantee
	undecided.Guarantee.Statement = results.GuaranteeText(g.Alpha, g.Delta, g.Evaluated, g.Screened, g.Space, false)
	return append(out, &undecided)
}

// TestOptimizeStatementForms: every guarantee statement simctl optimize
// records is one the reports know: the English text of its keys with the
// arguments read back is the statement itself, and Korean and Russian say
// it in their own words.
func TestOptimizeStatementForms(t *testing.T) {
	var sts []string
	for _, sep := range []bool{true, false} {
		sts = append(sts, results.GuaranteeText(0.05, 0.005, 35, 0, 35, sep), results.GuaranteeText(0.01, 0.01, 16, 10, 63, sep))
	}
	for _, o := range optimizeDocs(t) {
		sts = append(sts, o.Guarantee.Statement)
	}
	for _, st := range sts {
		// English through the forms' keys (optStatement returns English
		// as recorded, so the keys are read here directly).
		matched := false
		for _, f := range optStatementForms {
			m := f.re.FindStringSubmatchIndex(st)
			if m == nil {
				continue
			}
			matched = true
			sub := f.re.FindStringSubmatch(st)
			args := make([]any, len(sub)-1)
			for i, a := range sub[1:] {
				args[i] = a
			}
			got := i18n.En.T(f.key, args...)
			rest := st[m[1]:]
			for _, e := range optStatementEnds {
				if em := e.re.FindStringSubmatch(rest); em != nil && e.key != "" {
					eargs := make([]any, len(em)-1)
					for i, a := range em[1:] {
						eargs[i] = a
					}
					got += e.pre + i18n.En.T(e.key, eargs...)
				} else if em != nil {
					break
				}
			}
			if got != st {
				t.Errorf("%s does not say the statement again:\n got %q\nwant %q", f.key, got, st)
			}
		}
		if !matched {
			t.Errorf("statement not known to the reports: %q", st)
		}
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			for _, got := range []string{optStatementLang(l, st), optStatementText(l, st)} {
				if got == st || strings.Contains(got, "probability") || strings.Contains(got, "evaluated") {
					t.Errorf("%s: statement left in English: %q", l, got)
				}
			}
		}
	}
	if got := optStatementLang(i18n.Ru, results.GuaranteeText(0.05, 0.005, 35, 0, 35, true)); !strings.Contains(got, "0,50") {
		t.Errorf("ru prose: want a decimal comma, got %q", got)
	}
}

// TestGoldenOptimizeLang: the optimize section of simctl report in Korean
// and Russian (a search with its landscape line, a screened search with
// its heat map, a double oracle, an interrupted undecided search) against
// testdata/report-optimize.LANG.md, with no English sentence of the
// catalog left in it or its figures.
func TestGoldenOptimizeLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		b := &Bundle{Section: shipped, Title: l.T("report.title.scenario", "Fighter vs Orc"), Lang: l, Version: "0.1.0+test",
			Command: "simctl report o1.json o2.json oracle.json o4.json -o out --lang " + string(l)}
		for i, o := range optimizeDocs(t) {
			b.Inputs = append(b.Inputs, &results.Input{Path: []string{"o1.json", "o2.json", "oracle.json", "o4.json"}[i], Optimize: o})
		}
		secs := langSections(t, b)
		var md bytes.Buffer
		b.markdown(&md, secs)
		golden(t, "report-optimize."+string(l)+".md", md.Bytes())
		var figText strings.Builder
		nfig := 0
		for _, s := range secs {
			for _, f := range s.figures {
				nfig++
				var svg bytes.Buffer
				if err := f.SVG(&svg); err != nil {
					t.Fatal(err)
				}
				figText.WriteString(f.Caption + "\n" + svg.String())
			}
		}
		if nfig != 6 { // the incumbent and the landscape of each search
			t.Errorf("%s: %d figures, want 6", l, nfig)
		}
		leftovers(t, l, md.String()+figText.String())
	}
}

// TestGoldenOptimizeText: simctl optimize's text table in Korean and
// Russian (testdata/optimize.LANG.txt), English untouched.
func TestGoldenOptimizeText(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		var b bytes.Buffer
		for _, o := range optimizeDocs(t) {
			if err := WriteOptimize(o, &b, Text, l); err != nil {
				t.Fatal(err)
			}
			b.WriteString("\n")
		}
		golden(t, "optimize."+string(l)+".txt", b.Bytes())
		leftovers(t, l, b.String())
	}
}

// TestOptimizeFiguresKorean: the optimize figures in Korean draw every
// letter with the Hangul font (no boxes) and render to PNG. It needs
// NanumGothic: skipped without it, unless SIMCTL_FONTS is set.
func TestOptimizeFiguresKorean(t *testing.T) {
	path := systemFonts[0]
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("SIMCTL_FONTS") != "" {
			t.Fatalf("SIMCTL_FONTS is set and %v", err)
		}
		t.Skipf("no NanumGothic (%v): apt-get install fonts-nanum", err)
	}
	if err := UseFigureFont(i18n.Ko, path); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range optimizeDocs(t) {
		for _, f := range optimizeFigures(i18n.Ko, o) {
			n++
			if err := f.checkGlyphs(); err != nil {
				t.Errorf("%s: %v", f.Name, err)
			}
			var png bytes.Buffer
			if err := f.PNG(&png); err != nil || png.Len() == 0 {
				t.Errorf("%s: PNG: %v", f.Name, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no figures")
	}
}
