// Package simtest lets rule tests assert on the structured events of a
// traced encounter (sim.Event) rather than on the wording of its
// narration. A pattern names the event's kind, who acts and whom at, and
// any fields that matter:
//
//	attack Pike Orc ok=true amount=7
//	delay D C rule=after
//	interrupt X E rule='attack/attacks'
//	down X rule=dead
//
// Actor and target are roster names, "-" for nobody (sim.NoOne), "*" for
// anyone or "Name#*" for Name or any member of group Name; omitted, they match
// anything. Fields: die, roll, need,
// amount, round (integers), ok (true or false), rule (exact; quote values
// with spaces in single quotes), rule^ (a prefix of the rule) and rule~
// (a part of it). A pattern
// that does not parse fails the test: it is the test that is wrong.
//
// Everything here is for tests and runs on one goroutine.
package simtest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"simctl/sim"
)

// Events are one encounter's events with the roster names that patterns use.
type Events struct {
	Ev    []sim.Event
	Names []string
}

// Of wraps a log's events.
func Of(l *sim.Log, names []string) Events { return Events{l.Events, names} }

// Round returns the events of round n (0: before round 1, or the surprise
// or ambush round).
func (e Events) Round(n int) Events {
	var out []sim.Event
	for _, v := range e.Ev {
		if v.Round == n && v.Kind != sim.EvRound && v.Kind != sim.EvEnd {
			out = append(out, v)
		}
	}
	return Events{out, e.Names}
}

// Name is i's roster name ("-" for nobody).
func (e Events) Name(i int) string {
	if i >= 0 && i < len(e.Names) {
		return e.Names[i]
	}
	if i == sim.NoOne {
		return "-"
	}
	return "#" + strconv.Itoa(i)
}

// String renders an event in pattern syntax, for failure messages.
func (e Events) String(v sim.Event) string {
	s := fmt.Sprintf("%v %s %s", v.Kind, e.Name(v.Actor), e.Name(v.Target))
	for _, f := range []struct {
		k string
		v int
	}{{"die", v.Die}, {"roll", v.Roll}, {"need", v.Need}, {"amount", v.Amount}} {
		if f.v != 0 {
			s += fmt.Sprintf(" %s=%d", f.k, f.v)
		}
	}
	if v.OK {
		s += " ok=true"
	}
	if v.Rule != "" {
		s += " rule='" + v.Rule + "'"
	}
	return s + fmt.Sprintf(" (round %d)", v.Round)
}

// Dump renders all events, one a line.
func (e Events) Dump() string {
	var b strings.Builder
	for _, v := range e.Ev {
		b.WriteString(e.String(v))
		b.WriteByte('\n')
	}
	return b.String()
}

// pattern is a parsed pattern: match reports whether an event fits it.
type pattern func(sim.Event) bool

func (e Events) parse(tb testing.TB, p string) pattern {
	tb.Helper()
	return e.compile(p, func(format string, args ...any) { tb.Helper(); tb.Fatalf(format, args...) })
}

// compile parses p, calling fail (which must not return) on a bad pattern.
func (e Events) compile(p string, fail func(format string, args ...any)) pattern {
	toks, err := split(p)
	if err != nil || len(toks) == 0 {
		fail("simtest: pattern %q: %v", p, err)
	}
	kind := sim.EvNone
	for k := sim.EvNone + 1; k.String() != "kind?"; k++ {
		if k.String() == toks[0] {
			kind = k
		}
	}
	if kind == sim.EvNone {
		fail("simtest: pattern %q: unknown kind %q", p, toks[0])
	}
	tests := []pattern{func(v sim.Event) bool { return v.Kind == kind }}
	who := 0
	for _, t := range toks[1:] {
		k, val, isField := strings.Cut(t, "=")
		if !isField {
			if who == 2 {
				fail("simtest: pattern %q: %q: a third name (want kind actor target field=value...)", p, t)
			}
			is := e.index(fail, p, t)
			if who == 0 {
				tests = append(tests, func(v sim.Event) bool { return is(v.Actor) })
			} else {
				tests = append(tests, func(v sim.Event) bool { return is(v.Target) })
			}
			who++
			continue
		}
		switch k {
		case "rule":
			tests = append(tests, func(v sim.Event) bool { return v.Rule == val })
		case "rule^":
			tests = append(tests, func(v sim.Event) bool { return strings.HasPrefix(v.Rule, val) })
		case "rule~":
			tests = append(tests, func(v sim.Event) bool { return strings.Contains(v.Rule, val) })
		case "ok":
			want, err := strconv.ParseBool(val)
			if err != nil {
				fail("simtest: pattern %q: ok=%q: want true or false", p, val)
			}
			tests = append(tests, func(v sim.Event) bool { return v.OK == want })
		case "die", "roll", "need", "amount", "round":
			n, err := strconv.Atoi(val)
			if err != nil {
				fail("simtest: pattern %q: %s=%q: want an integer", p, k, val)
			}
			field := map[string]func(sim.Event) int{
				"die": func(v sim.Event) int { return v.Die }, "roll": func(v sim.Event) int { return v.Roll },
				"need": func(v sim.Event) int { return v.Need }, "amount": func(v sim.Event) int { return v.Amount },
				"round": func(v sim.Event) int { return v.Round },
			}[k]
			tests = append(tests, func(v sim.Event) bool { return field(v) == n })
		default:
			fail("simtest: pattern %q: unknown field %q (want die, roll, need, amount, round, ok, rule, rule^, rule~)", p, k)
		}
	}
	return func(v sim.Event) bool {
		for _, t := range tests {
			if !t(v) {
				return false
			}
		}
		return true
	}
}

