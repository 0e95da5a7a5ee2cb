package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteText prints r as aligned tables for a person.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)  seed %d  %s encounters", r.Scenario, r.Ruleset, r.Seed, thousands(r.Encounters))
	if r.Elapsed > 0 {
		fmt.Fprintf(&b, "  %.2f s  %s/s", r.Elapsed, thousands(int64(r.Rate)))
	}
	if r.Interrupted {
		b.WriteString("  (interrupted: partial result)")
	}
	b.WriteString("\n\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "side\twins\twin rate\t95%% CI\tsurvivors\t\n")
	for _, s := range r.Sides {
		fmt.Fprintf(tw, "%s\t%s\t%s\t[%s, %s]\t%.2f\t\n", s.Name, thousands(s.Wins), pct(s.WinRate), pct(s.WinCI95[0]), pct(s.WinCI95[1]), s.SurvivorsMean)
	}
	fmt.Fprintf(tw, "draws\t%s\t%s\t\t\t\n", thousands(r.Draws), pct(r.DrawRate))
	tw.Flush()
	fmt.Fprintf(&b, "\nrounds: mean %.2f  p50 %d  p90 %d  max %d\n\n", r.Rounds.Mean, r.Rounds.P50, r.Rounds.P90, r.Rounds.Max)

	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "per encounter\t%s\t%s\t\n", r.Sides[0].Name, r.Sides[1].Name)
	for _, name := range r.Raw.Counters {
		a, c := r.PerEncounter[r.Sides[0].Name][name], r.PerEncounter[r.Sides[1].Name][name]
		if a == 0 && c == 0 && name != "turns" && name != "actions" {
			continue // a rule nobody used in this scenario: keep the table short
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t\n", name, a, c)
	}
	tw.Flush()

	type fa struct {
		name string
		f    float64
	}
	var firsts []fa
	for _, name := range r.Raw.Roster {
		firsts = append(firsts, fa{name, r.Initiative.FirstActor[name]})
	}
	sort.SliceStable(firsts, func(i, j int) bool { return firsts[i].f > firsts[j].f })
	b.WriteString("\nacts first:")
	for _, x := range firsts {
		fmt.Fprintf(&b, "  %s %s", x.name, pct(x.f))
	}
	b.WriteString("\n")
	writeTactics(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }

// thousands formats n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
