package traitrun

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/rng"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// The moments, quantities and facts of a ruleset that is none of the
// four: what is tested here is the runner, not a ruleset's table.
const (
	mHit, mTurn = 0, 1
	qDamage     = 0
	cProne      = 0
	cHidden     = 1
	fHP         = 0
	fCrit       = 1
	fFlanked    = 2
)

func toyDecl() *traits.Decl {
	return &traits.Decl{
		Ruleset:     "toy",
		ActionCosts: []string{"standard"},
		Moments: []traits.Moment{
			{Name: "hit", Other: "target", Quantities: []string{"damage"}},
			{Name: "turn_start", Quantities: []string{"actions"}},
			{Name: "special", Action: true, Quantities: []string{"actions"}},
		},
		Quantities: []traits.Quantity{{Name: "damage", Dice: true}, {Name: "actions"}},
		Conditions: []traits.Condition{{Name: "prone"}, {Name: "hidden"}},
		Facts: []traits.Fact{
			{Name: "hp", Type: lang.Number},
			{Name: "crit", Type: lang.Bool, Event: true, Moments: []string{"hit"}},
			{Name: "flanked", Type: lang.Bool},
		},
		BonusTypes: []traits.BonusType{{Name: "morale"}, {Name: "dodge", Stacks: true}},
	}
}

// roster is a scenario of two sides: heroes (A, and B twice) and
// monsters (C), with the traits: given to each entry and side and the
// house rules given, as YAML ("" for none). Combatants are numbered A 0,
// B 1 and 2, C 3.
type roster struct {
	a, b, c, heroes, rules string
}

func (ro roster) read(t *testing.T, first []int) (*Set, *scenario.Reporter) {
	t.Helper()
	node := func(src string) *yaml.Node {
		if src == "" {
			return nil
		}
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Content[0]
	}
	cb := func(name string, count int, tr string) scenario.Combatant {
		return scenario.Combatant{Name: name, Count: count, Extra: map[string]*yaml.Node{"traits": node(tr)}, Path: name}
	}
	rep := &scenario.Reporter{File: "toy.yaml"}
	sc := &scenario.Scenario{
		Sides: []scenario.Side{
			{Name: "heroes", Path: "heroes", Extra: map[string]*yaml.Node{"traits": node(ro.heroes)}, Combatants: []scenario.Combatant{cb("A", 1, ro.a), cb("B", 2, ro.b)}},
			{Name: "monsters", Path: "monsters", Combatants: []scenario.Combatant{cb("C", 1, ro.c)}},
		},
		Rules: node(ro.rules),
		Rep:   rep,
		Dec:   scenario.NewDecoder(rep),
	}
	return ReadAt(sc, toyDecl(), Lib{}, first), rep
}

func (ro roster) set(t *testing.T) *Set {
	t.Helper()
	s, rep := ro.read(t, nil)
	if rep.Errs != nil {
		t.Fatalf("errors: %v", rep.Errs)
	}
	if s == nil {
		t.Fatal("no traits")
	}
	return s
}

// host is a referee: hit points by combatant, names, and (as a CondHost)
// the hidden condition, which it keeps itself.
type host struct {
	hp     []float64
	hidden []bool
}

func (h *host) Fact(id, who int) float64 {
	if id == fHP && who >= 0 {
		return h.hp[who]
	}
	return 0
}
func (h *host) Name(i int) string            { return []string{"A", "B1", "B2", "C"}[i] }
func (h *host) Cond(i, cond int) bool        { return h.hidden[i] }
func (h *host) SetCond(i, cond int, on bool) { h.hidden[i] = on }

// run is a runner of s over four combatants, with a counter for every
// trait's "fired" and "added" and a narration.
type run struct {
	*Runner
	h   *host
	c   sim.Counts
	out strings.Builder
}

type registry struct{ n int }

func (r *registry) AddRuleCounter(sim.RuleCounter) int { r.n++; return r.n - 1 }

func newRun(s *Set) *run {
	var reg registry
	s.Register(&reg)
	x := &run{h: &host{hp: []float64{10, 10, 10, 10}, hidden: make([]bool, 4)}}
	x.c = sim.NewCounts(1)
	x.c.Rules = make([]int64, reg.n)
	x.Runner = NewRunner(s, x.h)
	x.Start(rng.New(1, 0), &x.c, &sim.Log{W: &x.out})
	return x
}

