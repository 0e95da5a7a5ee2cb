package experiment

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"simctl/stats"
)

// MatrixResult is a tactic matrix: every option of the row side against
// every option of the column side, all R·C games played on common random
// numbers (game r*C+c is row option r against column option c). The payoff
// is the row side's win rate: the row side maximises it and the column side
// minimises it, a zero-sum reading (for the column side a draw is as good
// as a win).
type MatrixResult struct {
	RowSide    string         `json:"row_side"`
	ColSide    string         `json:"col_side"`
	Rows       []string       `json:"rows"`
	Cols       []string       `json:"cols"`
	Encounters int64          `json:"encounters"`
	Win        [][]float64    `json:"win"`  // Win[r][c]: the row side's win rate
	CI95       [][][2]float64 `json:"ci95"` // Wilson 95% interval of each cell
	Dominated  []Domination   `json:"dominated,omitempty"`
	Eq         Equilibrium    `json:"equilibrium"`
	Notes      []string       `json:"notes,omitempty"`
	Joint      stats.Joint    `json:"joint"` // the row side's win indicators in every game
}

// Domination says that option Option of side Side is dominated by option
// By: against every opposing option it does no better, and against at
// least one it does significantly worse (the paired difference's
// interval, Bonferroni-adjusted over the opposing options, excludes 0);
// where it does no better it is exactly equal on every encounter (on
// common random numbers an option that does not matter against an
// opponent plays the same fights).
type Domination struct {
	Side   string `json:"side"`
	Option string `json:"option"`
	By     string `json:"by"`
}

// Equilibrium is the zero-sum game's solution by linear programming: the
// optimal mixed strategies and the game's value (the row side's win rate
// when both play them).
type Equilibrium struct {
	RowWeights []float64 `json:"row_weights"`
	ColWeights []float64 `json:"col_weights"`
	Value      float64   `json:"value"`
	// ValueCI bounds the value with at least 95% confidence: the value of
	// the games whose payoffs are every cell's lower and upper Wilson bound
	// at the Bonferroni level 0.05/(R·C), which hold simultaneously with at
	// least 95% probability; the value is non-decreasing in every payoff.
	ValueCI [2]float64 `json:"value_ci95"`
	// Stable is true when the options played with positive weight are the
	// same at both bounds and at the estimate. When false, which options
	// belong in the mix is not settled by this many encounters.
	Stable bool `json:"stable"`
}

// Matrix analyses the row side's joint win indicators over the R·C games.
func Matrix(j stats.Joint, rowSide, colSide string, rows, cols []string) (*MatrixResult, error) {
	R, C := len(rows), len(cols)
	if j.K != R*C {
		panic(fmt.Sprintf("experiment: Matrix with %d games for %dx%d options", j.K, R, C))
	}
	m := &MatrixResult{RowSide: rowSide, ColSide: colSide, Rows: rows, Cols: cols, Encounters: j.N, Joint: j}
	if j.N == 0 {
		return m, errors.New("no encounters were played")
	}
	lo, hi := make([][]float64, R), make([][]float64, R)
	bonf := 1 - 0.05/float64(R*C)
	for r := 0; r < R; r++ {
		m.Win = append(m.Win, make([]float64, C))
		m.CI95 = append(m.CI95, make([][2]float64, C))
		lo[r], hi[r] = make([]float64, C), make([]float64, C)
		for c := 0; c < C; c++ {
			k := j.Sum[r*C+c]
			m.Win[r][c] = float64(k) / float64(j.N)
			ci := stats.Wilson95(k, j.N)
			m.CI95[r][c] = [2]float64{ci.Lo, ci.Hi}
			b := stats.Wilson(k, j.N, bonf)
			lo[r][c], hi[r][c] = b.Lo, b.Hi
		}
	}
	// Each dominated option is listed once, with the first option that
	// dominates it. Rows: higher is better for the row side; columns: lower.
	for b := 0; b < R; b++ {
		for a := 0; a < R; a++ {
			if a != b && dominates(j, C, func(c int) (int, int) { return a*C + c, b*C + c }) {
				m.Dominated = append(m.Dominated, Domination{Side: rowSide, Option: rows[b], By: rows[a]})
				break
			}
		}
	}
	for b := 0; b < C; b++ {
		for a := 0; a < C; a++ {
			// a dominates b for the column side when the row side wins
			// less against a: compare the row side's wins under b against a.
			if a != b && dominates(j, R, func(r int) (int, int) { return r*C + b, r*C + a }) {
				m.Dominated = append(m.Dominated, Domination{Side: colSide, Option: cols[b], By: cols[a]})
				break
			}
		}
	}
	var err error
	m.Eq, err = solveZeroSum(m.Win)
	if err != nil {
		return m, err
	}
	eqLo, err1 := solveZeroSum(lo)
	eqHi, err2 := solveZeroSum(hi)
	if err1 != nil || err2 != nil {
		return m, errors.Join(err1, err2)
	}
	m.Eq.ValueCI = [2]float64{eqLo.Value, eqHi.Value}
	m.Eq.Stable = sameSupport(m.Eq, eqLo) && sameSupport(m.Eq, eqHi)
	m.Notes = append(m.Notes, fmt.Sprintf("the game's value (the row side's win rate under optimal play by both) lies in [%.2f%%, %.2f%%] with at least 95%% confidence",
		100*m.Eq.ValueCI[0], 100*m.Eq.ValueCI[1]))
	if !m.Eq.Stable {
		m.Notes = append(m.Notes, "which options belong in the optimal mix changes within the cells' intervals: the weights are estimates, not settled; more encounters (-n) would settle them")
	}
	return m, nil
}

