package experiment

import (
	"context"

	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/rng"
	"simctl/stats"
)

// CRN is what RunCRN accumulates: each option's own tally, and for each
// side s the joint win indicators of all options on the same encounters
// (x_k = 1 when side s won under option k), with their exact cross sums.
type CRN struct {
	Tallies []*sim.Tally
	Wins    [2]stats.Joint
	// Cross[k][i] is the sum over encounters of x_k·x_0, with x_k the
	// encounter's own count of side counter i (indexed as Counts.Sides) under
	// option k and x_0 the baseline's: with each tally's Counts.Sides and
	// CountsSq it gives the paired interval of each counter's difference
	// to the baseline. Exact integers, merged by adding. Cross[0] is nil
	// (the baseline's own squares are its tally's CountsSq), as is the
	// Cross[k] of an option whose counters are not the baseline's; Cross
	// itself is nil unless asked for (RunCRNCross).
	Cross [][]int64
}

// Paired is option k against option 0 (the baseline) for side s.
func (c *CRN) Paired(k, s int) stats.Paired { return c.Wins[s].Paired(k, 0) }

func newCRN(games []sim.Game, cross bool) *CRN {
	c := &CRN{Tallies: make([]*sim.Tally, len(games))}
	for k, g := range games {
		c.Tallies[k] = sim.NewTally(g)
	}
	c.Wins = [2]stats.Joint{stats.NewJoint(len(games)), stats.NewJoint(len(games))}
	if cross {
		c.Cross = make([][]int64, len(games))
		for k, t := range c.Tallies {
			if k > 0 && len(t.Counts.Sides) == len(c.Tallies[0].Counts.Sides) {
				c.Cross[k] = make([]int64, len(t.Counts.Sides))
			}
		}
	}
	return c
}

// Merge adds o (other encounter indices of the same games) into c.
func (c *CRN) Merge(o *CRN) {
	for k := range c.Tallies {
		c.Tallies[k].Merge(o.Tallies[k])
	}
	c.Wins[0].Merge(&o.Wins[0])
	c.Wins[1].Merge(&o.Wins[1])
	for k, x := range o.Cross {
		if k < len(c.Cross) && c.Cross[k] != nil {
			for i, v := range x {
				c.Cross[k][i] += v
			}
		}
	}
}

// PairedTally is each option's own tally, and for every option k and side s
// the paired outcomes (a = side s won under option k, b = side s won under
// option 0, the baseline) on the same encounters.
type PairedTally struct {
	Tallies []*sim.Tally
	Paired  [][2]stats.Paired // Paired[0] pairs the baseline with itself
	Cross   [][]int64         // CRN.Cross: counter cross sums with the baseline
}

// Merge adds o's encounters (other indices of the same games) into p.
func (p *PairedTally) Merge(o *PairedTally) {
	for k := range p.Tallies {
		p.Tallies[k].Merge(o.Tallies[k])
		for s := 0; s < 2; s++ {
			p.Paired[k][s].Merge(o.Paired[k][s])
		}
		if k < len(o.Cross) && k < len(p.Cross) {
			if p.Cross[k] == nil || o.Cross[k] == nil {
				p.Cross[k] = nil // one part did not record them: no interval
				continue
			}
			for i, v := range o.Cross[k] {
				p.Cross[k][i] += v
			}
		}
	}
}

// RunPaired plays every game on common random numbers (RunCRN)
// and returns the pairs against the baseline, games[0], that the compare
// table reads.
func RunPaired(ctx context.Context, games []sim.Game, cfg sim.RunConfig) (*PairedTally, error) {
	c, err := RunCRNCross(ctx, games, cfg)
	p := &PairedTally{Tallies: c.Tallies, Paired: make([][2]stats.Paired, len(games)), Cross: c.Cross}
	for k := range games {
		p.Paired[k] = [2]stats.Paired{c.Paired(k, 0), c.Paired(k, 1)}
	}
	return p, err
}

// crnChunk is how many consecutive encounter indices a worker claims: one
// chunk costs len(games) encounters each, so it is smaller than sim.Run's.
const crnChunk = 1024

