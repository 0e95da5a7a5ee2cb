//go:build race

package d20

// underRace: the test binary was built with -race, which slows play about
// ten times; one-goroutine tests then play fewer encounters.
const underRace = true
