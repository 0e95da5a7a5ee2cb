package lotm

import "simctl/sim"

// Option initiative, as the Table keeps it (initMode).
const (
	initD20Agility = iota
	initD20
	initAgility
)

// rollInitiative: the seed does not give the initiative roll, so it is the
// option initiative (default d20 + Agility, plus the init field). Everyone
// rolls once at the start, combatants still to join included; the order is
// fixed for the fight, highest first. Ties go to the higher Agility, then a
// random order among the still tied (never a bias toward list order).
//
// Burn Luck (a Free action, once per 24 hours, i.e. once per encounter
// here): with option burn_luck_initiative (the GM note) a combatant whose
// policy says so adds all its Luck to its initiative.
func (t *Table) rollInitiative() {
	t.order = t.order[:0]
	for i := range t.f {
		c := &t.g.C[i]
		f := &t.f[i]
		die := 0
		switch t.initMode {
		case initD20Agility:
			die = t.initDie(c)
			f.count = die + c.Agility + c.Init
		case initD20:
			die = t.initDie(c)
			f.count = die + c.Init
		default: // agility
			f.count = c.Agility + c.Init
		}
		burn := 0
		if t.g.Opt.BurnLuckInit && f.luck > 0 && t.burnLuck(i, -1, 0) {
			burn = f.luck
			f.count += burn
			f.luck, f.luckUsed = 0, true
			t.c.Add(c.Side, LuckBurned, int64(burn))
		}
		t.order = append(t.order, i)
		if t.log != nil {
			// Only the terms the option adds are printed, so the sum holds.
			switch t.g.Opt.Initiative {
			case "d20+agility":
				t.logf("initiative: %s rolls %d + agility %d + init %d + luck burned %d = %d", c.Name, die, c.Agility, c.Init, burn, f.count)
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Die: die, Roll: f.count, Amount: burn, Rule: "d20+agility"})
			case "d20":
				t.logf("initiative: %s rolls %d + init %d + luck burned %d = %d", c.Name, die, c.Init, burn, f.count)
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Die: die, Roll: f.count, Amount: burn, Rule: "d20"})
			default:
				t.logf("initiative: %s has agility %d + init %d + luck burned %d = %d", c.Name, c.Agility, c.Init, burn, f.count)
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Roll: f.count, Amount: burn, Rule: "agility"})
			}
		}
		if t.tr != nil {
			t.traitInitiative(i)
		}
	}
	// Insertion sort: at most 64 entries, no allocation.
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
			// Fisher-Yates through t.die, so rule tests can pin it too.
			for k := len(run) - 1; k > 0; k-- {
				j := t.die(k+1) - 1
				run[k], run[j] = run[j], run[k]
			}
			if t.log != nil {
				t.logf("initiative: tie at %d broken by a re-roll", t.f[run[0]].count)
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: sim.NoOne, Target: sim.NoOne, Roll: t.f[run[0]].count, Amount: len(run), Rule: "tie re-roll"})
			}
		}
		lo = hi
	}
}

func (t *Table) initDie(c *Combatant) int {
	if c.InitRoll > 0 {
		return c.InitRoll
	}
	return t.die(20)
}

// before orders by initiative, then by Agility.
func (t *Table) before(a, b int) bool {
	if fa, fb := t.f[a].count, t.f[b].count; fa != fb {
		return fa > fb
	}
	return t.g.C[a].Agility > t.g.C[b].Agility
}

// moveBefore puts combatant i's entry just ahead of anchor's (option
// insert_order: move) and keeps t.cur on the entry in progress.
func (t *Table) moveBefore(i, anchor int) {
	k := t.index(i)
	t.order = append(t.order[:k], t.order[k+1:]...)
	a := t.index(anchor)
	t.order = append(t.order, 0)
	copy(t.order[a+1:], t.order[a:])
	t.order[a] = i
	t.f[i].count = t.f[anchor].count
}
