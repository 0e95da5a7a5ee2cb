// Package results holds the documents simctl writes and reads back, and
// nothing that draws: the JSON result of a run (the contract other tools
// parse; result.go) and the sweep, compare, value, matrix, tournament and
// optimize documents (sweep.go, compare.go, value.go, documents.go,
// optimize.go), their encoding and the checks that refuse a damaged or
// edited file on reading (result.go, analysis_io.go, input.go, jsonerr.go),
// the exact merge of shards (merge.go, merge_check.go) and the tallies a
// --resume goes on from (Result.Tally). simctl merge and the application
// layer (cmd/simctl/app) need only this; tables, figures and the report
// bundle are package reports, which imports this one (never the other
// way: results imports no plotting, font, image or HTML code, which
// sim/imports_test.go checks). Package safeio beside it reads the files.
//
// Concurrency: a document is plain data, built by one goroutine after the
// workers have finished and not safe for concurrent mutation; reading and
// merging share nothing between calls, so distinct documents may be read,
// checked and merged on different goroutines at once, and a document no
// one mutates may be read (encoded, rendered) by several.
package results

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"simctl/sim/msg"
	"slices"
	"strings"

	"simctl/reports/safeio"

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
	DrawCauses    DrawCauses                    `json:"draw_causes"`
	Rounds        Rounds                        `json:"rounds"`
	ActionEconomy map[string]map[string]any     `json:"action_economy"`
	PerEncounter  map[string]map[string]float64 `json:"action_economy_per_encounter"`
	// EconomyCI95 is the 95% interval of each per-encounter mean (normal,
	// from the exact sums of squares in the tally); absent from results
	// that lack those sums, and with fewer than two encounters.
	EconomyCI95 map[string]map[string][2]float64 `json:"action_economy_per_encounter_ci95,omitempty"`
	Initiative  Initiative                       `json:"initiative"`
	Combatants  []CombatantResult                `json:"combatants"`
	Groups      []CombatantResult                `json:"groups"`
	Elapsed     float64                          `json:"elapsed_seconds"`
	Rate        float64                          `json:"encounters_per_second"`
	Interval    string                           `json:"interval_method"`
	Command     string                           `json:"command,omitempty"`
	Sets        []string                         `json:"sets,omitempty"`
	Shard       *Shard                           `json:"shard,omitempty"`
	Interrupted bool                             `json:"interrupted,omitempty"`
	Raw         Raw                              `json:"tally"`

	// The scenario as run and its SHA-256 (reliability): report shows
	// this text and merge compares the sums; neither opens File.
	ScenarioSHA256 string `json:"scenario_sha256,omitempty"`
	ScenarioText   string `json:"scenario_text,omitempty"`
	// Incomplete is set on a merge missing shards (--allow-partial).
	Incomplete bool `json:"incomplete,omitempty"`
	// Unplayed lists, on an interrupted run, the encounter index ranges
	// [lo, hi) it did not play: simctl run --resume plays exactly those.
	Unplayed [][2]int64 `json:"unplayed,omitempty"`
	// ResumeDigest, on an interrupted run, is a keyed SHA-256 over what
	// --resume trusts (unplayed, encounters, tally): a resume refuses a
	// file edited or damaged since (TrustedDigest, resume.go).
	ResumeDigest string `json:"resume_digest,omitempty"`
}

// SideResult is one side's record.
type SideResult struct {
	Name          string     `json:"name"`
	Wins          int64      `json:"wins"`
	WinRate       float64    `json:"win_rate"`
	WinCI95       [2]float64 `json:"win_ci95"`
	SurvivorsMean float64    `json:"survivors_mean"`
	// AnyDeathRate is the share of encounters in which at least one of the
	// side's combatants ended down (dead, dying, unconscious), with its
	// Wilson interval; fled or routed combatants are not deaths.
	AnyDeathRate float64    `json:"any_death_rate"`
	AnyDeathCI95 [2]float64 `json:"any_death_ci95"`
	// DamageDealt is the distribution of the damage the side dealt per
	// encounter; HPLeftWhenWon that of the hit points its standing
	// combatants had left in the encounters it won ("how close was it").
	DamageDealt   Dist `json:"damage_dealt"`
	HPLeftWhenWon Dist `json:"hp_left_when_won"`
}

