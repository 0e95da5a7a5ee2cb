package dice

import (
	"unicode/utf8"

	"simctl/sim/msg"
)

// SyntaxError reports why Parse rejected its input.
type SyntaxError struct {
	Input string   // the text given to Parse
	Col   int      // 1-based column (in characters) of the problem in Input
	Msg   string   // what is wrong and, where it helps, what would be valid
	Text  msg.Text // Msg as a message the front ends translate
}

// Error formats the error as `col 5: <msg> in "2d6+x"`.
func (e *SyntaxError) Error() string { return e.Localize(nil) }

// Localize is the error with its message translated by tr.
func (e *SyntaxError) Localize(tr msg.Translator) string {
	return msg.New("col %d: %s in %q", e.Col, e.Text, shorten(e.Input)).Localize(tr)
}

// shorten cuts a long input for a message, at a character boundary: a
// 600 KB field would otherwise be quoted whole in its own error.
func shorten(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// parser is a hand-written scanner: the grammar is tiny, and doing it by
// hand gives exact columns and messages that say what was expected.
type parser struct {
	s   string
	pos int // byte offset of the next unread character
}

// errAt makes a SyntaxError at byte offset off. Columns count characters,
// not bytes, so they match what an editor shows.
func (p *parser) errAt(off int, format string, args ...any) error {
	t := msg.New(format, args...)
	return &SyntaxError{
		Input: p.s,
		Col:   utf8.RuneCountInString(p.s[:off]) + 1,
		Msg:   t.String(),
		Text:  t,
	}
}

func (p *parser) eof() bool { return p.pos >= len(p.s) }

// peek returns the next byte, or 0 at the end of input.
func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.pos]
}

func (p *parser) skipSpace() {
	for !p.eof() {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// found describes the character at the current position for messages.
func (p *parser) found() msg.Text {
	if p.eof() {
		return msg.New("end of input")
	}
	_, size := utf8.DecodeRuneInString(p.s[p.pos:])
	return msg.New("%q", p.s[p.pos:p.pos+size])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number scans a run of digits at p.pos (there must be at least one). The
// value saturates far above every limit, so huge inputs cannot overflow;
// messages quote the digits as written.
type number struct {
	val   int
	start int    // byte offset of the first digit
	text  string // the digits as written, shortened if very long
}

func (p *parser) number() number {
	n := number{start: p.pos}
	for !p.eof() && isDigit(p.s[p.pos]) {
		if n.val <= 1<<40 {
			n.val = n.val*10 + int(p.s[p.pos]-'0')
		}
		p.pos++
	}
	n.text = p.s[n.start:p.pos]
	if len(n.text) > 20 {
		n.text = n.text[:20] + "..."
	}
	return n
}

// Parse parses a dice expression; see the package documentation for the
// syntax and limits. Errors are of type *SyntaxError.
func Parse(s string) (Expr, error) {
	p := &parser{s: s}
	p.skipSpace()
	if p.eof() {
		return Expr{}, p.errAt(0, "empty dice expression; expected something like 1d8+3")
	}
	var (
		terms  []term
		k      int // running sum of the constants
		lastK  = -1
		nTerms int
	)
	for {
		// An operator: optional before the first term, required before
		// every other (the check after the term guarantees one is here).
		neg, opPos := false, -1
		if c := p.peek(); c == '+' || c == '-' {
			neg, opPos = c == '-', p.pos
			p.pos++
			p.skipSpace()
		}
		if p.eof() {
			return Expr{}, p.errAt(opPos, "trailing %q; expected a number or NdM after it", p.s[opPos:opPos+1])
		}
		start := p.pos
		if nTerms++; nTerms > maxTerms {
			return Expr{}, p.errAt(start, "too many terms; at most %d are allowed", maxTerms)
		}
		c := p.peek()
		switch {
		case isDigit(c):
			num := p.number()
			if c := p.peek(); c == 'd' || c == 'D' {
				t, err := p.dice(num, true)
				if err != nil {
					return Expr{}, err
				}
				t.neg = neg
				terms = append(terms, t)
				break
			}
			if num.val > maxConst {
				return Expr{}, p.errAt(num.start, "constant %s is too large; constants must be within -%d to %d", num.text, maxConst, maxConst)
			}
			if neg {
				k -= num.val
			} else {
				k += num.val
			}
			lastK = num.start
		case c == 'd' || c == 'D':
			t, err := p.dice(number{val: 1, start: p.pos}, false)
			if err != nil {
				return Expr{}, err
			}
			t.neg = neg
			terms = append(terms, t)
		case opPos >= 0:
			return Expr{}, p.errAt(p.pos, "expected a number or NdM after %q, found %s", p.s[opPos:opPos+1], p.found())
		default:
			return Expr{}, p.errAt(p.pos, "expected a number or NdM such as 1d8, found %s", p.found())
		}
		end := p.pos
		p.skipSpace()
		if p.eof() {
			break
		}
		if c := p.peek(); c != '+' && c != '-' {
			return Expr{}, p.errAt(p.pos, "expected + or - between terms after %q, found %s", p.s[start:end], p.found())
		}
	}
	if k < -maxConst || k > maxConst {
		return Expr{}, p.errAt(lastK, "constants add up to %d; the total must be within -%d to %d", k, maxConst, maxConst)
	}
	return newExpr(terms, k), nil
}

// dice parses the rest of a dice term; p.pos is at the d, and count is the
// number before it (explicit reports whether one was written).
func (p *parser) dice(count number, explicit bool) (term, error) {
	if explicit && (count.val < 1 || count.val > maxDice) {
		if count.val < 1 {
			return term{}, p.errAt(count.start, "dice count must be from 1 to %d, got %s", maxDice, count.text)
		}
		return term{}, p.errAt(count.start, "at most %d dice in one term, got %s", maxDice, count.text)
	}
	p.pos++ // the d
	t := term{n: count.val}
	switch c := p.peek(); {
	case c == '%':
		t.sides = 100
		p.pos++
	case isDigit(c):
		sides := p.number()
		if sides.val < 1 || sides.val > maxSides {
			return term{}, p.errAt(sides.start, "sides must be from 1 to %d, got %s", maxSides, sides.text)
		}
		t.sides = sides.val
	default:
		return term{}, p.errAt(p.pos, "expected the number of sides after d (as in 1d8 or d%%), found %s", p.found())
	}
	if c := p.peek(); c != 'k' && c != 'K' {
		return t, nil
	}
	p.pos++ // the k
	op := "kh"
	switch c := p.peek(); {
	case c == 'h' || c == 'H':
		p.pos++
	case c == 'l' || c == 'L':
		op = "kl"
		t.low = true
		p.pos++
	case isDigit(c):
		op = "k" // k3 is short for kh3
	default:
		return term{}, p.errAt(p.pos, "expected h, l or a number after k (as in 4d6kh3 or 2d20kl1), found %s", p.found())
	}
	if !isDigit(p.peek()) {
		return term{}, p.errAt(p.pos, "expected the number of dice to keep after %q, found %s", op, p.found())
	}
	keep := p.number()
	if t.n > maxKeepDice {
		return term{}, p.errAt(count.start, "keep highest/lowest rolls at most %d dice, got %d", maxKeepDice, t.n)
	}
	if keep.val < 1 {
		return term{}, p.errAt(keep.start, "keep count must be from 1 to %d, got %s", t.n, keep.text)
	}
	if keep.val > t.n {
		return term{}, p.errAt(keep.start, "keep count %s exceeds the %d dice rolled; expected 1 to %d", keep.text, t.n, t.n)
	}
	t.keep = keep.val
	return t, nil
}
