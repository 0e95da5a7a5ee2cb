//go:build !race

package agents

const underRace = false