// Dist summarises an exact per-encounter distribution (its counts are in
// the tally section).
type Dist struct {
	N    int64   `json:"n"`
	Mean float64 `json:"mean"`
	P10  int     `json:"p10"`
	P50  int     `json:"p50"`
	P90  int     `json:"p90"`
	Max  int     `json:"max"`
}

// DrawCauses splits the draws by why they ended.
type DrawCauses struct {
	MaxRounds int64 `json:"max_rounds"` // max_rounds reached with both sides fighting
	AllGone   int64 `json:"all_gone"`   // nobody left fighting on either side (fled, routed, fell together)
}

// CombatantResult is one combatant's record, or a copy group's (Hobgoblin
// for Hobgoblin#1..#5: every figure is the mean per copy, so a group reads
// like one of its members). Rates and means are over the encounters whose
// end states were recorded.
type CombatantResult struct {
	Name   string `json:"name"`
	Side   string `json:"side"`
	Copies int    `json:"copies"`
	// DeathRate: ended down (dead, dying, unconscious); OutRate: ended out
	// of the fight for any reason (down, fled, routed).
	DeathRate       float64 `json:"death_rate"`
	OutRate         float64 `json:"out_rate"`
	DamageDealtMean float64 `json:"damage_dealt_mean"`
	DamageTakenMean float64 `json:"damage_taken_mean"`
	KillsMean       float64 `json:"kills_mean"`
	TurnsMean       float64 `json:"turns_mean"`
	ActionsLostMean float64 `json:"actions_lost_mean"`
	// HPLeftWhenWon is the mean of its hit points at the end of the
	// encounters its side won (0 when it ended down or out).
	HPLeftWhenWon float64 `json:"hp_left_when_won"`
	// FirstActor and FirstInOrder: shares of encounters in which it (a
	// member of the group) was the first to act, first in the order.
	FirstActor   float64 `json:"first_actor"`
	FirstInOrder float64 `json:"first_in_order"`
}

// Rounds summarises regular rounds per encounter.
type Rounds struct {
	Mean float64 `json:"mean"`
	P50  int     `json:"p50"`
	P90  int     `json:"p90"`
	Max  int     `json:"max"`
}

// Initiative reports who came first: the first to take an action (a
// delay or a ready is not an action; the delayed or readied action is), and
// the first in the initiative order of the first round anyone had a turn.
// The side maps are keyed by side name; None* are the shares of
// encounters in which nobody acted / nobody had a turn.
type Initiative struct {
	FirstActor       map[string]float64 `json:"first_actor"`
	FirstInOrder     map[string]float64 `json:"first_in_order"`
	FirstActorSide   map[string]float64 `json:"first_actor_side"`
	FirstInOrderSide map[string]float64 `json:"first_in_order_side"`
	NoActor          float64            `json:"nobody_acted"`
	NoOrder          float64            `json:"nobody_had_a_turn"`
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

	// Fields below are absent from results written before they existed;
	// such results still render and merge with each other (the figures
	// built on these fields are then left out).
	RosterSides    []int           `json:"roster_sides,omitempty"`
	DrawsMaxRounds int64           `json:"draws_max_rounds"`
	DrawsAllGone   int64           `json:"draws_all_gone"`
	FirstInOrder   []int64         `json:"first_in_order,omitempty"`
	NoOrder        int64           `json:"no_order"`
	Ended          int64           `json:"ended"`
	Combatants     []sim.Combatant `json:"combatants,omitempty"`
	AnyDown        [2]int64        `json:"any_down"`
	Damage         [2]HistRaw      `json:"damage_hist"`
	WinnerHP       [2]HistRaw      `json:"winner_hp_hist"`
	// Tactics counts the rules of tactics: blocks (tactics.go; shown by
	// reports' tactics table).
	Tactics []RuleCount `json:"tactics_rules,omitempty"`
	// Traits counts the traits and house rules (tactics.go; absent when
	// the scenario has none, so results without traits are unchanged).
	Traits []TraitCount `json:"traits,omitempty"`
	// CountsSq is, per entry of Counts, the sum over encounters of the
	// encounter's own count squared (sim.Tally.CountsSq): the intervals
	// of the action-economy means come from it.
	CountsSq []int64 `json:"counts_sq,omitempty"`
}

