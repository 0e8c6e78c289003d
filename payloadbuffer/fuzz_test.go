package payloadbuffer

import (
	"testing"
)

// FuzzOpen opens arbitrary bytes. Open must not panic and must fail only
// with errors wrapping ErrCorrupt or ErrTooSmall; a buffer it accepts must
// take allocations, frees, reallocs, strings and vectors without panicking
// and without writing past its memory. The seeds are buffers of every kind
// (testdata/fuzz/FuzzOpen holds more, and what fuzzing found).
func FuzzOpen(f *testing.F) {
	for _, b := range builtBuffers(f) {
		f.Add(clone(b.Memory()))
	}
	f.Add([]byte{})
	f.Add(make([]byte, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Any bytes as a reset image: an error or an image, never a panic,
		// and an image resets a buffer of its kind without a panic.
		if img, err := NewImage(data); err == nil {
			hdr, small, v3, movable := imageKind(data)
			opts := Options{Version: V2, Tuning: Size}
			if v3 {
				opts.Version = V3
			}
			if small {
				opts.Tuning = Performance
			}
			var b *Buffer
			if movable {
				b = New(int(hdr)+len(data), opts)
			} else if b, err = NewFixed(make([]byte, int(hdr)+len(data)), opts); err != nil {
				t.Fatal(err)
			}
			if err := b.ResetTo(img); err == nil {
				b.Allocate(24, Small)
				_ = b.Bytes()
			}
		}
		openAndExercise(t, data, uint64(len(data)))
	})
}

// FuzzOps runs the model-based test on a program decoded from the input:
// the first byte picks the buffer kind, the next two its size, and the rest
// the operations and their arguments (see model.step). After every step the
// buffer must match the model and pass checkHeap.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 1, 0, 7, 1, 2, 3, 11, 0, 11, 1, 17, 0, 3, 5, 9, 21, 0})
	f.Add([]byte{3, 0, 100, 0, 5, 9, 1, 200, 3, 12, 6, 1, 1, 1, 1, 19, 0, 6, 1, 4, 3, 3, 0})
	f.Add([]byte{5, 2, 0, 17, 1, 5, 0, 11, 2, 11, 2, 11, 2, 15, 2, 70, 16, 2, 8, 1, 4, 4})
	f.Add([]byte{6, 0, 200, 23, 5, 23, 5, 23, 5, 3, 0, 3, 0, 5, 0, 9, 100, 2})
	f.Fuzz(func(t *testing.T, prog []byte) {
		runProgram(t, prog, 400)
	})
}

// runProgram runs the program encoded in prog for at most steps steps.
func runProgram(t *testing.T, prog []byte, steps int) {
	src := &byteSource{b: prog}
	ks := allKinds()
	k := ks[src.intn(len(ks))]
	size := 48 + src.intn(6000)
	if src.done() {
		return
	}
	m := newModel(t, k, size, src, uint64(len(prog)))
	if m == nil || m.root == 0 {
		return // too small for the root block
	}
	for range steps {
		if src.done() {
			return
		}
		m.step()
	}
}
