package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"simctl/sim"
)

func cmdTrace(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "the run's seed")
	enc := fs.Int64("encounter", 0, "the encounter index within the run (from 0)")
	var sets setFlags
	fs.Var(&sets, "set", "override a scenario field, PATH=VALUE (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: simctl trace SCENARIO --seed S --encounter I")
		return exitUsage
	}
	if *enc < 0 {
		fmt.Fprintf(stderr, "simctl trace: --encounter %d: must be 0 or more\n", *enc)
		return exitUsage
	}
	sc, g, err := load(pos[0], sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)  seed %d  encounter %d\n", sc.Name, sc.Ruleset, *seed, *enc)
	o, t := sim.Replay(g, *seed, *enc, &sim.Log{W: &b, Names: names})
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
	io.WriteString(stdout, b.String())
	return exitOK
}
