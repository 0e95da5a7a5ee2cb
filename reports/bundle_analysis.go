package reports

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
	"simctl/stats"
)

// The report sections of the balance-analysis documents (simctl value,
// matrix and tournament): the tables their commands print, their figures,
// how they were made and the scenario they ran, as a run's section has.

// docFacts are the facts every experiment document's section starts with.
func docFacts(l i18n.Lang, h *results.Header, interval string) [][2]string {
	f := runFacts(l, h.Scenario, h.File, h.Ruleset, h.Seed, h.Version, interval, h.Sets, h.Context)
	if h.Context == nil && h.ScenarioSHA256 != "" {
		// Older documents carry the SHA-256 but not the text.
		f = append(f, [2]string{l.T("fact.sha256"), h.ScenarioSHA256})
	}
	return f
}

// indices says which encounter indices a document covers.
func indices(l i18n.Lang, h *results.Header, n int64) string {
	if s := h.Shard; s != nil {
		return l.T("doc.indices.shard", s.K, s.Of, s.Start, s.Start+s.N-1, l.Int(s.Total))
	}
	if n > 0 {
		return l.T("doc.indices", n-1)
	}
	return l.T("doc.indices.none")
}

// statusNotes mark a document that is not a whole experiment: one shard,
// a merge missing shards, an interrupted run. A table alone would read like
// the whole.
func statusNotes(h *results.Header, kind string) []string { return statusNotesLang(i18n.En, h, kind) }

// statusNotesLang is statusNotes in l.
func statusNotesLang(l i18n.Lang, h *results.Header, kind string) []string {
	var notes []string
	if s := h.Shard; s != nil {
		notes = append(notes, l.T("note.doc_shard", s.K+1, s.Of, s.K, s.Of, l.Int(s.Start), l.Int(s.Start+s.N-1), l.Int(s.Total), kind))
	}
	if h.Incomplete {
		notes = append(notes, l.T("note.incomplete"))
	}
	if h.Interrupted {
		unplayed := ""
		if len(h.Unplayed) > 0 {
			var r []string
			for _, u := range h.Unplayed {
				r = append(r, fmt.Sprintf("%d..%d", u[0], u[1]-1))
			}
			unplayed = " " + l.T("note.unplayed", strings.Join(r, ", "))
		}
		notes = append(notes, l.T("note.doc_interrupted", kind, unplayed))
	}
	return notes
}

// docCommand is the command that reproduces a document: the one it
// records, or for a merge of shards (which records none) the single
// process that plays every shard's encounters, rebuilt by whole().
func docCommand(s *Section, h *results.Header, whole func() []string) {
	docCommandLang(i18n.En, s, h, whole)
}

// docCommandLang is docCommand with its notes in l.
func docCommandLang(l i18n.Lang, s *Section, h *results.Header, whole func() []string) {
	switch {
	case h.Command != "":
		s.commands = append(s.commands, h.Command)
	case h.Shard == nil && !h.Incomplete && !h.Interrupted && whole != nil:
		s.commands = append(s.commands, results.ShellJoin(whole()))
		s.notes = append(s.notes, l.T("note.merge_command"))
	default:
		s.notes = append(s.notes, l.T("note.doc_no_command"))
	}
}

// commonArgs are the arguments every experiment command shares.
func commonArgs(h *results.Header, n int64) []string {
	args := []string{scenarioArg(h.File), "-n", strconv.FormatInt(n, 10), "--seed", strconv.FormatUint(h.Seed, 10)}
	for _, s := range h.Sets {
		args = append(args, "--set", s)
	}
	return args
}

// optionArg is NAME='--set A --set B' as --option, --row and --col read it.
func optionArg(o results.NamedSets) string {
	var words []string
	for _, s := range o.Sets {
		words = append(words, "--set", s)
	}
	return o.Name + "=" + results.ShellJoin(words)
}

