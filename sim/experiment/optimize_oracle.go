package experiment

import (
	"context"
	"math"

	"simctl/sim/msg"
	"simctl/stats"
)

// Double oracle (`simctl optimize --both`): each side searches its own
// space against an opponent who adapts. The restricted game starts with
// each side's first candidate (the scenario as written); each iteration
// solves it (solveZeroSum, the matrix command's solver), then finds each
// side's best response in its whole space to the other's equilibrium mix
// and adds it, until neither best response beats the equilibrium value by
// more than Delta.
//
// Every cell (row candidate r against column candidate c) is estimated
// once, on the same encounter indices 0..N-1 as every other cell (common
// random numbers), and given the Wilson interval at the Bonferroni level
// Alpha/(R·C) over the whole R·C space: every cell that is ever estimated
// lies within its bounds simultaneously with probability at least 1−Alpha,
// whatever cells the search chooses to estimate. The bounds reported
// (value, exploitability) hold on that event.

// OracleConfig sets a double-oracle search.
type OracleConfig struct {
	N     int64   // encounters per cell
	Alpha float64 // the bounds hold together with probability >= 1-Alpha
	Delta float64 // stop when no best response gains more than Delta
	Iter  int     // iterations at most (default 20)
	// Cells plays the pairs (row, column candidate) on encounters 0..N-1
	// (the same ones for every pair) and returns the row side's wins in each.
	Cells func(ctx context.Context, pairs [][2]int) ([]int64, error)
	// OnIter, if non-nil, sees each iteration's step.
	OnIter func(OracleStep)
}

// OracleStep is one iteration: the restricted game's equilibrium and each
// side's best response to it.
type OracleStep struct {
	Rows, Cols []int   `json:"-"`
	Value      float64 `json:"value"`
	RowBR      int     `json:"row_best_response"`
	RowGain    float64 `json:"row_gain"` // the row BR's payoff minus the value
	ColBR      int     `json:"col_best_response"`
	ColGain    float64 `json:"col_gain"` // the value minus the column BR's payoff
	Cells      int     `json:"cells"`    // cells estimated so far
}

// OracleResult is the double oracle's answer.
type OracleResult struct {
	Rows       []int     `json:"rows"` // the row candidates in the restricted game
	Cols       []int     `json:"cols"`
	RowWeights []float64 `json:"row_weights"` // the equilibrium mix over Rows
	ColWeights []float64 `json:"col_weights"`
	Value      float64   `json:"value"` // the row side's win rate at the equilibrium (estimated cells)
	// ValueBounds bounds the value of the whole game (both full spaces):
	// [min over column candidates of the row mix's lower-bound payoff,
	// max over row candidates of the column mix's upper-bound payoff].
	// The mixes found guarantee these to each side whatever the other
	// plays, so the true value lies between them on the Alpha event.
	ValueBounds [2]float64 `json:"value_bounds"`
	// Exploitability bounds how much a best response in the whole spaces
	// gains against the mixes found: ValueBounds' width, an upper bound on
	// max_r y·P_r − min_c x·P_c.
	Exploitability float64      `json:"exploitability_bound"`
	Converged      bool         `json:"converged"` // stopped because no best response gained more than Delta
	Steps          []OracleStep `json:"steps"`
	Cells          int          `json:"cells"`      // cells estimated
	Encounters     int64        `json:"encounters"` // encounters played in all (cells × N)
}

