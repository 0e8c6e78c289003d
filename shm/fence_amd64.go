//go:build linux

package shm

// On amd64 (x86-TSO) a store is never reordered with an earlier store and
// a load never with an earlier load, so the seqlock needs no fence
// instruction: the ordering it needs (the "writing" state before the
// payload stores; the payload loads before the re-check of the state) is
// program order, which the Go compiler keeps around sync/atomic operations
// (they are ordered memory operations in its SSA memory chain, and storeFence
// and loadFence's callers make them on the far side of a call).

// storeFence orders the stores before it before the stores after it.
func storeFence() {}

// loadFence orders the loads before it before the loads after it.
func loadFence() {}
