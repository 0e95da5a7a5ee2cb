package experiment

import (
	"strings"

	"simctl/sim/msg"
)

// SideOf tells which of two sides a --set path belongs to: 0 or 1 when
// its first segment is that side's name, -1 when it names neither (a
// top-level field such as max_rounds or options, which changes both).
func SideOf(sides [2]string, path string) int {
	first, _, _ := strings.Cut(path, ".")
	for s, name := range sides {
		if first == name {
			return s
		}
	}
	return -1
}

// SplitBoth puts each --vary dimension and --option of a double oracle
// (`optimize --both`) on its side's space. A dimension's side is its
// path's; an option's is the side every path it sets belongs to, or the
// one its name says with a side prefix, SIDE:NAME (then the name is
// NAME). An option whose side cannot be told (it sets nothing, as
// `base=` for the scenario as written, or a path of neither side, or
// paths of both) is an error that says how to write it: guessing put
// such an option on the searched side, silently, and the game's value
// with it.
func SplitBoth(sides [2]string, dims []Dim, alts []Alternative) ([2]Space, error) {
	var sp [2]Space
	for _, d := range dims {
		s := SideOf(sides, d.Path)
		if s < 0 {
			return sp, msg.Errorf("--vary %s: with --both each --vary path belongs to one side and starts with its name (%s. or %s.); a setting of neither side is a --set", d.Path, sides[0], sides[1])
		}
		sp[s].Dims = append(sp[s].Dims, d)
	}
	for _, a := range alts {
		s := -1
		if pre, name, ok := strings.Cut(a.Name, ":"); ok {
			for k, n := range sides {
				if pre == n {
					s, a.Name = k, name
				}
			}
			if s < 0 {
				return sp, msg.Errorf("--option %s: %q is not a side; with --both a side prefix is %s: or %s:", a.Name, pre, sides[0], sides[1])
			}
			if a.Name == "" {
				return sp, msg.Errorf("--option %s: a name after the side prefix, e.g. %s:base=", pre+":", pre)
			}
			sp[s].Alts = append(sp[s].Alts, a)
			continue
		}
		told := true
		for _, x := range a.Sets {
			t := SideOf(sides, x.Path)
			if t < 0 || s >= 0 && t != s {
				told = false
				break
			}
			s = t
		}
		switch {
		case len(a.Sets) == 0:
			return sp, msg.Errorf("--option %s sets no path, so with --both its side cannot be told; write the side before the name: --option '%s:%s=' or --option '%s:%s=' (that side's play as written)",
				a.Name, sides[0], a.Name, sides[1], a.Name)
		case !told:
			return sp, msg.Errorf("--option %s: with --both an option is one side's choice, and its paths do not all start with one side's name (%s. or %s.); write the side before the name: --option '%s:%s=...' or --option '%s:%s=...'",
				a.Name, sides[0], sides[1], sides[0], a.Name, sides[1], a.Name)
		}
		sp[s].Alts = append(sp[s].Alts, a)
	}
	return sp, nil
}
