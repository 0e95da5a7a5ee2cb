package agents

import (
	"strconv"
	"strings"

	"simctl/agents/tactics"
	"simctl/rulesets/d20"
	"simctl/sim/lang"
	"simctl/sim/msg"
)

// Turn implements d20.Policy: the first rule whose condition holds and
// whose decision can be carried out decides; a decision that cannot be
// carried out falls through to the next rule (counted with its reason);
// when none decides, the fallback acts as the default policy does.
func (p *d20Tactic) Turn(t *d20.Table, self int, plan *d20.Plan) {
	driveRules(t, self, t.Game().C[self].Name, d20Moments[0], p.rules, p.fallback, whyText[:],
		func(id, arg int) float64 { return d20Fact(t, self, id, arg) }, nil,
		func(r *d20Rule) int {
			*plan = d20.NoPlan
			return r.do.plan(t, self, r.target, plan)
		},
		narration[*d20Rule]{
			text:    func(r *d20Rule) string { return r.do.text(t) },
			decided: func(*d20Rule) msg.Text { return describePlan(t, self, *plan) },
			fallback: func() {
				*plan = d20.NoPlan
				plan.Target = pickTarget(t, self, d20Target{named: -1})
				plan.Spell = firstSpell(t, self)
				t.Aim(self, plan) // a ranged weapon, as the default policy uses it
			},
			oneMoment: true,
		})
}

// Standard implements d20.StandardPolicy: a block whose first
// unconditional rule attacks an enemy chosen by weakest, strongest,
// nearest or first (not "in reach": such a rule never falls through), with
// only conditional rules before it, decides by that rule on every turn
// where none of those conditions holds, so it compiles to the referee's
// own target rule, counted as the rule firing, guarded by the conditions:
// when one holds, the referee calls Turn, which plays the rules in order
// as always. (The referee still calls Turn while tracing, for the
// narration of the rule.)
func (p *d20Tactic) Standard() (d20.Standard, bool) {
	k := 0
	for k < len(p.rules) && p.rules[k].when != nil {
		k++
	}
	if k == len(p.rules) {
		return d20.Standard{}, false
	}
	r := &p.rules[k]
	if r.do.kind != doAttack || r.target.inReach {
		return d20.Standard{}, false
	}
	rule, ok := map[selKind]d20.TargetRule{selWeakest: d20.TargetWeakest, selStrongest: d20.TargetStrongest,
		selNearest: d20.TargetNearest, selFirst: d20.TargetFirst}[r.target.kind]
	if !ok {
		return d20.Standard{}, false
	}
	std := d20.Standard{Rule: rule, Limit: p.limit, Count: r.fired}
	if k > 0 {
		// Turn skips a rule whose condition fails without counting or
		// changing anything, and the facts draw nothing: with none
		// holding, Turn reaches rule k, as the referee's rule does.
		conds := make([]d20Cond, k)
		for i := range conds {
			conds[i] = newD20Cond(p.rules[i].when)
		}
		if len(conds) == 1 && conds[0].leaves != nil {
			// The walk in the guard itself: one call fewer a turn.
			leaves := conds[0].leaves
			std.Guard = func(t *d20.Table, self int) bool { return walkD20(leaves, t, self) }
		} else {
			std.Guard = func(t *d20.Table, self int) bool {
				for i := range conds {
					if conds[i].holds(t, self) {
						return true
					}
				}
				return false
			}
		}
	}
	return std, true
}

// d20Cond is a condition for the hot path (Standard's guard): its decision
// tree with each leaf's fact resolved to its function, walked here (one
// call a fact), or, when the condition is no such tree, the program.
type d20Cond struct {
	leaves []d20Leaf
	w      *tactics.Program
}

// d20Leaf names lang.Leaf directly: through an alias in package tactics,
// Go 1.26 does not inline its Holds.
type d20Leaf struct {
	lang.Leaf
	fn  d20FactFn
	arg int
}

func newD20Cond(w *tactics.Program) d20Cond {
	c := d20Cond{w: w}
	for _, l := range w.Leaves() {
		s := w.Slots[l.Slot]
		c.leaves = append(c.leaves, d20Leaf{l, d20FactFns[s.Fact], s.Arg})
	}
	return c
}

