package scenario_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	_ "simctl/agents" // the d20 policies
	"simctl/rulesets"
	"simctl/rulesets/d20"
	"simctl/sim"
	"simctl/sim/scenario"
)

// minimal leaves every optional field out.
const minimal = `ruleset: d20
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 20
        damage: 1d8+3
  - name: monsters
    combatants:
      - name: Orc
        hp: 3d10+6
        damage: 1d12+3
        count: 3
`

func load(t *testing.T, src string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load("test.yaml", []byte(src), parseSets(t, sets), rulesets.Schema)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return sc
}

func parseSets(t testing.TB, sets []string) []scenario.Set {
	t.Helper()
	var out []scenario.Set
	for _, s := range sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatalf("ParseSet(%q): %v", s, err)
		}
		out = append(out, x)
	}
	return out
}

func compile(t *testing.T, sc *scenario.Scenario) *d20.Game {
	t.Helper()
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return g.(*d20.Game)
}

// loadErr loads src expecting problems and returns them.
func loadErr(t *testing.T, src string, sets ...string) scenario.Errors {
	t.Helper()
	sc, err := scenario.Load("test.yaml", []byte(src), parseSets(t, sets), rulesets.Schema)
	if err == nil {
		_, err = rulesets.Compile(sc)
	}
	if err == nil {
		t.Fatalf("no error for\n%s", src)
	}
	var es scenario.Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v (%T) is not scenario.Errors", err, err)
	}
	return es
}

func TestDefaults(t *testing.T) {
	sc := load(t, minimal)
	if sc.Name != "test" {
		t.Errorf("Name = %q, want the file's base name %q", sc.Name, "test")
	}
	if sc.MaxRounds != 100 || sc.Distance != 0 {
		t.Errorf("max_rounds %d, distance %d; want 100, 0", sc.MaxRounds, sc.Distance)
	}
	if len(sc.Sides) != 2 {
		t.Fatalf("%d sides", len(sc.Sides))
	}
	for _, s := range sc.Sides {
		if !s.Aware || s.Referee || s.Policy.Name != "" {
			t.Errorf("side %s: aware %v, referee %v, policy %q; want true, false, none", s.Name, s.Aware, s.Referee, s.Policy.Name)
		}
	}
	f := sc.Sides[0].Combatants[0]
	if f.Count != 1 || f.Speed != 30 || f.AC != 0 || f.Init != 0 || f.InitiativeRoll != 0 || f.Aware != nil {
		t.Errorf("Fighter defaults: %+v", f)
	}
	if !slices.Equal(f.Attacks, []int{0}) {
		t.Errorf("default attacks %v, want [0]", f.Attacks)
	}
	g := compile(t, sc)
	if g.MaxRounds() != 100 || !g.C[0].Aware || g.C[0].Speed != 30 {
		t.Errorf("compiled Fighter: max rounds %d, aware %v, speed %d", g.MaxRounds(), g.C[0].Aware, g.C[0].Speed)
	}
}

func TestCountCopies(t *testing.T) {
	g := compile(t, load(t, minimal))
	want := []sim.Entrant{{Name: "Fighter", Side: 0}, {Name: "Orc#1", Side: 1}, {Name: "Orc#2", Side: 1}, {Name: "Orc#3", Side: 1}}
	if got := g.Roster(); !slices.Equal(got, want) {
		t.Errorf("roster %v, want %v", got, want)
	}
	for _, c := range g.C[1:] {
		if c.HP.String() != "3d10+6" || c.Damage.String() != "1d12+3" {
			t.Errorf("%s: hp %s, damage %s", c.Name, c.HP, c.Damage)
		}
	}
}

func TestHPAsDice(t *testing.T) {
	sc := load(t, minimal)
	fighter, orc := sc.Sides[0].Combatants[0].HP, sc.Sides[1].Combatants[0].HP
	if !fighter.IsConst() || fighter.Min() != 20 {
		t.Errorf("hp: 20 decoded as %v", fighter)
	}
	if orc.IsConst() || orc.Min() != 9 || orc.Max() != 36 || orc.String() != "3d10+6" {
		t.Errorf("hp: 3d10+6 decoded as %v (min %d, max %d)", orc, orc.Min(), orc.Max())
	}
}

