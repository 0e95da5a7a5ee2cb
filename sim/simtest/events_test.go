package simtest

import (
	"strings"
	"testing"

	"simctl/sim"
)

// fakeTB records failures instead of stopping, so a test can check that a
// bad pattern fails the test that wrote it.
type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = format
	panic(f)
}
func (f *fakeTB) Errorf(format string, args ...any) { f.failed = true; f.msg = format }

func sample() Events {
	l := &sim.Log{}
	l.Event(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: 1})
	l.Event(sim.Event{Kind: sim.EvTurn, Actor: 0, Target: sim.NoOne, Roll: 12, Amount: 9})
	l.Event(sim.Event{Kind: sim.EvAttack, Actor: 0, Target: 2, Die: 20, Roll: 25, Need: 15, OK: true, Amount: 7, Rule: "critical hit x2"})
	l.Event(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: 2})
	l.Event(sim.Event{Kind: sim.EvTurn, Actor: 1, Target: sim.NoOne, Rule: "delayed"})
	l.Event(sim.Event{Kind: sim.EvCheck, Actor: 1, Target: sim.NoOne, Rule: "the referee's side"})
	return Of(l, []string{"A", "Goblin#1", "Goblin#2"})
}

func TestPatterns(t *testing.T) {
	e := sample()
	for _, tc := range []struct {
		p    string
		want int
	}{
		{"attack", 1},
		{"attack A", 1},
		{"attack A Goblin#2", 1},
		{"attack A Goblin#1", 0},
		{"attack A Goblin#*", 1},
		{"attack Goblin#*", 0},
		{"attack * * die=20 roll=25 need=15 amount=7 ok=true", 1},
		{"attack A - ", 0},
		{"attack ok=false", 0},
		{"attack roll=24", 0},
		{"attack rule='critical hit x2'", 1},
		{"attack rule=critical", 0},
		{"attack rule^=critical", 1},
		{"attack rule~=x2", 1},
		{"turn", 2},
		{"turn round=2", 1},
		{"turn - ", 0},
		{"check Goblin#1 - rule='the referee's side'", 1},
		{"round", 2},
	} {
		if got := e.Count(t, tc.p); got != tc.want {
			t.Errorf("%q: %d events, want %d\n%s", tc.p, got, tc.want, e.Dump())
		}
	}
	if got := e.Turns(); got != "A Goblin#1*" {
		t.Errorf("turns %q", got)
	}
	if got := e.Round(1).Count(t, "turn"); got != 1 {
		t.Errorf("round 1: %d turns", got)
	}
	if !e.Then(t, "turn A", "attack A") || e.Then(t, "round", "attack") {
		t.Error("Then")
	}
	if !e.Any("check") || e.Any("spell") {
		t.Error("Any")
	}
}

func TestInOrder(t *testing.T) {
	e := sample()
	if !e.InOrder(t, "turn A", "attack A Goblin#2", "turn Goblin#1") {
		t.Error("in order, not found")
	}
	f := &fakeTB{TB: t}
	if e.InOrder(f, "turn Goblin#1", "attack A") || !f.failed {
		t.Error("out of order, found")
	}
}

func TestBadPatternsFail(t *testing.T) {
	e := sample()
	for _, p := range []string{"", "swing A", "attack Nobody", "attack A B C", "attack hp=3", "attack roll=x", "attack ok=maybe", "attack rule='open"} {
		f := &fakeTB{TB: t}
		func() {
			defer func() { recover() }()
			e.Count(f, p)
		}()
		if !f.failed || !strings.HasPrefix(f.msg, "simtest: pattern") {
			t.Errorf("pattern %q did not fail the test (%q)", p, f.msg)
		}
	}
}
