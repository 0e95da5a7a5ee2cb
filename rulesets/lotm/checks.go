package lotm

import (
	"strconv"

	"simctl/sim"
	"simctl/sim/msg"
)

// Checks. A hit check is d20 + bonus against the target's Physical Defense
// and hits when it meets or beats it (option naturals: a natural 20 always
// hits, a natural 1 always misses). A contest is each side's d20 + bonus;
// the higher wins, a tie goes to the defender (option contest_ties).
//
// Advantage / Disadvantage (option advantage: 2d20 keep the higher / lower,
// or a flat ±flat_bonus). They do not stack: any number of sources of
// Advantage give one Advantage, and a check with both is a plain roll, one
// of each cancelling. The sources, for a check a makes against d:
//
//   - the Ambush Round: Advantage for the ambushers, Disadvantage for the
//     ambushed, until it ends;
//   - an in-combat ambush (a teleport, an attack from invisibility, a won
//     Feint, a strike from behind an obstacle while unseen): Advantage for
//     that one check only, and Disadvantage on the target's roll when the
//     check is a contest (the source: it "grants Advantage/Disadvantage").
//     Made by an ambushed
//     combatant during the Ambush Round it meets that round's Disadvantage
//     and the two cancel for that check (the source's own example);
//   - Flanking/Envelopment (flanking.go): the side meeting more conditions
//     has Advantage, the other Disadvantage;
//   - Blinded (two Vital Strikes to the eyes): Disadvantage on its hit
//     checks (the source refers to a Blinded condition it does not give;
//     this is the reading taken).
//
// Both rolls of a contest take their roller's state against the other,
// except the contests between two grapplers, which the source rolls with
// "no additional advantage/disadvantage".

// advState returns the Advantage and Disadvantage sources on a's check
// against d (d -1: a check against nobody). hit: a hit check. perception:
// a Stealth/Investigation contest, to which the flanking condition 4 does
// not apply (flanking.go).
func (t *Table) advState(a, d int, hit, perception bool) (adv, dis bool) {
	fa := &t.f[a]
	if t.amb {
		adv = fa.ambusher
		dis = fa.ambushed
	}
	if d >= 0 {
		if n := t.flankNet(a, d, !perception); n > 0 {
			adv = true
		} else if n < 0 {
			dis = true
		}
	}
	if hit && fa.eyeHits >= 2 {
		dis = true
	}
	return adv, dis
}

// roll rolls a d20 check under adv/dis and returns the natural (kept) die
// and the flat modifier of option advantage: flat.
func (t *Table) roll(adv, dis bool) (nat, mod int) {
	if adv == dis {
		return t.die(20), 0
	}
	if t.flatAdv {
		if adv {
			return t.die(20), t.g.Opt.FlatBonus
		}
		return t.die(20), -t.g.Opt.FlatBonus
	}
	x, y := t.die(20), t.die(20)
	if adv == (y > x) {
		x = y
	}
	return x, 0
}

// agility is i's Agility now: halved, rounded up, while Off-Balance.
func (t *Table) agility(i int) int {
	a := t.g.C[i].Agility
	if t.f[i].offBalance {
		return (a + 1) / 2
	}
	return a
}

// offGuard reports whether d is Caught Off Guard against attacker a: in a
// Full Meditation, by the Ambush Round (unless d spotted a, with
// ambush_detection each), or by a's won Feint against a target that cannot
// Fast Dodge.
func (t *Table) offGuard(d, a int) bool {
	f := &t.f[d]
	if f.meditating || (t.amb && f.cog && (a < 0 || f.spotted&(1<<uint(a)) == 0)) {
		return true
	}
	return a >= 0 && ((t.f[a].feintOn == d && !t.g.C[d].FastDodge) || t.f[a].cogOn == d)
}

// defense is d's Physical Defense: AC + Dodge + Agility; Caught Off Guard
// (off: offGuard against the attacker) loses Dodge and Agility; noArmor (a
// Grapple) loses Armor.
func (t *Table) defense(d int, noArmor, off bool) int {
	c := &t.g.C[d]
	pd := c.AC
	if !off {
		pd += c.Dodge + t.agility(d)
	}
	if noArmor {
		pd -= c.Armor
	} else {
		pd += t.f[d].coverArmor // Improvised Cover is Armor too
	}
	return pd
}

