package lotm

import (
	"slices"
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// Rule tests with pinned dice: every d20 comes from the script (play fails
// the test if one comes from anywhere else), so each log line is known.

const pinnedPair = `name: pinned pair
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 20, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, stealth: 2}
  - name: b
    policy: test
    combatants:
      - {name: T, hp: 20, ac: 10, dodge: 2, agility: 3, attacks: [0], damage: 1, initiative_roll: 1, investigation: 1}
`

func TestPreCombatAmbush(t *testing.T) {
	t.Run("undetected", func(t *testing.T) {
		g := compile(t, pinnedPair, "b.aware=false")
		p := play(t, g,
			15, 3, // A's stealth, Advantage: 15 + 2 = 17
			10, 12, // T's investigation, Disadvantage: 10 + 1 = 11
			4, 9, // A's attack in the Ambush Round, Advantage
			11, // round 1: A's attack, a plain roll
			19) // T's attack
		inOrder(t, p.log,
			"round - - amount=0 rule=ambush",
			"check A T die=15 roll=17 need=11 ok=true rule^='ambush: stealth vs investigation'",
			"check rule=detection ok=false",
			"attack A T die=9 roll=12 need=10 ok=true rule^='attack' rule~=[advantage] rule~='[caught off guard]'",
			"action rule='ambush round ends'",
			"round round=1",
			"attack A T die=11 roll=14 need=15 ok=false rule^='attack'",
			"attack T A die=19 roll=19 need=10 ok=true rule^='attack'")
		if p.get(0, AmbushRounds) != 1 || p.get(0, Ambushes) != 1 || p.get(0, sim.Turns) != 2 || p.out.Rounds != 1 || p.out.FirstActor != 0 {
			t.Errorf("ambush rounds %d, ambushes %d, A's turns %d, rounds %d, first actor %d; want 1, 1, 2, 1, 0",
				p.get(0, AmbushRounds), p.get(0, Ambushes), p.get(0, sim.Turns), p.out.Rounds, p.out.FirstActor)
		}
	})
	t.Run("detected", func(t *testing.T) {
		g := compile(t, pinnedPair, "b.aware=false")
		p := play(t, g, 5, 3, 10, 12, 4, 9, 11, 19)
		inOrder(t, p.log,
			"check A T die=5 roll=7 need=11 ok=false",
			"check rule=detection ok=true",
			"attack A T die=9 roll=12 need=15 ok=false rule^='attack' rule~=[advantage]")
		if p.get(0, AmbushesFoiled) != 1 {
			t.Errorf("ambushes_foiled %d, want 1", p.get(0, AmbushesFoiled))
		}
	})
	t.Run("each", func(t *testing.T) {
		// Two ambushers; T spots B2 only, so only B2's attack finds it on guard.
		g := compile(t, `name: each
ruleset: lotm
max_rounds: 1
options: {ambush_detection: each}
sides:
  - name: a
    aware: false
    policy: test
    combatants:
      - {name: T, hp: 20, ac: 10, dodge: 2, attacks: [0], damage: 0, initiative_roll: 1, investigation: 1}
  - name: b
    policy: test
    combatants:
      - {name: B1, hp: 20, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, stealth: 5}
      - {name: B2, hp: 20, ac: 10, attacks: [3], damage: 1, initiative_roll: 19, stealth: 0}
`)
		// Flanking: 2 against 1 gives side b Advantage and T Disadvantage
		// throughout, on top of the Ambush Round's.
		p := play(t, g,
			10, 1, 5, 2, // B1 stealth 10+5 = 15 vs T 2+1 = 3: B1 unseen
			6, 1, 9, 7, // B2 stealth 6+0 = 6 vs T 7+1 = 8: spotted
			1, 7, // B1 attacks T: 7+3 = 10 vs 10 (caught off guard): hit
			2, 7, // B2 attacks T: 7+3 = 10 vs 12: miss
			3, 4, // round 1: B1 attacks T, Advantage (two against one)
			8, 1, // B2
			9, 1) // T attacks B1, Disadvantage
		inOrder(t, p.log,
			"attack B1 T die=7 roll=10 need=10 ok=true rule^='attack' rule~=[advantage] rule~='[caught off guard]'",
			"attack B2 T die=7 roll=10 need=12 ok=false rule^='attack' rule~=[advantage]",
			"action rule='ambush round ends'",
			"attack B1 T die=4 roll=7 need=12 ok=false rule^='attack' rule~=[advantage]",
			"attack T B1 die=1 rule^='attack' rule~=[disadvantage]")
		if p.get(1, AmbushesFoiled) != 1 {
			t.Errorf("ambushes_foiled %d, want 1 (B2)", p.get(1, AmbushesFoiled))
		}
	})
}

// Mid-combat (movement) ambush: J, last in initiative, brings its turn
// forward ahead of E's; the teleport's Advantage lasts for the one
// immediate check (the Double Strike's second is plain); no Ambush Round;
// J does not act again at its own place.
func TestMidCombatAmbush(t *testing.T) {
	const yaml = `name: mid
ruleset: lotm
max_rounds: 1
distance: 30
sides:
  - name: a
    policy: test
    combatants:
      - {name: J, hp: 20, ac: 10, attacks: [3], damage: 1, initiative_roll: 1, teleport: 1, double_strike: 3}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 20, ac: 10, attacks: [0], damage: 1, initiative_roll: 20, invisibility: move}
`
	t.Run("before the turn", func(t *testing.T) {
		g := compile(t, yaml)
		j := pol(t, g, "J")
		j.insert, j.plan.Main = 1, MainDouble
		p := play(t, g, 2, 16, 5, 12)
		inOrder(t, p.log,
			"interrupt J E rule='mid-combat ambush'",
			"turn J rule=",
			"move J E rule=teleport",
			"attack J E die=16 roll=19 need=10 ok=true rule^='double strike' rule~=[advantage] rule~=[ambush]",
			"attack J E die=5 roll=8 need=10 ok=false rule^='double strike'",
			"turn E rule=",
			"attack E J die=12 roll=12 need=10 ok=true rule^='attack'")
		notIn(t, p.log, "round rule=ambush")
		if p.get(0, sim.Turns) != 1 || p.get(0, Insertions) != 1 || p.get(0, sim.Interrupts) != 1 || p.get(0, Ambushes) != 1 || p.out.FirstActor != 0 {
			t.Errorf("J turns %d insertions %d interrupts %d ambushes %d first %d; want 1 1 1 1 0",
				p.get(0, sim.Turns), p.get(0, Insertions), p.get(0, sim.Interrupts), p.get(0, Ambushes), p.out.FirstActor)
		}
	})
	t.Run("started attack completes first", func(t *testing.T) {
		g := compile(t, strings.Replace(yaml, "distance: 30", "distance: 0", 1))
		pol(t, g, "J").insert = 2
		pol(t, g, "E").plan.Hide = HideAfter
		p := play(t, g, 14, 3, 17)
		inOrder(t, p.log,
			"turn E rule=",
			"attack E J die=14 roll=14 need=10 ok=true rule^='attack'",
			"damage * J amount=1",
			"interrupt J E rule='mid-combat ambush'",
			"attack J E die=17 roll=20 rule^='attack' rule~=[advantage]",
			"action E rule^='hide: '") // the rest of E's turn, after J's
	})
	t.Run("insert_order", func(t *testing.T) {
		for _, order := range []string{"keep", "move"} {
			g := compile(t, strings.Replace(yaml, "max_rounds: 1", "max_rounds: 2", 1), "options.insert_order="+order)
			pol(t, g, "J").insert = 1
			p := play(t, g, 9, 12, 8, 13, 11)
			second := strings.Fields(p.from(2).Turns())
			jFirst := slices.Index(second, "J") < slices.Index(second, "E")
			if jFirst != (order == "move") {
				t.Errorf("insert_order %s: in round 2 J before E is %v; log:\n%s", order, jFirst, p.text)
			}
		}
	})
}

// Invisibility ambush: hidden, G is not targetable; its attack from hiding
// is an ambush unless the target finds it (then a normal attack); attacking
// reveals it; it hides again and ambushes again.
func TestInvisibilityAmbush(t *testing.T) {
	const yaml = `name: invisible
ruleset: lotm
max_rounds: 3
options: {search: none}
sides:
  - name: a
    policy: test
    combatants:
      - {name: G, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, invisibility: move, stealth: 4}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 30, ac: 10, attacks: [0], damage: 1, initiative_roll: 1, investigation: 1}
`
	g := compile(t, yaml)
	pol(t, g, "G").plan.Hide = HideAfter
	p := play(t, g,
		10,    // round 1: G attacks openly: 13 hit
		2,     // round 2: E's investigation, a plain roll (the flanking condition 4 is not for perception): 2 + 1 = 3
		6,     // G's stealth, plain: 6 + 4 = 10: not found
		4, 12, // G's attack, Advantage (the ambush): 15 hit
		17, // round 3: E's investigation 17 + 1 = 18
		5,  // G's stealth 5 + 4 = 9: found
		7)  // a normal attack: 7 + 3 = 10
	inOrder(t, p.log,
		"round round=1", "attack G E die=10 roll=13 rule^='attack'", "action G rule='hide: move'",
		"lost E rule~='has no enemy to act against'",
		"round round=2", "check E G die=2 roll=3 need=10 ok=false",
		"interrupt G rule='invisibility ambush'", "attack G E die=12 roll=15 need=10 ok=true rule^='attack' rule~=[advantage] rule~=[ambush]",
		"action G rule^='hide: '",
		"round round=3", "check E G die=17 roll=18 need=9 ok=true",
		"check E G ok=true rule='ambush: found'", "attack G E die=7 roll=10 need=10 ok=true rule^='attack'",
		"action G rule^='hide: '")
	if p.get(0, Hides) != 3 || p.get(0, Ambushes) != 1 || p.get(0, AmbushesFoiled) != 1 || p.get(1, HiddenFound) != 1 {
		t.Errorf("hides %d ambushes %d foiled %d found %d; want 3 1 1 1", p.get(0, Hides), p.get(0, Ambushes), p.get(0, AmbushesFoiled), p.get(1, HiddenFound))
	}

	// Issue 10 item 18: the search is a plain contest; before, the hidden G
	// had the flanking condition 4 on its Stealth (E cannot attack it), so
	// the more hidden, the harder to find.
	t.Run("search", func(t *testing.T) {
		g := compile(t, strings.Replace(strings.Replace(yaml, "options: {search: none}", "options: {search: turn}", 1), "max_rounds: 3", "max_rounds: 1", 1))
		pol(t, g, "G").plan.Hide = HideAfter
		p := play(t, g, 10, 19, 3, 9)
		inOrder(t, p.log, "action G rule^='hide: '", "turn E rule=",
			"check E G die=19 roll=20 need=7 ok=true rule^='search: investigation vs stealth'",
			"check E G ok=true rule=search", "attack E G die=9 roll=9 need=10 ok=false rule^='attack'")
	})
}

// Inserted ambush: L is not in the battle in round 1 (not targetable, not
// counted for flanking); joining in round 2 it gets an Ambush Round of its
// own, with the pre-combat checks and benefits.
func TestInsertedAmbush(t *testing.T) {
	const yaml = `name: inserted
ruleset: lotm
max_rounds: 2
sides:
  - name: a
    policy: test
    combatants:
      - {name: H, hp: 30, ac: 10, dodge: 2, attacks: [3], damage: 1, initiative_roll: 20}
  - name: b
    policy: test
    combatants:
      - {name: M, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 10}
      - {name: L, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 5, joins_round: 2, stealth: 3}
`
	g := compile(t, yaml)
	p := play(t, g,
		10, 10, // round 1: H and M, plain rolls (one on one)
		12, 1, 20, 2, // L's stealth 12 + 3 = 15 vs H's investigation 2 + 0: undetected
		3, 15, // L's attack in its Ambush Round
		5, 14, // round 2: H attacks M with Disadvantage (two against one)
		1, 19, // M
		2, 8) // L
	inOrder(t, p.log,
		"round round=1", "attack H M die=10 roll=13 rule^='attack'", "attack M H die=10 roll=13 rule^='attack'",
		"round round=2", "move L rule=join", "action - - amount=1 rule='inserted ambush round'",
		"check L H die=12 roll=15 need=2 ok=true",
		"attack L H die=15 roll=18 need=10 ok=true rule^='attack' rule~=[advantage] rule~='[caught off guard]'",
		"action rule='ambush round ends'",
		"attack H M die=5 roll=8 need=10 ok=false rule^='attack' rule~=[disadvantage]",
		"attack M H die=19 rule^='attack' rule~=[advantage]",
		"attack L H die=8 roll=11 need=12 ok=false rule^='attack' rule~=[advantage]")
	if p.get(1, AmbushRounds) != 1 || p.get(1, sim.Turns) != 4 {
		t.Errorf("ambush rounds %d, side b turns %d; want 1, 4", p.get(1, AmbushRounds), p.get(1, sim.Turns))
	}

	t.Run("joins_ambush false", func(t *testing.T) {
		g := compile(t, yaml, "b.L.joins_ambush=false")
		p := play(t, g, 10, 10, 5, 14, 1, 19, 2, 8)
		inOrder(t, p.log, "move L rule=join", "attack H M die=5 rule^='attack' rule~=[disadvantage]", "attack L H die=8 roll=11 need=12 rule^='attack' rule~=[advantage]")
		notIn(t, p.log, "round rule=ambush")
	})
}

// Stacking: the Ambush Round's Advantage and a teleport's do not stack (two
// dice, not three); an ambushed combatant's in-combat ambush in the Ambush
// Round cancels its Disadvantage for that one check (one die).
func TestStacking(t *testing.T) {
	t.Run("no stacking", func(t *testing.T) {
		g := compile(t, strings.Replace(pinnedPair, "max_rounds: 1", "max_rounds: 1\ndistance: 30", 1), "b.aware=false", "a.A.teleport=1")
		pol(t, g, "A").plan.Teleport = true
		p := play(t, g,
			15, 3, 10, 12, // detection: undetected
			3, 8, // A teleports and attacks: one Advantage
			13, // round 1: plain
			2)  // T
		inOrder(t, p.log,
			"move A T rule=teleport",
			"attack A T die=8 roll=11 need=10 ok=true rule^='attack' rule~=[advantage] rule~=[ambush] rule~='[caught off guard]'",
			"round round=1",
			"attack A T die=13 roll=16 need=15 ok=true rule^='attack'")
	})
	t.Run("the ambushed side's ambush cancels", func(t *testing.T) {
		g := compile(t, pinnedPair, "a.aware=false", "a.A.teleport=1")
		pol(t, g, "A").insert = 1
		p := play(t, g,
			9, 4, 6, 16, // T's stealth (Advantage) 9 vs A's investigation (Disadvantage) 6
			7,     // A's inserted attack: one die
			11, 5, // T's attack in its Ambush Round: Advantage
			3) // round 1: A's turn was spent; T attacks
		inOrder(t, p.log,
			"interrupt A T rule='mid-combat ambush'",
			"attack A T die=7 roll=10 need=15 ok=false rule^='attack' rule~=[cancel] rule~=[ambush]",
			"attack T A die=11 roll=11 need=10 ok=true rule^='attack' rule~=[advantage] rule~='[caught off guard]'",
			"action rule='ambush round ends'",
			"round round=1",
			"attack T A die=3 roll=3 rule^='attack'")
		if p.get(0, sim.Turns) != 1 {
			t.Errorf("A took %d turns; the inserted one was its round-1 turn", p.get(0, sim.Turns))
		}
	})
}

const delayYAML = `name: delay
ruleset: lotm
max_rounds: 2
sides:
  - name: a
    policy: test
    combatants:
      - {name: S, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 20}
      - {name: W, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 15, fighting: 3}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 30, ac: 10, armor: 2, attacks: [0], damage: 1, initiative_roll: 10}
      - {name: C, hp: 30, ac: 10, attacks: [0], damage: 1, initiative_roll: 5}
`

// Delay Action: S holds its Attack until W grapples. In round 1 the grapple
// misses: the held attack is spent and lost, not carried over; in round 2 S
// delays afresh, the grapple lands and S strikes the held B at once, with
// Advantage (B, Restrained without casting, has no means to attack S).
func TestDelayAction(t *testing.T) {
	g := compile(t, delayYAML)
	w, _ := g.Index("W")
	pol(t, g, "S").plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnAllyGrapples, Ally: w}
	pol(t, g, "W").plan.Main = MainGrapple
	p := play(t, g,
		2,      // round 1: W's grapple: 2 + 3 = 5 vs 8 (armor ignored): miss
		10, 10, // B and C attack S
		15,    // round 2: W's grapple 18 vs 8: hold
		4, 11, // S's held attack, Advantage
		3, 18, // B's break free: 3 + 0 vs W 18 + 0: still held
		10) // C
	inOrder(t, p.log,
		"round round=1",
		"delay S W rule=attack/ally_grapples",
		"attack W B die=2 roll=5 need=8 ok=false rule^='grapple'",
		"lost S rule='delay: never triggered'",
		"round round=2",
		"delay S W rule=attack/ally_grapples",
		"action W B rule='grapple: two hands'",
		"interrupt S W rule='trigger: grapples'",
		"turn S rule='delayed attack'",
		"attack S B die=11 roll=14 need=10 ok=true rule^='attack' rule~=[advantage]",
		"check B W die=3 roll=3 need=18 ok=false rule^='break free'",
		"lost B rule~='is Restrained by a grapple: no Attack actions'",
		"attack C S rule^=attack")
	if p.get(0, sim.Delays) != 2 || p.get(0, sim.ActionsLost) != 1 || p.get(0, DelaysFired) != 1 {
		t.Errorf("delays %d lost %d fired %d; want 2 1 1", p.get(0, sim.Delays), p.get(0, sim.ActionsLost), p.get(0, DelaysFired))
	}

	t.Run("enemy_in_reach", func(t *testing.T) {
		g := compile(t, `name: reach
ruleset: lotm
max_rounds: 1
distance: 20
sides:
  - name: a
    policy: test
    combatants:
      - {name: D, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 20}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 30, ac: 10, attacks: [0], damage: 1, initiative_roll: 5}
`)
		pol(t, g, "D").plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnEnemyInReach, Ally: -1}
		p := play(t, g, 12, 9)
		inOrder(t, p.log, "delay D rule=attack/enemy_in_reach",
			"move E D amount=15 rule=", "interrupt D E rule='trigger: within reach'",
			"attack D E die=12 roll=15 rule^='attack'", "attack E D die=9 rule^='attack'")
		if p.get(0, sim.Interrupts) != 1 {
			t.Errorf("interrupts %d, want 1", p.get(0, sim.Interrupts))
		}
	})
	t.Run("held move", func(t *testing.T) {
		// Holding the Move sets it aside: D does not walk on its turn.
		g := compile(t, strings.Replace(delayYAML, "max_rounds: 2", "max_rounds: 1\ndistance: 30", 1))
		pol(t, g, "S").plan = Plan{Main: MainDelay, Delay: KindMove, Trigger: OnAfterAlly, Ally: w}
		p := play(t, g, 3, 4, 5)
		inOrder(t, p.log, "delay S W rule=move/after_ally", "move W amount=25 rule=",
			"interrupt S W rule='trigger: turn ends'", "turn S rule='delayed move'", "move S amount=25 rule=")
	})
}

