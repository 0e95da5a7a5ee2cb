//go:build !unix

package safeio

import "io/fs"

// writable cannot ask the kernel here; the write itself reports a failure.
func writable(string) error { return nil }

// Links is the number of hard links of a file; this system does not say,
// so 1.
func Links(fs.FileInfo) uint64 { return 1 }

// followable: the sticky-folder link rule is a Unix kernel's; elsewhere
// links are followed.
func followable(string) error { return nil }

// ownedByMe: ownership is not known here; the pattern and age decide.
func ownedByMe(fs.FileInfo) bool { return true }
