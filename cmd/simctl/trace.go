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
	var c common
	c.register(fs, gSeed|gSet, "")
	enc := fs.Int64("encounter", 0, "`I` the encounter index within the run (from 0)")
	pos, done, code := parseArgs("trace", fs, args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "trace", "give one SCENARIO, e.g. simctl trace d20/duel --seed 7 --encounter 12")
	}
	if *enc < 0 {
		return usageError(stderr, "trace", "--encounter %d: must be 0 or more", *enc)
	}
	seed, sets := &c.seed.v, c.sets
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
