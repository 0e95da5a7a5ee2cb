package sim

// RuleCounter labels one tactics counter in Counts.Rules: how often a rule
// of a combatant's tactics decided (Event "fired"), or could not be
// carried out and fell through to the next rule (Event "fell through: "
// and the reason).
type RuleCounter struct {
	Combatant int // roster index
	Moment    string
	Rule      string
	Event     string
	// Trait: a trait's or house rule's counter (Event "fired", or "added":
	// the sum of what it changed), not a tactics rule's. A game registers
	// them after every tactics counter.
	Trait bool
}

// RuleGame is a Game whose combatants play compiled tactics. Its tables
// add to Counts.Rules at the indices of RuleCounters.
type RuleGame interface {
	RuleCounters() []RuleCounter
}

// ruleCounters returns g's rule counters, or nil.
func ruleCounters(g Game) []RuleCounter {
	if rg, ok := g.(RuleGame); ok {
		return rg.RuleCounters()
	}
	return nil
}

// RuleRegistry is embedded in a compiled Game to make it a RuleGame: the
// tactics compiler registers each counter while compiling, and the tables
// add to Counts.Rules at the returned index.
type RuleRegistry struct{ rules []RuleCounter }

// AddRuleCounter registers a tactics counter and returns its index in
// Counts.Rules. Call it only while compiling.
func (r *RuleRegistry) AddRuleCounter(rc RuleCounter) int {
	r.rules = append(r.rules, rc)
	return len(r.rules) - 1
}

// RuleCounters implements RuleGame.
func (r *RuleRegistry) RuleCounters() []RuleCounter { return r.rules }
