package traits

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/sim/lang"
	"simctl/sim/scenario"
)

// toyDecl is a ruleset table of no real ruleset: two moments with an
// other party and one without, a dice quantity and a number, a condition,
// a combatant fact, an event fact offered at hit only, two bonus types and
// one action cost. The tests below read traits against it alone, so what
// they check is sim/traits, not a ruleset's table.
func toyDecl() *Decl {
	return &Decl{
		Ruleset:     "toy",
		ActionCosts: []string{"standard"},
		Moments: []Moment{
			{Name: "hit", Other: "target", Quantities: []string{"damage", "mult"}},
			{Name: "turn_start", Quantities: []string{"actions"}},
			{Name: "attack_roll", Other: "target", Quantities: []string{"attack"}},
			{Name: "special", Action: true, Quantities: []string{"actions"}},
		},
		Quantities: []Quantity{
			{Name: "damage", Dice: true},
			{Name: "mult"},
			{Name: "actions"},
			{Name: "attack"},
		},
		Conditions: []Condition{{Name: "stunned"}},
		Facts: []Fact{
			{Name: "hp", Type: lang.Number},
			{Name: "crit", Type: lang.Bool, Event: true, Moments: []string{"hit"}},
		},
		BonusTypes: []BonusType{{Name: "morale"}, {Name: "dodge", Stacks: true}},
	}
}

// toyLib is a trait library: one trait with a parameter and no default,
// one with a default, and one entry that is a list of two traits.
func toyLib(t *testing.T) (Library, []string) {
	t.Helper()
	src := map[string]string{
		"smite":  "{name: Smite, on: hit, params: {dice: ~}, do: damage += $dice}",
		"rage":   "{name: Rage, on: attack_roll, params: {bonus: 2}, do: attack += $bonus as morale}",
		"combo":  "[{name: Combo Roll, on: attack_roll, do: attack -= 1}, {name: Combo Hit, on: hit, do: damage += 2}]",
		"broken": "{name: Broken, on: hit, do: damage += 1d6 as}",
	}
	lib := map[string]*yaml.Node{}
	var names []string
	for name, s := range src {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
			t.Fatal(err)
		}
		lib[name] = doc.Content[0]
		names = append(names, name)
	}
	return func(name string) (*yaml.Node, bool) { n, ok := lib[name]; return n, ok }, names
}

// readToy reads src, a traits: list (or with house a rules: list), and
// returns the traits and the reporter's errors and warnings.
func readToy(t *testing.T, src string, house bool) ([]Trait, *scenario.Reporter) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	rep := &scenario.Reporter{File: "toy.yaml"}
	lib, names := toyLib(t)
	o := Options{House: house, Sides: []string{"heroes", "monsters"}, Lib: lib, LibNames: names}
	return Read(scenario.NewDecoder(rep), doc.Content[0], "traits", toyDecl(), o), rep
}

func errs(rep *scenario.Reporter) string {
	var s []string
	for _, e := range rep.Errs {
		s = append(s, e.Error())
	}
	return strings.Join(s, "\n")
}

