package d20

import (
	"math"
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/rng"
)

// The fused referee (issue 38): the common melee fight played over dense
// per-combatant arrays, one standing bit mask per side and per-encounter
// counters flushed into sim.Counts once at the end.
//
// It plays exactly the encounters of the general referee (the same draws in
// the same order, the same counts and outcome) for the fights it accepts,
// and only those: compileFused decides once, at compile time, from rules
// that cannot change during an encounter. Everyone stands in one place (no
// movement, so everyone is always in reach and nobody provokes), everyone
// plays a standard policy that picks the weakest or the first enemy (no
// delay, no ready, no retargeting policy; a tactics block's conditional
// rules before it only as fused_tactics.go plays them), nobody has
// traits, house rules, sneak attack, spells or a ranged weapon, there is no
// surprise round, no pinned initiative or initiative dice, and dying is
// out-at-0. Anything else goes through the general referee, which keeps
// every rule; a traced encounter always does (the narration is the general
// referee's), so a test comparing the traced and the quiet play of a fight
// checks one against the other.
//
// What the general referee does per event and this does not: the turn
// pipeline's tests for delay, ready, surprise, traits and the plan; the
// per-side target heap, standing lists and position span (here the weakest
// of a side is cached and rescanned only when it goes out: hit points only
// fall, so a blow can only make its victim the new weakest); counters
// written through sim.Counts on every hit, turn and out; d20s and dice
// expressions through calls (here written out on the stream's words: the
// same words rng.Stream.D20 and rulesets/internal/plain draw).

// maxFused is the most combatants a fused game has: scenario.MaxCombatants,
// so that a side's standing combatants fit one uint64.
const maxFused = 64

// fusedGame is the static part of a fused game: per-combatant numbers
// copied out of Combatant into dense arrays.
type fusedGame struct {
	n       int
	side    [maxFused]uint8
	first   [maxFused]bool  // picks the first standing enemy (TargetFirst, TargetNearest), else the weakest
	rule    [maxFused]int32 // stdRule.Count: the tactics counter its decision adds (-1: none)
	ac      [maxFused]int32 // AC
	acFlat  [maxFused]int32 // AC while flat-footed (without dex_ac unless uncanny dodge)
	threat  [maxFused]int32 // lowest d20 that threatens
	critAdd [maxFused]int32 // CritMult - 1
	init    [maxFused]int32
	// The weapon's damage NdM+K taken apart (dmgN < 0: not of that form,
	// rolled by the Expr), rolled in the attack loop.
	dmgN, dmgM, dmgK [maxFused]int32
	hpN, hpM, hpK    [maxFused]int32 // hit points the same way
	attacks          [maxFused][]int
	mask             [2]uint64 // roster bits of each side
	confirm          bool      // confirm_crits
	flankTwo         bool      // flanking: two (everyone stands in one place: flanked when an ally of the attacker stands)
	// Tactics conditions (fused_tactics.go): the combatants whose standard rule
	// has a guard, and their rules before it.
	guarded  uint64
	tactic   [maxFused][]fusedRule
	walk     [maxFused][]fusedLeaf // the tactic's walk (compileWalk)
	acted    bool                  // some rule asks who has acted (fusedState.acted is kept)
	sideSize [2]int
}

// fusedState is a Table's per-encounter state of the fused referee.
type fusedState struct {
	hp   [maxFused]int32
	up   [2]uint64 // standing combatants of each side
	flat uint64    // flat-footed combatants
	weak [2]int    // the weakest standing combatant of each side (valid while up[s] != 0)
	keys [maxFused]int64
	// The encounter's counters, flushed into sim.Counts at its end.
	turns [maxFused]int32
	dealt [maxFused]int32
	taken [maxFused]int32
	kills [maxFused]int32
	crits [2]int64
	// For tactics conditions only (fg.guarded != 0): who has acted this
	// round, and the turns a rule before the standard one decided (not
	// counted as the standard rule's).
	acted uint64
	ruled [maxFused]int32
	// The facts kept per side (fused_tactics.go's sideRound etc.), as
	// self on side s asks them: side[s][kind].
	side [2][8]int64
	// hpDiv is what hp_pct divides by: the hit points at the start, or
	// +Inf when those are not above 0 (pct is then 0; the turn's walk
	// compares hp/+Inf, 0 or -0, which compare as 0).
	hpDiv [maxFused]float64
}