// hitCheck is a's hit check with bonus against d's Physical Defense
// (noArmor: ignoring Armor). It uses up a's one-check benefits: an in-combat
// ambush's Advantage, Build-Up Aim's +2, a Feint's Caught Off Guard. A miss
// that a's Luck can turn into a hit burns exactly the points needed when the
// policy says so (never against a natural 1 with option naturals: Burn Luck
// does not change a critical failure).
func (t *Table) hitCheck(a, d, bonus int, noArmor bool, what string) bool {
	fa := &t.f[a]
	adv, dis := t.advState(a, d, true, false)
	amb := fa.ambushOne
	if amb {
		adv = true
		fa.ambushOne = false
	}
	if fa.disOne {
		dis, fa.aim, fa.disOne = true, false, false
	}
	aim := 0
	if fa.aim {
		aim = 2
		fa.aim = false
	}
	// offGuard is asked once: nothing it reads changes before the roll.
	og := t.offGuard(d, a)
	pd, off := t.defense(d, noArmor, og), og
	switch t.pb {
	case pbArmor: // succeeds when greater than the target's Armor (cover included)
		pd, off = t.g.C[d].Armor+t.f[d].coverArmor+1, false
	case pbOffGuard: // ignores Agility and Dodge
		pd, off = pd-t.g.C[d].Dodge-t.agility(d), true
		if og {
			pd = t.defense(d, noArmor, og)
		}
	}
	t.pb = pbNone
	if t.tr != nil {
		bonus, pd = t.traitHitCheck(a, d, bonus, pd, off)
	}
	fa.feintOn, fa.cogOn = -1, -1
	nat, mod := t.roll(adv, dis)
	total := nat + bonus + aim + mod
	hit := total >= pd
	fumble := nat == 1 && t.naturals // a critical failure: Burn Luck cannot change it
	if nat == 20 && t.naturals {
		hit = true
	} else if fumble {
		hit = false
	}
	burn := 0
	if !hit && !fumble && !fa.luckUsed && fa.luck >= pd-total &&
		t.burnLuck(a, d, pd-total) {
		burn = pd - total
		fa.luck -= burn
		fa.luckUsed = true
		t.c.Add(t.side(a), LuckBurned, int64(burn))
		hit = true
	}
	t.nat, t.total = nat, total+burn
	if t.log != nil {
		t.logf("  %s: %s vs %s: %s %+d%s = %d vs physical defense %d%s: %s",
			t.name(a), msg.New(what), t.name(d), t.rollText(nat, adv, dis), bonus, bonusText(aim, mod, burn), total+burn, pd,
			condText(off, amb), hitText(hit))
		t.ev(sim.Event{Kind: sim.EvAttack, Actor: a, Target: d, Die: nat, Roll: total + burn, Need: pd, OK: hit,
			Rule: what + advTag("", adv, dis) + tagIf(aim != 0, "aim") + tagIf(mod != 0, "flat") + tagIf(burn != 0, "luck") +
				tagIf(off, "caught off guard") + tagIf(amb, "ambush")})
	}
	if hit && !noArmor && t.f[d].coverArmor > 0 { // coverHit has nothing to break without cover
		t.coverHit(d)
	}
	return hit
}

// burnLuck asks a's policy whether it burns need points of Luck on its
// missed hit check against d (target -1 and need 0: all of it on the
// initiative roll): a LuckBurner decides, else the policy's LuckUse.
func (t *Table) burnLuck(a, d, need int) bool {
	p := t.g.C[a].Policy
	if b, ok := p.(LuckBurner); ok {
		return b.BurnLuck(t, a, d, need)
	}
	if d < 0 {
		return p.Luck() == LuckInitiative
	}
	return p.Luck() == LuckAttack
}

// contestMode says which Advantage/Disadvantage sources a contest takes.
type contestMode uint8

const (
	contestAct        contestMode = iota // every source (charge, feint, intimidate)
	contestPlain                         // none: the contests between two grapplers
	contestPerception                    // Stealth against Investigation: all but the flanking condition 4
	contestFind                          // the same, rolled as Investigation against Stealth (a is the investigator)
)

