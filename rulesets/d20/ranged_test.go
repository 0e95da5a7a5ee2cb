package d20

// Rule tests for ranged attacks (issue 24 item 15), pinned rolls: initiative
// fixed, bonuses that make every roll but a natural 1 hit (or miss), and
// checks on the narrated bonus, which does not depend on the die.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/simtest"
)

// rangedYAML: S (side a, init 20) with ranged weapon w and extra fields
// shoots at T (side b, init 10); B is T's side's second combatant, A the
// shooter's ally; distance between the sides.
func rangedYAML(distance, w, sExtra, aLine, bLine string, rounds int) string {
	src := `
name: ranged
ruleset: d20
max_rounds: ` + strconv.Itoa(rounds) + `
distance: ` + distance + `
sides:
  - name: a
    combatants:
      - {name: S, ` + tough + `, initiative_roll: 20, ranged: ` + w + sExtra + `}
` + aLine + `
  - name: b
    combatants:
      - {name: T, ` + tough + `, speed: 0, initiative_roll: 10, policy: {name: test-script, do: idle}}
` + bLine
	return src
}

// shotLines returns the shots taken, each as "shooter target distance
// range-and-melee modifier" ("S T 105 ft -2").
func shotLines(ev simtest.Events) []string {
	var out []string
	for _, v := range ev.Ev {
		if v.Kind == sim.EvAction && v.Rule == "shoot" {
			out = append(out, fmt.Sprintf("%s %s %d ft %+d", ev.Name(v.Actor), ev.Name(v.Target), v.Amount, v.Roll))
		}
	}
	return out
}

// Range increments (issue 34 item 3): "Any attack at less than this
// distance is not penalized for range. However, each full range increment
// imposes a cumulative -2 penalty": by the text (option range_penalty: srd,
// the default) -2 per full increment of distance, so exactly one increment
// is -2; by the common table reading (range_penalty: table) -2 per started
// increment beyond the first, exactly one increment 0. At most 10
// increments for projectile weapons and 5 for thrown ones.
func TestRangePenalty(t *testing.T) {
	for _, tc := range []struct {
		dist, w, srd, table string
	}{
		{"95", "{bonus: 5, damage: 1, increment: 100}", "S T 95 ft +0", "S T 95 ft +0"},
		{"100", "{bonus: 5, damage: 1, increment: 100}", "S T 100 ft -2", "S T 100 ft +0"},
		{"105", "{bonus: 5, damage: 1, increment: 100}", "S T 105 ft -2", "S T 105 ft -2"},
		{"200", "{bonus: 5, damage: 1, increment: 100}", "S T 200 ft -4", "S T 200 ft -2"},
		{"995", "{bonus: 5, damage: 1, increment: 100}", "S T 995 ft -18", "S T 995 ft -18"},
		{"1000", "{bonus: 5, damage: 1, increment: 100}", "S T 1000 ft -20", "S T 1000 ft -18"},
		{"120", "{bonus: 5, damage: 1, increment: 120, reload: full}", "S T 120 ft -2", "S T 120 ft +0"},
		{"45", "{bonus: 5, damage: 1, increment: 10, thrown: true, ammo: 3}", "S T 45 ft -8", "S T 45 ft -8"},
		{"50", "{bonus: 5, damage: 1, increment: 10, thrown: true, ammo: 3}", "S T 50 ft -10", "S T 50 ft -8"},
	} {
		for _, opt := range []string{"srd", "table"} {
			want := tc.srd
			if opt == "table" {
				want = tc.table
			}
			src := strings.Replace(rangedYAML(tc.dist, tc.w, "", "", "", 1), "distance:", "options: {range_penalty: "+opt+"}\ndistance:", 1)
			r := play(t, g(t, src), 1)
			if got := shotLines(r.round(1)); len(got) != 1 || got[0] != want {
				t.Errorf("range_penalty %s, %s ft, %s: shots %q, want %q\n%s", opt, tc.dist, tc.w, got, want, r.dump())
			}
		}
	}
	// The default is the text's reading.
	r := play(t, g(t, rangedYAML("100", "{bonus: 5, damage: 1, increment: 100}", "", "", "", 1)), 1)
	if got := shotLines(r.round(1)); len(got) != 1 || got[0] != "S T 100 ft -2" {
		t.Errorf("default range_penalty at exactly one increment: %q, want -2", got)
	}
	// Beyond 10 (5 thrown) increments there is no shot: S closes in instead.
	for _, tc := range []struct{ dist, w string }{
		{"1005", "{bonus: 5, damage: 1, increment: 100}"},
		{"55", "{bonus: 5, damage: 1, increment: 10, thrown: true, ammo: 3}"},
	} {
		src := strings.Replace(rangedYAML(tc.dist, tc.w, "", "", "", 1), "{name: S, "+tough, "{name: S, "+tough+", speed: 0", 1)
		r := play(t, g(t, src), 1)
		if got := shotLines(r.ev); len(got) != 0 {
			t.Errorf("%s ft, %s: shot beyond the last increment: %q", tc.dist, tc.w, got)
		}
	}
}

