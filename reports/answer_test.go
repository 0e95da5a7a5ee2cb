package reports

import (
	"bytes"
	"fmt"
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
		if err := WriteCompare(c, &b, Text, l); err != nil {
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
	WriteCompare(c, &b, Text, i18n.En)
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

// TestSharesAddUp: shares of a whole are shown so that they add up to
// 100.00% exactly (the duel's first to act, 11,527 and 8,473 of 20,000,
// is 57.635% and 42.365%: one by one they round to 100.01%).
func TestSharesAddUp(t *testing.T) {
	got := shares([]float64{11527.0 / 20000, 8473.0 / 20000})
	if got[0] != "57.64%" || got[1] != "42.36%" {
		t.Errorf("shares = %v, want [57.64%% 42.36%%]", got)
	}
	for _, fr := range [][]float64{{1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.12345, 0.5, 0.37655}, {1}, {0.00005, 0.99995}} {
		var sum int
		for _, s := range shares(fr) {
			var a, b int
			if _, err := fmt.Sscanf(s, "%d.%d%%", &a, &b); err != nil {
				t.Fatal(err)
			}
			sum += 100*a + b
		}
		if sum != 10000 {
			t.Errorf("shares(%v) = %v: sum %d hundredths of a percent, want 10000", fr, shares(fr), sum)
		}
	}
	if got := shares([]float64{0.5, 0.2}); got[0] != "50.00%" || got[1] != "20.00%" {
		t.Errorf("fractions that are not a whole are rounded one by one: %v", got)
	}
}

// TestCombatantsNoteNamesRealCopies: the combatants table's note speaks
// of copies only when the roster has some, and then with its own.
func TestCombatantsNoteNamesRealCopies(t *testing.T) {
	if n := combatantsNote(i18n.En, fixtureResult(1000, 0.6, 0.01, nil)); strings.Contains(n, "Copies") || strings.Contains(n, "Hobgoblin") {
		t.Errorf("a duel's note speaks of copies: %q", n)
	}
	r := fixtureOutcomes(1000)
	var g string
	for _, x := range r.Groups {
		if x.Copies > 1 {
			g = fmt.Sprintf("(%s ×%d for %s#1..#%d)", x.Name, x.Copies, x.Name, x.Copies)
			break
		}
	}
	if n := combatantsNote(i18n.En, r); g == "" || !strings.Contains(n, g) {
		t.Errorf("the note %q should name the roster's copies %q", n, g)
	}
}

// TestMarkdownKeepsLessThan: "<0.0001" is written as it reads in report.md
// (no tag starts with a digit), while a name that could open a tag is
// still escaped.
func TestMarkdownKeepsLessThan(t *testing.T) {
	for in, want := range map[string]string{
		"<0.0001":         "<0.0001",
		"p <0.0001, < 1":  "p <0.0001, < 1",
		"<script>":        "&lt;script&gt;",
		"</b>":            "&lt;/b&gt;",
		"<!-- x -->":      "&lt;!-- x --&gt;",
		"a<":              "a<",
		"<http://x.test>": "&lt;http://x.test&gt;",
	} {
		if got := mdInline(in); got != want {
			t.Errorf("mdInline(%q) = %q, want %q", in, got, want)
		}
	}
	var b bytes.Buffer
	if err := WriteCompare(fixtureCompare(), &b, Markdown, i18n.En); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "&lt;0.0001") || !strings.Contains(b.String(), "| <0.0001 |") {
		t.Errorf("the Markdown table writes p as &lt;0.0001:\n%s", b.String())
	}
}
