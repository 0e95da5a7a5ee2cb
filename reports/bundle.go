package reports

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"simctl/sim/msg"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/stats"
)

// Bundle is a publishable balance report: report.md, a single-file
// report.html with the figures inlined as SVG, and every figure as PNG, in
// one folder.
type Bundle struct {
	Title   string
	Inputs  []*results.Input
	Version string // the simctl that wrote the report
	Command string // the command that wrote it
	// Lang is the language of simctl's own words in the report (headings,
	// labels, notes, figure text); names the user wrote stay as written.
	// The zero value is English.
	Lang i18n.Lang
	// Section is the section renderer of a kind of document (Input.Kind),
	// beyond the run result, which the report renders itself: the kinds
	// table's (cmd/simctl/app.SectionOf). nil, or nil for a kind: the
	// report refuses the document.
	Section func(kind string) SectionFunc
}

// Section is one document's part of the report, in a form both
// renderers (Markdown and HTML) read: a kind's renderer builds it
// (SectionFunc), with the Add methods when it lives outside this package.
type Section struct {
	id, title string
	prefix    string      // of its figures' and traces' file names: fig3-
	facts     [][2]string // label, value (value is plain text)
	commands  []string    // exact command lines that reproduce the numbers
	tables    []titled
	figures   []*Figure
	scenario  string // the scenario YAML, when known
	notes     []string
	traces    []namedTrace
	// answer is what the input answers (answerLines): the section opens
	// with it, and the report with every section's first line.
	answer []string
}

// namedTrace is a FightTrace with the file it is written to.
type namedTrace struct {
	results.FightTrace
	file string
}

// forReading writes the figures of s as its language writes them for
// reading (i18n.Lang.Reading: a report is read, not pasted into a
// spreadsheet; CSV and JSON are for that): facts, notes, table cells and
// captions. The commands that reproduce the numbers and the scenario
// file stay as they are typed.
func forReading(l i18n.Lang, s *Section) {
	if l.Or() == i18n.En {
		return
	}
	for i := range s.facts {
		s.facts[i][1] = l.Reading(s.facts[i][1])
	}
	for i := range s.notes {
		s.notes[i] = l.Reading(s.notes[i])
	}
	for k := range s.tables {
		t := &s.tables[k]
		t.title = l.Reading(t.title)
		for i := range t.notes {
			t.notes[i] = l.Reading(t.notes[i])
		}
		for _, r := range t.t.rows {
			for i := range r {
				r[i] = l.ReadingCell(r[i])
			}
		}
	}
	for _, f := range s.figures {
		f.Caption = l.Reading(f.Caption)
	}
}

type titled struct {
	title string
	t     *table
	notes []string
}

// Write renders the report into dir (created if missing) and returns the
// files it wrote. It writes only inside dir, never through a symbolic
// link, each file atomically, and removes an older report's figures
// (fig*.png) that this one does not have; nothing else in dir is touched.
func (b *Bundle) Write(dir string) ([]string, error) {
	var secs []*Section
	for i, in := range b.Inputs {
		s, err := b.section(i+1, in)
		if err != nil {
			return nil, err
		}
		secs = append(secs, s)
	}
	// PNGs are the slow part: render them on every core, each figure in
	// its own goroutine-owned canvas.
	var figs []*Figure
	for _, s := range secs {
		figs = append(figs, s.figures...)
	}
	pngs := make([][]byte, len(figs))
	errs := make([]error, len(figs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(figs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(figs) {
					return
				}
				var buf bytes.Buffer
				if errs[k] = figs[k].checkGlyphs(); errs[k] != nil {
					continue
				}
				errs[k] = figs[k].PNG(&buf)
				pngs[k] = buf.Bytes()
			}
		}()
	}
	wg.Wait()
	var files []string
	out := map[string][]byte{}
	for k, f := range figs {
		if errs[k] != nil {
			return nil, errs[k]
		}
		name := f.Name + ".png"
		out[name] = pngs[k]
		files = append(files, name)
	}
	for _, sec := range secs {
		for _, tr := range sec.traces {
			out[tr.file] = []byte(tr.Text)
			files = append(files, tr.file)
		}
	}
	var md bytes.Buffer
	b.markdown(&md, secs)
	out["report.md"] = md.Bytes()
	var h bytes.Buffer
	if err := b.html(&h, secs); err != nil {
		return nil, err
	}
	out["report.html"] = h.Bytes()
	if err := safeio.WriteDir(dir, "-o", out, isFigure); err != nil {
		return nil, err
	}
	return append([]string{"report.md", "report.html"}, files...), nil
}