// compileFused returns g's fused form, or nil when some rule of g needs
// the general referee (see the comment at the top of this file).
func compileFused(g *Game) *fusedGame {
	n := len(g.C)
	if n > maxFused || n == 0 || g.traits != nil || g.srdDying || g.Distance != 0 {
		return nil
	}
	fg := &fusedGame{n: n, confirm: g.Opt.ConfirmCrits, flankTwo: g.Opt.FlankTwo}
	for i := range g.C {
		c := &g.C[i]
		if c.stdRule.Guard != nil {
			// A tactics block with conditions before its standard rule:
			// fused when every rule and fact is one playFused plays.
			ft, ok := c.Policy.(FusedTactic)
			if !ok {
				return nil
			}
			rules, ok := ft.FusedRules()
			if !ok || len(rules) == 0 {
				return nil
			}
			for _, r := range rules {
				fr, ok := compileFusedRule(r, n)
				if !ok {
					return nil
				}
				fg.tactic[i] = append(fg.tactic[i], fr)
			}
			fg.walk[i] = compileWalk(fg.tactic[i])
			fg.acted = fg.acted || asksActed(fg.tactic[i])
			fg.guarded |= 1 << uint(i)
		}
		if !c.std || c.stdRule.Limit < 0 || c.Position != 0 || c.Aware != g.C[0].Aware ||
			c.sneak || len(c.Spells) > 0 || c.Ranged.Increment > 0 || len(c.Attacks) == 0 || !c.InitDice.IsZero() || c.InitRoll != 0 {
			return nil
		}
		if _, ok := c.Policy.(Retargeter); ok {
			return nil
		}
		switch c.stdRule.Rule {
		case TargetWeakest:
		case TargetFirst, TargetNearest: // everyone at one place: the nearest is the first
			fg.first[i] = true
		default:
			return nil
		}
		fg.side[i] = uint8(c.Side)
		fg.mask[c.Side] |= 1 << uint(i)
		fg.sideSize[c.Side]++
		fg.rule[i] = int32(c.stdRule.Count)
		fg.ac[i] = int32(c.AC)
		fg.acFlat[i] = int32(c.AC)
		if !c.UncannyDodge {
			fg.acFlat[i] -= int32(c.DexAC)
		}
		fg.threat[i] = int32(c.ThreatFrom)
		fg.critAdd[i] = int32(c.CritMult - 1)
		fg.init[i] = int32(c.Init)
		fg.dmgN[i], fg.dmgM[i], fg.dmgK[i] = plainParts(c.Damage)
		fg.attacks[i] = c.Attacks
		fg.hpN[i], fg.hpM[i], fg.hpK[i] = plainParts(c.HP)
	}
	if fg.mask[0] == 0 || fg.mask[1] == 0 {
		return nil
	}
	return fg
}

// plainParts takes dice apart as N, M and K when they are NdM+K (plain's
// form: one kind of die added up, plus a constant; N = 0 for a constant),
// else returns N = -1 (the Expr rolls them).
func plainParts(e dice.Expr) (n, m, k int32) {
	pd := plain.Of(e)
	if !pd.Plain() {
		return -1, 0, 0
	}
	pn, pm, pk := pd.Parts()
	return int32(pn), int32(pm), int32(pk)
}

