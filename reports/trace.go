package reports

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"simctl/sim"
	"simctl/sim/scenario"
)

// Trace replays encounter enc of a run with seed, narrating it turn by
// turn, then prints what the run counted for it (winner, rounds,
// survivors, first actor, every non-zero counter): the text of
// `simctl trace`.
func Trace(w io.Writer, sc *scenario.Scenario, g sim.Game, seed uint64, enc int64) error {
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)  seed %d  encounter %d\n", sc.Name, sc.Ruleset, seed, enc)
	var narration strings.Builder
	o, t := sim.Replay(g, seed, enc, &sim.Log{W: &narration, Names: names})
	b.WriteString(SideNames(narration.String(), sc.Sides[0].Name, sc.Sides[1].Name))
	fmt.Fprintf(&b, "\ncounted: ")
	if o.Winner >= 0 {
		fmt.Fprintf(&b, "winner %s", sc.Sides[o.Winner].Name)
	} else {
		b.WriteString("draw")
	}
	fmt.Fprintf(&b, ", rounds %d, survivors %s %d / %s %d", o.Rounds, sc.Sides[0].Name, o.Survivors[0], sc.Sides[1].Name, o.Survivors[1])
	if o.FirstActor >= 0 {
		fmt.Fprintf(&b, ", first to act %s", names[o.FirstActor])
	}
	b.WriteString("\n")
	for s := 0; s < 2; s++ {
		fmt.Fprintf(&b, "  %s:", sc.Sides[s].Name)
		for k, name := range g.Counters() {
			if v := t.Counts.Get(s, k); v != 0 {
				fmt.Fprintf(&b, " %s=%d", name, v)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The referees narrate sides by number ("Fighter (side 0)", "== side 1
// wins", "an Ambush Round for side 1"); a reader knows them by the names
// the scenario gives them.
var (
	sideInParens = regexp.MustCompile(`\(side ([01])([,)])`)
	sideWins     = regexp.MustCompile(`(?m)^== side ([01]) wins`)
	forSide      = regexp.MustCompile(`\bfor side ([01])\b`)
)

// SideNames puts the side names into a narration in place of side numbers.
func SideNames(text, side0, side1 string) string {
	name := func(d string) string {
		if d == "0" {
			return side0
		}
		return side1
	}
	text = sideInParens.ReplaceAllStringFunc(text, func(m string) string {
		sm := sideInParens.FindStringSubmatch(m)
		return "(" + name(sm[1]) + sm[2]
	})
	text = sideWins.ReplaceAllStringFunc(text, func(m string) string {
		return "== " + name(sideWins.FindStringSubmatch(m)[1]) + " wins"
	})
	return forSide.ReplaceAllStringFunc(text, func(m string) string {
		return "for " + name(forSide.FindStringSubmatch(m)[1])
	})
}
