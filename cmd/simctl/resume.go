package main

import (
	"io"
	"simctl/sim/msg"
	"sync/atomic"
	"time"

	"simctl/reports"
	"simctl/reports/results"
	"simctl/reports/safeio"
)

// Resuming the experiments played on common random numbers (compare,
// value, matrix). Their unit is the encounter index, as for run: an
// interrupted one records the index ranges it did not play (every game
// played every other index), and --resume plays exactly those and adds
// them to the sums the file holds. The tournament resumes by rounds
// (cmdTournament).

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
		say(stderr, cmd, "saving what finished: %v", err)
		return
	}
	testSaved(t.Path())
}

// testSaved, set by tests only, sees every checkpoint written.
var testSaved = func(string) {}

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

// interruptedWhere ends an interrupted command's closing message: where
// its partial output went and, when it can resume, how. With --results
// the output (-o, stdout or the terminal) and the JSON a resume reads are
// two places, and the message names both.
func (o *outputFlags) interruptedWhere(f reports.Format, stdout io.Writer, resumable bool) msg.Text {
	where := whereWritten(o.out, stdout)
	t := o.jsonTarget(f)
	if t == nil || !resumable {
		return where
	}
	hint := msg.New(": add --resume %s to play the rest", t.Path())
	switch {
	case t == o.outT:
		return msg.New("%s%s", where, hint)
	case o.out != "" && o.out != "-":
		return msg.New("the partial result (marked interrupted) is in %s, and its JSON in %s%s", o.out, t.Path(), hint)
	case isTerminal(stdout):
		return msg.New("the result above covers those, and its JSON is in %s%s", t.Path(), hint)
	}
	return msg.New("the partial result (marked interrupted) was written to stdout, and its JSON to %s%s", t.Path(), hint)
}

// shardOf parses --shard for an experiment over n encounter indices.
func shardOf(cmd, spec string, n int64) (*results.Shard, error) {
	if spec == "" {
		return nil, nil
	}
	k, of, err := parseShard(spec)
	if err != nil {
		return nil, err
	}
	start := shardStart(n, k, of)
	s := &results.Shard{K: k, Of: of, Start: start, N: shardStart(n, k+1, of) - start, Total: n}
	if s.N < 1 {
		return nil, msg.Errorf("--shard %s: -n %d leaves this shard no encounters; use fewer shards or a larger -n", spec, n)
	}
	return s, nil
}

// testHook, set by tests only, sees an experiment's progress counter: a
// test interrupts a command part way by cancelling when it has advanced.
var testHook = func(*atomic.Int64) {}
