package agents_test

import (
	"strings"
	"testing"
)

// tempoScenario: Seize the Tempo, a special action written as data that
// costs a Swift action (once a fight), chosen by the Investigator's
// tactics in rounds 1 and 2; its count goes from 4 to 9, ahead of the
// Cultist's 7 from round 2. Initiative dice pinned: 1 and 5.
const tempoScenario = `name: tempo
ruleset: lotm
max_rounds: 3
sides:
  - name: heroes
    combatants:
      - name: Investigator
        hp: 100
        ac: 8
        agility: 3
        initiative_roll: 1
        attacks: [5]
        damage: 1
        traits: [seize_the_tempo]
        tactics:
          turn:
            - {name: tempo, when: "round <= 2", do: Seize the Tempo}
  - name: monsters
    combatants:
      - {name: Cultist, hp: 100, ac: 9, agility: 2, initiative_roll: 5, attacks: [4], damage: 1}
`

func TestLotmSeizeTheTempoAsData(t *testing.T) {
	log := acksTrace(t, tempoScenario)
	want := []string{
		"-- round 1",
		"Cultist's turn (initiative 7",
		"Investigator's turn (initiative 4",
		"Investigator takes Seize the Tempo (swift action)",
		"Seize the Tempo: count += 5 (count 4 -> 9)",
		"Investigator: attack vs Cultist",
		"-- round 2",
		"the order follows the new counts: Investigator, Cultist",
		"Investigator's turn (initiative 9",
		"Seize the Tempo falls through: the action cannot be taken now",
		"Cultist's turn (initiative 7",
		"-- round 3",
	}
	at := 0
	for _, w := range want {
		k := strings.Index(log[at:], w)
		if k < 0 {
			t.Fatalf("the trace lacks %q after offset %d:\n%s", w, at, log)
		}
		at += k + len(w)
	}
	if strings.Count(log, "takes Seize the Tempo") != 1 {
		t.Errorf("taken other than once (uses: 1):\n%s", log)
	}
}