// Flanking / Envelopment counts, state by state.
func TestFlankingCounts(t *testing.T) {
	g := compile(t, `name: flank
ruleset: lotm
max_rounds: 5
sides:
  - name: a
    policy: test
    combatants:
      - {name: X, hp: 10, ac: 10, attacks: [0], damage: 1}
      - {name: Y, hp: 10, ac: 10, attacks: [0], damage: 1}
  - name: b
    blocks_exits: 1
    policy: test
    combatants:
      - {name: E, hp: 10, ac: 10, attacks: [0], damage: 1}
      - {name: F, hp: 10, ac: 10, attacks: [0], damage: 1, joins_round: 3}
`)
	tb := newTable(g)
	tb.r = rng.New(1, 0)
	tb.setup()
	const x, y, e, f = 0, 1, 2, 3
	check := func(what string, a, d, wa, wd int, adv, dis bool) {
		t.Helper()
		tb.presence++ // the test edits joins and ranks behind the referee's back: count again
		ca, cd := flankCountsScan(tb, a, d, true)
		ga, gd := tb.advState(a, d, true, false)
		if ca != wa || cd != wd || ga != adv || gd != dis {
			t.Errorf("%s: counts %d:%d advantage %v disadvantage %v; want %d:%d %v %v", what, ca, cd, ga, gd, wa, wd, adv, dis)
		}
	}
	// Two against one (F is still to join) against a blockade: equal, cancel.
	check("numbers vs blockade", x, e, 1, 1, false, false)
	g.BlocksExits[1] = 0
	check("numbers", x, e, 1, 0, true, false)
	check("numbers, the other way", e, x, 0, 1, false, true)
	tb.f[f].joined = true
	tb.in |= 1 << f // as join does
	check("F joined: two against two", x, e, 0, 0, false, false)
	g.C[e].Rank = 1
	tb.denseRanks() // the Table keeps the ranks dense
	check("rank", e, x, 1, 0, true, false)
	g.C[e].Rank = 0
	tb.denseRanks()
	// Condition 4: E held by Y cannot attack X; Y and E are exempt.
	tb.f[y].grappling, tb.f[e].grappledBy = e, y
	tb.unusual = true // as grapple does
	check("held target", x, e, 1, 0, true, false)
	check("the grapplers", y, e, 0, 0, false, false)
	tb.f[e].casts = 1
	check("held but can cast", x, e, 0, 0, false, false)
	tb.f[e].casts = 0
	tb.endGrapple(e)
	tb.f[x].hidden = true
	check("hidden attacker", x, e, 1, 0, true, false)
	check("against the hidden", e, x, 0, 1, false, true)
	tb.f[x].hidden = false
	tb.f[e].stunned = true
	check("stunned target", x, e, 1, 0, true, false)
	// Several conditions never give more than one Advantage, and a third
	// source of Disadvantage still cancels it.
	g.C[x].Rank = 1
	tb.denseRanks()
	check("two conditions", x, e, 2, 0, true, false)
	tb.f[x].eyeHits = 2
	check("blinded with advantage", x, e, 2, 0, true, true)
}

