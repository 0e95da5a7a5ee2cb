package experiment

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"simctl/sim"
	"simctl/sim/msg"
	"simctl/stats"
)

// `simctl optimize`: the best candidate of a search space for one side,
// with a guarantee. The search runs in up to three stages, on common random
// numbers throughout (every game of a stage plays the same encounter
// indices), each stage on indices no earlier stage played, so no stage's
// decisions reuse the luck an earlier one selected on:
//
//  1. Screening, only when the space is too large for the budget:
//     successive halving over a coarse subset of the space (every
//     Coarse-th value of each numeric dimension, every alternative and
//     rule structure): each rung plays the same new encounters for every
//     survivor, doubling per rung, and keeps the better half by win rate;
//     then local refinement adds every neighbour (one step along one
//     numeric dimension) of the survivors. Screening claims nothing: it
//     only picks the finalists.
//  2. Selection among the finalists (every candidate when the space fits
//     the budget) by the sequential procedure of select.go (Select): with
//     probability at least 1−Alpha no best finalist is eliminated and the
//     candidate selected is within Delta of the best finalist; when the
//     budget ends first the survivors are one group, not separated, and
//     none is called best.
//  3. Confirmation on fresh encounters: the best, the top finalists and
//     the baseline play Confirm new encounters each; the intervals
//     printed (win rates, differences to the best and to the baseline) come
//     from these alone, so they are not bent by having been selected, and
//     they are simultaneous (Bonferroni over the comparisons made).
//
// The stages play disjoint encounter indices of the same seed: the
// selection 0.., screening from ScreenBase, confirmation from ConfirmBase.

// Encounter index bases of the stages that do not start at 0 (the
// selection does): far apart, so no stage ever replays another's luck.
const (
	ScreenBase  = int64(1) << 40
	ConfirmBase = int64(1) << 41
)

// OptimizeConfig sets a search.
type OptimizeConfig struct {
	Seed    uint64
	Workers int
	Alpha   float64 // 1 - the guarantee's confidence (default 0.05)
	Delta   float64 // the indifference zone, a win-rate difference (default 0.01)
	First   int64   // the selection's stage size, encounters per candidate (default 1,000)
	Cap     int64   // encounters a candidate plays at most in the selection (-n)
	// Budget sizes the screening and the selection, all games counted:
	// the selection shares it among its finalists (each plays at least
	// one stage of First), a screening rung spends at most Budget/4, and
	// a space whose first stages do not fit Budget/2 is screened. The
	// confirmation (Confirm per confirmed game) is outside it.
	Budget  int64
	Confirm int64 // encounters of the confirmation stage per game (default 20,000)
	Top     int   // candidates confirmed besides the best (default 9)
	Coarse  int   // screening's stride along numeric dimensions (default 2)
	// Done, if non-nil, advances by the encounters played, every game
	// counted (a stage of 5 candidates and 1,000 encounters adds 5,000).
	Done *atomic.Int64
	// Total, if non-nil, is kept at an upper bound of what Done will read
	// when the search ends (a progress bar's total): set at the start to
	// OptimizeBound's, lowered after every stage to what Done reads plus a
	// bound of the stages left (known once the finalists are). It never
	// rises and Done never passes it, so Done/Total never goes back nor
	// past 1.
	Total *atomic.Int64
	// Finalists, if non-nil, skips screening: the selection runs on these
	// candidates (a resumed search's, recorded in its result).
	Finalists []int
	// Resume, if non-nil, is the unfinished selection to go on from.
	Resume *SelectState
	// Screen, if non-nil, is the unfinished screening to go on from (with
	// Prior, the interrupted search it belongs to, and Finalists nil).
	Screen *ScreenState
	// Prior, if non-nil, is the interrupted search being resumed: its
	// screening (stages, encounters, the screened-out candidates' counts)
	// and its incumbent so far are carried over, so the resumed answer is
	// the uninterrupted one.
	Prior *OptimizeResult
	// OnStage, if non-nil, sees the search after every selection stage
	// that does not end it (a checkpoint: its Selection.State resumes).
	OnStage func(*OptimizeResult)
	// Build, if non-nil, makes games[k] for every k of ks that has none
	// before they play (a candidate is built when it first plays, not
	// all before the search), and may release the games of candidates
	// not in ks, so memory follows the candidates in play. It is called
	// before every rung, the selection and the confirmation; an error
	// (a candidate that is not a valid scenario) ends the search.
	Build func(ctx context.Context, games []sim.Game, ks []int) error
}

