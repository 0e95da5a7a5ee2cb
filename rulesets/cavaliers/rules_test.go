package cavaliers

import (
	"fmt"
	"reflect"
	"simctl/sim"
	"strings"
	"testing"
)

// Rule tests: pinned initiative dice (initiative_dice), constant attack and
// defence (attack 10 vs defence 5 always hits, attack 1 always misses),
// damage 1 and 100 hp so nobody drops, and the scripted test policy.

const hit = `hp: 100, attack: "10", defence: "5", damage: "1"`
const miss = `hp: 100, attack: "1", defence: "5", damage: "1"`

func scen(rounds int, spend string, sideA, sideB string) string {
	return fmt.Sprintf("ruleset: cavaliers\nmax_rounds: %d\noptions: {spend: %s}\nsides:\n"+
		"  - name: a\n    combatants:\n%s  - name: b\n    combatants:\n%s", rounds, spend, sideA, sideB)
}

func row(format string, args ...any) string {
	return "      - {" + fmt.Sprintf(format, args...) + "}\n"
}

// Seize the Initiative: the seizer acts right before the one about to
// act, for that round only; the next round it is back at its place. A
// second seizer may jump ahead of the first. Nobody acts twice a round.
func TestSeizeOrderAndReturn(t *testing.T) {
	a := row("name: Fast, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: script", hit) +
		row("name: Seizer, specialty: impulse, attribute: d8, pool: 2d6, initiative_dice: [6, 1, 1], %s, policy: {name: script, seize: [Fast]}", hit)
	b := row("name: Mid, specialty: none, attribute: d10, initiative_dice: [9], %s, policy: script", hit)
	want := map[string][][]string{
		// Seizer has one [+]: under budget it seizes once.
		"budget": {{"Seizer", "Fast", "Mid"}, {"Fast", "Mid", "Seizer"}, {"Fast", "Mid", "Seizer"}},
		// Under unlock one [+] unlocks Seize (price 1) every round.
		"unlock": {{"Seizer", "Fast", "Mid"}, {"Seizer", "Fast", "Mid"}, {"Seizer", "Fast", "Mid"}},
	}
	for _, spend := range []string{"budget", "unlock"} {
		g := compile(t, scen(3, spend, a, b))
		_, c, log, _ := play(g, 1)
		if got := turns(log); !reflect.DeepEqual(got, want[spend]) {
			t.Errorf("%s: turn order %v, want %v\n%s", spend, got, want[spend], log)
		}
		if n, w := count(g, c, 0, "seizes"), map[string]int64{"budget": 1, "unlock": 3}[spend]; n != w {
			t.Errorf("%s: seizes %d, want %d", spend, n, w)
		}
	}
}

func TestSeizeChain(t *testing.T) {
	// Seizer (total 8) seizes before Fast; Counter (7) does not want to
	// act before Fast but seizes before Seizer: Counter, Seizer, Fast, Mid.
	a := row("name: Fast, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: script", hit) +
		row("name: Seizer, specialty: impulse, attribute: d8, pool: 2d6, initiative_dice: [6, 1, 1], %s, policy: {name: script, seize: [Fast]}", hit)
	b := row("name: Mid, specialty: none, attribute: d10, initiative_dice: [9], %s, policy: script", hit) +
		row("name: Counter, specialty: impulse, attribute: d8, initiative_dice: [7], %s, policy: {name: script, seize: [Seizer]}", hit)
	g := compile(t, scen(2, "budget", a, b))
	_, c, log, _ := play(g, 1)
	want := [][]string{{"Counter", "Seizer", "Fast", "Mid"}, {"Fast", "Mid", "Seizer", "Counter"}}
	if got := turns(log); !reflect.DeepEqual(got, want) {
		t.Errorf("turn order %v, want %v\n%s", got, want, log)
	}
	if count(g, c, 0, "seizes") != 1 || count(g, c, 1, "seizes") != 1 {
		t.Errorf("seizes %d/%d, want 1/1", count(g, c, 0, "seizes"), count(g, c, 1, "seizes"))
	}
}

