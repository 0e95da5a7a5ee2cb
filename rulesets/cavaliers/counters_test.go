package cavaliers

import "testing"

// TestCounterTable: every extra counter has a name and a text, no name
// twice, and the names are as many as the counters.
func TestCounterTable(t *testing.T) {
	seen := map[string]bool{}
	for k, f := range counterTable {
		if f.Name == "" || f.Doc == "" || seen[f.Name] {
			t.Errorf("counter %d: entry %+v is empty or a duplicate", k, f)
		}
		seen[f.Name] = true
	}
	if len(counterNames) != numCounters {
		t.Errorf("%d counter names for %d counters", len(counterNames), numCounters)
	}
}
