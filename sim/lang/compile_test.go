package lang

import (
	"strings"
	"testing"

	"simctl/sim/msg"
)

// allyArg is the test Env's one argument kind, numbered as an Env numbers
// its own.
const allyArg = NoArg + 1

func testEnv() *Env {
	return &Env{
		Ruleset: "test", Moment: "turn",
		Facts: []Fact{
			{Name: "a", Type: Number},
			{Name: "b", Type: Number},
			{Name: "p", Type: Bool},
			{Name: "q", Type: Bool},
			{Name: "ally.acted", Type: Bool, Arg: allyArg},
		},
		Params: []Param{{Name: "low", Val: 0.4}},
		Names:  []string{"who=Wizard"},
		Resolve: func(k ArgKind, name string) (int, msg.Text) {
			if name == "Wizard" {
				return 7, msg.Text{}
			}
			return -1, msg.New("no ally %s", name)
		},
	}
}

// Each condition is evaluated over a grid of fact values and compared with
// the same condition written in Go: precedence (not > comparison > and >
// or; * / before + -), associativity, short forms (&&, ||, !).
func TestEvalMatchesGo(t *testing.T) {
	cases := []struct {
		src string
		gof func(a, b float64, p, q bool) bool
	}{
		{"a < b", func(a, b float64, p, q bool) bool { return a < b }},
		{"a - b - 1 > 0", func(a, b float64, p, q bool) bool { return a-b-1 > 0 }},
		{"a / b / 2 >= 0.5", func(a, b float64, p, q bool) bool { return b != 0 && a/b/2 >= 0.5 || b == 0 && 0 >= 0.5 }},
		{"a + b * 2 == 5", func(a, b float64, p, q bool) bool { return a+b*2 == 5 }},
		{"(a + b) * 2 == 6", func(a, b float64, p, q bool) bool { return (a+b)*2 == 6 }},
		{"-a + 3 <= b", func(a, b float64, p, q bool) bool { return -a+3 <= b }},
		{"p or q and a > 1", func(a, b float64, p, q bool) bool { return p || q && a > 1 }},
		{"not p and q", func(a, b float64, p, q bool) bool { return !p && q }},
		{"not (p and q)", func(a, b float64, p, q bool) bool { return !(p && q) }},
		{"!p || q && !q", func(a, b float64, p, q bool) bool { return !p || q && !q }},
		{"p == q", func(a, b float64, p, q bool) bool { return p == q }},
		{"p != (a != b)", func(a, b float64, p, q bool) bool { return p != (a != b) }},
		{"a / 4 < $low", func(a, b float64, p, q bool) bool { return a/4 < 0.4 }},
		{"true and not false", func(a, b float64, p, q bool) bool { return true }},
	}
	for _, c := range cases {
		prog, err := Compile(c.src, testEnv())
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		for _, a := range []float64{0, 1, 2, 3} {
			for _, b := range []float64{0, 1, 2} {
				for _, p := range []bool{false, true} {
					for _, q := range []bool{false, true} {
						vals := map[string]float64{"a": a, "b": b, "p": f(p), "q": f(q)}
						slots := make([]float64, len(prog.Slots))
						for k, s := range prog.Slots {
							slots[k] = vals[s.Text]
						}
						if got, want := prog.Eval(slots), c.gof(a, b, p, q); got != want {
							t.Errorf("%s with a=%v b=%v p=%v q=%v: %v, want %v", c.src, a, b, p, q, got, want)
						}
						asked := 0
						got := prog.EvalFunc(func(k int) float64 { asked |= 1 << k; return slots[k] })
						if want := c.gof(a, b, p, q); got != want {
							t.Errorf("%s with a=%v b=%v p=%v q=%v: EvalFunc %v, want %v", c.src, a, b, p, q, got, want)
						}
						if m := machineAsks(prog, slots); asked != m {
							t.Errorf("%s with a=%v b=%v p=%v q=%v: EvalFunc asked for slots %b, Machine %b", c.src, a, b, p, q, asked, m)
						}
					}
				}
			}
		}
	}
}

func f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// A fact read twice is one slot; arguments resolve at compile time, also
// through a name parameter.
func TestSlots(t *testing.T) {
	prog, err := Compile(`a > 1 and a < 3 and ally("Wizard").acted and ally($who).acted`, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Slots) != 2 || prog.Slots[1].Arg != 7 || prog.Slots[1].Fact != 4 || prog.Slots[1].Text != `ally("Wizard").acted` {
		t.Errorf("slots %+v, want a and ally(7).acted", prog.Slots)
	}
}

func TestErrorsPointAtTheColumn(t *testing.T) {
	cases := []struct {
		src string
		pos int
		msg string
	}{
		{"a < $lw", 4, "unknown parameter $lw (did you mean $low?); params: $low"},
		{"a < $who", 4, "$who is a name (Wizard), not a number: a condition compares numbers; use it as an argument, e.g. ally($who).acted, or give a number in params:"},
		{"a + p > 1", 2, "+ needs numbers, but p is true or false"},
		{"a and p", 0, "and needs true or false on both sides, but a is a number; compare it, e.g. a > 0"},
		{`ally("Bob").acted`, 5, "no ally Bob"},
		{"c > 1", 0, "unknown fact c (did you mean a?); test offers at turn: a, b, p, q, ally(\"NAME\").acted"},
		{"a >", 3, "expected a value (a number, a fact such as a, or $param), found the end"},
		{"a # 1", 2, "unexpected character '#'"},
		{`"x" == 1`, 0, `a string is only an argument, as in ally("NAME").acted`},
		{"", 0, "empty condition; leave out when: for a rule that always applies"},
		{"a", 0, "a condition must be true or false, but this is a number; compare it, e.g. a > 0"},
	}
	for _, c := range cases {
		_, err := Compile(c.src, testEnv())
		if err == nil || err.Pos != c.pos || err.Msg != c.msg {
			t.Errorf("%q: got %v, want column %d: %s", c.src, err, c.pos+1, c.msg)
		}
	}
	if got := Caret("a < $lw", 4); got != "\n    a < $lw\n        ^" {
		t.Errorf("caret %q", got)
	}
}

