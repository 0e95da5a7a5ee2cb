package acks2

import (
	"simctl/sim"
	"simctl/sim/msg"
)

// Spells. A caster declares its spell before initiative (round.go); the
// spell takes effect in its segment, whenever that comes (after a delay
// too), at the target its policy names (spell range is not modelled). If
// it takes damage first — any damage, a start-of-segment effect's included
// — and option disrupt_declared_casters is on, the spell is lost: spent,
// and the segment's action with it (damage). A declared caster whose delay
// runs out casts nothing and keeps the spell.
//
// What a spell does (fields of spells:): damage, against which the target
// may save (d20 >= its save: half or negates); a lingering effect that
// deals ongoing damage at the start or end of the bearer's segment for
// ongoing_rounds segments, with an optional save after each tick to end
// it; a push, a forced move away from the caster. A failed saving throw,
// like damage and a forced move, costs the target a ready action.

// castDeclared: i casts its declared spell at tg.
func (t *Table) castDeclared(i, tg int) {
	f := &t.f[i]
	c := &t.g.C[i]
	s := f.decl.Spell
	sp := &c.Spells[s]
	if tg < 0 || tg >= len(t.f) || t.f[tg].out || t.side(tg) == c.Side {
		tg = t.nearestEnemy(i)
		if tg < 0 {
			return
		}
	}
	f.uses[s]--
	t.c.Inc(c.Side, sim.Actions)
	t.c.Inc(c.Side, SpellsCast)
	if t.log != nil {
		t.logf("%s casts %s at %s", c.Name, sp.Name, t.name(tg))
		t.ev(sim.Event{Kind: sim.EvSpell, Actor: i, Target: tg, Rule: sp.Name})
	}
	saved := false
	if sp.Save != SaveNone {
		saved = t.save(tg)
	}
	if !sp.Damage.IsZero() {
		dmg := sp.Damage.Roll(t.r)
		switch {
		case saved && sp.Save == SaveHalf:
			dmg /= 2
		case saved && sp.Save == SaveNegates:
			dmg = 0
		}
		if dmg > 0 {
			if t.log != nil {
				t.logf("%s's %s deals %d damage to %s (hp %d -> %d)", c.Name, sp.Name, dmg, t.name(tg), t.f[tg].hp, t.f[tg].hp-dmg)
				t.ev(sim.Event{Kind: sim.EvDamage, Actor: i, Target: tg, Amount: dmg, Rule: sp.Name})
			}
			t.damage(i, tg, dmg)
		}
	}
	if t.f[tg].out || (saved && sp.Save == SaveNegates) {
		return
	}
	if !sp.Ongoing.IsZero() {
		t.addEffect(tg, i, s)
	}
	if sp.Push > 0 {
		t.push(i, tg, sp.Push)
	}
}

// save is i's saving throw (d20 >= save); a failure costs a ready action.
func (t *Table) save(i int) bool {
	roll := t.r.Die(20)
	ok := roll >= t.g.C[i].Save
	if t.log != nil {
		res := "fails"
		if ok {
			res = "succeeds"
		}
		t.logf("%s saves: d20 %d vs %d: %s", t.name(i), roll, t.g.C[i].Save, msg.New(res))
		t.ev(sim.Event{Kind: sim.EvSave, Actor: i, Target: sim.NoOne, Die: roll, Roll: roll, Need: t.g.C[i].Save, OK: ok})
	}
	if !ok {
		t.loseReadiness(i, "fails a saving throw")
	}
	return ok
}

// addEffect puts spell s of src on tg as a lingering effect. A combatant
// bears at most maxEffects; a further one replaces the one with the fewest
// ticks left.
func (t *Table) addEffect(tg, src, s int) {
	f := &t.f[tg]
	e := effect{src: int16(src), spell: int16(s), left: int32(t.g.C[src].Spells[s].OngoingRounds)}
	k := f.neff
	if k == maxEffects {
		k = 0
		for j := 1; j < maxEffects; j++ {
			if f.eff[j].left < f.eff[k].left {
				k = j
			}
		}
	} else {
		f.neff++
	}
	f.eff[k] = e
	if t.log != nil {
		at := "start"
		if t.g.C[src].Spells[s].OngoingAt == AtEnd {
			at = "end"
		}
		t.logf("%s suffers %s: %s damage at the %s of its segment for %d rounds", t.name(tg), t.g.C[src].Spells[s].Name,
			t.g.C[src].Spells[s].Ongoing.String(), msg.New(at), e.left)
		t.ev(sim.Event{Kind: sim.EvSpell, Actor: src, Target: tg, Amount: int(e.left), Rule: t.g.C[src].Spells[s].Name + ": ongoing"})
	}
}

// tick applies i's lingering effects that trigger at the given point of
// its segment.
func (t *Table) tick(i int, at Timing) {
	f := &t.f[i]
	for k := 0; k < f.neff && !f.out; {
		e := f.eff[k]
		sp := &t.g.C[e.src].Spells[e.spell]
		if sp.OngoingAt != at {
			k++
			continue
		}
		dmg := sp.Ongoing.Roll(t.r)
		if t.log != nil {
			when := "start"
			if at == AtEnd {
				when = "end"
			}
			t.logf("%s: %s at the %s of its segment, %d damage (hp %d -> %d)", t.name(i), sp.Name, msg.New(when), max(dmg, 0), f.hp, f.hp-max(dmg, 0))
			t.ev(sim.Event{Kind: sim.EvDamage, Actor: int(e.src), Target: i, Amount: max(dmg, 0), Rule: sp.Name + ": ongoing " + when})
		}
		if dmg > 0 && t.damage(int(e.src), i, dmg) {
			return
		}
		f.eff[k].left--
		ended := f.eff[k].left <= 0
		if !ended && sp.OngoingSave && t.save(i) {
			ended = true
		}
		if ended {
			if t.log != nil {
				t.logf("%s is free of %s", t.name(i), sp.Name)
				t.ev(sim.Event{Kind: sim.EvSpell, Actor: sim.NoOne, Target: i, Rule: sp.Name + ": ends"})
			}
			f.neff--
			f.eff[k] = f.eff[f.neff]
			continue
		}
		k++
	}
}

// disruptCast: a declared caster damaged before its segment loses the
// spell (option disrupt_declared_casters): it is spent and the segment's
// action is lost.
func (t *Table) disruptCast(i int) {
	f := &t.f[i]
	if !t.g.Opt.DisruptDeclaredCasters || f.decl.Kind != DeclareSpell || f.segDone || f.castLost {
		return
	}
	f.castLost = true
	f.uses[f.decl.Spell]--
	t.c.Inc(t.side(i), DeclaredSpellsLost)
	if t.log != nil {
		t.logf("%s is hurt before its segment: its declared %s is lost", t.name(i), t.g.C[i].Spells[f.decl.Spell].Name)
		t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "declared spell lost: " + t.g.C[i].Spells[f.decl.Spell].Name})
	}
}
