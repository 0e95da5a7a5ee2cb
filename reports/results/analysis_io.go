package results

import (
	"encoding/json"
	"reflect"
	"simctl/sim/msg"
	"slices"

	"simctl/sim/experiment"
	"simctl/sim/scenario"
	"simctl/stats"
)

// Reading the value, matrix and tournament documents back (for --resume
// and merge), checking that their exact sums can be right, and merging
// shards of value and matrix runs: their figures all come from one
// stats.Joint of integer sums, so merging is adding.

func parseValue(path string, data []byte) (*Value, error) {
	var v Value
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, msg.Errorf("%s: a damaged simctl value document: %s", path, jsonProblem(err))
	}
	if len(v.Params) == 0 {
		return nil, msg.Errorf("%s: a value document with no parameters", path)
	}
	if err := checkHeader(&v.Header); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	if err := checkJoint(&v.Joint, 1+2*len(v.Params), v.Encounters); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	if _, err := v.params(); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	return &v, nil
}

func parseMatrix(path string, data []byte) (*Matrix, error) {
	var m Matrix
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, msg.Errorf("%s: a damaged simctl matrix: %s", path, jsonProblem(err))
	}
	if len(m.Rows) == 0 || len(m.Cols) == 0 || len(m.RowOptions) != len(m.Rows) || len(m.ColOptions) != len(m.Cols) {
		return nil, msg.Errorf("%s: a matrix whose options are missing or damaged", path)
	}
	if err := checkHeader(&m.Header); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	if err := checkJoint(&m.Joint, len(m.Rows)*len(m.Cols), m.Encounters); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	return &m, nil
}

func parseTournament(path string, data []byte) (*Tournament, error) {
	var t Tournament
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, msg.Errorf("%s: a damaged simctl tournament: %s", path, jsonProblem(err))
	}
	if t.Format != TournamentFormat {
		return nil, msg.Errorf("%s: a tournament of format %d, this simctl reads format %d (the selection with a guarantee; a tournament written by an older simctl ranked by rounds of unadjusted tests): run the tournament again with this simctl", path, t.Format, TournamentFormat)
	}
	if len(t.Options) < 2 {
		return nil, msg.Errorf("%s: a tournament with fewer than two options", path)
	}
	if err := checkHeader(&t.Header); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	if t.State == nil {
		return nil, msg.Errorf("%s: a tournament without its state (the sums its standings come from); the file is damaged", path)
	}
	if err := t.State.Check(len(t.Options)); err != nil {
		return nil, msg.Errorf("%s: %v", path, err)
	}
	// The standings are recomputed from the state, so a document whose
	// figures were edited (or damaged) apart from its sums is refused.
	if !reflect.DeepEqual(t.State.Result(t.Names(), t.Side), &t.Selection) {
		return nil, msg.Errorf("%s: a tournament whose standings are not those of its state (edited or damaged)", path)
	}
	return &t, nil
}

// Names are the options' names in candidate order.
func (t *Tournament) Names() []string {
	ns := make([]string, len(t.Options))
	for i, o := range t.Options {
		ns[i] = o.Name
	}
	return ns
}

// checkHeader refuses a shard or unplayed list that cannot be right.
func checkHeader(h *Header) error {
	if s := h.Shard; s != nil {
		if s.Of < 1 || s.K < 0 || s.K >= s.Of || s.Start < 0 || s.N < 0 || s.Total < 1 || s.Start > s.Total || s.N > s.Total-s.Start {
			return msg.Errorf("shard %d/%d covering encounters %d to %d of %d is out of range; the file is damaged",
				s.K, s.Of, s.Start, s.Start+s.N-1, s.Total)
		}
	}
	if c := h.Context; c != nil && c.ScenarioYAML != "" && (c.ScenarioSHA256 != h.ScenarioSHA256 || ScenarioSum([]byte(c.ScenarioYAML)) != h.ScenarioSHA256) {
		return msg.Errorf("scenario_sha256 is not the SHA-256 of the scenario text in its context; the file was edited")
	}
	for i, u := range h.Unplayed {
		if u[0] < 0 || u[1] <= u[0] || (i > 0 && u[0] < h.Unplayed[i-1][1]) {
			return msg.Errorf("its unplayed ranges are out of order or out of range; the file is damaged")
		}
	}
	return nil
}

