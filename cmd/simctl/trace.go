package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"simctl/cmd/simctl/app"
	"simctl/sim/msg"
	"strconv"
	"sync/atomic"

	"simctl/reports"
)

func cmdTrace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	var c common
	c.register(fs, gN|gSeed|gSet|gWorkers|gProgress, "with --pick: the encounters to choose from (0 .. N-1 of the run)")
	enc := fs.Int64("encounter", 0, "`I` the encounter index within the run (from 0)")
	pick := fs.String("pick", "", "`WHICH` replay the min, median, max or pNN encounter of --metric instead of --encounter")
	metric := fs.String("metric", "", "`EXPR` with --pick: the number to rank encounters by, e.g. rounds or side(\"heroes\").damage (simctl help find lists the facts)")
	langF := langFlag(fs, "the narration and simctl's messages")
	pos, done, code := parseArgs("trace", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "trace", "%v", err)
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
				err = msg.Errorf("--pick needs --metric EXPR, e.g. --pick max --metric rounds")
			}
			return usageError(stderr, "trace", "%v", err)
		}
		if c.n.n > 10_000_000 {
			return usageError(stderr, "trace", "--pick keeps one number per encounter: -n %d is more than 10M", c.n.n)
		}
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req := &app.TraceRequest{Source: src.app(), Sets: c.sets, Seed: c.seed.v, Encounter: *enc, Pick: q, N: c.n.n, Workers: c.workers.v}
	if *pick != "" {
		req.Metric = *metric
	}
	t, err := app.Trace(ctx, req, &app.Observer{Warn: src.warnTo(), Progress: func(total int64, done *atomic.Int64) func() {
		return startProgress(ctx, c.showProgress(), total, done, stderr)
	}})
	if err != nil {
		return appError(stderr, "trace", err)
	}
	seed, sc, g, enc := &c.seed.v, t.Scenario, t.Game, &t.Encounter
	if *pick != "" {
		fmt.Fprintln(stdout, lang.T("trace.pick", t.Encounter, *metric, strconv.FormatFloat(t.Value, 'f', -1, 64), *pick, c.n.n-1, *seed))
	}
	if err := reports.TraceContext(context.Background(), stdout, sc, g, *seed, *enc, reports.TraceLimit{Lang: lang}); err != nil {
		sayErr(stderr, "trace", err)
		return exitFailure
	}
	return exitOK
}
