package agents_test

import (
	"strings"
	"testing"
)

// retakeScenario: Retake the Initiative, a special action written as data
// at a price of 1 [+] (a fourth use of the Initiative skill), chosen by
// the Cavalier's tactics in place of its round-1 attack. Totals are pinned:
// the Rival 9; the Cavalier 8 (its d10 shows 2, its d6 a 6: one [+]).
const retakeScenario = `name: retake
ruleset: cavaliers
options: {spend: %s}
max_rounds: 3
rules:
  - {name: Retake, action: 1, do: total += 10}
sides:
  - name: heroes
    combatants:
      - name: Cavalier
        specialty: timing
        attribute: d10
        pool: d6
        initiative_dice: [2, 6]
        hp: 100
        attack: "1"
        defence: "50"
        damage: "1"
        tactics:
          attack:
            - {name: retake, when: "round == 1", do: Retake}
            - {name: hit, do: attack}
  - name: rivals
    combatants:
      - {name: Rival, specialty: none, attribute: d10, initiative_dice: [9], hp: 100, attack: "1", defence: "50", damage: "1", policy: default}
`

func TestCavRetakeAsData(t *testing.T) {
	for _, spend := range []string{"budget", "unlock"} {
		g := cavCompile(t, "retake.yaml", []byte(strings.Replace(retakeScenario, "%s", spend, 1)))
		log := cavTrace(g, 1, 0)
		// Round 1: the Rival (9) first, then the Cavalier (8) retakes
		// instead of attacking; from round 2 it ranks first at 18.
		want := []string{
			"ranking: Rival 9, Cavalier 8",
			"Rival's turn",
			"Cavalier takes Retake (1 [+])",
			"Retake: total += 10 (total 8 -> 18)",
			"ranking: Cavalier 18, Rival 9",
			"-- round 2",
			"Cavalier's turn (total 18",
			"Cavalier attacks Rival",
			"Rival's turn",
		}
		at := 0
		for _, w := range want {
			k := strings.Index(log[at:], w)
			if k < 0 {
				t.Fatalf("%s: the trace lacks %q after offset %d:\n%s", spend, w, at, log)
			}
			at += k + len(w)
		}
		if strings.Contains(log[:strings.Index(log, "-- round 2")], "Cavalier attacks") {
			t.Errorf("%s: the Cavalier attacked in round 1 as well:\n%s", spend, log)
		}
		// Budget pays the price: [+] 0 at the round-2 turn; unlock keeps it.
		plus := "[+] 1)"
		if spend == "budget" {
			plus = "[+] 0)"
		}
		if !strings.Contains(log, "Cavalier's turn (total 18, hp 100, Area 0, "+plus) {
			t.Errorf("%s: want %s at the round-2 turn:\n%s", spend, plus, log)
		}
	}
	// Without a [+] the action cannot be taken: the rule falls through to
	// the next one, an attack.
	src := strings.Replace(strings.Replace(retakeScenario, "%s", "budget", 1), "initiative_dice: [2, 6]", "initiative_dice: [2, 5]", 1)
	log := cavTrace(cavCompile(t, "retake.yaml", []byte(src)), 1, 0)
	if strings.Contains(log, "takes Retake") || !strings.Contains(log, "Retake falls through: the action cannot be taken now") {
		t.Errorf("without [+], Retake was taken or the fall-through not narrated:\n%s", log)
	}
}
