package sim

import (
	"fmt"
	"io"
)

// Log narrates one encounter for `simctl trace`. A nil *Log is silent;
// rulesets test for nil before formatting, so a run pays nothing for it.
type Log struct {
	W     io.Writer
	Names []string // roster names, for Name
}

// Printf writes one line of narration.
func (l *Log) Printf(format string, args ...any) {
	if l == nil {
		return
	}
	fmt.Fprintf(l.W, format, args...)
	io.WriteString(l.W, "\n")
}

// Name returns the roster name of combatant i.
func (l *Log) Name(i int) string {
	if l == nil || i < 0 || i >= len(l.Names) {
		return fmt.Sprintf("#%d", i)
	}
	return l.Names[i]
}
