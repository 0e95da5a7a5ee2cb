//go:build unix

package safeio

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func write(t *Target, s string) error {
	return t.Write(func(w io.Writer) error { _, err := io.WriteString(w, s); return err })
}

func TestCheckRefusesBeforeWork(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling"))
	for _, c := range []struct{ path, want string }{
		{dir, "is a directory; give a file name"},
		{filepath.Join(dir, "missing", "x.json"), "folder " + filepath.Join(dir, "missing") + " does not exist"},
		{filepath.Join(dir, "sock", "x.json"), "is not a folder"},
		{filepath.Join(dir, "dangling"), "symbolic link that points nowhere"},
		{"", "empty file name"},
	} {
		_, err := Check(c.path, "-o")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%q) = %v, want %q", c.path, err, c.want)
		}
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if _, err := Check(filepath.Join(ro, "x.json"), "-o"); err == nil || !strings.Contains(err.Error(), "cannot write in folder") {
			t.Errorf("read-only folder: %v", err)
		}
	}
}

func TestWriteAtomicFollowsSymlinkKeepsDevices(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	tg, err := Check(link, "-o")
	if err != nil {
		t.Fatal(err)
	}
	// A failing write leaves the old file and no temporary file.
	if err := tg.Write(func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") }); err == nil ||
		!strings.Contains(err.Error(), "writing "+link+": boom") {
		t.Errorf("failed write: %v", err)
	}
	if b, _ := os.ReadFile(real); string(b) != "old" {
		t.Errorf("failed write changed the target: %q", b)
	}
	if err := write(tg, "new"); err != nil {
		t.Fatal(err)
	}
	li, _ := os.Lstat(link)
	if li.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("target = %q", b)
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("left behind: %v", ents)
	}
	// A FIFO is written through, never replaced.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	tg, err = Check(fifo, "-o")
	if err != nil {
		t.Fatal(err)
	}
	if err := write(tg, "through"); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through" {
		t.Errorf("fifo read %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	// /dev/null is a device: written through, not replaced.
	tg, err = Check("/dev/null", "-o")
	if err != nil || !tg.through {
		t.Errorf("/dev/null: %v", err)
	}
}

func TestReadFileBounded(t *testing.T) {
	start := time.Now()
	_, err := ReadFile(context.Background(), "/dev/zero", 1<<20, "scenario")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 1 MiB, the limit for a scenario") {
		t.Errorf("/dev/zero: %v", err)
	}
	_ = start
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadFile(ctx, "/dev/zero", 1<<40, "result"); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled read: %v", err)
	}
	// A FIFO nobody writes blocks in open; cancellation still returns.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := ReadFile(ctx, fifo, 10, "result"); err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("blocked FIFO: %v", err)
		}
		// Unblock the opener goroutine.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	if _, err := ReadFile(context.Background(), t.TempDir(), 10, "scenario"); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestWriteDirOnlyInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "rep")
	outside := filepath.Join(base, "victim.txt")
	os.WriteFile(outside, []byte("keep"), 0o644)
	owns := func(n string) bool { return strings.HasPrefix(n, "fig") }
	if err := WriteDir(dir, "-o", map[string][]byte{"report.md": []byte("1"), "fig1.png": []byte("a"), "fig2.png": []byte("b")}, owns); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	// A second report clears the first's extra figure, keeps the user's file.
	if err := WriteDir(dir, "-o", map[string][]byte{"report.md": []byte("2"), "fig1.png": []byte("c")}, owns); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "fig1.png notes.txt report.md" {
		t.Errorf("folder holds %v", names)
	}
	// A symlink inside the folder is refused, not written through.
	os.Remove(filepath.Join(dir, "report.md"))
	os.Symlink(outside, filepath.Join(dir, "report.md"))
	err := WriteDir(dir, "-o", map[string][]byte{"report.md": []byte("evil")}, owns)
	if err == nil || !strings.Contains(err.Error(), "report.md exists and is not a regular file") {
		t.Errorf("symlink inside: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("wrote through a symlink: %q", b)
	}
	// The folder itself a symlink: refused.
	ln := filepath.Join(base, "ln")
	os.Symlink(dir, ln)
	if err := WriteDir(ln, "-o", map[string][]byte{"a": nil}, owns); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("symlinked folder: %v", err)
	}
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	tg, err := Check(filepath.Join(dir, "x.json"), "-o")
	if err != nil {
		t.Fatal(err)
	}
	err = tg.Write(func(w io.Writer) error {
		RemoveTemps() // as a forced exit would, mid-write
		ents, _ := os.ReadDir(dir)
		if len(ents) != 0 {
			t.Errorf("temp file survived RemoveTemps: %v", ents)
		}
		return nil
	})
	if err == nil {
		t.Error("write whose temp file vanished succeeded")
	}
}
