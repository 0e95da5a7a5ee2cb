package acks2_test

// Rule tests: small encounters with pinned initiative (initiative_rolls)
// and scripted policies (test-script), read through the narration. Where a
// rule needs a particular die (an attack that hits), the test looks for
// the first encounter of seed 1 whose narration shows it (find) and then
// checks the rule's consequences in that encounter.

import (
	"strconv"
	"strings"
	"testing"
)

// roundOf is the narration of round r.
func roundOf(log string, r int) string {
	start := strings.Index(log, "-- round "+itoa(r)+"\n")
	if start < 0 {
		return ""
	}
	rest := log[start:]
	if end := strings.Index(rest, "-- round "+itoa(r+1)+"\n"); end >= 0 {
		return rest[:end]
	}
	return rest
}

func itoa(n int) string { return strconv.Itoa(n) }

func hits(log, attacker, verb, target string) bool {
	return has(log, attacker+" "+verb+" "+target+":", ": hit")
}

const head = "name: rule\nruleset: acks2\n"

// ---------------------------------------------------------------------
// Acting before your number, case 1: the readied attack.

func TestReadiedAttackBeganRound(t *testing.T) {
	// Round 1: the guard readies at 6; the orc (2) marches 40 ft and stops
	// 20 ft away, out of reach. Round 2: the guard began the round with its
	// readied attack; the orc (5) charges, and the guard strikes at the end
	// of the orc's movement, before its attack — and still acts on its own
	// number 1 later.
	g := compileYAML(t, head+`max_rounds: 2
distance: 60
options: {morale_trigger: none, ready_same_round: false}
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, ac: 0, damage: 1, initiative_rolls: [6, 1], policy: {name: test-script, do: ready, rounds: 1}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, speed: 20, initiative_rolls: [2, 5], policy: {name: test-script, do: charge}}
`)
	log, _, tally := replay(g, 0)
	r1 := roundOf(log, 1)
	inOrder(t, r1, "Guard readies an attack", "Orc marches toward Guard")
	absent(t, r1, "takes its readied attack")
	inOrder(t, roundOf(log, 2), "count 5: Orc", "Orc charges Guard",
		"Guard takes its readied attack as Orc's movement ends, before its attack",
		"Guard attacks Orc:", "Orc charges into Guard:",
		"count 1: Guard", "Guard's segment (number 1", "Guard attacks Orc:")
	if n := counter(t, g, tally, 0, "readied_attacks_used"); n != 1 {
		t.Errorf("readied_attacks_used = %d, want 1", n)
	}
}

func TestReadiedAttackSameRound(t *testing.T) {
	src := head + `max_rounds: 1
distance: 40
options: {morale_trigger: none, ready_same_round: %v}
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], policy: {name: test-script, do: ready}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [2], policy: {name: test-script, do: charge}}
`
	// Readied at 6 in round 1; the orc charges in on 2 of the same round.
	log, _, _ := replay(compileYAML(t, strings.Replace(src, "%v", "true", 1)), 0)
	inOrder(t, log, "Guard readies an attack", "Orc charges Guard", "Guard takes its readied attack", "Orc charges into Guard")
	log, _, _ = replay(compileYAML(t, strings.Replace(src, "%v", "false", 1)), 0)
	inOrder(t, log, "Guard readies an attack", "Orc charges Guard", "Orc charges into Guard")
	absent(t, log, "takes its readied attack")
}

func TestReadySameRoundDefaultsToSource(t *testing.T) {
	// The source: "if a combatant begins the round with a readied combat
	// action". Without the option, an attack readied at 6 in round 1 is not
	// taken against a charge at 2 of the same round (TestReadiedAttackSameRound
	// shows the option turning it on).
	g := compileYAML(t, head+`max_rounds: 1
distance: 40
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], policy: {name: test-script, do: ready}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [2], policy: {name: test-script, do: charge}}
`)
	log, _, tally := replay(g, 0)
	inOrder(t, log, "Guard readies an attack", "Orc charges Guard", "Orc charges into Guard")
	absent(t, log, "takes its readied attack")
	if n := counter(t, g, tally, 0, "readies_triggered"); n != 0 {
		t.Errorf("readies_triggered = %d, want 0", n)
	}
}

