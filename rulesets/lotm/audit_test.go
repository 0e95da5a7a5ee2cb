package lotm

import (
	"strings"
	"testing"

	"simctl/sim"
)

// Rule tests for the referee audit (issue 10, items 14-19 and 21 for LotM),
// with pinned dice like rules_test.go. Each fails on the code before the fix.

// Item 14: S delays its Attack until W's turn ends; B's Vital Strike to the
// head stuns S in between, so when the trigger comes S is stunned and the
// held attack is lost (before: S took it anyway).
func TestStunnedDelayerLosesHeldAction(t *testing.T) {
	g := compile(t, `name: stunned delayer
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: S, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20}
      - {name: W, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 5}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 40, ac: 10, attacks: [15], damage: 1, initiative_roll: 10}
      - {name: C, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 1}
`)
	w, _ := g.Index("W")
	pol(t, g, "S").plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnAfterAlly, Ally: w}
	pol(t, g, "B").plan = Plan{Main: MainVital, Part: Head}
	p := playDamage(t, g,
		10,   // B's Vital Strike at S's head: 10 + 15 - 10 = 15 vs 10: hit (2d6 from the stream)
		5,    // W attacks B
		5, 6) // C attacks the stunned S: Advantage (S has no means to attack it)
	inOrder(t, p.log,
		"S delays its attack action until after_ally (W)",
		"B: vital strike (head) vs S: d20 10 +5 = 15 vs physical defense 10: hit",
		"W: attack vs B",
		"trigger for S: W's turn ends",
		"S is stunned: its delayed attack action is lost",
		"C: attack vs S: d20 6 (advantage)")
	notIn(t, p.log, "S takes its delayed attack action")
	if p.get(0, DelaysFired) != 0 || p.get(0, sim.ActionsLost) != 1 {
		t.Errorf("delays fired %d, actions lost %d; want 0, 1", p.get(0, DelaysFired), p.get(0, sim.ActionsLost))
	}
	if p.out.FirstActor != 2 || p.out.FirstInOrder != 0 {
		t.Errorf("first actor %d, first in order %d; want 2 (B: S's delay is not an action), 0 (S)", p.out.FirstActor, p.out.FirstInOrder)
	}
}

// Item 15: E's Intimidate makes J spend its Move moving away; when E then
// starts its attack, J (teleport left, insert: 2) has no Move for the
// flame-jump, so there is no mid-combat ambush and its turn stays at its
// place (before: the turn was brought forward and the teleport failed).
func TestNoMovementAmbushWithoutMove(t *testing.T) {
	g := compile(t, `name: no move left
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: J, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 1, teleport: 1}
      - {name: K, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 2}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 20, intimidation: 10}
      - {name: F, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 10}
`)
	pol(t, g, "J").insert = 2
	pol(t, g, "E").plan.Swift = SwiftIntimidate
	p := play(t, g,
		15, 1, // E's Intimidate 25 vs J's willpower 1: J moves away
		10, // E closes in and attacks J
		10, // F attacks J
		10, // K attacks E
		10) // J at its own place: E came to it
	inOrder(t, p.log,
		"intimidate: intimidation vs willpower: E d20 15 +10 = 25 vs J d20 1 +0 = 1: E wins",
		"J moves 30 ft away from E",
		"E: attack vs J",
		"F: attack vs J",
		"K's turn", "K: attack vs E",
		"J's turn", "J: attack vs E: d20 10")
	notIn(t, p.log, "J brings its turn forward")
	if p.get(0, Insertions) != 0 || p.get(0, sim.Interrupts) != 0 {
		t.Errorf("insertions %d, interrupts %d; want 0, 0", p.get(0, Insertions), p.get(0, sim.Interrupts))
	}

	// With its Move, the same J does bring its turn forward (the teleport
	// is the ambush), ahead of the rest of E's turn.
	g = compile(t, `name: move left
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: J, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 1, teleport: 1}
      - {name: K, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 2}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 20}
      - {name: F, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 10}
`)
	pol(t, g, "J").insert = 2
	p = play(t, g, 10, 4, 12, 10, 10)
	inOrder(t, p.log, "E: attack vs J", "J brings its turn forward, ahead of E",
		"J teleports to E's face", "J: attack vs E: d20 12 (advantage)")
}

