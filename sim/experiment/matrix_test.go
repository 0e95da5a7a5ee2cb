package experiment_test

import (
	"context"
	"fmt"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// matrixGames compiles every row option against every column option.
func matrixGames(t *testing.T, data []byte, rows, cols [][]scenario.Set) []sim.Game {
	t.Helper()
	var games []sim.Game
	for _, r := range rows {
		for _, c := range cols {
			sc, err := scenario.Load("m.yaml", data, append(append([]scenario.Set(nil), r...), c...), rulesets.Schema)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rulesets.Compile(sc)
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, g)
		}
	}
	return games
}

// TestMatrixFlagsDominated: a duel where one hero option is designed to be
// better against everything (+3 to hit) and one monster option likewise
// (bigger damage dice), and two hero options that are the same fight in a
// different guise (which must not be flagged either way).
func TestMatrixFlagsDominated(t *testing.T) {
	data := []byte(duelYAML([2]duelist{
		{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"},
		{hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"},
	}))
	set := func(p, v string) []scenario.Set { return []scenario.Set{{Path: p, Value: v}} }
	glass := append(set("heroes.Fighter.attacks", "[2]"), set("heroes.Fighter.hp", "22")...)
	rows := [][]scenario.Set{set("heroes.Fighter.attacks", "[4]"), set("heroes.Fighter.attacks", "[7]"), set("heroes.Fighter.speed", "40"), glass}
	cols := [][]scenario.Set{set("monsters.Orc.damage", "1d6+1"), set("monsters.Orc.damage", "1d12+1"), set("monsters.Orc.ac", "19")}
	games := matrixGames(t, data, rows, cols)
	crn, err := experiment.RunCRN(context.Background(), games, sim.RunConfig{Seed: 5, N: 20000})
	if err != nil {
		t.Fatal(err)
	}
	m, err := experiment.Matrix(crn.Wins[0], "heroes", "monsters", []string{"plain", "+3", "fast", "glass"}, []string{"small", "big", "armoured"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("win %v", m.Win)
	var got []string
	for _, d := range m.Dominated {
		got = append(got, fmt.Sprintf("{%s %s %s}", d.Side, d.Option, d.By))
	}
	// plain is dominated by +3; fast (speed does not matter in melee) plays
	// exactly the plain fights, so it is dominated by +3 too, and plain and
	// fast never dominate each other. glass (-2 to hit, +8 HP) beats +3
	// against small damage and loses against armour: not dominated, though
	// significantly worse in one column (the plausible wrong rule, "worse
	// somewhere", would flag it). For the orc, small damage is dominated by
	// big, and big by armoured (every hero option wins less against it).
	want := "[{heroes plain +3} {heroes fast +3} {monsters small big} {monsters big armoured}]"
	if fmt.Sprint(got) != want {
		t.Errorf("dominated %s, want %s", got, want)
	}
	// Against armour +3 is best and armour is the orc's best reply to
	// everything: a saddle point at (+3, armoured); the value is that cell.
	if m.Eq.RowWeights[1] < 1-1e-9 || m.Eq.ColWeights[2] < 1-1e-9 {
		t.Errorf("equilibrium %+v, want +3 against armoured", m.Eq)
	}
	if v := m.Win[1][2]; m.Eq.Value-v > 1e-9 || v-m.Eq.Value > 1e-9 {
		t.Errorf("value %v, want the cell %v", m.Eq.Value, v)
	}
	if !(m.Eq.ValueCI[0] <= m.Eq.Value && m.Eq.Value <= m.Eq.ValueCI[1]) {
		t.Errorf("value %v outside its bounds %v", m.Eq.Value, m.Eq.ValueCI)
	}
	// plain and fast are one class; the saddle point is settled.
	if fmt.Sprint(m.RowClasses) != "[[plain fast]]" || m.ColClasses != nil || !m.Eq.Stable {
		t.Errorf("classes %v %v, stable %v (ranges %v %v), want [[plain fast]], none, stable", m.RowClasses, m.ColClasses, m.Eq.Stable, m.Eq.RowRange, m.Eq.ColRange)
	}
	if m.Win[0][0] != m.Win[2][0] || m.Win[0][1] != m.Win[2][1] {
		t.Errorf("speed changed a melee fight on the same dice: %v", m.Win)
	}
}
