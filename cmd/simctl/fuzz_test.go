package main

import "testing"

// FuzzOptionSpec: compare's --option NAME='--set PATH=VALUE ...' parsing
// (shell-style quoting included) never panics, and an accepted option has
// a non-empty name.
func FuzzOptionSpec(f *testing.F) {
	for _, s := range []string{"base=", "fast=--set heroes.Fighter.init=5", `d='--set' 'heroes.Fighter.policy={name: delay, until: Orc}'`, `x="a=1" b=2`, `q='unterminated`, `=--set a=1`, `n=--set`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var o optionFlags
		if err := o.Set(s); err != nil {
			return
		}
		if len(o) != 1 || o[0].name == "" {
			t.Fatalf("Set(%q) accepted %+v", s, o)
		}
	})
}
