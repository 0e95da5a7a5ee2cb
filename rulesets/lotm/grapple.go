package lotm

import (
	"simctl/sim"
	"simctl/sim/msg"
)

// Grapple: an Attack action, Fighting against Physical Defense ignoring
// Armor (a hit check: Build-Up Aim, Caught Off Guard and Advantage apply).
// Won: the target is Restrained, and so is the grappler. While in the
// grapple neither takes Attack or Move actions (Casting actions are not
// forbidden), with two exceptions: a two-handed grappler may, as its Attack
// action, squeeze (Brawling against Constitution, the Strength damage die
// in damage: field strength_damage); a one-handed grappler takes normal
// Attack actions but its Strength contest is halved, rounded down, and it
// cannot squeeze. Changing from two hands to one is a Swift action.
//
// Each time the grappled creature's turn comes it may (no action) make a
// Strength contest against the grappler; winning breaks free. The contests
// between the two are rolled without Advantage/Disadvantage ("no additional
// advantage/disadvantage applies beyond the Restrained condition"), and
// Restrained gives none to others either: the source's other rules do that
// (a Restrained creature with no casting has no means to attack, so anyone
// who can attack it has the flanking condition 4 against it). The grapple
// ends when either is out or the grappler lets go.
//
// Size and Strength differences (field size, a size level; sizeGap). The
// grappler's gap over the target is their size difference, 2 more when its
// Strength is at least twice the target's (2 less the other way): the
// source's "treat it directly as a 4-level difference" when both hold.
//
//   - gap <= -2, the smaller grappling the larger: the hold only stops the
//     larger's Move actions; it is Restrained but still takes Attack actions;
//   - gap <= -4: the smaller cannot grapple at all;
//   - gap >= 2: the larger may grab a limb with one hand (Plan.Limb): a hold
//     that likewise stops only Move actions, its Strength contest not
//     halved; a one-handed hold of the whole body still halves it, unless
//     gap >= 4.
//
// Not implemented: area effects that hit both grapplers (none here).

// sizeGap is a's size advantage over b in levels, Strength doubling
// counting 2 (both Strengths positive: a Strength of 0 or less has no
// factor of two to compare).
func (t *Table) sizeGap(a, b int) int {
	ca, cb := &t.g.C[a], &t.g.C[b]
	gap := ca.Size - cb.Size
	switch {
	case cb.Strength > 0 && ca.Strength >= 2*cb.Strength:
		gap += 2
	case ca.Strength > 0 && cb.Strength >= 2*ca.Strength:
		gap -= 2
	}
	return gap
}

func (t *Table) grapple(i, tg int, oneHand, limb bool) {
	c := &t.g.C[i]
	gap := t.sizeGap(i, tg)
	var why msg.Text
	switch {
	case gap <= -4:
		why = msg.New("is 4 or more size levels smaller (Strength doubling counts 2) and cannot grapple")
	case limb && gap < 2:
		why = msg.New("is not 2 size levels larger and cannot grab a limb")
	}
	if why.Format != "" {
		if t.log != nil {
			t.logf("  %s %s %s", c.Name, why, t.name(tg))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: tg, Rule: "grapple: " + why.String()})
		}
		return
	}
	t.c.Inc(c.Side, Grapples)
	if !t.hitCheck(i, tg, c.Fighting-t.armPenaltyFighting(i), true, "grapple") {
		return
	}
	t.c.Inc(c.Side, GrapplesWon)
	f := &t.f[i]
	oneHand = oneHand || limb
	f.grappling, f.oneHand = tg, oneHand
	t.unusual = true
	f.halved = oneHand && !limb && gap < 4
	f.hidden = false
	t.f[tg].grappledBy = i
	t.f[tg].moveOnly = limb || gap <= -2
	t.f[tg].hidden = false
	if t.log != nil {
		hands := msg.New("two hands")
		switch {
		case limb:
			hands = msg.New("one hand on a limb")
		case oneHand:
			hands = msg.New("one hand")
		}
		var held msg.Text
		if t.f[tg].moveOnly {
			held = msg.New(" (%s can still attack: size)", t.name(tg))
		}
		t.logf("  %s grapples %s with %s: both Restrained%s", c.Name, t.name(tg), hands, held)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: tg, Rule: "grapple: " + hands.String()})
	}
	t.delaysOnGrapple(i, tg)
}

// armPenaltyFighting: Grapple is a Fighting check even for a combatant
// whose weapon is ranged.
func (t *Table) armPenaltyFighting(i int) int { return 2 * t.f[i].armHits }

// breakFree: the grappled creature's Strength contest at the start of its
// turn (no action). The grappler's total is halved, rounded down, when it
// holds the whole body with one hand (not a limb grab, not at a 4-level
// gap).
func (t *Table) breakFree(i int) {
	g := t.f[i].grappledBy
	ni, ng := t.die(20), t.die(20)
	ti := ni + t.g.C[i].Strength
	tg := ng + t.g.C[g].Strength
	var half msg.Text
	if t.f[g].halved {
		tg = floorHalf(tg)
		half = msg.New(" (one hand: halved)")
	}
	win := ti > tg || (ti == tg && t.g.Opt.TiesTo == "attacker")
	if t.log != nil {
		t.logf("  break free: %s d20 %d %+d = %d vs %s d20 %d %+d%s = %d: %s", t.name(i), ni, t.g.C[i].Strength, ti,
			t.name(g), ng, t.g.C[g].Strength, half, tg, freeText(win))
		t.ev(sim.Event{Kind: sim.EvCheck, Actor: i, Target: g, Die: ni, Roll: ti, Need: tg, OK: win, Rule: "break free" + tagIf(half.Format != "", "halved")})
	}
	if win {
		t.c.Inc(t.side(i), GrapplesBroken)
		t.endGrapple(i)
	}
}

func floorHalf(v int) int {
	if v >= 0 {
		return v / 2
	}
	return -((-v + 1) / 2)
}

// squeeze: the two-handed grappler's one permitted Attack action.
func (t *Table) squeeze(i, tg int) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, Squeezes)
	if t.contest(i, c.Brawling, tg, t.g.C[tg].Con, contestPlain, true, "squeeze: brawling vs constitution") {
		t.damage(i, tg, c.StrDamage.Roll(t.r))
	}
}

// endGrapple ends any grapple x is in, on either side of it.
func (t *Table) endGrapple(x int) {
	f := &t.f[x]
	if g := f.grappling; g >= 0 {
		t.f[g].grappledBy, t.f[g].moveOnly = -1, false
		f.grappling, f.oneHand, f.halved = -1, false, false
	}
	if g := f.grappledBy; g >= 0 {
		t.f[g].grappling, t.f[g].oneHand, t.f[g].halved = -1, false, false
		f.grappledBy, f.moveOnly = -1, false
	}
}

func freeText(win bool) msg.Text {
	if win {
		return msg.New("free")
	}
	return msg.New("still held")
}
