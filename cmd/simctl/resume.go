package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"simctl/reports"
	"simctl/reports/safeio"
	"simctl/sim"
	"simctl/sim/experiment"
)

// Resuming the experiments played on common random numbers (compare,
// value, matrix). Their unit is the encounter index, as for run: an
// interrupted one records the index ranges it did not play (every game
// played every other index), and --resume plays exactly those and adds
// them to the sums the file holds. The tournament resumes by rounds
// (cmdTournament).

// docFacts is what a resume compares between the interrupted document and
// this command line.
type docFacts struct {
	Interrupted bool
	Unplayed    [][2]int64
	Played      int64 // encounter indices played (by every game)
	SHA256      string
	Version     string
	Seed        uint64
	Sets        []string
	Shard       *reports.Shard
}

// checkResume refuses to resume from a document that is not an
// interrupted run of this very command line: another simctl, scenario
// text, seed, overrides, -n or shard would make its sums not those this
// run would add to. n is this command's -n; now.Shard its shard.
func checkResume(path string, old, now docFacts, n int64) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("--resume %s: %s; resume with the same command line", path, fmt.Sprintf(format, a...))
	}
	var left int64
	for _, u := range old.Unplayed {
		left += u[1] - u[0]
	}
	whole := old.Played + left
	if old.Shard != nil {
		whole = old.Shard.Total
	}
	switch {
	case !old.Interrupted:
		return fmt.Errorf("--resume %s: that run was not interrupted; nothing to resume", path)
	case len(old.Unplayed) == 0:
		return fmt.Errorf("--resume %s: that run does not record which encounters it left (stopped at once, or made with --precision); run it again", path)
	case old.SHA256 != now.SHA256:
		return bad("that run's scenario text differs (SHA-256 %.12s, this one %.12s)", old.SHA256, now.SHA256)
	case old.Version != now.Version:
		return bad("that run was made by simctl %s, this is %s", old.Version, now.Version)
	case old.Seed != now.Seed:
		return bad("that run has seed %d, this one %d", old.Seed, now.Seed)
	case !slices.Equal(old.Sets, now.Sets):
		return bad("that run has --set %v, this one %v", old.Sets, now.Sets)
	case whole != n:
		return bad("that run has -n %d, this one %d", whole, n)
	case (old.Shard == nil) != (now.Shard == nil) || (now.Shard != nil && (old.Shard.K != now.Shard.K || old.Shard.Of != now.Shard.Of)):
		return bad("that run's --shard differs")
	}
	lo, hi := int64(0), n
	if now.Shard != nil {
		lo, hi = now.Shard.Start, now.Shard.Start+now.Shard.N
	}
	prev := lo
	for _, u := range old.Unplayed {
		if u[0] < prev || u[1] <= u[0] || u[1] > hi {
			return fmt.Errorf("--resume %s: its unplayed ranges are out of order or out of range; the file is damaged", path)
		}
		prev = u[1]
	}
	if old.Played+left != hi-lo {
		return fmt.Errorf("--resume %s: %d encounters played and %d unplayed do not make its %d; the file is damaged", path, old.Played, left, hi-lo)
	}
	return nil
}

// todoOf is the index ranges an interrupted document left.
func todoOf(unplayed [][2]int64) []sim.Range {
	var todo []sim.Range
	for _, u := range unplayed {
		todo = append(todo, sim.Range{Lo: u[0], Hi: u[1]})
	}
	return todo
}

// playCRN plays the index ranges todo of games on common random numbers
// (with the counters' cross sums when cross is set), handing each
// segment's sums to add. On interruption it returns the
// ranges still unplayed (in order) with the context's error. With save
// non-nil, the ranges are played in segments and, at most every
// checkpointEvery, save is called with what is left: the command writes
// its document (marked interrupted, the rest unplayed) so that a process
// killed at any moment loses at most the last segments.
func playCRN(ctx context.Context, games []sim.Game, cfg sim.RunConfig, cross bool, todo []sim.Range, add func(*experiment.CRN), save func(left []sim.Range)) ([]sim.Range, error) {
	seg := int64(math.MaxInt64)
	every, perWorker := checkpointEvery, checkpointSegment
	if hooksOf(ctx).interims() {
		every, perWorker = interimEvery, interimSegment // simctl serve
	}
	if save != nil {
		// Many chunks per worker: the wait for the slowest at a segment's
		// end is a small part of it.
		seg = perWorker * int64(workersOf(cfg.Workers))
	}
	todo = slices.Clone(todo)
	last := time.Now()
	for len(todo) > 0 {
		rg := todo[0]
		hi := rg.Hi
		if hi-rg.Lo > seg {
			hi = rg.Lo + seg
		}
		var u []sim.Range
		rc := cfg
		rc.Start, rc.N, rc.Unplayed = rg.Lo, hi-rg.Lo, &u
		run := experiment.RunCRN
		if cross {
			run = experiment.RunCRNCross
		}
		c, err := run(ctx, games, rc)
		add(c)
		if todo[0].Lo = hi; todo[0].Lo == todo[0].Hi {
			todo = todo[1:]
		}
		if err != nil {
			return append(u, todo...), err
		}
		if save != nil && len(todo) > 0 && time.Since(last) >= every {
			save(todo)
			last = time.Now()
		}
	}
	return nil, nil
}

