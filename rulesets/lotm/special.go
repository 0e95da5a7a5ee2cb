package lotm

import (
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/msg"
)

// Three special actions that answer an enemy's move rather than take a
// turn: Spiritual Intuition against an ambush (option spiritual_intuition),
// Limb Block against a Vital Strike (field limb_block) and Borrow Strength
// Against Strength against a melee critical failure (field
// borrow_strength). A combatant with the field uses the reaction whenever
// the rules let it and its policy is willing (Reactor: the limb, or no
// block; "if the enemy is willing"); the reaction's action (Swift,
// Attack) is the round's, so it is gone from the combatant's turn if that
// has not come yet.

// intuitionDC is Spiritual Intuition's Difficulty.
const intuitionDC = 25

// spiritualIntuition (option spiritual_intuition): as an Ambush Round
// starts, each ambushed combatant that would be Caught Off Guard makes the
// passive Intuition check, d20 + intuition against Difficulty 25 (meeting
// it succeeds, as a hit check meets Physical Defense). Success: it senses
// the danger and is not Caught Off Guard in this round; the round's
// Advantage/Disadvantage stay (it still does not know where or why). The
// source's "repeated checks on the same matter give the same result" is
// kept by rolling once per Ambush Round; a new ambush is a new matter.
func (t *Table) spiritualIntuition() {
	for _, i := range t.order {
		f := &t.f[i]
		if !f.ambushed || !f.cog {
			continue
		}
		n := t.die(20)
		total := n + t.intuition(i)
		ok := total >= intuitionDC
		if t.log != nil {
			t.logf("  spiritual intuition: %s d20 %d %+d = %d vs difficulty %d: %s", t.name(i), n, t.intuition(i), total, intuitionDC,
				eitherT(ok, msg.New("senses danger: not Caught Off Guard"), msg.New("senses nothing")))
			t.ev(sim.Event{Kind: sim.EvCheck, Actor: i, Target: sim.NoOne, Die: n, Roll: total, Need: intuitionDC, OK: ok, Rule: "spiritual intuition"})
		}
		if ok {
			f.cog = false
			t.c.Inc(t.side(i), IntuitionSaves)
		}
	}
}

// limbBlock: d, the target of a's Vital Strike that hit (total: a's check
// result) at a part that is not a limb, blocks it with a limb: a Swift
// action, an Agility check against that result; won (a tie to the blocker
// under contest_ties defender, the one resisting), the strike is treated
// as having hit the limb: its damage and that limb's effect instead of the
// part's. Each of the four limbs blocks once an encounter. Which limb is
// the policy's choice when it implements Reactor, else the legs first
// (a leg hit halves speed, an arm hit costs -2 on every Fighting check).
// Not against a firearm (field firearm) unless it can dodge light or
// lightning (dodge_light): the source's "too slow against firearms". It
// returns the part hit.
func (t *Table) limbBlock(d, a int, part Part, total int) Part {
	f := &t.f[d]
	if !t.g.C[d].LimbBlock || part == Arms || part == Legs || f.legBlocks+f.armBlocks >= 4 || (t.g.C[a].Shots > 0 && !t.g.C[d].DodgeLight) ||
		!t.present(d) || f.stunned || !t.canUse(d, KindSwift) || (t.amb && !f.ambusher) {
		return part
	}
	limb := Legs
	if f.legBlocks >= 2 {
		limb = Arms
	}
	if r, ok := t.g.C[d].Policy.(Reactor); ok {
		// "Choose one of your four limbs": the policy's choice; a limb
		// that has blocked twice already, or no limb, is no block.
		limb = r.LimbBlock(t, d, a, part, total)
		if (limb != Legs || f.legBlocks >= 2) && (limb != Arms || f.armBlocks >= 2) {
			return part
		}
	}
	t.use(d, KindSwift)
	adv, dis := t.advState(d, a, false, false)
	nat, mod := t.roll(adv, dis)
	check := nat + t.agility(d) + mod
	ok := check > total || (check == total && t.g.Opt.TiesTo == "defender")
	if t.log != nil {
		t.logf("  limb block: %s %s %+d = %d vs %s's %d: %s", t.name(d), t.rollText(nat, adv, dis), t.agility(d)+mod, check, t.name(a), total,
			eitherT(ok, msg.New("blocked with the %s", PartNames[limb]), msg.New("not blocked")))
		t.ev(sim.Event{Kind: sim.EvCheck, Actor: d, Target: a, Die: nat, Roll: check, Need: total, OK: ok, Rule: "limb block"})
	}
	if !ok {
		return part
	}
	if limb == Legs {
		f.legBlocks++
	} else {
		f.armBlocks++
	}
	t.c.Inc(t.side(d), LimbBlocks)
	return limb
}

