package lotm

import (
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// encounters is the sample size of the statistical tests: 100,000
// encounters give a standard error of at most 0.0016 on a probability;
// under the race detector 10,000 (SE at most 0.005).
func encounters() int64 {
	if raceEnabled {
		return 10000
	}
	return 100000
}

// count plays n encounters of g at seed 7 and counts those where ok holds.
func count(g *Game, n int64, ok func(sim.Outcome) bool) int64 {
	tb := g.NewTable()
	c := sim.NewCounts(len(g.Counters()))
	var r rng.Stream
	var hits int64
	for i := int64(0); i < n; i++ {
		r.Seed(7, uint64(i))
		if ok(tb.Play(&r, &c, nil)) {
			hits++
		}
	}
	return hits
}

// One attack decides it: A (attack +3) strikes first; T has 1 HP and
// Physical Defense 10 + dodge 2 + agility 3 = 15 (10 when Caught Off Guard);
// T's attack deals no damage; max_rounds 1. So A wins exactly when its first
// hit check hits.
const oneAttack = `name: one attack
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 5, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, stealth: 2}
  - name: b
    policy: test
    combatants:
      - {name: T, hp: 1, ac: 10, dodge: 2, agility: 3, attacks: [0], damage: 0, initiative_roll: 1, investigation: 1}
`

func TestHitProbabilityExact(t *testing.T) {
	n := encounters()
	won := func(o sim.Outcome) bool { return o.Winner == 0 }
	// A win inside the Ambush Round is one with no regular round played.
	wonInAmbushRound := func(o sim.Outcome) bool { return o.Winner == 0 && o.Rounds == 0 }

	t.Run("plain", func(t *testing.T) {
		g := compile(t, oneAttack)
		within(t, "plain", count(g, n, won), n, pHit(3, 15, false, false))
	})
	t.Run("advantage", func(t *testing.T) {
		// Flanking condition 2: A's side has the higher Rank.
		g := compile(t, oneAttack, "a.A.rank=1")
		within(t, "advantage (rank)", count(g, n, won), n, pHit(3, 15, true, false))
	})
	t.Run("disadvantage", func(t *testing.T) {
		g := compile(t, oneAttack, "b.T.rank=1")
		within(t, "disadvantage (enemy rank)", count(g, n, won), n, pHit(3, 15, false, true))
	})
	t.Run("flat advantage", func(t *testing.T) {
		g := compile(t, oneAttack, "a.A.rank=1", "options.advantage=flat")
		within(t, "advantage: flat (+5)", count(g, n, won), n, pHit(8, 15, false, false))
	})
	t.Run("both cancel", func(t *testing.T) {
		// A's side is ambushed (Disadvantage in T's Ambush Round); A brings
		// its turn forward into that round with a teleport (an in-combat
		// ambush, Advantage for that check): one of each cancels.
		g := compile(t, oneAttack, "a.aware=false", "a.A.teleport=1")
		pol(t, g, "A").insert = 1
		within(t, "advantage and disadvantage", count(g, n, wonInAmbushRound), n, pHit(3, 15, false, false))
	})
	t.Run("build-up aim", func(t *testing.T) {
		g := compile(t, oneAttack)
		pol(t, g, "A").plan.Swift = SwiftAim
		within(t, "build-up aim (+2)", count(g, n, won), n, pHit(5, 15, false, false))
	})
	t.Run("caught off guard", func(t *testing.T) {
		// A's side ambushes: Advantage in the Ambush Round, and T is Caught
		// Off Guard (defense 10) when A's stealth +2 (with Advantage) beats
		// T's investigation +1 (with Disadvantage); a tie goes to T.
		g := compile(t, oneAttack, "b.aware=false")
		undetected := pContest(2, true, false, 1, false, true)
		p := undetected*pHit(3, 10, true, false) + (1-undetected)*pHit(3, 15, true, false)
		within(t, "caught off guard (ambush round)", count(g, n, wonInAmbushRound), n, p)
	})
	t.Run("feint", func(t *testing.T) {
		// A feint (deception +2 vs the higher of investigation +1 and
		// intuition 0, plain rolls): won, the attack is an ambush
		// (Advantage) against a target Caught Off Guard.
		g := compile(t, oneAttack, "a.A.deception=2")
		pol(t, g, "A").plan.Swift = SwiftFeint
		won := pContest(2, false, false, 1, false, false)
		p := won*pHit(3, 10, true, false) + (1-won)*pHit(3, 15, false, false)
		within(t, "feint", count(g, n, func(o sim.Outcome) bool { return o.Winner == 0 }), n, p)
	})
}

// A small duel solved by dynamic programming over (HP of A, HP of B, whose
// turn): A has 6 HP, hits B (Physical Defense 11) with +4 for 1d4; B has 7
// HP, hits A (Physical Defense 12) with +3 for 1d3. Initiative: d20 + 2
// against d20 + 1, a tie to the higher Agility (A).
const duel = `name: duel
ruleset: lotm
max_rounds: 1000
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 6, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d4}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 7, ac: 10, agility: 1, attacks: [3], damage: 1d3}
`

// duelWin is P(A wins) from the start.
func duelWin(hpA, hpB int, pA, pB float64, dA, dB int, aFirst float64) float64 {
	// f[a][b]: A about to attack; g[a][b]: B about to attack.
	f := make([][]float64, hpA+1)
	g := make([][]float64, hpA+1)
	for a := range f {
		f[a] = make([]float64, hpB+1)
		g[a] = make([]float64, hpB+1)
	}
	for a := 1; a <= hpA; a++ {
		for b := 1; b <= hpB; b++ {
			x := 0.0 // A hits: B at b-d
			for d := 1; d <= dA; d++ {
				if b-d <= 0 {
					x += 1
				} else {
					x += g[a][b-d]
				}
			}
			x /= float64(dA)
			y := 0.0 // B hits: A at a-d
			for d := 1; d <= dB; d++ {
				if a-d > 0 {
					y += f[a-d][b]
				}
			}
			y /= float64(dB)
			// f = pA x + (1-pA) g, g = pB y + (1-pB) f
			f[a][b] = (pA*x + (1-pA)*pB*y) / (1 - (1-pA)*(1-pB))
			g[a][b] = pB*y + (1-pB)*f[a][b]
		}
	}
	return aFirst*f[hpA][hpB] + (1-aFirst)*g[hpA][hpB]
}

func TestDuelDynamicProgramming(t *testing.T) {
	aFirst := 0.0
	for x := 1; x <= 20; x++ {
		for y := 1; y <= 20; y++ {
			if x+2 >= y+1 { // a tie goes to the higher agility, A's
				aFirst += 1.0 / 400
			}
		}
	}
	p := duelWin(6, 7, pHit(4, 11, false, false), pHit(3, 12, false, false), 4, 3, aFirst)
	g := compile(t, duel)
	n := encounters()
	draws := count(g, n, func(o sim.Outcome) bool { return o.Winner < 0 })
	if draws != 0 {
		t.Fatalf("%d draws in a duel of at most 13 hits", draws)
	}
	within(t, "duel P(A wins)", count(g, n, func(o sim.Outcome) bool { return o.Winner == 0 }), n, p)
	if p < 0.3 || p > 0.8 {
		t.Errorf("exact P(A wins) = %.4f; the duel was meant to be close", p)
	}
}

// The hot loop allocates nothing per encounter, with every rule in play:
// an Ambush Round with detection, insertions, teleports, invisibility,
// flanking, grapples, delays and their triggers, vital strikes, joiners.
func TestPlayAllocatesNothing(t *testing.T) {
	g := compile(t, `name: everything
ruleset: lotm
max_rounds: 20
distance: 20
sides:
  - name: a
    aware: false
    blocks_exits: 2
    policy: test
    combatants:
      - {name: Jumper, hp: 20, ac: 9, attacks: [4], damage: 1d6, teleport: 2, casting: {bonus: 3, damage: 2d4, uses: 2}}
      - {name: Ghost, hp: 15, ac: 9, attacks: [4], damage: 1d6, invisibility: move, stealth: 5, double_strike: 3}
      - {name: Holder, hp: 20, ac: 9, attacks: [4], damage: 1d6, strength: 3}
      - {name: Waiter, hp: 20, ac: 9, attacks: [4], damage: 1d6, luck: 5}
  - name: b
    policy: test
    combatants:
      - {name: Brute, count: 3, hp: 25, ac: 9, attacks: [5], damage: 1d8, stealth: 3, rank: 1}
      - {name: Late, hp: 20, ac: 9, attacks: [4], damage: 1d6, joins_round: 2}
`)
	pol(t, g, "Jumper").insert = 1
	pol(t, g, "Ghost").plan = Plan{Main: MainDouble, Hide: HideAfter, Swift: SwiftFeint}
	pol(t, g, "Holder").plan = Plan{Main: MainGrapple, Swift: SwiftIntimidate}
	w := pol(t, g, "Waiter")
	w.plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnAllyGrapples, Ally: -1, Swift: SwiftAim}
	w.luck = LuckAttack
	b, _ := g.Index("Brute#1")
	g.C[b].Policy = &testPolicy{plan: Plan{Main: MainVital, Part: Legs}}
	tb := g.NewTable()
	c := sim.NewCounts(len(g.Counters()))
	var r rng.Stream
	i := uint64(0)
	allocs := testing.AllocsPerRun(500, func() {
		r.Seed(3, i)
		i++
		tb.Play(&r, &c, nil)
	})
	if allocs != 0 {
		t.Errorf("Play allocates %.2f times per encounter; want 0", allocs)
	}
	for _, k := range []int{AmbushRounds, Insertions, Hides, Grapples, sim.Delays, DoubleStrikes, Feints, Intimidations} {
		if c.Get(0, k)+c.Get(1, k) == 0 {
			t.Errorf("counter %s never moved: the allocation test does not exercise it", counterNames[k])
		}
	}
	if c.Get(1, VitalStrikes) == 0 || c.Get(0, sim.ActionsLost)+c.Get(0, DelaysFired) == 0 {
		t.Errorf("vital strikes %d, delays lost+fired %d: not exercised", c.Get(1, VitalStrikes), c.Get(0, sim.ActionsLost)+c.Get(0, DelaysFired))
	}
}

// Spiritual Intuition against the exact probability: the ambushed T
// (intuition 8) is Caught Off Guard unless d20 + 8 >= 25 (P = 4/20); A's
// Ambush Round attack with Advantage then needs Physical Defense 15 or 10.
// Reading "more than 25" instead (P = 3/20) moves the rate by 0.0106, about
// 10 SE at 100,000 encounters.
func TestSpiritualIntuitionExact(t *testing.T) {
	n := encounters()
	g := compile(t, oneAttack, "b.aware=false", "b.T.intuition=8", "options.spiritual_intuition=true", "options.ambush_detection=none")
	hits := count(g, n, func(o sim.Outcome) bool { return o.Winner == 0 && o.Rounds == 0 })
	p := 0.2*pHit(3, 15, true, false) + 0.8*pHit(3, 10, true, false)
	within(t, "won in the Ambush Round with spiritual intuition", hits, n, p)
}
