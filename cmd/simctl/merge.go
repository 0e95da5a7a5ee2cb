package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"simctl/sim/msg"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
)

func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	langF := langFlag(fs, "simctl's messages")
	var c common
	c.register(fs, gFormat|gQuiet, "")
	partial := fs.Bool("allow-partial", false, "accept a set of shards that misses encounters (the result is marked incomplete)")
	pos, done, code := parseArgs("merge", fs, args, stdout, stderr)
	if done {
		return code
	}
	if _, err := resolveLang(*langF); err != nil {
		return usageError(stderr, "merge", "%v", err)
	}
	if len(pos) == 0 {
		return usageError(stderr, "merge", "give the RESULT.json files to merge (the JSON of simctl run --json --shard k/K)")
	}
	format, err := c.resolveFormat()
	if err != nil {
		return usageError(stderr, "merge", "%v", err)
	}
	target, err := checkOut(c.out, "-o")
	if err != nil {
		sayErr(stderr, "merge", err)
		return exitUsage
	}
	var rs []*results.Result
	var sweeps []*results.Sweep
	var values []*results.Value
	var matrices []*results.Matrix
	var compares []*results.Compare
	var opts []*results.Optimize
	var optPaths []string
	var others []*results.Input // documents of kinds the table registered
	for _, p := range pos {
		in, err := results.ReadInputContext(ctx, p)
		if err != nil {
			if ctx.Err() != nil || isInterrupt(err) {
				say(stderr, "merge", "interrupted while reading %s; nothing written", p)
				return exitInterrupted
			}
			sayErr(stderr, "merge", mergeInputError(ctx, p, err))
			return exitFailure
		}
		switch {
		case in.Run != nil:
			rs = append(rs, in.Run)
		case in.Sweep != nil:
			sweeps = append(sweeps, in.Sweep)
		case in.Value != nil:
			values = append(values, in.Value)
		case in.Matrix != nil:
			matrices = append(matrices, in.Matrix)
		case in.Optimize != nil:
			opts, optPaths = append(opts, in.Optimize), append(optPaths, p)
		case in.Tournament != nil:
			say(stderr, "merge", "%s is a tournament; a tournament does not shard (each round's eliminations need the whole round), so there is nothing to merge", p)
			return exitFailure
		case in.Doc != nil:
			others = append(others, in)
		default:
			compares = append(compares, in.Compare)
		}
	}
	kinds := 0
	for _, k := range []int{len(rs), len(sweeps), len(values), len(matrices), len(compares), len(opts), len(others)} {
		if k > 0 {
			kinds++
		}
	}
	if kinds > 1 {
		say(stderr, "merge", "documents of different kinds given (runs, sweeps, comparisons, value or matrix runs); merge the shards of one experiment at a time")
		return exitFailure
	}
	switch {
	case len(others) > 0:
		return mergeKind(others, format, func(doc func(io.Writer) error) error { return writeOut(target, stdout, doc) }, stderr)
	case len(opts) > 0:
		m, err := app.MergeOptimizeStages(opts, optPaths)
		if err != nil {
			fmt.Fprintln(stderr, "simctl", langOf(stderr).Err(err))
			return exitFailure
		}
		if err := writeOut(target, stdout, func(w io.Writer) error { return reports.WriteOptimize(m, w, reports.JSON, i18n.En) }); err != nil {
			sayErr(stderr, "merge", err)
			return exitFailure
		}
		return exitOK
	case len(sweeps) > 0:
		return mergeSweeps(sweeps, target, *partial, format, stdout, stderr)
	case len(values) > 0:
		v, err := app.MergeValues(values)
		if err != nil {
			fmt.Fprintln(stderr, "simctl", langOf(stderr).Err(err))
			return exitFailure
		}
		return mergeDone(msg.New("value run"), v.Incomplete, target, *partial, stdout, stderr, func(w io.Writer) error { return reports.WriteValue(v, w, format, i18n.En) })
	case len(matrices) > 0:
		m, err := app.MergeMatrices(matrices)
		if err != nil {
			fmt.Fprintln(stderr, "simctl", langOf(stderr).Err(err))
			return exitFailure
		}
		return mergeDone(msg.New("matrix"), m.Incomplete, target, *partial, stdout, stderr, func(w io.Writer) error { return reports.WriteMatrix(m, w, format, i18n.En) })
	case len(compares) > 0:
		c, err := results.MergeCompares(compares)
		if err != nil {
			fmt.Fprintln(stderr, "simctl", langOf(stderr).Err(err))
			return exitFailure
		}
		return mergeDone(msg.New("comparison"), c.Incomplete, target, *partial, stdout, stderr, func(w io.Writer) error { return reports.WriteCompare(c, w, format, i18n.En) })
	}
	m, err := results.Merge(rs)
	if err != nil {
		fmt.Fprintln(stderr, "simctl merge:", strings.TrimPrefix(langOf(stderr).Err(err), "merge: "))
		return exitFailure
	}
	covered, whole := results.Coverage(rs)
	if covered < whole && !c.quiet {
		say(stderr, "merge", "the results cover %d of the run's %d encounters (shards missing or interrupted); the merged result is marked incomplete", covered, whole)
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { return reports.WriteResult(m, w, format) }); err != nil {
		sayErr(stderr, "merge", err)
		return exitFailure
	}
	if covered < whole && !*partial {
		say(stderr, "merge", "incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeSweeps merges shards of a sweep (sweep --shard k/K) into the sweep
// one process would have made; text output is the sweep's table.
func mergeSweeps(ss []*results.Sweep, target *safeio.Target, partial bool, f reports.Format, stdout, stderr io.Writer) int {
	m, err := results.MergeSweeps(ss)
	if err != nil {
		fmt.Fprintln(stderr, "simctl", langOf(stderr).Err(err))
		return exitFailure
	}
	if m.Incomplete {
		say(stderr, "merge", "the sweep shards do not cover every point's encounters (shards missing); the merged sweep is marked incomplete")
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { return reports.WriteSweep(m, w, f, i18n.En) }); err != nil {
		sayErr(stderr, "merge", err)
		return exitFailure
	}
	if m.Incomplete && !partial {
		say(stderr, "merge", "incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeDone writes a merged value or matrix document; an incomplete set
// of shards is said, and fails unless --allow-partial.
func mergeDone(what msg.Text, incomplete bool, target *safeio.Target, partial bool, stdout, stderr io.Writer, write func(io.Writer) error) int {
	if incomplete {
		say(stderr, "merge", "the %s shards do not cover every encounter (shards missing); the merged result is marked incomplete", what)
	}
	if err := writeOut(target, stdout, write); err != nil {
		sayErr(stderr, "merge", err)
		return exitFailure
	}
	if incomplete && !partial {
		say(stderr, "merge", "incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeInputError says what a file given to merge is when it is a simctl
// document of another kind, and what merge wants instead.
// Only a regular file is read again (a FIFO's writer is gone, and a
// second read would wait for another, deaf to Ctrl-C), and with ctx.
func mergeInputError(ctx context.Context, path string, err error) error {
	if st, serr := os.Stat(path); serr != nil || !st.Mode().IsRegular() {
		return err
	}
	in, rerr := results.ReadInputContext(ctx, path)
	switch {
	case rerr != nil:
		return err
	case in.Sweep != nil:
		return msg.Errorf("%s is a sweep (simctl sweep --format json); merge adds the run results of one run's shards (simctl run --json --shard k/K); a sweep goes to simctl report", path)
	case in.Compare != nil:
		return msg.Errorf("%s is a comparison (simctl compare --format json); merge adds the run results of one run's shards (simctl run --json --shard k/K); a comparison goes to simctl report", path)
	}
	return err
}
