package tactics

import (
	"fmt"
	"simctl/sim/scenario"
	"sort"
	"strings"
)

// Type is the type of an expression.
type Type uint8

// Types.
const (
	Number Type = iota + 1
	Bool
)

func (t Type) String() string {
	if t == Bool {
		return "bool"
	}
	return "number"
}

// ArgKind is what a fact's argument names; the Env resolves it to an
// integer at compile time.
type ArgKind uint8

// Argument kinds.
const (
	NoArg ArgKind = iota
	AllyArg
	EnemyArg
	SpellArg // one of self's spells
)

// Fact is a fact a ruleset offers at a moment.
type Fact struct {
	Name string // "self.hp_pct", "ally.acted" (written ally("NAME").acted)
	Type Type
	Arg  ArgKind
	Doc  string
}

// Spelling is how a user writes the fact: ally("NAME").acted.
func (f Fact) Spelling() string {
	if f.Arg == NoArg {
		return f.Name
	}
	head, rest, _ := strings.Cut(f.Name, ".")
	return head + `("NAME").` + rest
}

// Env is what a condition may use: the facts of one ruleset at one moment,
// and the block's parameters.
type Env struct {
	Ruleset, Moment string
	Facts           []Fact
	Params          []Param
	Names           []string // string parameters, "name=value", usable as fact arguments: ally($until).acted
	// Resolve turns an argument into an integer (a roster index, a spell
	// index), or returns a message saying what would be valid.
	Resolve func(kind ArgKind, name string) (int, string)
}

// Param is a named number from the block's params:.
type Param struct {
	Name string
	Val  float64
}

// Slot is one distinct fact reference a Program reads: fact Fact of the
// Env, with its resolved argument.
type Slot struct {
	Fact int
	Arg  int
	Text string // as written, for traces
}

type opcode uint8

const (
	opConst opcode = iota
	opSlot
	opNot
	opNeg
	opAdd
	opSub
	opMul
	opDiv
	opLt
	opLe
	opGt
	opGe
	opEq
	opNe
	opJumpFalse // and: if the top is false, jump to a (keeping it); else pop it
	opJumpTrue  // or: if the top is true, jump to a (keeping it); else pop it
	// A fact compared with a constant, the usual shape of a condition's
	// terms (self.hp_pct < 0.4): slot a against v in one instruction
	// instead of three (see compiler.fuse).
	opSlotLt
	opSlotLe
	opSlotGt
	opSlotGe
	opSlotEq
	opSlotNe
)

type instr struct {
	op opcode
	a  int32
	v  float64
}

// MaxSlots and MaxDepth bound a condition so that evaluation runs in fixed
// arrays on the caller's stack.
const (
	MaxSlots = 12
	MaxDepth = 16
)

// Program is a compiled condition.
type Program struct {
	Src   string
	Slots []Slot
	code  []instr
}

// Compile parses, checks and compiles src against env.
func Compile(src string, env *Env) (*Program, *Error) { return compile(src, env, Bool) }

// CompileNumber is Compile for a numeric expression, such as the metric
// `simctl trace --pick` ranks encounters by; Program.EvalNumber reads it.
func CompileNumber(src string, env *Env) (*Program, *Error) { return compile(src, env, Number) }

func compile(src string, env *Env, want Type) (*Program, *Error) {
	n, err := Parse(src)
	if err != nil {
		return nil, err
	}
	c := &compiler{env: env, p: &Program{Src: src}}
	t, err := c.gen(n)
	if err != nil {
		return nil, err
	}
	switch {
	case t != want && want == Bool:
		return nil, errAt(n.Pos(), "a condition must be true or false, but this is a %s; compare it, e.g. %s > 0", t, strings.TrimSpace(src))
	case t != want:
		return nil, errAt(n.Pos(), "expected a number, but this is true or false")
	}
	if c.max > MaxDepth {
		return nil, errAt(0, "condition too deeply nested (more than %d pending values); split it into rules", MaxDepth)
	}
	return c.p, nil
}

type compiler struct {
	env   *Env
	p     *Program
	depth int
	max   int
}

func (c *compiler) emit(in instr, delta int) {
	c.p.code = append(c.p.code, in)
	c.depth += delta
	c.max = max(c.max, c.depth)
}