// isFigure tells the files a report writes beside its pages (figures,
// fig1-winrate.png, and traces, fig1-trace-longest.txt) from anything else
// a user keeps in the folder: an older report's are cleared.
func isFigure(name string) bool {
	return len(name) > 3 && strings.HasPrefix(name, "fig") && name[3] >= '0' && name[3] <= '9' &&
		(strings.HasSuffix(name, ".png") || strings.HasSuffix(name, ".txt"))
}

func (b *Bundle) section(k int, in *results.Input) (*Section, error) {
	s, err := b.buildSection(k, in)
	if err == nil {
		forReading(b.Lang, s)
	}
	return s, err
}

// buildSection is section with the figures in simctl's machine form: a
// run's (the document every analysis plays), or the section its kind's
// renderer builds (Bundle.Section).
func (b *Bundle) buildSection(k int, in *results.Input) (*Section, error) {
	var s *Section
	var err error
	if in.Document() == nil {
		return nil, msg.Errorf("reports: empty report input %q", in.Path)
	}
	if in.Run != nil {
		s = newSection(k)
		err = b.runSection(s, k, in.Run, in, s.prefix)
	} else {
		var build SectionFunc
		if b.Section != nil {
			build = b.Section(in.DocKind())
		}
		if build == nil {
			return nil, msg.Errorf("%s: a %s document has no section in a report (its kind names no section renderer)", in.Path, in.DocKind())
		}
		s, err = build(b.Lang, k, in)
	}
	if err != nil {
		return nil, err
	}
	s.facts = append(s.facts, [2]string{b.Lang.T("fact.source"), in.Path})
	return s, nil
}

func (b *Bundle) runSection(s *Section, k int, r *results.Result, in *results.Input, prefix string) error {
	l := b.Lang
	s.title = l.T("section.run", k, r.Scenario)
	s.facts = runFacts(l, r.Scenario, r.File, r.Ruleset, r.Seed, r.Version, r.Interval, r.Sets, in.Context)
	s.facts = append(s.facts, [2]string{l.T("fact.encounters"), l.Int(r.Encounters) + encounterRange(l, r)})
	if r.Elapsed > 0 {
		s.facts = append(s.facts, [2]string{l.T("fact.time"), l.T("fact.time.value", l.Decimal(r.Elapsed, 2), l.Int(int64(r.Rate)))})
	}
	if r.Command != "" {
		s.commands = append(s.commands, r.Command)
	} else {
		s.notes = append(s.notes, l.T("note.no_command"))
	}
	if r.Interrupted {
		s.notes = append(s.notes, l.T("note.interrupted"))
	}
	if r.Incomplete {
		s.notes = append(s.notes, l.T("note.incomplete"))
	}
	s.tables = append(s.tables, runTables(l, r)...)
	figs, err := runFigures(l, r, in.Context, prefix, true)
	if err != nil {
		return err
	}
	s.figures = figs
	s.scenario = ctxYAML(in.Context)
	for _, tr := range in.Traces {
		s.Trace(tr)
	}
	s.answer = runAnswer(r, b.Lang)
	return nil
}

