package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"simctl/sim/msg"
	"slices"
	"time"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/stats"
)

// Resuming the experiments played on common random numbers (compare,
// value, matrix). Their unit is the encounter index, as for run: an
// interrupted one records the index ranges it did not play (every game
// played every other index), and a resume plays exactly those and adds
// them to the sums the document holds. The tournament resumes by rounds.

// DocFacts is what a resume compares between the interrupted document and
// this command line.
type DocFacts struct {
	Interrupted bool
	Unplayed    [][2]int64
	Played      int64 // encounter indices played (by every game)
	SHA256      string
	Version     string
	Seed        uint64
	Sets        []string
	Shard       *results.Shard
}

// resumeRefused is why --resume path does not fit this command line.
func resumeRefused(path, format string, a ...any) error {
	return msg.Errorf("--resume %s: %s; resume with the same command line", path, msg.New(format, a...))
}

// CheckResume refuses to resume from a document that is not an
// interrupted run of this very command line: another simctl, scenario
// text, seed, overrides, -n or shard would make its sums not those this
// run would add to. n is this command's -n; now.Shard its shard.
func CheckResume(path string, old, now DocFacts, n int64) error {
	var left int64
	for _, u := range old.Unplayed {
		left += u[1] - u[0]
	}
	whole := old.Played + left
	if old.Shard != nil {
		whole = old.Shard.Total
	}
	switch {
	case !old.Interrupted:
		return msg.Errorf("--resume %s: that run was not interrupted; nothing to resume", path)
	case len(old.Unplayed) == 0:
		return msg.Errorf("--resume %s: that run does not record which encounters it left (stopped at once, or made with --precision); run it again", path)
	case old.SHA256 != now.SHA256:
		return resumeRefused(path, "that run's scenario text differs (SHA-256 %.12s, this one %.12s)", old.SHA256, now.SHA256)
	case old.Version != now.Version:
		return resumeRefused(path, "that run was made by simctl %s, this is %s", old.Version, now.Version)
	case old.Seed != now.Seed:
		return resumeRefused(path, "that run has seed %d, this one %d", old.Seed, now.Seed)
	case !slices.Equal(old.Sets, now.Sets):
		return resumeRefused(path, "that run has --set %v, this one %v", old.Sets, now.Sets)
	case whole != n:
		return resumeRefused(path, "that run has -n %d, this one %d", whole, n)
	case (old.Shard == nil) != (now.Shard == nil) || (now.Shard != nil && (old.Shard.K != now.Shard.K || old.Shard.Of != now.Shard.Of)):
		return resumeRefused(path, "that run's --shard differs")
	}
	lo, hi := int64(0), n
	if now.Shard != nil {
		lo, hi = now.Shard.Start, now.Shard.Start+now.Shard.N
	}
	prev := lo
	for _, u := range old.Unplayed {
		if u[0] < prev || u[1] <= u[0] || u[1] > hi {
			return msg.Errorf("--resume %s: its unplayed ranges are out of order or out of range; the file is damaged", path)
		}
		prev = u[1]
	}
	if old.Played+left != hi-lo {
		return msg.Errorf("--resume %s: %d encounters played and %d unplayed do not make its %d; the file is damaged", path, old.Played, left, hi-lo)
	}
	return nil
}

// TodoOf is the index ranges an interrupted document left.
func TodoOf(unplayed [][2]int64) []sim.Range {
	var todo []sim.Range
	for _, u := range unplayed {
		todo = append(todo, sim.Range{Lo: u[0], Hi: u[1]})
	}
	return todo
}

// PlayCRN plays the index ranges todo of games on common random numbers
// (with the counters' cross sums when cross is set), handing each
// segment's sums to add. On interruption it returns the
// ranges still unplayed (in order) with the context's error. With save
// non-nil, the ranges are played in segments and, at most every
// every, save is called with what is left: the command writes
// its document (marked interrupted, the rest unplayed) so that a process
// killed at any moment loses at most the last segments.
//
// every and perWorker are the period of the saves and the segment's
// encounter indices per worker.
func PlayCRN(ctx context.Context, games []sim.Game, cfg sim.RunConfig, cross bool, todo []sim.Range, add func(*experiment.CRN), save func(left []sim.Range), every time.Duration, perWorker int64) ([]sim.Range, error) {
	seg := int64(math.MaxInt64)
	if save != nil {
		// Many chunks per worker: the wait for the slowest at a segment's
		// end is a small part of it.
		seg = perWorker * int64(workersOf(cfg.Workers))
	}
	todo = slices.Clone(todo)
	last := time.Now()
	for len(todo) > 0 {
		rg := todo[0]
		hi := rg.Hi
		if hi-rg.Lo > seg {
			hi = rg.Lo + seg
		}
		var u []sim.Range
		rc := cfg
		rc.Start, rc.N, rc.Unplayed = rg.Lo, hi-rg.Lo, &u
		run := experiment.RunCRN
		if cross {
			run = experiment.RunCRNCross
		}
		c, err := run(ctx, games, rc)
		add(c)
		if todo[0].Lo = hi; todo[0].Lo == todo[0].Hi {
			todo = todo[1:]
		}
		if err != nil {
			return append(u, todo...), err
		}
		if save != nil && len(todo) > 0 && time.Since(last) >= every {
			save(todo)
			last = time.Now()
		}
	}
	return nil, nil
}

