package agents

// The tactics language's d20 binding: the facts a d20 combatant can know on
// its turn, the decisions the d20 referee carries out, target selectors,
// and the compiled Policy that plays a tactics block.

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/agents/tactics"
	"simctl/rulesets/d20"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// d20Moments: the d20 referee asks for one decision, on a combatant's turn.
// Readied actions fire by their trigger and attacks of opportunity are
// automatic, so there is no reaction to choose.
var d20Moments = []string{"turn"}

// d20 facts at the turn moment, by index (the order of d20Facts).
const (
	fRound = iota
	fSurprise
	fSelfHP
	fSelfHPPct
	fSelfAC
	fSelfCount
	fSelfPosition
	fSelfEngaged
	fSelfResuming
	fSelfSpellsLeft
	fSpellLeft
	fEnemiesCount
	fEnemiesDown
	fEnemiesInReach
	fEnemiesReachable
	fEnemiesNearest
	fEnemiesCasters
	fEnemiesActed
	fAlliesCount
	fAlliesDown
	fAlliesEngaged
	fAlliesActed
	fAllyActed
	fAllyDown
	fAllyHP
	fAllyHPPct
	fAllyEngaged
	fAllyDistance
	fEnemyActed
	fEnemyDown
	fEnemyHP
	fEnemyHPPct
	fEnemyDistance
	fEnemyInReach
	fEnemySpellsLeft
	fNextExists
	fNextIsEnemy
	fNextIsAlly
	fSelfFlatFooted
	fSelfAmmo
	fSelfLoaded
	fSelfThreatened
	fEnemiesInRange
	fEnemiesFlatFooted
	fEnemiesReadied
	fAllyFlatFooted
	fAllyReadied
	fAllyDelaying
	fAllyCharged
	fAllyCount
	fEnemyFlatFooted
	fEnemyReadied
	fEnemyDelaying
	fEnemyCharged
	fEnemyCount
	fEnemyAC
	fEnemyInRange
	fEnemyShotPenalty
	fSelfFlanked
	fEnemiesFlanked
	fEnemyFlanked
)

