package d20

// SetWrongReadings switches on the wrong readings of the modifier rules
// (traits.go) for the exact tests' power checks; the returned func switches
// them off again.
func SetWrongReadings(critMultipliesAdded, damageMayGoNegative bool) func() {
	critMultipliesTraits, damageBelowZero = critMultipliesAdded, damageMayGoNegative
	return func() { critMultipliesTraits, damageBelowZero = false, false }
}