// A trait written out compiles to its moment, its effects (kind, quantity,
// sign, dice, type) and its when:, whose slots read the right party: the
// other party's fact, the owner's condition, the moment's event fact.
func TestReadCompiles(t *testing.T) {
	ts, rep := readToy(t, `
- name: Brute
  on: hit
  when: target.hp > 3 and not self.stunned and crit
  uses: 2/round
  do: [damage += 2d6, mult = 3, apply stunned to target for 2 rounds]
- {name: Brave, on: attack_roll, do: [attack += 2 as morale, attack -= 1 as dodge]}
- {name: Quick, on: turn_start, do: [grant action, remove stunned]}
- {name: Feint, action: standard, do: spend action}
`, false)
	if rep.Errs != nil {
		t.Fatalf("errors:\n%s", errs(rep))
	}
	if len(ts) != 4 {
		t.Fatalf("%d traits, want 4", len(ts))
	}
	b := ts[0]
	if b.Moment != 0 || b.Uses != 2 || !b.PerRound || len(b.Effects) != 3 {
		t.Errorf("Brute: moment %d, uses %d per round %v, %d effects", b.Moment, b.Uses, b.PerRound, len(b.Effects))
	}
	if e := b.Effects[0]; e.Kind != Add || e.Q != 0 || e.Sign != 1 || e.Dice.String() != "2d6" || e.Text != "damage += 2d6" {
		t.Errorf("damage += 2d6 read as %+v", e)
	}
	if e := b.Effects[1]; e.Kind != Set || e.Q != 1 || e.Dice.String() != "3" {
		t.Errorf("mult = 3 read as %+v", e)
	}
	if e := b.Effects[2]; e.Kind != Apply || e.Cond != 0 || e.Who != Other || e.Rounds != 2 {
		t.Errorf("apply stunned to target for 2 rounds read as %+v", e)
	}
	want := map[Ref]bool{
		{Kind: RefFact, Who: Other, ID: 0}:      true, // target.hp
		{Kind: RefCondition, Who: Self, ID: 0}:  true, // self.stunned
		{Kind: RefFact, Who: Event, ID: 1}:      true, // crit
		{Kind: RefQuantity, Who: Self, ID: 999}: false,
	}
	for _, r := range b.Slots {
		if !want[r] {
			t.Errorf("Brute's when: reads %+v", r)
		}
		delete(want, r)
	}
	if len(want) != 1 {
		t.Errorf("Brute's when: does not read %v", want)
	}
	// The program decides with the slots in that order.
	vals := map[Ref]float64{{Kind: RefFact, Who: Other, ID: 0}: 5, {Kind: RefFact, Who: Event, ID: 1}: 1}
	eval := func() bool { return b.When.EvalFunc(func(k int) float64 { return vals[b.Slots[k]] }) }
	if !eval() {
		t.Error("Brute's when: false for target.hp 5, not stunned, a crit")
	}
	vals[Ref{Kind: RefCondition, Who: Self, ID: 0}] = 1
	if eval() {
		t.Error("Brute's when: true while stunned")
	}
	if e := ts[1].Effects; e[0].Type != 1 || e[1].Type != 2 || e[1].Sign != -1 {
		t.Errorf("Brave's bonus types: %+v", e)
	}
	if e := ts[2].Effects; e[0].Kind != Add || e[0].Q != 2 || e[0].Sign != 1 || e[1].Kind != Remove || e[1].Who != Self {
		t.Errorf("Quick: %+v", e)
	}
	if f := ts[3]; f.Action != "standard" || f.Moment != 3 || f.Effects[0].Sign != -1 {
		t.Errorf("Feint: action %q moment %d effects %+v", f.Action, f.Moment, f.Effects)
	}
}

