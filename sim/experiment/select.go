package experiment

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/rng"
	"simctl/stats"
)

// SelectParams are a selection's statistical and budget settings.
type SelectParams struct {
	Alpha  float64 `json:"alpha"`  // error of the whole procedure (default 0.05)
	Delta  float64 `json:"delta"`  // indifference zone in win-rate units (default 0.01)
	First  int64   `json:"first"`  // encounters of the first stage (default 1,000)
	Batch  int64   `json:"batch"`  // encounters of every later stage (default First)
	Budget int64   `json:"budget"` // encounters per candidate at most (default 200,000)
}

// WithDefaults returns p with its zero fields set to the defaults.
func (p SelectParams) WithDefaults() SelectParams {
	if p.Alpha == 0 {
		p.Alpha = 0.05
	}
	if p.Delta == 0 {
		p.Delta = 0.01
	}
	if p.First == 0 {
		p.First = 1000
	}
	if p.Batch == 0 {
		p.Batch = p.First
	}
	if p.Budget == 0 {
		p.Budget = 200_000
	}
	return p
}

// Check says what is wrong with p (after WithDefaults), or nil.
func (p SelectParams) Check() error {
	switch {
	case !(p.Alpha > 0 && p.Alpha < 1):
		return msg.Errorf("alpha %v: want a level between 0 and 1 (e.g. 0.05)", p.Alpha)
	case !(p.Delta > 0 && p.Delta < 1):
		return msg.Errorf("delta %v: want an indifference zone between 0 and 1 in win-rate units (e.g. 0.01 for 1 pp)", p.Delta)
	case p.First < 1 || p.Batch < 1 || p.Budget < 1:
		return msg.Errorf("first %d, batch %d, budget %d: want positive encounter counts", p.First, p.Batch, p.Budget)
	}
	return nil
}

// Outcomes of a selection.
const (
	OutcomeRunning      = "running"       // not finished (a checkpoint or an interrupted run)
	OutcomeSeparated    = "separated"     // one survivor: shown better than every other
	OutcomeWithinDelta  = "within-delta"  // the selected is shown within δ of every survivor
	OutcomeNotSeparated = "not-separated" // the budget ended first: the survivors are a group
)

// SelectState is where a selection stands after its last finished stage:
// all a resumed selection (or the next shard stage) needs to make exactly
// the decisions an uninterrupted one makes. Its figures are exact integers.
// A SelectState is a plain value for one goroutine at a time (PlayStage,
// which needs none of it, runs the workers).
type SelectState struct {
	Params SelectParams `json:"params"`
	K      int          `json:"candidates"`
	Start  int64        `json:"next_encounter"` // first encounter index of the next stage: what every survivor has played
	Stages []Stage      `json:"stages"`         // the finished stages
	Played []int64      `json:"played"`         // per candidate, encounters played
	Wins   []int64      `json:"wins"`           // per candidate, the side's wins
	Out    []int        `json:"out"`            // per candidate, the stage after which it was eliminated (0: alive)
	By     []int        `json:"eliminated_by"`  // per candidate, who was shown better than it (-1: nobody)
	Alive  []int        `json:"alive"`          // the survivors, in candidate order
	// Only holds, for each pair a < b in the order (0,1), (0,2), ...,
	// (0,K-1), (1,2), ..., the encounters both played where a won and b
	// did not, and where b won and a did not. Both played the first
	// min(Played[a], Played[b]) encounters.
	Only    [][2]int64 `json:"discordant"`
	Outcome string     `json:"outcome"`
	// Selected is the selected candidate (-1 unless Outcome is separated
	// or within-delta).
	Selected int `json:"selected"`
}

// Stage records one finished stage.
type Stage struct {
	Start      int64   `json:"start"`      // its first encounter index
	Encounters int64   `json:"encounters"` // encounters each survivor played in it
	Survivors  int     `json:"survivors"`  // candidates left after it
	Leader     int     `json:"leader"`     // the survivor with most wins after it
	LeaderRate float64 `json:"leader_win_rate"`
}