// holds evaluates the condition for self now, computing only the facts
// the short-circuit evaluation asks for, in its order.
func (c *d20Cond) holds(t *d20.Table, self int) bool {
	if c.leaves == nil {
		return c.w.EvalFunc(func(k int) float64 { return d20Fact(t, self, c.w.Slots[k].Fact, c.w.Slots[k].Arg) })
	}
	return walkD20(c.leaves, t, self)
}

// walkD20 walks a condition's decision tree (lang.Program.Leaves), asking
// each leaf's fact as it comes.
func walkD20(leaves []d20Leaf, t *d20.Table, self int) bool {
	i := int32(0)
	for {
		l := &leaves[i]
		x := l.fn(t, self, l.arg)
		n := l.Next[ib(l.Holds(x))]
		if n < 0 {
			return n == lang.ResultTrue
		}
		i = n
	}
}

func firstSpell(t *d20.Table, self int) int {
	for s := range t.Game().C[self].Spells {
		if t.Uses(self, s) > 0 {
			return s
		}
	}
	return -1
}

// plan turns a decision into the referee's Plan (p arrives as
// d20.NoPlan), or says why it cannot be carried out (why >= 0).
func (do *d20Do) plan(t *d20.Table, self int, sel d20Target, p *d20.Plan) (why int) {
	switch do.kind {
	case doDelayUntil:
		switch {
		case t.Resuming(self):
			return whyResuming
		case t.Out(do.who):
			return whyWaitedOut
		case t.Acted(do.who):
			return whyWaitedActed
		}
		p.Do, p.DelayAfter = d20.Delay, do.who
		return -1
	case doDelayTo:
		if t.Resuming(self) {
			return whyResuming
		}
		if do.count >= t.Count(self) {
			return whyCount
		}
		p.Do, p.DelayTo = d20.Delay, do.count
		return -1
	case doSpecial:
		if !t.CanTake(self, do.special) {
			return whyNoSpecial
		}
		p.Special = do.special + 1
		return -1
	case doReady, doCounterspell:
		p.Do, p.Trigger, p.Ally, p.Action, p.Spell, p.Shoot = d20.Ready, do.trigger, do.ally, do.action, do.spell, do.shoot
		if do.advance {
			p.Advance, p.Target = true, pickTarget(t, self, sel)
		}
		if do.kind == doCounterspell {
			p.Trigger, p.Action, p.Ally = d20.OnEnemyCasts, d20.ReadyCounterspell, -1
		}
		switch p.Action {
		case d20.ReadyCast:
			if p.Spell < 0 {
				p.Spell = firstSpell(t, self)
			}
			if p.Spell < 0 || t.Uses(self, p.Spell) == 0 {
				return whyNoUses
			}
		case d20.ReadyCounterspell:
			if !canCounter(t, self, p.Spell) {
				return whyCannotCounter
			}
		}
		return -1
	}
	if do.kind == doShoot || do.kind == doCloseIn || do.kind == doKeepDistance {
		tg := pickShotTarget(t, self, sel)
		if tg < 0 && (sel.inReach || sel.kind == selNamed) {
			return whyNoTarget
		}
		if tg < 0 || t.Ammo(self) == 0 {
			return whyNoShot
		}
		p.Target, p.Shoot = tg, true
		p.CloseIn, p.KeepAway = do.kind == doCloseIn, do.kind == doKeepDistance
		return -1
	}
	tg := pickTarget(t, self, sel)
	if tg < 0 && (sel.inReach || sel.kind == selNamed) {
		return whyNoTarget
	}
	p.Target = tg
	switch do.kind {
	case doCharge, doFullAttack:
		me := &t.Game().C[self]
		need := 0
		if tg >= 0 {
			need = t.Dist(self, tg) - me.Reach
		}
		if do.kind == doCharge {
			limit := 2 * me.Speed
			if t.StandardOnly() {
				limit = me.Speed
			}
			if tg < 0 || need < 10 || need > limit {
				return whyNoCharge
			}
			p.Charge = true
		} else if tg < 0 || t.StandardOnly() || len(me.Attacks) < 2 || need > 5 {
			return whyNoFull
		}
	case doCast:
		s := do.spell
		if s < 0 {
			s = firstSpell(t, self)
		}
		if s < 0 || t.Uses(self, s) == 0 {
			return whyNoUses
		}
		p.Spell = s
	}
	return -1
}

