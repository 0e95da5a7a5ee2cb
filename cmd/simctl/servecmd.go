package main

import (
	"context"
	"flag"
	"io"
	"runtime"
	"time"

	"simctl/cmd/simctl/lab"
)

// cmdServe is simctl serve: its flags, checked, become the lab's
// lab.Config; the lab (cmd/simctl/lab) is the server.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	langF := langFlag(fs, "simctl's messages")
	var cfg lab.Config
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "`HOST:PORT` where to listen; anything but loopback prints a warning (the page runs simulations for whoever reaches it)")
	fs.StringVar(&cfg.Dir, "dir", "", "`DIR` also offer the .yaml files of this one folder (never its subfolders, never a file outside it)")
	fs.BoolVar(&cfg.AllowSave, "allow-save", false, "let the page save scenarios into --dir (plain .yaml names in that folder only; a file changed on disk since it was loaded is not overwritten without confirmation)")
	maxEnc := &countValue{n: 10_000_000}
	fs.Var(maxEnc, "max-encounters", "`N` the most encounters one request may play, all points or options together (default 10M)")
	fs.IntVar(&cfg.MaxJobs, "max-jobs", 2, "`J` jobs running at once (default 2)")
	fs.IntVar(&cfg.Queue, "queue", 16, "`Q` jobs waiting for a slot; beyond them a request is refused with 429 (default 16)")
	fs.IntVar(&cfg.Workers, "workers", runtime.GOMAXPROCS(0), "`W` worker goroutines per job (default: the number of CPUs)")
	fs.DurationVar(&cfg.JobTTL, "job-ttl", time.Hour, "`D` how long a finished job's results stay downloadable (default 1h)")
	pos, done, code := parseArgs("serve", fs, args, stdout, stderr)
	if done {
		return code
	}
	l, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "serve", "%v", err)
	}
	// What the server says on the console; the page picks its own.
	cfg.Lang = l
	cfg.MaxEncounters = maxEnc.n
	switch {
	case len(pos) > 0:
		return usageError(stderr, "serve", "takes no arguments, got %q", pos[0])
	case cfg.AllowSave && cfg.Dir == "":
		return usageError(stderr, "serve", "--allow-save needs --dir: the folder the page may save into")
	case cfg.MaxJobs < 1:
		return usageError(stderr, "serve", "--max-jobs %d: must be at least 1", cfg.MaxJobs)
	case cfg.Queue < 0:
		return usageError(stderr, "serve", "--queue %d: must be 0 or more", cfg.Queue)
	case cfg.Workers < 1:
		return usageError(stderr, "serve", "--workers %d: must be at least 1", cfg.Workers)
	case cfg.JobTTL < time.Minute:
		return usageError(stderr, "serve", "--job-ttl %v: must be at least 1m", cfg.JobTTL)
	}
	// The lab says itself what an interrupt does: it cancels its jobs
	// and shuts down.
	ownsInterrupt.Store(true)
	defer ownsInterrupt.Store(false)
	if err := lab.Serve(ctx, cfg, stdout, stderr); err != nil {
		return appError(stderr, "serve", err)
	}
	return exitOK
}
