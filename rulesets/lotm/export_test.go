package lotm

import (
	"fmt"
	"testing"

	"simctl/sim/simtest"
)

// For the external tests (package lotm_test), which compile tactics:
// blocks through package agents (it imports this package, so only an
// external test can import it).

// CompileForTest loads a lotm scenario written in YAML (a combatant
// without tactics: or a policy gets the test policy).
func CompileForTest(t testing.TB, yaml string, sets ...string) *Game {
	t.Helper()
	return compile(t, yaml, sets...)
}

// PlayForTest plays encounter 0 of seed 1 with the dice script (every d20
// and tie-break die; damage dice from the stream when damage is set), and
// returns what the rules did, the narration and the counts of side s of
// the named counters.
func PlayForTest(t testing.TB, g *Game, damage bool, script ...int) (log simtest.Events, text string, count func(side, k int) int64) {
	t.Helper()
	p := playScript(t, g, damage, script)
	return p.log, p.text, p.get
}

// FastCheckForTest compares the referee's shortcuts with the general
// computations they replace, in t's state now: flankNet against the count
// from scratch (flankCountsScan) for every pair and both kinds of check;
// unusual (false: no one stunned, hidden or in a grapple) and insNow (out
// of it: no mid-combat ambush left) against the fighters; canAttackWith
// against canAttackChecked.
// It returns the first difference ("" when none) and how many pairs had
// a side meeting more conditions (so a test can see it reached them).
func FastCheckForTest(t *Table) (diff string, uneven int) {
	for a := range t.f {
		for d := range t.f {
			for _, c4 := range []bool{false, true} {
				ca, cd := flankCountsScan(t, a, d, c4)
				if n := t.flankNet(a, d, c4); n != ca-cd {
					return fmt.Sprintf("round %d: flankNet(%d, %d, %v) %d, counted %d:%d", t.round, a, d, c4, n, ca, cd), uneven
				}
				if ca != cd {
					uneven++
				}
			}
		}
	}
	// canAttackWith (its plain attack's shortcut first) against every test
	// of canAttackChecked, for a plain attack from everyone at everyone
	// (and at nobody).
	for i := range t.f {
		p := Plan{Main: MainAttack}
		for tg := -1; tg < len(t.f); tg++ {
			if fast, all := t.canAttackWith(i, &p, tg, KindAttack), t.canAttackChecked(i, &p, tg, KindAttack); fast != all {
				return fmt.Sprintf("round %d: attack %d at %d: canAttackWith %v, every test %v", t.round, i, tg, fast, all), uneven
			}
		}
	}
	for i := range t.f {
		f := &t.f[i]
		if !t.unusual && (f.stunned || f.hidden || f.grappling >= 0 || f.grappledBy >= 0) {
			return fmt.Sprintf("round %d: %d stunned, hidden or in a grapple, unusual false", t.round, i), uneven
		}
		if s := t.sd[i]; t.insBy[s]&^t.insNow[s]&(1<<uint(i)) != 0 && t.canInsert(i) {
			return fmt.Sprintf("round %d: %d can make a mid-combat ambush, not in insNow", t.round, i), uneven
		}
	}
	return "", uneven
}
