package reports

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
)

// WriteOptimize renders the answer in format f.
//
// It writes the text table's own words in l
// (JSON, CSV and Markdown stay English; the numbers keep the point in every
// language).
func WriteOptimize(o *results.Optimize, w io.Writer, f Format, l i18n.Lang) error {
	if f == JSON {
		return writeJSON(w, o)
	}
	if f == CSV {
		return optimizeCSVTable(o).csv(w)
	}
	md := f == Markdown
	if md {
		l = i18n.En
	}
	conf := strconv.FormatFloat(100*(1-o.Guarantee.Alpha), 'f', -1, 64) + "%"
	delta := strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+")
	var b strings.Builder
	if o.Oracle != nil {
		writeOptimizeOracle(o, &b, md, l)
	} else if s := o.Search; s != nil {
		b.WriteString(l.T("opt.text.head", o.Scenario, o.Ruleset, o.Seed, o.Side, s.Space.Candidates))
		var parts []string
		if s.Space.Excluded > 0 {
			parts = append(parts, l.T("opt.text.excluded", s.Space.Excluded))
		}
		if s.Space.Duplicates > 0 {
			parts = append(parts, l.T("opt.text.duplicates", s.Space.Duplicates))
		}
		if len(parts) > 0 {
			b.WriteString(" " + l.T("opt.text.space", s.Space.Combinations, strings.Join(parts, ", ")))
		}
		b.WriteString("\n\n")
		b.WriteString(l.T("opt.text.best", baselineLabelLang(l, s.Baseline), pct(s.BaseRate), pctCI(s.BaseCI[0], s.BaseCI[1]),
			pct(o.Best.WinRate), pctCI(o.Best.CI95[0], o.Best.CI95[1]), signedPP(o.Best.Gain), ppCI(o.Best.GainCI[0], o.Best.GainCI[1]), o.Best.Name) + "\n")
		if c := confirmRange(l, o); c != "" {
			b.WriteString(c + "\n")
		}
		b.WriteString(l.T("opt.text.guarantee", optStatementText(l, o.Guarantee.Statement)) + "\n")
		b.WriteString(l.T("opt.text.encounters", searchCostLang(l, s)) + "\n\n")
		if w := optimizeWithinDeltaLang(o, l); w != "" {
			b.WriteString(w + "\n\n")
		}
		tab := optimizeTableLang(o, l)
		if md {
			tab.markdown(&b)
		} else {
			tab.text(&b, l)
		}
		b.WriteString("\n")
		if len(s.Exploits) > 0 {
			b.WriteString(l.T("opt.text.exploits", len(s.Confirmed)-1, baselineLabelLang(l, s.Baseline), delta, conf) + "\n")
			for _, e := range s.Exploits {
				fmt.Fprintf(&b, "  %s %s: %s\n", signedPP(e.Gain), ppCI(e.GainCI[0], e.GainCI[1]), e.Name)
			}
		} else {
			b.WriteString(l.T("opt.text.no_exploits", len(s.Confirmed)-1, baselineLabelLang(l, s.Baseline), delta, conf) + "\n")
		}
	}
	if _, err := io.WriteString(w, readable(l, b.String())); err != nil {
		return err
	}
	if o.Oracle != nil {
		footnotes(w, []string{l.T("opt.text.oracle.note")}, md)
		return nil
	}
	notes := []string{l.T("opt.text.note.status"), l.T("opt.text.note.confirmed")}
	if o.Interrupted {
		notes = append(notes, l.T("opt.text.note.interrupted"))
	}
	footnotes(w, notes, md)
	return nil
}

// optimizeWithinDelta says, when the selection stopped with every candidate
// left shown at most delta better than the best (status "at most delta
// better"), that this is all it claims: they may be better by up to delta,
// and worse by any amount,
// and which of them the confirmation shows ahead of it: without this
// line a confirmed "+0.8 pp [+0.2, +1.4]" beside "best" reads as a
// contradiction. Empty for any other outcome.
func optimizeWithinDelta(o *results.Optimize) string { return optimizeWithinDeltaLang(o, i18n.En) }

func optimizeWithinDeltaLang(o *results.Optimize, l i18n.Lang) string {
	s := o.Search
	if s == nil || s.Outcome != experiment.OutcomeWithinDelta {
		return ""
	}
	d := strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+")
	n := 0
	var ahead []string
	for _, r := range s.Ranked {
		if r.Status != experiment.StatusAtMostDelta && r.Status != "within delta" { // the latter: documents before issue 35
			continue
		}
		n++
		if r.Confirmed && r.DiffCI[0] > 0 {
			ahead = append(ahead, l.T("opt.text.within.by", r.Name, signedPP(r.Diff), ppCI(r.DiffCI[0], r.DiffCI[1])))
		}
	}
	out := l.T("opt.text.within", d, n)
	if len(ahead) > 0 {
		out += l.T("opt.text.within.ahead", strings.Join(ahead, "; "), d)
	}
	return out
}