func TestSeizeNeedsPriceAndSpecialty(t *testing.T) {
	// Vigilance pays 3 for Seize: one [+] does not buy it, even under
	// unlock; specialty none never seizes.
	a := row("name: Fast, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: script", hit) +
		row("name: Vig, specialty: vigilance, attribute: d8, pool: 2d6, initiative_dice: [6, 1, 1], %s, policy: {name: script, seize: ['*']}", hit) +
		row("name: Plain, specialty: none, attribute: d8, pool: 2d6, initiative_dice: [6, 6, 6], %s, policy: {name: script, seize: ['*']}", hit)
	b := row("name: Mid, specialty: none, attribute: d10, initiative_dice: [9], %s, policy: script", hit)
	for _, spend := range []string{"budget", "unlock"} {
		g := compile(t, scen(2, spend, a, b))
		_, c, log, _ := play(g, 1)
		want := [][]string{{"Plain", "Fast", "Mid", "Vig"}, {"Plain", "Fast", "Mid", "Vig"}}
		if got := turns(log); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: turn order %v, want %v\n%s", spend, got, want, log)
		}
		if n := count(g, c, 0, "seizes"); n != 0 {
			t.Errorf("%s: %d seizes, want 0", spend, n)
		}
	}
}

// Interpose: redirect one attack to the interposer, once a round.
func TestInterposeRedirectOncePerRound(t *testing.T) {
	a := row("name: Ward, specialty: none, attribute: d6, initiative_dice: [1], %s, policy: script", hit) +
		row("name: Guard, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, policy: {name: script, interpose: [Ward]}", hit)
	b := row("name: X1, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: {name: script, target: Ward}", hit) +
		row("name: X2, specialty: none, attribute: d10, initiative_dice: [9], %s, policy: {name: script, target: Ward}", hit)
	// Guard and Ward hit X1 (the first enemy) each round: not checked.
	cases := []struct {
		spend             string
		ward, guard, uses int
	}{
		{"budget", 100 - 3, 100 - 1, 1}, // one [+]: one Interpose in the fight
		{"unlock", 100 - 2, 100 - 2, 2}, // once a round
	}
	for _, tc := range cases {
		g := compile(t, scen(2, tc.spend, a, b))
		_, c, log, tb := play(g, 1)
		ward, guard := idx(t, g, "Ward"), idx(t, g, "Guard")
		if tb.HP(ward) != tc.ward || tb.HP(guard) != tc.guard {
			t.Errorf("%s: Ward hp %d, Guard hp %d; want %d, %d\n%s", tc.spend, tb.HP(ward), tb.HP(guard), tc.ward, tc.guard, log)
		}
		if n := count(g, c, 0, "interposes"); n != int64(tc.uses) {
			t.Errorf("%s: interposes %d, want %d", tc.spend, n, tc.uses)
		}
		// Round 1: X1's attack is taken by Guard, X2's reaches Ward.
		if !log.ev.Then(t, "interrupt Guard X1 rule=interpose", "attack X1 Guard") ||
			!log.has("attack X2 Ward") {
			t.Errorf("%s: round 1 narration wrong\n%s", tc.spend, log)
		}
	}
}

func idx(t *testing.T, g *Game, name string) int {
	t.Helper()
	i, ok := g.Index(name)
	if !ok {
		t.Fatalf("no combatant %s", name)
	}
	return i
}

// Interpose from an adjacent Area moves the interposer; the Move can be
// blocked by an opponent there, and then the Interpose is spent for
// nothing. An interposer two Areas away cannot.
func TestInterposeWithMove(t *testing.T) {
	a := row("name: Ward, specialty: none, attribute: d6, initiative_dice: [1], %s, area: 0, policy: script", hit) +
		row("name: Guard, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, area: 1, policy: {name: script, interpose: [Ward]}", hit) +
		row("name: Far, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, area: 2, policy: {name: script, interpose: [Ward]}", hit)
	b := row("name: X1, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: {name: script, target: Ward}", hit)
	g := compile(t, scen(1, "unlock", a, b))
	_, c, log, tb := play(g, 1)
	if tb.Area(idx(t, g, "Guard")) != 0 || tb.HP(idx(t, g, "Guard")) != 99 || tb.HP(idx(t, g, "Ward")) != 100 {
		t.Errorf("Guard should have moved to Area 0 and taken the hit\n%s", log)
	}
	if count(g, c, 0, "interpose_moves") != 1 || count(g, c, 0, "moves") != 1 || count(g, c, 0, "interposes") != 1 {
		t.Errorf("counters: interpose_moves %d moves %d interposes %d; want 1 1 1",
			count(g, c, 0, "interpose_moves"), count(g, c, 0, "moves"), count(g, c, 0, "interposes"))
	}
	if tb.Area(idx(t, g, "Far")) != 2 {
		t.Errorf("Far (two Areas away) moved\n%s", log)
	}

	// A Sentry in Guard's Area blocks the Move: Ward takes the attack,
	// Guard's Interpose is spent (X2's attack is not interposed either).
	b2 := b + row("name: X2, specialty: none, attribute: d10, initiative_dice: [9], %s, policy: {name: script, target: Ward}", hit) +
		row("name: Sentry, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, area: 1, policy: {name: script, block: [Guard]}", hit)
	a2 := row("name: Ward, specialty: none, attribute: d6, initiative_dice: [1], %s, area: 0, policy: script", hit) +
		row("name: Guard, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, area: 1, policy: {name: script, interpose: [Ward]}", hit)
	g = compile(t, scen(1, "budget", a2, b2))
	_, c, log, tb = play(g, 1)
	if tb.Area(idx(t, g, "Guard")) != 1 || tb.HP(idx(t, g, "Ward")) != 98 {
		t.Errorf("blocked Guard: Area %d (want 1), Ward hp %d (want 98)\n%s", tb.Area(idx(t, g, "Guard")), tb.HP(idx(t, g, "Ward")), log)
	}
	if count(g, c, 0, "interposes") != 1 || count(g, c, 0, "moves_blocked") != 1 || count(g, c, 1, "blocks") != 1 ||
		count(g, c, 0, "interpose_moves") != 0 || count(g, c, 0, "raises_spent") != 1 {
		t.Errorf("counters wrong: a %v b %v\n%s", c.Sides[:c.PerSide], c.Sides[c.PerSide:], log)
	}
}