func (b *Bundle) sweepSection(s *Section, k int, sw *results.Sweep, prefix string) {
	l := b.Lang
	s.title = l.T("section.sweep", k, sw.Scenario, sweepAxisNames(sw))
	s.facts = runFacts(l, sw.Scenario, sw.File, sw.Ruleset, sw.Seed, sw.Version, sw.Interval, sw.Sets, sw.Context)
	n := l.T("fact.sweep_encounters", l.Int(sw.MaxN), l.Int(sw.Encounters), len(sw.Points))
	if sw.Precision > 0 {
		n = l.T("fact.sweep_encounters.precision", l.Int(sw.Encounters), len(sw.Points), pp(sw.Precision), l.Int(sw.Batch), l.Int(sw.MaxN))
	}
	s.facts = append(s.facts, [2]string{l.T("fact.encounters"), n})
	for _, a := range sw.Axes {
		s.facts = append(s.facts, [2]string{l.T("fact.varied"), a.Path + " = " + strings.Join(a.Values, ", ")})
	}
	s.commands = append(s.commands, sw.Command)
	s.tables = append(s.tables, titled{title: l.T("table.sweep"), t: sweepDisplayTable(sw, l), notes: sweepNotes(sw, l)})
	f, err := SweepFigure(l, sw)
	if err == nil {
		f.Name = prefix + f.Name
		s.figures = append(s.figures, f)
	}
	// Name the first finished point: an unfinished one has no -n that
	// reproduces an estimate.
	for k, p := range sw.Points {
		if !p.Unfinished && p.Result.Encounters > 0 {
			s.notes = append(s.notes, l.T("note.sweep_point", "`"+pointCommand(sw, k)+"`", strings.Join(p.Values, ", ")))
			break
		}
	}
	s.scenario = ctxYAML(sw.Context)
}

func (b *Bundle) compareSection(s *Section, k int, c *results.Compare, prefix string) {
	l := b.Lang
	s.title = l.N("section.compare", int64(len(c.Options)), k, c.Scenario)
	s.facts = runFacts(l, c.Scenario, c.File, c.Ruleset, c.Seed, c.Version, c.Interval, c.Sets, c.Context)
	s.facts = append(s.facts, [2]string{l.T("fact.encounters"), l.T("fact.compare_encounters", l.Int(c.Encounters), c.Encounters-1)})
	s.facts = append(s.facts, [2]string{l.T("fact.baseline"), c.Baseline})
	s.commands = append(s.commands, c.Command)
	for _, o := range c.Options {
		if o.Command != "" {
			s.commands = append(s.commands, o.Command)
		}
	}
	notes := compareNotes(c, l)
	if compareAnswer(c, l) != "" {
		notes = notes[1:] // the size rule: the section's answer says it
	}
	// Two tables, as in the text output: one with every column runs
	// off a 1280 px page.
	s.tables = append(s.tables, titled{title: l.T("table.compare_wins"), t: compareWinTable(c, l)},
		titled{title: l.T("table.compare_diffs", c.Baseline), t: compareDiffTable(c, l), notes: notes})
	if e := compareEconomyTable(c, l); len(e.rows) > 0 {
		s.tables = append(s.tables, titled{title: l.T("table.compare_economy"), t: e})
	}
	if f, err := CompareFigure(l, c); err == nil {
		f.Name = prefix + f.Name
		s.figures = append(s.figures, f)
	}
	// One figure for the comparison, not each option's run figures
	// again: its tables give every option's numbers, and each option
	// that plays tactics its rule counts.
	for _, o := range c.Options {
		if t := tacticsTable(l, o.Result); t != nil {
			t.title = l.T("table.option", o.Name, t.title)
			s.tables = append(s.tables, *t)
		}
	}
	s.scenario = ctxYAML(c.Context)
}

func encounterRange(l i18n.Lang, r *results.Result) string {
	if r.Shard != nil {
		return " " + l.T("fact.shard", r.Shard.K, r.Shard.Of, r.Shard.Start, r.Shard.Start+r.Shard.N-1, l.Int(r.Shard.Total))
	}
	if r.Encounters > 0 {
		return " " + l.T("fact.indices", r.Encounters-1)
	}
	return ""
}

