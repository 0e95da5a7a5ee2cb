package d20

import (
	"go.yaml.in/yaml/v3"

	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Ranged attacks (SRD 3.5 Combat, "Attack Roll", "Range Penalty",
// "Shooting or Throwing into a Melee", "Attacks of Opportunity"; the
// crossbows' and thrown weapons' entries of the weapon tables). The rules
// file 003 covers initiative only; these are the combat chapter's rules a
// Ready question about archers needs:
//
//   - range: -2 per full range increment between shooter and target (the
//     text; option range_penalty: table, beyond the first); at most 10
//     increments for projectile weapons, 5 for thrown;
//   - into melee: -4 against a target engaged in melee with one of the
//     shooter's allies (either threatens the other), unless Precise Shot;
//   - a ranged attack provokes an attack of opportunity from every enemy
//     threatening the shooter (each still one a round);
//   - reloading: none for bows and thrown weapons, a move action for a
//     light crossbow (a shot and a reload fit one turn), a full-round action
//     for a heavy crossbow (a shot every other turn); a crossbow fires once
//     per turn (no Rapid Reload), a bow or thrown weapon makes every bonus
//     of a full attack when the shooter does not move;
//   - ammunition: ammo shots, then the ranged weapon is spent; thrown
//     weapons must give their supply (drawing one is the free action of a
//     base attack bonus of +1 or more, taken with the throw).
//
// A shooter moves on the same line as everyone else: toward its target
// until it is in range (close_in: within one increment), or away from
// enemies that threaten it (keep_distance: a 5-foot step if that clears
// their reach, which provokes nothing, else a move, which does).

// Reload is how long reloading a ranged weapon takes.
type Reload uint8

// Reload times.
const (
	ReloadNone Reload = iota // bows, thrown weapons
	ReloadMove               // light crossbow: a move action
	ReloadFull               // heavy crossbow: a full-round action
)

var reloadNames = []string{"none", "move", "full"}

// Ranged is a combatant's ranged weapon (scenario field ranged:).
type Ranged struct {
	Bonus      []int // attack bonuses; the first is the standard action's shot
	Damage     dice.Expr
	ThreatFrom int
	CritMult   int
	Increment  int // range increment in feet; 0: no ranged weapon
	MaxIncr    int // 10 for projectile weapons, 5 for thrown
	Thrown     bool
	Reload     Reload
	Ammo       int // shots carried; -1: no limit
}

// MaxRange is the farthest a shot can go, in feet (0: no ranged weapon).
func (w *Ranged) MaxRange() int { return w.Increment * w.MaxIncr }

// RangePenalty is the attack penalty at dist feet. The SRD: "Any attack at
// less than this distance is not penalized for range. However, each full
// range increment imposes a cumulative -2 penalty": -2 per full increment
// of distance, so exactly one increment is -2 (a shortbow's 60 ft "can
// strike at enemies up to 59 feet away with no penalty"), ten -20. table
// is the common table reading (option range_penalty: table): nothing up
// to and including one increment, -2 per started increment beyond it, so
// exactly one increment is 0 and ten -18. Off the multiples both agree.
func (w *Ranged) RangePenalty(dist int, table bool) int {
	if w.Increment == 0 {
		return 0
	}
	if !table {
		return -2 * (dist / w.Increment)
	}
	if dist <= w.Increment {
		return 0
	}
	return -2 * ((dist+w.Increment-1)/w.Increment - 1)
}

var rangedKeys = []string{"bonus", "damage", "crit", "increment", "thrown", "reload", "ammo"}

// compileRanged reads ranged: {bonus, damage, crit, increment, thrown,
// reload, ammo}.
func compileRanged(d *scenario.Decoder, n *yaml.Node, path string) Ranged {
	w := Ranged{ThreatFrom: 20, CritMult: 2, MaxIncr: 10, Ammo: -1}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "expected a mapping such as {bonus: [6, 1], damage: 1d8, crit: 20/x3, increment: 100}")
		return Ranged{}
	}
	keys := d.Mapping(n, path, rangedKeys)
	if k := keys["bonus"]; k != nil {
		if k.Kind == yaml.ScalarNode {
			w.Bonus = []int{d.Int(k, path+".bonus", -100, 100)}
		} else {
			w.Bonus = d.IntList(k, path+".bonus", -100, 100, 16)
		}
		if len(w.Bonus) == 0 && k.Kind != yaml.ScalarNode {
			d.Errorf(k, path+".bonus", "no attack bonus; give one or a list, e.g. 5 or [6, 1]")
		}
	} else {
		d.Errorf(n, path+".bonus", "missing; give the ranged attack bonus, e.g. 5 or [6, 1] for a full attack")
	}
	if k := keys["damage"]; k != nil {
		w.Damage = d.Dice(k, path+".damage")
	} else {
		d.Errorf(n, path+".damage", "missing; give the ranged weapon's damage as dice, e.g. 1d8")
	}
	if k := keys["crit"]; k != nil {
		w.ThreatFrom, w.CritMult = parseCrit(d, k, path+".crit")
	}
	if k := keys["increment"]; k != nil {
		w.Increment = d.Int(k, path+".increment", 5, 1000)
		if w.Increment%5 != 0 {
			d.Errorf(k, path+".increment", "range increment %d is not a multiple of 5 feet", w.Increment)
		}
	} else {
		d.Errorf(n, path+".increment", "missing; give the range increment in feet, e.g. 100 (longbow), 80 (light crossbow), 10 (dagger)")
	}
	if k := keys["thrown"]; k != nil && d.Bool(k, path+".thrown") {
		w.Thrown, w.MaxIncr = true, 5
	}
	if k := keys["reload"]; k != nil {
		r := d.Enum(k, path+".reload", reloadNames)
		for v, name := range reloadNames {
			if name == r {
				w.Reload = Reload(v)
			}
		}
		if w.Thrown && w.Reload != ReloadNone {
			d.Errorf(k, path+".reload", "a thrown weapon is not reloaded; drop reload or set thrown: false")
		}
	}
	if w.Reload != ReloadNone && len(w.Bonus) > 1 {
		d.Errorf(keys["bonus"], path+".bonus", "a crossbow shoots once a turn (reload %s); give one bonus", reloadNames[w.Reload])
	}
	if k := keys["ammo"]; k != nil {
		w.Ammo = d.Int(k, path+".ammo", 0, 10000)
	} else if w.Thrown {
		d.Errorf(n, path+".ammo", "missing; a thrown weapon needs its supply, e.g. ammo: 3 (javelins carried)")
	}
	return w
}

