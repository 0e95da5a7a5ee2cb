//go:build race

package reports

import "testing"

// raceEnabled: the race detector slows gonum/plot's PNG rasteriser about
// 25 times, so a few tests render fewer PNGs under -race (every figure is
// still rendered and compared as SVG, and the concurrent PNG rendering of
// a report is still exercised).
const raceEnabled = true

// oneGoroutineUnderRace skips, under -race, a test of what one goroutine
// writes (the words of a table or a page in each language): the ordinary
// go test checks it, and the detector has nothing to find there that the
// report tests rendering figures concurrently do not already exercise.
func oneGoroutineUnderRace(t *testing.T) {
	t.Helper()
	t.Skip("one goroutine's text: checked by the ordinary go test")
}