// pointCommand is the `simctl run` command that reproduces sweep point k.
func pointCommand(sw *results.Sweep, k int) string {
	p := sw.Points[k]
	args := []string{"simctl", "run", scenarioArg(sw.File), "-n", fmt.Sprint(p.Result.Encounters), "--seed", fmt.Sprint(sw.Seed)}
	for _, s := range p.Result.Sets {
		args = append(args, "--set", s)
	}
	return results.ShellJoin(args)
}

// scenarioArg turns a result's file back into what the CLI accepts.
func scenarioArg(file string) string {
	if strings.HasPrefix(file, "builtin:") {
		return strings.TrimSuffix(strings.TrimPrefix(file, "builtin:"), ".yaml")
	}
	return file
}

func runFacts(l i18n.Lang, name, file, ruleset string, seed uint64, version, interval string, sets []string, ctx *results.Context) [][2]string {
	f := [][2]string{
		{l.T("fact.scenario"), name + " (" + file + ")"},
		{l.T("fact.ruleset"), ruleset},
		{l.T("fact.options"), optionsText(l, ctx)},
	}
	if ctx != nil && ctx.ScenarioSHA256 != "" {
		f = append(f, [2]string{l.T("fact.sha256"), ctx.ScenarioSHA256})
	}
	if len(sets) > 0 {
		f = append(f, [2]string{l.T("fact.overrides"), "--set " + strings.Join(sets, " --set ")})
	}
	f = append(f,
		[2]string{l.T("fact.seed"), fmt.Sprint(seed)},
		[2]string{l.T("fact.version"), version},
		[2]string{l.T("fact.intervals"), method(l, interval)},
	)
	return f
}

// method names an interval method recorded in a document in l; a method
// simctl does not know (a newer simctl's) stays as recorded.
func method(l i18n.Lang, s string) string {
	switch s {
	case intervalWilson:
		return l.T("method.wilson")
	case results.PairedMethod:
		return l.T("method.paired")
	case intervalWilson + " (win rates); " + results.PairedMethod + " (differences)": // a comparison's
		return l.T("method.compare", l.T("method.wilson"), l.T("method.paired"))
	}
	return s
}