// Interpose to block: an opponent in the same Area cannot leave it; the
// block shares the once-a-round Interpose with redirects.
func TestInterposeBlock(t *testing.T) {
	a := row("name: Blocker, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, policy: {name: script, block: ['*'], interpose: [Other]}", hit) +
		row("name: Other, specialty: none, attribute: d6, initiative_dice: [1], %s, policy: script", hit) +
		row("name: Far, specialty: none, attribute: d6, initiative_dice: [1], %s, area: 1, policy: script", hit)
	b := row("name: M1, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: {name: script, move: 1, target: Other}", hit) +
		row("name: M2, specialty: none, attribute: d10, initiative_dice: [9], %s, policy: {name: script, move: 1}", hit)
	for _, tc := range []struct {
		spend  string
		m1Area int // after round 2
		blocks int64
	}{{"budget", 1, 1}, {"unlock", 0, 2}} {
		g := compile(t, scen(2, tc.spend, a, b))
		_, c, log, tb := play(g, 1)
		if !log.ev.Then(t, "interrupt Blocker M1 roll=0 need=1 rule=block", "attack M1 Other") {
			t.Errorf("%s: M1 not blocked, or its attack changed\n%s", tc.spend, log)
		}
		// The block spent Blocker's Interpose: M1's attack on Other is
		// not redirected and M2 walks out.
		if log.has("interrupt * M1 rule=interpose") || !log.has("move M2 - roll=0 need=1 rule=") {
			t.Errorf("%s: once-a-round limit not shared\n%s", tc.spend, log)
		}
		if tb.Area(idx(t, g, "M1")) != tc.m1Area || tb.Area(idx(t, g, "M2")) != 1 {
			t.Errorf("%s: M1 in Area %d (want %d), M2 in %d\n%s", tc.spend, tb.Area(idx(t, g, "M1")), tc.m1Area, tb.Area(idx(t, g, "M2")), log)
		}
		if count(g, c, 0, "blocks") != tc.blocks || count(g, c, 1, "moves_blocked") != tc.blocks || count(g, c, 0, "interposes") != tc.blocks {
			t.Errorf("%s: blocks %d moves_blocked %d interposes %d, want %d", tc.spend,
				count(g, c, 0, "blocks"), count(g, c, 1, "moves_blocked"), count(g, c, 0, "interposes"), tc.blocks)
		}
	}
}

// Reprise Attack: only after a failed attack, once a round.
func TestReprise(t *testing.T) {
	b := row("name: Dummy, specialty: none, attribute: d6, initiative_dice: [1], %s, policy: script", miss)
	cases := []struct {
		name, spend, stats, dice string
		attacks, reprises        int64
	}{
		// Always hits: never a reprise, even with every ability unlocked.
		{"hits/unlock", "unlock", hit, "[6]", 3, 0},
		// Always misses, one [+]: Timing reprises once in the fight
		// (budget) or once every round (unlock), never twice a round.
		{"misses/budget", "budget", miss, "[6]", 4, 1},
		{"misses/unlock", "unlock", miss, "[6]", 6, 3},
		// Two [+] under budget: two reprises, then none.
		{"misses/budget2", "budget", miss, "[6, 6]", 5, 2},
		// No [+]: nothing.
		{"misses/none", "unlock", miss, "[5, 5]", 3, 0},
	}
	for _, tc := range cases {
		pool := ""
		if strings.Count(tc.dice, ",") == 1 {
			pool = "pool: d6, "
		}
		a := row("name: Timer, specialty: timing, attribute: d10, %sinitiative_dice: %s, %s, policy: {name: script, reprise: true}", pool, tc.dice, tc.stats)
		g := compile(t, scen(3, tc.spend, a, b))
		_, c, log, _ := play(g, 1)
		if n, r := count(g, c, 0, "attacks"), count(g, c, 0, "reprises"); n != tc.attacks || r != tc.reprises {
			t.Errorf("%s: attacks %d reprises %d, want %d %d\n%s", tc.name, n, r, tc.attacks, tc.reprises, log)
		}
	}
}

