//go:build race

package agents

// underRace: the test binary was built with -race, which slows play about
// ten times; one-goroutine tests then play fewer encounters.
const underRace = true