// HistRaw is an exact histogram (stats.Hist) as JSON: Counts[v] for v in
// 0..Cap, trimmed after the last non-zero bin (the rest are zeros).
type HistRaw struct {
	Cap    int     `json:"cap"`
	Counts []int64 `json:"counts"`
	Over   int64   `json:"over"`
	N      int64   `json:"n"`
	Sum    int64   `json:"sum"`
	Max    int64   `json:"max"`
}

// NewHistRaw records a histogram exactly, trimmed after its last non-zero
// bin.
func NewHistRaw(h *stats.Hist) HistRaw {
	k := len(h.Counts)
	for k > 0 && h.Counts[k-1] == 0 {
		k--
	}
	return HistRaw{Cap: h.Cap(), Counts: append([]int64{}, h.Counts[:k]...), Over: h.Over, N: h.N, Sum: h.Sum, Max: h.MaxSeen}
}

// Hist restores the histogram.
func (r HistRaw) Hist() stats.Hist {
	h := stats.NewHist(max(r.Cap, len(r.Counts)-1, 0))
	copy(h.Counts, r.Counts)
	h.Over, h.N, h.Sum, h.MaxSeen = r.Over, r.N, r.Sum, r.Max
	return h
}

// add adds o into r exactly; the caps must agree (checked by Merge).
func (r *HistRaw) add(o HistRaw) {
	if len(o.Counts) > len(r.Counts) {
		r.Counts = append(r.Counts, make([]int64, len(o.Counts)-len(r.Counts))...)
	}
	for i, v := range o.Counts {
		r.Counts[i] += v
	}
	r.Over += o.Over
	r.N += o.N
	r.Sum += o.Sum
	r.Max = max(r.Max, o.Max)
}

func dist(h stats.Hist) Dist {
	return Dist{N: h.N, Mean: h.Mean(), P10: h.Quantile(0.1), P50: h.Quantile(0.5), P90: h.Quantile(0.9), Max: h.Max()}
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
	sides := make([]int, len(roster))
	for i, e := range roster {
		names[i], sides[i] = e.Name, e.Side
	}
	raw := Raw{
		Wins: t.Wins, Draws: t.Draws, Encounters: t.Encounters,
		Rounds: t.Rounds.Counts, RoundsOver: t.Rounds.Over, RoundsSum: t.Rounds.Sum, RoundsMax: t.Rounds.MaxSeen,
		Survivors: t.Survivors, Counters: g.Counters(), Counts: t.Counts.Sides,
		Roster: names, FirstActor: t.FirstActor, NoActor: t.NoActor,
		Tactics:     ruleCounts(g, t),
		Traits:      traitCounts(g, t),
		RosterSides: sides, DrawsMaxRounds: t.MaxRoundsDraws, DrawsAllGone: t.AllGoneDraws,
		FirstInOrder: t.FirstInOrder, NoOrder: t.NoOrder, Ended: t.Ended, Combatants: t.Counts.Combatants,
		AnyDown: t.AnyDown, CountsSq: t.CountsSq,
	}
	for s := 0; s < 2; s++ {
		raw.Damage[s] = NewHistRaw(&t.Damage[s])
		raw.WinnerHP[s] = NewHistRaw(&t.WinnerHP[s])
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
	h := raw.RoundsHist()
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
		if len(raw.CountsSq) == len(raw.Counts) && n >= 2 {
			if r.EconomyCI95 == nil {
				r.EconomyCI95 = map[string]map[string][2]float64{}
			}
			ci := map[string][2]float64{}
			z := stats.Z(0.95)
			for k, name := range raw.Counters {
				i := s*per + k
				mean := stats.Mean{N: n, Sum: raw.Counts[i], SumSq: raw.CountsSq[i]}
				h := z * mean.SE()
				ci[name] = [2]float64{mean.Value() - h, mean.Value() + h}
			}
			r.EconomyCI95[m.Sides[s]] = ci
		}
	}
	r.DrawCauses = DrawCauses{MaxRounds: raw.DrawsMaxRounds, AllGone: raw.DrawsAllGone}
	r.initiative(m, raw)
	r.combatants(m, raw)
	return r
}

