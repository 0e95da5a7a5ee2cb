package reports

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

// figureTexts is every text drawn in f.
func figureTexts(t *testing.T, f *Figure) []string {
	t.Helper()
	var out []string
	for _, b := range layout(t, f) {
		if b.text {
			out = append(out, b.what)
		}
	}
	return out
}

// TestRussianFigureNumbers: a Russian figure writes its numbers as Russian
// prose does, on the axes, inside the plot and in the titles: a decimal
// comma (0,5; 45,0%), thousands grouped by a narrow no-break space from
// five digits (10 000), percentage points п. п. The ticks, bar labels and
// heat-map cells were drawn in the machine form (0.5, 45.0%, 10000).
func TestRussianFigureNumbers(t *testing.T) {
	const nn = "\u202f"
	figs := figureKinds(t, i18n.Ru)
	// A sweep over values a user typed with a decimal point, stopped at a
	// precision: its ticks and its title's width.
	s := fixtureSweepPrecision()
	s.Axes[0].Values = []string{"-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5"}
	f, err := SweepFigure(i18n.Ru, s)
	if err != nil {
		t.Fatal(err)
	}
	figs["sweep-precision"] = f

	// A machine-form decimal or an ungrouped number of five digits or
	// more, standing alone (not in a word or a setting such as d20 or
	// init=0.5; a seed follows "зерно" and is not a quantity).
	point := regexp.MustCompile(`(^|[^\p{L}\d_=#/.])[-+]?\d+\.\d`)
	long := regexp.MustCompile(`(^|[^\p{L}\d_=#/.])\d{5,}`)
	all := map[string][]string{}
	for name, f := range figs {
		for _, s := range figureTexts(t, f) {
			all[name] = append(all[name], s)
			if point.MatchString(s) {
				t.Errorf("%s: %q has a decimal point", name, s)
			}
			if m := long.FindString(s); m != "" && !strings.Contains(s, "зерно "+strings.TrimLeft(m, " ")) {
				t.Errorf("%s: %q has an ungrouped number", name, s)
			}
			if strings.Contains(s, "pp") {
				t.Errorf("%s: %q has pp, not п. п.", name, s)
			}
		}
	}
	// And the figures do show those numbers, in the Russian form.
	for _, c := range []struct{ fig, text string }{
		{"tactics", "0,2"},      // x ticks
		{"economy", "0,5"},      // y ticks
		{"first", "45,0%"},      // bar labels
		{"sweep-heat", "50,0%"}, // heat-map cells
		{"compare", "VR 2,57"},  // variance reduction
		{"optimize2-optimize-incumbent", "10" + nn + "000"}, // grouped thousands
		{"sweep-precision", "-1,5"},                         // a typed value as a tick
	} {
		if !slices.Contains(all[c.fig], c.text) {
			t.Errorf("%s: no %q among %q", c.fig, c.text, all[c.fig])
		}
	}
	found := false
	for _, s := range all["sweep-precision"] {
		found = found || strings.Contains(s, "2\u00a0п.\u00a0п.")
	}
	if !found {
		t.Errorf("sweep-precision: the title does not give the width as 2 п. п.: %q", all["sweep-precision"])
	}
}

// TestEnglishFigureNumbersUnchanged: the English figures keep the machine
// form their goldens pin (the Russian rewriting must not leak).
func TestEnglishFigureNumbersUnchanged(t *testing.T) {
	figs := figureKinds(t, i18n.En)
	var texts []string
	for _, f := range figs {
		texts = append(texts, figureTexts(t, f)...)
	}
	for _, want := range []string{"45.0%", "VR 2.57", "10000"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no %q in the English figures", want)
		}
	}
}

// TestValueNotesRussianNumbers: the notes under value's text tables (the
// multiplicity note, the warnings) are written after the tables' reading
// pass and were left in the machine form (-18.6, 95%).
func TestValueNotesRussianNumbers(t *testing.T) {
	v := fixtureValue()
	v.Warnings = append(v.Warnings, "1 hp in units of init: two rays (at most -18.6 or at least 0.61)")
	var b strings.Builder
	if err := WriteValue(v, &b, Text, i18n.Ru); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"-18,6", "0,61", "95\u00a0%"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "-18.6") {
		t.Errorf("a decimal point in\n%s", out)
	}
}
