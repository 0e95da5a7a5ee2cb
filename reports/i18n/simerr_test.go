package i18n_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "simctl/agents" // the policies a scenario names
	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// duel is a valid d20 scenario the cases below break one way each.
const duel = `name: Fighter vs Orc
ruleset: d20
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 20
        ac: 17
        attacks: [6, 1]
        damage: 1d8+3
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, attacks: [5], damage: 1d12+3}
`

// duelNames are the words of the scenario the user wrote.
var duelNames = []string{"Fighter vs Orc", "Fighter", "Orc", "heroes", "monsters", "duel.yaml"}

// loadDuel loads data with sets as simctl does: the core's problems, then
// the ruleset's.
func loadDuel(t *testing.T, data string, sets ...string) error {
	t.Helper()
	var ss []scenario.Set
	for _, s := range sets {
		set, err := scenario.ParseSet(s)
		if err != nil {
			return err
		}
		ss = append(ss, set)
	}
	sc, err := scenario.Decode("duel.yaml", []byte(data), ss, rulesets.Schema)
	if sc == nil || err != nil {
		return err
	}
	_, err = rulesets.Compile(sc)
	return err
}

// fieldLists are the lists of field names a message offers ("valid
// fields: ac, attacks, …"): the file format's words, never translated.
var fieldLists = regexp.MustCompile(`fields: ([\w, ]+)`)

// TestScenarioErrorsTranslated loads broken scenarios and checks their
// errors in Korean and Russian: each keeps the English one's file, line,
// column and field path, and no English word is left but the names the
// user wrote and the format's own.
func TestScenarioErrorsTranslated(t *testing.T) {
	cases := []struct {
		name, data string
		sets       []string
		want       string // in the English message
		names      []string
	}{
		{"unknown field", strings.Replace(duel, "ac: 17", "acc: 17", 1), nil,
			`duel.yaml:8:9: sides[0].combatants[0].acc: unknown field "acc" (did you mean "ac"?)`, []string{"acc", "ac"}},
		{"bad dice", strings.Replace(duel, "1d8+3", "1d+3", 1), nil,
			`duel.yaml:10:19: sides[0].combatants[0].damage: bad dice expression "1d+3": expected the number of sides`, nil},
		{"wrong type", strings.Replace(duel, "hp: 20", "hp: [20]", 1), nil,
			`duel.yaml:7:13: sides[0].combatants[0].hp: expected a number or dice such as 2d6+3, got a list`, nil},
		{"wrong scalar", strings.Replace(duel, "ac: 17", "ac: high", 1), nil,
			`sides[0].combatants[0].ac: expected a whole number`, []string{"high"}},
		{"out of range", strings.Replace(duel, "ruleset: d20", "ruleset: d20\nmax_rounds: 0", 1), nil,
			`duel.yaml:3:13: max_rounds: 0 is out of range`, nil},
		{"unknown ruleset", strings.Replace(duel, "ruleset: d20", "ruleset: d2O", 1), nil,
			`unknown ruleset "d2O" (did you mean "d20"?)`, []string{"d2O", "d20", "acks2", "cavaliers", "lotm"}},
		{"set path", duel, []string{"heroes.Figter.init=4"},
			`duel.yaml: --set heroes.Figter.init=4: side "heroes" has no combatant or field "Figter" (did you mean "Fighter"?)`, []string{"Figter", "init"}},
		{"set value", duel, []string{"heroes.Fighter.init=[4"},
			`value "[4" is not valid YAML: yaml: line 1: did not find expected ',' or ']'`, []string{"yaml"}},
		{"set form", duel, []string{"heroes.Fighter.init"}, `--set "heroes.Fighter.init": expected PATH=VALUE`, []string{"PATH", "VALUE"}},
		{"yaml syntax", strings.Replace(duel, "ac: 17", "ac: 17: 3", 1), nil,
			`duel.yaml:8: YAML syntax: mapping values are not allowed in this context`, nil},
		{"yaml unclosed", strings.Replace(duel, "attacks: [6, 1]", "attacks: [6, 1", 1), nil,
			`duel.yaml:9: YAML syntax: did not find expected ',' or ']'`, nil},
	}
	for _, c := range cases {
		err := loadDuel(t, c.data, c.sets...)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		en := i18n.En.Err(err)
		if en != err.Error() {
			t.Errorf("%s: English %q differs from Error() %q", c.name, en, err.Error())
		}
		if !strings.Contains(en, c.want) {
			t.Errorf("%s: English %q lacks %q", c.name, en, c.want)
		}
		names := append(append([]string(nil), duelNames...), c.names...)
		for _, m := range fieldLists.FindAllStringSubmatch(en, -1) {
			names = append(names, strings.Split(m[1], ", ")...)
		}
		var prefixes []string
		if es, ok := err.(scenario.Errors); ok {
			for _, e := range es {
				p := e.File
				if e.Line > 0 {
					p += ":" + strconv.Itoa(e.Line)
					if e.Col > 0 {
						p += ":" + strconv.Itoa(e.Col)
					}
				}
				p += ": "
				if e.Path != "" {
					p += e.Path + ": "
				}
				prefixes = append(prefixes, p)
			}
		}
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			got := l.Err(err)
			if got == en {
				t.Errorf("%s: %s is the English %q", c.name, l, en)
				continue
			}
			lines := strings.Split(got, "\n")
			if len(lines) != len(strings.Split(en, "\n")) {
				t.Errorf("%s: %s has other lines than English:\n%s\n%s", c.name, l, got, en)
			}
			// The place (file:line:col: path:) is checked here and left
			// out of the English check: a path is the file's words.
			for i, p := range prefixes {
				if i >= len(lines) || !strings.HasPrefix(lines[i], p) {
					t.Errorf("%s: %s line %d lost its place %q:\n%s", c.name, l, i+1, p, got)
					continue
				}
				lines[i] = strings.TrimPrefix(lines[i], p)
			}
			if left := i18ntest.EnglishLines(strings.Join(lines, "\n"), names); len(left) > 0 {
				t.Errorf("%s: %s keeps English:\n%s", c.name, l, strings.Join(left, "\n"))
			}
		}
	}
}

