package experiment

import (
	"fmt"
	"strings"
	"testing"

	"simctl/sim/scenario"
)

// TestSplitBoth: each option of a double oracle goes to the side its
// paths or its prefix say; one whose side cannot be told is an error that
// shows how to write it; two options merged as one scenario are named.
func TestSplitBoth(t *testing.T) {
	sides := [2]string{"heroes", "monsters"}
	set := func(p string) []scenario.Set { return []scenario.Set{{Path: p, Value: "1"}} }
	sp, err := SplitBoth(sides, []Dim{NewDim("monsters.Orc.hp", []string{"9", "13"}), NewDim("heroes.Fighter.init", []string{"1"})},
		[]Alternative{{Name: "a", Sets: set("heroes.Fighter.hp")}, {Name: "monsters:base"}, {Name: "heroes:base"}, {Name: "monsters:slow", Sets: set("max_rounds")}})
	if err != nil {
		t.Fatal(err)
	}
	names := func(as []Alternative) (s []string) {
		for _, a := range as {
			s = append(s, a.Name)
		}
		return s
	}
	if got := [2]string{strings.Join(names(sp[0].Alts), ","), strings.Join(names(sp[1].Alts), ",")}; got != [2]string{"a,base", "base,slow"} ||
		sp[0].Dims[0].Path != "heroes.Fighter.init" || sp[1].Dims[0].Path != "monsters.Orc.hp" {
		t.Errorf("sides: %v, dims %v / %v", got, sp[0].Dims, sp[1].Dims)
	}
	for _, c := range []struct {
		dims []Dim
		alts []Alternative
		want string
	}{
		{nil, []Alternative{{Name: "base"}}, "--option 'heroes:base=' or --option 'monsters:base='"},
		{nil, []Alternative{{Name: "slow", Sets: set("max_rounds")}}, "--option 'heroes:slow=...' or --option 'monsters:slow=...'"},
		{nil, []Alternative{{Name: "x", Sets: append(set("heroes.Fighter.hp"), set("monsters.Orc.hp")...)}}, "do not all start with one side's name"},
		{nil, []Alternative{{Name: "guards:x"}}, `"guards" is not a side`},
		{[]Dim{NewDim("max_rounds", []string{"5", "7"})}, nil, "--vary max_rounds: with --both"},
	} {
		if _, err := SplitBoth(sides, c.dims, c.alts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v; want %q", c.dims, c.alts, err, c.want)
		}
	}
	s := Space{Alts: []Alternative{{Name: "base"}, {Name: "frail", Sets: set("monsters.Orc.hp")}, {Name: "again"}}}
	_, cnt, err := s.Enumerate(func(p Point) (string, error) { return fmt.Sprint(p.Sets), nil })
	if err != nil || cnt.Duplicates != 1 || len(cnt.Merged) != 1 || cnt.Merged[0] != (Merged{Name: "again", Into: "base"}) {
		t.Errorf("merged: %+v, %v", cnt, err)
	}
}
