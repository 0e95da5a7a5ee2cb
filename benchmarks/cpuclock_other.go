//go:build !linux

package benchmarks

// threadCPU is not available off Linux: the CPU-time metrics are left out.
func threadCPU() int64 { return -1 }

// processCPU likewise.
func processCPU() int64 { return -1 }
