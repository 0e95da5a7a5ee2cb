package agents

// The tactics language's ACKS II binding: declarations before initiative,
// the segment's plan, the interrupts (acting before one's number) and the
// same-number choice, each a moment with its own facts and decisions.

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/agents/tactics"
	"simctl/rulesets/acks2"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// ACKS moments, in the order the book asks: declarations before the
// initiative roll, then each combatant's segment; reactions and the
// same-number choice come up within segments.
const (
	amDeclare = iota
	amTurn
	amReact
	amSame
	numAcksMoments
)

var acksMoments = []string{"before_initiative", "turn", "reactions", "same_number"}

// ACKS facts (global ids).
const (
	afRound = iota
	afCount
	afSelfHP
	afSelfHPPct
	afSelfEngaged
	afSelfMissile
	afSelfLong
	afSelfSpellsLeft
	afSelfDeclaredSpell
	afSelfDeclaredMove
	afSelfDeclaredNothing
	afSelfNumber
	afSelfFloor
	afSelfResuming
	afSelfRound1Ready
	afSpellLeft
	afEnemiesCount
	afEnemiesAttackable
	afEnemiesCasters
	afAlliesCount
	afAlliesDown
	afAllyActed
	afAllyDown
	afAllyHPPct
	afAllyNumber
	afEnemyActed
	afEnemyDown
	afEnemyHPPct
	afEnemyDistance
	afEnemyDeclaredSpell
	afEnemyAttackable
	afEnemyNumber
	afReactReadied
	afReactMissile
	afReactLong
	afReactChargeAtSelf
	numAcksFacts
)

