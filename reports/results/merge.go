package results

import (
	"simctl/sim/msg"
	"slices"
	"sort"

	"simctl/sim"
)

// Merge combines shard results of one run into the result of the whole run.
// It refuses results of different scenarios, seeds, rosters, counters,
// overrides or run sizes, and shards whose encounters overlap (the same
// file twice, or two unsharded results of one run), because their sum would
// be meaningless. Shards may be missing: the merged result then covers the
// encounters of the shards given (see Coverage).
func Merge(rs []*Result) (*Result, error) {
	if len(rs) == 0 {
		return nil, msg.Errorf("merge: no results")
	}
	for _, r := range rs {
		if err := r.check(); err != nil {
			return nil, msg.Errorf("merge: %s of %q: %v", describe(r), r.Scenario, err)
		}
		if err := r.consistent(); err != nil {
			return nil, msg.Errorf("merge: %s of %q: %v", describe(r), r.Scenario, err)
		}
	}
	sorted := append([]*Result(nil), rs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if start(a) != start(b) {
			return start(a) < start(b)
		}
		return end(a) < end(b)
	})
	first := sorted[0]
	raw := first.Raw
	raw.Rounds = append([]int64(nil), raw.Rounds...)
	raw.Counts = append([]int64(nil), raw.Counts...)
	raw.FirstActor = append([]int64(nil), raw.FirstActor...)
	raw.FirstInOrder = append([]int64(nil), raw.FirstInOrder...)
	raw.Combatants = append([]sim.Combatant(nil), raw.Combatants...)
	raw.CountsSq = append([]int64(nil), raw.CountsSq...)
	for s := 0; s < 2; s++ {
		raw.Damage[s].Counts = append([]int64{}, raw.Damage[s].Counts...)
		raw.WinnerHP[s].Counts = append([]int64{}, raw.WinnerHP[s].Counts...)
	}
	elapsed := first.Elapsed
	interrupted := first.Interrupted
	prev := first // the merged shard reaching furthest
	var ck adder
	for _, r := range sorted[1:] {
		switch {
		case r.Scenario != first.Scenario || r.Ruleset != first.Ruleset:
			return nil, msg.Errorf("merge: %q (%s) and %q (%s) are different scenarios", first.Scenario, first.Ruleset, r.Scenario, r.Ruleset)
		case r.Version != first.Version:
			return nil, msg.Errorf("merge: %s was made by simctl %s and %s by simctl %s; shards of one run come from one version (the rules may differ)",
				describe(first), first.Version, describe(r), r.Version)
		case r.ScenarioSHA256 != first.ScenarioSHA256:
			return nil, msg.Errorf("merge: %s and %s ran different scenario texts (SHA-256 %s vs %s), though both are named %q; was the file edited between shards?",
				describe(first), describe(r), short(first.ScenarioSHA256), short(r.ScenarioSHA256), r.Scenario)
		case r.Seed != first.Seed:
			return nil, msg.Errorf("merge: seeds %d and %d differ; shards of one run share its seed", first.Seed, r.Seed)
		case !slices.Equal(r.Raw.Roster, raw.Roster) || !slices.Equal(r.Raw.Counters, raw.Counters) || len(r.Raw.Rounds) != len(raw.Rounds):
			return nil, msg.Errorf("merge: results of %q differ in roster, counters or max_rounds (different --set?)", r.Scenario)
		case !slices.Equal(r.Raw.RosterSides, raw.RosterSides) || len(r.Raw.FirstInOrder) != len(raw.FirstInOrder) ||
			len(r.Raw.Combatants) != len(raw.Combatants) || r.Raw.Damage[0].Cap != raw.Damage[0].Cap || r.Raw.WinnerHP[0].Cap != raw.WinnerHP[0].Cap ||
			len(r.Raw.CountsSq) != len(raw.CountsSq):
			return nil, msg.Errorf("merge: results of %q were written by different simctl versions (per-combatant figures or distributions differ in shape); rerun them with one version", r.Scenario)
		case !slices.Equal(r.Sets, first.Sets):
			return nil, msg.Errorf("merge: results differ in --set overrides (%v vs %v)", first.Sets, r.Sets)
		case r.Sides[0].Name != first.Sides[0].Name || r.Sides[1].Name != first.Sides[1].Name:
			return nil, msg.Errorf("merge: results differ in side names (%s/%s vs %s/%s)", first.Sides[0].Name, first.Sides[1].Name, r.Sides[0].Name, r.Sides[1].Name)
		case r.Shard != nil && first.Shard != nil && r.Shard.Total != first.Shard.Total:
			return nil, msg.Errorf("merge: %s is a shard of a run of %d encounters and %s of %d; shards of one run share -n",
				describe(first), first.Shard.Total, describe(r), r.Shard.Total)
		case start(r) < end(prev) && start(r) < end(r):
			return nil, msg.Errorf("merge: %s overlaps %s (encounters %d to %d given twice)",
				describe(r), describe(prev), start(r), min(end(r), end(prev))-1)
		}
		if end(r) > end(prev) {
			prev = r
		}
		// Every addition is checked: genuine counts of one run cannot
		// overflow int64, so an overflow is a forged or damaged file.
		ck.add(&raw.Wins[0], r.Raw.Wins[0])
		ck.add(&raw.Wins[1], r.Raw.Wins[1])
		ck.add(&raw.Draws, r.Raw.Draws)
		ck.add(&raw.Encounters, r.Raw.Encounters)
		ck.add(&raw.RoundsOver, r.Raw.RoundsOver)
		ck.add(&raw.RoundsSum, r.Raw.RoundsSum)
		raw.RoundsMax = max(raw.RoundsMax, r.Raw.RoundsMax)
		ck.add(&raw.Survivors[0], r.Raw.Survivors[0])
		ck.add(&raw.Survivors[1], r.Raw.Survivors[1])
		ck.add(&raw.NoActor, r.Raw.NoActor)
		ck.addAll(raw.Rounds, r.Raw.Rounds)
		ck.addAll(raw.Counts, r.Raw.Counts)
		ck.addAll(raw.CountsSq, r.Raw.CountsSq)
		ck.addAll(raw.FirstActor, r.Raw.FirstActor)
		ck.add(&raw.DrawsMaxRounds, r.Raw.DrawsMaxRounds)
		ck.add(&raw.DrawsAllGone, r.Raw.DrawsAllGone)
		ck.add(&raw.NoOrder, r.Raw.NoOrder)
		ck.add(&raw.Ended, r.Raw.Ended)
		ck.addAll(raw.FirstInOrder, r.Raw.FirstInOrder)
		for i := range r.Raw.Combatants {
			ck.addCombatant(&raw.Combatants[i], &r.Raw.Combatants[i])
		}
		for s := 0; s < 2; s++ {
			ck.add(&raw.AnyDown[s], r.Raw.AnyDown[s])
			ck.addHist(&raw.Damage[s], r.Raw.Damage[s])
			ck.addHist(&raw.WinnerHP[s], r.Raw.WinnerHP[s])
		}
		if ck.bad {
			return nil, msg.Errorf("merge: adding %s overflows the counts (beyond 2^63); no genuine shards of one run can, so a file is damaged or was edited", describe(r))
		}
		var err error
		if raw.Tactics, err = mergeRules(raw.Tactics, r.Raw.Tactics); err != nil {
			return nil, err
		}
		if raw.Traits, err = mergeTraits(raw.Traits, r.Raw.Traits); err != nil {
			return nil, err
		}
		elapsed = max(elapsed, r.Elapsed)
		interrupted = interrupted || r.Interrupted
	}
	m := Meta{Scenario: first.Scenario, File: first.File, Ruleset: first.Ruleset, Version: first.Version,
		Seed: first.Seed, Elapsed: elapsed, Sets: first.Sets, Interrupted: interrupted,
		Sides:          [2]string{first.Sides[0].Name, first.Sides[1].Name},
		ScenarioSHA256: first.ScenarioSHA256, ScenarioText: first.ScenarioText}
	for _, r := range sorted {
		if m.ScenarioText == "" {
			m.ScenarioText = r.ScenarioText
		}
	}
	if covered, whole := Coverage(rs); covered < whole {
		m.Incomplete = true
	}
	if first.Shard == nil {
		m.Command = first.Command
	}
	out := FromRaw(m, raw)
	if err := out.consistent(); err != nil {
		return nil, msg.Errorf("merge: the merged result: %v", err)
	}
	return out, nil
}