// Item 16: a charge from invisibility is an invisibility ambush and reveals
// the charger, which E can then target (before: G stayed hidden, charged
// with the flanking condition 4 and E found no one to attack).
func TestChargeRevealsInvisible(t *testing.T) {
	g := compile(t, `name: invisible charge
ruleset: lotm
max_rounds: 1
distance: 0
options: {search: none}
sides:
  - name: a
    policy: test
    combatants:
      - {name: G, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, invisibility: swift, stealth: 4, strength: 2}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 1, investigation: 1}
`)
	pol(t, g, "G").plan = Plan{Main: MainCharge, Hide: HideBefore}
	p := play(t, g,
		1, 10, // E's investigation 2 vs G's stealth 14: not found
		3, 12, // G's charge, Advantage (the ambush): 12 + 2 = 14
		5, 17, // E's strength, Disadvantage (the ambush's, on the opposing roll): 5
		10) // E attacks G
	inOrder(t, p.log,
		"G turns invisible (swift action)",
		"invisibility ambush: investigation vs stealth: E d20 1 +1 = 2 vs G d20 10 +4 = 14: G wins",
		"G ambushes from invisibility",
		"charge: strength vs strength or agility: G d20 12 (advantage) +2 = 14 vs E d20 5 (disadvantage) +0 = 5: G wins",
		"E is Off-Balance",
		"E: attack vs G: d20 10")
	notIn(t, p.log, "E has no enemy to act against")
}

// Item 17: discovery is per observer. E1 finds the hidden G and attacks
// it; E2 fails its search, cannot target G and attacks A instead (before:
// E1's find revealed G to everyone and E2 attacked G).
func TestDiscoveryPerObserver(t *testing.T) {
	g := compile(t, `name: per observer
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: G, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, invisibility: move, stealth: 4}
      - {name: A, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 1}
  - name: b
    policy: test
    combatants:
      - {name: E1, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 10, investigation: 5}
      - {name: E2, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 5}
`)
	pol(t, g, "G").plan.Hide = HideAfter
	p := play(t, g,
		10,    // G attacks E1, then hides
		15, 2, // E1's search 20 vs G's 6: found
		10,    // E1 attacks G
		2, 15, // E2's search 2 vs G's 19: not found
		10, // E2 attacks A
		10) // A attacks E1
	inOrder(t, p.log,
		"G turns invisible",
		"E1's turn", "search: investigation vs stealth: E1 d20 15 +5 = 20 vs G d20 2 +4 = 6: E1 wins", "E1 finds G",
		"E1: attack vs G",
		"E2's turn", "search: investigation vs stealth: E2 d20 2 +0 = 2 vs G d20 15 +4 = 19: G wins",
		"E2: attack vs A",
		"A: attack vs E1")
	if p.get(1, HiddenFound) != 1 {
		t.Errorf("hidden_found %d, want 1", p.get(1, HiddenFound))
	}
}

// Item 19: with casting_slot separate a plan's Also is a second main action
// with the other slot: the caster casts and attacks in one turn. With
// shared, the second is refused (one Attack/Casting action).
func TestCastingSlotSeparate(t *testing.T) {
	const yaml = `name: cast and strike
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: M, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, casting: {bonus: 5, damage: 2}}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 1}
`
	g := compile(t, yaml, "options.casting_slot=separate")
	pol(t, g, "M").plan = Plan{Main: MainCast, Also: MainAttack}
	p := play(t, g, 10, 11, 9)
	inOrder(t, p.log,
		"M: casting vs E: d20 10 +5 = 15 vs physical defense 10: hit", "E takes 2 damage",
		"M: attack vs E: d20 11 +3 = 14 vs physical defense 10: hit", "E takes 1 damage",
		"E: attack vs M: d20 9")
	if p.get(0, Casts) != 1 || p.get(0, sim.Actions) != 2 {
		t.Errorf("casts %d, actions %d; want 1, 2", p.get(0, Casts), p.get(0, sim.Actions))
	}

	g = compile(t, yaml)
	pol(t, g, "M").plan = Plan{Main: MainCast, Also: MainAttack}
	p = play(t, g, 10, 9)
	inOrder(t, p.log, "M: casting vs E", "M has one Attack/Casting action a turn (casting_slot shared): no attack as well", "E: attack vs M")

	// Two actions of one kind are refused even with separate.
	g = compile(t, yaml, "options.casting_slot=separate")
	pol(t, g, "M").plan = Plan{Main: MainAttack, Also: MainDouble}
	p = play(t, g, 10, 9)
	inOrder(t, p.log, "M: attack vs E", "M has no attack action left: no double_strike as well")
}

