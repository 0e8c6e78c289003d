//go:build linux

package shm

// On arm64 a release store (atomic.Store, STLR) orders only the accesses
// before it, and an acquire load (atomic.Load, LDAR) only those after it.
// The seqlock needs the two other directions, as the Linux kernel's
// seqcount does (smp_wmb, smp_rmb):
//
//   - the publisher's "writing" state store must be visible before the
//     payload stores that follow it: DMB ISHST after the store;
//   - a subscriber's payload loads must be complete before its re-load of
//     the state: DMB ISHLD before the load.

// storeFence orders the stores before it before the stores after it
// (DMB ISHST).
func storeFence()

// loadFence orders the loads before it before the loads after it
// (DMB ISHLD).
func loadFence()
