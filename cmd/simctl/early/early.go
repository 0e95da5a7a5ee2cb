// Package early catches Ctrl-C and SIGTERM from the start of the process.
// Package main's own init and main run after every imported package's
// init (the message catalogs, fonts, plots: 0.1 s, more under load); a
// signal in that time took the default action and killed the process
// instead of the exit 130 every command promises. This package imports
// nothing heavy, so it is initialized among the first, and the signals
// that arrive before main are kept for it in Signals.
package early

import (
	"os"
	"os/signal"
	"syscall"
)

// Signals receives SIGINT and SIGTERM from this package's init on; main
// reads it (and calls signal.Stop on it at the end).
var Signals = make(chan os.Signal, 2)

func init() { signal.Notify(Signals, os.Interrupt, syscall.SIGTERM) }