// withoutStatus drops the document's own interrupted warning, which the
// section states once among its notes.
func withoutStatus(l i18n.Lang, ws []string, ms []results.Message) []string {
	var out []string
	for i, t := range results.WarningTexts(ws, ms) {
		if !strings.HasPrefix(ws[i], "interrupted:") {
			out = append(out, l.Msg(t))
		}
	}
	return out
}

// warningsLang are a document's warnings in l: from their stored
// messages (warnings_msg) when the document has them, else as written.
func warningsLang(l i18n.Lang, ws []string, ms []results.Message) []string {
	var out []string
	for _, t := range results.WarningTexts(ws, ms) {
		out = append(out, l.Msg(t))
	}
	return out
}

func (b *Bundle) valueSection(s *Section, k int, v *results.Value, prefix string) {
	l := b.Lang
	s.title = l.T("section.value", k, v.Scenario, v.Side)
	s.facts = docFacts(l, &v.Header, l.T("value.intervals", method(l, results.PairedMethod)))
	s.facts = append(s.facts,
		[2]string{l.T("fact.side"), v.Side},
		[2]string{l.T("fact.encounters"), l.N("value.encounters", int64(1+2*len(v.Params)), l.Int(v.Encounters), indices(l, &v.Header, v.Encounters))})
	docCommandLang(l, s, &v.Header, func() []string {
		names := make([]string, len(v.Params))
		args := []string{"simctl", "value"}
		args = append(args, commonArgs(&v.Header, v.Encounters)...)
		args = append(args, "--side", v.Side)
		var steps []string
		for i, p := range v.Params {
			names[i] = p.Name
			if p.Step != 1 {
				steps = append(steps, "--step", p.Name+"="+strconv.FormatFloat(p.Step, 'f', -1, 64))
			}
		}
		return append(append(args, "--params", strings.Join(names, ",")), steps...)
	})
	s.notes = append(s.notes, statusNotesLang(l, &v.Header, "value")...)
	ps := &table{left: 4, header: []string{l.T("value.col.param"), l.T("value.col.step"), l.T("value.col.down"), l.T("value.col.up")}}
	for _, p := range v.Params {
		ps.add(p.Name, strconv.FormatFloat(p.Step, 'f', -1, 64), "--set "+strings.Join(p.Down, " --set "), "--set "+strings.Join(p.Up, " --set "))
	}
	s.tables = append(s.tables, titled{title: l.T("value.table.params"), t: ps})
	warnings := withoutStatus(l, v.Warnings, v.WarningsMsg)
	effects := titled{title: l.T("value.table.effects", v.Side), t: valueEffectTable(v, l), notes: []string{l.T("value.note.effects")}}
	s.tables = append(s.tables, effects)
	if len(v.Effects) > 1 {
		s.tables = append(s.tables, titled{title: l.T("value.table.rates"), t: valueRateTable(v, l), notes: append([]string{l.T("value.note.rates")},
			prefixed(l.T("warning")+" ", warnings)...)})
	} else {
		s.tables[len(s.tables)-1].notes = append(s.tables[len(s.tables)-1].notes, prefixed(l.T("warning")+" ", warnings)...)
	}
	s.tables = append(s.tables, titled{title: l.T("value.table.swings"), t: valueSwingTable(v, l), notes: []string{
		l.T("value.note.swings"), capital([]string{valueMultiplicity(v, l)})[0]}})
	if f, err := TornadoFigure(l, v); err == nil {
		f.Name = prefix + f.Name
		s.figures = append(s.figures, f)
	}
	s.scenario = ctxYAML(v.Context)
}

