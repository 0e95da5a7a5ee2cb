package benchmarks

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time consumed by the calling OS thread, in
// nanoseconds (CLOCK_THREAD_CPUTIME_ID). The benchmarks lock their
// goroutine to its thread around the measured loop, so this is the CPU the
// encounters themselves used: on a shared machine it holds within a few
// percent where wall time swings by half.
func threadCPU() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
