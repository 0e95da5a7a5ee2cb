package d20

// Rule tests for issue 10 (the referee audit), one per item, pinned rolls.

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

// Item 1: a delay to a count when the delayer ends last in the order (its
// count is below everyone's and it already stands last) used to panic in
// resumeDelayedAtEnd ("combatant missing from the initiative order").
func TestDelayToCountWhenAlreadyLast(t *testing.T) {
	src := `
name: last
ruleset: d20
max_rounds: 2
sides:
  - name: a
    combatants:
      - {name: F, ` + tough + `, init: 1, initiative_roll: 1, policy: {name: test-script, do: delay, count: -5, rounds: [1]}}
  - name: b
    combatants:
      - {name: O, ` + tough + `, initiative_roll: 10, policy: {name: test-script}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "turn O", "turn F", "delay F - need=-5", "turn F rule=delayed roll=-5", "attack F O")
	if r.count("F") != -5 || r.order() != "O F" {
		t.Errorf("F's count %d, order %q; want -5, O F", r.count("F"), r.order())
	}
	if got := r.turnOrder(2); got != "O F" {
		t.Errorf("round 2: %q, want O F", got)
	}
}

// readyMoveYAML: R (side a) readies an attack with trigger (reach
// rReach), M (side b) walks at R from distance.
func readyMoveYAML(trigger, rReach string, distance string, mExtra string) string {
	return `
name: ready-move
ruleset: d20
max_rounds: 1
distance: ` + distance + `
sides:
  - name: a
    combatants:
      - {name: R, ` + tough + `, reach: ` + rReach + `, initiative_roll: 20, policy: {name: test-script, do: ready, trigger: ` + trigger + `}}
  - name: b
    combatants:
      - {name: M, ` + tough + `, initiative_roll: 10, ` + mExtra + `}
`
}

// Item 2: a readied enemy_in_reach or charge action fires the moment the
// mover enters the readier's reach, whatever its starting distance (the old
// code required the mover to start beyond reach + 5 ft).
func TestReadyFiresOnEnteringReach(t *testing.T) {
	for _, tc := range []struct {
		name, trigger, dist, m string
		at                     string // distance at which it fires
	}{
		{"enemy_in_reach, start 15 ft from a 10-ft reach", "enemy_in_reach", "15", "policy: {name: test-script}", "10"},
		{"charge, start 15 ft from a 10-ft reach", "charge", "15", "policy: {name: test-script, charge: true}", "10"},
		{"charge from 40 ft", "charge", "40", "policy: {name: test-script, charge: true}", "10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := play(t, g(t, readyMoveYAML(tc.trigger, "10", tc.dist, tc.m)), 1)
			r.inOrder(r.round(1), "ready R rule^=attack/", "turn M", "interrupt R M rule=attack/reach amount="+tc.at,
				"initiative R M roll=10 rule=ready", "attack R M", "attack M R")
			if r.get(0, sim.ReadiesTriggered) != 1 || r.get(0, sim.ReadiesWasted) != 0 {
				t.Errorf("triggered %d wasted %d, want 1 0\n%s", r.get(0, sim.ReadiesTriggered), r.get(0, sim.ReadiesWasted), r.dump())
			}
		})
	}
	// A 5-foot step into reach is movement into reach: M (two attacks) at
	// 10 ft steps in for a full attack.
	t.Run("5-foot step into reach", func(t *testing.T) {
		src := strings.Replace(readyMoveYAML("enemy_in_reach", "5", "10", "policy: {name: test-script}"),
			"{name: M, "+tough, "{name: M, hp: 1000, ac: 10, attacks: [30, 30], damage: 1, crit: none", 1)
		r := play(t, g(t, src), 1)
		r.inOrder(r.round(1), "turn M", "move M rule='5-foot step'", "interrupt R M rule=attack/reach amount=5", "attack R M",
			"attack M R", "attack M R")
		if r.get(0, sim.ReadiesTriggered) != 1 {
			t.Errorf("readies triggered %d, want 1\n%s", r.get(0, sim.ReadiesTriggered), r.dump())
		}
	})
	// A mover already in reach that moves closer does not enter the reach.
	t.Run("already in reach: no trigger", func(t *testing.T) {
		src := readyMoveYAML("enemy_in_reach", "10", "10", "policy: {name: test-script}")
		r := play(t, g(t, src), 1)
		if got := r.grep(r.round(1), "interrupt rule^=attack/"); len(got) != 0 {
			t.Errorf("fired for a mover already in reach: %+v", got)
		}
	})
}

// Item 3: the readied attack comes when the mover enters reach, before the
// attack of opportunity the mover provokes by moving on out of that
// threatened square; several readied actions set off by one event go in
// initiative order, whatever their trigger kinds.
func TestReadyBeforeAttackOfOpportunity(t *testing.T) {
	// R (reach 10, no longer flat-footed after its turn) readies; M walks
	// from 20 ft to 5 ft: it enters R's reach at 10 ft, then leaves that
	// threatened square.
	r := play(t, g(t, readyMoveYAML("enemy_in_reach", "10", "20", "policy: {name: test-script}")), 1)
	r.inOrder(r.round(1), "turn M", "move M R amount=10 rule=", "interrupt R M rule=attack/reach amount=10", "attack R M",
		"interrupt R rule='attack of opportunity'", "attack R M", "move M R amount=5 rule=", "attack M R")
	if r.get(0, AttacksOfOpportunity) != 1 || r.get(0, sim.ReadiesTriggered) != 1 {
		t.Errorf("AoO %d, triggered %d; want 1 1\n%s", r.get(0, AttacksOfOpportunity), r.get(0, sim.ReadiesTriggered), r.dump())
	}
}

func TestReadiersInInitiativeOrder(t *testing.T) {
	// P (count 20) readies enemy_in_reach, Q (count 15) readies charge; the
	// charging M enters both reaches on the same square. Initiative order:
	// P first, although its trigger is the more general one.
	src := `
name: two-readiers
ruleset: d20
max_rounds: 1
distance: 30
sides:
  - name: a
    combatants:
      - {name: P, ` + tough + `, initiative_roll: 20, policy: {name: test-script, do: ready, trigger: enemy_in_reach}}
      - {name: Q, ` + tough + `, initiative_roll: 15, policy: {name: test-script, do: ready, trigger: charge}}
  - name: b
    combatants:
      - {name: M, ` + tough + `, initiative_roll: 10, policy: {name: test-script, charge: true, target: P}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "action M P rule=charge", "interrupt P M rule=attack/reach", "attack P M",
		"interrupt Q M rule=attack/reach", "attack Q M", "attack M P")
	if r.order() != "P Q M" || r.count("P") != 10 || r.count("Q") != 10 {
		t.Errorf("order %q counts P %d Q %d; want P Q M, 10, 10", r.order(), r.count("P"), r.count("Q"))
	}
	// Swapped initiative: Q first.
	src = strings.Replace(strings.Replace(src, "initiative_roll: 20", "initiative_roll: X", 1), "initiative_roll: 15", "initiative_roll: 20", 1)
	r = play(t, g(t, strings.Replace(src, "initiative_roll: X", "initiative_roll: 15", 1)), 1)
	r.inOrder(r.round(1), "action M P rule=charge", "interrupt Q M rule=attack/reach", "attack Q M",
		"interrupt P M rule=attack/reach", "attack P M", "attack M P")
}

