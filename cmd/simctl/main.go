// Command simctl is the CLI of the simctl balance lab: its commands and
// their flags. A command turns its flags into the request of the
// application layer (cmd/simctl/app), which plays the job over the
// packages sim, rulesets, agents, stats and reports, and renders the
// document it returns. simctl serve starts the web lab (cmd/simctl/lab),
// the other front end to the same application layer.
//
//	simctl run SCENARIO [-n N] [--seed S] [--workers W] [--set PATH=VALUE]... [--precision W] [--shard k/K] [--format F] [-o FILE] [--plot FILE]
//	simctl trace SCENARIO --seed S --encounter I [--set PATH=VALUE]...
//	simctl sweep SCENARIO --vary PATH=RANGE [--vary PATH2=RANGE] [--precision W] [--format F] [--plot FILE]
//	simctl compare SCENARIO --option NAME='--set PATH=VALUE ...'... [--precision W] [--format F] [--plot FILE]
//	simctl merge SHARD.json... [--format F] [-o FILE]
//	simctl report RESULT.json... -o DIR
//	simctl check SCENARIO...
//	simctl init [RULESET] [-o FILE] [--force]
//	simctl scenarios [show NAME]
//	simctl rules NAME
//	simctl policies [RULESET] | simctl policies show NAME
//	simctl schema [-o FILE]
//	simctl serve [--addr HOST:PORT] [--dir DIR] [--max-encounters N] [--max-jobs J] [--queue Q] [--workers W]
//	simctl help [COMMAND | flags]
//
// SCENARIO is a YAML file or the name of a built-in scenario (d20/duel).
// The flags the commands share (-n, --seed, --workers, --set, --precision,
// --format, -o, --quiet, --progress) are parsed once, in flags.go, and
// documented once, in help.go (simctl help flags) and the README; every
// command's help lists the flags its own parser defines.
//
// Exit codes: 0 success; 1 failure while running; 2 bad command line;
// 3 invalid scenario; 130 interrupted (what finished is still written).
package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/cmd/simctl/early"
	"simctl/reports/safeio"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitScenario    = 3
	exitInterrupted = 130
)

// abandon is closed on a second Ctrl-C; abandonable is set while a command
// can still write what finished without waiting for the work in play (a
// run: sim.RunConfig.Abandon). Otherwise the second signal exits at once.
var (
	abandon     = make(chan struct{})
	abandonable atomic.Bool
	// ownsInterrupt is set by a command that says itself what an
	// interrupt does (simctl serve: cancelling its jobs, shutting down).
	ownsInterrupt atomic.Bool
)

// abandonGrace is how long a command that can abandon its work has, after
// the second signal, to write what finished before the process exits.
const abandonGrace = 3 * time.Second

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	safeio.Interrupt = ctx.Done()
	sigs := early.Signals // caught since the first inits
	// Said in the language of the command's other messages (say.go).
	stderr := &app.LangWriter{Writer: os.Stderr, Lang: argLang(os.Args[1:])}
	go func() {
		<-sigs
		if !ownsInterrupt.Load() {
			say(stderr, "", "interrupted; finishing the encounters in play and writing what finished (interrupt again to stop at once)")
		}
		cancel()
		<-sigs
		if abandonable.Load() {
			close(abandon)
			time.Sleep(abandonGrace)
		}
		safeio.RemoveTemps()
		say(stderr, "", "stopped at once")
		os.Exit(exitInterrupted)
	}()
	code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(code)
}