// NewSelectState returns the state of a selection among k candidates
// before its first stage. It fails on bad params or k < 2.
func NewSelectState(k int, p SelectParams) (*SelectState, error) {
	p = p.WithDefaults()
	if err := p.Check(); err != nil {
		return nil, err
	}
	if k < 2 {
		return nil, msg.Errorf("%d candidate(s): a selection needs at least two", k)
	}
	st := &SelectState{Params: p, K: k, Played: make([]int64, k), Wins: make([]int64, k),
		Out: make([]int, k), By: make([]int, k), Alive: make([]int, k), Only: make([][2]int64, k*(k-1)/2),
		Outcome: OutcomeRunning, Selected: -1}
	for i := range st.Alive {
		st.Alive[i], st.By[i] = i, -1
	}
	return st, nil
}

// pairIndex is the index in Only of the pair a < b of k candidates.
func pairIndex(k, a, b int) int { return a*(2*k-a-1)/2 + (b - a - 1) }

// Pair returns a's and b's discordant counts on the encounters both
// played, as a against b.
func (st *SelectState) Pair(a, b int) stats.SeqPair {
	n := min(st.Played[a], st.Played[b])
	if a == b {
		return stats.SeqPair{N: n}
	}
	if a < b {
		o := st.Only[pairIndex(st.K, a, b)]
		return stats.SeqPair{N: n, AOnly: o[0], BOnly: o[1]}
	}
	o := st.Only[pairIndex(st.K, b, a)]
	return stats.SeqPair{N: n, AOnly: o[1], BOnly: o[0]}
}

// AlphaElim is the level of each elimination test, α/(2K(K-1)); the
// difference intervals use it on each side.
func (st *SelectState) AlphaElim() float64 {
	return st.Params.Alpha / float64(2*st.K*(st.K-1))
}

// AlphaDelta is the level of each indifference test, α/(2(K-1)).
func (st *SelectState) AlphaDelta() float64 { return st.Params.Alpha / float64(2*(st.K-1)) }

// Finished reports whether the selection has decided (or spent its budget).
func (st *SelectState) Finished() bool { return st.Outcome != OutcomeRunning }

// NextStage returns the encounter range every survivor plays next, and
// the survivors; n == 0 when the selection is finished.
func (st *SelectState) NextStage() (start, n int64, alive []int) {
	if st.Finished() {
		return st.Start, 0, nil
	}
	n = st.Params.Batch
	if len(st.Stages) == 0 {
		n = st.Params.First
	}
	return st.Start, min(n, st.Params.Budget-st.Start), append([]int(nil), st.Alive...)
}

// leader is the survivor with most wins, the lowest index on a tie.
func (st *SelectState) leader() int {
	best := st.Alive[0]
	for _, k := range st.Alive {
		if st.Wins[k] > st.Wins[best] {
			best = k
		}
	}
	return best
}

// StageSums is what a part of one stage's encounters gave for a survivor
// set: exact integer sums, so parts merge exactly (StageSums.Merge) and a
// whole stage applies to the state (SelectState.Apply).
type StageSums struct {
	Alive  []int       `json:"alive"`  // the survivors played, in candidate order
	Ranges []sim.Range `json:"ranges"` // the encounter index ranges played (half-open, sorted, disjoint)
	Wins   []int64     `json:"wins"`   // per survivor (as in Alive), the side's wins
	// Only is, for each pair i < j of positions in Alive (order (0,1),
	// (0,2), ...), the encounters where Alive[i] won and Alive[j] did
	// not, and the reverse.
	Only [][2]int64 `json:"discordant"`
}

// played returns the number of encounter indices in s.Ranges.
func (s *StageSums) played() int64 {
	var n int64
	for _, r := range s.Ranges {
		n += r.Hi - r.Lo
	}
	return n
}

