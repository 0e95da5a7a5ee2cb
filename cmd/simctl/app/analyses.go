package app

import (
	"context"
	"io"
	"strconv"
	"strings"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/msg"
	"simctl/sim/scenario"
	"simctl/stats"
)

// The analysis kinds simctl ships, one entry each (kinds.go says what an
// entry is). Their commands in cmd/simctl are hand-written (their flags
// and messages predate the table) and read their flags' defaults and
// texts below; the lab, simctl merge and simctl report run them from
// here. results.ParseInput reads their documents itself, so the entries
// leave Decode out. An entry names its own flags through Lookup: its
// variable cannot refer to itself.
func init() {
	for _, a := range []*Analysis{sweepKind, compareKind, valueKind, matrixKind, tournamentKind, findKind, optimizeKind} {
		Register(a)
	}
}

var sweepKind = &Analysis{
	Name: "sweep",
	Flags: []Flag{
		{Name: "vary", Type: Repeated, Field: "vary", Usage: "`PATH=RANGE` vary a scenario or tactics path, PATH=a:b:step or PATH=v1,v2,... (once or twice)"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		if len(f.Vary) < 1 || len(f.Vary) > 2 {
			return 0, msg.Text{}, msg.New("vary: a sweep varies one or two fields (PATH=RANGE, e.g. heroes.Fighter.init=0:6:1), got %d", len(f.Vary))
		}
		// Counted, not enumerated: two axes of a thousand values would be
		// a million points to build before saying no.
		mult, why := countVary(f.Vary, 0, msg.Text{})
		if why.Format != "" {
			return 0, msg.Text{}, why
		}
		if mult > results.MaxSweepPoints {
			return 0, msg.Text{}, msg.New("vary: %d points, more than the %d a sweep may have", mult, results.MaxSweepPoints)
		}
		return mult, msg.New("points"), msg.Text{}
	},
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		req := &SweepRequest{Source: c.Source, Sets: c.Sets, Seed: c.Seed, N: c.N, Workers: c.Workers, Batch: experiment.DefaultBatch, Command: c.Command}
		var err error
		if req.Axes, err = formAxes(f.Vary); err != nil {
			return nil, err
		}
		sw, err := Sweep(ctx, req, obs)
		if err != nil {
			return nil, err
		}
		return &Done{sw, sw.Warnings, sw.Interrupted}, nil
	},
	Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
		return reports.WriteSweep(doc.(*results.Sweep), w, f, l)
	},
	Figure: func(doc any, l i18n.Lang) (*reports.Figure, error) {
		return reports.SweepFigure(l, doc.(*results.Sweep))
	},
	Merge: func(docs []any, _ []string) (*Merged, error) {
		m, err := results.MergeSweeps(docsOf[*results.Sweep](docs))
		if err != nil {
			return nil, err
		}
		return &Merged{Doc: m, Missing: missingIf(m.Incomplete, msg.New("the sweep shards do not cover every point's encounters (shards missing); the merged sweep is marked incomplete"))}, nil
	},
	Section: reports.SweepSection,
	Slim: func(doc any) any {
		d, ok := doc.(*results.Sweep)
		if !ok {
			return nil
		}
		out := *d
		out.Context = nil
		out.Points = make([]results.SweepPoint, len(d.Points))
		for i, p := range d.Points {
			p.Result = slimResult(p.Result)
			out.Points[i] = p
		}
		return &out
	},
}

