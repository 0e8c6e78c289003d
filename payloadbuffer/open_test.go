package payloadbuffer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// continueOps runs a deterministic sequence of allocations, frees,
// reallocs, strings and vector pushes on b, using only blocks it allocates
// itself (and slots in a root block it allocates first). It returns every
// offset and result, so that two buffers that should behave the same can
// be compared.
func continueOps(b *Buffer, seed uint64, steps int) []uint32 {
	r := rand.New(rand.NewPCG(seed, 5))
	root := b.Allocate(rootSize, Zero)
	trace := []uint32{root}
	if root == 0 {
		return trace
	}
	var live []uint32
	for i := range steps {
		var res uint32
		switch op := r.IntN(12); {
		case op < 4:
			n := 1 + r.IntN(150)
			if res = b.Allocate(n, Flags(r.IntN(4))); res != 0 {
				s := b.Slice(res, b.BlockSize(res))
				for j := range s {
					s[j] = byte(i ^ j)
				}
				live = append(live, res)
			}
		case op < 6 && len(live) > 0:
			j := r.IntN(len(live))
			b.Free(live[j])
			live = slices.Delete(live, j, j+1)
		case op < 7 && len(live) > 0:
			j := r.IntN(len(live))
			if res = b.Realloc(live[j], 1+r.IntN(200), Flags(r.IntN(4))); res != 0 {
				live[j] = res
				s := b.Slice(res, b.BlockSize(res))
				for j := range s {
					s[j] = byte(i + j)
				}
			}
		case op < 9:
			s := bytes.Repeat([]byte{byte('a' + i%26)}, r.IntN(90))
			slot := root + 4*uint32(r.IntN(nStr))
			// RefillString first for odd lengths, as a setter tries it.
			if len(s)%2 == 1 && b.RefillString(slot, string(s)) || b.SetString(slot, string(s)) {
				res = 1
			}
		case op < 10:
			res = b.VectorPush(root+4*nStr, 4)
			if res != 0 {
				b.PutUint32(res, uint32(i))
			}
		case op < 11:
			if b.PushString(root+4*nStr+8*nVec, fmt.Sprint(i)) {
				res = 1
			}
		default:
			b.ClearStrings(root + 4*nStr + 8*nVec)
		}
		trace = append(trace, res)
	}
	return trace
}

// builtBuffers returns buffers of every kind in several states: fresh,
// after a program, and (fixed) full. Fixed buffers are built on zeroed
// memory.
func builtBuffers(t testing.TB) []*Buffer {
	var bufs []*Buffer
	for _, k := range allKinds() {
		for _, steps := range []int{0, 20, 300} {
			var b *Buffer
			size := 2000 + 8*steps
			if k.fixed {
				b, _ = NewFixed(make([]byte, size+3), k.opts())
			} else {
				b = New(100, k.opts())
			}
			if steps > 0 {
				continueOps(b, uint64(steps), steps)
			}
			bufs = append(bufs, b)
		}
		if k.fixed {
			b, _ := NewFixed(make([]byte, 300), k.opts())
			for b.Allocate(24, Small) != 0 {
			}
			bufs = append(bufs, b)
		}
	}
	return bufs
}

