package bench

import (
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// cpuNanos is the CPU time (user + system) the process has used: every
// benchmark also reports cpu-ns/op, which the other jobs of a shared machine
// disturb far less than the wall time of ns/op.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// timed runs body's b.Loop and reports its CPU time per iteration.
func timed(b *testing.B, body func() uint64) {
	start := cpuNanos()
	sink += body()
	if b.N > 0 {
		b.ReportMetric(float64(cpuNanos()-start)/float64(b.N), "cpu-ns/op")
	}
}

// sink receives the "use" of every iteration, so nothing is optimised away.
var sink uint64

func BenchmarkBuild(b *testing.B)          { runOp(b, "Build") }
func BenchmarkRepublish(b *testing.B)      { runOp(b, "Republish") }
func BenchmarkReadAll(b *testing.B)        { runOp(b, "ReadAll") }
func BenchmarkReadOne(b *testing.B)        { runOp(b, "ReadOne") }
func BenchmarkEndToEnd(b *testing.B)       { runOp(b, "EndToEnd") }
func BenchmarkProtoMarshal(b *testing.B)   { runOp(b, "ProtoMarshal") }
func BenchmarkProtoUnmarshal(b *testing.B) { runOp(b, "ProtoUnmarshal") }
func BenchmarkROSMarshal(b *testing.B)     { runOp(b, "ROSMarshal") }
func BenchmarkROSUnmarshal(b *testing.B)   { runOp(b, "ROSUnmarshal") }
func BenchmarkTranscode(b *testing.B)      { runOp(b, "Transcode") }

// BenchmarkHarness is the harness alone: each operation's loop around
// codec functions that do nothing (return their input or a constant), over
// the same index and inputs as the real loops. Its time is what every
// library's row of that operation pays for the loop and the one indirect
// call, and nothing else.
//
// It also reports the live heap the benchmarks run with (live-MiB).
func BenchmarkHarness(b *testing.B) {
	steady()
	for _, op := range Ops {
		b.Run(op+"/empty", func(b *testing.B) {
			b.ReportAllocs()
			data := make([][]byte, NSmall)
			for i := range data {
				data[i] = make([]byte, 64)
			}
			loop(b, op, "small", emptyCodec(), data)
			b.ReportMetric(liveMiB(), "live-MiB")
		})
	}
}

// emptyCodec's functions do no work.
func emptyCodec() *Codec {
	out := make([][]byte, NSmall)
	for i := range out {
		out[i] = make([]byte, 8)
	}
	return &Codec{
		Build:          func(i int) []byte { return out[i] },
		Republish:      func(i int) []byte { return out[i] },
		ReadAll:        func(data []byte) uint64 { return uint64(len(data)) },
		ReadOne:        func(data []byte) uint64 { return uint64(len(data)) },
		ProtoMarshal:   func(i int) []byte { return out[i] },
		ProtoUnmarshal: func([]byte) error { return nil },
		ROSMarshal:     func(i int) []byte { return out[i] },
		ROSUnmarshal:   func([]byte) error { return nil },
		Transcode:      func(pb []byte) ([]byte, error) { return pb, nil },
	}
}

// steady computes every shape's reference bytes once, before the first
// benchmark, so that the process's live heap (the value sets and the
// references, about 150 MiB with the images) is the same for every
// benchmark: the garbage collector's pace, and so what allocating rows
// pay for it, depends on it.
var steady = sync.OnceFunc(func() {
	for _, shape := range Shapes {
		PB(shape)
		ROS(shape)
	}
	runtime.GC()
})

// liveMiB is the live heap after a collection.
func liveMiB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// runOp runs op as Benchmark<Op>/<shape>/<lib> for every library that
// takes part, each after its round-trip check (b.Fatal on a mismatch).
func runOp(b *testing.B, op string) {
	steady()
	for _, shape := range Shapes {
		for _, lib := range Libs {
			if !Takes(lib, shape, op) {
				continue
			}
			b.Run(shape+"/"+lib, func(b *testing.B) {
				c := NewCodec(lib, shape)
				if err := Check(op, shape, c); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				loop(b, op, shape, c, inputs(op, shape, c))
				// What the loop left must still be right (reused and
				// fixed buffers, after millions of iterations).
				if err := checkOne(op, shape, c, 0); err != nil {
					b.Fatalf("after the loop: %v", err)
				}
			})
		}
	}
}

// inputs returns the received bytes op reads, one per value.
func inputs(op, shape string, c *Codec) [][]byte {
	switch op {
	case "ReadAll", "ReadOne":
		return Payloads(c, shape)
	case "ProtoUnmarshal", "Transcode":
		return PB(shape)
	case "ROSUnmarshal":
		return ROS(shape)
	}
	return nil
}

// loop is the measured loop of op: one call of the codec function an
// iteration (two for EndToEnd: Build, then ReadAll), value i cycling
// through [0, N(shape)) by a compare, not a modulo (a 64-bit divide), and
// the result summed into s (one add).
func loop(b *testing.B, op, shape string, c *Codec, data [][]byte) {
	n := N(shape)
	timed(b, func() uint64 {
		var s uint64
		i := 0
		switch op {
		case "Build":
			for b.Loop() {
				s += uint64(len(c.Build(i)))
				if i++; i == n {
					i = 0
				}
			}
		case "Republish":
			for b.Loop() {
				s += uint64(len(c.Republish(i)))
				if i++; i == n {
					i = 0
				}
			}
		case "ReadAll":
			for b.Loop() {
				s += c.ReadAll(data[i])
				if i++; i == n {
					i = 0
				}
			}
		case "ReadOne":
			for b.Loop() {
				s += c.ReadOne(data[i])
				if i++; i == n {
					i = 0
				}
			}
		case "EndToEnd":
			for b.Loop() {
				s += c.ReadAll(c.Build(i))
				if i++; i == n {
					i = 0
				}
			}
		case "ProtoMarshal":
			for b.Loop() {
				s += uint64(len(c.ProtoMarshal(i)))
				if i++; i == n {
					i = 0
				}
			}
		case "ProtoUnmarshal":
			for b.Loop() {
				if err := c.ProtoUnmarshal(data[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == n {
					i = 0
				}
			}
		case "ROSMarshal":
			for b.Loop() {
				s += uint64(len(c.ROSMarshal(i)))
				if i++; i == n {
					i = 0
				}
			}
		case "ROSUnmarshal":
			for b.Loop() {
				if err := c.ROSUnmarshal(data[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == n {
					i = 0
				}
			}
		case "Transcode":
			for b.Loop() {
				out, err := c.Transcode(data[i])
				if err != nil {
					b.Fatal(err)
				}
				s += uint64(len(out))
				if i++; i == n {
					i = 0
				}
			}
		}
		return s
	})
}
