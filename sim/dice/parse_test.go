package dice

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

var validCases = []struct {
	in, want string
	min, max int
	numDice  int
}{
	{"1d8+3", "1d8+3", 4, 11, 1},
	{"1d8 + 3", "1d8+3", 4, 11, 1},
	{"  1d8\t+ 3  ", "1d8+3", 4, 11, 1},
	{"d20", "1d20", 1, 20, 1},
	{"D20", "1d20", 1, 20, 1},
	{"d%", "1d100", 1, 100, 1},
	{"2D%", "2d100", 2, 200, 2},
	{"2d6+1d4+3", "2d6+1d4+3", 6, 19, 3},
	{"4d6kh3", "4d6kh3", 3, 18, 4},
	{"4d6k3", "4d6kh3", 3, 18, 4},
	{"4D6KH3", "4d6kh3", 3, 18, 4},
	{"4d6kh4", "4d6kh4", 4, 24, 4},
	{"2d20kl1", "2d20kl1", 1, 20, 2},
	{"2d20k1", "2d20kh1", 1, 20, 2},
	{"3d4kl2", "3d4kl2", 2, 8, 3},
	{"-1d4+2", "-1d4+2", -2, 1, 1},
	{"+1d6", "1d6", 1, 6, 1},
	{"3+1d6", "1d6+3", 4, 9, 1},
	{"3 + d8 - 1", "1d8+2", 3, 10, 1},
	{"1d6-1d6", "1d6-1d6", -5, 5, 2},
	{"- 2d6kl1 + 1d4", "-2d6kl1+1d4", -5, 3, 3},
	{"1d6-0", "1d6", 1, 6, 1},
	{"01d06", "1d6", 1, 6, 1},
	{"7", "7", 7, 7, 0},
	{"-7", "-7", -7, -7, 0},
	{"0", "0", 0, 0, 0},
	{"-0", "0", 0, 0, 0},
	{"2-2", "0", 0, 0, 0},
	{"1000000", "1000000", 1000000, 1000000, 0},
	{"-1000000", "-1000000", -1000000, -1000000, 0},
	{"1d1", "1d1", 1, 1, 1},
	{"100d1000", "100d1000", 100, 100000, 100},
	{"20d1000kh19", "20d1000kh19", 19, 19000, 20},
	{"1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1", "16", 16, 16, 0},
	{strings.Repeat("1d4+", 15) + "1d4", strings.Repeat("1d4+", 15) + "1d4", 16, 64, 16},
}

func TestParseValid(t *testing.T) {
	for _, c := range validCases {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := e.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if e.Min() != c.min || e.Max() != c.max {
			t.Errorf("Parse(%q): Min, Max = %d, %d, want %d, %d", c.in, e.Min(), e.Max(), c.min, c.max)
		}
		if e.NumDice() != c.numDice {
			t.Errorf("Parse(%q).NumDice() = %d, want %d", c.in, e.NumDice(), c.numDice)
		}
		if e.IsConst() != (c.numDice == 0) {
			t.Errorf("Parse(%q).IsConst() = %v", c.in, e.IsConst())
		}
		if e.IsZero() {
			t.Errorf("Parse(%q).IsZero() = true; a parsed expression is set", c.in)
		}
		again, err := Parse(e.String())
		if err != nil || again.String() != e.String() || again.Min() != e.Min() ||
			again.Max() != e.Max() || again.Mean() != e.Mean() {
			t.Errorf("Parse(%q) does not round-trip: %v %v", e.String(), again, err)
		}
	}
}

var invalidCases = []struct {
	in   string
	col  int
	want string // a substring of Msg
}{
	{"", 1, "empty dice expression; expected something like 1d8+3"},
	{"   ", 1, "empty dice expression"},
	{"2d6+x", 5, `expected a number or NdM after "+", found "x"`},
	{"3d", 3, "expected the number of sides after d"},
	{"d", 2, "expected the number of sides after d"},
	{"1dx", 3, `expected the number of sides after d (as in 1d8 or d%), found "x"`},
	{"4d6kh5", 6, "keep count 5 exceeds the 4 dice rolled; expected 1 to 4"},
	{"4d6kh0", 6, "keep count must be from 1 to 4, got 0"},
	{"4d6kh", 6, `expected the number of dice to keep after "kh", found end of input`},
	{"4d6k", 5, "expected h, l or a number after k"},
	{"4d6kx3", 5, `expected h, l or a number after k (as in 4d6kh3 or 2d20kl1), found "x"`},
	{"2d20kl", 7, `expected the number of dice to keep after "kl"`},
	{"1d8+", 4, `trailing "+"; expected a number or NdM after it`},
	{"-", 1, `trailing "-"`},
	{"1d8 - ", 5, `trailing "-"`},
	{"1d8 3", 5, `expected + or - between terms after "1d8", found "3"`},
	{"2 d6", 3, "expected + or -"},
	{"2d6d6", 4, "expected + or -"},
	{"1d6!", 4, `expected + or - between terms after "1d6", found "!"`},
	{"1.5", 2, `found "."`},
	{"1d8++3", 5, `expected a number or NdM after "+", found "+"`},
	{"x", 1, `expected a number or NdM such as 1d8, found "x"`},
	{"é+1", 1, `found "é"`},
	{"1d0", 3, "sides must be from 1 to 1000, got 0"},
	{"1d1001", 3, "sides must be from 1 to 1000, got 1001"},
	{"0d6", 1, "dice count must be from 1 to 100, got 0"},
	{"101d6", 1, "at most 100 dice in one term, got 101"},
	{"1d6+99999999999999999999999d6", 5, "at most 100 dice in one term, got 99999999999999999999..."},
	{"21d6kh3", 1, "keep highest/lowest rolls at most 20 dice, got 21"},
	{"1000001", 1, "constant 1000001 is too large; constants must be within -1000000 to 1000000"},
	{"1000000 + 1d4 + 1", 17, "constants add up to 1000001; the total must be within -1000000 to 1000000"},
	{strings.Repeat("1+", 16) + "1", 33, "too many terms; at most 16"},
}

