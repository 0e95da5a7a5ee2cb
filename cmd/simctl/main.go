// Command simctl is the CLI of the simctl balance lab: a thin layer over
// the packages sim, rulesets, agents, stats and reports.
//
//	simctl run SCENARIO [-n N] [--seed S] [--workers W] [--set PATH=VALUE]... [--precision W] [--shard k/K] [--format F] [-o FILE]
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
	"syscall"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitScenario    = 3
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
