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
}

// Entrant is one candidate's standing after a tournament.
type Entrant struct {
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

// Round records one round: how many new encounters each survivor played
// and how many candidates were left after it.
type Round struct {
	Encounters int64 `json:"encounters"`
	Survivors  int   `json:"survivors"`
}

// TournamentResult ranks the candidates: survivors first by win rate, then
// the eliminated, the later out the higher, by win rate within a round.
type TournamentResult struct {
	Side     string    `json:"side"`
	Entrants []Entrant `json:"entrants"`
	Rounds   []Round   `json:"rounds"`
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
	var runErr error
	for round := 1; len(alive) > 1 && n > 0; round++ {
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
	}
	if len(res.Rounds) == 0 && runErr != nil {
		return res, runErr
	}
	best := alive[0]
	for _, k := range alive {
		if pair[k][k].SumA > pair[best][best].SumA {
			best = k
		}
	}
	for k := 0; k < K; k++ {
		e := Entrant{Name: names[k], Encounters: played[k], Wins: pair[k][k].SumA, Out: out[k]}
		if played[k] > 0 {
			e.WinRate = float64(e.Wins) / float64(played[k])
		}
		if k != best {
			p := pair[k][best]
			ci := p.DiffCI(0.95)
			e.Diff, e.DiffCI = p.Diff(), [2]float64{ci.Lo, ci.Hi}
		}
		res.Entrants = append(res.Entrants, e)
	}
	sort.SliceStable(res.Entrants, func(a, b int) bool {
		ea, eb := res.Entrants[a], res.Entrants[b]
		ra, rb := ea.Out, eb.Out
		if ra == 0 {
			ra = len(res.Rounds) + 1
		}
		if rb == 0 {
			rb = len(res.Rounds) + 1
		}
		if ra != rb {
			return ra > rb
		}
		return ea.WinRate > eb.WinRate
	})
	return res, runErr
}
