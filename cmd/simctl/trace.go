package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"simctl/reports"
)

func cmdTrace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "the run's seed")
	enc := fs.Int64("encounter", 0, "the encounter index within the run (from 0)")
	var sets setFlags
	fs.Var(&sets, "set", "override a scenario field, PATH=VALUE (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: simctl trace SCENARIO --seed S --encounter I")
		return exitUsage
	}
	if *enc < 0 {
		fmt.Fprintf(stderr, "simctl trace: --encounter %d: must be 0 or more\n", *enc)
		return exitUsage
	}
	sc, g, err := load(ctx, pos[0], sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	if err := reports.Trace(stdout, sc, g, *seed, *enc); err != nil {
		fmt.Fprintln(stderr, "simctl trace:", err)
		return exitFailure
	}
	return exitOK
}
