package lang

// Machine evaluates a Program lazily: Run stops when it needs a fact it
// has not been given, the caller computes that one fact and calls Provide
// and Run again. With short-circuit and/or, facts that cannot change the
// result are never computed. A Machine lives on the caller's stack; it
// allocates nothing.
type Machine struct {
	p    *Program
	pc   int
	sp   int
	have uint32 // bit k: slot k provided
	st   [MaxDepth]float64
	vals [MaxSlots]float64
}

// Start begins evaluating p.
func (m *Machine) Start(p *Program) { m.p, m.pc, m.sp, m.have = p, 0, 0, 0 }

// Provide gives the value of slot k (booleans as 0 or 1).
func (m *Machine) Provide(k int, v float64) { m.vals[k], m.have = v, m.have|1<<k }

// Has reports whether slot k was provided (for traces).
func (m *Machine) Has(k int) bool { return m.have&(1<<k) != 0 }

// Value is slot k's value, once provided.
func (m *Machine) Value(k int) float64 { return m.vals[k] }

// Run evaluates until it needs slot k (returns k, false) or is done
// (returns the condition's value, true).
func (m *Machine) Run() (need int, result bool, done bool) {
	code := m.p.code
	st := &m.st
	sp := m.sp
	for m.pc < len(code) {
		in := code[m.pc]
		switch in.op {
		case opConst:
			st[sp] = in.v
			sp++
		case opSlot:
			if m.have&(1<<in.a) == 0 {
				m.sp = sp
				return int(in.a), false, false
			}
			st[sp] = m.vals[in.a]
			sp++
		case opSlotLt, opSlotLe, opSlotGt, opSlotGe, opSlotEq, opSlotNe:
			if m.have&(1<<in.a) == 0 {
				m.sp = sp
				return int(in.a), false, false
			}
			st[sp] = b2f(compare(in.op-opSlotLt+opLt, m.vals[in.a], in.v))
			sp++
		case opNot:
			st[sp-1] = 1 - st[sp-1]
		case opNeg:
			st[sp-1] = -st[sp-1]
		case opJumpFalse:
			if st[sp-1] == 0 {
				m.pc = int(in.a)
				continue
			}
			sp--
		case opJumpTrue:
			if st[sp-1] != 0 {
				m.pc = int(in.a)
				continue
			}
			sp--
		default:
			sp--
			x, y := st[sp-1], st[sp]
			st[sp-1] = binary(in.op, x, y)
		}
		m.pc++
	}
	m.sp = sp
	return -1, st[0] != 0, true
}

// binary applies arithmetic or comparison op (opAdd..opNe) to x and y.
func binary(op opcode, x, y float64) float64 {
	switch op {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	case opDiv:
		// A ratio over an empty group (allies.down / allies.count with no
		// allies) reads as 0, not NaN.
		if y == 0 {
			return 0
		}
		return x / y
	}
	return b2f(compare(op, x, y))
}

// compare applies comparison op (opLt..opNe) to x and y.
func compare(op opcode, x, y float64) bool {
	switch op {
	case opLt:
		return x < y
	case opLe:
		return x <= y
	case opGt:
		return x > y
	case opGe:
		return x >= y
	case opEq:
		return x == y
	}
	return x != y
}

// EvalFunc evaluates p in one pass, asking fact for the value of slot k
// (booleans as 0 or 1) the first time the evaluation needs it: with
// short-circuit and/or, facts that cannot change the result are never
// asked for. It is the hot path of a turn's conditions: no stop and resume
// per fact as with Machine (which traces use, to show the values read).
// fact must not keep its argument; EvalFunc allocates nothing when the
// closure passed does not escape.
func (p *Program) EvalFunc(fact func(k int) float64) bool {
	if p.tree != nil {
		return p.evalTree(fact)
	}
	return p.evalStack(fact) != 0
}

// EvalNumberFunc is EvalFunc for a numeric program (CompileNumber): its
// value, each fact asked for once, when needed.
func (p *Program) EvalNumberFunc(fact func(k int) float64) float64 {
	if p.tree != nil {
		return b2f(p.evalTree(fact))
	}
	return p.evalStack(fact)
}

// evalStack is EvalFunc's stack machine: the value on top at the end.
func (p *Program) evalStack(fact func(k int) float64) float64 {
	var st [MaxDepth]float64
	var vals [MaxSlots]float64
	var have uint32
	sp := 0
	code := p.code
	for pc := 0; pc < len(code); pc++ {
		in := &code[pc]
		switch in.op {
		case opConst:
			st[sp] = in.v
			sp++
		case opSlot, opSlotLt, opSlotLe, opSlotGt, opSlotGe, opSlotEq, opSlotNe:
			k := in.a
			if have&(1<<k) == 0 {
				vals[k] = fact(int(k))
				have |= 1 << k
			}
			if in.op == opSlot {
				st[sp] = vals[k]
			} else {
				st[sp] = b2f(compare(in.op-opSlotLt+opLt, vals[k], in.v))
			}
			sp++
		case opNot:
			st[sp-1] = 1 - st[sp-1]
		case opNeg:
			st[sp-1] = -st[sp-1]
		case opJumpFalse:
			if st[sp-1] == 0 {
				pc = int(in.a) - 1
				continue
			}
			sp--
		case opJumpTrue:
			if st[sp-1] != 0 {
				pc = int(in.a) - 1
				continue
			}
			sp--
		default:
			sp--
			x, y := st[sp-1], st[sp]
			st[sp-1] = binary(in.op, x, y)
		}
	}
	return st[0]
}

// Eval evaluates p with every slot given (slots[k] is the value of
// p.Slots[k]); for tests and callers that have all facts at hand.
func (p *Program) Eval(slots []float64) bool { return p.EvalNumber(slots) != 0 }

// EvalNumber is Eval for a numeric program (CompileNumber): its value (a
// condition's is 1 or 0).
func (p *Program) EvalNumber(slots []float64) float64 {
	var m Machine
	m.Start(p)
	for {
		need, _, done := m.Run()
		if done {
			return m.st[0]
		}
		m.Provide(need, slots[need])
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