func (c *OptimizeConfig) defaults() {
	if c.Alpha <= 0 || c.Alpha >= 1 {
		c.Alpha = 0.05
	}
	if c.Delta <= 0 {
		c.Delta = 0.01
	}
	if c.First <= 0 {
		c.First = 1000
	}
	if c.Cap <= 0 {
		c.Cap = 100_000
	}
	if c.Confirm <= 0 {
		c.Confirm = 20_000
	}
	if c.Top <= 0 {
		c.Top = 9
	}
	if c.Coarse < 2 {
		c.Coarse = 2
	}
	if c.Budget <= 0 {
		c.Budget = 20_000_000
	}
}

// Screens reports whether a space of k candidates is screened before the
// selection: when the selection's first stages alone (First encounters
// per candidate, typically a few stages) would not fit half the budget,
// or k > 256.
func (c OptimizeConfig) Screens(k int) bool {
	c.defaults()
	return k > 256 || int64(k)*c.First*4 > c.Budget/2
}

// SelectParams are the selection's settings for k finalists: stages of
// First encounters, at most Cap per candidate and the budget shared.
func (c OptimizeConfig) SelectParams(k int) SelectParams {
	c.defaults()
	per := min(c.Cap, max(c.Budget/int64(max(k, 1)), c.First))
	return SelectParams{Alpha: c.Alpha, Delta: c.Delta, First: c.First, Batch: c.First, Budget: per}
}

// StatusAtMostDelta is the status of a candidate left beside the best
// when the selection stopped because none left could be more than Delta
// better than it: that one-sided claim, and no other.
const StatusAtMostDelta = "at most delta better"

// Ranked is one candidate's standing in the answer.
type Ranked struct {
	Point    int               `json:"candidate"` // its index in the enumerated space
	Name     string            `json:"name"`
	Settings map[string]string `json:"settings"`
	// Status: "best" (selected); StatusAtMostDelta, "at most delta
	// better" (a survivor when the selection stopped with it shown at most
	// Delta better than the best: how much worse it may be, the selection
	// does not say; documents before issue 35 wrote "within delta", which
	// read as a claim both ways); "not separated" (a survivor when
	// the budget ended first: not shown worse than the others; the
	// leader too, as none is selected); "eliminated" (shown worse
	// than another finalist, with the procedure's confidence); "screened
	// out" (dropped while screening: no claim).
	Status string `json:"status"`
	// The selection stage (or screening): encounters played, win rate.
	Encounters int64   `json:"encounters"`
	Wins       int64   `json:"wins"`
	WinRate    float64 `json:"win_rate"`
	// The confirmation stage (fresh encounters), when it was confirmed.
	Confirmed   bool       `json:"confirmed"`
	ConfirmRate float64    `json:"confirm_win_rate,omitempty"`
	ConfirmCI   [2]float64 `json:"confirm_ci,omitempty"`
	// Diff: its win rate minus the best's on the confirmation encounters,
	// with the simultaneous interval.
	Diff   float64    `json:"diff_to_best,omitempty"`
	DiffCI [2]float64 `json:"diff_ci,omitempty"`
	// Gain: its win rate minus the baseline's on the confirmation
	// encounters, with the simultaneous interval.
	Gain   float64    `json:"gain_over_baseline,omitempty"`
	GainCI [2]float64 `json:"gain_ci,omitempty"`
}

// Exploit is a confirmed candidate that beats the baseline by more than
// Delta with the stated confidence (its simultaneous interval's lower end
// exceeds Delta).
type Exploit struct {
	Point   int        `json:"candidate"`
	Name    string     `json:"name"`
	WinRate float64    `json:"win_rate"`
	Gain    float64    `json:"gain"`
	GainCI  [2]float64 `json:"gain_ci"`
}

// IncumbentPoint is the incumbent (the leader so far) after some
// encounters of the search: the report's convergence plot.
type IncumbentPoint struct {
	Encounters int64   `json:"encounters"`
	Point      int     `json:"candidate"`
	WinRate    float64 `json:"win_rate"`
	Stage      string  `json:"stage"`
}

// SearchStage records one stage of the search.
type SearchStage struct {
	Name       string `json:"name"`
	Start      int64  `json:"start"` // first encounter index
	Candidates int    `json:"candidates"`
	Encounters int64  `json:"encounters"` // all games counted
}

