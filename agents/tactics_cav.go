package agents

// The tactics language's Cavaliers binding (The Queen's Cavaliers): the
// Move at the start of a turn, the attack that follows it, and the
// reactions the book offers on someone else's turn (seize the initiative
// before the one about to act, interpose for an attacked ally, block an
// opponent leaving the Area, reprise a failed attack). The referee asks
// the Move and the attack separately, and policies keep no state, so each
// is its own moment.

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/agents/tactics"
	"simctl/rulesets/cavaliers"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Cavaliers moments, in the order a turn asks them; reactions come up on
// others' turns; enter comes once, as the combatant enters the fight,
// before its Initiative roll (which specialty to roll, when it has ranks
// in several).
const (
	cmMove = iota
	cmAttack
	cmReact
	cmEnter
	numCavMoments
)

var cavMoments = []string{"move", "attack", "reactions", "enter"}

// Cavaliers facts (global ids).
const (
	cfRound = iota
	cfSelfHP
	cfSelfHPPct
	cfSelfArea
	cfSelfMoved
	cfSelfPosition
	cfSelfTotal
	cfSelfRaises
	cfSelfPlus
	cfSelfPriceSeize
	cfSelfPriceInterpose
	cfSelfPriceReprise
	cfUnlock
	cfEnemiesCount
	cfEnemiesHere
	cfEnemiesNear
	cfAlliesCount
	cfAlliesDown
	cfAlliesHere
	cfAllyActed
	cfAllyDown
	cfAllyHP
	cfAllyHPPct
	cfAllyDistance
	cfEnemyActed
	cfEnemyDown
	cfEnemyHP
	cfEnemyHPPct
	cfEnemyDistance
	cfOfferSeize
	cfOfferInterpose
	cfOfferBlock
	cfOfferReprise
	cfOfferPrice
	cfNextIsEnemy
	cfNextDistance
	cfNextWoundedNear
	cfAttackedHP
	cfAttackedHPPct
	cfAttackedWeakest
	cfAttackedDistance
	cfMoverTo
	cfTargetHP
	cfAllyNext
	cfEnemyNext
	cfAttackerHP
	cfAttackerHPPct
	cfAttackerDistance
	cfEnemyAttacking
	numCavFacts
)

