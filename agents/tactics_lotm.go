package agents

// The tactics language's Lord of Mysteries binding: the turn's plan (each
// Attack/Casting action, the Swift action, hiding, teleporting, cover,
// the Delay Action); the reactions the source offers on an enemy's turn
// (the mid-combat ambush that brings a turn forward ahead of an enemy's,
// Limb Block against a Vital Strike and the limb it blocks with, Borrow
// Strength Against Strength "if the enemy is willing"); and Burn Luck on
// a missed hit check or the initiative roll. Each turn rule compiles to
// the Go policy's own configuration (lotmPolicy), so a rule decides
// exactly as the Go policy with those parameters would.

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/agents/tactics"
	"simctl/rulesets/lotm"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// LotM moments: the turn; the reactions the source offers on an enemy's
// turn (a hidden or teleporting combatant bringing its turn forward, Limb
// Block, Borrow Strength), each rule answering one kind of offer; and
// Burn Luck, asked whenever Luck could turn a missed hit check into a
// hit (and on the initiative roll with option burn_luck_initiative).
const (
	lmTurn = iota
	lmReact
	lmLuck
	numLotmMoments
)

var lotmMoments = []string{"turn", "reactions", "luck"}

// LotM facts (global ids).
const (
	lfRound = iota
	lfAmbushRound
	lfSelfHP
	lfSelfHPPct
	lfSelfHidden
	lfSelfTeleports
	lfSelfCastsLeft
	lfSelfSwiftLeft
	lfSelfMoveLeft
	lfSelfGrappling
	lfSelfGrappled
	lfSelfOffBalance
	lfSelfEffects
	lfSelfResuming
	lfSelfCovered
	lfSelfLuck
	lfSelfAgility
	lfSelfActed
	lfSelfLegBlocks
	lfSelfArmBlocks
	lfSelfLegHits
	lfSelfArmHits
	lfEnemiesCount
	lfEnemiesInReach
	lfEnemiesHeld
	lfAlliesCount
	lfAlliesDown
	lfAlliesActed
	lfAllyActed
	lfAllyDown
	lfAllyHPPct
	lfAllyGrappling
	lfEnemyDown
	lfEnemyHPPct
	lfEnemyDistance
	lfEnemyHeld
	lfEnemyOffBalance
	lfReactAttacking
	lfReactDistance
	lfReactHidden
	lfReactActed
	lfEnemyActing
	lfReactHP
	lfReactHPPct
	lfOfferInsert
	lfOfferLimbBlock
	lfOfferBorrow
	lfStrikeTotal
	lfStrikeHead
	lfStrikeEyes
	lfStrikeOrgans
	lfBorrowFlip
	lfBorrowSwift
	lfLuckInitiative
	lfLuckNeeded
	lfTargetHP
	lfTargetHPPct
	numLotmFacts
)