// canShoot reports whether a can shoot at d now: it has a ranged weapon
// with a shot left, loaded, and d is in the fight within its range.
func (t *Table) canShoot(a, d int) bool {
	w := &t.g.C[a].Ranged
	cf := &t.cold[a]
	return w.Increment > 0 && cf.ammo != 0 && !cf.unloaded && !t.f[d].out && t.Dist(a, d) <= w.MaxRange()
}

// intoMelee reports whether d is engaged in melee with one of a's allies
// still in the fight (either threatens the other).
func (t *Table) intoMelee(a, d int) bool {
	for _, j := range t.up[t.side(a)] {
		if j != a && (t.InReach(j, d) || t.InReach(d, j)) {
			return true
		}
	}
	return false
}

// ShotBonus is a's attack bonus for a shot at d with bonus: the range
// penalty and, unless Precise Shot, -4 into a melee.
func (t *Table) ShotBonus(a, d, bonus int) int {
	c := &t.g.C[a]
	bonus += c.Ranged.RangePenalty(t.Dist(a, d), t.g.Opt.TableRange)
	if !c.PreciseShot && t.intoMelee(a, d) {
		bonus -= 4
	}
	return bonus
}

// shot is one ranged attack of a at d with bonus (before penalties): the
// attacks of opportunity it provokes first, then the roll. It returns the
// damage dealt.
func (t *Table) shot(a, d, bonus int) int {
	for _, e := range t.up[1-t.side(a)] {
		if t.f[a].out {
			return 0
		}
		if t.InReach(e, a) {
			t.opportunity(e, a)
		}
	}
	if t.f[a].out || t.f[d].out {
		return 0
	}
	c := &t.g.C[a]
	w := &c.Ranged
	cf := &t.cold[a]
	if cf.ammo > 0 {
		cf.ammo--
	}
	if w.Reload != ReloadNone {
		cf.unloaded = true
	}
	b := t.ShotBonus(a, d, bonus)
	if t.log != nil {
		t.logf("%s shoots at %s (%d ft: %+d to hit)", c.Name, t.name(d), t.Dist(a, d), b-bonus)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: a, Target: d, Roll: b - bonus, Amount: t.Dist(a, d), Rule: "shoot"})
	}
	return t.strike(a, d, b, 0, true)
}

