//go:build unix

package safeio

import (
	"io/fs"
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