// OptimizeResult is a search's answer.
type OptimizeResult struct {
	Side      string     `json:"side"`
	Space     SpaceCount `json:"space"`
	Screened  int        `json:"screened"`  // candidates that played in screening (0: no screening)
	Finalists []int      `json:"finalists"` // the candidates the selection ran on: the guarantee covers these
	// ScreenedOut is, for each candidate dropped while screening, its
	// index, encounters and wins: what a resumed search reports of them.
	ScreenedOut [][3]int64 `json:"screened_out,omitempty"`
	// Best is the selected candidate's index in the space; when the
	// selection ended not separated, the leader's, and Separated is false.
	Best      int        `json:"best"`
	Separated bool       `json:"separated"`
	Outcome   string     `json:"outcome"` // the selection's outcome
	Ranked    []Ranked   `json:"ranked"`  // best first, then by status and win rate
	Baseline  string     `json:"baseline"`
	BaseRate  float64    `json:"baseline_win_rate"`
	BaseCI    [2]float64 `json:"baseline_ci"`
	Exploits  []Exploit  `json:"exploits"` // biggest gain first
	// Encounters is what the search spent, all games and stages counted.
	Encounters int64 `json:"encounters"`
	// Uniform is what uniform allocation would cost for the same
	// guarantee: a fixed-sample design in which every candidate of the
	// space plays UniformPer encounters on common random numbers and the
	// highest win rate is selected, UniformPer being the sample size
	// that puts it within Delta of the best with probability 1−Alpha
	// (FixedSampleSize) at the largest discordance rate the selection saw
	// between the best (or the leader) and another finalist
	// (UniformDiscordance). Compare it with
	// Encounters, the whole search (screening, selection, confirmation).
	// 0 when no selection ran, and 0 when the selection reached no
	// decision (the budget or -n ended first): then the search reached no
	// guarantee, and a design "for the same guarantee" compares with
	// nothing.
	Uniform            int64            `json:"uniform_encounters"`
	UniformPer         int64            `json:"uniform_per_candidate,omitempty"`
	UniformDiscordance float64          `json:"uniform_discordance,omitempty"`
	Incumbent          []IncumbentPoint `json:"incumbent"`
	Stages             []SearchStage    `json:"stages"`
	// Selection is the selection stage's own result (its State resumes an
	// unfinished search).
	Selection *Selection `json:"selection"`
	// Screening is set while screening is unfinished (a checkpoint, an
	// interrupted search, a --shard of a rung): the state it resumes from.
	Screening *ScreenState `json:"screening,omitempty"`
	// Confirm is the confirmation stage: its encounter range, and the
	// candidates confirmed (the baseline last, as -1).
	ConfirmStart int64 `json:"confirm_start"`
	ConfirmN     int64 `json:"confirm_encounters"`
	Confirmed    []int `json:"confirmed"`
}