var borrowDamage = dice.MustParse("1d3")

// BorrowFlips reports whether d's Borrow Strength against a would flip a
// (use (1)): d's Strength is not 3 or more below a's, or d is at least 2
// size levels larger; else it is one Attack action that hits (use (2)).
func (t *Table) BorrowFlips(d, a int) bool {
	cd, ca := &t.g.C[d], &t.g.C[a]
	return cd.Strength > ca.Strength-3 || cd.Size-ca.Size >= 2
}

// borrowStrength: a's melee attack on d was a critical failure (a natural
// 1, option naturals), and d answers with Borrow Strength Against
// Strength: its Attack action of the round, the check succeeding by
// default. (1) With Strength not 3 or more below a's, or at least 2 size
// levels larger (field size: the source's "2-level build difference"), it
// flips a: 1d3 + its Strength damage die, then a makes a Difficulty 20
// Agility check (d20 + agility) or is Off-Balance; a natural 1 on it hits
// the head: Stunned for 1 round. (2) Otherwise it applies one Attack
// action: its weapon's damage. Not modelled: a balance-type Beyonder
// ability that spares the Agility check (no combatant has one). The ambushed do not use it during an Ambush Round
// (they do not act in it).
//
// Against a Leg Sweep's critical failure it is the sweep's answer instead:
// a Swift action, the Strength damage die halved (legSweep).
func (t *Table) borrowStrength(d, a int) {
	t.borrow(d, a, KindAttack)
}

// borrow is Borrow Strength paid with an action of kind k (Attack, or Swift
// against a Leg Sweep, whose Strength die is then halved, rounded up); it
// reports whether d did.
func (t *Table) borrow(d, a int, k Kind) bool {
	f := &t.f[d]
	if !t.g.C[d].Borrow || !t.present(d) || !t.present(a) || f.stunned || t.noAttacks(d) ||
		!t.canUse(d, k) || (t.amb && !f.ambusher) {
		return false
	}
	// "If the enemy is willing": the policy's choice when it implements
	// Reactor, else always.
	if r, ok := t.g.C[d].Policy.(Reactor); ok && !r.Borrow(t, d, a, k == KindSwift) {
		return false
	}
	t.use(d, k)
	t.c.Inc(t.side(d), Borrows)
	t.c.Inc(t.side(d), sim.Actions)
	cd, ca := &t.g.C[d], &t.g.C[a]
	// (1) needs Strength "not lower than theirs by 3 points" (exactly 3
	// below forbids it) or a 2-level build difference, read as d at least
	// 2 size levels larger (field size): a smaller one flips no one.
	if !t.BorrowFlips(d, a) {
		dmg := cd.Damage.Roll(t.r)
		if t.log != nil {
			t.logf("  %s borrows strength against %s's critical failure: an Attack action that hits by default", cd.Name, ca.Name)
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Amount: dmg, Rule: "borrow strength: attack"})
		}
		t.damage(d, a, dmg)
		return true
	}
	sd := cd.StrDamage.Roll(t.r)
	if k == KindSwift {
		sd = (sd + 1) / 2
	}
	dmg := borrowDamage.Roll(t.r) + sd
	if t.log != nil {
		t.logf("  %s borrows strength against %s's critical failure and flips it", cd.Name, ca.Name)
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Amount: dmg, Rule: "borrow strength: flip"})
	}
	t.damage(d, a, dmg)
	if !t.present(a) {
		return true
	}
	n, ag := t.die(20), t.agility(a)
	total := n + ag
	switch {
	case t.g.Opt.Naturals && n == 1:
		t.f[a].offBalance, t.f[a].stunned, t.unusual = true, true, true
	case total < 20:
		t.f[a].offBalance = true
	}
	if t.log != nil {
		res := msg.New("keeps its balance")
		if t.f[a].stunned && n == 1 && t.g.Opt.Naturals {
			res = msg.New("critical failure: lands on its head, Off-Balance and Stunned")
		} else if total < 20 {
			res = msg.New("Off-Balance")
		}
		t.logf("  %s: agility d20 %d %+d = %d vs difficulty 20: %s", ca.Name, n, ag, total, res)
		t.ev(sim.Event{Kind: sim.EvCheck, Actor: a, Target: sim.NoOne, Die: n, Roll: total, Need: 20, OK: total >= 20 && !t.f[a].stunned, Rule: "leg sweep balance"})
	}
	return true
}

