//go:build race

package lab

// raceEnabled: the detector inflates allocations and slows the browser's
// timed steps, so a few tests skip under -race (the ordinary go test runs
// them).
const raceEnabled = true
