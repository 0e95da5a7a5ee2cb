//go:build !race

package main

import "testing"

const raceEnabled = false

func oneGoroutineUnderRace(t *testing.T) {}

const raceScale = 1
