package agents_test

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	"simctl/rulesets/cavaliers"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

func cavCompile(t testing.TB, name string, text []byte, sets ...string) sim.Game {
	t.Helper()
	var ss []scenario.Set
	for _, s := range sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, x)
	}
	sc, err := scenario.Load(name, text, ss, rulesets.Schema)
	if err != nil {
		t.Fatalf("%s:\n%v", name, err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatalf("%s:\n%v", name, err)
	}
	return g
}

func cavBuiltin(t testing.TB, name string, sets ...string) sim.Game {
	t.Helper()
	data, display, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	return cavCompile(t, display, data, sets...)
}

func cavTrace(g sim.Game, seed uint64, i int64) string {
	var b strings.Builder
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	sim.Replay(g, seed, i, &sim.Log{W: &b, Names: names})
	return b.String()
}

func cavCounter(g sim.Game, t *sim.Tally, side int, name string) int64 {
	for k, n := range g.Counters() {
		if n == name {
			return t.Counts.Get(side, k)
		}
	}
	panic("no counter " + name)
}

// Every built-in cavaliers scenario compiles, plays, and its hot loop
// allocates nothing with the real policies.
func TestCavBuiltinsNoAllocs(t *testing.T) {
	for name, set := range map[string]string{
		"cavaliers/duel":      "heroes.policy.target=random",
		"cavaliers/melee":     "heroes.policy.target=random",
		"cavaliers/bodyguard": "bravos.policy.seize=protect",
	} {
		g := cavBuiltin(t, name, "options.spend=unlock", set)
		tb := g.NewTable()
		c := sim.NewCounts(len(g.Counters()))
		var r rng.Stream
		i := uint64(0)
		allocs := testing.AllocsPerRun(500, func() {
			r.Seed(1, i)
			i++
			tb.Play(&r, &c, nil)
		})
		if allocs != 0 {
			t.Errorf("%s: %.2f allocations per encounter", name, allocs)
		}
	}
}

// Policy none uses no ability; default seizes before the enemy.
//
// In the duel under spend: unlock, default's seize: enemy makes the
// Cavalier (Impulse, Seize costs 1) act first in round 1 whenever it ranks
// first or has at least one [+]. Both pools are d8+2d6, so exactly
// P(first) = P(C before R) + P(R before C and C's [+] >= 1), computed here
// by enumerating both pools (288 x 288 outcomes; ties are an even chance).
// The runner's first-actor share must be within 4 SE (N = 40,000:
// SE = sqrt(p(1-p)/N) ~ 0.0023).
func TestCavSeizeEnemyExact(t *testing.T) {
	type out struct{ total, raises int }
	pool := map[out]float64{}
	for a := 1; a <= 8; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				r := 0
				for _, v := range []int{a, b, c} {
					if v >= 6 {
						r++
					}
				}
				pool[out{a + b + c, r}] += 1.0 / 288
			}
		}
	}
	p := 0.0
	for x, px := range pool {
		for y, py := range pool {
			before := 0.0
			switch {
			case x.total > y.total:
				before = 1
			case x.total == y.total:
				before = 0.5
			}
			p += px * py * before
			if x.raises >= 1 {
				p += px * py * (1 - before)
			}
		}
	}
	const n = 40_000
	g := cavBuiltin(t, "cavaliers/duel", "options.spend=unlock")
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 11, N: n, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	got, se := float64(tally.FirstActor[0])/n, math.Sqrt(p*(1-p)/n)
	if math.Abs(got-p) > 4*se {
		t.Errorf("Cavalier acts first %.4f, exact %.4f (SE %.4f)", got, p, se)
	}
	// The rival (specialty none, policy default) never uses anything.
	for _, k := range []string{"seizes", "interposes", "reprises", "raises_spent"} {
		if v := cavCounter(g, tally, 1, k); v != 0 {
			t.Errorf("rival %s = %d", k, v)
		}
	}
	// Policy none on the Cavalier: no seizes although it could.
	g = cavBuiltin(t, "cavaliers/duel", "options.spend=unlock", "heroes.policy=none")
	tally, _ = sim.Run(context.Background(), g, sim.RunConfig{Seed: 11, N: 5000})
	if v := cavCounter(g, tally, 0, "seizes") + cavCounter(g, tally, 0, "reprises"); v != 0 {
		t.Errorf("policy none used %d abilities", v)
	}
	if cavCounter(g, tally, 0, "raises") == 0 {
		t.Error("no [+] rolled: the check above is empty")
	}
}