func (b *Bundle) matrixSection(s *Section, k int, m *results.Matrix, prefix string) {
	l := b.Lang
	s.title = l.T("section.matrix", k, m.Scenario, m.RowSide, m.ColSide)
	s.facts = docFacts(l, &m.Header, l.T("matrix.intervals", method(l, intervalWilson)))
	s.facts = append(s.facts,
		[2]string{l.T("fact.payoff"), l.T("matrix.payoff", m.RowSide, m.ColSide)},
		[2]string{l.T("fact.encounters"), l.T("matrix.encounters",
			l.Int(m.Encounters), len(m.Rows)*len(m.Cols), indices(l, &m.Header, m.Encounters))})
	docCommandLang(l, s, &m.Header, func() []string {
		args := append([]string{"simctl", "matrix"}, commonArgs(&m.Header, m.Encounters)...)
		args = append(args, "--side", m.RowSide)
		for _, o := range m.RowOptions {
			args = append(args, "--row", optionArg(o))
		}
		for _, o := range m.ColOptions {
			args = append(args, "--col", optionArg(o))
		}
		return args
	})
	s.notes = append(s.notes, statusNotesLang(l, &m.Header, "matrix")...)
	opts := &table{left: 3, header: []string{l.T("col.side"), l.T("col.option"), "--set"}}
	for i, sets := range [][]results.NamedSets{m.RowOptions, m.ColOptions} {
		side := []string{m.RowSide, m.ColSide}[i]
		for _, o := range sets {
			opts.add(side, o.Name, setsTextLang(l, o.Sets))
		}
	}
	s.tables = append(s.tables, titled{title: l.T("matrix.table.options"), t: opts})
	s.tables = append(s.tables, titled{title: l.T("matrix.table.grid", m.RowSide, m.RowSide, m.ColSide), t: matrixGrid(m, false),
		notes: []string{l.T("matrix.note.grid", m.RowSide, method(l, intervalWilson))}})
	if len(m.Dominated) > 0 {
		d := &table{left: 3, header: []string{l.T("col.side"), l.T("matrix.col.dominated"), l.T("matrix.col.by")}}
		for _, x := range m.Dominated {
			d.add(x.Side, x.Option, x.By+identicalNoteLang(l, x))
		}
		s.tables = append(s.tables, titled{title: l.T("matrix.table.dominated"), t: d, notes: []string{l.T("matrix.note.dominated")}})
	} else {
		s.notes = append(s.notes, l.T("matrix.note.none_dominated"))
	}
	wt := matrixWeightsLang(m, l)
	s.tables = append(s.tables, titled{
		title: l.T("matrix.table.eq", pct(m.Eq.Value), pct(m.Eq.ValueCI[0]), pct(m.Eq.ValueCI[1])), t: wt,
		notes: append([]string{l.T("matrix.note.eq", m.RowSide, m.ColSide, m.RowSide)}, capital(matrixNotes(l, m))...)})
	if f, err := MatrixFigure(l, m); err == nil {
		f.Name = prefix + f.Name
		s.figures = append(s.figures, f)
	}
	s.scenario = ctxYAML(m.Context)
}