// workersOf is the number of workers --workers w means.
func workersOf(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// How often the CRN experiments save what they have played, and the
// segment (per worker) between the checks; variables for the tests.
var (
	checkpointEvery         = 10 * time.Second
	checkpointSegment int64 = 64 << 10
)

// saveCheckpoint writes an unfinished document to t (nothing when t is
// nil), for --resume; a failure is said but does not stop the run.
func saveCheckpoint(t *safeio.Target, cmd string, stderr io.Writer, doc func(io.Writer) error) {
	if t == nil {
		return
	}
	if err := t.Write(doc); err != nil {
		fmt.Fprintf(stderr, "simctl %s: saving what finished: %v\n", cmd, err)
		return
	}
	testSaved(t.Path())
}

// checkpointer is save when there is a JSON output to save to (or simctl
// serve wants interim documents), else nil: without one, playCRN plays
// each range whole (no segments to wait at).
func checkpointer(ctx context.Context, t *safeio.Target, save func(left []sim.Range)) func(left []sim.Range) {
	if t == nil && !hooksOf(ctx).interims() {
		return nil
	}
	return save
}

// testSaved, set by tests only, sees every checkpoint written.
var testSaved = func(string) {}

// unplayedOf writes ranges as a document records them.
func unplayedOf(left []sim.Range) [][2]int64 {
	var out [][2]int64
	for _, r := range left {
		out = append(out, [2]int64{r.Lo, r.Hi})
	}
	return out
}

// jsonTarget is where an experiment's JSON goes (--results, else -o with
// --format json): the file --resume reads back. nil: none.
func (o *outputFlags) jsonTarget(f reports.Format) *safeio.Target {
	if o.resultsT != nil {
		return o.resultsT
	}
	if f == reports.JSON {
		return o.outT
	}
	return nil
}

// resumeHint ends an interrupted command's closing message.
func resumeHint(t *safeio.Target, resumable bool) string {
	if t == nil || !resumable {
		return ""
	}
	// Say where the JSON went: with --results the text went to stdout
	// and the JSON, which a resume reads, to the file.
	return "; its JSON is in " + t.Path() + ": add --resume " + t.Path() + " to play the rest"
}

// shardOf parses --shard for an experiment over n encounter indices.
func shardOf(cmd, spec string, n int64) (*reports.Shard, error) {
	if spec == "" {
		return nil, nil
	}
	k, of, err := parseShard(spec)
	if err != nil {
		return nil, err
	}
	start := shardStart(n, k, of)
	s := &reports.Shard{K: k, Of: of, Start: start, N: shardStart(n, k+1, of) - start, Total: n}
	if s.N < 1 {
		return nil, fmt.Errorf("--shard %s: -n %d leaves this shard no encounters; use fewer shards or a larger -n", spec, n)
	}
	return s, nil
}

// testHook, set by tests only, sees an experiment's progress counter: a
// test interrupts a command part way by cancelling when it has advanced.
var testHook = func(*atomic.Int64) {}

// headerFacts reads what checkResume compares from an experiment's header.
func headerFacts(h *reports.Header, played int64) docFacts {
	return docFacts{Interrupted: h.Interrupted, Unplayed: h.Unplayed, Played: played, SHA256: h.ScenarioSHA256,
		Version: h.Version, Seed: h.Seed, Sets: h.Sets, Shard: h.Shard}
}

// shardRange is the encounter indices a run (or its shard) plays.
func shardRange(s *reports.Shard, n int64) sim.Range {
	if s == nil {
		return sim.Range{Lo: 0, Hi: n}
	}
	return sim.Range{Lo: s.Start, Hi: s.Start + s.N}
}

func rangesLen(rs []sim.Range) int64 {
	var n int64
	for _, r := range rs {
		n += r.Hi - r.Lo
	}
	return n
}

// valueParams is how a value document records its parameters.
func valueParams(ps []experiment.Param) []reports.ValueParam {
	var out []reports.ValueParam
	for _, p := range ps {
		out = append(out, reports.ValueParam{Name: p.Name, Step: p.Step, Down: setStrings(p.Down), Up: setStrings(p.Up)})
	}
	return out
}

func paramList(ps []reports.ValueParam) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s (step %v)", p.Name, p.Step))
	}
	return strings.Join(parts, ", ")
}