// canCounter: an enemy in the fight has a use left of a spell that self can
// cast too (same name, a use left; spell s when s >= 0). The referee never
// fires a counterspell otherwise, so readying one would waste the turn.
func canCounter(t *d20.Table, self, s int) bool {
	g := t.Game()
	for j := 0; j < t.N(); j++ {
		if t.Out(j) || t.Side(j) == t.Side(self) {
			continue
		}
		for k, sp := range g.C[j].Spells {
			if t.Uses(j, k) == 0 {
				continue
			}
			for o, own := range g.C[self].Spells {
				if own.Name == sp.Name && t.Uses(self, o) > 0 && (s < 0 || s == o) {
					return true
				}
			}
		}
	}
	return false
}

// pickTarget chooses an enemy by selector. Without a filter it prefers
// enemies it can attack this turn (in reach, a 5-foot step or a charge
// away), else the nearest, as the default policy does; with "in reach"
// only enemies within reach count (-1 when there are none). The table
// keeps the standing enemies and the weakest of them, so the common
// selectors scan nothing (d20.Table.PickTarget).
func pickTarget(t *d20.Table, self int, sel d20Target) int {
	me := &t.Game().C[self]
	limit := t.AttackRange(self)
	if sel.inReach {
		limit = me.Reach
	}
	return pickWithin(t, self, sel, limit)
}

// pickShotTarget is pickTarget for a shot: among the enemies within the
// ranged weapon's range (the nearest when none is).
func pickShotTarget(t *d20.Table, self int, sel d20Target) int {
	limit := t.Game().C[self].Ranged.MaxRange()
	if sel.inReach {
		limit = t.Game().C[self].Reach
	}
	return pickWithin(t, self, sel, limit)
}

// pickWithin chooses an enemy by selector among those within limit feet.
func pickWithin(t *d20.Table, self int, sel d20Target, limit int) int {
	switch sel.kind {
	case selNamed:
		if t.Out(sel.named) || sel.inReach && !t.InReach(self, sel.named) {
			return -1
		}
		return sel.named
	case selWeakest:
		return t.PickTarget(self, d20.TargetWeakest, limit, !sel.inReach)
	case selStrongest:
		return t.PickTarget(self, d20.TargetStrongest, limit, !sel.inReach)
	case selNearest:
		return t.PickTarget(self, d20.TargetNearest, limit, !sel.inReach)
	case selFirst:
		return t.PickTarget(self, d20.TargetFirst, limit, !sel.inReach)
	}
	up := t.Standing(1 - t.Side(self))
	if sel.kind == selRandom {
		alive := 0
		for _, j := range up {
			if !sel.inReach || t.InReach(self, j) {
				alive++
			}
		}
		if alive == 0 {
			return -1
		}
		k := t.Rand().IntN(alive)
		for _, j := range up {
			if !sel.inReach || t.InReach(self, j) {
				if k == 0 {
					return j
				}
				k--
			}
		}
	}
	best := -1
	for _, j := range up {
		if t.Dist(self, j) > limit {
			continue
		}
		if best < 0 || better(t, sel.kind, j, best) {
			best = j
		}
	}
	if best >= 0 || sel.inReach {
		return best
	}
	return t.PickTarget(self, d20.TargetWeakest, -1, true)
}

// better reports whether enemy j beats best under the selector (lowest_ac
// or casters_first); ties go to the fewer hit points, then to the earlier
// in roster order.
func better(t *d20.Table, k selKind, j, best int) bool {
	switch k {
	case selLowestAC:
		aj, ab := t.AC(j), t.AC(best) // the AC an attack would meet now
		return aj < ab || aj == ab && t.HP(j) < t.HP(best)
	case selCastersFirst:
		cj, cb := spellsLeft(t, j) > 0, spellsLeft(t, best) > 0
		if cj != cb {
			return cj
		}
	}
	return t.HP(j) < t.HP(best)
}

