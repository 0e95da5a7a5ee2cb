// Package safeio is how every simctl command reads its inputs and writes
// its outputs, so that no command destroys what it was not asked to
// replace and no input can exhaust memory.
//
// Outputs are checked before any work (Check), then written atomically
// (Target.Write: a temporary file next to the target, renamed over it once
// complete), so an interrupted or failed write leaves the old file as it
// was. Decisions, the same for every command:
//   - a directory is refused (a file name is wanted; report folders go
//     through WriteDir);
//   - a symbolic link is followed: the file it points at is replaced
//     atomically and the link stays a link; a dangling link is refused, and
//     so is a link owned by another user in a sticky world-writable folder
//     (/tmp), by the kernel's fs.protected_symlinks rule whatever the
//     sysctl says;
//   - a character device or a FIFO named as output (-o /dev/stdout, a named
//     pipe) is written through, never replaced;
//   - block devices, sockets and other special files are refused;
//   - messages name the user's path, never the temporary file.
//
// Temporary files are named .NAME.simctl-tmp-DIGITS beside the target and
// registered while they exist; RemoveTemps (called on a forced exit)
// deletes those still open. A process killed outright (SIGKILL) leaves its
// temporary file behind: the first write of a process into a folder
// removes this user's regular files of exactly that pattern there that are
// older than StaleTemp, and nothing else.
//
// Inputs are read with ReadFile, which stops at a documented limit and
// when the context is cancelled, so /dev/zero or a huge file fails fast.
//
// Concurrency: every function is safe for concurrent use.
package safeio

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"simctl/sim/msg"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Limits on what simctl reads. A scenario is a hand-written YAML file; a
// result embeds one scenario, a sweep one scenario and up to
// reports.MaxSweepPoints point results.
const (
	MaxScenarioBytes = 1 << 20   // 1 MiB
	MaxResultBytes   = 256 << 20 // 256 MiB
)

// ReadFile reads at most limit bytes of path. A larger input, a directory
// or a cancelled ctx is an error naming path. Opening waits for ctx too (a
// FIFO with no writer blocks in open).
func ReadFile(ctx context.Context, path string, limit int64, what string) ([]byte, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	var f *os.File
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, OSError(o.err)
		}
		f = o.f
	case <-ctx.Done():
		// The goroutine closes the file if open ever returns.
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, msg.Errorf("%s: reading interrupted", path)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, msg.Errorf("%s is a directory; give a %s file", path, noun(what))
	}
	var buf []byte
	chunk := make([]byte, 64<<10)
	for {
		if ctx.Err() != nil {
			return nil, msg.Errorf("%s: reading interrupted", path)
		}
		n, err := f.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if int64(len(buf)) > limit {
			return nil, msg.Errorf("%s: larger than %s, the limit for a %s; is it the right file?", path, byteSize(limit), noun(what))
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, OSError(err)
		}
	}
}

func byteSize(n int64) msg.Text {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return msg.New("%d %s", n>>20, "MiB")
	case n >= 1<<10 && n%(1<<10) == 0:
		return msg.New("%d %s", n>>10, "KiB")
	}
	return msg.New("%d bytes", n)
}

// refuse is an output flag's path refused: "FLAG PATH: why".
func refuse(flag, path, format string, a ...any) error {
	return msg.Errorf("%s %s: %s", flag, path, msg.New(format, a...))
}

// noun is what, the kind of file a caller of ReadFile names, as a message
// (translated with the message it is part of).
func noun(what string) msg.Text {
	switch what {
	case "scenario":
		return msg.New("scenario")
	case "result":
		return msg.New("result")
	case "compare file":
		return msg.New("compare file")
	case "simctl JSON document":
		return msg.New("simctl JSON document")
	}
	return msg.New("%s", what)
}

// Target is an output path checked by Check.
type Target struct {
	user    string // the path as the user gave it, for messages
	path    string // where the bytes go (a symlink resolved)
	through bool   // a device or FIFO: write through it, never replace it
}

// Path is the path as the user gave it.
func (t *Target) Path() string { return t.user }

