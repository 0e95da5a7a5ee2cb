package acks2_test

// Rule tests: small encounters with pinned initiative (initiative_rolls)
// and scripted policies (test-script), read through the narration. Where a
// rule needs a particular die (an attack that hits), the test looks for
// the first encounter of seed 1 whose narration shows it (find) and then
// checks the rule's consequences in that encounter.

import (
	"simctl/sim"
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

func hits(log run, attacker, verb, target string) bool {
	return has(log, "attack '"+attacker+"' '"+target+"' ok=true rule='"+verb+"'")
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
	r1 := log.round(1)
	inOrder(t, r1, "ready Guard rule=attack", "action Orc Guard rule=march")
	absent(t, r1, "interrupt rule='readied attack'")
	inOrder(t, log.round(2), "initiative Orc roll=5 rule=called", "action Orc Guard rule=charge",
		"interrupt Guard Orc rule='readied attack'",
		"attack Guard Orc rule=attacks", "attack Orc Guard rule='charges into'",
		"initiative Guard roll=1 rule=called", "turn Guard roll=1", "attack Guard Orc rule=attacks")
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
	inOrder(t, log, "ready Guard rule=attack", "action Orc Guard rule=charge", "interrupt Guard rule='readied attack'", "attack Orc Guard rule='charges into'")
	log, _, _ = replay(compileYAML(t, strings.Replace(src, "%v", "false", 1)), 0)
	inOrder(t, log, "ready Guard rule=attack", "action Orc Guard rule=charge", "attack Orc Guard rule='charges into'")
	absent(t, log, "interrupt rule='readied attack'")
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
	inOrder(t, log, "ready Guard rule=attack", "action Orc Guard rule=charge", "attack Orc Guard rule='charges into'")
	absent(t, log, "interrupt rule='readied attack'")
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
	inOrder(t, log.round(2), "turn Guard", "lost rule='ready dropped'", "attack Guard Orc rule=attacks")
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
			"attack Archer Guard rule=attacks", "lost Guard rule='ready: takes damage'"},
		{"failed save", "{name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [1, 6], spells: [{name: hex, save: negates, ongoing: 1, ongoing_at: end}], policy: {name: test-script, declare: hex, target: Guard}}",
			"", "lost Guard rule='ready: fails a saving throw'"},
		{"forced move", "{name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [1, 6], spells: [{name: shove, push: 5}], policy: {name: test-script, declare: shove, target: Guard}}",
			"", "lost Guard rule='ready: is moved against its will'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, strings.Replace(base, "EXTRA", tc.extra, 1))
			log, _, tally := find(t, g, func(log run) bool {
				return tc.pre == "" || hits(log.round(2), "Archer", "attacks", "Guard")
			})
			if tc.pre != "" {
				inOrder(t, log.round(2), "attack Archer Guard rule=attacks", tc.why, "action Orc Guard rule=charge", "attack Orc Guard rule='charges into'")
			} else {
				inOrder(t, log, tc.why)
			}
			absent(t, log, "interrupt rule='readied attack'")
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
	log, _, tally := find(t, g, func(log run) bool {
		return hits(log, "Archer", "attacks the charging", "G1") && hits(log, "Archer", "cleaves into", "G2")
	})
	inOrder(t, log, "ready Archer rule='round 1 against a charge'",
		"initiative G1 roll=6 rule=called", "action G1 Archer rule=charge", "interrupt Archer G1 amount=1 rule='charge: round-1 missile weapon'",
		"attack Archer G1 rule='attacks the charging'", "down G1 rule=killed", "attack Archer G2 rule='cleaves into'", "down G2 rule=killed")
	absent(t, log, "attack G1 rule='charges into'")
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
	log, _, _ := find(t, g, func(log run) bool { return has(log, "attack Archer G1 ok=false rule='attacks the charging'") })
	inOrder(t, log, "interrupt Archer G1 rule^='charge: '", "attack G1 Archer rule='charges into'", "action G2 Archer rule=charge", "attack G2 Archer rule='charges into'",
		"initiative Archer roll=1 rule=called", "lost Archer rule='number given for round 1'")
	if log.ev.Count(t, "interrupt rule^='charge: '") != 1 {
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
			if !has(log, "action * Archer rule=charge") {
				t.Fatalf("no charge at the archer:\n%s", log)
			}
			absent(t, log, "interrupt rule^='charge: '")
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
	log, _, _ := find(t, g, func(log run) bool { return hits(log, "Sniper", "attacks", "Archer") })
	inOrder(t, log, "attack Sniper Archer rule=attacks", "lost Archer rule='round 1 readiness: takes damage'",
		"action G1 Archer rule=charge", "attack G1 Archer rule='charges into'", "turn Archer roll=1")
	absent(t, log, "interrupt rule^='charge: '")
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
		{"man-sized melee charger", "", "interrupt Spearman Raider amount=1 rule='charge: round-1 long weapon'", true},
		{"smaller charger", "size: small,", "interrupt Spearman Raider rule='charge: round-1 long weapon'", true},
		{"larger charger", "size: large,", "lost Spearman Raider rule='long weapon: it is larger (large against man)'", false},
		{"charger with a long weapon", "weapon: long,", "lost Spearman Raider rule='long weapon: it has a long weapon too'", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, strings.Replace(src, "CHARGER", tc.charger, 1))
			log, _, tally := replay(g, 0)
			if tc.stops {
				inOrder(t, log, "action Raider Spearman rule=charge", tc.want, "attack Spearman Raider rule='attacks the charging'", "attack Raider Spearman rule='charges into'",
					"initiative Spearman roll=1 rule=called", "lost Spearman rule='number given for round 1'")
				if n := counter(t, g, tally, 0, "numbers_lost"); n != 1 {
					t.Errorf("numbers_lost = %d, want 1", n)
				}
			} else {
				inOrder(t, log, "action Raider Spearman rule=charge", tc.want, "attack Raider Spearman rule='charges into'", "turn Spearman roll=1")
				absent(t, log, "interrupt rule^='charge: '")
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
	const refused = "lost Ogilar 'Spear Orc' rule='long weapon: it has a long weapon too'"
	log, _, _ := replay(compileYAML(t, strings.Replace(src, "MODE", "at_self", 1)), 0)
	inOrder(t, log, "action 'Spear Orc' Skandara rule=charge", "attack 'Spear Orc' Skandara rule='charges into'")
	absent(t, log, "lost Ogilar rule^='long weapon'")
	log, _, _ = replay(compileYAML(t, strings.Replace(src, "MODE", "always", 1)), 0)
	inOrder(t, log, "action 'Spear Orc' Skandara rule=charge", refused, "attack 'Spear Orc' Skandara rule='charges into'")
	absent(t, log, "interrupt Ogilar rule^='charge: '")
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

func delayGame(t *testing.T, a, cPolicy string) run {
	t.Helper()
	src := strings.Replace(delayBase, "A_ENTRY", a, 1)
	src = strings.Replace(src, "C_POLICY", cPolicy, 1)
	log, _, _ := replay(compileYAML(t, src), 0)
	return log
}

func TestDelayToCountClampedToLimit(t *testing.T) {
	// Number 3 may delay down to -3: asked -8, it waits to -3 and acts.
	log := delayGame(t, "{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, do: delay, count: -8}}", "policy: test-script")
	inOrder(t, log, "initiative A roll=3 rule=called", "delay A - need=-3 amount=-8 rule='count, limited'",
		"initiative roll=2 rule=called", "initiative A roll=-3 rule=called", "turn A roll=-3 rule=delayed", "attack A")
}

func TestDelayUntilNamedActsRightAfter(t *testing.T) {
	// A (5) waits for C (2). On 2, C and the referee's D tie (2 v 2: the
	// referee's side chooses; D goes after), so C acts, A right after it
	// on the same number, then D.
	log := delayGame(t, "{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [5], policy: {name: test-script, do: delay, until: C}}", "policy: test-script")
	inOrder(t, log, "delay A C need=-5 rule=after", "turn B", "initiative C roll=2 rule=called", "initiative D roll=2 rule=called",
		"turn C", "turn A roll=2 rule=delayed", "attack A", "turn D")
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
	inOrder(t, log, "delay C - need=-5", "delay A C need=-2 rule=after",
		"lost A C need=-2 rule='delay ran out'", "turn C roll=-5 rule=delayed")
	absent(t, log, "turn A rule=delayed")
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
	inOrder(t, log, "initiative A roll=-2 rule=called", "lost A - need=-2 rule='delay: below the limit'", "attack A")
}

func TestDelayForOneWhoActed(t *testing.T) {
	log := delayGame(t, "{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [1], policy: {name: test-script, do: delay, until: B}}", "policy: test-script")
	inOrder(t, log, "turn B", "lost A B rule='delay: waits for no one'", "attack A")
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
	inOrder(t, log, "spell Witch Quintus rule='bloody flux'", "initiative Quintus roll=4 rule=called",
		"damage * Quintus rule='bloody flux: ongoing start'", "delay Quintus Balbus rule=after",
		"turn Balbus", "turn Quintus roll=2 rule=delayed")
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
		inOrder(t, log, "delay Quintus Balbus rule=after", "turn Balbus", "turn Quintus roll=2 rule=delayed",
			"attack Quintus", "damage * Quintus rule='rot: ongoing end'")
	})
	t.Run("at the end of the round when it never acts", func(t *testing.T) {
		// Quintus (4, limit -4) waits for Balbus, who delays to -5: its
		// limit passes, it never acts, and the rot comes at round's end.
		src := strings.NewReplacer("WAIT", "Balbus", "DO", "attack").Replace(src)
		src = strings.Replace(src, "{name: Balbus, hp: 100, ac: 0, damage: 1, initiative_rolls: [2]}",
			"{name: Balbus, hp: 100, ac: 0, damage: 1, initiative_rolls: [5], policy: {name: test-script, do: delay, count: -5}}", 1)
		log, _, _ := replay(compileYAML(t, src), 0)
		inOrder(t, log, "delay Quintus Balbus rule=after", "lost Quintus Balbus need=-4 rule='delay ran out'",
			"turn Balbus roll=-5 rule=delayed", "damage * Quintus rule='rot: ongoing end'")
		absent(t, log, "turn Quintus rule=delayed")
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
			[]string{"initiative A2 roll=3 rule=called", "initiative A1 roll=3 rule=called", "turn A2", "turn A1"}},
		{"fewer chooses: after",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: false}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}\n      - {name: B2, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}", "",
			[]string{"initiative - - amount=0 rule='opposite sides: fewer in the fight'", "initiative B rule=called", "initiative A rule=called", "turn B", "turn A"}},
		{"fewer chooses: before",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: true}}\n      - {name: B2, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}", "",
			[]string{"initiative - - amount=0 rule='opposite sides: fewer in the fight'", "initiative A rule=called", "initiative B rule=called", "turn A", "turn B"}},
		{"equal: the referee's side chooses after",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: true}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: false}}", "    referee: true\n",
			[]string{"initiative - - amount=1 rule='opposite sides: equal numbers, the referee's side'", "initiative A rule=called", "initiative B rule=called", "turn A", "turn B"}},
		{"equal: the referee's side chooses before",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: true}}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}", "    referee: true\n",
			[]string{"initiative - - amount=1 rule='opposite sides: equal numbers, the referee's side'", "initiative B rule=called", "initiative A rule=called", "turn B", "turn A"}},
		{"equal, no referee: flag: the second side is the referee's",
			"{name: A, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}",
			"{name: B, hp: 100, ac: 0, damage: 1, initiative_rolls: [3], policy: {name: test-script, before: false}}", "",
			[]string{"initiative - - amount=1 rule='opposite sides: equal numbers, the referee's side'", "initiative A rule=called", "initiative B rule=called"}},
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
	log, _, tally := find(t, g, func(log run) bool { return hits(log, "Archer", "attacks", "Mage") })
	inOrder(t, log, "action Mage rule='declare a spell (bolt)'", "initiative", "attack Archer Mage rule=attacks",
		"lost Mage rule='declared spell lost: bolt'", "turn Mage",
		"lost Mage rule='spell disrupted'")
	absent(t, log, "spell Mage")
	if n := counter(t, g, tally, 0, "declared_spells_lost"); n != 1 {
		t.Errorf("declared_spells_lost = %d, want 1", n)
	}
	g = compileYAML(t, strings.Replace(src, "%v", "false", 1))
	log, _, _ = find(t, g, func(log run) bool { return hits(log, "Archer", "attacks", "Mage") })
	inOrder(t, log, "attack Archer Mage rule=attacks", "turn Mage", "spell Mage Archer rule='bolt'")
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
	log, o, tally := find(t, g, func(log run) bool { return hits(log.round(1), "Fighter", "attacks", "Goblin#1") })
	inOrder(t, log, "down Goblin#1 rule=killed", "morale - - amount=1 need=2 rule='side losses'", "morale Goblin#2 amount=5 rule=", "end * - amount=1 rule=")
	if !has(log, "morale Goblin#2 ok=false rule=") {
		t.Errorf("Goblin#2 did not flee:\n%s", log)
	}
	if o.Winner != 0 || o.Survivors != [2]int{1, 0} {
		t.Errorf("outcome %+v, want heroes win 1 vs 0", o)
	}
	if f, d := counter(t, g, tally, 1, "flights"), counter(t, g, tally, 1, "deaths"); f != 1 || d != 1 {
		t.Errorf("goblins: flights %d, deaths %d; want 1 and 1", f, d)
	}
	g = compileYAML(t, strings.Replace(src, "%s", "none", 1))
	log, _, tally = find(t, g, func(log run) bool { return hits(log.round(1), "Fighter", "attacks", "Goblin#1") })
	absent(t, log, "morale")
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
		_, _, tally := find(t, g, func(log run) bool {
			return hits(log.round(1), "Squire", "attacks", "Goblin") && !has(log, "down Goblin rule=killed")
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
		{"a screen stops the charge", "1", "", []string{"action Ogre Archer amount=50 rule=charge",
			"move Ogre Archer amount=25 rule='stopped by engagement'", "attack Ogre Spearman#* rule='charges into'"}},
		{"a flyer is not engaged by non-flyers", "1", "flies: true,", []string{"move Ogre Archer amount=45 rule=", "attack Ogre Archer rule='charges into'"}},
		{"size: one man does not engage a large ogre", "1", "size: large, engaged_by: 2,", []string{"move Ogre Archer amount=45 rule=", "attack Ogre Archer rule='charges into'"}},
		{"size: two men do", "2", "size: large, engaged_by: 2,", []string{"move Ogre amount=25 rule='stopped by engagement'", "attack Ogre Spearman#* rule='charges into'"}},
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
	inOrder(t, log, "action Ogre Archer rule=march", "move Ogre Archer amount=40 rule='stopped by engagement'")
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
	inOrder(t, log, "action Orc Spearman rule='engaged: attacks another'")
	absent(t, log, "action Orc rule=charge")
	absent(t, log, "move Orc")
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
	inOrder(t, log, "action Fighter rule='declare a withdrawal'", "action Fighter amount=15 rule=withdraws", "move Fighter amount=15 rule=back", "move Orc rule='cannot close'")
	absent(t, log, "attack rule~='free attack'")
	if n := counter(t, g, tally, 0, "withdrawals"); n != 1 {
		t.Errorf("withdrawals = %d, want 1", n)
	}
	g = compileYAML(t, strings.Replace(src, "MOVE", "retreat", 1))
	log, _, tally = replay(g, 0)
	inOrder(t, log, "action Fighter rule='declare a retreat'", "action Fighter amount=30 rule=retreats", "attack Orc Fighter rule='gets a free attack on the retreating'",
		"move Fighter amount=30 rule=back")
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
		log, _, tally := find(t, g, func(log run) bool {
			in := false
			for _, v := range log.ev.Ev {
				switch {
				case v.Kind == sim.EvTurn:
					in = log.ev.Name(v.Actor) == "Fighter"
				case v.Kind == sim.EvInitiative:
					in = false
				case in && v.Kind == sim.EvAttack && !v.OK:
					return false
				}
			}
			return true
		})
		if n := counter(t, g, tally, 0, "cleaves"); n != int64(tc.want) {
			t.Errorf("cleaves%s: %d cleaves, want %d\n%s", tc.cleaves, n, tc.want, log)
		}
		if n := log.ev.Count(t, "down rule=killed"); n != tc.want+1 {
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
	for _, group := range []bool{false, true} {
		g := compileYAML(t, strings.Replace(src, "%v", strconv.FormatBool(group), 1))
		same, allEqual := 0, 0
		for e := int64(0); e < n; e++ {
			log, _, _ := replay(g, e)
			// Each round's numbers, from its initiative events.
			var rounds []map[string]string
			for _, v := range log.ev.Ev {
				if v.Kind != sim.EvInitiative || v.Rule != "" {
					continue
				}
				if len(rounds) < v.Round {
					rounds = append(rounds, map[string]string{})
				}
				rounds[v.Round-1][log.ev.Name(v.Actor)] = strconv.Itoa(v.Roll)
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