// Into melee: -4 against a target engaged with one of the shooter's allies,
// unless Precise Shot; ammunition runs out.
func TestShootIntoMelee(t *testing.T) {
	ally := `      - {name: A, ` + tough + `, initiative_roll: 15, policy: {name: test-script, do: idle}}`
	shoot := ", policy: {name: test-script, shoot: true, target: T}"
	for _, tc := range []struct {
		extra, ally, want string
	}{
		{shoot, ally, "S T 0 ft -4"}, // A stands next to T
		{", precise_shot: true" + shoot, ally, "S T 0 ft +0"},
		{shoot, "", "S T 0 ft +0"}, // its own melee is not a friend's
	} {
		r := play(t, g(t, rangedYAML("0", "{bonus: 5, damage: 1, increment: 100}", tc.extra, tc.ally, "", 1)), 1)
		if got := shotLines(r.round(1)); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s: shots %q, want %q first\n%s", tc.extra, got, tc.want, r.dump())
		}
	}
	// Without the ally, S at 0 ft from T has T in its reach: the default
	// fights in melee (no shot).
	r := play(t, g(t, rangedYAML("0", "{bonus: 5, damage: 1, increment: 100}", "", "", "", 1)), 1)
	if got := shotLines(r.ev); len(got) != 0 {
		t.Errorf("default policy shot an enemy in its reach: %q", got)
	}
}

