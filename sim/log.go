package sim

import (
	"fmt"
	"io"
)

// Log narrates one encounter for `simctl trace` and records its structured
// events (see Event). A nil *Log is silent; rulesets test for nil before
// formatting, so a run pays nothing for it. A Log belongs to one encounter
// and one goroutine.
type Log struct {
	W      io.Writer // narration; nil records events only
	Names  []string  // roster names, for Name
	Events []Event   // what happened, in order, beside the narration
	// Tr, when set, writes a line of narration in another language from
	// its English format and arguments (simctl trace --lang); nil: English.
	Tr func(format string, args []any) string

	round int // the round Event stamps
}

// Printf writes one line of narration.
func (l *Log) Printf(format string, args ...any) {
	if l == nil || l.W == nil {
		return
	}
	if l.Tr != nil {
		io.WriteString(l.W, l.Tr(format, args))
	} else {
		fmt.Fprintf(l.W, format, args...)
	}
	io.WriteString(l.W, "\n")
}

// Name returns the roster name of combatant i.
func (l *Log) Name(i int) string {
	if l == nil || i < 0 || i >= len(l.Names) {
		return fmt.Sprintf("#%d", i)
	}
	return l.Names[i]
}