// playFused is Play for a fused game, untraced.
func (t *Table) playFused(r *rng.Stream, c *sim.Counts) sim.Outcome {
	fg, fs := t.g.fused, t.fs
	n := fg.n
	// Setup: hit points in roster order, everyone flat-footed.
	for i := 0; i < n; i++ {
		var hp int32
		if n := fg.hpN[i]; n >= 0 {
			// NdM+K: plain.Dice.Roll written out (the same words).
			un := uint64(fg.hpM[i])
			hp = fg.hpK[i]
			for k := n; k > 0; k-- {
				hi, lo := bits.Mul64(r.Uint64(), un)
				if lo < un {
					hp += int32(plain.Reroll(r, un, hi, lo))
					continue
				}
				hp += int32(hi) + 1
			}
		} else {
			hp = int32(t.g.C[i].HP.Roll(r))
		}
		fs.hp[i] = hp
		fs.turns[i], fs.dealt[i], fs.taken[i], fs.kills[i] = 0, 0, 0, 0
	}
	tactics := fg.guarded != 0
	if tactics {
		for i := 0; i < n; i++ {
			fs.ruled[i], fs.hpDiv[i] = 0, hpDivOf(fs.hp[i])
		}
		for s := range fs.side {
			up, es := int64(bits.OnesCount64(fg.mask[s])), int64(bits.OnesCount64(fg.mask[1-s]))
			fs.side[s] = [8]int64{sideEnemiesCount: es, sideAlliesCount: up - 1, sideEngaged: int64(b2i(es != 0))}
		}
	}
	fs.up = fg.mask
	fs.flat = fg.mask[0] | fg.mask[1]
	fs.crits = [2]int64{}
	fs.weak[0], fs.weak[1] = fs.weakestOf(fg.mask[0]), fs.weakestOf(fg.mask[1])
	t.fusedInitiative(r)

	winner, rounds, head := -1, 0, -1
	order := t.order
encounter:
	for round := 1; round <= t.g.Maxround; round++ {
		if c.Stopped() { // the run is stopping: abandoned, not counted
			return sim.Outcome{}
		}
		rounds = round
		fs.acted = 0
		fs.side[0][sideRound], fs.side[1][sideRound] = int64(round), int64(round)
		for k, i := range order {
			bit := uint64(1) << (uint(i) & 63)
			s := fg.side[i&63]
			if fs.up[s]&bit == 0 {
				continue
			}
			if head < 0 {
				head = i
			}
			fs.turns[i&63]++
			fs.flat &^= bit // flat-footed ends at its first turn
			es := 1 - s
			var tg int
			if fg.first[i&63] {
				tg = bits.TrailingZeros64(fs.up[es])
			} else {
				tg = fs.weak[es]
			}
			if fg.guarded != 0 {
				// Its tactics' rules before the standard one, as Turn
				// plays them when the guard holds: the first whose
				// condition holds and that can be carried out decides
				// (its target replaces the standard rule's, which is then
				// not counted: fs.ruled); fall-throughs and firings are
				// counted as Turn counts them. The common turn, every
				// condition false on facts kept per side and self.hp_pct,
				// is walked here, with no call (a call in this loop has
				// the turn loop's registers saved and restored around
				// it); the first condition that holds, or that asks
				// another fact or is no tree, hands the rules from it on
				// to fusedRules, which does all the above.
				if fg.guarded&bit != 0 {
					a := i & 63
					walk := fg.walk[a]
					sf := &fs.side[s&1]
					l := &walk[0]
					for {
						var in bool
						if l.kind < numSideFacts {
							in = l.holdsInt(sf[l.kind&7])
						} else if l.kind == kindHPPct {
							in = l.holdsFloat(float64(fs.hp[a]) / fs.hpDiv[a])
						} else {
							// Another fact, or no tree: fusedRules asks.
							tg = t.fusedRules(a, int(es), k, round, int(l.rule), tg)
							break
						}
						nx := l.next[b2i(in)]
						if nx >= 0 {
							l = &walk[nx]
							continue
						}
						if nx != walkNone {
							// A condition that holds, asks another fact or
							// is no tree: the rules from l's on.
							tg = t.fusedRules(a, int(es), k, round, int(l.rule), tg)
						}
						break
					}
				}
				if fg.acted {
					fs.acted |= bit
				}
			}
			// The attack (one bonus) or full attack, each roll as strike
			// makes it, written into the loop: no call per attack.
			a := i & 63
			for k, bonus := range fg.attacks[a] {
				if k > 0 {
					if fs.up[es] == 0 {
						break
					}
					if fs.up[es]&(1<<(uint(tg)&63)) == 0 {
						tg = fs.weak[es] // the full attack's next target: the weakest in reach
					}
				}
				d := tg & 63
				if fg.flankTwo && bits.OnesCount64(fs.up[s]) >= 2 {
					bonus += 2
				}
				ac := fg.ac[d]
				if fs.flat&(1<<uint(d)) != 0 {
					ac = fg.acFlat[d]
				}
				// A d20 (rng.Stream.D20, written out).
				hi, lo := bits.Mul64(r.Uint64(), 20)
				roll := int(hi) + 1
				if lo < 20 {
					roll = plain.Reroll(r, 20, hi, lo)
				}
				if roll != 20 && (roll == 1 || int32(roll+bonus) < ac) {
					continue
				}
				mult := int32(1)
				if int32(roll) >= fg.threat[a] {
					crit := true
					if fg.confirm {
						hi, lo := bits.Mul64(r.Uint64(), 20)
						conf := int(hi) + 1
						if lo < 20 {
							conf = plain.Reroll(r, 20, hi, lo)
						}
						crit = conf == 20 || (conf != 1 && int32(conf+bonus) >= ac)
					}
					if crit {
						mult += fg.critAdd[a]
						fs.crits[s]++
					}
				}
				var dmg int32
				if n := fg.dmgN[a]; n >= 0 {
					// NdM+K, mult times: plain.Dice.Roll written out (the
					// same words).
					un := uint64(fg.dmgM[a])
					dmg = mult * fg.dmgK[a]
					for k := mult * n; k > 0; k-- {
						hi, lo := bits.Mul64(r.Uint64(), un)
						if lo < un {
							dmg += int32(plain.Reroll(r, un, hi, lo))
							continue
						}
						dmg += int32(hi) + 1
					}
				} else {
					for k := int32(0); k < mult; k++ {
						dmg += int32(t.g.C[a].Damage.Roll(r))
					}
				}
				dmg = max(dmg, 1)
				fs.dealt[a] += dmg
				fs.taken[d] += dmg
				hp := fs.hp[d] - dmg
				fs.hp[d] = hp
				if hp > 0 {
					// Hit points only fall: the one hit is now the weakest
					// or the weakest stays.
					if w := fs.weak[es]; w != d && (hp < fs.hp[w&63] || hp == fs.hp[w&63] && d < w) {
						fs.weak[es] = d
					}
					continue
				}
				fs.up[es] &^= 1 << uint(d)
				fs.kills[a]++
				if fg.guarded != 0 {
					fs.side[es][sideAlliesCount]--
					fs.side[es][sideAlliesDown]++
					fs.side[s][sideEnemiesCount]--
					fs.side[s][sideEnemiesDown]++
					fs.side[s][sideEngaged] = int64(b2i(fs.up[es] != 0))
				}
				if fs.weak[es] == d {
					fs.weak[es] = fs.weakestOf(fs.up[es])
				}
			}
			if fs.up[es] == 0 {
				winner = int(s)
				break encounter
			}
		}
	}
	t.fusedFlush(c, winner)
	standing := [2]int{bits.OnesCount64(fs.up[0]), bits.OnesCount64(fs.up[1])}
	out := sim.Outcome{Winner: winner, Rounds: rounds, FirstActor: head, FirstInOrder: head, Survivors: standing}
	if winner < 0 {
		out.Draw = sim.DrawMaxRounds
	}
	return out
}

