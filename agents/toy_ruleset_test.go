package agents_test

// A fifth ruleset, "toy", written and registered entirely from this test
// package, as docs/CONTRIBUTING-rulesets.md walks through: the referee
// (sim.Ruleset, Game, Table) with its own counter, its policy registry, and
// its tactics binding (compiler, moments, own verbs). Nothing outside this
// file names it.

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/agents"
	"simctl/agents/tactics"
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"

	"simctl/sim/msg"
)

// The toy's book: each round every standing combatant, in roster order,
// either waits or attacks a standing enemy, hitting on a coin flip for 1
// damage. Its own counter: coin flips.
const (
	toyFlips = sim.NumBase + iota
	toyNumCounters
)

var toyCounters = append(append([]string(nil), sim.BaseCounters...), "flips")

type toyPolicy struct {
	rules []toyRule // nil: always attack
}

type toyRule struct {
	when    *tactics.Program // nil: always
	attack  bool
	counter int // index in Counts.Rules
}

type toyMaker func(d *scenario.Decoder, g *toyGame, self int, spec scenario.PolicySpec) *toyPolicy

var toyPolicies = sim.NewPolicies[toyMaker]("toy")

type toyRuleset struct{}

func (toyRuleset) Name() string { return "toy" }
func (toyRuleset) Schema() scenario.Schema {
	return scenario.Schema{CombatantFields: []string{"luck"}}
}
func (toyRuleset) Doc() sim.RulesDoc {
	return sim.RulesDoc{Name: "toy", Title: "Toy", Policies: toyPolicies.Docs(), Counters: []sim.Field{{Name: "flips", Doc: "coin flips"}}}
}

// Compile records its problems through sc.Dec and, on purpose, does not
// return sc.Rep.Err(): rulesets.Compile must return them anyway.
func (toyRuleset) Compile(sc *scenario.Scenario) (sim.Game, error) {
	g := &toyGame{maxRounds: sc.MaxRounds}
	d := sc.Dec
	var deciders sim.Deciders
	for s, side := range sc.Sides {
		for _, cs := range side.Combatants {
			if n := cs.Extra["luck"]; n != nil {
				d.Int(n, cs.Path+".luck", 0, 10)
			}
			for k := 1; k <= cs.Count; k++ {
				name := cs.Name
				if cs.Count > 1 {
					name = fmt.Sprintf("%s#%d", cs.Name, k)
				}
				self := len(g.roster)
				g.roster = append(g.roster, sim.Entrant{Name: name, Side: s})
				g.hp = append(g.hp, cs.HP.Min())
				// Who decides (its tactics: block, else its policy, else the
				// side's), made once the game is whole.
				deciders.Add(sim.DeciderOf(d, &side, &cs), self)
				g.pol = append(g.pol, nil)
			}
		}
	}
	toyPolicies.Make(d, &deciders, func(i int, newPolicy toyMaker, spec scenario.PolicySpec) {
		g.pol[i] = newPolicy(d, g, i, spec)
	})
	return g, nil
}

type toyGame struct {
	roster    []sim.Entrant
	hp        []int
	pol       []*toyPolicy
	maxRounds int
	sim.RuleRegistry
}

func (g *toyGame) Roster() []sim.Entrant { return g.roster }
func (g *toyGame) Counters() []string    { return toyCounters }
func (g *toyGame) MaxRounds() int        { return g.maxRounds }
func (g *toyGame) NewTable() sim.Table   { return &toyTable{g: g, hp: make([]int, len(g.roster))} }

type toyTable struct {
	g  *toyGame
	hp []int
}

