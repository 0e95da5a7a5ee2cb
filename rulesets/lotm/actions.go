package lotm

import (
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/msg"
)

// Extra damage of a Vital Strike to the head and to the internal organs.
var vitalWhat = [...]string{"vital strike (head)", "vital strike (eyes)", "vital strike (arms)", "vital strike (legs)", "vital strike (organs)"}

var (
	headDamage   = dice.MustParse("2d6")
	organsDamage = dice.MustParse("3d6")
)

// attackAction is the turn's Attack action (or Casting action for a
// casting or a Vital Strike made with it): one of the attacks of Plan.Main
// against tg. delayed: a Delay Action paid for it already.
//
// As the action starts, enemies of the actor may bring their turns forward
// (a mid-combat ambush); the action completes first, then their turns. A
// hidden attacker's hit check is an invisibility ambush.
func (t *Table) attackAction(i int, p *Plan, tg int, delayed bool) {
	c := &t.g.C[i]
	f := &t.f[i]
	kind := KindAttack
	if p.Main == MainCast || (p.Main == MainVital && p.Cast) {
		kind = KindCasting
	}
	if !t.canAttackWith(i, p, tg, kind) {
		return
	}
	if !delayed {
		if !t.canUse(i, kind) {
			return
		}
		t.use(i, kind)
	} else {
		t.acts(i)
	}
	t.c.Inc(c.Side, sim.Actions)
	var mask uint64
	if t.actor == i {
		mask = t.insertCandidates(i, true)
	}
	if !t.actionTriggers(i, tg, kind) {
		if mask != 0 && !t.over() {
			t.runInserts(i, mask)
		}
		return
	}
	if f.cameTo == tg && !delayed {
		t.obstacleFoil(tg, i)
	}
	f.seen = true
	// Any attack from hiding is an invisibility ambush and gives the
	// attacker away, a Charge (a Strength contest with the ambush's
	// Advantage) as much as a hit check. (A squeezer cannot be hidden:
	// hide refuses the Restrained and a grapple reveals both.)
	if f.hidden {
		t.invisibilityAmbush(i, tg)
	}
	switch p.Main {
	case MainAttack:
		if c.Shots > 1 {
			t.volley(i, tg)
			break
		}
		if t.hitCheck(i, tg, c.Attack-t.armPenalty(i), false, "attack") {
			t.damage(i, tg, t.dmgDice[i].Roll(t.r, &c.Damage))
		} else {
			t.meleeMiss(i, tg)
		}
	case MainDouble:
		t.doubleStrike(i, tg)
	case MainPointBlank:
		t.pointBlank(i, tg)
	case MainLegSweep:
		t.legSweep(i, tg)
	case MainVital:
		t.vitalStrike(i, tg, p.Part, p.Cast)
	case MainGrapple:
		t.grapple(i, tg, p.OneHand, p.Limb)
	case MainCharge:
		t.charge(i, tg)
	case MainSqueeze:
		t.squeeze(i, tg)
	case MainCast:
		f.casts--
		t.c.Inc(c.Side, Casts)
		if t.hitCheck(i, tg, c.Cast.Bonus, false, "casting") {
			t.damage(i, tg, c.Cast.Damage.Roll(t.r))
		}
	}
	if mask != 0 && !t.over() {
		t.runInserts(i, mask)
	}
}

// canAttackWith checks what the rules require of the action, narrating a
// refusal.
func (t *Table) canAttackWith(i int, p *Plan, tg int, kind Kind) bool {
	if p.Main == MainAttack && tg >= 0 && t.sd[tg] != t.sd[i] && t.present(tg) && !t.noAttacks(i) &&
		(t.g.C[i].Ranged || t.Dist(i, tg) <= Reach) {
		// A plain attack (an Attack action) that passes canAttackChecked:
		// of its tests only the first, third and last concern it, and
		// they alone are asked.
		return true
	}
	return t.canAttackChecked(i, p, tg, kind)
}