func TestGrapple(t *testing.T) {
	const yaml = `name: grapple
ruleset: lotm
max_rounds: 2
sides:
  - name: a
    policy: test
    combatants:
      - {name: W, hp: 30, ac: 10, attacks: [3], damage: 2, initiative_roll: 20, strength: 3, brawling: 4, strength_damage: 3}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 30, ac: 10, armor: 3, attacks: [0], damage: 1, initiative_roll: 5, strength: 2, constitution: 1}
`
	t.Run("two hands: squeeze", func(t *testing.T) {
		g := compile(t, yaml)
		pol(t, g, "W").plan.Main = MainGrapple
		p := play(t, g,
			5,     // grapple: 5 + 3 = 8 vs 10 - 3 armor = 7: hold
			10, 9, // B breaks free? 10 + 2 = 12 vs 9 + 3 = 12: tie, still held
			9, 7, // round 2: W squeezes: 9 + 4 = 13 vs 7 + 1 = 8 (plain rolls)
			3, 15) // B: 5 vs 18: still held
		inOrder(t, p.log, "attack W B die=5 roll=8 need=7 ok=true rule^='grapple'",
			"check B W die=10 roll=12 need=12 ok=false rule^='break free'",
			"lost B rule~='is Restrained by a grapple: no Attack actions'",
			"check W B die=9 roll=13 need=8 ok=true rule^='squeeze: brawling vs constitution'",
			"damage * B amount=3",
			"check B W die=3 roll=5 need=18 ok=false rule^='break free'")
	})
	t.Run("one hand: halved, attacks allowed", func(t *testing.T) {
		g := compile(t, yaml)
		wp := pol(t, g, "W")
		wp.plan.Main, wp.plan.OneHand = MainGrapple, true
		p := play(t, g,
			5,      // hold
			10, 19, // B: 12 vs (19 + 3) / 2 = 11: free
			9,     // B attacks W
			6,     // round 2: W grapples again: 9 vs 7
			2, 15) // B: 4 vs 18/2 = 9: held
		inOrder(t, p.log, "action W B rule^='grapple: one hand'",
			"check B W die=10 roll=12 need=11 ok=true rule^='break free' rule~=[halved]",
			"attack B W die=9 rule^='attack'",
			"action W B rule^='grapple: one hand'",
			"check B W die=2 roll=4 need=9 ok=false rule^='break free' rule~=[halved]")
		if p.get(1, GrapplesBroken) != 1 || p.get(0, GrapplesWon) != 2 {
			t.Errorf("broken %d won %d; want 1 2", p.get(1, GrapplesBroken), p.get(0, GrapplesWon))
		}
	})
	if floorHalf(-3) != -2 || floorHalf(7) != 3 {
		t.Errorf("floorHalf rounds toward zero: %d %d", floorHalf(-3), floorHalf(7))
	}
}