// Items 10/21: FirstActor is the first to take an action, FirstInOrder the
// first in the order of the first round with a turn; Draw says why a
// drawn fight ended.
func TestFirstActorAndDraw(t *testing.T) {
	t.Run("a delay is not an action", func(t *testing.T) {
		// D (first in order) delays until E comes within reach: E's move is
		// the first action, then D's held attack fires.
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
		if p.out.FirstActor != 1 || p.out.FirstInOrder != 0 {
			t.Errorf("first actor %d, first in order %d; want 1 (E), 0 (D)", p.out.FirstActor, p.out.FirstInOrder)
		}
		if p.out.Winner != -1 || p.out.Draw != sim.DrawMaxRounds {
			t.Errorf("winner %d draw %d; want -1, max_rounds", p.out.Winner, p.out.Draw)
		}
	})
	t.Run("an inserted turn in the Ambush Round", func(t *testing.T) {
		// The Ambush Round: T's inserted turn comes first (it is the first
		// actor), A is first in that round's order.
		g := compile(t, pinnedPair, "a.aware=false", "a.A.teleport=1")
		pol(t, g, "A").insert = 1
		p := play(t, g, 9, 4, 6, 16, 7, 11, 5, 3)
		if p.out.FirstActor != 0 || p.out.FirstInOrder != 1 {
			t.Errorf("first actor %d, first in order %d; want 0 (A, inserted), 1 (T, the ambusher)", p.out.FirstActor, p.out.FirstInOrder)
		}
	})
	t.Run("a win is no draw", func(t *testing.T) {
		g := compile(t, strings.Replace(pinnedPair, "hp: 20, ac: 10, dodge", "hp: 1, ac: 10, dodge", 1))
		p := play(t, g, 15)
		if p.out.Winner != 0 || p.out.Draw != sim.DrawNone || p.out.FirstActor != 0 || p.out.FirstInOrder != 0 {
			t.Errorf("winner %d draw %d first %d/%d; want 0, none, 0/0", p.out.Winner, p.out.Draw, p.out.FirstActor, p.out.FirstInOrder)
		}
	})
}

// Issue 10 item 20, Spiritual Intuition (option spiritual_intuition): the
// undetected ambush would catch T off guard; its DC 25 Intuition check
// spares it (meeting 25 succeeds); 24 does not.
func TestSpiritualIntuition(t *testing.T) {
	for _, c := range []struct {
		roll int
		want []string
	}{
		{15, []string{"spiritual intuition: T d20 15 +10 = 25 vs difficulty 25: senses danger: not Caught Off Guard",
			"A: attack vs T: d20 9 (advantage) +3 = 12 vs physical defense 15: miss"}},
		{14, []string{"spiritual intuition: T d20 14 +10 = 24 vs difficulty 25: senses nothing",
			"A: attack vs T: d20 9 (advantage) +3 = 12 vs physical defense 10 (caught off guard): hit"}},
	} {
		g := compile(t, pinnedPair, "b.aware=false", "b.T.intuition=10", "options.spiritual_intuition=true")
		p := play(t, g, 15, 3, 10, 12, c.roll, 4, 9, 11, 19)
		inOrder(t, p.log, append([]string{"the ambushers stay undetected"}, c.want...)...)
		if saves := p.get(1, IntuitionSaves); (saves == 1) != (c.roll == 15) {
			t.Errorf("roll %d: intuition_saves %d", c.roll, saves)
		}
	}
	// Off (the default), no check is rolled.
	g := compile(t, pinnedPair, "b.aware=false", "b.T.intuition=10")
	p := play(t, g, 15, 3, 10, 12, 4, 9, 11, 19)
	notIn(t, p.log, "spiritual intuition")
}

// Item 20, Limb Block (field limb_block): T blocks A's Vital Strike at its
// head with a leg (a Swift action; its Agility check meets A's result, a
// tie to the blocker): the leg effect instead of the stun and the 2d6.
// Failing the block, the head is hit: stunned, T loses its turn.
func TestLimbBlock(t *testing.T) {
	const yaml = `name: limb block
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 40, ac: 10, attacks: [20], damage: 1, initiative_roll: 20}
  - name: b
    policy: test
    combatants:
      - {name: T, hp: 40, ac: 10, dodge: 2, agility: 3, attacks: [0], damage: 1, initiative_roll: 1, limb_block: true}
`
	g := compile(t, yaml)
	pol(t, g, "A").plan = Plan{Main: MainVital, Part: Head}
	p := play(t, g, 10, 17, 8)
	inOrder(t, p.log,
		"A: vital strike (head) vs T: d20 10 +10 = 20 vs physical defense 15: hit",
		"limb block: T d20 17 +3 = 20 vs A's 20: blocked with the legs",
		"A hits T's legs for 1",
		"T: attack vs A: d20 8")
	if p.get(1, LimbBlocks) != 1 {
		t.Errorf("limb_blocks %d, want 1", p.get(1, LimbBlocks))
	}
	g = compile(t, yaml)
	pol(t, g, "A").plan = Plan{Main: MainVital, Part: Head}
	p = playDamage(t, g, 10, 16)
	inOrder(t, p.log, "limb block: T d20 16 +3 = 19 vs A's 20: not blocked", "A hits T's head", "T is stunned and loses its turn")
	// Without the field there is no block.
	g = compile(t, yaml, "b.T.limb_block=false")
	pol(t, g, "A").plan = Plan{Main: MainVital, Part: Head}
	p = playDamage(t, g, 10)
	notIn(t, p.log, "limb block")
}