// Item 4: flat-footed ends at the first action in the regular order, also
// when that is a delayed action taken before the combatant's first regular
// turn. D (aware) delays in the surprise round until the unaware B, who
// comes first; D acts right after B in round 1, forfeiting its regular
// turn, and must not be flat-footed against B's round-2 attack.
func TestFlatFootedEndsAtDelayedAction(t *testing.T) {
	src := `
name: ff-delay
ruleset: d20
max_rounds: 2
sides:
  - name: a
    aware: true
    combatants:
      - {name: D, hp: 1000, ac: 20, dex_ac: 4, attacks: [30], damage: 1, crit: none, initiative_roll: 15, policy: {name: test-script, do: delay, until: B, rounds: [0]}}
  - name: b
    aware: false
    combatants:
      - {name: B, hp: 1000, ac: 10, attacks: [-100], damage: 1, crit: none, initiative_roll: 20, policy: {name: test-script}}
`
	r := play(t, g(t, src), 1)
	if got := r.turnOrder(1); got != "B D*" {
		t.Fatalf("round 1: %q, want B D*\n%s", got, r.dump())
	}
	// attacks -100: only a natural 20 hits; the AC shows either way.
	s1, s2 := swings(r.round(1)), swings(r.round(2))
	if len(s1) < 1 || s1[0].who != "B" || s1[0].ac != 16 {
		t.Errorf("round 1: B's attack %+v, want vs AC 16 (D flat-footed before acting)", s1)
	}
	if len(s2) < 1 || s2[0].who != "B" || s2[0].ac != 20 {
		t.Errorf("round 2: B's attack %+v, want vs AC 20 (D acted in round 1)\n%s", s2, r.dump())
	}
}

