package cavaliers

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// script is a test-only policy whose every decision is a parameter:
//
//	move: N        step toward Area N every turn (default: stay)
//	target: NAME   attack NAME when in the Area (default: the first enemy there)
//	seize: [NAMES] seize the initiative before these ("*": anyone)
//	interpose: [NAMES]  interpose for these allies ("*": any)
//	block: [NAMES] block these opponents leaving the Area ("*": any)
//	reprise: true  reprise every failed attack
//	roll: N        roll specialty N of its ranks (0: the main one)
type script struct {
	move      int
	target    int
	seize     []int // -2: anyone
	interpose []int
	block     []int
	reprise   bool
	roll      int
}

func init() {
	RegisterPolicy("script", "test only: every decision scripted", makeScript)
}

func makeScript(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy {
	p := &script{move: -1, target: -1}
	idx := func(path, name string) int {
		if name == "*" {
			return -2
		}
		i, ok := g.Index(name)
		if !ok {
			d.Errorf(spec.Node, path, "script: no combatant %q", name)
		}
		return i
	}
	list := func(key string) []int {
		n := spec.Params[key]
		if n == nil {
			return nil
		}
		var out []int
		for _, e := range n.Content {
			out = append(out, idx(spec.Path+"."+key, e.Value))
		}
		return out
	}
	for k, n := range spec.Params {
		switch k {
		case "move":
			p.move = d.Int(n, spec.Path+".move", 0, MaxArea)
		case "target":
			p.target = idx(spec.Path+".target", n.Value)
		case "reprise":
			p.reprise = d.Bool(n, spec.Path+".reprise")
		case "roll":
			p.roll = d.Int(n, spec.Path+".roll", 0, 3)
		case "seize", "interpose", "block":
		default:
			d.Unknown(spec.Keys[k], spec.Path+"."+k, []string{"move", "target", "seize", "interpose", "block", "reprise", "roll"})
		}
	}
	p.seize, p.interpose, p.block = list("seize"), list("interpose"), list("block")
	return p
}

func in(list []int, i int) bool {
	for _, v := range list {
		if v == i || v == -2 {
			return true
		}
	}
	return false
}

func (p *script) Roll(t *Table, self int) int { return p.roll }

func (p *script) Move(t *Table, self int) int {
	switch {
	case p.move < 0 || p.move == t.Area(self):
		return -1
	case p.move > t.Area(self):
		return t.Area(self) + 1
	}
	return t.Area(self) - 1
}

func (p *script) Target(t *Table, self int) int {
	if p.target >= 0 && t.Present(p.target) && t.Area(p.target) == t.Area(self) {
		return p.target
	}
	for j := 0; j < t.N(); j++ {
		if t.Present(j) && t.Side(j) != t.Side(self) && t.Area(j) == t.Area(self) {
			return j
		}
	}
	return -1
}

func (p *script) Seize(t *Table, self, next int) bool      { return in(p.seize, next) }
func (p *script) Interpose(t *Table, self, a, tg int) bool { return in(p.interpose, tg) }
func (p *script) Block(t *Table, self, mover, to int) bool { return in(p.block, mover) }
func (p *script) Reprise(t *Table, self, target int) bool  { return p.reprise }

// compile loads a scenario from YAML text and compiles it.
func compile(t testing.TB, text string) *Game {
	t.Helper()
	g, err := compileErr(text)
	if err != nil {
		t.Fatalf("compile:\n%v", err)
	}
	return g
}

func compileErr(text string) (*Game, error) {
	sc, err := scenario.Load("test.yaml", []byte(text), nil, rulesets.Schema)
	if err != nil {
		return nil, err
	}
	g, err := Ruleset{}.Compile(sc)
	if err != nil {
		return nil, err
	}
	return g.(*Game), nil
}

// play plays encounter (seed, 0) with a log and returns the outcome, the
// counters, the narration and the table as the encounter left it.
func play(g *Game, seed uint64) (sim.Outcome, sim.Counts, run, *Table) {
	var b strings.Builder
	names := make([]string, len(g.C))
	for i, c := range g.C {
		names[i] = c.Name
	}
	c := sim.NewCounts(len(g.Counters()))
	t := g.NewTable().(*Table)
	log := &sim.Log{W: &b, Names: names}
	o := t.Play(rng.New(seed, 0), &c, log)
	return o, c, run{b.String(), simtest.Of(log, names)}, t
}

// run is one played encounter: its narration (for failure messages) and
// its events (for assertions, with simtest patterns).
type run struct {
	text string
	ev   simtest.Events
}

func (r run) String() string { return r.text }

// has reports whether an event fits pattern p.
func (r run) has(p string) bool { return r.ev.Any(p) }

// turns lists, per round, who took a turn, from the events.
func turns(log run) [][]string {
	var out [][]string
	for _, v := range log.ev.Ev {
		switch v.Kind {
		case sim.EvRound:
			out = append(out, nil)
		case sim.EvTurn:
			out[len(out)-1] = append(out[len(out)-1], log.ev.Name(v.Actor))
		}
	}
	return out
}

// count is counter name of side s.
func count(g *Game, c sim.Counts, s int, name string) int64 {
	for k, n := range g.Counters() {
		if n == name {
			return c.Get(s, k)
		}
	}
	panic("no counter " + name)
}
