package results

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"simctl/sim/msg"
	"slices"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/stats"
)

// Resuming an interrupted document: the checks that it is an interrupted
// run of this very command line, and that what it says it played and
// counted is what simctl wrote (its resume digest). The experiments on
// common random numbers (compare, value, matrix) resume by encounter
// index, as a run does: an interrupted one records the index ranges it
// did not play (every game played every other index), and a resume plays
// exactly those and adds them to the sums the document holds. A sweep
// keeps its finished points; a tournament resumes by rounds.

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
	Shard       *Shard
}

// ResumeRefused is why --resume path does not fit this command line.
func ResumeRefused(path, format string, a ...any) error {
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
		return ResumeRefused(path, "that run's scenario text differs (SHA-256 %.12s, this one %.12s)", old.SHA256, now.SHA256)
	case old.Version != now.Version:
		return ResumeRefused(path, "that run was made by simctl %s, this is %s", old.Version, now.Version)
	case old.Seed != now.Seed:
		return ResumeRefused(path, "that run has seed %d, this one %d", old.Seed, now.Seed)
	case !slices.Equal(old.Sets, now.Sets):
		return ResumeRefused(path, "that run has --set %v, this one %v", old.Sets, now.Sets)
	case whole != n:
		return ResumeRefused(path, "that run has -n %d, this one %d", whole, n)
	case (old.Shard == nil) != (now.Shard == nil) || (now.Shard != nil && (old.Shard.K != now.Shard.K || old.Shard.Of != now.Shard.Of)):
		return ResumeRefused(path, "that run's --shard differs")
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

// HeaderFacts reads what CheckResume compares from an experiment's header.
func HeaderFacts(h *Header, played int64) DocFacts {
	return DocFacts{Interrupted: h.Interrupted, Unplayed: h.Unplayed, Played: played, SHA256: h.ScenarioSHA256,
		Version: h.Version, Seed: h.Seed, Sets: h.Sets, Shard: h.Shard}
}

// Range is the encounter indices a run of n (or this shard of it) plays.
func (s *Shard) Range(n int64) sim.Range {
	if s == nil {
		return sim.Range{Lo: 0, Hi: n}
	}
	return sim.Range{Lo: s.Start, Hi: s.Start + s.N}
}

// Todo is the index ranges an interrupted document left (its unplayed).
func Todo(unplayed [][2]int64) []sim.Range {
	var todo []sim.Range
	for _, u := range unplayed {
		todo = append(todo, sim.Range{Lo: u[0], Hi: u[1]})
	}
	return todo
}

// Unplayed writes ranges as a document records them.
func Unplayed(left []sim.Range) [][2]int64 {
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

// trustedDigest is the digest of kind's trusted fields (plain values,
// which JSON writes and reads back exactly), "" if they do not encode.
func trustedDigest(kind string, trusted any) string {
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

// CheckDigest refuses (as --resume path) a document whose resume digest
// (have) is missing or is not that of what it holds (want: its
// TrustedDigest).
func CheckDigest(path, have, want string) error {
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
	Shard                 *Shard
	Unplayed              [][2]int64
}

func trustOf(h *Header) headerTrust {
	return headerTrust{Kind: h.Kind, Version: h.Version, SHA256: h.ScenarioSHA256, Seed: h.Seed, Sets: h.Sets, Shard: h.Shard, Unplayed: h.Unplayed}
}

// TrustedDigest is the resume digest of an unfinished search (stopped,
// one shard's part of a stage, or the merged stage): everything --resume
// and merge go on from, so a forged index or count (finalists out of
// range or repeated, a shard's total) is refused instead of played.
func (o *Optimize) TrustedDigest() string {
	return trustedDigest("optimize", struct {
		Header                    headerTrust
		Side, Where, Rules, Block string
		Vary                      []Axis
		Options                   []NamedSets
		Alpha, Delta              float64
		Search                    *experiment.OptimizeResult
		Stage                     *experiment.StageSums
	}{trustOf(&o.Header), o.Side, o.Where, o.Rules, o.Block, o.Vary, o.Options, o.Guarantee.Alpha, o.Guarantee.Delta, o.Search, o.Stage})
}

// TrustedDigest is the digest of what a resume of this interrupted run
// trusts, which the result records as its resume_digest.
func (r *Result) TrustedDigest() string {
	return trustedDigest("run", struct {
		Version, SHA256 string
		Seed            uint64
		Sets            []string
		Shard           *Shard
		Unplayed        [][2]int64
		Encounters      int64
		Tally           Raw
	}{r.Version, r.ScenarioSHA256, r.Seed, r.Sets, r.Shard, r.Unplayed, r.Encounters, r.Raw})
}

// TrustedDigest is the resume digest of an interrupted comparison.
func (c *Compare) TrustedDigest() string {
	type option struct {
		Name       string
		Sets       []string
		Encounters int64
		Tally      Raw
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
	return trustedDigest("compare", struct {
		Header     headerTrust
		Encounters int64
		Options    []option
	}{headerTrust{Kind: "compare", Version: c.Version, SHA256: sum, Seed: c.Seed, Sets: c.Sets, Shard: c.Shard, Unplayed: c.Unplayed}, c.Encounters, opts})
}

// TrustedDigest is the resume digest of an interrupted value run.
func (v *Value) TrustedDigest() string {
	return trustedDigest("value", struct {
		Header     headerTrust
		Side       string
		Params     []ValueParam
		Encounters int64
		Joint      stats.Joint
	}{trustOf(&v.Header), v.Side, v.Params, v.Encounters, v.Joint})
}

// TrustedDigest is the resume digest of an interrupted matrix.
func (m *Matrix) TrustedDigest() string {
	return trustedDigest("matrix", struct {
		Header     headerTrust
		RowSide    string
		Rows, Cols []NamedSets
		Encounters int64
		Joint      stats.Joint
	}{trustOf(&m.Header), m.RowSide, m.RowOptions, m.ColOptions, m.Encounters, m.Joint})
}

// TrustedDigest is the resume digest of an unfinished tournament: its
// state is what a resume goes on from.
func (t *Tournament) TrustedDigest() string {
	return trustedDigest("tournament", struct {
		Header  headerTrust
		Side    string
		Options []NamedSets
		State   *experiment.SelectState
	}{trustOf(&t.Header), t.Side, t.Options, t.State})
}

// TrustedDigest is the resume digest of an interrupted sweep: a resume
// keeps its finished points' counts.
func (sw *Sweep) TrustedDigest() string {
	type point struct {
		Values                           []string
		Reached, Unfinished, Interrupted bool
		Encounters                       int64
		Tally                            Raw
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
	return trustedDigest("sweep", struct {
		Header      headerTrust
		MaxN, Batch int64
		Precision   float64
		Axes        []Axis
		Points      []point
	}{headerTrust{Kind: "sweep", Version: sw.Version, SHA256: sum, Seed: sw.Seed, Sets: sw.Sets, Shard: sw.Shard}, sw.MaxN, sw.Batch, sw.Precision, sw.Axes, pts})
}