// checkJoint refuses joint win indicators that cannot be right: the wrong
// shape, or sums that 0/1 outcomes cannot make (a damaged or edited file).
func checkJoint(j *stats.Joint, k int, n int64) error {
	if j.K != k || len(j.Sum) != k || len(j.Cross) != k*k {
		return msg.Errorf("its joint section (the exact sums) has the wrong shape for %d games; the file is damaged", k)
	}
	if j.N != n || n < 0 {
		return msg.Errorf("encounters %d differs from the joint sums' %d; the file is damaged", n, j.N)
	}
	for a := 0; a < k; a++ {
		if sa := j.Sum[a]; sa < 0 || sa > n || j.Cross[a*k+a] != sa {
			return msg.Errorf("game %d's win count %d is not between 0 and %d encounters, or disagrees with its square sum; the file is damaged", a, sa, n)
		}
	}
	for a := 0; a < k; a++ {
		sa := j.Sum[a]
		for b := 0; b < k; b++ {
			c, sb := j.Cross[a*k+b], j.Sum[b]
			if b < a && c != 0 || b > a && (c < max(0, sa+sb-n) || c > min(sa, sb)) {
				return msg.Errorf("the joint wins of games %d and %d (%d) are impossible with %d and %d wins in %d encounters; the file is damaged", a, b, c, sa, sb, n)
			}
		}
	}
	return nil
}