// canAttackChecked is canAttackWith's every test, in order.
func (t *Table) canAttackChecked(i int, p *Plan, tg int, kind Kind) bool {
	c := &t.g.C[i]
	f := &t.f[i]
	var why msg.Text
	switch {
	case tg < 0 || t.side(tg) == t.side(i) || !t.present(tg):
		why = msg.New("has no enemy to act against")
	case p.Main == MainSqueeze && (f.grappling != tg || f.oneHand):
		why = msg.New("can squeeze only the one it grapples with both hands")
	case kind == KindAttack && p.Main != MainSqueeze && t.noAttacks(i):
		why = msg.New("is Restrained by a grapple: no Attack actions")
	case kind == KindCasting && f.casts == 0:
		why = msg.New("has no casting left")
	case p.Main == MainDouble && !c.CanDouble:
		why = msg.New("cannot Double Strike (field double_strike: fists or a short blade)")
	case p.Main == MainLegSweep && t.agility(i) < 5:
		why = msg.New("has Agility below 5 and cannot Leg Sweep")
	case p.Main == MainPointBlank && c.Shots == 0:
		why = msg.New("has no firearm for Point-Blank Shooting (field firearm)")
	case p.Main == MainGrapple && (f.grappling >= 0 || t.f[tg].grappling >= 0 || t.f[tg].grappledBy >= 0):
		why = msg.New("cannot start a grapple: one of them is already in one")
	case needsReach(p, c) && t.Dist(i, tg) > Reach:
		why = msg.New("is not within 1 meter of the target")
	default:
		return true
	}
	if t.log != nil {
		tn := "-"
		if tg >= 0 {
			tn = t.name(tg)
		}
		t.logf("  %s %s (%s at %s)", c.Name, why, MainNames[p.Main], tn)
		t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: tg, Rule: MainNames[p.Main] + ": " + why.String()})
	}
	return false
}

// meleeMiss: a missed weapon hit check; a critical failure (a natural 1
// with option naturals) in melee lets the target Borrow Strength.
func (t *Table) meleeMiss(i, tg int) {
	if t.nat == 1 && t.naturals && !t.g.C[i].Ranged { // the natural first: inlined, a miss asks no more
		t.borrowStrength(tg, i)
	}
}

// armPenalty: each Vital Strike to the arms gives -2 to Fighting attack
// checks (melee attacks, Double Strike, Grapple), adding up.
func (t *Table) armPenalty(i int) int {
	if t.g.C[i].Ranged {
		return 0
	}
	return 2 * t.f[i].armHits
}

// doubleStrike (fists or a short blade): two checks of d20 + Agility +
// Fighting (Unarmed) within the one Attack action. One-check benefits (an
// ambush's Advantage, an Aim, a Feint) go to the first. The second goes at
// the same target only; it is lost if the first took the target out.
func (t *Table) doubleStrike(i, tg int) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, DoubleStrikes)
	bonus := t.agility(i) + c.Double - 2*t.f[i].armHits
	for k := 0; k < 2 && t.present(tg) && t.present(i); k++ {
		if t.hitCheck(i, tg, bonus, false, "double strike") {
			t.damage(i, tg, t.dmgDice[i].Roll(t.r, &c.Damage))
		} else {
			t.meleeMiss(i, tg)
		}
	}
}

// vitalStrike: an attack (or a casting) at -10 aimed at a body part; on a
// hit, besides the damage:
//
//	head    stunned for 1 round (it loses its next turn), +2d6 damage
//	eyes    the second hit Blinds (Disadvantage on its hit checks)
//	arms    its Fighting attack checks -2, adding up
//	legs    its speed halved; from the second, 1 meter (additive 50%, never 0)
//	organs  +3d6 damage
//
// The source's ears (Deafened) have nothing to act on in this simulator
// and are not offered. The eyes, arms and legs effects last until First Aid
// removes them, one instance each; the permanent-injury warning is not
// modelled.
func (t *Table) vitalStrike(i, tg int, part Part, cast bool) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, VitalStrikes)
	bonus, dmg := c.Attack-t.armPenalty(i), c.Damage
	what := vitalWhat[part]
	if cast {
		t.f[i].casts--
		t.c.Inc(c.Side, Casts)
		bonus, dmg = c.Cast.Bonus, c.Cast.Damage
	}
	if !t.hitCheck(i, tg, bonus-10, false, what) {
		if !cast {
			t.meleeMiss(i, tg)
		}
		return
	}
	t.c.Inc(c.Side, VitalHits)
	part = t.limbBlock(tg, i, part, t.total)
	d := dmg.Roll(t.r)
	f := &t.f[tg]
	switch part {
	case Head:
		d += headDamage.Roll(t.r)
		f.stunned, t.unusual = true, true
	case Eyes:
		f.eyeHits++
	case Arms:
		f.armHits++
	case Legs:
		f.legHits++
	case Organs:
		d += organsDamage.Roll(t.r)
	}
	if t.log != nil {
		t.logf("  %s hits %s's %s for %d", c.Name, t.name(tg), PartNames[part], d)
		t.ev(sim.Event{Kind: sim.EvDamage, Actor: i, Target: tg, Amount: d, Rule: "vital strike: " + PartNames[part]})
	}
	t.damage(i, tg, d)
}

