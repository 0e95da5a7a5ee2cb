package agents

import "simctl/agents/tactics"

// The tactics bindings' moments of decision, declared to the tactics:
// reader so that a block naming another ruleset's moment is told so.
func init() {
	tactics.Declare("d20", d20Moments...)
	tactics.Declare("acks2", acksMoments...)
	tactics.Declare("cavaliers", cavMoments...)
	tactics.Declare("lotm", lotmMoments...)
}
