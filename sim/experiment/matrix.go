package experiment

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"simctl/sim/msg"
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
	// RowClasses and ColClasses list the options that played exactly the
	// same fights (the same outcome on every encounter against every
	// opposing option): each class is solved as one option, and its weight
	// is shown on its first member (the others carry 0). Only classes of
	// two or more are listed.
	RowClasses [][]string  `json:"row_classes,omitempty"`
	ColClasses [][]string  `json:"col_classes,omitempty"`
	Eq         Equilibrium `json:"equilibrium"`
	Notes      []string    `json:"notes,omitempty"`
	Joint      stats.Joint `json:"joint"` // the row side's win indicators in every game
}

// Domination says that option Option of side Side is dominated by option
// By: against every opposing option where the two ever played differently,
// By does significantly better (its paired interval, stats.PairedCI at the
// Bonferroni level 1 - 0.05/n over the n opposing options, lies above 0),
// and against the others (Identical) the two played the same fight on
// every encounter, which bounds a difference there by ±IdenticalBound at
// the same level without excluding it; at least one opposing option is of
// the first kind.
type Domination struct {
	Side           string   `json:"side"`
	Option         string   `json:"option"`
	By             string   `json:"by"`
	Identical      []string `json:"identical_against,omitempty"`
	IdenticalBound float64  `json:"identical_bound,omitempty"`
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
	// RowRange and ColRange bound each option's weight in every optimal
	// strategy of every game within those simultaneous bounds (so with the
	// same 95% confidence): see weightRanges. An option with range [0, 0]
	// is provably out of the mix, one whose range starts above 0 provably
	// in it.
	RowRange [][2]float64 `json:"row_weight_ranges"`
	ColRange [][2]float64 `json:"col_weight_ranges"`
	// Stable is true when every option (or class of identical options) is
	// provably in or provably out: the options played with positive weight
	// are the same in every game within the bounds. When false, which
	// options belong in the mix is not settled by this many encounters.
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
		return m, msg.Errorf("no encounters were played")
	}
	// Options that played the same fights on every encounter are one
	// class: the game is solved over one representative of each. A rare
	// difference the encounters did not show is bounded by the exact
	// interval of no discordant encounter, for each member against its
	// representative and each opposing option; those statements join the
	// representatives' cells in the Bonferroni count (R·C without
	// classes), and a representative's cell is widened by that bound once
	// per side whose class has several members, so every member's true
	// payoffs lie within it.
	rowRep := classes(R, func(a, b int) bool { return identical(j, C, func(c int) (int, int) { return a*C + c, b*C + c }) })
	colRep := classes(C, func(a, b int) bool { return identical(j, R, func(r int) (int, int) { return r*C + a, r*C + b }) })
	m.RowClasses, m.ColClasses = classNames(rowRep, rows), classNames(colRep, cols)
	rr, cr := reps(rowRep), reps(colRep)
	statements := len(rr)*len(cr) + (R-len(rr))*C + (C-len(cr))*R
	lo, hi := make([][]float64, R), make([][]float64, R)
	bonf := 1 - 0.05/float64(statements)
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
			if a == b {
				continue
			}
			if d, ok := dominates(j, cols, func(c int) (int, int) { return a*C + c, b*C + c }); ok {
				d.Side, d.Option, d.By = rowSide, rows[b], rows[a]
				m.Dominated = append(m.Dominated, d)
				break
			}
		}
	}
	for b := 0; b < C; b++ {
		for a := 0; a < C; a++ {
			// a dominates b for the column side when the row side wins
			// less against a: compare the row side's wins under b against a.
			if a == b {
				continue
			}
			if d, ok := dominates(j, rows, func(r int) (int, int) { return r*C + b, r*C + a }); ok {
				d.Side, d.Option, d.By = colSide, cols[b], cols[a]
				m.Dominated = append(m.Dominated, d)
				break
			}
		}
	}
	widen := 0.0
	if len(m.RowClasses)+len(m.ColClasses) > 0 {
		widen = stats.PairedCI(stats.Paired{N: j.N}, bonf).Hi
	}
	multi := func(rep []int) []float64 {
		w := make([]float64, len(rep))
		for i, r := range rep {
			if r != i {
				w[r] = widen
			}
		}
		return w
	}
	wr, wc := multi(rowRep), multi(colRep)
	sub := func(P [][]float64, sign float64) [][]float64 {
		out := make([][]float64, len(rr))
		for i, r := range rr {
			out[i] = make([]float64, len(cr))
			for k, c := range cr {
				out[i][k] = min(1, max(0, P[r][c]+sign*(wr[r]+wc[c])))
			}
		}
		return out
	}
	eq, err := solveZeroSum(sub(m.Win, 0))
	if err != nil {
		return m, err
	}
	loS, hiS := sub(lo, -1), sub(hi, 1)
	eqLo, err1 := solveZeroSum(loS)
	eqHi, err2 := solveZeroSum(hiS)
	if err1 != nil || err2 != nil {
		return m, errors.Join(err1, err2)
	}
	rowR, colR, stable := weightRanges(loS, hiS, eqLo.Value, eqHi.Value)
	m.Eq = Equilibrium{Value: eq.Value, ValueCI: [2]float64{eqLo.Value, eqHi.Value}, Stable: stable,
		RowWeights: make([]float64, R), ColWeights: make([]float64, C),
		RowRange: make([][2]float64, R), ColRange: make([][2]float64, C)}
	for i, r := range rr {
		m.Eq.RowWeights[r], m.Eq.RowRange[r] = eq.RowWeights[i], rowR[i]
	}
	for k, c := range cr {
		m.Eq.ColWeights[c], m.Eq.ColRange[c] = eq.ColWeights[k], colR[k]
	}
	m.Notes = append(m.Notes, fmt.Sprintf("the game's value (the row side's win rate under optimal play by both) lies in [%.2f%%, %.2f%%] with at least 95%% confidence",
		100*m.Eq.ValueCI[0], 100*m.Eq.ValueCI[1]))
	for _, cl := range append(append([][]string(nil), m.RowClasses...), m.ColClasses...) {
		m.Notes = append(m.Notes, fmt.Sprintf("%s played the same fights on all %d encounters against every opposing option: one class, solved as one option, its weight shown on %s (a difference too rare to show, under %.3f pp, is not excluded)",
			joinNames(cl), j.N, cl[0], 100*widen))
	}
	m.Notes = append(m.Notes, fmt.Sprintf("multiplicity: the grid prints %d cell intervals at 95%% each, not jointly (about 1 in 20 may miss by chance); the value's interval, the weight ranges and the settled/not settled verdict rest on bounds that hold for all cells together at 95%%; each dominance claim holds at 95%% over the opposing options, not jointly across the %d pairs of options tested",
		R*C, R*(R-1)+C*(C-1)))
	if !m.Eq.Stable {
		m.Notes = append(m.Notes, "which options belong in the optimal mix is not settled: within the cells' simultaneous 95% bounds some option (or class) may or may not be played; the weights are estimates (their ranges say how far they may move); more encounters (-n) may settle them, and options that are exact equals on different dice never will")
	} else {
		m.Notes = append(m.Notes, "which options belong in the optimal mix is settled with at least 95% confidence: every option is provably in or out within the cells' simultaneous bounds (the weights themselves still move within their ranges)")
	}
	return m, nil
}

