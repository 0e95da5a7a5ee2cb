package cavaliers

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// Traits in Cavaliers (issue 33): the Go rule attack_ties: miss written as
// the library trait must_beat gives byte-identical counts; each hook does
// what its moment says, seen in exact outcomes of pinned fights.

func encounters(full int64) int64 {
	if testing.Short() {
		return full / 3
	}
	return full
}

func runN(t *testing.T, g *Game, n int64) *sim.Tally {
	t.Helper()
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 7, N: n, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

// sameTally reports whether two runs counted alike in everything but the
// trait counters (which only the trait form has).
func sameTally(t *testing.T, a, b *sim.Tally) {
	t.Helper()
	x, y := *a, *b
	x.Counts.Rules, y.Counts.Rules = nil, nil
	if !reflect.DeepEqual(x, y) {
		t.Errorf("the Go rule and the trait differ:\n Go:    wins %v draws %d counts %v\n trait: wins %v draws %d counts %v",
			a.Wins, a.Draws, a.Counts.Sides, b.Wins, b.Draws, b.Counts.Sides)
	}
}

const tiesDuel = `name: ties
ruleset: cavaliers
options: {spend: budget, attack_ties: %s}
max_rounds: 100
sides:
  - name: heroes
    combatants:
      - {name: A, specialty: timing, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, reprise: true}%s}
  - name: rivals
    combatants:
      - {name: B, specialty: impulse, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, reprise: true}%s}
`

func tiesSrc(ties, traits string) string {
	s := strings.Replace(tiesDuel, "%s", ties, 1)
	s = strings.Replace(s, "%s", traits, 1)
	return strings.Replace(s, "%s", traits, 1)
}

func TestTraitMustBeatIsTheGoRule(t *testing.T) {
	n := encounters(1_000_000)
	if raceEnabled {
		n = 20_000 // the same identity on fewer: the ordinary go test plays the million
	}
	goRule := compile(t, tiesSrc("miss", ""))
	trait := compile(t, tiesSrc("hit", ", traits: [must_beat]"))
	plain := compile(t, tiesSrc("hit", ""))
	a, b := runN(t, goRule, n), runN(t, trait, n)
	sameTally(t, a, b)
	if p := runN(t, plain, n/10); reflect.DeepEqual(p.Counts.Sides, runN(t, goRule, n/10).Counts.Sides) {
		t.Fatal("attack_ties changed nothing in this duel: the test shows nothing")
	}
	if b.Counts.Rules[0] == 0 || b.Counts.Rules[2] == 0 {
		t.Errorf("the trait never fired: %v", b.Counts.Rules)
	}
	// Every firing lowers the attack by exactly 1.
	if b.Counts.Rules[1] != -b.Counts.Rules[0] {
		t.Errorf("added %d over %d firings, want -1 each", b.Counts.Rules[1], b.Counts.Rules[0])
	}
}

// pinned is a one-Area fight with pinned initiative: A (total 10) acts
// before B (total 5); attack and defence are constants.
func pinned(aExtra, bExtra, rules string) string {
	return `name: pinned
ruleset: cavaliers
options: {spend: budget}
max_rounds: 3
` + rules + `sides:
  - name: heroes
    combatants:
      - {name: A, specialty: impulse, attribute: d10, initiative_dice: [10], hp: 20, attack: "5", defence: "5", damage: "3", policy: script` + aExtra + `}
  - name: rivals
    combatants:
      - {name: B, specialty: none, attribute: d10, initiative_dice: [5], hp: 20, attack: "4", defence: "5", damage: "2", policy: script` + bExtra + `}
`
}

func TestTraitHooks(t *testing.T) {
	cases := []struct {
		name           string
		a, b, rules    string
		hpA, hpB       int // hit points after 3 rounds
		order, wantLog string
	}{
		// No traits: A hits 5 vs 5 three times (9), B misses (4 < 5).
		{name: "none", hpA: 20, hpB: 11, order: "A B"},
		// Quick: B's total 5+6 ranks it first.
		{name: "initiative", b: ", traits: [{use: quick, params: {bonus: 6}}]", hpA: 20, hpB: 11, order: "B A", wantLog: "Quick: total += $bonus (total 5 -> 11)"},
		// Shield on A: B's 4 vs 5+1 still misses; on B: A's 5 vs 6 misses.
		{name: "attacked", b: ", traits: [shield]", hpA: 20, hpB: 20, order: "A B"},
		// hit: +2 damage on each of A's three hits.
		{name: "hit", a: ", traits: [{name: Heavy, on: hit, do: damage += 2}]", hpA: 20, hpB: 5, order: "A B"},
		// hit_taken: damage never below 0 (3 - 5).
		{name: "hit_taken", b: ", traits: [{name: Armour, on: hit_taken, do: damage -= 5}]", hpA: 20, hpB: 20, order: "A B", wantLog: "(damage 3 -> 0)"},
		// turn_start: two attacks a turn.
		{name: "turn_start", a: ", traits: [{name: Flurry, on: turn_start, do: grant action}]", hpA: 20, hpB: 2, order: "A B"},
		// dazed for 2 rounds, applied in round 1 (as A attacks): the
		// second round start after it ends it, so A loses round 2.
		{name: "dazed", b: ", traits: [{name: Daze, on: attacked, do: apply dazed to attacker for 2 rounds, uses: 1}]", hpA: 20, hpB: 14, order: "A B", wantLog: "A takes no action this turn"},
		// uses: 1/round renews each round: of A's two attacks a turn the
		// first is parried, the second hits (3 x 3); once a fight would
		// let five of six hit.
		{name: "per round", a: ", traits: [{name: Flurry, on: turn_start, do: grant action}]", b: ", traits: [{name: Parry, on: attacked, do: defence += 30, uses: 1/round}]", hpA: 20, hpB: 11, order: "A B"},
		// a house rule for one side.
		{name: "house", rules: "rules:\n  - {name: Blunt, side: heroes, on: hit, do: damage -= 1}\n", hpA: 20, hpB: 14, order: "A B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := compile(t, pinned(c.a, c.b, c.rules))
			_, _, log, tb := play(g, 1)
			if tb.HP(0) != c.hpA || tb.HP(1) != c.hpB {
				t.Errorf("hp A %d B %d, want %d %d\n%s", tb.HP(0), tb.HP(1), c.hpA, c.hpB, log)
			}
			if got := strings.Join(turns(log)[0], " "); got != c.order {
				t.Errorf("round 1 order %q, want %q\n%s", got, c.order, log)
			}
			if c.wantLog != "" && !strings.Contains(log.text, c.wantLog) {
				t.Errorf("the trace lacks %q:\n%s", c.wantLog, log)
			}
		})
	}
}