func TestFullScenario(t *testing.T) {
	sc := load(t, `name: Full
description: every common field
ruleset: d20
options: {dying: srd}
max_rounds: 7
distance: 30
sides:
  - name: heroes
    aware: false
    policy: {name: delay, until: Orc}
    combatants:
      - {name: Fighter, hp: 20, ac: 17, init: 2, initiative_roll: 12, attacks: [6, 1], damage: 1d8+3, speed: 20, aware: true}
  - name: monsters
    referee: yes
    combatants:
      - {name: Orc, hp: 22, damage: 1d12+3, policy: default}
`)
	if sc.Name != "Full" || sc.Description != "every common field" || sc.MaxRounds != 7 || sc.Distance != 30 {
		t.Errorf("top level: %q %q %d %d", sc.Name, sc.Description, sc.MaxRounds, sc.Distance)
	}
	h, m := sc.Sides[0], sc.Sides[1]
	if h.Aware || !m.Referee || h.Policy.Name != "delay" || h.Policy.Params["until"].Value != "Orc" {
		t.Errorf("sides: %+v / %+v", h, m)
	}
	f := h.Combatants[0]
	if f.AC != 17 || f.Init != 2 || f.InitiativeRoll != 12 || f.Speed != 20 || f.Aware == nil || !*f.Aware || !slices.Equal(f.Attacks, []int{6, 1}) {
		t.Errorf("Fighter: %+v", f)
	}
	if m.Combatants[0].Policy.Name != "default" {
		t.Errorf("Orc policy %q", m.Combatants[0].Policy.Name)
	}
	g := compile(t, sc)
	if g.Opt.Dying != "srd" || !g.C[0].Aware || g.C[1].Aware != true {
		t.Errorf("compiled: dying %q, Fighter aware %v", g.Opt.Dying, g.C[0].Aware)
	}
}