var lotmFacts = [numLotmFacts]tactics.Fact{
	lfRound:           {Name: "round", Type: tactics.Number, Doc: "the round (0 in a pre-combat Ambush Round)"},
	lfAmbushRound:     {Name: "ambush_round", Type: tactics.Bool, Doc: "this is an Ambush Round"},
	lfSelfHP:          {Name: "self.hp", Type: tactics.Number, Doc: "current hit points"},
	lfSelfHPPct:       {Name: "self.hp_pct", Type: tactics.Number, Doc: "current hit points as a fraction of its maximum"},
	lfSelfHidden:      {Name: "self.hidden", Type: tactics.Bool, Doc: "it is hidden (invisibility)"},
	lfSelfTeleports:   {Name: "self.teleports", Type: tactics.Number, Doc: "movement ambushes (teleports) it has left"},
	lfSelfCastsLeft:   {Name: "self.casts_left", Type: tactics.Number, Doc: "uses of its casting ability left"},
	lfSelfSwiftLeft:   {Name: "self.swift_left", Type: tactics.Bool, Doc: "its Swift action is still unspent this turn"},
	lfSelfMoveLeft:    {Name: "self.move_left", Type: tactics.Bool, Doc: "its Move action is still unspent this turn"},
	lfSelfGrappling:   {Name: "self.grappling", Type: tactics.Bool, Doc: "it holds an enemy in a grapple"},
	lfSelfGrappled:    {Name: "self.grappled", Type: tactics.Bool, Doc: "it is held in a grapple"},
	lfSelfOffBalance:  {Name: "self.off_balance", Type: tactics.Bool, Doc: "it is Off-Balance"},
	lfSelfEffects:     {Name: "self.effects", Type: tactics.Number, Doc: "Vital Strike effects on it (eyes, arms, legs)"},
	lfSelfResuming:    {Name: "self.resuming", Type: tactics.Bool, Doc: "this turn is its delayed action (a delay falls through)"},
	lfSelfCovered:     {Name: "self.covered", Type: tactics.Bool, Doc: "it has Improvised Cover (an item held up or an obstacle)"},
	lfSelfLuck:        {Name: "self.luck", Type: tactics.Number, Doc: "Luck it has left to burn (0 once burned: once an encounter)"},
	lfSelfAgility:     {Name: "self.agility", Type: tactics.Number, Doc: "its Agility now (halved, rounded up, while Off-Balance): Limb Block's check"},
	lfSelfActed:       {Name: "self.acted", Type: tactics.Bool, Doc: "its turn is over this round (a reaction's action is then no loss to it)"},
	lfSelfLegBlocks:   {Name: "self.leg_blocks", Type: tactics.Number, Doc: "Limb Blocks its legs have left (each limb blocks once; 0 without field limb_block)"},
	lfSelfArmBlocks:   {Name: "self.arm_blocks", Type: tactics.Number, Doc: "Limb Blocks its arms have left (each limb blocks once; 0 without field limb_block)"},
	lfSelfLegHits:     {Name: "self.leg_hits", Type: tactics.Number, Doc: "Vital Strike effects on its legs (each halves its speed, never to 0)"},
	lfSelfArmHits:     {Name: "self.arm_hits", Type: tactics.Number, Doc: "Vital Strike effects on its arms (each -2 on its Fighting checks)"},
	lfEnemiesCount:    {Name: "enemies.count", Type: tactics.Number, Doc: "enemies in the battle"},
	lfEnemiesInReach:  {Name: "enemies.in_reach", Type: tactics.Number, Doc: "enemies it can see within 1 meter (any it can see, when ranged)"},
	lfEnemiesHeld:     {Name: "enemies.held", Type: tactics.Number, Doc: "enemies in the battle held in a grapple"},
	lfAlliesCount:     {Name: "allies.count", Type: tactics.Number, Doc: "allies (not itself) in the battle"},
	lfAlliesDown:      {Name: "allies.down", Type: tactics.Number, Doc: "allies out of the fight"},
	lfAlliesActed:     {Name: "allies.acted", Type: tactics.Number, Doc: "allies in the battle whose turn is over this round"},
	lfAllyActed:       {Name: "ally.acted", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally's turn is over this round"},
	lfAllyDown:        {Name: "ally.down", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally is out of the fight"},
	lfAllyHPPct:       {Name: "ally.hp_pct", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's hit points as a fraction of its maximum"},
	lfAllyGrappling:   {Name: "ally.grappling", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally holds an enemy in a grapple"},
	lfEnemyDown:       {Name: "enemy.down", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is out of the fight"},
	lfEnemyHPPct:      {Name: "enemy.hp_pct", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's hit points as a fraction of its maximum"},
	lfEnemyDistance:   {Name: "enemy.distance", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "feet between it and the enemy"},
	lfEnemyHeld:       {Name: "enemy.held", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is held in a grapple"},
	lfEnemyOffBalance: {Name: "enemy.off_balance", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is Off-Balance"},
	lfReactAttacking:  {Name: "reaction.attacking", Type: tactics.Bool, Doc: "the enemy has started an Attack or Casting action (its turn comes after that action); false: its turn is starting"},
	lfReactDistance:   {Name: "reaction.distance", Type: tactics.Number, Doc: "feet between it and the enemy about to act"},
	lfReactHidden:     {Name: "reaction.hidden", Type: tactics.Bool, Doc: "the enemy about to act is hidden from it (invisible and not found by it)"},
	lfReactActed:      {Name: "reaction.acted", Type: tactics.Bool, Doc: "the enemy about to act has already spent an action this turn (a move, a Swift action, or the Attack/Casting action it has started)"},
	lfEnemyActing:     {Name: "enemy.acting", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is the one about to act"},
	lfReactHP:         {Name: "reaction.hp", Type: tactics.Number, Doc: "the hit points of the enemy about to act (at limb_block and borrow offers: the attacker)"},
	lfReactHPPct:      {Name: "reaction.hp_pct", Type: tactics.Number, Doc: "the hit points of the enemy about to act (the attacker) as a fraction of its maximum"},
	lfOfferInsert:     {Name: "offer.insert", Type: tactics.Bool, Doc: "the offer is to bring its turn forward ahead of the enemy about to act (insert, wait)"},
	lfOfferLimbBlock:  {Name: "offer.limb_block", Type: tactics.Bool, Doc: "the offer is to Limb Block the attacker's Vital Strike that hit its head, eyes or organs (a Swift action)"},
	lfOfferBorrow:     {Name: "offer.borrow", Type: tactics.Bool, Doc: "the offer is to Borrow Strength Against Strength against the attacker's melee critical failure"},
	lfStrikeTotal:     {Name: "strike.total", Type: tactics.Number, Doc: "limb_block: the strike's check result, which d20 + self.agility must beat (a tie blocks under contest_ties defender); 0 at other offers"},
	lfStrikeHead:      {Name: "strike.head", Type: tactics.Bool, Doc: "limb_block: the strike hit its head (Stunned 1 round, +2d6 damage)"},
	lfStrikeEyes:      {Name: "strike.eyes", Type: tactics.Bool, Doc: "limb_block: the strike hit its eyes (the second such hit blinds)"},
	lfStrikeOrgans:    {Name: "strike.organs", Type: tactics.Bool, Doc: "limb_block: the strike hit its organs (+3d6 damage)"},
	lfBorrowFlip:      {Name: "borrow.flip", Type: tactics.Bool, Doc: "borrow: it flips the attacker (Strength not 3 or more below, or 2 size levels larger): 1d3 + its Strength die, then Difficulty 20 Agility or Off-Balance; false: one Attack action that hits"},
	lfBorrowSwift:     {Name: "borrow.swift", Type: tactics.Bool, Doc: "borrow: the answer to a Leg Sweep, its Swift action at half Strength die; false: its Attack action of the round"},
	lfLuckInitiative:  {Name: "luck.initiative", Type: tactics.Bool, Doc: "the check is its initiative roll (option burn_luck_initiative): burn adds all its Luck"},
	lfLuckNeeded:      {Name: "luck.needed", Type: tactics.Number, Doc: "the Luck that turns the missed hit check into a hit, what burn spends (0 at the initiative roll)"},
	lfTargetHP:        {Name: "target.hp", Type: tactics.Number, Doc: "the hit points of the one its missed check is against (0 at the initiative roll)"},
	lfTargetHPPct:     {Name: "target.hp_pct", Type: tactics.Number, Doc: "the hit points of the one its missed check is against as a fraction of its maximum (0 at the initiative roll)"},
}

// lotmMomentFacts lists the facts of each moment: the reaction facts only
// at reactions, the luck facts only at luck.
func lotmMomentFacts(m int) []int {
	var ids []int
	for id := 0; id < numLotmFacts; id++ {
		switch {
		case id >= lfLuckInitiative && m != lmLuck:
			continue
		case id >= lfReactAttacking && id < lfLuckInitiative && m != lmReact:
			continue
		}
		ids = append(ids, id)
	}
	return ids
}

// LotmDecisions documents the LotM decisions per moment.
var LotmDecisions = [numLotmMoments][]string{
	lmTurn: {"attack", "strike", "strike once", "double_strike", "vital PART", "cast", "grapple [one_hand|limb]", "charge",
		"point_blank", "leg_sweep", "first_aid", "meditate", "delay KIND on TRIGGER [for ALLY|ENEMY]",
		"SPECIAL_ACTION"},
	lmReact: {"insert", "wait", "limb_block [legs|arms]", "borrow", "pass"},
	lmLuck:  {"burn", "keep"},
}

// LotmModifiers are the words that may follow a turn decision.
var LotmModifiers = []string{"with aim|feint|intimidate|meditate", "hide after|before|never", "teleport auto|always|never", "cover item|obstacle"}

// LotmFacts documents the facts of a moment (docs, simctl policies).
func LotmFacts(moment string) []tactics.Fact {
	m := indexOfString(lotmMoments, moment)
	if m < 0 {
		return nil
	}
	var out []tactics.Fact
	for _, id := range lotmMomentFacts(m) {
		out = append(out, lotmFacts[id])
	}
	return out
}

type lotmDoKind uint8

const (
	ldMain lotmDoKind = iota // attack, strike, double_strike, vital, point_blank, leg_sweep: never falls through
	ldCast
	ldGrapple
	ldCharge
	ldFirstAid
	ldDelay
	ldInsert
	ldWait
	ldLimbBlock // limb_block [legs|arms]: falls through when that limb has no block left
	ldBorrow
	ldPass // declines any offer
	ldBurn
	ldKeep
	ldSpecial // a special action written as data (action: COST), then the Go default's turn
)

// fall-through reasons
const (
	lwNoCasts = iota
	lwInGrapple
	lwOffBalance
	lwNoPatient
	lwResuming
	lwNoWait
	lwNoLimb
	lwNoSpecial
	numLotmWhy
)

var lotmWhyText = [numLotmWhy]string{
	"no casting use left",
	"the target is already in a grapple",
	"the target is already Off-Balance",
	"no one within reach needs first aid",
	"this turn is its delayed action",
	"what it would wait for is already here or cannot come",
	"that limb has no block left",
	"the action cannot be taken now",
}

type lotmRule struct {
	ruleHead
	kind lotmDoKind
	text string     // the decision as written (expanded), for traces
	pol  lotmPolicy // turn: the Go policy's configuration this rule plays
	limb lotm.Part  // limb_block: Legs, Arms, or Head for the default's (legs first, then arms)
	// special: a special action's index (Game.Action), taken at the start
	// of the turn the Go default plays.
	special int
}

// lotmTactic is a compiled tactics block for one LotM combatant. Immutable.
type lotmTactic struct {
	rules    [numLotmMoments][]lotmRule
	fallback [numLotmMoments]int
}

// lotmBase is the Go default policy with its default parameters: a rule's
// starting configuration and what a moment does when no rule decides.
var lotmBase = lotmPolicy{target: "weakest", attack: "auto", hide: lotm.HideAfter, teleport: "auto",
	luck: lotm.LuckAttack, preferHeld: true, ally: -1, limbFirst: lotm.Legs}

func lotmLibrary(name string) (*yaml.Node, bool) { return libraryNode("lotm", name) }

func compileLotmTactics(d *scenario.Decoder, g *lotm.Game, self int, n *yaml.Node, path string) lotm.Policy {
	rules, fallback, ok := compileBlock(d, g, self, n, path, &blockSpec[lotmRule, *lotmRule]{
		ruleset: "lotm", moments: lotmMoments, lib: lotmLibrary,
		facts: lotmFacts[:], ids: lotmMomentFacts,
		index: g.Index, resolve: func(kind tactics.ArgKind, name string) (int, msg.Text) { return resolveLotm(g, self, kind, name) },
		// a side's combo rule waits for a member; that member itself skips it
		skip: func(mi int, do string) bool { return mi == lmTurn && isLotmDelayForSelf(g, self, do) },
		parseDo: func(mi int, do string, r tactics.Rule, cr *lotmRule) bool {
			return parseLotmDo(d, g, self, mi, do, r.Do, cr)
		},
		parseTarget: func(tg string, r tactics.Rule, cr *lotmRule, okDo bool) bool {
			return okDo && parseLotmTarget(d, g, self, tg, r.Target, cr)
		},
		finish:  func(cr *lotmRule, do string) { cr.text = do },
		reasons: func(cr *lotmRule) []int { return cr.reasons() },
		whyText: lotmWhyText[:],
		// At reactions a rule answers one kind of offer; only pass
		// answers them all.
		shadows: func(mi int, cr *lotmRule) bool { return mi != lmReact || cr.kind == ldPass },
	})
	if !ok {
		return nil
	}
	pol := &lotmTactic{}
	copy(pol.rules[:], rules)
	copy(pol.fallback[:], fallback)
	return pol
}

func isLotmDelayForSelf(g *lotm.Game, self int, do string) bool {
	if !strings.HasPrefix(do, "delay ") {
		return false
	}
	_, who, ok := strings.Cut(do, " for ")
	if !ok {
		return false
	}
	i, ok := g.Index(strings.Fields(who)[0])
	return ok && i == self
}

func (r *lotmRule) reasons() []int {
	switch r.kind {
	case ldCast:
		return []int{lwNoCasts}
	case ldGrapple:
		return []int{lwInGrapple}
	case ldCharge:
		return []int{lwOffBalance}
	case ldFirstAid:
		return []int{lwResuming, lwNoPatient}
	case ldDelay:
		return []int{lwResuming, lwNoWait}
	case ldLimbBlock:
		if r.limb != lotm.Head {
			return []int{lwNoLimb}
		}
	case ldSpecial:
		return []int{lwNoSpecial}
	}
	return nil
}

func resolveLotm(g *lotm.Game, self int, kind tactics.ArgKind, name string) (int, msg.Text) {
	if kind == tactics.SpellArg {
		return -1, msg.New("lotm has no spells; a casting ability is counted by self.casts_left")
	}
	return resolveCombatant(g.Roster(), g.Index, self, kind, name)
}

// lotmVerbs are the first words of the decisions of each moment.
func lotmVerbs(m int) []string {
	var out []string
	for _, dd := range LotmDecisions[m] {
		v, _, _ := strings.Cut(dd, " ")
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

func parseLotmDo(d *scenario.Decoder, g *lotm.Game, self, moment int, s string, t tactics.Text, r *lotmRule) bool {
	me := &g.C[self]
	fail := func(format string, args ...any) bool {
		d.Errorf(t.Node, t.Path, format, args...)
		return false
	}
	offers := func() msg.Text {
		return msg.New("lotm offers at %s: %s", lotmMoments[moment], strings.Join(LotmDecisions[moment], ", "))
	}
	words := strings.Fields(s)
	if len(words) == 0 {
		return fail("no decision; %s", offers())
	}
	verb := words[0]
	for other := range lotmMoments {
		if other != moment && indexOfString(lotmVerbs(other), verb) >= 0 && indexOfString(lotmVerbs(moment), verb) < 0 {
			return fail("%s is a decision at %s, not at %s; %s", verb, lotmMoments[other], lotmMoments[moment], offers())
		}
	}
	noArg := func() bool {
		if len(words) > 1 {
			return fail("%s takes no argument, got %q", verb, strings.Join(words[1:], " "))
		}
		return true
	}
	switch moment {
	case lmReact:
		switch verb {
		case "insert", "wait":
			r.kind = ldWait
			if verb == "insert" {
				r.kind = ldInsert
				if me.Invisible == lotm.KindNone && me.Teleports == 0 {
					return fail("insert needs a means of ambush: give %s invisibility: swift|move|casting or teleport: N", me.Name)
				}
			}
			return noArg()
		case "limb_block":
			if !me.LimbBlock {
				return fail("%s cannot Limb Block: give it limb_block: true", me.Name)
			}
			r.kind, r.limb = ldLimbBlock, lotm.Head
			if len(words) > 1 {
				limbs := []string{"legs", "arms"}
				k := indexOfString(limbs, words[1])
				if k < 0 || len(words) > 2 {
					return fail("limb_block [legs|arms]: the limb it blocks with (a leg hit halves its speed, an arm hit costs -2 on its Fighting checks; without one, the legs first, then the arms); got %q%s",
						strings.Join(words[1:], " "), scenario.Suggest(words[1], limbs))
				}
				r.limb = []lotm.Part{lotm.Legs, lotm.Arms}[k]
			}
			return true
		case "borrow":
			if !me.Borrow {
				return fail("%s cannot Borrow Strength: give it borrow_strength: true", me.Name)
			}
			r.kind = ldBorrow
			return noArg()
		case "pass":
			r.kind = ldPass
			return noArg()
		}
		return unknownLotmVerb(fail, verb, moment, offers())
	case lmLuck:
		switch verb {
		case "burn", "keep":
			r.kind = ldKeep
			if verb == "burn" {
				r.kind = ldBurn
			}
			return noArg()
		}
		return unknownLotmVerb(fail, verb, moment, offers())
	}
	r.pol = lotmBase
	if k := g.Action(self, s); k >= 0 {
		r.kind, r.special = ldSpecial, k
		return true
	}
	p := &r.pol
	rest := words[1:]
	switch verb {
	case "attack":
	case "strike":
		p.attack = "weapon"
		if len(rest) > 0 && rest[0] == "once" {
			p.attack, rest = "attack", rest[1:]
		}
	case "double_strike":
		if !me.CanDouble {
			return fail("%s cannot Double Strike: give it double_strike: BONUS (fists or a short blade)", me.Name)
		}
		p.attack = "double"
	case "vital":
		if len(rest) == 0 || indexOfString(lotm.PartNames, rest[0]) < 0 {
			got := ""
			if len(rest) > 0 {
				got = rest[0]
			}
			return fail("vital needs a body part: vital %s, got %q%s", strings.Join(lotm.PartNames, "|"), got, scenario.Suggest(got, lotm.PartNames))
		}
		p.attack, p.part, rest = "vital", lotm.Part(indexOfString(lotm.PartNames, rest[0])), rest[1:]
	case "cast":
		if me.Cast.Uses == 0 {
			return fail("%s has no casting ability: give it casting: {bonus, damage, uses}", me.Name)
		}
		p.attack, r.kind = "cast", ldCast
	case "grapple":
		p.attack, r.kind = "grapple", ldGrapple
		if len(rest) > 0 && (rest[0] == "one_hand" || rest[0] == "limb") {
			p.oneHand, p.limb, rest = true, rest[0] == "limb", rest[1:]
		}
	case "charge":
		p.attack, r.kind = "charge", ldCharge
	case "point_blank":
		if me.Shots == 0 {
			return fail("%s has no firearm for Point-Blank Shooting: give it firearm: SHOTS", me.Name)
		}
		p.attack = "point_blank"
	case "leg_sweep":
		if me.Agility < 5 {
			return fail("%s has agility %d; Leg Sweep needs 5 or more", me.Name, me.Agility)
		}
		p.attack = "leg_sweep"
	case "first_aid":
		p.firstAid, r.kind = true, ldFirstAid
	case "meditate":
		p.attack = "meditate"
	case "delay":
		kinds := []string{"swift", "attack", "casting", "move"}
		if len(rest) < 3 || indexOfString(kinds, rest[0]) < 0 || rest[1] != "on" || indexOfString(lotm.TriggerNames[1:], rest[2]) < 0 {
			return fail("delay KIND on TRIGGER [for ALLY|ENEMY]: KIND is %s, TRIGGER is %s; got %q", strings.Join(kinds, "|"), strings.Join(lotm.TriggerNames[1:], "|"), s)
		}
		r.kind = ldDelay
		p.delay = lotm.Kind(indexOfString(lotm.KindNames, rest[0]))
		p.trigger = lotm.Trigger(indexOfString(lotm.TriggerNames, rest[2]))
		rest = rest[3:]
		if len(rest) >= 2 && rest[0] == "for" {
			kind := tactics.AllyArg
			if p.trigger == lotm.OnEnemyActs {
				kind = tactics.EnemyArg // the enemy it waits for
			}
			i, why := resolveLotm(g, self, kind, rest[1])
			if why.Format != "" {
				return fail("delay ... for %s: %s", rest[1], why)
			}
			p.ally, rest = i, rest[2:]
		}
	default:
		return unknownLotmVerb(fail, verb, moment, offers())
	}
	for len(rest) > 0 {
		mod := rest[0]
		if len(rest) < 2 {
			return fail("%s needs a value; after the action come: %s", mod, strings.Join(LotmModifiers, ", "))
		}
		val := rest[1]
		bad := func(valid []string) bool {
			return fail("%s %s: valid: %s %s%s", mod, val, mod, strings.Join(valid, "|"), scenario.Suggest(val, valid))
		}
		switch mod {
		case "with":
			k := indexOfString(lotm.SwiftNames[1:5], val)
			if k < 0 {
				return bad(lotm.SwiftNames[1:5])
			}
			p.swift = lotm.Swift(k + 1)
		case "hide":
			valid := []string{"after", "before", "never"}
			k := indexOfString(valid, val)
			if k < 0 {
				return bad(valid)
			}
			if me.Invisible == lotm.KindNone && val != "never" {
				return fail("hide %s: %s cannot hide; give it invisibility: swift|move|casting", val, me.Name)
			}
			p.hide = []lotm.Hide{lotm.HideAfter, lotm.HideBefore, lotm.HideNo}[k]
		case "teleport":
			valid := []string{"auto", "always", "never"}
			if indexOfString(valid, val) < 0 {
				return bad(valid)
			}
			p.teleport = val
		case "cover":
			switch val {
			case "item":
				if me.Item.Size == 0 {
					return fail("cover item needs something to snatch: give %s cover_item: {size: medium}", me.Name)
				}
				p.cover = lotm.CoverItem
			case "obstacle":
				if me.Obstacle.Size == 0 {
					return fail("cover obstacle needs an obstacle at hand: give %s obstacle: {size: medium}", me.Name)
				}
				p.cover = lotm.CoverObstacle
			default:
				return bad([]string{"item", "obstacle"})
			}
		default:
			return fail("unexpected %q after %s%s; after the action come: %s", mod, verb, scenario.Suggest(mod, []string{"with", "hide", "teleport", "cover"}), strings.Join(LotmModifiers, ", "))
		}
		rest = rest[2:]
	}
	return true
}

func unknownLotmVerb(fail func(string, ...any) bool, verb string, moment int, offers msg.Text) bool {
	if rs, ok := otherVerbs[verb]; ok && rs != "lotm" {
		if rs == "" {
			return fail("lotm has no decision %q here; %s", verb, offers)
		}
		// The article is part of the sentence, so each is its own message.
		if strings.IndexByte("aeiou", rs[0]) >= 0 {
			return fail("%s is an %s decision, not a lotm one; %s", verb, rs, offers)
		}
		return fail("%s is a %s decision, not a lotm one; %s", verb, rs, offers)
	}
	if verb == "feint" || verb == "aim" || verb == "intimidate" {
		return fail("%s is a Swift action: write it after the turn's action, e.g. attack with %s; %s", verb, verb, offers)
	}
	return fail("unknown decision %q%s; %s", verb, scenario.Suggest(verb, lotmVerbs(moment)), offers)
}

var lotmTargetNames = []string{"weakest", "strongest", "nearest", "first", "random"}

func parseLotmTarget(d *scenario.Decoder, g *lotm.Game, self int, s string, t tactics.Text, r *lotmRule) bool {
	if s == "" {
		return true
	}
	if r.kind == ldInsert || r.kind == ldWait {
		d.Errorf(t.Node, t.Path, "insert and wait have no target; the inserted turn chooses its own with its turn rules")
		return false
	}
	if r.kind >= ldLimbBlock {
		verb := map[lotmDoKind]string{ldLimbBlock: "limb_block", ldBorrow: "borrow", ldPass: "pass", ldBurn: "burn", ldKeep: "keep"}[r.kind]
		d.Errorf(t.Node, t.Path, "%s has no target: it answers the attacker's strike or critical failure, or its own hit check", verb)
		return false
	}
	if indexOfString(lotmTargetNames, s) < 0 {
		d.Errorf(t.Node, t.Path, "unknown target %q%s; a target is %s (a grappled enemy first, then one it can reach this turn)",
			s, scenario.Suggest(s, lotmTargetNames), strings.Join(lotmTargetNames, ", "))
		return false
	}
	r.pol.target = s
	r.pol.sel = 1 + uint8(lotmSelector(s))
	return true
}
