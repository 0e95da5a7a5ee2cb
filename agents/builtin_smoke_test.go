package agents_test

// Smoke test: every built-in scenario, with every registered policy of its
// ruleset on either side and a spread of pinned initiative rolls, plays a
// few hundred encounters without a panic or an internal error, and its
// tally adds up. It exists so that a crash like issue 10's (a delay to a
// count when the delayer ends last) cannot come back unnoticed.

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	"simctl/rulesets/acks2"
	"simctl/rulesets/cavaliers"
	"simctl/rulesets/d20"
	"simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// smokePolicies are the policy specs tried per ruleset, with parameters
// for those that need them. {ENEMY} is the first opponent's roster name,
// {ALLY} another combatant of the same side.
var smokePolicies = map[string][]string{
	"d20": {
		"default", "{name: default, target: random, charge: always}",
		"{name: delay, until: {ENEMY}}", "{name: delay, until: {ALLY}}", "{name: delay, count: -5}", "{name: delay, count: 5, rounds: first}",
		"{name: ready, trigger: charge}", "{name: ready, trigger: enemy_in_reach, when: always}", "{name: ready, trigger: enemy_casts}",
		"{name: ready, trigger: ally_acts, ally: {ALLY}}", "{name: ready, trigger: enemy_attacks_ally, ally: {ALLY}}",
		"counterspell",
	},
	"acks2": {
		"default", "{name: delay, until: {ENEMY}}", "{name: delay, until: {ALLY}}", "{name: delay, count: 3}",
		"ready", "{name: ready, when: always}", "receive",
	},
	"cavaliers": {"default", "{name: guard, ward: {ALLY}}", "none"},
	"lotm": {
		"default", "aim", "feint", "intimidate", "ambush", "grapple", "charge", "vital", "{name: combo, ally: {ALLY}}",
	},
}

func registered(ruleset string) []string {
	switch ruleset {
	case "d20":
		return d20.PolicyNames()
	case "acks2":
		return acks2.PolicyNames()
	case "cavaliers":
		return cavaliers.PolicyNames()
	case "lotm":
		return lotm.PolicyNames()
	}
	return nil
}