// Item 20, Borrow Strength Against Strength (field borrow_strength): A's
// melee attack rolls a natural 1; T, Strength not 3 below A's, flips it
// with its Attack action (1d3 + its Strength damage die) and A fails the
// Difficulty 20 Agility check: Off-Balance. T's own turn then has no
// Attack action. With Strength 3 or more below (and no 2-level build
// difference), T applies a plain Attack action that hits by default.
func TestBorrowStrength(t *testing.T) {
	const yaml = `name: borrow
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, strength: 4}
  - name: b
    policy: test
    combatants:
      - {name: T, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 1, strength: 2, strength_damage: 2, borrow_strength: true}
`
	g := compile(t, yaml)
	p := playDamage(t, g, 1, 5)
	inOrder(t, p.log,
		"A: attack vs T: d20 1 +3 = 4 vs physical defense 10: miss",
		"T borrows strength against A's critical failure and flips it",
		"A: agility d20 5 +0 = 5 vs difficulty 20: Off-Balance",
		"T's turn")
	notIn(t, p.log, "T: attack vs A")
	if p.get(1, Borrows) != 1 || !strings.Contains(p.log, "A takes ") {
		t.Errorf("borrows %d; log:\n%s", p.get(1, Borrows), p.log)
	}
	if !strings.Contains(p.log, "A takes 3 damage") && !strings.Contains(p.log, "A takes 4 damage") && !strings.Contains(p.log, "A takes 5 damage") {
		t.Errorf("flip damage is 1d3 + 2 (3-5); log:\n%s", p.log)
	}
	// A natural 1 on the Agility check: Stunned as well.
	g = compile(t, yaml)
	p = playDamage(t, g, 1, 1)
	inOrder(t, p.log, "critical failure: lands on its head, Off-Balance and Stunned")
	// Strength exactly 3 below ("not lower than theirs by 3 points"
	// forbids the flip) and more: an Attack action that hits by default.
	for _, str := range []string{"b.T.strength=1", "b.T.strength=0"} {
		g = compile(t, yaml, str)
		p = play(t, g, 1)
		inOrder(t, p.log, "T borrows strength against A's critical failure: an Attack action that hits by default", "A takes 1 damage")
		notIn(t, p.log, "agility d20")
	}
	// A 2-level build difference allows the flip whatever the Strength;
	// a 1-level one does not, and being the smaller one never does.
	for _, tc := range []struct {
		sets []string
		flip bool
	}{
		{[]string{"b.T.strength=0", "b.T.size=2"}, true},
		{[]string{"b.T.strength=0", "b.T.size=1"}, false},
		{[]string{"b.T.strength=0", "a.A.size=2"}, false},
	} {
		g = compile(t, yaml, tc.sets...)
		if tc.flip {
			p = playDamage(t, g, 1, 5)
			inOrder(t, p.log, "T borrows strength against A's critical failure and flips it", "A: agility d20 5")
		} else {
			p = play(t, g, 1)
			inOrder(t, p.log, "an Attack action that hits by default")
		}
	}
	// A miss that is no critical failure gives nothing.
	g = compile(t, yaml)
	p = play(t, g, 2, 9)
	notIn(t, p.log, "borrows strength")
	inOrder(t, p.log, "T: attack vs A: d20 9")
}

