package lab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The lab's documents, traces, reports and messages are checked against
// the CLI's own: the simctl command, built once for the tests that need
// it (without VCS stamping, so that documents record the version the
// test binary's do), runs the command line the lab's answer must equal.

var (
	cliOnce sync.Once
	cliDir  string
	cliBin  string
	cliErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

// cliMain runs simctl with args and returns its exit code, as Main would.
func cliMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cliOnce.Do(func() {
		if cliDir, cliErr = os.MkdirTemp("", "simctl-lab-test-"); cliErr != nil {
			return
		}
		cliBin = filepath.Join(cliDir, "simctl")
		out, err := exec.Command("go", "build", "-buildvcs=false", "-o", cliBin, "simctl/cmd/simctl").CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build simctl: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		fmt.Fprintln(stderr, cliErr)
		return -1
	}
	cmd := exec.CommandContext(ctx, cliBin, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	fmt.Fprintln(stderr, err)
	return -1
}

// simctl runs simctl and returns its exit code, stdout and stderr.
func simctl(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cliMain(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, x, y)
		}
	}
	return ""
}
