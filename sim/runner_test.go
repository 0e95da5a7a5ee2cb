package sim_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "simctl/agents" // the d20 policies
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
	"simctl/stats"
)

// skirmish exercises most of what a d20 table keeps between encounters:
// copies, distance and movement, a surprised side, Ready, Delay, spells,
// the SRD dying rule and draws at max_rounds. A table that leaked state
// from one encounter into the next would make the tallies below depend on
// how encounters fall to workers.
const skirmish = `name: skirmish
ruleset: d20
options: {dying: srd}
max_rounds: 6
distance: 40
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: 2, hp: 2d10+8, ac: 17, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2, policy: {name: ready, trigger: charge}}
      - {name: Wizard, hp: 3d4+3, ac: 12, dex_ac: 2, init: 2, attacks: [1], damage: 1d6, spells: [{name: fire bolt, damage: 3d6, level: 2, uses: 2}]}
      - {name: Cleric, hp: 3d8, ac: 16, init: 0, attacks: [3], damage: 1d8, policy: {name: delay, until: Wizard}}
  - name: orcs
    aware: false
    combatants:
      - {name: Orc, count: 4, hp: 2d8+4, ac: 13, init: 0, attacks: [4], damage: 1d12+3, crit: 20/x3, policy: {name: default, target: random}}
`

func compile(t testing.TB, file string, data []byte) sim.Game {
	t.Helper()
	sc, err := scenario.Load(file, data, nil, rulesets.Schema)
	if err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatalf("compile %s: %v", file, err)
	}
	return g
}

func duel(t testing.TB) sim.Game {
	t.Helper()
	data, display, ok := scenarios.Read("d20/duel")
	if !ok {
		t.Fatal("built-in d20/duel is missing")
	}
	return compile(t, display, data)
}

func run(t testing.TB, g sim.Game, cfg sim.RunConfig) *sim.Tally {
	t.Helper()
	tally, err := sim.Run(context.Background(), g, cfg)
	if err != nil {
		t.Fatalf("Run(%+v): %v", cfg, err)
	}
	return tally
}

// consistent checks the identities every tally satisfies, whole or partial.
func consistent(t *testing.T, tally *sim.Tally) {
	t.Helper()
	n := tally.Encounters
	if got := tally.Wins[0] + tally.Wins[1] + tally.Draws; got != n {
		t.Errorf("wins+draws = %d, encounters = %d", got, n)
	}
	if tally.Rounds.N != n {
		t.Errorf("rounds histogram holds %d encounters, tally %d", tally.Rounds.N, n)
	}
	first := tally.NoActor
	for _, v := range tally.FirstActor {
		first += v
	}
	if first != n {
		t.Errorf("first actors + no actor = %d, encounters = %d", first, n)
	}
	if turns := tally.Counts.Get(0, sim.Turns) + tally.Counts.Get(1, sim.Turns); n > 0 && turns == 0 {
		t.Errorf("%d encounters and no turns counted", n)
	}
}

// The tally depends on the seed and the encounter range only, never on the
// number of workers (each worker reuses one table across many encounters).
func TestRunSameTallyWhateverWorkers(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    sim.Game
		n    int64
	}{
		{"duel", duel(t), 20000}, // ten chunks
		{"skirmish", compile(t, "skirmish.yaml", []byte(skirmish)), 2500}, // two
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := run(t, tc.g, sim.RunConfig{Seed: 7, N: tc.n, Workers: 1})
			consistent(t, want)
			if want.Encounters != tc.n {
				t.Fatalf("played %d encounters, want %d", want.Encounters, tc.n)
			}
			for _, w := range []int{2, 3} {
				got := run(t, tc.g, sim.RunConfig{Seed: 7, N: tc.n, Workers: w})
				if !reflect.DeepEqual(got, want) {
					t.Errorf("Workers %d: tally differs from Workers 1:\n got %+v\nwant %+v", w, got, want)
				}
			}
			other := run(t, tc.g, sim.RunConfig{Seed: 8, N: tc.n, Workers: 2})
			if reflect.DeepEqual(other, want) {
				t.Errorf("seeds 7 and 8 gave identical tallies")
			}
		})
	}
}

// Shards are ranges of encounter indices; their tallies merge into exactly
// the tally of the whole range, in any order.
func TestRunShardsMergeExactly(t *testing.T) {
	g := duel(t)
	const n = 2200
	whole := run(t, g, sim.RunConfig{Seed: 11, N: n, Workers: 2})
	bounds := []int64{0, 0, 1, 700, 2048, 2049, n} // an empty shard, a single one, a chunk edge
	merged := sim.NewTally(g)
	for k := len(bounds) - 2; k >= 0; k-- {
		part := run(t, g, sim.RunConfig{Seed: 11, Start: bounds[k], N: bounds[k+1] - bounds[k], Workers: 3})
		merged.Merge(part)
	}
	if !reflect.DeepEqual(merged, whole) {
		t.Errorf("merged shards differ from the whole run:\n got %+v\nwant %+v", merged, whole)
	}
}