func (c *compiler) gen(n Node) (Type, *Error) {
	switch n := n.(type) {
	case *NumLit:
		c.emit(instr{op: opConst, v: n.Val}, 1)
		return Number, nil
	case *BoolLit:
		v := 0.0
		if n.Val {
			v = 1
		}
		c.emit(instr{op: opConst, v: v}, 1)
		return Bool, nil
	case *ParamRef:
		for _, p := range c.env.Params {
			if p.Name == n.Name {
				c.emit(instr{op: opConst, v: p.Val}, 1)
				return Number, nil
			}
		}
		for _, nv := range c.env.Names {
			if k, v, _ := strings.Cut(nv, "="); k == n.Name {
				return 0, errAt(n.At, "$%s is a name (%s), not a number: a condition compares numbers; use it as an argument, e.g. ally($%s).acted, or give a number in params:", n.Name, v, n.Name)
			}
		}
		var names []string
		for _, p := range c.env.Params {
			names = append(names, "$"+p.Name)
		}
		if len(names) == 0 {
			return 0, errAt(n.At, "unknown parameter $%s: this block has no params: (declare it, e.g. params: {%s: 0.5})", n.Name, n.Name)
		}
		return 0, errAt(n.At, "unknown parameter $%s%s; params: %s", n.Name, suggest(n.Name, names, "$"), strings.Join(names, ", "))
	case *Ref:
		return c.ref(n)
	case *Unary:
		t, err := c.gen(n.X)
		if err != nil {
			return 0, err
		}
		if n.Op == "not" {
			if t != Bool {
				return 0, errAt(n.At, "not needs true or false, but %s is a number", exprText(c.p.Src, n.X))
			}
			c.emit(instr{op: opNot}, 0)
			return Bool, nil
		}
		if t != Number {
			return 0, errAt(n.At, "'-' needs a number, but %s is true or false", exprText(c.p.Src, n.X))
		}
		c.emit(instr{op: opNeg}, 0)
		return Number, nil
	case *Binary:
		tx, err := c.gen(n.X)
		if err != nil {
			return 0, err
		}
		if n.Op == "and" || n.Op == "or" {
			return c.logical(n, tx)
		}
		ty, err := c.gen(n.Y)
		if err != nil {
			return 0, err
		}
		return c.binary(n, tx, ty)
	}
	panic(fmt.Sprintf("tactics: unknown node %T", n))
}

var binOps = map[string]opcode{
	"+": opAdd, "-": opSub, "*": opMul, "/": opDiv,
	"<": opLt, "<=": opLe, ">": opGt, ">=": opGe, "==": opEq, "!=": opNe,
}

// logical compiles and/or with short-circuit jumps, so the facts of a
// branch that cannot change the result are never computed.
func (c *compiler) logical(n *Binary, tx Type) (Type, *Error) {
	if tx != Bool {
		return 0, errAt(n.X.Pos(), "%s needs true or false on both sides, but %s is a number; compare it, e.g. %s > 0", n.Op, exprText(c.p.Src, n.X), exprText(c.p.Src, n.X))
	}
	op := opJumpFalse
	if n.Op == "or" {
		op = opJumpTrue
	}
	at := len(c.p.code)
	c.emit(instr{op: op}, -1)
	ty, err := c.gen(n.Y)
	if err != nil {
		return 0, err
	}
	if ty != Bool {
		return 0, errAt(n.Y.Pos(), "%s needs true or false on both sides, but %s is a number; compare it, e.g. %s > 0", n.Op, exprText(c.p.Src, n.Y), exprText(c.p.Src, n.Y))
	}
	c.p.code[at].a = int32(len(c.p.code))
	return Bool, nil
}

func (c *compiler) binary(n *Binary, tx, ty Type) (Type, *Error) {
	op := binOps[n.Op]
	switch op {
	case opEq, opNe:
		if tx != ty {
			return 0, errAt(n.At, "mismatched types %s and %s for %s", tx, ty, n.Op)
		}
		if !c.fuse(n, op) {
			c.emit(instr{op: op}, -1)
		}
		return Bool, nil
	case opLt, opLe, opGt, opGe:
		if tx != Number || ty != Number {
			return 0, errAt(n.At, "%s compares numbers, but %s", n.Op, whichBool(c.p.Src, n, tx))
		}
		if !c.fuse(n, op) {
			c.emit(instr{op: op}, -1)
		}
		return Bool, nil
	}
	if tx != Number || ty != Number {
		return 0, errAt(n.At, "%s needs numbers, but %s", n.Op, whichBool(c.p.Src, n, tx))
	}
	c.emit(instr{op: op}, -1)
	return Number, nil
}

// fuse turns "fact OP constant" (the fact's opSlot then the constant's
// opConst, the last two instructions) into one fused comparison.
func (c *compiler) fuse(n *Binary, op opcode) bool {
	if _, ok := n.X.(*Ref); !ok {
		return false
	}
	switch n.Y.(type) {
	case *NumLit, *ParamRef, *BoolLit:
	default:
		return false
	}
	k := len(c.p.code)
	if k < 2 || c.p.code[k-2].op != opSlot || c.p.code[k-1].op != opConst {
		return false
	}
	slot, v := c.p.code[k-2].a, c.p.code[k-1].v
	c.p.code = c.p.code[:k-2]
	c.depth -= 2
	c.emit(instr{op: opSlotLt + op - opLt, a: slot, v: v}, 1)
	return true
}