func optionsText(l i18n.Lang, ctx *results.Context) string {
	if ctx == nil || len(ctx.Options) == 0 {
		return l.T("fact.options.none")
	}
	var parts []string
	for _, o := range ctx.Options {
		v := o.Name + ": " + o.Value
		if o.Default {
			v += " " + l.T("fact.options.default")
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, "; ")
}

func ctxYAML(ctx *results.Context) string {
	if ctx == nil {
		return ""
	}
	return ctx.ScenarioYAML
}

func ctxSides(ctx *results.Context) []int {
	if ctx == nil {
		return nil
	}
	return ctx.RosterSides
}

// runFigures are the figures of one run; outcomes adds the per-combatant
// and distribution figures (left out of a comparison's options, which would
// otherwise repeat six figures per option).
func runFigures(l i18n.Lang, r *results.Result, ctx *results.Context, prefix string, outcomes bool) ([]*Figure, error) {
	if r.Encounters == 0 {
		return nil, nil
	}
	var figs []*Figure
	mks := []func() (*Figure, error){
		func() (*Figure, error) { return RoundsFigure(l, r) },
		func() (*Figure, error) { return EconomyFigure(l, r) },
		func() (*Figure, error) { return FirstActorFigure(l, r, ctxSides(ctx)) },
		func() (*Figure, error) { return TacticsFigure(l, r) },
	}
	if outcomes {
		mks = append(mks,
			func() (*Figure, error) { return CombatantsFigure(l, r) },
			func() (*Figure, error) { return DamageFigure(l, r) },
			func() (*Figure, error) { return HPLeftFigure(l, r) })
	}
	for _, mk := range mks {
		f, err := mk()
		if errors.Is(err, ErrNoCombatants) || errors.Is(err, ErrNoTactics) {
			continue // a result from before per-combatant recording, or without tactics
		}
		if err != nil {
			return nil, err
		}
		f.Name = prefix + f.Name
		figs = append(figs, f)
	}
	return figs, nil
}

// runTables are the tables of one run: win rates, rounds, action economy,
// who acts first.
func runTables(l i18n.Lang, r *results.Result) []titled {
	w := &table{left: 1, header: []string{l.T("col.side"), l.T("col.wins"), l.T("col.win_rate"), l.T("col.ci95"), l.T("col.survivors")}}
	for _, s := range r.Sides {
		w.add(s.Name, thousands(s.Wins), pct(s.WinRate), pctCI(s.WinCI95[0], s.WinCI95[1]), fmt.Sprintf("%.2f", s.SurvivorsMean))
	}
	w.add(l.T("col.draws"), thousands(r.Draws), pct(r.DrawRate), "", "")
	notes := []string{l.T("note.rounds", l.Decimal(r.Rounds.Mean, 2), r.Rounds.P50, r.Rounds.P90, r.Rounds.Max)}
	if r.Draws > 0 {
		notes = append(notes, l.T("note.draws", l.Int(r.DrawCauses.MaxRounds), l.Int(r.DrawCauses.AllGone)))
	}
	out := []titled{{title: l.T("table.winrates"), t: w, notes: notes}}
	if r.Combatants != nil {
		out = append(out, outcomeTables(l, r)...)
	}

	e := &table{left: 1, header: []string{resultEconomyHead(r, l), r.Sides[0].Name, r.Sides[1].Name}}
	per := len(r.Raw.Counters)
	for k, name := range r.Raw.Counters {
		a, b := r.Raw.Counts[k], r.Raw.Counts[per+k]
		if a == 0 && b == 0 && name != "turns" && name != "actions" {
			continue
		}
		e.add(keyed(l, "counter", name), resultEconomyCell(r, 0, name), resultEconomyCell(r, 1, name))
	}
	out = append(out, titled{title: l.T("table.economy"), t: e})

	if r.Combatants != nil {
		out = append(out, firstTable(l, r))
	} else {
		out = append(out, oldFirstTable(l, r))
	}
	if t := tacticsTable(l, r); t != nil {
		out = append(out, *t)
	}
	if t := traitsTable(l, r); t != nil {
		out = append(out, *t)
	}
	return out
}

// oldFirstTable is who acts first for a result written before per-combatant
// results existed.
func oldFirstTable(l i18n.Lang, r *results.Result) titled {
	f := &table{left: 1, header: []string{l.T("col.combatant"), l.T("col.acts_first"), l.T("col.ci95")}}
	type fa struct {
		name string
		k    int64
	}
	var firsts []fa
	for i, name := range r.Raw.Roster {
		firsts = append(firsts, fa{name, r.Raw.FirstActor[i]})
	}
	sort.SliceStable(firsts, func(i, j int) bool { return firsts[i].k > firsts[j].k })
	for _, x := range firsts {
		ci := stats.Wilson95(x.k, r.Encounters)
		f.add(x.name, pct(frac(x.k, r.Encounters)), pctCI(ci.Lo, ci.Hi))
	}
	return titled{title: l.T("table.first.old"), t: f}
}

func frac(k, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// outcomeTables are the per-side and per-combatant results: how often
// someone dies, how much damage, how close the wins were, and each copy
// group's record.
func outcomeTables(l i18n.Lang, r *results.Result) []titled {
	d := &table{left: 1, header: []string{l.T("col.side"), l.T("col.someone_down"), l.T("col.ci95"), l.T("col.damage_mean"), "p10", "p50", "p90",
		l.T("col.hpleft_p10"), "p50", "p90"}}
	for _, s := range r.Sides {
		dd, h := s.DamageDealt, s.HPLeftWhenWon
		row := []string{s.Name, pct(s.AnyDeathRate), pctCI(s.AnyDeathCI95[0], s.AnyDeathCI95[1]),
			fmt.Sprintf("%.1f", dd.Mean), fmt.Sprint(dd.P10), fmt.Sprint(dd.P50), fmt.Sprint(dd.P90)}
		if h.N > 0 {
			row = append(row, fmt.Sprint(h.P10), fmt.Sprint(h.P50), fmt.Sprint(h.P90))
		} else {
			row = append(row, "-", "-", "-")
		}
		d.add(row...)
	}
	c := &table{left: 2, header: []string{l.T("col.combatant"), l.T("col.side"), l.T("col.down"), l.T("col.out"), l.T("col.damage_dealt"), l.T("col.damage_taken"), l.T("col.kills"), l.T("col.turns"),
		l.T("col.actions_lost"), l.T("col.hpleft")}}
	for _, g := range r.Groups {
		name := g.Name
		if g.Copies > 1 {
			name = fmt.Sprintf("%s ×%d", g.Name, g.Copies)
		}
		c.add(name, g.Side, pct(g.DeathRate), pct(g.OutRate), fmt.Sprintf("%.2f", g.DamageDealtMean), fmt.Sprintf("%.2f", g.DamageTakenMean),
			fmt.Sprintf("%.3f", g.KillsMean), fmt.Sprintf("%.2f", g.TurnsMean), fmt.Sprintf("%.3f", g.ActionsLostMean), fmt.Sprintf("%.1f", g.HPLeftWhenWon))
	}
	return []titled{
		{title: l.T("table.outcomes"), t: d, notes: []string{l.T("note.outcomes")}},
		{title: l.T("table.combatants"), t: c, notes: []string{combatantsNote(l, r)}},
	}
}

// firstTable is who came first, per copy group: the first to take an
// action and the first in the initiative order, with 95% intervals.
func firstTable(l i18n.Lang, r *results.Result) titled {
	raw := &r.Raw
	f := &table{left: 2, header: []string{l.T("col.combatant"), l.T("col.side"), l.T("col.first_act"), l.T("col.ci95"), l.T("col.first_order"), l.T("col.ci95")}}
	row := func(name, side string, act, order int64) {
		a, o := stats.Wilson95(act, raw.Encounters), stats.Wilson95(order, raw.Encounters)
		f.add(name, side, pct(frac(act, raw.Encounters)), pctCI(a.Lo, a.Hi), pct(frac(order, raw.Encounters)), pctCI(o.Lo, o.Hi))
	}
	var side [2][2]int64
	for _, g := range results.Groups(raw.Roster, raw.RosterSides) {
		var act, order int64
		for _, i := range g.Members {
			act += raw.FirstActor[i]
			order += raw.FirstInOrder[i]
		}
		side[g.Side][0] += act
		side[g.Side][1] += order
		name := g.Name
		if len(g.Members) > 1 {
			name = fmt.Sprintf("%s ×%d", g.Name, len(g.Members))
		}
		row(name, r.Sides[g.Side].Name, act, order)
	}
	for s := 0; s < 2; s++ {
		row(l.T("col.side_row", r.Sides[s].Name), r.Sides[s].Name, side[s][0], side[s][1])
	}
	if raw.NoActor > 0 || raw.NoOrder > 0 {
		row(l.T("fig.nobody"), "", raw.NoActor, raw.NoOrder)
	}
	return titled{title: l.T("table.first"), t: f, notes: []string{l.T("note.first")}}
}

// combatantsNote explains the combatants table: how copies are grouped,
// with the first group of copies the table has as the example, or,
// without copies, only what the columns mean.
func combatantsNote(l i18n.Lang, r *results.Result) string {
	for _, g := range r.Groups {
		if g.Copies > 1 {
			return l.T("note.combatants.copies", g.Name, g.Copies)
		}
	}
	return l.T("note.combatants.none")
}