// legSweep: with the Attack action, a kick with the legs (Agility 5 or
// more: canAttackWith) at tg and up to two more enemies standing together
// with it (within 1 meter of the sweeper: the source's "height / 2" range
// is read as melee reach, heights not being modelled), in initiative order:
// one Fighting check (field fighting, the source's Fighting (Unarmed))
// against each one's Physical Defense, a hit dealing 1d3 + half the
// Strength damage die (rounded up). A critical failure (a natural 1, option
// naturals) loses balance (Off-Balance) and ends the sweep, unless that
// target answers it with Borrow Strength (field borrow_strength) as a Swift
// action at half Strength die, instead. The source's other answer, a
// one-handed grapple, is not offered. It cannot be a Double Strike.
func (t *Table) legSweep(i, tg int) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, LegSweeps)
	n := 0
	for k := -1; k < len(t.order) && n < 3 && t.present(i); k++ {
		e := tg
		if k >= 0 {
			e = t.order[k]
			if e == tg || t.side(e) == t.side(i) || !t.Targetable(i, e) || t.Dist(i, e) > Reach {
				continue
			}
		}
		n++
		if t.hitCheck(i, e, c.Fighting-t.armPenaltyFighting(i), false, "leg sweep") {
			t.damage(i, e, borrowDamage.Roll(t.r)+(c.StrDamage.Roll(t.r)+1)/2)
			continue
		}
		if !t.g.Opt.Naturals || t.nat != 1 {
			continue
		}
		if !t.borrow(e, i, KindSwift) {
			t.f[i].offBalance = true
			if t.log != nil {
				t.logf("  %s's leg sweep is a critical failure: it loses its balance (Off-Balance)", c.Name)
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: i, Target: tg, Rule: "leg sweep critical failure"})
			}
		}
		return
	}
}

// eitherT is either2 of two narrated phrases.
func eitherT(ok bool, yes, no msg.Text) msg.Text {
	if ok {
		return yes
	}
	return no
}

func either2(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}

// Point-Blank Shooting's rule for a hit check (Table.pb).
const (
	pbNone     uint8 = iota
	pbArmor          // the check succeeds when greater than the target's Armor
	pbOffGuard       // the check ignores the target's Agility and Dodge
)

// volley: a firearm's Attack action, its shots (field firearm) in a row,
// each a hit check (the source's revolver firing three shots); one-check
// benefits go to the first, a Build-Up Aim is one shot's (each needs its
// own Swift action). The rest are lost once the target is out.
func (t *Table) volley(i, tg int) {
	c := &t.g.C[i]
	for k := 0; k < c.Shots && t.present(tg) && t.present(i); k++ {
		if t.hitCheck(i, tg, c.Attack, false, "shot") {
			t.damage(i, tg, c.Damage.Roll(t.r))
		}
	}
}

// pointBlank: Point-Blank Shooting, an Attack action with a firearm at a
// target within 1 meter (needsReach). Every shot has Build-Up Aim's +2
// without a Swift action (not stacking: an aim already built is not added
// again). The first shot: against a target that cannot Fast Dodge it
// succeeds when greater than the target's Armor; against one that can,
// unless it can dodge light or lightning (dodge_light), it ignores the
// Agility and Dodge parts of Physical Defense; against one that can dodge
// light, only the +2. The source's "advance declaration to dodge point-blank
// shooting" is a GM call this simulator does not make.
func (t *Table) pointBlank(i, tg int) {
	c := &t.g.C[i]
	d := &t.g.C[tg]
	t.c.Inc(c.Side, PointBlanks)
	for k := 0; k < c.Shots && t.present(tg) && t.present(i); k++ {
		t.f[i].aim = true
		if k == 0 {
			switch {
			case !d.FastDodge:
				t.pb = pbArmor
			case !d.DodgeLight:
				t.pb = pbOffGuard
			}
		}
		if t.hitCheck(i, tg, c.Attack, false, "point-blank shot") {
			t.damage(i, tg, c.Damage.Roll(t.r))
		}
	}
}
