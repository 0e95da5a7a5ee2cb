package sim

// Event is one structured record of a traced encounter, written beside
// the narration line that tells it. Tests assert on events, not on the
// wording of the narration, so a rule's test survives a reworded line and
// a reworded line cannot hide a changed rule. A ruleset records events only
// through a non-nil *Log, so a run that is not traced builds none.
//
// Fields a kind does not use are zero, except Actor and Target, which are
// NoOne when nobody fills the role (0 is a combatant index).
type Event struct {
	Kind   EventKind
	Round  int    // the round the event happened in, stamped by Log (0: before the first round or a surprise round)
	Actor  int    // combatant index of who acts, rolls or is affected; NoOne if none
	Target int    // combatant index acted upon (attacked, charged, triggering a readied action); NoOne if none
	Die    int    // the natural die roll, before modifiers, where one was rolled
	Roll   int    // the roll's total, modifiers included (an attack roll, a save, a check, an initiative count)
	Need   int    // the number the roll is measured against (AC, DC, defence, attack throw), or a count delayed to
	Amount int    // damage dealt, hp left, feet moved, a die rolled: what the kind says
	OK     bool   // the roll succeeded (a hit, a save made, a check passed) where the kind has a verdict
	Rule   string // which rule or variant applied, in the ruleset's words ("critical", "attack of opportunity", ...)
}

// NoOne fills Event.Actor or Event.Target when nobody fills the role.
const NoOne = -1

// EventKind says what an Event records.
type EventKind uint8

// Event kinds. Rulesets share them where the rules share the idea; Rule
// tells the variants apart.
const (
	EvNone       EventKind = iota
	EvRound                // a round begins: Round (0 for a surprise round); Rule "surprise" for one
	EvInitiative           // Actor's initiative: Roll the result, Amount the die; Rule for ties and re-rolls
	EvTurn                 // Actor's turn (or delayed or readied action) begins: Roll the count or segment, Amount hp
	EvAttack               // Actor attacks Target: Roll vs Need, OK a hit, Amount the damage dealt
	EvDamage               // Target takes Amount damage from Actor outside an attack roll (a spell, a fall, bleeding)
	EvMove                 // Actor moves Amount feet (toward Target if any); Rule names the kind of move
	EvDelay                // Actor delays: Need the count (or Target the combatant) it waits for
	EvReady                // Actor readies an action; Rule names the action and trigger
	EvInterrupt            // Actor's readied, inserted or interposed action goes off against Target; Rule names it, Amount the protected ally where one is
	EvSpell                // Actor casts or starts casting spell Rule at Target
	EvSave                 // Actor saves or checks: Roll vs Need, OK made
	EvCheck                // Actor makes a skill or ability check: Roll vs Need, OK passed; Rule names it
	EvDown                 // Actor drops, dies, flees or is taken out: Rule says how, Amount the hp left
	EvMorale               // Actor tests morale: Roll vs Need, OK held
	EvLost                 // Actor loses a delayed or readied action, or a turn; Rule says why
	EvAction               // Actor takes action Rule (charge, shot, reload, ...) at Target if any; Amount a measure (feet)
	EvEnd                  // the encounter ends: Actor the winning side, NoOne for a draw; Amount the rounds played
	EvRule                 // a tactics rule of Actor's decides (OK) or falls through (not OK): Rule is "MOMENT/NAME", NAME "fallback" when no rule decides
	EvTrait                // trait or house rule Rule of Actor's changes a number (Roll before, Amount after) or a condition of Target
	evKinds
)

var eventKindNames = [evKinds]string{"none", "round", "initiative", "turn", "attack", "damage", "move",
	"delay", "ready", "interrupt", "spell", "save", "check", "down", "morale", "lost", "action", "end", "rule", "trait"}

func (k EventKind) String() string {
	if k < evKinds {
		return eventKindNames[k]
	}
	return "kind?"
}

// Event records e, stamping it with the current round (an EvRound event
// sets it). A nil *Log records nothing.
func (l *Log) Event(e Event) {
	if l == nil {
		return
	}
	if e.Kind == EvRound {
		l.round = e.Round
	} else {
		e.Round = l.round
	}
	l.Events = append(l.Events, e)
}

// Of returns the recorded events of kind k, in order.
func (l *Log) Of(k EventKind) []Event {
	var out []Event
	for _, e := range l.Events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// Where returns the recorded events for which keep is true, in order.
func (l *Log) Where(keep func(Event) bool) []Event {
	var out []Event
	for _, e := range l.Events {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}
