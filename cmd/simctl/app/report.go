package app

import (
	"context"
	"fmt"
	"simctl/sim/msg"
	"strconv"
	"strings"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/narrate"
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// ReportRequest is the documents a report is made of, as read
// (results.ReadInput), with the name each is given in notes (its path).
type ReportRequest struct {
	Inputs  []*results.Input
	Names   []string
	Title   string // "": the scenario's (or a general one when they differ)
	Lang    i18n.Lang
	Command string // the command line the report says made it
}

// ReportBundle is what a report bundle is made of: the fields of
// reports.Bundle, which the front ends fill from it and render.
type ReportBundle struct {
	Title  string
	Inputs []*results.Input
	// Section is the kinds table's section renderer of each kind
	// (SectionOf).
	Section func(kind string) reports.SectionFunc
	Version string // the simctl that wrote the report
	Command string // the command that wrote it
	Lang    i18n.Lang
}

// Report is the report bundle of the documents (simctl report writes it
// to a folder, the lab archives it): each run's scenario context and
// representative fights replayed from the scenario text it embeds, an
// optimization's best candidate's median fight. What cannot be replayed
// is left out with a note (obs.Note); the inputs are completed in place.
func Report(ctx context.Context, req *ReportRequest, obs *Observer) (*ReportBundle, error) {
	if obs == nil {
		obs = &Observer{}
	}
	interrupted := &Error{Kind: Interrupted, Err: msg.Errorf("interrupted; nothing was written")}
	b := &ReportBundle{Title: req.Title, Lang: req.Lang, Version: Version(), Command: req.Command, Section: SectionOf}
	for k, in := range req.Inputs {
		p := req.Names[k]
		if in.Run == nil {
			// An analysis's document: its kind's section, readied by its
			// kind.
			a := Lookup(in.DocKind())
			if a == nil || a.Section == nil {
				return nil, &Error{Kind: Usage, Err: msg.Errorf("%s: a %s document has no section in a report (its kind names no section renderer)", p, in.DocKind())}
			}
			if h, ok := in.Document().(interface{ DocHeader() *results.Header }); ok && h.DocHeader().Context == nil {
				obs.note("warning: %s: the document carries no scenario text (made by an older simctl); the report leaves out its ruleset options and scenario text", p)
			}
			if a.Prepare != nil {
				if err := a.Prepare(ctx, in, req.Lang, obs); err != nil {
					if isInterrupt(err) {
						return nil, interrupted
					}
					return nil, err
				}
			}
			b.Inputs = append(b.Inputs, in)
			continue
		}
		// The scenario comes from the result itself, never from the path
		// in its file field: that file may have been edited since, or may
		// be anything at all.
		c, err := contextOf(in.Run.File, in.Run.ScenarioText, in.Run.Sets, obs)
		if err != nil {
			obs.note("warning: %s: %v; the report leaves out its ruleset options, scenario text and side colours of combatants", p, firstLine(err))
		}
		in.Context = c
		if err == nil {
			in.Traces, err = FightTracesIn(ctx, in.Run, req.Lang, obs)
			if err != nil {
				if isInterrupt(err) {
					return nil, interrupted
				}
				obs.note("warning: %s: the representative fights could not be replayed: %v", p, firstLine(err))
			}
		}
		b.Inputs = append(b.Inputs, in)
	}
	if b.Title == "" {
		b.Title = req.Lang.T("report.title.scenario", b.Inputs[0].Scenario())
		for _, in := range b.Inputs {
			// A general title when they differ, or when one names none
			// (a kind's document may not).
			if in.Scenario() != b.Inputs[0].Scenario() || in.Scenario() == "" {
				b.Title = req.Lang.T("report.title")
			}
		}
	}
	if ctx.Err() != nil {
		return nil, interrupted
	}
	return b, nil
}

// firstLine is err's first line, in the language the message around it
// is printed in.
func firstLine(err error) msg.Localizer { return firstLineOf{err} }

type firstLineOf struct{ err error }

func (f firstLineOf) Localize(tr msg.Translator) string {
	return strings.SplitN(msg.Localize(f.err, tr), "\n", 2)[0]
}

// parseSets reads a document's overrides.
func parseSets(sets []string) ([]scenario.Set, error) {
	var ss []scenario.Set
	for _, s := range sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		ss = append(ss, x)
	}
	return ss, nil
}

