package d20

// The bit masks the referee keeps of who holds a readied action, who
// delays and who stands (Table.readyOn, delayCount, delayWait, upMask)
// against a scan of the fighters, at every decision of thousands of
// encounters in which everyone delays, readies (every trigger and action)
// and acts at random.

import (
	"fmt"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// maskFail holds the first disagreement found (the policy has no
// *testing.T; the test runs it sequentially).
var maskFail string

// saturate, in the test's second pass, sets every combatant's bit in the
// readied and delay masks at each decision: supersets with which the
// shortcuts skip nothing, as before the masks. Both passes must play the
// same encounters.
var saturate bool

func init() {
	RegisterPolicy("test-masks", "test only: random delays, readies and acts; checks the masks every decision", makeMasks)
}

type masksPolicy struct{}

func makeMasks(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy {
	return masksPolicy{}
}

func (masksPolicy) Turn(t *Table, self int, p *Plan) {
	if saturate {
		all := uint64(1)<<uint(len(t.f)) - 1
		for k := range t.readyOn {
			t.readyOn[k] = all
		}
		t.readyShot, t.delayCount, t.delayWait = all, all, all
	} else if maskFail == "" {
		if msg := t.checkMasks(); msg != "" {
			maskFail = fmt.Sprintf("round %d, %s decides: %s", t.round, t.name(self), msg)
		}
	}
	r := t.Rand()
	me := &t.g.C[self]
	p.Target = t.PickTarget(self, TargetNearest, 1000, true)
	p.Charge = r.IntN(2) == 0
	other := r.IntN(len(t.f))
	switch k := r.IntN(10); {
	case k < 3: // act
		if len(me.Spells) > 0 && r.IntN(3) == 0 {
			p.Spell = 0
		}
		p.Shoot = me.Ranged.Increment > 0 && r.IntN(2) == 0
	case k < 5: // delay to a count
		p.Do, p.DelayAfter, p.DelayTo = Delay, -1, t.f[self].count-r.IntN(15)
	case k < 6: // delay until someone has acted
		if other != self {
			p.Do, p.DelayAfter = Delay, other
		}
	default: // ready, any trigger and action
		p.Do = Ready
		p.Trigger = Trigger(1 + r.IntN(5))
		p.Ally = other
		p.Action = ReadyAction(r.IntN(4))
		p.Spell = -1
		if len(me.Spells) > 0 && p.Action != ReadyAttack {
			p.Spell = 0
		}
		if p.Action == ReadyCast && p.Spell < 0 {
			p.Action = ReadyAttack
		}
		p.Shoot = p.Action == ReadyAttack && me.Ranged.Increment > 0 && r.IntN(2) == 0
		p.Advance = r.IntN(4) == 0
	}
}

// checkMasks compares the masks with a scan of the fighters; "" when they
// agree. They are exact (every place a flag changes changes its bit), not
// only the supersets the scans need.
func (t *Table) checkMasks() string {
	var ready [8]uint64
	var count, wait, shot uint64
	var up [2]uint64
	for i := range t.f {
		f, b := &t.f[i], uint64(1)<<uint(i)
		if f.readied {
			ready[t.cold[i].ready.Trigger&7] |= b
			if rd := &t.cold[i].ready; rd.Action == ReadyAttack && rd.Shoot {
				shot |= b
			}
		}
		if f.delayed && f.delayAfter < 0 {
			count |= b
		}
		if f.delayed && f.delayAfter >= 0 {
			wait |= b
		}
		if !f.out {
			up[t.side(i)] |= b
		}
	}
	switch {
	case ready != t.readyOn:
		return fmt.Sprintf("readyOn %x, scan %x", t.readyOn, ready)
	case shot != t.readyShot:
		return fmt.Sprintf("readyShot %x, scan %x", t.readyShot, shot)
	case count != t.delayCount:
		return fmt.Sprintf("delayCount %x, scan %x", t.delayCount, count)
	case wait != t.delayWait:
		return fmt.Sprintf("delayWait %x, scan %x", t.delayWait, wait)
	case up != t.upMask:
		return fmt.Sprintf("upMask %x, scan %x", t.upMask, up)
	}
	return ""
}

func TestMasksMatchScans(t *testing.T) {
	const src = `name: masks %[1]d at %[2]d
ruleset: d20
max_rounds: 12
distance: %[2]d
options: {dying: %[3]s}
sides:
  - name: a
    policy: test-masks
    combatants:
      - {name: F, count: %[1]d, hp: 2d10+4, ac: 15, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, speed: 30}
      - {name: P, hp: 2d8+4, ac: 13, init: 3, attacks: [4], damage: 1d10+3, reach: 10, speed: 20, brace: true}
      - {name: W, hp: 2d4+4, ac: 12, init: 2, attacks: [1], damage: 1d6, concentration: 7, spellcraft: 6, spells: [{name: missile, damage: 2d4+2, level: 1, uses: 3}]}
  - name: b
    policy: test-masks
    combatants:
      - {name: O, count: %[1]d, hp: 3d8+2, ac: 14, init: 0, attacks: [5], damage: 1d12+3, speed: 40}
      - {name: A, hp: 2d8+2, ac: 14, dex_ac: 3, init: 2, attacks: [2], damage: 1d6, speed: 30, ranged: {bonus: [6, 1], damage: 1d8, crit: 20/x3, increment: 60, ammo: 6}}
      - {name: S, hp: 2d6+2, ac: 12, init: 1, attacks: [1], damage: 1d4, concentration: 5, spellcraft: 4, spells: [{name: missile, damage: 2d4+2, level: 1, uses: 2}]}
`
	fired := 0
	for _, c := range []struct {
		n, distance int
		dying       string
	}{{1, 0, "out-at-0"}, {2, 30, "srd"}, {3, 60, "out-at-0"}, {5, 15, "srd"}} {
		sc, err := scenario.Load("masks.yaml", []byte(fmt.Sprintf(src, c.n, c.distance, c.dying)), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Ruleset{}.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		var tallies [2]*sim.Tally
		var outs [2][]sim.Outcome
		for pass := range tallies {
			saturate = pass == 1
			table := g.NewTable()
			tally := sim.NewTally(g)
			var r rng.Stream
			maskFail = ""
			for i := 0; i < 1500; i++ {
				r.Seed(3, uint64(i))
				o := table.Play(&r, &tally.Counts, nil)
				tally.Record(o)
				outs[pass] = append(outs[pass], o)
				if maskFail != "" {
					t.Fatalf("%s, encounter %d: %s", sc.Name, i, maskFail)
				}
			}
			tallies[pass] = tally
		}
		saturate = false
		for i := range outs[0] {
			if outs[0][i] != outs[1][i] {
				t.Fatalf("%s, encounter %d: %+v with the masks, %+v with every scan", sc.Name, i, outs[0][i], outs[1][i])
			}
		}
		if a, b := fmt.Sprint(tallies[0].Counts), fmt.Sprint(tallies[1].Counts); a != b {
			t.Fatalf("%s: counts with the masks\n%s\nwith every scan\n%s", sc.Name, a, b)
		}
		c0 := &tallies[0].Counts
		fired += int(c0.Sides[sim.ReadiesTriggered] + c0.Sides[c0.PerSide+sim.ReadiesTriggered])
	}
	t.Logf("readied actions fired: %d", fired)
	if fired < 1000 {
		t.Errorf("only %d readied actions went off: the test does not exercise the masks", fired)
	}
}
