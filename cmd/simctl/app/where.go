package app

import (
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// CheckFindWhere compiles a find's condition against the compiled
// scenario, as Find will: a front end that accepts a request before it
// runs (the lab's ?dry=1) refuses a bad condition now, with its column.
// The error is a *lang.At.
func CheckFindWhere(sc *scenario.Scenario, g sim.Game, where string) error {
	probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
	_, err := probe.Condition(where)
	return err
}

// CheckOptimizeWhere compiles an optimize's constraint over its axes, as
// Optimize will (which values are numbers decides which paths it reads).
func CheckOptimizeWhere(axes []results.Axis, where string) error {
	sp := &experiment.Space{}
	for _, a := range axes {
		sp.Dims = append(sp.Dims, experiment.NewDim(a.Path, a.Values))
	}
	return sp.Constrain(where)
}
