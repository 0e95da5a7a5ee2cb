package lang

import (
	"fmt"
	"strings"

	"simctl/sim/msg"
	"simctl/sim/names"
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

// text is the type's name in a message ("but this is a %s").
func (t Type) text() msg.Text {
	if t == Bool {
		return msg.New("bool")
	}
	return msg.New("number")
}

// ArgKind is what a fact's argument names (a combatant, a side, a spell
// of self's): the language knows only NoArg; an Env numbers its own kinds
// from 1 and its Resolve turns an argument of each kind into an integer at
// compile time.
type ArgKind uint8

// NoArg marks a fact that takes no argument.
const NoArg ArgKind = 0

// Fact is a fact an Env offers (a ruleset at a moment of decision, find at
// the end of an encounter).
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

// Env is what a condition may use, declared by its caller: the facts of
// one ruleset at one moment of decision (or of find's outcome probe), the
// argument kinds they take, and the parameters in scope. Ruleset and Moment
// only name the Env in messages.
type Env struct {
	Ruleset, Moment string
	// MomentText, when set, is Moment as a message: for a moment told in
	// words ("the end of an encounter") rather than named (turn).
	MomentText msg.Text
	Facts      []Fact
	Params     []Param
	Names      []string // string parameters, "name=value", usable as fact arguments: ally($until).acted
	// Resolve turns an argument into an integer (a roster index, a spell
	// index), or returns a message saying what would be valid (the zero
	// Text when it resolves).
	Resolve func(kind ArgKind, name string) (int, msg.Text)
}

// resolve is the argument's integer, or the message saying what would
// be valid (Format "" when it resolves).
func (env *Env) resolve(kind ArgKind, name string) (int, msg.Text) {
	if env.Resolve == nil {
		return 0, msg.Text{}
	}
	return env.Resolve(kind, name)
}

// examples are the facts the parser's messages show, from the
// environment: the language itself declares no ruleset's vocabulary.
type examples struct {
	value string // a number fact without argument ("" for none)
	arg   string // a fact with an argument, as a user writes it ("" for none)
}

func (env *Env) examples() examples {
	var ex examples
	if env == nil {
		return ex
	}
	for _, f := range env.Facts {
		if ex.value == "" && f.Arg == NoArg && f.Type == Number {
			ex.value = f.Name
		}
		if ex.arg == "" && f.Arg != NoArg {
			ex.arg = f.Spelling()
		}
	}
	return ex
}

// argExample writes the environment's first fact whose argument name
// resolves to (the first with an argument if none does) with arg as its
// argument, or "" when no fact takes one.
func (env *Env) argExample(name, arg string) string {
	var eg *Fact
	for k := range env.Facts {
		f := &env.Facts[k]
		if f.Arg == NoArg {
			continue
		}
		if eg == nil {
			eg = f
		}
		if env.Resolve != nil {
			if _, why := env.resolve(f.Arg, name); why.Format == "" {
				eg = f
				break
			}
		}
	}
	if eg == nil {
		return ""
	}
	head, rest, _ := strings.Cut(eg.Name, ".")
	return head + "(" + arg + ")." + rest
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
	// tree is code as a decision tree when code is and/or/not over
	// leaves (a fact compared with a constant, or a true-or-false fact):
	// EvalFunc then walks from leaf to leaf without a stack (branchTree).
	tree     []branch
	distinct bool   // no two leaves of tree read the same slot
	leaves   []Leaf // tree's leaves when distinct (Leaves)
}

// Compile parses, checks and compiles src against env.
func Compile(src string, env *Env) (*Program, *Error) { return compile(src, env, Bool) }

// CompileNumber is Compile for a numeric expression, such as the metric
// `simctl trace --pick` ranks encounters by; Program.EvalNumber reads it.
func CompileNumber(src string, env *Env) (*Program, *Error) { return compile(src, env, Number) }

func compile(src string, env *Env, want Type) (*Program, *Error) {
	n, err := parse(src, env.examples())
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
		return nil, errAt(n.Pos(), "a condition must be true or false, but this is a %s; compare it, e.g. %s > 0", t.text(), strings.TrimSpace(src))
	case t != want:
		return nil, errAt(n.Pos(), "expected a number, but this is true or false")
	}
	if c.max > MaxDepth {
		return nil, errAt(0, "condition too deeply nested (more than %d pending values); split it into rules", MaxDepth)
	}
	if want == Bool {
		c.p.tree = branchTree(c.p.code)
		c.p.distinct = c.p.tree != nil && distinctSlots(c.p.tree)
		if c.p.distinct {
			c.p.leaves = leavesOf(c.p.tree)
		}
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
				if eg := c.env.argExample(v, "$"+n.Name); eg != "" {
					return 0, errAt(n.At, "$%s is a name (%s), not a number: a condition compares numbers; use it as an argument, e.g. %s, or give a number in params:", n.Name, v, eg)
				}
				return 0, errAt(n.At, "$%s is a name (%s), not a number: a condition compares numbers; use it as a fact's argument, or give a number in params:", n.Name, v)
			}
		}
		var names []string
		for _, p := range c.env.Params {
			names = append(names, "$"+p.Name)
		}
		if len(names) == 0 {
			return 0, errAt(n.At, "unknown parameter $%s: this block has no params: (declare it, e.g. params: {%s: 0.5})", n.Name, n.Name)
		}
		return 0, errAt(n.At, "unknown parameter $%s%s; params: %s", n.Name, Suggest(n.Name, names, "$"), strings.Join(names, ", "))
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
			if _, ref := n.X.(*Ref); ref && c.p.code[len(c.p.code)-1].op == opSlot {
				k := len(c.p.code) - 1
				// not of a true-or-false fact (0 or 1) is the fact == 0:
				// one fused leaf, so and/or over it stays a decision tree.
				c.p.code[k] = instr{op: opSlotEq, a: c.p.code[k].a, v: 0}
				return Bool, nil
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
	panic(fmt.Sprintf("lang: unknown node %T", n))
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
			return 0, errAt(n.At, "mismatched types %s and %s for %s", tx.text(), ty.text(), n.Op)
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

func whichBool(src string, n *Binary, tx Type) msg.Text {
	if tx == Bool {
		return msg.New("%s is true or false", exprText(src, n.X))
	}
	return msg.New("%s is true or false", exprText(src, n.Y))
}

// exprText is the source text of a node, for messages: code as written,
// or words for an expression that is not one token.
func exprText(src string, n Node) msg.Text {
	switch n := n.(type) {
	case *Ref:
		return msg.New("%s", src[n.At:n.End])
	case *ParamRef:
		return msg.New("$%s", n.Name)
	case *BoolLit:
		return msg.New("%v", n.Val)
	case *NumLit:
		return msg.New("%v", n.Val)
	}
	return msg.New("the expression at column %d", n.Pos()+1)
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
		var sug msg.Text
		keys := make([]string, len(c.env.Facts))
		for i, f := range c.env.Facts {
			keys[i] = f.Name
		}
		if s := closest(key, keys); s != "" {
			sug = msg.New(" (did you mean %s?)", c.env.Facts[indexOf(keys, s)].Spelling())
		}
		var moment any = c.env.Moment
		if c.env.MomentText.Format != "" {
			moment = c.env.MomentText
		}
		return 0, errAt(n.At, "unknown fact %s%s; %s offers at %s: %s", spell(n), sug, c.env.Ruleset, moment, strings.Join(names, ", "))
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
		var why msg.Text
		arg, why = c.env.resolve(f.Arg, name)
		if why.Format != "" {
			return 0, errAt(n.ArgAt, "%s", why)
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

// Suggest is ` (did you mean PREFIXx?)` for the name in valid closest to
// s (PREFIX trimmed before comparing, ties to the alphabetically first), or "".
// It is a message part (the empty Text when none is close): pass it as a
// %s argument.
func Suggest(s string, valid []string, prefix string) msg.Text {
	bare := make([]string, len(valid))
	for i, v := range valid {
		bare[i] = strings.TrimPrefix(v, prefix)
	}
	if c := closest(s, bare); c != "" {
		return msg.New(" (did you mean %s%s?)", prefix, c)
	}
	return msg.Text{}
}

// closest ties go to the alphabetically first name, so messages do not
// depend on the order a binding declares its facts in.
func closest(s string, valid []string) string { return names.ClosestSorted(s, valid) }
