package results

import (
	"encoding/json"
	"fmt"
	"simctl/sim/msg"
	"strconv"
	"strings"

	"simctl/sim"
	"simctl/sim/experiment"
)

// Optimize is the JSON document of `simctl optimize`: the space searched,
// the best candidate with its settings and confirmed win rate, the
// guarantee and how far it reaches, and the whole search.
type Optimize struct {
	Header
	Side      string                     `json:"side"`
	Vary      []Axis                     `json:"vary,omitempty"`
	Options   []NamedSets                `json:"options,omitempty"`
	Where     string                     `json:"where,omitempty"`
	Rules     string                     `json:"rules,omitempty"` // subset, order or both
	Block     string                     `json:"block,omitempty"`
	Traits    []TraitList                `json:"traits,omitempty"` // --traits: each trait on or off
	Best      OptimizeBest               `json:"best"`
	Guarantee OptimizeGuarant            `json:"guarantee"`
	Search    *experiment.OptimizeResult `json:"search,omitempty"`
	// Stage is set by --shard: the part of the selection's next stage
	// this shard played (Header.Shard says which part; relative to the
	// stage), or, after simctl merge, the whole stage, which --resume
	// applies to Search.Selection.State before going on.
	Stage *experiment.StageSums `json:"stage,omitempty"`
	// Oracle is set by --both: the double oracle's answer, with the names
	// of the candidates of each side it mixes.
	Oracle *OptimizeOracle `json:"oracle,omitempty"`
}

// TraitList is one --traits OWNER=NAME,...: the library traits the
// search puts on or off the combatant at Owner (a --set path).
type TraitList struct {
	Owner string   `json:"owner"`
	Names []string `json:"names"`
}

// String is the list as --traits takes it.
func (t TraitList) String() string { return t.Owner + "=" + strings.Join(t.Names, ",") }

// OptimizeBest is the candidate returned.
type OptimizeBest struct {
	Name     string            `json:"name"`
	Settings map[string]string `json:"settings"` // path -> value
	Sets     []string          `json:"sets"`     // the --set overrides that make it
	WinRate  float64           `json:"win_rate"` // on the confirmation's fresh encounters
	CI95     [2]float64        `json:"ci95"`     // simultaneous with the other confirmed intervals
	// Separated is false when the selection ended with candidates not
	// separated from this one (the leader, then, not a proven best).
	Separated bool       `json:"separated"`
	Gain      float64    `json:"gain_over_baseline"`
	GainCI    [2]float64 `json:"gain_ci"`
}

// OptimizeGuarant states what the answer guarantees.
type OptimizeGuarant struct {
	Alpha      float64 `json:"alpha"`
	Delta      float64 `json:"delta"`
	Evaluated  int     `json:"evaluated"`  // the candidates the guarantee covers
	Screened   int     `json:"screened"`   // candidates played while screening (0: none)
	Space      int64   `json:"space"`      // distinct candidates in the space
	Encounters int64   `json:"encounters"` // encounters spent, all games counted
	Uniform    int64   `json:"uniform_encounters"`
	Statement  string  `json:"statement"`
}

// OptimizeOracle is --both's answer in names.
type OptimizeOracle struct {
	RowSide string  `json:"row_side"`
	ColSide string  `json:"col_side"`
	RowMix  []MixOf `json:"row_mix"`
	ColMix  []MixOf `json:"col_mix"`
	// RowSpace and ColSpace are each side's candidates as searched (after
	// merging duplicates); Merged names the duplicates merged.
	RowSpace []string   `json:"row_space,omitempty"`
	ColSpace []string   `json:"col_space,omitempty"`
	Merged   []MergedOf `json:"merged,omitempty"`
	experiment.OracleResult
}

// MergedOf is a candidate of Side dropped as the same scenario as Into.
type MergedOf struct {
	Side string `json:"side"`
	Name string `json:"name"`
	Into string `json:"into"`
}

// MixOf is one candidate in an equilibrium mix.
type MixOf struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
}

// GuaranteeText is the plain statement of what an optimize answer covers.
func GuaranteeText(alpha, delta float64, evaluated, screened int, space int64, separated bool) string {
	s := fmt.Sprintf("with probability at least %s the best found is within %s of the best of the %d candidate(s) evaluated",
		strconv.FormatFloat(100*(1-alpha), 'f', -1, 64)+"%", strings.TrimPrefix(signedPP(delta), "+"), evaluated)
	if !separated {
		s = fmt.Sprintf("the budget ended before a decision: with probability at least %s the candidates not separated hold the best of the %d evaluated, and none is called best (the one shown is the leader)",
			strconv.FormatFloat(100*(1-alpha), 'f', -1, 64)+"%", evaluated)
	}
	if int64(evaluated) >= space {
		return s + fmt.Sprintf(" (the whole space: %d)", space)
	}
	s += fmt.Sprintf("; the space holds %d: screening (successive halving over %d of them, then the survivors' neighbours) chose which to evaluate, and candidates never evaluated are not covered", space, screened)
	return s
}

func parseOptimize(path string, data []byte) (*Optimize, error) {
	var o Optimize
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, msg.Errorf("%s: a damaged simctl optimize document: %s", path, jsonProblem(err))
	}
	if o.Search == nil && o.Oracle == nil {
		return nil, msg.Errorf("%s: an optimize document with neither a search nor a double oracle; the file is damaged", path)
	}
	if err := checkHeader(&o.Header); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	return &o, nil
}