// Replay of encounter i plays exactly what a run counted for it: alone
// (N: 1) and in the middle of a run where the table played encounters
// before it.
func TestReplayAgreesWithRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    sim.Game
	}{
		{"duel", duel(t)},
		{"skirmish", compile(t, "skirmish.yaml", []byte(skirmish))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const seed = 5
			for _, i := range []int64{0, 1, 17, 2047, 2048, 4999} {
				var log strings.Builder
				o, replay := sim.Replay(tc.g, seed, i, &sim.Log{W: &log})
				one := run(t, tc.g, sim.RunConfig{Seed: seed, Start: i, N: 1, Workers: 1})
				if !reflect.DeepEqual(replay, one) {
					t.Errorf("encounter %d: replay tally %+v, run counted %+v", i, replay, one)
				}
				// The run of i-3..i minus the run of i-3..i-1, on one table
				// that played three encounters before i.
				from := max(i-3, 0)
				upto := run(t, tc.g, sim.RunConfig{Seed: seed, Start: from, N: i - from + 1, Workers: 1})
				before := run(t, tc.g, sim.RunConfig{Seed: seed, Start: from, N: i - from, Workers: 1})
				if d := diff(upto, before); !reflect.DeepEqual(d, replay) {
					t.Errorf("encounter %d: replay tally %+v, the run on a reused table counted %+v", i, replay, d)
				}
				wantWins := [2]int64{}
				if o.Winner >= 0 {
					wantWins[o.Winner] = 1
				}
				if one.Wins != wantWins || (o.Winner < 0) != (one.Draws == 1) {
					t.Errorf("encounter %d: outcome %+v, run counted wins %v draws %d", i, o, one.Wins, one.Draws)
				}
				if one.Rounds.Sum != int64(o.Rounds) {
					t.Errorf("encounter %d: outcome %d rounds, run counted %d", i, o.Rounds, one.Rounds.Sum)
				}
				if (o.FirstActor >= 0 && one.FirstActor[o.FirstActor] != 1) || (o.FirstActor < 0 && one.NoActor != 1) {
					t.Errorf("encounter %d: first actor %d, run counted %v / no actor %d", i, o.FirstActor, one.FirstActor, one.NoActor)
				}
				if log.Len() == 0 {
					t.Errorf("encounter %d: replay narrated nothing", i)
				}
			}
		})
	}
}

// diff returns a - b for tallies of nested runs (b's encounters a prefix of
// a's, one encounter fewer).
func diff(a, b *sim.Tally) *sim.Tally {
	d := a.Clone()
	d.Encounters -= b.Encounters
	d.Draws -= b.Draws
	d.MaxRoundsDraws -= b.MaxRoundsDraws
	d.AllGoneDraws -= b.AllGoneDraws
	d.NoActor -= b.NoActor
	d.NoOrder -= b.NoOrder
	d.Ended -= b.Ended
	for s := 0; s < 2; s++ {
		d.Wins[s] -= b.Wins[s]
		d.Survivors[s] -= b.Survivors[s]
		d.AnyDown[s] -= b.AnyDown[s]
		subHist(&d.Damage[s], &b.Damage[s])
		subHist(&d.WinnerHP[s], &b.WinnerHP[s])
	}
	subHist(&d.Rounds, &b.Rounds)
	for i := range d.Counts.Sides {
		d.Counts.Sides[i] -= b.Counts.Sides[i]
		d.CountsSq[i] -= b.CountsSq[i]
	}
	for i := range d.FirstActor {
		d.FirstActor[i] -= b.FirstActor[i]
		d.FirstInOrder[i] -= b.FirstInOrder[i]
	}
	for i := range d.Counts.Combatants {
		p, q := &d.Counts.Combatants[i], &b.Counts.Combatants[i]
		p.DamageDealt -= q.DamageDealt
		p.DamageTaken -= q.DamageTaken
		p.Kills -= q.Kills
		p.Downed -= q.Downed
		p.Turns -= q.Turns
		p.ActionsLost -= q.ActionsLost
		p.EndedDown -= q.EndedDown
		p.EndedGone -= q.EndedGone
		p.HPLeft -= q.HPLeft
		p.HPLeftWin -= q.HPLeftWin
	}
	// Merged into an empty tally, the difference is one whose every
	// encounter is finished, as a run's tally is.
	z := a.Clone()
	z.Reset()
	z.Merge(d)
	return z
}

// subHist subtracts b from a, for a difference of one encounter (whose
// maximum is its only observation, MaxSeen not being a difference).
func subHist(a, b *stats.Hist) {
	for i := range a.Counts {
		a.Counts[i] -= b.Counts[i]
	}
	a.Over -= b.Over
	a.N -= b.N
	a.Sum -= b.Sum
	a.MaxSeen = a.Sum
}

// Cancelling a run keeps its work: the tally of the encounters that
// finished comes back, consistent, with the context's error.
func TestRunCancelKeepsPartialTally(t *testing.T) {
	g := duel(t)
	const n = 1 << 40 // far more than the test will ever play
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int64
	go func() {
		for done.Load() < 5000 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	tally, err := sim.Run(ctx, g, sim.RunConfig{Seed: 3, N: n, Workers: 4, Done: &done})
	if tally.Encounters < 5000 {
		t.Errorf("tally has %d encounters; the run was cancelled after 5000", tally.Encounters)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: err = %v, want context.Canceled", err)
	}
	if tally.Encounters <= 0 || tally.Encounters >= n {
		t.Fatalf("partial tally has %d encounters, want 0 < n < %d", tally.Encounters, int64(n))
	}
	if tally.Encounters != done.Load() {
		t.Errorf("tally has %d encounters, progress counted %d", tally.Encounters, done.Load())
	}
	consistent(t, tally)
}

func TestRunCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tally, err := sim.Run(ctx, duel(t), sim.RunConfig{Seed: 3, N: 1000})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if tally == nil || tally.Encounters != 0 {
		t.Fatalf("tally = %+v, want an empty tally", tally)
	}
}

// fake is a game whose table calls hook before each encounter it plays.
type fake struct{ hook func() }

func (f fake) Roster() []sim.Entrant {
	return []sim.Entrant{{Name: "A", Side: 0}, {Name: "B", Side: 1}}
}
func (f fake) Counters() []string  { return sim.BaseCounters }
func (f fake) MaxRounds() int      { return 10 }
func (f fake) NewTable() sim.Table { return fakeTable(f) }

type fakeTable fake

func (f fakeTable) Play(r *rng.Stream, c *sim.Counts, log *sim.Log) sim.Outcome {
	f.hook()
	c.Inc(0, sim.Turns)
	w := r.IntN(3) - 1
	return sim.Outcome{Winner: w, Rounds: r.IntN(11), FirstActor: r.IntN(2)}
}

// A run cancelled after its last encounter finished is complete: no error.
func TestRunCancelAfterLastEncounterIsComplete(t *testing.T) {
	const n = 100
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	played := 0
	g := fake{hook: func() {
		played++
		if played == n {
			cancel()
		}
	}}
	tally, err := sim.Run(ctx, g, sim.RunConfig{Seed: 1, N: n, Workers: 1})
	if err != nil || tally.Encounters != n {
		t.Fatalf("Run = %d encounters, %v; want %d, nil", tally.Encounters, err, n)
	}
}

// A panic in a ruleset is an error naming the encounter to replay, and it
// stops the other workers instead of letting them finish a huge run.
func TestRunPanicStopsRun(t *testing.T) {
	var plays atomic.Int64
	g := fake{hook: func() {
		if plays.Add(1) == 5000 {
			panic("boom")
		}
	}}
	// The timeout only keeps a regression from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	_, err := sim.Run(ctx, g, sim.RunConfig{Seed: 9, N: 1 << 40, Workers: 4})
	if err == nil {
		t.Fatal("a panicking ruleset gave no error")
	}
	for _, want := range []string{"internal error in encounter", "boom", "simctl trace --seed 9 --encounter"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if d := time.Since(start); d > 9*time.Second {
		t.Errorf("the run took %v to stop after a panic", d)
	}
}

func TestRunEmpty(t *testing.T) {
	tally := run(t, duel(t), sim.RunConfig{Seed: 1, N: 0})
	if tally.Encounters != 0 {
		t.Fatalf("N 0 played %d encounters", tally.Encounters)
	}
}

func TestTallyMergePanicsOnShapeMismatch(t *testing.T) {
	a := sim.NewTally(duel(t))
	b := sim.NewTally(compile(t, "skirmish.yaml", []byte(skirmish)))
	defer func() {
		p := recover()
		if p == nil || !strings.HasPrefix(p.(string), "sim: ") {
			t.Fatalf("Merge of different shapes: panic %v, want a sim: panic", p)
		}
	}()
	a.Merge(b)
}
