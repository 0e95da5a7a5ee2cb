package acks2

// SetGeneral makes every Table of g play without the shortcuts decided
// from the game (shortcuts.go), so tests can compare both ways of playing.
func SetGeneral(g *Game, on bool) { g.general = on }