// Check decides where an output named path goes, before any work is done,
// and refuses what cannot or must not be written (see the package doc).
func Check(path, flag string) (*Target, error) {
	if path == "" {
		return nil, refuse(flag, path, "empty file name")
	}
	if err := followable(path); err != nil {
		return nil, refuse(flag, path, "%v", OSError(err))
	}
	t := &Target{user: path, path: path}
	if li, err := os.Lstat(path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			// /dev/stdout is a link to /proc/self/fd/1, which the kernel
			// resolves even when its text names no file (a pipe): a
			// descriptor named deliberately is written through.
			if st, serr := os.Stat(path); serr == nil && !st.IsDir() {
				t.through = true
				return t, nil
			}
			return nil, refuse(flag, path, "is a symbolic link that points nowhere (%v); give a file name", OSError(errors.Unwrap(err)))
		}
		if isDescriptor(path) {
			if st, serr := os.Stat(path); serr == nil && !st.IsDir() {
				t.through = true
				return t, nil
			}
		}
		t.path = real
	}
	st, err := os.Stat(t.path)
	switch {
	case err == nil:
		m := st.Mode()
		switch {
		case m.IsDir():
			return nil, refuse(flag, path, "is a directory; give a file name, e.g. %s", filepath.Join(path, "result.json"))
		case m&fs.ModeCharDevice != 0 || m&fs.ModeNamedPipe != 0:
			t.through = true
			return t, nil
		case !m.IsRegular():
			return nil, refuse(flag, path, "is a %s, not a regular file; give a file name", kind(m))
		}
		if err := writable(t.path); err != nil {
			return nil, refuse(flag, path, "cannot be replaced: %v", OSError(err))
		}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		// A new file: its folder decides.
	default:
		return nil, refuse(flag, path, "%v", OSError(errors.Unwrap(err)))
	}
	dir := filepath.Dir(t.path)
	ds, err := os.Stat(dir)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return nil, refuse(flag, path, "folder %s does not exist", dir)
	case err != nil:
		return nil, refuse(flag, path, "%v", OSError(err))
	case !ds.IsDir():
		return nil, refuse(flag, path, "%s is not a folder", dir)
	}
	if err := writable(dir); err != nil {
		return nil, refuse(flag, path, "cannot write in folder %s: %v", dir, OSError(err))
	}
	return t, nil
}

// isDescriptor tells the names of open descriptors (/dev/stdout,
// /dev/fd/3, /proc/self/fd/1), written through whatever they point at.
func isDescriptor(path string) bool {
	for _, p := range []string{"/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"} {
		if path == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)) {
			return true
		}
	}
	return false
}

func kind(m fs.FileMode) msg.Text {
	switch {
	case m&fs.ModeDevice != 0:
		return msg.New("block device")
	case m&fs.ModeSocket != 0:
		return msg.New("socket")
	}
	return msg.New("special file")
}

