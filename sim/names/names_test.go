package names

import "testing"

func TestClosest(t *testing.T) {
	valid := []string{"speed", "attacks", "hp", "ac"}
	for _, c := range []struct{ s, want, sorted string }{
		{"sped", "speed", "speed"},
		{"ATTACK", "attacks", "attacks"},
		{"ap", "hp", "ac"}, // two at one edit: declaration order, or the alphabet
		{"initiative", "", ""},
	} {
		if got := Closest(c.s, valid); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
		if got := ClosestSorted(c.s, valid); got != c.sorted {
			t.Errorf("ClosestSorted(%q) = %q, want %q", c.s, got, c.sorted)
		}
	}
	if got := Suggest("sped", valid).String(); got != ` (did you mean "speed"?)` {
		t.Errorf("Suggest = %q", got)
	}
	if got := Suggest("zzzzzz", valid).String(); got != "" {
		t.Errorf("Suggest of a far name = %q, want nothing", got)
	}
}