// dominates reports whether option a dominates option b against the
// opposing options opp: cell(i) gives the game indices (a's, b's) against
// opposing option i, in the orientation where a larger win indicator is
// better for a's side. See Domination for the rule.
func dominates(j stats.Joint, opp []string, cell func(i int) (ga, gb int)) (Domination, bool) {
	conf := 1 - 0.05/float64(len(opp))
	var d Domination
	strict := false
	for i := range opp {
		ga, gb := cell(i)
		p := j.Paired(ga, gb)
		ci := stats.PairedCI(p, conf)
		if p.SumD2 == 0 {
			// Identical on every encounter: a difference rarer than the
			// encounters could show is bounded, not excluded.
			d.Identical = append(d.Identical, opp[i])
			d.IdenticalBound = ci.Hi
			continue
		}
		if ci.Lo <= 0 {
			return Domination{}, false
		}
		strict = true
	}
	return d, strict
}

// identical reports whether two options played the same fight on every
// encounter against each of the n opposing options.
func identical(j stats.Joint, n int, cell func(i int) (int, int)) bool {
	for i := 0; i < n; i++ {
		a, b := cell(i)
		if j.Paired(a, b).SumD2 != 0 {
			return false
		}
	}
	return true
}

// classes returns, for each of n options, the first option it is the same
// as (same(a, b) is an equivalence: identical outcomes on every encounter).
func classes(n int, same func(a, b int) bool) []int {
	rep := make([]int, n)
	for b := 0; b < n; b++ {
		rep[b] = b
		for a := 0; a < b; a++ {
			if rep[a] == a && same(a, b) {
				rep[b] = a
				break
			}
		}
	}
	return rep
}