func TestReadiedAttackDroppedWhenActing(t *testing.T) {
	// The guard readies in round 1; in round 2 its number (6) comes before
	// anything triggers the readied attack and it attacks instead: the
	// readied attack is dropped (wasted), not kept for later.
	g := compileYAML(t, head+`max_rounds: 2
distance: 0
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, ac: 0, damage: 1, initiative_rolls: [6, 6], policy: {name: test-script, do: ready, rounds: 1}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [1, 1]}
`)
	log, _, tally := replay(g, 0)
	inOrder(t, roundOf(log, 2), "Guard's segment", "its untriggered readied attack is dropped", "Guard attacks Orc")
	if n := counter(t, g, tally, 0, "readies_wasted"); n != 1 {
		t.Errorf("readies_wasted = %d, want 1", n)
	}
}

func TestReadinessLost(t *testing.T) {
	// The guard readies in round 1 (number 6). Before the orc's charge in
	// round 2 something happens to it; the readied attack is then gone.
	base := head + `max_rounds: 2
distance: 60
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Guard, hp: 100, ac: 0, save: 21, damage: 1, initiative_rolls: [6, 1], policy: {name: test-script, do: ready, rounds: 1}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, speed: 20, initiative_rolls: [2, 5], policy: {name: test-script, do: charge}}
      - EXTRA
`
	cases := []struct {
		name, extra, pre, why string
	}{
		{"damage", "{name: Archer, hp: 100, ac: 0, damage: 1, attack_throw: -20, weapon: missile, initiative_rolls: [1, 6], policy: {name: test-script, do: ready, rounds: 1}}",
			"Archer attacks Guard", "Guard takes damage: its readied attack is lost"},
		{"failed save", "{name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [1, 6], spells: [{name: hex, save: negates, ongoing: 1, ongoing_at: end}], policy: {name: test-script, declare: hex, target: Guard}}",
			"", "Guard fails a saving throw: its readied attack is lost"},
		{"forced move", "{name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [1, 6], spells: [{name: shove, push: 5}], policy: {name: test-script, declare: shove, target: Guard}}",
			"", "Guard is moved against its will: its readied attack is lost"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, strings.Replace(base, "EXTRA", tc.extra, 1))
			log, _, tally := find(t, g, func(log string) bool {
				return tc.pre == "" || hits(roundOf(log, 2), "Archer", "attacks", "Guard")
			})
			if tc.pre != "" {
				inOrder(t, roundOf(log, 2), "Archer attacks Guard", tc.why, "Orc charges Guard", "Orc charges into Guard")
			} else {
				inOrder(t, log, tc.why)
			}
			absent(t, log, "takes its readied attack")
			if n := counter(t, g, tally, 0, "readies_wasted"); n != 1 {
				t.Errorf("readies_wasted = %d, want 1", n)
			}
		})
	}
}

// ---------------------------------------------------------------------
// Case 2: the round-1 missile weapon.

const round1Missile = head + `max_rounds: 1
distance: 30
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Archer, hp: 100, ac: 0, damage: 1, attack_throw: -20, weapon: missile, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: G1, hp: 1, ac: 0, damage: 1, initiative_rolls: [6], policy: {name: test-script, do: charge}}
      - {name: G2, hp: 1, ac: 0, damage: 1, initiative_rolls: [5], policy: {name: test-script, do: charge}}
`

func TestRound1MissileInterruptsAndCleaves(t *testing.T) {
	// The archer (number 1) shoots the first charger on its number 6,
	// before its attack, kills it, cleaves into the second goblin (in
	// range), and has no segment of its own.
	g := compileYAML(t, round1Missile)
	log, _, tally := find(t, g, func(log string) bool {
		return hits(log, "Archer", "attacks the charging", "G1") && hits(log, "Archer", "cleaves into", "G2")
	})
	inOrder(t, log, "round 1, ready against a charge: Archer (missile)",
		"count 6: G1", "G1 charges Archer", "Archer interrupts G1's charge (round-1 missile weapon), before its attack; Archer loses its own number 1",
		"Archer attacks the charging G1", "G1 is killed", "Archer cleaves into G2", "G2 is killed")
	absent(t, log, "G1 charges into")
	if n := counter(t, g, tally, 0, "numbers_lost"); n != 1 {
		t.Errorf("numbers_lost = %d, want 1", n)
	}
	if n := counter(t, g, tally, 0, "cleaves"); n != 1 {
		t.Errorf("cleaves = %d, want 1", n)
	}
	if n := counter(t, g, tally, 0, "turns"); n != 0 {
		t.Errorf("the archer took %d segments; it gave its number", n)
	}
}

func TestRound1MissileOnlyOnce(t *testing.T) {
	// The shot misses G1: the archer has given its number, so G2's charge
	// on 5 is not interrupted, and at 1 it has no segment.
	g := compileYAML(t, round1Missile)
	log, _, _ := find(t, g, func(log string) bool { return has(log, "Archer attacks the charging G1:", ": miss") })
	inOrder(t, log, "Archer interrupts G1's charge", "G1 charges into Archer", "G2 charges Archer", "G2 charges into Archer",
		"count 1: Archer", "Archer has no segment: it gave its number for a round-1 attack")
	if strings.Count(log, "interrupts") != 1 {
		t.Errorf("more than one round-1 attack:\n%s", log)
	}
}

