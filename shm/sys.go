//go:build linux && (amd64 || arm64)

package shm

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// futex operations (linux/futex.h). The words live in a MAP_SHARED file
// mapping, so the futexes are shared (no FUTEX_PRIVATE_FLAG): the kernel
// keys them by file and offset, and a wake reaches every process.
const (
	futexWaitOp = 0 // FUTEX_WAIT
	futexWakeOp = 1 // FUTEX_WAKE
)

// futexWait sleeps while *w == val, for at most d. It returns on a wake, a
// signal, the timeout, or at once if *w != val: the caller re-checks.
func futexWait(w *atomic.Uint32, val uint32, d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(w)), futexWaitOp, uintptr(val),
		uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// futexWake wakes every process sleeping on w and returns how many it woke.
func futexWake(w *atomic.Uint32) int {
	n, _, errno := unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(w)), futexWakeOp, 1<<31-1, 0, 0, 0)
	if errno != 0 {
		return 0
	}
	return int(n)
}

// schedYield gives the CPU to another runnable thread, if any.
func schedYield() { unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0) }

// The publisher's liveness is an open-file-description (OFD) write lock on
// the whole channel file, taken before the file is published at its path
// and released by the kernel when the publisher's last descriptor of it
// closes, so also when the process is killed. Subscribers only query it
// (F_OFD_GETLK), which never takes or blocks on a lock: a subscriber cannot
// stall a publisher, and a publisher that dies is seen as gone at once.

// lockWrite takes the write lock on f without waiting; it fails with
// ErrBusy if another description holds a lock on it.
func lockWrite(f *os.File) error {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return ErrBusy
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return nil
}

// lockedByOther reports whether another open file description holds a
// lock on f: for a channel file, whether its publisher is alive.
func lockedByOther(f *os.File) (bool, error) {
	lk := unix.Flock_t{Type: unix.F_RDLCK, Whence: 0, Start: 0, Len: 0}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return false, fmt.Errorf("query lock of %s: %w", f.Name(), err)
	}
	return lk.Type != unix.F_UNLCK, nil
}

// fileID identifies a file, to tell a channel replaced at its path (a
// restarted publisher) from the one already mapped.
type fileID struct{ dev, ino uint64 }

func statID(f *os.File) (fileID, int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileID{}, 0, fmt.Errorf("stat %s: %w", f.Name(), err)
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, st.Size, nil
}

func pathID(path string) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileID{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, nil
}

func mmap(f *os.File, off int64, n uint64, prot int) ([]byte, error) {
	if n > uint64(^uint(0)>>1) {
		return nil, fmt.Errorf("map %d bytes of %s: %w", n, f.Name(), ErrTooLarge)
	}
	b, err := unix.Mmap(int(f.Fd()), off, int(n), prot, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %d bytes of %s: %w", n, f.Name(), err)
	}
	return b, nil
}

func munmap(b []byte) {
	if b != nil {
		unix.Munmap(b)
	}
}

// word64 and word32 are the atomic words of the mapping at off (aligned:
// mappings are page-aligned and every offset is a multiple of 8).
func word64(mem []byte, off uint64) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Pointer(&mem[off]))
}

func word32(mem []byte, off uint64) *atomic.Uint32 {
	return (*atomic.Uint32)(unsafe.Pointer(&mem[off]))
}
