package lotm

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

// flankCounts returns the conditions a's side meets on a check between a
// and d, and those d's side meets; cond4: count the condition 4.
func (t *Table) flankCounts(a, d int, cond4 bool) (ca, cd int) {
	sa, sd := t.side(a), t.side(d)
	if sa == sd {
		return 0, 0
	}
	if t.flankAt != t.presence {
		// Who is in the battle changed: count again.
		t.flankN, t.flankRank = [2]int{}, [2]int{-1, -1}
		for i := range t.f {
			if !t.present(i) {
				continue
			}
			s := t.side(i)
			t.flankN[s]++
			t.flankRank[s] = max(t.flankRank[s], t.g.C[i].Rank)
		}
		t.flankAt = t.presence
	}
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
	if !cond4 {
		return ca, cd
	}
	// Condition 4, one-sided: one can attack the other and the other has
	// no means to attack it (canAttack, asked once each way). Two
	// grapplers are exempt: the source applies "no additional
	// advantage/disadvantage beyond the Restrained condition" between them.
	if t.f[a].grappling == d || t.f[d].grappling == a {
		return ca, cd
	}
	if cA, cD := t.canAttack(a, d), t.canAttack(d, a); cA && !cD {
		ca++
	} else if cD && !cA {
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
