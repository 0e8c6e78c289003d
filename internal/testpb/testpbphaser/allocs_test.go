package testpbphaser_test

import (
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// The handles are values over a payload: reading and writing fields in
// place allocates nothing on the Go heap.

var (
	sinkI32  int32
	sinkI64  int64
	sinkF64  float64
	sinkBool bool
	sinkB    []byte
	sinkC    pb.Color
	sinkInt  int
)

func requireNoAllocs(t *testing.T, name string, f func()) {
	t.Helper()
	if n := testing.AllocsPerRun(200, f); n != 0 {
		t.Errorf("%s: %v allocations per run, want 0", name, n)
	}
}

func TestAllocs(t *testing.T) {
	for _, mk := range makers(pb.NewEverything, pb.NewEverythingIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			fillEverything(t, x)
			s := x.Scalars()
			requireNoAllocs(t, "scalar setters", func() {
				s.SetFInt32(1)
				s.SetFInt64(2)
				s.SetFDouble(3)
				s.SetFBool(true)
				s.SetFColor(pb.Color_COLOR_BLUE)
				x.SetOptInt32(4)
				x.SetChoiceFixed64(5)
			})
			requireNoAllocs(t, "scalar getters", func() {
				sinkI32 = s.FInt32()
				sinkI64 = s.FInt64()
				sinkF64 = s.FDouble()
				sinkBool = s.FBool() && s.HasFBool()
				sinkC = s.FColor()
				sinkI32 = x.OptInt32()
				sinkI64 = int64(x.ChoiceFixed64())
			})
			requireNoAllocs(t, "nested scalar getters", func() {
				sinkI64 = x.Inner().Deep().X()
				sinkI32 = x.Node().Next().Next().Value()
				sinkI32 = x.Inners().At(1).A()
				sinkI64 = x.At().Seconds()
				sinkI32 = x.ById().At(0).Value().A()
			})
			requireNoAllocs(t, "ranging over repeated messages", func() {
				for _, e := range x.Inners().All() {
					sinkI32 += e.A()
				}
			})
			requireNoAllocs(t, "nested scalar setters", func() {
				x.MutableInner().MutableDeep().SetX(9)
				x.Inners().At(1).SetA(11)
			})
			requireNoAllocs(t, "string views", func() {
				sinkB = s.FStringBytes()
				sinkB = s.FBytesBytes()
				sinkB = x.Inner().SBytes()
				sinkB = x.Repeated().RString().AtBytes(0)
				sinkB = x.Counts().At(0).KeyBytes()
			})
			s.SetFString("abcd")
			requireNoAllocs(t, "SetX of a string of the same length", func() {
				s.SetFString("wxyz")
				s.SetFString("abcd")
			})
			if s.FString() != "abcd" {
				t.Errorf("FString = %q", s.FString())
			}

			l := x.MutableRepeated().RInt64()
			l.Clear()
			l.Reserve(1000)
			requireNoAllocs(t, "Append into reserved room", func() { l.Append(7) })
			requireNoAllocs(t, "At and Len", func() { sinkI64 = l.At(3) + int64(l.Len()) })
			requireNoAllocs(t, "Set", func() { l.Set(2, 8) })
			if l.Len() != 201 || l.At(2) != 8 {
				t.Errorf("list: Len %d, At(2) %d", l.Len(), l.At(2))
			}
			e := x.Modes()
			e.Clear()
			e.Reserve(300)
			requireNoAllocs(t, "enum Append and At", func() {
				e.Append(pb.Everything_MODE_SLOW)
				sinkInt = int(e.At(0))
			})
			requireNoAllocs(t, "Any access", func() {
				a := x.Any()
				if in, ok := pb.InnerFromAny(a); ok {
					sinkI32 = in.A()
				}
			})
			checkWritten(t, x)
		})
	}
}

// BenchmarkScalarGetSet measures an in-place scalar write and read.
func BenchmarkScalarGetSet(b *testing.B) {
	x := pb.NewScalars()
	b.ReportAllocs()
	for i := range b.N {
		x.SetFInt32(int32(i))
		sinkI32 = x.FInt32()
	}
}

// BenchmarkAppend measures appends into reserved room.
func BenchmarkAppend(b *testing.B) {
	x := pb.NewRepeated(runtime.Options{InitialSize: 16 << 20})
	l := x.RInt64()
	b.ReportAllocs()
	for i := range b.N {
		if i%100000 == 0 {
			l.Clear()
			l.Reserve(100000)
		}
		l.Append(int64(i))
	}
}