// Optimize searches points (games[k] is points[k]'s game) for the best
// win rate of side, and confirms the answer against base (the baseline's
// game). An interrupted search returns what it has (the selection's State
// to resume from) with ctx's error.
func Optimize(ctx context.Context, sp *Space, points []Point, games []sim.Game, base sim.Game, baseName string, side int, sideName string, cfg OptimizeConfig) (*OptimizeResult, error) {
	if len(points) != len(games) {
		panic("experiment: Optimize needs one game per candidate")
	}
	if len(points) == 0 {
		return nil, msg.Errorf("the space holds no candidate (check --where)")
	}
	cfg.defaults()
	cfg.lower(OptimizeBound(sp, points, cfg))
	res := &OptimizeResult{Side: sideName, Baseline: baseName, Best: -1}
	status := make([]string, len(points))
	played := make([]int64, len(points))
	wins := make([]int64, len(points))
	finalists := cfg.Finalists
	if p := cfg.Prior; p != nil && (finalists != nil || cfg.Screen != nil) {
		res.Screened = p.Screened
		for _, st := range p.Stages {
			if strings.HasPrefix(st.Name, "screening") {
				res.Stages = append(res.Stages, st)
				res.Encounters += st.Encounters
			}
		}
		res.Incumbent = append(res.Incumbent, p.Incumbent...)
		res.ScreenedOut = p.ScreenedOut
		for _, q := range p.ScreenedOut {
			if k := int(q[0]); k >= 0 && k < len(points) && q[1] >= q[2] && q[2] >= 0 {
				played[k], wins[k], status[k] = q[1], q[2], "screened out"
			}
		}
	}
	switch {
	case finalists != nil:
	case len(points) == 1:
		finalists = []int{0}
	case cfg.Screen != nil || cfg.Screens(len(points)):
		fin, err := screen(ctx, sp, points, games, side, &cfg, res)
		if err != nil {
			return res, err
		}
		finalists = fin
		for _, q := range res.ScreenedOut {
			k := int(q[0])
			played[k], wins[k], status[k] = q[1], q[2], "screened out"
		}
	default:
		finalists = make([]int, len(points))
		for k := range finalists {
			finalists[k] = k
		}
	}
	res.Finalists = finalists
	spent := res.Encounters
	if len(finalists) == 1 {
		res.Best, res.Separated, res.Outcome = finalists[0], true, OutcomeSeparated
	} else {
		if err := cfg.build(ctx, games, finalists); err != nil {
			return res, err
		}
		sub := make([]sim.Game, len(finalists))
		names := make([]string, len(finalists))
		for i, k := range finalists {
			sub[i], names[i] = games[k], points[k].Name
		}
		sc := SelectConfig{Seed: cfg.Seed, Workers: cfg.Workers, Done: cfg.Done, DoneByGame: true, Resume: cfg.Resume, Params: cfg.SelectParams(len(finalists))}
		per := sc.Params.Budget
		confirmN := cfg.confirmWork(len(finalists))
		cfg.lower(int64(len(finalists))*per + confirmN)
		if r := cfg.Resume; r != nil {
			cfg.lower(selectLeft(r) + confirmN)
		}
		incumbent := func(s *Selection) {
			res.Incumbent = append(res.Incumbent, IncumbentPoint{Encounters: spent + s.Encounters, Point: finalists[s.Leader],
				WinRate: s.Candidates[s.Leader].WinRate, Stage: "selection"})
		}
		sc.OnStage = func(s *Selection) {
			incumbent(s)
			cfg.lower(selectLeft(s.State) + confirmN)
			if cfg.OnStage != nil {
				cp := *res
				cp.Selection = s
				cfg.OnStage(&cp)
			}
		}
		var sel *Selection
		var err error
		recorded := false // the prior holds the finished selection's incumbent
		if cfg.Resume != nil && cfg.Resume.Finished() {
			// A merged final stage decided it, or the search was stopped
			// in its confirmation: nothing left to play. Stopped in the
			// confirmation, the document already records the selection
			// (its stage, and its incumbent after the stage's own).
			if err := cfg.Resume.Check(len(finalists)); err != nil {
				return res, err
			}
			sel = cfg.Resume.Result(names, sideName)
			if p := cfg.Prior; p != nil {
				recorded = slices.ContainsFunc(p.Stages, func(st SearchStage) bool { return st.Name == "selection" })
			}
		} else {
			sel, err = Select(ctx, sub, names, side, sideName, sc)
		}
		res.Selection = sel
		if err != nil {
			return res, err
		}
		if !recorded {
			incumbent(sel)
		}
		cfg.lower(confirmN)
		res.Outcome = sel.Outcome
		res.Best, res.Separated = finalists[sel.Reference], sel.Selected >= 0
		for i, k := range finalists {
			c := sel.Candidates[i]
			played[k], wins[k] = c.Encounters, c.Wins
			switch c.Status {
			case StatusSelected:
				status[k] = "best"
			case StatusNotSeparated:
				status[k] = "not separated"
				if sel.Outcome == OutcomeWithinDelta {
					status[k] = StatusAtMostDelta
				}
			default:
				status[k] = "eliminated"
			}
		}
		res.Stages = append(res.Stages, SearchStage{Name: "selection", Start: 0, Candidates: len(finalists), Encounters: sel.Encounters})
		res.Encounters += sel.Encounters
		if res.Separated {
			res.UniformDiscordance = maxDiscordance(sel.State, sel.Reference)
			res.UniformPer = FixedSampleSize(len(points), res.UniformDiscordance, cfg.Alpha, cfg.Delta)
			res.Uniform = int64(len(points)) * res.UniformPer
		}
	}
	if res.Separated {
		status[res.Best] = "best"
	}

	// Confirmation: the best (or the leader), then the top finalists by
	// the selection's win rate (those not separated first), then the
	// baseline, on fresh encounters.
	rate := func(k int) float64 {
		if played[k] == 0 {
			return 0
		}
		return float64(wins[k]) / float64(played[k])
	}
	order := append([]int(nil), finalists...)
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := order[a], order[b]
		if (ka == res.Best) != (kb == res.Best) {
			return ka == res.Best
		}
		if statusOrder(status[ka]) != statusOrder(status[kb]) {
			return statusOrder(status[ka]) < statusOrder(status[kb])
		}
		return rate(ka) > rate(kb)
	})
	conf := order[:min(len(order), cfg.Top+1)]
	if err := cfg.build(ctx, games, conf); err != nil {
		return res, err
	}
	cg := make([]sim.Game, 0, len(conf)+1)
	for _, k := range conf {
		cg = append(cg, games[k])
	}
	cg = append(cg, base)
	res.ConfirmStart, res.ConfirmN = ConfirmBase, cfg.Confirm
	res.Confirmed = append(append([]int(nil), conf...), -1)
	cfg.lower(cfg.confirmWork(len(finalists)))
	crn, err := RunCRN(ctx, cg, sim.RunConfig{Seed: cfg.Seed, Start: ConfirmBase, N: cfg.Confirm, Workers: cfg.Workers, Done: cfg.Done, DonePer: int64(len(cg))})
	if err != nil {
		return res, err
	}
	n := int64(len(cg)) * cfg.Confirm
	res.Stages = append(res.Stages, SearchStage{Name: "confirmation", Start: ConfirmBase, Candidates: len(cg), Encounters: n})
	res.Encounters += n
	j := crn.Wins[side]
	nb := len(cg) - 1
	// Simultaneous at 1−Alpha: the confirmed rates and the baseline's
	// (len(cg) Wilson intervals), the differences to the best
	// (len(conf)−1) and to the baseline (len(conf)), Bonferroni.
	comps := float64(len(cg) + 2*len(conf) - 1)
	a := cfg.Alpha / comps
	rateCI := func(i int) (float64, [2]float64) {
		p := j.Paired(i, i)
		w := stats.Wilson(p.SumA, p.N, 1-a)
		return float64(p.SumA) / float64(p.N), [2]float64{w.Lo, w.Hi}
	}
	diff := func(x, y int) (float64, [2]float64) {
		p := j.Paired(x, y)
		// With 0/1 outcomes SumD = n10 − n01 and SumD2 = n10 + n01.
		sp := stats.SeqPair{N: p.N, AOnly: (p.SumD2 + p.SumD) / 2, BOnly: (p.SumD2 - p.SumD) / 2}
		cs := sp.CS(a / 2) // a/2 on each side: level 1−a
		return sp.Diff(), [2]float64{cs.Lo, cs.Hi}
	}
	res.BaseRate, res.BaseCI = rateCI(nb)
	confIdx := map[int]int{}
	for i, k := range conf {
		confIdx[k] = i
	}
	for k := range points {
		r := Ranked{Point: k, Name: points[k].Name, Settings: sp.Values(points[k]), Status: status[k], Encounters: played[k], Wins: wins[k], WinRate: rate(k)}
		if r.Status == "" {
			if played[k] == 0 {
				continue // never played: in the space count only
			}
			r.Status = "screened out"
		}
		if i, ok := confIdx[k]; ok {
			r.Confirmed = true
			r.ConfirmRate, r.ConfirmCI = rateCI(i)
			if k != res.Best {
				r.Diff, r.DiffCI = diff(i, 0)
			}
			g, gci := diff(i, nb)
			r.Gain, r.GainCI = g, gci
			if gci[0] > cfg.Delta {
				res.Exploits = append(res.Exploits, Exploit{Point: k, Name: points[k].Name, WinRate: r.ConfirmRate, Gain: g, GainCI: gci})
			}
		}
		res.Ranked = append(res.Ranked, r)
	}
	sort.SliceStable(res.Ranked, func(x, y int) bool {
		rx, ry := res.Ranked[x], res.Ranked[y]
		if (rx.Point == res.Best) != (ry.Point == res.Best) {
			return rx.Point == res.Best
		}
		if statusOrder(rx.Status) != statusOrder(ry.Status) {
			return statusOrder(rx.Status) < statusOrder(ry.Status)
		}
		if rx.Confirmed != ry.Confirmed {
			return rx.Confirmed
		}
		if rx.Confirmed {
			return rx.ConfirmRate > ry.ConfirmRate
		}
		return rx.WinRate > ry.WinRate
	})
	sort.SliceStable(res.Exploits, func(x, y int) bool { return res.Exploits[x].Gain > res.Exploits[y].Gain })
	return res, nil
}

