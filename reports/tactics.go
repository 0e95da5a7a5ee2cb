package reports

import (
	"fmt"
	"simctl/reports/i18n"
	"strings"

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
		return nil, fmt.Errorf("merge: results differ in tactics (%d and %d rule counters; different --set?)", len(a), len(o))
	}
	out := append([]RuleCount(nil), a...)
	for i := range out {
		x, y := out[i], o[i]
		if x.Combatant != y.Combatant || x.Moment != y.Moment || x.Rule != y.Rule || x.Event != y.Event {
			return nil, fmt.Errorf("merge: results differ in tactics (%s %s rule %s vs %s %s rule %s)", x.Combatant, x.Moment, x.Rule, y.Combatant, y.Moment, y.Rule)
		}
		out[i].Count += y.Count
	}
	return out, nil
}

// writeTactics prints the tactics section: per combatant, how often each
// rule decided and each fall-through reason, per encounter.
func writeTactics(b *strings.Builder, r *Result, l i18n.Lang) {
	if len(r.Raw.Tactics) == 0 {
		return
	}
	b.WriteString("\n" + l.T("text.tactics") + "\n")
	tw := newColumns(b, 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", l.T("col.combatant"), l.T("col.moment"), l.T("col.rule"), l.T("col.event"), l.T("col.count"), l.T("col.per_encounter"))
	for _, rc := range r.Raw.Tactics {
		if rc.Count == 0 && (rc.Event != "fired" || rc.Rule == "fallback") {
			continue
		}
		per := 0.0
		if r.Encounters > 0 {
			per = float64(rc.Count) / float64(r.Encounters)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.3f\t\n", rc.Combatant, rc.Moment, rc.Rule, rc.Event, thousands(rc.Count), per)
	}
	tw.Flush()
}

// tacticsTable is the report's tactics section, or nil without tactics.
func tacticsTable(l i18n.Lang, r *Result) *titled {
	if len(r.Raw.Tactics) == 0 {
		return nil
	}
	t := &table{left: 4, header: []string{l.T("col.combatant"), l.T("col.moment"), l.T("col.rule"), l.T("col.event"), l.T("col.count"), l.T("col.per_encounter")}}
	n := float64(max(r.Encounters, 1))
	for _, rc := range r.Raw.Tactics {
		if rc.Count == 0 && (rc.Event != "fired" || rc.Rule == "fallback") {
			continue
		}
		t.add(rc.Combatant, rc.Moment, rc.Rule, rc.Event, thousands(rc.Count), fmt.Sprintf("%.3f", float64(rc.Count)/n))
	}
	return &titled{title: l.T("table.tactics"), t: t, notes: []string{l.T("note.tactics")}}
}
