package d20

import "simctl/sim/traits"

// The hit gate: a referee-side test that skips the hit moment's trait hooks
// (traitHit) on the hits where no hit trait of the attacker can fire and
// the one hit has no hit_taken trait, so that a trait such as sneak attack
// ("when: (target.flat_footed and not target.uncanny_dodge) or
// target.flanked") costs, on the usual hit it does not apply to, a few
// loads, as the Go rule's two field tests do. traitHit then changes
// nothing the referee's own path does not: the minimum of 1.
//
// Kept apart from traits.go (the trait runtime) on purpose: it only reads
// the compiled traits (traitSet.on, each trait's When and Slots) once, at
// compile time.

// Hit facts: the bits of a hit's situation the gate's tables are indexed by.
const (
	hfFlatFooted   = 1 << iota // target.flat_footed
	hfUncannyDodge             // target.uncanny_dodge
	hfFlanking                 // target.flanked: this attack flanks its target
	hfCrit                     // crit
	hfRanged                   // ranged
	hfCharging                 // charging
	numHitFacts    = 6
)

// compileHitGate returns, by roster index, the set of hit facts (bit k: the
// facts k) under which some hit trait of the combatant may fire: all of
// them when a trait has no when:, or its when: reads anything else.
func compileHitGate(ts *traitSet) []uint64 {
	if ts == nil {
		return nil
	}
	gate := make([]uint64, len(ts.has))
	for a := range gate {
		for _, k := range ts.on[mHit][a] {
			gate[a] |= hitFactsFiring(&ts.list[k].Trait)
		}
	}
	return gate
}

// hitFactsFiring is the set of hit facts under which tr's when: holds
// (every set when it reads a slot that is not a hit fact).
func hitFactsFiring(tr *traits.Trait) uint64 {
	const all = 1<<(1<<numHitFacts) - 1
	if tr.When == nil {
		return all
	}
	var bit [16]int
	if len(tr.Slots) > len(bit) {
		return all
	}
	for s, ref := range tr.Slots {
		switch {
		case ref.Kind == traits.RefCondition && ref.Who == traits.Other && ref.ID == cFlatFooted:
			bit[s] = hfFlatFooted
		case ref.Kind == traits.RefFact && ref.Who == traits.Other && ref.ID == tfUncannyDodge:
			bit[s] = hfUncannyDodge
		case ref.Kind == traits.RefFact && ref.Who == traits.Other && ref.ID == tfFlanked:
			// At the hit moment target.flanked is this attack's flanking
			// (traitValue).
			bit[s] = hfFlanking
		case ref.Kind == traits.RefFact && ref.Who == traits.Event && ref.ID == tfCrit:
			bit[s] = hfCrit
		case ref.Kind == traits.RefFact && ref.Who == traits.Event && ref.ID == tfRanged:
			bit[s] = hfRanged
		case ref.Kind == traits.RefFact && ref.Who == traits.Event && ref.ID == tfCharging:
			bit[s] = hfCharging
		default:
			return all
		}
	}
	var set uint64
	for k := 0; k < 1<<numHitFacts; k++ {
		if tr.When.EvalFunc(func(s int) float64 { return b2f(k&bit[s] != 0) }) {
			set |= 1 << uint(k)
		}
	}
	return set
}

// hitMayFire reports whether a's hit on d can change anything through the
// trait hooks: d has a hit_taken trait, or a hit trait of a may fire under
// this hit's facts. Called only where traits.at said a or d has traits at
// the hit.
func (t *Table) hitMayFire(a, d int, crit, ranged, flanking bool) bool {
	g := t.g
	if g.traits.has[d]&(1<<mHitTaken) != 0 {
		return true
	}
	k := 0
	if t.f[d].flatFooted {
		k |= hfFlatFooted
	}
	if g.C[d].UncannyDodge {
		k |= hfUncannyDodge
	}
	if flanking {
		k |= hfFlanking
	}
	if crit {
		k |= hfCrit
	}
	if ranged {
		k |= hfRanged
	}
	if t.f[a].charging {
		k |= hfCharging
	}
	return g.hitGate[a]&(1<<uint(k)) != 0
}