// hit fires self's hit traits against other on damage d; the damage after.
func (x *run) hit(self, other, d int) int {
	c := Ctx{M: mHit, Self: self, Other: other}
	c.Q[qDamage] = d
	x.Fire(&c)
	return c.Q[qDamage]
}

// counts are trait k's fired and added counters.
func (x *run) counts(k int) (int64, int64) {
	n := x.Set.List[k].Counter
	return x.c.Rules[n], x.c.Rules[n+1]
}

// ReadAt gives each combatant, copy by copy, the house rules of its side
// (or everyone's) first, then its side's traits, then its own, in the
// order written, with its own uses; numbering follows first when given.
func TestReadAtOrder(t *testing.T) {
	ro := roster{
		a:      "[{name: Own, on: hit, do: damage += 1}, {name: Dash, action: standard, do: grant action}]",
		b:      "[{name: Pair, on: hit, uses: 1/round, do: damage += 1}]",
		heroes: "[{name: Banner, on: hit, do: damage += 1}]",
		rules:  "[{name: Mob, on: hit, side: monsters, do: damage += 1}, {name: All, on: hit, do: damage += 1}, {name: Off, on: hit, enabled: false, do: damage += 1}]",
	}
	s := ro.set(t)
	names := func(m, i int) string {
		var out []string
		for _, k := range s.On[m][i] {
			out = append(out, s.List[k].Name)
		}
		return strings.Join(out, " ")
	}
	for i, want := range []string{"All Banner Own", "All Banner Pair", "All Banner Pair", "Mob All"} {
		if got := names(mHit, i); got != want {
			t.Errorf("combatant %d at hit: %q, want %q", i, got, want)
		}
	}
	if len(s.PerRound) != 2 || s.List[s.PerRound[0]].Owner != 1 || s.List[s.PerRound[1]].Owner != 2 {
		t.Errorf("per-round uses: %v", s.PerRound)
	}
	if k := s.Action(0, "Dash"); k < 0 || s.List[k].Action != "standard" || s.Action(1, "Dash") != -1 || s.Action(0, "Own") != -1 {
		t.Errorf("Dash: A's %d, B1's %d, Own as an action %d", s.Action(0, "Dash"), s.Action(1, "Dash"), s.Action(0, "Own"))
	}
	if got := s.ActionNames(0); len(got) != 1 || got[0] != "Dash" {
		t.Errorf("A's actions: %v", got)
	}
	if len(s.On[mTurn][0]) != 0 || s.Any(mTurn, 0) || !s.Any(mHit, 3) {
		t.Error("Any: wrong moment or combatant")
	}
	// Entry k's copies numbered from first[k]: C first, then B's, then A.
	s2, _ := ro.read(t, []int{3, 1, 0})
	if got := names2(s2, mHit, 0); got != "Mob All" {
		t.Errorf("with first: combatant 0 has %q, want C's", got)
	}
	if got := names2(s2, mHit, 3); got != "All Banner Own" {
		t.Errorf("with first: combatant 3 has %q, want A's", got)
	}
	// No traits anywhere: nil, which the referee's hooks test for.
	if s, rep := (roster{}).read(t, nil); s != nil || rep.Errs != nil {
		t.Errorf("no traits: %v, %v", s, rep.Errs)
	}
	var nilSet *Set
	if nilSet.Action(0, "Dash") != -1 || nilSet.ActionNames(0) != nil || NewRunner(nilSet, nil) != nil {
		t.Error("a nil Set is not empty")
	}
}

func names2(s *Set, m, i int) string {
	var out []string
	for _, k := range s.On[m][i] {
		out = append(out, s.List[k].Name)
	}
	return strings.Join(out, " ")
}

