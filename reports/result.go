// Package reports turns tallies into what people and tools read: the JSON
// result of a run (the contract other tools parse), the aligned text table,
// the exact merge of shard results (result.go, table.go, merge.go); sweeps
// with sequential stopping (sweep.go, sweeptable.go); paired comparisons on
// common random numbers (crn.go, compare.go); plots with gonum/plot
// (plot.go) and the Markdown/HTML report bundle (bundle.go, render.go).
//
// Concurrency: the paired runner in crn.go follows sim.Run's rule (each
// worker owns its tables, streams and accumulators; they merge after the
// workers finish, so results do not depend on the worker count). Everything
// else runs after the workers have finished and is not safe for concurrent
// mutation.
package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"simctl/sim"
	"simctl/stats"
)

// Result is the JSON document `simctl run --json` prints.
type Result struct {
	Scenario      string                        `json:"scenario"`
	File          string                        `json:"file"`
	Ruleset       string                        `json:"ruleset"`
	Seed          uint64                        `json:"seed"`
	Encounters    int64                         `json:"encounters"`
	Version       string                        `json:"version"`
	Sides         []SideResult                  `json:"sides"`
	Draws         int64                         `json:"draws"`
	DrawRate      float64                       `json:"draw_rate"`
	Rounds        Rounds                        `json:"rounds"`
	ActionEconomy map[string]map[string]any     `json:"action_economy"`
	PerEncounter  map[string]map[string]float64 `json:"action_economy_per_encounter"`
	Initiative    Initiative                    `json:"initiative"`
	Elapsed       float64                       `json:"elapsed_seconds"`
	Rate          float64                       `json:"encounters_per_second"`
	Interval      string                        `json:"interval_method"`
	Command       string                        `json:"command,omitempty"`
	Sets          []string                      `json:"sets,omitempty"`
	Shard         *Shard                        `json:"shard,omitempty"`
	Interrupted   bool                          `json:"interrupted,omitempty"`
	Raw           Raw                           `json:"tally"`
}

// SideResult is one side's record.
type SideResult struct {
	Name          string     `json:"name"`
	Wins          int64      `json:"wins"`
	WinRate       float64    `json:"win_rate"`
	WinCI95       [2]float64 `json:"win_ci95"`
	SurvivorsMean float64    `json:"survivors_mean"`
}

// Rounds summarises regular rounds per encounter.
type Rounds struct {
	Mean float64 `json:"mean"`
	P50  int     `json:"p50"`
	P90  int     `json:"p90"`
	Max  int     `json:"max"`
}

// Initiative reports who acted first.
type Initiative struct {
	FirstActor map[string]float64 `json:"first_actor"`
}

// Shard says which slice of the encounter indices a result covers.
type Shard struct {
	K     int   `json:"k"`
	Of    int   `json:"of"`
	Start int64 `json:"start"`
	N     int64 `json:"n"`
	Total int64 `json:"total"`
}

// Raw is the tally itself: exact integer counts, so shard results merge
// into exactly the single-process result.
type Raw struct {
	Wins       [2]int64 `json:"wins"`
	Draws      int64    `json:"draws"`
	Encounters int64    `json:"encounters"`
	Rounds     []int64  `json:"rounds_hist"`
	RoundsOver int64    `json:"rounds_over"`
	RoundsSum  int64    `json:"rounds_sum"`
	RoundsMax  int64    `json:"rounds_max"`
	Survivors  [2]int64 `json:"survivors"`
	Counters   []string `json:"counters"`
	Counts     []int64  `json:"counts"`
	Roster     []string `json:"roster"`
	FirstActor []int64  `json:"first_actor"`
	NoActor    int64    `json:"no_actor"`
}

// Meta is what the runner knows beyond the tally.
type Meta struct {
	Scenario, File, Ruleset, Version, Command string
	Sides                                     [2]string
	Seed                                      uint64
	Elapsed                                   float64
	Sets                                      []string
	Shard                                     *Shard
	Interrupted                               bool
}

