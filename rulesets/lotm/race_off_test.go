//go:build !race

package lotm

const raceEnabled = false
