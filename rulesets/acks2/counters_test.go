package acks2

import "testing"

// TestCounterTable: the counter constants index the names derived from
// counterDocs (one table names and documents each counter).
func TestCounterTable(t *testing.T) {
	if len(counterNames) != numCounters {
		t.Fatalf("%d counter names for %d counters: counterDocs and the constants disagree", len(counterNames), numCounters)
	}
	for k, want := range map[int]string{DeclaredSpellsLost: "declared_spells_lost", MoraleChecks: "morale_checks", Retreats: "retreats"} {
		if counterNames[k] != want {
			t.Errorf("counter %d is %q, want %q", k, counterNames[k], want)
		}
	}
}