var cavInterposeLine = regexp.MustCompile(`(?m)^(\S+) interposes(?: from Area \d+ with a Move to protect (\S+)|: takes \S+'s attack instead of (\S+)|: (\S+) cannot leave Area \d+ for Area (\d+))`)

// guard interposes only for its ward and blocks only enemies heading into
// the ward's Area. Scene 1 (blocks): the Bodyguard holds Area 1 between
// the Countess (its ward, Area 2) and the Page (Area 0); the Bravo goes
// for the Countess, the Rogue for the Page. Scene 2 (redirects): all in
// Area 1, the Bravo attacks the Countess, the Rogue the Page.
func TestCavGuardProtectsWard(t *testing.T) {
	const scene = `ruleset: cavaliers
options: {spend: unlock}
sides:
  - name: escort
    combatants:
      - {name: Countess, specialty: none, attribute: d6, hp: 10, attack: 1d6, defence: 2d6, damage: 1d4, area: AREA_C, policy: {name: none, move: hold}}
      - {name: Page, specialty: none, attribute: d6, hp: 10, attack: 1d6, defence: 2d6, damage: 1d4, area: AREA_P, policy: {name: none, move: hold}}
      - {name: Bodyguard, specialty: vigilance, attribute: d10, pool: 3d6, hp: 30, attack: 2d6, defence: 2d6+2, damage: 1d6, area: 1, policy: {name: guard, ward: Countess, move: hold}}
  - name: bravos
    combatants:
      - {name: Bravo, specialty: none, attribute: d8, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6, area: 1, policy: {name: default, focus: Countess}}
      - {name: Rogue, specialty: none, attribute: d8, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6, area: 1, policy: {name: default, focus: Page}}
`
	var redirects, blocks int
	for _, areas := range [][2]string{{"2", "0"}, {"1", "1"}} {
		text := strings.NewReplacer("AREA_C", areas[0], "AREA_P", areas[1]).Replace(scene)
		g := cavCompile(t, "guard.yaml", []byte(text))
		for i := int64(0); i < 100; i++ {
			log := cavTrace(g, 3, i)
			for _, m := range cavInterposeLine.FindAllStringSubmatch(log, -1) {
				if m[1] != "Bodyguard" {
					continue
				}
				if m[4] != "" {
					blocks++
					if m[5] != "2" {
						t.Fatalf("encounter %d: Bodyguard blocked %s heading for Area %s, not the ward's\n%s", i, m[4], m[5], log)
					}
					continue
				}
				redirects++
				if ward := m[2] + m[3]; ward != "Countess" {
					t.Fatalf("encounter %d: Bodyguard interposed for %s\n%s", i, ward, log)
				}
			}
			if areas[1] == "0" && !strings.Contains(log, "Rogue moves from Area 1 to Area 0") {
				t.Fatalf("encounter %d: the Rogue never went for the Page\n%s", i, log)
			}
			if areas[1] == "1" && !strings.Contains(log, "Rogue attacks Page") {
				t.Fatalf("encounter %d: the Rogue never attacked the Page\n%s", i, log)
			}
		}
	}
	if redirects == 0 || blocks == 0 {
		t.Fatalf("%d redirects, %d blocks by the Bodyguard in 200 encounters: the test checks too little", redirects, blocks)
	}
}

var cavHitLine = regexp.MustCompile(`^\S+ attacks (\S+): .*hit for \d+ \(hp (-?\d+)\)$`)

// seize: protect (wounded: 50) seizes only while a member of its side is
// at half its hp or below. In the melee everyone starts at 15 hp and
// stands in Area 0, so at every seize some Cavalier must be at 1..7 hp.
func TestCavSeizeProtect(t *testing.T) {
	g := cavBuiltin(t, "cavaliers/melee", "options.spend=unlock", "heroes.policy={name: default, seize: protect, wounded: 50}")
	seized := 0
	for i := int64(0); i < 40; i++ {
		log := cavTrace(g, 9, i)
		hp := map[string]int{}
		for _, line := range strings.Split(log, "\n") {
			if m := cavHitLine.FindStringSubmatch(line); m != nil {
				hp[m[1]], _ = strconv.Atoi(m[2])
			}
			if !strings.Contains(line, "seizes the initiative") {
				continue
			}
			seized++
			wounded := false
			for name, h := range hp {
				if strings.HasPrefix(name, "Cavalier") && h > 0 && h <= 7 {
					wounded = true
				}
			}
			if !wounded {
				t.Fatalf("encounter %d: %q with no Cavalier wounded (%v)\n%s", i, line, hp, log)
			}
		}
	}
	if seized == 0 {
		t.Fatal("protect never seized in 40 melees: the test checks nothing")
	}
}

func TestCavPolicyErrors(t *testing.T) {
	base := `ruleset: cavaliers
sides:
  - name: a
    combatants:
      - {name: W, specialty: none, attribute: d6, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: none}
      - {name: G, specialty: vigilance, attribute: d6, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: POLICY}
  - name: b
    combatants:
      - {name: E, specialty: none, attribute: d6, hp: 5, attack: 2d6, defence: 7, damage: 1d6, policy: none}
`
	cases := map[string]string{
		"guard":                                  "policy guard needs ward",
		"{name: guard, ward: E}":                 `"E" is not on G's side`,
		"{name: guard, ward: G}":                 "cannot be its own ward",
		"{name: default, focus: W}":              "focus names an enemy",
		"{name: default, interpose: ward}":       "needs ward: NAME",
		"{name: default, seize: sometimes}":      `"enemy", "protect", "never"`,
		"{name: default, wounded: 0}":            "0 is out of range",
		"{name: none, reprise: always}":          `unknown field "reprise"`,
		"{name: default, ward: Nobody}":          `no combatant "Nobody"`,
		"{name: default, target: weakest, x: 1}": `unknown field "x"`,
		"{name: default, reserve: parry}":        `"seize", "interpose", "reprise", "none"`,
		"{name: default, roll: timing}":          "G has no ranks in timing; it has ranks in vigilance",
		"{name: default, roll: fastest}":         `"main", "highest_die"`,
		"{name: none, roll: main}":               `unknown field "roll"`,
	}
	for pol, want := range cases {
		sc, err := scenario.Load("p.yaml", []byte(strings.Replace(base, "POLICY", pol, 1)), nil, rulesets.Schema)
		if err == nil {
			_, err = rulesets.Compile(sc)
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "p.yaml:6:") {
			t.Errorf("policy %s: got %v, want p.yaml:6: ... %q", pol, err, want)
		}
	}
	// reserve needs a specialty to buy with.
	sc, err := scenario.Load("p.yaml", []byte(strings.Replace(strings.Replace(base, "policy: none}", "policy: {name: default, reserve: seize}}", 1), "POLICY", "none", 1)), nil, rulesets.Schema)
	if err == nil {
		_, err = rulesets.Compile(sc)
	}
	if err == nil || !strings.Contains(err.Error(), "p.yaml:5:") || !strings.Contains(err.Error(), "W has no Initiative specialty to buy Seize the Initiative with") {
		t.Errorf("reserve without a specialty: got %v", err)
	}
	var _ cavaliers.Policy // the policies implement the ruleset's interface
}

// reserve keeps [+] for a higher rung under spend: budget. Impulse with
// three [+] (Seize 1, Reprise 3): greedy, it seizes before Fast and then
// cannot pay the Reprise of its miss; reserving Reprise, it lets Fast go
// first and reprises. Under unlock nothing is spent and reserve changes
// nothing.
func TestCavReserveSavesForAHigherRung(t *testing.T) {
	src := `ruleset: cavaliers
max_rounds: 1
options: {spend: SPEND}
sides:
  - name: a
    combatants:
      - {name: Duelist, specialty: impulse, attribute: d8, pool: 2d6, initiative_dice: [6, 6, 6], hp: 100, attack: "1", defence: "5", damage: "1", policy: {name: default, reserve: RESERVE}}
  - name: b
    combatants:
      - {name: Fast, specialty: none, attribute: d10, pool: 2d6, initiative_dice: [10, 5, 5], hp: 100, attack: "1", defence: "5", damage: "1", policy: none}
`
	for _, tc := range []struct {
		spend, reserve  string
		seizes, reprise int64
	}{
		{"budget", "none", 1, 0},
		{"budget", "reprise", 0, 1},
		{"budget", "seize", 1, 0},
		{"unlock", "none", 1, 1},
		{"unlock", "reprise", 1, 1},
	} {
		text := strings.NewReplacer("SPEND", tc.spend, "RESERVE", tc.reserve).Replace(src)
		g := cavCompile(t, "reserve.yaml", []byte(text))
		log := cavTrace(g, 1, 0)
		_, tally := sim.Replay(g, 1, 0, nil)
		if s, r := cavCounter(g, tally, 0, "seizes"), cavCounter(g, tally, 0, "reprises"); s != tc.seizes || r != tc.reprise {
			t.Errorf("spend %s reserve %s: seizes %d reprises %d, want %d %d\n%s", tc.spend, tc.reserve, s, r, tc.seizes, tc.reprise, log)
		}
	}
}

func TestCavRollPicksTheSpecialty(t *testing.T) {
	src := `ruleset: cavaliers
max_rounds: 1
sides:
  - name: a
    combatants:
      - {name: Duelist, specialty: impulse, attribute: d6, pool: d6, specialties: [{specialty: vigilance, attribute: d10}, {specialty: timing, attribute: d8}], hp: 100, attack: "1", defence: "5", damage: "1", policy: {name: default, roll: ROLL}}
  - name: b
    combatants:
      - {name: Foe, specialty: none, attribute: d10, hp: 100, attack: "1", defence: "5", damage: "1", policy: none}
`
	line := regexp.MustCompile(`(?m)^initiative: Duelist rolls .*$`)
	for roll, want := range map[string]string{"main": "rolls d6+1d6:", "highest_die": "rolls d10:", "interpose": "(vigilance:",
		"reprise": "(timing:", "seize": "(impulse:", "timing": "rolls d8:"} {
		g := cavCompile(t, "roll.yaml", []byte(strings.Replace(src, "ROLL", roll, 1)))
		log := cavTrace(g, 1, 0)
		if got := line.FindString(log); !strings.Contains(got, want) {
			t.Errorf("roll %s: Duelist's initiative line %q lacks %q\n%s", roll, got, want, log)
		}
	}
	var sc *scenario.Scenario
	var err error
	bad := strings.Replace(strings.Replace(src, "ROLL", "timing", 1), ", {specialty: timing, attribute: d8}", "", 1)
	sc, err = scenario.Load("bad.yaml", []byte(bad), nil, rulesets.Schema)
	if err == nil {
		_, err = rulesets.Compile(sc)
	}
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:") || !strings.Contains(err.Error(), "Duelist has no ranks in timing; it has ranks in impulse, vigilance") {
		t.Errorf("roll timing without ranks: error %v", err)
	}
}

// Issue 24 item 16: at a seize the tactics know who is about to act
// (enemy("NAME").next), and at an Interpose offer who attacks and how it
// stands (enemy("NAME").attacking, attacker.hp_pct, attacker.distance).
// The musketeer seizes only before Assassin#1 and interposes only against
// Assassin#2: over many encounters every seize and every interpose is so,
// and there are some of each (so the rules did decide).
func TestCavSeizeAndInterposeNamedFacts(t *testing.T) {
	tac := `{reactions: [` +
		`{name: first, when: 'enemy("Assassin#1").next', do: seize}, {when: offer.seize, do: pass}, ` +
		`{name: shield, when: 'enemy("Assassin#2").attacking and attacker.hp_pct > 0 and attacker.distance <= 1', do: interpose for Envoy}, ` +
		`{do: pass}]}`
	g := cavBuiltin(t, "cavaliers/tactics-ward", "escort.Musketeer.tactics="+tac)
	seizes, interposes := 0, 0
	for e := int64(0); e < 40; e++ {
		for _, line := range strings.Split(cavTrace(g, 1, e), "\n") {
			if strings.HasPrefix(line, "Musketeer seizes the initiative") {
				seizes++
				if !strings.HasSuffix(line, "acts before Assassin#1 this round") {
					t.Errorf("encounter %d: %q: seized before another", e, line)
				}
			}
			if strings.HasPrefix(line, "Musketeer interposes") {
				interposes++
				if !strings.Contains(line, "Assassin#2's attack") {
					t.Errorf("encounter %d: %q: interposed against another", e, line)
				}
			}
		}
	}
	if seizes == 0 || interposes == 0 {
		t.Errorf("seizes %d, interposes %d over 40 encounters; want some of each", seizes, interposes)
	}
}

// Issue 24 item 16: which specialty to roll is a tactics decision at the
// moment the combatant enters the fight, before its Initiative roll
// (enter: roll SPECIALTY), with the facts of that moment; no rule: the
// main specialty. A specialty it has no ranks in is an error naming its own.
func TestCavTacticsRollAtEnter(t *testing.T) {
	src := `ruleset: cavaliers
max_rounds: 1
sides:
  - name: a
    combatants:
      - {name: Duelist, specialty: impulse, attribute: d6, pool: d6, specialties: [{specialty: vigilance, attribute: d10}, {specialty: timing, attribute: d8}], hp: 100, attack: "1", defence: "5", damage: "1",
         tactics: {enter: [{name: crowd, when: enemies.count >= 2, do: roll vigilance}, {name: duel, when: enemies.count == 1, do: roll timing}]}}
  - name: b
    combatants:
      - {name: Foe, specialty: none, attribute: d10, hp: 100, attack: "1", defence: "5", damage: "1", policy: none, count: FOES}
`
	line := regexp.MustCompile(`(?m)^initiative: Duelist rolls .*$`)
	for foes, want := range map[string]struct{ roll, rule string }{"1": {"rolls d8:", "enter/duel"}, "2": {"rolls d10:", "enter/crowd"}} {
		g := cavCompile(t, "roll.yaml", []byte(strings.Replace(src, "FOES", foes, 1)))
		log, ev, _ := traced(g, 1, 0)
		if got := line.FindString(log); !strings.Contains(got, want.roll) {
			t.Errorf("%s foes: Duelist's initiative line %q lacks %q\n%s", foes, got, want.roll, log)
		}
		if !ev.Has(t, "rule Duelist ok=true rule="+want.rule) {
			t.Errorf("%s foes: the enter rule %s did not decide\n%s", foes, want.rule, ev.Dump())
		}
	}
	// No rule decides: the main specialty.
	g := cavCompile(t, "roll.yaml", []byte(strings.Replace(strings.Replace(src, "FOES", "3", 1), "enemies.count >= 2", "enemies.count >= 9", 1)))
	if got := line.FindString(cavTrace(g, 1, 0)); !strings.Contains(got, "rolls d6+1d6:") {
		t.Errorf("no enter rule decides: %q, want the main specialty", got)
	}
	sc, err := scenario.Load("bad.yaml", []byte(strings.Replace(strings.Replace(src, "FOES", "1", 1), "roll timing", "roll finesse", 1)), nil, rulesets.Schema)
	if err == nil {
		_, err = rulesets.Compile(sc)
	}
	if err == nil || !strings.Contains(err.Error(), `roll needs one of Duelist's specialties: roll impulse|vigilance|timing, got "finesse"`) {
		t.Errorf("roll finesse: error %v", err)
	}
}
