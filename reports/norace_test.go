//go:build !race

package reports

import "testing"

const raceEnabled = false

func oneGoroutineUnderRace(t *testing.T) {}
