package reports

import (
	"fmt"
	"math"
	"strings"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// A designer reads a report for its answer; the statistics behind it
// follow. answer is what an input answers, in a line or a few, in l: the
// report opens with it (before the sections' detail) and the text output
// of compare leads with the same line.

// Size is a paired difference's size in plain words, by one stated rule
// (SizeRule): none detected when the 95% interval contains 0 (or has no
// finite bound); clear when the whole interval lies at least ClearPP from
// 0; small otherwise.
type Size int

const (
	SizeNone Size = iota
	SizeSmall
	SizeClear
)

// ClearPP is the distance from 0, in win-rate points (as a fraction),
// that a whole interval must keep for a difference to be called clear: a
// designer who plays a few sessions would notice two fights in a hundred
// going the other way, and not much less.
const ClearPP = 0.02

// SizeOf applies the rule to a difference's 95% interval [lo, hi].
func SizeOf(lo, hi float64) Size {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || (lo <= 0 && hi >= 0) {
		return SizeNone
	}
	if math.Min(math.Abs(lo), math.Abs(hi)) >= ClearPP-1e-12 {
		return SizeClear
	}
	return SizeSmall
}

func (s Size) word(l i18n.Lang) string {
	switch s {
	case SizeClear:
		return l.T("answer.size.clear")
	case SizeSmall:
		return l.T("answer.size.small")
	}
	return l.T("answer.size.none")
}

// compareAnswer is the comparison's verdict in a line: each option's
// paired difference to the baseline in the first side's win rate, its
// interval and its size. Empty with no option beside the baseline.
func compareAnswer(c *results.Compare, l i18n.Lang) string {
	if len(c.Options) < 2 || len(c.Sides) == 0 {
		return ""
	}
	var parts []string
	for _, o := range c.Options[1:] {
		if len(o.Diff) == 0 {
			continue
		}
		d := o.Diff[0]
		lo, hi := float64(d.CI95[0]), float64(d.CI95[1])
		// The same in every language: name, difference, interval, size.
		parts = append(parts, o.Name+" "+prosePP(l, d.Diff, true)+" "+prosePPCI(l, lo, hi)+", "+SizeOf(lo, hi).word(l))
	}
	if len(parts) == 0 {
		return ""
	}
	return l.T("answer.compare", c.Sides[0], c.Baseline, strings.Join(parts, "; "))
}

// The answers of the documents (Section.answer): what each answers, in
// l; nil when it has no answer of its own (a sweep is read from its
// curve).

func runAnswer(r *results.Result, l i18n.Lang) []string {
	if len(r.Sides) < 2 || r.Encounters == 0 {
		return nil
	}
	s0, s1 := r.Sides[0], r.Sides[1]
	return []string{l.T("answer.run", s0.Name, prosePct(l, s0.WinRate), proseCI(l, s0.WinCI95[0], s0.WinCI95[1]),
		s1.Name, prosePct(l, s1.WinRate), proseCI(l, s1.WinCI95[0], s1.WinCI95[1]))}
}

func compareAnswerLines(c *results.Compare, l i18n.Lang) []string {
	if a := compareAnswer(c, l); a != "" {
		return []string{a, l.T("answer.size.rule", proseG(l, "%g", 100*ClearPP))}
	}
	return nil
}

func valueAnswer(v *results.Value, l i18n.Lang) []string {
	// The leading rates: each parameter's first bounded one, so that
	// three lines name three parameters.
	var rates []string
	seen := map[string]bool{}
	for _, r := range v.Rates {
		if !r.Bounded || seen[r.A] {
			continue
		}
		seen[r.A] = true
		rates = append(rates, "1 "+r.A+" = "+proseNumber(l, ratio(r.Value))+" "+r.B+" "+proseRange(l, proseNumber(l, ratio(r.CI95[0])), proseNumber(l, ratio(r.CI95[1]))))
		if len(rates) == 3 {
			break
		}
	}
	if len(rates) > 0 {
		return []string{l.T("answer.value", strings.Join(rates, "; "))}
	}
	return nil
}

func matrixAnswer(m *results.Matrix, l i18n.Lang) []string {
	return []string{l.T("matrix.table.eq", prosePct(l, m.Eq.Value), prosePct(l, m.Eq.ValueCI[0]), prosePct(l, m.Eq.ValueCI[1]))}
}

func tournamentAnswer(t *results.Tournament, l i18n.Lang) []string {
	if len(t.Stages) > 0 {
		return []string{tournamentVerdictLang(t, l)}
	}
	return nil
}

func optimizeAnswer(o *results.Optimize, l i18n.Lang) []string {
	if or := o.Oracle; or != nil {
		return []string{l.T("opt.fact.value") + ": " + l.T("opt.value", prosePct(l, or.Value), or.RowSide, proseCI(l, or.ValueBounds[0], or.ValueBounds[1]))}
	}
	if r := o.Search; r != nil {
		base := baselineLabelLang(l, r.Baseline)
		return []string{l.T("answer.optimize", l.T("opt.best", prosePct(l, o.Best.WinRate), proseCI(l, o.Best.CI95[0], o.Best.CI95[1]), prosePP(l, o.Best.Gain, true), base, prosePct(l, r.BaseRate), o.Best.Name)),
			l.N("answer.optimize.beats", int64(len(r.Exploits)), base, prosePP(l, o.Guarantee.Delta, false))}
	}
	return nil
}

// prosePPCI is a difference's interval in percentage points as prose in
// l writes it, after the difference that carries the unit: [+7.07, +7.91],
// [+7,07; +7,91]; "—" without finite bounds.
func prosePPCI(l i18n.Lang, lo, hi float64) string {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return "—"
	}
	return proseRange(l, proseNumber(l, fmt.Sprintf("%+.2f", 100*lo)), proseNumber(l, fmt.Sprintf("%+.2f", 100*hi)))
}

// proseRange is an interval's bounds in brackets as l's prose writes them
// (Russian separates them with a semicolon: its decimal point is a comma).
func proseRange(l i18n.Lang, a, b string) string {
	if l.Or() == i18n.Ru {
		return "[" + a + "; " + b + "]"
	}
	return "[" + a + ", " + b + "]"
}
