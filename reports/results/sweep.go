package results

import (
	"fmt"
	"math"
	"simctl/sim/msg"
	"slices"
	"strconv"
	"strings"
)

// Axis is one varied scenario path of a sweep and the values it takes, in
// order. Values are YAML, exactly as they are passed to --set PATH=VALUE.
type Axis struct {
	Path   string   `json:"path"`
	Spec   string   `json:"spec"` // the RANGE as written: a:b:step or v1,v2,...
	Values []string `json:"values"`
}

// Limits that keep a typo in a range from asking for a million points.
const (
	MaxAxisValues  = 1000
	MaxSweepPoints = 10000
)

// ParseVary reads `PATH=RANGE`: RANGE is `a:b:step` (numbers; step 1 when
// omitted; b included when the steps land on it; a negative step counts
// down) or a comma-separated list of YAML values (`default,delay` or
// `1d6,1d8,2d6`; commas inside [...] and {...} do not split).
func ParseVary(s string) (Axis, error) {
	i := strings.IndexByte(s, '=')
	if i <= 0 || i == len(s)-1 {
		return Axis{}, msg.Errorf("--vary %q: expected PATH=RANGE, e.g. heroes.Fighter.init=-2:6:2 or heroes.Fighter.damage=1d6,1d8", s)
	}
	a := Axis{Path: strings.TrimSpace(s[:i]), Spec: s[i+1:]}
	vals, isRange, err := parseRange(a.Spec)
	if err != nil {
		return Axis{}, msg.Errorf("%s %s: %v", "--vary", s, err)
	}
	if !isRange {
		vals = splitList(a.Spec)
		for _, v := range vals {
			if strings.TrimSpace(v) == "" {
				return Axis{}, msg.Errorf("--vary %s: empty value in the list", s)
			}
		}
	}
	if len(vals) > MaxAxisValues {
		return Axis{}, msg.Errorf("--vary %s: %d values; at most %d per axis", s, len(vals), MaxAxisValues)
	}
	a.Values = vals
	return a, nil
}

// parseRange reads a:b or a:b:step. isRange is false (and err nil) when s
// does not look like a numeric range at all, so it is read as a list.
func parseRange(s string) (vals []string, isRange bool, err error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, false, nil
	}
	nums := make([]float64, len(parts))
	dec := 0
	for i, p := range parts {
		p = strings.TrimSpace(p)
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false, nil
		}
		nums[i] = f
		if j := strings.IndexByte(p, '.'); j >= 0 {
			dec = max(dec, len(p)-j-1)
		}
	}
	lo, hi, step := nums[0], nums[1], 1.0
	if len(nums) == 3 {
		step = nums[2]
	} else if hi < lo {
		step = -1
	}
	if step == 0 {
		return nil, true, msg.Errorf("step 0 never reaches %v", hi)
	}
	if (hi-lo)/step < 0 {
		return nil, true, msg.Errorf("step %v goes away from %v", step, hi)
	}
	// Count the steps in integers so that 0:1:0.1 has exactly 11 values
	// and no float drift reaches the formatting.
	k := math.Floor((hi-lo)/step + 1e-9)
	if k+1 > MaxAxisValues {
		return nil, true, msg.Errorf("%v values; at most %d per axis", strconv.FormatFloat(k+1, 'f', -1, 64), MaxAxisValues) // a count, not 1e+08
	}
	for j := 0; j <= int(k); j++ {
		v := lo + float64(j)*step
		vals = append(vals, strconv.FormatFloat(v, 'f', dec, 64))
	}
	return vals, true, nil
}

// splitList splits on commas outside brackets, braces and quotes.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// Grid returns every point of the axes, the first axis outermost: for two
// axes, point i*len(axes[1].Values)+j has values (axes[0].Values[i],
// axes[1].Values[j]).
func Grid(axes []Axis) [][]string {
	pts := [][]string{nil}
	for _, a := range axes {
		var next [][]string
		for _, p := range pts {
			for _, v := range a.Values {
				next = append(next, append(append([]string(nil), p...), v))
			}
		}
		pts = next
	}
	return pts
}

