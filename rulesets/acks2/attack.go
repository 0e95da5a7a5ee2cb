package acks2

import (
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/sim"
	"simctl/sim/msg"
)

// attack makes one attack throw of a against d with modifier mod plus
// bonus (a charge) and applies the damage; it reports whether d was
// killed. verb narrates it ("attacks", "charges into", ...).
//
// ACKS attack throws (option armor_class): ascending AC, the book's — a
// hit when d20 + modifiers >= attack_throw + target AC; descending, the
// digest's formula — d20 + target AC + modifiers >= attack_throw. A natural
// 20 always hits and a natural 1 always misses. A hit rolls the weapon's
// damage, at least 1.
func (t *Table) attack(a, d, mod, bonus int, verb string) bool {
	c := &t.g.C[a]
	var roll int
	if t.wd { // shortcuts.go: t.r.Die(20) written out
		hi, lo := bits.Mul64(t.r.Uint64(), 20)
		roll = int(hi) + 1
		if lo < 20 {
			roll = plain.Reroll(t.r, 20, hi, lo)
		}
	} else {
		roll = t.r.Die(20)
	}
	ac := t.g.C[d].AC
	charging := false
	if t.tr != nil {
		charging = verb == "charges into"
		mod, ac = t.traitThrow(a, d, mod+bonus, ac, charging)
		bonus = 0
	}
	total, need := roll+mod+bonus, c.AttackThrow+ac
	if t.g.Opt.DescendingAC {
		total, need = roll+mod+bonus+ac, c.AttackThrow
	}
	hit := roll == 20 || (roll != 1 && total >= need)
	if !hit {
		if t.log != nil {
			t.logf("%s %s %s: d20 %d%s = %d vs %d: miss", c.Name, msg.New(verb), t.name(d), roll, t.mods(d, mod+bonus), total, need)
			t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Die: roll, Roll: total, Need: need, Rule: verb})
		}
		return false
	}
	var dmg int
	if t.wd && t.dmg1[a].sides > 0 { // shortcuts.go: one die written out
		d1 := &t.dmg1[a]
		un := uint64(d1.sides)
		hi, lo := bits.Mul64(t.r.Uint64(), un)
		dmg = int(hi) + 1
		if lo < un {
			dmg = plain.Reroll(t.r, un, hi, lo)
		}
		dmg = max(dmg+d1.k, 1)
	} else {
		dmg = max(t.dmgDice[a].Roll(t.r, &c.Damage), 1)
	}
	if t.tr != nil {
		dmg = t.traitHit(a, d, dmg, roll, charging)
	}
	if t.log != nil {
		t.logf("%s %s %s: d20 %d%s = %d vs %d: hit, %d damage (hp %d -> %d)", c.Name, msg.New(verb), t.name(d), roll, t.mods(d, mod+bonus),
			total, need, dmg, t.f[d].hp, t.f[d].hp-dmg)
		t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Die: roll, Roll: total, Need: need, OK: true, Amount: dmg, Rule: verb})
	}
	return t.damage(a, d, dmg)
}

// mods formats the modifiers added to an attack throw's d20.
func (t *Table) mods(d, mod int) string {
	s := ""
	if mod != 0 {
		s = " " + signed(mod)
	}
	if t.g.Opt.DescendingAC {
		s += " + AC " + signed(t.g.C[d].AC)
	}
	return s
}

// damage applies dmg from a to d and reports whether d was killed. A
// combatant still standing loses a ready action, and a declared spell it
// has not cast yet (option disrupt_declared_casters).
func (t *Table) damage(a, d, dmg int) bool {
	f := &t.f[d]
	f.hp -= dmg
	t.c.Hit(t.side(a), a, d, dmg)
	if f.hp > 0 {
		if t.weakOn {
			t.lowered(d, dmg)
		}
		t.loseReadiness(d, "takes damage")
		t.disruptCast(d)
		return false
	}
	if !f.out {
		t.c.Down(d, a)
	}
	t.takeOut(d)
	f.dead = true
	t.c.Inc(t.side(d), Deaths)
	if t.log != nil {
		t.logf("%s is killed", t.name(d))
		t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: sim.NoOne, Amount: t.f[d].hp, Rule: "killed"})
	}
	return true
}

// cleave: a combatant that kills an opponent may make another attack
// against an opponent it can reach (within 5 feet; a round-1 missile shot
// that kills cleaves at any enemy in range), up to its per-round limit
// (option cleave_limit, field cleaves); a kill by the cleave may cleave
// again within the limit. The policy picks the target.
func (t *Table) cleave(a int) {
	for !t.f[a].out && t.f[a].cleaves < t.g.C[a].Cleaves {
		tg := t.g.C[a].Policy.Cleave(t, a)
		if !t.canAttack(a, tg) {
			return
		}
		t.f[a].cleaves++
		t.c.Inc(t.side(a), Cleaves)
		if !t.attack(a, tg, t.g.C[a].Attacks[0], 0, "cleaves into") {
			return
		}
	}
}
