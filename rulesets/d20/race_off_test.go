//go:build !race

package d20

const underRace = false