// Sweep is the JSON document of `simctl sweep` (--format json, --results):
// every point's full result, so `simctl report` and tools can redraw and
// re-derive every figure.
type Sweep struct {
	Kind       string       `json:"kind"` // "sweep"
	Scenario   string       `json:"scenario"`
	File       string       `json:"file"`
	Ruleset    string       `json:"ruleset"`
	Seed       uint64       `json:"seed"`
	Version    string       `json:"version"`
	Command    string       `json:"command"`
	Sets       []string     `json:"sets,omitempty"` // overrides common to every point
	Axes       []Axis       `json:"axes"`
	MaxN       int64        `json:"encounters_per_point_max"`
	Precision  float64      `json:"precision,omitempty"`
	Batch      int64        `json:"batch,omitempty"`
	Encounters int64        `json:"encounters"` // over all points
	Interval   string       `json:"interval_method"`
	Elapsed    float64      `json:"elapsed_seconds"`
	Sides      [2]string    `json:"sides"`
	Context    *Context     `json:"context,omitempty"`
	Points     []SweepPoint `json:"points"`
	Warnings   []string     `json:"warnings,omitempty"`
	// WarningsMsg is Warnings as messages, to translate (message.go).
	WarningsMsg []Message `json:"warnings_msg,omitempty"`
	// Interrupted is set when the sweep was stopped: points hold what
	// finished.
	Interrupted bool `json:"interrupted,omitempty"`
	// ResumeDigest, on an interrupted sweep, is a keyed SHA-256 over what
	// --resume trusts (the points, finished or not, and their counts).
	ResumeDigest string `json:"resume_digest,omitempty"`
	// Shard is set on one shard of a sweep (sweep --shard k/K): every
	// point played encounters Start..Start+N-1 of the sweep's Total.
	Shard *Shard `json:"shard,omitempty"`
	// Incomplete is set on a merge of sweep shards that misses some.
	Incomplete bool `json:"incomplete,omitempty"`
}

// SweepPoint is one point: its axis values (one per axis) and its result.
type SweepPoint struct {
	Values []string `json:"values"`
	// Reached is true when sequential stopping met the precision.
	Reached bool    `json:"precision_reached,omitempty"`
	Result  *Result `json:"result"`
	// Unfinished is set on a point an interrupted sweep did not finish:
	// its result holds what it played (maybe nothing) and is no estimate
	// of the point; --resume plays it again from its first encounter.
	Unfinished bool `json:"unfinished,omitempty"`
}

// Context is what a report needs beyond the counts to let a reader
// reproduce them: the scenario text, the ruleset options in effect, and
// which side each combatant of the roster is on (Result.Raw.Roster has names
// only).
type Context struct {
	ScenarioYAML string `json:"scenario_yaml,omitempty"`
	// ScenarioSHA256 is the SHA-256 of ScenarioYAML (reliability).
	ScenarioSHA256 string        `json:"scenario_sha256,omitempty"`
	Options        []OptionValue `json:"options,omitempty"`
	RosterSides    []int         `json:"roster_sides,omitempty"`
}

// SHA256 is the scenario text's SHA-256, or "" when c is nil (a document
// written before documents carried their scenario).
func (c *Context) SHA256() string {
	if c == nil {
		return ""
	}
	return c.ScenarioSHA256
}

// OptionValue is a ruleset option and the value a run used.
type OptionValue struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Default bool   `json:"default,omitempty"` // not set by the scenario
}

