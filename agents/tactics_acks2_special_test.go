package agents_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

// pauseScenario: Watchful Pause, a special action written as data that
// costs the segment's action, chosen by the Fighter's tactics in round 1;
// with the library trait poised it adds 3 to its round-2 initiative.
// The dice are pinned: the Fighter rolls 1 then 2 (numbers 1, then 2 + 3
// = 5), the Orc 4 every round.
const pauseScenario = `name: pause
ruleset: acks2
max_rounds: 2
distance: 0
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 100
        ac: 4
        initiative_rolls: [1, 2]
        attacks: [1]
        damage: 1
        traits: [watchful_pause, poised]
        tactics:
          turn:
            - {name: pause, when: "round == 1", do: Watchful Pause}
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 100, ac: 2, initiative_roll: 4, damage: 1%s}
`

func acksTrace(t *testing.T, src string) string {
	t.Helper()
	sc, err := scenario.Load("p.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	sim.Replay(g, 1, 0, &sim.Log{W: &b, Names: names})
	return b.String()
}

func TestAcksWatchfulPauseAsData(t *testing.T) {
	log := acksTrace(t, strings.Replace(pauseScenario, "%s", "", 1))
	want := []string{
		"-- round 1",
		"Fighter takes Watchful Pause (segment action)",
		"Watchful Pause: apply poised to self for 2 rounds (Fighter)",
		"-- round 2",
		"Poised: number += 3 (number 2 -> 5)",
		"Poised: remove poised (Fighter)",
		"count 5: Fighter",
		"Fighter attacks Orc",
		"count 4: Orc",
	}
	at := 0
	for _, w := range want {
		k := strings.Index(log[at:], w)
		if k < 0 {
			t.Fatalf("the trace lacks %q after offset %d:\n%s", w, at, log)
		}
		at += k + len(w)
	}
	if r1 := log[:strings.Index(log, "-- round 2")]; strings.Contains(r1, "Fighter attacks") {
		t.Errorf("the Fighter attacked in round 1 as well:\n%s", log)
	}
	// A declared action is the segment's action: with a withdrawal
	// declared, the pause falls through.
	src := strings.Replace(pauseScenario, "            - {name: pause,", "          before_initiative:\n            - {name: go, when: \"round == 1\", do: withdraw}\n          turn:\n            - {name: pause,", 1)
	src = strings.Replace(src, "          turn:\n          before_initiative:", "          before_initiative:", 1)
	log = acksTrace(t, strings.Replace(src, "%s", "", 1))
	if strings.Contains(log, "takes Watchful Pause") || !strings.Contains(log, "Watchful Pause falls through: the action cannot be taken now") {
		t.Errorf("with a declared withdrawal the pause was taken, or the fall-through not narrated:\n%s", log)
	}
}
