package acks2_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/rulesets/acks2"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

func TestCompileErrors(t *testing.T) {
	base := head + `distance: 0
OPTIONS
sides:
  - name: a
    REF_A
    combatants:
      - {name: A, hp: 5, damage: 1d6, FIELDS}
  - name: b
    referee: true
    combatants:
      - {name: B, hp: 5, damage: 1d6}
`
	for _, tc := range []struct{ name, options, refA, fields, want string }{
		{"unknown option", "options: {cleave_limt: 2}", "", "ac: 0", `bad.yaml:4:11: options.cleave_limt: unknown field "cleave_limt" (did you mean "cleave_limit"?)`},
		{"bad option value", "options: {morale_trigger: sometimes}", "", "ac: 0", `options.morale_trigger: "sometimes" is not valid`},
		{"bad weapon", "", "", "weapon: sword", `sides[0].combatants[0].weapon: "sword" is not valid; expected one of "melee", "long", "missile"`},
		{"range without a missile weapon", "", "", "range: 50", "range is for a missile weapon; A's weapon is melee"},
		{"init off the count", "", "", "init: 5", "init +5: 1d6 +5 falls outside the count from 10 to -10"},
		{"initiative_roll beyond a d6", "", "", "initiative_roll: 7", "7 is out of range; expected a whole number from 1 to 6"},
		{"initiative_rolls beyond a d6", "", "", "initiative_rolls: [3, 0]", "initiative_rolls[1]: 0 is out of range"},
		{"two referees", "", "referee: true", "ac: 0", "both sides have referee: true"},
		{"engaged_by bad size", "", "", "engaged_by: {elephant: 2}", `unknown field "elephant"`},
		{"a spell that does nothing", "", "", "spells: [{name: fizzle}]", `spell "fizzle" does nothing`},
		{"ongoing fields without ongoing", "", "", "spells: [{name: zap, damage: 1d4, ongoing_at: end}]", "ongoing_at describes a lingering effect"},
		{"unknown policy", "", "", "policy: berserk", `unknown policy "berserk"`},
		{"bad policy param", "", "", "policy: {name: default, interrupt: sometimes}", `"sometimes" is not valid`},
		{"delay without a target", "", "", "policy: delay", "policy delay needs until: NAME"},
		{"delay for itself", "", "", "policy: {name: delay, until: A}", "cannot delay until it has acted itself"},
		{"prefer an ally", "", "", "policy: {name: default, prefer: A}", "prefer names an enemy"},
		{"unknown spell in policy", "", "", "policy: {name: default, spell: fireball}", `A has no spell "fireball"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("OPTIONS", tc.options, "REF_A", tc.refA, "FIELDS", tc.fields).Replace(base)
			err := compileErr(src)
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
				t.Errorf("error %q; want it to contain %q with a file:line:col position", err, tc.want)
			}
		})
	}
}

// TestDocListsEverything: `simctl rules acks2` lists every option the
// compiler accepts (each set to its documented default compiles and gives
// the same game as no options), every extra counter, and the policies.
func TestDocListsEverything(t *testing.T) {
	r, ok := rulesets.Lookup("acks2")
	if !ok {
		t.Fatal("acks2 not registered")
	}
	d := r.Doc()
	var opts []string
	for _, o := range d.Options {
		if o.Default == "" || o.Valid == "" || o.Doc == "" {
			t.Errorf("option %s: incomplete documentation", o.Name)
		}
		opts = append(opts, o.Name+": "+o.Default)
	}
	src := head + "distance: 0\noptions: {" + strings.Join(opts, ", ") + "}\nsides:\n  - name: a\n    combatants:\n      - {name: A, hp: 5, damage: 1}\n  - name: b\n    combatants:\n      - {name: B, hp: 5, damage: 1}\n"
	g := compileYAML(t, src).(*acks2.Game)
	plain := compileYAML(t, strings.Replace(src, "options: {"+strings.Join(opts, ", ")+"}", "options: {}", 1)).(*acks2.Game)
	if g.Opt != plain.Opt {
		t.Errorf("the documented defaults %+v differ from the compiled defaults %+v", g.Opt, plain.Opt)
	}
	want := []string{"declared_spells_lost", "readied_attacks_used", "numbers_lost", "morale_checks", "flights", "cleaves"}
	counters := g.Counters()[sim.NumBase:]
	if len(d.Counters) != len(counters) {
		t.Errorf("%d counters documented, %d recorded", len(d.Counters), len(counters))
	}
	for i, c := range d.Counters {
		if i < len(counters) && c.Name != counters[i] {
			t.Errorf("counter %d documented as %s, recorded as %s", i, c.Name, counters[i])
		}
	}
	for _, w := range want {
		found := false
		for _, c := range counters {
			found = found || c == w
		}
		if !found {
			t.Errorf("counter %s missing", w)
		}
	}
	var pols []string
	for _, p := range d.Policies {
		pols = append(pols, p.Name)
	}
	sort.Strings(pols)
	if got := strings.Join(pols, " "); got != "default delay ready receive" {
		t.Errorf("policies %q; want default delay ready receive (test-only ones hidden)", got)
	}
	for _, f := range r.Schema().CombatantFields {
		found := false
		for _, df := range d.Fields {
			found = found || df.Name == f
		}
		if !found {
			t.Errorf("field %s is accepted but not documented", f)
		}
	}
}

func builtins(t *testing.T) map[string]sim.Game {
	t.Helper()
	out := map[string]sim.Game{}
	for _, n := range scenarios.Names() {
		if !strings.HasPrefix(n, "acks2/") {
			continue
		}
		data, display, _ := scenarios.Read(n)
		sc, err := scenario.Load(display, data, nil, rulesets.Schema)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[n] = g
	}
	for _, want := range []string{"acks2/worked-example", "acks2/skirmish-morale", "acks2/spearmen-vs-cavalry", "acks2/declared-casters"} {
		if out[want] == nil {
			t.Errorf("built-in scenario %s missing", want)
		}
	}
	return out
}

// TestBuiltinsRun: every built-in ACKS scenario runs, its counts do not
// depend on the number of workers, and each exercises what it is for.
func TestBuiltinsRun(t *testing.T) {
	const n = 2000
	uses := map[string][]string{
		"acks2/worked-example":      {"numbers_lost", "charges"},
		"acks2/skirmish-morale":     {"morale_checks", "flights", "deaths"},
		"acks2/spearmen-vs-cavalry": {"numbers_lost", "delays", "charges"},
		"acks2/declared-casters":    {"declared_spells_lost", "spells_cast"},
	}
	for name, g := range builtins(t) {
		a, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 7, N: n, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 7, N: n, Workers: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a.Wins != b.Wins || a.Draws != b.Draws || !equal(a.Counts.Sides, b.Counts.Sides) {
			t.Errorf("%s: results depend on the number of workers", name)
		}
		for _, c := range uses[name] {
			if counter(t, g, a, 0, c)+counter(t, g, a, 1, c) == 0 {
				t.Errorf("%s: counter %s is 0 over %d encounters", name, c, n)
			}
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPlayAllocatesNothing: the hot loop reuses the table: no allocation
// per encounter, for every built-in scenario and a delay-heavy one.
func TestPlayAllocatesNothing(t *testing.T) {
	games := builtins(t)
	games["delays"] = compileYAML(t, head+`max_rounds: 20
distance: 40
sides:
  - name: a
    combatants:
      - {name: A, hp: 2d8, damage: 1d6, policy: {name: delay, until: C}, spells: [{name: flux, ongoing: 1d4, ongoing_save: true, ongoing_rounds: 3, push: 5}]}
      - {name: C, hp: 2d8, damage: 1d6, weapon: long, policy: {name: delay, count: -3}}
      - {name: R, hp: 2d8, damage: 1d6, weapon: missile, policy: ready}
  - name: b
    combatants:
      - {name: O, count: 3, hp: 2d8, damage: 1d6, policy: {name: default, withdraw_below: 4, withdraw: retreat, target: random}}
`)
	for name, g := range games {
		tb := g.NewTable()
		c := sim.NewCounts(len(g.Counters()))
		var r rng.Stream
		i := uint64(0)
		play := func() {
			r.Seed(3, i)
			i++
			tb.Play(&r, &c, nil)
		}
		for range 50 {
			play()
		}
		if a := testing.AllocsPerRun(300, play); a != 0 {
			t.Errorf("%s: %.2f allocations per encounter, want 0", name, a)
		}
	}
}

func BenchmarkPlay(b *testing.B) {
	t := &testing.T{}
	for name, g := range builtins(t) {
		b.Run(strings.TrimPrefix(name, "acks2/"), func(b *testing.B) {
			tb := g.NewTable()
			c := sim.NewCounts(len(g.Counters()))
			var r rng.Stream
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.Seed(1, uint64(i))
				tb.Play(&r, &c, nil)
			}
		})
	}
}