// Merge adds o, the sums of other encounters of the same survivors, into
// s. It fails if the survivors differ or the ranges overlap.
func (s *StageSums) Merge(o *StageSums) error {
	if fmt.Sprint(s.Alive) != fmt.Sprint(o.Alive) || len(o.Wins) != len(s.Wins) || len(o.Only) != len(s.Only) {
		return msg.Errorf("stage sums of other survivors (%v and %v) do not merge", s.Alive, o.Alive)
	}
	rs := append(append([]sim.Range(nil), s.Ranges...), o.Ranges...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	for i := 1; i < len(rs); i++ {
		if rs[i].Lo < rs[i-1].Hi {
			return msg.Errorf("stage sums overlap at encounters %d..%d", rs[i].Lo, min(rs[i].Hi, rs[i-1].Hi)-1)
		}
	}
	// Join adjacent ranges so a whole stage reads as one range.
	var joined []sim.Range
	for _, r := range rs {
		if r.Hi <= r.Lo {
			continue
		}
		if n := len(joined); n > 0 && joined[n-1].Hi == r.Lo {
			joined[n-1].Hi = r.Hi
			continue
		}
		joined = append(joined, r)
	}
	s.Ranges = joined
	for i, w := range o.Wins {
		s.Wins[i] += w
	}
	for i, p := range o.Only {
		s.Only[i][0] += p[0]
		s.Only[i][1] += p[1]
	}
	return nil
}

// PlayStage plays encounters cfg.Start..cfg.Start+cfg.N-1 of the games
// numbered alive (indices into games, increasing) on common random
// numbers and returns side's sums: a whole stage, or the part of one a
// shard plays. cfg.Unplayed is ignored: a cancelled part returns nil and
// ctx's error (its encounters are played again).
func PlayStage(ctx context.Context, games []sim.Game, side int, alive []int, cfg sim.RunConfig) (*StageSums, error) {
	for i, k := range alive {
		if k < 0 || k >= len(games) || (i > 0 && k <= alive[i-1]) {
			panic("experiment: PlayStage survivors must be increasing indices of games")
		}
	}
	if len(alive) == 0 || cfg.N < 0 {
		panic("experiment: PlayStage with no survivors or a negative range")
	}
	sub := make([]sim.Game, len(alive))
	for i, k := range alive {
		sub[i] = games[k]
	}
	cfg.Unplayed = nil
	crn, err := RunCRN(ctx, sub, cfg)
	if err != nil {
		return nil, err
	}
	j := &crn.Wins[side]
	m := len(alive)
	s := &StageSums{Alive: append([]int(nil), alive...), Wins: make([]int64, m), Only: make([][2]int64, m*(m-1)/2)}
	if cfg.N > 0 {
		s.Ranges = []sim.Range{{Lo: cfg.Start, Hi: cfg.Start + cfg.N}}
	}
	copy(s.Wins, j.Sum)
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			p := j.Paired(a, b)
			s.Only[pairIndex(m, a, b)] = [2]int64{(p.SumD2 + p.SumD) / 2, (p.SumD2 - p.SumD) / 2}
		}
	}
	return s, nil
}