func TestTraitErrors(t *testing.T) {
	for _, c := range []struct{ a, want string }{
		{", traits: [{name: X, on: hit_roll, do: damage += 1}]", `cavaliers has no moment "hit_roll"`},
		{", traits: [{name: X, on: initiative, do: damage += 1}]", "damage does not exist at initiative"},
		{", traits: [{name: X, on: attack, do: apply stunned}]", `cavaliers has no condition "stunned"`},
		{", traits: [mustbeat]", `did you mean "must_beat"?`},
		{", traits: [{name: X, on: hit, do: damage += 1 as morale}]", "cavaliers has no bonus types: every bonus adds; write the amount without as morale"},
	} {
		_, err := compileErr(pinned(c.a, "", ""))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.a, err, c.want)
		}
	}
}

// A fight with traits allocates nothing per encounter either.
func TestTraitsNoAllocs(t *testing.T) {
	g := compile(t, tiesSrc("hit", ", traits: [must_beat, shield, second_wind]"))
	tb := g.NewTable().(*Table)
	c := sim.NewCounts(len(g.Counters()))
	c.Rules = make([]int64, len(g.RuleCounters()))
	var r rng.Stream
	var seed uint64
	allocs := testing.AllocsPerRun(200, func() {
		r.Seed(1, seed)
		seed++
		tb.Play(&r, &c, nil)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per encounter, want 0", allocs)
	}
}
