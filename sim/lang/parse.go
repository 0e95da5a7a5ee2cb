package lang

import (
	"strings"

	"simctl/sim/msg"
)

// Node is a parsed expression. Every node knows its position (byte offset
// of its first character), so the checker can point at it.
type Node interface{ Pos() int }

type (
	// NumLit is a number literal: 0.4, 2.
	NumLit struct {
		At  int
		Val float64
	}
	// BoolLit is true or false.
	BoolLit struct {
		At  int
		Val bool
	}
	// ParamRef is $name, a parameter from the block's params:.
	ParamRef struct {
		At   int
		Name string
	}
	// Ref is a fact: dotted segments, at most one with a string argument:
	// self.hp_pct, ally("Wizard").acted.
	Ref struct {
		At       int
		Segs     []string
		Arg      string // the argument's text ("" and ArgAt -1 without one)
		ArgSeg   int    // the segment that carries the argument
		ArgAt    int
		End      int  // byte offset just past the reference
		ArgParam bool // the argument is a $parameter
	}
	// Unary is not X or -X.
	Unary struct {
		At int
		Op string // "not" | "-"
		X  Node
	}
	// Binary is X op Y.
	Binary struct {
		At   int // the operator
		Op   string
		X, Y Node
	}
)

func (n *NumLit) Pos() int   { return n.At }
func (n *BoolLit) Pos() int  { return n.At }
func (n *ParamRef) Pos() int { return n.At }
func (n *Ref) Pos() int      { return n.At }
func (n *Unary) Pos() int    { return n.At }
func (n *Binary) Pos() int   { return n.X.Pos() }

// Key is the fact name the reference resolves to: the segments joined by
// dots, the argument left out (ally("Wizard").acted → "ally.acted").
func (n *Ref) Key() string { return strings.Join(n.Segs, ".") }

type parser struct {
	toks  []token
	k     int
	ex    examples
	depth int // levels of (, not and minus open at p.k
}

// enter opens one level of nesting at t, refusing more than MaxNesting;
// the caller closes it with p.depth--.
func (p *parser) enter(t token) *Error {
	if p.depth++; p.depth > MaxNesting {
		return errAt(t.pos, "condition nested too deeply (more than %d levels of parentheses, not and minus); split it into rules", MaxNesting)
	}
	return nil
}

// Parse parses one condition. Its messages name no fact (Compile's show
// its environment's).
func Parse(src string) (Node, *Error) { return parse(src, examples{}) }

// parse is Parse with the facts its messages show.
func parse(src string, ex examples) (Node, *Error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	if len(toks) == 1 {
		return nil, errAt(0, "empty condition; leave out when: for a rule that always applies")
	}
	p := &parser{toks: toks, ex: ex}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, errAt(t.pos, "unexpected %s after a complete condition; join conditions with and / or", describe(t))
	}
	return n, nil
}

func (p *parser) peek() token { return p.toks[p.k] }
func (p *parser) next() token { t := p.toks[p.k]; p.k++; return t }

func (p *parser) isOp(texts ...string) (token, bool) {
	t := p.peek()
	if t.kind != tOp && t.kind != tIdent {
		return t, false
	}
	for _, s := range texts {
		if t.text == s {
			return t, true
		}
	}
	return t, false
}

func (p *parser) or() (Node, *Error) {
	x, err := p.and()
	for err == nil {
		t, ok := p.isOp("or", "||")
		if !ok {
			break
		}
		p.next()
		var y Node
		if y, err = p.and(); err == nil {
			x = &Binary{At: t.pos, Op: "or", X: x, Y: y}
		}
	}
	return x, err
}

func (p *parser) and() (Node, *Error) {
	x, err := p.not()
	for err == nil {
		t, ok := p.isOp("and", "&&")
		if !ok {
			break
		}
		p.next()
		var y Node
		if y, err = p.not(); err == nil {
			x = &Binary{At: t.pos, Op: "and", X: x, Y: y}
		}
	}
	return x, err
}

func (p *parser) not() (Node, *Error) {
	if t, ok := p.isOp("not", "!"); ok {
		p.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		x, err := p.not()
		p.depth--
		if err != nil {
			return nil, err
		}
		return &Unary{At: t.pos, Op: "not", X: x}, nil
	}
	return p.cmp()
}

