package main

import (
	"context"
	"flag"
	"fmt"
	"io"

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
	for _, p := range pos {
		r, err := reports.ReadFileContext(ctx, p)
		if err != nil {
			fmt.Fprintln(stderr, "simctl merge:", err)
			return exitFailure
		}
		rs = append(rs, r)
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