// Shooting while threatened provokes an attack of opportunity from each
// enemy threatening the shooter, before the shot.
func TestShootingProvokes(t *testing.T) {
	// M threatens S; S's readied shot at the caster K provokes M's attack
	// of opportunity first.
	src := `
name: provoke
ruleset: d20
max_rounds: 1
distance: 5
sides:
  - name: a
    combatants:
      - {name: S, ` + tough + `, initiative_roll: 20, ranged: {bonus: 5, damage: 1, increment: 100}, policy: {name: test-script, do: ready, trigger: enemy_casts, action: attack, shoot: true}}
  - name: b
    combatants:
      - {name: M, ` + tough + `, initiative_roll: 15, policy: {name: test-script, do: idle}}
      - {name: K, ` + tough + `, initiative_roll: 10, concentration: -20, spells: [{name: bolt, damage: 1, level: 1}], policy: {name: test-script, do: cast, spell: bolt, target: S}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "ready S rule^=shot/", "spell K rule=bolt", "initiative S K roll=10 rule=ready",
		"interrupt M rule='attack of opportunity'", "attack M S", "action S K rule=shoot", "attack S K")
}

// Reloading: a light crossbow shoots and reloads (a move action) every
// turn; a heavy one shoots every other turn (a full-round reload); a bow
// makes a full attack.
func TestReload(t *testing.T) {
	for _, tc := range []struct {
		w     string
		shots []int // shots in rounds 1..4
	}{
		{"{bonus: 5, damage: 1, increment: 80, reload: move}", []int{1, 1, 1, 1}},
		{"{bonus: 5, damage: 1, increment: 120, reload: full}", []int{1, 0, 1, 0}},
		{"{bonus: [5, 0], damage: 1, increment: 100}", []int{2, 2, 2, 2}},
		{"{bonus: [5, 0], damage: 1, increment: 100, ammo: 3}", []int{2, 1, 0, 0}},
	} {
		r := play(t, g(t, rangedYAML("30", tc.w, "", "", "", 4)), 1)
		for k, want := range tc.shots {
			if got := len(shotLines(r.round(k + 1))); got != want {
				t.Errorf("%s: round %d: %d shots, want %d\n%s", tc.w, k+1, got, want, r.dump())
			}
		}
		if strings.Contains(tc.w, "reload: move") && len(r.grep(r.round(1), "action S rule=reload amount=1")) != 1 {
			t.Errorf("light crossbow: no reload in round 1\n%s", r.dump())
		}
	}
}

// Validation: every ranged field, with file:line:col and what is valid.
func TestRangedErrors(t *testing.T) {
	for _, tc := range []struct{ w, want string }{
		{"{bonus: 5, damage: 1}", "ranged.increment: missing; give the range increment in feet"},
		{"{damage: 1, increment: 100}", "ranged.bonus: missing; give the ranged attack bonus"},
		{"{bonus: 5, increment: 100}", "ranged.damage: missing"},
		{"{bonus: 5, damage: 1, increment: 12}", "range increment 12 is not a multiple of 5 feet"},
		{"{bonus: 5, damage: 1, increment: 10, thrown: true}", "ranged.ammo: missing; a thrown weapon needs its supply"},
		{"{bonus: 5, damage: 1, increment: 10, thrown: true, ammo: 2, reload: move}", "a thrown weapon is not reloaded"},
		{"{bonus: [5, 0], damage: 1, increment: 80, reload: move}", "a crossbow shoots once a turn (reload move); give one bonus"},
		{"{bonus: 5, damage: 1, increment: 80, reload: slow}", "ranged.reload"},
		{"{bonus: 5, damage: 1, increment: 80, range: 3}", "ranged.range"},
		{"5", "expected a mapping such as {bonus: [6, 1], damage: 1d8, crit: 20/x3, increment: 100}"},
	} {
		_, err := loadAndCompile(rangedYAML("30", tc.w, "", "", "", 1))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "rules_test.yaml:9:") {
			t.Errorf("%s: error %v, want rules_test.yaml:9:...%s", tc.w, err, tc.want)
		}
	}
}

// A ranged fight (bows, a heavy crossbow, a readied shot, melee once
// joined) allocates nothing per encounter either.
func TestRangedPlayDoesNotAllocate(t *testing.T) {
	gm := g(t, `
name: alloc
ruleset: d20
max_rounds: 20
distance: 120
sides:
  - name: a
    combatants:
      - {name: B, hp: 12, ac: 14, attacks: [2], damage: 1d6, ranged: {bonus: [5, 0], damage: 1d8, increment: 100, ammo: 6}}
      - {name: X, hp: 12, ac: 14, attacks: [2], damage: 1d6, ranged: {bonus: 4, damage: 1d10, increment: 120, reload: full}, policy: {name: test-script, do: ready, trigger: enemy_casts, action: attack, shoot: true, rounds: [1]}}
  - name: b
    combatants:
      - {name: O, count: 2, hp: 10, ac: 13, attacks: [5], damage: 1d10+2}
      - {name: K, hp: 8, ac: 12, attacks: [1], damage: 1d4, spells: [{name: bolt, damage: 2d6, level: 1, uses: 3}], policy: {name: test-script, do: cast, spell: bolt}}
`)
	tb := gm.NewTable()
	c := sim.NewCounts(len(gm.Counters()))
	var r rng.Stream
	seed := uint64(0)
	if a := testing.AllocsPerRun(50, func() {
		seed++
		r.Seed(7, seed)
		tb.Play(&r, &c, nil)
	}); a != 0 {
		t.Errorf("Play allocates %.1f times per encounter", a)
	}
}