func TestOpenRoundTrip(t *testing.T) {
	for i, orig := range builtBuffers(t) {
		t.Run(fmt.Sprintf("%d-%v", i, orig), func(t *testing.T) {
			k := kind{v: orig.Version(), t: orig.Tuning(), fixed: orig.Fixed()}
			same := func(what string, o *Buffer) {
				t.Helper()
				if o.Version() != k.v || o.Tuning() != k.t || o.Fixed() != k.fixed ||
					o.HeaderSize() != orig.HeaderSize() || o.Len() != orig.Len() || o.HWM() != orig.HWM() {
					t.Fatalf("%s: opened as %v, want %v", what, o, orig)
				}
				// The failure mark lives in the bytes of v3 only.
				if want := orig.Failed() && k.v == V3; o.Failed() != want {
					t.Fatalf("%s: Failed() = %t, want %t", what, o.Failed(), want)
				}
			}

			// The whole memory.
			whole := clone(orig.Memory())
			o, err := Open(whole)
			if err != nil {
				t.Fatalf("Open(memory): %v", err)
			}
			same("memory", o)
			if !bytes.Equal(o.Memory(), orig.Memory()) {
				t.Fatalf("Open changed the memory")
			}

			// The payload only (hwm bytes), in zeroed memory of the
			// buffer's size: the trailing free block is rebuilt and the
			// memory is what the writer had.
			payload := make([]byte, orig.Len())
			copy(payload, orig.Bytes())
			p, err := Open(payload)
			if err != nil {
				t.Fatalf("Open(payload): %v", err)
			}
			same("payload", p)
			if !bytes.Equal(p.Memory(), orig.Memory()) {
				t.Fatalf("payload memory differs from the writer's:\n% x\n% x", p.Memory(), orig.Memory())
			}

			// Continuing to write gives the same bytes as never
			// reopening (a failed v2 buffer does not carry its mark,
			// so it is left alone).
			if orig.Failed() && k.v == V2 {
				return
			}
			want := continueOps(orig, 77, 200)
			for _, re := range []*Buffer{o, p} {
				if got := continueOps(re, 77, 200); !slices.Equal(got, want) {
					t.Fatalf("reopened buffer returned %v, writer %v", got, want)
				}
				if !bytes.Equal(re.Memory(), orig.Memory()) {
					t.Fatalf("reopened buffer's bytes differ from the writer's")
				}
				if _, err := checkHeap(re, nil, false); err != nil {
					t.Fatalf("reopened buffer: %v", err)
				}
			}
		})
	}
}

// Open binds to the first full_size bytes; a fixed buffer never writes
// past them, and an owned one grows into the rest of mem but never past
// len(mem).
func TestOpenLongerMemory(t *testing.T) {
	for _, k := range allKinds() {
		var b *Buffer
		if k.fixed {
			b, _ = NewFixed(make([]byte, 512), k.opts())
		} else {
			b = New(512, k.opts())
		}
		continueOps(b, 1, 10)
		full := b.Len()
		backing := make([]byte, 4*full+4096)
		for i := range backing {
			backing[i] = guardByte
		}
		copy(backing, b.Memory())
		memLen := full + 1024
		o, err := Open(backing[:memLen])
		if err != nil {
			t.Fatalf("%v: %v", k, err)
		}
		if o.Len() != full {
			t.Fatalf("%v: Len %d, want %d", k, o.Len(), full)
		}
		continueOps(o, 2, 400)
		limit := memLen
		if k.fixed {
			limit = full
			if !o.Failed() {
				t.Fatalf("%v: 400 operations fit in 512 bytes", k)
			}
		} else if o.Len() <= memLen {
			t.Fatalf("%v: did not grow past mem (len %d)", k, o.Len())
		}
		if k.fixed || o.Len() > memLen {
			if err := guardIntact(backing, limit); err != nil {
				t.Fatalf("%v: %v", k, err)
			}
		}
	}
}