var compareKind = &Analysis{
	Name: "compare",
	Flags: []Flag{
		{Name: "option", Type: Repeated, Field: "options", Usage: "`NAME='--set PATH=VALUE ...'` an option to compare (repeatable; the first is the baseline)"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		if len(f.Options) < 2 {
			return 0, msg.Text{}, msg.New("options: a comparison needs at least two options (an option with no sets is the scenario unchanged), got %d", len(f.Options))
		}
		if len(f.Options) > MaxOptions {
			return 0, msg.Text{}, msg.New("options: %d, more than the %d a comparison here may have", len(f.Options), MaxOptions)
		}
		if err := CheckNamedSets(f.Options, "options"); err != nil {
			return 0, msg.Text{}, msg.New("%v", err)
		}
		return int64(len(f.Options)), msg.New("options"), msg.Text{}
	},
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		req := &CompareRequest{Source: c.Source, Sets: c.Sets, Seed: c.Seed, N: c.N, Workers: c.Workers, Batch: experiment.DefaultBatch, Command: c.Command}
		var err error
		if req.Options, err = formOptions(f.Options, "options"); err != nil {
			return nil, err
		}
		cmp, err := Compare(ctx, req, obs)
		if err != nil {
			return nil, err
		}
		return &Done{cmp, cmp.Warnings, cmp.Interrupted}, nil
	},
	Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
		return reports.WriteCompare(doc.(*results.Compare), w, f, l)
	},
	Figure: func(doc any, l i18n.Lang) (*reports.Figure, error) {
		return reports.CompareFigure(l, doc.(*results.Compare))
	},
	Merge: func(docs []any, _ []string) (*Merged, error) {
		m, err := results.MergeCompares(docsOf[*results.Compare](docs))
		if err != nil {
			return nil, err
		}
		return &Merged{Doc: m, Missing: missingIf(m.Incomplete, shardsMissing(msg.New("comparison")))}, nil
	},
	Section: reports.CompareSection,
	Slim: func(doc any) any {
		d, ok := doc.(*results.Compare)
		if !ok {
			return nil
		}
		out := *d
		out.Context = nil
		out.Options = make([]results.Option, len(d.Options))
		for i, o := range d.Options {
			o.Result, o.EconomyDelta = slimResult(o.Result), nil
			out.Options[i] = o
		}
		return &out
	},
}

var valueKind = &Analysis{
	Name: "value",
	Flags: []Flag{
		{Name: "side", Field: "side", Usage: "`NAME` the side whose parameters are valued and whose win rate is measured (default: the first)"},
		{Name: "params", Field: "params", Default: "init,hp,ac,attack", Usage: "`P,P,...` the parameters: init, hp, ac, attack, damage (every combatant of the side) or scenario paths such as heroes.Fighter.init"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		// The scenario unchanged, and each parameter a step down and up
		// (simctl value checks the names themselves). The default is
		// filled in: the recorded command line names it.
		if f.Params == "" {
			f.Params = Lookup("value").Flag("params").Default
		}
		seen := map[string]bool{}
		for _, p := range strings.Split(f.Params, ",") {
			if p = strings.TrimSpace(p); p != "" {
				seen[p] = true
			}
		}
		if len(seen) == 0 || len(seen) > MaxOptions {
			return 0, msg.Text{}, msg.New("params %q: name 1 to %d parameters, e.g. init,hp,ac,attack", f.Params, MaxOptions)
		}
		return int64(1 + 2*len(seen)), msg.New("games (the scenario, and each parameter a step down and up)"), msg.Text{}
	},
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		req := &ValueRequest{Source: c.Source, Sets: c.Sets, Side: f.Side, Params: strings.Split(Lookup("value").Get(f, "params"), ","),
			Seed: c.Seed, N: c.N, Workers: c.Workers, Command: c.Command}
		v, err := Value(ctx, req, obs)
		if err != nil {
			return nil, err
		}
		return &Done{v, v.Warnings, v.Interrupted}, nil
	},
	Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
		return reports.WriteValue(doc.(*results.Value), w, f, l)
	},
	Figure: func(doc any, l i18n.Lang) (*reports.Figure, error) {
		return reports.TornadoFigure(l, doc.(*results.Value))
	},
	Merge: func(docs []any, _ []string) (*Merged, error) {
		m, err := MergeValues(docsOf[*results.Value](docs))
		if err != nil {
			return nil, err
		}
		return &Merged{Doc: m, Missing: missingIf(m.Incomplete, shardsMissing(msg.New("value run")))}, nil
	},
	Section: reports.ValueSection,
	Slim: func(doc any) any {
		d, ok := doc.(*results.Value)
		if !ok {
			return nil
		}
		out := *d
		out.Joint = stats.Joint{}
		return &out
	},
}