// Uses: a per-fight use is spent for good, a per-round one renews at
// each round start, and Start renews both; a trait whose when: is false
// spends none. Every firing counts "fired" once and "added" by what it
// added.
func TestFireUses(t *testing.T) {
	x := newRun(roster{a: "[{name: Once, on: hit, uses: 1, do: damage += 3}, {name: Jab, on: hit, uses: 1/round, when: target.hp > 5, do: damage += 1}]"}.set(t))
	x.h.hp[3] = 2 // C: Jab's when: is false
	if got := x.hit(0, 3, 4); got != 7 {
		t.Errorf("first hit: damage %d, want 4 + 3 (Jab's when: false)", got)
	}
	x.h.hp[3] = 10
	if got := x.hit(0, 3, 4); got != 5 {
		t.Errorf("second hit: damage %d, want 4 + 1 (Once spent)", got)
	}
	if got := x.hit(0, 3, 4); got != 4 {
		t.Errorf("third hit: damage %d, want 4 (Jab spent this round)", got)
	}
	x.RoundStart()
	if got := x.hit(0, 3, 4); got != 5 {
		t.Errorf("next round: damage %d, want 4 + 1", got)
	}
	if f, a := x.counts(0); f != 1 || a != 3 {
		t.Errorf("Once counted fired %d added %d, want 1, 3", f, a)
	}
	if f, a := x.counts(1); f != 2 || a != 2 {
		t.Errorf("Jab counted fired %d added %d, want 2, 2", f, a)
	}
	x.Start(rng.New(2, 0), &x.c, nil)
	if got := x.hit(0, 3, 0); got != 4 {
		t.Errorf("a new encounter: damage %d, want 3 + 1 (uses renewed)", got)
	}
}

// Conditions: applied for N rounds, a condition lasts N round starts,
// and its end is narrated; a guard on it (when: target.prone) fires only
// while it holds; remove ends it at once; a condition the host keeps
// (hidden) is read and set through the host.
func TestFireConditions(t *testing.T) {
	x := newRun(roster{
		a: "[{name: Kick, on: hit, when: target.prone, do: damage += 10}, {name: Trip, on: hit, do: apply prone to target for 2 rounds}]",
		c: "[{name: Up, on: turn_start, do: remove prone}, {name: Vanish, on: turn_start, do: apply hidden}]",
	}.set(t))
	x.HostCond(cHidden)
	if !x.Set.List[0].guard {
		t.Fatal("Kick's when: target.prone is not a guard")
	}
	if got := x.hit(0, 3, 1); got != 1 || !x.Has(3, cProne) {
		t.Fatalf("first hit: damage %d (Kick fired before Trip?), C prone %v", got, x.Has(3, cProne))
	}
	if got := x.hit(0, 3, 1); got != 11 {
		t.Errorf("C prone: damage %d, want 1 + 10", got)
	}
	x.RoundStart()
	if !x.Has(3, cProne) {
		t.Error("prone for 2 rounds ended after one round start")
	}
	x.RoundStart()
	if x.Has(3, cProne) {
		t.Error("prone for 2 rounds outlasted two round starts")
	}
	if !strings.Contains(x.out.String(), "  C is no longer prone\n") {
		t.Errorf("the end of prone is not narrated:\n%s", x.out.String())
	}
	x.hit(0, 3, 1)
	c := Ctx{M: mTurn, Self: 3, Other: -1}
	x.Fire(&c)
	if x.Has(3, cProne) || !x.Has(3, cHidden) || !x.h.hidden[3] {
		t.Errorf("after Up and Vanish: prone %v, hidden %v (host's %v)", x.Has(3, cProne), x.Has(3, cHidden), x.h.hidden[3])
	}
	x.h.hidden[3] = false // the host clears it itself
	if x.Has(3, cHidden) {
		t.Error("hidden is read from the runner, not from the host that keeps it")
	}
	if x.Has(-1, cProne) {
		t.Error("no one is prone")
	}
}

// Typed bonuses: of one type that does not stack only the highest bonus
// (and the worst penalty) applies to one roll, in whatever order they
// come, and the trace says which; a type that stacks adds up; a new roll
// starts over; untyped bonuses always add.
func TestFireTypedBonuses(t *testing.T) {
	for _, tc := range []struct {
		traits string
		want   int
	}{
		{"[{name: Bless, on: hit, do: damage += 2 as morale}, {name: Heroism, on: hit, do: damage += 3 as morale}]", 10 + 3},
		{"[{name: Heroism, on: hit, do: damage += 3 as morale}, {name: Bless, on: hit, do: damage += 2 as morale}]", 10 + 3},
		{"[{name: Fear, on: hit, do: damage -= 2 as morale}, {name: Dread, on: hit, do: damage -= 4 as morale}, {name: Bless, on: hit, do: damage += 1 as morale}]", 10 - 4 + 1},
		{"[{name: D1, on: hit, do: damage += 1 as dodge}, {name: D2, on: hit, do: damage += 2 as dodge}]", 10 + 3},
		{"[{name: U1, on: hit, do: damage += 2}, {name: U2, on: hit, do: damage += 2}]", 10 + 4},
	} {
		x := newRun(roster{a: tc.traits}.set(t))
		for roll := 0; roll < 2; roll++ {
			if got := x.hit(0, 3, 10); got != tc.want {
				t.Errorf("%s, roll %d: damage %d, want %d\n%s", tc.traits, roll, got, tc.want, x.out.String())
			}
		}
	}
	x := newRun(roster{a: "[{name: Bless, on: hit, do: damage += 2 as morale}, {name: Heroism, on: hit, do: damage += 3 as morale}, {name: Cheer, on: hit, do: damage += 1 as morale}]"}.set(t))
	x.hit(0, 3, 10)
	for _, want := range []string{
		"  A's Bless: damage += 2 as morale (damage 10 -> 12)",
		"  A's Heroism: damage += 3 as morale (damage 12 -> 13: replaces A's Bless, a morale bonus of 2)",
		"  A's Cheer: damage += 1 as morale (damage 13 -> 13: does not stack with A's Heroism, a morale bonus of 3)",
	} {
		if !strings.Contains(x.out.String(), want+"\n") {
			t.Errorf("no line %q in\n%s", want, x.out.String())
		}
	}
}