// corruptions of a valid buffer that Open must reject with ErrCorrupt.
func TestOpenRejects(t *testing.T) {
	put := func(off int, v uint32) func([]byte) {
		return func(m []byte) { binary.LittleEndian.PutUint32(m[off:], v) }
	}
	type tc struct {
		name string
		opts Options
		prep func(b *Buffer)
		edit func(m []byte)
	}
	prepRuns := func(b *Buffer) { // v2 performance: make a class-16 run
		b.Allocate(8, Small)
		b.Allocate(300, 0)
	}
	cases := []tc{
		{"magic", Options{}, nil, put(0, 0x12345678)},
		{"v3 major version", Options{Version: V3}, nil, func(m []byte) { m[3] = 2 }},
		{"full size past memory", Options{}, nil, put(offFullSize, 4096)},
		{"full size below header", Options{}, nil, put(offFullSize, 20)},
		{"hwm below header", Options{}, nil, put(offHWM, 8)},
		{"hwm past full size", Options{}, nil, put(offHWM, 5000)},
		{"root offset", Options{}, nil, put(offMessage, 1022)},
		{"free list into the header", Options{}, nil, put(offFreeList, 8)},
		{"free list misaligned", Options{}, nil, put(offFreeList, 44)},
		{"free block past the end", Options{}, nil, put(40, 4000)},
		{"free block too short", Options{}, nil, put(40, 4)},
		{"free block length unaligned", Options{Tuning: Size}, func(b *Buffer) {
			p := b.Allocate(16, 0)
			b.Allocate(16, 0)
			b.Free(p)
		}, put(40, 20)},
		{"free list cycle", Options{Tuning: Size}, func(b *Buffer) {
			p := b.Allocate(16, 0)
			b.Allocate(16, 0)
			b.Free(p)
		}, func(m []byte) {
			next := binary.LittleEndian.Uint32(m[44:])
			binary.LittleEndian.PutUint32(m[next+4:], 40)
		}},
		{"v3 class list cycle", Options{Version: V3}, func(b *Buffer) {
			p := b.Allocate(8, Small)
			b.Free(p)
		}, func(m []byte) {
			p := binary.LittleEndian.Uint32(m[offSmall:])
			binary.LittleEndian.PutUint32(m[p:], p)
		}},
		{"v3 class entry with the wrong length", Options{Version: V3}, func(b *Buffer) {
			p := b.Allocate(8, Small)
			b.Free(p)
		}, func(m []byte) {
			p := binary.LittleEndian.Uint32(m[offSmall:])
			binary.LittleEndian.PutUint32(m[p-8:], 24)
		}},
		{"v2 run vector offset", Options{}, prepRuns, put(offSmall, 1020)},
		{"v2 run count", Options{}, prepRuns, func(m []byte) {
			vec := binary.LittleEndian.Uint32(m[offSmall:])
			binary.LittleEndian.PutUint32(m[vec:], 100)
		}},
		{"v2 run free count", Options{}, prepRuns, func(m []byte) {
			vec := binary.LittleEndian.Uint32(m[offSmall:])
			run := binary.LittleEndian.Uint32(m[binary.LittleEndian.Uint32(m[vec+4:]):])
			m[run+6] = 20
		}},
		{"v2 run bits past the slot count", Options{}, prepRuns, func(m []byte) {
			vec := binary.LittleEndian.Uint32(m[offSmall:])
			run := binary.LittleEndian.Uint32(m[binary.LittleEndian.Uint32(m[vec+4:]):])
			binary.LittleEndian.PutUint32(m[run:], 1<<25|1)
			m[run+6] = 18
		}},
		// The allocator's own blocks must be blocks of the heap, not
		// inside free memory (or the allocator would hand out memory
		// twice and overwrite free headers with data).
		{"v3 class entry inside a free block", Options{Version: V3}, func(b *Buffer) {
			b.Free(b.Allocate(8, Small))
		}, func(m []byte) {
			binary.LittleEndian.PutUint64(m[192:], 16)
			binary.LittleEndian.PutUint32(m[offSmall:], 200)
		}},
		{"v2 run inside a free block", Options{}, prepRuns, func(m []byte) {
			vec := binary.LittleEndian.Uint32(m[offSmall:])
			arr := binary.LittleEndian.Uint32(m[vec+4:])
			run := binary.LittleEndian.Uint32(m[arr:])
			const fake = 520 // in the free tail
			copy(m[fake-8:fake+8], m[run-8:run+8])
			binary.LittleEndian.PutUint32(m[arr:], fake)
		}},
		{"v2 small block outside a run", Options{}, prepRuns, func(m []byte) {
			// The 300-byte block is the last allocated one.
			for x := uint32(40); ; {
				w := binary.LittleEndian.Uint32(m[x:])
				if w == 304 {
					binary.LittleEndian.PutUint32(m[x:], smallBit|16)
					return
				}
				x += 8 + w
			}
		}},
		{"v2 run listed twice", Options{}, prepRuns, func(m []byte) {
			vec := binary.LittleEndian.Uint32(m[offSmall:])
			arr := binary.LittleEndian.Uint32(m[vec+4:])
			copy(m[arr+4:arr+8], m[arr:arr+4])
			binary.LittleEndian.PutUint32(m[vec:], 2)
		}},
	}
	for _, c := range cases {
		b, _ := NewFixed(make([]byte, 1024), c.opts)
		if c.prep != nil {
			c.prep(b)
		}
		m := clone(b.Memory())
		if _, err := Open(m); err != nil {
			t.Fatalf("%s: Open of the valid buffer: %v", c.name, err)
		}
		c.edit(m)
		if o, err := Open(m); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Open = %v, %v; want ErrCorrupt", c.name, o, err)
		}
	}
	for n := range FixedHeaderSize {
		if _, err := Open(make([]byte, n)); !errors.Is(err, ErrTooSmall) {
			t.Errorf("Open(%d bytes) = %v, want ErrTooSmall", n, err)
		}
	}
}