var matrixKind = &Analysis{
	Name: "matrix",
	Flags: []Flag{
		{Name: "row", Type: Repeated, Field: "rows", Usage: "`NAME='--set PATH=VALUE ...'` an option of the row side (repeatable, at least two with the columns)"},
		{Name: "col", Type: Repeated, Field: "cols", Usage: "`NAME='--set PATH=VALUE ...'` an option of the column side (repeatable)"},
		{Name: "side", Field: "side", Usage: "`NAME` the row side, whose win rate is the payoff (default: the first); the column side is the other"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		if len(f.Rows) < 1 || len(f.Cols) < 1 || len(f.Rows)*len(f.Cols) < 2 {
			return 0, msg.Text{}, msg.New("rows, cols: a matrix needs at least one row and one column option, and two of one of them")
		}
		if len(f.Rows) > MaxOptions || len(f.Cols) > MaxOptions {
			return 0, msg.Text{}, msg.New("rows, cols: %d × %d, more than the %d options a side may have here", len(f.Rows), len(f.Cols), MaxOptions)
		}
		if err := CheckNamedSets(f.Rows, "rows"); err != nil {
			return 0, msg.Text{}, msg.New("%v", err)
		}
		if err := CheckNamedSets(f.Cols, "cols"); err != nil {
			return 0, msg.Text{}, msg.New("%v", err)
		}
		return int64(len(f.Rows) * len(f.Cols)), msg.New("pairings"), msg.Text{}
	},
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		req := &MatrixRequest{Source: c.Source, Sets: c.Sets, Side: f.Side, Seed: c.Seed, N: c.N, Workers: c.Workers, Command: c.Command}
		var err error
		if req.Rows, err = formOptions(f.Rows, "rows"); err != nil {
			return nil, err
		}
		if req.Cols, err = formOptions(f.Cols, "cols"); err != nil {
			return nil, err
		}
		m, err := Matrix(ctx, req, obs)
		if err != nil {
			return nil, err
		}
		return &Done{m, nil, m.Interrupted}, nil
	},
	Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
		return reports.WriteMatrix(doc.(*results.Matrix), w, f, l)
	},
	Figure: func(doc any, l i18n.Lang) (*reports.Figure, error) {
		return reports.MatrixFigure(l, doc.(*results.Matrix))
	},
	Merge: func(docs []any, _ []string) (*Merged, error) {
		m, err := MergeMatrices(docsOf[*results.Matrix](docs))
		if err != nil {
			return nil, err
		}
		return &Merged{Doc: m, Missing: missingIf(m.Incomplete, shardsMissing(msg.New("matrix")))}, nil
	},
	Section: reports.MatrixSection,
	Slim: func(doc any) any {
		d, ok := doc.(*results.Matrix)
		if !ok {
			return nil
		}
		out := *d
		out.Joint = stats.Joint{}
		return &out
	},
}

