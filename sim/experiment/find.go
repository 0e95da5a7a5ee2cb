package experiment

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/msg"
	"simctl/sim/names"
	"simctl/sim/rng"
)

// Probe reads facts about one finished encounter, for `simctl find
// --where COND` (which encounters match) and `simctl trace --pick`
// (which encounter is the min, median, max or a percentile of a metric).
// Conditions and metrics are written in the expression language
// (sim/lang), over these facts:
//
//	rounds, draw
//	side("NAME").won / .survivors / .down / .damage / .first / .first_in_order
//	side("NAME").COUNTER        every action-economy counter (turns, readies, ...)
//	combatant("NAME").down / .gone / .hp / .dealt / .taken / .kills / .turns / .lost / .first
//	rule("NAME").fired / .fell  the times a tactics rule of that name decided or fell through
//
// A combatant is named as in the roster (Orc#2), or by its template name
// when it has one copy.
type Probe struct {
	g        sim.Game
	roster   []sim.Entrant
	sides    [2]string
	counters []string
	env      lang.Env
	// rules are the tactics rule names of g's combatants; ruleAt[i] holds
	// the Counts.Rules indices where rule i fired ([0]) or fell through
	// ([1]), over every combatant and moment.
	rules  []string
	ruleAt [][2][]int
}

// Probe fact kinds (the Fact's index in env.Facts maps to one of these).
const (
	pRounds = iota
	pDraw
	pSideWon
	pSideSurvivors
	pSideDown
	pSideDamage
	pSideFirst
	pSideFirstInOrder
	pCombDown
	pCombGone
	pCombHP
	pCombDealt
	pCombTaken
	pCombKills
	pCombTurns
	pCombLost
	pCombFirst
	pCounter // + counter index
)

// The probe's own argument kinds: side("NAME") and combatant("NAME").
const (
	sideArg = lang.NoArg + 1 + iota
	combatantArg
	ruleArg // rule("NAME"): a tactics rule of the scenario
)

// NewProbe declares the facts of g's encounters; sides are the side names.
func NewProbe(g sim.Game, sides [2]string) *Probe {
	p := &Probe{g: g, roster: g.Roster(), sides: sides, counters: g.Counters()}
	num, boolean := lang.Number, lang.Bool
	facts := []lang.Fact{
		{Name: "rounds", Type: num, Doc: "regular rounds played"},
		{Name: "draw", Type: boolean, Doc: "nobody won"},
		{Name: "side.won", Type: boolean, Arg: sideArg, Doc: "the side won"},
		{Name: "side.survivors", Type: num, Arg: sideArg, Doc: "its combatants still in the fight at the end"},
		{Name: "side.down", Type: num, Arg: sideArg, Doc: "its combatants that ended down (dead, dying, unconscious)"},
		{Name: "side.damage", Type: num, Arg: sideArg, Doc: "damage it dealt"},
		{Name: "side.first", Type: boolean, Arg: sideArg, Doc: "one of its combatants took the first action"},
		{Name: "side.first_in_order", Type: boolean, Arg: sideArg, Doc: "one of its combatants was first in the initiative order"},
		{Name: "combatant.down", Type: boolean, Arg: combatantArg, Doc: "it ended down"},
		{Name: "combatant.gone", Type: boolean, Arg: combatantArg, Doc: "it ended out of the fight otherwise (fled, routed)"},
		{Name: "combatant.hp", Type: num, Arg: combatantArg, Doc: "its hit points at the end"},
		{Name: "combatant.dealt", Type: num, Arg: combatantArg, Doc: "damage it dealt"},
		{Name: "combatant.taken", Type: num, Arg: combatantArg, Doc: "damage it took"},
		{Name: "combatant.kills", Type: num, Arg: combatantArg, Doc: "combatants it put down"},
		{Name: "combatant.turns", Type: num, Arg: combatantArg, Doc: "turns it had"},
		{Name: "combatant.lost", Type: num, Arg: combatantArg, Doc: "actions it lost"},
		{Name: "combatant.first", Type: boolean, Arg: combatantArg, Doc: "it took the first action"},
	}
	for _, c := range p.counters {
		facts = append(facts, lang.Fact{Name: "side." + c, Type: num, Arg: sideArg, Doc: "the side's " + c + " counter"})
	}
	// The rule facts come after the counters: fact pCounter+len(counters)
	// and the next (value).
	facts = append(facts,
		lang.Fact{Name: "rule.fired", Type: num, Arg: ruleArg, Doc: "times the tactics rule decided (every combatant's rule of that name)"},
		lang.Fact{Name: "rule.fell", Type: num, Arg: ruleArg, Doc: "times its condition held but its decision could not be carried out"})
	if rg, ok := g.(sim.RuleGame); ok {
		for k, rc := range rg.RuleCounters() {
			if rc.Trait {
				continue // a trait's counters are not a tactics rule's
			}
			i := slices.Index(p.rules, rc.Rule)
			if i < 0 {
				p.rules, p.ruleAt = append(p.rules, rc.Rule), append(p.ruleAt, [2][]int{})
				i = len(p.rules) - 1
			}
			ev := 1
			if rc.Event == "fired" {
				ev = 0
			}
			p.ruleAt[i][ev] = append(p.ruleAt[i][ev], k)
		}
	}
	p.env = lang.Env{Ruleset: "simctl find", Moment: "the end of an encounter", MomentText: msg.New("the end of an encounter"), Facts: facts, Resolve: p.resolve}
	return p
}

