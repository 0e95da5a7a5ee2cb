package cavaliers

import (
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/sim"
)

// Combat resolution, kept simple and configurable (the source's Yield and
// Wounds are out of scope, RULES.md §3): the attacker rolls its attack
// dice, the defender its defence (a fixed number when defence is a
// constant); the attack hits when it reaches the defence (option
// attack_ties: miss makes it have to beat it). A hit deals the attacker's
// damage dice (at least 0) off the defender's hp; at 0 or below the
// defender is out of the fight.
//
// Reprise Attack (source): "If you failed on an attack roll, you can
// repeat the attack. This can't be used after a successful attack. You can
// Reprise Attack only once per round." The repeat is a new attack roll
// against a new defence roll, at the same target (the interposer if the
// attack was redirected). Once a round means a failed reprise cannot be
// reprised again that round.

// attackAction is a's attack on tg: the Interpose offer, the roll, and a
// Reprise after a failure.
func (t *Table) attackAction(a, tg int) {
	d := tg
	if t.able[Interpose] != 0 { // else nobody may interpose: no call
		d = t.redirect(a, tg)
	}
	// Either out of the fight (out: entered, so no longer present).
	if (t.in>>(uint(a)&63))&(t.in>>(uint(d)&63))&1 == 0 {
		return
	}
	if t.attack(a, d) {
		return
	}
	if t.can(a, Reprise) && t.g.C[a].Policy.Reprise(t, a, d) {
		t.pay(a, Reprise)
		if t.log != nil {
			t.logf("%s reprises the failed attack", t.name(a))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: a, Target: d, Rule: "reprise"})
		}
		t.reprising = true
		if t.attack(a, d) {
			t.c.Inc(t.side(a), RepriseHits)
		}
		t.reprising = false
	}
}

// attack rolls one attack of a against d and applies the damage; it
// reports whether it hit.
func (t *Table) attack(a, d int) bool {
	fa := &t.f[a]
	fa.attacks++
	r := t.r
	// The attack dice, then the defence dice: NdM+K written out (the words
	// of plain.Dice.Roll, with no call; two dice, the common pool, without
	// the loop), else the Expr.
	ka, kd := &t.dk[a].attack, &t.dk[d].defence
	roll := ka.k
	if ka.n == 2 {
		un := uint64(ka.m)
		hi, lo := bits.Mul64(r.Uint64(), un)
		if lo < un {
			hi = uint64(plain.Reroll(r, un, hi, lo) - 1)
		}
		hi2, lo2 := bits.Mul64(r.Uint64(), un)
		if lo2 < un {
			hi2 = uint64(plain.Reroll(r, un, hi2, lo2) - 1)
		}
		roll += int(hi) + int(hi2) + 2
	} else if ka.n > 0 {
		un := uint64(ka.m)
		for j := ka.n; j > 0; j-- {
			hi, lo := bits.Mul64(r.Uint64(), un)
			if lo < un {
				roll += plain.Reroll(r, un, hi, lo)
				continue
			}
			roll += int(hi) + 1
		}
	} else if ka.n < 0 {
		roll = t.g.C[a].Attack.Roll(r)
	}
	def := kd.k
	if kd.n == 2 {
		un := uint64(kd.m)
		hi, lo := bits.Mul64(r.Uint64(), un)
		if lo < un {
			hi = uint64(plain.Reroll(r, un, hi, lo) - 1)
		}
		hi2, lo2 := bits.Mul64(r.Uint64(), un)
		if lo2 < un {
			hi2 = uint64(plain.Reroll(r, un, hi2, lo2) - 1)
		}
		def += int(hi) + int(hi2) + 2
	} else if kd.n > 0 {
		un := uint64(kd.m)
		for j := kd.n; j > 0; j-- {
			hi, lo := bits.Mul64(r.Uint64(), un)
			if lo < un {
				def += plain.Reroll(r, un, hi, lo)
				continue
			}
			def += int(hi) + 1
		}
	} else if kd.n < 0 {
		def = t.g.C[d].Defence.Roll(r)
	}
	if t.tr != nil {
		roll, def = t.traitAttack(a, d, roll, def)
	}
	hit := roll > def || (roll == def && t.g.Opt.AttackTies)
	if !hit {
		if t.log != nil {
			t.logf("%s attacks %s: %d vs defence %d: miss", t.name(a), t.name(d), roll, def)
			t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Roll: roll, Need: def})
		}
		return false
	}
	fa.hits++
	// The damage dice, as the attack's.
	kg := &t.dk[a].damage
	dmg := kg.k
	if kg.n > 0 {
		un := uint64(kg.m)
		for j := kg.n; j > 0; j-- {
			hi, lo := bits.Mul64(r.Uint64(), un)
			if lo < un {
				dmg += plain.Reroll(r, un, hi, lo)
				continue
			}
			dmg += int(hi) + 1
		}
	} else if kg.n < 0 {
		dmg = t.g.C[a].Damage.Roll(r)
	}
	dmg = max(dmg, 0)
	if t.tr != nil {
		dmg = t.traitHit(a, d, dmg)
	}
	f := &t.f[d]
	f.hp -= dmg
	fa.dealt += int64(dmg)
	f.taken += int64(dmg)
	if f.hp <= 0 {
		f.out = true
		t.up[t.sd[d]]--
		t.in &^= 1 << uint(d)
		t.c.Down(d, a)
	}
	if t.log != nil {
		t.logf("%s attacks %s: %d vs defence %d: hit for %d (hp %d)", t.name(a), t.name(d), roll, def, dmg, f.hp)
		t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Roll: roll, Need: def, OK: true, Amount: dmg})
		if f.out {
			t.logf("%s is out of the fight", t.name(d))
			t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: a, Amount: f.hp, Rule: "out"})
		}
	}
	return true
}
