package reports

import (
	"simctl/reports/i18n"
	"simctl/reports/results"
)

// The figures in a language, one at a time, for the front ends that draw
// one figure when it is asked for (the CLI's --plot with --lang, the web
// lab in the language of its page): the same figures the report draws in
// l, titles, axes, legends and captions. A Korean figure needs a Hangul
// font (UseFigureFont) first. The functions without Lang are English.

// RoundsFigureLang is RoundsFigure in l.
func RoundsFigureLang(l i18n.Lang, r *results.Result) (*Figure, error) { return roundsFigure(l, r) }

// EconomyFigureLang is EconomyFigure in l.
func EconomyFigureLang(l i18n.Lang, r *results.Result) (*Figure, error) {
	return economyFigure(l, r)
}

// FirstActorFigureLang is FirstActorFigure in l.
func FirstActorFigureLang(l i18n.Lang, r *results.Result, sides []int) (*Figure, error) {
	return firstActorFigure(l, r, sides)
}

// CombatantsFigureLang is CombatantsFigure in l.
func CombatantsFigureLang(l i18n.Lang, r *results.Result) (*Figure, error) {
	return combatantsFigure(l, r)
}

// DamageFigureLang is DamageFigure in l.
func DamageFigureLang(l i18n.Lang, r *results.Result) (*Figure, error) { return damageFigure(l, r) }

// HPLeftFigureLang is HPLeftFigure in l.
func HPLeftFigureLang(l i18n.Lang, r *results.Result) (*Figure, error) { return hpLeftFigure(l, r) }

// SweepFigureLang is SweepFigure in l.
func SweepFigureLang(l i18n.Lang, s *results.Sweep) (*Figure, error) { return sweepFigure(l, s) }

// CompareFigureLang is CompareFigure in l.
func CompareFigureLang(l i18n.Lang, c *results.Compare) (*Figure, error) {
	return compareFigure(l, c)
}

// TornadoFigureLang is TornadoFigure in l.
func TornadoFigureLang(l i18n.Lang, v *results.Value) (*Figure, error) { return tornadoFigure(l, v) }

// MatrixFigureLang is MatrixFigure in l.
func MatrixFigureLang(l i18n.Lang, m *results.Matrix) (*Figure, error) { return matrixFigure(l, m) }
