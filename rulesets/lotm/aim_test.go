package lotm

import "testing"

// Build-Up Aim is "used alongside any action that targets another person
// and requires a hit check contesting Physical Defense" (issue 34 item 5).
// W plans Build-Up Aim every turn: with its grapple (Fighting against
// Physical Defense without Armor) the aim goes and adds +2; with the
// squeeze of round 2 (Brawling against Constitution) there is nothing for
// it, so the Swift action is not spent and no aim is counted (main counted
// two aims and spent the Swift action on the squeeze).
func TestBuildUpAimOnlyWithAHitCheck(t *testing.T) {
	g := compile(t, `name: aim
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
`)
	wp := pol(t, g, "W")
	wp.plan.Main, wp.plan.Swift = MainGrapple, SwiftAim
	p := play(t, g,
		5,     // grapple: 5 + 3 + 2 aim = 10 vs 10 - 3 armor = 7: hold
		10, 9, // B: 12 vs 12: still held
		9, 7, // round 2: W squeezes: 9 + 4 = 13 vs 7 + 1 = 8, no aim
		3, 15) // B: still held
	inOrder(t, p.log, "action W rule=aim", "attack W B die=5 roll=10 need=7 ok=true rule^='grapple' rule~=[aim]",
		"check W B die=9 roll=13 need=8 ok=true rule^='squeeze: brawling vs constitution'")
	if n := len(p.log.Match(t, "action W rule=aim")); n != 1 {
		t.Errorf("%d aims narrated, want 1 (none with the squeeze)", n)
	}
	if k := p.get(0, Aims); k != 1 {
		t.Errorf("aims counted %d, want 1", k)
	}
}