func TestParseInvalid(t *testing.T) {
	for _, c := range invalidCases {
		e, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", c.in, e)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %T is not a *SyntaxError", c.in, err)
			continue
		}
		if se.Col != c.col || !strings.Contains(se.Msg, c.want) || se.Input != c.in {
			t.Errorf("Parse(%q) = col %d %q, want col %d containing %q", c.in, se.Col, se.Msg, c.col, c.want)
		}
		if !e.IsZero() {
			t.Errorf("Parse(%q) returned a non-zero Expr with its error", c.in)
		}
	}
}

func TestSyntaxErrorFormat(t *testing.T) {
	_, err := Parse("2d6+x")
	const want = `col 5: expected a number or NdM after "+", found "x" in "2d6+x"`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %s", err, want)
	}
}

func TestMustParse(t *testing.T) {
	if got := MustParse("1d8 + 3").String(); got != "1d8+3" {
		t.Errorf("MustParse = %q", got)
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.HasPrefix(msg, "dice: col 3: ") {
			t.Errorf("MustParse panic = %q, want a \"dice: col 3: \" prefix", msg)
		}
	}()
	MustParse("3d")
}

func TestZeroAndConst(t *testing.T) {
	var z Expr
	if !z.IsZero() || !z.IsConst() || z.Roll(nil) != 0 || z.Min() != 0 || z.Max() != 0 ||
		z.Mean() != 0 || z.NumDice() != 0 || z.String() != "0" {
		t.Errorf("zero Expr: IsZero %v IsConst %v Roll %d Min %d Max %d Mean %v NumDice %d String %q",
			z.IsZero(), z.IsConst(), z.Roll(nil), z.Min(), z.Max(), z.Mean(), z.NumDice(), z.String())
	}
	if d := z.Dist(); d.Min != 0 || len(d.P) != 1 || d.P[0] != 1 {
		t.Errorf("zero Expr Dist = %+v, want {0 [1]}", d)
	}
	for _, k := range []int{0, 7, -3} {
		c := Const(k)
		// A constant rolls no dice, so a nil Stream is never touched.
		if c.IsZero() || !c.IsConst() || c.Roll(nil) != k || c.Min() != k || c.Max() != k || c.Mean() != float64(k) {
			t.Errorf("Const(%d) = %v misbehaves", k, c)
		}
		if p := MustParse(c.String()); p.String() != c.String() || p.Roll(nil) != k {
			t.Errorf("Const(%d).String() = %q does not round-trip", k, c.String())
		}
		if d := c.Dist(); d.Min != k || len(d.P) != 1 || d.P[0] != 1 {
			t.Errorf("Const(%d).Dist() = %+v", k, d)
		}
	}
}

// Deep and long inputs (the shapes that overflow a recursive parser) are
// refused at their position in time and memory independent of their size:
// the grammar has no nesting and at most maxTerms terms, and the message
// quotes a bounded part of the input.
func TestDeepInputsRefusedCheaply(t *testing.T) {
	huge := strings.Repeat("(", 300000) + "1d6" + strings.Repeat(")", 300000)
	for _, c := range []struct {
		in  string
		col int
	}{
		{huge, 1},
		{strings.Repeat("1d6+", 150000) + "1", 4*maxTerms + 1},
		{"1" + strings.Repeat("+-", 150000), 3},
		{strings.Repeat("9", 600000), 1},
	} {
		var err error
		allocs := testing.AllocsPerRun(2, func() { _, err = Parse(c.in) })
		se, ok := err.(*SyntaxError)
		if !ok || se.Col != c.col {
			t.Errorf("%.20q…: got %v, want an error at col %d", c.in, err, c.col)
			continue
		}
		if allocs > 30 {
			t.Errorf("%.20q…: %v allocations", c.in, allocs)
		}
		if m := se.Error(); len(m) > 300 || !strings.Contains(m, fmt.Sprintf("col %d:", c.col)) {
			t.Errorf("%.20q…: message of %d bytes: %.300s", c.in, len(m), m)
		}
	}
}
