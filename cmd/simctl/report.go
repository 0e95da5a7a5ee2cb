package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"simctl/sim/experiment"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/sim"
	"simctl/sim/scenario"
)

func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("o", "", "`DIR` write the report folder DIR (report.md, report.html, PNG figures); required")
	title := fs.String("title", "", "`TEXT` report title (default: Balance report: SCENARIO)")
	quiet := fs.Bool("quiet", false, "no warnings on stderr; errors only")
	langFlag := langFlag(fs, "the report's own words")
	fontFile := fs.String("font", "", "`FILE` TrueType/OpenType font for the figures' text (default: Liberation Sans; for ko, an installed font with Hangul, e.g. fonts-nanum)")
	pos, done, code := parseArgs("report", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langFlag)
	if err != nil {
		return usageError(stderr, "report", "%v", err)
	}
	// Before reading any input: a Korean report without a Hangul font
	// fails at once, naming the package to install.
	if err := reports.UseFigureFont(lang, *fontFile); err != nil {
		fmt.Fprintln(stderr, "simctl report:", err)
		return exitUsage
	}
	if len(pos) == 0 || *out == "" {
		return usageError(stderr, "report", "give the RESULT.json files and -o DIR, e.g. simctl report duel.json -o report/")
	}
	// "report/" names the folder report: without Clean, its parent would
	// be taken as "report" itself, which does not exist yet.
	*out = filepath.Clean(*out)
	if err := safeio.CheckDir(*out, "-o", false); err != nil {
		fmt.Fprintln(stderr, "simctl report:", err)
		return exitUsage
	}
	b := &reports.Bundle{Title: *title, Lang: lang, Version: fullVersion(), Command: results.ShellJoin(append([]string{"simctl", "report"}, args...))}
	for _, p := range pos {
		in, err := results.ReadInputContext(ctx, p)
		if err != nil {
			fmt.Fprintln(stderr, "simctl report:", err)
			return exitFailure
		}
		if h := inputHeader(in); h != nil && h.Context == nil && !*quiet {
			fmt.Fprintf(stderr, "simctl report: warning: %s: the document carries no scenario text (made by an older simctl); the report leaves out its ruleset options and scenario text\n", p)
		}
		if in.Run != nil {
			// The scenario comes from the result itself, never from the
			// path in its file field: that file may have been edited since,
			// or may be anything at all.
			c, err := contextOf(in.Run.File, in.Run.ScenarioText, in.Run.Sets)
			if err != nil && !*quiet {
				fmt.Fprintf(stderr, "simctl report: warning: %s: %v; the report leaves out its ruleset options, scenario text and side colours of combatants\n",
					p, firstLine(err))
			}
			in.Context = c
			if err == nil {
				in.Traces, err = fightTraces(ctx, in.Run)
				if err != nil {
					if isInterrupt(err) {
						fmt.Fprintln(stderr, "simctl report: interrupted; nothing was written")
						return exitInterrupted
					}
					if !*quiet {
						fmt.Fprintf(stderr, "simctl report: warning: %s: the representative fights could not be replayed: %v\n", p, firstLine(err))
					}
				}
			}
		}
		if o := in.Optimize; o != nil && o.Search != nil && o.Context != nil && !o.Interrupted {
			if in.Traces, err = bestTrace(ctx, o); err != nil {
				if isInterrupt(err) {
					fmt.Fprintln(stderr, "simctl report: interrupted; nothing was written")
					return exitInterrupted
				}
				if !*quiet {
					fmt.Fprintf(stderr, "simctl report: warning: %s: the best candidate's median fight could not be replayed: %v\n", p, firstLine(err))
				}
			}
		}
		b.Inputs = append(b.Inputs, in)
	}
	if b.Title == "" {
		b.Title = lang.T("report.title.scenario", inputScenario(b.Inputs[0]))
		for _, in := range b.Inputs[1:] {
			if inputScenario(in) != inputScenario(b.Inputs[0]) {
				b.Title = lang.T("report.title")
			}
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "simctl report: interrupted; nothing was written")
		return exitInterrupted
	}
	files, err := b.Write(*out)
	if err != nil {
		fmt.Fprintln(stderr, "simctl report:", err)
		return exitFailure
	}
	for _, f := range files {
		fmt.Fprintln(stdout, filepath.Join(*out, f))
	}
	return exitOK
}

