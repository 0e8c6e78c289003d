//go:build linux && (amd64 || arm64)

package shm

import "golang.org/x/sys/unix"

func dupFD(fd int) (int, error) { return unix.Dup(fd) }
