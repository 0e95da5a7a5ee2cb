package reports

import (
	"fmt"
	"io"
	"simctl/reports/i18n"
	"strconv"

	"simctl/reports/results"
)

// WriteResult writes a run result in any output format: the text table,
// the JSON document, or the same figures as CSV (raw numbers a tool reads,
// one row per side and one for draws) or Markdown tables.
func WriteResult(r *results.Result, w io.Writer, f Format) error {
	switch f {
	case JSON:
		return r.WriteJSON(w)
	case CSV:
		return resultCSVTable(r).csv(w)
	case Markdown:
		return writeResultMarkdown(r, w)
	}
	return WriteResultText(r, w, i18n.En)
}

// resultCSVTable is one row per side and one for draws, with every counter per
// encounter as a column, so a spreadsheet needs no reshaping.
func resultCSVTable(r *results.Result) *table {
	t := &table{header: []string{"scenario", "ruleset", "seed", "encounters", "side", "wins", "win_rate", "win_ci95_lo", "win_ci95_hi", "survivors_mean", "rounds_mean"}}
	for _, c := range r.Raw.Counters {
		t.header = append(t.header, c+"_per_encounter")
	}
	head := []string{r.Scenario, r.Ruleset, strconv.FormatUint(r.Seed, 10), rawInt(r.Encounters)}
	for _, s := range r.Sides {
		row := append(append([]string(nil), head...), s.Name, rawInt(s.Wins), raw(s.WinRate), raw(s.WinCI95[0]), raw(s.WinCI95[1]), raw(s.SurvivorsMean), raw(r.Rounds.Mean))
		for _, c := range r.Raw.Counters {
			row = append(row, raw(r.PerEncounter[s.Name][c]))
		}
		t.add(row...)
	}
	row := append(append([]string(nil), head...), "draws", rawInt(r.Draws), raw(r.DrawRate), "", "", "", raw(r.Rounds.Mean))
	for range r.Raw.Counters {
		row = append(row, "")
	}
	t.add(row...)
	return t
}

func writeResultMarkdown(r *results.Result, w io.Writer) error {
	fmt.Fprintf(w, "**%s** (%s), seed %d, %s encounters", r.Scenario, r.Ruleset, r.Seed, thousands(r.Encounters))
	if r.Interrupted {
		io.WriteString(w, " (interrupted: partial result)")
	}
	io.WriteString(w, "\n\n")
	sides := &table{header: []string{"side", "wins", "win rate", "95% CI", "survivors"}, left: 1}
	for _, s := range r.Sides {
		sides.add(s.Name, thousands(s.Wins), pct(s.WinRate), pctCI(s.WinCI95[0], s.WinCI95[1]), fmt.Sprintf("%.2f", s.SurvivorsMean))
	}
	sides.add("draws", thousands(r.Draws), pct(r.DrawRate), "", "")
	sides.markdown(w)
	fmt.Fprintf(w, "\nRounds: mean %.2f, p50 %d, p90 %d, max %d.\n\n", r.Rounds.Mean, r.Rounds.P50, r.Rounds.P90, r.Rounds.Max)
	econ := &table{header: []string{resultEconomyHead(r, i18n.En), r.Sides[0].Name, r.Sides[1].Name}, left: 1}
	for _, c := range r.Raw.Counters {
		a, b := r.PerEncounter[r.Sides[0].Name][c], r.PerEncounter[r.Sides[1].Name][c]
		if a == 0 && b == 0 && c != "turns" && c != "actions" {
			continue
		}
		econ.add(c, resultEconomyCell(r, 0, c), resultEconomyCell(r, 1, c))
	}
	econ.markdown(w)
	first := &table{header: []string{"acts first", "share"}, left: 1}
	for _, name := range r.Raw.Roster {
		first.add(name, pct(r.Initiative.FirstActor[name]))
	}
	io.WriteString(w, "\n")
	first.markdown(w)
	return nil
}
