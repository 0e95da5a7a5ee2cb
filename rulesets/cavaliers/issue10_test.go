package cavaliers

import (
	"reflect"
	"strings"
	"testing"

	"simctl/sim"
)

// Interposing "as a combined action with a Move" spends the interposer's
// Move for the round.
func TestInterposeMoveSpendsTheMove(t *testing.T) {
	// X1 (10) attacks Ward in Area 0; Guard (6, Area 1) interposes with a
	// Move into Area 0. On its own turn Guard wants to Move to Area 2 (its
	// script): its Move is spent, so it stays in Area 0. Round 2: free again.
	a := row("name: Ward, specialty: none, attribute: d6, initiative_dice: [1], %s, area: 0, policy: script", hit) +
		row("name: Guard, specialty: vigilance, attribute: d10, initiative_dice: [6], %s, area: 1, policy: {name: script, interpose: [Ward], move: 2}", hit)
	b := row("name: X1, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: {name: script, target: Ward}", hit)
	g := compile(t, scen(2, "budget", a, b))
	_, c, log, tb := play(g, 1)
	r1 := log.ev.Round(1)
	for _, want := range []string{"interrupt Guard X1 rule='interpose with a Move'", "move Guard - roll=1 need=0 rule=",
		"lost Guard rule='move spent interposing'"} {
		if !r1.Has(t, want) {
			t.Errorf("round 1 lacks %q\n%s", want, log)
		}
	}
	if r1.Has(t, "move Guard - roll=0 need=1 rule=") {
		t.Errorf("Guard moved twice in round 1\n%s", log)
	}
	if !log.ev.Round(2).Has(t, "move Guard - roll=0 need=1 rule=") {
		t.Errorf("Guard should move on its round-2 turn\n%s", log)
	}
	if tb.Area(idx(t, g, "Guard")) != 1 || count(g, c, 0, "moves") != 2 {
		t.Errorf("Guard ends in Area %d with %d moves; want Area 1, 2 moves\n%s", tb.Area(idx(t, g, "Guard")), count(g, c, 0, "moves"), log)
	}
}

func TestInterposeMoveNeedsAnUnspentMove(t *testing.T) {
	// Guard (10) Moves on its own turn first (to Area 2, where nothing is), then
	// X1 (6) attacks Ward in Area 1, adjacent to Guard: Guard's Move is
	// spent, so it cannot interpose from there (it still may from the same
	// Area, which a second case checks).
	a := row("name: Ward, specialty: none, attribute: d6, initiative_dice: [1], %s, area: 1, policy: script", hit) +
		row("name: Guard, specialty: vigilance, attribute: d10, initiative_dice: [10], %s, area: 1, policy: {name: script, interpose: [Ward], move: MOVE}", hit)
	b := row("name: X1, specialty: none, attribute: d10, initiative_dice: [6], %s, area: 1, policy: {name: script, target: Ward}", hit)
	g := compile(t, scen(1, "unlock", strings.Replace(a, "MOVE", "2", 1), b))
	_, c, log, tb := play(g, 1)
	if !log.has("move Guard - roll=1 need=2 rule=") || count(g, c, 0, "interposes") != 0 || tb.HP(idx(t, g, "Ward")) != 99 {
		t.Errorf("Guard, having Moved, interposed from the adjacent Area\n%s", log)
	}
	// Staying in Ward's Area it interposes without a Move.
	g = compile(t, scen(1, "unlock", strings.Replace(a, "MOVE", "1", 1), b))
	_, c, log, tb = play(g, 1)
	if count(g, c, 0, "interposes") != 1 || tb.HP(idx(t, g, "Guard")) != 99 {
		t.Errorf("Guard in Ward's Area should interpose\n%s", log)
	}
}

// Several Initiative specialties: one roll, of the specialty the policy
// picks, whose [+] buy on that specialty's ladder.
func TestSeveralSpecialties(t *testing.T) {
	// Duelist has ranks in Impulse (d6, pinned 6: one [+]) and Timing (d10
	// + d6, pinned 5, 6: total 11, one [+]). Rolling Impulse it ranks
	// below Fast (10) and seizes before it (Seize costs 1); rolling Timing
	// it ranks first, cannot seize (2) but reprises its miss (1).
	a := row(`name: Duelist, specialty: impulse, attribute: d6, initiative_dice: [6], specialties: [{specialty: timing, attribute: d10, pool: d6, initiative_dice: [5, 6]}], hp: 100, attack: "1", defence: "5", damage: "1", policy: {name: script, seize: ['*'], reprise: true, roll: ROLL}`)
	b := row("name: Fast, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: script", miss)
	for _, tc := range []struct {
		roll         string
		order        []string
		seizes, repr int64
		line         string
	}{
		{"0", []string{"Duelist", "Fast"}, 1, 0, "initiative Duelist roll=6 amount=1 rule=impulse"},
		{"1", []string{"Duelist", "Fast"}, 0, 1, "initiative Duelist roll=11 amount=1 rule=timing"},
	} {
		g := compile(t, scen(1, "budget", strings.Replace(a, "ROLL", tc.roll, 1), b))
		_, c, log, tb := play(g, 1)
		// The setup line's wording is what is checked here.
		if !strings.Contains(log.text, "Duelist (side 0, impulse, pool d6, also timing d10+1d6) hp 100") {
			t.Errorf("roll %s: the setup line should list both specialties\n%s", tc.roll, log)
		}
		if !log.has(tc.line) {
			t.Errorf("roll %s: log lacks %q\n%s", tc.roll, tc.line, log)
		}
		if got := turns(log); !reflect.DeepEqual(got, [][]string{tc.order}) {
			t.Errorf("roll %s: order %v, want %v\n%s", tc.roll, got, tc.order, log)
		}
		if count(g, c, 0, "seizes") != tc.seizes || count(g, c, 0, "reprises") != tc.repr {
			t.Errorf("roll %s: seizes %d reprises %d, want %d %d\n%s", tc.roll, count(g, c, 0, "seizes"), count(g, c, 0, "reprises"), tc.seizes, tc.repr, log)
		}
		if want := []Specialty{Impulse, Timing}[tc.roll[0]-'0']; tb.Specialty(0) != want {
			t.Errorf("roll %s: Specialty %v, want %v", tc.roll, tb.Specialty(0), want)
		}
	}
}

