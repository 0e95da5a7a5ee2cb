package reports

import (
	"math"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// The heat maps' colour scale is centred on 50% and fitted to the data: a
// cell 5 points from even is a full colour when no cell is farther, not
// the near-white of a 0..100 scale.
func TestHeatScaleCentredOnFifty(t *testing.T) {
	for _, c := range []struct {
		vals []float64
		want float64
	}{
		{[]float64{50.2, 48.7, 44.2, 55.8}, 10},
		{[]float64{47, 53, math.NaN()}, 5},
		{[]float64{10.9, 96.8}, 50},
		{[]float64{30, 60}, 20},
	} {
		if got := heatSpan(c.vals); got != c.want {
			t.Errorf("heatSpan(%v) = %v, want %v", c.vals, got, c.want)
		}
	}
	if got := winColor(55, 5); got != SideColors[0] {
		t.Errorf("55%% on a ±5 scale: %v, want side 0's colour %v", got, SideColors[0])
	}
	if got := winColor(45, 5); got != SideColors[1] {
		t.Errorf("45%% on a ±5 scale: %v, want side 1's colour %v", got, SideColors[1])
	}
	if got := winColor(50, 5); got.R != 255 || got.G != 255 || got.B != 255 {
		t.Errorf("50%%: %v, want white", got)
	}
}

// A trace names the sides as the scenario does, never by number.
func TestTraceSideNames(t *testing.T) {
	in := "Fighter (side 0) hp 20\nCavalier (side 1, impulse) hp 15\n-- pre-combat ambush: an Ambush Round for side 1\n== side 0 wins after 3 rounds\nthe side 0 of x\n"
	want := "Fighter (heroes) hp 20\nCavalier (monsters, impulse) hp 15\n-- pre-combat ambush: an Ambush Round for monsters\n== heroes wins after 3 rounds\nthe side 0 of x\n"
	if got := SideNames(in, "heroes", "monsters"); got != want {
		t.Errorf("sideNames:\n%s\nwant\n%s", got, want)
	}
}

// Printed, a wide table wraps instead of scrolling out of the page: on
// screen tables scroll (display: block; overflow-x: auto), which paper
// cannot.
func TestPrintStylesWrapTables(t *testing.T) {
	_, print, ok := strings.Cut(css, "@media print {")
	if !ok || !strings.Contains(print, "table { display: table; overflow: visible") || !strings.Contains(print, "td { overflow-wrap: anywhere; }") ||
		!strings.Contains(print, "pre { white-space: pre-wrap") {
		t.Errorf("the report's CSS has no print rules that wrap tables and code:\n%s", css)
	}
}

// The tactics figure's bars are the table's counts per encounter: fired
// and fell through stacked per rule, in the table's order, a never-used
// fallback left out and a rule that never fired kept.
func TestTacticsRows(t *testing.T) {
	r := &results.Result{Encounters: 4}
	r.Raw.Roster = []string{"Pikeman", "Raider"}
	r.Raw.RosterSides = []int{0, 1}
	r.Raw.Tactics = []results.RuleCount{
		{Combatant: "Pikeman", Moment: "turn", Rule: "spear", Event: "fired", Count: 2},
		{Combatant: "Pikeman", Moment: "turn", Rule: "spear", Event: "fell through: no charge", Count: 6},
		{Combatant: "Pikeman", Moment: "turn", Rule: "wait", Event: "fired", Count: 0},
		{Combatant: "Pikeman", Moment: "turn", Rule: "fallback", Event: "fired", Count: 0},
		{Combatant: "Raider", Moment: "turn", Rule: "charge", Event: "fired", Count: 5},
	}
	got := tacticsRows(r)
	want := []ruleRow{{"Pikeman: spear (turn)", 0.5, 1.5, 0}, {"Pikeman: wait (turn)", 0, 0, 0}, {"Raider: charge (turn)", 1.25, 0, 1}}
	if len(got) != len(want) {
		t.Fatalf("rows %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := TacticsFigure(i18n.En, &results.Result{Encounters: 4}); err != ErrNoTactics {
		t.Errorf("no tactics: %v, want ErrNoTactics", err)
	}
}