// Item 20: every heading of the source (shared/rules/002_…txt, copied here
// in its order) has a checklist entry in `simctl rules lotm` saying what
// simulates it or why nothing does.
func TestDocChecksEveryHeading(t *testing.T) {
	headings := []string{"Special Actions (introduction)", "Ambush", "Pre-Combat Ambush", "Mid-Combat Ambush",
		"Invisibility Ambush", "Inserted Ambush", "Spiritual Intuition", "Spiritual Intuition in Mythos Events",
		"Reveal Partial Mythos Markings", "Spiritual Intuition Reaction to Mythos Markings", "Meditation",
		"Full Meditation", "Half Meditation", "Grapple", "Grappling with Size and Strength Differences",
		"Build-Up Aim", "Double Strike", "Point-Blank Shooting", "Improvised Cover", "Armor Provided by Objects",
		"What You Can Pick Up (Strength Requirements)", "Delay Action", "Charge", "Off-Balance",
		"Borrow Strength Against Strength", "Leg Sweep", "Intimidate", "Flanking / Envelopment", "Feint",
		"First Aid", "Vital Strike", "Limb Block", "Burn Luck",
		"Advanced Actions (Practical Examples of Special Actions)", "Ambush: Practical Clarifications",
		"Combat Ambush Using Obstacles"}
	d := Ruleset{}.Doc()
	for _, h := range headings {
		found := false
		for _, a := range d.Actions {
			if a.Name == "[source] "+h {
				found = true
				if !strings.HasPrefix(a.Doc, "simulated") && !strings.HasPrefix(a.Doc, "partly simulated") &&
					!strings.HasPrefix(a.Doc, "not simulated: ") {
					t.Errorf("heading %q: status %q does not say simulated or not simulated: why", h, a.Doc)
				}
			}
		}
		if !found {
			t.Errorf("heading %q is missing from the checklist", h)
		}
	}
}

// Item 20, Improvised Cover: an item (Swift action; Strength 2 per size
// level, +2 metal, else a Difficulty 15 + 2 x level Strength check) or an
// obstacle (Move action) adds the table's Armor to Physical Defense until an
// attack hits through it (destroyed) or the obstacle's user moves.
func TestImprovisedCover(t *testing.T) {
	const yaml = `name: cover
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: T, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 20, strength: 6, cover_item: {size: medium}}
  - name: b
    policy: test
    combatants:
      - {name: A, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 1}
`
	g := compile(t, yaml)
	pol(t, g, "T").plan.Cover = CoverItem
	p := play(t, g, 5, 17)
	inOrder(t, p.log,
		"T takes improvised cover (an item, Swift action): armor +4",
		"A: attack vs T: d20 17 +3 = 20 vs physical defense 14: hit",
		"T's cover is destroyed")
	if p.get(0, Covers) != 1 || p.get(0, CoversBroken) != 1 {
		t.Errorf("covers %d broken %d; want 1 1", p.get(0, Covers), p.get(0, CoversBroken))
	}
	// A miss leaves it; a metal small object: +2 +2, Strength 4 needed.
	g = compile(t, yaml, "a.T.cover_item={size: small, metal: true}", "a.T.strength=4")
	pol(t, g, "T").plan.Cover = CoverItem
	p = play(t, g, 5, 10)
	inOrder(t, p.log, "armor +4", "A: attack vs T: d20 10 +3 = 13 vs physical defense 14: miss")
	notIn(t, p.log, "destroyed")
	// Too weak: the check (15 + 2 x 3 = 21) fails and the Swift is spent.
	g = compile(t, yaml, "a.T.strength=0")
	pol(t, g, "T").plan.Cover = CoverItem
	p = play(t, g, 20, 5, 9)
	inOrder(t, p.log, "T tries to snatch a medium item (strength 0 of 6): d20 20 +0 = 20 vs difficulty 21: too heavy",
		"A: attack vs T: d20 9 +3 = 12 vs physical defense 10: hit")
	g = compile(t, yaml, "a.T.strength=1")
	pol(t, g, "T").plan.Cover = CoverItem
	p = play(t, g, 20, 5, 9)
	inOrder(t, p.log, "d20 20 +1 = 21 vs difficulty 21: lifted", "armor +4", "physical defense 14: miss")

	// An obstacle: the Move action left after T's ranged attack; A's walk
	// up does not end it, T's own move would.
	g = compile(t, strings.Replace(yaml, "distance: 0", "distance: 20", 1),
		"a.T.obstacle={size: large, count: 1}", "a.T.ranged=true")
	pol(t, g, "T").plan.Cover = CoverObstacle
	p = play(t, g, 5, 1, 12, 12)
	inOrder(t, p.log, "T: attack vs A", "T takes improvised cover (an obstacle, Move action): armor +6",
		"A moves", "ambush from behind cover: stealth vs investigation: T d20 1 +0 = 1 vs A d20 12 +0 = 12: A wins",
		"A: attack vs T: d20 12 +3 = 15 vs physical defense 16: miss")
	// A melee T that must walk has no Move left for it.
	g = compile(t, strings.Replace(yaml, "distance: 0", "distance: 20", 1), "a.T.obstacle={size: large}")
	pol(t, g, "T").plan.Cover = CoverObstacle
	p = play(t, g, 5, 12)
	notIn(t, p.log, "improvised cover")
}