// HeaderFacts reads what CheckResume compares from an experiment's header.
func HeaderFacts(h *results.Header, played int64) DocFacts {
	return DocFacts{Interrupted: h.Interrupted, Unplayed: h.Unplayed, Played: played, SHA256: h.ScenarioSHA256,
		Version: h.Version, Seed: h.Seed, Sets: h.Sets, Shard: h.Shard}
}

// ShardRange is the encounter indices a run (or its shard) plays.
func ShardRange(s *results.Shard, n int64) sim.Range {
	if s == nil {
		return sim.Range{Lo: 0, Hi: n}
	}
	return sim.Range{Lo: s.Start, Hi: s.Start + s.N}
}

func RangesLen(rs []sim.Range) int64 {
	var n int64
	for _, r := range rs {
		n += r.Hi - r.Lo
	}
	return n
}

// UnplayedOf writes ranges as a document records them.
func UnplayedOf(left []sim.Range) [][2]int64 {
	var out [][2]int64
	for _, r := range left {
		out = append(out, [2]int64{r.Lo, r.Hi})
	}
	return out
}

// The resume digest. An interrupted document says which encounters it
// left (unplayed), how many it played and what they counted, and a
// resume trusts all of it: a range shifted by hand keeps its length, so
// the totals still add up, and the resumed counts would silently be
// wrong. So the document carries resume_digest, a SHA-256 HMAC over
// exactly what a resume trusts, and a resume refuses a document whose
// digest does not match. The key is in this source: the digest catches
// hand edits and damage, and is no defence against someone who reads the
// code and recomputes it.
var resumeKey = []byte("simctl resume digest 1")

