//go:build !race

package cavaliers

const raceEnabled = false
