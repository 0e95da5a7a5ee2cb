package results

import (
	"simctl/sim/msg"

	"simctl/sim"
)

// RuleCount is one tactics counter of a run: how often a combatant's rule
// decided (Event "fired") or could not be carried out and fell through
// (Event "fell through: REASON"). Exact integers, so shards merge exactly.
type RuleCount struct {
	Combatant string `json:"combatant"`
	Moment    string `json:"moment"`
	Rule      string `json:"rule"`
	Event     string `json:"event"`
	Count     int64  `json:"count"`
}

func ruleCounts(g sim.Game, t *sim.Tally) []RuleCount {
	rg, ok := g.(sim.RuleGame)
	if !ok {
		return nil
	}
	roster := g.Roster()
	var out []RuleCount
	for k, rc := range rg.RuleCounters() {
		if rc.Trait {
			continue
		}
		var n int64
		if k < len(t.Counts.Rules) {
			n = t.Counts.Rules[k]
		}
		out = append(out, RuleCount{Combatant: roster[rc.Combatant].Name, Moment: rc.Moment, Rule: rc.Rule, Event: rc.Event, Count: n})
	}
	return out
}

// mergeRules adds o's tactics counts into a (a fresh copy), checking that
// both results label them alike.
func mergeRules(a, o []RuleCount) ([]RuleCount, error) {
	if len(a) != len(o) {
		return nil, msg.Errorf("merge: results differ in tactics (%d and %d rule counters; different --set?)", len(a), len(o))
	}
	out := append([]RuleCount(nil), a...)
	for i := range out {
		x, y := out[i], o[i]
		if x.Combatant != y.Combatant || x.Moment != y.Moment || x.Rule != y.Rule || x.Event != y.Event {
			return nil, msg.Errorf("merge: results differ in tactics (%s %s rule %s vs %s %s rule %s)", x.Combatant, x.Moment, x.Rule, y.Combatant, y.Moment, y.Rule)
		}
		out[i].Count += y.Count
	}
	return out, nil
}

// TraitCount is one trait's or house rule's counts in a run, for one
// combatant who has it: how often it fired and the sum of what it changed
// (damage added, or taken away by damage reduction: negative). Exact
// integers, so shards merge exactly.
type TraitCount struct {
	Combatant string `json:"combatant"`
	Moment    string `json:"moment"`
	Trait     string `json:"trait"`
	Fired     int64  `json:"fired"`
	Added     int64  `json:"added"`
}

// traitCounts reads the trait counters (RuleCounter.Trait, a "fired" and
// an "added" counter per trait, in that order) of a run.
func traitCounts(g sim.Game, t *sim.Tally) []TraitCount {
	rg, ok := g.(sim.RuleGame)
	if !ok {
		return nil
	}
	roster := g.Roster()
	var out []TraitCount
	rcs := rg.RuleCounters()
	for k := 0; k+1 < len(rcs); k++ {
		rc := rcs[k]
		if !rc.Trait || rc.Event != "fired" {
			continue
		}
		tc := TraitCount{Combatant: roster[rc.Combatant].Name, Moment: rc.Moment, Trait: rc.Rule}
		if k+1 < len(t.Counts.Rules) {
			tc.Fired, tc.Added = t.Counts.Rules[k], t.Counts.Rules[k+1]
		}
		out = append(out, tc)
		k++
	}
	return out
}

// mergeTraits adds o's trait counts into a (a fresh copy), checking that
// both results label them alike.
func mergeTraits(a, o []TraitCount) ([]TraitCount, error) {
	if len(a) != len(o) {
		return nil, msg.Errorf("merge: results differ in traits (%d and %d trait counters; different --set?)", len(a), len(o))
	}
	out := append([]TraitCount(nil), a...)
	for i := range out {
		x, y := out[i], o[i]
		if x.Combatant != y.Combatant || x.Moment != y.Moment || x.Trait != y.Trait {
			return nil, msg.Errorf("merge: results differ in traits (%s %s %s vs %s %s %s)", x.Combatant, x.Moment, x.Trait, y.Combatant, y.Moment, y.Trait)
		}
		out[i].Fired += y.Fired
		out[i].Added += y.Added
	}
	return out, nil
}
