package lang

import "math"

// A condition made of and, or and not over leaves (a fact compared with a
// constant, or a true-or-false fact) is, once compiled, a decision tree:
// after each leaf the jumps that follow lead, for either outcome, to the
// next leaf or to the result, whatever came before (the left operand of
// and/or is popped before its right one is evaluated, so no value is
// pending when a leaf starts). branchTree works these out once, at compile
// time, by following the jumps; EvalFunc then walks the tree: no stack,
// no dispatch on jumps, and the same facts asked in the same order as the
// stack machine's short-circuit evaluation.

// branch is one leaf of a decision tree: slot k compared with v by op (a
// fused comparison), or, with op opSlot, slot k's truth (k != 0); the
// comparison is kept as an interval (Leaf), so the walk tests it without
// a dispatch on op. next holds, for the outcome false and true, the index
// of the next leaf or resultFalse / resultTrue.
type branch struct {
	Leaf
	op opcode
	v  float64
}

// Leaf is one leaf of a condition's decision tree (Program.Leaves): it
// reads slot Slot and holds when Lo <= x <= Hi, or, with Neg, when that
// is not so. Next holds, for the outcome false and true, the index of the
// next leaf or ResultFalse / ResultTrue.
type Leaf struct {
	Lo, Hi float64
	Slot   int32
	Neg    bool
	Next   [2]int32
}

// Holds reports the leaf's outcome for the slot's value x.
func (l *Leaf) Holds(x float64) bool { return (l.Lo <= x && x <= l.Hi) != l.Neg }

// The results a Leaf's Next may name instead of a leaf.
const (
	ResultFalse = resultFalse
	ResultTrue  = resultTrue
)

const (
	resultFalse = -1
	resultTrue  = -2
)

// interval returns the leaf comparing with v by op (opSlotLt..opSlotNe, or
// opSlot for the truth) as an interval: x < v is x <= the float below v,
// x != v and a truth (x != 0) the negation of a point; NaN is outside every
// interval, as every comparison but != is false for it. An empty interval
// (Lo > Hi) never holds: x < -Inf, x > +Inf, any comparison with NaN.
func interval(op opcode, v float64) (lo, hi float64, neg bool) {
	inf := math.Inf(1)
	switch op {
	case opSlot:
		return 0, 0, true
	case opSlotLt:
		if math.IsInf(v, -1) {
			return inf, -inf, false
		}
		return -inf, math.Nextafter(v, -inf), false
	case opSlotLe:
		return -inf, v, false
	case opSlotGt:
		if math.IsInf(v, 1) {
			return inf, -inf, false
		}
		return math.Nextafter(v, inf), inf, false
	case opSlotGe:
		return v, inf, false
	case opSlotEq:
		return v, v, false
	}
	return v, v, true // opSlotNe
}

func isLeaf(op opcode) bool { return op == opSlot || op >= opSlotLt && op <= opSlotNe }

// branchTree returns code as a decision tree, or nil when code is not
// and/or/not over leaves. A bare fact's value is only ever tested against
// 0 by the jumps and the result, so its truth is all that matters; not
// turns v into 1 - v, which is the truth's negation only for 0 and 1, so a
// program with both a bare fact and not is left to the stack machine.
func branchTree(code []instr) []branch {
	if len(code) == 0 || !isLeaf(code[0].op) {
		return nil
	}
	idx := make([]int32, len(code))
	var tree []branch
	bare, not := false, false
	for pc, in := range code {
		switch {
		case isLeaf(in.op):
			idx[pc] = int32(len(tree))
			lo, hi, neg := interval(in.op, in.v)
			tree = append(tree, branch{Leaf: Leaf{Lo: lo, Hi: hi, Slot: in.a, Neg: neg}, op: in.op, v: in.v})
			bare = bare || in.op == opSlot
		case in.op == opNot:
			not = true
		case in.op == opJumpFalse || in.op == opJumpTrue:
		default:
			return nil
		}
	}
	if bare && not {
		return nil
	}
	for pc, in := range code {
		if !isLeaf(in.op) {
			continue
		}
		b := &tree[idx[pc]]
		for o := range 2 {
			v := o == 1
			q := pc + 1
			for {
				if q >= len(code) {
					b.Next[o] = resultFalse
					if v {
						b.Next[o] = resultTrue
					}
					break
				}
				in := code[q]
				switch {
				case in.op == opNot:
					v = !v
					q++
					continue
				case in.op == opJumpTrue && v, in.op == opJumpFalse && !v:
					q = int(in.a) // jumps run forward: the walk ends
					continue
				case in.op == opJumpTrue, in.op == opJumpFalse:
					// The value is popped; the right operand starts here.
					q++
					if q >= len(code) || !isLeaf(code[q].op) {
						return nil
					}
					b.Next[o] = idx[q]
				default:
					// A leaf while a value is pending: not a tree.
					return nil
				}
				break
			}
		}
	}
	return tree
}

// distinctSlots reports whether no slot is read by two leaves: then no
// walk meets a slot twice, and EvalFunc needs no record of the values read.
func distinctSlots(tree []branch) bool {
	var seen uint32
	for _, b := range tree {
		if seen&(1<<b.Slot) != 0 {
			return false
		}
		seen |= 1 << b.Slot
	}
	return true
}

// evalTree is EvalFunc over p.tree.
func (p *Program) evalTree(fact func(k int) float64) bool {
	tree := p.tree
	if p.distinct {
		i := int32(0)
		for {
			b := &tree[i]
			n := b.Next[b2i(b.Holds(fact(int(b.Slot))))]
			if n < 0 {
				return n == resultTrue
			}
			i = n
		}
	}
	var vals [MaxSlots]float64
	var have uint32
	i := int32(0)
	for {
		b := &tree[i]
		k := b.Slot // < MaxSlots: compile refuses more facts
		if have&(1<<k) == 0 {
			vals[k] = fact(int(k))
			have |= 1 << k
		}
		n := b.Next[b2i(b.Holds(vals[k]))]
		if n < 0 {
			return n == resultTrue
		}
		i = n
	}
}

// Leaves returns p's decision tree, its first leaf first, for a caller
// that walks it with its facts at hand (each leaf's outcome by Holds, the
// next leaf by Next, until a result): nil unless p is and/or/not over
// leaves that each read a different slot, where such a walk asks each
// fact at most once, the facts EvalFunc would ask, in its order. The
// slice is p's: not to be changed.
func (p *Program) Leaves() []Leaf {
	return p.leaves // built by compile when distinct
}

func leavesOf(tree []branch) []Leaf {
	l := make([]Leaf, len(tree))
	for i := range tree {
		l[i] = tree[i].Leaf
	}
	return l
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Guard is a necessary condition of p: slot k compared with v by the
// comparison op ("<", "<=", ">", ">=", "==", "!=", or "" for the slot's
// truth), such that when it does not hold, p is false, whatever the other
// facts. ok is false when p has none to offer (not a decision tree, or its
// first leaf's false branch goes on to another leaf). A caller may test it
// before evaluating p, to skip the evaluation: the first fact p asks for is
// that slot in any case.
func (p *Program) Guard() (k int, op string, v float64, ok bool) {
	if p.tree == nil || p.tree[0].Next[0] != resultFalse {
		return 0, "", 0, false
	}
	b := p.tree[0]
	if b.op == opSlot {
		return int(b.Slot), "", 0, true
	}
	return int(b.Slot), [...]string{"<", "<=", ">", ">=", "==", "!="}[b.op-opSlotLt], b.v, true
}
