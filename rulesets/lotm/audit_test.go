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
		"delay S W rule=attack/after_ally",
		"attack B S die=10 roll=15 need=10 ok=true rule^='vital strike (head)'",
		"attack W B rule^=attack",
		"interrupt S W rule='trigger: turn ends'",
		"lost S rule='delay: stunned'",
		"attack C S die=6 rule^='attack' rule~=[advantage]")
	notIn(t, p.log, "turn S rule='delayed attack'")
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
		"check E J die=15 roll=25 need=1 ok=true rule^='intimidate: intimidation vs willpower'",
		"move J E amount=30 rule=away",
		"attack E J rule^=attack",
		"attack F J rule^=attack",
		"turn K rule=", "attack K E rule^=attack",
		"turn J rule=", "attack J E die=10 rule^='attack'")
	notIn(t, p.log, "interrupt J rule='mid-combat ambush'")
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
	inOrder(t, p.log, "attack E J rule^=attack", "interrupt J E rule='mid-combat ambush'",
		"move J E rule=teleport", "attack J E die=12 rule^='attack' rule~=[advantage]")
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
		"action G rule='hide: swift'",
		"check E G die=1 roll=2 need=14 ok=false rule^='invisibility ambush: investigation vs stealth'",
		"interrupt G rule='invisibility ambush'",
		"check G E die=12 roll=14 need=5 ok=true rule^='charge: strength vs strength or agility'",
		"action * E rule=off-balance",
		"attack E G die=10 rule^='attack'")
	notIn(t, p.log, "lost E rule~='has no enemy to act against'")
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
		"action G rule^='hide: '",
		"turn E1 rule=", "check E1 G die=15 roll=20 need=6 ok=true rule^='search: investigation vs stealth'", "check E1 G ok=true rule=search",
		"attack E1 G rule^=attack",
		"turn E2 rule=", "check E2 G die=2 roll=2 need=19 ok=false rule^='search: investigation vs stealth'",
		"attack E2 A rule^=attack",
		"attack A E1 rule^=attack")
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
		"attack M E die=10 roll=15 need=10 ok=true rule^='casting'", "damage * E amount=2",
		"attack M E die=11 roll=14 need=10 ok=true rule^='attack'", "damage * E amount=1",
		"attack E M die=9 rule^='attack'")
	if p.get(0, Casts) != 1 || p.get(0, sim.Actions) != 2 {
		t.Errorf("casts %d, actions %d; want 1, 2", p.get(0, Casts), p.get(0, sim.Actions))
	}

	g = compile(t, yaml)
	pol(t, g, "M").plan = Plan{Main: MainCast, Also: MainAttack}
	p = play(t, g, 10, 9)
	inOrder(t, p.log, "attack M E rule^=casting", "lost M rule='second action: has one Attack/Casting action a turn (casting_slot shared)'", "attack E M rule^=attack")

	// Two actions of one kind are refused even with separate.
	g = compile(t, yaml, "options.casting_slot=separate")
	pol(t, g, "M").plan = Plan{Main: MainAttack, Also: MainDouble}
	p = play(t, g, 10, 9)
	inOrder(t, p.log, "attack M E rule^=attack", "lost M rule='second action: has no attack action left'")
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
		{15, []string{"check T die=15 roll=25 need=25 ok=true rule='spiritual intuition'",
			"attack A T die=9 roll=12 need=15 ok=false rule^='attack' rule~=[advantage]"}},
		{14, []string{"check T die=14 roll=24 need=25 ok=false rule='spiritual intuition'",
			"attack A T die=9 roll=12 need=10 ok=true rule^='attack' rule~=[advantage] rule~='[caught off guard]'"}},
	} {
		g := compile(t, pinnedPair, "b.aware=false", "b.T.intuition=10", "options.spiritual_intuition=true")
		p := play(t, g, 15, 3, 10, 12, c.roll, 4, 9, 11, 19)
		inOrder(t, p.log, append([]string{"check rule=detection ok=false"}, c.want...)...)
		if saves := p.get(1, IntuitionSaves); (saves == 1) != (c.roll == 15) {
			t.Errorf("roll %d: intuition_saves %d", c.roll, saves)
		}
	}
	// Off (the default), no check is rolled.
	g := compile(t, pinnedPair, "b.aware=false", "b.T.intuition=10")
	p := play(t, g, 15, 3, 10, 12, 4, 9, 11, 19)
	notIn(t, p.log, "check rule='spiritual intuition'")
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
		"attack A T die=10 roll=20 need=15 ok=true rule^='vital strike (head)'",
		"check T A die=17 roll=20 need=20 ok=true rule='limb block'",
		"damage A T amount=1 rule='vital strike: legs'",
		"attack T A die=8 rule^='attack'")
	if p.get(1, LimbBlocks) != 1 {
		t.Errorf("limb_blocks %d, want 1", p.get(1, LimbBlocks))
	}
	g = compile(t, yaml)
	pol(t, g, "A").plan = Plan{Main: MainVital, Part: Head}
	p = playDamage(t, g, 10, 16)
	inOrder(t, p.log, "check T A die=16 roll=19 need=20 ok=false rule='limb block'", "damage A T rule='vital strike: head'", "lost T rule=stunned")
	// Without the field there is no block.
	g = compile(t, yaml, "b.T.limb_block=false")
	pol(t, g, "A").plan = Plan{Main: MainVital, Part: Head}
	p = playDamage(t, g, 10)
	notIn(t, p.log, "check rule='limb block'")
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
		"attack A T die=1 roll=4 need=10 ok=false rule^='attack'",
		"interrupt T A rule='borrow strength: flip'",
		"check A die=5 roll=5 need=20 ok=false rule='leg sweep balance'",
		"turn T rule=")
	notIn(t, p.log, "attack T A rule^=attack")
	if p.get(1, Borrows) != 1 || !p.log.Any("damage * A") {
		t.Errorf("borrows %d; log:\n%s", p.get(1, Borrows), p.text)
	}
	if !p.log.Any("damage * A amount=3") && !p.log.Any("damage * A amount=4") && !p.log.Any("damage * A amount=5") {
		t.Errorf("flip damage is 1d3 + 2 (3-5); log:\n%s", p.text)
	}
	// A natural 1 on the Agility check: Stunned as well.
	g = compile(t, yaml)
	p = playDamage(t, g, 1, 1)
	inOrder(t, p.log, "check die=1 ok=false rule='leg sweep balance'")
	// Strength exactly 3 below ("not lower than theirs by 3 points"
	// forbids the flip) and more: an Attack action that hits by default.
	for _, str := range []string{"b.T.strength=1", "b.T.strength=0"} {
		g = compile(t, yaml, str)
		p = play(t, g, 1)
		inOrder(t, p.log, "interrupt T A rule='borrow strength: attack'", "damage * A amount=1")
		notIn(t, p.log, "check rule='leg sweep balance'")
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
			inOrder(t, p.log, "interrupt T A rule='borrow strength: flip'", "check A die=5 rule='leg sweep balance'")
		} else {
			p = play(t, g, 1)
			inOrder(t, p.log, "interrupt rule='borrow strength: attack'")
		}
	}
	// A miss that is no critical failure gives nothing.
	g = compile(t, yaml)
	p = play(t, g, 2, 9)
	notIn(t, p.log, "interrupt rule^='borrow strength'")
	inOrder(t, p.log, "attack T A die=9 rule^='attack'")
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
		"action T amount=4 rule='cover: item'",
		"attack A T die=17 roll=20 need=14 ok=true rule^='attack'",
		"down T rule='cover destroyed'")
	if p.get(0, Covers) != 1 || p.get(0, CoversBroken) != 1 {
		t.Errorf("covers %d broken %d; want 1 1", p.get(0, Covers), p.get(0, CoversBroken))
	}
	// A miss leaves it; a metal small object: +2 +2, Strength 4 needed.
	g = compile(t, yaml, "a.T.cover_item={size: small, metal: true}", "a.T.strength=4")
	pol(t, g, "T").plan.Cover = CoverItem
	p = play(t, g, 5, 10)
	inOrder(t, p.log, "action amount=4 rule^='cover: '", "attack A T die=10 roll=13 need=14 ok=false rule^='attack'")
	notIn(t, p.log, "down rule='cover destroyed'")
	// Too weak: the check (15 + 2 x 3 = 21) fails and the Swift is spent.
	g = compile(t, yaml, "a.T.strength=0")
	pol(t, g, "T").plan.Cover = CoverItem
	p = play(t, g, 20, 5, 9)
	inOrder(t, p.log, "check T die=20 roll=20 need=21 ok=false rule='snatch cover'",
		"attack A T die=9 roll=12 need=10 ok=true rule^='attack'")
	g = compile(t, yaml, "a.T.strength=1")
	pol(t, g, "T").plan.Cover = CoverItem
	p = play(t, g, 20, 5, 9)
	inOrder(t, p.log, "check die=20 roll=21 need=21 ok=true rule='snatch cover'", "action amount=4 rule^='cover: '", "attack need=14 ok=false")

	// An obstacle: the Move action left after T's ranged attack; A's walk
	// up does not end it, T's own move would.
	g = compile(t, strings.Replace(yaml, "distance: 0", "distance: 20", 1),
		"a.T.obstacle={size: large, count: 1}", "a.T.ranged=true")
	pol(t, g, "T").plan.Cover = CoverObstacle
	p = play(t, g, 5, 1, 12, 12)
	inOrder(t, p.log, "attack T A rule^=attack", "action T amount=6 rule='cover: obstacle'",
		"move A rule=", "check T A die=1 roll=1 need=12 ok=false rule^='ambush from behind cover: stealth vs investigation'",
		"attack A T die=12 roll=15 need=16 ok=false rule^='attack'")
	// A melee T that must walk has no Move left for it.
	g = compile(t, strings.Replace(yaml, "distance: 0", "distance: 20", 1), "a.T.obstacle={size: large}")
	pol(t, g, "T").plan.Cover = CoverObstacle
	p = play(t, g, 5, 12)
	notIn(t, p.log, "action rule^='cover: '")
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
		inOrder(t, p.log, "action W B rule='grapple: two hands'",
			"check B W die=3 roll=3 need=18 ok=false rule^='break free'", "attack B W die=12 rule^='attack'")
	})
	t.Run("same size holds from attacks", func(t *testing.T) {
		g := compile(t, yaml, "b.B.size=1")
		pol(t, g, "W").plan = Plan{Main: MainGrapple}
		p := play(t, g, 10, 3, 18)
		inOrder(t, p.log, "action W B rule='grapple: two hands'", "lost B rule~='is Restrained by a grapple: no Attack actions'")
	})
	t.Run("4 levels smaller cannot grapple", func(t *testing.T) {
		g := compile(t, yaml, "b.B.size=4")
		pol(t, g, "W").plan = Plan{Main: MainGrapple}
		p := play(t, g, 12)
		inOrder(t, p.log, "lost W B rule^='grapple: is 4 or more'", "attack B W die=12 rule^='attack'")
	})
	t.Run("larger grabs a limb", func(t *testing.T) {
		p := grapple(t, true, true, "a.W.size=2")
		inOrder(t, p.log, "action W B rule='grapple: one hand on a limb'",
			"check B W die=3 roll=3 need=18 ok=false rule^='break free'", "attack B W die=12 rule^='attack'")
		notIn(t, p.log, "check rule~=[halved]")
	})
	t.Run("a limb needs 2 levels", func(t *testing.T) {
		g := compile(t, yaml, "a.W.size=1")
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: true, Limb: true}
		p := play(t, g, 12)
		inOrder(t, p.log, "lost W B rule^='grapple: is not 2 size'", "attack B W die=12 rule^='attack'")
	})
	t.Run("strength doubling counts 2 levels", func(t *testing.T) {
		p := grapple(t, true, true, "a.W.strength=4", "b.B.strength=2")
		inOrder(t, p.log, "action rule='grapple: one hand on a limb'", "check B W die=3 roll=5 need=22 ok=false rule^='break free'")
	})
	t.Run("one hand on the body: halved below 4 levels", func(t *testing.T) {
		g := compile(t, yaml, "a.W.size=2")
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: true}
		p := play(t, g, 10, 3, 18)
		inOrder(t, p.log, "action W B rule='grapple: one hand'", "check * W need=9 rule^='break free'", "lost B rule~='is Restrained by a grapple: no Attack actions'")
		g = compile(t, yaml, "a.W.size=4")
		pol(t, g, "W").plan = Plan{Main: MainGrapple, OneHand: true}
		p = play(t, g, 10, 3, 18)
		inOrder(t, p.log, "action W B rule='grapple: one hand'", "check * W need=18 ok=false rule^='break free'", "lost B rule~='is Restrained by a grapple: no Attack actions'")
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
		"action D amount=2 rule='cover: item'",
		"delay D rule=attack/enemy_in_reach",
		"move E amount=15 rule=", "interrupt D E rule='trigger: within reach'",
		"interrupt D rule='combat ambush'",
		"check D E die=10 roll=15 need=4 ok=true rule^='ambush from behind cover: stealth vs investigation'",
		"interrupt D E rule='caught off guard'",
		"attack D E die=8 roll=11 need=10 ok=true rule^='attack' rule~=[advantage] rule~=[ambush] rule~='[caught off guard]'",
		"attack E D die=11 roll=14 need=12 ok=true rule^='attack'")
	// Lost contest: still an ambush (unseen), but no Caught Off Guard.
	g = compile(t, yaml)
	pol(t, g, "D").plan = Plan{Main: MainDelay, Delay: KindAttack, Trigger: OnEnemyInReach, Ally: -1, Cover: CoverItem}
	p = play(t, g, 1, 13, 8, 2, 11)
	inOrder(t, p.log, "check D E ok=false rule^='ambush from behind cover'", "attack D E die=8 roll=11 need=14 ok=false rule^='attack' rule~=[advantage] rule~=[ambush]")

	// Reverse timing: D holds nothing (nothing to attack at range); E
	// aims, walks up and attacks with Disadvantage and without the aim.
	g = compile(t, yaml)
	pol(t, g, "D").plan = Plan{Main: MainNone, Cover: CoverItem}
	pol(t, g, "E").plan.Swift = SwiftAim
	p = play(t, g, 10, 3, 15, 9)
	inOrder(t, p.log,
		"action E rule=aim", "move E amount=15 rule=",
		"interrupt D E rule='obstacle foil'",
		"attack E D die=9 roll=12 need=12 ok=true rule^='attack' rule~=[disadvantage]")
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
		{nil, "attack S T die=2 roll=6 need=4 ok=true rule^='point-blank shot' rule~=[aim]"},
		{[]string{"b.T.fast_dodge=true"}, "attack S T die=2 roll=6 need=10 ok=false rule^='point-blank shot' rule~='[caught off guard]'"},
		{[]string{"b.T.fast_dodge=true", "b.T.dodge_light=true"}, "attack S T die=2 roll=6 need=15 ok=false rule^='point-blank shot'"},
	} {
		g := compile(t, yaml, c.sets...)
		pol(t, g, "S").plan.Main = MainPointBlank
		p := play(t, g, 2, 8, 11, 5)
		inOrder(t, p.log, c.first,
			"attack S T die=8 roll=12 need=15 ok=false rule^='point-blank shot'",
			"attack S T die=11 roll=15 need=15 ok=true rule^='point-blank shot'", "attack T S rule^=attack")
		if p.get(0, PointBlanks) != 1 {
			t.Errorf("%v: point_blanks %d", c.sets, p.get(0, PointBlanks))
		}
	}
	g := compile(t, strings.Replace(yaml, "distance: 0", "distance: 30", 1))
	p := play(t, g, 2, 8, 13, 5)
	inOrder(t, p.log, "attack S T die=2 roll=4 need=15 ok=false rule^='shot'", "attack S T die=8 roll=10 rule^='shot'",
		"attack S T die=13 roll=15 need=15 ok=true rule^='shot'")
	g = compile(t, strings.Replace(yaml, "distance: 0", "distance: 30", 1))
	pol(t, g, "S").plan.Main = MainPointBlank
	p = play(t, g, 5, 8, 11, 5)
	inOrder(t, p.log, "move S T amount=25 rule=", "attack S T die=5 roll=9 need=4 ok=true rule^='point-blank shot'")
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
		"attack K E1 die=10 roll=13 need=5 ok=true rule^='leg sweep'", "damage * E1",
		"attack K E2 die=2 roll=5 need=5 ok=true rule^='leg sweep'",
		"attack K E3 die=15 roll=18 need=5 ok=true rule^='leg sweep'",
		"turn E1 rule=")
	notIn(t, p.log, "attack * E4 rule^='leg sweep'")
	if p.get(0, LegSweeps) != 1 {
		t.Errorf("leg_sweeps %d, want 1", p.get(0, LegSweeps))
	}
	// A natural 1 on E2: K is Off-Balance (Physical Defense 10 + 3) and E3
	// is not swept.
	g = compile(t, yaml)
	pol(t, g, "K").plan.Main = MainLegSweep
	p = playDamage(t, g, 10, 1, 5, 5, 5, 5)
	inOrder(t, p.log, "attack K E2 die=1 roll=4 need=5 ok=false rule^='leg sweep'",
		"check K rule='leg sweep critical failure'",
		"attack E1 K die=5 roll=5 need=13 ok=false rule^='attack'")
	notIn(t, p.log, "attack * E3 rule^='leg sweep'")
	// E2 answers it with Borrow Strength, a Swift action: K is flipped
	// (its Agility check: 12 + 5 = 17, Off-Balance) and E2 still attacks.
	g = compile(t, yaml, "b.E2.borrow_strength=true", "b.E2.strength=4")
	pol(t, g, "K").plan.Main = MainLegSweep
	p = playDamage(t, g, 10, 1, 12, 5, 5, 5, 5)
	inOrder(t, p.log, "interrupt E2 K rule='borrow strength: flip'",
		"check K die=12 roll=17 need=20 ok=false rule='leg sweep balance'", "attack E2 K rule^=attack")
	notIn(t, p.log, "check rule='leg sweep critical failure'")
	// Agility below 5: no sweep.
	g = compile(t, yaml, "a.K.agility=4")
	pol(t, g, "K").plan.Main = MainLegSweep
	p = play(t, g, 5, 5, 5, 5)
	inOrder(t, p.log, "lost K rule~='has Agility below 5 and cannot Leg Sweep'")
}
