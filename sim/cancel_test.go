package sim_test

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"simctl/sim"
)

// A cancelled run stops after the encounter in play, not at the end of a
// chunk, and its tally is exactly that of the encounters that finished.
func TestRunCancelStopsBetweenEncounters(t *testing.T) {
	const stopAt = 7
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	played := 0
	g := fake{hook: func() {
		played++
		if played == stopAt {
			cancel() // during encounter stopAt-1: it finishes, no other starts
		}
	}}
	tally, err := sim.Run(ctx, g, sim.RunConfig{Seed: 5, N: 100000, Workers: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if played != stopAt || tally.Encounters != stopAt {
		t.Fatalf("played %d, tally %d encounters; want %d (stop after the encounter in play)", played, tally.Encounters, stopAt)
	}
	want, _ := sim.Run(context.Background(), fake{hook: func() {}}, sim.RunConfig{Seed: 5, N: stopAt, Workers: 1})
	if !reflect.DeepEqual(tally, want) {
		t.Errorf("cancelled tally %+v differs from a run of its %d encounters %+v", tally, stopAt, want)
	}
}

// Cancellation leaves no goroutine behind: every worker has returned when
// Run does.
func TestRunCancelLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		var played atomic.Int64
		g := fake{hook: func() {
			if played.Add(1) == 3000 {
				cancel()
			}
		}}
		if _, err := sim.Run(ctx, g, sim.RunConfig{Seed: 1, N: 1 << 40, Workers: 4}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		cancel()
	}
	// Goroutines that have returned may take a moment to be reaped.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after cancelled runs, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// Abandon (a second Ctrl-C) returns at once, while an encounter is still
// in play, with the encounters committed before it.
func TestRunAbandonReturnsCommitted(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var played atomic.Int64
	g := fake{hook: func() {
		switch played.Add(1) {
		case 101: // encounter 100: long enough for a commit to be asked
			time.Sleep(3 * sim.CommitEvery)
		case 102: // encounter 101: never ends while the test runs
			<-release
		}
	}}
	abandon := make(chan struct{})
	type ret struct {
		t   *sim.Tally
		err error
	}
	got := make(chan ret, 1)
	go func() {
		tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 9, N: 1000, Workers: 1, Abandon: abandon})
		got <- ret{tally, err}
	}()
	for played.Load() < 102 {
		time.Sleep(time.Millisecond)
	}
	close(abandon)
	var r ret
	select {
	case r = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after Abandon")
	}
	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", r.err)
	}
	want, _ := sim.Run(context.Background(), fake{hook: func() {}}, sim.RunConfig{Seed: 9, N: 101, Workers: 1})
	if !reflect.DeepEqual(r.t, want) {
		t.Errorf("abandoned run returned %d encounters, want exactly the 101 committed", r.t.Encounters)
	}
}

// A cancelled run says which encounters it did not play; playing exactly
// those and merging gives the tally of the whole run: nothing finished is
// lost or counted twice.
func TestRunUnplayedCompletesTheRun(t *testing.T) {
	const start, n = 1000, 50000
	for _, workers := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		var played atomic.Int64
		g := fake{hook: func() {
			if played.Add(1) == 7000 {
				cancel()
			}
		}}
		var gaps []sim.Range
		part, err := sim.Run(ctx, g, sim.RunConfig{Seed: 4, Start: start, N: n, Workers: workers, Unplayed: &gaps})
		cancel()
		if !errors.Is(err, context.Canceled) || len(gaps) == 0 {
			t.Fatalf("workers %d: err %v, gaps %v", workers, err, gaps)
		}
		var left int64
		for _, r := range gaps {
			left += r.Hi - r.Lo
			rest, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 4, Start: r.Lo, N: r.Hi - r.Lo, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			part.Merge(rest)
		}
		if part.Encounters != n || left != n-(part.Encounters-left) {
			t.Fatalf("workers %d: %d encounters after resuming, want %d (gaps %v)", workers, part.Encounters, n, gaps)
		}
		whole, _ := sim.Run(context.Background(), g, sim.RunConfig{Seed: 4, Start: start, N: n, Workers: 2})
		if !reflect.DeepEqual(part, whole) {
			t.Errorf("workers %d: interrupted run + its unplayed ranges differs from the whole run", workers)
		}
	}
}
