package acks2_test

// What an encounter decided beyond the winner: who was first in the order,
// who first took an action, and why a fight without a winner ended.

import (
	"strings"
	"testing"

	"simctl/sim"
)

func TestFirstActorIsNotADelayOrAReady(t *testing.T) {
	// Hero is first in the order (6) but spends its segment deciding: a
	// delay to count 1 or a readied attack (not taken this round:
	// ready_same_round is false). Orc (3) attacks first: it is the first
	// actor, Hero is still first in the order. Hero is roster index 1 so a
	// zero value cannot pass for it.
	src := head + `max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: orcs
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [3]}
  - name: heroes
    combatants:
      - {name: Hero, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], policy: POLICY}
`
	for _, tc := range []struct{ name, policy, line string }{
		{"delay", "{name: test-script, do: delay, count: 1}", "delay Hero - need=1"},
		{"ready", "{name: test-script, do: ready}", "ready Hero rule=attack"},
		{"act", "{name: test-script}", "attack Hero Orc rule=attacks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, strings.Replace(src, "POLICY", tc.policy, 1))
			log, o, _ := replay(g, 0)
			inOrder(t, log, "initiative Hero roll=6 rule=called", tc.line)
			want := 0 // Orc
			if tc.name == "act" {
				want = 1
			}
			if o.FirstActor != want || o.FirstInOrder != 1 {
				t.Errorf("FirstActor %d, FirstInOrder %d; want %d, 1\n%s", o.FirstActor, o.FirstInOrder, want, log)
			}
		})
	}
}

func TestFirstActorCasterActs(t *testing.T) {
	// Witch (6) casts her declared spell on her number: casting is an
	// action, so she is the first actor.
	g := compileYAML(t, head+`max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: orcs
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [2]}
  - name: heroes
    combatants:
      - {name: Witch, hp: 100, ac: 0, damage: 1, initiative_rolls: [6], spells: [{name: bolt, damage: 1}], policy: {name: test-script, declare: bolt}}
`)
	_, o, _ := replay(g, 0)
	if o.FirstActor != 1 || o.FirstInOrder != 1 {
		t.Errorf("witch casting: FirstActor %d, FirstInOrder %d; want 1, 1", o.FirstActor, o.FirstInOrder)
	}
}

func TestFirstActorChargerBeforeItsInterrupter(t *testing.T) {
	// The spear orc (6) charges the archer, who shoots it with her round-1
	// missile weapon before its attack. The charge began first (its
	// movement), so the orc is the first actor and first in the order.
	g := compileYAML(t, head+`max_rounds: 1
distance: 30
options: {morale_trigger: none}
sides:
  - name: heroes
    combatants:
      - {name: Archer, hp: 100, ac: 0, damage: 1, weapon: missile, initiative_rolls: [2]}
  - name: orcs
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, weapon: long, initiative_rolls: [6], policy: {name: test-script, do: charge}}
`)
	log, o, _ := replay(g, 0)
	inOrder(t, log, "action Orc Archer rule=charge", "interrupt Archer Orc rule^='charge: '", "attack Orc Archer rule='charges into'")
	if o.FirstActor != 1 || o.FirstInOrder != 1 {
		t.Errorf("FirstActor %d, FirstInOrder %d; want 1, 1", o.FirstActor, o.FirstInOrder)
	}
}

func TestFirstInOrderSameNumber(t *testing.T) {
	// Both roll 4; the side with fewer combatants chooses (one Orc against
	// two heroes) and its Orc goes after (before: false): Hero is first in
	// the order.
	for _, tc := range []struct {
		before string
		want   int
	}{{"false", 0}, {"true", 2}} {
		g := compileYAML(t, strings.Replace(head+`max_rounds: 1
distance: 0
options: {morale_trigger: none}
sides:
  - name: heroes
    combatants:
      - {name: Hero, hp: 100, ac: 0, damage: 1, initiative_rolls: [4]}
      - {name: Squire, hp: 100, ac: 0, damage: 1, initiative_rolls: [1]}
  - name: orcs
    combatants:
      - {name: Orc, hp: 100, ac: 0, damage: 1, initiative_rolls: [4], policy: {name: test-script, before: BEFORE}}
`, "BEFORE", tc.before, 1))
		log, o, _ := replay(g, 0)
		if o.FirstInOrder != tc.want || o.FirstActor != tc.want {
			t.Errorf("before: %s: FirstInOrder %d, FirstActor %d; want %d\n%s", tc.before, o.FirstInOrder, o.FirstActor, tc.want, log)
		}
	}
}

func TestDrawCauses(t *testing.T) {
	// max_rounds with both standing; both sides fleeing in the same morale
	// step; a side winning.
	t.Run("max_rounds", func(t *testing.T) {
		g := compileYAML(t, head+`max_rounds: 2
distance: 0
options: {morale_trigger: none}
sides:
  - name: a
    combatants: [{name: A, hp: 100, ac: 0, damage: 1}]
  - name: b
    combatants: [{name: B, hp: 100, ac: 0, damage: 1}]
`)
		_, o, _ := replay(g, 0)
		if o.Winner != -1 || o.Draw != sim.DrawMaxRounds || o.Rounds != 2 {
			t.Errorf("outcome %+v, want a max_rounds draw after 2 rounds", o)
		}
	})
	t.Run("both fled", func(t *testing.T) {
		// Every morale check fails (2d6 <= 20); each checks once it is at
		// half HP. Find the first encounter where both are hit in round 1.
		g := compileYAML(t, head+`max_rounds: 5
distance: 0
options: {morale_trigger: half_hp, morale_flee_at: 20}
sides:
  - name: a
    combatants: [{name: A, hp: 4, ac: 0, damage: 2, attack_throw: -20}]
  - name: b
    combatants: [{name: B, hp: 4, ac: 0, damage: 2, attack_throw: -20}]
`)
		log, o, _ := find(t, g, func(log run) bool {
			r1 := log.round(1)
			return has(r1, "morale A amount=2 rule=") && has(r1, "morale B amount=2 rule=")
		})
		inOrder(t, log, "morale A amount=2 rule=", "morale B amount=2 rule=", "end - - amount=1 rule='both sides are out'")
		if !has(log, "morale A ok=false rule=") || !has(log, "morale B ok=false rule=") {
			t.Fatalf("both should flee\n%s", log)
		}
		if o.Winner != -1 || o.Draw != sim.DrawAllGone || o.Survivors != [2]int{} {
			t.Errorf("outcome %+v, want an all_gone draw", o)
		}
	})
	t.Run("winner", func(t *testing.T) {
		g := compileYAML(t, head+`max_rounds: 5
distance: 0
options: {morale_trigger: none}
sides:
  - name: a
    combatants: [{name: A, hp: 100, ac: 0, damage: 200, attack_throw: -20, initiative_rolls: [6]}]
  - name: b
    combatants: [{name: B, hp: 1, ac: 0, damage: 1, initiative_rolls: [1]}]
`)
		_, o, _ := find(t, g, func(log run) bool { return has(log, "attack A B ok=true") })
		if o.Winner != 0 || o.Draw != sim.DrawNone {
			t.Errorf("outcome %+v, want side 0 to win with no draw cause", o)
		}
	})
}
