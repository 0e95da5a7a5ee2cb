package lang

import (
	"strconv"
	"unicode/utf8"

	"simctl/sim/msg"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tNum
	tStr
	tIdent
	tParam // $name
	tOp    // + - * / < <= > >= == != ( ) . ,
)

type token struct {
	kind tokKind
	pos  int // byte offset in the source
	text string
	num  float64
}

// MaxTokens bounds the words and symbols of one condition, MaxNesting the
// levels of parentheses, not and minus: the parser and the compiler recurse
// per level, so an input of any size (a 600 KB request body of '(') is
// refused at a position, in time and memory proportional to the bound,
// before it can exhaust the stack.
const (
	MaxTokens  = 4096
	MaxNesting = 64
)

// lex splits src into tokens. Words and, or, not, true, false are idents
// the parser recognises; && || ! are accepted as their synonyms.
func lex(src string) ([]token, *Error) {
	var out []token
	for i := 0; i < len(src); {
		c := src[i]
		if len(out) == MaxTokens && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return nil, errAt(i, "condition too long (more than %d words and symbols); split it into rules", MaxTokens)
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i
			for j < len(src) && (isDigit(src[j]) || src[j] == '.') {
				j++
			}
			v, err := strconv.ParseFloat(src[i:j], 64)
			if err != nil {
				return nil, errAt(i, "malformed number %q", src[i:j])
			}
			out = append(out, token{kind: tNum, pos: i, text: src[i:j], num: v})
			i = j
		case isLetter(c) || c == '$':
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			k := tIdent
			if c == '$' {
				k = tParam
				if j == i+1 {
					return nil, errAt(i, "'$' must be followed by a parameter name, e.g. $low")
				}
			}
			out = append(out, token{kind: k, pos: i, text: src[i:j]})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				j++
			}
			if j == len(src) {
				return nil, errAt(i, "unterminated string")
			}
			out = append(out, token{kind: tStr, pos: i, text: src[i+1 : j]})
			i = j + 1
		default:
			two := ""
			if i+1 < len(src) {
				two = src[i : i+2]
			}
			switch two {
			case "<=", ">=", "==", "!=", "&&", "||":
				out = append(out, token{kind: tOp, pos: i, text: two})
				i += 2
				continue
			}
			switch c {
			case '+', '-', '*', '/', '<', '>', '(', ')', '.', ',', '!':
				out = append(out, token{kind: tOp, pos: i, text: src[i : i+1]}) // string(c) would allocate
				i++
			case '=':
				return nil, errAt(i, "'=' is not a comparison; write '=='")
			default:
				return nil, errAt(i, "unexpected character %q", c)
			}
		}
	}
	return append(out, token{kind: tEOF, pos: len(src)}), nil
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// Error is a problem in one expression, at byte offset Pos of its source.
type Error struct {
	Pos  int
	Msg  string   // in English
	Text msg.Text // Msg as a message the front ends translate
}

func (e *Error) Error() string { return e.Localize(nil) }

// Localize is the error with its message translated by tr.
func (e *Error) Localize(tr msg.Translator) string {
	return msg.New("column %d: %s", e.Pos+1, e.Text).Localize(tr)
}

func errAt(pos int, format string, args ...any) *Error {
	t := msg.New(format, args...)
	return &Error{Pos: pos, Msg: t.String(), Text: t}
}

// Caret renders src with a caret under byte offset pos, the way expr-lang
// shows a type error: the reader sees the column without counting. A long
// source is cut to caretWindow bytes either side of pos, marked "...", so
// a 600 KB condition does not come back whole, twice, in its own error.
func Caret(src string, pos int) string {
	pos = min(max(pos, 0), len(src))
	from, to := 0, len(src)
	if len(src) > 2*caretWindow {
		from, to = max(pos-caretWindow, 0), min(pos+caretWindow, len(src))
		for from > 0 && !utf8.RuneStart(src[from]) {
			from--
		}
		for to < len(src) && !utf8.RuneStart(src[to]) {
			to++
		}
	}
	line := src[from:to]
	pad := make([]byte, 0, pos-from+3)
	if from > 0 {
		line = "..." + line
		pad = append(pad, "   "...)
	}
	if to < len(src) {
		line += "..."
	}
	for i := from; i < pos; i++ {
		if src[i] == '\t' {
			pad = append(pad, '\t')
		} else {
			pad = append(pad, ' ')
		}
	}
	return "\n    " + line + "\n    " + string(pad) + "^"
}

const caretWindow = 40

// At is an error about a condition (with its caret, in whatever words the
// caller chose) that keeps where it is: Pos, the byte offset in the
// condition, so a front end can also say the column.
type At struct {
	Err error
	Pos int
}

func (e *At) Error() string { return e.Err.Error() }

// Localize is Err translated by tr.
func (e *At) Localize(tr msg.Translator) string { return msg.Localize(e.Err, tr) }

func (e *At) Unwrap() error { return e.Err }

// IdentChar reports whether c may appear in a name (a fact segment, a
// parameter): a letter, a digit or '_'.
func IdentChar(c byte) bool { return isLetter(c) || isDigit(c) }

// ValidIdent reports whether s is a name the language can spell: $s for a
// parameter, s.x for a fact segment.
func ValidIdent(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !IdentChar(s[i]) {
			return false
		}
	}
	return true
}