func (e Events) index(fail func(string, ...any), p, name string) func(int) bool {
	switch name {
	case "*":
		return func(int) bool { return true }
	case "-":
		return func(i int) bool { return i == sim.NoOne }
	}
	if base, ok := strings.CutSuffix(name, "#*"); ok {
		// Any member of a group ("Goblin#*" for Goblin#1, Goblin#2, ...).
		return func(i int) bool { n := e.Name(i); return n == base || strings.HasPrefix(n, base+"#") }
	}
	for i, n := range e.Names {
		if n == name {
			return func(j int) bool { return j == i }
		}
	}
	fail("simtest: pattern %q: no combatant %q (roster %v)", p, name, e.Names)
	return nil
}

// split cuts a pattern at spaces outside single quotes, dropping the
// quotes. A quote opens a token or a value (after "=") and closes before a
// space or the end, so a quoted value may hold apostrophes ('the
// referee's side').
func split(p string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	quoted, any := false, false
	rs := []rune(p)
	for k, r := range rs {
		switch {
		case r == '\'' && !quoted && (!any || rs[k-1] == '='):
			quoted, any = true, true
		case r == '\'' && quoted && (k+1 == len(rs) || rs[k+1] == ' '):
			quoted = false
		case r == ' ' && !quoted:
			if any {
				toks = append(toks, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unbalanced quote")
	}
	if any {
		toks = append(toks, cur.String())
	}
	return toks, nil
}

// Match returns the events that fit pattern p.
func (e Events) Match(tb testing.TB, p string) []sim.Event {
	tb.Helper()
	m := e.parse(tb, p)
	var out []sim.Event
	for _, v := range e.Ev {
		if m(v) {
			out = append(out, v)
		}
	}
	return out
}

// Count is the number of events that fit p.
func (e Events) Count(tb testing.TB, p string) int {
	tb.Helper()
	return len(e.Match(tb, p))
}

// Any reports whether some event fits p, for preconditions that have no
// testing.TB at hand; a bad pattern panics.
func (e Events) Any(p string) bool {
	m := e.compile(p, func(format string, args ...any) { panic(fmt.Sprintf(format, args...)) })
	for _, v := range e.Ev {
		if m(v) {
			return true
		}
	}
	return false
}

// Has reports whether some event fits p.
func (e Events) Has(tb testing.TB, p string) bool {
	tb.Helper()
	return e.Count(tb, p) > 0
}

// InOrder reports an error unless events fit the patterns in this order
// (each on a later event than the one before).
func (e Events) InOrder(tb testing.TB, ps ...string) bool {
	tb.Helper()
	k := 0
	ms := make([]pattern, len(ps))
	for i, p := range ps {
		ms[i] = e.parse(tb, p)
	}
	for _, v := range e.Ev {
		if k < len(ms) && ms[k](v) {
			k++
		}
	}
	if k < len(ps) {
		tb.Errorf("no event %q (after %q) in order; events:\n%s", ps[k], ps[:k], e.Dump())
		return false
	}
	return true
}

// Then reports whether some event fitting p is followed at once by one
// fitting q.
func (e Events) Then(tb testing.TB, p, q string) bool {
	tb.Helper()
	mp, mq := e.parse(tb, p), e.parse(tb, q)
	for k := 0; k+1 < len(e.Ev); k++ {
		if mp(e.Ev[k]) && mq(e.Ev[k+1]) {
			return true
		}
	}
	return false
}

// Absent reports an error if some event fits p.
func (e Events) Absent(tb testing.TB, p string) {
	tb.Helper()
	if m := e.Match(tb, p); len(m) > 0 {
		tb.Errorf("unexpected event %q: %s", p, e.String(m[0]))
	}
}

// Turns lists whose turns come, in order, a turn whose rule starts with
// "delayed" marked with "*" ("A D B C D*").
func (e Events) Turns() string {
	var who []string
	for _, v := range e.Ev {
		if v.Kind == sim.EvTurn {
			s := e.Name(v.Actor)
			if strings.HasPrefix(v.Rule, "delayed") {
				s += "*"
			}
			who = append(who, s)
		}
	}
	return strings.Join(who, " ")
}
