package lang

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
// fused comparison), or, with op opSlot, slot k's truth (k != 0). next
// holds, for the outcome false and true, the index of the next leaf or
// resultFalse / resultTrue.
type branch struct {
	op   opcode
	slot int32
	v    float64
	next [2]int32
}

const (
	resultFalse = -1
	resultTrue  = -2
)

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
			tree = append(tree, branch{op: in.op, slot: in.a, v: in.v})
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
					b.next[o] = resultFalse
					if v {
						b.next[o] = resultTrue
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
					b.next[o] = idx[q]
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
		if seen&(1<<b.slot) != 0 {
			return false
		}
		seen |= 1 << b.slot
	}
	return true
}

// evalTree is EvalFunc over p.tree.
func (p *Program) evalTree(fact func(k int) float64) bool {
	if p.distinct {
		tree := p.tree
		i := int32(0)
		for {
			b := &tree[i]
			x := fact(int(b.slot))
			var o bool
			if b.op == opSlot {
				o = x != 0
			} else {
				o = compare(b.op-opSlotLt+opLt, x, b.v)
			}
			n := b.next[0]
			if o {
				n = b.next[1]
			}
			if n < 0 {
				return n == resultTrue
			}
			i = n
		}
	}
	var vals [MaxSlots]float64
	var have uint32
	tree := p.tree
	i := int32(0)
	for {
		b := &tree[i]
		k := b.slot // < MaxSlots: compile refuses more facts
		if have&(1<<k) == 0 {
			vals[k] = fact(int(k))
			have |= 1 << k
		}
		x := vals[k]
		var o bool
		if b.op == opSlot {
			o = x != 0
		} else {
			o = compare(b.op-opSlotLt+opLt, x, b.v)
		}
		n := b.next[0]
		if o {
			n = b.next[1]
		}
		if n < 0 {
			return n == resultTrue
		}
		i = n
	}
}

// Guard is a necessary condition of p: slot k compared with v by the
// comparison op ("<", "<=", ">", ">=", "==", "!=", or "" for the slot's
// truth), such that when it does not hold, p is false, whatever the other
// facts. ok is false when p has none to offer (not a decision tree, or its
// first leaf's false branch goes on to another leaf). A caller may test it
// before evaluating p, to skip the evaluation: the first fact p asks for is
// that slot in any case.
func (p *Program) Guard() (k int, op string, v float64, ok bool) {
	if p.tree == nil || p.tree[0].next[0] != resultFalse {
		return 0, "", 0, false
	}
	b := p.tree[0]
	if b.op == opSlot {
		return int(b.slot), "", 0, true
	}
	return int(b.slot), [...]string{"<", "<=", ">", ">=", "==", "!="}[b.op-opSlotLt], b.v, true
}