// Coverage reports how many encounters of the whole run the results cover
// (the sum of their encounters) and how many the run has (-n; for results
// without a shard, their own count). A merge of every finished shard covers
// the whole run; fewer means shards are missing or were interrupted.
func Coverage(rs []*Result) (covered, whole int64) {
	for _, r := range rs {
		covered += r.Encounters
		if r.Shard != nil {
			whole = max(whole, r.Shard.Total)
		} else {
			whole = max(whole, r.Encounters)
		}
	}
	return covered, whole
}

// start and end bound the encounter indices a result was asked to play
// (an interrupted shard played fewer, but no other shard plays those).
func start(r *Result) int64 {
	if r.Shard == nil {
		return 0
	}
	return r.Shard.Start
}

func end(r *Result) int64 {
	if r.Shard == nil {
		return r.Encounters
	}
	return r.Shard.Start + r.Shard.N
}

// short is the start of a SHA-256, enough to tell two apart in a message.
func short(sum string) string {
	if sum == "" {
		return "none recorded"
	}
	return sum[:min(len(sum), 12)]
}

func describe(r *Result) msg.Text {
	if r.Shard == nil {
		return msg.New("an unsharded result")
	}
	return msg.New("shard %d/%d", r.Shard.K, r.Shard.Of)
}
