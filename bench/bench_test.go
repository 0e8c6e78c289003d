package bench

import (
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
func BenchmarkReadAll(b *testing.B)        { runOp(b, "ReadAll") }
func BenchmarkReadOne(b *testing.B)        { runOp(b, "ReadOne") }
func BenchmarkProtoMarshal(b *testing.B)   { runOp(b, "ProtoMarshal") }
func BenchmarkProtoUnmarshal(b *testing.B) { runOp(b, "ProtoUnmarshal") }
func BenchmarkROSMarshal(b *testing.B)     { runOp(b, "ROSMarshal") }
func BenchmarkROSUnmarshal(b *testing.B)   { runOp(b, "ROSUnmarshal") }
func BenchmarkTranscode(b *testing.B)      { runOp(b, "Transcode") }

// runOp runs op as Benchmark<Op>/<shape>/<lib> for every library that
// takes part, each after its round-trip check (b.Fatal on a mismatch).
func runOp(b *testing.B, op string) {
	for _, shape := range Shapes {
		for _, lib := range Libs {
			if c := NewCodec(lib, shape); c == nil || !c.Has(op) {
				continue
			}
			b.Run(shape+"/"+lib, func(b *testing.B) {
				c := NewCodec(lib, shape)
				if err := Check(op, shape, c); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				loop(b, op, shape, c)
				// What the loop left must still be right (reused and
				// fixed buffers, after millions of iterations).
				if err := checkOne(op, shape, c, 0); err != nil {
					b.Fatalf("after the loop: %v", err)
				}
			})
		}
	}
}

func loop(b *testing.B, op, shape string, c *Codec) {
	n := N(shape)
	var data [][]byte
	switch op {
	case "ReadAll", "ReadOne":
		data = Payloads(c, shape)
	case "ProtoUnmarshal", "Transcode":
		data = PB(shape)
	case "ROSUnmarshal":
		data = ROS(shape)
	}
	timed(b, func() uint64 {
		var s uint64
		i := 0
		switch op {
		case "Build":
			for b.Loop() {
				s += uint64(len(c.Build(i)))
				i++
			}
		case "ReadAll":
			for b.Loop() {
				s += c.ReadAll(data[i%n])
				i++
			}
		case "ReadOne":
			for b.Loop() {
				s += c.ReadOne(data[i%n])
				i++
			}
		case "ProtoMarshal":
			for b.Loop() {
				s += uint64(len(c.ProtoMarshal(i)))
				i++
			}
		case "ProtoUnmarshal":
			for b.Loop() {
				if err := c.ProtoUnmarshal(data[i%n]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		case "ROSMarshal":
			for b.Loop() {
				s += uint64(len(c.ROSMarshal(i)))
				i++
			}
		case "ROSUnmarshal":
			for b.Loop() {
				if err := c.ROSUnmarshal(data[i%n]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		case "Transcode":
			for b.Loop() {
				out, err := c.Transcode(data[i%n])
				if err != nil {
					b.Fatal(err)
				}
				s += uint64(len(out))
				i++
			}
		}
		return s
	})
}