var acksFacts = [numAcksFacts]tactics.Fact{
	afRound:               {Name: "round", Type: tactics.Number, Doc: "the round"},
	afCount:               {Name: "count", Type: tactics.Number, Doc: "the count being played (10 down to -10)"},
	afSelfHP:              {Name: "self.hp", Type: tactics.Number, Doc: "current hit points"},
	afSelfHPPct:           {Name: "self.hp_pct", Type: tactics.Number, Doc: "current hit points as a fraction of those at the start"},
	afSelfEngaged:         {Name: "self.engaged", Type: tactics.Bool, Doc: "engaged in melee"},
	afSelfMissile:         {Name: "self.missile", Type: tactics.Bool, Doc: "fights with a missile weapon"},
	afSelfLong:            {Name: "self.long", Type: tactics.Bool, Doc: "fights with a long melee weapon (spear, polearm, lance)"},
	afSelfSpellsLeft:      {Name: "self.spells_left", Type: tactics.Number, Doc: "casts left over all its spells"},
	afSelfDeclaredSpell:   {Name: "self.declared_spell", Type: tactics.Bool, Doc: "declared a spell this round"},
	afSelfDeclaredMove:    {Name: "self.declared_move", Type: tactics.Bool, Doc: "declared a withdrawal or retreat this round"},
	afSelfDeclaredNothing: {Name: "self.declared_nothing", Type: tactics.Bool, Doc: "declared nothing this round"},
	afSelfNumber:          {Name: "self.number", Type: tactics.Number, Doc: "its initiative number this round"},
	afSelfFloor:           {Name: "self.floor", Type: tactics.Number, Doc: "the lowest count it may delay to this round"},
	afSelfResuming:        {Name: "self.resuming", Type: tactics.Bool, Doc: "its delay is over and it takes its segment now (a delay falls through)"},
	afSelfRound1Ready:     {Name: "self.round1_ready", Type: tactics.Bool, Doc: "still has its round-1 missile or long weapon ready against a charge"},
	afSpellLeft:           {Name: "spell.left", Type: tactics.Number, Arg: tactics.SpellArg, Doc: "casts left of one of its spells"},
	afEnemiesCount:        {Name: "enemies.count", Type: tactics.Number, Doc: "enemies still in the fight"},
	afEnemiesAttackable:   {Name: "enemies.attackable", Type: tactics.Number, Doc: "enemies it can attack where it stands"},
	afEnemiesCasters:      {Name: "enemies.casters", Type: tactics.Number, Doc: "enemies in the fight that declared a spell this round"},
	afAlliesCount:         {Name: "allies.count", Type: tactics.Number, Doc: "allies (not itself) still in the fight"},
	afAlliesDown:          {Name: "allies.down", Type: tactics.Number, Doc: "allies out of the fight"},
	afAllyActed:           {Name: "ally.acted", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally has taken its segment this round"},
	afAllyDown:            {Name: "ally.down", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally is out of the fight"},
	afAllyHPPct:           {Name: "ally.hp_pct", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's hit points as a fraction of its starting ones"},
	afAllyNumber:          {Name: "ally.number", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's initiative number this round (at before_initiative, last round's: 0 in round 1)"},
	afEnemyActed:          {Name: "enemy.acted", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy has taken its segment this round"},
	afEnemyDown:           {Name: "enemy.down", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is out of the fight"},
	afEnemyHPPct:          {Name: "enemy.hp_pct", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's hit points as a fraction of its starting ones"},
	afEnemyDistance:       {Name: "enemy.distance", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "feet between it and the enemy"},
	afEnemyDeclaredSpell:  {Name: "enemy.declared_spell", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy declared a spell this round"},
	afEnemyAttackable:     {Name: "enemy.attackable", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "it can attack the enemy where it stands"},
	afEnemyNumber:         {Name: "enemy.number", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's initiative number this round (at before_initiative, last round's: 0 in round 1)"},
	afReactReadied:        {Name: "reaction.readied_attack", Type: tactics.Bool, Doc: "the offer is its readied attack (an enemy's movement ended in reach)"},
	afReactMissile:        {Name: "reaction.round1_missile", Type: tactics.Bool, Doc: "the offer is a round-1 missile shot at a charger"},
	afReactLong:           {Name: "reaction.round1_long", Type: tactics.Bool, Doc: "the offer is a round-1 long-weapon attack at a charger (costs its own number)"},
	afReactChargeAtSelf:   {Name: "reaction.charge_at_self", Type: tactics.Bool, Doc: "the enemy is charging it"},
}

// acksMomentFacts lists the facts of each moment (global ids): the
// reaction facts only where there is a reaction.
func acksMomentFacts(m int) []int {
	var ids []int
	for id := 0; id < numAcksFacts; id++ {
		if id >= afReactReadied && m != amReact {
			continue
		}
		ids = append(ids, id)
	}
	return ids
}

// AcksDecisions documents the ACKS II decisions per moment.
var AcksDecisions = [numAcksMoments][]string{
	amDeclare: {"declare SPELL | declare any", "withdraw", "retreat", "nothing"},
	amTurn:    {"attack", "attack without charging", "delay until NAME", "delay to COUNT", "delay to floor", "ready", "SPECIAL_ACTION"},
	amReact:   {"strike", "hold"},
	amSame:    {"before", "after"},
}

// AcksFacts documents the facts of a moment (docs, simctl policies).
func AcksFacts(moment string) []tactics.Fact {
	for m, name := range acksMoments {
		if name == moment {
			var out []tactics.Fact
			for _, id := range acksMomentFacts(m) {
				out = append(out, acksFacts[id])
			}
			return out
		}
	}
	return nil
}

type acksDoKind uint8

const (
	adDeclare acksDoKind = iota
	adWithdraw
	adRetreat
	adNothing
	adAttack
	adDelayUntil
	adDelayTo
	adDelayFloor
	adReady
	adStrike
	adHold
	adBefore
	adAfter
	adSpecial // a special action written as data (action: segment), do.who its index
)

const (
	awNoTarget = iota
	awNoUses
	awResuming
	awWaitedOut
	awWaitedActed
	awCount
	awDeclared
	awNoSpecial
	numAcksWhy
)

var acksWhyText = [numAcksWhy]string{
	"no enemy matches the target",
	"no use of the spell left",
	"this is its delayed segment",
	"the one it waits for is out",
	"the one it waits for has acted",
	"that count is not below the count now",
	"it declared an action this round",
	"the action cannot be taken now",
}

type acksDo struct {
	kind      acksDoKind
	spell     int // declare: -1 any
	spellName string
	who       int
	count     int
	noCharge  bool
}

type acksTarget struct {
	mode  int // acksWeakest ... acksCasters
	named int
}

type acksRule struct {
	ruleHead
	do     acksDo
	target acksTarget
}

// acksTactic is a compiled tactics block for one ACKS combatant. Immutable.
type acksTactic struct {
	rules    [numAcksMoments][]acksRule
	fallback [numAcksMoments]int
}

func compileAcksTactics(d *scenario.Decoder, g *acks2.Game, self int, n *yaml.Node, path string) acks2.Policy {
	rules, fallback, ok := compileBlock(d, g, self, n, path, &blockSpec[acksRule, *acksRule]{
		ruleset: "acks2", moments: acksMoments, lib: acksLibrary,
		facts: acksFacts[:], ids: acksMomentFacts,
		index: g.Index, resolve: func(kind tactics.ArgKind, name string) (int, msg.Text) { return resolveAcks(g, self, kind, name) },
		skip: func(mi int, do string) bool { return mi == amTurn && isDelayUntilSelf(g.Index, self, do) },
		parseDo: func(mi int, do string, r tactics.Rule, cr *acksRule) (ok bool) {
			cr.do, ok = parseAcksDo(d, g, self, mi, do, r.Do)
			return ok
		},
		parseTarget: func(tg string, r tactics.Rule, cr *acksRule, _ bool) (ok bool) {
			cr.target, ok = parseAcksTarget(d, g, self, tg, r.Target, cr.do.kind)
			return ok
		},
		// declare any on a combatant without spells: never fires
		keep:    func(cr *acksRule) bool { return cr.do.kind != adDeclare || len(g.C[self].Spells) > 0 },
		reasons: func(cr *acksRule) []int { return cr.do.reasons(cr.target) },
		whyText: acksWhyText[:],
	})
	if !ok {
		return nil
	}
	pol := &acksTactic{}
	copy(pol.rules[:], rules)
	copy(pol.fallback[:], fallback)
	return pol
}

func indexOfString(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func (do acksDo) reasons(tg acksTarget) []int {
	var out []int
	switch do.kind {
	case adDeclare:
		out = append(out, awNoUses)
	case adAttack:
		if tg.named >= 0 {
			out = append(out, awNoTarget)
		}
	case adDelayUntil:
		out = append(out, awResuming, awWaitedOut, awWaitedActed)
	case adDelayTo, adDelayFloor:
		out = append(out, awResuming, awCount)
	case adReady:
		out = append(out, awDeclared)
	case adSpecial:
		out = append(out, awNoSpecial)
	}
	return out
}

func resolveAcks(g *acks2.Game, self int, kind tactics.ArgKind, name string) (int, msg.Text) {
	spells := namesOf(g.C[self].Spells, func(s *acks2.Spell) string { return s.Name })
	return resolveArg(g.Roster(), g.Index, self, spells, kind, name)
}

func parseAcksDo(d *scenario.Decoder, g *acks2.Game, self, moment int, s string, t tactics.Text) (acksDo, bool) {
	do := acksDo{spell: -1, who: -1}
	fail := func(format string, args ...any) (acksDo, bool) {
		d.Errorf(t.Node, t.Path, format, args...)
		return do, false
	}
	offers := func() msg.Text {
		return msg.New("acks2 offers at %s: %s", acksMoments[moment], strings.Join(AcksDecisions[moment], ", "))
	}
	verb, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	for m := range AcksDecisions {
		if m == moment {
			continue
		}
		for _, dd := range AcksDecisions[m] {
			if v, _, _ := strings.Cut(dd, " "); v == verb && !(moment == amTurn && verb == "attack") {
				if !offersVerb(AcksDecisions[moment], verb) {
					return fail("%s is a decision at %s, not at %s; %s", verb, acksMoments[m], acksMoments[moment], offers())
				}
			}
		}
	}
	switch moment {
	case amDeclare:
		switch verb {
		case "declare":
			if rest == "" {
				return fail("declare needs a spell: declare SPELL or declare any")
			}
			do.kind = adDeclare
			if rest != "any" && len(g.C[self].Spells) == 0 {
				return fail("%s has no spells to declare", g.C[self].Name)
			}
			if rest != "any" {
				i, why := resolveAcks(g, self, tactics.SpellArg, rest)
				if why.Format != "" {
					return fail("%s (or any)", why)
				}
				do.spell, do.spellName = i, rest
			}
			return do, true
		case "withdraw", "retreat", "nothing":
			if rest != "" {
				return fail("%s takes no argument, got %q", verb, rest)
			}
			do.kind = map[string]acksDoKind{"withdraw": adWithdraw, "retreat": adRetreat, "nothing": adNothing}[verb]
			return do, true
		}
	case amTurn:
		if k := g.Action(self, s); k >= 0 {
			do.kind, do.who = adSpecial, k
			return do, true
		}
		switch verb {
		case "attack":
			switch rest {
			case "":
			case "without charging":
				do.noCharge = true
			default:
				return fail("attack or attack without charging (choose whom with target:), got %q", s)
			}
			do.kind = adAttack
			return do, true
		case "ready":
			if rest != "" {
				return fail("ready takes no argument: an ACKS readied action is an attack, taken when an enemy's movement ends in reach")
			}
			do.kind = adReady
			return do, true
		case "delay":
			kw, arg, _ := strings.Cut(rest, " ")
			arg = strings.TrimSpace(arg)
			switch {
			case kw == "until":
				i, ok := g.Index(arg)
				if !ok {
					return fail("%s", unknownDelayee(g.Roster(), self, arg))
				}
				if i == self {
					return fail("a combatant cannot delay until it has acted itself")
				}
				do.kind, do.who = adDelayUntil, i
				return do, true
			case kw == "to" && arg == "floor":
				do.kind = adDelayFloor
				return do, true
			case kw == "to":
				n, err := strconv.Atoi(arg)
				if err != nil || n < -10 || n > 10 {
					return fail("delay to needs a count from -10 to 10 or floor, got %q", arg)
				}
				do.kind, do.count = adDelayTo, n
				return do, true
			}
			return fail("delay until NAME, delay to COUNT or delay to floor, got %q", s)
		}
	case amReact:
		switch verb {
		case "strike", "hold":
			if rest != "" {
				return fail("%s takes no argument", verb)
			}
			do.kind = adStrike
			if verb == "hold" {
				do.kind = adHold
			}
			return do, true
		}
	case amSame:
		switch verb {
		case "before", "after":
			if rest != "" {
				return fail("%s takes no argument", verb)
			}
			do.kind = adBefore
			if verb == "after" {
				do.kind = adAfter
			}
			return do, true
		}
	}
	if rs, ok := otherVerbs[verb]; ok && rs != "acks2" {
		if rs == "" {
			return fail("acks2 has no decision %q here; %s", verb, offers())
		}
		return fail("%s is a %s decision, not an acks2 one; %s", verb, rs, offers())
	}
	return fail("unknown decision %q%s; %s", verb, scenario.Suggest(verb, decisionVerbs(AcksDecisions[moment])), offers())
}

func parseAcksTarget(d *scenario.Decoder, g *acks2.Game, self int, s string, t tactics.Text, kind acksDoKind) (acksTarget, bool) {
	tg := acksTarget{named: -1}
	if s == "" {
		return tg, true
	}
	if kind != adAttack && kind != adDelayUntil && kind != adDelayTo && kind != adDelayFloor && kind != adReady {
		d.Errorf(t.Node, t.Path, "this decision has no target; target: goes with attack (and with delay or ready, for the attack they turn into)")
		return tg, false
	}
	for k, name := range acksTargetNames {
		if s == name {
			tg.mode = k
			return tg, true
		}
	}
	if i, why := resolveAcks(g, self, tactics.EnemyArg, s); why.Format == "" {
		tg.named = i
		return tg, true
	}
	d.Errorf(t.Node, t.Path, "%s", unknownTarget(s, acksTargetNames, enemyNames(g.Roster(), self), false))
	return tg, false
}