func TestRound1MissileNotAvailable(t *testing.T) {
	cases := []struct{ name, src string }{
		// Engaged at the start of round 1: G1 stands within 5 feet.
		{"engaged at the start", head + `max_rounds: 1
distance: 5
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: G1, hp: 100, ac: 0, damage: 1, initiative_rolls: [6]}
      - {name: G2, hp: 100, ac: 0, damage: 1, behind: 30, initiative_rolls: [5], policy: {name: test-script, do: charge}}
`},
		{"surprised", strings.Replace(round1Missile, "  - name: a\n", "  - name: a\n    aware: false\n", 1)},
		// Its number comes first: it shoots on 6 and has used its number.
		{"acted first", strings.Replace(round1Missile, "weapon: missile, initiative_rolls: [1]", "weapon: missile, initiative_rolls: [6], policy: {name: test-script, rank: 1}", 1)},
		{"declines", strings.Replace(round1Missile, "weapon: missile, initiative_rolls: [1]", "weapon: missile, initiative_rolls: [1], policy: {name: test-script, interrupt: false}", 1)},
		// Round 2: the goblin marches in round 1 and charges in round 2.
		{"round 2", head + `max_rounds: 2
distance: 100
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, range: 5, initiative_rolls: [1, 1]}
  - name: b
    combatants:
      - {name: G1, hp: 100, ac: 0, damage: 1, initiative_rolls: [6, 6], policy: {name: test-script, do: charge}}
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, tc.src)
			log, _, _ := replay(g, 0)
			if !strings.Contains(log, "charges Archer") {
				t.Fatalf("no charge at the archer:\n%s", log)
			}
			absent(t, log, "interrupts")
		})
	}
}

func TestRound1LostOnDamage(t *testing.T) {
	// A goblin archer shoots the archer on 6, before G1's charge on 5:
	// hurt, it is no longer ready against the charge.
	g := compileYAML(t, head+`max_rounds: 1
distance: 30
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: Sniper, hp: 100, ac: 0, damage: 1, attack_throw: -20, weapon: missile, initiative_rolls: [6]}
      - {name: G1, hp: 100, ac: 0, damage: 1, initiative_rolls: [5], policy: {name: test-script, do: charge}}
`)
	log, _, _ := find(t, g, func(log string) bool { return hits(log, "Sniper", "attacks", "Archer") })
	inOrder(t, log, "Sniper attacks Archer", "Archer takes damage: it is no longer ready against a charge",
		"G1 charges Archer", "G1 charges into Archer", "Archer's segment (number 1")
	absent(t, log, "interrupts")
}

// ---------------------------------------------------------------------
// Case 3: the round-1 long weapon.

func TestRound1LongWeapon(t *testing.T) {
	src := head + `max_rounds: 1
distance: 30
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Spearman, hp: 100, ac: 0, damage: 1, weapon: long, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: Raider, hp: 100, ac: 0, damage: 1, CHARGER initiative_rolls: [6], policy: {name: test-script, do: charge}}
`
	for _, tc := range []struct {
		name, charger, want string
		stops               bool
	}{
		{"man-sized melee charger", "", "Spearman interrupts Raider's charge (round-1 long weapon), before its attack; Spearman loses its own number 1", true},
		{"smaller charger", "size: small,", "Spearman interrupts Raider's charge (round-1 long weapon)", true},
		{"larger charger", "size: large,", "Spearman cannot interrupt Raider's charge with its long weapon: it is larger (large against man)", false},
		{"charger with a long weapon", "weapon: long,", "Spearman cannot interrupt Raider's charge with its long weapon: it has a long weapon too", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, strings.Replace(src, "CHARGER", tc.charger, 1))
			log, _, tally := replay(g, 0)
			if tc.stops {
				inOrder(t, log, "Raider charges Spearman", tc.want, "Spearman attacks the charging Raider", "Raider charges into Spearman",
					"count 1: Spearman", "Spearman has no segment")
				if n := counter(t, g, tally, 0, "numbers_lost"); n != 1 {
					t.Errorf("numbers_lost = %d, want 1", n)
				}
			} else {
				inOrder(t, log, "Raider charges Spearman", tc.want, "Raider charges into Spearman", "Spearman's segment (number 1")
				absent(t, log, "interrupts")
			}
		})
	}
}

func TestRound1LongWeaponReportsOnlyWantedInterrupts(t *testing.T) {
	// A spear orc charges Skandara; Ogilar (spear) stands beside her. The
	// orc's spear forbids Ogilar's interrupt. With the default policy
	// (interrupt: at_self) Ogilar would not have stabbed at a charge aimed
	// at someone else, so the trace does not say he "cannot interrupt" it;
	// a spearman who would interrupt any charge (interrupt: always) is told
	// why he cannot.
	src := head + `max_rounds: 1
distance: 30
options: {morale_trigger: none}
sides:
  - name: heroes
    combatants:
      - {name: Ogilar, hp: 100, ac: 0, damage: 1, weapon: long, initiative_rolls: [1], policy: {name: default, interrupt: MODE}}
      - {name: Skandara, hp: 100, ac: 0, damage: 1, initiative_rolls: [2], policy: {name: default, interrupt: never}}
  - name: orcs
    combatants:
      - {name: Spear Orc, hp: 100, ac: 0, damage: 1, weapon: long, initiative_rolls: [6], policy: {name: default, prefer: Skandara}}
`
	const refused = "Ogilar cannot interrupt Spear Orc's charge with its long weapon: it has a long weapon too"
	log, _, _ := replay(compileYAML(t, strings.Replace(src, "MODE", "at_self", 1)), 0)
	inOrder(t, log, "Spear Orc charges Skandara", "Spear Orc charges into Skandara")
	absent(t, log, "Ogilar cannot interrupt")
	log, _, _ = replay(compileYAML(t, strings.Replace(src, "MODE", "always", 1)), 0)
	inOrder(t, log, "Spear Orc charges Skandara", refused, "Spear Orc charges into Skandara")
	absent(t, log, "Ogilar interrupts")
}

// ---------------------------------------------------------------------
// Delay.

const delayBase = head + `max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - A_ENTRY
      - {name: C, hp: 100, ac: 0, damage: 1, initiative_rolls: [2], C_POLICY}
  - name: b
    referee: true
    combatants:
      - {name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [4]}
      - {name: D, hp: 100, ac: 0, damage: 1, initiative_rolls: [2], policy: {name: test-script, before: false}}
`

func delayGame(t *testing.T, a, cPolicy string) string {
	t.Helper()
	src := strings.Replace(delayBase, "A_ENTRY", a, 1)
	src = strings.Replace(src, "C_POLICY", cPolicy, 1)
	log, _, _ := replay(compileYAML(t, src), 0)
	return log
}

func TestDelayToCountClampedToLimit(t *testing.T) {
	// Number 3 may delay down to -3: asked -8, it waits to -3 and acts.
	log := delayGame(t, "{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, do: delay, count: -8}}", "policy: test-script")
	inOrder(t, log, "count 3: A", "A delays to count -3 (asked -8; the limit is the negative of its number)",
		"count 2:", "count -3: A (delayed)", "A takes its delayed segment at count -3", "A attacks")
}

func TestDelayUntilNamedActsRightAfter(t *testing.T) {
	// A (5) waits for C (2). On 2, C and the referee's D tie (2 v 2: the
	// referee's side chooses; D goes after), so C acts, A right after it
	// on the same number, then D.
	log := delayGame(t, "{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [5], policy: {name: test-script, do: delay, until: C}}", "policy: test-script")
	inOrder(t, log, "A delays until C has acted (limit: count -5)", "B's segment", "count 2: C, D",
		"C's segment", "A takes its delayed segment at count 2", "A attacks", "D's segment")
}

func TestDelayLostAtLimit(t *testing.T) {
	src := head + `max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [2], policy: {name: test-script, do: delay, until: C}}
      - {name: C, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], policy: {name: test-script, do: delay, count: -5}}
  - name: b
    combatants:
      - {name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [4]}
