// Package names finds the valid name nearest to a misspelt one, for the
// "did you mean" part of error messages (an unknown field, ruleset, fact,
// side or command): a typo becomes a one-second fix. It imports only
// sim/msg of simctl (Suggest is a message part), so every layer may use it.
//
// Concurrency: functions only, no state; safe from any goroutine.
package names

import (
	"sort"
	"strings"

	"simctl/sim/msg"
)

// Closest returns the name in valid nearest to s by edit distance (case
// ignored), or "" when none is within two edits. Ties go to the first in
// valid's order.
func Closest(s string, valid []string) string {
	best, bestD := "", 3
	for _, v := range valid {
		if d := editDistance(strings.ToLower(s), strings.ToLower(v)); d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// ClosestSorted is Closest with ties going to the alphabetically first
// name, so a message does not depend on the order names were declared in.
func ClosestSorted(s string, valid []string) string {
	sorted := append([]string(nil), valid...)
	sort.Strings(sorted)
	return Closest(s, sorted)
}

// Suggest is ` (did you mean "x"?)` for the name Closest to s, or the
// empty Text (printing "") when none is close: a message part, so a
// message around it (passed as a %s argument) translates whole.
func Suggest(s string, valid []string) msg.Text {
	if c := Closest(s, valid); c != "" {
		return msg.New(" (did you mean %q?)", c)
	}
	return msg.Text{}
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
