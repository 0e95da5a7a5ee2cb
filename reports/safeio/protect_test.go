//go:build unix

package safeio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckRefusesOthersLinkInStickyFolder: a link another user planted in
// a sticky world-writable folder is not followed (fs.protected_symlinks),
// while the folder owner's and our own links still are.
func TestCheckRefusesOthersLinkInStickyFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a link to another user")
	}
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	shared := filepath.Join(base, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(shared, "result.json")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	const other = 4242
	if err := os.Lchown(link, other, other); err != nil {
		t.Fatal(err)
	}
	_, err := Check(link, "-o")
	if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link owned by another user (uid 4242)") ||
		!strings.Contains(err.Error(), "fs.protected_symlinks") {
		t.Fatalf("Check(other's link in sticky folder) = %v", err)
	}
	// Reached through a path whose last component is not the link: the
	// link is refused wherever it is met.
	if _, err := Check(filepath.Join(shared, ".", "result.json"), "-o"); err == nil {
		t.Error("refused link reached through ./ was followed")
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Fatal("victim touched")
	}
	// Owned by the folder's owner: followed, as the kernel does.
	os.Chown(shared, other, other)
	if _, err := Check(link, "-o"); err != nil {
		t.Errorf("link owned by the folder's owner: %v", err)
	}
	// Our own link in someone else's sticky folder: followed.
	os.Lchown(link, 0, 0)
	if _, err := Check(link, "-o"); err != nil {
		t.Errorf("our own link: %v", err)
	}
	// Not sticky: followed whoever owns it.
	os.Chown(shared, 0, 0)
	os.Lchown(link, other, other)
	os.Chmod(shared, 0o777)
	if _, err := Check(link, "-o"); err != nil {
		t.Errorf("link in a folder that is not sticky: %v", err)
	}
	// A sticky folder reached through a link owned by another user
	// (a planted folder link): refused too.
	os.Chmod(shared, 0o777|os.ModeSticky)
	os.Remove(link)
	real := filepath.Join(base, "realdir")
	os.Mkdir(real, 0o755)
	dlink := filepath.Join(shared, "d")
	os.Symlink(real, dlink)
	os.Lchown(dlink, other, other)
	if _, err := Check(filepath.Join(dlink, "x.json"), "-o"); err == nil || !strings.Contains(err.Error(), dlink+" is a symbolic link owned by another user") {
		t.Errorf("other's folder link in sticky folder: %v", err)
	}
}

// TestWriteRenameErrorNamesUserPath: a rename that fails (the target became
// a folder after the check) names the user's path, not the temporary file.
func TestWriteRenameErrorNamesUserPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	tg, err := Check(p, "-o")
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(p, 0o755)
	os.WriteFile(filepath.Join(p, "x"), nil, 0o644)
	err = tg.Write(func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	if err == nil || strings.Contains(err.Error(), "simctl-tmp") || !strings.HasPrefix(err.Error(), "writing "+p+": ") {
		t.Fatalf("failed rename: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %v", ents)
	}
}

// TestStaleTempsRemoved: the first write into a folder removes temporary
// files a killed process left (the pattern, older than StaleTemp, ours),
// and nothing else.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-StaleTemp - time.Minute)
	mk := func(name string, age time.Time) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("x"), 0o644)
		os.Chtimes(p, age, age)
		return p
	}
	stale := mk(".out.json.simctl-tmp-12345", old)
	fresh := mk(".out.json.simctl-tmp-999", time.Now())
	keep := []string{
		fresh,
		mk(".out.json.simctl-tmp-12x", old),   // not digits
		mk("out.json.simctl-tmp-1", old),      // no leading dot
		mk(".out.json.simctl-tmp-1.bak", old), // more after the digits
		mk("notes.txt", old),
	}
	if os.Geteuid() == 0 {
		keep = append(keep, mk(".theirs.simctl-tmp-7", old))
		os.Chown(keep[len(keep)-1], 4242, 4242)
	}
	if err := WriteFile(filepath.Join(dir, "out.json"), "-o", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temporary file kept: %v", err)
	}
	for _, p := range keep {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(p), err)
		}
	}
}

// TestFIFOWithoutReaderAnswersInterrupt: a write to a FIFO nobody reads
// waits for a reader, but gives up when Interrupt closes (the first
// Ctrl-C), saying so; with a reader it writes through.
func TestFIFOWithoutReaderAnswersInterrupt(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tg, err := Check(fifo, "-o")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	Interrupt = stop
	defer func() { Interrupt = nil }()
	done := make(chan error, 1)
	go func() {
		done <- tg.Write(func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	}()
	time.Sleep(100 * time.Millisecond)
	close(stop)
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "writing "+fifo+": interrupted while waiting for a reader") {
			t.Fatalf("no reader, interrupted: %v", err)
		}
	case <-time.After(10 * time.Second): // liveness bound, not a speed test
		t.Fatal("the write still waits for a reader 10 s after the interrupt")
	}
	Interrupt = make(chan struct{})
	got := make(chan string, 1)
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
	if err := tg.Write(func(w io.Writer) error { _, err := io.WriteString(w, strings.Repeat("y", 1<<20)); return err }); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != strings.Repeat("y", 1<<20) {
		t.Fatalf("the reader got %d bytes", len(s))
	}
}
