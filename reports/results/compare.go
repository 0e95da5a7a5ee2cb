package results

import (
	"math"
	"simctl/sim/msg"
	"slices"
	"sort"
	"strings"

	"simctl/stats"
)

// Compare is the JSON document of `simctl compare`: every option's full
// result on the same encounters, and its paired difference to the baseline.
type Compare struct {
	Kind       string    `json:"kind"` // "compare"
	Scenario   string    `json:"scenario"`
	File       string    `json:"file"`
	Ruleset    string    `json:"ruleset"`
	Seed       uint64    `json:"seed"`
	Version    string    `json:"version"`
	Command    string    `json:"command"`
	Sets       []string  `json:"sets,omitempty"` // overrides common to every option
	Encounters int64     `json:"encounters"`     // per option, the same indices for all
	Baseline   string    `json:"baseline"`
	Interval   string    `json:"interval_method"`
	Elapsed    float64   `json:"elapsed_seconds"`
	Sides      [2]string `json:"sides"`
	Context    *Context  `json:"context,omitempty"`
	Options    []Option  `json:"options"`
	Warnings   []string  `json:"warnings,omitempty"`
	// WarningsMsg is Warnings as messages, to translate (message.go).
	WarningsMsg []Message `json:"warnings_msg,omitempty"`
	// Interrupted is set when the comparison was stopped: every option
	// holds the same finished encounters.
	Interrupted bool `json:"interrupted,omitempty"`
	// Unplayed lists, on an interrupted comparison, the encounter index
	// ranges [lo, hi) it did not play: compare --resume plays exactly
	// those (absent after --precision, which cannot resume).
	Unplayed [][2]int64 `json:"unplayed,omitempty"`
	// ResumeDigest, on an interrupted comparison, is a keyed SHA-256 over
	// what --resume trusts (unplayed, encounters, every option's sums).
	ResumeDigest string `json:"resume_digest,omitempty"`
	// Shard is set on one shard of a comparison (compare --shard k/K):
	// every option played encounters Start..Start+N-1 of Total.
	Shard *Shard `json:"shard,omitempty"`
	// Incomplete is set on a merge of compare shards that misses some.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Option is one compared option.
type Option struct {
	Name string   `json:"name"`
	Sets []string `json:"sets"` // this option's own overrides
	// Command is a `simctl run` command line whose result equals this
	// option's result exactly.
	Command string  `json:"command,omitempty"`
	Result  *Result `json:"result"`
	// Diff is the paired difference of each side's win rate to the
	// baseline (nil for the baseline itself).
	Diff []PairedDiff `json:"diff,omitempty"`
	// EconomyDelta is, per side and counter, this option's mean per
	// encounter minus the baseline's (nil for the baseline).
	EconomyDelta map[string]map[string]float64 `json:"action_economy_delta,omitempty"`
	// EconomyCross is, per side counter (indexed as Result.Raw.Counts),
	// the sum over encounters of this option's count times the
	// baseline's on the same encounter (experiment.CRN.Cross): with both
	// results' sums and sums of squares it gives the paired variance of
	// each difference. Exact integers; shards merge by adding. Nil for the
	// baseline and in documents written before it was recorded.
	EconomyCross []int64 `json:"action_economy_cross,omitempty"`
	// EconomyDeltaCI95 is the paired 95% interval of each EconomyDelta
	// (normal, Δ ± 1.96·s_d/√N on the encounters' own differences), when
	// EconomyCross is known. A counter that differs from the baseline's
	// in fewer than stats.PairedExactBelow encounters (Σd² below it, which
	// bounds how many differ: each differing encounter adds at least 1)
	// has no entry: a normal interval on so few differences claims more
	// than they show (zero width when none differ), and a counter has no
	// bound that an exact interval could use; a warning names it.
	EconomyDeltaCI95 map[string]map[string][2]float64 `json:"action_economy_delta_ci95,omitempty"`
}

// PairedDiff is the difference of one side's win rate between an option
// (a) and the baseline (b), measured on the same encounters.
type PairedDiff struct {
	Side string `json:"side"`
	// Diff is mean(a) - mean(b).
	Diff float64 `json:"diff"`
	// CI95 is stats.PairedCI at 95%: with fewer than
	// stats.PairedExactBelow discordant encounters (where exactly one of
	// the two won) the exact conservative interval built on them
	// (stats.PairedExactCI), else Diff ± 1.96·SE with SE the paired
	// standard error. PValue goes with it (exact McNemar, or normal).
	CI95   [2]Num `json:"ci95"`
	PValue Num    `json:"p_value"`
	SE     Num    `json:"se"`
	// IndependentSE is the standard error the same difference would have
	// from two runs on independent seeds of the same N.
	IndependentSE Num `json:"independent_se"`
	// VarianceReduction is IndependentSE²/SE²: independent runs need this
	// many times the encounters for the same precision.
	VarianceReduction Num          `json:"variance_reduction"`
	Paired            stats.Paired `json:"paired"`
}

// PairedMethod describes stats.PairedCI, compare's paired interval.
const PairedMethod = "paired 95% interval on common random numbers (exact, built on the discordant encounters, when fewer than 200 differ; normal otherwise)"

// NewPairedDiff reads a stats.Paired.
func NewPairedDiff(side string, p stats.Paired) PairedDiff {
	ci := stats.PairedCI(p, 0.95)
	return PairedDiff{
		Side: side, Diff: p.Diff(), CI95: [2]Num{Num(ci.Lo), Num(ci.Hi)},
		PValue: Num(stats.PairedP(p)), SE: Num(p.SE()), IndependentSE: Num(p.IndependentSE()),
		VarianceReduction: Num(p.VarianceReduction()), Paired: p,
	}
}

// Finish fills the paired differences, economy deltas and warnings of c
// from paired (the accumulators of RunPaired, options in the same order as
// c.Options, the first being the baseline). Results must be set.
func (c *Compare) Finish(paired [][2]stats.Paired) {
	c.Kind = "compare"
	c.Interval = intervalWilson + " (win rates); " + PairedMethod + " (differences)"
	c.Baseline = c.Options[0].Name
	c.Encounters = c.Options[0].Result.Encounters
	base := c.Options[0].Result
	for k := range c.Options {
		o := &c.Options[k]
		if k == 0 {
			o.Diff, o.EconomyDelta, o.EconomyCross, o.EconomyDeltaCI95 = nil, nil, nil, nil
			continue
		}
		o.Diff = []PairedDiff{NewPairedDiff(c.Sides[0], paired[k][0]), NewPairedDiff(c.Sides[1], paired[k][1])}
		o.EconomyDelta = map[string]map[string]float64{}
		for s := 0; s < 2; s++ {
			d := map[string]float64{}
			for _, name := range o.Result.Raw.Counters {
				d[name] = o.Result.PerEncounter[c.Sides[s]][name] - base.PerEncounter[c.Sides[s]][name]
			}
			o.EconomyDelta[c.Sides[s]] = d
		}
		o.EconomyDeltaCI95 = economyDeltaCI(base, o.Result, o.EconomyCross, c.Sides)
	}
	c.Warnings, c.WarningsMsg = nil, nil
	if len(c.Options) > 2 {
		addWarning(&c.Warnings, &c.WarningsMsg, "%d options are compared with the baseline; the p-values are not adjusted for multiple comparisons", len(c.Options)-1)
	}
	for _, t := range append(fewDiscordant(c), fewEconomy(c)...) {
		AddWarning(&c.Warnings, &c.WarningsMsg, t)
	}
	if c.Interrupted {
		addWarning(&c.Warnings, &c.WarningsMsg, "interrupted: every option holds only the encounters that finished")
	}
	if sh := c.Shard; sh != nil {
		addWarning(&c.Warnings, &c.WarningsMsg, "shard %d of %d (k=%d/%d): encounters %s to %s of %s; simctl merge adds the shards' JSON results",
			sh.K+1, sh.Of, sh.K, sh.Of, Thousands(sh.Start), Thousands(sh.Start+sh.N-1), Thousands(sh.Total))
	}
	if c.Incomplete {
		addWarning(&c.Warnings, &c.WarningsMsg, "incomplete: the merged shards do not cover every encounter")
	}
}

// fewDiscordant warns, per option and side, when few encounters differ
// from the baseline: all the information about a paired difference of
// win rates is in those discordant encounters, not in N, so that is what
// the warning counts (the interval is then the exact one, honest but wide).
func fewDiscordant(c *Compare) []msg.Text {
	var out []msg.Text
	for _, o := range c.Options[1:] {
		for _, d := range o.Diff {
			p := d.Paired
			if !p.Binary() || p.SumD2 >= stats.PairedExactBelow {
				continue
			}
			n10, n01 := p.Discordant()
			out = append(out, msg.New("%s vs %s, %s wins: only %d of %d encounters differ (%d for %s, %d for %s); its interval is the exact one built on them, conservative, and wider than a normal interval would claim",
				o.Name, c.Baseline, d.Side, p.SumD2, p.N, n10, o.Name, n01, c.Baseline))
		}
	}
	return out
}

// fewEconomy warns, per option, of the counters shown (the economy table's
// rows in reports) whose paired interval is left out because at most a few
// encounters differ (economyDeltaCI), grouped by how many.
func fewEconomy(c *Compare) []msg.Text {
	var out []msg.Text
	for _, o := range c.Options[1:] {
		if o.EconomyDeltaCI95 == nil {
			continue
		}
		var bounds []int64
		few := map[int64][]string{}
		for _, name := range c.Options[0].Result.Raw.Counters {
			for s := 0; s < 2; s++ {
				side := c.Sides[s]
				if _, ok := o.EconomyDeltaCI95[side][name]; ok || !c.CounterUsed(side, name) {
					continue
				}
				if d, ok := economyDiffering(c.Options[0].Result, o.Result, o.EconomyCross, s, name); ok {
					if few[d] == nil {
						bounds = append(bounds, d)
					}
					few[d] = append(few[d], name+" "+side)
				}
			}
		}
		if len(bounds) == 0 {
			continue
		}
		sort.Slice(bounds, func(i, j int) bool { return bounds[i] < bounds[j] })
		// "; "-separated parts, each a message: "differs in …: names".
		var parts []any
		for k, d := range bounds {
			what := msg.New("differs in no encounter")
			if d > 0 {
				what = msg.New("differs in at most %d encounters", d)
			}
			if k > 0 {
				parts = append(parts, msg.New("; %s: %s", what, strings.Join(few[d], ", ")))
			} else {
				parts = append(parts, msg.New("%s: %s", what, strings.Join(few[d], ", ")))
			}
		}
		out = append(out, msg.New("%s vs %s, action economy: no interval is printed (—) where fewer than %d encounters differ, since a normal interval on so few differences would claim more than they show; %s",
			o.Name, c.Baseline, stats.PairedExactBelow, msg.New(strings.Repeat("%v", len(parts)), parts...)))
	}
	return out
}

// economyDiffering bounds in how many encounters counter name of side s
// differs between a and the baseline b: by Σd², since each differing
// encounter adds at least 1 to it; false when that bound is not below
// stats.PairedExactBelow (or the sums are missing).
func economyDiffering(b, a *Result, cross []int64, s int, name string) (int64, bool) {
	ra, rb := &a.Raw, &b.Raw
	k := slices.Index(rb.Counters, name)
	i := s*len(rb.Counters) + k
	if k < 0 || i >= len(cross) || i >= len(ra.CountsSq) || i >= len(rb.CountsSq) {
		return 0, false
	}
	d2 := ra.CountsSq[i] + rb.CountsSq[i] - 2*cross[i]
	return d2, d2 < stats.PairedExactBelow
}

// CounterUsed reports whether some option used side's counter name (the
// economy table shows only those).
func (c *Compare) CounterUsed(side, name string) bool {
	for _, o := range c.Options {
		if o.Result.PerEncounter[side][name] != 0 {
			return true
		}
	}
	return false
}

// economyDeltaCI is the paired interval of each counter's difference
// between option a and the baseline b, from the exact sums: the encounters'
// differences d = x_a - x_b have Σd = S_a - S_b and Σd² = Q_a + Q_b - 2·C
// (C the cross sum), and the interval is stats.Paired's. Nil when the sums
// are missing, not of the same shape, or impossible (a damaged file).
func economyDeltaCI(b, a *Result, cross []int64, sides [2]string) map[string]map[string][2]float64 {
	ra, rb := &a.Raw, &b.Raw
	n := len(rb.Counts)
	if len(cross) != n || len(ra.Counts) != n || len(ra.CountsSq) != n || len(rb.CountsSq) != n || ra.Encounters != rb.Encounters || ra.Encounters < 2 ||
		len(rb.Counters) == 0 || n != 2*len(rb.Counters) {
		return nil
	}
	per := len(rb.Counters)
	out := map[string]map[string][2]float64{}
	for s := 0; s < 2; s++ {
		m := map[string][2]float64{}
		for k, name := range rb.Counters {
			i := s*per + k
			p := stats.Paired{N: ra.Encounters, SumA: ra.Counts[i], SumB: rb.Counts[i], SumD: ra.Counts[i] - rb.Counts[i],
				SumD2: ra.CountsSq[i] + rb.CountsSq[i] - 2*cross[i], SumA2: ra.CountsSq[i], SumB2: rb.CountsSq[i]}
			if !possiblePair(p) {
				return nil
			}
			if p.SumD2 < stats.PairedExactBelow {
				continue // few differ: no interval (fewEconomy warns)
			}
			ci := p.DiffCI(0.95)
			m[name] = [2]float64{ci.Lo, ci.Hi}
		}
		out[sides[s]] = m
	}
	return out
}

// possiblePair tells whether paired sums can come from real encounters:
// every sum of squares at least its sum squared over N (Cauchy-Schwarz),
// within rounding.
func possiblePair(p stats.Paired) bool {
	n := float64(p.N)
	ok := func(sum, sq int64) bool {
		s := float64(sum)
		return sq >= 0 && float64(sq)-s*s/n >= -1e-9*math.Max(1, float64(sq))
	}
	return ok(p.SumA, p.SumA2) && ok(p.SumB, p.SumB2) && ok(p.SumD, p.SumD2)
}

// MergeCompares combines shards of one comparison (compare --shard k/K)
// into exactly the comparison one process would have made: each option's
// results merge as a run's shards do (Merge), and the paired sums add. It
// refuses shards that differ in anything but their part (version,
// scenario text, seed, -n, overrides, options), interrupted ones, and,
// through Merge, overlapping ones.
func MergeCompares(cs []*Compare) (*Compare, error) {
	first := cs[0]
	sum := func(c *Compare) string { return c.Context.SHA256() }
	for i, c := range cs {
		var what msg.Text
		switch {
		case c.Shard == nil:
			return nil, msg.Errorf("merge: comparison %d of %d is whole (made without --shard); merge combines the shards of one comparison (simctl compare --shard k/K)", i+1, len(cs))
		case c.Version != first.Version:
			what = msg.New("was made by simctl %s, comparison 1 by %s", c.Version, first.Version)
		case sum(c) != sum(first):
			what = msg.New("ran another scenario text (SHA-256 %s vs %s); was the file edited between shards?", short(sum(c)), short(sum(first)))
		case c.Seed != first.Seed || c.Shard.Total != first.Shard.Total:
			what = msg.New("has seed %d and -n %d, comparison 1 seed %d and -n %d", c.Seed, c.Shard.Total, first.Seed, first.Shard.Total)
		case !slices.Equal(c.Sets, first.Sets) || !sameOptions(c.Options, first.Options):
			what = msg.New("has other options or --set overrides")
		case c.Interrupted:
			what = msg.New("was interrupted; resume that shard (--resume FILE) or run it again")
		default:
			what = pairedMismatch(c)
		}
		if what.Format != "" {
			return nil, msg.Errorf("merge: comparison %d of %d (shard %s) %s", i+1, len(cs), shardName(c.Shard), what)
		}
	}
	out := *first
	out.Shard, out.Command, out.Elapsed, out.Options, out.Unplayed = nil, "", 0, nil, nil
	paired := make([][2]stats.Paired, len(first.Options))
	for k, o := range first.Options {
		rs := make([]*Result, len(cs))
		var cross []int64
		if k > 0 {
			cross = make([]int64, len(o.EconomyCross))
		}
		for i, c := range cs {
			rs[i] = c.Options[k].Result
			if k > 0 {
				for s := 0; s < 2; s++ {
					paired[k][s].Merge(c.Options[k].Diff[s].Paired)
				}
				// A shard without the cross sums (an older simctl) leaves the
				// merge without the intervals they give.
				if x := c.Options[k].EconomyCross; cross != nil && len(x) == len(cross) && len(x) > 0 {
					for j, v := range x {
						cross[j] += v
					}
				} else {
					cross = nil
				}
			}
		}
		m, err := Merge(rs)
		if err != nil {
			return nil, msg.Errorf("%v (option %s)", err, o.Name)
		}
		out.Incomplete = out.Incomplete || m.Incomplete
		out.Options = append(out.Options, Option{Name: o.Name, Sets: o.Sets, Result: m, EconomyCross: cross})
	}
	for _, c := range cs {
		out.Elapsed = max(out.Elapsed, c.Elapsed)
	}
	out.Finish(paired)
	return &out, nil
}

func sameOptions(a, b []Option) bool {
	return slices.EqualFunc(a, b, func(x, y Option) bool { return x.Name == y.Name && slices.Equal(x.Sets, y.Sets) })
}

// pairedMismatch says which option's paired sums do not cover the
// encounters its results do ("" when every one does): such a shard was
// edited or damaged, and its differences would merge wrong.
func pairedMismatch(c *Compare) msg.Text {
	for k, o := range c.Options {
		if k == 0 || o.Result == nil {
			continue
		}
		for s := 0; s < 2; s++ {
			if n := o.Diff[s].Paired.N; n != o.Result.Encounters {
				return msg.New("has paired sums of option %s over %d encounters but results over %d; the file is damaged", o.Name, n, o.Result.Encounters)
			}
		}
	}
	return msg.Text{}
}