// charge: an Attack action (with the turn's Move to get there if needed):
// Strength against the target's Strength or Agility, whichever is higher
// (standing firm or dodging). Won: the target is Off-Balance — Agility
// halved, rounded up (its Physical Defense and speed with it), until it
// spends a Move action to stand. The source's "avoiding attacks can only be
// done by rolling to dodge" refers to reactions this simulator does not
// have. The charge is the one immediate check after a movement ambush.
func (t *Table) charge(i, tg int) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, Charges)
	resist := max(t.g.C[tg].Strength, t.agility(tg))
	if t.contest(i, c.Strength, tg, resist, contestAct, true, "charge: strength vs strength or agility") {
		t.c.Inc(c.Side, ChargesWon)
		if !t.f[tg].offBalance && t.log != nil {
			t.logf("  %s is Off-Balance", t.name(tg))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: tg, Rule: "off-balance"})
		}
		t.f[tg].offBalance = true
	}
}

// aimable reports whether p's main action makes a hit check against
// Physical Defense, the only check Build-Up Aim's +2 goes to: an attack,
// a Double or Vital Strike, a grapple (Fighting against Physical Defense
// without Armor), a casting, a point-blank shot, a Leg Sweep. A charge is
// a Strength contest and a squeeze Brawling against Constitution.
func aimable(p *Plan) bool {
	switch p.Main {
	case MainAttack, MainDouble, MainVital, MainGrapple, MainCast, MainPointBlank, MainLegSweep:
		return true
	}
	return false
}

// swift is the turn's Swift action (prepaid: a delayed Swift).
//
// Build-Up Aim: +2 on the next hit check against Physical Defense this
// turn; each attack needs its own (a Double Strike's second attack gets
// none). Feint: Deception (or Performance, or Brawling: field deception)
// against the higher of the target's Investigation and Intuition; won, the
// next attack this turn catches the target Caught Off Guard (unless it can
// Fast Dodge) and, being an ambush, has Advantage. Intimidate (once per
// round, which the one Swift action a round already ensures): a target
// within 1 meter, Intimidation against Willpower; won, the target must at
// once spend its Move action moving away, or, with none left this round, at
// its next turn. A Restrained target cannot move away.
func (t *Table) swift(i int, s Swift, tg int, prepaid bool) {
	if s == SwiftNone || (!prepaid && !t.canUse(i, KindSwift)) {
		return
	}
	c := &t.g.C[i]
	f := &t.f[i]
	enemy := tg >= 0 && t.side(tg) != t.side(i) && t.present(tg)
	switch s {
	case SwiftAim:
		f.aim = true
		t.c.Inc(c.Side, Aims)
		if t.log != nil {
			t.logf("  %s builds up aim (+2 on the next hit check)", c.Name)
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "aim"})
		}
	case SwiftFeint:
		if !enemy {
			return
		}
		t.c.Inc(c.Side, Feints)
		d := &t.g.C[tg]
		if t.contest(i, c.Deception, tg, max(d.Investig, t.intuition(tg)), contestAct, false, "feint: deception vs investigation or intuition") {
			f.feintOn = tg
			f.ambushOne = true
			t.c.Inc(c.Side, FeintsWon)
			t.c.Inc(c.Side, Ambushes)
		}
	case SwiftIntimidate:
		if !enemy || t.Dist(i, tg) > Reach {
			if t.log != nil && enemy {
				t.logf("  %s is too far from %s to intimidate", c.Name, t.name(tg))
				t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: tg, Rule: "intimidate: too far"})
			}
			return
		}
		t.c.Inc(c.Side, Intimidations)
		// The intimidator acts first: its Swift action is taken before the
		// target's forced Move (first_actor). An Intimidate is no attack, so
		// a teleport's Advantage waits for "the one immediate follow-up
		// attack" (oneCheck false).
		t.acts(i)
		if t.contest(i, c.Intimidate, tg, t.willpower(tg), contestAct, false, "intimidate: intimidation vs willpower") {
			t.c.Inc(c.Side, IntimidationsWon)
			t.forceAway(tg, i)
		}
	case SwiftMeditate:
		// Half Meditation, kept up by paying it again each round (turn
		// start drops it otherwise). The emotional effects it halves are
		// outside the excerpt; its Willpower +1 resists Intimidate.
		if f.meditating {
			return
		}
		f.halfMed = true
		if t.log != nil {
			t.logf("  %s keeps up a Half Meditation (Swift action): willpower +1 until its next turn", c.Name)
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "half meditation"})
		}
	case SwiftOneHand:
		if f.grappling < 0 || f.oneHand {
			return
		}
		f.oneHand = true
		f.halved = t.sizeGap(i, f.grappling) < 4
		if t.log != nil {
			t.logf("  %s shifts to a one-handed grapple", c.Name)
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: f.grappling, Rule: "one-handed grapple"})
		}
	default:
		return
	}
	if !prepaid {
		t.use(i, KindSwift)
	} else {
		t.acts(i)
	}
}