// Item 5: in the surprise round the single standard action may come with a
// 5-foot step. A (aware, 10 ft away, reach 5) steps and attacks.
func TestSurpriseRoundFiveFootStep(t *testing.T) {
	src := `
name: surprise-step
ruleset: d20
max_rounds: 1
distance: 10
sides:
  - name: a
    aware: true
    combatants:
      - {name: A, ` + tough + `, initiative_roll: 10, policy: {name: test-script}}
  - name: b
    aware: false
    combatants:
      - {name: B, ` + tough + `, initiative_roll: 20, policy: {name: test-script, do: idle}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(0), "turn A", "move A rule='5-foot step'", "attack A B")
	if got := r.grep(r.round(0), "move A rule="); len(got) != 0 {
		t.Errorf("A walked instead of stepping: %+v", got)
	}
	if got := r.grep(r.round(0), "attack A B"); len(got) != 1 {
		t.Errorf("surprise round: %d attacks, want 1", len(got))
	}
}

// Item 21: FirstInOrder is who comes first in the order; FirstActor is who
// first takes an action (delaying is not one; a readied action, resolving
// before the action that set it off, is).
func TestFirstActorAndFirstInOrder(t *testing.T) {
	duel := `
name: duel
ruleset: d20
max_rounds: 3
sides:
  - name: heroes
    combatants:
      - {name: Fighter, ` + tough + `, initiative_roll: 20, policy: {name: test-script, do: delay, until: Orc, rounds: [1]}}
  - name: monsters
    combatants:
      - {name: Orc, ` + tough + `, initiative_roll: 5, policy: {name: test-script}}
`
	r := play(t, g(t, duel), 1)
	if r.out.FirstInOrder != r.idx("Fighter") || r.out.FirstActor != r.idx("Orc") {
		t.Errorf("first in order %d, first actor %d; want Fighter (%d), Orc (%d)", r.out.FirstInOrder, r.out.FirstActor, r.idx("Fighter"), r.idx("Orc"))
	}
	if r.out.Draw != sim.DrawMaxRounds || r.out.Winner != -1 {
		t.Errorf("winner %d draw %d, want -1 and DrawMaxRounds", r.out.Winner, r.out.Draw)
	}
	// A readied attack set off by an enemy's movement: the mover moved
	// first (its action began); set off by an enemy starting a spell: the
	// readier is first (it resolves before the spell).
	r = play(t, g(t, readyMoveYAML("enemy_in_reach", "10", "20", "policy: {name: test-script}")), 1)
	if r.out.FirstInOrder != r.idx("R") || r.out.FirstActor != r.idx("M") {
		t.Errorf("move: first in order %d, first actor %d; want R, M", r.out.FirstInOrder, r.out.FirstActor)
	}
	cast := `
name: ready-cast
ruleset: d20
max_rounds: 1
distance: 0
sides:
  - name: a
    combatants:
      - {name: R, ` + tough + `, initiative_roll: 20, policy: {name: test-script, do: ready, trigger: enemy_casts}}
  - name: b
    combatants:
      - {name: C, ` + tough + `, concentration: 100, initiative_roll: 10, spells: [{name: bolt, damage: 1, level: 0}], policy: {name: test-script, do: cast, spell: bolt}}
`
	r = play(t, g(t, cast), 1)
	r.inOrder(r.round(1), "spell C", "interrupt R C rule=attack/casts", "attack R C")
	if r.out.FirstActor != r.idx("R") {
		t.Errorf("cast: first actor %d, want R (%d)\n%s", r.out.FirstActor, r.idx("R"), r.dump())
	}
	// An attack of opportunity is an action; it resolves before the spell
	// that provoked it. X and E spend their turns (no action), M casts in
	// E's reach: E's attack of opportunity is the first action.
	aoo := `
name: aoo-first
ruleset: d20
max_rounds: 1
distance: 5
sides:
  - name: a
    combatants:
      - {name: X, ` + tough + `, initiative_roll: 20, policy: {name: test-script, do: idle}}
      - {name: M, ` + tough + `, concentration: 100, initiative_roll: 10, spells: [{name: bolt, damage: 1, level: 0}], policy: {name: test-script, do: cast, spell: bolt, target: E}}
  - name: b
    combatants:
      - {name: E, ` + tough + `, initiative_roll: 15, policy: {name: test-script, do: idle}}
`
	r = play(t, g(t, aoo), 1)
	r.inOrder(r.round(1), "spell M", "interrupt E rule='attack of opportunity'", "damage M rule=bolt")
	if r.out.FirstInOrder != r.idx("X") || r.out.FirstActor != r.idx("E") {
		t.Errorf("aoo: first in order %d, first actor %d; want X (%d), E (%d)\n%s", r.out.FirstInOrder, r.out.FirstActor, r.idx("X"), r.idx("E"), r.dump())
	}
	// Surprise round: the aware act first; the unaware first in the order
	// does not count, as it has no turn in that round.
	sur := `
name: sur
ruleset: d20
max_rounds: 1
sides:
  - name: a
    aware: false
    combatants:
      - {name: U, ` + tough + `, initiative_roll: 20, policy: {name: test-script}}
  - name: b
    aware: true
    combatants:
      - {name: W, ` + tough + `, initiative_roll: 5, policy: {name: test-script}}
`
	r = play(t, g(t, sur), 1)
	if r.out.FirstInOrder != r.idx("W") || r.out.FirstActor != r.idx("W") {
		t.Errorf("surprise: first in order %d, first actor %d; want W (%d) both", r.out.FirstInOrder, r.out.FirstActor, r.idx("W"))
	}
	// A side that wins reports no draw cause.
	win := strings.Replace(sur, "{name: U, "+tough, "{name: U, hp: 1, ac: 1, attacks: [0], damage: 1", 1)
	r = play(t, g(t, win), 1)
	if r.out.Winner != 1 || r.out.Draw != sim.DrawNone {
		t.Errorf("winner %d draw %d, want 1 and DrawNone\n%s", r.out.Winner, r.out.Draw, r.dump())
	}
}

// Item 7: initiative_dice is validated with the field's position.
func TestInitiativeDiceErrors(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{"initiative_dice: 1d10, initiative_roll: 15", "initiative_roll: initiative_roll 15 cannot be rolled on initiative_dice 1d10; give a result from 1 to 10"},
		{"initiative_dice: 3d6, initiative_roll: 2", "cannot be rolled on initiative_dice 3d6; give a result from 3 to 18"},
		{"initiative_dice: 7", `initiative_dice: initiative_dice "7" has no dice`},
		{"initiative_dice: 2d20kq", `initiative_dice: bad dice expression "2d20kq"`},
	} {
		src := `
name: bad
ruleset: d20
max_rounds: 1
sides:
  - name: a
    combatants:
      - {name: A, ` + tough + `, ` + tc.field + `}
  - name: b
    combatants:
      - {name: B, ` + tough + `}
`
		_, err := loadAndCompile(src)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "rules_test.yaml:8:") {
			t.Errorf("%s: error %v, want rules_test.yaml:8:...: %s", tc.field, err, tc.want)
		}
	}
}

func loadAndCompile(src string) (*Game, error) {
	sc, err := scenario.Load("rules_test.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		return nil, err
	}
	g, err := Ruleset{}.Compile(sc)
	if err != nil {
		return nil, err
	}
	return g.(*Game), nil
}

// Item 2, the other way round: the 5-foot step of a readied action is
// movement too, and can bring the readier into a readied enemy's reach. G
// readies enemy_in_reach; R readies an attack on a caster 10 ft away and
// steps in when C starts casting; G's readied attack fires first, and an R
// it drops makes no attack.
func TestReadiedStepSetsOffEnemyReadiedAttack(t *testing.T) {
	src := `
name: step-into-readied
ruleset: d20
max_rounds: 1
distance: 10
sides:
  - name: a
    combatants:
      - {name: R, hp: 1, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 15, policy: {name: test-script, do: ready, trigger: enemy_casts}}
      - {name: X, ` + tough + `, initiative_roll: 1, policy: {name: test-script, do: idle}}
  - name: b
    combatants:
      - {name: G, ` + tough + `, initiative_roll: 20, policy: {name: test-script, do: ready, trigger: enemy_in_reach}}
      - {name: C, ` + tough + `, concentration: 100, initiative_roll: 10, spells: [{name: bolt, damage: 1, level: 0}], policy: {name: test-script, do: cast, spell: bolt, target: X}}
`
	gm := g(t, src)
	seeds(t, gm, 10, func(r *result) bool { return r.tb.f[r.idx("R")].out }, func(r *result) {
		r.inOrder(r.round(1), "spell C", "move R rule='5-foot step'", "interrupt G R rule=attack/reach amount=5", "attack G R")
		if r.tb.f[r.idx("R")].out && len(r.grep(r.round(1), "attack R C")) != 0 {
			t.Errorf("R attacked after G's readied attack dropped it\n%s", r.dump())
		}
	})
}

// A readied spell with a movement trigger is cast at the mover (it used to
// be turned into an attack); a readied counterspell is not set off by
// movement.
func TestReadiedSpellOnEnteringReach(t *testing.T) {
	base := readyMoveYAML("enemy_in_reach", "10", "20", "policy: {name: test-script}")
	src := strings.Replace(base, "policy: {name: test-script, do: ready, trigger: enemy_in_reach}",
		"spells: [{name: bolt, damage: 7, level: 1}], policy: {name: test-script, do: ready, trigger: enemy_in_reach, action: cast, spell: bolt}", 1)
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "move M amount=10 rule=", "interrupt R M rule=spell/reach amount=10", "spell R M rule=bolt amount=1", "damage R M rule=bolt amount=7")
	if got := r.grep(r.round(1), "attack R M"); len(got) != 1 || len(r.grep(r.round(1), "interrupt R rule='attack of opportunity'")) == 0 {
		t.Errorf("want no readied attack, only R's attack of opportunity: %+v\n%s", got, r.dump())
	}
	src = strings.Replace(src, "action: cast", "action: counterspell", 1)
	r = play(t, g(t, src), 1)
	if got := r.grep(r.round(1), "interrupt rule~=/"); len(got) != 0 {
		t.Errorf("a counterspell fired at a mover: %+v", got)
	}
}
