package reports

import (
	"bytes"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/reports/results"
)

// TestTacticsFigureLang: the report's tactics figure (titles, axis,
// legend, caption) in Korean and Russian has no English left; the rules'
// and combatants' names and moments stay as the tactics file writes them.
func TestTacticsFigureLang(t *testing.T) {
	r := fixtureResult(1000, 0.6, 0.01, nil)
	r.Scenario = "Spear wall"
	r.Raw.Tactics = []results.RuleCount{
		{Combatant: "Spearman", Moment: "turn", Rule: "brace", Event: "fired", Count: 700},
		{Combatant: "Spearman", Moment: "turn", Rule: "brace", Event: "fell", Count: 100},
		{Combatant: "Spearman", Moment: "turn", Rule: "fallback", Event: "fired", Count: 200},
	}
	names := []string{"Spear wall", "Spearman", "brace", "turn", r.Sides[0].Name, r.Sides[1].Name}
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		f, err := TacticsFigure(l, r)
		if err != nil {
			t.Fatal(err)
		}
		var svg bytes.Buffer
		if err := f.SVG(&svg); err != nil {
			t.Fatal(err)
		}
		text := f.Caption + "\n"
		for _, m := range i18ntest.SVGText.FindAllStringSubmatch(svg.String(), -1) {
			text += m[1] + "\n"
		}
		for _, b := range i18ntest.EnglishLines(text, names) {
			t.Errorf("%s: English left: %s", l, b)
		}
	}
}
