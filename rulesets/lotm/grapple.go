package lotm

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
// Not implemented: the size- and Strength-difference rules (limb grabs,
// 2- and 4-level differences), and area effects that hit both grapplers.

func (t *Table) grapple(i, tg int, oneHand bool) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, Grapples)
	if !t.hitCheck(i, tg, c.Fighting-t.armPenaltyFighting(i), true, "grapple") {
		return
	}
	t.c.Inc(c.Side, GrapplesWon)
	f := &t.f[i]
	f.grappling, f.oneHand = tg, oneHand
	f.hidden = false
	t.f[tg].grappledBy = i
	t.f[tg].hidden = false
	if t.log != nil {
		hands := "two hands"
		if oneHand {
			hands = "one hand"
		}
		t.logf("  %s grapples %s with %s: both Restrained", c.Name, t.name(tg), hands)
	}
	t.delaysOnGrapple(i, tg)
}

// armPenaltyFighting: Grapple is a Fighting check even for a combatant
// whose weapon is ranged.
func (t *Table) armPenaltyFighting(i int) int { return 2 * t.f[i].armHits }

// breakFree: the grappled creature's Strength contest at the start of its
// turn (no action). The grappler's total is halved, rounded down, when it
// holds with one hand.
func (t *Table) breakFree(i int) {
	g := t.f[i].grappledBy
	ni, ng := t.die(20), t.die(20)
	ti := ni + t.g.C[i].Strength
	tg := ng + t.g.C[g].Strength
	half := ""
	if t.f[g].oneHand {
		tg = floorHalf(tg)
		half = " (one hand: halved)"
	}
	win := ti > tg || (ti == tg && t.g.Opt.TiesTo == "attacker")
	if t.log != nil {
		t.logf("  break free: %s d20 %d %+d = %d vs %s d20 %d %+d%s = %d: %s", t.name(i), ni, t.g.C[i].Strength, ti,
			t.name(g), ng, t.g.C[g].Strength, half, tg, freeText(win))
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
		t.f[g].grappledBy = -1
		f.grappling, f.oneHand = -1, false
	}
	if g := f.grappledBy; g >= 0 {
		t.f[g].grappling, t.f[g].oneHand = -1, false
		f.grappledBy = -1
	}
}

func freeText(win bool) string {
	if win {
		return "free"
	}
	return "still held"
}
