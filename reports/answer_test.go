package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

// TestSizeOf pins the stated rule at its edges: an interval touching 0 is
// "none detected", one whose nearer end is 2 pp from 0 is "clear", and
// the sign does not matter.
func TestSizeOf(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   Size
	}{
		{-0.001, 0.05, SizeNone},
		{0, 0.05, SizeNone},
		{-0.05, 0, SizeNone},
		{0.0001, 0.05, SizeSmall},
		{0.0199, 0.05, SizeSmall},
		{0.02, 0.05, SizeClear},
		{-0.05, -0.02, SizeClear},
		{-0.05, -0.0199, SizeSmall},
	} {
		if got := SizeOf(c.lo, c.hi); got != c.want {
			t.Errorf("SizeOf(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// TestCompareAnswerFirst: the text output's first line after the heading
// is the verdict, with each option's paired difference, its interval and
// its size, in every language; the numbers are the table's own.
func TestCompareAnswerFirst(t *testing.T) {
	c := fixtureCompare()
	for _, l := range []i18n.Lang{i18n.En, i18n.Ko, i18n.Ru} {
		var b bytes.Buffer
		if err := WriteCompareLang(c, &b, Text, l); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		head := l.T("answer.text", "")
		if !strings.HasPrefix(lines[1], head) {
			t.Fatalf("%s: line 2 is %q, want the answer (%q...)", l, lines[1], head)
		}
		verdict := strings.Join(lines[1:3], " ")
		for k, o := range c.Options[1:] {
			d := o.Diff[0]
			want := []string{o.Name, prosePP(l, d.Diff, true), SizeOf(float64(d.CI95[0]), float64(d.CI95[1])).word(l)}
			for _, w := range want {
				if !strings.Contains(verdict, w) {
					t.Errorf("%s: option %d: the answer %q lacks %q", l, k+1, verdict, w)
				}
			}
		}
	}
	// The fixture's two options: +3.96 pp [+3.35, +4.57] is clear (the
	// whole interval beyond 2 pp), -7.48 pp too.
	var b bytes.Buffer
	WriteCompareLang(c, &b, Text, i18n.En)
	if !strings.Contains(b.String(), "answer: heroes win rate against base: init+4 +3.96 pp [+3.35, +4.57], clear; delay -7.48 pp") {
		t.Errorf("the verdict line is not as the rule says:\n%s", b.String())
	}
}

// TestReportAnswersFirst: a report of a run and a comparison says the
// comparison's verdict before the run's first table, in the HTML and
// the Markdown.
func TestReportAnswersFirst(t *testing.T) {
	b, dir := fixtureBundle(t)
	if _, err := b.Write(dir); err != nil {
		t.Fatal(err)
	}
	verdict := compareAnswer(b.Inputs[2].Compare, b.Lang)
	for _, f := range []struct{ file, verdict, first string }{
		{"report.html", inline(verdict), "<table"},
		{"report.md", mdNote(verdict), "|:---"},
	} {
		page, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil {
			t.Fatal(err)
		}
		v, first := bytes.Index(page, []byte(f.verdict)), bytes.Index(page, []byte(f.first))
		if v < 0 || first < 0 || v > first {
			t.Errorf("%s: the comparison's verdict (at %d) does not come before the first table (at %d)", f.file, v, first)
		}
	}
}