func inputScenario(in *results.Input) string {
	switch {
	case in.Run != nil:
		return in.Run.Scenario
	case in.Sweep != nil:
		return in.Sweep.Scenario
	case in.Compare != nil:
		return in.Compare.Scenario
	}
	return inputHeader(in).Scenario
}

// inputHeader is the header of a value, matrix or tournament document (nil
// for the other kinds).
func inputHeader(in *results.Input) *results.Header {
	switch {
	case in.Value != nil:
		return &in.Value.Header
	case in.Matrix != nil:
		return &in.Matrix.Header
	case in.Tournament != nil:
		return &in.Tournament.Header
	case in.Optimize != nil:
		return &in.Optimize.Header
	}
	return nil
}

func firstLine(err error) string {
	return strings.SplitN(err.Error(), "\n", 2)[0]
}

// contextOf compiles a result's embedded scenario text with its overrides
// and describes it for a report.
// traceSample is how many of a run's first encounters the report searches
// for its representative fights: enough for the extremes to be telling,
// few enough to replay in a moment.
const traceSample = 20_000

// fightTraces replays a run's shortest, median and longest fights (by
// regular rounds, the lowest index among equals) among its first
// encounters, from the scenario text the result embeds, as simctl trace
// would print them.
func fightTraces(ctx context.Context, r *results.Result) ([]results.FightTrace, error) {
	var ss []scenario.Set
	for _, s := range r.Sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		ss = append(ss, x)
	}
	src := &source{name: r.File, display: r.File, data: []byte(r.ScenarioText)}
	sc, g, err := src.compile(ss)
	if err != nil {
		return nil, err
	}
	n := min(r.Encounters, traceSample)
	start := int64(0)
	if r.Shard != nil {
		start = r.Shard.Start
	}
	if n < 1 {
		return nil, nil
	}
	probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
	metric, err := probe.Metric("rounds")
	if err != nil {
		return nil, err
	}
	var out []results.FightTrace
	for _, q := range []struct {
		name, what string
		q          float64
	}{{"shortest", "the shortest fight", 0}, {"median", "a median fight", 0.5}, {"longest", "the longest fight", 1}} {
		i, v, err := experiment.Pick(ctx, probe, metric, sim.RunConfig{Seed: r.Seed, Start: start, N: n}, q.q)
		if err != nil {
			return nil, err
		}
		cmd := []string{"simctl", "trace", r.File, "--seed", strconv.FormatUint(r.Seed, 10), "--encounter", strconv.FormatInt(i, 10)}
		for _, s := range r.Sets {
			cmd = append(cmd, "--set", s)
		}
		// A report shows at most MaxTraceLines of a fight (a long one
		// narrates gigabytes); the command prints the rest.
		var b strings.Builder
		if err := reports.TraceContext(ctx, &b, sc, g, r.Seed, i, reports.TraceLimit{Lines: reports.MaxTraceLines, Command: results.ShellJoin(cmd)}); err != nil {
			return nil, err
		}
		text := "# " + results.ShellJoin(cmd) + "\n" + b.String()
		out = append(out, results.FightTrace{Name: q.name, Text: text,
			Title: fmt.Sprintf("%s: encounter %d, %v round(s) (of encounters %d..%d)", q.what, i, v, start, start+n-1)})
	}
	return out, nil
}

func contextOf(file, text string, sets []string) (*results.Context, error) {
	if text == "" {
		return nil, fmt.Errorf("the result carries no scenario text (made by an older simctl)")
	}
	var ss []scenario.Set
	for _, s := range sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		ss = append(ss, x)
	}
	src := &source{name: file, display: file, data: []byte(text)}
	sc, g, err := src.compile(ss)
	if err != nil {
		return nil, fmt.Errorf("its embedded scenario does not compile with this simctl: %v", err)
	}
	return scenarioContext(src, sc, g), nil
}

// scenarioContext is app.ScenarioContext for the CLI's source.
func scenarioContext(src *source, sc *scenario.Scenario, g sim.Game) *results.Context {
	return app.ScenarioContext(src.app(), sc, g)
}

// yamlText renders a YAML value on one line, in flow style.
func yamlText(n *yaml.Node) string { return app.YAMLText(n) }

// figureOut writes a figure to --plot FILE (.png or .svg).
func figureOut(t *safeio.Target, f *reports.Figure, err error) error {
	if err != nil {
		return err
	}
	return t.Write(func(w io.Writer) error {
		if strings.HasSuffix(strings.ToLower(t.Path()), ".svg") {
			return f.SVG(w)
		}
		return f.PNG(w)
	})
}
