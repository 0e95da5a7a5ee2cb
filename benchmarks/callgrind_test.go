package benchmarks

import (
	"os"
	"runtime"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// TestCallgrindPlays is the loop the instruction counts in README.md are
// taken from: SIMCTL_CALLGRIND=NAME (a standard scenario, e.g.
// acks2/skirmish-morale; sneak-go and sneak-trait, the Traits pair; tactics-go,
// tactics and tactics-conditions, the Tactics trio) plays encounters 0..19,999 of seed 1 on one
// locked thread and nothing else, so that callgrind's
// --toggle-collect='*Table).Play' counts exactly 20,000 encounters (total
// Ir / 20,000 is instructions per encounter). Skipped without the
// variable.
func TestCallgrindPlays(t *testing.T) {
	name := os.Getenv("SIMCTL_CALLGRIND")
	if name == "" {
		t.Skip("set SIMCTL_CALLGRIND=NAME to play 20,000 encounters of NAME for callgrind")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	growStack()
	var g sim.Game
	switch name {
	case "sneak-go": // the Traits pair: sneak attack in Go and as a trait
		g = compileWith(t, sneakGoSets)
	case "sneak-trait":
		g = compileWith(t, sneakTraitSets)
	case "tactics-go": // the Tactics trio: the headline's Go policy,
		g = compileWith(t, nil)
	case "tactics": // the same policy as the library tactic,
		g = compileWith(t, tacticsSets)
	case "tactics-conditions": // and a condition-heavy block
		g = compileWith(t, conditionSets)
	default:
		g = compile(t, name)
	}
	table := g.NewTable()
	tally := sim.NewTally(g)
	var r rng.Stream
	for i := 0; i < 20000; i++ {
		r.Seed(1, uint64(i))
		tally.Record(table.Play(&r, &tally.Counts, nil))
	}
}

// growStack grows the goroutine's stack before the loop, so that no stack
// growth happens inside Play: callgrind loses the --toggle-collect call
// across the stack copy (runtime.morestack) and then counts everything
// that follows Play too (the tally, the harness), as Play'2.
//
//go:noinline
func growStack() byte {
	var b [256 << 10]byte
	for i := range b {
		b[i] = byte(i)
	}
	return b[len(b)/2]
}