func (p *Probe) resolve(kind lang.ArgKind, name string) (int, msg.Text) {
	if kind == ruleArg {
		if i := slices.Index(p.rules, name); i >= 0 {
			return i, msg.Text{}
		}
		if len(p.rules) == 0 {
			return -1, msg.New("no tactics rule %q: this scenario has no tactics: block", name)
		}
		return -1, msg.New("no tactics rule %q%s; rules: %s", name, suggestName(name, p.rules), strings.Join(p.rules, ", "))
	}
	if kind == sideArg {
		for s, n := range p.sides {
			if n == name {
				return s, msg.Text{}
			}
		}
		return -1, msg.New("no side %q%s; sides: %s, %s", name, suggestName(name, p.sides[:]), p.sides[0], p.sides[1])
	}
	if i, ok := sim.RosterIndex(p.roster, name); ok {
		return i, msg.Text{}
	}
	names := make([]string, len(p.roster))
	for i, e := range p.roster {
		names[i] = e.Name
	}
	return -1, msg.New("no combatant %q%s (a copy is named like Orc#2); combatants: %s", name, suggestName(name, names), strings.Join(names, ", "))
}

// suggestName ties go to the alphabetically first name, as the language's.
func suggestName(s string, valid []string) msg.Text {
	return names.Suggest(s, slices.Sorted(slices.Values(valid)))
}

// Facts documents the facts, spelled as a user writes them.
func (p *Probe) Facts() []string {
	out := make([]string, len(p.env.Facts))
	for i, f := range p.env.Facts {
		out[i] = f.Spelling() + ": " + f.Doc
	}
	return out
}

// Condition compiles a --where condition. The error shows the column.
func (p *Probe) Condition(src string) (*lang.Program, error) {
	prog, err := lang.Compile(src, &p.env)
	if err != nil {
		return nil, &lang.At{Err: msg.Errorf("%s\n%s", err.Text, lang.Caret(src, err.Pos)), Pos: err.Pos}
	}
	return prog, nil
}

// Metric compiles a --pick metric (a number).
func (p *Probe) Metric(src string) (*lang.Program, error) {
	prog, err := lang.CompileNumber(src, &p.env)
	if err != nil {
		return nil, &lang.At{Err: msg.Errorf("%s\n%s", err.Text, lang.Caret(src, err.Pos)), Pos: err.Pos}
	}
	return prog, nil
}

// probeTable plays encounters one at a time and keeps what the facts need.
type probeTable struct {
	table sim.Table
	tally *sim.Tally
	out   sim.Outcome
	r     rng.Stream
	slots [lang.MaxSlots]float64
}

func (p *Probe) newTable() *probeTable {
	return &probeTable{table: p.g.NewTable(), tally: sim.NewTally(p.g)}
}

// play plays encounter i of seed alone, leaving its counters in tally.
func (pt *probeTable) play(seed uint64, i int64) {
	pt.tally.Counts.Reset()
	pt.r.Seed(seed, uint64(i))
	pt.out = pt.table.Play(&pt.r, &pt.tally.Counts, nil)
	pt.tally.Record(pt.out) // folds the end states into Counts.Combatants
}

