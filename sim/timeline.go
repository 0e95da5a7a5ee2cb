package sim

import "strings"

// Timeline is a traced encounter's rounds as a reader scans them: each
// round's turns in the order they came, with their initiative count, and
// where a combatant delayed, readied, interrupted, came back from a delay
// or went down. It is built from the structured events the referees
// record (Log.Events), so it says the same in every language: the words
// are the front end's.
type Timeline struct {
	Sides      [2]string       `json:"sides"`
	Combatants []TimelineWho   `json:"combatants"` // by roster index
	Rounds     []TimelineRound `json:"rounds"`
	// Winner is the winning side, -1 a draw, -2 when the trace stopped
	// before the end (a truncated narration); Played the regular rounds.
	Winner int `json:"winner"`
	Played int `json:"played"`
}

// TimelineWho is a combatant of the timeline: its name and side (0 or 1).
type TimelineWho struct {
	Name string `json:"name"`
	Side int    `json:"side"`
}

// TimelineRound is one round; Special names a round before the first
// ("surprise", "ambush"), as the referee's event does.
type TimelineRound struct {
	N       int            `json:"n"`
	Special string         `json:"special,omitempty"`
	Marks   []TimelineMark `json:"marks"`
}

// TimelineMark is one moment of a round. Kind is turn, resume (a delayed
// or readied turn taken), delay, ready, interrupt or down; Who and Target
// are roster indices (Target NoOne when none); Count is a turn's
// initiative count or segment.
type TimelineMark struct {
	Kind   string `json:"kind"`
	Who    int    `json:"who"`
	Target int    `json:"target"`
	Count  int    `json:"count,omitempty"`
}

// NewTimeline builds the timeline of events (one encounter's, in order).
func NewTimeline(events []Event, roster []Entrant, sides [2]string) *Timeline {
	t := &Timeline{Sides: sides, Winner: -2, Rounds: []TimelineRound{}}
	for _, e := range roster {
		t.Combatants = append(t.Combatants, TimelineWho{Name: e.Name, Side: e.Side})
	}
	var cur *TimelineRound
	mark := func(m TimelineMark) {
		if cur == nil { // before any round: a round of its own
			t.Rounds = append(t.Rounds, TimelineRound{N: 0, Special: "before"})
			cur = &t.Rounds[len(t.Rounds)-1]
		}
		cur.Marks = append(cur.Marks, m)
	}
	for _, e := range events {
		switch e.Kind {
		case EvRound:
			r := TimelineRound{N: e.Round, Marks: []TimelineMark{}}
			if e.Round == 0 {
				r.Special = e.Rule
			}
			t.Rounds = append(t.Rounds, r)
			cur = &t.Rounds[len(t.Rounds)-1]
		case EvTurn:
			kind := "turn"
			if strings.HasPrefix(e.Rule, "delayed") || strings.HasPrefix(e.Rule, "readied") {
				kind = "resume"
			}
			mark(TimelineMark{Kind: kind, Who: e.Actor, Target: NoOne, Count: e.Roll})
		case EvDelay:
			mark(TimelineMark{Kind: "delay", Who: e.Actor, Target: e.Target})
		case EvReady:
			mark(TimelineMark{Kind: "ready", Who: e.Actor, Target: NoOne})
		case EvInterrupt:
			mark(TimelineMark{Kind: "interrupt", Who: e.Actor, Target: e.Target})
		case EvDown:
			mark(TimelineMark{Kind: "down", Who: e.Actor, Target: NoOne})
		case EvEnd:
			t.Winner, t.Played = e.Actor, e.Amount
			if e.Actor == NoOne {
				t.Winner = -1
			}
		}
	}
	return t
}