// resumeDigest is the digest of kind's trusted fields (plain values,
// which JSON writes and reads back exactly), "" if they do not encode.
func resumeDigest(kind string, trusted any) string {
	b, err := json.Marshal(trusted)
	if err != nil {
		return ""
	}
	m := hmac.New(sha256.New, resumeKey)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

// checkDigest refuses a document whose digest is missing or is not that
// of what it holds.
func checkDigest(path, have, want string) error {
	if have == "" || want == "" || !hmac.Equal([]byte(have), []byte(want)) {
		return msg.Errorf("--resume %s: its resume_digest does not match the encounters and counts it holds: the file was edited or damaged after simctl wrote it, and resuming it would give wrong counts; run the command again without --resume", path)
	}
	return nil
}

// headerTrust is what every experiment's resume trusts of its header.
type headerTrust struct {
	Kind, Version, SHA256 string
	Seed                  uint64
	Sets                  []string
	Shard                 *results.Shard
	Unplayed              [][2]int64
}

func trustOf(h *results.Header) headerTrust {
	return headerTrust{Kind: h.Kind, Version: h.Version, SHA256: h.ScenarioSHA256, Seed: h.Seed, Sets: h.Sets, Shard: h.Shard, Unplayed: h.Unplayed}
}

// OptimizeDigest is the resume digest of an unfinished search (stopped,
// one shard's part of a stage, or the merged stage): everything --resume
// and merge go on from, so a forged index or count (finalists out of
// range or repeated, a shard's total) is refused instead of played.
func OptimizeDigest(o *results.Optimize) string {
	return resumeDigest("optimize", struct {
		Header                    headerTrust
		Side, Where, Rules, Block string
		Vary                      []results.Axis
		Options                   []results.NamedSets
		Alpha, Delta              float64
		Search                    *experiment.OptimizeResult
		Stage                     *experiment.StageSums
	}{trustOf(&o.Header), o.Side, o.Where, o.Rules, o.Block, o.Vary, o.Options, o.Guarantee.Alpha, o.Guarantee.Delta, o.Search, o.Stage})
}

// MergeOptimizeStages is results.MergeOptimizeStages on the shards read
// from paths, each checked against its digest first; the merged stage
// carries its own.
func MergeOptimizeStages(opts []*results.Optimize, paths []string) (*results.Optimize, error) {
	for i, o := range opts {
		if have := o.ResumeDigest; have == "" || !hmac.Equal([]byte(have), []byte(OptimizeDigest(o))) {
			return nil, msg.Errorf("merge: %s: its resume_digest does not match the stage it holds: the file was edited or damaged after simctl wrote it; play that shard again", paths[i])
		}
	}
	m, err := results.MergeOptimizeStages(opts)
	if err != nil {
		return nil, err
	}
	m.ResumeDigest = OptimizeDigest(m)
	return m, nil
}

// RunDigest is the resume digest of an interrupted run's result.
func RunDigest(r *results.Result) string {
	return resumeDigest("run", struct {
		Version, SHA256 string
		Seed            uint64
		Sets            []string
		Shard           *results.Shard
		Unplayed        [][2]int64
		Encounters      int64
		Tally           results.Raw
	}{r.Version, r.ScenarioSHA256, r.Seed, r.Sets, r.Shard, r.Unplayed, r.Encounters, r.Raw})
}

// CompareDigest is the resume digest of an interrupted comparison.
func CompareDigest(c *results.Compare) string {
	type option struct {
		Name       string
		Sets       []string
		Encounters int64
		Tally      results.Raw
		Paired     []stats.Paired
		Cross      []int64
	}
	sum := c.Context.SHA256()
	var opts []option
	for _, o := range c.Options {
		op := option{Name: o.Name, Sets: o.Sets, Cross: o.EconomyCross}
		if o.Result != nil {
			op.Encounters, op.Tally = o.Result.Encounters, o.Result.Raw
		}
		for _, d := range o.Diff {
			op.Paired = append(op.Paired, d.Paired)
		}
		opts = append(opts, op)
	}
	return resumeDigest("compare", struct {
		Header     headerTrust
		Encounters int64
		Options    []option
	}{headerTrust{Kind: "compare", Version: c.Version, SHA256: sum, Seed: c.Seed, Sets: c.Sets, Shard: c.Shard, Unplayed: c.Unplayed}, c.Encounters, opts})
}

// ValueDigest is the resume digest of an interrupted value run.
func ValueDigest(v *results.Value) string {
	return resumeDigest("value", struct {
		Header     headerTrust
		Side       string
		Params     []results.ValueParam
		Encounters int64
		Joint      stats.Joint
	}{trustOf(&v.Header), v.Side, v.Params, v.Encounters, v.Joint})
}

// MatrixDigest is the resume digest of an interrupted matrix.
func MatrixDigest(m *results.Matrix) string {
	return resumeDigest("matrix", struct {
		Header     headerTrust
		RowSide    string
		Rows, Cols []results.NamedSets
		Encounters int64
		Joint      stats.Joint
	}{trustOf(&m.Header), m.RowSide, m.RowOptions, m.ColOptions, m.Encounters, m.Joint})
}

// TournamentDigest is the resume digest of an unfinished tournament: its
// state is what a resume goes on from.
func TournamentDigest(t *results.Tournament) string {
	return resumeDigest("tournament", struct {
		Header  headerTrust
		Side    string
		Options []results.NamedSets
		State   *experiment.SelectState
	}{trustOf(&t.Header), t.Side, t.Options, t.State})
}

// SweepDigest is the resume digest of an interrupted sweep: a resume
// keeps its finished points' counts.
func SweepDigest(sw *results.Sweep) string {
	type point struct {
		Values                           []string
		Reached, Unfinished, Interrupted bool
		Encounters                       int64
		Tally                            results.Raw
	}
	sum := sw.Context.SHA256()
	var pts []point
	for _, p := range sw.Points {
		pt := point{Values: p.Values, Reached: p.Reached, Unfinished: p.Unfinished}
		if p.Result != nil {
			pt.Interrupted, pt.Encounters, pt.Tally = p.Result.Interrupted, p.Result.Encounters, p.Result.Raw
		}
		pts = append(pts, pt)
	}
	return resumeDigest("sweep", struct {
		Header      headerTrust
		MaxN, Batch int64
		Precision   float64
		Axes        []results.Axis
		Points      []point
	}{headerTrust{Kind: "sweep", Version: sw.Version, SHA256: sum, Seed: sw.Seed, Sets: sw.Sets, Shard: sw.Shard}, sw.MaxN, sw.Batch, sw.Precision, sw.Axes, pts})
}