// eval evaluates prog on the encounter pt just played.
func (p *Probe) eval(pt *probeTable, prog *lang.Program) float64 {
	for k, s := range prog.Slots {
		pt.slots[k] = p.value(pt, s.Fact, s.Arg)
	}
	return prog.EvalNumber(pt.slots[:len(prog.Slots)])
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (p *Probe) value(pt *probeTable, fact, arg int) float64 {
	o, c := pt.out, &pt.tally.Counts
	side := func(i int) int { return p.roster[i].Side }
	switch fact {
	case pRounds:
		return float64(o.Rounds)
	case pDraw:
		return b2f(o.Winner < 0)
	case pSideWon:
		return b2f(o.Winner == arg)
	case pSideSurvivors:
		return float64(o.Survivors[arg])
	case pSideDown:
		n := 0
		for i, e := range p.roster {
			if e.Side == arg && c.Combatants[i].EndedDown > 0 {
				n++
			}
		}
		return float64(n)
	case pSideDamage:
		return float64(c.Get(arg, sim.DamageDealt))
	case pSideFirst:
		return b2f(o.FirstActor >= 0 && side(o.FirstActor) == arg)
	case pSideFirstInOrder:
		return b2f(o.FirstInOrder >= 0 && side(o.FirstInOrder) == arg)
	case pCombDown:
		return b2f(c.Combatants[arg].EndedDown > 0)
	case pCombGone:
		return b2f(c.Combatants[arg].EndedGone > 0)
	case pCombHP:
		// HPLeft is summed only over encounters a combatant ended
		// standing; the end state's own hit points are not kept, so a
		// combatant that ended down or gone reads 0.
		return float64(c.Combatants[arg].HPLeft)
	case pCombDealt:
		return float64(c.Combatants[arg].DamageDealt)
	case pCombTaken:
		return float64(c.Combatants[arg].DamageTaken)
	case pCombKills:
		return float64(c.Combatants[arg].Kills)
	case pCombTurns:
		return float64(c.Combatants[arg].Turns)
	case pCombLost:
		return float64(c.Combatants[arg].ActionsLost)
	case pCombFirst:
		return b2f(o.FirstActor == arg)
	}
	if r := fact - pCounter - len(p.counters); r >= 0 { // rule("NAME").fired, .fell
		n := int64(0)
		for _, k := range p.ruleAt[arg][r] {
			n += c.Rules[k]
		}
		return float64(n)
	}
	return float64(c.Get(arg, fact-pCounter))
}

// FindResult lists the encounters that matched a condition.
type FindResult struct {
	Encounters int64   `json:"encounters"` // how many were examined
	Matches    int64   `json:"matches"`    // how many matched
	First      []int64 `json:"first"`      // the lowest matching indices, at most the limit asked
}

// findChunk is how many consecutive encounters a worker examines at once.
const findChunk = 1024

// Find plays encounters cfg.Start..+cfg.N-1 and returns how many match
// cond and the lowest `limit` matching indices, identical whatever the
// worker count. A cancelled search returns what it examined with ctx's
// error (then First holds the lowest matches among those).
func Find(ctx context.Context, p *Probe, cond *lang.Program, cfg sim.RunConfig, limit int) (*FindResult, error) {
	type part struct {
		n, matches int64
		first      []int64
	}
	parts, err := scan(ctx, p, cfg, func() *part { return &part{} }, func(a *part, pt *probeTable, i int64) {
		a.n++
		if p.eval(pt, cond) != 0 {
			a.matches++
			// Chunks are claimed in increasing order, so a worker's
			// indices ascend; keeping its first `limit` is enough.
			if len(a.first) < limit {
				a.first = append(a.first, i)
			}
		}
	})
	res := &FindResult{}
	for _, a := range parts {
		res.Encounters += a.n
		res.Matches += a.matches
		res.First = append(res.First, a.first...)
	}
	sort.Slice(res.First, func(i, j int) bool { return res.First[i] < res.First[j] })
	if len(res.First) > limit {
		res.First = res.First[:limit]
	}
	return res, err
}

// Pick returns the encounter whose metric is the min, the max, or the
// q-quantile (0 < q < 1; the median is 0.5) over encounters
// cfg.Start..+cfg.N-1, and that value; among encounters with the same
// value the lowest index is returned, so the answer does not depend on the
// worker count. It keeps one float per encounter, so N is bounded by the
// caller.
func Pick(ctx context.Context, p *Probe, metric *lang.Program, cfg sim.RunConfig, q float64) (index int64, value float64, err error) {
	vals := make([]float64, cfg.N)
	_, err = scan(ctx, p, cfg, func() struct{} { return struct{}{} }, func(_ struct{}, pt *probeTable, i int64) {
		vals[i-cfg.Start] = p.eval(pt, metric)
	})
	if err != nil {
		return -1, 0, err
	}
	sorted := append([]float64(nil), vals...)
	sort.Float64s(sorted)
	switch {
	case q <= 0:
		value = sorted[0]
	case q >= 1:
		value = sorted[len(sorted)-1]
	default:
		// The nearest-rank quantile: an actual encounter's value.
		value = sorted[int(math.Ceil(q*float64(len(sorted))))-1]
	}
	for k, v := range vals {
		if v == value {
			return cfg.Start + int64(k), value, nil
		}
	}
	panic("experiment: Pick lost its value")
}

// scan runs visit on every encounter of cfg on a pool of workers, each
// with its own table and accumulator (made by newAcc); the accumulators
// are returned for the caller to merge. Encounter i is played from the
// stream (cfg.Seed, i), exactly as the run played it.
func scan[A any](ctx context.Context, p *Probe, cfg sim.RunConfig, newAcc func() A, visit func(acc A, pt *probeTable, i int64)) ([]A, error) {
	type worker struct {
		pt  *probeTable
		acc A
	}
	pool := sim.Pool[*worker]{
		Chunk: findChunk,
		New:   func() *worker { return &worker{pt: p.newTable(), acc: newAcc()} },
		Play: func(w *worker, i int64) {
			w.pt.play(cfg.Seed, i)
			visit(w.acc, w.pt, i)
		},
		Crash: func(_ *worker, i int64, r any) error {
			return msg.Errorf("internal error in encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d", i, cfg.Seed, r, cfg.Seed, i)
		},
	}
	ws, err := pool.Run(ctx, cfg)
	accs := make([]A, len(ws))
	for k, w := range ws {
		accs[k] = w.acc
	}
	return accs, err
}