func TestVitalStrike(t *testing.T) {
	g := compile(t, `name: vital
ruleset: lotm
max_rounds: 2
sides:
  - name: a
    policy: test
    combatants:
      - {name: V, hp: 30, ac: 10, attacks: [13], damage: 1, initiative_roll: 20}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 60, ac: 10, attacks: [0], damage: 1, initiative_roll: 5, speed: 30}
`)
	pol(t, g, "V").plan = Plan{Main: MainVital, Part: Head}
	p := playDamage(t, g, 8, 19) // 8 + 13 - 10 = 11: hit; round 2: 19 hit
	inOrder(t, p.log, "attack V B die=8 roll=11 need=10 ok=true rule^='vital strike (head)'",
		"damage V B rule='vital strike: head'", "turn B rule=", "lost B rule=stunned",
		"round round=2", "attack V B die=19 rule^='vital strike (head)'")
	if p.get(1, sim.ActionsLost) != 2 || p.get(0, VitalHits) != 2 {
		t.Errorf("B lost %d turns, V hit %d times; want 2, 2", p.get(1, sim.ActionsLost), p.get(0, VitalHits))
	}
	if dealt := p.get(0, sim.DamageDealt); dealt < 2*(1+2) || dealt > 2*(1+12) {
		t.Errorf("damage %d outside 2 x (1 + 2d6)", dealt)
	}
	// Legs: -50% each, stacking additively (not halving again), never to
	// 0: the second hit and later leave 1 meter; arms -2 each on Fighting
	// checks.
	tb := newTable(g)
	tb.r = rng.New(1, 0)
	tb.setup()
	b, _ := g.Index("B")
	for k, want := range []int{30, 15, 5, 5, 5, 5, 5} {
		tb.f[b].legHits = k
		if got := tb.speed(b); got != want {
			t.Errorf("%d leg hits: speed %d, want %d", k, got, want)
		}
	}
	// Off-Balance halves first: 15, then 8 with one leg hit, 5 with two.
	tb.f[b].offBalance = true
	for k, want := range []int{15, 8, 5} {
		tb.f[b].legHits = k
		if got := tb.speed(b); got != want {
			t.Errorf("Off-Balance, %d leg hits: speed %d, want %d", k, got, want)
		}
	}
	tb.f[b].offBalance = false
	tb.f[b].armHits = 2
	if tb.armPenalty(b) != 4 {
		t.Errorf("two arm hits: penalty %d, want 4", tb.armPenalty(b))
	}
	// First Aid removes one instance (eyes first); below half HP it is a
	// Full-Round action.
	tb.f[b].eyeHits, tb.f[b].legHits, tb.f[b].hp = 2, 0, 10
	tb.f[b].used = bit(KindSwift)
	tb.firstAid(b, b)
	if tb.f[b].eyeHits != 2 {
		t.Errorf("First Aid below half HP went through after a Swift action")
	}
	tb.f[b].used = 0
	tb.c = &sim.Counts{PerSide: numCounters, Sides: make([]int64, 2*numCounters)}
	tb.firstAid(b, b)
	if tb.f[b].eyeHits != 1 || tb.f[b].used != 0xff {
		t.Errorf("First Aid: eye hits %d (want 1), used %#x (want a full round)", tb.f[b].eyeHits, tb.f[b].used)
	}
}