// PlayRung is PlayStage for a screening rung, which ranks by wins alone:
// it keeps each survivor's wins and nothing per pair (Only is nil), and
// each worker holds a table and a counter row per survivor, not a tally
// and a k×k joint. Screening plays the whole coarse space in its first
// rung (40,320 orders of an 8-rule block): the joint asked 13 GB there.
func PlayRung(ctx context.Context, games []sim.Game, side int, alive []int, cfg sim.RunConfig) (*StageSums, error) {
	for i, k := range alive {
		if k < 0 || k >= len(games) || (i > 0 && k <= alive[i-1]) {
			panic("experiment: PlayRung survivors must be increasing indices of games")
		}
	}
	if len(alive) == 0 || cfg.N < 0 {
		panic("experiment: PlayRung with no survivors or a negative range")
	}
	cfg.Unplayed = nil
	pool := sim.Pool[*rungWorker]{
		// An index costs an encounter per survivor: claim about as many
		// encounters at once as RunCRN does for a few options.
		Chunk: max(1, crnChunk*8/int64(len(alive))),
		New: func() *rungWorker {
			w := &rungWorker{tables: make([]sim.Table, len(alive)), counts: make([]sim.Counts, len(alive)), wins: make([]int64, len(alive))}
			for i, k := range alive {
				w.tables[i] = games[k].NewTable()
				w.counts[i] = sim.NewCounts(len(games[k].Counters()))
			}
			return w
		},
		Play: func(w *rungWorker, i int64) { w.play(cfg.Seed, i, side) },
		Crash: func(w *rungWorker, i int64, p any) error {
			return msg.Errorf("internal error in option %d, encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d and that option's --set",
				w.opt, i, cfg.Seed, p, cfg.Seed, i)
		},
	}
	ws, err := pool.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s := &StageSums{Alive: append([]int(nil), alive...), Wins: make([]int64, len(alive))}
	if cfg.N > 0 {
		s.Ranges = []sim.Range{{Lo: cfg.Start, Hi: cfg.Start + cfg.N}}
	}
	for _, w := range ws {
		for i, v := range w.wins {
			s.Wins[i] += v
		}
	}
	return s, nil
}

// rungWorker is one worker of PlayRung. The counters are played into (a
// referee records as it goes) and never read: a rung ranks by wins.
type rungWorker struct {
	tables []sim.Table
	counts []sim.Counts
	wins   []int64
	r      rng.Stream
	opt    int
}

func (w *rungWorker) play(seed uint64, i int64, side int) {
	for k, t := range w.tables {
		w.opt = k
		w.r.Seed(seed, uint64(i))
		if t.Play(&w.r, &w.counts[k], nil).Winner == side {
			w.wins[k]++
		}
	}
}

// Apply adds a whole stage's sums (the range NextStage gave, for its
// survivors) to the state and makes the stage's decisions: eliminations,
// then selection or the end of the budget. It fails, leaving st as it
// was, if s is not exactly the next stage.
func (st *SelectState) Apply(s *StageSums) error {
	start, n, alive := st.NextStage()
	if n == 0 {
		return msg.Errorf("the selection has finished: there is no next stage to apply")
	}
	if fmt.Sprint(s.Alive) != fmt.Sprint(alive) || len(s.Wins) != len(alive) || len(s.Only) != len(alive)*(len(alive)-1)/2 {
		return msg.Errorf("stage sums of survivors %v, but the survivors are %v", s.Alive, alive)
	}
	if len(s.Ranges) != 1 || s.Ranges[0] != (sim.Range{Lo: start, Hi: start + n}) {
		return msg.Errorf("stage sums cover encounters %v, but the next stage is encounters %d..%d (merge every part of it first)", s.Ranges, start, start+n-1)
	}
	m := len(alive)
	for i, w := range s.Wins {
		if w < 0 || w > n {
			return msg.Errorf("stage sums damaged: %d wins in %d encounters", w, n)
		}
		for l := i + 1; l < m; l++ {
			o := s.Only[pairIndex(m, i, l)]
			if o[0] < 0 || o[1] < 0 || o[0] > w || o[1] > s.Wins[l] || o[0]+o[1] > n {
				return msg.Errorf("stage sums damaged: discordant counts %v of candidates %d and %d", o, alive[i], alive[l])
			}
		}
	}
	for i, a := range alive {
		st.Played[a] += n
		st.Wins[a] += s.Wins[i]
		for l := i + 1; l < m; l++ {
			o := s.Only[pairIndex(m, i, l)]
			q := &st.Only[pairIndex(st.K, a, alive[l])]
			q[0] += o[0]
			q[1] += o[1]
		}
	}
	st.Start += n
	stage := len(st.Stages) + 1
	// Eliminations, all against the survivors before this stage's: each
	// is justified on its own by its test.
	ae := st.AlphaElim()
	var next []int
	for _, b := range alive {
		by := -1
		for _, a := range alive {
			if a == b {
				continue
			}
			// With AOnly <= BOnly every bettor's wealth is at most
			// (1-f²)^AOnly <= 1 < 1/α_E: no need to compute it.
			if p := st.Pair(a, b); p.AOnly > p.BOnly && p.Greater(0, ae) && (by < 0 || st.Wins[a] > st.Wins[by]) {
				by = a
			}
		}
		if by >= 0 {
			st.Out[b], st.By[b] = stage, by
			continue
		}
		next = append(next, b)
	}
	st.Alive = next
	lead := st.leader()
	switch {
	case len(st.Alive) == 1:
		st.Outcome, st.Selected = OutcomeSeparated, lead
	case st.withinDelta(lead):
		st.Outcome, st.Selected = OutcomeWithinDelta, lead
	case st.Start >= st.Params.Budget:
		st.Outcome = OutcomeNotSeparated
	}
	st.Stages = append(st.Stages, Stage{Start: start, Encounters: n, Survivors: len(st.Alive), Leader: lead,
		LeaderRate: float64(st.Wins[lead]) / float64(st.Played[lead])})
	return nil
}