func (r *Result) initiative(m Meta, raw Raw) {
	n := raw.Encounters
	in := &r.Initiative
	in.FirstActor = map[string]float64{}
	in.NoActor = frac(raw.NoActor, n)
	for i, name := range raw.Roster {
		if n > 0 {
			in.FirstActor[name] = frac(raw.FirstActor[i], n)
		}
	}
	if len(raw.FirstInOrder) == len(raw.Roster) {
		in.FirstInOrder = map[string]float64{}
		in.NoOrder = frac(raw.NoOrder, n)
		for i, name := range raw.Roster {
			if n > 0 {
				in.FirstInOrder[name] = frac(raw.FirstInOrder[i], n)
			}
		}
	}
	if len(raw.RosterSides) != len(raw.Roster) {
		return
	}
	var actor, order [2]int64
	for i, s := range raw.RosterSides {
		actor[s] += raw.FirstActor[i]
		if in.FirstInOrder != nil {
			order[s] += raw.FirstInOrder[i]
		}
	}
	in.FirstActorSide = map[string]float64{}
	for s := 0; s < 2; s++ {
		in.FirstActorSide[m.Sides[s]] = frac(actor[s], n)
	}
	if in.FirstInOrder != nil {
		in.FirstInOrderSide = map[string]float64{}
		for s := 0; s < 2; s++ {
			in.FirstInOrderSide[m.Sides[s]] = frac(order[s], n)
		}
	}
}

// combatants derives the per-combatant and per-group records and the
// sides' death rates and distributions.
func (r *Result) combatants(m Meta, raw Raw) {
	if len(raw.Combatants) != len(raw.Roster) || len(raw.RosterSides) != len(raw.Roster) {
		return
	}
	e := raw.Ended
	for s := 0; s < 2; s++ {
		sr := &r.Sides[s]
		sr.AnyDeathRate = frac(raw.AnyDown[s], e)
		ci := stats.Wilson95(raw.AnyDown[s], e)
		sr.AnyDeathCI95 = [2]float64{ci.Lo, ci.Hi}
		sr.DamageDealt = dist(raw.Damage[s].Hist())
		sr.HPLeftWhenWon = dist(raw.WinnerHP[s].Hist())
	}
	rec := func(name string, side int, members []int) CombatantResult {
		var c sim.Combatant
		var fa, fo int64
		for _, i := range members {
			c.Add(&raw.Combatants[i])
			fa += raw.FirstActor[i]
			if len(raw.FirstInOrder) == len(raw.Roster) {
				fo += raw.FirstInOrder[i]
			}
		}
		k := int64(len(members))
		return CombatantResult{
			Name: name, Side: m.Sides[side], Copies: len(members),
			DeathRate:       frac(c.EndedDown, k*e),
			OutRate:         frac(c.EndedDown+c.EndedGone, k*e),
			DamageDealtMean: frac(c.DamageDealt, k*e),
			DamageTakenMean: frac(c.DamageTaken, k*e),
			KillsMean:       frac(c.Kills, k*e),
			TurnsMean:       frac(c.Turns, k*e),
			ActionsLostMean: frac(c.ActionsLost, k*e),
			HPLeftWhenWon:   frac(c.HPLeftWin, k*raw.WinnerHP[side].N),
			FirstActor:      frac(fa, raw.Encounters),
			FirstInOrder:    frac(fo, raw.Encounters),
		}
	}
	r.Combatants = []CombatantResult{}
	for i, name := range raw.Roster {
		r.Combatants = append(r.Combatants, rec(name, raw.RosterSides[i], []int{i}))
	}
	r.Groups = []CombatantResult{}
	for _, g := range Groups(raw.Roster, raw.RosterSides) {
		r.Groups = append(r.Groups, rec(g.Name, g.Side, g.Members))
	}
}

// Group is a combatant and its copies (Groups).
type Group struct {
	Name    string
	Side    int
	Members []int // roster indices
}