// FixedSampleSize is the encounters per candidate a fixed-sample paired
// design needs to select, among k candidates, one within delta of the
// best with probability at least 1−alpha, when every pair disagrees on a
// share q of the encounters at most: all candidates play the same n
// encounters, the highest win rate is selected, and it is wrong only if
// some candidate c more than delta worse than a best b beats b on them.
// Each of those k−1 events has probability at most
// Φ(−δ√n/σ), σ² = q − δ² the variance of one encounter's difference at a
// gap of exactly δ (the least favourable one), so Bonferroni gives
// n = ⌈(z·σ/δ)²⌉ with z = Φ⁻¹(1 − alpha/(k−1)) (normal approximation).
// 1 when k < 2 or q <= δ².
func FixedSampleSize(k int, q, alpha, delta float64) int64 {
	if k < 2 || q <= delta*delta {
		return 1
	}
	z := stats.Z(1 - 2*alpha/float64(k-1)) // one-sided at alpha/(k-1)
	return int64(math.Ceil(z * z * (q - delta*delta) / (delta * delta)))
}

// maxDiscordance is the largest share of their common encounters on
// which the reference candidate of a selection (the selected one, or the
// leader) and another disagreed (one won, the other did not): the
// candidate taken for the best against each rival, the pairs a
// fixed-sample design's guarantee rests on.
func maxDiscordance(st *SelectState, ref int) float64 {
	var q float64
	for a := 0; a < st.K; a++ {
		if p := st.Pair(a, ref); a != ref && p.N > 0 {
			q = math.Max(q, float64(p.AOnly+p.BOnly)/float64(p.N))
		}
	}
	return q
}

