//go:build unix

package safeio

import (
	"io/fs"
	"os"
	"path/filepath"
	"simctl/sim/msg"
	"strings"
	"syscall"
)

// writable asks the kernel whether this process may write path (its
// permissions, a read-only file system), so a run that could not save its
// result is refused before it starts.
func writable(path string) error {
	const wOK = 2
	return syscall.Access(path, wOK)
}

// Links is the number of hard links of the file fi describes (1 when the
// system does not say).
func Links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// followable applies the kernel's fs.protected_symlinks rule to every
// symbolic link met while resolving path, whatever the sysctl says: a
// link in a sticky world-writable folder (/tmp) is followed only when its
// owner is the folder's owner or this process's user. simctl resolves
// output links itself and renames over their targets, so without this a
// link another user planted in /tmp would aim a root's -o anywhere, where
// a shell redirect is refused. Relative paths start from the kernel's
// working directory (already resolved, as for the kernel).
func followable(path string) error {
	done := "/"
	if !filepath.IsAbs(path) {
		wd, err := syscall.Getwd()
		if err != nil {
			return nil // the write itself will say what is wrong
		}
		done = wd
	}
	rest, links := path, 0
	for rest != "" {
		comp := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			comp, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		switch comp {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, comp)
		li, err := os.Lstat(next)
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			done = next // a missing name: Check says what is wrong with it
			continue
		}
		if links++; links > 40 {
			return nil // ELOOP: Check reports the link as pointing nowhere
		}
		di, err := os.Stat(done)
		ls, ok1 := li.Sys().(*syscall.Stat_t)
		ds, ok2 := di.Sys().(*syscall.Stat_t)
		if err == nil && ok1 && ok2 && di.Mode()&fs.ModeSticky != 0 && di.Mode().Perm()&0o002 != 0 &&
			ls.Uid != ds.Uid && int(ls.Uid) != os.Geteuid() {
			return msg.Errorf("%s is a symbolic link owned by another user (uid %d) in the sticky world-writable folder %s; "+
				"simctl does not follow it (the kernel's fs.protected_symlinks rule); give the file itself", next, ls.Uid, done)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return nil
		}
		if filepath.IsAbs(target) {
			done = "/"
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = target
	}
	return nil
}

// ownedByMe tells a file this process's user owns: a stale temporary file
// of another user is theirs to remove, even for root.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
