//go:build unix

package safeio

import "syscall"

// writable asks the kernel whether this process may write path (its
// permissions, a read-only file system), so a run that could not save its
// result is refused before it starts.
func writable(path string) error {
	const wOK = 2
	return syscall.Access(path, wOK)
}
