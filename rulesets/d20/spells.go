package d20

import (
	"strconv"

	"simctl/sim"
	"simctl/sim/msg"
)

// cast: casting a spell is a standard action. The spell is spent when
// casting starts. Enemies readied for "starts casting" go first: a readied
// attack that deals damage forces a Concentration check (d20 +
// concentration vs DC 10 + damage + spell level) or the spell is lost; a
// readied counterspell needs a Spellcraft check (DC 15 + spell level) to
// identify the spell and the same spell to cast, and then ruins it
// automatically. Casting within an enemy's reach provokes an attack of
// opportunity, whose damage also forces a Concentration check.
func (t *Table) cast(a, d, s int) {
	c := &t.g.C[a]
	sp := &c.Spells[s]
	f := &t.f[a]
	t.cold[a].uses[s]--
	if t.log != nil {
		t.logf("%s starts casting %s (level %d) at %s", c.Name, sp.Name, sp.Level, t.name(d))
		t.ev(sim.Event{Kind: sim.EvSpell, Actor: a, Target: d, Amount: sp.Level, Rule: sp.Name})
	}
	lost := t.enemyCasts(a, s)
	for e := range t.f {
		if lost || f.out {
			break
		}
		if t.threatens(e, a) {
			if dmg := t.opportunity(e, a); dmg > 0 && !f.out {
				lost = !t.concentrate(a, dmg, sp.Level)
			}
		}
	}
	if f.out {
		t.c.Lost(c.Side, a)
		return
	}
	// The spell takes effect (or is lost) after the readied actions and
	// attacks of opportunity it set off, which come first.
	t.firstAction(a)
	if lost {
		t.c.Lost(c.Side, a)
		return
	}
	t.c.Inc(c.Side, sim.Actions)
	t.c.Inc(c.Side, SpellsCast)
	if t.f[d].out {
		if t.log != nil {
			t.logf("%s's %s finds its target already down", c.Name, sp.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: a, Target: d, Rule: "target down"})
		}
		return
	}
	dmg := sp.Damage.Roll(t.r)
	if sp.SaveDC > 0 {
		save := t.r.D20()
		ok := save+t.g.C[d].Save >= sp.SaveDC
		if t.log != nil {
			t.logf("%s saves: d20 %d %+d vs DC %d: %v", t.name(d), save, t.g.C[d].Save, sp.SaveDC, msg.New(strconv.FormatBool(ok)))
			t.ev(sim.Event{Kind: sim.EvSave, Actor: d, Target: a, Die: save, Roll: save + t.g.C[d].Save, Need: sp.SaveDC, OK: ok, Rule: sp.Name})
		}
		if ok {
			if sp.SaveHalf {
				dmg /= 2
			} else {
				dmg = 0
			}
		}
	}
	if t.log != nil {
		t.logf("%s's %s deals %d to %s", c.Name, sp.Name, dmg, t.name(d))
		t.ev(sim.Event{Kind: sim.EvDamage, Actor: a, Target: d, Amount: dmg, Rule: sp.Name})
	}
	if dmg > 0 {
		t.damage(a, d, dmg)
	}
}

// concentrate is the Concentration check after taking dmg while casting.
func (t *Table) concentrate(a, dmg, level int) bool {
	roll := t.r.D20()
	bonus := t.g.C[a].Concentration
	dc := 10 + dmg + level
	ok := roll+bonus >= dc
	if t.log != nil {
		t.logf("%s: Concentration d20 %d %+d = %d vs DC %d: %s", t.name(a), roll, bonus, roll+bonus, dc,
			keepsOrLoses(ok))
		t.ev(sim.Event{Kind: sim.EvCheck, Actor: a, Target: sim.NoOne, Die: roll, Roll: roll + bonus, Need: dc, OK: ok, Rule: "concentration"})
	}
	if !ok {
		t.c.Inc(t.side(a), ConcentrationFailures)
	}
	return ok
}

