//go:build race

package cavaliers

// raceEnabled: under the race detector the identity tests play fewer
// encounters (the ordinary go test plays the full count).
const raceEnabled = true