// contextOf compiles a result's embedded scenario text with its overrides
// and describes it for a report.
func contextOf(file, text string, sets []string, obs *Observer) (*results.Context, error) {
	if text == "" {
		return nil, msg.Errorf("the result carries no scenario text (made by an older simctl)")
	}
	ss, err := parseSets(sets)
	if err != nil {
		return nil, err
	}
	src := &Source{Name: file, Display: file, Data: []byte(text)}
	sc, g, err := src.Compile(ss, obs.Warn)
	if err != nil {
		return nil, msg.Errorf("its embedded scenario does not compile with this simctl: %v", err)
	}
	return ScenarioContext(src, sc, g), nil
}

// traceSample is how many of a run's first encounters the report searches
// for its representative fights: enough for the extremes to be telling,
// few enough to replay in a moment.
const traceSample = 20_000

// FightTraces replays a run's shortest, median and longest fights (by
// regular rounds, the lowest index among equals) among its first
// encounters, from the scenario text the result embeds, as simctl trace
// would print them (at most narrate.MaxTraceLines each). Compile's
// warnings go to obs.Warn.
func FightTraces(ctx context.Context, r *results.Result, obs *Observer) ([]results.FightTrace, error) {
	return FightTracesIn(ctx, r, i18n.En, obs)
}

// FightTracesIn is FightTraces narrated in l (titles and narration;
// names and the command stay as written).
func FightTracesIn(ctx context.Context, r *results.Result, l i18n.Lang, obs *Observer) ([]results.FightTrace, error) {
	if obs == nil {
		obs = &Observer{}
	}
	ss, err := parseSets(r.Sets)
	if err != nil {
		return nil, err
	}
	src := &Source{Name: r.File, Display: r.File, Data: []byte(r.ScenarioText)}
	sc, g, err := src.Compile(ss, obs.Warn)
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
		cmd := TraceCommand(r.File, r.Seed, i, r.Sets)
		// A report shows at most MaxTraceLines of a fight (a long one
		// narrates gigabytes); the command prints the rest.
		var b strings.Builder
		tl := new(sim.Timeline)
		if err := narrate.TraceContext(ctx, &b, sc, g, r.Seed, i, narrate.TraceLimit{Lines: narrate.MaxTraceLines, Command: cmd, Lang: l, Timeline: tl}); err != nil {
			return nil, err
		}
		text := "# " + cmd + "\n" + b.String()
		title := fmt.Sprintf("%s: encounter %d, %v round(s) (of encounters %d..%d)", q.what, i, v, start, start+n-1)
		if l.Or() != i18n.En {
			title = l.T("trace.title."+q.name, i, v, start, start+n-1)
		}
		out = append(out, results.FightTrace{Name: q.name, Text: text, Title: title, Timeline: tl})
	}
	return out, nil
}

// TraceCommand is the simctl trace command line that prints encounter i
// of seed with the overrides.
func TraceCommand(file string, seed uint64, i int64, sets []string) string {
	cmd := []string{"simctl", "trace", file, "--seed", strconv.FormatUint(seed, 10), "--encounter", strconv.FormatInt(i, 10)}
	for _, s := range sets {
		cmd = append(cmd, "--set", s)
	}
	return results.ShellJoin(cmd)
}

// bestTrace replays the best candidate's median fight (by regular rounds,
// among the first encounters its confirmation played, the lowest index
// among equals) from the scenario text the document embeds, as simctl
// trace prints it, with its rule fires: how the answer wins.
func bestTrace(ctx context.Context, o *results.Optimize, l i18n.Lang) ([]results.FightTrace, error) {
	all := append(append([]string(nil), o.Sets...), o.Best.Sets...)
	ss, err := parseSets(all)
	if err != nil {
		return nil, err
	}
	src := &Source{Name: o.File, Display: o.File, Data: []byte(o.Context.ScenarioYAML)}
	sc, g, err := src.Compile(ss, nil)
	if err != nil {
		return nil, err
	}
	start, n := o.Search.ConfirmStart, min(o.Search.ConfirmN, traceSample)
	if n < 1 {
		return nil, nil
	}
	probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
	metric, err := probe.Metric("rounds")
	if err != nil {
		return nil, err
	}
	i, v, err := experiment.Pick(ctx, probe, metric, sim.RunConfig{Seed: o.Seed, Start: start, N: n}, 0.5)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if err := narrate.TraceContext(ctx, &b, sc, g, o.Seed, i, narrate.TraceLimit{Lang: l}); err != nil {
		return nil, err
	}
	title := fmt.Sprintf("the best candidate's median fight: encounter %d, %v round(s) (of its confirmation encounters %d..%d)", i, v, start, start+n-1)
	if l.Or() != i18n.En {
		title = l.T("trace.title.best_median", i, v, start, start+n-1)
	}
	return []results.FightTrace{{Name: "best-median", Text: "# " + TraceCommand(o.File, o.Seed, i, all) + "\n" + b.String(), Title: title}}, nil
}