// enemyCasts resolves the readied actions triggered by caster a starting
// spell s. It reports whether the spell is lost.
func (t *Table) enemyCasts(a, s int) (lost bool) {
	sp := &t.g.C[a].Spells[s]
	t.readiers(on(OnEnemyCasts), a, func(r int) bool {
		f := &t.cold[r]
		if t.side(r) == t.side(a) {
			return false
		}
		switch f.ready.Action {
		case ReadyCounterspell:
			// "When the spellcaster starts a spell, you get a chance to
			// identify it with a Spellcraft check ... If you do, and if you
			// can cast that same spell", you counter it: the readier learns
			// what the spell is from the check, so every enemy spell sets
			// the readied counterspell off, and it decides after the check.
			// The chance to identify is the readied action: not identified,
			// or identified as a spell it cannot cast (not among its own
			// with a use left, or not the one its plan names), there is
			// nothing to cast and the readied action is spent (no second
			// chance at a later spell before its next turn).
			roll := t.r.D20()
			dc := 15 + sp.Level
			sc := t.g.C[r].Spellcraft
			if roll+sc < dc {
				if t.log != nil {
					t.logf("%s: Spellcraft d20 %d %+d vs DC %d: does not identify %s; the readied counterspell is spent", t.name(r), roll, sc, dc, sp.Name)
					t.ev(sim.Event{Kind: sim.EvCheck, Actor: r, Target: a, Die: roll, Roll: roll + sc, Need: dc, Rule: "spellcraft"})
				}
				t.takeReadied(r, a, false)
				return false
			}
			own := t.counterWith(r, sp.Name, f.ready.Spell)
			if own < 0 {
				if t.log != nil {
					t.logf("%s: Spellcraft d20 %d %+d vs DC %d: identifies %s but cannot cast it; the readied counterspell is spent", t.name(r), roll, sc, dc, sp.Name)
					t.ev(sim.Event{Kind: sim.EvCheck, Actor: r, Target: a, Die: roll, Roll: roll + sc, Need: dc, OK: true, Rule: "spellcraft"})
				}
				t.takeReadied(r, a, false)
				return false
			}
			if t.log != nil {
				t.logf("%s: Spellcraft d20 %d %+d vs DC %d: identifies %s and counters it", t.name(r), roll, sc, dc, sp.Name)
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: r, Target: a, Die: roll, Roll: roll + sc, Need: dc, OK: true, Rule: "spellcraft"})
			}
			t.took(r, a)
			f.uses[own]--
			t.c.Inc(t.side(r), Counterspells)
			lost = true
			return true
		case ReadyAttack:
			if !t.canStrike(r, a) || !t.getAt(r, a) {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied attack as %s starts casting", t.name(r), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "attack/casts"})
			}
			t.took(r, a)
			if dmg := t.readiedAttack(r, a); dmg > 0 && !t.f[a].out {
				lost = !t.concentrate(a, dmg, sp.Level)
			}
		case ReadyMove:
			// Closing on the caster: in its reach once the spell starts,
			// the readier threatens it, and the casting provokes.
			if t.InReach(r, a) {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied move as %s starts casting", t.name(r), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "move/casts"})
			}
			t.took(r, a)
			t.readiedMove(r, a)
		case ReadyCast:
			if f.uses[f.ready.Spell] == 0 {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied spell as %s starts casting", t.name(r), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "spell/casts"})
			}
			t.took(r, a)
			hp := t.f[a].hp
			t.cast(r, a, f.ready.Spell)
			if dmg := hp - t.f[a].hp; dmg > 0 && !t.f[a].out {
				lost = !t.concentrate(a, dmg, sp.Level)
			}
		}
		return lost
	})
	return lost || t.f[a].out
}

// counterWith finds r's spell named name with a use left (the one the plan
// names, or any when want is -1); -1 if none.
func (t *Table) counterWith(r int, name string, want int) int {
	for s, sp := range t.g.C[r].Spells {
		if sp.Name == name && t.cold[r].uses[s] > 0 && (want < 0 || want == s) {
			return s
		}
	}
	return -1
}

func keepsOrLoses(ok bool) msg.Text {
	if ok {
		return msg.New("keeps the spell")
	}
	return msg.New("loses the spell")
}
