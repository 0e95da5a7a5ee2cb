package acks2_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The worked example's trace: seed 1, encounter 132 is the first encounter
// of seed 1 whose dice match the book's telling (Skandara's arrow wounds the
// first spear orc, which then misses her; the second spear orc misses
// Ogilar; Ogilar's spear wounds the axe orc first).
const (
	exampleSeed      = 1
	exampleEncounter = 132
)

// traceOf renders a built-in scenario's encounter exactly as `simctl trace
// NAME --seed S --encounter I` prints it (cmd/simctl/trace.go; the test
// cannot import package main, so it repeats that file's few lines of
// framing around the referee's narration).
func traceOf(t *testing.T, name string, seed uint64, enc int64) string {
	t.Helper()
	data, display, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no built-in scenario %s", name)
	}
	sc, err := scenario.Load(display, data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)  seed %d  encounter %d\n", sc.Name, sc.Ruleset, seed, enc)
	o, tally := sim.Replay(g, seed, enc, &sim.Log{W: &b, Names: names})
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
			if v := tally.Counts.Get(s, k); v != 0 {
				fmt.Fprintf(&b, " %s=%d", name, v)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestGoldenWorkedExample(t *testing.T) {
	got := traceOf(t, "acks2/worked-example", exampleSeed, exampleEncounter)
	const golden = "testdata/worked-example.trace"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("simctl trace acks2/worked-example --seed %d --encounter %d differs from %s (rerun with -update if the change is intended)\n--- got\n%s",
			exampleSeed, exampleEncounter, golden, got)
	}
	// Independently of the golden file: the book's sequence in round 1.
	inOrder(t, roundOf(got, 1),
		"initiative: Spear Orc 1 6, Spear Orc 2 5, Axe Orc 4, Skandara 3, Ogilar 1",
		// At 6 the first spear orc charges Skandara; she shoots it before
		// its attack; it is wounded; then it attacks her and misses.
		"count 6: Spear Orc 1", "Spear Orc 1 charges Skandara",
		"Skandara interrupts Spear Orc 1's charge (round-1 missile weapon), before its attack; Skandara loses its own number 3",
		"Skandara attacks the charging Spear Orc 1", "Spear Orc 1 charges into Skandara",
		// At 5 the second spear orc attacks Ogilar, who cannot interrupt:
		// the orc has a spear. It misses.
		"count 5: Spear Orc 2", "Spear Orc 2 charges Ogilar",
		"Ogilar cannot interrupt Spear Orc 2's charge with its long weapon: it has a long weapon too",
		"Spear Orc 2 charges into Ogilar",
		// At 4 the axe orc charges Ogilar, who spears it first.
		"count 4: Axe Orc", "Axe Orc charges Ogilar",
		"Ogilar interrupts Axe Orc's charge (round-1 long weapon), before its attack; Ogilar loses its own number 1",
		"Ogilar attacks the charging Axe Orc", "Axe Orc charges into Ogilar",
		// Both have given their numbers.
		"count 3: Skandara", "Skandara has no segment", "count 1: Ogilar", "Ogilar has no segment")
	r1 := roundOf(got, 1)
	for _, want := range []string{
		"Skandara attacks the charging Spear Orc 1: d20 18 = 18 vs 11: hit",
		"Spear Orc 1 charges into Skandara: d20 9 +2 = 11 vs 12: miss",
		"Spear Orc 2 charges into Ogilar: d20 7 +2 = 9 vs 14: miss",
		"Ogilar attacks the charging Axe Orc: d20 16 = 16 vs 11: hit",
	} {
		if !strings.Contains(r1, want) {
			t.Errorf("round 1 lacks %q (the book's dice)", want)
		}
	}
	absent(t, r1, "Spear Orc 1 is killed")
}
