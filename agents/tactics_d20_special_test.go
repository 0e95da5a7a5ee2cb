package agents_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

// refocusScenario: Refocus, a house rule written as a full-round action
// (next round you act at 20 + your modifier), chosen by the Fighter's
// tactics in round 1 when it acts late.
const refocusScenario = `name: refocus
ruleset: d20
max_rounds: 5
distance: 0
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 200
        ac: 17
        init: 1
        initiative_roll: 3
        attacks: [6, 1]
        damage: 1d8+3
        tactics:
          turn:
            - {name: refocus, when: "round == 1 and self.count < 12", do: Refocus}
            - {name: hit, do: full_attack}
  - name: monsters%s
    combatants:
      - {name: Orc, hp: 200, ac: 14, init: 2, initiative_roll: 15, attacks: [8], damage: 2d6+5}
rules:
  - name: Refocus
    action: full_round
    do: count = 20 + self.init
`

// refocusGame is refocusScenario with the Orc's awareness line and the
// Fighter's round condition replaced.
func refocusGame(t *testing.T, orcAware, round string) sim.Game {
	t.Helper()
	src := strings.Replace(strings.Replace(refocusScenario, "%s", orcAware, 1), "round == 1", round, 1)
	sc, err := scenario.Load("r.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The Fighter (count 4) refocuses in round 1 instead of attacking; from
// round 2 it acts at 21, before the Orc (17).
func TestD20RefocusAsData(t *testing.T) {
	g := refocusGame(t, "", "round == 1")
	log := &sim.Log{}
	sim.Replay(g, 1, 0, log)
	var turns []string
	refocused := false
	for _, e := range log.Events {
		switch {
		case e.Kind == sim.EvTurn:
			turns = append(turns, g.Roster()[e.Actor].Name+"@"+itoa(e.Roll)+"/r"+itoa(e.Round))
		case e.Kind == sim.EvAction && e.Rule == "Refocus":
			refocused = true
		case e.Kind == sim.EvAttack && e.Actor == 0 && e.Round == 1:
			t.Errorf("the Fighter attacked in round 1: Refocus is its full-round action")
		}
	}
	want := "Orc@17/r1 Fighter@4/r1 Fighter@21/r2 Orc@17/r2 Fighter@21/r3 Orc@17/r3"
	if got := strings.Join(turns, " "); !refocused || !strings.HasPrefix(got, want) {
		t.Errorf("turns %s (refocused %v), want them to start %s", got, refocused, want)
	}
}

// A full-round action cannot be taken in the surprise round (one standard
// action): the rule falls through to the next.
func TestD20RefocusNotInSurpriseRound(t *testing.T) {
	g := refocusGame(t, "\n    aware: false", "round <= 1")
	tally, err := sim.Run(t.Context(), g, sim.RunConfig{Seed: 1, N: 50, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var fell, fired int64
	for k, rc := range g.(sim.RuleGame).RuleCounters() {
		switch {
		case rc.Rule == "refocus" && strings.HasPrefix(rc.Event, "fell through"):
			fell += tally.Counts.Rules[k]
		case rc.Rule == "Refocus" && rc.Trait && rc.Event == "fired":
			fired += tally.Counts.Rules[k]
		}
	}
	// The rule holds in the surprise round (round 0) and in round 1: it
	// falls through in the first, is taken in the second.
	if fired != 50 || fell != 50 {
		t.Errorf("Refocus taken %d times, fell through %d, want 50 and 50", fired, fell)
	}
}

func itoa(n int) string {
	s := ""
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		s = "-" + s
	}
	return s
}
