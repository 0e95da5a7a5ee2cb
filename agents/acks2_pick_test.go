package agents

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/rulesets/acks2"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// pickChecker wraps a default-family policy: on every segment (and every
// cleave) it compares pick's answer, shortcut included, with pick's
// general loop (pickScan), Cleave with a plain scan over CanAttack, and
// the Table's standing masks (kept as combatants go out) with a scan of
// the roster.
type pickChecker struct {
	acks2.Policy
	d         *acksDefault
	t         *testing.T
	who       string
	picks     *int
	engagedAt *int
}

func (c pickChecker) Turn(t *acks2.Table, self int) acks2.Plan {
	for s := 0; s < 2; s++ {
		var want uint64
		for i := 0; i < t.N(); i++ {
			if t.Side(i) == s && !t.Out(i) {
				want |= 1 << i
			}
		}
		if got := t.Standing(s); got != want {
			c.t.Errorf("%s, round %d: Standing(%d) %b, the scan %b", c.who, t.Round(), s, got, want)
		}
	}
	got := c.d.pick(t, self)
	speed := t.Game().C[self].Speed
	if t.Game().C[self].Weapon != acks2.Missile {
		speed *= 2
	}
	reach := t.Reach(self)
	want := c.d.pickScan(t, self, t.Declared(self).Kind == acks2.DeclareSpell, reach, max(reach, speed+5))
	if c.d.prefer >= 0 && !t.Out(c.d.prefer) {
		want = c.d.prefer // pick's first rule, before either
	}
	if got != want {
		c.t.Errorf("%s, round %d: pick %d, the scan %d", c.who, t.Round(), got, want)
	}
	*c.picks++
	if t.Engaged(self) {
		*c.engagedAt++
	}
	return c.Policy.Turn(t, self)
}

func (c pickChecker) Cleave(t *acks2.Table, self int) int {
	got := c.Policy.Cleave(t, self)
	want := -1
	for _, j := range t.Foes(self) {
		if t.CanAttack(self, j) && (want < 0 || t.HP(j) < t.HP(want)) {
			want = j
		}
	}
	if got != want {
		c.t.Errorf("%s: Cleave %d, the scan %d", c.who, got, want)
	}
	return got
}

func defaultOf(p acks2.Policy) *acksDefault {
	switch p := p.(type) {
	case *acksDefault:
		return p
	case *acksDelay:
		return &p.acksDefault
	case *acksReady:
		return &p.acksDefault
	case *acksReceive:
		return &p.acksDefault
	}
	return nil
}

// TestAcksPickMatchesScan plays the built-in ACKS II scenarios and
// variants (target modes, casters, missiles, flyers, size engagement,
// withdrawals) and checks pick against its general loop on every segment:
// the weakest-target shortcut skips the engagement test when the answer
// cannot depend on it. It fails when the shortcut ignores engagement, or
// when a combatant going out is left in its side's standing mask.
func TestAcksPickMatchesScan(t *testing.T) {
	var srcs []string
	for _, name := range scenarios.Names() {
		if strings.HasPrefix(name, "acks2/") {
			data, _, _ := scenarios.Read(name)
			srcs = append(srcs, string(data))
		}
	}
	srcs = append(srcs, `name: pick variants
ruleset: acks2
max_rounds: 20
distance: 50
options: {size_engagement: true}
sides:
  - name: a
    combatants:
      - {name: S, count: 3, hp: 2d8, ac: 3, damage: 1d8, speed: 20, weapon: long}
      - {name: W, hp: 3d8, ac: 3, damage: 1d8, speed: 40, policy: {name: default, withdraw_below: 6, withdraw: retreat}}
      - {name: M, hp: 1d6, ac: 0, damage: 1d4, behind: 10, spells: [{name: missile, damage: 1d6+1, uses: 2}]}
      - {name: A, hp: 1d8, ac: 1, damage: 1d6, weapon: missile, range: 30, behind: 15}
  - name: b
    referee: true
    combatants:
      - {name: O, count: 5, hp: 1d8, ac: 2, damage: 1d6, speed: 30, size: small}
      - {name: G, count: 2, hp: 4d8, ac: 4, damage: 1d10, size: large, engaged_by: 2, speed: 40}
      - {name: F, hp: 2d8, ac: 3, damage: 1d6, flies: true, speed: 60, policy: {name: ready}}
      - {name: R, hp: 2d8, ac: 3, damage: 1d6, policy: {name: receive}}
`)
	var picks, engaged int
	for _, src := range srcs {
		sc, err := scenario.Load("pick.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		gg, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		g := gg.(*acks2.Game)
		h := *g
		h.C = append([]acks2.Combatant(nil), g.C...)
		before := picks
		for i := range h.C {
			if d := defaultOf(h.C[i].Policy); d != nil && d.target == acksWeakest {
				h.C[i].Policy = pickChecker{Policy: h.C[i].Policy, d: d, t: t, who: sc.Name + ": " + h.C[i].Name, picks: &picks, engagedAt: &engaged}
			}
		}
		table := h.NewTable()
		tally := sim.NewTally(&h)
		var r rng.Stream
		for enc := 0; enc < 3000; enc++ {
			r.Seed(3, uint64(enc))
			tally.Record(table.Play(&r, &tally.Counts, nil))
		}
		if picks == before {
			t.Errorf("%s: no pick checked", sc.Name)
		}
	}
	if engaged == 0 || engaged == picks {
		t.Errorf("%d picks, %d engaged: the check did not see both cases", picks, engaged)
	}
}