func TestSeveralSpecialtiesErrors(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{`specialty: impulse, attribute: d6, specialties: [{specialty: impulse, attribute: d8}]`, "specialties[0].specialty: impulse is given twice"},
		{`specialty: none, attribute: d6, specialties: [{specialty: timing, attribute: d8}]`, "specialties: specialty is none"},
		{`specialty: impulse, attribute: d6, specialties: [{specialty: none, attribute: d8}]`, "specialties[0].specialty"},
		{`specialty: impulse, attribute: d6, specialties: [{specialty: timing}]`, "specialties[0].attribute: missing"},
		{`specialty: impulse, attribute: d6, specialties: [{specialty: timing, attribute: d8, pool: 1d6, initiative_dice: [9, 1]}]`, "specialties[0].initiative_dice"},
		{`specialty: impulse, attribute: d6, specialties: [{specialty: timing, attribute: d8, speed: 3}]`, "specialties[0].speed"},
		{`specialty: impulse, attribute: d6, specialties: timing`, "specialties: expected a list"},
	} {
		src := scen(1, "budget", row("name: A, %s, %s", tc.field, hit), row("name: B, specialty: none, attribute: d6, %s", hit))
		_, err := compileErr(src)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "test.yaml:") {
			t.Errorf("%s: error %v, want one naming %q with its position", tc.field, err, tc.want)
		}
	}
}

// FirstActor: the first to Move or attack; a turn doing neither is no
// action. FirstInOrder: the head of round 1's ranking, seizes aside.
func TestFirstActorAndInOrder(t *testing.T) {
	// Idle (10) stands alone in Area 0 and does nothing; Runner (8) Moves.
	a := row("name: Idle, specialty: none, attribute: d10, initiative_dice: [10], %s, area: 0, policy: script", hit)
	b := row("name: Runner, specialty: none, attribute: d10, initiative_dice: [8], %s, area: 2, policy: {name: script, move: 1}", hit)
	o, _, log, _ := play(compile(t, scen(1, "budget", a, b)), 1)
	if o.FirstInOrder != 0 || o.FirstActor != 1 {
		t.Errorf("FirstInOrder %d FirstActor %d, want 0 1\n%s", o.FirstInOrder, o.FirstActor, log)
	}
	// A seizer is the first actor; the head of the ranking stays first in
	// the order.
	a = row("name: Fast, specialty: none, attribute: d10, initiative_dice: [10], %s, policy: script", hit)
	b = row("name: Seizer, specialty: impulse, attribute: d8, initiative_dice: [6], %s, policy: {name: script, seize: [Fast]}", hit)
	o, _, log, _ = play(compile(t, scen(1, "budget", a, b)), 1)
	if o.FirstInOrder != 0 || o.FirstActor != 1 {
		t.Errorf("seize: FirstInOrder %d FirstActor %d, want 0 1\n%s", o.FirstInOrder, o.FirstActor, log)
	}
	// Everyone enters in round 2: round 2 is the first with turns.
	a = row("name: Late, specialty: none, attribute: d10, initiative_dice: [3], %s, enters: 2, policy: script", hit)
	b = row("name: Later, specialty: none, attribute: d10, initiative_dice: [9], %s, enters: 2, policy: script", hit)
	o, _, log, _ = play(compile(t, scen(2, "budget", a, b)), 1)
	if o.FirstInOrder != 1 || o.FirstActor != 1 {
		t.Errorf("late: FirstInOrder %d FirstActor %d, want 1 1\n%s", o.FirstInOrder, o.FirstActor, log)
	}
}

func TestDrawCause(t *testing.T) {
	a := row("name: A, specialty: none, attribute: d10, %s, policy: script", miss)
	b := row("name: B, specialty: none, attribute: d10, %s, policy: script", miss)
	o, _, log, _ := play(compile(t, scen(3, "budget", a, b)), 1)
	if o.Winner != -1 || o.Draw != sim.DrawMaxRounds || !log.has("end - - amount=3 rule="+sim.DrawCauseNames[sim.DrawMaxRounds]) {
		t.Errorf("outcome %+v, want a max_rounds draw\n%s", o, log)
	}
	b = row("name: B, specialty: none, attribute: d10, hp: 1, attack: \"1\", defence: \"5\", damage: \"1\", policy: script")
	a = row("name: A, specialty: none, attribute: d10, %s, policy: script", hit)
	if o, _, _, _ = play(compile(t, scen(3, "budget", a, b)), 1); o.Winner != 0 || o.Draw != sim.DrawNone {
		t.Errorf("outcome %+v, want side 0 to win", o)
	}
}