// With random dice, every reprise follows a miss by the same attacker.
func TestRepriseOnlyAfterMiss(t *testing.T) {
	a := row(`name: Timer, specialty: timing, attribute: d6, initiative_dice: [6], hp: 100, attack: 1d6, defence: "3", damage: "1", policy: {name: script, reprise: true}`)
	b := row(`name: Foe, specialty: none, attribute: d6, hp: 100, attack: 1d6, defence: "4", damage: "1", policy: script`)
	g := compile(t, scen(20, "unlock", a, b))
	total := 0
	for seed := uint64(1); seed <= 20; seed++ {
		_, c, log, _ := play(g, seed)
		n := int(count(g, c, 0, "reprises"))
		// Each reprise, with the attack just before it.
		ev, k := log.ev.Ev, 0
		perRound := map[int]int{}
		for j, v := range ev {
			if v.Kind != sim.EvAction || v.Rule != "reprise" {
				continue
			}
			k++
			perRound[v.Round]++
			if j == 0 || ev[j-1].Kind != sim.EvAttack || ev[j-1].Actor != v.Actor || ev[j-1].OK {
				t.Fatalf("seed %d: a reprise by %s not right after its own miss\n%s", seed, log.ev.Name(v.Actor), log)
			}
		}
		if k != n {
			t.Fatalf("seed %d: %d reprises counted, %d recorded\n%s", seed, n, k, log)
		}
		total += n
		for r, k := range perRound {
			if k > 1 {
				t.Fatalf("seed %d round %d: %d reprises", seed, r, k)
			}
		}
	}
	if total == 0 {
		t.Fatal("no reprise in 20 encounters of 20 rounds: the test checks nothing")
	}
}

// The ladders and the two readings of the success table.
func TestBudgetVersusUnlock(t *testing.T) {
	a := row("name: Imp, specialty: impulse, attribute: d8, pool: 2d6, initiative_dice: [6, 6, 6], %s, policy: script", hit) +
		row("name: Vig, specialty: vigilance, attribute: d8, initiative_dice: [6], %s, policy: script", hit) +
		row("name: Tim, specialty: timing, attribute: d8, pool: d6, initiative_dice: [6, 6], %s, policy: script", hit)
	b := row("name: Foe, specialty: none, attribute: d6, initiative_dice: [1], %s, policy: script", hit)
	type step struct {
		who  string
		a    Ability
		can  bool
		plus int // after paying, when can
	}
	cases := map[string][]step{
		"budget": {
			{"Imp", Seize, true, 2}, {"Imp", Seize, false, 0}, // once a round
			{"Imp", Interpose, true, 0}, {"Imp", Reprise, false, 0}, // 3 [+]: 1 + 2, nothing left for 3
			{"Vig", Reprise, false, 0}, {"Vig", Seize, false, 0}, {"Vig", Interpose, true, 0},
			{"Tim", Interpose, false, 0}, {"Tim", Seize, true, 0}, {"Tim", Reprise, false, 0}, // 2 [+] spent on Seize
		},
		"unlock": {
			{"Imp", Seize, true, 3}, {"Imp", Seize, false, 3},
			{"Imp", Interpose, true, 3}, {"Imp", Reprise, true, 3},
			{"Vig", Reprise, false, 1}, {"Vig", Seize, false, 1}, {"Vig", Interpose, true, 1},
			{"Tim", Interpose, false, 2}, {"Tim", Seize, true, 2}, {"Tim", Reprise, true, 2},
		},
	}
	for spend, steps := range cases {
		g := compile(t, scen(1, spend, a, b))
		_, _, _, tb := play(g, 1) // the fight leaves everyone present and every ability unused (script uses none)
		for _, s := range steps {
			i := idx(t, g, s.who)
			if got := tb.Can(i, s.a); got != s.can {
				t.Fatalf("%s: %s can %s = %v, want %v (plus %d)", spend, s.who, s.a, got, s.can, tb.Plus(i))
			}
			if s.can {
				tb.pay(i, s.a)
				if tb.Plus(i) != s.plus {
					t.Fatalf("%s: %s after paying for %s has %d [+], want %d", spend, s.who, s.a, tb.Plus(i), s.plus)
				}
			}
		}
		// A new round lifts the once-a-round marks, not the spending.
		tb.playRound()
		imp := idx(t, g, "Imp")
		if tb.Can(imp, Seize) != (spend == "unlock") {
			t.Errorf("%s: next round Imp can seize = %v", spend, tb.Can(imp, Seize))
		}
	}
	for s, want := range map[Specialty][3]int{Impulse: {1, 2, 3}, Vigilance: {3, 1, 2}, Timing: {2, 3, 1}, NoSpecialty: {0, 0, 0}} {
		got := [3]int{Price(s, Seize), Price(s, Interpose), Price(s, Reprise)}
		if got != want {
			t.Errorf("%s prices (seize, interpose, reprise) %v, want %v", s, got, want)
		}
	}
}