func reps(rep []int) []int {
	var out []int
	for i, r := range rep {
		if r == i {
			out = append(out, i)
		}
	}
	return out
}

func classNames(rep []int, names []string) [][]string {
	var out [][]string
	for _, r := range reps(rep) {
		cl := []string{names[r]}
		for i := r + 1; i < len(rep); i++ {
			if rep[i] == r {
				cl = append(cl, names[i])
			}
		}
		if len(cl) > 1 {
			out = append(out, cl)
		}
	}
	return out
}

func joinNames(s []string) string {
	out := ""
	for i, n := range s {
		switch {
		case i == 0:
		case i == len(s)-1:
			out += " and "
		default:
			out += ", "
		}
		out += n
	}
	return out
}

// weightRanges bounds each option's weight in every optimal strategy of
// every game P with lo <= P <= hi (cell by cell), vLo and vHi being the
// values of the games lo and hi (the value is monotone, so V(lo) <= V(P)
// <= V(hi)). Corner games alone are not enough: two options tied in truth
// can be perturbed in opposite directions inside the bounds, which no
// corner does, and the weight jumps from one to the other. Instead:
//
//   - An optimal row strategy x of P guarantees V(P) against every column,
//     and P <= hi, so hiᵀx >= V(lo) on every column: x lies in the polytope
//     X = {x in the simplex: hiᵀx >= V(lo)}. Likewise every optimal column
//     strategy y lies in Y = {y: lo·y <= V(hi)}.
//   - A row r with max over Y of (hi·y)_r < V(lo) is a best reply to no
//     optimal y of any P (its payoff is below V(P)), so it is in the
//     support of no optimal x (in a zero-sum game every row an optimal x
//     plays is a best reply to every optimal y): provably out, and x_r = 0
//     may be added to X. Columns alike, with min over X of (loᵀx)_c >
//     V(hi). This is repeated until nothing changes.
//   - The range of option r's weight is [min x_r, max x_r] over X (two
//     linear programs); an option whose minimum is above 0 is in the
//     support of every optimal strategy of every game within the bounds.
//
// The ranges are outer bounds (X may hold strategies optimal for no game
// in the box), so stable = every option provably in or out is a
// sufficient condition for a support that does not change within the
// bounds, never a guess. If a program fails numerically, the ranges are
// [0, 1] and stable is false.
func weightRanges(lo, hi [][]float64, vLo, vHi float64) (rowR, colR [][2]float64, stable bool) {
	const tol = 1e-9
	R, C := len(lo), len(lo[0])
	rowIn, colIn := ones(R), ones(C)
	// The column player's polytope in the row player's form: maximising
	// -lo·y, Y = {y: Σ_c y_c·(-lo[r][c]) >= -V(hi) for every r}.
	negLoT := make([][]float64, C)
	for c := range negLoT {
		negLoT[c] = make([]float64, R)
		for r := range negLoT[c] {
			negLoT[c][r] = -lo[r][c]
		}
	}
	fail := func() ([][2]float64, [][2]float64, bool) {
		rowR, colR = make([][2]float64, R), make([][2]float64, C)
		for i := range rowR {
			rowR[i] = [2]float64{0, 1}
		}
		for i := range colR {
			colR[i] = [2]float64{0, 1}
		}
		return rowR, colR, false
	}
	for changed := true; changed; {
		changed = false
		for r := 0; r < R; r++ {
			if !rowIn[r] {
				continue
			}
			// max over Y of Σ_c hi[r][c]·y_c
			obj := make([]float64, C)
			for c := range obj {
				obj[c] = hi[r][c]
			}
			best, ok := polyOpt(negLoT, -vHi-tol, colIn, obj, true)
			if !ok {
				return fail()
			}
			if best < vLo-tol {
				rowIn[r], changed = false, true
			}
		}
		for c := 0; c < C; c++ {
			if !colIn[c] {
				continue
			}
			obj := make([]float64, R)
			for r := range obj {
				obj[r] = lo[r][c]
			}
			worst, ok := polyOpt(hi, vLo-tol, rowIn, obj, false)
			if !ok {
				return fail()
			}
			if worst > vHi+tol {
				colIn[c], changed = false, true
			}
		}
	}
	stable = true
	ranges := func(A [][]float64, v float64, in []bool) ([][2]float64, bool) {
		out := make([][2]float64, len(in))
		for i := range in {
			if !in[i] {
				continue
			}
			e := make([]float64, len(in))
			e[i] = 1
			a, ok1 := polyOpt(A, v, in, e, false)
			b, ok2 := polyOpt(A, v, in, e, true)
			if !ok1 || !ok2 {
				return nil, false
			}
			out[i] = [2]float64{max(0, a), min(1, b)}
			if out[i][0] <= 1e-7 {
				stable = false
			}
		}
		return out, true
	}
	var ok1, ok2 bool
	rowR, ok1 = ranges(hi, vLo-tol, rowIn)
	colR, ok2 = ranges(negLoT, -vHi-tol, colIn)
	if !ok1 || !ok2 {
		return fail()
	}
	return rowR, colR, stable
}