// Facts: the moment's own (crit) read from Ctx.E where the binding puts
// them, a party's fact of this attack (target.flanked) from Ctx.E at its
// moment, any other from the host; a quantity bound keeps what effects
// leave within its range.
func TestFireFactsAndBounds(t *testing.T) {
	x := newRun(roster{a: "[{name: Crit, on: hit, when: crit, do: damage += 5}, {name: Flank, on: hit, when: target.flanked and self.hp > 5, do: damage += 100}, {name: Cut, on: hit, do: damage -= 200}]"}.set(t))
	x.Bind(Binding{
		Bounds:  []Bound{{Moment: mHit, Quantity: qDamage, Min: 0, Max: 50}},
		Events:  []EventSlot{{Fact: fCrit, Slot: 0}},
		Parties: []PartySlot{{Moment: mHit, Fact: fFlanked, Who: traits.Other, Slot: 1}},
	})
	hit := func(crit, flanked int) (int, int) {
		c := Ctx{M: mHit, Self: 0, Other: 3}
		c.Q[qDamage], c.E[0], c.E[1] = 1, crit, flanked
		x.Fire(&c)
		f1, _ := x.counts(0)
		f2, _ := x.counts(1)
		return int(f1), int(f2)
	}
	if crit, flank := hit(0, 0); crit != 0 || flank != 0 {
		t.Errorf("no crit, not flanked: Crit fired %d, Flank %d", crit, flank)
	}
	if crit, flank := hit(1, 1); crit != 1 || flank != 1 {
		t.Errorf("crit, flanked: Crit fired %d, Flank %d", crit, flank)
	}
	x.h.hp[0] = 3
	if _, flank := hit(0, 1); flank != 1 {
		t.Errorf("self.hp 3: Flank fired again (%d)", flank)
	}
	// 1 + 5 = 6, + 100 capped at 50, then - 200 floored at 0: "added" is
	// what the bound let through.
	if _, added := x.counts(1); added != 44 {
		t.Errorf("Flank added %d, want 44 (6 -> 50 at the cap)", added)
	}
	c := Ctx{M: mHit, Self: 0, Other: 3}
	c.Q[qDamage] = 10
	x.Fire(&c)
	if c.Q[qDamage] != 0 {
		t.Errorf("damage %d after Cut, want 0 (the bound's floor)", c.Q[qDamage])
	}
}

// Special actions: CanTake needs a use left and its when:, Take spends
// the use, counts it and applies its effects.
func TestTakeAction(t *testing.T) {
	x := newRun(roster{a: "[{name: Dash, action: standard, uses: 1, when: self.hp > 5, do: grant action}]"}.set(t))
	k := x.Set.Action(0, "Dash")
	c := Ctx{M: 2, Self: 0, Other: -1}
	x.h.hp[0] = 3
	if x.CanTake(k, &c) {
		t.Error("Dash can be taken with self.hp 3")
	}
	x.h.hp[0] = 10
	if !x.CanTake(k, &c) {
		t.Fatal("Dash cannot be taken")
	}
	x.Take(k, &c)
	if c.Q[1] != 1 || x.CanTake(k, &c) {
		t.Errorf("after Dash: actions %d, can take again %v", c.Q[1], x.CanTake(k, &c))
	}
	if f, a := x.counts(k); f != 1 || a != 1 {
		t.Errorf("Dash counted fired %d added %d", f, a)
	}
}
