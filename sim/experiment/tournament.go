package experiment

import (
	"context"
	"errors"
	"sort"
	"sync/atomic"

	"simctl/sim"
	"simctl/stats"
)

// TournamentConfig sets a tournament's rounds: the first round plays First
// encounters of every candidate, each later round Growth times as many new
// ones for the survivors, until one is left or every survivor has played
// Budget encounters.
type TournamentConfig struct {
	Seed    uint64
	Workers int
	First   int64         // encounters in round 1 (default 2,000)
	Growth  float64       // round-size factor (default 2)
	Budget  int64         // encounters per candidate at most (default 200,000)
	Done    *atomic.Int64 // advanced as encounter indices finish (a progress bar)
	// Resume, if non-nil, is an unfinished tournament (State set) of the
	// same games and configuration: its finished rounds are kept and the
	// tournament goes on from the next one, exactly as if never stopped.
	Resume *TournamentResult
	// OnRound, if non-nil, is called after every finished round but the
	// last with the standings so far and the State to resume from (a
	// checkpoint), from the calling goroutine.
	OnRound func(*TournamentResult)
}

// TournamentState is where an unfinished tournament stands after its last
// finished round: all a resumed tournament needs to make exactly the
// decisions an uninterrupted one makes. Its figures are exact integer sums.
type TournamentState struct {
	Start  int64   `json:"next_encounter"`        // first encounter index of the next round
	Next   int64   `json:"next_round_encounters"` // encounters of the next round
	Played []int64 `json:"played"`                // per candidate, encounters played
	Out    []int   `json:"out"`                   // per candidate, the round after which it was dropped (0: alive)
	Alive  []int   `json:"alive"`                 // the survivors, in candidate order
	// Pairs holds, for candidates a <= b of which at least one is alive
	// (the only pairs a later round or the final ranking reads), the
	// paired sums of a's and b's wins on the encounters both played:
	// [a, b, N, SumA, SumB, SumD, SumD2, SumA2, SumB2].
	Pairs [][9]int64 `json:"pairs"`
}

// Standing is one candidate's standing after a tournament (sim.Entrant is
// a combatant of the roster, a different thing).
type Standing struct {
	Name       string  `json:"name"`
	Encounters int64   `json:"encounters"`
	Wins       int64   `json:"wins"`
	WinRate    float64 `json:"win_rate"`
	// Out is the round after which it was eliminated, 0 for a survivor.
	Out int `json:"eliminated_after_round,omitempty"`
	// Diff is its win rate minus the best's on the encounters both played,
	// with the paired 95% interval (0 for the best itself).
	Diff   float64    `json:"diff_to_best"`
	DiffCI [2]float64 `json:"diff_ci95"`
}

// Entrant is Standing's former name, kept so code written against it still
// compiles.
//
// Deprecated: use Standing.
type Entrant = Standing

// Round records one round: how many new encounters each survivor played
// and how many candidates were left after it.
type Round struct {
	Encounters int64 `json:"encounters"`
	Survivors  int   `json:"survivors"`
}

// TournamentResult ranks the candidates: survivors first by win rate, then
// the eliminated, the later out the higher, by win rate within a round.
type TournamentResult struct {
	Side     string     `json:"side"`
	Entrants []Standing `json:"entrants"`
	Rounds   []Round    `json:"rounds"`
	// State is set on a tournament that did not finish (interrupted, or a
	// checkpoint): simctl tournament --resume goes on from it.
	State *TournamentState `json:"state,omitempty"`
}

