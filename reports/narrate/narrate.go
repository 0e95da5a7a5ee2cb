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
	"strings"

	"simctl/reports/i18n"
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
	// Lang is the narration's language (simctl trace --lang); "": English.
	Lang i18n.Lang
	// Timeline, if not nil, receives the encounter's timeline, built from
	// the referee's structured events (as far as the narration went).
	Timeline *sim.Timeline
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
	l := lim.Lang.Or()
	side0, side1 := sc.Sides[0].Name, sc.Sides[1].Name
	lw := &lineWriter{ctx: ctx, w: bw, max: lim.Lines, side0: side0, side1: side1}
	log := &sim.Log{W: lw, Names: names}
	if l != i18n.En {
		log.Tr = func(format string, args []any) string {
			return l.Sprintf(format, sideArgs(format, args, side0, side1)...)
		}
	}
	// English keeps its lines byte for byte as they always were.
	if l == i18n.En {
		fmt.Fprintf(bw, "%s (%s)  seed %d  encounter %d\n", sc.Name, sc.Ruleset, seed, enc)
	} else {
		bw.WriteString(l.T("trace.header", sc.Name, sc.Ruleset, seed, enc) + "\n")
	}
	o, t, err := replayLogged(g, seed, enc, log)
	if err == nil {
		lw.flush()
	}
	if lim.Timeline != nil && (err == nil || errors.Is(err, errTruncated)) {
		*lim.Timeline = *sim.NewTimeline(log.Events, g.Roster(), [2]string{side0, side1})
	}
	switch {
	case errors.Is(err, errTruncated):
		if l == i18n.En {
			fmt.Fprintf(bw, "… truncated at %d lines", lw.lines)
			if lim.Command != "" {
				fmt.Fprintf(bw, "; run `%s` for the rest", lim.Command)
			}
		} else {
			bw.WriteString(l.N("trace.truncated", int64(lw.lines)))
			if lim.Command != "" {
				bw.WriteString(l.T("trace.truncated.rest", lim.Command))
			}
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
	if l == i18n.En {
		fmt.Fprintf(bw, "\ncounted: ")
		if o.Winner >= 0 {
			fmt.Fprintf(bw, "winner %s", sc.Sides[o.Winner].Name)
		} else {
			bw.WriteString("draw")
		}
		fmt.Fprintf(bw, ", rounds %d, survivors %s %d / %s %d", o.Rounds, side0, o.Survivors[0], side1, o.Survivors[1])
		if o.FirstActor >= 0 {
			fmt.Fprintf(bw, ", first to act %s", names[o.FirstActor])
		}
	} else {
		parts := []string{l.T("trace.counted.draw")}
		if o.Winner >= 0 {
			parts[0] = l.T("trace.counted.winner", sc.Sides[o.Winner].Name)
		}
		parts = append(parts, l.T("trace.counted.rounds", o.Rounds), l.T("trace.counted.survivors", side0, o.Survivors[0], side1, o.Survivors[1]))
		if o.FirstActor >= 0 {
			parts = append(parts, l.T("trace.counted.first", names[o.FirstActor]))
		}
		bw.WriteString("\n" + l.T("trace.counted", strings.Join(parts, ", ")))
	}
	bw.WriteString("\n")
	// The counters are the result's own names (as the JSON writes them).
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

// sideName prints a side's name for any verb: a translated narration
// line gets the side's name where the English one has its number (the
// English lines get theirs from SideNames).
type sideName string

func (s sideName) Format(f fmt.State, _ rune) { io.WriteString(f, string(s)) }

// sideArgs replaces the arguments of format that are side numbers ("side
// %d") by the sides' names.
func sideArgs(format string, args []any, side0, side1 string) []any {
	if !strings.Contains(format, "side %d") {
		return args
	}
	out := append([]any(nil), args...)
	k := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			i++
			continue
		}
		if strings.HasSuffix(format[:i], "side ") && k < len(out) {
			if n, ok := out[k].(int); ok && (n == 0 || n == 1) {
				out[k] = sideName([]string{side0, side1}[n])
			}
		}
		k++
	}
	return out
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