// New builds the result of a run.
func New(m Meta, g sim.Game, t *sim.Tally) *Result {
	roster := g.Roster()
	names := make([]string, len(roster))
	for i, e := range roster {
		names[i] = e.Name
	}
	raw := Raw{
		Wins: t.Wins, Draws: t.Draws, Encounters: t.Encounters,
		Rounds: t.Rounds.Counts, RoundsOver: t.Rounds.Over, RoundsSum: t.Rounds.Sum, RoundsMax: t.Rounds.MaxSeen,
		Survivors: t.Survivors, Counters: g.Counters(), Counts: t.Counts.V,
		Roster: names, FirstActor: t.FirstActor, NoActor: t.NoActor,
	}
	return FromRaw(m, raw)
}

// FromRaw derives every figure of a result from its raw tally.
func FromRaw(m Meta, raw Raw) *Result {
	n := raw.Encounters
	r := &Result{
		Scenario: m.Scenario, File: m.File, Ruleset: m.Ruleset, Seed: m.Seed, Encounters: n,
		Version: m.Version, Draws: raw.Draws, Elapsed: m.Elapsed, Command: m.Command, Sets: m.Sets,
		Shard: m.Shard, Interrupted: m.Interrupted, Raw: raw,
		Interval: "Wilson score interval, 95%",
	}
	if n > 0 {
		r.DrawRate = float64(raw.Draws) / float64(n)
	}
	if m.Elapsed > 0 {
		r.Rate = float64(n) / m.Elapsed
	}
	for s := 0; s < 2; s++ {
		sr := SideResult{Name: m.Sides[s], Wins: raw.Wins[s]}
		ci := stats.Wilson95(raw.Wins[s], n)
		sr.WinCI95 = [2]float64{ci.Lo, ci.Hi}
		if n > 0 {
			sr.WinRate = float64(raw.Wins[s]) / float64(n)
			sr.SurvivorsMean = float64(raw.Survivors[s]) / float64(n)
		}
		r.Sides = append(r.Sides, sr)
	}
	h := raw.hist()
	r.Rounds = Rounds{Mean: h.Mean(), P50: h.Quantile(0.5), P90: h.Quantile(0.9), Max: h.Max()}
	r.ActionEconomy = map[string]map[string]any{}
	r.PerEncounter = map[string]map[string]float64{}
	per := len(raw.Counters)
	for s := 0; s < 2; s++ {
		ae := map[string]any{}
		pe := map[string]float64{}
		for k, name := range raw.Counters {
			v := raw.Counts[s*per+k]
			ae[name] = v
			if n > 0 {
				pe[name] = float64(v) / float64(n)
			}
		}
		if n > 0 {
			ae["damage_dealt_mean"] = float64(raw.Counts[s*per+sim.DamageDealt]) / float64(n)
		} else {
			ae["damage_dealt_mean"] = 0.0
		}
		r.ActionEconomy[m.Sides[s]] = ae
		r.PerEncounter[m.Sides[s]] = pe
	}
	r.Initiative.FirstActor = map[string]float64{}
	for i, name := range raw.Roster {
		if n > 0 {
			r.Initiative.FirstActor[name] = float64(raw.FirstActor[i]) / float64(n)
		}
	}
	return r
}

func (raw Raw) hist() stats.Hist {
	return stats.Hist{Counts: raw.Rounds, Over: raw.RoundsOver, N: raw.Encounters, Sum: raw.RoundsSum, MaxSeen: raw.RoundsMax}
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadFile reads a result written by WriteJSON.
func ReadFile(path string) (*Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a simctl run result: %s; a run result is what simctl run --json (or merge --json) writes", path, jsonProblem(err))
	}
	if len(r.Sides) != 2 || len(r.Raw.Counters) < sim.NumBase || len(r.Raw.Counts) != 2*len(r.Raw.Counters) ||
		len(r.Raw.Roster) == 0 || len(r.Raw.FirstActor) != len(r.Raw.Roster) || len(r.Raw.Rounds) == 0 {
		return nil, fmt.Errorf("%s: not a whole simctl run result: its tally section (the exact counts) is missing or damaged; a run result is what simctl run --json (or merge --json) writes", path)
	}
	return &r, nil
}