// OptimizeBound is an upper bound of the encounters (every game counted)
// Optimize with cfg will play from here: screening's rungs left (exact:
// the rung sizes and the halving are fixed), the selection's (every
// finalist playing its whole share) and the confirmation's. Before
// screening ends the finalists are not known, and every candidate of the
// space bounds them.
func OptimizeBound(sp *Space, points []Point, cfg OptimizeConfig) int64 {
	cfg.defaults()
	k := len(points)
	switch {
	case cfg.Finalists != nil:
		f := len(cfg.Finalists)
		if f < 2 {
			return cfg.confirmWork(f)
		}
		if r := cfg.Resume; r != nil {
			return selectLeft(r) + cfg.confirmWork(f)
		}
		return int64(f)*cfg.SelectParams(f).Budget + cfg.confirmWork(f)
	case k < 2:
		return cfg.confirmWork(k)
	case cfg.Screen != nil || cfg.Screens(k):
		st := cfg.Screen
		if st == nil {
			st = NewScreenState(sp, points, cfg)
		}
		return st.left() + cfg.selectWorkBound(k) + cfg.confirmWork(k)
	}
	return int64(k)*cfg.SelectParams(k).Budget + cfg.confirmWork(k)
}

// confirmWork is the confirmation's encounters with f finalists: the
// best and up to Top others, and the baseline.
func (c *OptimizeConfig) confirmWork(f int) int64 {
	return int64(min(f, c.Top+1)+1) * c.Confirm
}

// selectWorkBound bounds the selection's encounters among at most k
// finalists: f·min(Cap, max(Budget/f, First)) <= min(k·Cap, max(Budget, k·First)).
func (c *OptimizeConfig) selectWorkBound(k int) int64 {
	return min(int64(k)*c.Cap, max(c.Budget, int64(k)*c.First))
}

// selectLeft bounds the encounters a selection in state st has left to
// play: every survivor playing to the budget.
func selectLeft(st *SelectState) int64 {
	if st == nil || st.Finished() {
		return 0
	}
	return int64(len(st.Alive)) * (st.Params.Budget - st.Start)
}

// lower sets Total to what Done reads plus left, if that is lower (or
// Total is unset).
func (c *OptimizeConfig) lower(left int64) {
	if c.Total == nil {
		return
	}
	var done int64
	if c.Done != nil {
		done = c.Done.Load()
	}
	t := done + left
	for {
		old := c.Total.Load()
		if old > 0 && old <= t {
			return
		}
		if c.Total.CompareAndSwap(old, t) {
			return
		}
	}
}

// left is the encounters (every candidate counted) of the rungs left.
func (st *ScreenState) left() int64 {
	s := *st
	s.Alive = append([]int(nil), st.Alive...)
	var n int64
	for !s.Finished() {
		_, r, alive := s.NextRung()
		n += int64(len(alive)) * r
		s.Alive = s.Alive[:(len(alive)+1)/2]
		s.Size *= 2
	}
	return n
}

func statusOrder(s string) int {
	switch s {
	case "best":
		return 0
	case StatusAtMostDelta, "within delta", "not separated":
		return 1
	case "eliminated":
		return 2
	}
	return 3
}

// ScreenState is screening between two rungs: what a checkpoint, an
// interrupted search or a shard of the next rung goes on from. Every
// candidate of a rung plays the same encounters, so a rung's StageSums
// (PlayRung, over the whole space's games) split into shards merge
// exactly, and ApplyRung gives what one process would.
type ScreenState struct {
	Stride int     `json:"stride"` // the coarse grid's stride along numeric dimensions
	Budget int64   `json:"budget"` // the search's budget, which bounds the rungs
	Alive  []int   `json:"alive"`  // the next rung's candidates (increasing indices of the space)
	Wins   []int64 `json:"wins"`   // their wins in screening so far (as in Alive)
	Played int64   `json:"played"` // the encounters each of them played in screening so far
	Start  int64   `json:"start"`  // the next rung's first encounter index
	Size   int64   `json:"size"`   // the next rung's size before the budget's bound
}

// Finished reports whether screening has halved down to its survivors (8
// or fewer): refinement (FinishScreen) and the selection come next.
func (st *ScreenState) Finished() bool { return len(st.Alive) <= 8 }

// NextRung is the next rung: its first encounter, its size (the last
// rungs' share of the budget bounds it) and its candidates.
func (st *ScreenState) NextRung() (start, n int64, alive []int) {
	n = st.Size
	if int64(len(st.Alive))*n > st.Budget/4 {
		n = max(st.Budget/4/int64(len(st.Alive)), 100)
	}
	return st.Start, n, append([]int(nil), st.Alive...)
}

// Clone is a deep copy.
func (st *ScreenState) Clone() *ScreenState {
	c := *st
	c.Alive = append([]int(nil), st.Alive...)
	c.Wins = append([]int64(nil), st.Wins...)
	return &c
}

