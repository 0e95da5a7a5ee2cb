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
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"simctl/internal/safeio"

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

	// The scenario as run and its SHA-256 (reliability): report shows
	// this text and merge compares the sums; neither opens File.
	ScenarioSHA256 string `json:"scenario_sha256,omitempty"`
	ScenarioText   string `json:"scenario_text,omitempty"`
	// Incomplete is set on a merge missing shards (--allow-partial).
	Incomplete bool `json:"incomplete,omitempty"`
	// Unplayed lists, on an interrupted run, the encounter index ranges
	// [lo, hi) it did not play: simctl run --resume plays exactly those.
	Unplayed [][2]int64 `json:"unplayed,omitempty"`
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
	// The scenario text and its sum (ScenarioSum); Text may be left out
	// of a sweep's point results, which share the sweep's.
	ScenarioSHA256, ScenarioText string
	Incomplete                   bool
	Unplayed                     [][2]int64
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
	r.ScenarioSHA256, r.ScenarioText, r.Incomplete, r.Unplayed = m.ScenarioSHA256, m.ScenarioText, m.Incomplete, m.Unplayed
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

// Tally rebuilds the exact tally a result was made from (a resumed sweep
// reuses its finished points). The result must have passed check (every
// result read from a file has).
func (r *Result) Tally() *sim.Tally {
	raw := r.Raw
	return &sim.Tally{
		Encounters: raw.Encounters, Wins: raw.Wins, Draws: raw.Draws,
		Rounds:    stats.Hist{Counts: slices.Clone(raw.Rounds), Over: raw.RoundsOver, N: raw.Encounters, Sum: raw.RoundsSum, MaxSeen: raw.RoundsMax},
		Survivors: raw.Survivors, Counts: sim.Counts{N: len(raw.Counters), V: slices.Clone(raw.Counts)},
		FirstActor: slices.Clone(raw.FirstActor), NoActor: raw.NoActor,
	}
}

// ScenarioSum is the hex SHA-256 of a scenario's text, which results
// carry so that merge tells an edited scenario from the original.
func ScenarioSum(text []byte) string {
	h := sha256.Sum256(text)
	return hex.EncodeToString(h[:])
}

// ReadFile reads a result written by WriteJSON.
func ReadFile(path string) (*Result, error) {
	return ReadFileContext(context.Background(), path)
}

// ReadFileContext reads a result written by WriteJSON, at most
// safeio.MaxResultBytes, stopping when ctx is cancelled.
func ReadFileContext(ctx context.Context, path string) (*Result, error) {
	data, err := safeio.ReadFile(ctx, path, safeio.MaxResultBytes, "result")
	if err != nil {
		return nil, err
	}
	return parseResult(path, data)
}

func parseResult(path string, data []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a simctl result: %v", path, err)
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

// check refuses a result whose tally cannot be right: sections missing or
// of the wrong size, negative counts, or counts that do not add up (a
// tampered or damaged file), saying what is wrong.
func (r *Result) check() error {
	raw := &r.Raw
	if len(r.Sides) != 2 || len(raw.Counters) < sim.NumBase || len(raw.Counts) != 2*len(raw.Counters) ||
		len(raw.Roster) == 0 || len(raw.FirstActor) != len(raw.Roster) || len(raw.Rounds) == 0 {
		return fmt.Errorf("the tally section is missing or damaged; merge needs results written by simctl run --json")
	}
	n := raw.Encounters
	neg := func(v int64) bool { return v < 0 }
	if neg(n) || neg(raw.Wins[0]) || neg(raw.Wins[1]) || neg(raw.Draws) || neg(raw.RoundsOver) || neg(raw.RoundsSum) ||
		neg(raw.RoundsMax) || neg(raw.Survivors[0]) || neg(raw.Survivors[1]) || neg(raw.NoActor) ||
		slices.ContainsFunc(raw.Rounds, neg) || slices.ContainsFunc(raw.FirstActor, neg) || slices.ContainsFunc(raw.Counts, neg) {
		return fmt.Errorf("the tally has a negative count; the file is damaged")
	}
	if raw.Wins[0]+raw.Wins[1]+raw.Draws != n {
		return fmt.Errorf("the tally's wins (%d + %d) and draws (%d) do not add up to its %d encounters; the file is damaged",
			raw.Wins[0], raw.Wins[1], raw.Draws, n)
	}
	if r.Encounters != n {
		return fmt.Errorf("encounters %d differs from the tally's %d; the file is damaged", r.Encounters, n)
	}
	var hist int64
	for _, v := range raw.Rounds {
		hist += v
	}
	if hist+raw.RoundsOver != n {
		return fmt.Errorf("the tally's rounds histogram counts %d encounters, not %d; the file is damaged", hist+raw.RoundsOver, n)
	}
	var first int64
	for _, v := range raw.FirstActor {
		first += v
	}
	if first+raw.NoActor != n {
		return fmt.Errorf("the tally's first actors count %d encounters, not %d; the file is damaged", first+raw.NoActor, n)
	}
	if s := r.Shard; s != nil {
		if s.Of < 1 || s.K < 0 || s.K >= s.Of || s.Start < 0 || s.N < 0 || s.Total < 1 || s.Start > s.Total || s.N > s.Total-s.Start {
			return fmt.Errorf("shard %d/%d covering encounters %d to %d of %d is out of range; the file is damaged",
				s.K, s.Of, s.Start, s.Start+s.N-1, s.Total)
		}
		if n > s.N {
			return fmt.Errorf("shard %d/%d has %d encounters but covers only %d; the file is damaged", s.K, s.Of, n, s.N)
		}
	}
	if r.ScenarioText != "" && ScenarioSum([]byte(r.ScenarioText)) != r.ScenarioSHA256 {
		return fmt.Errorf("scenario_sha256 is not the SHA-256 of scenario_text; the file was edited")
	}
	return nil
}
