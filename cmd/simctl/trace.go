package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"

	"simctl/reports"
	"simctl/sim"
	"simctl/sim/experiment"
)

func cmdTrace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	var c common
	c.register(fs, gN|gSeed|gSet|gWorkers|gProgress, "with --pick: the encounters to choose from (0 .. N-1 of the run)")
	enc := fs.Int64("encounter", 0, "`I` the encounter index within the run (from 0)")
	pick := fs.String("pick", "", "`WHICH` replay the min, median, max or pNN encounter of --metric instead of --encounter")
	metric := fs.String("metric", "", "`EXPR` with --pick: the number to rank encounters by, e.g. rounds or side(\"heroes\").damage (simctl help find lists the facts)")
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
	var q float64
	if *pick != "" || *metric != "" {
		var err error
		if q, err = parsePick(*pick); err != nil || *metric == "" {
			if err == nil {
				err = fmt.Errorf("--pick needs --metric EXPR, e.g. --pick max --metric rounds")
			}
			return usageError(stderr, "trace", "%v", err)
		}
		if c.n.n > 10_000_000 {
			return usageError(stderr, "trace", "--pick keeps one number per encounter: -n %d is more than 10M", c.n.n)
		}
	}
	seed, sets := &c.seed.v, c.sets
	sc, g, err := load(ctx, pos[0], sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	if *pick != "" {
		probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
		m, err := probe.Metric(*metric)
		if err != nil {
			return usageError(stderr, "trace", "--metric: %v", err)
		}
		var done atomic.Int64
		stopBar := startProgress(ctx, c.showProgress(), c.n.n, &done, stderr)
		i, v, err := experiment.Pick(ctx, probe, m, sim.RunConfig{Seed: *seed, N: c.n.n, Workers: c.workers.v, Done: &done}, q)
		stopBar()
		if err != nil {
			fmt.Fprintln(stderr, "simctl trace:", err)
			if isInterrupt(err) {
				return exitInterrupted
			}
			return exitFailure
		}
		*enc = i
		fmt.Fprintf(stdout, "# encounter %d: %s = %s, the %s over encounters 0..%d of seed %d\n", i, *metric, strconv.FormatFloat(v, 'f', -1, 64), *pick, c.n.n-1, *seed)
	}
	if err := reports.Trace(stdout, sc, g, *seed, *enc); err != nil {
		fmt.Fprintln(stderr, "simctl trace:", err)
		return exitFailure
	}
	return exitOK
}