// params rebuilds the parameters a value document was made with, from
// their names, steps and overrides.
func (v *Value) params() ([]experiment.Param, error) {
	parse := func(name string, l []string) ([]scenario.Set, error) {
		var sets []scenario.Set
		for _, s := range l {
			set, err := scenario.ParseSet(s)
			if err != nil {
				return nil, msg.Errorf("parameter %s: %v; the file is damaged", name, err)
			}
			sets = append(sets, set)
		}
		return sets, nil
	}
	var ps []experiment.Param
	for _, vp := range v.Params {
		p := experiment.Param{Name: vp.Name, Step: vp.Step}
		var err error
		if p.Down, err = parse(vp.Name, vp.Down); err != nil {
			return nil, err
		}
		if p.Up, err = parse(vp.Name, vp.Up); err != nil {
			return nil, err
		}
		for _, s := range p.Down {
			p.Paths = append(p.Paths, s.Path)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// MergeValueSums checks that vs are shards of one value run (value
// --shard k/K) and adds their sums: the header, joint sums and parameters
// of the document one process would have made, whose figures the caller
// computes from them (experiment.Analyse and Swings; results compute
// nothing).
func MergeValueSums(vs []*Value) (Header, stats.Joint, []experiment.Param, error) {
	hs := make([]*Header, len(vs))
	js := make([]*stats.Joint, len(vs))
	for i, v := range vs {
		hs[i], js[i] = &v.Header, &v.Joint
		if v.Side != vs[0].Side || !slices.EqualFunc(v.Params, vs[0].Params, func(a, b ValueParam) bool {
			return a.Name == b.Name && a.Step == b.Step && slices.Equal(a.Down, b.Down) && slices.Equal(a.Up, b.Up)
		}) {
			return Header{}, stats.Joint{}, nil, msg.Errorf("merge: value %d of %d (shard %s) values another side or other parameters than value 1", i+1, len(vs), shardName(v.Shard))
		}
	}
	h, j, err := mergeJoints("value", hs, js)
	if err != nil {
		return Header{}, stats.Joint{}, nil, err
	}
	ps, err := vs[0].params()
	if err != nil {
		return Header{}, stats.Joint{}, nil, msg.Errorf("%s: %v", "merge", err)
	}
	return h, j, ps, nil
}

// MergeMatrixSums checks that ms are shards of one matrix run (matrix
// --shard k/K) and adds their sums: the header and joint sums of the
// document one process would have made, whose figures the caller computes
// (experiment.Matrix).
func MergeMatrixSums(ms []*Matrix) (Header, stats.Joint, error) {
	hs := make([]*Header, len(ms))
	js := make([]*stats.Joint, len(ms))
	same := func(a, b NamedSets) bool { return a.Name == b.Name && slices.Equal(a.Sets, b.Sets) }
	for i, m := range ms {
		hs[i], js[i] = &m.Header, &m.Joint
		if m.RowSide != ms[0].RowSide || !slices.EqualFunc(m.RowOptions, ms[0].RowOptions, same) || !slices.EqualFunc(m.ColOptions, ms[0].ColOptions, same) {
			return Header{}, stats.Joint{}, msg.Errorf("merge: matrix %d of %d (shard %s) has other options or another row side than matrix 1", i+1, len(ms), shardName(m.Shard))
		}
	}
	return mergeJoints("matrix", hs, js)
}

// mergeJoints checks that the documents are shards of one experiment (the
// same kind, simctl version, scenario text, seed, overrides and -n;
// finished; no encounter given twice) and adds their sums. The header it
// returns is the first shard's without the shard, marked incomplete when
// the shards do not cover every encounter.
func mergeJoints(kind string, hs []*Header, js []*stats.Joint) (Header, stats.Joint, error) {
	first := hs[0]
	for i, h := range hs {
		var what msg.Text
		switch {
		case h.Shard == nil:
			return Header{}, stats.Joint{}, msg.Errorf("merge: %s %d of %d is whole (made without --shard); merge combines the shards of one %s run (simctl %s --shard k/K)", kind, i+1, len(hs), kind, kind)
		case h.Version != first.Version:
			what = msg.New("was made by simctl %s, %s 1 by %s", h.Version, kind, first.Version)
		case h.ScenarioSHA256 != first.ScenarioSHA256:
			what = msg.New("ran another scenario text (SHA-256 %s vs %s); was the file edited between shards?", short(h.ScenarioSHA256), short(first.ScenarioSHA256))
		case h.Seed != first.Seed || h.Shard.Total != first.Shard.Total:
			what = msg.New("has seed %d and -n %d, %s 1 seed %d and -n %d", h.Seed, h.Shard.Total, kind, first.Seed, first.Shard.Total)
		case !slices.Equal(h.Sets, first.Sets):
			what = msg.New("has --set %v, %s 1 %v", h.Sets, kind, first.Sets)
		case js[i].K != js[0].K:
			what = msg.New("plays another number of games")
		case h.Interrupted:
			what = msg.New("was interrupted; resume that shard (--resume FILE) or run it again")
		case js[i].N != h.Shard.N:
			what = msg.New("played %d encounters of its %d; the file is damaged", js[i].N, h.Shard.N)
		}
		if what.Format != "" {
			return Header{}, stats.Joint{}, msg.Errorf("merge: %s %d of %d (shard %s) %s", kind, i+1, len(hs), shardName(h.Shard), what)
		}
	}
	order := make([]int, len(hs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := hs[a].Shard, hs[b].Shard
		if sa.Start != sb.Start {
			return int(min(max(sa.Start-sb.Start, -1), 1))
		}
		return int(min(max(sa.N-sb.N, -1), 1))
	})
	j := stats.NewJoint(js[0].K)
	var reach, covered int64
	h := *first
	for n, i := range order {
		s := hs[i].Shard
		if n > 0 && s.Start < reach && s.N > 0 {
			return Header{}, stats.Joint{}, msg.Errorf("merge: %s shard %s overlaps another (encounters %d to %d given twice)", kind, shardName(s), s.Start, min(s.Start+s.N, reach)-1)
		}
		reach = max(reach, s.Start+s.N)
		covered += js[i].N
		j.Merge(js[i])
		h.Elapsed = max(h.Elapsed, hs[i].Elapsed)
	}
	h.Shard, h.Command, h.Unplayed, h.Interrupted = nil, "", nil, false
	h.Incomplete = covered < first.Shard.Total
	return h, j, nil
}