var d20Facts = []tactics.Fact{
	fRound:             {Name: "round", Type: tactics.Number, Doc: "the round (0: the surprise round)"},
	fSurprise:          {Name: "surprise_round", Type: tactics.Bool, Doc: "this is the surprise round (one standard action)"},
	fSelfHP:            {Name: "self.hp", Type: tactics.Number, Doc: "current hit points"},
	fSelfHPPct:         {Name: "self.hp_pct", Type: tactics.Number, Doc: "current hit points as a fraction of those at the start (0.4 = 40%)"},
	fSelfAC:            {Name: "self.ac", Type: tactics.Number, Doc: "armour class now: without dex_ac while flat-footed (unless uncanny dodge), -2 after its own charge"},
	fSelfCount:         {Name: "self.count", Type: tactics.Number, Doc: "initiative count (changes with Delay and Ready)"},
	fSelfPosition:      {Name: "self.position", Type: tactics.Number, Doc: "place in the initiative order among those still in the fight, 1 = first"},
	fSelfEngaged:       {Name: "self.engaged", Type: tactics.Bool, Doc: "an enemy still in the fight is within reach"},
	fSelfResuming:      {Name: "self.resuming", Type: tactics.Bool, Doc: "this turn is its delayed action (a delay decision falls through)"},
	fSelfSpellsLeft:    {Name: "self.spells_left", Type: tactics.Number, Doc: "casts left over all its spells"},
	fSpellLeft:         {Name: "spell.left", Type: tactics.Number, Arg: tactics.SpellArg, Doc: "casts left of one of its spells"},
	fEnemiesCount:      {Name: "enemies.count", Type: tactics.Number, Doc: "enemies still in the fight"},
	fEnemiesDown:       {Name: "enemies.down", Type: tactics.Number, Doc: "enemies out of the fight"},
	fEnemiesInReach:    {Name: "enemies.in_reach", Type: tactics.Number, Doc: "enemies in the fight within its reach"},
	fEnemiesReachable:  {Name: "enemies.reachable", Type: tactics.Number, Doc: "enemies it can attack this turn (in reach, a 5-foot step or a charge away: twice speed, speed in the surprise round)"},
	fEnemiesNearest:    {Name: "enemies.nearest", Type: tactics.Number, Doc: "distance in feet to the nearest enemy in the fight (0 when none)"},
	fEnemiesCasters:    {Name: "enemies.casters", Type: tactics.Number, Doc: "enemies in the fight with a spell use left"},
	fEnemiesActed:      {Name: "enemies.acted", Type: tactics.Number, Doc: "enemies in the fight that have acted this round"},
	fAlliesCount:       {Name: "allies.count", Type: tactics.Number, Doc: "allies (not itself) still in the fight"},
	fAlliesDown:        {Name: "allies.down", Type: tactics.Number, Doc: "allies out of the fight"},
	fAlliesEngaged:     {Name: "allies.engaged", Type: tactics.Number, Doc: "allies in the fight with an enemy in reach"},
	fAlliesActed:       {Name: "allies.acted", Type: tactics.Number, Doc: "allies in the fight that have acted this round"},
	fAllyActed:         {Name: "ally.acted", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally has taken an action this round"},
	fAllyDown:          {Name: "ally.down", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally is out of the fight"},
	fAllyHP:            {Name: "ally.hp", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's hit points"},
	fAllyHPPct:         {Name: "ally.hp_pct", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's hit points as a fraction of its starting ones"},
	fAllyEngaged:       {Name: "ally.engaged", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "an enemy in the fight is within the ally's reach"},
	fAllyDistance:      {Name: "ally.distance", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "feet between it and the ally"},
	fEnemyActed:        {Name: "enemy.acted", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy has taken an action this round"},
	fEnemyDown:         {Name: "enemy.down", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is out of the fight"},
	fEnemyHP:           {Name: "enemy.hp", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's hit points"},
	fEnemyHPPct:        {Name: "enemy.hp_pct", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's hit points as a fraction of its starting ones"},
	fEnemyDistance:     {Name: "enemy.distance", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "feet between it and the enemy"},
	fEnemyInReach:      {Name: "enemy.in_reach", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is within its reach"},
	fEnemySpellsLeft:   {Name: "enemy.spells_left", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "casts the enemy has left over all its spells"},
	fNextExists:        {Name: "next_actor.exists", Type: tactics.Bool, Doc: "someone who will have a turn comes after it in the order this round (in the fight; in the surprise round, aware)"},
	fNextIsEnemy:       {Name: "next_actor.is_enemy", Type: tactics.Bool, Doc: "the next in the order this round who will have a turn is an enemy"},
	fNextIsAlly:        {Name: "next_actor.is_ally", Type: tactics.Bool, Doc: "the next in the order this round who will have a turn is an ally"},
	fSelfFlatFooted:    {Name: "self.flat_footed", Type: tactics.Bool, Doc: "it is flat-footed (no regular turn yet: AC without dex_ac, no attacks of opportunity)"},
	fSelfAmmo:          {Name: "self.ammo", Type: tactics.Number, Doc: "shots left of its ranged weapon (1000000 when unlimited, 0 without one)"},
	fSelfLoaded:        {Name: "self.loaded", Type: tactics.Bool, Doc: "its ranged weapon is ready to shoot (a fired crossbow needs reloading)"},
	fSelfThreatened:    {Name: "self.threatened", Type: tactics.Bool, Doc: "an enemy in the fight threatens it (a shot or a move away provokes)"},
	fEnemiesInRange:    {Name: "enemies.in_range", Type: tactics.Number, Doc: "enemies in the fight within its ranged weapon's range (0 without one)"},
	fEnemiesFlatFooted: {Name: "enemies.flat_footed", Type: tactics.Number, Doc: "enemies in the fight that are flat-footed"},
	fEnemiesReadied:    {Name: "enemies.readied", Type: tactics.Number, Doc: "enemies in the fight holding a readied action"},
	fAllyFlatFooted:    {Name: "ally.flat_footed", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally is flat-footed"},
	fAllyReadied:       {Name: "ally.readied", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally holds a readied action"},
	fAllyDelaying:      {Name: "ally.delaying", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally is delaying"},
	fAllyCharged:       {Name: "ally.charged", Type: tactics.Bool, Arg: tactics.AllyArg, Doc: "the ally charged on its last turn (-2 AC until its next)"},
	fAllyCount:         {Name: "ally.count", Type: tactics.Number, Arg: tactics.AllyArg, Doc: "the ally's initiative count"},
	fEnemyFlatFooted:   {Name: "enemy.flat_footed", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is flat-footed"},
	fEnemyReadied:      {Name: "enemy.readied", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy holds a readied action"},
	fEnemyDelaying:     {Name: "enemy.delaying", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is delaying"},
	fEnemyCharged:      {Name: "enemy.charged", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy charged on its last turn (-2 AC until its next)"},
	fEnemyCount:        {Name: "enemy.count", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's initiative count"},
	fEnemyAC:           {Name: "enemy.ac", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the enemy's armour class now (flat-footed, after a charge)"},
	fEnemyInRange:      {Name: "enemy.in_range", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "the enemy is in the fight within its ranged weapon's range"},
	fEnemyShotPenalty:  {Name: "enemy.shot_penalty", Type: tactics.Number, Arg: tactics.EnemyArg, Doc: "the penalty a shot at the enemy takes now: range increments, and -4 into a melee without Precise Shot (0 or less)"},
	fSelfFlanked:       {Name: "self.flanked", Type: tactics.Bool, Doc: "an enemy threatening it flanks it (its melee attack gets +2; option flanking)"},
	fEnemiesFlanked:    {Name: "enemies.flanked", Type: tactics.Number, Doc: "enemies in the fight its melee attack would flank, from where it would attack (+2; option flanking)"},
	fEnemyFlanked:      {Name: "enemy.flanked", Type: tactics.Bool, Arg: tactics.EnemyArg, Doc: "its melee attack on the enemy would flank it, from where it would attack (+2; option flanking)"},
}

// D20Facts documents the facts of the d20 turn moment (docs, simctl policies).
func D20Facts() []tactics.Fact { return d20Facts }

// decision kinds
type d20DoKind uint8

const (
	doAttack d20DoKind = iota
	doCharge
	doFullAttack
	doCast
	doDelayUntil
	doDelayTo
	doReady
	doCounterspell
	doShoot
	doCloseIn
	doKeepDistance
	doSpecial // a special action written as data (rules: or traits: with action:)
)

// d20Forms is the one table of the d20 decisions: each form a do: may take
// (as simctl policies and the messages list it), the verb it starts with,
// and the decision kind it parses to. D20Decisions, the verbs and the
// kinds' names all follow from it; parseD20Do reads each verb's arguments.
var d20Forms = []struct {
	form, verb string
	kind       d20DoKind
}{
	{"attack", "attack", doAttack},
	{"charge", "charge", doCharge},
	{"full_attack", "full_attack", doFullAttack},
	{"cast SPELL | cast any", "cast", doCast},
	{"delay until NAME", "delay", doDelayUntil},
	{"delay to COUNT", "delay", doDelayTo},
	{"ready attack on TRIGGER [for ALLY]", "ready", doReady},
	{"ready cast SPELL|any on TRIGGER [for ALLY]", "ready", doReady},
	{"ready counterspell [SPELL] on TRIGGER", "ready", doReady},
	{"counterspell [SPELL]", "counterspell", doCounterspell},
	{"shoot", "shoot", doShoot},
	{"close_in", "close_in", doCloseIn},
	{"keep_distance", "keep_distance", doKeepDistance},
	{"ready shoot on TRIGGER [for ALLY]", "ready", doReady},
	{"ready move on TRIGGER [for ALLY]", "ready", doReady},
	{"advance and ready ACTION on TRIGGER [for ALLY]", "advance", doReady},
}

// D20Decisions documents the d20 decisions (docs, messages).
var D20Decisions = func() []string {
	var out []string
	for _, f := range d20Forms {
		out = append(out, f.form)
	}
	return out
}()

// d20Verbs are the verbs a d20 do: starts with, in the table's order.
var d20Verbs = func() []string {
	var out []string
	for _, f := range d20Forms {
		if !slices.Contains(out, f.verb) {
			out = append(out, f.verb)
		}
	}
	return out
}()

// verbKind is the decision kind of a verb that takes no argument.
func verbKind(verb string) d20DoKind {
	for _, f := range d20Forms {
		if f.verb == verb {
			return f.kind
		}
	}
	panic("agents: no d20 decision " + verb)
}

// fall-through reasons
const (
	whyNoTarget = iota
	whyNoUses
	whyNoCharge
	whyNoFull
	whyWaitedOut
	whyWaitedActed
	whyResuming
	whyCount
	whyCannotCounter
	whyNoShot
	whyNoSpecial
	numWhy
)

// whyText: short, for the table; docs/tactics.md explains each.
var whyText = [numWhy]string{
	"no enemy matches the target",
	"no use of the spell left",
	"no charge possible",
	"no full attack possible",
	"the one it waits for is out",
	"the one it waits for has acted",
	"this turn is its delayed action",
	"that count is not below its own",
	"nothing to counter",
	"no shot left",
	"the action cannot be taken now",
}

type d20Do struct {
	kind    d20DoKind
	shoot   bool // ready: a readied shot
	advance bool // ready: advance on the target first (move, then ready)
	spell   int  // -1: any (cast, counterspell, ready cast)
	who     int  // delay until
	count   int  // delay to
	trigger d20.Trigger
	ally    int
	action  d20.ReadyAction
	special int // doSpecial: Game.Action's index
}

type selKind uint8

const (
	selWeakest selKind = iota
	selStrongest
	selNearest
	selLowestAC
	selCastersFirst
	selRandom
	selFirst
	selNamed
)

var selectors = []string{"weakest", "strongest", "nearest", "lowest_ac", "casters_first", "random", "first"}

type d20Target struct {
	kind    selKind
	named   int
	inReach bool // filter: only enemies within reach now
}

type d20Rule struct {
	ruleHead
	do     d20Do
	target d20Target
}

// d20Tactic is a compiled tactics block for one combatant. Immutable.
type d20Tactic struct {
	rules    []d20Rule
	fallback int // counter index for the built-in fallback
	limit    int // feet within which an enemy can be attacked this turn (Standard)
	attacks  int // its number of attacks (FusedRules: a full attack needs two)
}

func compileD20Tactics(d *scenario.Decoder, g *d20.Game, self int, n *yaml.Node, path string) d20.Policy {
	rules, fallback, ok := compileBlock(d, g, self, n, path, &blockSpec[d20Rule, *d20Rule]{
		ruleset: "d20", moments: d20Moments, lib: d20Library,
		facts: d20Facts,
		index: g.Index, resolve: func(kind tactics.ArgKind, name string) (int, msg.Text) { return resolveD20(g, self, kind, name) },
		skip: func(_ int, do string) bool { return isDelayUntilSelf(g.Index, self, do) },
		parseDo: func(_ int, do string, r tactics.Rule, cr *d20Rule) (ok bool) {
			cr.do, ok = parseD20Do(d, g, self, do, r.Do)
			return ok
		},
		parseTarget: func(tg string, r tactics.Rule, cr *d20Rule, _ bool) (ok bool) {
			cr.target, ok = parseD20Target(d, g, self, tg, r.Target, cr.do.kind, cr.do.advance)
			return ok
		},
		// "cast any" (library tactics) on a combatant without spells: a
		// rule that could never fire, left out so it adds no noise to the
		// counts.
		keep: func(cr *d20Rule) bool {
			return !(cr.do.kind == doCast || cr.do.kind == doReady && cr.do.action == d20.ReadyCast) || len(g.C[self].Spells) > 0
		},
		reasons: func(cr *d20Rule) []int { return cr.do.reasons(cr.target) },
		whyText: whyText[:],
	})
	if !ok {
		return nil
	}
	pol := &d20Tactic{rules: rules[0], fallback: fallback[0]}
	me := &g.C[self]
	pol.limit = max(2*me.Speed, 5) + me.Reach
	pol.attacks = len(me.Attacks)
	return pol
}

// reasons lists why this decision may fall through.
func (do d20Do) reasons(tg d20Target) []int {
	var out []int
	if tg.inReach || tg.kind == selNamed {
		out = append(out, whyNoTarget)
	}
	switch do.kind {
	case doCharge:
		out = append(out, whyNoCharge)
	case doFullAttack:
		out = append(out, whyNoFull)
	case doCast:
		out = append(out, whyNoUses)
	case doDelayUntil:
		out = append(out, whyWaitedOut, whyWaitedActed, whyResuming)
	case doDelayTo:
		out = append(out, whyCount, whyResuming)
	case doReady:
		if do.action == d20.ReadyCast {
			out = append(out, whyNoUses)
		}
		if do.action == d20.ReadyCounterspell {
			out = append(out, whyCannotCounter)
		}
	case doCounterspell:
		out = append(out, whyCannotCounter)
	case doShoot, doCloseIn, doKeepDistance:
		out = append(out, whyNoShot)
	case doSpecial:
		out = append(out, whyNoSpecial)
	}
	return out
}

func resolveD20(g *d20.Game, self int, kind tactics.ArgKind, name string) (int, msg.Text) {
	spells := namesOf(g.C[self].Spells, func(s *d20.Spell) string { return s.Name })
	return resolveArg(g.Roster(), g.Index, self, spells, kind, name)
}

// parseD20Do reads a do: text.
func parseD20Do(d *scenario.Decoder, g *d20.Game, self int, s string, t tactics.Text) (d20Do, bool) {
	do := d20Do{spell: -1, who: -1, ally: -1}
	fail := func(format string, args ...any) (d20Do, bool) {
		d.Errorf(t.Node, t.Path, format, args...)
		return do, false
	}
	verb, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	noArgs := func() bool { return rest == "" }
	switch verb {
	case "attack", "charge", "full_attack":
		if !noArgs() {
			return fail("%s takes no argument (choose whom with target:), got %q", verb, rest)
		}
		do.kind = verbKind(verb)
		return do, true
	case "cast":
		do.kind = doCast
		if rest == "" {
			return fail("cast needs a spell: cast SPELL or cast any")
		}
		sp, ok := spellArg(g, self, rest)
		if !ok {
			return fail("%s", spellMsg(g, self, rest))
		}
		do.spell = sp
		return do, true
	case "counterspell":
		do.kind = doCounterspell
		if len(g.C[self].Spells) == 0 {
			return fail("a counterspell needs the same spell as the caster, and %s has no spells", g.C[self].Name)
		}
		if rest != "" {
			sp, ok := spellArg(g, self, rest)
			if !ok {
				return fail("%s", spellMsg(g, self, rest))
			}
			do.spell = sp
		}
		return do, true
	case "delay":
		kw, arg, _ := strings.Cut(rest, " ")
		arg = strings.TrimSpace(arg)
		switch kw {
		case "until":
			i, why := resolveD20(g, self, tactics.AllyArg, arg)
			if why.Format != "" {
				j, ok := g.Index(arg)
				if !ok || j == self {
					if j == self && ok {
						return fail("a combatant cannot delay until it has acted itself")
					}
					return fail("%s", unknownDelayee(g.Roster(), self, arg))
				}
				i = j // an enemy is fine: wait until it has acted
			}
			do.kind, do.who = doDelayUntil, i
			return do, true
		case "to":
			n, err := strconv.Atoi(arg)
			if err != nil || n < -100 || n > 100 {
				return fail("delay to needs a count from -100 to 100, got %q", arg)
			}
			do.kind, do.count = doDelayTo, n
			return do, true
		}
		return fail("delay until NAME or delay to COUNT, got %q", s)
	case "ready":
		return parseReady(d, g, self, rest, t, do)
	case "advance":
		r, ok := strings.CutPrefix(rest, "and ready ")
		if !ok {
			return fail("advance and ready ACTION on TRIGGER: a move action toward the target, then the ready; got %q", s)
		}
		do.advance = true
		return parseReady(d, g, self, strings.TrimSpace(r), t, do)
	case "shoot", "close_in", "keep_distance":
		if !noArgs() {
			return fail("%s takes no argument (choose whom with target:), got %q", verb, rest)
		}
		if g.C[self].Ranged.Increment == 0 {
			return fail("%s has no ranged weapon to %s with; give it ranged: {bonus, damage, increment, ...}", g.C[self].Name, verb)
		}
		do.kind = verbKind(verb)
		return do, true
	}
	if k := g.Action(self, s); k >= 0 {
		do.kind, do.special = doSpecial, k
		return do, true
	}
	if rs, ok := otherVerbs[verb]; ok {
		if rs == "" {
			return fail("d20 has no decision %q: the d20 referee does not model it; d20 offers: %s", verb, strings.Join(D20Decisions, ", "))
		}
		return fail("%s is a %s decision, not a d20 one; d20 offers: %s", verb, rs, strings.Join(D20Decisions, ", "))
	}
	if acts := g.Actions(self); len(acts) > 0 {
		// Special actions written as data (action: in rules: or traits:)
		// are decisions too.
		return fail("unknown decision %q%s; d20 offers at turn: %s, and %s's actions: %s", s, scenario.Suggest(s, append(append([]string(nil), d20Verbs...), acts...)), strings.Join(D20Decisions, ", "), g.C[self].Name, strings.Join(acts, ", "))
	}
	return fail("unknown decision %q%s; d20 offers at turn: %s", verb, scenario.Suggest(verb, d20Verbs), strings.Join(D20Decisions, ", "))
}

func parseReady(d *scenario.Decoder, g *d20.Game, self int, rest string, t tactics.Text, do d20Do) (d20Do, bool) {
	fail := func(format string, args ...any) (d20Do, bool) {
		d.Errorf(t.Node, t.Path, format, args...)
		return do, false
	}
	do.kind = doReady
	act, trig, found := strings.Cut(rest, " on ")
	if !found {
		return fail("ready ACTION on TRIGGER, e.g. ready attack on charge; triggers: %s", strings.Join(d20.TriggerNames[1:], ", "))
	}
	act = strings.TrimSpace(act)
	verb, spell, _ := strings.Cut(act, " ")
	spell = strings.TrimSpace(spell)
	switch verb {
	case "attack", "shoot":
		do.action = d20.ReadyAttack
		if spell != "" {
			return fail("ready %s takes no argument, got %q", verb, spell)
		}
		if verb == "shoot" {
			if g.C[self].Ranged.Increment == 0 {
				return fail("%s has no ranged weapon to shoot with; give it ranged: {bonus, damage, increment, ...}", g.C[self].Name)
			}
			do.shoot = true
		}
	case "cast":
		do.action = d20.ReadyCast
		if spell == "" {
			return fail("ready cast needs a spell: ready cast SPELL on TRIGGER (or cast any)")
		}
		sp, ok := spellArg(g, self, spell)
		if !ok {
			return fail("%s", spellMsg(g, self, spell))
		}
		do.spell = sp
	case "move":
		do.action = d20.ReadyMove
		if spell != "" {
			return fail("ready move takes no argument, got %q", spell)
		}
	case "counterspell":
		do.action = d20.ReadyCounterspell
		if len(g.C[self].Spells) == 0 {
			return fail("a counterspell needs the same spell as the caster, and %s has no spells", g.C[self].Name)
		}
		if spell != "" {
			sp, ok := spellArg(g, self, spell)
			if !ok {
				return fail("%s", spellMsg(g, self, spell))
			}
			do.spell = sp
		}
	default:
		return fail("cannot ready %q%s; a readied action is attack, shoot, move, cast SPELL or counterspell", verb, scenario.Suggest(verb, []string{"attack", "shoot", "move", "cast", "counterspell"}))
	}
	trig = strings.TrimSpace(trig)
	trig, ally, hasAlly := strings.Cut(trig, " for ")
	trig = strings.TrimSpace(trig)
	for k, name := range d20.TriggerNames {
		if k > 0 && name == trig {
			do.trigger = d20.Trigger(k)
		}
	}
	if do.trigger == 0 {
		return fail("unknown trigger %q%s; triggers: %s", trig, scenario.Suggest(trig, d20.TriggerNames[1:]), strings.Join(d20.TriggerNames[1:], ", "))
	}
	if do.action == d20.ReadyMove && (do.trigger == d20.OnCharge || do.trigger == d20.OnEnemyInReach) {
		return fail("a readied move closes on the one the trigger names, and %s brings that one into reach already; use enemy_casts, ally_acts (toward the ally's target) or enemy_attacks_ally", trig)
	}
	needAlly := do.trigger == d20.OnAllyActs || do.trigger == d20.OnEnemyAttacksAlly
	switch {
	case needAlly && !hasAlly:
		return fail("trigger %s needs an ally: ready ... on %s for NAME", trig, trig)
	case !needAlly && hasAlly:
		return fail("trigger %s names no ally; drop \"for %s\"", trig, strings.TrimSpace(ally))
	case needAlly:
		i, why := resolveD20(g, self, tactics.AllyArg, strings.TrimSpace(ally))
		if why.Format != "" {
			return fail("%s", why)
		}
		do.ally = i
	}
	return do, true
}

// spellArg resolves "any" (-1) or one of self's spells.
func spellArg(g *d20.Game, self int, name string) (int, bool) {
	if name == "any" {
		// Any spell with a use left: with none, the decision always falls
		// through, so library tactics fit casters and non-casters alike.
		return -1, true
	}
	i, why := resolveD20(g, self, tactics.SpellArg, name)
	return i, why.Format == ""
}

func spellMsg(g *d20.Game, self int, name string) msg.Text {
	if len(g.C[self].Spells) == 0 {
		return msg.New("%s has no spells to cast", g.C[self].Name)
	}
	_, why := resolveD20(g, self, tactics.SpellArg, name)
	return msg.New("%s (or any)", why)
}

// parseD20Target reads a target: text: a selector and the filter "in
// reach", or an enemy's name.
func parseD20Target(d *scenario.Decoder, g *d20.Game, self int, s string, t tactics.Text, kind d20DoKind, advance bool) (d20Target, bool) {
	tg := d20Target{named: -1}
	if s == "" {
		return tg, true
	}
	if kind == doDelayUntil || kind == doDelayTo || kind == doReady && !advance || kind == doCounterspell || kind == doSpecial {
		d.Errorf(t.Node, t.Path, "a %s decision has no target (a readied attack strikes whoever sets it off)", kindName(kind))
		return tg, false
	}
	if rest, ok := strings.CutSuffix(s, " in reach"); ok {
		s, tg.inReach = strings.TrimSpace(rest), true
	}
	for k, name := range selectors {
		if s == name {
			tg.kind = selKind(k)
			return tg, true
		}
	}
	if i, why := resolveD20(g, self, tactics.EnemyArg, s); why.Format == "" {
		tg.kind, tg.named = selNamed, i
		return tg, true
	}
	enemies := enemyNames(g.Roster(), self)
	if i, ok := g.Index(s); ok && g.C[i].Side == g.C[self].Side {
		d.Errorf(t.Node, t.Path, "%q is on %s's side; a target is an enemy: a selector (%s) or an enemy's name (%s)", s, g.C[self].Name, strings.Join(selectors, ", "), strings.Join(enemies, ", "))
		return tg, false
	}
	d.Errorf(t.Node, t.Path, "%s", unknownTarget(s, selectors, enemies, true))
	return tg, false
}

// kindName is a decision kind's name in messages: its first verb in
// d20Forms.
func kindName(k d20DoKind) string {
	for _, f := range d20Forms {
		if f.kind == k {
			return f.verb
		}
	}
	return "special action" // doSpecial: an action written as data, not a form
}