// The tournament's selection: the CLI's flag defaults, and what the lab
// plays (its budget is the request's n).
var tournamentKind = &Analysis{
	Name: "tournament",
	Flags: []Flag{
		{Name: "option", Type: Repeated, Field: "options", Usage: "`NAME='--set PATH=VALUE ...'` a candidate (repeatable)"},
		{Name: "side", Field: "side", Usage: "`NAME` the side whose options compete, by its win rate (default: the first)"},
		{Name: "vary", Type: Repeated, Field: "-", Usage: "`PATH=RANGE` candidates from every combination of the values of one or more paths (PATH=a:b:step or PATH=v1,v2,...)"},
		{Name: "first", Field: "-", Default: "2000", Usage: "`N` encounters of every candidate in the first stage"},
		{Name: "batch", Field: "-", Usage: "`N` new encounters of every candidate left in each later stage (default: --first)"},
		{Name: "alpha", Type: Float, Field: "-", Default: "0.05", Usage: "`A` the tournament's error: with probability at least 1-A no best option is eliminated and a selected one is within --delta of the best"},
		{Name: "delta", Field: "-", Default: "1pp", Usage: "`D` the indifference zone: options within D of the best count as good as it (1pp, 0.5%, or 0.01)"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		if len(f.Options) < 2 || len(f.Options) > MaxOptions {
			return 0, msg.Text{}, msg.New("options: a tournament needs 2 to %d options, got %d", MaxOptions, len(f.Options))
		}
		if err := CheckNamedSets(f.Options, "options"); err != nil {
			return 0, msg.Text{}, msg.New("%v", err)
		}
		return int64(len(f.Options)), msg.New("options"), msg.Text{}
	},
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		k := Lookup("tournament")
		first := defaultCount(k.Get(f, "first"))
		batch := first
		if b := k.Get(f, "batch"); b != "" {
			batch = defaultCount(b)
		}
		req := &TournamentRequest{Source: c.Source, Sets: c.Sets, Side: f.Side, Seed: c.Seed, Workers: c.Workers, Command: c.Command,
			Params: experiment.SelectParams{Alpha: defaultFloat(k.Get(f, "alpha")), Delta: defaultFloat(k.Get(f, "delta")), First: first, Batch: batch, Budget: c.N}}
		var err error
		if req.Options, err = formOptions(f.Options, "options"); err != nil {
			return nil, err
		}
		t, err := Tournament(ctx, req, obs)
		if err != nil {
			return nil, err
		}
		return &Done{t, nil, t.Interrupted}, nil
	},
	Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
		return reports.WriteTournament(doc.(*results.Tournament), w, f, l)
	},
	Merge: func(_ []any, paths []string) (*Merged, error) {
		return nil, msg.Errorf("%s: %v", "merge", msg.New("%s is a tournament; a tournament does not shard (each round's eliminations need the whole round), so there is nothing to merge", paths[0]))
	},
	Section: reports.TournamentSection,
	Words:   wordsOf(func(l i18n.Lang, t *results.Tournament) any { return reports.TournamentWordsIn(l, t) }),
}

var findKind = &Analysis{
	Name: "find",
	Flags: []Flag{
		{Name: "where", Field: "where", Usage: "`COND` a condition on an encounter's outcome, in the tactics language (simctl help find lists the facts)"},
		{Name: "limit", Type: Int, Field: "-", Default: "20", Usage: "`K` list at most K matching encounters (the lowest indices)"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		if f.Where == "" {
			return 0, msg.Text{}, msg.New(`where: find needs a condition, e.g. side("heroes").won and rounds >= 5`)
		}
		return 1, msg.New("encounters"), msg.Text{}
	},
	CheckWhere: func(f *Form, sc *scenario.Scenario, g sim.Game) error { return CheckFindWhere(sc, g, f.Where) },
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		limit, _ := strconv.Atoi(Lookup("find").Get(f, "limit"))
		found, err := Find(ctx, &FindRequest{Source: c.Source, Sets: c.Sets, Where: f.Where, Limit: limit, Seed: c.Seed, N: c.N, Workers: c.Workers, Command: c.Command}, obs)
		if err != nil {
			return nil, err
		}
		return &Done{found, nil, found.Interrupted}, nil
	},
	// find's text is the CLI's own (cmdFind); its document is JSON only.
	Write: jsonWrite,
}

