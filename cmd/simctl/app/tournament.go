package app

import (
	"context"
	"reflect"
	"simctl/sim/msg"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"simctl/reports/results"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// TournamentRequest is a tournament: candidates of one side raced on
// common random numbers, eliminated stage by stage (experiment.Select).
type TournamentRequest struct {
	Source *Source
	Sets   []scenario.Set
	Side   string // the side whose candidates compete; "": the first
	// The candidates: Options, then one per combination of the Axes'
	// values (named PATH=VALUE ...).
	Options []Option
	Axes    []results.Axis
	Params  experiment.SelectParams
	Seed    uint64
	Workers int
	// Resume is an earlier, unfinished run of the same tournament
	// (ResumePath names it in messages): its finished stages are kept.
	Resume     *results.Tournament
	ResumePath string
	Command    string
}

// Check refuses selection parameters the procedure's guarantee does not
// cover.
func (req *TournamentRequest) Check() error {
	if err := req.Params.Check(); err != nil {
		return usage(true, "--alpha, --delta, --first, --batch or -n: %v", err)
	}
	return nil
}

// Tournament plays req and returns its document (marked interrupted if
// ctx ended it, with the state to resume from).
func Tournament(ctx context.Context, req *TournamentRequest, obs *Observer) (*results.Tournament, error) {
	if obs == nil {
		obs = &Observer{}
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	src, params := req.Source, req.Params
	sc, si, sideName, err := sideScenario(src, req.Sets, req.Side, obs.Warn)
	if err != nil {
		return nil, err
	}
	cands := append([]Option(nil), req.Options...)
	if axes := req.Axes; len(axes) > 0 {
		for i := range axes {
			if err := CheckWholeSteps(src, req.Sets, &axes[i], obs.Warn); err != nil {
				return nil, usage(true, "%v", err)
			}
		}
		for _, vals := range results.Grid(axes) {
			var op Option
			var parts []string
			for i, a := range axes {
				op.Sets = append(op.Sets, scenario.Set{Path: a.Path, Value: vals[i]})
				parts = append(parts, a.Path+"="+vals[i])
			}
			op.Name = strings.Join(parts, " ")
			cands = append(cands, op)
		}
	}
	if len(cands) < 2 {
		return nil, usage(true, "%d candidate(s); a tournament needs at least two (--option or --vary)", len(cands))
	}
	if len(cands) > results.MaxSweepPoints {
		return nil, usage(true, "%d candidates; at most %d", len(cands), results.MaxSweepPoints)
	}
	seen := map[string]bool{}
	extra := make([][]scenario.Set, len(cands))
	names := make([]string, len(cands))
	for k, c := range cands {
		if seen[c.Name] {
			return nil, usage(true, "candidate %q is given twice", c.Name)
		}
		seen[c.Name] = true
		extra[k], names[k] = c.Sets, c.Name
	}
	games, err := CompileAll(src, req.Sets, extra, func(k int) msg.Text { return msg.New("candidate %s", names[k]) }, obs.Warn)
	if err != nil {
		return nil, err
	}
	t := &results.Tournament{Header: DocHeader("tournament", src, sc, req.Seed, req.Command, req.Sets, obs.Warn), Format: results.TournamentFormat}
	for k := range cands {
		t.Options = append(t.Options, results.NamedSets{Name: names[k], Sets: setList(extra[k])})
	}
	tc := experiment.SelectConfig{Seed: req.Seed, Workers: req.Workers, Params: params}
	var before float64
	if old := req.Resume; old != nil {
		if err := checkTournamentResume(old, req.ResumePath, t, sideName, params); err != nil {
			return nil, &Error{Kind: Usage, Err: err}
		}
		tc.Resume, before = old.State, old.Elapsed
		obs.note("resuming %s: %d stage(s) finished, %d candidates left", req.ResumePath, len(old.Stages), len(old.State.Alive))
	}
	// Each finished stage is handed over as it completes (marked
	// interrupted, with the state to resume from), so a tournament killed
	// at any moment loses one stage at most.
	t0 := time.Now()
	if obs.Checkpoint != nil || obs.Interim != nil {
		tc.OnStage = func(r *experiment.Selection) {
			cp := *t
			cp.Selection, cp.Interrupted, cp.Elapsed = *r, true, before+time.Since(t0).Seconds()
			cp.ResumeDigest = cp.TrustedDigest()
			if obs.Checkpoint != nil {
				obs.Checkpoint(&cp)
			}
			if obs.Interim != nil {
				obs.Interim(&cp)
			}
		}
	}
	var done atomic.Int64
	tc.Done = &done
	// Progress counts encounter indices: a stage adds its size once
	// (every candidate left plays it), the budget is the most there are.
	var already int64
	if tc.Resume != nil {
		already = tc.Resume.Start
	}
	stop := obs.progress(params.Budget-already, &done)
	res, runErr := experiment.Select(ctx, games, names, si, sideName, tc)
	stop()
	interrupted := isInterrupt(runErr)
	if runErr != nil && !interrupted {
		return nil, &Error{Kind: Failed, Err: runErr}
	}
	t.Selection = *res
	t.Elapsed, t.Interrupted = before+time.Since(t0).Seconds(), interrupted
	if interrupted && t.State != nil && !t.State.Finished() {
		t.ResumeDigest = t.TrustedDigest()
	}
	return t, nil
}

// checkTournamentResume checks an unfinished tournament's document is
// this one's: the same simctl, scenario text, seed, overrides, side,
// candidates and settings (--alpha, --delta, --first, --batch, -n).
func checkTournamentResume(old *results.Tournament, path string, t *results.Tournament, side string, params experiment.SelectParams) error {
	p := old.State.Params
	switch {
	case old.State.Finished():
		return msg.Errorf("--resume %s: that tournament finished (%s); nothing to resume", path, old.Outcome)
	case old.ScenarioSHA256 != t.ScenarioSHA256:
		return results.ResumeRefused(path, "that tournament's scenario text differs (SHA-256 %.12s, this one %.12s)", old.ScenarioSHA256, t.ScenarioSHA256)
	case old.Version != t.Version:
		return results.ResumeRefused(path, "that tournament was made by simctl %s, this is %s", old.Version, t.Version)
	case old.Seed != t.Seed:
		return results.ResumeRefused(path, "that tournament has seed %d, this one %d", old.Seed, t.Seed)
	case !slices.Equal(old.Sets, t.Sets):
		return results.ResumeRefused(path, "that tournament has --set %v, this one %v", old.Sets, t.Sets)
	case p != params:
		return results.ResumeRefused(path, "that tournament has --alpha %g --delta %gpp --first %d --batch %d -n %d, this one --alpha %g --delta %gpp --first %d --batch %d -n %d",
			p.Alpha, 100*p.Delta, p.First, p.Batch, p.Budget, params.Alpha, 100*params.Delta, params.First, params.Batch, params.Budget)
	case old.Side != side || !reflect.DeepEqual(old.Options, t.Options):
		return results.ResumeRefused(path, "that tournament has other candidates (--option, --vary) or another --side")
	}
	return results.CheckDigest(path, old.ResumeDigest, old.TrustedDigest())
}
