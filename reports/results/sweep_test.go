package results

import (
	"context"
	"math"
	"reflect"
	"simctl/sim/experiment"
	"sync/atomic"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// coinGame is a stand-in ruleset: side 0 wins with probability p percent;
// the encounter lasts 1-5 rounds.
type coinGame struct{ p int }

func (g coinGame) Roster() []sim.Entrant {
	return []sim.Entrant{{Name: "A", Side: 0}, {Name: "B", Side: 1}}
}
func (g coinGame) Counters() []string  { return sim.BaseCounters }
func (g coinGame) MaxRounds() int      { return 10 }
func (g coinGame) NewTable() sim.Table { return coinTable{g} }
func (t coinTable) Play(r *rng.Stream, c *sim.Counts, _ *sim.Log) sim.Outcome {
	u := r.IntN(100)
	o := sim.Outcome{Winner: 1, Rounds: 1 + r.IntN(5), FirstActor: r.IntN(2)}
	if u < t.g.p {
		o.Winner = 0
	}
	c.Add(0, sim.Turns, int64(o.Rounds))
	o.Survivors[o.Winner] = 1
	return o
}

type coinTable struct{ g coinGame }

func TestParseVary(t *testing.T) {
	for _, c := range []struct {
		in   string
		path string
		vals []string
	}{
		{"heroes.Fighter.init=-2:6:2", "heroes.Fighter.init", []string{"-2", "0", "2", "4", "6"}},
		{"x=0:3", "x", []string{"0", "1", "2", "3"}},
		{"x=3:0", "x", []string{"3", "2", "1", "0"}},
		{"x=0:1:0.25", "x", []string{"0.00", "0.25", "0.50", "0.75", "1.00"}},
		{"x=0:1:0.1", "x", []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"}},
		{"x=0:5:2", "x", []string{"0", "2", "4"}},
		{"x=7", "x", []string{"7"}},
		{"x=1d6,1d8,2d6", "x", []string{"1d6", "1d8", "2d6"}},
		{"heroes.Fighter.policy=default, {name: delay, until: Orc}, '{a, b}'", "heroes.Fighter.policy", []string{"default", "{name: delay, until: Orc}", "'{a, b}'"}},
		{"heroes.Fighter.attacks=[6, 1],[8, 3]", "heroes.Fighter.attacks", []string{"[6, 1]", "[8, 3]"}},
		{"heroes.Fighter.crit=19-20/x2,20/x3", "heroes.Fighter.crit", []string{"19-20/x2", "20/x3"}},
	} {
		a, err := ParseVary(c.in)
		if err != nil || a.Path != c.path || !reflect.DeepEqual(a.Values, c.vals) {
			t.Errorf("ParseVary(%q) = %+v, %v; want %s %q", c.in, a, err, c.path, c.vals)
		}
	}
	for _, bad := range []string{"x", "=1:2", "x=", "x=0:4:0", "x=0:4:-1", "x=1,,2", "x=0:100000"} {
		if _, err := ParseVary(bad); err == nil {
			t.Errorf("ParseVary(%q) accepted", bad)
		}
	}
}

func TestGrid(t *testing.T) {
	g := Grid([]Axis{{Values: []string{"a", "b"}}, {Values: []string{"1", "2", "3"}}})
	want := [][]string{{"a", "1"}, {"a", "2"}, {"a", "3"}, {"b", "1"}, {"b", "2"}, {"b", "3"}}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("Grid = %v", g)
	}
}

// TestRunSweepDeterministic: every point is exactly sim.Run of its game
// with the sweep's seed, whatever the number of workers.
func TestRunSweepDeterministic(t *testing.T) {
	games := []sim.Game{coinGame{20}, coinGame{50}, coinGame{80}}
	var ref []experiment.PointRun
	for _, w := range []int{1, 2, 5} {
		var done atomic.Int64
		runs, err := experiment.RunSweep(context.Background(), games, experiment.SweepConfig{Seed: 3, N: 5000, Workers: w, Done: &done})
		if err != nil {
			t.Fatal(err)
		}
		if done.Load() != 15000 {
			t.Errorf("workers %d: Done = %d", w, done.Load())
		}
		if ref == nil {
			ref = runs
			for k, g := range games {
				want, _ := sim.Run(context.Background(), g, sim.RunConfig{Seed: 3, N: 5000, Workers: 1})
				if !reflect.DeepEqual(runs[k].Tally, want) {
					t.Errorf("point %d differs from sim.Run", k)
				}
			}
			continue
		}
		if !reflect.DeepEqual(runs, ref) {
			t.Errorf("workers %d: result differs from 1 worker", w)
		}
	}
}

// TestRunSweepPrecision: sequential stopping plays whole batches from
// index 0 up and stops at the first batch after which both intervals are
// narrower than the precision; Done still ends at points × N.
func TestRunSweepPrecision(t *testing.T) {
	games := []sim.Game{coinGame{50}, coinGame{97}, coinGame{3}}
	var done atomic.Int64
	const w, batch, n = 0.03, 1000, 20000
	runs, err := experiment.RunSweep(context.Background(), games, experiment.SweepConfig{Seed: 9, N: n, Precision: w, Batch: batch, Workers: 3, Done: &done})
	if err != nil {
		t.Fatal(err)
	}
	if done.Load() != 3*n {
		t.Errorf("Done = %d, want %d", done.Load(), 3*n)
	}
	for k, r := range runs {
		m := r.Tally.Encounters
		if m%batch != 0 || !r.Reached || !experiment.PrecisionReached(r.Tally, w) {
			t.Errorf("point %d: %d encounters, reached %v", k, m, r.Reached)
		}
		// The stop is the auxiliary rule's (experiment.PrecisionRule):
		// it holds at m and not one batch earlier.
		rule := experiment.NewPrecisionRule([]sim.Game{games[k]}, w, 9, 1)
		if stop, _ := rule.Stop(context.Background(), m-batch); m > batch && stop {
			t.Errorf("point %d: did not stop after %d encounters", k, m-batch)
		}
		if stop, _ := rule.Stop(context.Background(), m); !stop {
			t.Errorf("point %d: stopped at %d where the rule does not hold", k, m)
		}
		full, _ := sim.Run(context.Background(), games[k], sim.RunConfig{Seed: 9, N: m})
		if !reflect.DeepEqual(full, r.Tally) {
			t.Errorf("point %d is not encounters 0..%d", k, m-1)
		}
	}
	// p = 50% needs about 4·1.96²·0.25/0.03² = 4268 encounters; p = 97%
	// about 500 (the auxiliary rule's prediction is conservative: a batch
	// or two more).
	if runs[0].Tally.Encounters != 5000 || runs[1].Tally.Encounters > 2000 {
		t.Errorf("N per point: %d, %d", runs[0].Tally.Encounters, runs[1].Tally.Encounters)
	}
	// A cap below what the precision needs: Reached stays false.
	capped, _ := experiment.RunSweep(context.Background(), games[:1], experiment.SweepConfig{Seed: 9, N: 2500, Precision: w, Batch: batch})
	if capped[0].Reached || capped[0].Tally.Encounters != 2500 {
		t.Errorf("capped: %+v", capped[0])
	}
}

func TestRunSweepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	runs, err := experiment.RunSweep(ctx, []sim.Game{coinGame{50}, coinGame{60}}, experiment.SweepConfig{Seed: 1, N: 100000})
	if err != context.Canceled || len(runs) != 2 || runs[0].Tally == nil || runs[1].Tally == nil {
		t.Errorf("cancelled: %v %v", err, runs)
	}
}

func TestNumJSON(t *testing.T) {
	for _, f := range []float64{math.Inf(1), math.NaN(), 1.5} {
		b, err := Num(f).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var n Num
		if err := n.UnmarshalJSON(b); err != nil {
			t.Fatal(err)
		}
		if !(float64(n) == f || math.IsNaN(float64(n)) && (math.IsNaN(f) || math.IsInf(f, 0))) {
			t.Errorf("%v -> %s -> %v", f, b, n)
		}
	}
}