// openAndExercise opens data in memory followed by guard bytes; if Open
// succeeds it runs a short program (allocations, frees, strings, vectors).
// Open must fail only with ErrCorrupt or ErrTooSmall, nothing may panic, and
// nothing may be written past the data.
func openAndExercise(t *testing.T, data []byte, seed uint64) bool {
	t.Helper()
	backing := make([]byte, len(data)+guardSize)
	copy(backing, data)
	for i := len(data); i < len(backing); i++ {
		backing[i] = guardByte
	}
	b, err := Open(backing[:len(data)])
	if err != nil {
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooSmall) {
			t.Fatalf("Open: error %v wraps neither ErrCorrupt nor ErrTooSmall", err)
		}
		if b != nil {
			t.Fatalf("Open returned a buffer and an error")
		}
		return false
	}
	_ = b.String()
	_ = b.Bytes()
	continueOps(b, seed, 40)
	if err := guardIntact(backing, len(data)); err != nil {
		t.Fatalf("%v", err)
	}
	return true
}

// TestOpenMutations opens valid buffers of every kind with random bytes
// changed (the deterministic counterpart of FuzzOpen).
func TestOpenMutations(t *testing.T) {
	bufs := builtBuffers(t)
	r := rand.New(rand.NewPCG(3, 4))
	iters := 6000
	if testing.Short() {
		iters = 1000
	}
	opened := 0
	for i := range iters {
		data := clone(bufs[r.IntN(len(bufs))].Memory())
		for range 1 + r.IntN(4) {
			switch r.IntN(3) {
			case 0: // a random byte
				data[r.IntN(len(data))] = byte(r.Uint32())
			case 1: // a header word
				binary.LittleEndian.PutUint32(data[4*r.IntN(10):], r.Uint32N(uint32(len(data)+64)))
			default: // a word in the heap, often a plausible offset
				if len(data) < 48 {
					continue
				}
				off := 40 + 4*r.IntN((len(data)-44)/4)
				binary.LittleEndian.PutUint32(data[off:], r.Uint32N(uint32(len(data)+16))&^uint32(r.IntN(2)*7))
			}
		}
		if r.IntN(16) == 0 {
			data = data[:r.IntN(len(data)+1)]
		}
		if openAndExercise(t, data, uint64(i)) {
			opened++
		}
	}
	t.Logf("%d of %d mutated buffers opened", opened, iters)
}