// forceAway: Intimidate's effect on m.
func (t *Table) forceAway(m, from int) {
	if t.restrained(m) {
		if t.log != nil {
			t.logf("  %s is Restrained and cannot move away", t.name(m))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: m, Target: from, Rule: "restrained: cannot move away"})
		}
		return
	}
	if t.canUse(m, KindMove) {
		t.use(m, KindMove)
		t.walkAway(m, from)
		t.f[m].mustFlee = -1 // a move away owed from an earlier Intimidate is made with it
		return
	}
	t.f[m].mustFlee = from
	if t.log != nil {
		t.logf("  %s has no Move action left: it must move away at its next turn", t.name(m))
		t.ev(sim.Event{Kind: sim.EvLost, Actor: m, Target: from, Rule: "must move away next turn"})
	}
}

// fleeAtTurn: an Intimidate that found no Move action is obeyed with the
// next one.
func (t *Table) fleeAtTurn(m int) {
	f := &t.f[m]
	if t.restrained(m) {
		f.mustFlee = -1
		return
	}
	if !t.canUse(m, KindMove) {
		return
	}
	t.use(m, KindMove)
	t.walkAway(m, f.mustFlee)
	f.mustFlee = -1
}

// speed is i's speed now: halved (rounded up) while Off-Balance; then
// Vital Strikes to the legs, whose 50% reductions "stack additively" but
// "cannot make the target completely unable to move": one halves it
// (rounded up), two or more would take it all, so it keeps the least move
// there is, 1 meter (5 ft; its speed if lower). Never below 1 foot.
func (t *Table) speed(i int) int {
	s := t.g.C[i].Speed
	if t.f[i].offBalance {
		s = (s + 1) / 2
	}
	switch n := t.f[i].legHits; {
	case n == 1:
		s = (s + 1) / 2
	case n >= 2:
		s = min(s, Reach)
	}
	return max(s, 1)
}

// approach: a Move action toward j, stopping within 1 meter (5 ft), when j
// is farther. prepaid: a delayed Move. Arriving within an enemy's reach sets
// off its delayed action (enemy_in_reach) before anything else.
func (t *Table) approach(i, j int, prepaid bool) {
	if j < 0 || t.Dist(i, j) <= Reach || t.restrained(i) || (!prepaid && !t.canUse(i, KindMove)) {
		return
	}
	if !prepaid {
		t.use(i, KindMove)
	} else {
		t.acts(i)
	}
	t.leaveCover(i)
	f := &t.f[i]
	from := t.x[i]
	dir := 1
	if t.x[j] < from {
		dir = -1
	}
	feet := min(t.speed(i), abs(t.x[j]-dir*Reach-from))
	t.x[i] = from + dir*feet
	if t.log != nil {
		t.logf("  %s moves %d ft (now %d ft from %s)", t.name(i), feet, t.Dist(i, j), t.name(j))
		t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: j, Amount: feet})
	}
	if t.Dist(i, j) <= Reach {
		f.cameTo = j
	}
	t.reachTriggers(i, from)
}