func baselineLabel(name string) string { return baselineLabelLang(i18n.En, name) }

func baselineLabelLang(l i18n.Lang, name string) string {
	if name == "" {
		return l.T("opt.as_written")
	}
	return name
}

// optStatusLang is a ranked candidate's status in l (a status simctl does
// not know, as recorded).
func optStatusLang(l i18n.Lang, status string) string {
	if key := "opt.status." + strings.ReplaceAll(status, " ", "_"); i18n.Has(l, key) {
		return l.T(key)
	}
	return status
}

// optStatementForms are the guarantee statements simctl optimize records
// (in English, in the document): GuaranteeText's two claims, each with
// one of its two endings, and the double oracle's.
var optStatementForms = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^with probability at least ([0-9.e+-]+)% the best found is within ([0-9.]+) pp of the best of the ([0-9]+) candidate\(s\) evaluated`), "opt.st.best"},
	{regexp.MustCompile(`^the budget ended before a decision: with probability at least ([0-9.e+-]+)% the candidates not separated hold the best of the ([0-9]+) evaluated, and none is called best \(the one shown is the leader\)`), "opt.st.not_separated"},
	{regexp.MustCompile(`^with probability at least ([0-9.e+-]+)% every cell estimated lies within its bounds at once, so the value lies in \[(-?[0-9.]+)%, (-?[0-9.]+)%\] and no strategy of either space gains more than (-?[0-9.]+) pp against the mixes found \(([0-9]+) of the ([0-9]+) cells estimated\)$`), "opt.st.oracle"},
}

var optStatementEnds = []struct {
	re       *regexp.Regexp
	key, pre string
}{
	{regexp.MustCompile(`^ \(the whole space: ([0-9]+)\)$`), "opt.st.whole", " "},
	{regexp.MustCompile(`^; the space holds ([0-9]+): screening \(successive halving over ([0-9]+) of them, then the survivors' neighbours\) chose which to evaluate, and candidates never evaluated are not covered$`), "opt.st.screened", ""},
	{regexp.MustCompile(`^$`), "", ""},
}

// optStatementLang says a recorded optimize guarantee in l for the
// report's prose (a decimal comma in Russian); English, and a statement
// simctl does not know, as recorded.
func optStatementLang(l i18n.Lang, s string) string { return optStatement(l, s, true) }

// optStatementText is optStatementLang for the text table, whose numbers
// keep the point in every language.
func optStatementText(l i18n.Lang, s string) string { return optStatement(l, s, false) }

func optStatement(l i18n.Lang, s string, prose bool) string {
	if l.Or() == i18n.En {
		return s
	}
	args := func(m []string) []any {
		out := make([]any, len(m))
		for i, a := range m {
			if prose {
				a = proseNumber(l, a)
			}
			out[i] = a
		}
		return out
	}
	for _, f := range optStatementForms {
		m := f.re.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		sub := f.re.FindStringSubmatch(s)
		head := l.T(f.key, args(sub[1:])...)
		rest := s[m[1]:]
		for _, e := range optStatementEnds {
			if em := e.re.FindStringSubmatch(rest); em != nil {
				if e.key == "" {
					return head
				}
				return head + e.pre + l.T(e.key, args(em[1:])...)
			}
		}
		return s
	}
	return s
}

func optimizeTable(o *results.Optimize) *table { return optimizeTableLang(o, i18n.En) }

func optimizeTableLang(o *results.Optimize, l i18n.Lang) *table {
	iv := l.T("opt.col.interval")
	tab := &table{header: []string{l.T("opt.col.rank"), l.T("opt.col.candidate"), l.T("opt.col.status"), l.T("opt.col.encounters"), l.T("col.win_rate"), l.T("opt.col.confirmed"), iv, l.T("opt.col.vs_best"), iv}, left: 3}
	if o.Search == nil {
		return tab
	}
	shown := 0
	for i, r := range o.Search.Ranked {
		if shown >= 15 && !r.Confirmed { // the confirmed all, then the first 15
			continue
		}
		shown++
		conf, ci, diff, dci := "", "", "", ""
		if r.Confirmed {
			conf, ci = pct(r.ConfirmRate), pctCI(r.ConfirmCI[0], r.ConfirmCI[1])
			if r.Status != "best" {
				diff, dci = signedPP(r.Diff), ppCI(r.DiffCI[0], r.DiffCI[1])
			} else {
				diff = l.T("opt.status.best")
			}
		}
		tab.add(strconv.Itoa(i+1), r.Name, optStatusLang(l, r.Status), thousands(r.Encounters), pct(r.WinRate), conf, ci, diff, dci)
	}
	return tab
}

