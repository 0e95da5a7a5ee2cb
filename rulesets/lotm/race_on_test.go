//go:build race

package lotm

// raceEnabled: under the race detector the statistical tests play fewer
// encounters (their tolerance is in standard errors, so it widens to match).
const raceEnabled = true