// reload spends the action reloading takes.
func (t *Table) reload(a int) {
	t.cold[a].unloaded = false
	if t.log != nil {
		t.logf("%s reloads (%s action)", t.name(a), [...]msg.Text{{}, msg.New("a move"), msg.New("a full-round")}[t.g.C[a].Ranged.Reload])
		t.ev(sim.Event{Kind: sim.EvAction, Actor: a, Target: sim.NoOne, Amount: int(t.g.C[a].Ranged.Reload), Rule: "reload"})
	}
}

// shootTurn is an Act plan with the ranged weapon against tg: the movement
// it needs, reloading, then a shot, or a full attack when the shooter does
// not move and its weapon needs no reloading. In the surprise round one
// standard action: a shot, or a move.
func (t *Table) shootTurn(i int, p *Plan, tg int) {
	c := &t.g.C[i]
	w := &c.Ranged
	f := &t.f[i]
	cf := &t.cold[i]
	moves := 1 // move actions besides the standard one
	if t.stdOne {
		moves = 0
	}
	moved := false
	stepped := false
	if p.KeepAway && t.threatened(i) {
		if t.withdraw(i, moves > 0) {
			moved = true
		} else {
			stepped = t.hasMoved(i)
		}
		// A 5-foot step allows no other movement; a withdrawal is the move
		// action.
		moves = 0
		if f.out || t.f[tg].out {
			return
		}
	}
	want := w.MaxRange()
	if p.CloseIn {
		want = w.Increment
	}
	if t.Dist(i, tg) > want && moves > 0 {
		moves--
		t.move(i, tg, min(t.Dist(i, tg)-want, c.Speed))
		moved = true
		if f.out || t.f[tg].out {
			return
		}
	}
	if t.Dist(i, tg) > w.MaxRange() {
		// Still out of range: the standard action as a second move (none
		// after a 5-foot step).
		if !stepped {
			t.move(i, tg, min(t.Dist(i, tg)-want, c.Speed))
		}
		return
	}
	if cf.unloaded {
		switch {
		case w.Reload == ReloadFull:
			if moved || t.stdOne {
				return // no full-round action left to reload
			}
			t.reload(i)
			return
		case moves > 0:
			moves--
			t.reload(i)
		default:
			t.reload(i) // the standard action as a move
			return
		}
	}
	if !t.canShoot(i, tg) {
		return
	}
	t.enemyAttacks(i, tg)
	if f.out || t.f[tg].out {
		return
	}
	t.c.Inc(c.Side, sim.Actions)
	if moved || t.stdOne || len(w.Bonus) == 1 {
		t.shot(i, tg, w.Bonus[0])
		if w.Reload == ReloadMove && moves > 0 && !f.out && cf.ammo != 0 {
			t.reload(i)
		}
		return
	}
	for _, bonus := range w.Bonus {
		if t.f[tg].out {
			tg = t.PickTarget(i, TargetWeakest, w.MaxRange(), false)
			if tg < 0 {
				return
			}
			t.enemyAttacks(i, tg)
			if f.out || t.f[tg].out {
				return
			}
		}
		if !t.canShoot(i, tg) {
			return
		}
		t.shot(i, tg, bonus)
		if f.out || t.over() {
			return
		}
	}
}