// DoubleOracle searches the R×C zero-sum game (the row side maximises its
// win rate) by double oracle. Best responses are computed against every
// candidate of the responding side, so each iteration estimates the cells
// of the whole space against the other side's restricted set (each cell
// once: later iterations reuse it).
func DoubleOracle(ctx context.Context, R, C int, cfg OracleConfig) (*OracleResult, error) {
	if R < 1 || C < 1 || cfg.N < 1 || cfg.Cells == nil {
		panic("experiment: DoubleOracle needs both spaces, N and Cells")
	}
	if !(cfg.Alpha > 0 && cfg.Alpha < 1) || cfg.Delta < 0 {
		panic("experiment: DoubleOracle needs 0 < Alpha < 1 and Delta >= 0")
	}
	if cfg.Iter <= 0 {
		cfg.Iter = 20
	}
	conf := 1 - cfg.Alpha/float64(R*C)
	known := map[[2]int]int64{}
	fill := func(pairs [][2]int) error {
		var need [][2]int
		for _, p := range pairs {
			if _, ok := known[p]; !ok {
				need = append(need, p)
			}
		}
		if len(need) == 0 {
			return nil
		}
		wins, err := cfg.Cells(ctx, need)
		if err != nil {
			return err
		}
		if len(wins) != len(need) {
			panic("experiment: DoubleOracle's Cells returned the wrong number of cells")
		}
		for i, p := range need {
			if wins[i] < 0 || wins[i] > cfg.N {
				return msg.Errorf("experiment: cell %v: %d wins of %d encounters", p, wins[i], cfg.N)
			}
			known[p] = wins[i]
		}
		return nil
	}
	mean := func(r, c int) float64 { return float64(known[[2]int{r, c}]) / float64(cfg.N) }
	bound := func(r, c int) stats.Interval { return stats.Wilson(known[[2]int{r, c}], cfg.N, conf) }
	rows, cols := []int{0}, []int{0}
	res := &OracleResult{}
	for it := 0; ; it++ {
		// Cells for the best responses: every row against cols, every
		// column against rows (this includes the restricted game).
		var pairs [][2]int
		for r := 0; r < R; r++ {
			for _, c := range cols {
				pairs = append(pairs, [2]int{r, c})
			}
		}
		for c := 0; c < C; c++ {
			for _, r := range rows {
				pairs = append(pairs, [2]int{r, c})
			}
		}
		if err := fill(pairs); err != nil {
			return nil, err
		}
		P := make([][]float64, len(rows))
		for i, r := range rows {
			P[i] = make([]float64, len(cols))
			for j, c := range cols {
				P[i][j] = mean(r, c)
			}
		}
		eq, err := solveZeroSum(P)
		if err != nil {
			return nil, err
		}
		step := OracleStep{Rows: append([]int(nil), rows...), Cols: append([]int(nil), cols...), Value: eq.Value, RowBR: -1, ColBR: -1, RowGain: math.Inf(-1), ColGain: math.Inf(-1)}
		for r := 0; r < R; r++ {
			v := 0.0
			for j, c := range cols {
				v += eq.ColWeights[j] * mean(r, c)
			}
			// Ties go to the lowest index, so runs are reproducible.
			if g := v - eq.Value; g > step.RowGain+1e-12 {
				step.RowBR, step.RowGain = r, g
			}
		}
		for c := 0; c < C; c++ {
			v := 0.0
			for i, r := range rows {
				v += eq.RowWeights[i] * mean(r, c)
			}
			if g := eq.Value - v; g > step.ColGain+1e-12 {
				step.ColBR, step.ColGain = c, g
			}
		}
		step.Cells = len(known)
		res.Steps = append(res.Steps, step)
		if cfg.OnIter != nil {
			cfg.OnIter(step)
		}
		grew := false
		if step.RowGain > cfg.Delta && !contains(rows, step.RowBR) {
			rows, grew = append(rows, step.RowBR), true
		}
		if step.ColGain > cfg.Delta && !contains(cols, step.ColBR) {
			cols, grew = append(cols, step.ColBR), true
		}
		res.Converged = step.RowGain <= cfg.Delta && step.ColGain <= cfg.Delta
		if !grew || it+1 >= cfg.Iter {
			res.Rows, res.Cols = step.Rows, step.Cols
			res.RowWeights, res.ColWeights, res.Value = eq.RowWeights, eq.ColWeights, eq.Value
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	// The guarantees: the row mix x is worth at least min_c Σ x_r lo(r,c)
	// against any column candidate, the column mix y concedes at most
	// max_r Σ y_c hi(r,c) to any row candidate. Every cell these read was
	// estimated (rows×all columns and all rows×cols, above).
	lo, hi := math.Inf(1), math.Inf(-1)
	for c := 0; c < C; c++ {
		v := 0.0
		for i, r := range res.Rows {
			v += res.RowWeights[i] * bound(r, c).Lo
		}
		lo = math.Min(lo, v)
	}
	for r := 0; r < R; r++ {
		v := 0.0
		for j, c := range res.Cols {
			v += res.ColWeights[j] * bound(r, c).Hi
		}
		hi = math.Max(hi, v)
	}
	if lo > hi+1e-9 {
		return nil, msg.Errorf("experiment: double oracle bounds cross (a solver error)")
	}
	hi = math.Max(hi, lo) // rounding in the solver's weights
	res.ValueBounds = [2]float64{lo, hi}
	res.Exploitability = hi - lo
	res.Cells = len(known)
	res.Encounters = int64(len(known)) * cfg.N
	return res, nil
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
