package lotm_test

import (
	"strings"
	"testing"

	_ "simctl/agents" // the built-ins' policies
	"simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
)

// Issue 38: the referee keeps some rules incrementally (the flanking
// conditions 1 – 3 counted once per change of who is in the battle, the
// condition 4 read from the two fighters). Before every turn of
// thousands of encounters of the built-ins, FastCheckForTest compares
// each shortcut with the general computation it replaced.

// checker wraps a policy: before each turn it runs FastCheckForTest.
// The wrappers below keep the optional interfaces the wrapped policy has,
// so the encounters play as they would.
type checker struct {
	lotm.Policy
	st *checkState
}

type checkState struct {
	diff          string
	turns, uneven int
}

func (p checker) Turn(t *lotm.Table, self int) lotm.Plan {
	p.st.turns++
	if diff, uneven := lotm.FastCheckForTest(t); diff != "" && p.st.diff == "" {
		p.st.diff = diff
	} else {
		p.st.uneven += uneven
	}
	return p.Policy.Turn(t, self)
}

type checkReactor struct {
	checker
	lotm.Reactor
}

type checkBurner struct {
	checker
	lotm.LuckBurner
}

type checkBoth struct {
	checker
	lotm.Reactor
	lotm.LuckBurner
}

func wrap(p lotm.Policy, st *checkState) lotm.Policy {
	c := checker{p, st}
	r, isR := p.(lotm.Reactor)
	b, isB := p.(lotm.LuckBurner)
	switch {
	case isR && isB:
		return checkBoth{c, r, b}
	case isR:
		return checkReactor{c, r}
	case isB:
		return checkBurner{c, b}
	}
	return c
}

func TestFastPathsMatchGeneral(t *testing.T) {
	for _, c := range []struct{ name, set string }{
		{"lotm/ambush", ""},
		{"lotm/ambush", "heroes.aware=true"},
		// No built-in sets rank or blocks_exits: one rank a side, mixed
		// ranks (the highest leaves), a blockade.
		{"lotm/ambush", "monsters.Cultist.rank=1"},
		{"lotm/ambush", "heroes.Pyromaniac.rank=2"},
		{"lotm/ambush", "blocks_exits"},
		{"lotm/assassin", ""},
		{"lotm/duel", ""},
		{"lotm/grapple-combo", ""},
		{"lotm/house-rules", ""},
		{"lotm/reinforcements", ""},
		{"lotm/tactics-ambush-feint", ""},
	} {
		data, _, ok := scenarios.Read(c.name)
		if !ok {
			t.Fatalf("no built-in %s", c.name)
		}
		var sets []string
		switch c.set {
		case "":
		case "blocks_exits": // a side field --set does not reach
			data = []byte(strings.Replace(string(data), "  - name: monsters\n", "  - name: monsters\n    blocks_exits: 2\n", 1))
		default:
			sets = append(sets, c.set)
		}
		g := lotm.CompileForTest(t, string(data), sets...)
		st := &checkState{}
		for i := range g.C {
			g.C[i].Policy = wrap(g.C[i].Policy, st)
		}
		table := g.NewTable()
		tally := sim.NewTally(g)
		var r rng.Stream
		for i := 0; i < 1000; i++ {
			r.Seed(5, uint64(i))
			tally.Record(table.Play(&r, &tally.Counts, nil))
		}
		if st.diff != "" {
			t.Errorf("%s %s: %s", c.name, c.set, st.diff)
		}
		if st.turns == 0 {
			t.Errorf("%s %s: no turn checked", c.name, c.set)
		}
		t.Logf("%s %s: %d turns, %d uneven flanking counts", c.name, c.set, st.turns, st.uneven)
	}
}
