package main

import (
	"context"
	"flag"
	"io"
	"strconv"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/results"
)

// The commands of the analysis kinds in the table (app.Register) that
// have no hand-written command here: their flags come from the table, and
// the command is the same for every one of them.

// builtinCommands are the hand-written commands of analysis kinds; every
// other kind in the table runs through cmdAnalysis.
var builtinCommands = map[string]func(context.Context, []string, io.Writer, io.Writer) int{
	"sweep": cmdSweep, "compare": cmdCompare, "value": cmdValue, "matrix": cmdMatrix,
	"tournament": cmdTournament, "optimize": cmdOptimize, "find": cmdFind,
}

// kindFlag registers the table's flag name of kind on fs, with the
// table's default and text, and returns where its value lands.
func kindFlag(fs *flag.FlagSet, kind, name string) *string {
	f := app.Lookup(kind).Flag(name)
	return fs.String(f.Name, f.Default, f.Usage)
}

// kindUsage is the table's text of flag name of kind.
func kindUsage(kind, name string) string { return app.Lookup(kind).Flag(name).Usage }

// repeatedFlag collects every value of a repeatable flag.
type repeatedFlag []string

func (r *repeatedFlag) String() string     { return "" }
func (r *repeatedFlag) Set(v string) error { *r = append(*r, v); return nil }

// cmdAnalysis is the command of an analysis kind without a hand-written
// one: SCENARIO, the flags every analysis takes, the kind's own from the
// table, and the document written as --format asks.
func cmdAnalysis(ctx context.Context, k *app.Analysis, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	form := &app.Form{Kind: k.Name, Values: map[string][]string{}}
	var floats []func() // copy each number flag's value into the form
	for i := range k.Flags {
		f := &k.Flags[i]
		switch f.Type {
		case app.Repeated:
			var r repeatedFlag
			fs.Var(&r, f.Name, f.Usage)
			floats = append(floats, func() { form.Values[f.Name] = r })
		case app.Int:
			def, err := strconv.Atoi(f.Default)
			if f.Default != "" && err != nil {
				panic("simctl: analysis " + k.Name + ": --" + f.Name + "'s default is not a whole number")
			}
			v := fs.Int(f.Name, def, f.Usage)
			floats = append(floats, func() {
				if isSet(fs, f.Name) {
					form.Values[f.Name] = []string{strconv.Itoa(*v)}
				}
			})
		case app.Float:
			def, err := strconv.ParseFloat(f.Default, 64)
			if f.Default != "" && err != nil {
				panic("simctl: analysis " + k.Name + ": --" + f.Name + "'s default is not a number")
			}
			v := fs.Float64(f.Name, def, f.Usage)
			floats = append(floats, func() {
				if isSet(fs, f.Name) {
					form.Values[f.Name] = []string{strconv.FormatFloat(*v, 'g', -1, 64)}
				}
			})
		default:
			v := fs.String(f.Name, f.Default, f.Usage)
			floats = append(floats, func() {
				if isSet(fs, f.Name) {
					form.Values[f.Name] = []string{*v}
				}
			})
		}
	}
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters")
	plotWhat := ""
	if k.Figure != nil {
		plotWhat = "the figure"
	}
	o.register(fs, plotWhat)
	langF := langFlag(fs, "the text output's own words (JSON stays English)")
	pos, stop, code := parseArgs(k.Name, fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, k.Name, "%v", err)
	}
	if len(pos) != 1 {
		return usageError(stderr, k.Name, "give one SCENARIO, e.g. simctl %s d20/duel", k.Name)
	}
	if o.plot != "" && k.Figure == nil {
		return usageError(stderr, k.Name, "--plot: a %s document has no figure; its table is the result", k.Name)
	}
	for _, copy := range floats {
		copy()
	}
	format, ok := o.check(k.Name, stderr)
	if !ok {
		return exitUsage
	}
	if !o.checkFont(k.Name, lang, stderr) {
		return exitUsage
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	obs := o.observer(ctx, k.Name, format, stderr)
	obs.Warn = src.warnTo()
	c := &app.Common{Source: src.app(), Sets: o.sets, Seed: o.seed.v, N: o.n.n, Workers: o.workers.v,
		Command: results.ShellJoin(append([]string{"simctl", k.Name}, args...))}
	done, err := k.Play(ctx, c, form, obs)
	if err != nil {
		return appError(stderr, k.Name, err)
	}
	if !o.quiet {
		for _, w := range done.Warnings {
			sayWarning(stderr, k.Name, w)
		}
	}
	write := func(w io.Writer, f reports.Format) error { return k.Write(done.Doc, w, f, lang) }
	figure := func() (*reports.Figure, error) { return k.Figure(done.Doc, lang) }
	if !o.write(k.Name, stdout, stderr, format, write, figure) {
		return exitFailure
	}
	if done.Interrupted {
		say(stderr, k.Name, "interrupted; %s", o.interruptedWhere(format, stdout, false))
		return exitInterrupted
	}
	return exitOK
}

// isSet says whether the command line gave flag name.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