func whichBool(src string, n *Binary, tx Type) string {
	if tx == Bool {
		return exprText(src, n.X) + " is true or false"
	}
	return exprText(src, n.Y) + " is true or false"
}

// exprText is the source text of a node, for messages.
func exprText(src string, n Node) string {
	switch n := n.(type) {
	case *Ref:
		return src[n.At:n.End]
	case *ParamRef:
		return "$" + n.Name
	case *BoolLit:
		return fmt.Sprint(n.Val)
	case *NumLit:
		return fmt.Sprint(n.Val)
	}
	return "the expression at column " + fmt.Sprint(n.Pos()+1)
}

func (c *compiler) ref(n *Ref) (Type, *Error) {
	key := n.Key()
	fi := -1
	for i, f := range c.env.Facts {
		if f.Name == key {
			fi = i
		}
	}
	if fi < 0 {
		names := make([]string, len(c.env.Facts))
		for i, f := range c.env.Facts {
			names[i] = f.Spelling()
		}
		var sug string
		keys := make([]string, len(c.env.Facts))
		for i, f := range c.env.Facts {
			keys[i] = f.Name
		}
		if s := closest(key, keys); s != "" {
			sug = fmt.Sprintf(" (did you mean %s?)", c.env.Facts[indexOf(keys, s)].Spelling())
		}
		return 0, errAt(n.At, "unknown fact %s%s; %s offers at %s: %s", spell(n), sug, c.env.Ruleset, c.env.Moment, strings.Join(names, ", "))
	}
	f := c.env.Facts[fi]
	arg := -1
	switch {
	case f.Arg == NoArg && n.ArgSeg >= 0:
		return 0, errAt(n.ArgAt, "%s takes no argument", f.Name)
	case f.Arg != NoArg && n.ArgSeg < 0:
		return 0, errAt(n.At, "%s needs a name: %s", f.Name, f.Spelling())
	case f.Arg != NoArg:
		if n.ArgSeg != 0 {
			return 0, errAt(n.ArgAt, "the name goes on the first part: %s", f.Spelling())
		}
		name := n.Arg
		if strings.HasPrefix(name, "$") && n.ArgParam {
			v, ok := "", false
			for _, s := range c.env.Names {
				if k, val, _ := strings.Cut(s, "="); k == name[1:] {
					v, ok = val, true
				}
			}
			if !ok {
				return 0, errAt(n.ArgAt, "unknown name parameter %s; give it in params:, e.g. params: {%s: Wizard}", name, name[1:])
			}
			name = v
		}
		var msg string
		arg, msg = c.env.Resolve(f.Arg, name)
		if msg != "" {
			return 0, errAt(n.ArgAt, "%s", msg)
		}
	}
	slot := -1
	for k, s := range c.p.Slots {
		if s.Fact == fi && s.Arg == arg {
			slot = k
		}
	}
	if slot < 0 {
		if len(c.p.Slots) == MaxSlots {
			return 0, errAt(n.At, "a condition reads at most %d distinct facts; split it into rules", MaxSlots)
		}
		slot = len(c.p.Slots)
		c.p.Slots = append(c.p.Slots, Slot{Fact: fi, Arg: arg, Text: spell(n)})
	}
	c.emit(instr{op: opSlot, a: int32(slot)}, 1)
	return f.Type, nil
}

func spell(n *Ref) string {
	var b strings.Builder
	for i, s := range n.Segs {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
		if i == n.ArgSeg && n.ArgParam {
			fmt.Fprintf(&b, "(%s)", n.Arg)
		} else if i == n.ArgSeg {
			fmt.Fprintf(&b, "(%q)", n.Arg)
		}
	}
	return b.String()
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

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
	return st[0] != 0
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

// suggest is ` (did you mean PREFIXx?)` for the closest name, or "".
func suggest(s string, valid []string, prefix string) string {
	bare := make([]string, len(valid))
	for i, v := range valid {
		bare[i] = strings.TrimPrefix(v, prefix)
	}
	if c := closest(s, bare); c != "" {
		return fmt.Sprintf(" (did you mean %s%s?)", prefix, c)
	}
	return ""
}

// Closest returns the name in valid nearest to s by edit distance, or ""
// when none is within two edits.
func Closest(s string, valid []string) string { return closest(s, valid) }

// closest ties go to the alphabetically first name, so messages do not
// depend on the order a binding declares its facts in.
func closest(s string, valid []string) string {
	sorted := append([]string(nil), valid...)
	sort.Strings(sorted)
	return scenario.Closest(s, sorted)
}
