package agents_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"simctl/agents"
	"simctl/reports/i18n"
	"simctl/rulesets"
	"simctl/sim/scenario"
)

// The Limb Block, Borrow Strength and Burn Luck decisions misused: the
// exact message a user sees. able: the Fighter has limb_block and
// borrow_strength.
func TestLotmReactionErrors(t *testing.T) {
	cases := []struct {
		able       bool
		block, err string
	}{
		{true, "{turn: [{do: limb_block}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: limb_block is a decision at reactions, not at turn; lotm offers at turn: …"},
		{true, "{turn: [{do: borrow}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: borrow is a decision at reactions, not at turn; lotm offers at turn: …"},
		{true, "{turn: [{do: burn}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: burn is a decision at luck, not at turn; lotm offers at turn: …"},
		{true, "{reactions: [{do: burn}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: burn is a decision at luck, not at reactions; lotm offers at reactions: insert, wait, limb_block [legs|arms], borrow, pass"},
		{true, "{luck: [{do: borrow}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.luck[0].do: borrow is a decision at reactions, not at luck; lotm offers at luck: burn, keep"},
		{true, "{luck: [{do: insert}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.luck[0].do: insert is a decision at reactions, not at luck; lotm offers at luck: burn, keep"},
		{true, "{reactions: [{do: limb_block head}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: limb_block [legs|arms]: the limb it blocks with (a leg hit halves its speed, an arm hit costs -2 on its Fighting checks; without one, the legs first, then the arms); got \"head\""},
		{true, "{reactions: [{do: limb_block leg}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: limb_block [legs|arms]: the limb it blocks with (a leg hit halves its speed, an arm hit costs -2 on its Fighting checks; without one, the legs first, then the arms); got \"leg\" (did you mean \"legs\"?)"},
		{true, "{reactions: [{do: limb_block legs arms}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: limb_block [legs|arms]: the limb it blocks with (a leg hit halves its speed, an arm hit costs -2 on its Fighting checks; without one, the legs first, then the arms); got \"legs arms\" (did you mean \"legs\"?)"},
		{false, "{reactions: [{do: limb_block arms}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: Fighter cannot Limb Block: give it limb_block: true"},
		{false, "{reactions: [{do: borrow}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: Fighter cannot Borrow Strength: give it borrow_strength: true"},
		{true, "{reactions: [{do: borrow now}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: borrow takes no argument, got \"now\""},
		{true, "{luck: [{do: burn 3}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.luck[0].do: burn takes no argument, got \"3\""},
		{true, "{reactions: [{do: limb_block, target: weakest}]}",
			"a.yaml:8:56: sides[0].combatants[0].tactics.reactions[0].target: limb_block has no target: it answers the attacker's strike or critical failure, or its own hit check"},
		{true, "{luck: [{do: keep, target: weakest}]}",
			"a.yaml:8:45: sides[0].combatants[0].tactics.luck[0].target: keep has no target: it answers the attacker's strike or critical failure, or its own hit check"},
		{true, "{turn: [{when: offer.borrow, do: attack}]}",
			"a.yaml:8:33: sides[0].combatants[0].tactics.turn[0].when: unknown fact offer.borrow; lotm offers at turn: …"},
		{true, "{reactions: [{when: luck.needed > 1, do: pass}]}",
			"a.yaml:8:38: sides[0].combatants[0].tactics.reactions[0].when: unknown fact luck.needed; lotm offers at reactions: …"},
		{true, "{luck: [{when: strike.total > 10, do: burn}]}",
			"a.yaml:8:33: sides[0].combatants[0].tactics.luck[0].when: unknown fact strike.total; lotm offers at luck: …"},
		{true, "{luck: [{do: spend}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.luck[0].do: unknown decision \"spend\"; lotm offers at luck: burn, keep"},
	}
	for _, c := range cases {
		src := strings.Replace(lotmErrScenario, "%s", c.block, 1)
		if c.able {
			src = strings.Replace(src, "        hp: 20\n", "        hp: 20\n        limb_block: true\n        borrow_strength: true\n", 1)
		}
		sc, err := scenario.Load("a.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if _, err := rulesets.Compile(sc); err != nil {
			got = err.Error()
		}
		// "…": the rest (the moment's list of facts or decisions) is left out.
		if want, ok := strings.CutSuffix(c.err, "…"); (ok && !strings.HasPrefix(got, want)) || (!ok && got != c.err) {
			t.Errorf("tactics: %s\n got: %q\nwant: %q", c.block, got, c.err)
		}
	}
}

// An unconditional pass answers every offer, so rules after it can never
// fire; an insert answers only the ambush offer and hides no limb_block.
func TestLotmReactionShadows(t *testing.T) {
	for _, c := range []struct{ block, warn string }{
		{"{reactions: [{do: pass}, {do: borrow}]}", "a.yaml:8:43: sides[0].combatants[0].tactics.reactions[1]: rule #2 can never fire: rule #1 before it has no when: and its decision cannot fall through"},
		{"{reactions: [{do: limb_block}, {do: borrow}]}", ""},
		{"{luck: [{do: keep}, {do: burn}]}", "a.yaml:8:38: sides[0].combatants[0].tactics.luck[1]: rule #2 can never fire: rule #1 before it has no when: and its decision cannot fall through"},
	} {
		src := strings.Replace(lotmErrScenario, "%s", c.block, 1)
		src = strings.Replace(src, "        hp: 20\n", "        hp: 20\n        limb_block: true\n        borrow_strength: true\n", 1)
		sc, err := scenario.Load("a.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rulesets.Compile(sc); err != nil {
			t.Fatalf("%s: %v", c.block, err)
		}
		var ws []string
		for _, w := range sc.Rep.Warns {
			ws = append(ws, w.Error())
		}
		if got := strings.Join(ws, "\n"); got != c.warn {
			t.Errorf("%s: warnings %q, want %q", c.block, got, c.warn)
		}
	}
}

