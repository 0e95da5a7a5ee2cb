package main

import (
	"flag"
	"io"
	"testing"
)

// TestQuietDropsScenarioWarnings: with --quiet a command's scenario
// warnings (a policy its tactics overrule, written in the file) go
// nowhere, as the README says (errors only); without it they are written.
func TestQuietDropsScenarioWarnings(t *testing.T) {
	for _, c := range []struct {
		args  []string
		quiet bool
	}{{[]string{"x.yaml", "--quiet"}, true}, {[]string{"x.yaml"}, false}} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		var o common
		o.register(fs, gQuiet, "")
		if _, done, _ := parseArgs("run", fs, c.args, io.Discard, io.Discard); done {
			t.Fatalf("%v: parse stopped", c.args)
		}
		src := &source{}
		if got := src.warnTo() == io.Discard; got != c.quiet {
			t.Errorf("%v: warnings dropped = %v, want %v", c.args, got, c.quiet)
		}
	}
}