// Write writes the output: through a device or FIFO as is, otherwise into
// a temporary file next to the target, renamed over it when complete. On
// any error the target is untouched and the temporary file removed; the
// error names the user's path.
func (t *Target) Write(write func(io.Writer) error) error {
	wrap := func(err error) error {
		// The temporary file's name means nothing to the user: keep only
		// the cause (a failed open, write or rename).
		var pe *fs.PathError
		var le *os.LinkError
		if errors.As(err, &pe) {
			err = pe.Err
		} else if errors.As(err, &le) {
			err = le.Err
		}
		return msg.Errorf("writing %s: %v", t.user, OSError(err))
	}
	if t.through {
		// Append: a descriptor redirected to a file (>> out) keeps what the
		// shell put there; a device or FIFO does not care.
		f, err := openThrough(t.path)
		if err != nil {
			return wrap(err)
		}
		if err := write(f); err != nil {
			f.Close()
			return wrap(err)
		}
		if err := f.Close(); err != nil {
			return wrap(err)
		}
		return nil
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(t.path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := createTemp(t.path)
	if err != nil {
		return wrap(err)
	}
	fail := func(err error) error {
		tmp.Close()
		removeTemp(tmp.Name())
		return wrap(err)
	}
	// CreateTemp makes the file private (0600); a result is an ordinary
	// file others read, as if created directly (or keeps the old mode).
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := write(tmp); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		removeTemp(tmp.Name())
		return wrap(err)
	}
	forget(tmp.Name())
	return nil
}

// Interrupt, when closed, stops a write waiting for a FIFO's reader (the
// process's first Ctrl-C; nil: never). A blocking open of a FIFO nobody
// reads would otherwise ignore it.
var Interrupt <-chan struct{}

// errNoReader is what a write to a FIFO still without a reader at
// Interrupt says.
var errNoReader = msg.Errorf("interrupted while waiting for a reader of the FIFO; nothing written")

// openThrough opens a device or FIFO for writing. A FIFO is opened without
// blocking, again every 20 ms while it has no reader (ENXIO), until
// Interrupt is closed.
func openThrough(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	}
	for {
		// With O_NONBLOCK the runtime's poller waits on a full pipe, so
		// writes still block as they should.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		select {
		case <-Interrupt:
			return nil, errNoReader
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// WriteFile checks path and writes data to it atomically.
func WriteFile(path, flag string, data []byte) error {
	t, err := Check(path, flag)
	if err != nil {
		return err
	}
	return t.Write(func(w io.Writer) error { _, err := w.Write(data); return err })
}

var temps struct {
	sync.Mutex
	names map[string]bool
	swept map[string]bool // folders cleared of stale temporary files
}

// removeStale removes from dir the temporary files a killed simctl left
// (see the package doc); live names this process is writing are kept. A
// failure is ignored: the files are litter, not a reason to stop.
func removeStale(dir string, live map[string]bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || !tempName.MatchString(e.Name()) || live[p] {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < StaleTemp || !ownedByMe(fi) {
			continue
		}
		os.Remove(p)
	}
}

// StaleTemp is the age after which a temporary file of the pattern is
// taken for one left by a killed process: no write of simctl's lasts this
// long between creating its temporary file and renaming it.
const StaleTemp = time.Hour

// tempName matches safeio's temporary files (os.CreateTemp replaces the
// * with decimal digits).
var tempName = regexp.MustCompile(`^\..+\.simctl-tmp-[0-9]+$`)

func createTemp(target string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	dir := filepath.Dir(target)
	if !temps.swept[dir] {
		if temps.swept == nil {
			temps.swept = map[string]bool{}
		}
		temps.swept[dir] = true
		removeStale(dir, temps.names)
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".simctl-tmp-*")
	if err != nil {
		return nil, err
	}
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[f.Name()] = true
	return f, nil
}

func forget(name string) {
	temps.Lock()
	delete(temps.names, name)
	temps.Unlock()
}

func removeTemp(name string) {
	os.Remove(name)
	forget(name)
}

// RemoveTemps deletes every temporary file still being written, for a
// process about to exit without finishing its writes.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}

// WriteDir writes files (name → bytes) into the folder dir, creating it if
// missing: only inside it, never through a symbolic link, each file
// atomically. Files in dir whose names own reports as its own (an older
// report's figures) and that are not in files are removed; nothing else
// is touched. A dir that is itself a symbolic link is refused.
func WriteDir(dir, flag string, files map[string][]byte, owns func(name string) bool) error {
	if err := CheckDir(dir, flag, true); err != nil {
		return err
	}
	for name := range files {
		if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			return refuse(flag, dir, "internal error: file name %q is not a plain name", name)
		}
		p := filepath.Join(dir, name)
		if li, err := os.Lstat(p); err == nil && !li.Mode().IsRegular() {
			return refuse(flag, dir, "%s exists and is not a regular file (a link, folder or device); remove it or choose another folder", name)
		}
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		// Rename replaces a name in dir: it never follows a link, so a
		// link planted after the check is replaced, not written through.
		t := &Target{user: p, path: p}
		if err := t.Write(func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return refuse(flag, dir, "%v", OSError(err))
	}
	for _, e := range ents {
		if _, ours := files[e.Name()]; ours || !owns(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return refuse(flag, dir, "removing the older report's %s: %v", e.Name(), OSError(errors.Unwrap(err)))
		}
	}
	return nil
}

// CheckDir checks that dir can be a report folder: an existing folder (not
// a symbolic link) this process may write in, or a missing one whose parent
// exists, which is created when create is set.
func CheckDir(dir, flag string, create bool) error {
	if dir == "" {
		return refuse(flag, dir, "empty folder name")
	}
	li, err := os.Lstat(dir)
	switch {
	case err == nil && li.Mode()&fs.ModeSymlink != 0:
		return refuse(flag, dir, "is a symbolic link; give the folder itself")
	case err == nil && !li.IsDir():
		return refuse(flag, dir, "exists and is not a folder")
	case errors.Is(err, fs.ErrNotExist):
		if !create {
			parent := filepath.Dir(dir)
			if st, err := os.Stat(parent); err != nil || !st.IsDir() {
				return refuse(flag, dir, "folder %s does not exist", parent)
			}
			if err := writable(parent); err != nil {
				return refuse(flag, dir, "cannot create it in %s: %v", parent, OSError(err))
			}
			return nil
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return refuse(flag, dir, "cannot create it: %v", OSError(errors.Unwrap(err)))
		}
	case err != nil:
		return refuse(flag, dir, "%v", OSError(errors.Unwrap(err)))
	}
	if err := writable(dir); err != nil {
		return refuse(flag, dir, "cannot write in it: %v", OSError(err))
	}
	if err := writable(dir); err != nil {
		return refuse(flag, dir, "cannot write in it: %v", OSError(err))
	}
	return nil
}