// Item 20, Grappling with Size and Strength Differences (field size;
// Strength at least twice the other's counts 2 levels).
func TestGrappleSizeAndStrength(t *testing.T) {
	const yaml = `name: sizes
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: W, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 20, fighting: 10}
  - name: b
    policy: test
    combatants:
      - {name: B, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 1}
`
	grapple := func(t *testing.T, oneHand, limb bool, sets ...string) played {
		t.Helper()
		g := compile(t, yaml, sets...)
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: oneHand, Limb: limb}
		return play(t, g, 10, 3, 18, 12)
	}
	t.Run("smaller holds only the larger's moves", func(t *testing.T) {
		p := grapple(t, false, false, "b.B.size=2")
		inOrder(t, p.log, "W grapples B with two hands: both Restrained (B can still attack: size)",
			"break free: B d20 3 +0 = 3 vs W d20 18 +0 = 18: still held", "B: attack vs W: d20 12")
	})
	t.Run("same size holds from attacks", func(t *testing.T) {
		g := compile(t, yaml, "b.B.size=1")
		pol(t, g, "W").plan = Plan{Main: MainGrapple}
		p := play(t, g, 10, 3, 18)
		inOrder(t, p.log, "W grapples B with two hands: both Restrained", "B is Restrained by a grapple: no Attack actions")
	})
	t.Run("4 levels smaller cannot grapple", func(t *testing.T) {
		g := compile(t, yaml, "b.B.size=4")
		pol(t, g, "W").plan = Plan{Main: MainGrapple}
		p := play(t, g, 12)
		inOrder(t, p.log, "W is 4 or more size levels smaller (Strength doubling counts 2) and cannot grapple B", "B: attack vs W: d20 12")
	})
	t.Run("larger grabs a limb", func(t *testing.T) {
		p := grapple(t, true, true, "a.W.size=2")
		inOrder(t, p.log, "W grapples B with one hand on a limb: both Restrained (B can still attack: size)",
			"break free: B d20 3 +0 = 3 vs W d20 18 +0 = 18: still held", "B: attack vs W: d20 12")
		notIn(t, p.log, "halved")
	})
	t.Run("a limb needs 2 levels", func(t *testing.T) {
		g := compile(t, yaml, "a.W.size=1")
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: true, Limb: true}
		p := play(t, g, 12)
		inOrder(t, p.log, "W is not 2 size levels larger and cannot grab a limb B", "B: attack vs W: d20 12")
	})
	t.Run("strength doubling counts 2 levels", func(t *testing.T) {
		p := grapple(t, true, true, "a.W.strength=4", "b.B.strength=2")
		inOrder(t, p.log, "one hand on a limb", "break free: B d20 3 +2 = 5 vs W d20 18 +4 = 22: still held")
	})
	t.Run("one hand on the body: halved below 4 levels", func(t *testing.T) {
		g := compile(t, yaml, "a.W.size=2")
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: true}
		p := play(t, g, 10, 3, 18)
		inOrder(t, p.log, "W grapples B with one hand: both Restrained", "W d20 18 +0 (one hand: halved) = 9", "B is Restrained by a grapple: no Attack actions")
		g = compile(t, yaml, "a.W.size=4")
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: true}
		p = play(t, g, 10, 3, 18)
		inOrder(t, p.log, "W grapples B with one hand: both Restrained", "W d20 18 +0 = 18: still held", "B is Restrained by a grapple: no Attack actions")
	})
}

