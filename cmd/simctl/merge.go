package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"simctl/sim/msg"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
)

func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	langF := langFlag(fs, "simctl's messages")
	var c common
	c.register(fs, gFormat|gQuiet, "")
	partial := fs.Bool("allow-partial", false, "accept a set of shards that misses encounters (the result is marked incomplete)")
	pos, done, code := parseArgs("merge", fs, args, stdout, stderr)
	if done {
		return code
	}
	if _, err := resolveLang(*langF); err != nil {
		return usageError(stderr, "merge", "%v", err)
	}
	if len(pos) == 0 {
		return usageError(stderr, "merge", "give the RESULT.json files to merge (the JSON of simctl run --json --shard k/K)")
	}
	format, err := c.resolveFormat()
	if err != nil {
		return usageError(stderr, "merge", "%v", err)
	}
	target, err := checkOut(c.out, "-o")
	if err != nil {
		sayErr(stderr, "merge", err)
		return exitUsage
	}
	// Run results, or the documents of one analysis kind, which its
	// table entry merges.
	var rs []*results.Result
	var docs []any
	var paths, kinds []string
	for _, p := range pos {
		in, err := results.ReadInputContext(ctx, p)
		if err != nil {
			if ctx.Err() != nil || isInterrupt(err) {
				say(stderr, "merge", "interrupted while reading %s; nothing written", p)
				return exitInterrupted
			}
			sayErr(stderr, "merge", mergeInputError(ctx, p, err))
			return exitFailure
		}
		if in.Run != nil {
			rs = append(rs, in.Run)
		} else {
			docs, paths = append(docs, in.Document()), append(paths, p)
		}
		if k := in.DocKind(); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) > 1 {
		given := slices.Clone(kinds)
		if i := slices.Index(given, ""); i >= 0 {
			given[i] = "run" // a run result has no kind
		}
		say(stderr, "merge", "documents of different kinds given (%s); merge the shards of one experiment at a time", strings.Join(given, ", "))
		return exitFailure
	}
	if len(docs) > 0 {
		return mergeKind(kinds[0], docs, paths, target, *partial, format, stdout, stderr)
	}
	m, err := results.Merge(rs)
	if err != nil {
		fmt.Fprintln(stderr, "simctl merge:", strings.TrimPrefix(langOf(stderr).Err(err), "merge: "))
		return exitFailure
	}
	covered, whole := results.Coverage(rs)
	if covered < whole && !c.quiet {
		say(stderr, "merge", "the results cover %d of the run's %d encounters (shards missing or interrupted); the merged result is marked incomplete", covered, whole)
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { return reports.WriteResult(m, w, format) }); err != nil {
		sayErr(stderr, "merge", err)
		return exitFailure
	}
	if covered < whole && !*partial {
		say(stderr, "merge", "incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeKind merges the shards of one analysis kind with its table
// entry's Merge, or says why it cannot; an incomplete set of shards is
// said, and fails unless --allow-partial.
func mergeKind(kind string, docs []any, paths []string, target *safeio.Target, partial bool, format reports.Format, stdout, stderr io.Writer) int {
	k := app.Lookup(kind)
	if k == nil || k.Merge == nil {
		say(stderr, "merge", "%s is a %s document, which does not shard; there is nothing to merge", paths[0], kind)
		return exitFailure
	}
	m, err := k.Merge(docs, paths)
	if err != nil {
		fmt.Fprintln(stderr, "simctl", langOf(stderr).Err(err))
		return exitFailure
	}
	if m.Missing.Format != "" {
		say(stderr, "merge", "%v", m.Missing)
	}
	if m.JSON {
		format = reports.JSON
	}
	// The document in English, as every command writes its documents
	// unless --lang asks otherwise; merge's --lang is for its messages.
	if err := writeOut(target, stdout, func(w io.Writer) error { return k.Write(m.Doc, w, format, i18n.En) }); err != nil {
		sayErr(stderr, "merge", err)
		return exitFailure
	}
	if m.Missing.Format != "" && !partial {
		say(stderr, "merge", "incomplete set of shards; give the missing ones, or --allow-partial to accept it")
		return exitFailure
	}
	return exitOK
}

// mergeInputError says, of a file given to merge that does not read as
// a simctl document, why it does not merge: a document of a kind that
// does not shard (find's, which no reader takes) says so; one that is no
// JSON object, or of no kind simctl knows, says what merge takes. A
// damaged document (a run result's too: no kind) keeps its reader's
// error, which says what such a document is.
func mergeInputError(ctx context.Context, path string, err error) error {
	if st, serr := os.Stat(path); serr != nil || !st.Mode().IsRegular() {
		return err
	}
	data, rerr := safeio.ReadFile(ctx, path, safeio.MaxResultBytes, "simctl JSON document")
	if rerr != nil {
		return err
	}
	var head struct {
		Kind *string `json:"kind"`
	}
	if json.Unmarshal(data, &head) == nil {
		if head.Kind == nil {
			return err // a run result's reader said what one is
		}
		k := app.Lookup(*head.Kind)
		switch {
		case k != nil && k.Merge == nil:
			return msg.Errorf("%s is a %s document, which does not shard; there is nothing to merge", path, *head.Kind)
		case k != nil || *head.Kind == "":
			return err // damaged
		}
	}
	// Not a JSON object, or one of a kind simctl does not know.
	// The kinds named are those whose table entry merges shards (the
	// tournament's refuses them); TestMergeInputErrorKinds holds them to
	// the table.
	return msg.Errorf("%v; merge adds the shards of one experiment, as JSON: those of simctl run --json --shard k/K, or of sweep, compare, value, matrix or optimize with --shard k/K --format json", err)
}