// Check reports a state that cannot be of a space of k candidates.
func (st *ScreenState) Check(k int) error {
	if st.Stride < 1 || st.Budget < 1 || st.Size < 1 || st.Start < ScreenBase || st.Start >= ConfirmBase || st.Played < 0 || len(st.Wins) != len(st.Alive) || len(st.Alive) == 0 {
		return msg.Errorf("the screening state to resume from is damaged")
	}
	for i, a := range st.Alive {
		if a < 0 || a >= k || (i > 0 && a <= st.Alive[i-1]) || st.Wins[i] < 0 || st.Wins[i] > st.Played {
			return msg.Errorf("the screening state to resume from is damaged (candidate %d of a space of %d)", a, k)
		}
	}
	return nil
}

// RungBatch bounds the candidates a screening rung builds at once: a
// rung ranks by each candidate's wins alone, so it plays its candidates
// in batches, each built, played over the rung's encounters and released
// before the next (the sums are the same: encounter i of every candidate
// draws from the stream (seed, i) whatever plays beside it). 40,320
// orders of an 8-rule block are one first rung.
const RungBatch = 1024

// PlayRungBuilt is PlayRung with the games built by build (an
// OptimizeConfig.Build; nil: games are all built), RungBatch candidates
// at a time.
func PlayRungBuilt(ctx context.Context, games []sim.Game, side int, alive []int, build func(context.Context, []sim.Game, []int) error, rc sim.RunConfig) (*StageSums, error) {
	if build == nil {
		return PlayRung(ctx, games, side, alive, rc)
	}
	if len(alive) <= RungBatch {
		if err := build(ctx, games, alive); err != nil {
			return nil, err
		}
		return PlayRung(ctx, games, side, alive, rc)
	}
	out := &StageSums{Alive: append([]int(nil), alive...), Wins: make([]int64, len(alive))}
	if rc.N > 0 {
		out.Ranges = []sim.Range{{Lo: rc.Start, Hi: rc.Start + rc.N}}
	}
	for lo := 0; lo < len(alive); lo += RungBatch {
		part := alive[lo:min(lo+RungBatch, len(alive))]
		if err := build(ctx, games, part); err != nil {
			return nil, err
		}
		rc.DonePer = int64(len(part))
		s, err := PlayRung(ctx, games, side, part, rc)
		if err != nil {
			return nil, err
		}
		copy(out.Wins[lo:], s.Wins)
	}
	return out, nil
}

// build is Build, if set.
func (cfg *OptimizeConfig) build(ctx context.Context, games []sim.Game, ks []int) error {
	if cfg.Build == nil {
		return nil
	}
	return cfg.Build(ctx, games, ks)
}

// NewScreenState starts screening: the coarse subset of the space (every
// Coarse-th value of each numeric dimension but a trait's on/off, the
// stride doubled until at most 256 remain, or every candidate if a constraint excludes every
// coarse one) as the first rung's candidates.
func NewScreenState(sp *Space, cands []Point, cfg OptimizeConfig) *ScreenState {
	cfg.defaults()
	stride := cfg.Coarse
	var coarse []int
	for {
		coarse = coarse[:0]
		for k, c := range cands {
			on := true
			for i, d := range sp.Dims {
				if d.Nums != nil && !d.Switch && c.Index[i]%stride != 0 {
					on = false
				}
			}
			if on {
				coarse = append(coarse, k)
			}
		}
		if len(coarse) <= 256 || stride > 64 {
			break
		}
		stride *= 2
	}
	if len(coarse) == 0 {
		for k := range cands {
			coarse = append(coarse, k)
		}
	}
	return &ScreenState{Stride: stride, Budget: cfg.Budget, Alive: coarse, Wins: make([]int64, len(coarse)), Start: ScreenBase, Size: cfg.First}
}