func (b *Bundle) tournamentSection(s *Section, k int, t *results.Tournament) {
	l := b.Lang
	s.title = l.T("section.tournament", k, t.Scenario, len(t.Options), t.Side)
	s.facts = docFacts(l, &t.Header, l.T("tour.intervals", method(l, intervalWilson), l.T("tour.method")))
	var p experiment.SelectParams
	if t.State != nil {
		p = t.State.Params
	}
	s.facts = append(s.facts,
		[2]string{l.T("fact.side"), t.Side},
		[2]string{l.T("fact.guarantee"), l.T("tour.guarantee", proseG(l, "%.4g", t.Guarantee.Alpha), proseG(l, "%.4g", 100*t.Guarantee.Delta), t.Guarantee.Candidates, statementLang(l, t.Guarantee.Statement))},
		[2]string{l.T("fact.encounters"), l.T("tour.encounters",
			l.Int(t.Encounters), len(t.Stages), l.Int(p.First), l.Int(p.Batch), l.Int(p.Budget))})
	docCommandLang(l, s, &t.Header, nil)
	s.notes = append(s.notes, statusNotesLang(l, &t.Header, "tournament")...)
	if t.Interrupted {
		s.notes = append(s.notes, l.T("tour.note.interrupted"))
	}
	sets := map[string][]string{}
	for _, c := range t.Options {
		sets[c.Name] = c.Sets
	}
	// Candidates made by --vary are named by their overrides: no column
	// repeats them.
	named := false
	for _, c := range t.Options {
		named = named || c.Name != strings.Join(c.Sets, " ")
	}
	ref := l.T("tour.col.vs", tournamentRefLabelLang(t, l))
	rank := &table{left: 4, header: []string{l.T("tour.col.rank"), l.T("col.option"), "--set", l.T("tour.col.status"), l.T("fact.encounters"), l.T("col.win_rate"), l.T("tour.col.ci95_unadjusted"), l.T("tour.col.out"), ref, l.T("tour.col.ci_pairs")}}
	if !named {
		rank = &table{left: 3, header: append([]string{l.T("tour.col.rank"), l.T("tour.col.option_sets")}, rank.header[3:]...)}
	}
	for i, k := range t.Ranking {
		if k < 0 || k >= len(t.Candidates) {
			continue
		}
		c := &t.Candidates[k]
		status, out, diff, ci := tournamentRankCellsLang(t, l, k)
		row := []string{strconv.Itoa(i + 1), c.Name, setsTextLang(l, sets[c.Name])}
		if !named {
			row = row[:2]
		}
		rank.add(append(row, status, thousands(c.Encounters), pct(c.WinRate), wilson(c.Wins, c.Encounters), out, diff, ci)...)
	}
	if len(t.Stages) > 0 {
		s.tables = append(s.tables, titled{title: l.T("tour.table.ranking"), t: rank, notes: append([]string{tournamentVerdictLang(t, l)}, capital(tournamentNotesLang(t, l))...)})
	} else {
		s.notes = append(s.notes, l.T("tour.note.no_stage"))
	}
	stages := &table{left: 1, header: []string{l.T("tour.col.stage"), l.T("tour.col.new"), l.T("tour.col.sofar"), l.T("tour.col.left"), l.T("tour.col.leader"), l.T("tour.col.leader_rate")}}
	var sofar int64
	for i, r := range t.Stages {
		sofar += r.Encounters
		stages.add(strconv.Itoa(i+1), thousands(r.Encounters), thousands(sofar), strconv.Itoa(r.Survivors), tournamentName(t, r.Leader), pct(r.LeaderRate))
	}
	if len(t.Stages) > 0 {
		s.tables = append(s.tables, titled{title: l.T("tour.table.stages"), t: stages})
	}
	s.scenario = ctxYAML(t.Context)
}

func setsText(sets []string) string { return setsTextLang(i18n.En, sets) }

func setsTextLang(l i18n.Lang, sets []string) string {
	if len(sets) == 0 {
		return l.T("sets.none")
	}
	return "--set " + strings.Join(sets, " --set ")
}

func wilson(k, n int64) string {
	if n <= 0 {
		return ""
	}
	ci := stats.Wilson95(k, n)
	return pctCI(ci.Lo, ci.Hi)
}

func prefixed(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// capital starts each note with a capital letter, as the report's notes
// do (the CLI prints them as lower-case footnotes).
func capital(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if r, n := utf8.DecodeRuneInString(s); n > 0 {
			s = string(unicode.ToUpper(r)) + s[n:] // Cyrillic too; Hangul has no case
		}
		out[i] = s
	}
	return out
}

// shardLine says which part of an experiment a shard's table covers, and
// that a merge is incomplete: a table alone would read like the whole.
func shardLine(h *results.Header) string { return shardLineLang(i18n.En, h) }

// shardLineLang is shardLine in l.
func shardLineLang(l i18n.Lang, h *results.Header) string {
	var parts []string
	if s := h.Shard; s != nil {
		parts = append(parts, l.T("doc.shard_line", s.K+1, s.Of, s.K, s.Of, thousands(s.Start), thousands(s.Start+s.N-1), thousands(s.Total)))
	}
	if h.Incomplete {
		parts = append(parts, l.T("doc.incomplete"))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "\n") + "\n\n"
}