// Errors name file:line:col and the field, and say what would be valid.
func TestErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           string
	}{
		{"typo", "ruleset: d20\n", "ruleset: d20\nmax_round: 5\n",
			`test.yaml:2:1: max_round: unknown field "max_round" (did you mean "max_rounds"?); valid fields: `},
		{"dice column", "damage: 1d8+3", "damage: 1d8+q",
			`test.yaml:7:21: sides[0].combatants[0].damage: bad dice expression "1d8+q": expected a number or NdM after "+"`},
		{"quoted dice", "damage: 1d8+3", `damage: "1d8+q"`,
			`test.yaml:7:17: sides[0].combatants[0].damage: bad dice expression "1d8+q"`},
		{"negative hp", "hp: 20", "hp: -4",
			`test.yaml:6:13: sides[0].combatants[0].hp: hp must be at least 1, got -4`},
		{"zero hp", "hp: 20", "hp: 0",
			`test.yaml:6:13: sides[0].combatants[0].hp: hp must be at least 1, got 0`},
		{"hp can roll 0", "hp: 20", "hp: 1d4-1",
			`test.yaml:6:13: sides[0].combatants[0].hp: hp "1d4-1" can roll 0; it must be at least 1 on every roll`},
		{"count", "count: 3", "count: 0",
			`test.yaml:13:16: sides[1].combatants[0].count: 0 is out of range; expected a whole number from 1 to 64`},
		{"dup across sides", "name: Orc", "name: Fighter",
			`test.yaml:10:15: sides[1].combatants[0].name: combatant name "Fighter" is also used in side "heroes"`},
		{"side name with a dot", "name: heroes", "name: the.heroes",
			`test.yaml:3:11: sides[0].name: side name "the.heroes" may not contain '.' or '='`},
		{"bool", "  - name: monsters\n", "  - name: monsters\n    aware: maybe\n",
			`test.yaml:9:12: sides[1].aware: expected true or false, got a value "maybe"`},
		{"missing ruleset", "ruleset: d20\n", "",
			`test.yaml:1:1: ruleset: missing; choose one of `},
		{"crit (d20 field)", "hp: 20\n", "hp: 20\n        crit: 18-19/x2\n",
			`test.yaml:7:15: sides[0].combatants[0].crit: crit "18-19/x2": expected a threat range and multiplier such as "19-20/x2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(minimal, tc.old, tc.new, 1)
			if src == minimal {
				t.Fatalf("%q not in the scenario", tc.old)
			}
			es := loadErr(t, src)
			if !strings.Contains(es.Error(), tc.want) {
				t.Errorf("errors:\n%s\nwant a line containing\n%s", es, tc.want)
			}
		})
	}
}

// Every problem of a file comes back at once, in file order.
func TestAllProblemsAtOnce(t *testing.T) {
	src := strings.NewReplacer(
		"ruleset: d20", "ruleset: d20\nmax_rouns: 5", // line 2
		"damage: 1d8+3", "damage: 1d8+",
		"hp: 3d10+6", "hp: -3",
	).Replace(minimal)
	es := loadErr(t, src)
	if len(es) != 3 {
		t.Fatalf("%d problems, want 3:\n%s", len(es), es)
	}
	for i, want := range []string{"test.yaml:2:1: max_rouns", "test.yaml:8:20: sides[0].combatants[0].damage: bad dice expression \"1d8+\": trailing \"+\"", "test.yaml:12:13: sides[1].combatants[0].hp"} {
		if !strings.HasPrefix(es[i].Error(), want) {
			t.Errorf("problem %d: %s\nwant prefix %s", i, es[i], want)
		}
	}
}

func TestYAMLSyntaxLine(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		// The library blames line 3 (the enclosing block); the break is on 5.
		{"name: t\nruleset: d20\nsides:\n  - name: a\n   combatants: []\n", "test.yaml:5: YAML syntax: "},
		{"name: t\nruleset: d20\nsides:\n\t- name: a\n", "test.yaml:4: YAML syntax: "},
		{"name: t\nsides: [\n", "test.yaml:2: YAML syntax: "},
	} {
		_, err := scenario.Load("test.yaml", []byte(tc.src), nil, rulesets.Schema)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("syntax error in\n%s\ngave %v, want prefix %q", tc.src, err, tc.want)
		}
	}
}

func TestNotAMapping(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "- a\n- b\n", "just text\n"} {
		_, err := scenario.Load("test.yaml", []byte(src), nil, rulesets.Schema)
		var es scenario.Errors
		if !errors.As(err, &es) || !strings.Contains(err.Error(), "mapping") {
			t.Errorf("Load(%q) = %v, want an error asking for a mapping", src, err)
		}
	}
}

func TestDecodeKeepsScenarioWithProblems(t *testing.T) {
	sc, err := scenario.Decode("test.yaml", []byte(strings.Replace(minimal, "hp: 20", "hp: -1", 1)), nil, rulesets.Schema)
	if err == nil || sc == nil {
		t.Fatalf("Decode = %v, %v; want the scenario and its problems", sc, err)
	}
	if sc.Sides[1].Combatants[0].Count != 3 {
		t.Errorf("the valid parts were not decoded: %+v", sc.Sides[1].Combatants[0])
	}
	if sc2, err := scenario.Load("test.yaml", []byte(strings.Replace(minimal, "hp: 20", "hp: -1", 1)), nil, rulesets.Schema); sc2 != nil || err == nil {
		t.Errorf("Load returned a scenario with problems")
	}
}

func TestSet(t *testing.T) {
	src := strings.Replace(minimal, "name: Fighter\n", "name: Fighter\n        init: 1\n        policy: delay\n", 1)
	sc := load(t, src,
		"heroes.Fighter.init=4",
		"options.dying=srd",
		"max_rounds=5",
		"heroes.Fighter.policy.until=Orc#2", // a parameter on a scalar policy
		"monsters.aware=false",
		"monsters.Orc.hp=2d8",
		"heroes.Fighter.attacks=[7, 2]",
		"distance=20",
	)
	g := compile(t, sc)
	f := g.C[0]
	if f.Init != 4 || g.Opt.Dying != "srd" || g.MaxRounds() != 5 || g.Distance != 20 {
		t.Errorf("init %d, dying %q, max rounds %d, distance %d; want 4, srd, 5, 20", f.Init, g.Opt.Dying, g.MaxRounds(), g.Distance)
	}
	if p := sc.Sides[0].Combatants[0].Policy; p.Name != "delay" || p.Params["until"] == nil || p.Params["until"].Value != "Orc#2" {
		t.Errorf("policy after --set: %+v", p)
	}
	if g.C[1].Aware || g.C[1].HP.String() != "2d8" || !slices.Equal(f.Attacks, []int{7, 2}) {
		t.Errorf("Orc#1 aware %v hp %s, Fighter attacks %v", g.C[1].Aware, g.C[1].HP, f.Attacks)
	}
	// A side-wide policy set from the command line.
	sc = load(t, minimal, "heroes.policy={name: delay, until: Orc#1}")
	if p := sc.Sides[0].Policy; p.Name != "delay" || p.Params["until"].Value != "Orc#1" {
		t.Errorf("side policy after --set: %+v", p)
	}
	compile(t, sc)
}

func TestSetErrors(t *testing.T) {
	for _, tc := range []struct {
		set  string
		want []string
	}{
		{"heros.Fighter.init=4", []string{`test.yaml: --set heros.Fighter.init=4: "heros" is neither a top-level field nor a side (did you mean "heroes"?)`, "sides: heroes, monsters", "top-level fields: name, ruleset"}},
		{"heroes.Fightr.init=4", []string{`side "heroes" has no combatant or field "Fightr" (did you mean "Fighter"?)`, "combatants: Fighter;", "side fields: name, aware"}},
		{"heroes.Fighter=4", []string{`"Fighter" is a combatant; name a field, e.g. heroes.Fighter.init=4`}},
		{"heroes=4", []string{`"heroes" is a side; name a field`}},
		{"heroes.Fighter.hp.x=4", []string{`cannot set "x" inside a value "20"`}},
		{"heroes.Fighter.ac=[1,", []string{`value "[1," is not valid YAML`}},
		{"heroes..ac=1", []string{`empty segment`}},
		// Problems with a value name the override; the position is the field's.
		{"heroes.Fighter.ac=high", []string{`test.yaml:5:9: sides[0].combatants[0].ac: expected a whole number from -100 to 1000, got a value "high" (from --set heroes.Fighter.ac=high)`}},
		{"heroes.Fighter.inti=4", []string{`test.yaml:5:9: sides[0].combatants[0].inti: unknown field "inti" (did you mean "init"?)`, "(from --set heroes.Fighter.inti=4)"}},
		{"heroes.Fighter.attacks=[6, x]", []string{`test.yaml:5:9: sides[0].combatants[0].attacks[1]: expected a whole number`, "(from --set heroes.Fighter.attacks=[6, x])"}},
		{"heroes.Fighter.damage=2d6+", []string{`test.yaml:7:17: sides[0].combatants[0].damage: bad dice expression "2d6+"`, "(from --set heroes.Fighter.damage=2d6+)"}},
		{"options.dying=coma", []string{`options.dying: "coma" is not valid; expected one of "out-at-0", "srd" (from --set options.dying=coma)`}},
		{"options.dyng=srd", []string{`unknown field "dyng" (did you mean "dying"?)`}},
	} {
		es := loadErr(t, minimal, tc.set)
		for _, w := range tc.want {
			if !strings.Contains(es.Error(), w) {
				t.Errorf("--set %s:\n%s\nwant it to contain\n%s", tc.set, es, w)
			}
		}
	}
	if _, err := scenario.ParseSet("heroes.Fighter.init"); err == nil || !strings.Contains(err.Error(), "PATH=VALUE") {
		t.Errorf("ParseSet without '=': %v", err)
	}
}

// A --set problem does not hide the file's own problems.
func TestSetAndFileProblemsTogether(t *testing.T) {
	es := loadErr(t, strings.Replace(minimal, "hp: 20", "hp: 0", 1), "heros.aware=false")
	if len(es) != 2 {
		t.Fatalf("%d problems, want 2:\n%s", len(es), es)
	}
}

// TestSetRulesetSideField: --set reaches a ruleset's own side field when the
// file has it, not only the common ones.
func TestSetRulesetSideField(t *testing.T) {
	lookup := func(string) (scenario.Schema, bool, []string) {
		return scenario.Schema{SideFields: []string{"blocks_exits"}}, true, []string{"x"}
	}
	src := `ruleset: x
sides:
  - name: a
    blocks_exits: false
    combatants: [{name: A, hp: 5, damage: 1}]
  - name: b
    combatants: [{name: B, hp: 5, damage: 1}]
`
	sets := []scenario.Set{{Path: "a.blocks_exits", Value: "true"}}
	sc, err := scenario.Load("x.yaml", []byte(src), sets, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if n := sc.Sides[0].Extra["blocks_exits"]; n == nil || n.Value != "true" {
		t.Fatalf("blocks_exits = %v, want true", n)
	}
}

// Nesting deeper than MaxNodeDepth is refused at the first node too deep,
// by line and column, in a file and in a --set value (issue 31): the
// decoder and the tactics compiler walk the tree recursively.
func TestNestingBounded(t *testing.T) {
	head := "name: x\nruleset: d20\nsides: []\nextra: "
	want := "nested too deeply: more than 64 levels of mappings and lists"
	flow := head + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n"
	_, err := scenario.Load("f.yaml", []byte(flow), nil, rulesets.Schema)
	// The root mapping is level 1, extra's list level 2: the 64th '[' is
	// the 65th level, at column len("extra: ")+64.
	if err == nil || !strings.Contains(err.Error(), "f.yaml:4:71: "+want) {
		t.Errorf("flow lists: got %v", err)
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	for i := range 100 {
		b.WriteString(strings.Repeat(" ", i+1) + "k:\n")
	}
	_, err = scenario.Load("f.yaml", []byte(b.String()), nil, rulesets.Schema)
	// The first node at level 65: the mapping that starts on line 67.
	if err == nil || !strings.Contains(err.Error(), "f.yaml:67:64: "+want) {
		t.Errorf("block mappings: got %v", err)
	}
	// 64 levels in all are fine.
	ok := head + strings.Repeat("[", 63) + strings.Repeat("]", 63) + "\n"
	if _, err := scenario.Load("f.yaml", []byte(ok), nil, rulesets.Schema); err == nil || strings.Contains(err.Error(), "too deeply") {
		t.Errorf("64 levels: got %v, want only the scenario's own problems", err)
	}
	set := scenario.Set{Path: "max_rounds", Value: strings.Repeat("[", 100000) + strings.Repeat("]", 100000)}
	_, err = scenario.Load("f.yaml", []byte(head+"1\n"), []scenario.Set{set}, rulesets.Schema)
	if err == nil || !strings.Contains(err.Error(), "value nested too deeply: more than 64 levels of mappings and lists, at column 65") &&
		!strings.Contains(err.Error(), "exceeded max depth") {
		t.Errorf("--set value: got %.300v", err)
	}
	set.Value = strings.Repeat("[", 100) + strings.Repeat("]", 100)
	_, err = scenario.Load("f.yaml", []byte(head+"1\n"), []scenario.Set{set}, rulesets.Schema)
	if err == nil || !strings.Contains(err.Error(), "value nested too deeply: more than 64 levels of mappings and lists, at column 65") {
		t.Errorf("--set value: got %.300v", err)
	}
}