// MergeOptimizeStages adds the shards of one stage of a search (the JSON
// of simctl optimize --shard k/K, all from the same state) into the whole
// stage: the document --resume goes on from. Every shard of the stage
// must be there, once.
func MergeOptimizeStages(os []*Optimize) (*Optimize, error) {
	first := os[0]
	// The state the stage starts from: screening's (a rung) or the
	// selection's; every shard must hold the same.
	state := func(o *Optimize) any {
		switch {
		case o.Stage == nil || o.Search == nil:
			return nil
		case o.Search.Screening != nil:
			return o.Search.Screening
		case o.Search.Selection != nil && o.Search.Selection.State != nil:
			return o.Search.Selection.State
		}
		return nil
	}
	if state(first) == nil {
		return nil, msg.Errorf("merge: %s is not a shard of a search stage (simctl optimize --shard k/K writes those)", first.Scenario)
	}
	want, _ := json.Marshal(state(first))
	// Each shard's part is checked against the stage before it is added:
	// its place (k/K of the stage's n encounters, as --shard splits them)
	// and its sums (wins and discordant counts within its encounters), so
	// the merged sums cannot overflow or count a part twice.
	var start, n int64
	var alive []int
	if sc := first.Search.Screening; sc != nil {
		start, n, alive = sc.NextRung()
	} else {
		start, n, alive = first.Search.Selection.State.NextStage()
	}
	for i, o := range os {
		if err := stagePartConsistent(o, start, n, len(alive)); err != nil {
			return nil, msg.Errorf("merge: shard %d of %d: %v; the file is damaged or was edited", i+1, len(os), err)
		}
	}
	out := *first
	stage := *first.Stage
	stage.Ranges = append([]sim.Range(nil), first.Stage.Ranges...)
	stage.Wins = append([]int64(nil), first.Stage.Wins...)
	stage.Only = append([][2]int64(nil), first.Stage.Only...)
	for _, o := range os[1:] {
		if state(o) == nil {
			return nil, msg.Errorf("merge: a document that is not a shard of a search stage is among the shards")
		}
		got, _ := json.Marshal(state(o))
		switch {
		case o.ScenarioSHA256 != first.ScenarioSHA256 || o.Seed != first.Seed || o.Version != first.Version || fmt.Sprint(o.Sets) != fmt.Sprint(first.Sets):
			return nil, msg.Errorf("merge: shards of different searches (scenario, seed, simctl version or --set differ)")
		case o.Side != first.Side || fmt.Sprint(o.Vary) != fmt.Sprint(first.Vary) || fmt.Sprint(o.Options) != fmt.Sprint(first.Options) || o.Where != first.Where || o.Rules != first.Rules || o.Block != first.Block || fmt.Sprint(o.Traits) != fmt.Sprint(first.Traits):
			return nil, msg.Errorf("merge: shards of searches over different spaces")
		case string(got) != string(want):
			return nil, msg.Errorf("merge: shards of different stages (each must start from the same --resume state)")
		}
		if err := stage.Merge(o.Stage); err != nil {
			return nil, msg.Errorf("merge: %v (is a shard given twice?)", err)
		}
	}
	if len(stage.Ranges) != 1 || stage.Ranges[0] != (sim.Range{Lo: start, Hi: start + n}) {
		return nil, msg.Errorf("merge: the shards cover encounters %v of the stage's %d..%d; a shard is missing", stage.Ranges, start, start+n-1)
	}
	out.Stage, out.Shard = &stage, nil
	return &out, nil
}

// stagePartConsistent checks one shard's part of the stage of n
// encounters from start, for m survivors.
func stagePartConsistent(o *Optimize, start, n int64, m int) error {
	sh, st := o.Shard, o.Stage
	if sh == nil || sh.Of < 1 || sh.K < 0 || sh.K >= sh.Of || sh.Total != n {
		return msg.Errorf("its shard is not k/K of the stage's %d encounters", n)
	}
	k, of := int64(sh.K), int64(sh.Of)
	first := k*(n/of) + k*(n%of)/of
	next := (k+1)*(n/of) + (k+1)*(n%of)/of
	if sh.Start != first || sh.N != next-first || len(st.Ranges) != 1 || st.Ranges[0] != (sim.Range{Lo: start + first, Hi: start + next}) {
		return msg.Errorf("it covers encounters %v, not part %d/%d of the stage", st.Ranges, sh.K, sh.Of)
	}
	if len(st.Alive) != m || len(st.Wins) != m || (len(st.Only) != 0 && len(st.Only) != m*(m-1)/2) {
		return msg.Errorf("its sums are not of the stage's %d survivors", m)
	}
	for _, w := range st.Wins {
		if w < 0 || w > sh.N {
			return msg.Errorf("%d wins in its %d encounters", w, sh.N)
		}
	}
	for _, p := range st.Only {
		if p[0] < 0 || p[1] < 0 || p[0] > sh.N || p[1] > sh.N-p[0] {
			return msg.Errorf("discordant counts %v in its %d encounters", p, sh.N)
		}
	}
	return nil
}