// withinDelta reports whether every other survivor a is shown to have
// p_a < p_s + δ.
func (st *SelectState) withinDelta(s int) bool {
	ad := st.AlphaDelta()
	for _, a := range st.Alive {
		if a != s && !st.Pair(a, s).Less(st.Params.Delta, ad) {
			return false
		}
	}
	return true
}

// Check refuses a state that is not one of a selection of k candidates
// (a damaged or foreign file to resume from).
func (st *SelectState) Check(k int) error {
	bad := func(what any) error { // a message part, or an error
		return msg.Errorf("the selection state to resume from is damaged (%s)", what)
	}
	if st.K != k {
		return msg.Errorf("the selection state is of %d candidates, this selection has %d", st.K, k)
	}
	if err := st.Params.Check(); err != nil {
		return bad(err)
	}
	if len(st.Played) != k || len(st.Wins) != k || len(st.Out) != k || len(st.By) != k || len(st.Only) != k*(k-1)/2 {
		return bad(msg.New("per-candidate lists of the wrong length"))
	}
	switch st.Outcome {
	case OutcomeRunning, OutcomeSeparated, OutcomeWithinDelta, OutcomeNotSeparated:
	default:
		return bad(msg.New("outcome %q", st.Outcome))
	}
	if len(st.Alive) < 1 || st.Start < 0 || st.Start > st.Params.Budget {
		return bad(msg.New("survivors or next encounter"))
	}
	alive := make([]bool, k)
	prev := -1
	for _, a := range st.Alive {
		if a <= prev || a >= k || st.Out[a] != 0 || st.Played[a] != st.Start {
			return bad(msg.New("survivors"))
		}
		alive[a], prev = true, a
	}
	for a := 0; a < k; a++ {
		if st.Played[a] < 0 || st.Played[a] > st.Start || st.Wins[a] < 0 || st.Wins[a] > st.Played[a] ||
			(!alive[a] && (st.Out[a] < 1 || st.Out[a] > len(st.Stages) || st.By[a] < 0 || st.By[a] >= k)) {
			return bad(msg.New("candidate %d", a))
		}
		for b := a + 1; b < k; b++ {
			p := st.Pair(a, b)
			if p.AOnly < 0 || p.BOnly < 0 || p.AOnly+p.BOnly > p.N {
				return bad(msg.New("pair %d, %d", a, b))
			}
		}
	}
	if st.Selected < -1 || st.Selected >= k || (st.Selected >= 0) != (st.Outcome == OutcomeSeparated || st.Outcome == OutcomeWithinDelta) {
		return bad("selected")
	}
	return nil
}

