package bench

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestFlatbuffersSafe shows why the flatbuffers-safe rows exist: the plain
// flatbuffers-go reads panic on corrupted bytes (it has no verifier), the
// safe ones (the same reads under a deferred recover) never do.
func TestFlatbuffersSafe(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, shape := range []string{"small", "header", "imu", "cloud"} {
		plain, safe := NewCodec("flatbuffers", shape), NewCodec("flatbuffers-safe", shape)
		panics := 0
		for _, p := range Payloads(plain, shape) {
			for k := range 300 {
				q := bytes.Clone(p)
				if k%3 == 0 {
					q = q[:r.IntN(len(q))]
				} else {
					for range 1 + r.IntN(3) {
						q[r.IntN(min(len(q), 256))] = byte(r.Uint32())
					}
				}
				for _, read := range []func([]byte) uint64{plain.ReadAll, plain.ReadOne} {
					if panicked(func() { read(q) }) {
						panics++
					}
				}
				for _, read := range []func([]byte) uint64{safe.ReadAll, safe.ReadOne} {
					if panicked(func() { read(q) }) {
						t.Fatalf("%s: flatbuffers-safe panicked", shape)
					}
				}
			}
		}
		if panics == 0 {
			t.Errorf("%s: no corrupted input made flatbuffers-go panic; the safe rows would guard nothing", shape)
		}
	}
}

func panicked(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}