// Groups gathers copies ("Hobgoblin#1".."#5" are "Hobgoblin") in roster
// order of their first member; a combatant without copies is its own
// group.
func Groups(roster []string, sides []int) []Group {
	var out []Group
	at := map[string]int{}
	for i, name := range roster {
		base := name
		if k := strings.LastIndexByte(name, '#'); k > 0 && isDigits(name[k+1:]) {
			base = name[:k]
		}
		key := fmt.Sprint(sides[i], "\x00", base)
		if j, ok := at[key]; ok {
			out[j].Members = append(out[j].Members, i)
			continue
		}
		at[key] = len(out)
		out = append(out, Group{Name: base, Side: sides[i], Members: []int{i}})
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RoundsHist is the histogram of regular rounds per encounter.
func (raw Raw) RoundsHist() stats.Hist {
	return stats.Hist{Counts: raw.Rounds, Over: raw.RoundsOver, N: raw.Encounters, Sum: raw.RoundsSum, MaxSeen: raw.RoundsMax}
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Tally rebuilds the exact tally a result of game g was made from (a
// resumed run or sweep goes on from it), every count and histogram. The
// result must have passed check (every result read from a file has) and
// come from g (the caller checked the scenario's hash).
func (r *Result) Tally(g sim.Game) *sim.Tally {
	raw := r.Raw
	t := sim.NewTally(g)
	t.Encounters, t.Wins, t.Draws = raw.Encounters, raw.Wins, raw.Draws
	t.MaxRoundsDraws, t.AllGoneDraws = raw.DrawsMaxRounds, raw.DrawsAllGone
	t.Rounds = stats.Hist{Counts: slices.Clone(raw.Rounds), Over: raw.RoundsOver, N: raw.Encounters, Sum: raw.RoundsSum, MaxSeen: raw.RoundsMax}
	t.Survivors = raw.Survivors
	// The side counters go in through Merge, which keeps the tally's
	// record of what its finished encounters counted (for CountsSq).
	counts := sim.NewTally(g)
	copy(counts.Counts.Sides, raw.Counts)
	copy(counts.CountsSq, raw.CountsSq)
	t.Merge(counts)
	copy(t.Counts.Combatants, raw.Combatants)
	restoreRules(g, t, raw)
	copy(t.FirstActor, raw.FirstActor)
	t.NoActor = raw.NoActor
	copy(t.FirstInOrder, raw.FirstInOrder)
	t.NoOrder, t.Ended, t.AnyDown = raw.NoOrder, raw.Ended, raw.AnyDown
	for s := 0; s < 2; s++ {
		if raw.Damage[s].Cap > 0 {
			t.Damage[s] = raw.Damage[s].Hist()
		}
		if raw.WinnerHP[s].Cap > 0 {
			t.WinnerHP[s] = raw.WinnerHP[s].Hist()
		}
	}
	return t
}

// restoreRules puts a result's tactics and trait counts back at their
// indices in Counts.Rules (tactics counters first, then each trait's
// "fired" and "added").
func restoreRules(g sim.Game, t *sim.Tally, raw Raw) {
	rg, ok := g.(sim.RuleGame)
	if !ok {
		return
	}
	ti, tr := 0, 0
	for k, rc := range rg.RuleCounters() {
		if k >= len(t.Counts.Rules) {
			return
		}
		switch {
		case !rc.Trait:
			if ti < len(raw.Tactics) {
				t.Counts.Rules[k] = raw.Tactics[ti].Count
			}
			ti++
		case rc.Event == "fired":
			if tr < len(raw.Traits) {
				t.Counts.Rules[k] = raw.Traits[tr].Fired
			}
		default:
			if tr < len(raw.Traits) {
				t.Counts.Rules[k] = raw.Traits[tr].Added
			}
			tr++
		}
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
		return nil, msg.Errorf("%s: not a simctl run result: %s; a run result is what simctl run --json (or merge --json) writes", path, jsonProblem(err))
	}
	if err := r.check(); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

// lenZeroOr: a field that older results lack is empty; present, it has
// one entry per combatant.
func lenZeroOr(got, want int) bool { return got == 0 || got == want }

func sidesValid(sides []int) bool {
	for _, s := range sides {
		if s != 0 && s != 1 {
			return false
		}
	}
	return true
}

// check refuses a result whose tally cannot be right: sections missing or
// of the wrong size, negative counts, or counts that do not add up (a
// tampered or damaged file), saying what is wrong.
func (r *Result) check() error {
	raw := &r.Raw
	if len(r.Sides) != 2 || len(raw.Counters) < sim.NumBase || len(raw.Counts) != 2*len(raw.Counters) ||
		len(raw.Roster) == 0 || len(raw.FirstActor) != len(raw.Roster) || len(raw.Rounds) == 0 ||
		!lenZeroOr(len(raw.FirstInOrder), len(raw.Roster)) || !lenZeroOr(len(raw.RosterSides), len(raw.Roster)) ||
		!lenZeroOr(len(raw.Combatants), len(raw.Roster)) || !sidesValid(raw.RosterSides) || !lenZeroOr(len(raw.CountsSq), len(raw.Counts)) {
		return msg.Errorf("not a whole simctl run result: its tally section (the exact counts) is missing or damaged; a run result is what simctl run --json (or merge --json) writes")
	}
	n := raw.Encounters
	neg := func(v int64) bool { return v < 0 }
	if neg(n) || neg(raw.Wins[0]) || neg(raw.Wins[1]) || neg(raw.Draws) || neg(raw.RoundsOver) || neg(raw.RoundsSum) ||
		neg(raw.RoundsMax) || neg(raw.Survivors[0]) || neg(raw.Survivors[1]) || neg(raw.NoActor) ||
		slices.ContainsFunc(raw.Rounds, neg) || slices.ContainsFunc(raw.FirstActor, neg) || slices.ContainsFunc(raw.Counts, neg) {
		return msg.Errorf("the tally has a negative count; the file is damaged")
	}
	for i, sq := range raw.CountsSq {
		// Whole-number counts: each encounter's square is at least its count.
		if sq < raw.Counts[i] {
			return msg.Errorf("the tally's sum of squares of %s (%d) is below its sum (%d); the file is damaged", raw.Counters[i%len(raw.Counters)], sq, raw.Counts[i])
		}
	}
	if raw.Wins[0]+raw.Wins[1]+raw.Draws != n {
		return msg.Errorf("the tally's wins (%d + %d) and draws (%d) do not add up to its %d encounters; the file is damaged",
			raw.Wins[0], raw.Wins[1], raw.Draws, n)
	}
	if r.Encounters != n {
		return msg.Errorf("encounters %d differs from the tally's %d; the file is damaged", r.Encounters, n)
	}
	var hist int64
	for _, v := range raw.Rounds {
		hist += v
	}
	if hist+raw.RoundsOver != n {
		return msg.Errorf("the tally's rounds histogram counts %d encounters, not %d; the file is damaged", hist+raw.RoundsOver, n)
	}
	var first int64
	for _, v := range raw.FirstActor {
		first += v
	}
	if first+raw.NoActor != n {
		return msg.Errorf("the tally's first actors count %d encounters, not %d; the file is damaged", first+raw.NoActor, n)
	}
	if s := r.Shard; s != nil {
		if s.Of < 1 || s.K < 0 || s.K >= s.Of || s.Start < 0 || s.N < 0 || s.Total < 1 || s.Start > s.Total || s.N > s.Total-s.Start {
			return msg.Errorf("shard %d/%d covering encounters %d to %d of %d is out of range; the file is damaged",
				s.K, s.Of, s.Start, s.Start+s.N-1, s.Total)
		}
		if n > s.N {
			return msg.Errorf("shard %d/%d has %d encounters but covers only %d; the file is damaged", s.K, s.Of, n, s.N)
		}
	}
	if r.ScenarioText != "" && ScenarioSum([]byte(r.ScenarioText)) != r.ScenarioSHA256 {
		return msg.Errorf("scenario_sha256 is not the SHA-256 of scenario_text; the file was edited")
	}
	// A distribution is restored with a bin per value up to its cap
	// (HistRaw.Hist): a forged cap of 10^11 asked 800 GB of a 15 kB file.
	for s := 0; s < 2; s++ {
		for _, h := range []struct {
			name string
			h    *HistRaw
		}{{"damage_hist", &raw.Damage[s]}, {"winner_hp_hist", &raw.WinnerHP[s]}} {
			if h.h.Cap < 0 || h.h.Cap > MaxHistCap || len(h.h.Counts) > h.h.Cap+1 {
				return msg.Errorf("%s of side %d has %d bins and a cap of %d; simctl writes a cap from 0 to %d and no more bins: the file is damaged", h.name, s, len(h.h.Counts), h.h.Cap, MaxHistCap)
			}
		}
	}
	return nil
}

// MaxHistCap bounds a distribution's cap in a document read (simctl
// writes sim.DistCap, 1,000).
const MaxHistCap = 1 << 16
