package app

import (
	"context"
	"reflect"
	"strings"
	"testing"

	_ "simctl/agents" // registers the scripted policies
	_ "simctl/rulesets/acks2"
	_ "simctl/rulesets/cavaliers"
	_ "simctl/rulesets/d20"
	_ "simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// sharedCases are, for every ruleset, candidates of a search as --set
// lists, one of each kind of path a --vary, --option, --traits or --rules
// writes: a combatant's numbers and dice (common and the ruleset's own
// fields), a side field, a top-level field, a ruleset option, a tactics
// parameter, a whole rule list, a house rule switched off, a traits list,
// a trait's parameter, a policy. Every candidate changes the play (the
// test checks it), so an override the shared build missed shows.
var sharedCases = []struct {
	name   string
	common []string // the search's own --set, before each candidate's
	cands  [][]string
}{
	{"d20/duel", nil, [][]string{
		{"heroes.Fighter.hp=30"},
		{"heroes.Fighter.ac=12", "heroes.Fighter.init=5"},
		{"heroes.Fighter.damage=2d6+3"},
		{"heroes.Fighter.crit=20/x2"},
		{"monsters.Orc.attacks=[8]"},
		{"monsters.aware=false"},
		{"max_rounds=2"},
		{"options.dying=srd"},
		{"options.confirm_crits=false"},
		{"heroes.Fighter.traits=[power_attack, weapon_focus]"},
		{"heroes.Fighter.hp=30", "monsters.Orc.hp=30"}, // a value another candidate set on another path
		{"heroes.Fighter.hp=30"},                       // and the same again
		{"heroes.Fighter.policy={name: delay, until: Orc}"},
	}},
	{"d20/duel", []string{"heroes.Fighter.traits=[{use: power_attack, name: PA}]"}, [][]string{
		{"heroes.Fighter.traits.PA.params.trade=3"}, // a trait's parameter
		{"heroes.Fighter.traits.PA.params.trade=3", "monsters.Orc.traits=[dodge]"},
	}},
	{"d20/tactics-combo", []string{"raiders.Raider.count=3"}, [][]string{
		{"heroes.Wizard.tactics.params.crowd=4"},
		{"heroes.Knight.tactics.params.rounds=0"},
		{"heroes.Knight.tactics.turn=[{name: close, do: attack, target: nearest}]"},
		{"distance=10"},
		{"heroes.Pikeman.brace=false"},
		{"heroes.Wizard.spells=[]"},
		{"raiders.Raider.ac=17"},
	}},
	{"acks2/house-rules", nil, [][]string{
		{"rules.Brutal Critical.enabled=false"},
		{"heroes.Fighter.tactics.params.pause=1"},
		{"heroes.Fighter.attack_throw=12"},
		{"heroes.Fighter.morale=-2", "monsters.Orc.hp=2d8+2"},
		{"heroes.Fighter.traits=[watchful_pause, poised, combat_reflexes]"},
		{"heroes.Fighter.traits=[watchful_pause, {use: combat_reflexes, params: {bonus: 2}}]"},
		{"options.morale_trigger=none", "heroes.Fighter.morale=-4"},
	}},
	{"cavaliers/house-rules", nil, [][]string{
		{"rules.Second Wind.enabled=false"},
		{"heroes.Cavalier.tactics.params.retake=1"},
		{"heroes.Cavalier.pool=3d6"},
		{"heroes.Cavalier.attribute=d10"},
		{"heroes.Cavalier.specialty=none"},
		{"options.raise_on=4"},
		{"heroes.Cavalier.traits=[retake, quick]"},
	}},
	{"lotm/house-rules", nil, [][]string{
		{"rules.Wounded.enabled=false"},
		{"rules.Wounded.when=self.hp_pct < 0.8"},
		{"heroes.Investigator.tactics.params.tempo=1"},
		{"heroes.Investigator.dodge=5"},
		{"options.initiative=agility"},
		{"heroes.Investigator.traits=[seize_the_tempo, tough]"},
		{"monsters.Cultist.damage=1d10+2"},
	}},
}

// TestSharedBuildIsTheCompile: a candidate built from the scenario parsed
// once (candidateBuilder: a copy of the tree, the overrides applied, the
// values cached) plays exactly the encounters of the same candidate
// compiled from the text, for every ruleset and every kind of varied
// path; each candidate's play differs from the scenario's own, so an
// override the shared build dropped or took from another candidate fails
// the comparison. The candidates are built in one order and then the
// reverse, from one parsed text.
func TestSharedBuildIsTheCompile(t *testing.T) {
	const n = 3000
	ctx := context.Background()
	play := func(g sim.Game) *sim.Tally {
		tl, err := sim.Run(ctx, g, sim.RunConfig{Seed: 38, N: n, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	for _, c := range sharedCases {
		data, disp, ok := scenarios.Read(c.name)
		if !ok {
			t.Fatalf("no built-in %s", c.name)
		}
		src := &Source{Name: c.name, Display: disp, Data: data}
		common := parseSetList(t, c.common)
		_, base, err := src.Compile(common, nil)
		if err != nil {
			t.Fatal(err)
		}
		own := play(base)
		points := make([]experiment.Point, len(c.cands))
		want := make([]*sim.Tally, len(c.cands))
		for k, sets := range c.cands {
			points[k] = experiment.Point{Name: strings.Join(sets, " "), Sets: parseSetList(t, sets)}
			_, g, _, err := src.CompileWarn(append(append([]scenario.Set(nil), common...), points[k].Sets...))
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, points[k].Name, err)
			}
			want[k] = play(g)
			if reflect.DeepEqual(want[k], own) {
				t.Fatalf("%s %s: plays as the scenario does; pick a value that changes the play", c.name, points[k].Name)
			}
		}
		build := candidateBuilder(scenario.Parse(src.Display, src.Data), common, points)
		games := make([]sim.Game, len(points))
		for _, order := range [][]int{ascending(len(points)), descending(len(points))} {
			for _, k := range order {
				if err := build(ctx, games, []int{k}); err != nil { // one at a time: each built afresh
					t.Fatalf("%s %s: %v", c.name, points[k].Name, err)
				}
				if got := play(games[k]); !reflect.DeepEqual(got, want[k]) {
					t.Errorf("%s %s: the shared build plays wins %v draws %d, compiled from the text wins %v draws %d",
						c.name, points[k].Name, got.Wins, got.Draws, want[k].Wins, want[k].Draws)
				}
			}
		}
	}
}

// TestSharedBuildErrors: a candidate that is not a valid scenario gets
// from the shared build the error the text's compile gives (positions,
// field, what would be valid), also when its value is cached from an
// earlier candidate.
func TestSharedBuildErrors(t *testing.T) {
	data, disp, _ := scenarios.Read("d20/tactics-combo")
	src := &Source{Name: "d20/tactics-combo", Display: disp, Data: data}
	parsed := scenario.Parse(src.Display, src.Data)
	for _, sets := range [][]string{
		{"heroes.Knight.hp=-3"},
		{"heroes.Knight.hp=30"}, // valid, caches 30
		{"heroes.Knight.ac=30", "heroes.Knight.attacks=[a]"},
		{"heroes.Knight.crit=[1, 2"},
		{"heroes.Knigth.hp=30"},
		{"heroes.Wizard.tactics.params.crowd=many"},
		{"heroes.Wizard.tactics.turn=[{name: x, do: fly}]"},
		{"options.dying=maybe"},
		{"max_rounds=-1", "heroes.Knight.hp=-3"},
	} {
		ss := parseSetList(t, sets)
		_, _, _, want := src.CompileWarn(ss)
		_, _, _, got := CompileParsed(parsed, ss)
		if (want == nil) != (sets[0] == "heroes.Knight.hp=30") {
			t.Fatalf("%v: compiles with %v; the case is meant to fail but for hp=30", sets, want)
		}
		if (want == nil) != (got == nil) || want != nil && got.Error() != want.Error() {
			t.Errorf("%v: the shared build says\n%v\nthe text's compile\n%v", sets, got, want)
		}
	}
}

func parseSetList(t *testing.T, ss []string) []scenario.Set {
	t.Helper()
	var out []scenario.Set
	for _, s := range ss {
		x, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}

func ascending(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func descending(n int) []int {
	out := ascending(n)
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