// Clone returns a deep copy of st.
func (st *SelectState) Clone() *SelectState {
	c := *st
	c.Stages = append([]Stage(nil), st.Stages...)
	c.Played = append([]int64(nil), st.Played...)
	c.Wins = append([]int64(nil), st.Wins...)
	c.Out = append([]int(nil), st.Out...)
	c.By = append([]int(nil), st.By...)
	c.Alive = append([]int(nil), st.Alive...)
	c.Only = append([][2]int64(nil), st.Only...)
	return &c
}

// Candidate is one candidate's standing in a selection.
type Candidate struct {
	Name       string     `json:"name"`
	Encounters int64      `json:"encounters"`
	Wins       int64      `json:"wins"`
	WinRate    float64    `json:"win_rate"`
	CI95       [2]float64 `json:"win_ci95"` // Wilson, per candidate, not adjusted for the selection
	// Status is "selected", "not separated" (a survivor not shown worse
	// than the others, nor the selected one) or "eliminated".
	Status string `json:"status"`
	Out    int    `json:"eliminated_after_stage,omitempty"` // the stage after which it was eliminated
	By     string `json:"eliminated_by,omitempty"`          // the candidate shown better than it
	// Diff is its win rate minus the reference's (the selected one, or
	// the leader when none is) on the encounters both played, and DiffCI
	// the confidence sequence of that difference, simultaneous over all
	// pairs and stages at 1-α (0 and [0, 0] for the reference itself).
	Diff   float64    `json:"diff"`
	DiffCI [2]float64 `json:"diff_ci"`
}

// Candidate statuses.
const (
	StatusSelected     = "selected"
	StatusNotSeparated = "not separated"
	StatusEliminated   = "eliminated"
)

// Guarantee states what a selection claims.
type Guarantee struct {
	Alpha      float64 `json:"alpha"`
	Delta      float64 `json:"delta"`
	Candidates int     `json:"candidates"`
	Statement  string  `json:"statement"`
}

// Selection is a selection's result (or its standing so far).
type Selection struct {
	Side    string `json:"side"`
	Outcome string `json:"outcome"`
	// Selected is the selected candidate, -1 if none (not separated or
	// not finished); Leader the survivor with most wins; Reference the
	// one the differences are to (Selected, or Leader when none).
	Selected   int         `json:"selected"`
	Leader     int         `json:"leader"`
	Reference  int         `json:"reference"`
	Group      []int       `json:"group"`      // the survivors
	Candidates []Candidate `json:"candidates"` // in candidate order
	Ranking    []int       `json:"ranking"`    // candidates best first: survivors by win rate, then the later eliminated
	Encounters int64       `json:"encounters"` // encounters played, all candidates together
	Stages     []Stage     `json:"stages"`
	Guarantee  Guarantee   `json:"guarantee"`
	// State is where the selection stands: Select's resume point when it
	// did not finish, and the record of the sums when it did.
	State *SelectState `json:"state"`
}