// The Go policy parameters limb_block, borrow and luck written as rules
// (docs/tactics.md): every combination, on both sides, plays the same
// encounters as the Go policy.
func TestLotmReactionParamsMatchTactics(t *testing.T) {
	const src = `name: reactions
ruleset: lotm
max_rounds: 8
distance: 0
options: {burn_luck_initiative: true}
sides:
  - name: a
    combatants:
      - {name: A, hp: 60, ac: 10, agility: 2, attacks: [12], damage: 1d4, strength: 1, luck: 4, limb_block: true, borrow_strength: true, policy: APOL}
  - name: b
    combatants:
      - {name: T, hp: 60, ac: 10, agility: 3, attacks: [4], damage: 1d6, strength: 2, luck: 5, limb_block: true, borrow_strength: true, policy: TPOL}
`
	limbs := map[string]string{"legs_first": "", "arms_first": "{when: offer.limb_block, do: limb_block arms}", "never": "{when: offer.limb_block, do: pass}"}
	borrows := map[string]string{"always": "", "never": "{when: offer.borrow, do: pass}"}
	lucks := map[string]string{"attack": "", "never": "{do: keep}", "initiative": "{when: luck.initiative, do: burn}, {do: keep}"}
	n, seen := 0, map[string]bool{}
	for limb, lr := range limbs {
		for borrow, br := range borrows {
			for luck, ur := range lucks {
				goPol := func(attack string) string {
					return "{name: default, attack: " + attack + ", part: head, limb_block: " + limb + ", borrow: " + borrow + ", luck: " + luck + "}"
				}
				var react []string
				for _, r := range []string{lr, br} {
					if r != "" {
						react = append(react, r)
					}
				}
				tac := func(do string) string {
					b := "tactics: {turn: [{do: " + do + "}]"
					if len(react) > 0 {
						b += ", reactions: [" + strings.Join(react, ", ") + "]"
					}
					if ur != "" {
						b += ", luck: [" + ur + "]"
					}
					return b + "}"
				}
				goSrc := strings.NewReplacer("APOL", goPol("vital"), "TPOL", goPol("attack")).Replace(src)
				// a combatant's tactics: replaces its policy: field
				tacSrc := strings.NewReplacer("policy: APOL", tac("vital head"), "policy: TPOL", tac("attack")).Replace(src)
				gg, err := lotmLoad(t, "g.yaml", []byte(goSrc))
				if err != nil {
					t.Fatal(err)
				}
				tg, err := lotmLoad(t, "t.yaml", []byte(tacSrc))
				if err != nil {
					t.Fatalf("%s: %v", tacSrc, err)
				}
				goT, tacT := lotmTally(gg, 1500), lotmTally(tg, 1500)
				if tacT.Counts.Rules == nil {
					t.Fatal("the tactics run has no rule counters")
				}
				tacT.Counts.Rules, goT.Counts.Rules = nil, nil
				seen[fmt.Sprint(*goT)] = true
				if !reflect.DeepEqual(goT, tacT) {
					t.Errorf("limb_block %s, borrow %s, luck %s: tactics differ from the Go policy:\ngo      %+v\ntactics %+v", limb, borrow, luck, goT, tacT)
				}
				n++
			}
		}
	}
	// Each parameter matters here: every combination plays differently.
	if n != 18 || len(seen) != n {
		t.Fatalf("%d combinations, %d different tallies", n, len(seen))
	}
}

// The example of docs/tactics.md compiles.
func TestLotmReactionDocExample(t *testing.T) {
	const block = `{reactions: [{when: offer.limb_block and strike.eyes and self.effects == 0, do: pass}, {when: offer.limb_block and enemies.in_reach == 0, do: limb_block arms}, {when: offer.borrow and not borrow.flip, do: pass}], luck: [{when: luck.initiative or (target.hp_pct > 0.5 and self.hp_pct > 0.5), do: keep}]}`
	src := strings.Replace(lotmErrScenario, "%s", block, 1)
	src = strings.Replace(src, "        hp: 20\n", "        hp: 20\n        luck: 3\n        limb_block: true\n        borrow_strength: true\n", 1)
	g, err := lotmLoad(t, "a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lotmTally(g, 200)
}

// simctl policies lotm lists the new moment, decisions and facts.
func TestLotmPoliciesListReactions(t *testing.T) {
	b, ok := agents.LookupBinding("lotm")
	if !ok {
		t.Fatal("no lotm binding")
	}
	var sb strings.Builder
	b.Describe(&sb, i18n.En.T)
	for _, want := range []string{"\nluck:\n  decisions (do:): burn, keep\n", "decisions (do:): insert, wait, limb_block [legs|arms], borrow, pass\n",
		"offer.limb_block", "strike.total", "borrow.flip", "borrow.swift", "self.leg_blocks", "self.luck", "luck.needed", "luck.initiative", "target.hp_pct"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("policies lotm lacks %q:\n%s", want, sb.String())
		}
	}
}
