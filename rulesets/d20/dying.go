package d20

import "simctl/sim"

// damage applies dmg from a to d. Option dying: out-at-0 takes a combatant
// out at HP <= 0 (and counts a death); srd makes it disabled at 0 and dying
// below 0 (both out of the fight) and dead at -10.
func (t *Table) damage(a, d, dmg int) {
	t.applyDamage(a, d, dmg)
	if dmg > 0 && t.g.traits.at(a, mDamageDealt, d, mDamageTaken) {
		t.traitDamage(a, d, dmg)
	}
}

func (t *Table) applyDamage(a, d, dmg int) {
	f := &t.f[d]
	f.hp -= dmg
	t.dealt[a] += int64(dmg) // Counts.Hit, at the encounter's end (flushCounts)
	t.taken[d] += int64(dmg)
	if f.hp > 0 {
		if !f.out {
			t.hpFell(d)
		}
		return
	}
	if f.dead {
		return
	}
	if !f.out {
		f.out = true
		f.outAt = t.seq
		t.standing[t.side(d)]--
		t.wentOut(d)
		t.c.Down(d, a)
		t.unready(d)
		t.undelay(d)
	}
	if !t.g.srdDying || f.hp <= -10 {
		f.dead = true
		f.dying = false
		t.c.Inc(t.side(d), Deaths)
	} else if f.hp < 0 {
		f.dying = true
	}
	if t.log != nil {
		t.logDown(d)
	}
}

// logDown narrates where d ended up after the blow that put it out.
func (t *Table) logDown(d int) {
	f := &t.f[d]
	switch {
	case f.dead:
		t.logf("%s is dead (hp %d)", t.name(d), f.hp)
		t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: sim.NoOne, Amount: f.hp, Rule: "dead"})
	case f.dying:
		t.logf("%s is dying (hp %d)", t.name(d), f.hp)
		t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: sim.NoOne, Amount: f.hp, Rule: "dying"})
	default:
		t.logf("%s is disabled (hp 0)", t.name(d))
		t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: sim.NoOne, Rule: "disabled"})
	}
}

// bleed is the SRD's dying rule at the end of each round: a dying combatant
// has a 10% chance to become stable, otherwise it loses 1 hit point; at -10
// it is dead.
func (t *Table) bleed() {
	for i := range t.f {
		f := &t.f[i]
		if !f.dying {
			continue
		}
		if t.r.Die(10) == 1 {
			f.dying = false
			if t.log != nil {
				t.logf("%s stabilises at hp %d", t.name(i), f.hp)
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: i, Target: sim.NoOne, Amount: f.hp, OK: true, Rule: "stabilise"})
			}
			continue
		}
		f.hp--
		if f.hp <= -10 {
			f.dying = false
			f.dead = true
			t.c.Inc(t.side(i), Deaths)
			if t.log != nil {
				t.logf("%s bleeds out", t.name(i))
				t.ev(sim.Event{Kind: sim.EvDown, Actor: i, Target: sim.NoOne, Amount: f.hp, Rule: "bled out"})
			}
		}
	}
}
