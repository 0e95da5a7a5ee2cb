package acks2_test

import (
	"context"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	_ "simctl/agents" // registers the acks2 policies (default, delay, ready, receive)
	"simctl/rulesets"
	"simctl/rulesets/acks2"
	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// script is a test-only policy whose every decision is fixed by its
// parameters, so rule tests control exactly what each combatant does:
//
//	do:        attack | charge | ready | delay (default attack)
//	rounds:    N: "do" applies in rounds 1..N only, later rounds attack (0: all)
//	target:    NAME (default: the nearest enemy)
//	until:     NAME, count: N (for do: delay)
//	declare:   none | withdraw | retreat | SPELL (every round while it lasts)
//	before:    true | false (same-number choice, default true)
//	rank:      N (order within its side on a number)
//	interrupt: true | false (readied and round-1 attacks, default true)
type script struct {
	do        string
	rounds    int
	target    int
	until     int
	count     int
	declare   acks2.Declaration
	before    bool
	rank      int
	interrupt bool
}

func init() {
	acks2.RegisterPolicy("test-script", "test only", makeScript)
}

func makeScript(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
	s := &script{do: "attack", target: -1, until: -1, before: true, interrupt: true}
	for k, n := range spec.Params {
		path := spec.Path + "." + k
		switch k {
		case "do":
			s.do = d.Enum(n, path, []string{"attack", "charge", "ready", "delay"})
		case "rounds":
			s.rounds = d.Int(n, path, 0, 1000)
		case "target", "until":
			i, ok := g.Index(d.Str(n, path))
			if !ok {
				d.Errorf(n, path, "no combatant %q", n.Value)
			}
			if k == "target" {
				s.target = i
			} else {
				s.until = i
			}
		case "count":
			s.count = d.Int(n, path, -20, 20)
		case "declare":
			switch v := d.Str(n, path); v {
			case "none":
			case "withdraw":
				s.declare.Kind = acks2.DeclareWithdraw
			case "retreat":
				s.declare.Kind = acks2.DeclareRetreat
			default:
				found := false
				for i, sp := range g.C[self].Spells {
					if sp.Name == v {
						s.declare = acks2.Declaration{Kind: acks2.DeclareSpell, Spell: i}
						found = true
					}
				}
				if !found {
					d.Errorf(n, path, "no spell %q", v)
				}
			}
		case "before":
			s.before = d.Bool(n, path)
		case "rank":
			s.rank = d.Int(n, path, -100, 100)
		case "interrupt":
			s.interrupt = d.Bool(n, path)
		default:
			d.Unknown(spec.Keys[k], path, []string{"do", "rounds", "target", "until", "count", "declare", "before", "rank", "interrupt"})
		}
	}
	return s
}

func (s *script) Declare(t *acks2.Table, self int) acks2.Declaration {
	if s.declare.Kind == acks2.DeclareSpell && t.Uses(self, s.declare.Spell) == 0 {
		return acks2.Declaration{}
	}
	return s.declare
}

func (s *script) Turn(t *acks2.Table, self int) acks2.Plan {
	tg := s.target
	if tg < 0 || t.Out(tg) {
		tg = -1
		for j := 0; j < t.N(); j++ {
			if !t.Out(j) && t.Side(j) != t.Side(self) && (tg < 0 || t.Dist(self, j) < t.Dist(self, tg)) {
				tg = j
			}
		}
	}
	p := acks2.Plan{Do: acks2.Act, Target: tg, DelayAfter: -1}
	if s.rounds > 0 && t.Round() > s.rounds || t.Resuming(self) {
		return p
	}
	switch s.do {
	case "charge":
		p.Charge = true
	case "ready":
		p.Do = acks2.Ready
	case "delay":
		p.Do, p.DelayAfter, p.DelayTo = acks2.Delay, s.until, s.count
	}
	return p
}

func (s *script) Interrupt(t *acks2.Table, self, enemy int, how acks2.Interrupt) bool {
	return s.interrupt
}

func (s *script) ActBefore(t *acks2.Table, self int) bool { return s.before }

func (s *script) Rank(t *acks2.Table, self int) int { return s.rank }

func (s *script) Cleave(t *acks2.Table, self int) int {
	for j := 0; j < t.N(); j++ {
		if t.CanAttack(self, j) {
			return j
		}
	}
	return -1
}

// compileYAML loads and compiles a scenario given as text.
func compileYAML(t *testing.T, src string) sim.Game {
	t.Helper()
	sc, err := scenario.Load("test.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return g
}

// compileErr returns the compile (or load) error of a scenario.
func compileErr(src string) error {
	sc, err := scenario.Load("bad.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		return err
	}
	_, err = rulesets.Compile(sc)
	return err
}

// run is one replayed encounter: its narration (for failure messages) and
// its events (for assertions, with simtest patterns).
type run struct {
	text string
	ev   simtest.Events
}

func (r run) String() string { return r.text }

// round returns round n of the run.
func (r run) round(n int) run { return run{roundOf(r.text, n), r.ev.Round(n)} }

// replay plays encounter enc of seed 1 with narration.
func replay(g sim.Game, enc int64) (run, sim.Outcome, *sim.Tally) {
	var b strings.Builder
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	log := &sim.Log{W: &b, Names: names}
	o, tally := sim.Replay(g, 1, enc, log)
	return run{b.String(), simtest.Of(log, names)}, o, tally
}

// find replays encounters 0, 1, ... of seed 1 until the run satisfies pre
// (a precondition on the dice, such as "the first attack hits"), so a rule
// test does not depend on which seed happens to give it.
func find(t *testing.T, g sim.Game, pre func(log run) bool) (run, sim.Outcome, *sim.Tally) {
	t.Helper()
	for e := int64(0); e < 2000; e++ {
		log, o, tally := replay(g, e)
		if pre(log) {
			return log, o, tally
		}
	}
	t.Fatalf("no encounter among 2000 meets the precondition")
	return run{}, sim.Outcome{}, nil
}

// inOrder asserts that the run has events fitting each pattern (simtest),
// in that order.
func inOrder(t *testing.T, log run, pats ...string) {
	t.Helper()
	if !log.ev.InOrder(t, pats...) {
		t.Fatalf("narration:\n%s", log.text)
	}
}

// absent asserts that no event of the run fits pattern p.
func absent(t *testing.T, log run, p string) {
	t.Helper()
	if log.ev.Has(t, p) {
		t.Fatalf("an event fits %q\n%s", p, log.text)
	}
}

// has reports whether an event of the run fits pattern p.
func has(log run, p string) bool { return log.ev.Any(p) }

// counter returns side s's counter called name in a tally.
func counter(t *testing.T, g sim.Game, tally *sim.Tally, s int, name string) int64 {
	t.Helper()
	for k, n := range g.Counters() {
		if n == name {
			return tally.Counts.Get(s, k)
		}
	}
	t.Fatalf("no counter %q", name)
	return 0
}

// raceEnabled reports whether the test binary was built with -race.
var raceEnabled = func() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}()

// encounters is a test's number of encounters: full normally, reduced
// under -short or the race detector (about 25 times slower here); the
// power checks hold at both.
func encounters(full, reduced int64) int64 {
	if testing.Short() || raceEnabled {
		return reduced
	}
	return full
}

func runGame(t *testing.T, g sim.Game, seed uint64, n int64) *sim.Tally {
	t.Helper()
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: seed, N: n, Workers: 2})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return tally
}

// stdErr is the standard error of a proportion p estimated from n trials.
func stdErr(p float64, n int64) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }
