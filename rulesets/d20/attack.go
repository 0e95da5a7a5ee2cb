package d20

import (
	"math/bits"
	"strconv"

	"simctl/rulesets/internal/plain"
	"simctl/sim"
	"simctl/sim/msg"
)

// attackAction is the standard action attack: one attack with the first
// bonus.
func (t *Table) attackAction(a, d int) {
	t.enemyAttacks(a, d)
	if t.f[a].out || t.f[d].out {
		return
	}
	t.c.Inc(t.side(a), sim.Actions)
	t.attack(a, d, t.g.C[a].Attacks[0], 0)
}

// fullAttack is the full-round action: every bonus of attacks, in order.
// When the target drops, the remaining attacks go to another enemy in reach
// (the policy's Retarget, or the weakest).
func (t *Table) fullAttack(a, d int) {
	t.enemyAttacks(a, d)
	if t.f[a].out {
		return
	}
	t.c.Inc(t.side(a), sim.Actions)
	for _, bonus := range t.g.C[a].Attacks {
		if t.f[d].out {
			d = t.retarget(a)
			if d < 0 {
				return
			}
			t.enemyAttacks(a, d)
			if t.f[a].out {
				return
			}
		}
		t.attack(a, d, bonus, 0)
		if t.over() {
			return
		}
	}
}

// Retargeter is an optional Policy ability: choosing the next target in
// reach when a full attack drops the first.
type Retargeter interface {
	Retarget(t *Table, self int) int
}

func (t *Table) retarget(a int) int {
	if r, ok := t.g.C[a].Policy.(Retargeter); ok {
		if d := r.Retarget(t, a); d >= 0 && !t.f[d].out && t.InReach(a, d) && t.side(d) != t.side(a) {
			return d
		}
		return -1
	}
	return t.PickTarget(a, TargetWeakest, t.g.C[a].Reach, false)
}

// attack makes one attack roll of a against d with bonus and applies the
// damage; extraMult adds to the damage multiplier (a braced weapon against a
// charge). It returns the damage dealt.
//
// SRD: a natural 1 misses and a natural 20 hits; a roll in the threat range
// that hits is a threat, confirmed by a second attack roll with the same
// bonuses; a critical rolls the damage mult times. Multipliers add: x2 on a
// x3 critical is x4 ("each extra multiple adds one less than its value").
// A hit deals at least 1 point.
func (t *Table) attack(a, d, bonus, extraMult int) int {
	return t.strike(a, d, bonus, extraMult, false)
}

// strike is one attack roll with the melee weapon or, ranged, the ranged
// one (shot, whose bonus arrives with its penalties).
func (t *Table) strike(a, d, bonus, extraMult int, ranged bool) int {
	c := &t.g.C[a]
	damage, threatFrom, critMult := &c.Damage, c.ThreatFrom, c.CritMult
	if ranged {
		w := &c.Ranged
		damage, threatFrom, critMult = &w.Damage, w.ThreatFrom, w.CritMult
	}
	flanking := !ranged && t.Flanks(a, d)
	if flanking {
		bonus += 2
	}
	t.firstAction(a)
	ac := t.ac(d)
	if t.g.traits.at(a, mAttackRoll, d, mAttacked) {
		bonus, ac = t.traitAttackRoll(a, d, bonus, ac, ranged, flanking)
	}
	// A d20 (rng.Stream.D20) written out: no call on the usual word.
	hi, lo := bits.Mul64(t.r.Uint64(), 20)
	roll := int(hi) + 1
	if lo < 20 {
		roll = plain.Reroll(t.r, 20, hi, lo)
	}
	hit := roll == 20 || (roll != 1 && roll+bonus >= ac)
	if !hit {
		if t.log != nil {
			t.logAttack(a, d, roll, bonus, ac, false, false, 0, 0, 0)
		}
		return 0
	}
	mult := 1 + extraMult
	crit := false
	conf := 0 // the confirmation roll, 0 when none was made
	if roll >= threatFrom {
		crit = true
		if t.g.Opt.ConfirmCrits {
			conf = d20(t.r)
			crit = conf == 20 || (conf != 1 && conf+bonus >= ac)
		}
		if crit {
			mult += critMult - 1
			t.c.Inc(t.side(a), Criticals)
		}
	}
	dmg := 0
	for k := 0; k < mult; k++ {
		dmg += rollDice(t.r, damage)
	}
	// SRD Sneak Attack: the target is denied its Dexterity bonus to AC
	// (flat-footed, unless uncanny dodge keeps it) or the rogue flanks it.
	if c.sneak && (t.f[d].flatFooted && !t.g.C[d].UncannyDodge || flanking) {
		s := c.SneakAttack.Roll(t.r) // once: extra dice are not multiplied
		if t.log != nil {
			t.logSneak(a, d, dmg, s)
		}
		dmg += s
	}
	if t.g.traits.at(a, mHit, d, mHitTaken) && t.hitMayFire(a, d, crit, ranged, flanking) {
		dmg = t.traitHit(a, d, dmg, mult, crit, ranged, flanking)
	} else {
		dmg = max(dmg, 1)
	}
	if t.log != nil {
		t.logAttack(a, d, roll, bonus, ac, true, crit, dmg, mult, conf)
	}
	t.damage(a, d, dmg)
	return dmg
}

