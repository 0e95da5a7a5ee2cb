package lab

import (
	"errors"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// The lab's search tabs: tournament (select the best of listed options
// with a guarantee), find (the encounters matching a condition) and
// optimize (search a space of settings, the incumbent live). Like the
// other kinds they run on the application layer (cmd/simctl/app), as the
// CLI's commands do, so what the page shows is what the command prints.
var searchKinds = map[string]bool{"tournament": true, "find": true, "optimize": true}

// maxSearchCandidates bounds an optimize request's space as written
// (before --where): each candidate is a row of its document.
const maxSearchCandidates = 2000

// checkSearch validates a search kind's fields; mult is the encounters a
// request may play per n (its candidates), what names them; why is the
// problem (the zero Text: none).
func checkSearch(req *jobRequest) (mult int64, what, why msg.Text) {
	switch req.Kind {
	case "tournament":
		if len(req.Options) < 2 || len(req.Options) > maxOptions {
			return 0, msg.Text{}, msg.New("options: a tournament needs 2 to %d options, got %d", maxOptions, len(req.Options))
		}
		if err := checkNamedSets(req.Options, "options"); err != nil {
			return 0, msg.Text{}, msg.New("%v", err)
		}
		return int64(len(req.Options)), msg.New("options"), msg.Text{}
	case "find":
		if req.Where == "" {
			return 0, msg.Text{}, msg.New(`where: find needs a condition, e.g. side("heroes").won and rounds >= 5`)
		}
		return 1, msg.New("encounters"), msg.Text{}
	case "optimize":
		if len(req.Vary) < 1 || len(req.Vary) > 3 {
			return 0, msg.Text{}, msg.New("vary: optimize searches one to three paths here (PATH=RANGE, e.g. heroes.Fighter.init=1:5), got %d", len(req.Vary))
		}
		mult = 1
		for _, v := range req.Vary {
			a, err := results.ParseVary(v)
			if err != nil {
				return 0, msg.Text{}, msg.New("%s %q: %v", "vary", v, err)
			}
			mult *= int64(len(a.Values))
			if mult > maxSearchCandidates {
				return 0, msg.Text{}, msg.New("vary: more than the %d candidates a search here may have", maxSearchCandidates)
			}
		}
		// The confirmation replays the finalists on fresh encounters: up
		// to about twice the selection's cap each.
		return 2 * mult, msg.New("candidates (with the confirmation)"), msg.Text{}
	}
	return 0, msg.Text{}, msg.New("unknown search kind %s", req.Kind)
}

// searchArgs is the command line of a search kind after SCENARIO, -n,
// --seed and --set.
func searchArgs(req *jobRequest) []string {
	var args []string
	switch req.Kind {
	case "tournament":
		for _, o := range req.Options {
			args = append(args, "--option", optionSpec(o))
		}
	case "optimize":
		for _, v := range req.Vary {
			args = append(args, "--vary", v)
		}
	}
	if req.Where != "" {
		args = append(args, "--where", req.Where)
	}
	if req.Side != "" && req.Kind != "find" {
		args = append(args, "--side", req.Side)
	}
	return args
}

// checkWhere compiles a find's or optimize's condition as the job will,
// against the compiled scenario (find) or the axes (optimize): the
// problem, with the column, or the zero Text.
func checkWhere(req *jobRequest, sc *scenario.Scenario, g sim.Game) msg.Text {
	var err error
	switch {
	case req.Where == "":
		return msg.Text{}
	case req.Kind == "find":
		err = app.CheckFindWhere(sc, g, req.Where)
	case req.Kind == "optimize":
		var axes []results.Axis
		for _, v := range req.Vary {
			a, err := results.ParseVary(v) // checkSearch parsed each
			if err != nil {
				return msg.New("%s %q: %v", "vary", v, err)
			}
			axes = append(axes, a)
		}
		err = app.CheckOptimizeWhere(axes, req.Where)
	default:
		return msg.Text{}
	}
	if err == nil {
		return msg.Text{}
	}
	var at *lang.At
	if errors.As(err, &at) {
		return msg.New("where: column %d: %v", at.Pos+1, err)
	}
	return msg.New("%s: %v", "where", err)
}
