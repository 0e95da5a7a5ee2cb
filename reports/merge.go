package reports

import (
	"fmt"
	"slices"
	"sort"
)

// Merge combines shard results of one run into the result of the whole run.
// It refuses results of different scenarios, seeds, rosters or counters,
// and overlapping shards, because their sum would be meaningless.
func Merge(rs []*Result) (*Result, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("merge: no results")
	}
	sorted := append([]*Result(nil), rs...)
	sort.SliceStable(sorted, func(i, j int) bool { return start(sorted[i]) < start(sorted[j]) })
	first := sorted[0]
	raw := first.Raw
	raw.Rounds = append([]int64(nil), raw.Rounds...)
	raw.Counts = append([]int64(nil), raw.Counts...)
	raw.FirstActor = append([]int64(nil), raw.FirstActor...)
	elapsed := first.Elapsed
	interrupted := first.Interrupted
	end := start(first) + first.Encounters
	for _, r := range sorted[1:] {
		switch {
		case r.Scenario != first.Scenario || r.Ruleset != first.Ruleset:
			return nil, fmt.Errorf("merge: %q (%s) and %q (%s) are different scenarios", first.Scenario, first.Ruleset, r.Scenario, r.Ruleset)
		case r.Seed != first.Seed:
			return nil, fmt.Errorf("merge: seeds %d and %d differ; shards of one run share its seed", first.Seed, r.Seed)
		case !slices.Equal(r.Raw.Roster, raw.Roster) || !slices.Equal(r.Raw.Counters, raw.Counters) || len(r.Raw.Rounds) != len(raw.Rounds):
			return nil, fmt.Errorf("merge: results of %q differ in roster, counters or max_rounds (different --set?)", r.Scenario)
		case !slices.Equal(r.Sets, first.Sets):
			return nil, fmt.Errorf("merge: results differ in --set overrides (%v vs %v)", first.Sets, r.Sets)
		case r.Shard != nil && start(r) < end:
			return nil, fmt.Errorf("merge: shard %d/%d overlaps encounters already merged (indices from %d)", r.Shard.K, r.Shard.Of, start(r))
		}
		end = start(r) + r.Encounters
		raw.Wins[0] += r.Raw.Wins[0]
		raw.Wins[1] += r.Raw.Wins[1]
		raw.Draws += r.Raw.Draws
		raw.Encounters += r.Raw.Encounters
		raw.RoundsOver += r.Raw.RoundsOver
		raw.RoundsSum += r.Raw.RoundsSum
		raw.RoundsMax = max(raw.RoundsMax, r.Raw.RoundsMax)
		raw.Survivors[0] += r.Raw.Survivors[0]
		raw.Survivors[1] += r.Raw.Survivors[1]
		raw.NoActor += r.Raw.NoActor
		for i, v := range r.Raw.Rounds {
			raw.Rounds[i] += v
		}
		for i, v := range r.Raw.Counts {
			raw.Counts[i] += v
		}
		for i, v := range r.Raw.FirstActor {
			raw.FirstActor[i] += v
		}
		elapsed = max(elapsed, r.Elapsed)
		interrupted = interrupted || r.Interrupted
	}
	m := Meta{Scenario: first.Scenario, File: first.File, Ruleset: first.Ruleset, Version: first.Version,
		Seed: first.Seed, Elapsed: elapsed, Sets: first.Sets, Interrupted: interrupted,
		Sides: [2]string{first.Sides[0].Name, first.Sides[1].Name}}
	if first.Shard != nil {
		m.Command = first.Command
	}
	return FromRaw(m, raw), nil
}

func start(r *Result) int64 {
	if r.Shard == nil {
		return 0
	}
	return r.Shard.Start
}