`
	g := compileYAML(t, src)
	log, _, tally := replay(g, 0)
	inOrder(t, log, "C delays to count -5", "A delays until C has acted (limit: count -2)",
		"A waited for C past count -2 (-2): its action is lost this round", "C takes its delayed segment at count -5")
	absent(t, log, "A takes its delayed segment")
	if n := counter(t, g, tally, 0, "actions_lost"); n != 1 {
		t.Errorf("actions_lost = %d, want 1", n)
	}
	if n := counter(t, g, tally, 0, "delays"); n != 2 {
		t.Errorf("delays = %d, want 2", n)
	}
}

func TestDelayNonPositiveNumber(t *testing.T) {
	// init -3 and a 1: number -2. "Down to the negative of its number"
	// leaves nothing lower: it acts at once.
	log := delayGame(t, "{name: A, hp: 100, ac: 0, init: -3, damage: 1, initiative_rolls: [1], policy: {name: test-script, do: delay, count: -5}}", "policy: test-script")
	inOrder(t, log, "count -2: A", "A cannot delay below count -2: it acts now", "A attacks")
}

func TestDelayForOneWhoActed(t *testing.T) {
	log := delayGame(t, "{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [1], policy: {name: test-script, do: delay, until: B}}", "policy: test-script")
	inOrder(t, log, "B's segment", "A would wait for B, who will not act again this round: it acts now", "A attacks")
}

// ---------------------------------------------------------------------
// Start- and end-of-segment effects with a delay (the Bloody Flux example).

func TestStartOfSegmentAtOriginalNumber(t *testing.T) {
	// Quintus (4) bears Bloody Flux (cast on 6 by the witch) and delays
	// until Balbus (2): the flux strikes at the start of its segment, on 4,
	// before the delay.
	g := compileYAML(t, head+`max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: heroes
    combatants:
      - {name: Quintus, hp: 100, ac: 0, damage: 1, initiative_rolls: [4], policy: {name: test-script, do: delay, until: Balbus}}
      - {name: Balbus, hp: 100, ac: 0, damage: 1, initiative_rolls: [2]}
  - name: witches
    combatants:
      - {name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [6],
         spells: [{name: bloody flux, ongoing: 1d12, ongoing_at: start, ongoing_rounds: 3}],
         policy: {name: test-script, declare: bloody flux, target: Quintus}}