// A combatant entering mid-fight rolls then and is ranked among the
// others; until it enters its side is not beaten.
func TestEnteringMidFight(t *testing.T) {
	a := row("name: Hero, specialty: none, attribute: d10, initiative_dice: [5], %s, policy: script", hit)
	b := row(`name: Mook, specialty: none, attribute: d6, initiative_dice: [1], hp: 1, attack: "1", defence: "5", damage: "1", policy: script`) +
		row("name: Late, specialty: impulse, attribute: d10, initiative_dice: [9], %s, enters: 3, area: 1, policy: {name: script, move: 0}", hit)
	g := compile(t, scen(5, "budget", a, b))
	o, c, log, tb := play(g, 1)
	want := [][]string{{"Hero"}, {"Hero"}, {"Late", "Hero"}, {"Late", "Hero"}, {"Late", "Hero"}}
	if got := turns(log); !reflect.DeepEqual(got, want) {
		t.Errorf("turns %v, want %v\n%s", got, want, log)
	}
	if o.Winner != -1 || o.Rounds != 5 {
		t.Errorf("outcome %+v: side b must not lose while Late is still to come", o)
	}
	late := idx(t, g, "Late")
	if tb.Raises(late) != 1 || count(g, c, 1, "raises") != 1 || count(g, c, 1, "entered") != 1 || tb.Rank(late) != 0 {
		t.Errorf("Late: raises %d, rank %d, counters raises %d entered %d", tb.Raises(late), tb.Rank(late), count(g, c, 1, "raises"), count(g, c, 1, "entered"))
	}
	if !log.ev.Then(t, "round round=3", "initiative Late roll=9") {
		t.Errorf("Late did not roll on entering in round 3\n%s", log)
	}
}

// Ties by option init_ties (pinned equal totals): attribute puts the
// larger attribute die first, raises the one with more [+].
func TestTieRules(t *testing.T) {
	a := row("name: Small, specialty: none, attribute: d6, pool: d10, initiative_dice: [1, 7], %s, policy: script", hit) // 8, [+]1
	b := row("name: Big, specialty: none, attribute: d10, pool: d6, initiative_dice: [4, 4], %s, policy: script", hit)   // 8, [+]0
	for ties, first := range map[string]string{"attribute": "Big", "raises": "Small"} {
		text := strings.Replace(scen(1, "budget", a, b), "{spend: budget}", "{init_ties: "+ties+"}", 1)
		g := compile(t, text)
		for seed := uint64(1); seed <= 10; seed++ {
			_, _, log, _ := play(g, seed)
			if got := turns(log)[0][0]; got != first {
				t.Fatalf("init_ties %s seed %d: %s first, want %s", ties, seed, got, first)
			}
		}
	}
}

// A turn is a Move to an adjacent Area then an attack there.
func TestMoveThenAttack(t *testing.T) {
	a := row("name: Runner, specialty: none, attribute: d10, initiative_dice: [10], %s, area: 0, policy: {name: script, move: 2}", hit)
	b := row("name: Post, specialty: none, attribute: d6, initiative_dice: [1], %s, area: 2, policy: script", miss)
	g := compile(t, scen(2, "budget", a, b))
	_, c, log, tb := play(g, 1)
	if tb.Area(0) != 2 || tb.HP(1) != 99 || count(g, c, 0, "moves") != 2 || count(g, c, 0, "attacks") != 1 {
		t.Errorf("Runner should reach Area 2 in round 2 and hit once\n%s", log)
	}
}