// logSneak narrates the sneak_attack field's dice as the library trait
// sneak_attack narrates its effect, so a trace shows the extra damage
// either way.
func (t *Table) logSneak(a, d, dmg, extra int) {
	t.logf("  %s's sneak attack: damage += %s (damage %d -> %d)", t.name(a), t.g.C[a].SneakAttack.String(), dmg, dmg+extra)
	t.ev(sim.Event{Kind: sim.EvTrait, Actor: a, Target: d, Roll: dmg, Amount: dmg + extra, Rule: "sneak attack"})
}

// logAttack narrates an attack roll (kept out of attack, whose hot path
// then holds no formatting).
func (t *Table) logAttack(a, d, roll, bonus, ac int, hit, crit bool, dmg, mult, conf int) {
	if !hit {
		t.logf("%s attacks %s: d20 %d %+d = %d vs AC %d: miss", t.name(a), t.name(d), roll, bonus, roll+bonus, ac)
		t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Die: roll, Roll: roll + bonus, Need: ac})
		return
	}
	what := "hit"
	if crit {
		what = "critical hit"
	}
	t.logf("%s attacks %s: d20 %d %+d = %d vs AC %d: %s for %d (damage x%d)", t.name(a), t.name(d), roll, bonus, roll+bonus, ac, msg.New(what), dmg, mult)
	t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Die: roll, Roll: roll + bonus, Need: ac, OK: true, Amount: dmg, Rule: what + " x" + strconv.Itoa(mult)})
	if conf > 0 {
		verdict := msg.New("not confirmed")
		if crit {
			verdict = msg.New("confirmed")
		}
		t.logf("  (threat; confirmation d20 %d %+d = %d vs AC %d: %s)", conf, bonus, conf+bonus, ac, verdict)
		t.ev(sim.Event{Kind: sim.EvCheck, Actor: a, Target: d, Die: conf, Roll: conf + bonus, Need: ac, OK: crit, Rule: "critical confirmation"})
	}
}

// charge (SRD "Charge"): a full-round action moving at least 10 feet and up
// to twice speed straight at the target, then one attack at +2; the charger
// has -2 AC until its next turn. In a surprise round only up to speed.
func (t *Table) charge(a, d int) {
	f := &t.f[a]
	f.charging = true
	t.c.Inc(t.side(a), Charges)
	if t.log != nil {
		t.logf("%s charges %s", t.name(a), t.name(d))
		t.ev(sim.Event{Kind: sim.EvAction, Actor: a, Target: d, Rule: "charge"})
	}
	// A shot readied against the charge goes before it (ready.go: approach),
	// before the charge's -2 AC applies.
	t.approach(a, f.x)
	if f.out {
		f.charging = false
		return
	}
	f.chargeAC = true
	t.move(a, d, t.Dist(a, d)-t.g.C[a].Reach)
	if !f.out && !t.f[d].out && t.InReach(a, d) {
		t.enemyAttacks(a, d)
		if !f.out && !t.f[d].out {
			t.c.Inc(t.side(a), sim.Actions)
			// The +2 is the charge's single attack's ("a single melee
			// attack. You get a +2 bonus on the attack roll"), not that of
			// an attack of opportunity the charger makes on the way.
			t.attack(a, d, t.g.C[a].Attacks[0]+2, 0)
		}
	}
	f.charging = false
}