func TestIntimidate(t *testing.T) {
	const yaml = `name: intimidate
ruleset: lotm
max_rounds: 2
sides:
  - name: a
    policy: test
    combatants:
      - {name: I, hp: 30, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, intimidation: 2}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 30, ac: 10, attacks: [0], damage: 1, initiative_roll: 5, willpower: 1}
`
	t.Run("with its move", func(t *testing.T) {
		g := compile(t, strings.Replace(yaml, "max_rounds: 2", "max_rounds: 1", 1))
		pol(t, g, "I").plan = Plan{Swift: SwiftIntimidate}
		p := play(t, g, 15, 3)
		inOrder(t, p.log, "check I E die=15 roll=17 need=4 ok=true rule^='intimidate: intimidation vs willpower'",
			"move E I amount=30 rule=away", "turn E rule=", "lost E rule~='is not within 1 meter'")
	})
	t.Run("next round", func(t *testing.T) {
		g := compile(t, strings.Replace(yaml, "initiative_roll: 20, intimidation", "initiative_roll: 1, intimidation", 1))
		pol(t, g, "I").plan = Plan{Swift: SwiftIntimidate}
		// E (first) attacks; I intimidates: E has its Move (it did not walk):
		// it moves away at once. Round 2: E walks back and attacks; I
		// intimidates again: no Move left, E must move at its next turn.
		p := play(t, g, 12, 15, 3, 6, 15, 3)
		inOrder(t, p.log, "attack E I die=12 rule^='attack'", "move E I amount=30 rule=away",
			"round round=2", "move E amount=25 rule=", "attack E I die=6 rule^='attack'", "check I E ok=true rule^=intimidate",
			"lost E rule='must move away next turn'")
	})
}