`)
	log, _, _ := replay(g, 0)
	inOrder(t, log, "Witch casts bloody flux at Quintus", "count 4: Quintus",
		"Quintus: bloody flux at the start of its segment", "Quintus delays until Balbus has acted",
		"Balbus's segment", "Quintus takes its delayed segment at count 2")
}

func TestEndOfSegmentEffects(t *testing.T) {
	src := head + `max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: heroes
    combatants:
      - {name: Quintus, hp: 100, ac: 0, damage: 1, initiative_rolls: [4], policy: {name: test-script, do: delay, until: WAIT}}
      - {name: Balbus, hp: 100, ac: 0, damage: 1, initiative_rolls: [2]}
  - name: witches
    combatants:
      - {name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [6],
         spells: [{name: rot, ongoing: 1, ongoing_at: end, ongoing_rounds: 3}],
         policy: {name: test-script, declare: rot, target: Quintus, do: DO}}
`
	t.Run("when it finally acts", func(t *testing.T) {
		src := strings.NewReplacer("WAIT", "Balbus", "DO", "attack").Replace(src)
		log, _, _ := replay(compileYAML(t, src), 0)
		inOrder(t, log, "Quintus delays until Balbus", "Balbus's segment", "Quintus takes its delayed segment at count 2",
			"Quintus attacks", "Quintus: rot at the end of its segment")
	})
	t.Run("at the end of the round when it never acts", func(t *testing.T) {
		// Quintus (4, limit -4) waits for Balbus, who delays to -5: its
		// limit passes, it never acts, and the rot comes at round's end.
		src := strings.NewReplacer("WAIT", "Balbus", "DO", "attack").Replace(src)
		src = strings.Replace(src, "{name: Balbus, hp: 100, ac: 0, damage: 1, initiative_rolls: [2]}",
			"{name: Balbus, hp: 100, ac: 0, damage: 1, initiative_rolls: [5], policy: {name: test-script, do: delay, count: -5}}", 1)
		log, _, _ := replay(compileYAML(t, src), 0)
		inOrder(t, log, "Quintus delays until Balbus", "Quintus waited for Balbus past count -4",
			"Balbus takes its delayed segment at count -5", "Quintus: rot at the end of its segment")
		absent(t, log, "Quintus takes its delayed segment")
	})
}

// ---------------------------------------------------------------------
// Same number.

func TestSameNumber(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		referee    string
		want       []string
	}{
		{"same side: rank orders",
			"{name: A1, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}\n      - {name: A2, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, rank: 5}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [6]}", "",
			[]string{"count 3: A2, A1", "A2's segment", "A1's segment"}},
		{"fewer chooses: after",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: false}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}\n      - {name: B2, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}", "",
			[]string{"same number, opposite sides: a choose (fewer in the fight): B, A", "B's segment", "A's segment"}},
		{"fewer chooses: before",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: true}}\n      - {name: B2, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}", "",
			[]string{"same number, opposite sides: a choose (fewer in the fight): A, B", "A's segment", "B's segment"}},
		{"equal: the referee's side chooses after",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: true}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: false}}", "    referee: true\n",
			[]string{"same number, opposite sides: b choose (equal numbers, the referee's side): A, B", "A's segment", "B's segment"}},
		{"equal: the referee's side chooses before",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: true}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}", "    referee: true\n",
			[]string{"b choose (equal numbers, the referee's side): B, A", "B's segment", "A's segment"}},
		{"equal, no referee: flag: the second side is the referee's",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: false}}", "",
			[]string{"b choose (equal numbers, the referee's side): A, B"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + "max_rounds: 1\ndistance: 0\noptions: {morale_trigger: none}\nsides:\n  - name: a\n    combatants:\n      - " + tc.a +
				"\n  - name: b\n" + tc.referee + "    combatants:\n      - " + tc.b + "\n"
			log, _, _ := replay(compileYAML(t, src), 0)
			inOrder(t, log, tc.want...)
		})
	}
}

// ---------------------------------------------------------------------
// Declared spells.

func TestDeclaredCasterDisrupted(t *testing.T) {
	src := head + `max_rounds: 1
