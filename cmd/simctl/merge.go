package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"simctl/internal/safeio"
	"simctl/reports"
)

func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the merged JSON result instead of the table")
	out := fs.String("o", "", "write the result to FILE instead of stdout")
	partial := fs.Bool("allow-partial", false, "accept a set of shards that misses encounters (the result is marked incomplete)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "usage: simctl merge RESULT.json... (results of simctl run --json --shard k/K)")
		return exitUsage
	}
	target, err := checkOut(*out, "-o")
	if err != nil {
		fmt.Fprintln(stderr, "simctl merge:", err)
		return exitUsage
	}
	var rs []*reports.Result
	var sweeps []*reports.Sweep
	for _, p := range pos {
		in, err := reports.ReadInputContext(ctx, p)
		if err != nil {
			fmt.Fprintln(stderr, "simctl merge:", err)
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
		return mergeSweeps(sweeps, target, *partial, *asJSON, stdout, stderr)
	}
	m, err := reports.Merge(rs)
	if err != nil {
		fmt.Fprintln(stderr, "simctl", err)
		return exitFailure
	}
	covered, whole := reports.Coverage(rs)
	if covered < whole {
		fmt.Fprintf(stderr, "simctl merge: the results cover %d of the run's %d encounters (shards missing or interrupted); the merged result is marked incomplete\n", covered, whole)
	}
	write := m.WriteText
	if *asJSON {
		write = m.WriteJSON
	}
	if err := writeOut(target, stdout, write); err != nil {
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
func mergeSweeps(ss []*reports.Sweep, target *safeio.Target, partial, asJSON bool, stdout, stderr io.Writer) int {
	m, err := reports.MergeSweeps(ss)
	if err != nil {
		fmt.Fprintln(stderr, "simctl", err)
		return exitFailure
	}
	if m.Incomplete {
		fmt.Fprintln(stderr, "simctl merge: the sweep shards do not cover every point's encounters (shards missing); the merged sweep is marked incomplete")
	}
	f := reports.Text
	if asJSON {
		f = reports.JSON
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