func ones(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

// polyOpt optimises obj·x (maximises when maximise, else minimises) over
// {x in the simplex, x_i = 0 where !in[i], Σ_i x_i·A[i][k] >= v for every
// k}, by gonum's Simplex in standard form (the variables x_i with in[i],
// then a slack per constraint). ok is false if the program fails.
func polyOpt(A [][]float64, v float64, in []bool, obj []float64, maximise bool) (float64, bool) {
	var idx []int
	for i, b := range in {
		if b {
			idx = append(idx, i)
		}
	}
	n, K := len(idx), len(A[0])
	if n == 0 {
		return 0, false
	}
	M := mat.NewDense(K+1, n+K, nil)
	b := make([]float64, K+1)
	for k := 0; k < K; k++ {
		for j, i := range idx {
			M.Set(k, j, A[i][k])
		}
		M.Set(k, n+k, -1)
		b[k] = v
	}
	for j := range idx {
		M.Set(K, j, 1)
	}
	b[K] = 1
	cost := make([]float64, n+K)
	for j, i := range idx {
		cost[j] = obj[i]
		if maximise {
			cost[j] = -obj[i]
		}
	}
	opt, _, err := lp.Simplex(cost, M, b, 1e-12, nil)
	if err != nil {
		return 0, false
	}
	if maximise {
		opt = -opt
	}
	return opt, true
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
		return Equilibrium{}, msg.Errorf("experiment: the row player's program: %v", err)
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
		return Equilibrium{}, msg.Errorf("experiment: the column player's program: %v", err)
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
