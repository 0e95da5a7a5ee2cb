package reports

import (
	"fmt"
	"io"
	"math"
	"simctl/reports/i18n"
	"sort"
	"strings"
	"text/tabwriter"

	"simctl/reports/results"
)

// WriteResultText prints r as aligned tables for a person, in English.
//
// It prints r as aligned tables for a person, simctl's own
// words in l. Numbers keep the point and the comma grouping in every
// language (the columns are pasted as they are); names the user wrote and
// the result's identifiers (counters, rules, events) stay as written.
func WriteResultText(r *results.Result, w io.Writer, l i18n.Lang) error {
	var b strings.Builder
	b.WriteString(l.T("text.head", r.Scenario, r.Ruleset, r.Seed, thousands(r.Encounters)))
	if r.Elapsed > 0 {
		b.WriteString("  " + l.T("text.elapsed", r.Elapsed, thousands(int64(r.Rate))))
	}
	if r.Interrupted {
		b.WriteString("  " + l.T("text.interrupted"))
	}
	b.WriteString("\n\n")
	tw := newColumns(&b, tabwriter.AlignRight, l)
	per := r.Combatants != nil // results written before per-combatant figures lack them
	head := []string{l.T("col.side"), l.T("col.wins"), l.T("col.win_rate"), l.T("col.ci95"), l.T("text.col.survivors")}
	if per {
		head = append(head, l.T("text.col.any_death"))
	}
	fmt.Fprintf(tw, "%s\t\n", strings.Join(head, "\t"))
	for _, s := range r.Sides {
		fmt.Fprintf(tw, "%s\t%s\t%s\t[%s, %s]\t%.2f\t", s.Name, thousands(s.Wins), pct(s.WinRate), pct(s.WinCI95[0]), pct(s.WinCI95[1]), s.SurvivorsMean)
		if per {
			fmt.Fprintf(tw, "%s\t", pct(s.AnyDeathRate))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "%s\t%s\t%s\t\t\t\n", l.T("col.draws"), thousands(r.Draws), pct(r.DrawRate))
	tw.Flush()
	if r.Draws > 0 {
		b.WriteString(l.T("text.draw_causes", thousands(r.DrawCauses.MaxRounds), thousands(r.DrawCauses.AllGone)) + "\n")
	}
	b.WriteString("\n" + l.T("text.rounds", r.Rounds.Mean, r.Rounds.P50, r.Rounds.P90, r.Rounds.Max) + "\n")
	if per {
		b.WriteString("\n" + l.T("text.damage") + "\n")
		tw = newColumns(&b, tabwriter.AlignRight, l)
		fmt.Fprintf(tw, "%s\t%s\tp10\tp50\tp90\t%s\t%s\tp50\tp90\t\n", l.T("col.side"), l.T("text.col.mean"), l.T("text.col.max"), l.T("text.col.hp_p10"))
		for _, s := range r.Sides {
			d, h := s.DamageDealt, s.HPLeftWhenWon
			fmt.Fprintf(tw, "%s\t%.1f\t%d\t%d\t%d\t%d\t", s.Name, d.Mean, d.P10, d.P50, d.P90, d.Max)
			if h.N > 0 {
				fmt.Fprintf(tw, "%d\t%d\t%d\t\n", h.P10, h.P50, h.P90)
			} else {
				fmt.Fprintf(tw, "-\t-\t-\t\n")
			}
		}
		tw.Flush()
	}
	b.WriteString("\n")

	tw = newColumns(&b, tabwriter.AlignRight, l)
	fmt.Fprintf(tw, "%s\t%s\t%s\t\n", resultEconomyHead(r, l), r.Sides[0].Name, r.Sides[1].Name)
	for _, name := range r.Raw.Counters {
		a, c := r.PerEncounter[r.Sides[0].Name][name], r.PerEncounter[r.Sides[1].Name][name]
		if a == 0 && c == 0 && name != "turns" && name != "actions" {
			continue // a rule nobody used in this scenario: keep the table short
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", keyed(l, "counter", name), resultEconomyCell(r, 0, name), resultEconomyCell(r, 1, name))
	}
	tw.Flush()

	if !per {
		// Older results: who acted first, per combatant.
		type fa struct {
			name string
			f    float64
		}
		var firsts []fa
		for _, name := range r.Raw.Roster {
			firsts = append(firsts, fa{name, r.Initiative.FirstActor[name]})
		}
		sort.SliceStable(firsts, func(i, j int) bool { return firsts[i].f > firsts[j].f })
		b.WriteString("\n" + l.T("text.acts_first"))
		for _, x := range firsts {
			fmt.Fprintf(&b, "  %s %s", x.name, pct(x.f))
		}
		b.WriteString("\n")
	} else {
		writeResultFirsts(r, &b, l)
		writeResultCombatants(r, &b, l)
	}
	writeTactics(&b, r, l)
	writeTraits(&b, r, l)
	_, err := io.WriteString(w, readable(l, b.String()))
	return err
}

func pct(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }

// thousands formats n with comma separators (results.Thousands).
func thousands(n int64) string { return results.Thousands(n) }

// writeResultFirsts prints who came first, by side: the first to take an action
// and the first in the initiative order.
func writeResultFirsts(r *results.Result, b *strings.Builder, l i18n.Lang) {
	in := &r.Initiative
	act, order := l.T("text.first_act")+":", l.T("text.first_order")+":"
	w := max(i18n.Width(act), i18n.Width(order))
	pad := func(s string) string { return s + strings.Repeat(" ", w-i18n.Width(s)) }
	line := func(label string, bySide map[string]float64, none float64) {
		fr := make([]float64, 0, len(r.Sides)+1)
		for _, s := range r.Sides {
			fr = append(fr, bySide[s.Name])
		}
		if none > 0 {
			fr = append(fr, none)
		}
		shown := shares(fr)
		b.WriteString("\n" + pad(label))
		for i, s := range r.Sides {
			fmt.Fprintf(b, "  %s %s", s.Name, shown[i])
		}
		if none > 0 {
			fmt.Fprintf(b, "  %s %s", l.T("fig.nobody"), shown[len(r.Sides)])
		}
	}
	line(act, in.FirstActorSide, in.NoActor)
	line(order, in.FirstInOrderSide, in.NoOrder)
	b.WriteString("\n")
}

// shares writes fractions that split a whole as percentages with two
// decimals that add up to the whole's own rounding (100.00%), by the
// largest remainder: 57.635% and 42.365% are shown 57.64% and 42.36%, not
// two numbers that sum to 100.01%. Fractions that do not add up to 1 are
// rounded one by one.
func shares(fr []float64) []string {
	out := make([]string, len(fr))
	total := 0.0
	for _, f := range fr {
		total += f
	}
	if math.Abs(total-1) > 1e-9 {
		for i, f := range fr {
			out[i] = pct(f)
		}
		return out
	}
	const units = 10000 // hundredths of a percent
	fl := make([]int64, len(fr))
	var sum int64
	for i, f := range fr {
		fl[i] = int64(math.Floor(f*units + 1e-9))
		sum += fl[i]
	}
	order := make([]int, len(fr))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := fr[order[a]]*units-float64(fl[order[a]]), fr[order[b]]*units-float64(fl[order[b]])
		return ra > rb
	})
	for k := 0; sum < units && k < len(order); k++ {
		fl[order[k]]++
		sum++
	}
	for i, u := range fl {
		out[i] = fmt.Sprintf("%d.%02d%%", u/100, u%100)
	}
	return out
}

