package d20

// Initiative checks (SRD "Initiative Checks"): once, at the start of the
// battle, each combatant rolls d20 (or its initiative_dice, a house rule)
// + its initiative modifier; the order runs
// from the highest result down and stays the same every round unless Delay
// or Ready changes it.
//
// Ties: the higher total initiative modifier goes first; combatants still
// tied "roll again to determine which one of them goes before the other",
// which is a uniformly random order among them (Fisher-Yates over the tied
// run), never a bias toward list order.
func (t *Table) rollInitiative() {
	t.order = t.order[:0]
	for i := range t.f {
		c := &t.g.C[i]
		die := c.InitRoll
		switch {
		case die != 0:
		case c.InitDice.IsZero():
			die = t.r.D20()
		default:
			die = c.InitDice.Roll(t.r)
		}
		t.f[i].count = die + c.Init
		t.order = append(t.order, i)
		if t.log != nil {
			if c.InitDice.IsZero() {
				t.logf("initiative: %s rolls %d %+d = %d", c.Name, die, c.Init, t.f[i].count)
			} else {
				t.logf("initiative: %s rolls %d on %s %+d = %d", c.Name, die, c.InitDice.String(), c.Init, t.f[i].count)
			}
		}
	}
	// Insertion sort: at most a few dozen entries, no allocation.
	for a := 1; a < len(t.order); a++ {
		for b := a; b > 0 && t.before(t.order[b], t.order[b-1]); b-- {
			t.order[b], t.order[b-1] = t.order[b-1], t.order[b]
		}
	}
	for lo := 0; lo < len(t.order); {
		hi := lo + 1
		for hi < len(t.order) && !t.before(t.order[lo], t.order[hi]) {
			hi++
		}
		if hi-lo > 1 {
			run := t.order[lo:hi]
			t.r.Shuffle(len(run), func(i, j int) { run[i], run[j] = run[j], run[i] })
			if t.log != nil {
				t.logf("initiative: tie at %d broken by a re-roll: %s", t.f[run[0]].count, t.names(run))
			}
		}
		lo = hi
	}
}

// before orders by count, then by initiative modifier.
func (t *Table) before(a, b int) bool {
	fa, fb := t.f[a].count, t.f[b].count
	if fa != fb {
		return fa > fb
	}
	return t.g.C[a].Init > t.g.C[b].Init
}

func (t *Table) names(ids []int) string {
	s := ""
	for k, i := range ids {
		if k > 0 {
			s += " before "
		}
		s += t.name(i)
	}
	return s
}

// surpriseRound reports whether some but not all combatants are aware
// (SRD "The Surprise Round"); if no one or everyone is surprised there is
// none.
func (t *Table) surpriseRound() bool {
	aware, unaware := false, false
	for i := range t.g.C {
		if t.g.C[i].Aware {
			aware = true
		} else {
			unaware = true
		}
	}
	return aware && unaware
}

// flatFootedAC is the AC a combatant has right now: without its dex_ac while
// flat-footed (unless it has uncanny dodge), -2 after its own charge.
func (t *Table) ac(i int) int {
	c := &t.g.C[i]
	ac := c.AC
	if t.f[i].flatFooted && !c.UncannyDodge {
		ac -= c.DexAC
	}
	if t.f[i].chargeAC {
		ac -= 2
	}
	return ac
}