distance: 30
options: {morale_trigger: none, disrupt_declared_casters: %v}
sides:
  - name: a
    combatants:
      - {name: Mage, hp: 100, ac: 0, damage: 1, initiative_rolls: [1], spells: [{name: bolt, damage: 2d6}], policy: {name: test-script, declare: bolt}}
  - name: b
    combatants:
      - {name: Archer, hp: 100, ac: 0, damage: 1, attack_throw: -20, weapon: missile, initiative_rolls: [6]}
`
	g := compileYAML(t, strings.Replace(src, "%v", "true", 1))
	log, _, tally := find(t, g, func(log string) bool { return hits(log, "Archer", "attacks", "Mage") })
	inOrder(t, log, "Mage declares a spell (bolt)", "initiative:", "Archer attacks Mage",
		"Mage is hurt before its segment: its declared bolt is lost", "Mage's segment",
		"Mage's declared spell was disrupted: no action this segment")
	absent(t, log, "Mage casts")
	if n := counter(t, g, tally, 0, "declared_spells_lost"); n != 1 {
		t.Errorf("declared_spells_lost = %d, want 1", n)
	}
	g = compileYAML(t, strings.Replace(src, "%v", "false", 1))
	log, _, _ = find(t, g, func(log string) bool { return hits(log, "Archer", "attacks", "Mage") })
	inOrder(t, log, "Archer attacks Mage", "Mage's segment", "Mage casts bolt at Archer")
}

// ---------------------------------------------------------------------
// Morale.

func TestMoraleFlightIsOutNotDead(t *testing.T) {
	src := head + `max_rounds: 3
distance: 0
options: {morale_trigger: %s}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 100, ac: 0, damage: 10, attack_throw: -20, cleaves: 0, initiative_rolls: [6, 6, 6]}
  - name: goblins
    combatants:
      - {name: Goblin, count: 2, hp: 5, ac: 0, damage: 1, attack_throw: 40, morale: -12, initiative_rolls: [1, 1, 1]}
`
	g := compileYAML(t, strings.Replace(src, "%s", "half_side", 1))
	log, o, tally := find(t, g, func(log string) bool { return hits(roundOf(log, 1), "Fighter", "attacks", "Goblin#1") })
	inOrder(t, log, "Goblin#1 is killed", "morale: goblins have lost 1 of 2", "morale: Goblin#2 (hp 5 of 5) rolls 2d6", "== heroes win after 1 rounds")
	if !has(log, "morale: Goblin#2", ": flees") {
		t.Errorf("Goblin#2 did not flee:\n%s", log)
	}
	if o.Winner != 0 || o.Survivors != [2]int{1, 0} {
		t.Errorf("outcome %+v, want heroes win 1 vs 0", o)
	}
	if f, d := counter(t, g, tally, 1, "flights"), counter(t, g, tally, 1, "deaths"); f != 1 || d != 1 {
		t.Errorf("goblins: flights %d, deaths %d; want 1 and 1", f, d)
	}
	g = compileYAML(t, strings.Replace(src, "%s", "none", 1))
	log, _, tally = find(t, g, func(log string) bool { return hits(roundOf(log, 1), "Fighter", "attacks", "Goblin#1") })
	absent(t, log, "morale:")
	if n := counter(t, g, tally, 1, "morale_checks"); n != 0 {
		t.Errorf("morale_checks = %d with morale_trigger none", n)
	}
}

func TestMoraleHalfHPOnce(t *testing.T) {
	// A goblin at or below half its HP checks once (morale_repeat once),
	// every round with every_round; with morale +12 it never flees.
	src := head + `max_rounds: 3