// weakestOf is the weakest combatant among the mask's (lowest hit points,
// ties to the lower roster index), -1 for none.
func (fs *fusedState) weakestOf(m uint64) int {
	best, bhp := -1, int32(0)
	for m != 0 {
		j := bits.TrailingZeros64(m)
		m &= m - 1
		if h := fs.hp[j&63]; best < 0 || h < bhp {
			best, bhp = j, h
		}
	}
	return best
}

// fusedInitiative is rollInitiative for a fused game: a d20 each in roster
// order, the order by count, then modifier, then roster order, and each
// run still tied shuffled by the same draws.
func (t *Table) fusedInitiative(r *rng.Stream) {
	fg, fs := t.g.fused, t.fs
	n := fg.n
	keys := fs.keys[:n]
	for i := range keys {
		hi, lo := bits.Mul64(r.Uint64(), 20) // a d20, written out
		die := int(hi) + 1
		if lo < 20 {
			die = plain.Reroll(r, 20, hi, lo)
		}
		count := die + int(fg.init[i])
		t.f[i].count = count
		keys[i] = initKey(count, int(fg.init[i]), i)
	}
	if n <= 8 {
		sort8Desc(keys)
	} else if n <= rankSortMax {
		rankSort(keys)
	} else {
		// As rollInitiative: by count in buckets, then each count's few
		// entries in order.
		t.bucketByCount(keys)
		sortKeysDesc(keys)
	}
	t.order = t.order[:n]
	for k, key := range keys {
		t.order[k] = keyIndex(key)
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && keys[hi]>>keyIndexBits == keys[lo]>>keyIndexBits {
			hi++
		}
		if hi-lo > 1 {
			run := t.order[lo:hi]
			for i := len(run) - 1; i > 0; i-- {
				j := r.IntN(i + 1)
				run[i], run[j] = run[j], run[i]
			}
		}
		lo = hi
	}
}