// Result reads the selection's standing: every candidate's rate, status
// and difference to the reference, the ranking and the guarantee.
func (st *SelectState) Result(names []string, side string) *Selection {
	if len(names) != st.K {
		panic("experiment: SelectState.Result needs one name per candidate")
	}
	lead := st.leader()
	ref := lead
	if st.Selected >= 0 {
		ref = st.Selected
	}
	r := &Selection{Side: side, Outcome: st.Outcome, Selected: st.Selected, Leader: lead, Reference: ref,
		Group: append([]int(nil), st.Alive...), Stages: append([]Stage(nil), st.Stages...), State: st.Clone()}
	ae := st.AlphaElim()
	for k, name := range names {
		c := Candidate{Name: name, Encounters: st.Played[k], Wins: st.Wins[k], Out: st.Out[k]}
		r.Encounters += c.Encounters
		ci := stats.Wilson95(c.Wins, c.Encounters)
		c.CI95 = [2]float64{ci.Lo, ci.Hi}
		if c.Encounters > 0 {
			c.WinRate = float64(c.Wins) / float64(c.Encounters)
		}
		switch {
		case st.Out[k] > 0:
			c.Status, c.By = StatusEliminated, names[st.By[k]]
		case k == st.Selected:
			c.Status = StatusSelected
		default:
			c.Status = StatusNotSeparated
		}
		if k != ref {
			p := st.Pair(k, ref)
			cs := p.CS(ae)
			c.Diff, c.DiffCI = p.Diff(), [2]float64{cs.Lo, cs.Hi}
		}
		r.Candidates = append(r.Candidates, c)
	}
	r.Ranking = make([]int, st.K)
	for k := range r.Ranking {
		r.Ranking[k] = k
	}
	outRank := func(k int) int {
		if st.Out[k] == 0 {
			return math.MaxInt
		}
		return st.Out[k]
	}
	sort.SliceStable(r.Ranking, func(i, j int) bool {
		a, b := r.Ranking[i], r.Ranking[j]
		if (a == st.Selected) != (b == st.Selected) {
			return a == st.Selected
		}
		if oa, ob := outRank(a), outRank(b); oa != ob {
			return oa > ob
		}
		return r.Candidates[a].WinRate > r.Candidates[b].WinRate
	})
	r.Guarantee = Guarantee{Alpha: st.Params.Alpha, Delta: st.Params.Delta, Candidates: st.K, Statement: st.statement()}
	return r
}

// statement says in a sentence what the result claims.
func (st *SelectState) statement() string {
	conf := 100 * (1 - st.Params.Alpha)
	base := fmt.Sprintf("with probability at least %.4g%% over the whole procedure, no candidate with the best win rate among these %d was eliminated", conf, st.K)
	switch st.Outcome {
	case OutcomeSeparated:
		return base + ", so the one left is the best"
	case OutcomeWithinDelta:
		return base + fmt.Sprintf(" and the selected one is within %.4g pp of the best; the others left are not separated from it", 100*st.Params.Delta)
	case OutcomeNotSeparated:
		return base + fmt.Sprintf(": the budget ended before the %d left were separated, or shown within %.4g pp of each other; none is called best", len(st.Alive), 100*st.Params.Delta)
	}
	return base + " so far"
}

// SelectConfig runs a selection on one machine.
type SelectConfig struct {
	Seed    uint64
	Workers int
	Params  SelectParams
	Done    *atomic.Int64 // advanced as encounter indices finish (a progress bar)
	// DoneByGame advances Done by every survivor's encounters (an index
	// played by 5 survivors counts 5) instead of by encounter indices.
	DoneByGame bool
	// Resume, if non-nil, is an unfinished selection's state (of the same
	// games and params): it goes on from there, exactly as if never stopped.
	Resume *SelectState
	// OnStage, if non-nil, is called after every finished stage that does
	// not end the selection, with the standing so far and its State to
	// resume from (a checkpoint), from the calling goroutine.
	OnStage func(*Selection)
}

