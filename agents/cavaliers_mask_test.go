package agents

import (
	"fmt"
	"testing"

	"simctl/rulesets/cavaliers"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
)

// The default Cavaliers policy reads the foes of an Area from the Table's
// masks (FoesIn, FoesPresent); on every Target and Move of thousands of
// encounters the masks equal a scan of the roster, and the choices equal
// the scans the policy made before.
type cavMaskChecker struct {
	*cavPolicy
	fail *string
	n    *int
}

func (p cavMaskChecker) failf(format string, args ...any) {
	if *p.fail == "" {
		*p.fail = fmt.Sprintf(format, args...)
	}
}

func (p cavMaskChecker) check(t *cavaliers.Table, self int) {
	*p.n++
	var present uint64
	for _, j := range t.Foes(self) {
		if t.Present(j) {
			present |= 1 << uint(j)
		}
	}
	if got := t.FoesPresent(self); got != present {
		p.failf("round %d, %d: FoesPresent %b, scan %b", t.Round(), self, got, present)
	}
	for a := 0; a <= cavaliers.MaxArea; a++ {
		var want uint64
		for _, j := range t.Foes(self) {
			if t.Present(j) && t.Area(j) == a {
				want |= 1 << uint(j)
			}
		}
		if got := t.FoesIn(self, a); got != want {
			p.failf("round %d, %d: FoesIn Area %d %b, scan %b", t.Round(), self, a, got, want)
		}
	}
}

// Standard: none, so that the referee calls the checker's Move and
// Target (the policy's rule would otherwise be applied without them).
func (p cavMaskChecker) Standard() (cavaliers.Standard, bool) { return cavaliers.Standard{}, false }

func (p cavMaskChecker) Target(t *cavaliers.Table, self int) int {
	p.check(t, self)
	got := p.cavPolicy.Target(t, self)
	if p.targetMode() != cavTRandom {
		if want := cavTargetScan(p.cavPolicy, t, self); got != want {
			p.failf("round %d, %d: Target %d, scan %d", t.Round(), self, got, want)
		}
	}
	return got
}

func (p cavMaskChecker) Move(t *cavaliers.Table, self int) int {
	p.check(t, self)
	got := p.cavPolicy.Move(t, self)
	if want := cavMoveScan(p.cavPolicy, t, self); got != want {
		p.failf("round %d, %d: Move %d, scan %d", t.Round(), self, got, want)
	}
	return got
}

// cavTargetScan and cavMoveScan are the policy's choices as scans of the
// roster (the code before the masks; random aside, which draws).
func cavTargetScan(p *cavPolicy, t *cavaliers.Table, self int) int {
	here := t.Area(self)
	if p.focus >= 0 && t.Present(p.focus) && t.Area(p.focus) == here {
		return p.focus
	}
	best := -1
	mode := p.targetMode()
	for _, j := range t.Foes(self) {
		if !t.Present(j) || t.Area(j) != here {
			continue
		}
		switch {
		case best < 0:
			best = j
		case mode == cavTWeakest && t.HP(j) < t.HP(best), mode == cavTStrongest && t.HP(j) > t.HP(best):
			best = j
		}
	}
	return best
}

func cavMoveScan(p *cavPolicy, t *cavaliers.Table, self int) int {
	here := t.Area(self)
	mode := p.mmode
	if mode == 0 {
		mode = cavMoveMode(p.move)
	}
	switch mode {
	case cavMHold:
		return -1
	case cavMWard:
		if p.ward >= 0 && t.Present(p.ward) {
			return cavaliers.Toward(here, t.Area(p.ward))
		}
	}
	if p.focus >= 0 && t.Present(p.focus) {
		return cavaliers.Toward(here, t.Area(p.focus))
	}
	best := -1
	for _, j := range t.Foes(self) {
		if t.Present(j) && t.Area(j) == here {
			return -1
		}
	}
	for _, j := range t.Foes(self) {
		if t.Present(j) && (best < 0 || cavAbs(t.Area(j)-here) < cavAbs(t.Area(best)-here)) {
			best = j
		}
	}
	if best < 0 {
		return -1
	}
	return cavaliers.Toward(here, t.Area(best))
}

func TestCavMasksMatchScans(t *testing.T) {
	for _, c := range []struct {
		name string
		sets []string
	}{
		{"cavaliers/melee", nil},
		{"cavaliers/melee", []string{"heroes.policy.target=strongest", "duelists.policy.target=first"}},
		{"cavaliers/melee", []string{"heroes.policy.target=random"}},
		{"cavaliers/bodyguard", nil},
		{"cavaliers/duel", nil},
		{"cavaliers/house-rules", nil},
	} {
		data, display, ok := scenarios.Read(c.name)
		if !ok {
			t.Fatalf("no built-in %s", c.name)
		}
		g := compileSets(t, display, data, c.sets...)
		cg := g.(*cavaliers.Game)
		var fail string
		n, wrapped := 0, 0
		for i := range cg.C {
			if p, ok := cg.C[i].Policy.(*cavPolicy); ok {
				cg.C[i].Policy = cavMaskChecker{p, &fail, &n}
				wrapped++
			}
		}
		table := g.NewTable()
		tally := sim.NewTally(g)
		var r rng.Stream
		for i := 0; i < 3000; i++ {
			r.Seed(5, uint64(i))
			tally.Record(table.Play(&r, &tally.Counts, nil))
		}
		if fail != "" {
			t.Errorf("%s %v: %s", c.name, c.sets, fail)
		}
		if wrapped == 0 || n == 0 {
			t.Errorf("%s %v: %d policies wrapped, %d choices checked: nothing tested", c.name, c.sets, wrapped, n)
		}
	}
}