func TestFeintAndFastDodge(t *testing.T) {
	g := compile(t, pinnedPair, "a.A.deception=3", "b.T.fast_dodge=true")
	pol(t, g, "A").plan.Swift = SwiftFeint
	p := play(t, g, 10, 2, 3, 14, 5)
	inOrder(t, p.log, "check A T die=10 roll=13 need=3 ok=true rule^='feint: deception vs investigation or intuition'",
		"attack A T die=14 roll=17 need=15 ok=true rule^='attack' rule~=[advantage] rule~=[ambush]")
	if p.get(0, FeintsWon) != 1 || p.get(0, Ambushes) != 1 {
		t.Errorf("feints won %d ambushes %d; want 1 1", p.get(0, FeintsWon), p.get(0, Ambushes))
	}
}

func TestBurnLuck(t *testing.T) {
	g := compile(t, strings.Replace(pinnedPair, "max_rounds: 1", "max_rounds: 2", 1), "a.A.luck=3")
	pol(t, g, "A").luck = LuckAttack
	// 10 + 3 = 13 vs 15: burns 2; round 2: 11 + 3 = 14 misses (once per 24 hours).
	p := play(t, g, 10, 5, 11, 5)
	inOrder(t, p.log, "attack A T die=10 roll=15 need=15 ok=true rule^='attack'",
		"attack A T die=11 roll=14 need=15 ok=false rule^='attack'")
	if p.get(0, LuckBurned) != 2 {
		t.Errorf("luck burned %d, want 2", p.get(0, LuckBurned))
	}
	// A natural 1 stays a miss.
	g = compile(t, pinnedPair, "a.A.luck=20")
	pol(t, g, "A").luck = LuckAttack
	p = play(t, g, 1, 5)
	inOrder(t, p.log, "attack A T die=1 roll=4 need=15 ok=false rule^='attack'")
	// On initiative, only with the option.
	for _, opt := range []string{"false", "true"} {
		g = compile(t, strings.Replace(pinnedPair, "initiative_roll: 1,", "initiative_roll: 16,", 1), "b.T.luck=4", "options.burn_luck_initiative="+opt)
		pol(t, g, "T").luck = LuckInitiative
		p = play(t, g, 10, 10)
		turns := strings.Fields(p.log.Turns())
		tFirst := slices.Index(turns, "T") < slices.Index(turns, "A")
		if tFirst != (opt == "true") {
			t.Errorf("burn_luck_initiative %s: T (16 + 3, + 4 luck) first is %v against A's 20; log:\n%s", opt, tFirst, p.text)
		}
	}
}

