package experiment_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// TestTournamentKeepsTheBest: five attack bonuses for the hero, better the
// higher, and a sixth candidate that is the best one in another guise
// (speed does not matter in melee: the same fights on the same dice). The
// selection (simctl tournament) must eliminate the four weaker ones, which
// are 3 pp and more behind, rank them by strength, and select the best or
// its twin as within δ of the best, the other twin not separated from it.
func TestTournamentKeepsTheBest(t *testing.T) {
	data := duelYAML([2]duelist{
		{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"},
		{hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"},
	})
	var games []sim.Game
	var names []string
	for b := 2; b <= 6; b++ {
		games = append(games, compile(t, data, scenario.Set{Path: "heroes.Fighter.attacks", Value: fmt.Sprintf("[%d]", b)}))
		names = append(names, fmt.Sprintf("+%d", b))
	}
	games = append(games, compile(t, data, scenario.Set{Path: "heroes.Fighter.attacks", Value: "[6]"}, scenario.Set{Path: "heroes.Fighter.speed", Value: "50"}))
	names = append(names, "+6 fast")
	res, err := experiment.Select(context.Background(), games, names, 0, "heroes",
		experiment.SelectConfig{Seed: 9, Params: experiment.SelectParams{First: 1000, Budget: 64000}})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, k := range res.Ranking {
		c := res.Candidates[k]
		order = append(order, c.Name)
		t.Logf("%-8s N=%-6d win %.4f %s after stage %d by %q, diff %+.4f [%+.4f, %+.4f]", c.Name, c.Encounters, c.WinRate, c.Status, c.Out, c.By, c.Diff, c.DiffCI[0], c.DiffCI[1])
	}
	if res.Outcome != experiment.OutcomeWithinDelta || (names[res.Selected] != "+6" && names[res.Selected] != "+6 fast") {
		t.Fatalf("outcome %s, selected %d; want +6 or its twin selected within δ", res.Outcome, res.Selected)
	}
	top := map[string]bool{order[0]: true, order[1]: true}
	if !top["+6"] || !top["+6 fast"] || res.Candidates[res.Ranking[1]].Status != experiment.StatusNotSeparated {
		t.Fatalf("the first two are %v, want +6 and its twin, the second not separated", order[:2])
	}
	if fmt.Sprint(order[2:]) != "[+5 +4 +3 +2]" {
		t.Errorf("ranking of the eliminated %v, want [+5 +4 +3 +2]", order[2:])
	}
	for _, k := range res.Ranking[2:] {
		if c := res.Candidates[k]; c.Status != experiment.StatusEliminated || c.DiffCI[1] >= 0 {
			t.Errorf("%s: %s, difference interval %v; want eliminated, shown worse", c.Name, c.Status, c.DiffCI)
		}
	}
}

// TestTournamentResumes: a selection interrupted at the start, or in its
// second or third stage, and resumed from its JSON state (the state it
// returned, and the last checkpoint) ends exactly as the uninterrupted
// one: the same stages, eliminations, encounters, wins and intervals.
func TestTournamentResumes(t *testing.T) {
	games, names := resumeGames(t)
	cfg := experiment.SelectConfig{Seed: 3, Workers: 2, Params: experiment.SelectParams{First: 1000, Batch: 2000, Budget: 12000}}
	whole, err := experiment.Select(context.Background(), games, names, 0, "heroes", cfg)
	if err != nil || len(whole.Stages) < 4 || !whole.State.Finished() {
		t.Fatalf("uninterrupted: %v, %d stages, %s", err, len(whole.Stages), whole.Outcome)
	}
	for _, stopAfter := range []int{0, 1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var checkpoints []*experiment.Selection
		c := cfg
		c.OnStage = func(r *experiment.Selection) {
			checkpoints = append(checkpoints, roundTrip(t, r))
			if len(r.Stages) == stopAfter {
				cancel()
			}
		}
		if stopAfter == 0 {
			cancel()
		}
		part, err := experiment.Select(ctx, games, names, 0, "heroes", c)
		cancel()
		if err != context.Canceled || part.Outcome != experiment.OutcomeRunning || len(part.Stages) != stopAfter {
			t.Fatalf("stopped after stage %d: err %v, %d stages, %s", stopAfter, err, len(part.Stages), part.Outcome)
		}
		resumes := []*experiment.Selection{roundTrip(t, part)}
		if stopAfter > 0 {
			resumes = append(resumes, checkpoints[stopAfter-1])
		}
		for _, from := range resumes {
			c := cfg
			c.Resume = from.State
			got, err := experiment.Select(context.Background(), games, names, 0, "heroes", c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, whole) {
				t.Errorf("resumed after stage %d:\n got %+v\nwant %+v", stopAfter, got, whole)
			}
		}
	}
}
