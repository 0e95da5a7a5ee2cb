// Package narrate replays one encounter and narrates it, the text of
// simctl trace: turn by turn with the sides' names, bounded in lines and
// stopped by a context, then what the run counted for it. It draws
// nothing and imports only sim, so the application layer (cmd/simctl/app)
// replays a report's fights without the plotting stack of package
// reports, which forwards these names (reports.Trace and the rest).
package narrate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"simctl/sim/msg"

	"simctl/sim"
	"simctl/sim/scenario"
)

// MaxTraceLines is how many lines of narration the lab and a report
// bundle show of one encounter: a fight of 100,000 rounds between 64
// combatants narrates gigabytes, and `simctl trace` prints the rest.
const MaxTraceLines = 20_000

// TraceLimit bounds what TraceContext narrates.
type TraceLimit struct {
	// Lines is the most narration lines written; 0: no limit.
	Lines int
	// Command is the simctl trace command line that prints the whole
	// narration, named in the truncation note.
	Command string
}

// Trace replays encounter enc of a run with seed, narrating it turn by
// turn, then prints what the run counted for it (winner, rounds,
// survivors, first actor, every non-zero counter): the text of
// `simctl trace`. The narration is streamed to w as it is made.
func Trace(w io.Writer, sc *scenario.Scenario, g sim.Game, seed uint64, enc int64) error {
	return TraceContext(context.Background(), w, sc, g, seed, enc, TraceLimit{})
}

// traceStop is the panic by which the narration's writer stops a replay
// in the middle: the line cap is reached, the context is done or w
// failed. The table is the replay's own, so nothing is left half-changed
// for anyone else.
type traceStop struct{ err error }

var errTruncated = msg.Errorf("truncated")

// lineWriter passes the narration on line by line, with the sides'
// names in place of their numbers (SideNames), counts the lines and stops
// the replay at the cap, when ctx is done (checked every 256 lines) or
// when w fails.
type lineWriter struct {
	ctx          context.Context
	w            *bufio.Writer
	side0, side1 string
	line         []byte // the line being written, up to its newline
	lines        int
	since        int // lines since ctx was last checked
	max          int
}

func (l *lineWriter) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			l.line = append(l.line, rest...)
			break
		}
		l.line = append(l.line, rest[:i+1]...)
		rest = rest[i+1:]
		if _, err := l.w.WriteString(SideNames(string(l.line), l.side0, l.side1)); err != nil {
			panic(traceStop{err})
		}
		l.line = l.line[:0]
		l.lines++
		if l.max > 0 && l.lines >= l.max {
			panic(traceStop{errTruncated})
		}
		if l.since++; l.since >= 256 {
			l.since = 0
			if err := l.ctx.Err(); err != nil {
				panic(traceStop{err})
			}
		}
	}
	return len(p), nil
}

// flush writes a last line without its newline.
func (l *lineWriter) flush() {
	if len(l.line) > 0 {
		l.w.WriteString(SideNames(string(l.line), l.side0, l.side1))
		l.line = l.line[:0]
	}
}

// TraceContext is Trace with a bound: at most lim.Lines lines of
// narration (then a note naming lim.Command for the rest, and what the
// run counted, from a replay without narration), and a stop, with ctx's
// error, soon after ctx is done. It writes through a buffer, so a
// client that goes away stops it too (w's error).
func TraceContext(ctx context.Context, w io.Writer, sc *scenario.Scenario, g sim.Game, seed uint64, enc int64, lim TraceLimit) (err error) {
	var names []string
	for _, e := range g.Roster() {
		names = append(names, e.Name)
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	lw := &lineWriter{ctx: ctx, w: bw, max: lim.Lines, side0: sc.Sides[0].Name, side1: sc.Sides[1].Name}
	fmt.Fprintf(bw, "%s (%s)  seed %d  encounter %d\n", sc.Name, sc.Ruleset, seed, enc)
	o, t, err := replayLogged(g, seed, enc, &sim.Log{W: lw, Names: names})
	if err == nil {
		lw.flush()
	}
	switch {
	case errors.Is(err, errTruncated):
		fmt.Fprintf(bw, "… truncated at %d lines", lw.lines)
		if lim.Command != "" {
			fmt.Fprintf(bw, "; run `%s` for the rest", lim.Command)
		}
		bw.WriteString("\n")
		// What the run counted, from the same encounter unnarrated: one
		// encounter's play, without the cost of narrating it (the runner
		// checks the context only between encounters).
		o, t = sim.Replay(g, seed, enc, nil)
	case err != nil:
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(bw, "\ncounted: ")
	if o.Winner >= 0 {
		fmt.Fprintf(bw, "winner %s", sc.Sides[o.Winner].Name)
	} else {
		bw.WriteString("draw")
	}
	fmt.Fprintf(bw, ", rounds %d, survivors %s %d / %s %d", o.Rounds, sc.Sides[0].Name, o.Survivors[0], sc.Sides[1].Name, o.Survivors[1])
	if o.FirstActor >= 0 {
		fmt.Fprintf(bw, ", first to act %s", names[o.FirstActor])
	}
	bw.WriteString("\n")
	for s := 0; s < 2; s++ {
		fmt.Fprintf(bw, "  %s:", sc.Sides[s].Name)
		for k, name := range g.Counters() {
			if v := t.Counts.Get(s, k); v != 0 {
				fmt.Fprintf(bw, " %s=%d", name, v)
			}
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// replayLogged is sim.Replay, stopped by the log's writer (traceStop).
func replayLogged(g sim.Game, seed uint64, enc int64, log *sim.Log) (o sim.Outcome, t *sim.Tally, err error) {
	defer func() {
		if p := recover(); p != nil {
			st, ok := p.(traceStop)
			if !ok {
				panic(p)
			}
			err = st.err
		}
	}()
	o, t = sim.Replay(g, seed, enc, log)
	return o, t, nil
}

// The referees narrate sides by number ("Fighter (side 0)", "== side 1
// wins", "an Ambush Round for side 1"); a reader knows them by the names
// the scenario gives them.
var (
	sideInParens = regexp.MustCompile(`\(side ([01])([,)])`)
	sideWins     = regexp.MustCompile(`(?m)^== side ([01]) wins`)
	forSide      = regexp.MustCompile(`\bfor side ([01])\b`)
)

// SideNames puts the side names into a narration in place of side numbers.
func SideNames(text, side0, side1 string) string {
	name := func(d string) string {
		if d == "0" {
			return side0
		}
		return side1
	}
	text = sideInParens.ReplaceAllStringFunc(text, func(m string) string {
		sm := sideInParens.FindStringSubmatch(m)
		return "(" + name(sm[1]) + sm[2]
	})
	text = sideWins.ReplaceAllStringFunc(text, func(m string) string {
		return "== " + name(sideWins.FindStringSubmatch(m)[1]) + " wins"
	})
	return forSide.ReplaceAllStringFunc(text, func(m string) string {
		return "for " + name(forSide.FindStringSubmatch(m)[1])
	})
}