// TestConditionErrorsTranslated checks a tactics-language condition's
// error (simctl find --where): translated, with the caret line under the
// expression exactly as in English.
func TestConditionErrorsTranslated(t *testing.T) {
	sc, err := scenario.Load("duel.yaml", []byte(duel), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	probe := experiment.NewProbe(g, [2]string{"heroes", "monsters"})
	var factWords []string
	for _, f := range probe.Facts() {
		spelling, _, _ := strings.Cut(f, ": ")
		factWords = append(factWords, regexp.MustCompile(`\w+`).FindAllString(spelling, -1)...)
	}
	for _, c := range []struct {
		src, want string
		names     []string
	}{
		{`rounds > 3 and side("heroes").won and side("heroes").damage`, "and needs true or false on both sides, but", nil},
		{`combatant("Orc").down and rounds`, "and needs true or false on both sides", nil},
		{`rounds >`, "expected a value", nil},
		{`rounds < 2 < 3`, "comparisons do not chain", nil},
		{`combatant("Ork").down`, `no combatant "Ork" (did you mean "Orc"?)`, []string{"Ork"}},
		{`side("heroes").wn`, "unknown fact", []string{"wn"}},
		{`rounds = 3`, "'=' is not a comparison", nil},
		{`(rounds > 3`, "expected ')' to close", nil},
		{`not rounds`, "not needs true or false, but rounds is a number", nil},
	} {
		_, err := probe.Condition(c.src)
		if err == nil {
			t.Errorf("%s: no error", c.src)
			continue
		}
		en := i18n.En.Err(err)
		if !strings.Contains(en, c.want) || en != err.Error() {
			t.Errorf("%s: English %q (Error %q), want %q in it", c.src, en, err.Error(), c.want)
		}
		enLines := strings.Split(en, "\n")
		caret := strings.Join(enLines[len(enLines)-2:], "\n")
		if !strings.HasSuffix(caret, "^") || !strings.Contains(caret, c.src) {
			t.Errorf("%s: no caret line in %q", c.src, en)
		}
		// The facts a message lists are the environment's words; the
		// operators and the examples are code.
		names := append(append([]string(nil), duelNames...), c.names...)
		names = append(names, factWords...)
		names = append(names, "simctl find", "and", "or", "not", "$param", "param", "a < b and b < c")
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			got := l.Err(err)
			lines := strings.Split(got, "\n")
			if len(lines) != len(enLines) || !strings.HasSuffix(got, caret) {
				t.Errorf("%s: %s lost the caret lines:\n%s\nEnglish:\n%s", c.src, l, got, en)
			}
			head := strings.Join(lines[:len(lines)-2], "\n")
			if head == strings.Join(enLines[:len(enLines)-2], "\n") {
				t.Errorf("%s: %s is English: %q", c.src, l, head)
			}
			if left := i18ntest.EnglishLines(head, names); len(left) > 0 {
				t.Errorf("%s: %s keeps English:\n%s", c.src, l, strings.Join(left, "\n"))
			}
		}
	}
}
