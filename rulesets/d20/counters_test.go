package d20

import "testing"

// Every extra counter constant has its entry in counterTable: a name (the
// JSON's and simctl rules d20's), used once, and a text.
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
