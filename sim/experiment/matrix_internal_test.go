package experiment

import (
	"math"
	"testing"

	"simctl/stats"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSolveZeroSum(t *testing.T) {
	// Rock-paper-scissors as win rates: a win 1, a loss 0, a tie 1/2. The
	// unique equilibrium is uniform for both, value 1/2.
	rps := [][]float64{{0.5, 0, 1}, {1, 0.5, 0}, {0, 1, 0.5}}
	eq, err := solveZeroSum(rps)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if !near(eq.RowWeights[i], 1.0/3) || !near(eq.ColWeights[i], 1.0/3) {
			t.Errorf("RPS weights %v %v, want uniform", eq.RowWeights, eq.ColWeights)
		}
	}
	if !near(eq.Value, 0.5) {
		t.Errorf("RPS value %v, want 0.5", eq.Value)
	}
	// A 2x2 game without a saddle point: [[a b] [c d]] with the closed form
	// x1 = (d-c)/(a-b-c+d), y1 = (d-b)/(a-b-c+d), v = (ad-bc)/(a-b-c+d).
	a, b, c, d := 0.7, 0.2, 0.3, 0.6
	eq, err = solveZeroSum([][]float64{{a, b}, {c, d}})
	if err != nil {
		t.Fatal(err)
	}
	den := a - b - c + d
	if !near(eq.RowWeights[0], (d-c)/den) || !near(eq.ColWeights[0], (d-b)/den) || !near(eq.Value, (a*d-b*c)/den) {
		t.Errorf("2x2: %+v, want x1 %v y1 %v v %v", eq, (d-c)/den, (d-b)/den, (a*d-b*c)/den)
	}
	// A saddle point: row 1 column 0 (0.6 is its row's minimum and its
	// column's maximum). A plausible wrong solver, maximin over pure
	// strategies of the column player's view, would still find it; the
	// mixed cases above are what it would miss.
	eq, err = solveZeroSum([][]float64{{0.3, 0.9}, {0.6, 0.8}, {0.1, 0.95}})
	if err != nil {
		t.Fatal(err)
	}
	if !near(eq.RowWeights[1], 1) || !near(eq.ColWeights[0], 1) || !near(eq.Value, 0.6) {
		t.Errorf("saddle: %+v", eq)
	}
}

// TestDominationIdenticalCells: b is significantly worse than a against
// x and played the same fight on every encounter against y. The old rule
// skipped y as "identical"; the claim now names y and the difference
// there it cannot exclude (the exact bound of no discordant encounter at
// the Bonferroni level over the two opposing options).
func TestDominationIdenticalCells(t *testing.T) {
	j := stats.NewJoint(4) // games: a·x, a·y, b·x, b·y
	for u := 0; u < 1000; u++ {
		ax, bx, y := int64(0), int64(0), int64(0)
		if u < 600 {
			ax = 1
		}
		if u < 400 {
			bx = 1
		}
		if u%2 == 0 {
			y = 1
		}
		j.Add([]int64{ax, y, bx, y})
	}
	m, err := Matrix(j, "r", "c", []string{"a", "b"}, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	want := -math.Expm1(math.Log(0.05/2/4) / 1000) // Clopper-Pearson upper bound of 0 in 1000 at 1 - α/4, α = 0.05/2
	if len(m.Dominated) != 1 || m.Dominated[0].Option != "b" || m.Dominated[0].By != "a" ||
		len(m.Dominated[0].Identical) != 1 || m.Dominated[0].Identical[0] != "y" || !near(m.Dominated[0].IdenticalBound, want) {
		t.Errorf("dominated %+v, want b by a, identical against y within ±%v", m.Dominated, want)
	}
}

// BenchmarkMatrix6x6 measures the analysis of a 6x6 matrix (the weight
// ranges solve about 2·(6+6) linear programs more per pass): the cost
// a matrix run adds after its encounters.
func BenchmarkMatrix6x6(b *testing.B) {
	const R, C = 6, 6
	j := stats.NewJoint(R * C)
	x := make([]int64, R*C)
	for u := 0; u < 10000; u++ {
		for r := 0; r < R; r++ {
			for c := 0; c < C; c++ {
				// a rock-paper-scissors-like pattern with noise from u
				x[r*C+c] = int64((u*7+r*3+c*5+(r-c+R)%3*2000)%10000) / 5000
			}
		}
		j.Add(x)
	}
	names := []string{"a", "b", "c", "d", "e", "f"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Matrix(j, "r", "c", names, names); err != nil {
			b.Fatal(err)
		}
	}
}