// contest is a's check (bonus ab) against d's (bonus db); it reports whether
// a wins. mode: the Advantage/Disadvantage sources both rolls take.
//
// Who resists (the defender of option contest_ties): the one the action is
// aimed at — the charged, feinted, intimidated or squeezed target. In
// every Stealth-vs-Investigation contest (Ambush Round detection, the
// obstacle ambush, search, the invisibility ambush) the Investigation
// resists, as the source words it ("your Stealth opposed by the target's
// Investigation"), whichever of the two is rolled first: a tie goes to the
// investigator under contest_ties defender, to the hider under attacker.
// oneCheck: a's in-combat ambush benefit applies to (and is used up by) this
// check.
func (t *Table) contest(a, ab, d, db int, mode contestMode, oneCheck bool, what string) bool {
	var aa, ad, da, dd bool
	if mode != contestPlain {
		perception := mode == contestPerception || mode == contestFind
		aa, ad = t.advState(a, d, false, perception)
		da, dd = t.advState(d, a, false, perception)
	}
	amb := oneCheck && t.f[a].ambushOne
	if amb {
		// A mid-combat ambush "grants Advantage/Disadvantage": Advantage on
		// the ambusher's roll and, for that one check, Disadvantage on the
		// roll opposing it (not between grapplers: contestPlain).
		aa = true
		dd = dd || mode != contestPlain
		t.f[a].ambushOne = false
	}
	na, ma := t.roll(aa, ad)
	nd, md := t.roll(da, dd)
	ta, td := na+ab+ma, nd+db+md
	win := ta > td || (ta == td && (t.g.Opt.TiesTo == "attacker") != (mode == contestFind))
	if t.log != nil {
		t.logf("  %s: %s %s %+d = %d vs %s %s %+d = %d: %s", msg.New(what), t.name(a), t.rollText(na, aa, ad), ab+ma, ta,
			t.name(d), t.rollText(nd, da, dd), db+md, td, msg.New("%s wins", t.name(either(win, a, d))))
		t.ev(sim.Event{Kind: sim.EvCheck, Actor: a, Target: d, Die: na, Roll: ta, Need: td, OK: win,
			Rule: what + advTag("", aa, ad) + advTag("vs ", da, dd)})
	}
	return win
}

func (t *Table) rollText(nat int, adv, dis bool) msg.Text {
	switch {
	case adv && !dis:
		return msg.New("d20 %d (advantage)", nat)
	case dis && !adv:
		return msg.New("d20 %d (disadvantage)", nat)
	case adv && dis:
		return msg.New("d20 %d (advantage and disadvantage cancel)", nat)
	}
	// A die and its roll: nothing to translate.
	return msg.New("%s %d", "d20", nat)
}

// advTag and tagIf qualify an event's rule in brackets ("attack
// [advantage] [aim]"), so tests can ask for one qualifier (rule~=[aim]).
func advTag(who string, adv, dis bool) string {
	switch {
	case adv && !dis:
		return " [" + who + "advantage]"
	case dis && !adv:
		return " [" + who + "disadvantage]"
	case adv && dis:
		return " [" + who + "cancel]"
	}
	return ""
}

func tagIf(ok bool, tag string) string {
	if ok {
		return " [" + tag + "]"
	}
	return ""
}

// bonusText, condText and hitText are narrated phrases (msg.Text, so a
// translated trace translates them).
func bonusText(aim, mod, burn int) msg.Text {
	var a, m, b msg.Text
	if aim != 0 {
		a = msg.New(" +2 aim")
	}
	if mod != 0 {
		m = msg.New(" %s flat", signed(mod))
	}
	if burn != 0 {
		b = msg.New(" +%d luck", burn)
	}
	return msg.New("%s%s%s", a, m, b)
}

func condText(off, amb bool) msg.Text {
	var o, a msg.Text
	if off {
		o = msg.New(" (caught off guard)")
	}
	if amb {
		a = msg.New(" (ambush)")
	}
	return msg.New("%s%s", o, a)
}

func hitText(hit bool) msg.Text {
	if hit {
		return msg.New("hit")
	}
	return msg.New("miss")
}

func signed(v int) string {
	if v >= 0 {
		return "+" + itoa(v)
	}
	return itoa(v)
}

// damage applies dmg from a to d; at 0 HP or below d is out of the fight,
// and whatever it was holding or hiding ends.
func (t *Table) damage(a, d, dmg int) {
	if t.tr != nil {
		dmg = t.traitHit(a, d, dmg)
	}
	f := &t.f[d]
	f.hp -= dmg
	t.c.Hit(t.side(a), a, d, dmg)
	if t.log != nil {
		t.logf("  %s takes %d damage (hp %d)", t.name(d), dmg, f.hp)
		t.ev(sim.Event{Kind: sim.EvDamage, Actor: a, Target: d, Amount: dmg})
	}
	if f.hp > 0 || f.out {
		return
	}
	f.out = true
	t.up[t.sd[d]]--
	t.in &^= 1 << uint(d)
	t.insNow[t.sd[d]] &^= 1 << uint(d)
	t.presence++
	t.c.Down(d, a)
	f.delayed, f.hidden, f.stunned = false, false, false
	t.endGrapple(d)
	if t.log != nil {
		t.logf("%s is out (hp %d)", t.name(d), f.hp)
		t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: a, Amount: f.hp, Rule: "out"})
	}
}

func either(aWins bool, a, d int) int {
	if aWins {
		return a
	}
	return d
}

func itoa(v int) string { return strconv.Itoa(v) }
