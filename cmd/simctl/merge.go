package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"simctl/reports"
)

func cmdMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	var c common
	c.register(fs, gFormat|gQuiet, "")
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
	var rs []*reports.Result
	for _, p := range pos {
		r, err := reports.ReadFile(p)
		if err != nil {
			fmt.Fprintln(stderr, "simctl merge:", mergeInputError(p, err))
			return exitFailure
		}
		rs = append(rs, r)
	}
	m, err := reports.Merge(rs)
	if err != nil {
		fmt.Fprintln(stderr, "simctl merge:", strings.TrimPrefix(err.Error(), "merge: "))
		return exitFailure
	}
	if covered, whole := reports.Coverage(rs); covered < whole && !c.quiet {
		fmt.Fprintf(stderr, "simctl merge: the results cover %d of the run's %d encounters (shards missing or interrupted)\n", covered, whole)
	}
	if err := writeOut(c.out, stdout, func(w io.Writer) error { return m.WriteFormat(w, format) }); err != nil {
		fmt.Fprintln(stderr, "simctl merge:", err)
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