func spellsLeft(t *d20.Table, i int) int {
	n := 0
	for s := range t.Game().C[i].Spells {
		n += t.Uses(i, s)
	}
	return n
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// d20Fact computes one fact for self, now.
func d20Fact(t *d20.Table, self, id, arg int) float64 { return d20FactFns[id](t, self, arg) }

// d20FactFn computes one fact for self, now; arg is the slot's argument.
type d20FactFn func(t *d20.Table, self, arg int) float64

// d20FactFns are the facts by id, one function each: a condition's slot
// is resolved to its function once (d20Cond), so asking a fact costs one
// call and the fact's own work, not a switch over the ids and another
// over the group facts.
var d20FactFns = [...]d20FactFn{
	fRound:          func(t *d20.Table, _, _ int) float64 { return float64(t.Round()) },
	fSurprise:       func(t *d20.Table, _, _ int) float64 { return b2f(t.StandardOnly()) },
	fSelfHP:         func(t *d20.Table, self, _ int) float64 { return float64(t.HP(self)) },
	fSelfHPPct:      func(t *d20.Table, self, _ int) float64 { return pct(t, self) },
	fSelfAC:         func(t *d20.Table, self, _ int) float64 { return float64(t.AC(self)) },
	fSelfCount:      func(t *d20.Table, self, _ int) float64 { return float64(t.Count(self)) },
	fSelfPosition:   func(t *d20.Table, self, _ int) float64 { return float64(t.Position(self) + 1) },
	fSelfEngaged:    func(t *d20.Table, self, _ int) float64 { return b2f(t.Engaged(self)) },
	fSelfResuming:   func(t *d20.Table, self, _ int) float64 { return b2f(t.Resuming(self)) },
	fSelfSpellsLeft: func(t *d20.Table, self, _ int) float64 { return float64(spellsLeft(t, self)) },
	fSpellLeft:      func(t *d20.Table, self, arg int) float64 { return float64(t.Uses(self, arg)) },
	fAllyActed:      factActed,
	fEnemyActed:     factActed,
	fAllyDown:       factDown,
	fEnemyDown:      factDown,
	fAllyHP:         factHP,
	fEnemyHP:        factHP,
	fAllyHPPct:      factHPPct,
	fEnemyHPPct:     factHPPct,
	fAllyEngaged:    func(t *d20.Table, _, arg int) float64 { return b2f(t.Engaged(arg)) },
	fAllyDistance:   factDistance,
	fEnemyDistance:  factDistance,
	fEnemyInReach:   func(t *d20.Table, self, arg int) float64 { return b2f(!t.Out(arg) && t.InReach(self, arg)) },
	fEnemySpellsLeft: func(t *d20.Table, _, arg int) float64 {
		return float64(spellsLeft(t, arg))
	},
	fSelfFlatFooted: func(t *d20.Table, self, _ int) float64 { return b2f(t.FlatFooted(self)) },
	fSelfAmmo: func(t *d20.Table, self, _ int) float64 {
		if a := t.Ammo(self); a >= 0 {
			return float64(a)
		}
		return 1e6
	},
	fSelfLoaded:      func(t *d20.Table, self, _ int) float64 { return b2f(t.Loaded(self)) },
	fSelfThreatened:  func(t *d20.Table, self, _ int) float64 { return b2f(t.Threatened(self)) },
	fSelfFlanked:     func(t *d20.Table, self, _ int) float64 { return b2f(t.Flanked(self)) },
	fEnemyFlanked:    func(t *d20.Table, self, arg int) float64 { return b2f(!t.Out(arg) && t.WouldFlank(self, arg)) },
	fAllyFlatFooted:  factFlatFooted,
	fEnemyFlatFooted: factFlatFooted,
	fAllyReadied:     factReadied,
	fEnemyReadied:    factReadied,
	fAllyDelaying:    factDelaying,
	fEnemyDelaying:   factDelaying,
	fAllyCharged:     factCharged,
	fEnemyCharged:    factCharged,
	fAllyCount:       factCount,
	fEnemyCount:      factCount,
	fEnemyAC:         func(t *d20.Table, _, arg int) float64 { return float64(t.AC(arg)) },
	fEnemyInRange: func(t *d20.Table, self, arg int) float64 {
		r := t.Game().C[self].Ranged.MaxRange()
		return b2f(r > 0 && !t.Out(arg) && t.Dist(self, arg) <= r)
	},
	fEnemyShotPenalty: func(t *d20.Table, self, arg int) float64 { return float64(t.ShotBonus(self, arg, 0)) },
	fNextExists:       func(t *d20.Table, _, _ int) float64 { return b2f(t.NextActor() >= 0) },
	fNextIsEnemy: func(t *d20.Table, self, _ int) float64 {
		n := t.NextActor()
		return b2f(n >= 0 && t.Side(n) != t.Side(self))
	},
	fNextIsAlly: func(t *d20.Table, self, _ int) float64 {
		n := t.NextActor()
		return b2f(n >= 0 && n != self && t.Side(n) == t.Side(self))
	},

	// The group facts count over enemies or allies. Counts of the standing
	// and the fallen, and of the standing within a distance, come from the
	// table's per-side standing lists (O(1) in a joined melee); the rest is
	// one loop over the standing per fact, so the loop body is a single
	// test.
	fEnemiesCount: func(t *d20.Table, self, _ int) float64 { return float64(len(t.Standing(1 - t.Side(self)))) },
	fEnemiesDown: func(t *d20.Table, self, _ int) float64 {
		es := 1 - t.Side(self)
		return float64(t.SideSize(es) - len(t.Standing(es)))
	},
	fEnemiesInReach: func(t *d20.Table, self, _ int) float64 {
		return float64(t.CountWithin(self, 1-t.Side(self), t.Game().C[self].Reach))
	},
	fEnemiesReachable: func(t *d20.Table, self, _ int) float64 {
		return float64(t.CountWithin(self, 1-t.Side(self), t.AttackRange(self)))
	},
	fEnemiesInRange: func(t *d20.Table, self, _ int) float64 {
		if r := t.Game().C[self].Ranged.MaxRange(); r > 0 {
			return float64(t.CountWithin(self, 1-t.Side(self), r))
		}
		return 0
	},
	// Allies are the side but self; self is standing on its own turn, but
	// the counts do not rely on it.
	fAlliesCount: func(t *d20.Table, self, _ int) float64 {
		return float64(len(t.Standing(t.Side(self))) - ib(!t.Out(self)))
	},
	fAlliesDown: func(t *d20.Table, self, _ int) float64 {
		side := t.Side(self)
		return float64(t.SideSize(side) - 1 - (len(t.Standing(side)) - ib(!t.Out(self))))
	},
	fEnemiesNearest: func(t *d20.Table, self, _ int) float64 {
		nearest := -1
		for _, j := range t.Standing(1 - t.Side(self)) {
			if d := t.Dist(self, j); nearest < 0 || d < nearest {
				nearest = d
			}
		}
		return float64(max(nearest, 0))
	},
	fEnemiesCasters: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(1 - t.Side(self)) {
			n += ib(spellsLeft(t, j) > 0)
		}
		return float64(n)
	},
	fEnemiesActed: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(1 - t.Side(self)) {
			n += ib(t.Acted(j))
		}
		return float64(n)
	},
	fEnemiesFlatFooted: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(1 - t.Side(self)) {
			n += ib(t.FlatFooted(j))
		}
		return float64(n)
	},
	fEnemiesReadied: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(1 - t.Side(self)) {
			n += ib(t.Readied(j))
		}
		return float64(n)
	},
	fEnemiesFlanked: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(1 - t.Side(self)) {
			n += ib(t.WouldFlank(self, j))
		}
		return float64(n)
	},
	fAlliesEngaged: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(t.Side(self)) {
			n += ib(j != self && t.Engaged(j))
		}
		return float64(n)
	},
	fAlliesActed: func(t *d20.Table, self, _ int) float64 {
		n := 0
		for _, j := range t.Standing(t.Side(self)) {
			n += ib(j != self && t.Acted(j))
		}
		return float64(n)
	},
}

