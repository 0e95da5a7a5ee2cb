package lang

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Which programs become decision trees: and/or/not over fused comparisons
// and bare facts (not of a bare fact is the fused leaf fact == 0); not
// arithmetic, constants, comparisons of two facts, or not over a bare
// fact inside parentheses with others.
func TestBranchTreeShapes(t *testing.T) {
	for _, c := range []struct {
		src  string
		tree bool
	}{
		{"a < 1", true},
		{"p", true},
		{"a < 0 or b > 4 and a > 1000 or b >= 3", true},
		{"not (a < 1 and b == 2) or a != 3", true},
		{"p or q and a > 1", true},
		{"not p and q", true},
		{"not (p and q) or p", false},
		{"a + 1 > 2", false},
		{"a < b", false},
		{"true and p", false},
		{"p == q", false},
	} {
		prog, err := Compile(c.src, testEnv())
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := prog.tree != nil; got != c.tree {
			t.Errorf("%s: decision tree %v, want %v", c.src, got, c.tree)
		}
	}
}

// Random conditions of and, or, not, parentheses and leaves, evaluated
// over random fact values: EvalFunc (the decision tree where there is
// one) gives the stack machine's result and asks for exactly the facts
// the machine asks for.
func TestBranchTreeMatchesMachine(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	leaves := []string{"a < 1", "a >= 2", "b == 1", "b != 0", "a > b", "p", "q", "a <= 0.5", "b > -1"}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || r.IntN(3) == 0 {
			return leaves[r.IntN(len(leaves))]
		}
		switch r.IntN(4) {
		case 0:
			return "not (" + gen(depth-1) + ")"
		case 1:
			return "(" + gen(depth-1) + ") and (" + gen(depth-1) + ")"
		case 2:
			return gen(depth-1) + " or " + gen(depth-1)
		}
		return gen(depth-1) + " and " + gen(depth-1)
	}
	trees, distinct := 0, 0
	for n := 0; n < 3000; n++ {
		src := gen(4)
		prog, err := Compile(src, testEnv())
		if err != nil {
			continue // too many pending values: not what this tests
		}
		if prog.tree != nil {
			trees++
			if prog.distinct {
				distinct++
			}
		}
		for k := 0; k < 20; k++ {
			vals := map[string]float64{"a": float64(r.IntN(4)) - 0.5*float64(r.IntN(2)), "b": float64(r.IntN(3)), "p": float64(r.IntN(2)), "q": float64(r.IntN(2))}
			slots := make([]float64, len(prog.Slots))
			for i, s := range prog.Slots {
				slots[i] = vals[s.Text]
			}
			asked := 0
			got := prog.EvalFunc(func(k int) float64 { asked |= 1 << k; return slots[k] })
			want := prog.Eval(slots)
			if m := machineAsks(prog, slots); got != want || asked != m {
				t.Fatalf("%s with %v (tree %v): EvalFunc %v asking %b, machine %v asking %b", src, vals, prog.tree != nil, got, asked, want, m)
			}
			if l := prog.Leaves(); l != nil {
				if w, a := walkLeaves(l, slots); w != want || a != asked {
					t.Fatalf("%s with %v: walking Leaves %v asking %b, EvalFunc %v asking %b", src, vals, w, a, want, asked)
				}
			} else if prog.distinct {
				t.Fatalf("%s: no Leaves for a tree reading each slot once", src)
			}
		}
	}
	if trees < 1000 || distinct < 500 || trees-distinct < 150 {
		t.Errorf("%d of 3000 random conditions became decision trees, %d of them reading each slot once: both kinds are not tested", trees, distinct)
	}
}

// Guard offers the first leaf of an and-chain, never a leaf whose failure
// leaves the result open.
func TestGuard(t *testing.T) {
	for _, c := range []struct {
		src string
		ok  bool
		op  string
	}{
		{"p and not q", true, ""},
		{"not p and q", true, "=="},
		{"a < 1 and p", true, "<"},
		{"p or q", false, ""},
		{"p and q or a > 1", false, ""},
		{"a + 1 > 2", false, ""},
	} {
		prog, err := Compile(c.src, testEnv())
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		_, op, _, ok := prog.Guard()
		if ok != c.ok || ok && op != c.op {
			t.Errorf("%s: guard %v %q, want %v %q", c.src, ok, op, c.ok, c.op)
		}
	}
}

// walkLeaves walks a tree from Program.Leaves the way a caller would.
func walkLeaves(l []Leaf, slots []float64) (res bool, asked int) {
	i := int32(0)
	for {
		b := &l[i]
		asked |= 1 << b.Slot
		n := b.Next[b2i(b.Holds(slots[b.Slot]))]
		if n < 0 {
			return n == ResultTrue, asked
		}
		i = n
	}
}

// A leaf's interval holds exactly when its comparison does, at the edges
// of the floats too: signed zeros, the neighbours of the constant,
// infinities and NaN.
func TestLeafIntervalMatchesCompare(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	consts := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, -inf, inf, nan, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	var xs []float64
	for _, v := range consts {
		xs = append(xs, v, math.Nextafter(v, inf), math.Nextafter(v, -inf))
	}
	for op := opSlotLt; op <= opSlotNe; op++ {
		for _, v := range consts {
			lo, hi, neg := interval(op, v)
			l := Leaf{Lo: lo, Hi: hi, Neg: neg}
			for _, x := range xs {
				if got, want := l.Holds(x), compare(op-opSlotLt+opLt, x, v); got != want {
					t.Errorf("op %d, %v against %v: interval [%v, %v] neg %v gives %v, comparison %v", op, x, v, lo, hi, neg, got, want)
				}
			}
		}
	}
	lo, hi, neg := interval(opSlot, 0)
	l := Leaf{Lo: lo, Hi: hi, Neg: neg}
	for _, x := range xs {
		if got, want := l.Holds(x), x != 0; got != want {
			t.Errorf("truth of %v: %v, want %v", x, got, want)
		}
	}
}