// Tournament ranks candidate games for one side by successive elimination
// on common random numbers. Every round, every survivor plays the same new
// encounter indices; after it, each survivor whose paired difference to
// the current leader (on all the encounters both have played) is below 0
// with confidence 95%, Bonferroni-adjusted over the comparisons of that
// round, is eliminated. Cheap early rounds drop the clearly worse; the
// close ones get the encounters. An interrupted tournament returns the
// standings so far with ctx's error.
func Tournament(ctx context.Context, games []sim.Game, names []string, side int, sideName string, cfg TournamentConfig) (*TournamentResult, error) {
	if len(games) != len(names) {
		panic("experiment: Tournament needs one name per game")
	}
	if len(games) < 2 {
		return nil, errors.New("a tournament needs at least two candidates")
	}
	if cfg.First <= 0 {
		cfg.First = 2000
	}
	if cfg.Growth < 1 {
		cfg.Growth = 2
	}
	if cfg.Budget <= 0 {
		cfg.Budget = 200_000
	}
	K := len(games)
	pair := make([][]stats.Paired, K) // pair[a][b]: a's wins against b's on the same encounters
	for a := range pair {
		pair[a] = make([]stats.Paired, K)
	}
	out := make([]int, K)
	played := make([]int64, K)
	alive := make([]int, K)
	for k := range alive {
		alive[k] = k
	}
	res := &TournamentResult{Side: sideName}
	var start int64
	n := min(cfg.First, cfg.Budget)
	if cfg.Resume != nil {
		st := cfg.Resume.State
		if st == nil {
			return nil, errors.New("the tournament to resume from has finished (it records no state to go on from)")
		}
		if err := st.check(K); err != nil {
			return nil, err
		}
		copy(played, st.Played)
		copy(out, st.Out)
		alive = append(alive[:0], st.Alive...)
		for _, q := range st.Pairs {
			p := stats.Paired{N: q[2], SumA: q[3], SumB: q[4], SumD: q[5], SumD2: q[6], SumA2: q[7], SumB2: q[8]}
			pair[q[0]][q[1]] = p
			pair[q[1]][q[0]] = stats.Paired{N: p.N, SumA: p.SumB, SumB: p.SumA, SumD: -p.SumD, SumD2: p.SumD2, SumA2: p.SumB2, SumB2: p.SumA2}
		}
		start, n = st.Start, st.Next
		res.Rounds = append(res.Rounds, cfg.Resume.Rounds...)
	}
	var runErr error
	for round := len(res.Rounds) + 1; len(alive) > 1 && n > 0; round++ {
		sub := make([]sim.Game, len(alive))
		for i, k := range alive {
			sub[i] = games[k]
		}
		rc := sim.RunConfig{Seed: cfg.Seed, Start: start, N: n, Workers: cfg.Workers, Done: cfg.Done}
		crn, err := RunCRN(ctx, sub, rc)
		if err != nil {
			// The partial round is dropped: survivors must share their
			// encounters for the pairs to stay paired.
			runErr = err
			break
		}
		j := crn.Wins[side]
		for i, a := range alive {
			played[a] += n
			for l, b := range alive {
				p := j.Paired(i, l)
				pair[a][b].Merge(p)
			}
		}
		start += n
		lead := alive[0]
		for _, k := range alive {
			if pair[k][k].SumA > pair[lead][lead].SumA {
				lead = k
			}
		}
		conf := 1 - 0.05/float64(len(alive)-1)
		var next []int
		for _, k := range alive {
			if k != lead && pair[lead][k].DiffCI(conf).Lo > 0 {
				out[k] = round
				continue
			}
			next = append(next, k)
		}
		alive = next
		res.Rounds = append(res.Rounds, Round{Encounters: n, Survivors: len(alive)})
		n = min(int64(float64(n)*cfg.Growth), cfg.Budget-start)
		if cfg.OnRound != nil && len(alive) > 1 && n > 0 {
			cp := *res
			cp.Rounds = append([]Round(nil), res.Rounds...)
			cp.Entrants = standings(names, pair, played, out, alive, len(res.Rounds))
			cp.State = state(pair, played, out, alive, start, n)
			cfg.OnRound(&cp)
		}
	}
	if len(res.Rounds) == 0 && runErr != nil {
		// Nothing finished: no standings to give, but a state to resume.
		res.State = state(pair, played, out, alive, start, n)
		return res, runErr
	}
	res.Entrants = standings(names, pair, played, out, alive, len(res.Rounds))
	if runErr != nil {
		res.State = state(pair, played, out, alive, start, n)
	}
	return res, runErr
}

// state records where a tournament stands before the round that starts at
// encounter start and plays n.
func state(pair [][]stats.Paired, played []int64, out, alive []int, start, n int64) *TournamentState {
	st := &TournamentState{Start: start, Next: n, Played: append([]int64(nil), played...), Out: append([]int(nil), out...), Alive: append([]int(nil), alive...)}
	isAlive := make([]bool, len(played))
	for _, k := range alive {
		isAlive[k] = true
	}
	for a := range pair {
		for b := a; b < len(pair); b++ {
			if p := pair[a][b]; isAlive[a] || isAlive[b] || a == b {
				st.Pairs = append(st.Pairs, [9]int64{int64(a), int64(b), p.N, p.SumA, p.SumB, p.SumD, p.SumD2, p.SumA2, p.SumB2})
			}
		}
	}
	return st
}

// check refuses a state that is not one of a tournament of k candidates.
func (st *TournamentState) check(k int) error {
	bad := errors.New("the tournament state to resume from is damaged (candidates, survivors or pairs out of range)")
	if len(st.Played) != k || len(st.Out) != k || len(st.Alive) < 2 || st.Start < 0 || st.Next < 1 {
		return bad
	}
	prev := -1
	for _, a := range st.Alive {
		if a <= prev || a >= k || st.Out[a] != 0 {
			return bad
		}
		prev = a
	}
	for _, q := range st.Pairs {
		if q[0] < 0 || q[1] < q[0] || q[1] >= int64(k) || q[2] < 0 {
			return bad
		}
	}
	return nil
}

// standings ranks the candidates: survivors first by win rate, then the
// eliminated, the later out the higher, by win rate within a round; each
// with its paired difference to the best survivor.
func standings(names []string, pair [][]stats.Paired, played []int64, out, alive []int, rounds int) []Standing {
	best := alive[0]
	for _, k := range alive {
		if pair[k][k].SumA > pair[best][best].SumA {
			best = k
		}
	}
	var es []Standing
	for k := range names {
		e := Standing{Name: names[k], Encounters: played[k], Wins: pair[k][k].SumA, Out: out[k]}
		if played[k] > 0 {
			e.WinRate = float64(e.Wins) / float64(played[k])
		}
		if k != best {
			p := pair[k][best]
			ci := p.DiffCI(0.95)
			e.Diff, e.DiffCI = p.Diff(), [2]float64{ci.Lo, ci.Hi}
		}
		es = append(es, e)
	}
	sort.SliceStable(es, func(a, b int) bool {
		ea, eb := es[a], es[b]
		ra, rb := ea.Out, eb.Out
		if ra == 0 {
			ra = rounds + 1
		}
		if rb == 0 {
			rb = rounds + 1
		}
		if ra != rb {
			return ra > rb
		}
		return ea.WinRate > eb.WinRate
	})
	return es
}
