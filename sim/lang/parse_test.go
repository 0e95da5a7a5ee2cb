package lang

import (
	"fmt"
	"strings"
	"testing"
)

// The parser's tests, in the style of text/template/parse's parseTests:
// each input and its tree, shown fully parenthesised with every node's
// byte offset, or the error it gives.

// show renders n as (op x y) with offsets: precedence and positions at a
// glance.
func show(n Node) string {
	switch n := n.(type) {
	case *NumLit:
		return fmt.Sprintf("%g@%d", n.Val, n.At)
	case *BoolLit:
		return fmt.Sprintf("%v@%d", n.Val, n.At)
	case *ParamRef:
		return fmt.Sprintf("$%s@%d", n.Name, n.At)
	case *Ref:
		s := n.Key()
		if n.ArgSeg >= 0 {
			s += fmt.Sprintf("[%d:%q@%d param=%v]", n.ArgSeg, n.Arg, n.ArgAt, n.ArgParam)
		}
		return fmt.Sprintf("%s@%d-%d", s, n.At, n.End)
	case *Unary:
		return fmt.Sprintf("(%s@%d %s)", n.Op, n.At, show(n.X))
	case *Binary:
		return fmt.Sprintf("(%s@%d %s %s)", n.Op, n.At, show(n.X), show(n.Y))
	}
	return fmt.Sprintf("?%T", n)
}

var parseTests = []struct {
	name  string
	input string
	tree  string
}{
	{"number", "1", "1@0"},
	{"bool", "true", "true@0"},
	{"param", "$low", "$low@0"},
	{"fact", "self.hp_pct", "self.hp_pct@0-11"},
	{"fact with arg", `ally("Wizard").acted`, `ally.acted[0:"Wizard"@5 param=false]@0-20`},
	{"arg on a later segment", `a.spell($s).left`, `a.spell.left[1:"$s"@8 param=true]@0-16`},
	{"comparison", "a < 1", "(<@2 a@0-1 1@4)"},
	{"sum before comparison", "a + 1 >= b * 2", "(>=@6 (+@2 a@0-1 1@4) (*@11 b@9-10 2@13))"},
	{"left associative", "a - b - c", "(-@6 (-@2 a@0-1 b@4-5) c@8-9)"},
	{"product before sum", "a + b * c", "(+@2 a@0-1 (*@6 b@4-5 c@8-9))"},
	{"and before or", "p or q and r", "(or@2 p@0-1 (and@7 q@5-6 r@11-12))"},
	{"not before and", "not p and q", "(and@6 (not@0 p@4-5) q@10-11)"},
	{"not over comparison", "not a < 1", "(not@0 (<@6 a@4-5 1@8))"},
	{"symbols", "!p && q || r", "(or@8 (and@3 (not@0 p@1-2) q@6-7) r@11-12)"},
	{"parentheses", "(p or q) and r", "(and@9 (or@3 p@1-2 q@6-7) r@13-14)"},
	{"unary minus", "-a == --1", "(==@3 (-@0 a@1-2) (-@6 (-@7 1@8)))"},
	{"double not", "not not p", "(not@0 (not@4 p@8-9))"},
	{"nested to the limit", strings.Repeat("(", MaxNesting) + "p" + strings.Repeat(")", MaxNesting), fmt.Sprintf("p@%d-%d", MaxNesting, MaxNesting+1)},
}

func TestParse(t *testing.T) {
	for _, c := range parseTests {
		n, err := Parse(c.input)
		if err != nil {
			t.Errorf("%s: %q: %v", c.name, c.input, err)
			continue
		}
		if got := show(n); got != c.tree {
			t.Errorf("%s: %q:\n got %s\nwant %s", c.name, c.input, got, c.tree)
		}
	}
}