// Item 20, Combat Ambush Using Obstacles: behind Improvised Cover, D holds
// its attack until E comes within reach; its Stealth beats E's
// Investigation, so the held strike (first, before E's) catches E Caught
// Off Guard. Having struck, D is seen: E's attack is a plain one. Without a
// held strike (the reverse timing), the won contest gives E's attack
// Disadvantage and takes away its aim.
func TestObstacleAmbush(t *testing.T) {
	const yaml = `name: obstacle
ruleset: lotm
max_rounds: 1
distance: 20
sides:
  - name: a
    policy: test
    combatants:
      - {name: D, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, strength: 2, stealth: 5, cover_item: {size: small}}
  - name: b
    policy: test
    combatants:
      - {name: E, hp: 40, ac: 10, dodge: 4, attacks: [3], damage: 1, initiative_roll: 5, investigation: 1}
`
	g := compile(t, yaml)
	pol(t, g, "D").plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnEnemyInReach, Ally: -1, Cover: CoverItem}
	p := play(t, g,
		10, 3, // D's stealth 15 vs E's investigation 4
		2, 8, // D's held attack, an ambush (advantage): 11 vs 10 (caught off guard: no dodge)
		11) // E's attack: plain, 14 vs 12
	inOrder(t, p.log,
		"D takes improvised cover (an item, Swift action): armor +2",
		"D delays its attack action until enemy_in_reach",
		"E moves 15 ft", "trigger for D: E comes within reach",
		"D strikes unseen from behind its cover (combat ambush: advantage on the strike)",
		"ambush from behind cover: stealth vs investigation: D d20 10 +5 = 15 vs E d20 3 +1 = 4: D wins",
		"D strikes from behind its cover: E is Caught Off Guard",
		"D: attack vs E: d20 8 (advantage) +3 = 11 vs physical defense 10 (caught off guard) (ambush): hit",
		"E: attack vs D: d20 11 +3 = 14 vs physical defense 12: hit")
	// Lost contest: still an ambush (unseen), but no Caught Off Guard.
	g = compile(t, yaml)
	pol(t, g, "D").plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnEnemyInReach, Ally: -1, Cover: CoverItem}
	p = play(t, g, 1, 13, 8, 2, 11)
	inOrder(t, p.log, "E wins", "D: attack vs E: d20 8 (advantage) +3 = 11 vs physical defense 14 (ambush): miss")

	// Reverse timing: D holds nothing (nothing to attack at range); E
	// aims, walks up and attacks with Disadvantage and without the aim.
	g = compile(t, yaml)
	pol(t, g, "D").plan = Plan{Main: MainNone, Cover: CoverItem}
	pol(t, g, "E").plan.Swift = SwiftAim
	p = play(t, g, 10, 3, 15, 9)
	inOrder(t, p.log,
		"E builds up aim", "E moves 15 ft",
		"D was waiting behind its cover: E's attack has Disadvantage and no aim",
		"E: attack vs D: d20 9 (disadvantage) +3 = 12 vs physical defense 12: hit")
}

// Item 20, Point-Blank Shooting: three shots (field firearm: 3) at a target
// within 1 meter, each +2 without a Swift action; the first succeeds when
// greater than the Armor of a target that cannot Fast Dodge, ignores
// Agility and Dodge against one that can, and gets only the +2 against one
// that can dodge light. Out of reach, the firearm's Attack action is three
// plain shots, or the shooter closes in first for the point-blank ones.
func TestPointBlankShooting(t *testing.T) {
	const yaml = `name: point blank
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: S, hp: 40, ac: 10, attacks: [2], damage: 1, initiative_roll: 20, firearm: 3}
  - name: b
    policy: test
    combatants:
      - {name: T, hp: 40, ac: 10, armor: 3, dodge: 2, agility: 3, attacks: [0], damage: 0, initiative_roll: 1}
`
	for _, c := range []struct {
		sets  []string
		first string
	}{
		{nil, "S: point-blank shot vs T: d20 2 +2 +2 aim = 6 vs physical defense 4: hit"},
		{[]string{"b.T.fast_dodge=true"}, "S: point-blank shot vs T: d20 2 +2 +2 aim = 6 vs physical defense 10 (caught off guard): miss"},
		{[]string{"b.T.fast_dodge=true", "b.T.dodge_light=true"}, "S: point-blank shot vs T: d20 2 +2 +2 aim = 6 vs physical defense 15: miss"},
	} {
		g := compile(t, yaml, c.sets...)
		pol(t, g, "S").plan.Main = MainPointBlank
		p := play(t, g, 2, 8, 11, 5)
		inOrder(t, p.log, c.first,
			"S: point-blank shot vs T: d20 8 +2 +2 aim = 12 vs physical defense 15: miss",
			"S: point-blank shot vs T: d20 11 +2 +2 aim = 15 vs physical defense 15: hit", "T: attack vs S")
		if p.get(0, PointBlanks) != 1 {
			t.Errorf("%v: point_blanks %d", c.sets, p.get(0, PointBlanks))
		}
	}
	g := compile(t, strings.Replace(yaml, "distance: 0", "distance: 30", 1))
	p := play(t, g, 2, 8, 13, 5)
	inOrder(t, p.log, "S: shot vs T: d20 2 +2 = 4 vs physical defense 15: miss", "S: shot vs T: d20 8 +2 = 10",
		"S: shot vs T: d20 13 +2 = 15 vs physical defense 15: hit")
	g = compile(t, strings.Replace(yaml, "distance: 0", "distance: 30", 1))
	pol(t, g, "S").plan.Main = MainPointBlank
	p = play(t, g, 5, 8, 11, 5)
	inOrder(t, p.log, "S moves 25 ft (now 5 ft from T)", "S: point-blank shot vs T: d20 5 +2 +2 aim = 9 vs physical defense 4: hit")
	if err := compileErr(t, strings.Replace(yaml, "initiative_roll: 1}", "initiative_roll: 1, dodge_light: true}", 1)); err == nil || !strings.Contains(err.Error(), "dodge_light needs fast_dodge") {
		t.Errorf("dodge_light without fast_dodge: %v", err)
	}
}

