package main

import (
	"flag"
	"fmt"
	"io"

	"simctl/reports"
)

func cmdMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the merged JSON result instead of the table")
	out := fs.String("o", "", "write the result to FILE instead of stdout")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "usage: simctl merge RESULT.json... (results of simctl run --json --shard k/K)")
		return exitUsage
	}
	var rs []*reports.Result
	for _, p := range pos {
		r, err := reports.ReadFile(p)
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
	if covered, whole := reports.Coverage(rs); covered < whole {
		fmt.Fprintf(stderr, "simctl merge: the results cover %d of the run's %d encounters (shards missing or interrupted)\n", covered, whole)
	}
	write := m.WriteText
	if *asJSON {
		write = m.WriteJSON
	}
	if err := writeOut(*out, stdout, write); err != nil {
		fmt.Fprintln(stderr, "simctl merge:", err)
		return exitFailure
	}
	return exitOK
}