func (p *parser) cmp() (Node, *Error) {
	x, err := p.sum()
	if err != nil {
		return nil, err
	}
	if t, ok := p.isOp("<", "<=", ">", ">=", "==", "!="); ok && t.kind == tOp {
		p.next()
		y, err := p.sum()
		if err != nil {
			return nil, err
		}
		x = &Binary{At: t.pos, Op: t.text, X: x, Y: y}
		if t2, ok := p.isOp("<", "<=", ">", ">=", "==", "!="); ok && t2.kind == tOp {
			return nil, errAt(t2.pos, "comparisons do not chain; write a < b and b < c")
		}
	}
	return x, nil
}

func (p *parser) sum() (Node, *Error) {
	x, err := p.prod()
	for err == nil {
		t, ok := p.isOp("+", "-")
		if !ok || t.kind != tOp {
			break
		}
		p.next()
		var y Node
		if y, err = p.prod(); err == nil {
			x = &Binary{At: t.pos, Op: t.text, X: x, Y: y}
		}
	}
	return x, err
}

func (p *parser) prod() (Node, *Error) {
	x, err := p.unary()
	for err == nil {
		t, ok := p.isOp("*", "/")
		if !ok || t.kind != tOp {
			break
		}
		p.next()
		var y Node
		if y, err = p.unary(); err == nil {
			x = &Binary{At: t.pos, Op: t.text, X: x, Y: y}
		}
	}
	return x, err
}

func (p *parser) unary() (Node, *Error) {
	if t, ok := p.isOp("-"); ok && t.kind == tOp {
		p.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		x, err := p.unary()
		p.depth--
		if err != nil {
			return nil, err
		}
		return &Unary{At: t.pos, Op: "-", X: x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (Node, *Error) {
	t := p.next()
	switch t.kind {
	case tNum:
		return &NumLit{At: t.pos, Val: t.num}, nil
	case tParam:
		return &ParamRef{At: t.pos, Name: t.text[1:]}, nil
	case tIdent:
		switch t.text {
		case "true", "false":
			return &BoolLit{At: t.pos, Val: t.text == "true"}, nil
		case "and", "or", "not":
			return nil, errAt(t.pos, "expected a value before %q", t.text)
		}
		return p.ref(t)
	case tOp:
		if t.text == "(" {
			if err := p.enter(t); err != nil {
				return nil, err
			}
			x, err := p.or()
			p.depth--
			if err != nil {
				return nil, err
			}
			if c := p.next(); c.text != ")" || c.kind != tOp {
				return nil, errAt(c.pos, "expected ')' to close the '(' at column %d, found %s", t.pos+1, describe(c))
			}
			return x, nil
		}
	case tStr:
		if p.ex.arg != "" {
			return nil, errAt(t.pos, "a string is only an argument, as in %s", p.ex.arg)
		}
		return nil, errAt(t.pos, "a string is only the argument of a fact")
	}
	if p.ex.value != "" {
		return nil, errAt(t.pos, "expected a value (a number, a fact such as %s, or $param), found %s", p.ex.value, describe(t))
	}
	return nil, errAt(t.pos, "expected a value (a number, a fact or $param), found %s", describe(t))
}

func (p *parser) ref(first token) (Node, *Error) {
	r := &Ref{At: first.pos, Segs: []string{first.text}, ArgSeg: -1, ArgAt: -1, End: first.pos + len(first.text)}
	for {
		if t, ok := p.isOp("("); ok && t.kind == tOp {
			p.next()
			a := p.next()
			if a.kind != tStr && a.kind != tParam {
				return nil, errAt(a.pos, "expected a quoted name, as in %s(\"Wizard\"), found %s", r.Segs[len(r.Segs)-1], describe(a))
			}
			if r.ArgSeg >= 0 {
				return nil, errAt(a.pos, "only one argument per fact")
			}
			r.Arg, r.ArgSeg, r.ArgAt, r.ArgParam = a.text, len(r.Segs)-1, a.pos, a.kind == tParam
			c := p.next()
			if c.kind != tOp || c.text != ")" {
				return nil, errAt(c.pos, "expected ')' after the argument, found %s", describe(c))
			}
			r.End = c.pos + 1
		}
		t, ok := p.isOp(".")
		if !ok || t.kind != tOp {
			return r, nil
		}
		p.next()
		s := p.next()
		if s.kind != tIdent {
			return nil, errAt(s.pos, "expected a name after '.', found %s", describe(s))
		}
		r.Segs = append(r.Segs, s.text)
		r.End = s.pos + len(s.text)
	}
}

// describe names a token in a message ("found %s").
func describe(t token) msg.Text {
	switch t.kind {
	case tEOF:
		return msg.New("the end")
	case tStr:
		return msg.New("a string")
	case tNum:
		return msg.New("number %s", t.text)
	}
	return msg.New("'%s'", t.text)
}
