package d20

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

// TestAdvantageTraceShowsBothDice: a trace of initiative on 2d20kh1 shows
// both dice, the kept one the larger, and narrating an encounter does not
// change how it plays (the same outcome as the untraced replay).
func TestAdvantageTraceShowsBothDice(t *testing.T) {
	const src = `name: Advantage
ruleset: d20
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, init: 1, attacks: [6], damage: 1d8+3, initiative_dice: 2d20kh1}
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, init: 0, attacks: [5], damage: 1d12+3}
`
	sc, err := scenario.Load("adv.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Ruleset{}.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`initiative: Fighter rolls (\d+) on 2d20kh1 \(dice (\d+), (\d+)\) \+1 = (\d+)`)
	for enc := int64(0); enc < 50; enc++ {
		var b strings.Builder
		o, _ := sim.Replay(g, 3, enc, &sim.Log{W: &b, Names: []string{"Fighter", "Orc"}})
		m := line.FindStringSubmatch(b.String())
		if m == nil {
			t.Fatalf("encounter %d: no initiative line with both dice in\n%s", enc, b.String())
		}
		kept, x, y, count := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
		if kept != max(x, y) || count != kept+1 {
			t.Errorf("encounter %d: %q keeps %d of %d and %d", enc, m[0], kept, x, y)
		}
		if plain, _ := sim.Replay(g, 3, enc, nil); plain != o {
			t.Errorf("encounter %d: traced %+v, untraced %+v", enc, o, plain)
		}
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }
