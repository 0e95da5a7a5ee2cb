package agents_test

import (
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	"simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

func lotmLoad(t testing.TB, name string, text []byte, sets ...string) (sim.Game, error) {
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
		return nil, err
	}
	return rulesets.Compile(sc)
}

func lotmBuiltin(t testing.TB, name string, sets ...string) sim.Game {
	t.Helper()
	text, display, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no built-in scenario %s", name)
	}
	g, err := lotmLoad(t, display, text, sets...)
	if err != nil {
		t.Fatalf("%s:\n%v", name, err)
	}
	return g
}

// lotmTally plays n encounters of g at seed 1.
func lotmTally(g sim.Game, n int64) *sim.Tally {
	t := sim.NewTally(g)
	tb := g.NewTable()
	var r rng.Stream
	for i := int64(0); i < n; i++ {
		r.Seed(1, uint64(i))
		t.Record(tb.Play(&r, &t.Counts, nil))
	}
	return t
}

func lotmCounter(t testing.TB, g sim.Game, tl *sim.Tally, side int, name string) int64 {
	t.Helper()
	for k, c := range g.Counters() {
		if c == name {
			return tl.Counts.Get(side, k)
		}
	}
	t.Fatalf("no counter %s", name)
	return 0
}

func lotmTrace(g sim.Game, enc int64) string {
	var b strings.Builder
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	sim.Replay(g, 1, enc, &sim.Log{W: &b, Names: names})
	return b.String()
}

// Every built-in lotm scenario compiles with its policies, plays, and
// allocates nothing per encounter.
func TestLotmBuiltinScenarios(t *testing.T) {
	n := 0
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "lotm/") {
			continue
		}
		n++
		g := lotmBuiltin(t, name)
		tl := lotmTally(g, 2000)
		if tl.Wins[0] == 0 || tl.Wins[1] == 0 {
			t.Errorf("%s: wins %v in 2000 encounters; a built-in scenario should be contested", name, tl.Wins)
		}
		tb := g.NewTable()
		c := sim.NewCounts(len(g.Counters()))
		var r rng.Stream
		i := uint64(0)
		if a := testing.AllocsPerRun(500, func() { r.Seed(2, i); i++; tb.Play(&r, &c, nil) }); a != 0 {
			t.Errorf("%s: %.2f allocations per encounter, want 0", name, a)
		}
	}
	if n < 4 {
		t.Errorf("%d lotm built-in scenarios; the issue asks for four (ambush, invisible assassin, inserted reinforcements, grapple combo)", n)
	}
}

// combo: the Striker delays its attack until the Wrestler grapples and then
// strikes the held Brute; with the default policy it never delays.
func TestLotmComboPolicy(t *testing.T) {
	g := lotmBuiltin(t, "lotm/grapple-combo")
	log := lotmTrace(g, 3)
	for _, want := range []string{
		"Striker delays its attack action until ally_grapples (Wrestler)",
		"trigger for Striker: Wrestler grapples Brute",
		"Striker takes its delayed attack action",
		"Striker: attack vs Brute: d20",
	} {
		if !strings.Contains(log, want) {
			t.Fatalf("trace lacks %q:\n%s", want, log)
		}
	}
	tl := lotmTally(g, 3000)
	fired, declared := lotmCounter(t, g, tl, 0, "delays_fired"), lotmCounter(t, g, tl, 0, "delays")
	lost := lotmCounter(t, g, tl, 0, "actions_lost")
	// The rest of the declared delays were pending when the delayer went
	// out or the fight ended.
	if fired == 0 || lost == 0 || fired+lost > declared {
		t.Errorf("delays %d: fired %d + lost %d, both nonzero and at most the declared", declared, fired, lost)
	}
	g = lotmBuiltin(t, "lotm/grapple-combo", "heroes.Striker.policy=default")
	tl = lotmTally(g, 1000)
	if d := lotmCounter(t, g, tl, 0, "delays"); d != 0 {
		t.Errorf("default policy delayed %d times", d)
	}
}

// ambush: the assassin hides after attacking, brings its turn forward while
// hidden and ambushes from invisibility.
func TestLotmAmbushPolicy(t *testing.T) {
	g := lotmBuiltin(t, "lotm/assassin")
	tl := lotmTally(g, 2000)
	for _, c := range []string{"hides", "insertions", "ambushes", "double_strikes"} {
		if lotmCounter(t, g, tl, 0, c) == 0 {
			t.Errorf("the assassin never counted %s", c)
		}
	}
	if lotmCounter(t, g, tl, 1, "hidden_found") == 0 || lotmCounter(t, g, tl, 0, "ambushes_foiled") == 0 {
		t.Errorf("the guards never found the assassin")
	}
	// The flame-jumper of the ambush scenario brings its turn into the
	// cultists' Ambush Round.
	g = lotmBuiltin(t, "lotm/ambush")
	log := lotmTrace(g, 0)
	if !strings.Contains(log, "Pyromaniac brings its turn forward") || !strings.Contains(log, "(advantage and disadvantage cancel)") {
		t.Errorf("the Pyromaniac's ambush in the Ambush Round is missing:\n%s", log)
	}
}

const lotmPolicyBase = `name: policies
ruleset: lotm
max_rounds: 30
sides:
  - name: a
    combatants:
      - {name: P, hp: 40, ac: 10, agility: 2, attacks: [5], damage: 1d6, strength: 3, deception: 3, intimidation: 3, double_strike: 3}
  - name: b
    combatants:
      - {name: E, hp: 40, ac: 10, agility: 2, attacks: [4], damage: 1d6, strength: 2}
`

// Each named policy takes the decision it is named for.
func TestLotmPolicyDecisions(t *testing.T) {
	for _, c := range []struct{ policy, counter string }{
		{"aim", "aims"}, {"feint", "feints"}, {"intimidate", "intimidations"}, {"charge", "charges"},
		{"vital", "vital_strikes"}, {"grapple", "squeezes"}, {"default", "double_strikes"},
		{"{name: grapple, hands: one}", "grapples_won"},
		{"{name: default, cover: item}", "covers"},
	} {
		g, err := lotmLoad(t, "p.yaml", []byte(lotmPolicyBase), "a.P.policy="+c.policy, "a.P.cover_item={size: small, count: 3}")
		if err != nil {
			t.Fatalf("%s: %v", c.policy, err)
		}
		tl := lotmTally(g, 300)
		if lotmCounter(t, g, tl, 0, c.counter) == 0 {
			t.Errorf("policy %s never counted %s", c.policy, c.counter)
		}
	}
	// One hand: the grappler attacks normally (Double Strike) and never squeezes.
	g, _ := lotmLoad(t, "p.yaml", []byte(lotmPolicyBase), "a.P.policy={name: grapple, hands: one}")
	tl := lotmTally(g, 300)
	if lotmCounter(t, g, tl, 0, "squeezes") != 0 || lotmCounter(t, g, tl, 0, "double_strikes") == 0 {
		t.Errorf("one-handed grappler: squeezes %d, double strikes %d", lotmCounter(t, g, tl, 0, "squeezes"), lotmCounter(t, g, tl, 0, "double_strikes"))
	}
	// Luck on initiative, with the option: all of it, once.
	g, err := lotmLoad(t, "p.yaml", []byte(lotmPolicyBase), "a.P.luck=5", "a.P.policy={name: default, luck: initiative}", "options.burn_luck_initiative=true")
	if err != nil {
		t.Fatal(err)
	}
	tl = lotmTally(g, 100)
	if b := lotmCounter(t, g, tl, 0, "luck_burned"); b != 500 {
		t.Errorf("luck burned on initiative %d over 100 encounters, want 500", b)
	}
}

// casting_slot separate: the default policy casts and attacks in one turn
// (more actions than turns); shared: at most one main action a turn.
func TestLotmCastingSlotSeparate(t *testing.T) {
	for _, slot := range []string{"shared", "separate"} {
		g, err := lotmLoad(t, "p.yaml", []byte(lotmPolicyBase), "a.P.casting={bonus: 4, damage: 1d6, uses: 3}", "options.casting_slot="+slot)
		if err != nil {
			t.Fatal(err)
		}
		tl := lotmTally(g, 300)
		actions, turns, casts := lotmCounter(t, g, tl, 0, "actions"), lotmCounter(t, g, tl, 0, "turns"), lotmCounter(t, g, tl, 0, "casts")
		if casts != 900 {
			t.Errorf("%s: %d casts in 300 encounters, want all 900 uses", slot, casts)
		}
		if (actions > turns) != (slot == "separate") {
			t.Errorf("%s: %d actions in %d turns", slot, actions, turns)
		}
		log := lotmTrace(g, 0)
		first := log[strings.Index(log, "P's turn"):]
		first = first[:len("P's turn")+strings.Index(first[len("P's turn"):], "-- round")]
		both := strings.Contains(first, "P: casting vs E") && strings.Contains(first, "P: double strike vs E")
		if both != (slot == "separate") {
			t.Errorf("%s: P's first turn casts and strikes: %v\n%s", slot, both, first)
		}
	}
}

func TestLotmPolicyErrors(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"a.P.policy=combo", "policy combo needs ally: NAME"},
		{"a.P.policy={name: combo, ally: E}", `"E" is not on P's side`},
		{"a.P.policy={name: combo, ally: Nobody}", `no combatant "Nobody"`},
		{"a.P.policy=ambush", "policy ambush needs a means of ambush"},
		{"a.P.policy={name: default, luck: initiative}", "needs options: {burn_luck_initiative: true}"},
		{"b.E.policy={name: default, attack: double}", "E cannot Double Strike"},
		{"b.E.policy={name: default, attack: cast}", "E has no casting ability"},
		{"a.P.policy={name: default, delay: free}", "nothing to delay"},
		{"a.P.policy={name: default, trigger: sometime}", `"sometime" is not valid`},
		{"a.P.policy={name: default, swift: one_hand}", `"one_hand" is not valid`},
		{"a.P.policy={name: default, aim: true}", `unknown field "aim"`},
		{"a.P.policy={name: default, cover: item}", "give P cover_item: {size: medium}"},
		{"a.P.policy={name: default, cover: obstacle}", "give P obstacle: {size: medium}"},
	} {
		_, err := lotmLoad(t, "p.yaml", []byte(lotmPolicyBase), c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: error %v; want %q", c.set, err, c.want)
		}
	}
}

// The rules document lists every registered policy.
func TestLotmRulesListPolicies(t *testing.T) {
	d := lotm.Ruleset{}.Doc()
	var names []string
	for _, p := range d.Policies {
		names = append(names, p.Name)
	}
	got := strings.Join(names, " ")
	for _, want := range []string{"aim", "ambush", "charge", "combo", "default", "feint", "grapple", "intimidate", "vital"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("simctl rules lotm lacks policy %s (has %s)", want, got)
		}
	}
}

// Every built-in lotm scenario with every preset policy on every combatant
// and the options that change the rules' paths plays without a panic (a
// panic here would lose a whole run) and allocates nothing; the
// combatant under test also gets the reaction and cover fields, everyone
// limb_block and intuition, and each new rule must fire somewhere. Presets a
// combatant cannot use (ambush without a means of ambush, combo without an
// ally) are rejected by Compile and skipped.
func TestLotmEveryPolicyPlays(t *testing.T) {
	presets := []string{"default", "aim", "feint", "intimidate", "ambush", "grapple", "charge", "vital",
		"{name: grapple, hands: limb}", "{name: default, attack: leg_sweep}", "{name: default, delay: attack, trigger: enemy_in_reach}",
		"{name: default, delay: move, trigger: after_ally}", "{name: default, cover: item}", "{name: default, cover: obstacle}",
		"{name: default, attack: point_blank}"}
	options := [][]string{nil, {"options.casting_slot=separate"}, {"options.spiritual_intuition=true"},
		{"options.search=none", "options.insert_order=move"}, {"options.ambush_detection=each", "options.contest_ties=attacker"},
		{"options.naturals=false", "options.advantage=flat"}}
	played := 0
	seen := map[string]int64{}
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "lotm/") {
			continue
		}
		text, display, _ := scenarios.Read(name)
		sc, err := scenario.Load(display, text, nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		// Everyone blocks limbs and has the intuition to sense an ambush.
		var all []string
		for _, side := range sc.Sides {
			for _, c := range side.Combatants {
				all = append(all, side.Name+"."+c.Name+".limb_block=true", side.Name+"."+c.Name+".intuition=10")
			}
		}
		for _, side := range sc.Sides {
			for _, c := range side.Combatants {
				for _, pre := range presets {
					for _, opt := range options {
						who := side.Name + "." + c.Name
						sets := append(append([]string{who + ".policy=" + pre, who + ".agility=6",
							who + ".borrow_strength=true", who + ".cover_item={size: small, count: 2}",
							who + ".obstacle={size: medium}", who + ".size=2"}, all...), opt...)
						if strings.Contains(pre, "point_blank") {
							sets = append(sets, who+".firearm=3")
						}
						g, err := lotmLoad(t, display, text, sets...)
						if err != nil {
							continue
						}
						tl := lotmTally(g, 40)
						if tl.Encounters != 40 {
							t.Fatalf("%s %v: %d encounters recorded", name, sets, tl.Encounters)
						}
						for k, cn := range g.Counters() {
							seen[cn] += tl.Counts.Get(0, k) + tl.Counts.Get(1, k)
						}
						tb := g.NewTable()
						cs := sim.NewCounts(len(g.Counters()))
						var r rng.Stream
						i := uint64(0)
						if a := testing.AllocsPerRun(10, func() { r.Seed(3, i); i++; tb.Play(&r, &cs, nil) }); a != 0 {
							t.Errorf("%s %v: %.2f allocations per encounter, want 0", name, sets, a)
						}
						played++
					}
				}
			}
		}
	}
	t.Logf("%d variants played", played)
	for _, cn := range []string{"covers", "covers_broken", "limb_blocks", "borrows", "point_blanks", "leg_sweeps",
		"intuition_saves", "grapples_won", "delays_fired", "hidden_found", "casts"} {
		if seen[cn] == 0 {
			t.Errorf("no variant counted %s", cn)
		}
	}
	if played < 300 {
		t.Errorf("only %d variants played", played)
	}
}

// Issue 24 item 16: the Delay trigger "a named enemy acts" (enemy_acts for
// NAME), the reaction facts about the enemy about to act (which one, hidden,
// acted) and self.covered, as tactics decide with them.
func TestLotmTacticsIssue24Facts(t *testing.T) {
	const src = `name: issue 24 facts
ruleset: lotm
max_rounds: 2
distance: 0
sides:
  - name: a
    combatants:
      - {name: Watcher, hp: 60, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, strength: 2, cover_item: {size: small},
         tactics: {turn: [{name: cover up, when: not self.covered, do: attack cover item}, {name: hold for the brute, when: self.covered, do: delay attack on enemy_acts for Brute}]}}
      - {name: Shade, hp: 60, ac: 10, attacks: [3], damage: 1, initiative_roll: 1, teleport: 2,
         tactics: {reactions: [{name: before the brute, when: enemy("Brute").acting and not reaction.hidden and not reaction.acted, do: insert}, {do: wait}]}}
  - name: b
    combatants:
      - {name: Scout, hp: 60, ac: 10, attacks: [0], damage: 1, initiative_roll: 15}
      - {name: Brute, hp: 60, ac: 10, attacks: [0], damage: 1, initiative_roll: 10}
`
	g, err := lotmLoad(t, "t24.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	log := lotmTrace(g, 1)
	r2 := log[strings.Index(log, "-- round 2"):]
	for _, want := range [][]string{
		{"Watcher: tactics rule cover up at turn (when not self.covered: self.covered=0) decides: attack cover item",
			"Shade: tactics rule #2 at reactions (always) decides: wait", "Scout's turn",
			`Shade: tactics rule before the brute at reactions (when enemy("Brute").acting and not reaction.hidden and not reaction.acted: enemy("Brute").acting=1, reaction.hidden=0, reaction.acted=0) decides: insert`,
			"Shade brings its turn forward, ahead of Brute", "Brute's turn"},
		{"Watcher: tactics rule hold for the brute at turn (when self.covered: self.covered=1) decides: delay attack on enemy_acts for Brute",
			"Scout's turn", "Brute's turn", "trigger for Watcher: Brute acts", "Watcher: attack vs Brute", "Brute: attack vs"},
	} {
		rest := log
		if strings.HasPrefix(want[0], "Watcher: tactics rule hold") {
			rest = r2
		}
		for _, w := range want {
			k := strings.Index(rest, w)
			if k < 0 {
				t.Fatalf("trace lacks %q (in order %q):\n%s", w, want, log)
			}
			rest = rest[k+len(w):]
		}
	}
	if strings.Contains(r2[:strings.Index(r2, "Brute's turn")], "trigger for Watcher") {
		t.Errorf("the delay for Brute fired on another enemy's turn:\n%s", log)
	}
}

// Issue 24 item 16: the Go policy's limb_block and borrow parameters are
// the Limb Block's limb and the willingness to Borrow Strength.
func TestLotmLimbAndBorrowParams(t *testing.T) {
	const src = `name: reactions
ruleset: lotm
max_rounds: 6
distance: 0
sides:
  - name: a
    combatants:
      - {name: A, hp: 200, ac: 10, attacks: [12], damage: 1, initiative_roll: 20, strength: 1, policy: {name: default, attack: vital, part: head}}
  - name: b
    combatants:
      - {name: T, hp: 200, ac: 10, agility: 3, attacks: [0], damage: 1, initiative_roll: 1, limb_block: true, borrow_strength: true, strength: 2, policy: POLICY}
`
	count := func(policy string, frags ...string) []int {
		g, err := lotmLoad(t, "r.yaml", []byte(strings.Replace(src, "POLICY", policy, 1)))
		if err != nil {
			t.Fatal(err)
		}
		n := make([]int, len(frags))
		for e := int64(0); e < 200; e++ {
			log := lotmTrace(g, e)
			for k, f := range frags {
				n[k] += strings.Count(log, f)
			}
		}
		return n
	}
	const legs, arms, borrows = "blocked with the legs", "blocked with the arms", "borrows strength"
	def := count("{name: default}", legs, arms, borrows)
	armsFirst := count("{name: default, limb_block: arms_first, borrow: never}", legs, arms, borrows)
	never := count("{name: default, limb_block: never}", legs, arms, "limb block:")
	if def[0] == 0 || def[2] == 0 || armsFirst[1] == 0 {
		t.Fatalf("no blocks or borrows to compare: default %v, arms_first %v", def, armsFirst)
	}
	// Each limb blocks once: legs_first blocks with the legs until both
	// have blocked, so the default's first blocks are legs, arms_first's arms.
	if def[0] < def[1] || armsFirst[1] < armsFirst[0] || armsFirst[2] != 0 || never[2] != 0 {
		t.Errorf("legs/arms/borrows: default %v, arms_first with borrow never %v, limb_block never (block tries) %v", def, armsFirst, never)
	}
	t.Logf("legs/arms/borrows: default %v, arms_first with borrow never %v; limb_block never: %d block tries", def, armsFirst, never[2])
}