distance: 0
options: {morale_trigger: half_hp, morale_repeat: %s}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 100, ac: 0, damage: 6, attack_throw: -20, initiative_rolls: [6, 6, 6], policy: {name: test-script, do: ready, rounds: 3}}
      - {name: Squire, hp: 100, ac: 0, damage: 6, attack_throw: -20, initiative_rolls: [6], policy: {name: test-script, do: attack}}
  - name: goblins
    combatants:
      - {name: Goblin, hp: 12, ac: 0, damage: 1, attack_throw: 40, morale: 12, initiative_rolls: [1, 1, 1]}
`
	for _, tc := range []struct {
		mode string
		want int64
	}{{"once", 1}, {"every_round", 3}} {
		g := compileYAML(t, strings.Replace(src, "%s", tc.mode, 1))
		_, _, tally := find(t, g, func(log string) bool {
			return hits(roundOf(log, 1), "Squire", "attacks", "Goblin") && !strings.Contains(log, "Goblin is killed")
		})
		if n := counter(t, g, tally, 1, "morale_checks"); n != tc.want {
			t.Errorf("morale_repeat %s: %d checks, want %d", tc.mode, n, tc.want)
		}
	}
}

// ---------------------------------------------------------------------
// Engagement.

func TestEngagement(t *testing.T) {
	src := head + `max_rounds: 1
distance: 30
options: {morale_trigger: none, size_engagement: true}
sides:
  - name: a
    combatants:
      - {name: Spearman, count: SPEARS, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, behind: 20, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: Ogre, hp: 100, ac: 0, damage: 1, RAIDER initiative_rolls: [6], policy: {name: test-script, do: charge, target: Archer}}
`
	for _, tc := range []struct {
		name, spears, raider string
		want                 []string
	}{
		{"a screen stops the charge", "1", "", []string{"Ogre charges Archer (50 ft away)",
			"Ogre moves 25 ft and is stopped: engaged 25 ft short of Archer", "Ogre charges into Spearman"}},
		{"a flyer is not engaged by non-flyers", "1", "flies: true,", []string{"Ogre moves 45 ft (now 5 ft from Archer)", "Ogre charges into Archer"}},
		{"size: one man does not engage a large ogre", "1", "size: large, engaged_by: 2,", []string{"Ogre moves 45 ft (now 5 ft from Archer)", "Ogre charges into Archer"}},
		{"size: two men do", "2", "size: large, engaged_by: 2,", []string{"Ogre moves 25 ft and is stopped", "Ogre charges into Spearman"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.NewReplacer("SPEARS", tc.spears, "RAIDER", tc.raider).Replace(src)
			log, _, _ := replay(compileYAML(t, s), 0)
			inOrder(t, log, tc.want...)
		})
	}
}

// TestEngagementOnTheLastStep: an Ogre marching exactly as far as it can
// go before the Spearman could engage it (40 ft) is still checked on that
// last step and stopped there, short of the Archer it marches at.
func TestEngagementOnTheLastStep(t *testing.T) {
	src := head + `max_rounds: 1
distance: 45
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Spearman, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, behind: 20, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: Ogre, hp: 100, ac: 0, damage: 1, speed: 20, initiative_rolls: [6], policy: {name: test-script, do: charge, target: Archer}}
`
	log, _, _ := replay(compileYAML(t, src), 0)
	inOrder(t, log, "Ogre marches toward Archer", "Ogre moves 40 ft and is stopped: engaged 25 ft short of Archer")
}

func TestEngagedCannotMove(t *testing.T) {
	// Engaged by the spearman, the orc cannot go after the archer behind.
	log, _, _ := replay(compileYAML(t, head+`max_rounds: 1
distance: 5
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Spearman, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, behind: 20, initiative_rolls: [1]}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], policy: {name: test-script, do: charge, target: Archer}}
`), 0)
	inOrder(t, log, "Orc is engaged and cannot reach Archer: it attacks Spearman")
	absent(t, log, "Orc charges")
	absent(t, log, "Orc moves")
}

func TestWithdrawAndRetreat(t *testing.T) {
	src := head + `max_rounds: 1
