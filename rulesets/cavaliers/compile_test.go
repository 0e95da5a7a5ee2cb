package cavaliers

import (
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		name, combatant string
		want            []string // substrings of the error, in order
	}{
		{"pool constant", `{name: X, specialty: impulse, attribute: d8, pool: 2d6+1, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "pool", "whole dice added together"}},
		{"pool keep", `{name: X, specialty: impulse, attribute: d8, pool: 4d6kh3, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "no constants, subtraction or keep-highest"}},
		{"pool syntax", `{name: X, specialty: impulse, attribute: d8, pool: 2d6+x, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "bad dice expression"}},
		{"pool d1", `{name: X, specialty: impulse, attribute: d8, pool: 1d1, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "2 or more sides"}},
		{"pool too big", `{name: X, specialty: impulse, attribute: d8, pool: 16d6, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "16 skill dice; at most 15"}},
		{"attribute", `{name: X, specialty: impulse, attribute: d12, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "attribute", `"d12" is not valid`, `"d6", "d8", "d10"`}},
		{"specialty typo", `{name: X, specialty: impluse, attribute: d8, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", `did you mean "impulse"`}},
		{"missing", `{name: X, hp: 5, damage: 1d6}`,
			[]string{"specialty: missing", "attribute: missing", "attack: missing", "defence: missing"}},
		{"pinned length", `{name: X, specialty: timing, attribute: d8, pool: 2d6, initiative_dice: [3, 4], hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "2 results for a pool of 3 dice (d8+2d6)"}},
		{"pinned range", `{name: X, specialty: timing, attribute: d8, pool: 2d6, initiative_dice: [3, 7, 1], hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "result 7 of die 2 is above its d6"}},
		{"unused ac", `{name: X, specialty: timing, attribute: d8, ac: 15, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "cavaliers does not use ac", "defence"}},
		{"unused initiative_roll", `{name: X, specialty: timing, attribute: d8, initiative_roll: 3, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "initiative_dice"}},
		{"area", `{name: X, specialty: timing, attribute: d8, area: 16, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "16 is out of range"}},
		{"enters late", `{name: X, specialty: timing, attribute: d8, enters: 11, hp: 5, attack: 2d6, defence: 7, damage: 1d6}`,
			[]string{"test.yaml:6:", "after max_rounds 10"}},
		{"damage", `{name: X, specialty: timing, attribute: d8, hp: 5, attack: 2d6, defence: 7, damage: 1d4-4}`,
			[]string{"test.yaml:6:", "can never be above 0"}},
		{"policy", `{name: X, specialty: timing, attribute: d8, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: nosuch}`,
			[]string{"test.yaml:6:", `unknown policy "nosuch"`, "script"}},
	}
	other := "      - {name: Y, specialty: none, attribute: d6, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: script}\n"
	for _, tc := range cases {
		text := "ruleset: cavaliers\nmax_rounds: 10\nsides:\n  - name: a\n    combatants:\n      - " + tc.combatant + "\n  - name: b\n    combatants:\n" + other
		_, err := compileErr(text)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := err.Error()
		pos := 0
		for _, w := range tc.want {
			k := strings.Index(msg[pos:], w)
			if k < 0 {
				t.Errorf("%s: error lacks %q (in order):\n%s", tc.name, w, msg)
				break
			}
			pos += k + len(w)
		}
	}
}

func TestCompileOptionsAndSides(t *testing.T) {
	base := "ruleset: cavaliers\n%s\nsides:\n  - name: a\n%s    combatants:\n      - {name: X, specialty: timing, attribute: d8, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: script}\n" +
		"  - name: b\n    combatants:\n      - {name: Y, specialty: none, attribute: d6, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: script}\n"
	cases := []struct{ top, side, want string }{
		{"options: {spend: unlok}", "", `did you mean "unlock"`},
		{"options: {raise_on: 0}", "", "0 is out of range"},
		{"options: {rasie_on: 5}", "", `unknown field "rasie_on" (did you mean "raise_on"?)`},
		{"options: {init_ties: high}", "", `"random", "attribute", "raises"`},
		{"distance: 30", "", "leave distance at 0"},
		{"max_rounds: 5", "    aware: false\n", "no surprise rule"},
	}
	for _, tc := range cases {
		_, err := compileErr(strings.Replace(strings.Replace(base, "%s", tc.top, 1), "%s", tc.side, 1))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.top+tc.side, err, tc.want)
		}
	}
	g, err := compileErr(strings.Replace(strings.Replace(base, "%s", "options: {raise_on: 4, spend: unlock, init_ties: raises, attack_ties: miss}", 1), "%s", "", 1))
	if err != nil {
		t.Fatal(err)
	}
	if (g.Opt != Options{RaiseOn: 4, Spend: Unlock, Ties: TiesRaises, AttackTies: false}) {
		t.Errorf("options %+v", g.Opt)
	}
	if g.C[0].Pool.String() != "d8" || g.C[0].Specialty != Timing {
		t.Errorf("combatant %+v", g.C[0])
	}
}

// attack_ties: with attack 5 against defence 5 every attack hits (hit) or
// misses (miss).
func TestAttackTies(t *testing.T) {
	for ties, hits := range map[string]int64{"hit": 2, "miss": 0} {
		a := row(`name: A, specialty: none, attribute: d6, initiative_dice: [6], hp: 100, attack: "5", defence: "5", damage: "1", policy: script`)
		b := row(`name: B, specialty: none, attribute: d6, initiative_dice: [1], hp: 100, attack: "5", defence: "5", damage: "1", policy: script`)
		g := compile(t, strings.Replace(scen(2, "budget", a, b), "{spend: budget}", "{attack_ties: "+ties+"}", 1))
		_, c, _, _ := play(g, 1)
		if got := count(g, c, 0, "hits"); got != hits {
			t.Errorf("attack_ties %s: %d hits, want %d", ties, got, hits)
		}
	}
}

// The hot loop allocates nothing per encounter: every ability in play
// (seize, interpose with and without a Move, block, reprise, entering).
func TestPlayAllocatesNothing(t *testing.T) {
	a := row("name: Imp, count: 2, specialty: impulse, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, seize: ['*'], interpose: ['*'], reprise: true, block: ['*']}") +
		row("name: Vig, specialty: vigilance, attribute: d10, pool: 2d6, area: 1, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, interpose: ['*'], reprise: true, block: ['*']}")
	b := row("name: Tim, count: 2, specialty: timing, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, seize: ['*'], interpose: ['*'], reprise: true, move: 1}") +
		row("name: Late, specialty: vigilance, attribute: d8, pool: 2d6, enters: 2, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, interpose: ['*'], block: ['*']}")
	g := compile(t, scen(30, "unlock", a, b))
	tb := g.NewTable()
	c := sim.NewCounts(len(g.Counters()))
	var r rng.Stream
	i := uint64(0)
	allocs := testing.AllocsPerRun(2000, func() {
		r.Seed(3, i)
		i++
		tb.Play(&r, &c, nil)
	})
	if allocs != 0 {
		t.Errorf("%.2f allocations per encounter, want 0", allocs)
	}
	for _, name := range []string{"seizes", "interposes", "reprises", "blocks", "moves", "entered"} {
		if count(g, c, 0, name)+count(g, c, 1, name) == 0 {
			t.Errorf("no %s in 2000 encounters: the test does not cover it", name)
		}
	}
}
