package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"simctl/sim/msg"
	"sync/atomic"

	"simctl/cmd/simctl/app"
	"simctl/reports"
)

// observer is how the CLI watches an app job: the progress bar on
// stderr, checkpoints to the JSON output (--results, or -o with --format
// json) for --resume, and notes on stderr unless --quiet.
func (o *outputFlags) observer(ctx context.Context, cmd string, f reports.Format, stderr io.Writer) *app.Observer {
	obs := &app.Observer{
		Progress: func(total int64, done *atomic.Int64) func() {
			stop := startProgress(ctx, o.showProgress(), total, done, stderr)
			testHook(done)
			return stop
		},
		CheckpointEvery:   checkpointEvery,
		CheckpointSegment: checkpointSegment,
	}
	if t := o.jsonTarget(f); t != nil {
		obs.Checkpoint = func(doc any) {
			saveCheckpoint(t, cmd, stderr, func(w io.Writer) error { return reports.Write(w, doc, reports.JSON) })
		}
	}
	if !o.quiet {
		obs.Note = func(m msg.Text) { say(stderr, cmd, "%v", m) }
	}
	return obs
}

// document is what every app job returns.
type document interface {
	Write(io.Writer, reports.Format) error
}

// appError prints what an app job refused or failed with and returns the
// exit code.
func appError(stderr io.Writer, cmd string, err error) int {
	var ae *app.Error
	if !errors.As(err, &ae) {
		sayErr(stderr, cmd, err)
		return exitFailure
	}
	switch ae.Kind {
	case app.Usage:
		if ae.Help {
			return usageError(stderr, cmd, "%s", ae.Err)
		}
		sayErr(stderr, cmd, ae.Err)
		return exitUsage
	case app.Interrupted:
		sayErr(stderr, cmd, ae.Err)
		return exitInterrupted
	case app.Invalid:
		var pe *app.PointsError
		if errors.As(ae.Err, &pe) {
			fmt.Fprintln(stderr, langOf(stderr).Err(pe))
			return exitScenario
		}
		return scenarioError(stderr, ae.Err)
	}
	sayErr(stderr, cmd, ae.Err)
	return exitFailure
}
