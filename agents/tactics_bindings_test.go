package agents_test

// What the tests of every ruleset's tactics binding share: a binding's
// tests are its table of cases (its error messages, its library tactics
// and the Go policies they stand for); the checking is written here once.

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// errCase is a tactics block and the exact error and warnings a user sees
// for it ("" for none).
type errCase = struct{ block, err, warn string }

// compileBlock loads tmpl (as file) with block in place of its %s and
// compiles it: the error (of loading or compiling) and the warnings, one a
// line.
func compileBlock(t *testing.T, file, tmpl, block string) (string, string) {
	t.Helper()
	src := strings.Replace(tmpl, "%s", block, 1)
	sc, err := scenario.Load(file, []byte(src), nil, rulesets.Schema)
	if err != nil {
		return err.Error(), ""
	}
	_, err = rulesets.Compile(sc)
	var warns []string
	for _, w := range sc.Rep.Warns {
		warns = append(warns, w.Error())
	}
	if err == nil {
		return "", strings.Join(warns, "\n")
	}
	return err.Error(), strings.Join(warns, "\n")
}

// checkErrors compiles each case's block into tmpl (as file) and wants
// its exact error and warnings.
func checkErrors(t *testing.T, file, tmpl string, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		err, warn := compileBlock(t, file, tmpl, c.block)
		if err != c.err {
			t.Errorf("tactics: %s\n got: %s\nwant: %s", c.block, err, c.err)
		}
		if warn != c.warn {
			t.Errorf("tactics: %s\n got warning: %s\nwant warning: %s", c.block, warn, c.warn)
		}
	}
}

// namedScenario is a scenario's display name and YAML.
type namedScenario struct {
	name string
	data []byte
}

// builtinScenarios lists the built-in scenarios of a ruleset (failing
// with fewer than least).
func builtinScenarios(t *testing.T, ruleset string, least int) []namedScenario {
	t.Helper()
	var out []namedScenario
	for _, name := range scenarios.Names() {
		if strings.HasPrefix(name, ruleset+"/") {
			data, _, _ := scenarios.Read(name)
			out = append(out, namedScenario{name, data})
		}
	}
	if len(out) < least {
		t.Fatalf("only %d %s scenarios", len(out), ruleset)
	}
	return out
}

// librarySets lists the --set values that replace every Go policy of sc
// (each combatant without tactics, its own policy or its side's) by its
// library tactic (libraryFor; a policy it cannot express fails the test),
// noting in used each library tactic it names.
func librarySets(t *testing.T, sc *scenario.Scenario, libraryFor func(scenario.PolicySpec) (string, bool), used map[string]bool) []scenario.Set {
	t.Helper()
	var sets []scenario.Set
	for _, side := range sc.Sides {
		for _, cs := range side.Combatants {
			if cs.Tactics != nil || side.Tactics != nil {
				continue // already tactics: the same in both runs
			}
			spec := side.Policy
			if cs.Policy.Name != "" {
				spec = cs.Policy
			}
			v, ok := libraryFor(spec)
			if !ok {
				t.Fatalf("%s: no library tactic for policy %+v", cs.Name, spec)
			}
			used[v[len("{use: "):strings.IndexByte(v, ',')]] = true
			sets = append(sets, scenario.Set{Path: side.Name + "." + cs.Name + ".tactics", Value: v})
		}
	}
	return sets
}

// checkLibraryMatchesGo: each library tactic makes the same decisions as
// the Go policy it replaces. Every scenario, with every Go policy swapped
// for its library tactic (libraryFor), gives identical tallies at a fixed
// seed; the library tactics the scenarios exercise are want (sorted,
// space-separated).
func checkLibraryMatchesGo(t *testing.T, scens []namedScenario, libraryFor func(scenario.PolicySpec) (string, bool), want string) {
	t.Helper()
	used := map[string]bool{}
	for _, s := range scens {
		t.Run(strings.ReplaceAll(s.name, "/", "_"), func(t *testing.T) {
			sc, err := scenario.Load(s.name, s.data, nil, rulesets.Schema)
			if err != nil {
				t.Fatal(err)
			}
			sets := librarySets(t, sc, libraryFor, used)
			if len(sets) == 0 {
				return // its own tactics decide everywhere: nothing to compare
			}
			checkSameTallies(t, s.name, s.data, nil, sets, true, "with "+setsText(sets))
		})
	}
	var names []string
	for u := range used {
		names = append(names, u)
	}
	sort.Strings(names)
	if strings.Join(names, " ") != want {
		t.Errorf("library tactics exercised: %v, want %s", names, want)
	}
}

