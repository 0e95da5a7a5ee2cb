package cavaliers

import (
	"fmt"
	"reflect"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// The referee's shortcuts of issue 38's third pass against the
// computations they replace (the default policy's are in package agents).

// ableChecker wraps a policy: at the first decision of each round (Seize,
// Move or Target: nothing has been paid or hit yet that round) it checks
// the round's able masks against the loop over the ranking they replace,
// and at every decision that whoever can use an ability is in its mask.
type ableChecker struct {
	Policy
	fail  *string
	round *int
	n     *int
}

func (p ableChecker) failf(format string, args ...any) {
	if *p.fail == "" {
		*p.fail = fmt.Sprintf(format, args...)
	}
}

func (p ableChecker) check(t *Table) {
	if t.round != *p.round {
		*p.round = t.round
		*p.n++
		// The loop playRound made before the masks.
		var want [numAbilities]uint64
		for _, i := range t.rank {
			if f := &t.f[i]; f.plus > 0 && t.Present(i) {
				for a, pr := range prices[f.spec] {
					if pr > 0 && f.plus >= pr {
						want[a] |= 1 << uint(i)
					}
				}
			}
		}
		if want != t.able {
			p.failf("round %d: able %b, the loop says %b", t.round, t.able, want)
		}
		// The order, not copied from the ranking when nothing changed
		// it, is the ranking at the start of a round.
		if fmt.Sprint(t.order) != fmt.Sprint(t.rank) {
			p.failf("round %d: order %v, ranking %v", t.round, t.order, t.rank)
		}
	}
	for j := range t.f {
		for a := Ability(0); a < numAbilities; a++ {
			if t.can(j, a) && t.able[a]&(1<<uint(j)) == 0 {
				p.failf("round %d: %s can use %s, not in its mask %b", t.round, t.name(j), a, t.able[a])
			}
		}
	}
}

func (p ableChecker) Move(t *Table, self int) int     { p.check(t); return p.Policy.Move(t, self) }
func (p ableChecker) Target(t *Table, self int) int   { p.check(t); return p.Policy.Target(t, self) }
func (p ableChecker) Seize(t *Table, s, n int) bool   { p.check(t); return p.Policy.Seize(t, s, n) }
func (p ableChecker) Reprise(t *Table, s, d int) bool { p.check(t); return p.Policy.Reprise(t, s, d) }

// TestAbleMasksMatchLoop: on every round of 3,000 encounters of a fight
// with every ability in play (seize, interpose with and without a Move,
// block, reprise, a late entry), under both readings of the success
// table, the abilities' masks equal the loop over the ranking, and the
// round's order starts as the ranking.
func TestAbleMasksMatchLoop(t *testing.T) {
	a := row("name: Imp, count: 2, specialty: impulse, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, seize: ['*'], interpose: ['*'], reprise: true, block: ['*']}") +
		row("name: Vig, specialty: vigilance, attribute: d10, pool: 2d6, area: 1, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, interpose: ['*'], reprise: true, block: ['*']}")
	b := row("name: Tim, count: 2, specialty: timing, attribute: d8, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, seize: ['*'], interpose: ['*'], reprise: true, move: 1}") +
		row("name: Late, specialty: vigilance, attribute: d8, pool: 2d6, enters: 2, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: script, interpose: ['*'], block: ['*']}") +
		row("name: Plain, specialty: none, attribute: d6, pool: 2d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: script")
	for _, spend := range []string{"budget", "unlock"} {
		g := compile(t, scen(30, spend, a, b))
		var fail string
		round, n := 0, 0
		for i := range g.C {
			g.C[i].Policy = ableChecker{g.C[i].Policy, &fail, &round, &n}
		}
		tb := g.NewTable()
		c := sim.NewCounts(len(g.Counters()))
		var r rng.Stream
		for e := uint64(0); e < 3000; e++ {
			round = 0
			r.Seed(4, e)
			tb.Play(&r, &c, nil)
		}
		if fail != "" {
			t.Errorf("%s: %s", spend, fail)
		}
		if n == 0 {
			t.Errorf("%s: no round checked", spend)
		}
		for _, name := range []string{"seizes", "interposes", "reprises", "blocks", "entered"} {
			if count(g, c, 0, name)+count(g, c, 1, name) == 0 {
				t.Errorf("%s: no %s in 3,000 encounters: the test does not cover it", spend, name)
			}
		}
	}
}

// TestOverMatchesWinner: over, the test after every turn, is winner() >= 0
// for every count of combatants up on either side.
func TestOverMatchesWinner(t *testing.T) {
	tb := &Table{}
	for u0 := 0; u0 < 4; u0++ {
		for u1 := 0; u1 < 4; u1++ {
			tb.up = [2]int{u0, u1}
			if got, want := tb.over(), tb.winner() >= 0; got != want {
				t.Errorf("up %v: over %v, winner %d", tb.up, got, tb.winner())
			}
		}
	}
}

// TestWrittenDiceMatchExpr: the attack, defence and damage dice written
// into attack draw the words Expr.Roll draws and total what it totals: over
// 3,000 encounters of fights with dice of each form (NdM+K with and
// without a constant, a constant, and forms left to the Expr), the tally
// and the stream after every encounter equal those of a Table that rolls
// every expression by its Expr.
func TestWrittenDiceMatchExpr(t *testing.T) {
	for _, d := range []struct{ attack, defence, damage string }{
		{"2d6", "2d6", "1d6+1"},
		{"3d4+1", "1d8-2", "2d3"},
		{"2d6", "\"7\"", "\"3\""},
		{"1d20", "2d6+1d4", "4d6kh3"},
	} {
		dice := fmt.Sprintf("attack: %s, defence: %s, damage: %s", d.attack, d.defence, d.damage)
		a := row("name: Imp, count: 2, specialty: impulse, attribute: d8, pool: 2d6, hp: 12, %s, policy: {name: script, seize: ['*'], interpose: ['*'], reprise: true, block: ['*']}", dice) +
			row("name: Vig, specialty: vigilance, attribute: d10, pool: 2d6, area: 1, hp: 12, %s, policy: {name: script, interpose: ['*'], reprise: true}", dice)
		b := row("name: Tim, count: 2, specialty: timing, attribute: d8, pool: 2d6, hp: 12, %s, policy: {name: script, seize: ['*'], reprise: true, move: 1}", dice) +
			row("name: Plain, specialty: none, attribute: d6, pool: 2d6, hp: 3d6, %s, policy: script", dice)
		g := compile(t, scen(30, "budget", a, b))
		play := func(viaExpr bool) (*sim.Tally, []rng.Stream) {
			exprDice = viaExpr
			tb := g.NewTable()
			exprDice = false
			written := 0
			for _, k := range tb.(*Table).dk {
				for _, x := range []nd{k.attack, k.defence, k.damage} {
					if x.n >= 0 {
						written++
					}
				}
			}
			if viaExpr != (written == 0) {
				t.Fatalf("%s: %d expressions written out with exprDice %v", dice, written, viaExpr)
			}
			tl := sim.NewTally(g)
			var ends []rng.Stream
			var r rng.Stream
			for e := uint64(0); e < 3000; e++ {
				r.Seed(6, e)
				tl.Record(tb.Play(&r, &tl.Counts, nil))
				ends = append(ends, r)
			}
			return tl, ends
		}
		want, wantEnds := play(true)
		got, gotEnds := play(false)
		for e := range wantEnds {
			if gotEnds[e] != wantEnds[e] {
				t.Fatalf("%s: encounter %d ends at another place of its stream written out than by Expr", dice, e)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: tallies differ: written out %+v\nby Expr %+v", dice, got.Counts.Sides, want.Counts.Sides)
		}
		if got.Encounters != 3000 || got.Counts.Get(0, Hits)+got.Counts.Get(1, Hits) == 0 {
			t.Errorf("%s: no hit in 3,000 encounters: nothing compared", dice)
		}
	}
}

// TestWrittenDiceReject: dice whose words are often rejected (Lemire's
// method, as rng.Stream.IntN: a d(3·2^61) rejects a word in four, a
// d(3·2^60) one in sixteen), which no scenario's dice reach, roll in
// attack what rng.Stream.Die rolls, word for word: the attack's hit and
// damage, and where the stream ends; with one die an expression (the
// loop) and two (the pair written out).
func TestWrittenDiceReject(t *testing.T) {
	a := row("name: A, specialty: none, attribute: d8, pool: 2d6, hp: 10, attack: 2d6, defence: 2d6, damage: 1d6, policy: script")
	b := row("name: B, specialty: none, attribute: d8, pool: 2d6, hp: 10, attack: 2d6, defence: 2d6, damage: 1d6, policy: script")
	g := compile(t, scen(5, "budget", a, b))
	for _, k := range []struct {
		n    int
		huge int
	}{{1, 3 << 61}, {2, 3 << 60}} {
		tb := g.NewTable().(*Table)
		huge := k.huge
		tb.dk[0].attack = nd{n: k.n, m: huge, k: 2}
		tb.dk[1].defence = nd{n: k.n, m: huge >> 1, k: -1}
		tb.dk[0].damage = nd{n: 1, m: huge >> 2, k: 0}
		var r, ref rng.Stream
		c := sim.NewCounts(len(g.Counters()))
		hits, rejected := 0, 0
		for e := uint64(0); e < 4000; e++ {
			r.Seed(8, e)
			ref = r
			log := &sim.Log{} // events only: the rolls
			tb.r, tb.c, tb.log = &r, &c, log
			tb.f[1] = fighter{hp: 1 << 62, maxHP: 1 << 62}
			tb.in = 3
			hit := tb.attack(0, 1)
			roll, def := 2, -1
			for j := 0; j < k.n; j++ {
				roll += ref.Die(huge)
			}
			for j := 0; j < k.n; j++ {
				def += ref.Die(huge >> 1)
			}
			want, hp := roll >= def, 1<<62
			if want {
				hp -= ref.Die(huge >> 2)
			}
			ev := log.Events[len(log.Events)-1]
			if hit != want || tb.f[1].hp != hp || r != ref || ev.Roll != roll || ev.Need != def {
				t.Fatalf("%d dice, encounter %d: %d vs %d, hit %v, hp %d; Stream.Die: %d vs %d, hit %v, hp %d (same stream after: %v)",
					k.n, e, ev.Roll, ev.Need, hit, tb.f[1].hp, roll, def, want, hp, r == ref)
			}
			if hit {
				hits++
			}
			words := uint64(2 * k.n)
			if want {
				words++
			}
			if ref.Draws() > words { // a word more than the dice
				rejected++
			}
		}
		if hits == 0 || hits == 4000 || rejected == 0 {
			t.Errorf("%d dice: %d hits, %d encounters with a rejected word in 4,000: the test does not reach both branches", k.n, hits, rejected)
		}
	}
}

// TestPoolRollMatchesDie: the initiative pool's dice written out roll
// what rng.Stream.Die rolls, word for word, for pools of the usual dice
// and of dice that often reject a word; pinned results are read as given.
func TestPoolRollMatchesDie(t *testing.T) {
	for _, dice := range [][]int{{6, 6, 6}, {8, 6}, {10, 4, 4, 4, 12}, {3 << 61, 5, 3 << 61}} {
		p := Pool{Dice: dice}
		var r, ref rng.Stream
		out := make([]int, MaxPool)
		rejected := 0
		for e := uint64(0); e < 5000; e++ {
			r.Seed(12, e)
			ref = r
			total, raises := p.Roll(&r, nil, 5, out)
			wt, wr := 0, 0
			for k, s := range dice {
				v := ref.Die(s)
				if out[k] != v {
					t.Fatalf("pool %v, stream %d: die %d rolled %d, Stream.Die %d", dice, e, k, out[k], v)
				}
				wt += v
				if v >= 5 {
					wr++
				}
			}
			if total != wt || raises != wr || r != ref {
				t.Fatalf("pool %v, stream %d: total %d, raises %d; Stream.Die %d, %d (same stream after: %v)", dice, e, total, raises, wt, wr, r == ref)
			}
			if ref.Draws() > uint64(len(dice)) {
				rejected++
			}
		}
		if dice[0] == 3<<61 && rejected == 0 {
			t.Errorf("pool %v: no word rejected in 5,000 rolls: the test does not reach dieSlow", dice)
		}
		pinned := []int{4, 5, 1, 1, 9}[:len(dice)]
		wt, wr := 0, 0
		for _, v := range pinned {
			wt += v
			if v >= 5 {
				wr++
			}
		}
		before := r
		if total, raises := p.Roll(&r, pinned, 5, out); total != wt || raises != wr || r != before {
			t.Errorf("pool %v pinned %v: total %d, raises %d, want %d, %d and no word drawn", dice, pinned, total, raises, wt, wr)
		}
	}
}

// stdScript is a script policy that claims a standard rule.
type stdScript struct {
	Policy
	s Standard
}

func (p stdScript) Standard() (Standard, bool) { return p.s, true }

// TestStandardRuleChecked: a Table applies a policy's standard rule only
// when the rule is one it knows and its focus is an enemy; otherwise the
// policy's methods decide (and the turn checks their choices).
func TestStandardRuleChecked(t *testing.T) {
	a := row("name: A, count: 2, specialty: none, attribute: d8, pool: 2d6, hp: 10, attack: 2d6, defence: 2d6, damage: 1d6, policy: script")
	b := row("name: B, count: 2, specialty: none, attribute: d8, pool: 2d6, hp: 10, attack: 2d6, defence: 2d6, damage: 1d6, policy: script")
	g := compile(t, scen(5, "budget", a, b))
	for _, c := range []struct {
		s   Standard
		std bool
	}{
		{Standard{Focus: -1}, true},
		{Standard{Target: TargetFirst, Hold: true, Focus: 2}, true}, // an enemy of A#1
		{Standard{Focus: 1}, false},                                 // A#2: its ally
		{Standard{Focus: 0}, false},                                 // itself
		{Standard{Focus: 4}, false},                                 // no such combatant
		{Standard{Target: TargetFirst + 1, Focus: -1}, false},       // no such rule
	} {
		p := g.C[0].Policy
		g.C[0].Policy = stdScript{p, c.s}
		tb := g.NewTable().(*Table)
		g.C[0].Policy = p
		if got := tb.std&1 != 0; got != c.std {
			t.Errorf("%+v: applied %v, want %v", c.s, got, c.std)
		}
	}
}
