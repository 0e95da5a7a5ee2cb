package lotm

import (
	"math"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// testPolicy is the package's own scripted policy (package agents, which
// holds the real ones, imports this package). Registered as "test": attack
// the first enemy it can target, closing in first. Tests adjust it per
// combatant through the plan fields.
type testPolicy struct {
	plan   Plan // Target and Patient are filled in; Main defaults to MainAttack
	insert int  // 0 never, 1 ahead of an enemy's turn, 2 as an enemy starts an attack
	luck   LuckUse
}

func init() {
	RegisterPolicy("test", "test-only: attack the first enemy", func(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy {
		return &testPolicy{plan: Plan{Main: MainAttack}}
	})
}

func (p *testPolicy) Turn(t *Table, self int) Plan {
	plan := p.plan
	plan.Target = -1
	if t.Resuming(self) {
		if plan.Main == MainDelay {
			plan.Main = MainAttack
			if plan.Delay == KindCasting {
				plan.Main = MainCast
			}
		}
		if t.TriggerTarget() >= 0 {
			plan.Target = t.TriggerTarget()
			return plan
		}
	}
	for j := 0; j < t.N(); j++ {
		if t.Side(j) != t.Side(self) && t.Targetable(self, j) {
			plan.Target = j
			break
		}
	}
	if plan.Main == MainFirstAid {
		plan.Patient = self
	}
	if held := t.Grappling(self); held >= 0 {
		plan.Target, plan.Main = held, MainSqueeze
		if t.OneHand(self) {
			plan.Main = MainAttack
		}
	}
	return plan
}

func (p *testPolicy) Insert(t *Table, self, actor int, attacking bool) bool {
	return (p.insert == 1 && !attacking) || (p.insert == 2 && attacking)
}

func (p *testPolicy) Luck() LuckUse { return p.luck }

// compile loads a lotm scenario written in YAML; every combatant gets the
// test policy unless it names another.
func compile(t testing.TB, yaml string, sets ...string) *Game {
	t.Helper()
	var ss []scenario.Set
	for _, s := range sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, x)
	}
	sc, err := scenario.Load("test.yaml", []byte(yaml), ss, rulesets.Schema)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	g, err := Ruleset{}.Compile(sc)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return g.(*Game)
}

// compileErr returns the compile (or load) error of a scenario.
func compileErr(t testing.TB, yaml string) error {
	t.Helper()
	sc, err := scenario.Load("test.yaml", []byte(yaml), nil, rulesets.Schema)
	if err != nil {
		return err
	}
	_, err = Ruleset{}.Compile(sc)
	return err
}

// pol returns combatant name's test policy, to adjust.
func pol(t testing.TB, g *Game, name string) *testPolicy {
	t.Helper()
	i, ok := g.Index(name)
	if !ok {
		t.Fatalf("no combatant %s", name)
	}
	p, ok := g.C[i].Policy.(*testPolicy)
	if !ok {
		t.Fatalf("%s does not have the test policy", name)
	}
	// Each combatant gets its own copy, so adjusting one leaves the others.
	cp := *p
	g.C[i].Policy = &cp
	return &cp
}

// played is one encounter played with pinned dice.
type played struct {
	out    sim.Outcome
	text   string         // the narration, for failure messages
	log    simtest.Events // what the rules did, for assertions
	counts sim.Counts
	left   []int // script entries not consumed
}

// play plays encounter 0 of seed 1 with the dice script: every d20 (and
// tie-break die) comes from it; HP and damage are constants in these tests.
// It fails the test if any die came from the stream instead, or if the
// script was not used up.
func play(t testing.TB, g *Game, script ...int) played {
	t.Helper()
	return playScript(t, g, false, script)
}

// playDamage is play for tests whose damage dice roll: those draws come
// from the stream, the d20s still from the script.
func playDamage(t testing.TB, g *Game, script ...int) played {
	t.Helper()
	return playScript(t, g, true, script)
}

func playScript(t testing.TB, g *Game, damageDraws bool, script []int) played {
	t.Helper()
	tb := newTable(g)
	tb.script = script
	r := rng.New(1, 0)
	var b strings.Builder
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	c := sim.NewCounts(len(g.Counters()))
	log := &sim.Log{W: &b, Names: names}
	o := tb.Play(r, &c, log)
	if (r.Draws() != 0 && !damageDraws) || len(tb.script) != 0 {
		t.Fatalf("the script pinned %d dice: %d left over, %d draws from the stream; log:\n%s", len(script), len(tb.script), r.Draws(), b.String())
	}
	return played{o, b.String(), simtest.Of(log, names), c, tb.script}
}

// inOrder checks that the events fit the patterns (simtest), in order.
func inOrder(t testing.TB, log simtest.Events, pats ...string) {
	t.Helper()
	if !log.InOrder(t, pats...) {
		t.FailNow()
	}
}

// notIn checks that no event fits any of the patterns.
func notIn(t testing.TB, log simtest.Events, pats ...string) {
	t.Helper()
	for _, p := range pats {
		if m := log.Match(t, p); len(m) > 0 {
			t.Fatalf("unexpected event %q: %s", p, log.String(m[0]))
		}
	}
}

// from returns the events of round n and after.
func (p played) from(n int) simtest.Events {
	var out []sim.Event
	for _, v := range p.log.Ev {
		if v.Round >= n {
			out = append(out, v)
		}
	}
	return simtest.Events{Ev: out, Names: p.log.Names}
}

func (p played) get(side, k int) int64 { return p.counts.Get(side, k) }

// pHit is the exact probability that d20 + bonus meets pd with options
// naturals (20 hits, 1 misses), under adv/dis (2d20 keep high/low).
func pHit(bonus, pd int, adv, dis bool) float64 {
	hit := func(n int) bool { return n == 20 || (n != 1 && n+bonus >= pd) }
	return pRoll(adv, dis, func(n int) float64 {
		if hit(n) {
			return 1
		}
		return 0
	})
}

// pRoll is E[f(kept die)] over a d20 check under adv/dis.
func pRoll(adv, dis bool, f func(int) float64) float64 {
	s := 0.0
	if adv == dis {
		for n := 1; n <= 20; n++ {
			s += f(n)
		}
		return s / 20
	}
	for x := 1; x <= 20; x++ {
		for y := 1; y <= 20; y++ {
			k := max(x, y)
			if dis {
				k = min(x, y)
			}
			s += f(k)
		}
	}
	return s / 400
}

// pContest is the exact probability that a's check (bonus ab, adv state
// aa/ad) beats d's (db, da/dd), ties to the defender.
func pContest(ab int, aa, ad bool, db int, da, dd bool) float64 {
	return pRoll(aa, ad, func(x int) float64 {
		return pRoll(da, dd, func(y int) float64 {
			if x+ab > y+db {
				return 1
			}
			return 0
		})
	})
}

// within checks a simulated frequency against an exact probability within
// 4 standard errors of n Bernoulli trials.
func within(t testing.TB, what string, hits, n int64, p float64) {
	t.Helper()
	got := float64(hits) / float64(n)
	se := math.Sqrt(p * (1 - p) / float64(n))
	if diff := got - p; diff > 4*se || diff < -4*se {
		t.Errorf("%s: simulated %.5f (%d/%d), exact %.5f, off by %.1f SE (SE %.5f)", what, got, hits, n, p, diff/se, se)
	} else {
		t.Logf("%s: simulated %.5f, exact %.5f, SE %.5f", what, got, p, se)
	}
}