func setsText(sets []scenario.Set) string {
	var b strings.Builder
	b.WriteByte('[')
	for k, s := range sets {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.Path + "=" + s.Value)
	}
	b.WriteByte(']')
	return b.String()
}

// checkSameTallies runs a scenario with base and then with base and
// tactics, and wants identical tallies but for the rule counts (and, with
// counted, rule counts in the tactics run). what says which tactics.
func checkSameTallies(t *testing.T, name string, data []byte, base, tactics []scenario.Set, counted bool, what string) {
	t.Helper()
	goT := run(t, name, data, base)
	// The tactics run does not carry the Go policy's sets: its tactics
	// overrule them, and a --set the run would ignore is an error.
	var kept []scenario.Set
	for _, s := range base {
		if !policyPath(s.Path) {
			kept = append(kept, s)
		}
	}
	tacT := run(t, name, data, append(kept, tactics...))
	if counted && tacT.Counts.Rules == nil {
		t.Fatal("the tactics run has no rule counters")
	}
	tacT.Counts.Rules, goT.Counts.Rules = nil, nil
	if !reflect.DeepEqual(goT, tacT) {
		t.Errorf("%s %s: tactics differ from the Go policy:\ngo      %+v\ntactics %+v", name, what, goT, tacT)
	}
}

// policyPath tells a --set path that writes a policy: (heroes.policy,
// heroes.Fighter.policy, heroes.Fighter.policy.until).
func policyPath(p string) bool {
	for _, seg := range strings.Split(p, ".") {
		if seg == "policy" {
			return true
		}
	}
	return false
}

// ruleMoments lists the moments at which tally counts a rule of g.
func ruleMoments(g sim.Game, tally *sim.Tally) map[string]bool {
	moments := map[string]bool{}
	for k, rc := range g.(sim.RuleGame).RuleCounters() {
		if tally.Counts.Rules[k] > 0 {
			moments[rc.Moment] = true
		}
	}
	return moments
}

// checkNoAllocs wants g to allocate nothing per encounter.
func checkNoAllocs(t *testing.T, g sim.Game) {
	t.Helper()
	table := g.NewTable()
	tally := sim.NewTally(g)
	var r rng.Stream
	i := 0
	if n := testing.AllocsPerRun(200, func() {
		r.Seed(1, uint64(i))
		i++
		tally.Record(table.Play(&r, &tally.Counts, nil))
	}); n != 0 {
		t.Errorf("%v allocations per encounter", n)
	}
}

// libraryUse is a Go policy on its way to the library tactic that
// replaces it: the tactic's name (the policy's, default when unnamed),
// the policy's parameters not yet carried over, and the params: written.
type libraryUse struct {
	use    string
	params map[string]string
	kv     []string
}

func newLibraryUse(p scenario.PolicySpec) *libraryUse {
	u := &libraryUse{use: p.Name, params: map[string]string{}}
	if u.use == "" {
		u.use = "default"
	}
	for k, n := range p.Params {
		u.params[k] = n.Value
	}
	return u
}

// take carries the policy's parameters keys over, those it has, under
// the same names.
func (u *libraryUse) take(keys ...string) {
	for _, k := range keys {
		if v, ok := u.params[k]; ok {
			u.kv = append(u.kv, k+": "+v)
			delete(u.params, k)
		}
	}
}

// value is the --set value of the library tactic; ok is false when the
// policy has parameters the library does not carry.
func (u *libraryUse) value() (string, bool) {
	if len(u.params) > 0 {
		return "", false
	}
	return "{use: " + u.use + ", params: {" + strings.Join(u.kv, ", ") + "}}", true
}

// traced plays encounter enc of g at seed with a trace: its narration,
// its events (patterns name the roster) and the tally.
func traced(g sim.Game, seed uint64, enc int64) (string, simtest.Events, *sim.Tally) {
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	var b strings.Builder
	log := &sim.Log{W: &b, Names: names}
	_, tally := sim.Replay(g, seed, enc, log)
	return b.String(), simtest.Of(log, names), tally
}
