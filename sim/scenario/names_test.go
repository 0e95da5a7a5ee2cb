package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim/scenario"
)

// Names appear in results, tables and reports: a blank name, a control
// character, an invisible one or '|' would make them wrong or unreadable.
func TestNamesMustBePrintable(t *testing.T) {
	base := "name: %s\nruleset: d20\nsides:\n  - name: %s\n    combatants:\n      - {name: %s, hp: 5, damage: 1d4}\n  - name: b\n    combatants:\n      - {name: B, hp: 5, damage: 1d4}\n"
	for _, c := range []struct {
		scen, side, comb string
		want             string
	}{
		{`""`, "a", "A", `test.yaml:1:7: name: scenario name "" is empty`},
		{`"   "`, "a", "A", `test.yaml:1:7: name: scenario name "   " is empty`},
		{`"x\ny"`, "a", "A", `test.yaml:1:7: name: scenario name "x\ny" contains the control character U+000A`},
		{"ok", `"a|b"`, "A", `test.yaml:4:11: sides[0].name: side name "a|b" may not contain '|'`},
		{"ok", `""`, "A", `test.yaml:4:11: sides[0].name: side name "" is empty`},
		{"ok", "a", `"A\tB"`, `sides[0].combatants[0].name: combatant name "A\tB" contains the control character U+0009`},
		{"ok", "a", `"A\u200bB"`, `combatant name "A\u200bB" contains the unprintable character U+200B`},
		{"ok", "a", `" A"`, `combatant name " A" starts or ends with spaces`},
		{"ok", "a", `"<script>x</script>"`, ""}, // printable: allowed, escaped by reports
	} {
		src := []byte(fmt.Sprintf(base, c.scen, c.side, c.comb))
		_, err := scenario.Load("test.yaml", src, nil, rulesets.Schema)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("name %s / side %s / combatant %s:\n got %q\nwant %q", c.scen, c.side, c.comb, got, c.want)
		}
	}
}

func TestSecondDocumentIsAnError(t *testing.T) {
	src := "name: one\nruleset: d20\nsides:\n  - name: a\n    combatants: [{name: A, hp: 5, damage: 1d4}]\n  - name: b\n    combatants: [{name: B, hp: 5, damage: 1d4}]\n---\nname: two\n"
	_, err := scenario.Load("two.yaml", []byte(src), nil, rulesets.Schema)
	want := "two.yaml:9: a second YAML document (after ---); a scenario file holds exactly one scenario"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	// A leading --- is one document, not two.
	if _, err := scenario.Load("one.yaml", []byte("---\n"+src[:strings.Index(src, "---")]), nil, rulesets.Schema); err != nil {
		t.Errorf("a single document with a leading ---: %v", err)
	}
}
