//go:build race

package reports

// raceEnabled: the race detector slows gonum/plot's PNG rasteriser about
// 25 times, so a few tests render fewer PNGs under -race (every figure is
// still rendered and compared as SVG, and the concurrent PNG rendering of
// a report is still exercised).
const raceEnabled = true
