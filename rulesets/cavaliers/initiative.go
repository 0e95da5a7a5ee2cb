package cavaliers

import (
	"fmt"
	"strings"

	"simctl/sim"
	"simctl/sim/msg"
)

// The Initiative roll (source: "The order of Initiative is set by a free
// roll at the beginning of each fight, or when each combatant enters the
// fight"; "Initiative rolls are automatically successful, and ranked in
// order by the MJ from highest (first to act) to lowest"). Each combatant
// rolls its pool once; the total ranks it and the dice showing raise_on or
// more are its [+] for the whole fight.
//
// Ties: the source leaves equal totals to the MJ, so option init_ties
// decides: random (default), attribute (the larger attribute die first) or
// raises (more [+] first), the latter two falling back to random. Random
// is implemented by a 64-bit key drawn with every roll: sorting by it puts
// the tied in a uniformly random order, and a newcomer entering mid-fight
// lands uniformly among the combatants it ties with.

// enter rolls initiative for every combatant that joins in round and
// ranks it among those already present.
func (t *Table) enter(round int) {
	if round > t.lastEntry {
		return // everyone has entered
	}
	entered := false
	// Everyone entering now is in the fight before anyone rolls, so a
	// policy choosing its specialty (Policy.Roll) sees all of them, not
	// only those listed before it in the file.
	for i := range t.f {
		if t.g.C[i].Enters == round {
			t.in |= 1 << uint(i)
		}
	}
	for i := range t.f {
		c := &t.g.C[i]
		if c.Enters != round {
			continue
		}
		t.rollInitiative(i)
		t.insert(i)
		entered = true
		if round > 1 {
			t.c.Inc(c.Side, Entered)
			if t.log != nil {
				t.logf("%s enters the fight in Area %d", c.Name, t.f[i].area)
				t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: sim.NoOne, Need: t.f[i].area, Rule: "enter"})
			}
		}
	}
	if entered && t.log != nil {
		t.logRanking()
	}
}

// rollInitiative rolls combatant i's pool: its total, its [+], its
// tie-break key. Draws: one per die (unless pinned), then one for the key.
func (t *Table) rollInitiative(i int) {
	c := &t.g.C[i]
	f := &t.f[i]
	f.rk = 0
	if len(c.Ranks) > 1 {
		if k := c.Policy.Roll(t, i); k > 0 && k < len(c.Ranks) {
			f.rk = k
		}
	}
	rk := &c.Ranks[f.rk]
	f.spec = rk.Specialty
	f.total, f.raises = rk.Pool.Roll(t.r, rk.Pinned, t.g.Opt.RaiseOn, t.dice[:])
	f.plus = f.raises
	f.key = t.r.Uint64()
	if t.tr != nil {
		t.traitInitiative(i)
	}
	t.in |= 1 << uint(i)
	t.c.Add(c.Side, Raises, int64(f.raises))
	if t.log != nil {
		t.logf("initiative: %s rolls %s: %v = %d, [+] %d (%s)", c.Name, rk.Pool, t.dice[:len(rk.Pool.Dice)], f.total, f.raises, t.ladder(i))
		t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Roll: f.total, Amount: f.raises, Rule: f.spec.String()})
	}
}

// insert places combatant i in the ranking, after everyone it does not
// rank before.
func (t *Table) insert(i int) {
	k := len(t.rank)
	for k > 0 && t.before(i, t.rank[k-1]) {
		k--
	}
	t.rank = append(t.rank, 0)
	copy(t.rank[k+1:], t.rank[k:])
	t.rank[k] = i
	t.orderStale = true
}

// before reports whether a ranks ahead of b: the higher total, then the
// init_ties rule, then the random key (the roster index only if two 64-bit
// keys collide).
func (t *Table) before(a, b int) bool {
	fa, fb := &t.f[a], &t.f[b]
	if fa.total != fb.total {
		return fa.total > fb.total
	}
	switch t.g.Opt.Ties {
	case TiesAttribute:
		if da, db := t.g.C[a].Ranks[fa.rk].Pool.Dice[0], t.g.C[b].Ranks[fb.rk].Pool.Dice[0]; da != db {
			return da > db
		}
	case TiesRaises:
		if fa.raises != fb.raises {
			return fa.raises > fb.raises
		}
	}
	if fa.key != fb.key {
		return fa.key > fb.key
	}
	return a < b
}

// ladder describes what combatant i's [+] buy, for the log.
func (t *Table) ladder(i int) msg.Text {
	s := t.f[i].spec
	if s == NoSpecialty {
		return msg.New("no specialty")
	}
	// The abilities are the rules' names, translated in a translated trace.
	var parts msg.Text
	for p := 1; p <= 3; p++ {
		for a := Ability(0); a < numAbilities; a++ {
			if prices[s][a] == p {
				part := msg.New("%s %d", msg.New(a.String()), p)
				if parts.Format == "" {
					parts = part
				} else {
					parts = msg.New("%s, %s", parts, part)
				}
			}
		}
	}
	return msg.New("%s: %s", s.String(), parts)
}

func (t *Table) logRanking() {
	parts := make([]string, len(t.rank))
	for k, i := range t.rank {
		parts[k] = fmt.Sprintf("%s %d", t.name(i), t.f[i].total)
	}
	t.logf("ranking: %s", strings.Join(parts, ", "))
}
