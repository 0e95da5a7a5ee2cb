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

// processCPU is the CPU time of the whole process (CLOCK_PROCESS_CPUTIME_ID),
// for work that runs on goroutines the benchmark does not own (a runner's
// workers); it counts the garbage collector too.
func processCPU() int64 {
	const clockProcessCPUTimeID = 2
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
