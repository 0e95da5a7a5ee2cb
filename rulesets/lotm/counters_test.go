package lotm

import (
	"testing"

	"simctl/sim"
)

// TestCounterTable: every extra counter has exactly one entry, with a
// name and a text, and no name is given twice.
func TestCounterTable(t *testing.T) {
	seen, ids := map[string]bool{}, map[int]bool{}
	for k, c := range counterTable {
		if c.Name == "" || c.Doc == "" || seen[c.Name] || ids[c.id] || c.id < sim.NumBase || c.id >= numCounters {
			t.Errorf("counter entry %d: %+v is empty, a duplicate or out of range", k, c)
		}
		seen[c.Name], ids[c.id] = true, true
	}
	if len(counterTable) != numCounters-sim.NumBase || len(counterNames) != numCounters {
		t.Errorf("%d entries, %d counter names for %d counters", len(counterTable), len(counterNames), numCounters)
	}
}