// optimizeCSVTable is every ranked candidate with raw numbers, each interval as
// its two ends (the simultaneous intervals of the confirmation; empty when
// the candidate was not confirmed, and the difference to the best empty
// for the best itself).
func optimizeCSVTable(o *results.Optimize) *table {
	tab := &table{header: []string{"rank", "candidate", "status", "encounters", "wins", "win_rate",
		"confirmed_win_rate", "confirmed_ci_lo", "confirmed_ci_hi", "diff_to_best", "diff_ci_lo", "diff_ci_hi",
		"gain_over_baseline", "gain_ci_lo", "gain_ci_hi"}}
	if o.Search == nil {
		return tab
	}
	for i, r := range o.Search.Ranked {
		row := []string{strconv.Itoa(i + 1), r.Name, r.Status, rawInt(r.Encounters), rawInt(r.Wins), raw(r.WinRate)}
		conf := make([]string, 9)
		if r.Confirmed {
			conf[0], conf[1], conf[2] = raw(r.ConfirmRate), raw(r.ConfirmCI[0]), raw(r.ConfirmCI[1])
			if r.Point != o.Search.Best {
				conf[3], conf[4], conf[5] = raw(r.Diff), raw(r.DiffCI[0]), raw(r.DiffCI[1])
			}
			conf[6], conf[7], conf[8] = raw(r.Gain), raw(r.GainCI[0]), raw(r.GainCI[1])
		}
		tab.add(append(row, conf...)...)
	}
	return tab
}

func writeOptimizeOracle(o *results.Optimize, b *strings.Builder, md bool, l i18n.Lang) {
	or := o.Oracle
	b.WriteString(l.T("opt.text.oracle.head", o.Scenario, o.Ruleset, o.Seed, or.RowSide, or.ColSide, or.Cells, thousands(or.Encounters/int64(max(or.Cells, 1))), len(or.Steps)) + "\n\n")
	state := l.T("opt.text.oracle.converged", strings.TrimPrefix(signedPP(o.Guarantee.Delta), "+"))
	if !or.Converged {
		state = l.T("opt.text.oracle.not_converged")
	}
	b.WriteString(state + "\n" + l.T("opt.text.oracle.value",
		or.RowSide, pct(or.Value), pctCI(or.ValueBounds[0], or.ValueBounds[1]), strconv.FormatFloat(100*(1-o.Guarantee.Alpha), 'f', -1, 64)+"%", strings.TrimPrefix(signedPP(or.Exploitability), "+")) + "\n\n")
	for _, side := range []struct {
		name string
		mix  []results.MixOf
	}{{or.RowSide, or.RowMix}, {or.ColSide, or.ColMix}} {
		tab := &table{header: []string{l.T("opt.text.oracle.mix", side.name), l.T("matrix.col.weight")}, left: 1}
		mix := append([]results.MixOf(nil), side.mix...)
		sort.SliceStable(mix, func(a, c int) bool { return mix[a].Weight > mix[c].Weight })
		for _, m := range mix {
			if m.Weight > 1e-9 {
				tab.add(m.Name, pct(m.Weight))
			}
		}
		if md {
			tab.markdown(b)
		} else {
			tab.text(b, l)
		}
		b.WriteString("\n")
	}
	// Each side's space as searched: which side every option played for.
	for _, side := range []struct {
		name  string
		space []string
	}{{or.RowSide, or.RowSpace}, {or.ColSide, or.ColSpace}} {
		if len(side.space) > 0 {
			b.WriteString(l.T("opt.text.oracle.space", side.name, len(side.space), strings.Join(side.space, ", ")) + "\n")
		}
	}
	for _, m := range or.Merged {
		b.WriteString(l.T("opt.text.oracle.merged", m.Side, m.Name, m.Into) + "\n")
	}
}

// OptimizeWords are an optimize document's own words in a language, for a
// front end that lays the document out itself (the web lab): its
// guarantee and the status of each ranked candidate, as the report says
// them.
type OptimizeWords struct {
	Guarantee string   `json:"guarantee,omitempty"`
	Status    []string `json:"status"` // by search.ranked
}

// OptimizeWordsIn are o's words in l.
func OptimizeWordsIn(l i18n.Lang, o *results.Optimize) OptimizeWords {
	w := OptimizeWords{Guarantee: optStatementLang(l, o.Guarantee.Statement), Status: []string{}}
	if o.Search != nil {
		for _, r := range o.Search.Ranked {
			w.Status = append(w.Status, optStatusLang(l, r.Status))
		}
	}
	return w
}

// confirmRange says which encounters the confirmed rates come from: fresh
// ones far from the indices 0..N-1 that simctl run plays, so "as written"
// here and run's figure for the same scenario are two estimates of one
// rate and differ by chance. Empty when nothing was confirmed.
func confirmRange(l i18n.Lang, o *results.Optimize) string {
	s := o.Search
	if s == nil || s.ConfirmN <= 0 {
		return ""
	}
	return l.T("opt.text.confirm_range", baselineLabelLang(l, s.Baseline), l.Int(s.ConfirmN), l.Int(s.ConfirmStart), l.Int(s.ConfirmStart+s.ConfirmN-1), o.Seed)
}