// Item 20, Leg Sweep: K (Agility 5) kicks the target and up to two more
// enemies within 1 meter, a Fighting check each; a natural 1 loses its
// balance and ends the sweep, unless that enemy answers with Borrow
// Strength (a Swift action). Rank 1 against four keeps the rolls plain
// (flanking conditions 1 and 2 cancel).
func TestLegSweep(t *testing.T) {
	const yaml = `name: leg sweep
ruleset: lotm
max_rounds: 1
distance: 0
sides:
  - name: a
    policy: test
    combatants:
      - {name: K, hp: 40, ac: 10, agility: 5, attacks: [0], fighting: 3, strength: 4, strength_damage: 2, damage: 1, initiative_roll: 20, rank: 1}
  - name: b
    policy: test
    combatants:
      - {name: E1, hp: 40, ac: 5, attacks: [0], damage: 0, initiative_roll: 4}
      - {name: E2, hp: 40, ac: 5, attacks: [0], damage: 0, initiative_roll: 3}
      - {name: E3, hp: 40, ac: 5, attacks: [0], damage: 0, initiative_roll: 2}
      - {name: E4, hp: 40, ac: 5, attacks: [0], damage: 0, initiative_roll: 1}
`
	g := compile(t, yaml)
	pol(t, g, "K").plan.Main = MainLegSweep
	p := playDamage(t, g, 10, 1+1, 15, 5, 5, 5, 5)
	inOrder(t, p.log,
		"K: leg sweep vs E1: d20 10 +3 = 13 vs physical defense 5: hit", "E1 takes ",
		"K: leg sweep vs E2: d20 2 +3 = 5 vs physical defense 5: hit",
		"K: leg sweep vs E3: d20 15 +3 = 18 vs physical defense 5: hit",
		"E1's turn")
	notIn(t, p.log, "leg sweep vs E4")
	if p.get(0, LegSweeps) != 1 {
		t.Errorf("leg_sweeps %d, want 1", p.get(0, LegSweeps))
	}
	// A natural 1 on E2: K is Off-Balance (Physical Defense 10 + 3) and E3
	// is not swept.
	g = compile(t, yaml)
	pol(t, g, "K").plan.Main = MainLegSweep
	p = playDamage(t, g, 10, 1, 5, 5, 5, 5)
	inOrder(t, p.log, "K: leg sweep vs E2: d20 1 +3 = 4 vs physical defense 5: miss",
		"K's leg sweep is a critical failure: it loses its balance (Off-Balance)",
		"E1: attack vs K: d20 5 +0 = 5 vs physical defense 13: miss")
	notIn(t, p.log, "leg sweep vs E3")
	// E2 answers it with Borrow Strength, a Swift action: K is flipped
	// (its Agility check: 12 + 5 = 17, Off-Balance) and E2 still attacks.
	g = compile(t, yaml, "b.E2.borrow_strength=true", "b.E2.strength=4")
	pol(t, g, "K").plan.Main = MainLegSweep
	p = playDamage(t, g, 10, 1, 12, 5, 5, 5, 5)
	inOrder(t, p.log, "E2 borrows strength against K's critical failure and flips it",
		"K: agility d20 12 +5 = 17 vs difficulty 20: Off-Balance", "E2: attack vs K")
	notIn(t, p.log, "it loses its balance")
	// Agility below 5: no sweep.
	g = compile(t, yaml, "a.K.agility=4")
	pol(t, g, "K").plan.Main = MainLegSweep
	p = play(t, g, 5, 5, 5, 5)
	inOrder(t, p.log, "K has Agility below 5 and cannot Leg Sweep")
}