// Select runs the selection among games (named names) for side, stage by
// stage on common random numbers, until it decides or spends its budget.
// An interrupted selection returns its standing after the last finished
// stage (its State to resume from) with ctx's error: the stage in play is
// dropped, since survivors must share their encounters.
//
// # The procedure
//
// Every surviving candidate plays the same encounter indices (encounter i
// draws stream (seed, i), as everywhere): a first stage of First
// encounters, then stages of Batch, until a decision or until every
// survivor has played Budget. After every stage, for each pair of
// survivors (a, b) the discordant counts on their common encounters
// (a won and b did not, and the reverse) feed two sequential tests that
// stay valid under continuous monitoring (stats.SeqPair: betting
// martingales and Ville's inequality; Waudby-Smith & Ramdas 2024):
//
//   - elimination: b is eliminated as soon as some survivor a rejects
//     H0: p_a <= p_b at level α_E = α / (2K(K-1)), i.e. b is shown worse;
//   - indifference: the stage's leader s (most wins; lowest index on a tie)
//     is selected, and the procedure stops, as soon as every other
//     survivor a rejects H0: p_a >= p_s + δ at level α_δ = α / (2(K-1)),
//     i.e. s is shown within δ of each of them;
//   - a lone survivor is selected ("separated").
//
// # The guarantee
//
// With probability at least 1-α, over the whole procedure (every stage,
// however it stops): no candidate with the best win rate is eliminated,
// and if a candidate is selected its win rate is within δ of the best.
// Proof: let B be the candidates with the best rate and b* one of them.
// Eliminating some b ∈ B needs a false rejection among the K(K-1) ordered
// elimination tests (a, b) with p_a <= p_b, each at α_E over all time
// (total <= α/2); a selected s with p_b* >= p_s + δ needs a false
// rejection of the indifference test (b*, s), one of K-1 tests at α_δ
// (total <= α/2). Exactly tied candidates are never separated except on
// that α/2: a tie has no drift to bet on, and a pair that never disagreed
// (zero discordance) leaves the bettor's wealth at 1 whatever N is, so
// zero variance is "cannot separate", never a division by zero (see
// stats.SeqPair). When the budget ends first the result is the group of
// survivors, "not separated": it holds every best candidate (on the same
// event), and no single candidate is called best.
//
// Why not Kim & Nelson's KN (2001): its continuation region is a triangle
// that closes, so it always picks one candidate and eliminates the rest
// even when they are exactly tied (correct for its indifference-zone
// claim, but it separates ties, which simctl's reports must not). The
// tests here eliminate only on evidence of a strict difference and stop
// on evidence of δ-closeness instead.
//
// # The intervals
//
// Each candidate's win rate has a 95% Wilson interval, per candidate and
// not adjusted for the selection. Each paired difference to the selected
// candidate (or the leader when none is selected) has the confidence
// sequence of stats.SeqPair at α_E per side: all K(K-1)/2 of them hold at
// once, at every stage, with probability at least 1-α, so they stay valid
// whatever was selected and whenever the procedure stopped; an eliminated
// candidate's interval against the one that eliminated it excludes 0.
//
// # Scaling out
//
// A stage is the same encounter range for every survivor, so it shards:
// PlayStage plays any part of a stage's range for a survivor set and
// returns its integer sums, StageSums.Merge adds disjoint parts, and
// SelectState.Apply applies a whole stage. Select is the loop of those on
// one machine; its decisions depend only on the integer sums, so they are
// the same whatever Workers is, however the stages were sharded, and
// after a resume.
func Select(ctx context.Context, games []sim.Game, names []string, side int, sideName string, cfg SelectConfig) (*Selection, error) {
	if len(games) != len(names) {
		panic("experiment: Select needs one name per game")
	}
	var st *SelectState
	if cfg.Resume != nil {
		st = cfg.Resume.Clone()
		if err := st.Check(len(games)); err != nil {
			return nil, err
		}
		if st.Params != cfg.Params.WithDefaults() {
			return nil, msg.Errorf("the selection to resume from has settings %+v, this one %+v", st.Params, cfg.Params.WithDefaults())
		}
		if st.Finished() {
			return nil, msg.Errorf("the selection to resume from has finished: nothing to go on with")
		}
	} else {
		var err error
		if st, err = NewSelectState(len(games), cfg.Params); err != nil {
			return nil, err
		}
	}
	for !st.Finished() {
		start, n, alive := st.NextStage()
		rc := sim.RunConfig{Seed: cfg.Seed, Start: start, N: n, Workers: cfg.Workers, Done: cfg.Done}
		if cfg.DoneByGame {
			rc.DonePer = int64(len(alive))
		}
		s, err := PlayStage(ctx, games, side, alive, rc)
		if err != nil {
			return st.Result(names, sideName), err
		}
		if err := st.Apply(s); err != nil {
			panic("experiment: " + err.Error()) // PlayStage made what NextStage asked
		}
		if cfg.OnStage != nil && !st.Finished() {
			cfg.OnStage(st.Result(names, sideName))
		}
	}
	return st.Result(names, sideName), nil
}
