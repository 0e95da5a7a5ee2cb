package acks2_test

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"simctl/rulesets"
	"simctl/rulesets/acks2"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// asking hides a policy's Steady method, so the referee asks Declare,
// Rank and ActBefore every time, and checks each answer against what
// Steady said once.
type asking struct {
	acks2.Policy
	t              *testing.T
	who            string
	quiet, steady  bool
	rank           int
	before         bool
	declares, asks *atomic.Int64 // shared by the run's workers
}

func (a asking) Declare(t *acks2.Table, self int) acks2.Declaration {
	d := a.Policy.Declare(t, self)
	a.declares.Add(1)
	if a.quiet && d != (acks2.Declaration{}) {
		a.t.Errorf("%s: Steady says quiet, Declare returned %+v", a.who, d)
	}
	return d
}

func (a asking) Rank(t *acks2.Table, self int) int {
	r := a.Policy.Rank(t, self)
	a.asks.Add(1)
	if a.steady && r != a.rank {
		a.t.Errorf("%s: Steady says rank %d, Rank returned %d", a.who, a.rank, r)
	}
	return r
}

func (a asking) ActBefore(t *acks2.Table, self int) bool {
	b := a.Policy.ActBefore(t, self)
	if a.steady && b != a.before {
		a.t.Errorf("%s: Steady says before %v, ActBefore returned %v", a.who, a.before, b)
	}
	return b
}

// TestSteadyMatchesAsking plays every built-in ACKS II scenario, and
// variants whose policies declare, withdraw, rank and choose after, once
// as compiled (the referee asks a Steady policy once) and once with every
// policy's Steady hidden (the referee asks Declare on every round and Rank
// and ActBefore on every shared number, as before Steady): the traces and
// the tallies must be identical, and every answer asked must be the one
// Steady gave.
func TestSteadyMatchesAsking(t *testing.T) {
	var srcs []string
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "acks2/") {
			continue
		}
		data, _, _ := scenarios.Read(name)
		srcs = append(srcs, string(data))
	}
	srcs = append(srcs, `name: steady variants
ruleset: acks2
max_rounds: 30
distance: 40
sides:
  - name: a
    combatants:
      - {name: W, count: 2, hp: 2d8, ac: 3, damage: 1d8, policy: {name: default, withdraw_below: 6, rank: 3}}
      - {name: M, hp: 1d6, ac: 0, damage: 1d4, behind: 10, spells: [{name: missile, damage: 1d6+1, uses: 1}], policy: {name: default, spell: none, same_number: after}}
      - {name: C, hp: 1d6, ac: 0, damage: 1d4, behind: 10, spells: [{name: missile, damage: 1d6+1, uses: 2}], policy: {name: ready, rank: -2}}
  - name: b
    referee: true
    combatants:
      - {name: O, count: 4, hp: 1d8, ac: 2, damage: 1d6, policy: {name: default, same_number: after, rank: 7}}
      - {name: R, count: 2, hp: 2d8, ac: 2, damage: 1d6, policy: {name: default, withdraw_below: 5, withdraw: retreat}}
`)
	for _, src := range srcs {
		sc, err := scenario.Load("steady.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		gg, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		g := gg.(*acks2.Game)
		h := *g
		h.C = append([]acks2.Combatant(nil), g.C...)
		var declares, asks atomic.Int64
		var steady int
		for i := range h.C {
			a := asking{Policy: h.C[i].Policy, t: t, who: sc.Name + ": " + h.C[i].Name, declares: &declares, asks: &asks}
			if sp, ok := h.C[i].Policy.(acks2.Steady); ok {
				a.quiet, a.rank, a.before = sp.Steady()
				a.steady = true
				steady++
			}
			h.C[i].Policy = a
		}
		if steady == 0 {
			t.Errorf("%s: no Steady policy", sc.Name)
		}
		for enc := int64(0); enc < 200; enc++ {
			if x, y := traceText(g, enc), traceText(&h, enc); x != y {
				t.Fatalf("%s: encounter %d: the trace differs when every policy is asked:\n%s\n---\n%s", sc.Name, enc, x, y)
			}
		}
		for _, w := range []int{1, 2} {
			x, err1 := sim.Run(context.Background(), g, sim.RunConfig{Seed: 7, N: 3000, Workers: w})
			y, err2 := sim.Run(context.Background(), &h, sim.RunConfig{Seed: 7, N: 3000, Workers: w})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !reflect.DeepEqual(x, y) {
				t.Errorf("%s: %d workers: the tallies differ when every policy is asked", sc.Name, w)
			}
		}
		if declares.Load() == 0 || asks.Load() == 0 {
			t.Errorf("%s: asked Declare %d and Rank %d times: the check checked nothing", sc.Name, declares.Load(), asks.Load())
		}
	}
}

func traceText(g sim.Game, enc int64) string {
	var b strings.Builder
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	sim.Replay(g, 1, enc, &sim.Log{W: &b, Names: names})
	return b.String()
}
