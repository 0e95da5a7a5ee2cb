// Package app is simctl's application layer: one request type per kind of
// job and a Run that plays it and returns its versioned document. The CLI
// (cmd/simctl) turns flags into a request and renders what Run returns;
// the web lab (simctl serve, cmd/simctl/lab) turns its JSON into the same
// request. Neither front end's words reach here: a request holds the
// scenario's bytes and structured values (overrides, axes, options),
// never a command line. What both front ends show besides documents is
// here too: the report bundle's contents (Report: the documents with
// their replayed fights, which a front end hands to reports.Bundle to
// render), the reference texts (Rules, Policies, Tactic, Starter, Schema)
// and the option words documents record (ParseOption). Documents are
// package results' and fights are narrated by reports/narrate. The table
// of analysis kinds (kinds.go) names each kind's renderers in package
// reports, so that a kind is one entry; nothing else here renders.
//
// Run touches no file and no terminal. What a front end does while a job
// runs — a progress bar, checkpoints for --resume, a page's interim
// tables — it does in the Observer it passes.
//
// Concurrency: a request is read, never written, by Run; Runs of distinct
// requests may proceed at once. Observer methods are called as each field
// documents, never after Run returns.
package app

import (
	"cmp"
	"io"
	"runtime/debug"
	"simctl/sim/msg"
	"sync"
	"sync/atomic"
	"time"
)

// version is the simctl release; results carry it so a number can be
// traced to the code that made it.
const version = "0.3.0"

// Release is the release alone (starter files name it).
const Release = version

// Version is the release with the build's VCS revision, as documents
// record it.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return version + "+" + s.Value[:12]
			}
		}
	}
	return version
}

// Observer hears a job while it runs. Every field may be nil (zero): the
// job then does not spend time on it.
type Observer struct {
	// Progress is called once when play starts, with the encounter
	// indices to play in all and the counter the workers bump; the job
	// calls the stop it returns when play ends. It may poll done from
	// its own goroutine.
	Progress func(total int64, done *atomic.Int64) (stop func())
	// Checkpoint hears the partial document (marked interrupted) to save
	// for a later resume: after the first finished part, then at most
	// every CheckpointEvery. Called from one goroutine at a time; it must
	// not keep the document after it returns.
	Checkpoint      func(doc any)
	CheckpointEvery time.Duration
	// Interim hears the partial document, for a display, at most every
	// InterimEvery (same rules as Checkpoint).
	Interim      func(doc any)
	InterimEvery time.Duration
	// The experiments on common random numbers play in segments of this
	// many encounter indices per worker between two looks at the clock
	// (the interim's when Interim is set, else the checkpoint's): short
	// enough to keep the period, long enough that the wait for the
	// slowest worker at a segment's end costs little. 0: 64k and 4k.
	CheckpointSegment, InterimSegment int64
	// Note hears what the job says about itself that is not a result
	// ("resuming ...: 3 of 7 points finished").
	Note func(m msg.Text)
	// Warn receives compile's warnings (an unreachable tactics rule),
	// one per line; nil: they are dropped.
	Warn io.Writer
}

func (o *Observer) note(format string, a ...any) {
	if o.Note != nil {
		o.Note(msg.New(format, a...))
	}
}

// liveTotals holds, for a job whose total is known only as it goes
// (optimize: how many candidates each stage keeps), its running total,
// keyed by the job's progress counter.
var liveTotals sync.Map

// LiveTotal returns the running total of the job that counts into done,
// nil when its total is the one Progress was given. The running total
// starts at that one and only falls, never below what done reads at the
// end: a display that follows it never goes back nor past 100%.
func LiveTotal(done *atomic.Int64) *atomic.Int64 {
	if t, ok := liveTotals.Load(done); ok {
		return t.(*atomic.Int64)
	}
	return nil
}

func (o *Observer) progress(total int64, done *atomic.Int64) (stop func()) {
	if o.Progress == nil {
		return func() {}
	}
	return o.Progress(total, done)
}

// segments is the period and per-worker segment of experiment.PlayCRN's
// saves.
func (o *Observer) segments() (time.Duration, int64) {
	if o.Interim != nil {
		return o.InterimEvery, cmp.Or(o.InterimSegment, 4<<10)
	}
	return o.CheckpointEvery, cmp.Or(o.CheckpointSegment, 64<<10)
}

// Kind says whose mistake an Error is, which the CLI turns into its exit
// code and the lab into its HTTP status.
type Kind int

const (
	// Usage is a mistake in the request's values (a front end's flags).
	Usage Kind = iota + 1
	// Invalid is a scenario that does not compile (at some setting).
	Invalid
	// Failed is a failure while playing.
	Failed
	// Interrupted is a job stopped before it had anything to show.
	Interrupted
)

// Error is a request Run refused or a job that failed. Err's text is the
// message to show as it is.
type Error struct {
	Kind Kind
	// Help marks a usage mistake best followed by the command's help.
	Help bool
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

// Localize is the message in the language of tr.
func (e *Error) Localize(tr msg.Translator) string { return msg.Localize(e.Err, tr) }
func (e *Error) Unwrap() error                     { return e.Err }

func usage(help bool, format string, a ...any) error {
	return &Error{Kind: Usage, Help: help, Err: msg.Errorf(format, a...)}
}

// PointsError is a sweep's or comparison's settings that do not compile:
// the first few problems, each under its setting, and how many in all.
type PointsError struct {
	Text string   // in English
	Msg  msg.Text // the same, to translate
}

func (e *PointsError) Error() string { return e.Text }

// Localize is the message in the language of tr.
func (e *PointsError) Localize(tr msg.Translator) string { return e.Msg.Localize(tr) }