func TestBuiltinScenariosSmoke(t *testing.T) {
	// A few hundred encounters per case; fewer under -short or the race
	// detector (about ten times slower), where the cases still all run.
	n := int64(200)
	if testing.Short() || raceEnabled() {
		n = 40
	}
	used := map[string]map[string]bool{} // ruleset -> policy names that compiled somewhere
	for _, name := range scenarios.Names() {
		data, file, _ := scenarios.Read(name)
		sc, err := scenario.Load(file, data, nil, rulesets.Schema)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		base, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rs := sc.Ruleset
		specs, ok := smokePolicies[rs]
		if !ok {
			t.Fatalf("%s: no smoke policies for ruleset %s", name, rs)
		}
		if used[rs] == nil {
			used[rs] = map[string]bool{}
		}
		roster := base.Roster()
		schema, _, _ := rulesets.Schema(rs)
		die := schema.InitDie
		if die == 0 {
			die = 20
		}
		type templ struct {
			side     int
			path     string // SIDE.NAME for --set
			first    string // roster name of its first copy
			rosterAt int
		}
		var ts []templ
		k := 0
		for s, side := range sc.Sides {
			for _, c := range side.Combatants {
				first := c.Name
				if c.Count > 1 {
					first += "#1"
				}
				ts = append(ts, templ{s, side.Name + "." + c.Name, first, k})
				k += c.Count
			}
		}
		// Pins: unpinned, all low, all high, one side high and the other
		// low (both ways), and a spread by combatant. Cavaliers pins its
		// pool with its own field, so only unpinned there.
		pinSets := [][]int{nil}
		if rs != "cavaliers" {
			low, high, ab, ba, spread := []int{}, []int{}, []int{}, []int{}, []int{}
			for i, tp := range ts {
				low = append(low, 1)
				high = append(high, die)
				ab = append(ab, map[bool]int{true: die, false: 1}[tp.side == 0])
				ba = append(ba, map[bool]int{true: 1, false: die}[tp.side == 0])
				spread = append(spread, (i*7)%die+1)
			}
			pinSets = append(pinSets, low, high, ab, ba, spread)
		}
		// Policy assignments: the scenario's own, then each spec on side 0,
		// then on side 1.
		type assign struct {
			spec string
			side int
		}
		assigns := []assign{{"", -1}}
		for _, sp := range specs {
			assigns = append(assigns, assign{sp, 0}, assign{sp, 1})
		}
		for _, as := range assigns {
			var polSets []scenario.Set
			skip := false
			for _, tp := range ts {
				if tp.side != as.side {
					continue
				}
				spec := as.spec
				enemy, ally := "", ""
				for _, e := range roster {
					if e.Side != tp.side && enemy == "" {
						enemy = e.Name
					}
				}
				for _, o := range ts {
					if o.side == tp.side && o.path != tp.path && ally == "" {
						ally = o.first
					}
				}
				if ally == "" && strings.Contains(spec, "{ALLY}") {
					skip = true // alone on its side
					break
				}
				spec = strings.NewReplacer("{ENEMY}", enemy, "{ALLY}", ally).Replace(spec)
				set, err := scenario.ParseSet(tp.path + ".policy=" + spec)
				if err != nil {
					t.Fatalf("%s: set: %v", name, err)
				}
				polSets = append(polSets, set)
			}
			if skip {
				continue
			}
			for pi, pins := range pinSets {
				sets := append([]scenario.Set(nil), polSets...)
				for i, p := range pins {
					set, err := scenario.ParseSet(fmt.Sprintf("%s.initiative_roll=%d", ts[i].path, p))
					if err != nil {
						t.Fatalf("%s: set: %v", name, err)
					}
					sets = append(sets, set)
				}
				label := fmt.Sprintf("%s side %d policy %q pins #%d", name, as.side, as.spec, pi)
				sc, err := scenario.Load(file, data, sets, rulesets.Schema)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				g, err := rulesets.Compile(sc)
				if err != nil {
					continue // a policy this scenario's combatants cannot use (e.g. counterspell without spells)
				}
				if as.spec != "" {
					pname := as.spec
					if strings.HasPrefix(pname, "{name: ") {
						pname = strings.TrimPrefix(pname, "{name: ")
						pname = pname[:strings.IndexAny(pname, ",}")]
					}
					used[rs][pname] = true
				}
				tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 7, N: n, Workers: 1})
				if err != nil {
					t.Errorf("%s: %v", label, err)
					continue
				}
				checkTally(t, label, tally, n, len(g.Roster()))
				checkOutcomes(t, label, g, rs == "d20")
			}
		}
	}
	for rs, u := range used {
		for _, p := range registered(rs) {
			if strings.HasPrefix(p, "test-") {
				continue
			}
			if !u[p] {
				t.Errorf("%s policy %q was never played by the smoke test (add parameters it compiles with)", rs, p)
			}
		}
	}
}

func checkTally(t *testing.T, label string, tl *sim.Tally, n int64, roster int) {
	t.Helper()
	if tl.Encounters != n || tl.Wins[0]+tl.Wins[1]+tl.Draws != n {
		t.Errorf("%s: encounters %d, wins %v + draws %d; want %d in all", label, tl.Encounters, tl.Wins, tl.Draws, n)
	}
	first := tl.NoActor
	for _, v := range tl.FirstActor {
		first += v
	}
	if first != n || len(tl.FirstActor) != roster {
		t.Errorf("%s: first actors %v + none %d; want %d in all", label, tl.FirstActor, tl.NoActor, n)
	}
	if tl.Survivors[0] < 0 || tl.Survivors[1] < 0 {
		t.Errorf("%s: survivors %v", label, tl.Survivors)
	}
}

// checkOutcomes replays the first encounters one by one and checks each
// outcome: a winner or a draw, never both; the first actor and first in
// order are roster indices or -1, and nobody acts first without someone
// having had a turn. draws: the ruleset fills Outcome.Draw (DrawNone
// exactly when a side won).
func checkOutcomes(t *testing.T, label string, g sim.Game, draws bool) {
	t.Helper()
	n := len(g.Roster())
	for i := int64(0); i < 20; i++ {
		o, _ := sim.Replay(g, 7, i, nil)
		bad := o.Winner < -1 || o.Winner > 1 || o.FirstActor < -1 || o.FirstActor >= n || o.FirstInOrder < -1 || o.FirstInOrder >= n ||
			(o.Winner >= 0 && o.Draw != sim.DrawNone) || (draws && o.Winner < 0 && o.Draw == sim.DrawNone) ||
			(draws && o.FirstInOrder < 0 && o.FirstActor >= 0)
		if bad {
			t.Errorf("%s: encounter %d: outcome %+v", label, i, o)
			return
		}
	}
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}
