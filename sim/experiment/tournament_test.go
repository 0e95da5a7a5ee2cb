package experiment_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// TestTournamentKeepsTheBest: five attack bonuses for the hero, better the
// higher, and a sixth candidate that is the best one in another guise
// (speed does not matter in melee: the same fights on the same dice). The
// tournament must keep the true best and its twin, drop the rest early
// (fewer encounters than the survivors), and rank by strength.
func TestTournamentKeepsTheBest(t *testing.T) {
	data := []byte(duelYAML([2]duelist{
		{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"},
		{hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"},
	}))
	var games []sim.Game
	var names []string
	add := func(name string, sets ...scenario.Set) {
		sc, err := scenario.Load("t.yaml", data, sets, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		games, names = append(games, g), append(names, name)
	}
	for b := 2; b <= 6; b++ {
		add(fmt.Sprintf("+%d", b), scenario.Set{Path: "heroes.Fighter.attacks", Value: fmt.Sprintf("[%d]", b)})
	}
	add("+6 fast", scenario.Set{Path: "heroes.Fighter.attacks", Value: "[6]"}, scenario.Set{Path: "heroes.Fighter.speed", Value: "50"})
	res, err := experiment.Tournament(context.Background(), games, names, 0, "heroes",
		experiment.TournamentConfig{Seed: 9, First: 1000, Growth: 2, Budget: 64000})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range res.Entrants {
		order = append(order, e.Name)
		t.Logf("%-8s N=%-6d win %.4f out after %d, diff %+.4f [%+.4f, %+.4f]", e.Name, e.Encounters, e.WinRate, e.Out, e.Diff, e.DiffCI[0], e.DiffCI[1])
	}
	t.Logf("rounds %+v", res.Rounds)
	top := map[string]bool{order[0]: true, order[1]: true}
	if !top["+6"] || !top["+6 fast"] {
		t.Fatalf("the survivors are %v, want +6 and its twin", order[:2])
	}
	if fmt.Sprint(order[2:]) != "[+5 +4 +3 +2]" {
		t.Errorf("ranking of the eliminated %v, want [+5 +4 +3 +2]", order[2:])
	}
	for _, e := range res.Entrants[2:] {
		if e.Out == 0 || e.Encounters >= res.Entrants[0].Encounters {
			t.Errorf("%s was not eliminated early: out after %d, %d encounters", e.Name, e.Out, e.Encounters)
		}
	}
	if res.Entrants[0].Encounters != 64000 {
		t.Errorf("the survivors played %d encounters, want the whole budget 64000", res.Entrants[0].Encounters)
	}
}

// TestTournamentResumes: a tournament interrupted in its third round and
// resumed from its JSON state (the second round's checkpoint, and the
// state it returned) ends exactly as the uninterrupted one: the same
// rounds, eliminations, encounters, wins and paired differences.
func TestTournamentResumes(t *testing.T) {
	data := []byte(duelYAML([2]duelist{
		{hp: 14, ac: 15, init: 1, attack: 4, damage: "1d8+2"},
		{hp: 15, ac: 13, init: 2, attack: 3, damage: "1d10+1"},
	}))
	var games []sim.Game
	var names []string
	for _, b := range []string{"[2]", "[4]", "[5]", "[6]", "[6]"} {
		sc, err := scenario.Load("t.yaml", data, []scenario.Set{{Path: "heroes.Fighter.attacks", Value: b}}, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		games, names = append(games, g), append(names, fmt.Sprintf("%s#%d", b, len(names)))
	}
	cfg := experiment.TournamentConfig{Seed: 3, First: 1000, Growth: 2, Budget: 31000, Workers: 2}
	whole, err := experiment.Tournament(context.Background(), games, names, 0, "heroes", cfg)
	if err != nil || len(whole.Rounds) < 4 || whole.State != nil {
		t.Fatalf("uninterrupted: %v, %d rounds, state %v", err, len(whole.Rounds), whole.State)
	}
	roundTrip := func(r *experiment.TournamentResult) *experiment.TournamentResult {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back experiment.TournamentResult
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		return &back
	}
	for _, stopAfter := range []int{0, 1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var checkpoints []*experiment.TournamentResult
		c := cfg
		c.OnRound = func(r *experiment.TournamentResult) {
			checkpoints = append(checkpoints, roundTrip(r))
			if len(r.Rounds) == stopAfter {
				cancel()
			}
		}
		if stopAfter == 0 {
			cancel()
		}
		part, err := experiment.Tournament(ctx, games, names, 0, "heroes", c)
		cancel()
		if err != context.Canceled || part.State == nil || len(part.Rounds) != stopAfter {
			t.Fatalf("stopped after round %d: err %v, %d rounds, state %v", stopAfter, err, len(part.Rounds), part.State)
		}
		resumes := []*experiment.TournamentResult{roundTrip(part)}
		if stopAfter > 0 {
			resumes = append(resumes, checkpoints[stopAfter-1])
		}
		for _, from := range resumes {
			c := cfg
			c.Resume = from
			got, err := experiment.Tournament(context.Background(), games, names, 0, "heroes", c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, whole) {
				t.Errorf("resumed after round %d:\n got %+v\nwant %+v", stopAfter, got, whole)
			}
		}
	}
	done := cfg
	done.Resume = whole
	if _, err := experiment.Tournament(context.Background(), games, names, 0, "heroes", done); err == nil {
		t.Error("resuming a finished tournament: no error")
	}
}
