package lotm

// flankCountsScan is the Flanking/Envelopment count as flanking.go states
// it, recounted from the roster on every call: the reference flankNet is
// checked against (FlankCheckForTest).
func flankCountsScan(t *Table, a, d int, cond4 bool) (ca, cd int) {
	sa, sd := t.side(a), t.side(d)
	if sa == sd {
		return 0, 0
	}
	n, rank := [2]int{}, [2]int{-1, -1}
	for i := range t.f {
		if !t.f[i].joined || t.f[i].out {
			continue
		}
		s := t.side(i)
		n[s]++
		rank[s] = max(rank[s], t.g.C[i].Rank)
	}
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
	if !cond4 || t.f[a].grappling == d || t.f[d].grappling == a {
		return ca, cd
	}
	if cA, cD := canAttackScan(t, a, d), canAttackScan(t, d, a); cA && !cD {
		ca++
	} else if cD && !cA {
		cd++
	}
	return ca, cd
}

// canAttackScan is canAttack from the fighters' fields alone.
func canAttackScan(t *Table, x, y int) bool {
	fx, fy := &t.f[x], &t.f[y]
	if !fx.joined || fx.out || !fy.joined || fy.out || fx.stunned {
		return false
	}
	if fy.hidden && t.side(x) != t.side(y) && fy.seenBy&(1<<uint(x)) == 0 {
		return false
	}
	if fx.casts > 0 || !(fx.grappledBy >= 0 && !fx.moveOnly || fx.grappling >= 0 && !fx.oneHand) {
		return true
	}
	return fx.grappling == y
}