// sort8Desc sorts at most 8 distinct keys, largest first, by Batcher's
// 19-comparator network over the keys padded with the smallest int64:
// each comparator a min and a max (conditional moves, no branch on the
// random initiative rolls, as rankSort), ~4 instructions where rankSort's
// 8×8 comparisons cost ~700 an encounter. Keys are distinct, so any sort
// gives rankSort's order.
func sort8Desc(keys []int64) {
	var v [8]int64
	for i := range v {
		v[i] = math.MinInt64
	}
	copy(v[:], keys)
	cx := func(i, j int) { // v[i] >= v[j] after
		a, b := v[i], v[j]
		v[i], v[j] = max(a, b), min(a, b)
	}
	cx(0, 1)
	cx(2, 3)
	cx(4, 5)
	cx(6, 7)
	cx(0, 2)
	cx(1, 3)
	cx(4, 6)
	cx(5, 7)
	cx(1, 2)
	cx(5, 6)
	cx(0, 4)
	cx(1, 5)
	cx(2, 6)
	cx(3, 7)
	cx(2, 4)
	cx(3, 5)
	cx(1, 2)
	cx(3, 4)
	cx(5, 6)
	copy(keys, v[:])
}

// sortKeysDesc sorts distinct keys, largest first: an insertion sort, for
// keys bucketByCount left ordered but within a count.
func sortKeysDesc(keys []int64) {
	for a := 1; a < len(keys); a++ {
		for b := a; b > 0 && keys[b] > keys[b-1]; b-- {
			keys[b], keys[b-1] = keys[b-1], keys[b]
		}
	}
}

// fusedFlush adds the encounter's counters to c, as the general referee's
// calls would have one by one, records where everyone ended, and leaves
// the Table's fighters as the general referee would (hit points, out,
// dead, flat-footed, the standing counts) for whoever reads them after
// Play.
func (t *Table) fusedFlush(c *sim.Counts, winner int) {
	fg, fs := t.g.fused, t.fs
	per := c.PerSide
	for i := 0; i < fg.n; i++ {
		s := int(fg.side[i])
		turns := int64(fs.turns[i])
		// Every turn of a fused game is one action: an attack or a full
		// attack.
		c.Sides[s*per+sim.Turns] += turns
		c.Sides[s*per+sim.Actions] += turns
		if k := int(fg.rule[i]); k >= 0 && k < len(c.Rules) {
			c.Rules[k] += turns - int64(fs.ruled[i])
		}
		out := fs.up[s]&(1<<uint(i)) == 0
		if out {
			c.Sides[s*per+Deaths]++
		}
		c.Damage(s, i, int64(fs.dealt[i]), int64(fs.taken[i]))
		if c.Combatants != nil {
			cb := &c.Combatants[i]
			cb.Turns += turns
			cb.Kills += int64(fs.kills[i])
			if out {
				cb.Downed++
			}
		}
		st := sim.Standing
		if out {
			st = sim.Down
		}
		c.End(i, int(fs.hp[i]), st)
		f := &t.f[i]
		f.hp, f.out, f.dead, f.flatFooted = int(fs.hp[i]), out, out, fs.flat&(1<<uint(i)) != 0
	}
	for s := 0; s < 2; s++ {
		c.Sides[s*per+Criticals] += fs.crits[s]
	}
	t.standing = [2]int{bits.OnesCount64(fs.up[0]), bits.OnesCount64(fs.up[1])}
}

// noFused makes Compile leave every game to the general referee: for the
// tests that compare the two.
var noFused = false

// Fused reports whether the fused referee plays g's untraced encounters.
func (g *Game) Fused() bool { return g.fused != nil }

// General returns a copy of g that the general referee always plays: for
// tests comparing the two referees (package agents' tactics conditions).
func (g *Game) General() *Game {
	h := *g
	h.fused = nil
	return &h
}