var cavFacts = [numCavFacts]tactics.Fact{
	cfRound:              {Name: "round", Type: tactics.Number, Doc: "the round, from 1"},
	cfSelfHP:             {Name: "self.hp", Type: tactics.Number, Doc: "current hit points"},
	cfSelfHPPct:          {Name: "self.hp_pct", Type: tactics.Number, Doc: "current hit points as a fraction of those at the start"},
	cfSelfArea:           {Name: "self.area", Type: tactics.Number, Doc: "the Area it stands in"},
	cfSelfMoved:          {Name: "self.moved", Type: tactics.Bool, Doc: "it has spent its Move this round (on its turn, or interposing with a Move)"},
	cfSelfPosition:       {Name: "self.position", Type: tactics.Number, Doc: "its place in the initiative ranking, 1 = first"},
	cfSelfTotal:          {Name: "self.total", Type: tactics.Number, Doc: "its initiative total"},
	cfSelfRaises:         {Name: "self.raises", Type: tactics.Number, Doc: "the [+] it rolled on initiative"},
	cfSelfPlus:           {Name: "self.plus", Type: tactics.Number, Doc: "the [+] it may still use (unspent under spend: budget; the rolled ones under unlock)"},
	cfSelfPriceSeize:     {Name: "self.price_seize", Type: tactics.Number, Doc: "the [+] Seize the Initiative costs on its ladder (0: its specialty cannot buy it)"},
	cfSelfPriceInterpose: {Name: "self.price_interpose", Type: tactics.Number, Doc: "the [+] Interpose costs on its ladder (0: cannot)"},
	cfSelfPriceReprise:   {Name: "self.price_reprise", Type: tactics.Number, Doc: "the [+] Reprise Attack costs on its ladder (0: cannot)"},
	cfUnlock:             {Name: "unlock", Type: tactics.Bool, Doc: "the scenario plays spend: unlock ([+] unlock abilities and are never spent)"},
	cfEnemiesCount:       {Name: "enemies.count", Type: tactics.Number, Doc: "enemies in the fight"},
	cfEnemiesHere:        {Name: "enemies.here", Type: tactics.Number, Doc: "enemies in the fight in its Area"},
	cfEnemiesNear:        {Name: "enemies.near", Type: tactics.Number, Doc: "enemies in the fight in its Area or an adjacent one"},
	cfAlliesCount:        {Name: "allies.count", Type: tactics.Number, Doc: "allies (not itself) in the fight"},
	cfAlliesDown:         {Name: "allies.down", Type: tactics.Number, Doc: "allies out of the fight"},
	cfAlliesHere:         {Name: "allies.here", Type: tactics.Number, Doc: "allies in the fight in its Area"},
	cfAllyActed:          {Name: "ally.acted", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally has taken its turn this round"},
	cfAllyDown:           {Name: "ally.down", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally is out of the fight"},
	cfAllyHP:             {Name: "ally.hp", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's hit points"},
	cfAllyHPPct:          {Name: "ally.hp_pct", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's hit points as a fraction of its starting ones"},
	cfAllyDistance:       {Name: "ally.distance", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "Areas between it and the ally (0: the same Area)"},
	cfEnemyActed:         {Name: "enemy.acted", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy has taken its turn this round"},
	cfEnemyDown:          {Name: "enemy.down", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is out of the fight"},
	cfEnemyHP:            {Name: "enemy.hp", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's hit points"},
	cfEnemyHPPct:         {Name: "enemy.hp_pct", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's hit points as a fraction of its starting ones"},
	cfEnemyDistance:      {Name: "enemy.distance", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "Areas between it and the enemy (0: the same Area)"},
	cfOfferSeize:         {Name: "offer.seize", Type: tactics.Bool, Doc: "the offer is to seize the initiative before the one about to act"},
	cfOfferInterpose:     {Name: "offer.interpose", Type: tactics.Bool, Doc: "the offer is to interpose for an attacked ally"},
	cfOfferBlock:         {Name: "offer.block", Type: tactics.Bool, Doc: "the offer is to block an opponent leaving its Area"},
	cfOfferReprise:       {Name: "offer.reprise", Type: tactics.Bool, Doc: "the offer is to reprise its own failed attack"},
	cfOfferPrice:         {Name: "offer.price", Type: tactics.Number, Doc: "the [+] the ability on offer costs it"},
	cfNextIsEnemy:        {Name: "next_actor.is_enemy", Type: tactics.Bool, Doc: "seize: the one about to act is an enemy (false at other offers)"},
	cfNextDistance:       {Name: "next_actor.distance", Type: tactics.Number, Doc: "seize: Areas between it and the one about to act (0 at other offers)"},
	cfNextWoundedNear:    {Name: "next_actor.wounded_near", Type: tactics.Number, Doc: "seize: the lowest hit-point fraction among its side (itself included) in the fight in or next to the Area of the one about to act (1 when none, and at other offers)"},
	cfAttackedHP:         {Name: "attacked.hp", Type: tactics.Number, Doc: "interpose: the attacked ally's hit points (0 at other offers)"},
	cfAttackedHPPct:      {Name: "attacked.hp_pct", Type: tactics.Number, Doc: "interpose: the attacked ally's hit points as a fraction of its starting ones"},
	cfAttackedWeakest:    {Name: "attacked.weakest", Type: tactics.Bool, Doc: "interpose: no other ally in the fight has fewer hit points than the attacked one"},
	cfAttackedDistance:   {Name: "attacked.distance", Type: tactics.Number, Doc: "interpose: Areas between it and the attacked ally (1: it interposes with a Move)"},
	cfMoverTo:            {Name: "mover.to", Type: tactics.Number, Doc: "block: the Area the opponent is moving to (-1 at other offers)"},
	cfTargetHP:           {Name: "target.hp", Type: tactics.Number, Doc: "reprise: the hit points of the one it failed to hit (0 at other offers)"},
	cfAllyNext:           {Name: "ally.next", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "seize: the ally is the one about to act (false at other offers)"},
	cfEnemyNext:          {Name: "enemy.next", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "seize: the enemy is the one about to act (false at other offers)"},
	cfAttackerHP:         {Name: "attacker.hp", Type: tactics.Number, Doc: "interpose: the attacker's hit points (0 at other offers)"},
	cfAttackerHPPct:      {Name: "attacker.hp_pct", Type: tactics.Number, Doc: "interpose: the attacker's hit points as a fraction of its starting ones (0 at other offers)"},
	cfAttackerDistance:   {Name: "attacker.distance", Type: tactics.Number, Doc: "interpose: Areas between it and the attacker (0 at other offers)"},
	cfEnemyAttacking:     {Name: "enemy.attacking", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "interpose: the enemy is the attacker (false at other offers)"},
}

// cavMomentFacts lists the facts of each moment (global ids): the offer
// facts only at reactions.
func cavMomentFacts(m int) []int {
	var ids []int
	for id := 0; id < numCavFacts; id++ {
		if id >= cfOfferSeize && m != cmReact {
			continue
		}
		ids = append(ids, id)
	}
	return ids
}

// CavDecisions documents the Cavaliers decisions per moment.
var CavDecisions = [numCavMoments][]string{
	cmMove:   {"advance", "advance to NAME", "follow NAME", "hold"},
	cmAttack: {"attack", "nothing", "SPECIAL_ACTION"},
	cmReact:  {"seize", "interpose", "interpose for NAME", "block", "block for NAME", "reprise", "pass"},
	cmEnter:  {"roll SPECIALTY"},
}

// CavFacts documents the facts of a moment (docs, simctl policies).
func CavFacts(moment string) []tactics.Fact {
	m := indexOfString(cavMoments, moment)
	if m < 0 {
		return nil
	}
	var out []tactics.Fact
	for _, id := range cavMomentFacts(m) {
		out = append(out, cavFacts[id])
	}
	return out
}

type cavDoKind uint8

const (
	cdAdvance cavDoKind = iota
	cdAdvanceTo
	cdFollow
	cdHold
	cdAttack
	cdNothing
	cdSeize
	cdInterpose
	cdBlock
	cdReprise
	cdPass
	cdRoll
	cdSpecial // a special action written as data (action: PRICE), do.who its index
)

// fall-through reasons
const (
	cwNotInFight = iota
	cwNotHere
	cwNoSpecial
	numCavWhy
)

var cavWhyText = [numCavWhy]string{
	"the one it goes to is not in the fight",
	"the named enemy is not in its Area",
	"the action cannot be taken now",
}

type cavDo struct {
	kind cavDoKind
	who  int // advance to, follow, interpose for, block for: -1 none; roll: the index in Ranks
}

type cavTarget struct {
	mode  string // weakest | strongest | random | first
	named int
}

var cavTargetNames = []string{"weakest", "strongest", "random", "first"}

type cavRule struct {
	ruleHead
	do     cavDo
	target cavTarget
	sel    *cavPolicy // the Go selector for target modes (shared code, same draws)
}

// cavTactic is a compiled tactics block for one Cavaliers combatant.
// Immutable after compilation, shared by all workers.
type cavTactic struct {
	rules    [numCavMoments][]cavRule
	fallback [numCavMoments]int
}

func cavLibrary(name string) (*yaml.Node, bool) { return libraryNode("cavaliers", name) }

func compileCavTactics(d *scenario.Decoder, g *cavaliers.Game, self int, n *yaml.Node, path string) cavaliers.Policy {
	rules, fallback, ok := compileBlock(d, g, self, n, path, &blockSpec[cavRule, *cavRule]{
		ruleset: "cavaliers", moments: cavMoments, lib: cavLibrary,
		facts: cavFacts[:], ids: cavMomentFacts,
		index: g.Index, resolve: func(kind tactics.ArgKind, name string) (int, msg.Text) { return resolveCav(g, self, kind, name) },
		// a side's "follow Countess" or "interpose for Countess" means nothing to the Countess
		skip: func(_ int, do string) bool { return cavAboutSelf(g, self, do) },
		parseDo: func(mi int, do string, r tactics.Rule, cr *cavRule) (ok bool) {
			cr.do, ok = parseCavDo(d, g, self, mi, do, r.Do)
			return ok
		},
		parseTarget: func(tg string, r tactics.Rule, cr *cavRule, _ bool) (ok bool) {
			cr.target, ok = parseCavTarget(d, g, self, tg, r.Target, cr.do.kind)
			return ok
		},
		finish: func(cr *cavRule, _ string) {
			cr.sel = &cavPolicy{target: cr.target.mode, focus: -1, ward: -1, reserve: -1}
		},
		reasons: func(cr *cavRule) []int { return cr.reasons() },
		whyText: cavWhyText[:],
		// At reactions a rule answers one kind of offer; only pass
		// answers them all.
		shadows: func(mi int, cr *cavRule) bool { return mi != cmReact || cr.do.kind == cdPass },
	})
	if !ok {
		return nil
	}
	pol := &cavTactic{}
	copy(pol.rules[:], rules)
	copy(pol.fallback[:], fallback)
	return pol
}

// cavAboutSelf reports whether a decision names self as the one it goes
// to or protects.
func cavAboutSelf(g *cavaliers.Game, self int, do string) bool {
	for _, pre := range []string{"follow ", "interpose for ", "block for "} {
		if rest, ok := strings.CutPrefix(do, pre); ok {
			i, ok := g.Index(strings.TrimSpace(rest))
			return ok && i == self
		}
	}
	return false
}

func (r *cavRule) reasons() []int {
	switch {
	case r.do.kind == cdAdvanceTo || r.do.kind == cdFollow:
		return []int{cwNotInFight}
	case r.do.kind == cdAttack && r.target.named >= 0:
		return []int{cwNotHere}
	case r.do.kind == cdSpecial:
		return []int{cwNoSpecial}
	}
	return nil
}

func resolveCav(g *cavaliers.Game, self int, kind tactics.ArgKind, name string) (int, msg.Text) {
	if kind == tactics.SpellArg {
		return -1, msg.New("cavaliers has no spells")
	}
	return resolveCombatant(g.Roster(), g.Index, self, kind, name)
}

func parseCavDo(d *scenario.Decoder, g *cavaliers.Game, self, moment int, s string, t tactics.Text) (cavDo, bool) {
	do := cavDo{who: -1}
	fail := func(format string, args ...any) (cavDo, bool) {
		d.Errorf(t.Node, t.Path, format, args...)
		return do, false
	}
	offers := func() msg.Text {
		return msg.New("cavaliers offers at %s: %s", cavMoments[moment], strings.Join(CavDecisions[moment], ", "))
	}
	verb, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	for m := range CavDecisions {
		if m != moment && offersVerb(CavDecisions[m], verb) && !offersVerb(CavDecisions[moment], verb) {
			return fail("%s is a decision at %s, not at %s; %s", verb, cavMoments[m], cavMoments[moment], offers())
		}
	}
	// form is the decision's spelling: code, or a message when it says
	// in words what NAME is.
	name := func(kind tactics.ArgKind, arg string, form any) (int, bool) {
		if arg == "" {
			d.Errorf(t.Node, t.Path, "%s needs a name: %s", verb, form)
			return -1, false
		}
		i, why := resolveCav(g, self, kind, arg)
		if why.Format != "" {
			d.Errorf(t.Node, t.Path, "%s: %s", s, why)
			return -1, false
		}
		return i, true
	}
	noArg := func(k cavDoKind) (cavDo, bool) {
		if rest != "" {
			return fail("%s takes no argument, got %q", verb, rest)
		}
		do.kind = k
		return do, true
	}
	switch moment {
	case cmMove:
		switch verb {
		case "advance":
			if rest == "" {
				do.kind = cdAdvance
				return do, true
			}
			arg, ok := strings.CutPrefix(rest, "to ")
			if !ok {
				return fail("advance or advance to NAME (an enemy), got %q", s)
			}
			i, ok := name(tactics.EnemyArg, strings.TrimSpace(arg), "advance to NAME")
			do.kind, do.who = cdAdvanceTo, i
			return do, ok
		case "follow":
			i, ok := name(tactics.AllyArg, rest, msg.New("follow NAME (an ally)"))
			do.kind, do.who = cdFollow, i
			return do, ok
		case "hold":
			return noArg(cdHold)
		}
	case cmAttack:
		if k := g.Action(self, s); k >= 0 {
			do.kind, do.who = cdSpecial, k
			return do, true
		}
		switch verb {
		case "attack":
			if rest != "" {
				return fail("attack takes no argument (choose whom with target:), got %q", rest)
			}
			do.kind = cdAttack
			return do, true
		case "nothing":
			return noArg(cdNothing)
		}
	case cmEnter:
		if verb == "roll" {
			var names []string
			for k, rk := range g.C[self].Ranks {
				names = append(names, cavaliers.SpecialtyNames[rk.Specialty])
				if names[k] == rest {
					do.kind, do.who = cdRoll, k
					return do, true
				}
			}
			return fail("roll needs one of %s's specialties: roll %s, got %q%s", g.C[self].Name, strings.Join(names, "|"), rest, scenario.Suggest(rest, names))
		}
	case cmReact:
		switch verb {
		case "seize":
			return noArg(cdSeize)
		case "reprise":
			return noArg(cdReprise)
		case "pass":
			return noArg(cdPass)
		case "interpose", "block":
			do.kind = cdInterpose
			if verb == "block" {
				do.kind = cdBlock
			}
			if rest == "" {
				return do, true
			}
			arg, ok := strings.CutPrefix(rest, "for ")
			if !ok {
				return fail("%s or %s for NAME (an ally), got %q", verb, verb, s)
			}
			i, ok := name(tactics.AllyArg, strings.TrimSpace(arg), verb+" for NAME")
			do.who = i
			return do, ok
		}
	}
	if rs, ok := otherVerbs[verb]; ok && rs != "cavaliers" {
		if rs == "" {
			return fail("cavaliers has no decision %q; %s", verb, offers())
		}
		// The article is part of the sentence, so each is its own message.
		if strings.ContainsAny(rs[:1], "aeiou") {
			return fail("%s is an %s decision, not a cavaliers one; %s", verb, rs, offers())
		}
		return fail("%s is a %s decision, not a cavaliers one; %s", verb, rs, offers())
	}
	if verb == "save" {
		return fail("cavaliers has no save decision: keep [+] for an ability with a condition on self.plus and offer.price (docs/tactics.md); %s", offers())
	}
	return fail("unknown decision %q%s; %s", verb, scenario.Suggest(verb, decisionVerbs(CavDecisions[moment])), offers())
}

func parseCavTarget(d *scenario.Decoder, g *cavaliers.Game, self int, s string, t tactics.Text, kind cavDoKind) (cavTarget, bool) {
	tg := cavTarget{mode: "weakest", named: -1}
	if s == "" {
		return tg, true
	}
	if kind != cdAttack {
		d.Errorf(t.Node, t.Path, "this decision has no target; target: goes with attack")
		return tg, false
	}
	for _, name := range cavTargetNames {
		if s == name {
			tg.mode = name
			return tg, true
		}
	}
	if i, why := resolveCav(g, self, tactics.EnemyArg, s); why.Format == "" {
		tg.named = i
		return tg, true
	}
	d.Errorf(t.Node, t.Path, "%s", unknownTarget(s, cavTargetNames, enemyNames(g.Roster(), self), false))
	return tg, false
}