// ApplyRung applies a whole rung (the merged StageSums of NextRung's
// encounters for its candidates) to the state, halving it, and records
// the rung in res: its stage, encounters, incumbent and the candidates it
// screened out (played, wins).
func (st *ScreenState) ApplyRung(s *StageSums, res *OptimizeResult) error {
	if st.Finished() {
		return msg.Errorf("screening has finished: there is no next rung to apply")
	}
	start, n, alive := st.NextRung()
	if fmt.Sprint(s.Alive) != fmt.Sprint(alive) || len(s.Wins) != len(alive) {
		return msg.Errorf("rung sums of candidates %v, but the rung's are %v", s.Alive, alive)
	}
	if len(s.Ranges) != 1 || s.Ranges[0] != (sim.Range{Lo: start, Hi: start + n}) {
		return msg.Errorf("rung sums cover encounters %v, but the next rung is encounters %d..%d (merge every part of it first)", s.Ranges, start, start+n-1)
	}
	for _, w := range s.Wins {
		if w < 0 || w > n {
			return msg.Errorf("rung sums damaged: %d wins in %d encounters", w, n)
		}
	}
	played := st.Played + n
	type kv struct {
		i int
		w int64
	}
	sc := make([]kv, len(alive))
	for i := range alive {
		sc[i] = kv{i, st.Wins[i] + s.Wins[i]}
	}
	// Everyone in a rung played the same encounters in every rung so
	// far, so total wins rank them; ties keep the enumeration order.
	sort.SliceStable(sc, func(a, b int) bool { return sc[a].w > sc[b].w })
	keep := (len(alive) + 1) / 2
	var next []kv
	for r, x := range sc {
		if r < keep {
			next = append(next, x)
		} else {
			res.ScreenedOut = append(res.ScreenedOut, [3]int64{int64(alive[x.i]), played, x.w})
		}
	}
	sort.Slice(next, func(a, b int) bool { return next[a].i < next[b].i })
	res.Stages = append(res.Stages, SearchStage{Name: fmt.Sprintf("screening rung %d", len(res.Stages)+1), Start: start, Candidates: len(alive), Encounters: int64(len(alive)) * n})
	res.Encounters += int64(len(alive)) * n
	res.Incumbent = append(res.Incumbent, IncumbentPoint{Encounters: res.Encounters, Point: alive[sc[0].i], WinRate: float64(sc[0].w) / float64(played), Stage: "screening"})
	st.Alive, st.Wins = st.Alive[:0:0], st.Wins[:0:0]
	for _, x := range next {
		st.Alive = append(st.Alive, alive[x.i])
		st.Wins = append(st.Wins, x.w)
	}
	st.Played, st.Start, st.Size = played, start+n, st.Size*2
	return nil
}

// FinishScreen is refinement after the last rung: the survivors and their
// neighbours at full resolution (a neighbour may lie between coarse
// points), sorted: the finalists. It also sorts res.ScreenedOut by
// candidate.
func FinishScreen(sp *Space, cands []Point, st *ScreenState, res *OptimizeResult) []int {
	fin := map[int]bool{}
	for _, k := range st.Alive {
		fin[k] = true
		for step := st.Stride; step >= 1; step /= 2 {
			for _, nb := range neighboursWithin(sp, cands, k, step) {
				fin[nb] = true
			}
		}
	}
	out := make([]int, 0, len(fin))
	for k := range fin {
		out = append(out, k)
	}
	sort.Ints(out)
	sort.Slice(res.ScreenedOut, func(a, b int) bool { return res.ScreenedOut[a][0] < res.ScreenedOut[b][0] })
	return out
}

// screen runs successive halving over the coarse subset (from cfg.Screen
// when resumed) and local refinement; it returns the finalists (sorted).
// An interrupted rung leaves res.Screening at the state before it.
func screen(ctx context.Context, sp *Space, cands []Point, games []sim.Game, side int, cfg *OptimizeConfig, res *OptimizeResult) ([]int, error) {
	st := cfg.Screen
	if st == nil {
		st = NewScreenState(sp, cands, *cfg)
		res.Screened = len(st.Alive)
	} else {
		st = st.Clone()
	}
	for !st.Finished() {
		start, n, alive := st.NextRung()
		sums, err := PlayRungBuilt(ctx, games, side, alive, cfg.Build, sim.RunConfig{Seed: cfg.Seed, Start: start, N: n, Workers: cfg.Workers, Done: cfg.Done, DonePer: int64(len(alive))})
		if err != nil {
			res.Screening = st
			return nil, err
		}
		if err := st.ApplyRung(sums, res); err != nil {
			return nil, err
		}
		cfg.lower(st.left() + cfg.selectWorkBound(len(cands)) + cfg.confirmWork(len(cands)))
		if cfg.OnStage != nil && !st.Finished() {
			cp := *res
			cp.Screening = st.Clone()
			cfg.OnStage(&cp)
		}
	}
	return FinishScreen(sp, cands, st, res), nil
}

// neighboursWithin lists the candidates that differ from cands[c] by
// exactly step positions along one numeric dimension.
func neighboursWithin(sp *Space, cands []Point, c, step int) []int {
	var out []int
	for j, d := range cands {
		if j == c || d.Alt != cands[c].Alt || !equalInts(d.Rules, cands[c].Rules) {
			continue
		}
		diff, ok := 0, true
		for i := range sp.Dims {
			if delta := d.Index[i] - cands[c].Index[i]; delta != 0 {
				if sp.Dims[i].Nums == nil || (delta != step && delta != -step) {
					ok = false
					break
				}
				diff++
			}
		}
		if ok && diff == 1 {
			out = append(out, j)
		}
	}
	return out
}
