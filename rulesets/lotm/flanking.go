package lotm

import "math/bits"

// Flanking / Envelopment. Each condition a side meets counts one:
//
//  1. its combatants in the battle (joined, not out; those still to join do
//     not count) number at least twice the enemy's. The source's "or the
//     enemy leaves your zone of influence" is not modelled: everyone is in it;
//  2. its highest Rank (field rank) present is at least one above the
//     enemy's highest;
//  3. it blocks every exit (side field blocks_exits: N, the blockade holding
//     while at least N of the side are in the battle);
//  4. for one pair only: a creature that can attack the target while the
//     target has no means to attack it (canAttack) counts for that creature
//     alone, on its checks against that target and the target's against it.
//     It applies to attacking and acting on the target (hit checks, charge,
//     feint, intimidate), not to the Stealth/Investigation contests that
//     decide whether a hidden combatant is found: being unattackable because
//     unseen must not make it harder to see (else hiding would feed itself).
//
// The side meeting more conditions has Advantage and the other
// Disadvantage; equal counts cancel (the source's example: a blockade
// against a two-to-one majority gives neither side anything); meeting
// several never gives more than one Advantage.

// flankNet is the conditions a's side meets on a check between a and d
// less those d's side meets (cond4: count the condition 4): positive, a
// has Advantage; negative, Disadvantage. The conditions 1 – 3 depend only
// on who is in the battle and are counted again only when that changes
// (flankAt); the condition 4 reads the two fighters' own state. The same
// as flankCounts' ca - cd (TestFlankNetMatchesCounts).
func (t *Table) flankNet(a, d int, cond4 bool) int {
	sa := t.sd[a]
	if sa == t.sd[d] {
		return 0
	}
	if t.flankAt != t.presence {
		t.recountFlanks()
	}
	n := int(t.flankDiff[sa])
	// Until someone is stunned, hidden or in a grapple, two fighters in the
	// battle can attack each other, and the condition 4 needs one that
	// cannot. (Small enough to inline: the rest is cond4Net's.)
	if cond4 && t.unusual {
		n += t.cond4Net(a, d)
	}
	return n
}

// cond4Net is the condition 4 on a check between a and d, of opposite
// sides: 1 when a can attack d and d has no means to attack a, -1 the
// other way round, else 0.
func (t *Table) cond4Net(a, d int) int {
	fa, fd := &t.f[a], &t.f[d]
	// Grapplers are exempt (flankCounts); one not in the battle can attack
	// no one and cannot be attacked: canAttack false both ways.
	if fa.grappling == d || fd.grappling == a || t.in&(1<<(uint(a)&63)) == 0 || t.in&(1<<(uint(d)&63)) == 0 {
		return 0
	}
	cA, cD := meansAgainst(fa, fd, a), meansAgainst(fd, fa, d)
	if cA && !cD {
		return 1
	} else if cD && !cA {
		return -1
	}
	return 0
}

// meansAgainst is canAttack(x, y) for x and y both in the battle, of
// opposite sides, neither grappling the other (flankNet's case).
func meansAgainst(fx, fy *fighter, x int) bool {
	if fx.stunned || fy.hidden && fy.seenBy&(1<<(uint(x)&63)) == 0 {
		return false
	}
	return fx.casts > 0 || !(fx.grappledBy >= 0 && !fx.moveOnly || fx.grappling >= 0 && !fx.oneHand)
}

// recountFlanks counts the conditions 1 – 3 for each side as the attacker
// (flankDiff) from who is in the battle now.
func (t *Table) recountFlanks() {
	for s := range 2 {
		m := t.in & t.teamBits[s]
		t.flankN[s] = bits.OnesCount64(m)
		switch r := t.rankAll[s]; {
		case m == 0:
			t.flankRank[s] = -1
		case r >= 0: // the side's combatants all have one rank
			t.flankRank[s] = r
		default:
			r = -1
			for ; m != 0; m &= m - 1 {
				r = max(r, t.rank[bits.TrailingZeros64(m)])
			}
			t.flankRank[s] = r
		}
	}
	t.flankAt = t.presence
	for sa := range 2 {
		ca, cd := t.flankSides(sa, 1-sa)
		t.flankDiff[sa] = int8(ca - cd)
	}
}

// flankSides counts the conditions 1 – 3 that side sa and side sd meet.
func (t *Table) flankSides(sa, sd int) (ca, cd int) {
	n, rank := &t.flankN, &t.flankRank
	if n[sa] >= 2*n[sd] {
		ca++
	} else if n[sd] >= 2*n[sa] {
		cd++
	}
	if rank[sa] >= rank[sd]+1 {
		ca++
	} else if rank[sd] >= rank[sa]+1 {
		cd++
	}
	if b := t.g.BlocksExits[sa]; b > 0 && n[sa] >= b {
		ca++
	}
	if b := t.g.BlocksExits[sd]; b > 0 && n[sd] >= b {
		cd++
	}
	return ca, cd
}

// canAttack reports whether x has a means to attack y now: both in the
// battle, x not stunned, y not hidden from x (hiddenFrom), and x able to take an Attack
// action (not Restrained by a grapple: only a one-handed grappler attacks
// normally, a two-handed one may squeeze the one it holds) or holding a use
// of its casting ability (a Casting action is not forbidden by a grapple).
// Distance is no obstacle: a melee combatant can walk up.
func (t *Table) canAttack(x, y int) bool {
	if !t.present(x) || !t.present(y) || t.f[x].stunned {
		return false
	}
	if t.hiddenFrom(y, x) {
		return false
	}
	if t.f[x].casts > 0 || !t.noAttacks(x) {
		return true
	}
	return t.f[x].grappling == y
}