func TestInitiativeTies(t *testing.T) {
	// Equal totals and equal agility: the order is a random draw among the
	// tied (Fisher-Yates through the script), not list order.
	const yaml = `name: ties
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 30, ac: 30, attacks: [0], damage: 1, initiative_roll: 10}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 30, ac: 30, attacks: [0], damage: 1, initiative_roll: 10}
`
	for _, c := range []struct {
		pick  int
		first string
	}{{1, "B"}, {2, "A"}} {
		p := play(t, compile(t, yaml), c.pick, 5, 5)
		if !p.log.Then(t, "round round=1", "turn "+c.first) {
			t.Errorf("tie-break die %d: want %s first; log:\n%s", c.pick, c.first, p.text)
		}
	}
	// A higher Agility wins a tie outright, without a die.
	p := play(t, compile(t, yaml, "b.B.agility=1", "b.B.initiative_roll=9"), 5, 5)
	if !p.log.Then(t, "round round=1", "turn B") {
		t.Errorf("B should act first\n%s", p.text)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{`{name: x, ruleset: lotm, sides: [{name: a, aware: false, combatants: [{name: A, hp: 1, damage: 1}]}, {name: b, aware: false, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "both sides are unaware"},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, attacks: [5, 2]}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "one attack per Attack action"},
		{`{name: x, ruleset: lotm, max_rounds: 3, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, joins_round: 4}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "after max_rounds 3"},
		{`{name: x, ruleset: lotm, options: {initiative: agility}, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, initiative_roll: 4}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "rolls no die"},
		{`{name: x, ruleset: lotm, options: {ambush_detectoin: side}, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, `did you mean "ambush_detection"`},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, invisibility: always}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, `"always" is not valid`},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, casting: {bonus: 2}}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "casting.damage: missing"},
		{`{name: x, ruleset: lotm, sides: [{name: a, blocks_exits: -1, combatants: [{name: A, hp: 1, damage: 1}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "blocks_exits: -1 is out of range"},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, policy: nonsense}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, `unknown policy "nonsense"`},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, cover_item: {size: huge}}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, `"huge" is not valid`},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, obstacle: {metal: true}}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "obstacle.size: missing"},
		{`{name: x, ruleset: lotm, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1, obstacle: large}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "expected a mapping {size: medium"},
		{`{name: x, ruleset: lotm, options: {spiritual_intuition: maybe}, sides: [{name: a, combatants: [{name: A, hp: 1, damage: 1}]}, {name: b, combatants: [{name: B, hp: 1, damage: 1}]}]}`, "spiritual_intuition"},
	} {
		err := compileErr(t, c.yaml)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n  error %v; want one containing %q", c.yaml, err, c.want)
		}
	}
}