var parseErrorTests = []struct {
	name  string
	input string
	pos   int
	msg   string
}{
	{"empty", "  ", 0, "empty condition; leave out when: for a rule that always applies"},
	{"missing operand", "a <", 3, "expected a value (a number, a fact or $param), found the end"},
	{"trailing", "a < 1 b", 6, "unexpected 'b' after a complete condition; join conditions with and / or"},
	{"chained comparison", "a < b < c", 6, "comparisons do not chain; write a < b and b < c"},
	{"unclosed", "(a < 1", 6, "expected ')' to close the '(' at column 1, found the end"},
	{"keyword as value", "a < and", 4, `expected a value before "and"`},
	{"bare string", `"x" == 1`, 0, "a string is only the argument of a fact"},
	{"arg not a name", "ally(1).acted", 5, "expected a quoted name, as in ally(\"Wizard\"), found number 1"},
	{"two args", `a("x").b("y")`, 9, "only one argument per fact"},
	{"arg unclosed", `ally("x" .acted`, 9, "expected ')' after the argument, found '.'"},
	{"dot then number", "a. 1", 3, "expected a name after '.', found number 1"},
	{"lexer error", "a = 1", 2, "'=' is not a comparison; write '=='"},
	{"one paren too many", strings.Repeat("(", MaxNesting+1) + "p" + strings.Repeat(")", MaxNesting+1), MaxNesting,
		"condition nested too deeply (more than 64 levels of parentheses, not and minus); split it into rules"},
	{"not too deep", strings.Repeat("not ", MaxNesting+1) + "p", 4 * MaxNesting,
		"condition nested too deeply (more than 64 levels of parentheses, not and minus); split it into rules"},
	{"minus too deep", "a < " + strings.Repeat("-", MaxNesting+1) + "1", 4 + MaxNesting,
		"condition nested too deeply (more than 64 levels of parentheses, not and minus); split it into rules"},
	{"mixed too deep", strings.Repeat("(not -", MaxNesting/3+1) + "p", 6*(MaxNesting/3) + 1,
		"condition nested too deeply (more than 64 levels of parentheses, not and minus); split it into rules"},
	// The request body: 300,000 parentheses, 600 KB. The lexer
	// stops at MaxTokens, before the parser recurses.
	{"300,000 parentheses", strings.Repeat("(", 300000) + "p" + strings.Repeat(")", 300000), MaxTokens,
		"condition too long (more than 4096 words and symbols); split it into rules"},
	{"deep within the token limit", strings.Repeat("(", 2000) + "p" + strings.Repeat(")", 2000), MaxNesting,
		"condition nested too deeply (more than 64 levels of parentheses, not and minus); split it into rules"},
}

func TestParseErrors(t *testing.T) {
	for _, c := range parseErrorTests {
		n, err := Parse(c.input)
		if err == nil || err.Pos != c.pos || err.Msg != c.msg {
			t.Errorf("%s: got %v (tree %v), want column %d: %s", c.name, err, n, c.pos+1, c.msg)
		}
	}
}

// Closing a level reopens room for another: the limit counts depth, not
// the number of parentheses.
func TestNestingIsDepthNotCount(t *testing.T) {
	one := strings.Repeat("(", MaxNesting) + "p" + strings.Repeat(")", MaxNesting)
	if _, err := Parse(one + " and " + one + " or not p or " + one); err != nil {
		t.Errorf("three groups each at the limit: %v", err)
	}
}

// A long flat chain (under MaxTokens) parses and compiles: its left-deep
// tree is at most MaxTokens/2 high, which the compiler's recursion bears.
func TestLongChainCompiles(t *testing.T) {
	src := strings.Repeat("a + ", MaxTokens/2-2) + "a > 0"
	if _, err := Compile(src, testEnv()); err != nil {
		t.Errorf("a chain of %d additions: %v", MaxTokens/2-2, err)
	}
}

// FuzzParseNesting: deeply nested, long and cut-off inputs never panic or
// overflow the stack, and an error always points inside the source. The
// seeds (run by go test) are the deep shapes; the fuzzer varies them.
func FuzzParseNesting(f *testing.F) {
	for _, s := range []string{
		strings.Repeat("(", 5000),
		strings.Repeat("(", 300000) + "p" + strings.Repeat(")", 300000),
		strings.Repeat("not ", 3000) + "p",
		"a < " + strings.Repeat("-", 5000) + "1",
		strings.Repeat("(a + ", 3000) + "1" + strings.Repeat(")", 3000) + " > 0",
		strings.Repeat("a or ", 2100) + "a",
		strings.Repeat("(not -", 40) + "p",
		strings.Repeat(`ally("x").`, 1000) + "acted",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, num := range []bool{false, true} {
			var err *Error
			if num {
				_, err = CompileNumber(src, testEnv())
			} else {
				_, err = Compile(src, testEnv())
			}
			if err != nil && (err.Pos < 0 || err.Pos > len(src)) {
				t.Fatalf("%.40q: error position %d outside the source", src, err.Pos)
			}
		}
	})
}