// writeResultCombatants prints the per-combatant section, one row per copy group
// (Hobgoblin ×5 for Hobgoblin#1..#5, each figure the mean per copy), so it
// stays within 100 columns whatever the roster. Columns nobody used (out
// without dying, actions lost) are left out.
func writeResultCombatants(r *results.Result, b *strings.Builder, l i18n.Lang) {
	gone, lost := false, false
	for _, g := range r.Groups {
		gone = gone || g.OutRate > g.DeathRate
		lost = lost || g.ActionsLostMean > 0
	}
	var t strings.Builder
	tw := newColumns(&t, tabwriter.AlignRight, l)
	head := l.T("col.combatant") + "\t" + l.T("text.col.dies") + "\t"
	if gone {
		head += l.T("col.out") + "\t"
	}
	head += l.T("text.col.dealt") + "\t" + l.T("text.col.taken") + "\t" + l.T("text.col.kills") + "\t" + l.T("col.turns") + "\t"
	if lost {
		head += l.T("text.col.lost") + "\t"
	}
	head += l.T("text.col.hp_won") + "\t" + l.T("text.col.first_act") + "\t" + l.T("text.col.first_order") + "\t"
	cols := strings.Count(head, "\t")
	b.WriteString("\n")
	fmt.Fprintln(tw, head)
	side := ""
	for _, g := range r.Groups {
		if g.Side != side { // a side's groups under its name, to save a column
			side = g.Side
			fmt.Fprintf(tw, "%s:%s\n", clip(side, 20), strings.Repeat("\t", cols))
		}
		name := clip(g.Name, 16)
		if g.Copies > 1 {
			name = fmt.Sprintf("%s ×%d", clip(g.Name, 12), g.Copies)
		}
		fmt.Fprintf(tw, "%s\t%s\t", name, pct1(g.DeathRate))
		if gone {
			fmt.Fprintf(tw, "%s\t", pct1(g.OutRate))
		}
		fmt.Fprintf(tw, "%.1f\t%.1f\t%.2f\t%.2f\t", g.DamageDealtMean, g.DamageTakenMean, g.KillsMean, g.TurnsMean)
		if lost {
			fmt.Fprintf(tw, "%.2f\t", g.ActionsLostMean)
		}
		fmt.Fprintf(tw, "%.1f\t%s\t%s\t\n", g.HPLeftWhenWon, pct1(g.FirstActor), pct1(g.FirstInOrder))
	}
	tw.Flush()
	for _, line := range strings.Split(strings.TrimSuffix(t.String(), "\n"), "\n") {
		// Trailing blanks off, the table's mark (columns) kept.
		mark := ""
		if strings.HasSuffix(line, string(tableMark)) {
			line, mark = strings.TrimSuffix(line, string(tableMark)), string(tableMark)
		}
		b.WriteString(strings.TrimRight(line, " ") + mark + "\n")
	}
	b.WriteString(l.T("text.combatants.note") + "\n")
}

func pct1(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// resultEconomyHead heads the action-economy column of names: the cells give
// the mean per encounter, with the half-width of its 95% interval when
// the result has the sums of squares for it.
func resultEconomyHead(r *results.Result, l i18n.Lang) string {
	if r.EconomyCI95 != nil {
		return l.T("col.per_encounter.ci")
	}
	return l.T("col.per_encounter")
}

// resultEconomyCell is side s's mean count of counter name per encounter, ± the
// half-width of its 95% interval when known.
func resultEconomyCell(r *results.Result, s int, name string) string {
	side := r.Sides[s].Name
	v := fmt.Sprintf("%.3f", r.PerEncounter[side][name])
	if ci, ok := r.EconomyCI95[side][name]; ok {
		v += fmt.Sprintf(" ± %.3f", (ci[1]-ci[0])/2)
	}
	return v
}