// optimize in the lab: the CLI's defaults (a guarantee at 95% within
// 1pp), the selection's cap per candidate n; the incumbent and the
// narrowing intervals reach the page after every stage.
var optimizeKind = &Analysis{
	Name: "optimize",
	Flags: []Flag{
		{Name: "vary", Type: Repeated, Field: "vary", Usage: "`PATH=RANGE` a searched --set path (repeatable): a:b[:step] or v1,v2,...; tactics params too (heroes.tactics.params.hurt=0:1:0.05)"},
		{Name: "where", Field: "where", Usage: "`EXPR` a constraint on the numeric --vary paths, in the tactics language, e.g. '(heroes.Fighter.init - 1) + (heroes.Fighter.hp - 20) / 2 <= 4'; a path with # or - is quoted: path(\"monsters.Orc#2.init\")"},
		{Name: "side", Field: "side", Usage: "`NAME` the side whose settings are searched and whose win rate is maximised (default: the first)"},
	},
	Check: func(f *Form) (int64, msg.Text, msg.Text) {
		if len(f.Vary) < 1 || len(f.Vary) > 3 {
			return 0, msg.Text{}, msg.New("vary: optimize searches one to three paths here (PATH=RANGE, e.g. heroes.Fighter.init=1:5), got %d", len(f.Vary))
		}
		mult, why := countVary(f.Vary, maxSearchCandidates, msg.New("vary: more than the %d candidates a search here may have", maxSearchCandidates))
		if why.Format != "" {
			return 0, msg.Text{}, why
		}
		// The confirmation replays the finalists on fresh encounters: up
		// to about twice the selection's cap each.
		return 2 * mult, msg.New("candidates (with the confirmation)"), msg.Text{}
	},
	CheckWhere: func(f *Form, _ *scenario.Scenario, _ sim.Game) error {
		axes, err := formAxes(f.Vary) // Check parsed each
		if err != nil {
			return err
		}
		return CheckOptimizeWhere(axes, f.Where)
	},
	Play: func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error) {
		req := &OptimizeRequest{Source: c.Source, Sets: c.Sets, Side: f.Side, Where: f.Where, Alpha: OptimizeAlpha, Delta: OptimizeDelta,
			Budget: OptimizeBudget, First: OptimizeFirst, Confirm: OptimizeConfirm, Cap: c.N, Seed: c.Seed, Workers: c.Workers, Command: c.Command}
		var err error
		if req.Axes, err = formAxes(f.Vary); err != nil {
			return nil, err
		}
		res, err := Optimize(ctx, req, obs)
		if err != nil {
			return nil, err
		}
		return &Done{res.Optimize, nil, res.Interrupted}, nil
	},
	Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
		return reports.WriteOptimize(doc.(*results.Optimize), w, f, l)
	},
	// The shards of one stage of a search; the merged stage is read back
	// by the search's resume, as JSON.
	Merge: func(docs []any, paths []string) (*Merged, error) {
		m, err := MergeOptimizeStages(docsOf[*results.Optimize](docs), paths)
		if err != nil {
			return nil, err
		}
		return &Merged{Doc: m, JSON: true}, nil
	},
	Section: reports.OptimizeSection,
	// The best candidate's median fight, replayed from the scenario text
	// the document embeds.
	Prepare: func(ctx context.Context, in *results.Input, l i18n.Lang, obs *Observer) error {
		o := in.Optimize
		if o.Search == nil || o.Context == nil || o.Interrupted {
			return nil
		}
		var err error
		if in.Traces, err = bestTrace(ctx, o, l); err != nil {
			if isInterrupt(err) {
				return err
			}
			obs.note("warning: %s: the best candidate's median fight could not be replayed: %v", in.Path, firstLine(err))
		}
		return nil
	},
	Words: wordsOf(func(l i18n.Lang, o *results.Optimize) any { return reports.OptimizeWordsIn(l, o) }),
	Slim: func(doc any) any {
		d, ok := doc.(*results.Optimize)
		if !ok {
			return nil
		}
		out := *d
		out.Context = nil
		return &out
	},
}

// docsOf are a kind's documents as Merge is given them.
func docsOf[T any](docs []any) []T {
	out := make([]T, len(docs))
	for i, d := range docs {
		out[i] = d.(T)
	}
	return out
}

// shardsMissing is what merge says of a merge of what's shards that
// misses encounters.
func shardsMissing(what msg.Text) msg.Text {
	return msg.New("the %s shards do not cover every encounter (shards missing); the merged result is marked incomplete", what)
}

// missingIf is said when incomplete.
func missingIf(incomplete bool, said msg.Text) msg.Text {
	if incomplete {
		return said
	}
	return msg.Text{}
}

// slimResult is a result as interim tables need it: without each
// result's full tally.
func slimResult(r *results.Result) *results.Result {
	if r == nil {
		return nil
	}
	return &results.Result{Encounters: r.Encounters, Sides: r.Sides, Draws: r.Draws, DrawRate: r.DrawRate}
}