// The facts of ally(...) and enemy(...), the same for either.
func factActed(t *d20.Table, _, arg int) float64       { return b2f(t.Acted(arg)) }
func factDown(t *d20.Table, _, arg int) float64        { return b2f(t.Out(arg)) }
func factHP(t *d20.Table, _, arg int) float64          { return float64(t.HP(arg)) }
func factHPPct(t *d20.Table, _, arg int) float64       { return pct(t, arg) }
func factDistance(t *d20.Table, self, arg int) float64 { return float64(t.Dist(self, arg)) }
func factFlatFooted(t *d20.Table, _, arg int) float64  { return b2f(t.FlatFooted(arg)) }
func factReadied(t *d20.Table, _, arg int) float64     { return b2f(t.Readied(arg)) }
func factDelaying(t *d20.Table, _, arg int) float64    { return b2f(t.Delaying(arg)) }
func factCharged(t *d20.Table, _, arg int) float64     { return b2f(t.Charged(arg)) }
func factCount(t *d20.Table, _, arg int) float64       { return float64(t.Count(arg)) }

func pct(t *d20.Table, i int) float64 {
	if m := t.MaxHP(i); m > 0 {
		return float64(t.HP(i)) / float64(m)
	}
	return 0
}

// groupFact is the group fact fact (fEnemiesCount..fAlliesActed) for
// self, now.
func groupFact(t *d20.Table, self, fact int) float64 { return d20FactFns[fact](t, self, 0) }