// Every problem is an error at the line and column of what was wrong,
// naming the field and what would be valid, and all of a block's problems
// are reported in one pass.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // the error, as it starts
	}{
		{"- {name: A, on: hti, do: damage += 1}", `toy.yaml:1:17: traits[0].on: toy has no moment "hti" (did you mean "hit"?); moments: hit, turn_start, attack_roll`},
		{"- {name: A, on: special, do: actions += 1}", `toy.yaml:1:17: traits[0].on: toy has no moment "special"`},
		{"- {name: A, on: turn_start, do: damage += 1}", "toy.yaml:1:33: traits[0].do: damage does not exist at turn_start (it offers: actions); damage changes at hit"},
		{"- {name: A, on: turn_start, do: actions += 1d4}", "toy.yaml:1:44: traits[0].do: actions takes a number, not dice (1d4)\n    actions += 1d4\n               ^"},
		{"- {name: A, on: hit, do: mult = 2 as morale}", "toy.yaml:1:38: traits[0].do: a bonus type goes with += or -=, not with ="},
		{"- {name: A, on: attack_roll, do: attack += 2 as moral}", `toy.yaml:1:49: traits[0].do: toy has no bonus type "moral" (did you mean "morale"?)`},
		{"- {name: A, on: hit, do: damage += $dice}", "toy.yaml:1:36: traits[0].do: unknown parameter $dice: this trait has no params:"},
		{"- {name: A, on: hit, when: target.hp >, do: damage += 1}", "toy.yaml:1:39: traits[0].when: expected a value"},
		{"- {name: A, on: hit, when: self.crit, do: damage += 1}", "toy.yaml:1:28: traits[0].when: unknown fact self.crit"},
		{"- {name: A, on: turn_start, do: apply stunned to target}", "toy.yaml:1:33: traits[0].do: apply to target: at turn_start a condition goes to self"},
		{"- {name: A, on: hit, do: apply stunned for 0 rounds}", `toy.yaml:1:26: traits[0].do: "apply stunned for 0 rounds": a duration is for N rounds, N from 1 to 1000`},
		{"- {name: A, on: hit, uses: 3/day, do: damage += 1}", `toy.yaml:1:28: traits[0].uses: uses "3/day": expected a count per fight`},
		{"- {name: A.b, on: hit, do: damage += 1}", `toy.yaml:1:10: traits[0].name: trait name "A.b" may not contain '.' or '='`},
		{"- {name: A, on: hit, do: damage += 1}\n- {name: A, on: hit, do: damage += 2}", `toy.yaml:2:3: traits[1].name: traits "A" listed twice`},
		{"- {name: A, action: bonus, do: spend action}", `toy.yaml:1:21: traits[0].action: unknown action cost "bonus"; toy offers: standard`},
		{"- {name: A, on: hit, action: standard, do: spend action}", "toy.yaml:1:17: traits[0].on: an action (action:) is chosen by a tactics rule (do: A), not fired at a moment: drop on:"},
		{"- smite", "toy.yaml:1:3: traits[0].params: library trait smite needs params: dice, e.g. {use: smite, params: {dice: ...}}"},
		{"- {use: smite, params: {dise: 2d6}}", `toy.yaml:1:31: traits[0].params.dise: library trait smite has no parameter "dise" (did you mean "dice"?); its params: dice`},
		{"- {use: smit}", `toy.yaml:1:9: traits[0]: no library trait "smit" for toy (did you mean "smite"?)`},
		{"- {use: smite, on: hit}", "toy.yaml:1:16: traits[0].on: a trait with use: takes only name:, params:; copy the library trait"},
		{"- {use: broken}", "toy.yaml:1:3: traits[0] (library trait broken).do: as needs a bonus type; bonus types: morale, dodge"},
	} {
		ts, rep := readToy(t, tc.src, false)
		got := errs(rep)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s...", tc.src, got, tc.want)
		}
		if len(ts) != 0 && !strings.Contains(tc.src, "listed twice") && !strings.Contains(tc.src, "\n") {
			t.Errorf("%s: a trait with an error came back: %+v", tc.src, ts)
		}
	}
	// Three problems in three traits: three errors, one pass.
	_, rep := readToy(t, "- {name: A, on: hti, do: damage += 1}\n- {name: B, on: hit, do: damag += 1}\n- {name: C, on: hit}", false)
	if len(rep.Errs) != 3 {
		t.Errorf("three bad traits gave %d errors:\n%s", len(rep.Errs), errs(rep))
	}
}

// A trait that can never fire is a warning, not an error: it still comes
// back, and the scenario runs.
func TestReadWarnsNeverFires(t *testing.T) {
	ts, rep := readToy(t, "- {name: Never, on: hit, when: 1 > 2, do: damage += 1}\n- {name: Spent, on: hit, uses: 0, do: damage += 1}", false)
	if rep.Errs != nil || len(ts) != 2 || len(rep.Warns) != 2 {
		t.Fatalf("%d traits, errors %v, warnings %v", len(ts), rep.Errs, rep.Warns)
	}
	for i, want := range []string{"toy.yaml:1:32: traits[0].when: Never can never fire: its when: is always false", "toy.yaml:2:32: traits[1].uses: Spent can never fire: uses: 0"} {
		if got := rep.Warns[i].Error(); got != want {
			t.Errorf("warning %d: %s, want %s", i, got, want)
		}
	}
}