// walkAway: a move of full speed away from j (Intimidate).
func (t *Table) walkAway(i, j int) {
	t.leaveCover(i)
	dir := -1
	if t.x[i] > t.x[j] || (t.x[i] == t.x[j] && t.side(i) == 1) {
		dir = 1
	}
	t.x[i] += dir * t.speed(i)
	if t.log != nil {
		t.logf("  %s moves %d ft away from %s", t.name(i), t.speed(i), t.name(j))
		t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: j, Amount: t.speed(i), Rule: "away"})
	}
}

// firstAid: removes one Vital Strike effect (eyes first, then arms, then
// legs) from an ally within 1 meter, or itself. A Casting action, or a
// Full-Round action when the patient is below half its HP (rounded up).
func (t *Table) firstAid(i, pt int) {
	if pt < 0 || t.side(pt) != t.side(i) || !t.present(pt) || t.Dist(i, pt) > Reach || t.Effects(pt) == 0 {
		return
	}
	kind := KindCasting
	if t.f[pt].hp < (t.f[pt].maxHP+1)/2 {
		kind = KindFullRound
	}
	if !t.canUse(i, kind) {
		return
	}
	t.use(i, kind)
	t.c.Inc(t.side(i), sim.Actions)
	if !t.actionTriggers(i, -1, KindCasting) || !t.present(pt) {
		return
	}
	t.c.Inc(t.side(i), FirstAids)
	f := &t.f[pt]
	part := Legs
	switch {
	case f.eyeHits > 0:
		f.eyeHits--
		part = Eyes
	case f.armHits > 0:
		f.armHits--
		part = Arms
	default:
		f.legHits--
	}
	if t.log != nil {
		t.logf("  %s gives %s first aid (%s action): one %s effect removed", t.name(i), t.name(pt), KindNames[kind], PartNames[part])
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: pt, Rule: "first aid: " + PartNames[part]})
	}
}

// Meditation. Half Meditation (SwiftMeditate): a Swift action, kept up by
// one Swift action each round; while kept up (from paying it until its
// next turn) Willpower +1. Full Meditation (MainMeditate): "1 Casting
// Action" during which it is Caught Off Guard "and cannot take any other
// actions", read as its whole turn (no other action that turn) and, the
// action lasting until its next turn, Caught Off Guard until then; after
// it ends Willpower +2 and Intuition +1 "temporarily", read as for the rest
// of the encounter (the source gives no duration; a fight is shorter than
// any). The two Willpower bonuses do not add up: the higher applies. The
// emotional effects meditation removes are defined outside the excerpt;
// the bonuses feed what is simulated: Willpower resists Intimidate,
// Intuition resists a Feint and makes Spiritual Intuition's check.

// willpower is i's Willpower now, meditation included.
func (t *Table) willpower(i int) int {
	f := &t.f[i]
	switch {
	case f.fullMed:
		return t.g.C[i].Willpower + 2
	case f.halfMed:
		return t.g.C[i].Willpower + 1
	}
	return t.g.C[i].Willpower
}

// intuition is i's Intuition now, a Full Meditation's +1 included.
func (t *Table) intuition(i int) int {
	if t.f[i].fullMed {
		return t.g.C[i].Intuition + 1
	}
	return t.g.C[i].Intuition
}

// fullMeditation is MainMeditate: the whole turn (nothing else may have
// been used in it), Caught Off Guard until its next turn.
func (t *Table) fullMeditation(i int) {
	if !t.canUse(i, KindFullRound) {
		if t.log != nil {
			t.logf("  %s cannot meditate: a Full Meditation takes the whole turn and it has acted", t.name(i))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "full meditation: has acted"})
		}
		return
	}
	t.use(i, KindFullRound)
	if !t.actionTriggers(i, -1, KindCasting) {
		return
	}
	t.f[i].meditating, t.f[i].halfMed = true, false
	if t.log != nil {
		t.logf("  %s enters a Full Meditation: Caught Off Guard until its next turn", t.name(i))
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "full meditation"})
	}
}