// dominates reports whether option a dominates option b over n opposing
// options: cell(i) gives the game indices (a's, b's) against opposing
// option i, in the orientation where a larger win indicator is better for
// a's side.
func dominates(j stats.Joint, n int, cell func(i int) (ga, gb int)) bool {
	conf := 1 - 0.05/float64(n)
	strict := false
	for i := 0; i < n; i++ {
		ga, gb := cell(i)
		p := j.Paired(ga, gb)
		if p.SumD2 == 0 {
			continue // identical on every encounter
		}
		if p.DiffCI(conf).Lo <= 0 {
			return false
		}
		strict = true
	}
	return strict
}

func sameSupport(a, b Equilibrium) bool {
	const eps = 1e-9
	for _, w := range [][2][]float64{{a.RowWeights, b.RowWeights}, {a.ColWeights, b.ColWeights}} {
		for i := range w[0] {
			if (w[0][i] > eps) != (w[1][i] > eps) {
				return false
			}
		}
	}
	return true
}

// solveZeroSum solves the zero-sum game with payoff matrix P (row player
// maximises) by the classic reduction to a linear program: with every
// payoff shifted to be positive (P' = P + s), the row player's optimal
// strategy is x = u/Σu where u minimises Σu subject to P'ᵀu >= 1, u >= 0,
// and the value is 1/Σu - s; the column player's is the dual, w
// maximising Σw subject to P'w <= 1, w >= 0. Both are put in standard form
// with slack variables for gonum's Simplex.
func solveZeroSum(P [][]float64) (Equilibrium, error) {
	R, C := len(P), len(P[0])
	shift := 1.0
	for _, row := range P {
		for _, v := range row {
			shift = math.Max(shift, 1-v)
		}
	}
	// Row player: variables u (R) then slacks s (C): P'ᵀu - s = 1.
	A := mat.NewDense(C, R+C, nil)
	for c := 0; c < C; c++ {
		for r := 0; r < R; r++ {
			A.Set(c, r, P[r][c]+shift)
		}
		A.Set(c, R+c, -1)
	}
	cost := make([]float64, R+C)
	for r := 0; r < R; r++ {
		cost[r] = 1
	}
	ones := func(n int) []float64 {
		b := make([]float64, n)
		for i := range b {
			b[i] = 1
		}
		return b
	}
	sumU, u, err := lp.Simplex(cost, A, ones(C), 1e-12, nil)
	if err != nil {
		return Equilibrium{}, fmt.Errorf("experiment: the row player's program: %v", err)
	}
	// Column player: variables w (C) then slacks t (R): P'w + t = 1,
	// minimise -Σw.
	B := mat.NewDense(R, C+R, nil)
	for r := 0; r < R; r++ {
		for c := 0; c < C; c++ {
			B.Set(r, c, P[r][c]+shift)
		}
		B.Set(r, C+r, 1)
	}
	cost2 := make([]float64, C+R)
	for c := 0; c < C; c++ {
		cost2[c] = -1
	}
	negSumW, w, err := lp.Simplex(cost2, B, ones(R), 1e-12, nil)
	if err != nil {
		return Equilibrium{}, fmt.Errorf("experiment: the column player's program: %v", err)
	}
	eq := Equilibrium{RowWeights: make([]float64, R), ColWeights: make([]float64, C), Value: 1/sumU - shift}
	for r := 0; r < R; r++ {
		eq.RowWeights[r] = u[r] / sumU
	}
	for c := 0; c < C; c++ {
		eq.ColWeights[c] = w[c] / -negSumW
	}
	return eq, nil
}