// A library trait used with params: plays the value given: its effect's
// text names it (a trace says damage += 3d6, not $dice), its dice are it;
// a default is kept when not given; renamed with name:. A library entry
// that is a list reads as its traits, each with its own name.
func TestReadLibrary(t *testing.T) {
	ts, rep := readToy(t, `
- {use: smite, params: {dice: 3d6}}
- {use: rage, name: Fury}
- {use: rage, name: Fury Up, params: {bonus: 4}}
- combo
`, false)
	if rep.Errs != nil {
		t.Fatalf("errors:\n%s", errs(rep))
	}
	var got []string
	for _, tr := range ts {
		got = append(got, tr.Name+" from "+tr.From+": "+tr.Effects[0].Text+" = "+tr.Effects[0].Dice.String())
	}
	want := []string{
		"Smite from smite: damage += 3d6 = 3d6",
		"Fury from rage: attack += 2 as morale = 2",
		"Fury Up from rage: attack += 4 as morale = 4",
		"Combo Roll from combo: attack -= 1 = 1",
		"Combo Hit from combo: damage += 2 = 2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("library traits read as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// House rules: side: picks the side by name (-1: everyone), enabled: false
// is checked but not returned, and a trait list refuses both fields.
func TestReadHouseRules(t *testing.T) {
	ts, rep := readToy(t, `
- {name: Mob, on: hit, side: monsters, do: damage += 1}
- {name: All, on: hit, do: damage += 1}
- {name: Off, on: hit, enabled: false, do: damage += 1}
`, true)
	if rep.Errs != nil {
		t.Fatalf("errors:\n%s", errs(rep))
	}
	if len(ts) != 2 || ts[0].Side != 1 || ts[1].Side != -1 || !ts[0].House {
		t.Errorf("house rules read as %+v", ts)
	}
	_, rep = readToy(t, "- {name: Off, on: hti, enabled: false, do: damage += 1}", true)
	if rep.Errs == nil {
		t.Error("a rule switched off is not checked")
	}
	_, rep = readToy(t, "- {name: Mob, on: hit, side: monstres, do: damage += 1}", true)
	if got := errs(rep); !strings.Contains(got, `no side "monstres" (did you mean "monsters"?); sides: heroes, monsters`) {
		t.Errorf("unknown side: %s", got)
	}
	_, rep = readToy(t, "- {name: Mob, on: hit, side: monsters, do: damage += 1}", false)
	if got := errs(rep); !strings.Contains(got, "side") {
		t.Errorf("side: in a trait list: %q", got)
	}
}

// FactsAt is what a when: may read at a moment: its quantities, the
// owner's and the other party's facts and conditions, and the event facts
// offered there only.
func TestFactsAt(t *testing.T) {
	d := toyDecl()
	names := func(m int) string {
		var s []string
		for _, f := range d.FactsAt(m) {
			s = append(s, f.Name)
		}
		return strings.Join(s, " ")
	}
	if got, want := names(0), "damage mult self.hp target.hp crit self.stunned target.stunned"; got != want {
		t.Errorf("at hit: %s, want %s", got, want)
	}
	if got, want := names(1), "actions self.hp self.stunned"; got != want {
		t.Errorf("at turn_start: %s, want %s", got, want)
	}
}

// withParams and asAt, the two string helpers an error or a trace reads.
func TestWithParamsAndAsAt(t *testing.T) {
	ps := []param{{name: "dice", node: &yaml.Node{Value: " 2d6 "}}, {name: "n", missing: true}}
	for in, want := range map[string]string{
		"damage += $dice":         "damage += 2d6",
		"damage += $dice + $dice": "damage += 2d6 + 2d6",
		"damage += $n":            "damage += $n", // no value: the placeholder stays
		"damage += $other":        "damage += $other",
		"damage += 1":             "damage += 1",
	} {
		if got := withParams(in, ps); got != want {
			t.Errorf("withParams(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]int{"2 as morale": 2, "2 as": 2, "2": -1, "$bonus as  dodge": 7, "as": 0, "2 has x": -1} {
		if got := asAt(in); got != want {
			t.Errorf("asAt(%q) = %d, want %d", in, got, want)
		}
	}
}
