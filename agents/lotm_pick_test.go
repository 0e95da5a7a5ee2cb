package agents

import (
	"fmt"
	"testing"

	"simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
)

// The LotM policy's target choice reads its selector as a number and
// compares inline; on every turn of thousands of encounters it picks what
// the string-reading scan it replaced picks (random aside: it draws).
type lotmPickChecker struct {
	*lotmPolicy
	fail *string
	n    *int
}

func (p lotmPickChecker) Turn(t *lotm.Table, self int) lotm.Plan {
	if p.target != "random" {
		*p.n++
		if got, want := p.pick(t, self), lotmPickScan(p.lotmPolicy, t, self); got != want && *p.fail == "" {
			*p.fail = fmt.Sprintf("round %d, %d (target %s): pick %d, scan %d", t.Round(), self, p.target, got, want)
		}
	}
	return p.lotmPolicy.Turn(t, self)
}

// lotmPickScan is pick as it was: the selector read from the string, the
// comparison through a call.
func lotmPickScan(p *lotmPolicy, t *lotm.Table, self int) int {
	me := &t.Game().C[self]
	better := func(j, best int) bool {
		switch p.target {
		case "strongest":
			return t.HP(j) > t.HP(best)
		case "nearest":
			return t.Dist(self, j) < t.Dist(self, best)
		case "first":
			return false
		}
		return t.HP(j) < t.HP(best)
	}
	best, bestTier := -1, -1
	for _, j := range t.Foes(self) {
		if !t.Targetable(self, j) {
			continue
		}
		tier := 0
		if me.Ranged || t.Teleports(self) > 0 || t.Dist(self, j) <= lotm.Reach+me.Speed {
			tier = 1
		}
		if p.preferHeld && t.GrappledBy(j) >= 0 {
			tier = 2
		}
		if tier > bestTier || tier == bestTier && better(j, best) {
			best, bestTier = j, tier
		}
	}
	return best
}

func TestLotmPickMatchesScan(t *testing.T) {
	for _, c := range []struct{ name, set string }{
		{"lotm/ambush", ""},
		{"lotm/ambush", "heroes.policy={name: default, target: strongest}"},
		{"lotm/ambush", "heroes.policy={name: default, target: nearest, prefer_held: true}"},
		{"lotm/ambush", "heroes.policy={name: default, target: first}"},
		{"lotm/reinforcements", ""},
		{"lotm/grapple-combo", ""},
		{"lotm/assassin", ""},
		{"lotm/tactics-ambush-feint", ""},
	} {
		data, display, ok := scenarios.Read(c.name)
		if !ok {
			t.Fatalf("no built-in %s", c.name)
		}
		var sets []string
		if c.set != "" {
			sets = append(sets, c.set)
		}
		g := compileSets(t, display, data, sets...)
		lg := g.(*lotm.Game)
		var fail string
		n := 0
		for i := range lg.C {
			if p, ok := lg.C[i].Policy.(*lotmPolicy); ok {
				lg.C[i].Policy = lotmPickChecker{p, &fail, &n}
			}
		}
		table := g.NewTable()
		tally := sim.NewTally(g)
		var r rng.Stream
		for i := 0; i < 2000; i++ {
			r.Seed(9, uint64(i))
			tally.Record(table.Play(&r, &tally.Counts, nil))
		}
		if fail != "" {
			t.Errorf("%s %s: %s", c.name, c.set, fail)
		}
		if n == 0 {
			t.Errorf("%s %s: no choice checked", c.name, c.set)
		}
	}
}
