package reports

import (
	"fmt"
	"simctl/reports/i18n"
	"strings"

	"simctl/reports/results"
)

// writeTactics prints the tactics section: per combatant, how often each
// rule decided and each fall-through reason, per encounter.
func writeTactics(b *strings.Builder, r *results.Result, l i18n.Lang) {
	if len(r.Raw.Tactics) == 0 {
		return
	}
	b.WriteString("\n" + l.T("text.tactics") + "\n")
	tw := newColumns(b, 0, l)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", l.T("col.combatant"), l.T("col.moment"), l.T("col.rule"), l.T("col.event"), l.T("col.count"), l.T("col.per_encounter"))
	for _, rc := range r.Raw.Tactics {
		if rc.Count == 0 && (rc.Event != "fired" || rc.Rule == "fallback") {
			continue
		}
		per := 0.0
		if r.Encounters > 0 {
			per = float64(rc.Count) / float64(r.Encounters)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.3f\t\n", rc.Combatant, keyed(l, "moment", rc.Moment), ruleName(l, rc.Rule), ruleEvent(l, rc.Event), thousands(rc.Count), per)
	}
	tw.Flush()
}

// tacticsTable is the report's tactics section, or nil without tactics.
func tacticsTable(l i18n.Lang, r *results.Result) *titled {
	if len(r.Raw.Tactics) == 0 {
		return nil
	}
	t := &table{left: 4, header: []string{l.T("col.combatant"), l.T("col.moment"), l.T("col.rule"), l.T("col.event"), l.T("col.count"), l.T("col.per_encounter")}}
	n := float64(max(r.Encounters, 1))
	for _, rc := range r.Raw.Tactics {
		if rc.Count == 0 && (rc.Event != "fired" || rc.Rule == "fallback") {
			continue
		}
		t.add(rc.Combatant, keyed(l, "moment", rc.Moment), ruleName(l, rc.Rule), ruleEvent(l, rc.Event), thousands(rc.Count), fmt.Sprintf("%.3f", float64(rc.Count)/n))
	}
	return &titled{title: l.T("table.tactics"), t: t, notes: []string{l.T("note.tactics")}}
}

// keyed is the table label of a name the user types (a counter, which
// side("x").NAME reads; a tactics moment, a block's name): in English the
// name, in Korean and Russian the catalog's label (kind.name) with the
// name beside it, so a reader reads it and can still type it.
func keyed(l i18n.Lang, kind, name string) string {
	key := kind + "." + name
	if l.Or() == i18n.En || !i18n.Has(l, key) {
		return name
	}
	return l.Paren(l.T(key), name)
}

// ruleName is a tactics rule's name in a table: the user's, but for the
// fallback, simctl's own.
func ruleName(l i18n.Lang, rule string) string {
	if rule == "fallback" {
		return keyed(l, "rule", rule)
	}
	return rule
}

// ruleEvent is a rule counter's event in l: fired, or fell through and why
// (the reason translated as the trace translates it).
func ruleEvent(l i18n.Lang, ev string) string {
	if why, ok := strings.CutPrefix(ev, "fell through: "); ok {
		return l.T("event.fell_through", l.Sprintf(why))
	}
	return keyed(l, "event", ev)
}

// writeTraits prints the traits section: per combatant and trait, how often
// it fired and what it added, per encounter.
func writeTraits(b *strings.Builder, r *results.Result, l i18n.Lang) {
	if len(r.Raw.Traits) == 0 {
		return
	}
	b.WriteString("\n" + l.T("text.traits") + "\n")
	tw := newColumns(b, 0, l)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", l.T("col.combatant"), l.T("col.moment"), l.T("col.trait"), l.T("col.fired"), l.T("col.per_encounter"), l.T("col.added"), l.T("col.per_encounter"))
	n := float64(max(r.Encounters, 1))
	for _, tc := range r.Raw.Traits {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.3f\t%s\t%.3f\t\n", tc.Combatant, keyed(l, "moment", tc.Moment), tc.Trait, thousands(tc.Fired), float64(tc.Fired)/n, thousands(tc.Added), float64(tc.Added)/n)
	}
	tw.Flush()
}

// traitsTable is the report's traits section, or nil without traits.
func traitsTable(l i18n.Lang, r *results.Result) *titled {
	if len(r.Raw.Traits) == 0 {
		return nil
	}
	t := &table{left: 3, header: []string{l.T("col.combatant"), l.T("col.moment"), l.T("col.trait"), l.T("col.fired"), l.T("col.per_encounter"), l.T("col.added"), l.T("col.per_encounter")}}
	n := float64(max(r.Encounters, 1))
	for _, tc := range r.Raw.Traits {
		t.add(tc.Combatant, keyed(l, "moment", tc.Moment), tc.Trait, thousands(tc.Fired), fmt.Sprintf("%.3f", float64(tc.Fired)/n), thousands(tc.Added), fmt.Sprintf("%.3f", float64(tc.Added)/n))
	}
	return &titled{title: l.T("table.traits"), t: t, notes: []string{l.T("note.traits")}}
}
