package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"simctl/sim/msg"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/results"
	"simctl/reports/safeio"
)

func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("o", "", "`DIR` write the report folder DIR (report.md, report.html, PNG figures); required")
	title := fs.String("title", "", "`TEXT` report title (default: Balance report: SCENARIO)")
	quiet := fs.Bool("quiet", false, "no warnings on stderr; errors only")
	langFlag := langFlag(fs, "the report's own words")
	fontFile := fontFlag(fs)
	pos, done, code := parseArgs("report", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langFlag)
	if err != nil {
		return usageError(stderr, "report", "%v", err)
	}
	// Before reading any input: a Korean report without a Hangul font
	// fails at once, naming the package to install.
	if err := reports.UseFigureFont(lang, *fontFile); err != nil {
		sayErr(stderr, "report", err)
		return exitUsage
	}
	if len(pos) == 0 || *out == "" {
		return usageError(stderr, "report", "give the RESULT.json files and -o DIR, e.g. simctl report duel.json -o report/")
	}
	// "report/" names the folder report: without Clean, its parent would
	// be taken as "report" itself, which does not exist yet.
	*out = filepath.Clean(*out)
	if err := safeio.CheckDir(*out, "-o", false); err != nil {
		sayErr(stderr, "report", err)
		return exitUsage
	}
	req := &app.ReportRequest{Title: *title, Lang: lang, Command: results.ShellJoin(append([]string{"simctl", "report"}, args...))}
	for _, p := range pos {
		in, err := results.ReadInputContext(ctx, p)
		if err != nil {
			sayErr(stderr, "report", err)
			return exitFailure
		}
		req.Inputs, req.Names = append(req.Inputs, in), append(req.Names, p)
	}
	// Compile's warnings on the process's stderr, as every command's.
	obs := &app.Observer{Warn: &app.LangWriter{Writer: os.Stderr, Lang: langOf(stderr)}}
	if !*quiet {
		obs.Note = func(m msg.Text) { say(stderr, "report", "%v", m) }
	}
	rb, err := app.Report(ctx, req, obs)
	if err != nil {
		return appError(stderr, "report", err)
	}
	b := &reports.Bundle{Title: rb.Title, Inputs: rb.Inputs, Version: rb.Version, Command: rb.Command, Lang: rb.Lang, Section: rb.Section}
	files, err := b.Write(*out)
	if err != nil {
		sayErr(stderr, "report", err)
		return exitFailure
	}
	for _, f := range files {
		fmt.Fprintln(stdout, filepath.Join(*out, f))
	}
	return exitOK
}

// yamlText renders a YAML value on one line, in flow style.
func yamlText(n *yaml.Node) string { return app.YAMLText(n) }

// figureOut writes a figure to --plot FILE (.png or .svg).
func figureOut(t *safeio.Target, f *reports.Figure, err error) error {
	if err != nil {
		return err
	}
	return t.Write(func(w io.Writer) error {
		if strings.HasSuffix(strings.ToLower(t.Path()), ".svg") {
			return f.SVG(w)
		}
		return f.PNG(w)
	})
}
