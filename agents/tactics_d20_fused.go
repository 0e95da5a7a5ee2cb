package agents

import "simctl/rulesets/d20"

// The d20 binding's part in the fused referee (issue 38): a tactics block
// whose conditional rules come before its standard rule describes them to
// the referee (d20.FusedTactic), so a fight whose rules and facts the fused
// referee plays stays on it.

// fusedFacts maps the binding's facts to the fused referee's
// (d20.FactNone, the zero value: not answered there, the fight keeps the
// general referee). d20.FactZero marks the facts that are 0 in every fight
// the fused referee plays (no spells, ranged weapons, delay, ready or
// charge; everyone in one place).
var fusedFacts = [...]d20.FusedFact{
	fRound:             d20.FactRound,
	fSurprise:          d20.FactZero,
	fSelfHP:            d20.FactSelfHP,
	fSelfHPPct:         d20.FactSelfHPPct,
	fSelfAC:            d20.FactSelfAC,
	fSelfCount:         d20.FactSelfCount,
	fSelfPosition:      d20.FactSelfPosition,
	fSelfEngaged:       d20.FactSelfEngaged,
	fSelfResuming:      d20.FactZero,
	fSelfSpellsLeft:    d20.FactZero,
	fSpellLeft:         d20.FactNone, // names a spell: none in a fused fight
	fEnemiesCount:      d20.FactEnemiesCount,
	fEnemiesDown:       d20.FactEnemiesDown,
	fEnemiesInReach:    d20.FactEnemiesCount,
	fEnemiesReachable:  d20.FactEnemiesCount,
	fEnemiesNearest:    d20.FactZero,
	fEnemiesCasters:    d20.FactZero,
	fEnemiesActed:      d20.FactEnemiesActed,
	fAlliesCount:       d20.FactAlliesCount,
	fAlliesDown:        d20.FactAlliesDown,
	fAlliesEngaged:     d20.FactAlliesEngaged,
	fAlliesActed:       d20.FactAlliesActed,
	fAllyActed:         d20.FactActed,
	fAllyDown:          d20.FactDown,
	fAllyHP:            d20.FactHP,
	fAllyHPPct:         d20.FactHPPct,
	fAllyEngaged:       d20.FactEngaged,
	fAllyDistance:      d20.FactZero,
	fEnemyActed:        d20.FactActed,
	fEnemyDown:         d20.FactDown,
	fEnemyHP:           d20.FactHP,
	fEnemyHPPct:        d20.FactHPPct,
	fEnemyDistance:     d20.FactZero,
	fEnemyInReach:      d20.FactInReach,
	fEnemySpellsLeft:   d20.FactZero,
	fNextExists:        d20.FactNextExists,
	fNextIsEnemy:       d20.FactNextIsEnemy,
	fNextIsAlly:        d20.FactNextIsAlly,
	fSelfFlatFooted:    d20.FactSelfFlatFooted,
	fSelfAmmo:          d20.FactZero,
	fSelfLoaded:        d20.FactZero,
	fSelfThreatened:    d20.FactSelfEngaged,
	fEnemiesInRange:    d20.FactZero,
	fEnemiesFlatFooted: d20.FactEnemiesFlatFooted,
	fEnemiesReadied:    d20.FactZero,
	fAllyFlatFooted:    d20.FactFlatFooted,
	fAllyReadied:       d20.FactZero,
	fAllyDelaying:      d20.FactZero,
	fAllyCharged:       d20.FactZero,
	fAllyCount:         d20.FactCount,
	fEnemyFlatFooted:   d20.FactFlatFooted,
	fEnemyReadied:      d20.FactZero,
	fEnemyDelaying:     d20.FactZero,
	fEnemyCharged:      d20.FactZero,
	fEnemyCount:        d20.FactCount,
	fEnemyAC:           d20.FactAC,
	fEnemyInRange:      d20.FactZero,
	fEnemyShotPenalty:  d20.FactNone, // shooting into a melee: the general referee's rule
	fSelfFlanked:       d20.FactSelfFlanked,
	fEnemiesFlanked:    d20.FactEnemiesFlanked,
	fEnemyFlanked:      d20.FactFlanked,
}

// FusedRules implements d20.FusedTactic: the rules before the standard
// one (Standard), each with its condition's facts and what it decides in
// a fused fight, where everyone stands in one place with neither spells nor
// ranged weapons. A rule that attacks decides (a full attack only with two
// attacks or more); a charge (no enemy 10 feet away) and a full attack with
// one attack always fall through, with the reason Turn counts. Delays,
// readied actions, special actions, random or named targets and facts the
// referee does not answer keep the fight on the general referee.
func (p *d20Tactic) FusedRules() ([]d20.FusedRule, bool) {
	var out []d20.FusedRule
	for k := range p.rules {
		r := &p.rules[k]
		if r.when == nil {
			return out, true // the standard rule (Standard)
		}
		fr := d20.FusedRule{When: r.when, Fell: -1, Fired: r.fired}
		for _, s := range r.when.Slots {
			if s.Fact < 0 || s.Fact >= len(fusedFacts) || fusedFacts[s.Fact] == d20.FactNone {
				return nil, false
			}
			fr.Slots = append(fr.Slots, d20.FusedSlot{Fact: fusedFacts[s.Fact], Arg: s.Arg})
		}
		switch r.target.kind {
		case selWeakest, selCastersFirst: // no spells: casters first is the weakest
			fr.Select = d20.FusedWeakest
		case selStrongest:
			fr.Select = d20.FusedStrongest
		case selNearest, selFirst:
			fr.Select = d20.FusedFirst
		case selLowestAC:
			fr.Select = d20.FusedLowestAC
		default: // random draws; a named target may be out
			return nil, false
		}
		switch r.do.kind {
		case doAttack:
		case doFullAttack:
			if p.attacks < 2 {
				fr.Fell = r.fell[whyNoFull]
			}
		case doCharge:
			fr.Fell = r.fell[whyNoCharge]
		default: // a shot needs a ranged weapon: never in a fused fight
			return nil, false
		}
		out = append(out, fr)
	}
	return nil, false
}
