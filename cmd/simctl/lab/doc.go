// Package lab is simctl serve: the balance lab in a browser. It is the
// second front end to the code the CLI runs. Every kind of job (run,
// sweep, compare, value, matrix, tournament, find, optimize) turns the
// page's JSON into the request of the application layer (cmd/simctl/app)
// that the CLI's command builds from its flags, and calls the same Run on
// the editor's text; a trace finds its encounter through app.Trace, the
// report download is app.Report's bundle, the documentation panes,
// template and schema are app.Rules, Policies, Tactic, Starter and Schema,
// and every document is the CLI's JSON. The lab runs no command line and
// imports nothing of package main (cmd/simctl), which only turns simctl
// serve's flags into a Config and calls Serve.
//
// Files: serve.go (Serve, the server, its security middleware), jobs.go
// (jobs, the queue, Server-Sent Events), hooks.go (the observer's
// progress and partial documents as page events), kinds.go (the
// tournament, find and optimize tabs), api.go (the other endpoints),
// save.go and suggest.go (saving into --dir, option suggestions), web/
// (the embedded page). docs/serve.md documents the API, the limits and
// the security model.
//
// Concurrency: the server's job table and queue are guarded by server.mu;
// a job's events and results by serveJob.mu. Each running job owns its
// games and tallies as the CLI's runners do; nothing a job computes is
// shared with another job. Jobs run on their own goroutines, at most
// Config.MaxJobs at once, and stop when their context does (a cancel
// request, expiry, Serve's shutdown); close waits for them.
package lab
