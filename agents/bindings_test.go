package agents_test

import (
	"strings"
	"testing"
)

// A block naming another ruleset's moment is told which moments its
// ruleset offers, for every moment some binding declares: Cavaliers' move
// and attack included (a hand-kept list had lost them, so d20 answered
// "unknown field").
func TestMisplacedMomentNamesTheRuleset(t *testing.T) {
	for _, m := range []string{"move", "attack"} {
		msg, _ := compileErr(t, "{"+m+": [{do: attack}]}")
		want := "d20 has no " + m + " moment (its book offers no such decision); d20 offers: turn"
		if !strings.Contains(msg, want) {
			t.Errorf("%s: in d20\n got: %s\nwant: ...%s", m, msg, want)
		}
	}
}