// RunCRN plays encounters cfg.Start..cfg.Start+cfg.N-1 of every game on
// common random numbers: for each encounter index i, every game's table
// plays from a stream seeded (cfg.Seed, i), the same stream sim.Run uses.
// So each option's tally is exactly what `simctl run` makes of it with
// that seed, and differences between options cancel the luck they share.
// On cancellation the finished chunks are returned with ctx's error, and
// cfg.Unplayed (if non-nil) receives the encounter index ranges not played,
// as sim.Run's does, so a resumed run plays exactly those; a panic in a
// ruleset is returned as an error naming option and encounter. cfg.Abandon
// is not supported (an index in play finishes within one encounter per
// option).
func RunCRN(ctx context.Context, games []sim.Game, cfg sim.RunConfig) (*CRN, error) {
	return runCRN(ctx, games, cfg, false)
}

// RunCRNCross is RunCRN that also accumulates CRN.Cross, the counters'
// cross sums with the baseline that compare's action-economy intervals
// need (the other designs read only the win indicators, and skip the
// per-encounter cost).
func RunCRNCross(ctx context.Context, games []sim.Game, cfg sim.RunConfig) (*CRN, error) {
	return runCRN(ctx, games, cfg, true)
}

func runCRN(ctx context.Context, games []sim.Game, cfg sim.RunConfig, cross bool) (*CRN, error) {
	if len(games) == 0 {
		panic("experiment: RunCRN with no games")
	}
	pool := sim.Pool[*crnWorker]{
		Chunk: crnChunk,
		New:   func() *crnWorker { return newCRNWorker(games, cross) },
		Play:  func(w *crnWorker, i int64) { w.play(cfg.Seed, i) },
		Crash: func(w *crnWorker, i int64, p any) error {
			return msg.Errorf("internal error in option %d, encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d and that option's --set",
				w.opt, i, cfg.Seed, p, cfg.Seed, i)
		},
	}
	ws, err := pool.Run(ctx, cfg)
	total := newCRN(games, cross)
	for _, w := range ws {
		total.Merge(w.acc)
	}
	return total, err
}

// crnWorker is one worker of RunCRN: a table per game and its share of the
// accumulator.
type crnWorker struct {
	tables []sim.Table
	acc    *CRN
	won    [2][]int64
	// The cross sums need each option's own counts of the encounter. The
	// baseline plays first, and its Record lists its non-zero counts
	// (last); only those enter a product, so every other option is read
	// at those counters alone, before (pre) and after it plays: no scan
	// of every counter per option.
	pre  []int64
	last sim.EncounterCounts
	r    rng.Stream
	opt  int // the option in play, for a crash's message
}

func newCRNWorker(games []sim.Game, cross bool) *crnWorker {
	w := &crnWorker{tables: make([]sim.Table, len(games)), acc: newCRN(games, cross)}
	for k, g := range games {
		w.tables[k] = g.NewTable()
	}
	w.won = [2][]int64{make([]int64, len(games)), make([]int64, len(games))}
	nc := len(w.acc.Tallies[0].Counts.Sides)
	w.pre = make([]int64, nc)
	if w.acc.Cross != nil {
		w.last = sim.EncounterCounts{I: make([]int, 0, nc), D: make([]int64, 0, nc)}
	}
	return w
}

// play plays encounter index i of every game, each from the stream (seed,
// i): every game holds the same finished indices.
func (w *crnWorker) play(seed uint64, i int64) {
	acc, last, pre := w.acc, &w.last, w.pre
	for k := range w.tables {
		w.opt = k
		w.r.Seed(seed, uint64(i))
		t := acc.Tallies[k]
		v, cross := t.Counts.Sides, []int64(nil)
		if acc.Cross != nil {
			cross = acc.Cross[k]
		}
		if k > 0 && cross != nil {
			for j, c := range last.I {
				pre[j] = v[c]
			}
		}
		out := w.tables[k].Play(&w.r, &t.Counts, nil)
		if k == 0 && acc.Cross != nil {
			t.RecordListing(out, last)
		} else {
			t.Record(out)
		}
		w.won[0][k], w.won[1][k] = 0, 0
		if out.Winner >= 0 {
			w.won[out.Winner][k] = 1
		}
		if k > 0 && cross != nil {
			for j, c := range last.I {
				cross[c] += (v[c] - pre[j]) * last.D[j]
			}
		}
	}
	acc.Wins[0].Add(w.won[0])
	acc.Wins[1].Add(w.won[1])
}