// The language declares no ruleset's vocabulary: its messages' examples
// are the environment's facts (a name param's example is a fact whose
// argument accepts the name), and Parse, without one, names none.
func TestErrorExamplesComeFromTheEnv(t *testing.T) {
	env := &Env{
		Facts: []Fact{
			{Name: "flag", Type: Bool},
			{Name: "spell.left", Type: Number, Arg: allyArg + 1},
			{Name: "n", Type: Number},
			{Name: "foe.down", Type: Bool, Arg: allyArg},
		},
		Names: []string{"who=Bob"},
		Resolve: func(k ArgKind, name string) (int, msg.Text) {
			if k == allyArg && name == "Bob" {
				return 1, msg.Text{}
			}
			return -1, msg.New("no")
		},
	}
	for _, c := range []struct{ src, msg string }{
		{"n >", "expected a value (a number, a fact such as n, or $param), found the end"},
		{`"x"`, `a string is only an argument, as in spell("NAME").left`},
		{"n < $who", "$who is a name (Bob), not a number: a condition compares numbers; use it as an argument, e.g. foe($who).down, or give a number in params:"},
	} {
		if _, err := Compile(c.src, env); err == nil || err.Msg != c.msg {
			t.Errorf("%q: got %v, want %s", c.src, err, c.msg)
		}
	}
	for _, c := range []struct{ src, msg string }{
		{"n >", "expected a value (a number, a fact or $param), found the end"},
		{`"x"`, "a string is only the argument of a fact"},
	} {
		if _, err := Parse(c.src); err == nil || err.Msg != c.msg {
			t.Errorf("Parse %q: got %v, want %s", c.src, err, c.msg)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	src := strings.Repeat("(a + ", MaxDepth) + "1" + strings.Repeat(")", MaxDepth) + " > 0"
	if _, err := Compile(src, testEnv()); err == nil || !strings.Contains(err.Msg, "too deeply nested") {
		t.Errorf("got %v, want a depth error", err)
	}
}

// Evaluation allocates nothing.
func TestEvalAllocs(t *testing.T) {
	prog, err := Compile("a * 2 > b and not p or q", testEnv())
	if err != nil {
		t.Fatal(err)
	}
	var slots [MaxSlots]float64
	if n := testing.AllocsPerRun(100, func() { prog.Eval(slots[:len(prog.Slots)]) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// and/or short-circuit: the facts of a branch that cannot change the
// result are never asked for.
func TestShortCircuit(t *testing.T) {
	for _, c := range []struct {
		src    string
		p      float64
		asked  string
		result bool
	}{
		{"p and a > 1", 0, "p", false},
		{"p or a > 1", 1, "p", true},
		{"p and a > 1", 1, "p a", false},
		{"p and b > 1", 1, "p b", true},
		{"not p or (a > 1 and b > 1)", 1, "p a", false},
	} {
		prog, err := Compile(c.src, testEnv())
		if err != nil {
			t.Fatal(err)
		}
		var m Machine
		m.Start(prog)
		var asked []string
		for {
			need, res, done := m.Run()
			if done {
				if res != c.result {
					t.Errorf("%s: %v, want %v", c.src, res, c.result)
				}
				break
			}
			name := prog.Slots[need].Text
			asked = append(asked, name)
			m.Provide(need, map[string]float64{"p": c.p, "a": 0.5, "b": 3}[name])
		}
		if strings.Join(asked, " ") != c.asked {
			t.Errorf("%s: asked for %v, want %s", c.src, asked, c.asked)
		}
	}
}

func TestParamArgumentText(t *testing.T) {
	prog, err := Compile(`ally($who).acted`, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if prog.Slots[0].Text != "ally($who).acted" || prog.Slots[0].Arg != 7 {
		t.Errorf("slot %+v", prog.Slots[0])
	}
}

// No input makes the compiler or the machine panic; a compiled program
// always evaluates.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"a < b", "not (p and q) or a / b > $low", `ally("Wizard").acted`, "((((", "a < < b", "$", `ally($who).acted and -a == -b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := Compile(src, testEnv())
		if err != nil {
			if err.Pos < 0 || err.Pos > len(src) {
				t.Fatalf("%q: error position %d outside the source", src, err.Pos)
			}
			return
		}
		slots := make([]float64, len(prog.Slots))
		for k := range slots {
			slots[k] = float64(k % 2)
		}
		prog.Eval(slots)
	})
}

// machineAsks is the set of slots (a bit each) a Machine asks for.
func machineAsks(p *Program, slots []float64) int {
	var m Machine
	m.Start(p)
	asked := 0
	for {
		need, _, done := m.Run()
		if done {
			return asked
		}
		asked |= 1 << need
		m.Provide(need, slots[need])
	}
}

// A fact compared with a constant compiles to one fused instruction; the
// constant on the left, or two facts, are not fused.
func TestFusedComparisons(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"a < 1", 1}, {"a >= $low", 1}, {"p == true", 1}, {"1 < a", 3}, {"a < b", 3}, {"a + 1 < 2", 5},
		{"a < 1 or b > 2 and p != false", 5},
	} {
		prog, err := Compile(c.src, testEnv())
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if len(prog.code) != c.want {
			t.Errorf("%s: %d instructions, want %d", c.src, len(prog.code), c.want)
		}
	}
}
