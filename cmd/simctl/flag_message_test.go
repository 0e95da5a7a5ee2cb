package main

import (
	"context"
	"strings"
	"testing"
)

// A flag's value whose own message names the flag is not named twice
// (issue 31 item 12: "--vary --vary ...", "--set --set ...").
func TestFlagNamedOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"optimize", "d20/duel", "--vary", "heroes.Fighter.init=1:3:0"}, "simctl optimize: --vary heroes.Fighter.init=1:3:0: step 0 never reaches 3"},
		{[]string{"optimize", "d20/duel", "--vary", "=1:3"}, `simctl optimize: --vary "=1:3": expected PATH=RANGE`},
		{[]string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1:99999999"}, "simctl sweep: --vary heroes.Fighter.init=1:99999999: 99999999 values; at most 1000 per axis"},
		{[]string{"run", "d20/duel", "--set", "x"}, `simctl run: --set "x": expected PATH=VALUE`},
		// A message that does not name its flag still gets it.
		{[]string{"run", "d20/duel", "--shard", "3"}, "simctl run: --shard 3: no shard index"},
	} {
		code, _, stderr := simctl(t, context.Background(), c.args...)
		if code != exitUsage || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, stderr, c.want)
		}
	}
}
