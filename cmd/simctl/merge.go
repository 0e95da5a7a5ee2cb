package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"simctl/reports"
	"simctl/reports/safeio"
)

func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	var c common
	c.register(fs, gFormat|gQuiet, "")
	partial := fs.Bool("allow-partial", false, "accept a set of shards that misses encounters (the result is marked incomplete)")
	pos, done, code := parseArgs("merge", fs, args, stdout, stderr)
	if done {
		return code
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
		fmt.Fprintln(stderr, "simctl merge:", err)
		return exitUsage
	}
	var rs []*reports.Result
	var sweeps []*reports.Sweep
	for _, p := range pos {
		in, err := reports.ReadInputContext(ctx, p)
		if err != nil {
			fmt.Fprintln(stderr, "simctl merge:", mergeInputError(p, err))
			return exitFailure
		}
		switch {
		case in.Run != nil:
			rs = append(rs, in.Run)
		case in.Sweep != nil:
			sweeps = append(sweeps, in.Sweep)
		default:
			fmt.Fprintf(stderr, "simctl merge: %s is a comparison; merge combines shards of runs or of sweeps\n", p)
			return exitFailure
		}
	}
	if len(sweeps) > 0 {
		if len(rs) > 0 {
			fmt.Fprintln(stderr, "simctl merge: both run results and sweeps given; merge shards of one run, or of one sweep")
			return exitFailure
		}
		return mergeSweeps(sweeps, target, *partial, format, stdout, stderr)
	}
	m, err := reports.Merge(rs)
	if err != nil {
		fmt.Fprintln(stderr, "simctl merge:", strings.TrimPrefix(err.Error(), "merge: "))
		return exitFailure
	}
	covered, whole := reports.Coverage(rs)
	if covered < whole && !c.quiet {
		fmt.Fprintf(stderr, "simctl merge: the results cover %d of the run's %d encounters (shards missing or interrupted); the merged result is marked incomplete\n", covered, whole)
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { return m.WriteFormat(w, format) }); err != nil {
		fmt.Fprintln(stderr, "simctl merge:", err)
		return exitFailure
	}
	if covered < whole && !*partial {
		fmt.Fprintln(stderr, "simctl merge: incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeSweeps merges shards of a sweep (sweep --shard k/K) into the sweep
// one process would have made; text output is the sweep's table.
func mergeSweeps(ss []*reports.Sweep, target *safeio.Target, partial bool, f reports.Format, stdout, stderr io.Writer) int {
	m, err := reports.MergeSweeps(ss)
	if err != nil {
		fmt.Fprintln(stderr, "simctl", err)
		return exitFailure
	}
	if m.Incomplete {
		fmt.Fprintln(stderr, "simctl merge: the sweep shards do not cover every point's encounters (shards missing); the merged sweep is marked incomplete")
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { return m.Write(w, f) }); err != nil {
		fmt.Fprintln(stderr, "simctl merge:", err)
		return exitFailure
	}
	if m.Incomplete && !partial {
		fmt.Fprintln(stderr, "simctl merge: incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeInputError says what a file given to merge is when it is a simctl
// document of another kind, and what merge wants instead.
func mergeInputError(path string, err error) error {
	in, rerr := reports.ReadInput(path)
	switch {
	case rerr != nil:
		return err
	case in.Sweep != nil:
		return fmt.Errorf("%s is a sweep (simctl sweep --format json); merge adds the run results of one run's shards (simctl run --json --shard k/K); a sweep goes to simctl report", path)
	case in.Compare != nil:
		return fmt.Errorf("%s is a comparison (simctl compare --format json); merge adds the run results of one run's shards (simctl run --json --shard k/K); a comparison goes to simctl report", path)
	}
	return err
}
