package lang

import (
	"fmt"
	"strings"
	"testing"
)

// The lexer's tests, in the style of text/template/parse's lexTests: each
// input and the tokens it splits into, shown as kind:text@offset.

func (k tokKind) String() string {
	return [...]string{tEOF: "EOF", tNum: "num", tStr: "str", tIdent: "ident", tParam: "param", tOp: "op"}[k]
}

func (t token) String() string {
	if t.kind == tEOF {
		return fmt.Sprintf("EOF@%d", t.pos)
	}
	return fmt.Sprintf("%s:%s@%d", t.kind, t.text, t.pos)
}

type lexTest struct {
	name  string
	input string
	toks  string // the tokens, space-separated, EOF included
}

var lexTests = []lexTest{
	{"empty", "", "EOF@0"},
	{"spaces", " \t\r\n", "EOF@4"},
	{"number", "42", "num:42@0 EOF@2"},
	{"decimal", "0.25", "num:0.25@0 EOF@4"},
	{"leading dot", ".5", "num:.5@0 EOF@2"},
	{"ident", "self_hp2", "ident:self_hp2@0 EOF@8"},
	{"param", "$low", "param:$low@0 EOF@4"},
	{"double quoted", `"Wizard"`, "str:Wizard@0 EOF@8"},
	{"single quoted", `'a b'`, "str:a b@0 EOF@5"},
	{"empty string", `""`, "str:@0 EOF@2"},
	{"two-char ops", "<= >= == != && ||", "op:<=@0 op:>=@3 op:==@6 op:!=@9 op:&&@12 op:||@15 EOF@17"},
	{"one-char ops", "+-*/<>().,!", "op:+@0 op:-@1 op:*@2 op:/@3 op:<@4 op:>@5 op:(@6 op:)@7 op:.@8 op:,@9 op:!@10 EOF@11"},
	{"words are idents", "not a and b or true", "ident:not@0 ident:a@4 ident:and@6 ident:b@10 ident:or@12 ident:true@15 EOF@19"},
	{"dotted fact", `ally("Wizard").acted`, "ident:ally@0 op:(@4 str:Wizard@5 op:)@13 op:.@14 ident:acted@15 EOF@20"},
	{"no space needed", "a<1", "ident:a@0 op:<@1 num:1@2 EOF@3"},
	{"dot after ident", "a.b", "ident:a@0 op:.@1 ident:b@2 EOF@3"},
	{"minus number", "-2", "op:-@0 num:2@1 EOF@2"},
}

func TestLex(t *testing.T) {
	for _, c := range lexTests {
		toks, err := lex(c.input)
		if err != nil {
			t.Errorf("%s: %q: %v", c.name, c.input, err)
			continue
		}
		var got []string
		for _, tk := range toks {
			got = append(got, tk.String())
		}
		if g := strings.Join(got, " "); g != c.toks {
			t.Errorf("%s: %q:\n got %s\nwant %s", c.name, c.input, g, c.toks)
		}
	}
}

var lexErrorTests = []struct {
	name  string
	input string
	pos   int
	msg   string
}{
	{"bad char", "a # 1", 2, "unexpected character '#'"},
	{"single =", "a = 1", 2, "'=' is not a comparison; write '=='"},
	{"lone $", "a < $", 4, "'$' must be followed by a parameter name, e.g. $low"},
	{"unterminated", `ally("Wiz`, 5, "unterminated string"},
	{"two dots", "1.2.3", 0, `malformed number "1.2.3"`},
	{"too long", strings.Repeat("a ", MaxTokens) + "b", 2 * MaxTokens, "condition too long (more than 4096 words and symbols); split it into rules"},
	// Trailing space after the last allowed token is no token.
	{"long then bad", strings.Repeat("a ", MaxTokens-1) + "#", 2 * (MaxTokens - 1), "unexpected character '#'"},
}

func TestLexErrors(t *testing.T) {
	for _, c := range lexErrorTests {
		_, err := lex(c.input)
		if err == nil || err.Pos != c.pos || err.Msg != c.msg {
			t.Errorf("%s: got %v, want column %d: %s", c.name, err, c.pos+1, c.msg)
		}
	}
	// Exactly MaxTokens tokens (EOF aside) lex, trailing blanks included.
	if toks, err := lex(strings.Repeat("a ", MaxTokens)); err != nil || len(toks) != MaxTokens+1 {
		t.Errorf("%d tokens: %d, %v", MaxTokens, len(toks), err)
	}
}

// The lexer stops at the limit: a 600 KB input costs what MaxTokens do.
func TestLexHugeInputAllocatesLittle(t *testing.T) {
	src := strings.Repeat("(", 300000) + strings.Repeat(")", 300000)
	var err *Error
	allocs := testing.AllocsPerRun(3, func() { _, err = lex(src) })
	if err == nil || err.Pos != MaxTokens {
		t.Fatalf("got %v, want the limit at column %d", err, MaxTokens+1)
	}
	// append doubles: about 13 growths to reach 4096, plus the error.
	if allocs > 40 {
		t.Errorf("lexing a 600 KB input allocated %v times", allocs)
	}
}