func TestDocListsEverything(t *testing.T) {
	d := Ruleset{}.Doc()
	has := func(fs []sim.Field, name string) bool {
		for _, f := range fs {
			if strings.HasPrefix(f.Name, name) {
				return true
			}
		}
		return false
	}
	if len(d.Options) != len(optionNames) {
		t.Errorf("%d options documented, %d accepted", len(d.Options), len(optionNames))
	}
	for i, o := range d.Options {
		if o.Name != optionNames[i] || o.Default == "" {
			t.Errorf("option %d: documented %q (default %q), accepted %q", i, o.Name, o.Default, optionNames[i])
		}
	}
	for _, f := range combatantFields {
		if !has(d.Fields, f) {
			t.Errorf("field %s is not documented", f)
		}
	}
	for _, c := range counterNames[sim.NumBase:] {
		if !has(d.Counters, c) {
			t.Errorf("counter %s is not documented", c)
		}
	}
	if len(counterNames) != numCounters {
		t.Errorf("%d counter names for %d counters", len(counterNames), numCounters)
	}
	def := defaultOptions()
	if def.Initiative != d.Options[0].Default || def.Detection != "side" {
		t.Errorf("defaults disagree with the documentation")
	}
}

// TestPresenceFollowsJoinsAndOuts: the presence mask and the flanking
// tallies kept between changes follow a combatant going out and one
// joining, as the fields they stand for do.
func TestPresenceFollowsJoinsAndOuts(t *testing.T) {
	g := compile(t, `name: presence
ruleset: lotm
max_rounds: 5
sides:
  - name: a
    policy: test
    combatants:
      - {name: X, hp: 10, ac: 10, attacks: [0], damage: 1}
      - {name: Y, hp: 10, ac: 10, attacks: [0], damage: 1}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 10, ac: 10, attacks: [0], damage: 1}
      - {name: F, hp: 10, ac: 10, attacks: [0], damage: 1, joins_round: 2, joins_ambush: false}
`)
	tb := newTable(g)
	tb.r = rng.New(1, 0)
	tb.c = &sim.Counts{PerSide: numCounters, Sides: make([]int64, 2*numCounters)}
	tb.setup()
	tb.rollInitiative()
	const x, y, e, f = 0, 1, 2, 3
	counts := func(what string, a, d, wa, wd int) {
		t.Helper()
		if ca, cd := flankCountsScan(tb, a, d, false); ca != wa || cd != wd {
			t.Errorf("%s: flanking counts %d:%d, want %d:%d", what, ca, cd, wa, wd)
		}
		if n := tb.flankNet(a, d, false); n != wa-wd {
			t.Errorf("%s: flankNet %d (the counts kept as joins and outs come), want %d", what, n, wa-wd)
		}
	}
	if !tb.Present(x) || !tb.Present(e) || tb.Present(f) {
		t.Fatalf("at the start: present X %v E %v F %v; want true true false", tb.Present(x), tb.Present(e), tb.Present(f))
	}
	counts("two against one (F still to join)", x, e, 1, 0)
	tb.join(2)
	if !tb.Present(f) || !tb.Targetable(x, f) {
		t.Errorf("F joined: present %v, targetable %v; want both", tb.Present(f), tb.Targetable(x, f))
	}
	counts("two against two", x, e, 0, 0)
	tb.damage(e, y, 20)
	if !tb.Out(y) || tb.Present(y) || tb.Targetable(e, y) || tb.canAttack(y, e) || tb.canAttack(e, y) {
		t.Errorf("Y out: out %v present %v targetable %v; want out and gone from the battle", tb.Out(y), tb.Present(y), tb.Targetable(e, y))
	}
	counts("one against two", x, e, 0, 1)
	if w := tb.winner(); w != -1 {
		t.Errorf("winner %d with X standing against E and F; want none", w)
	}
	tb.damage(e, x, 20)
	if w := tb.winner(); w != 1 {
		t.Errorf("winner %d with side a all out; want 1", w)
	}
}