// Finish fills the totals and warnings of a sweep from its points.
func (s *Sweep) Finish() {
	s.Kind = "sweep"
	s.Interval = intervalWilson
	s.Encounters = 0
	s.Warnings, s.WarningsMsg = nil, nil
	missed, unfinished := 0, 0
	for _, p := range s.Points {
		if p.Unfinished {
			// Its encounters are discarded (a resume plays it again).
			unfinished++
			continue
		}
		s.Encounters += p.Result.Encounters
		if s.Precision > 0 && !p.Reached {
			missed++
		}
	}
	if missed > 0 {
		addWarning(&s.Warnings, &s.WarningsMsg, "%d of %d points reached the cap of %s encounters before their interval was narrower than %s (marked *); raise -n for them",
			missed, len(s.Points), Thousands(s.MaxN), pp(s.Precision))
	}
	if s.Interrupted {
		addWarning(&s.Warnings, &s.WarningsMsg, "interrupted: %d of %d points did not finish (marked unfinished; no figures are given for them); simctl sweep ... --resume FILE with this sweep's JSON plays only those",
			unfinished, len(s.Points))
	}
}

// MergeSweeps combines shards of one sweep (sweep --shard k/K) point by
// point with Merge, into exactly the sweep one process would have made. It
// refuses sweeps that differ in anything but their shard (version,
// scenario text, seed, -n, axes, overrides) and, through Merge, overlapping
// or damaged shards and unfinished points.
func MergeSweeps(ss []*Sweep) (*Sweep, error) {
	if len(ss) == 0 {
		return nil, msg.Errorf("merge: no sweeps")
	}
	first := ss[0]
	sum := func(s *Sweep) string { return s.Context.SHA256() }
	for i, s := range ss {
		var what msg.Text
		switch {
		case s.Shard == nil:
			return nil, msg.Errorf("merge: sweep %d of %d is a whole sweep (made without --shard); merge combines the shards of one sweep (simctl sweep --shard k/K) or of one run (simctl run --json --shard k/K), and a whole sweep goes to simctl report", i+1, len(ss))
		case s.Precision > 0:
			what = msg.New("used --precision, whose stopping depends on the whole point")
		case s.Version != first.Version:
			what = msg.New("was made by simctl %s, sweep 1 by %s", s.Version, first.Version)
		case sum(s) != sum(first):
			what = msg.New("ran another scenario text (SHA-256 %s vs %s)", short(sum(s)), short(sum(first)))
		case s.Seed != first.Seed || s.MaxN != first.MaxN || s.Shard.Total != first.Shard.Total:
			what = msg.New("has seed %d and -n %d, sweep 1 seed %d and -n %d", s.Seed, s.Shard.Total, first.Seed, first.Shard.Total)
		case !slices.Equal(s.Sets, first.Sets) || !sameAxes(s.Axes, first.Axes) || len(s.Points) != len(first.Points):
			what = msg.New("varies other paths or values, or has other --set overrides")
		case s.Interrupted:
			what = msg.New("was interrupted; run that shard again")
		}
		if what.Format != "" {
			return nil, msg.Errorf("merge: sweep %d of %d (shard %s) %s", i+1, len(ss), shardName(s.Shard), what)
		}
	}
	out := *first
	out.Shard, out.Points, out.Elapsed, out.Command = nil, nil, 0, ""
	out.MaxN = first.Shard.Total
	for k := range first.Points {
		rs := make([]*Result, len(ss))
		for i, s := range ss {
			if s.Points[k].Unfinished || !slices.Equal(s.Points[k].Values, first.Points[k].Values) {
				return nil, msg.Errorf("merge: point %s of shard %s is unfinished or damaged", strings.Join(first.Points[k].Values, ", "), shardName(s.Shard))
			}
			rs[i] = s.Points[k].Result
		}
		m, err := Merge(rs)
		if err != nil {
			return nil, msg.Errorf("%v (at point %s)", err, strings.Join(first.Points[k].Values, ", "))
		}
		m.Shard = nil
		out.Incomplete = out.Incomplete || m.Incomplete
		out.Points = append(out.Points, SweepPoint{Values: first.Points[k].Values, Result: m})
	}
	for _, s := range ss {
		out.Elapsed = max(out.Elapsed, s.Elapsed)
	}
	out.Finish()
	return &out, nil
}

func sameAxes(a, b []Axis) bool {
	return slices.EqualFunc(a, b, func(x, y Axis) bool { return x.Path == y.Path && slices.Equal(x.Values, y.Values) })
}

func shardName(s *Shard) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("%d/%d", s.K, s.Of)
}