// threatened reports whether an enemy in the fight threatens i.
func (t *Table) threatened(i int) bool {
	for _, e := range t.up[1-t.side(i)] {
		if t.InReach(e, i) {
			return true
		}
	}
	return false
}

// withdraw moves i away from the enemy side: a 5-foot step when that
// leaves every enemy's reach (no attack of opportunity, and a full attack
// may follow: it reports false), else, with a move action left, up to speed
// (it provokes as any move out of threatened squares; it reports true).
func (t *Table) withdraw(i int, canMove bool) bool {
	f := &t.f[i]
	dir := -1 // side 0 started at 0, side 1 at distance: away is back
	if t.side(i) == 1 {
		dir = 1
	}
	clear := true
	for _, e := range t.up[1-t.side(i)] {
		if abs(f.x+dir*5-t.f[e].x) <= t.g.C[e].Reach {
			clear = false
		}
	}
	if clear && !t.hasMoved(i) {
		t.approach(i, f.x+dir*5)
		if f.out {
			return false
		}
		prev := f.x
		f.x += dir * 5
		t.moved(i)
		t.firstAction(i)
		if t.log != nil {
			t.logf("%s takes a 5-foot step back", t.name(i))
			t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: sim.NoOne, Amount: 5, Rule: "5-foot step back"})
		}
		t.entered(i, prev)
		return false
	}
	if !canMove {
		return false
	}
	speed := t.g.C[i].Speed
	for k := 0; k < speed; k += 5 {
		t.approach(i, f.x+dir*5)
		if f.out {
			return true
		}
		t.provoke(i, f.x)
		if f.out {
			return true
		}
		t.firstAction(i)
		prev := f.x
		f.x += dir * 5
		t.moved(i)
		t.entered(i, prev)
		if f.out {
			return true
		}
	}
	if t.log != nil {
		t.logf("%s withdraws %d ft", t.name(i), speed)
		t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: sim.NoOne, Amount: speed, Rule: "withdraw"})
	}
	return true
}

// aim is the standard policies' use of a ranged weapon: with no enemy in
// its reach and a shot left (or a crossbow to reload), a shooter shoots at
// the enemy its rule picks among those in range (else the nearest, closing
// in); an enemy in its reach, or no shot left, and it fights in melee.
func (t *Table) aim(i int, p *Plan, rule TargetRule) {
	if t.cold[i].ammo == 0 || t.Engaged(i) {
		return
	}
	if tg := t.PickTarget(i, rule, t.g.C[i].Ranged.MaxRange(), true); tg >= 0 {
		p.Target, p.Shoot = tg, true
	}
}

// Aim is aim for a policy that chose its target itself (at random, say):
// a plan with a weapon attack becomes a shot at that target when it is in
// range, at the weakest in range when it is not (the default policy's
// reading of a ranged weapon).
func (t *Table) Aim(i int, p *Plan) {
	if t.g.C[i].Ranged.Increment == 0 || p.Do != Act || p.Spell >= 0 || p.Target < 0 {
		return
	}
	if r := t.g.C[i].Ranged.MaxRange(); t.Dist(i, p.Target) <= r && t.cold[i].ammo != 0 && !t.Engaged(i) {
		p.Shoot = true
		return
	}
	t.aim(i, p, TargetWeakest)
}

// Ammo is the shots i has left (-1: no limit; 0 without a ranged weapon).
func (t *Table) Ammo(i int) int {
	if t.g.C[i].Ranged.Increment == 0 {
		return 0
	}
	return t.cold[i].ammo
}

// Loaded reports whether i's ranged weapon is ready to shoot (a crossbow
// fired and not reloaded is not).
func (t *Table) Loaded(i int) bool {
	return t.g.C[i].Ranged.Increment > 0 && !t.cold[i].unloaded
}

// Threatened reports whether an enemy in the fight threatens i (a shot or
// a move away from it provokes).
func (t *Table) Threatened(i int) bool { return t.threatened(i) }