distance: 5
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Fighter, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], policy: {name: test-script, declare: MOVE}}
  - name: b
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, speed: 0, initiative_rolls: [1]}
`
	g := compileYAML(t, strings.Replace(src, "MOVE", "withdraw", 1))
	log, _, tally := replay(g, 0)
	inOrder(t, log, "Fighter declares a withdrawal", "Fighter withdraws (up to 15 ft)", "Fighter moves back 15 ft (now at -15 ft)", "Orc cannot move closer")
	absent(t, log, "free attack")
	if n := counter(t, g, tally, 0, "withdrawals"); n != 1 {
		t.Errorf("withdrawals = %d, want 1", n)
	}
	g = compileYAML(t, strings.Replace(src, "MOVE", "retreat", 1))
	log, _, tally = replay(g, 0)
	inOrder(t, log, "Fighter declares a retreat", "Fighter retreats (up to 30 ft)", "Orc gets a free attack on the retreating Fighter",
		"Fighter moves back 30 ft (now at -30 ft)")
	if n := counter(t, g, tally, 0, "retreats"); n != 1 {
		t.Errorf("retreats = %d, want 1", n)
	}
}

// ---------------------------------------------------------------------
// Cleave.

func TestCleaveLimit(t *testing.T) {
	src := head + `max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: a
    combatants:
      - {name: Fighter, hp: 100, ac: 0, damage: 5, attack_throw: -20, initiative_rolls: [6] CLEAVES}
  - name: b
    combatants:
      - {name: Goblin, count: 3, hp: 1, ac: 0, damage: 1, initiative_rolls: [1]}
`
	for _, tc := range []struct {
		cleaves string
		want    int
	}{{"", 1}, {", cleaves: 2", 2}, {", cleaves: 0", 0}} {
		g := compileYAML(t, strings.Replace(src, "CLEAVES", tc.cleaves, 1))
		// Every attack of the fighter's segment hits.
		log, _, tally := find(t, g, func(log string) bool {
			seg := log[strings.Index(log, "Fighter's segment"):]
			if end := strings.Index(seg, "count 1"); end >= 0 {
				seg = seg[:end]
			}
			return !strings.Contains(seg, ": miss")
		})
		if n := counter(t, g, tally, 0, "cleaves"); n != int64(tc.want) {
			t.Errorf("cleaves%s: %d cleaves, want %d\n%s", tc.cleaves, n, tc.want, log)
		}
		if n := strings.Count(log, " is killed"); n != tc.want+1 {
			t.Errorf("cleaves%s: %d goblins killed in the fighter's segment, want %d\n%s", tc.cleaves, n, tc.want+1, log)
		}
	}
}

// ---------------------------------------------------------------------
// Initiative.

// TestInitiativeEveryRound: the die is re-rolled every round — P(a
// combatant's round-2 number equals its round-1 number) = 1/6 (rolling
// once would make it 1) — and with group_initiative the copies of one
// entry share the die every round (without it all three agree with
// probability 1/36). Tolerance 4 SE of a proportion, N = 3,000 encounters
// (SE 0.0068 for 1/6, 0.0030 for 1/36).
func TestInitiativeEveryRound(t *testing.T) {
	src := head + `max_rounds: 2
distance: 0
options: {morale_trigger: none, group_initiative: %v}
sides:
  - name: a
    combatants:
      - {name: A, hp: 1000, ac: 0, damage: 1, init: 1}
  - name: b
    referee: true
    combatants:
      - {name: O, count: 3, hp: 1000, ac: 0, damage: 1}
`
	const n = 3000
	numbers := func(line string) map[string]string {
		out := map[string]string{}
		for _, e := range strings.Split(strings.TrimPrefix(line, "initiative: "), ", ") {
			f := strings.Fields(e)
			out[f[0]] = f[1]
		}
		return out
	}
	for _, group := range []bool{false, true} {
		g := compileYAML(t, strings.Replace(src, "%v", strconv.FormatBool(group), 1))
		same, allEqual := 0, 0
		for e := int64(0); e < n; e++ {
			log, _, _ := replay(g, e)
			var rounds []map[string]string
			for _, l := range strings.Split(log, "\n") {
				if strings.HasPrefix(l, "initiative: ") {
					rounds = append(rounds, numbers(l))
				}
			}
			if len(rounds) != 2 {
				t.Fatalf("%d initiative lines, want 2:\n%s", len(rounds), log)
			}
			if rounds[0]["A"] == rounds[1]["A"] {
				same++
			}
			for _, r := range rounds {
				if r["O#1"] == r["O#2"] && r["O#2"] == r["O#3"] {
					allEqual++
				}
			}
		}
		checkProb(t, "P(A's number repeats next round)", int64(same), n, 1.0/6)
		checkPower(t, "initiative rolled once", int64(same), n, 1)
		if group {
			checkProb(t, "P(the group shares a number)", int64(allEqual), 2*n, 1)
		} else {
			checkProb(t, "P(three separate rolls agree)", int64(allEqual), 2*n, 1.0/36)
		}
	}
}