func (t *toyTable) standing(s int) (n, first int) {
	first = -1
	for i, e := range t.g.roster {
		if e.Side == s && t.hp[i] > 0 {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	return n, first
}

func (t *toyTable) Play(r *rng.Stream, c *sim.Counts, _ *sim.Log) sim.Outcome {
	copy(t.hp, t.g.hp)
	o := sim.Outcome{Winner: -1, FirstActor: -1, FirstInOrder: 0, Draw: sim.DrawMaxRounds}
	for round := 1; round <= t.g.maxRounds; round++ {
		o.Rounds = round
		for i, e := range t.g.roster {
			if t.hp[i] <= 0 {
				continue
			}
			c.Turn(e.Side, i)
			if !t.decide(i, round, c) {
				continue
			}
			c.Inc(e.Side, sim.Actions)
			if o.FirstActor < 0 {
				o.FirstActor = i
			}
			_, target := t.standing(1 - e.Side)
			c.Inc(e.Side, toyFlips)
			if r.IntN(2) == 0 {
				t.hp[target]--
				c.Hit(e.Side, i, target, 1)
				if t.hp[target] <= 0 {
					c.Down(target, i)
				}
			}
			if n, _ := t.standing(1 - e.Side); n == 0 {
				o.Winner, o.Draw = e.Side, sim.DrawNone
				return t.end(o, c)
			}
		}
	}
	return t.end(o, c)
}

func (t *toyTable) end(o sim.Outcome, c *sim.Counts) sim.Outcome {
	for s := 0; s < 2; s++ {
		o.Survivors[s], _ = t.standing(s)
	}
	for i := range t.hp {
		st := sim.Standing
		if t.hp[i] <= 0 {
			st = sim.Down
		}
		c.End(i, max(t.hp[i], 0), st)
	}
	return o
}

// decide runs i's tactics (first matching rule) and reports an attack.
func (t *toyTable) decide(i, round int, c *sim.Counts) bool {
	p := t.g.pol[i]
	if p == nil || p.rules == nil {
		return true
	}
	for _, rule := range p.rules {
		if rule.when == nil || rule.when.EvalFunc(func(k int) float64 {
			if rule.when.Slots[k].Fact == 0 {
				return float64(round)
			}
			return float64(t.hp[i])
		}) {
			c.Rules[rule.counter]++
			return rule.attack
		}
	}
	return true
}

var toyMoments = []string{"turn"}

// compileToyTactics is the toy's binding: facts round and self.hp at its
// one moment; decisions attack and wait (and flip, the same as attack, a
// verb only the toy has).
func compileToyTactics(d *scenario.Decoder, g *toyGame, self int, spec scenario.PolicySpec) *toyPolicy {
	b, ok := tactics.ReadBlock(d, spec.Node, spec.Path, "toy", toyMoments, func(string) (*yaml.Node, bool) { return nil, false }, nil)
	if !ok {
		return nil
	}
	env := &tactics.Env{Ruleset: "toy", Moment: "turn", Params: b.Params, Names: b.Names,
		Facts:   []tactics.Fact{{Name: "round", Type: tactics.Number}, {Name: "self.hp", Type: tactics.Number}},
		Resolve: func(tactics.ArgKind, string) (int, msg.Text) { return -1, msg.New("the toy's facts take no name") }}
	p := &toyPolicy{rules: []toyRule{}}
	for _, m := range b.Moments {
		for _, r := range m.Rules {
			rule := toyRule{counter: g.AddRuleCounter(sim.RuleCounter{Combatant: self, Moment: m.Name, Rule: r.Name, Event: "fired"})}
			if r.When.S != "" {
				prog, err := tactics.Compile(r.When.S, env)
				if err != nil {
					tactics.Report(d, r.When, err)
					continue
				}
				rule.when = prog
			}
			switch r.Do.S {
			case "attack", "flip":
				rule.attack = true
			case "wait":
			default:
				d.Errorf(r.Do.Node, r.Do.Path, "toy offers at turn: attack, flip, wait")
			}
			p.rules = append(p.rules, rule)
		}
	}
	return p
}

func init() {
	rulesets.Register(toyRuleset{})
	toyPolicies.Register("default", "attack every turn", func(*scenario.Decoder, *toyGame, int, scenario.PolicySpec) *toyPolicy { return &toyPolicy{} })
	toyPolicies.RegisterTactics(compileToyTactics)
	agents.RegisterBinding(agents.Binding{Ruleset: "toy", Moments: toyMoments, Own: []string{"flip"},
		Describe: func(w io.Writer, _ agents.T) { fmt.Fprintln(w, "turn: attack, flip, wait; facts: round, self.hp") }})
}

const toyScenario = `name: toy duel
ruleset: toy
max_rounds: %d
sides:
  - name: heroes
    tactics: {params: {wait: %d}, turn: [{name: patience, when: "round < $wait", do: wait}, {name: hit, do: attack}]}
    combatants:
      - {name: Hero, hp: 1, damage: 1, luck: %d}
  - name: monsters
    combatants:
      - {name: Monster, hp: 1, damage: 1}
`

func loadToy(t *testing.T, src string) (sim.Game, error) {
	t.Helper()
	sc, err := scenario.Load("toy.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		return nil, err
	}
	return rulesets.Compile(sc)
}

// TestToyRulesetFromATestPackage: a ruleset and its tactics binding added
// without touching any other package play by their rules (the heroes'
// win rate against an exact DP over rounds, the tactics rule's fire count
// exactly the rounds it was asked in), get the tactics: reader's and other
// bindings' messages, and cannot lose a compile error.
func TestToyRulesetFromATestPackage(t *testing.T) {
	const rounds, wait, n = 12, 3, 20000
	g, err := loadToy(t, fmt.Sprintf(toyScenario, rounds, wait, 1))
	if err != nil {
		t.Fatal(err)
	}
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 5, N: n, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Exact: the hero waits in rounds 1..wait-1 and then, acting first,
	// wins on its first hit; the monster hits with the same coin after.
	alive, heroWins := 1.0, 0.0
	for r := 1; r <= rounds; r++ {
		if r >= wait {
			heroWins += alive / 2
			alive /= 2
		}
		alive /= 2
	}
	got := float64(tally.Wins[0]) / n
	se := math.Sqrt(heroWins * (1 - heroWins) / n)
	if math.Abs(got-heroWins) > 4*se { // 4 standard errors: about 1 in 16000 at a fixed seed
		t.Errorf("heroes win %.4f, exact %.4f (±%.4f at 4 SE); a hero that ignored its tactics would win %.4f", got, heroWins, 4*se, 2.0/3)
	}
	// The patience rule fires on each of the hero's turns in rounds
	// 1..wait-1 that were played: the sum of min(rounds played, wait-1).
	var want int64
	for r, k := range tally.Rounds.Counts {
		want += int64(min(r, wait-1)) * k
	}
	if tally.Counts.Rules[0] != want || want == 0 {
		t.Errorf("the patience rule fired %d times, want %d", tally.Counts.Rules[0], want)
	}
	if flips, acts := tally.Counts.Get(0, toyFlips)+tally.Counts.Get(1, toyFlips), tally.Counts.Get(0, sim.Actions)+tally.Counts.Get(1, sim.Actions); flips != acts || flips == 0 {
		t.Errorf("flips %d, actions %d: the toy's own counter counts every attack", flips, acts)
	}

	// A compile error the toy records but does not return is not lost.
	if _, err := loadToy(t, fmt.Sprintf(toyScenario, rounds, wait, 11)); err == nil || !strings.Contains(err.Error(), "luck") {
		t.Errorf("luck: 11 compiled (err %v); want the toy's error about luck", err)
	}
	// The tactics: reader knows the toy's moments, and d20 knows its verb.
	bad := strings.Replace(fmt.Sprintf(toyScenario, rounds, wait, 1), "turn: [", "move: [", 1)
	if _, err := loadToy(t, bad); err == nil || !strings.Contains(err.Error(), "toy has no move moment (its book offers no such decision); toy offers: turn") {
		t.Errorf("a move: block in toy: %v", err)
	}
	if msg, _ := compileErr(t, "{turn: [{do: flip}]}"); !strings.Contains(msg, "flip is a toy decision, not a d20 one") {
		t.Errorf("do: flip in d20: %s", msg)
	}
	if _, ok := agents.LookupBinding("toy"); !ok {
		t.Error("no toy binding")
	}
}