func ib(b bool) int {
	if b {
		return 1
	}
	return 0
}

// traceVals renders the values that made a condition true (trace only).
func traceVals(p *tactics.Program, m *tactics.Machine) msg.Text {
	if p == nil {
		return msg.New(" (always)")
	}
	// The condition and its facts are the tactics file's own words.
	var b strings.Builder
	b.WriteString(p.Src)
	sep := ": "
	for k, s := range p.Slots {
		if !m.Has(k) {
			continue // not needed: short-circuited
		}
		b.WriteString(sep)
		sep = ", "
		b.WriteString(s.Text)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(m.Value(k), 'g', 4, 64))
	}
	return msg.New(" (when %s)", b.String())
}

func (do *d20Do) text(t *d20.Table) string {
	g := t.Game()
	switch do.kind {
	case doDelayUntil:
		return "delay until " + g.C[do.who].Name
	case doDelayTo:
		return "delay to " + strconv.Itoa(do.count)
	case doReady:
		return "ready on " + d20.TriggerNames[do.trigger]
	}
	return kindName(do.kind)
}

// describePlan is what a d20 rule decided, narrated (a msg.Text, so a
// translated trace translates it; the tactics file's words stay).
func describePlan(t *d20.Table, self int, p d20.Plan) msg.Text {
	g := t.Game()
	switch p.Do {
	case d20.Delay:
		if p.DelayAfter >= 0 {
			return msg.New("delay until %s has acted", g.C[p.DelayAfter].Name)
		}
		return msg.New("delay to count %d", p.DelayTo)
	case d20.Ready:
		what := [...]string{"attack", "cast", "counterspell", "move"}[p.Action]
		if p.Shoot && p.Action == d20.ReadyAttack {
			what = "shoot"
		}
		s := msg.New("ready %s on %s", what, d20.TriggerNames[p.Trigger])
		if p.Ally >= 0 {
			s = msg.New("%s for %s", s, g.C[p.Ally].Name)
		}
		if p.Advance && p.Target >= 0 {
			s = msg.New("advance on %s and %s", g.C[p.Target].Name, s)
		}
		return s
	}
	if p.Special > 0 {
		return msg.New("take the special action %s", g.ActionName(p.Special-1))
	}
	if p.Target < 0 {
		return msg.New("act (no one to act against)")
	}
	s := msg.New("act against %s", g.C[p.Target].Name)
	switch {
	case p.Spell >= 0:
		s = msg.New("cast %s at %s", g.C[self].Spells[p.Spell].Name, g.C[p.Target].Name)
	case p.Shoot && p.CloseIn:
		s = msg.New("close in on %s and shoot", g.C[p.Target].Name)
	case p.Shoot && p.KeepAway:
		s = msg.New("keep distance and shoot at %s", g.C[p.Target].Name)
	case p.Shoot:
		s = msg.New("shoot at %s", g.C[p.Target].Name)
	}
	if p.Charge {
		s = msg.New("%s (charging)", s)
	}
	return s
}
