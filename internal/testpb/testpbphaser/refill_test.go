package testpbphaser_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// TestRefillForever fills a message in a fixed buffer and clears it 1,000
// times, in every buffer size from the smallest the fill fits in (one byte
// apart for 40 bytes, then 8 apart): a reused buffer must not fill up with
// blocks a Clear left behind. Format 2 clears the root field by field as
// C++ Phaser 2.1 does (its bytes stay C++'s while C++ has room), records
// the blocks C++ leaves allocated (the StringHeaders of repeated strings)
// and frees them when an allocation finds no room; from then on, and from
// the second Clear of a root whose first left them, the root's Clear
// resets the buffer. With the Performance tuning no fill fails; with
// the Size tuning, in the tightest sizes, the one fill where C++ itself runs
// out of room can fail once (C++'s clear fragments the free list), and none
// after it. Format 3 resets on every root Clear. With the race detector
// (10x slower) it cycles 100 times in every eighth size.
func TestRefillForever(t *testing.T) {
	cycles, stride := 1000, 1
	if raceEnabled {
		cycles, stride = 100, 8
	}
	for _, opts := range []runtime.Options{
		{Version: payloadbuffer.V2, Tuning: payloadbuffer.Performance},
		{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size},
		{Version: payloadbuffer.V3, Tuning: payloadbuffer.Performance},
		{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size},
	} {
		smallest := 0
		for n := 1024; n < 1<<16; n += 8 {
			if x, err := pb.NewEverythingIn(make([]byte, n), opts); err == nil {
				if buildGenerated(x); x.Msg().Payload().Err() == nil {
					smallest = n
					break
				}
			}
		}
		for smallest > 0 {
			x, err := pb.NewEverythingIn(make([]byte, smallest-1), opts)
			if err != nil {
				break
			}
			if buildGenerated(x); x.Msg().Payload().Err() != nil {
				break
			}
			smallest--
		}
		if smallest == 0 {
			t.Fatalf("%+v: the fill fits in no buffer up to 64 KiB", opts)
		}
		sizes, once := 0, 0
		for n := smallest; n < smallest+400; n++ {
			if (n >= smallest+40 || stride > 1) && n%(8*stride) != 0 {
				continue
			}
			x, err := pb.NewEverythingIn(make([]byte, n), opts)
			if err != nil {
				t.Fatal(err)
			}
			if buildGenerated(x); x.Msg().Payload().Err() != nil {
				continue // does not fit once
			}
			sizes++
			want := bytes.Clone(x.Bytes())
			failed := -1
			for c := range cycles {
				x.Clear()
				buildGenerated(x)
				if err := x.Msg().Payload().Err(); err != nil {
					if failed >= 0 || opts.Version == payloadbuffer.V3 || opts.Tuning == payloadbuffer.Performance {
						t.Fatalf("%+v, %d bytes: fill %d after Clear: %v (fill %d failed before)", opts, n, c+1, err, failed)
					}
					failed = c
					continue
				}
				checkContent(t, x, want, opts, n, c)
			}
			if failed >= 0 {
				once++
			}
		}
		t.Logf("%+v: smallest fit %d bytes; %d sizes cycled %d times, %d with one failed fill", opts, smallest, sizes, cycles, once)
	}
}

// checkContent checks that the refilled message reads as the first fill
// did, through a reader of its bytes (the protobuf encoding of both).
func checkContent(t *testing.T, x pb.Everything, first []byte, opts runtime.Options, n, c int) {
	t.Helper()
	if c%97 != 0 {
		return
	}
	a, err := pb.ReadEverything(x.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b, err := pb.ReadEverything(first)
	if err != nil {
		t.Fatal(err)
	}
	ma, erra := a.Msg().ToProto()
	mb, errb := b.Msg().ToProto()
	if erra != nil || errb != nil {
		t.Fatalf("%+v, %d bytes, cycle %d: ToProto: %v, %v", opts, n, c, erra, errb)
	}
	if !proto.Equal(ma, mb) {
		t.Fatalf("%+v, %d bytes, cycle %d: refill reads\n%v\nwant\n%v", opts, n, c, ma, mb)
	}
}

// refillScalars writes the fields a refill writes again.
func refillScalars(x pb.Scalars, i int) {
	x.SetFString("rover-7 left wing")
	x.SetFBytes([]byte("0123456789"))
	x.SetFInt64(int64(i))
	x.SetFDouble(float64(i) / 2)
	x.SetFBool(i%2 == 0)
}

// TestRefillInPlace writes the same shape into one message again without
// Clear: the strings are overwritten in their blocks, so the payload does
// not grow, and allocates nothing.
func TestRefillInPlace(t *testing.T) {
	x := must(pb.NewScalarsIn(make([]byte, 4096)))
	refillScalars(x, 0)
	n := len(x.Bytes())
	if allocs := testing.AllocsPerRun(100, func() { refillScalars(x, 1) }); allocs != 0 {
		t.Errorf("refill: %v allocations", allocs)
	}
	if len(x.Bytes()) != n || x.FInt64() != 1 || x.FString() != "rover-7 left wing" {
		t.Errorf("refill: %d payload bytes (first fill %d), f_int64 %d", len(x.Bytes()), n, x.FInt64())
	}
}

// BenchmarkRefill compares a refill of the same shape with Clear before it
// (the payload reset to its creation image, every string allocated again)
// and without (the strings overwritten in place).
func BenchmarkRefill(b *testing.B) {
	for _, clear := range []bool{true, false} {
		name := "in-place"
		if clear {
			name = "clear"
		}
		b.Run(name, func(b *testing.B) {
			x, err := pb.NewScalarsIn(make([]byte, 4096))
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				if clear {
					x.Clear()
				}
				refillScalars(x, i)
				i++
			}
		})
	}
}

// TestClearAfterNewType checks a format-2 root's Clear when a fill reaches
// a message type the earlier fills did not (its table is registered
// then): the blocks a clear root keeps are listed anew, so the new table
// stays allocated, and fills that use it read back, cycle after cycle.
func TestClearAfterNewType(t *testing.T) {
	md := (&timestamppb.Timestamp{}).ProtoReflect().Descriptor()
	ts, err := runtime.TypeOf(md)
	if err != nil {
		t.Fatal(err)
	}
	seconds := md.Fields().ByName("seconds")
	fill := func(x pb.Everything, cycle int) {
		x.SetOptInt32(int32(cycle))
		x.MutableInner().SetS("inner")
		if cycle >= 3 { // from the fourth fill on, an Any of a type Everything does not reach
			x.MutableAny().Mutable(ts).Set(seconds, protoreflect.ValueOfInt64(int64(cycle)))
		}
	}
	ran := 0
	for _, tuning := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
		for size := 1024; size <= 8192; size += 8 {
			opts := runtime.Options{Version: payloadbuffer.V2, Tuning: tuning}
			x, err := pb.NewEverythingIn(make([]byte, size), opts)
			if err != nil {
				continue
			}
			for cycle := range 12 {
				x.Clear()
				fill(x, cycle)
				if x.Failed() {
					break // too small for this fill: as C++, a fill can run out of room
				}
				ran++
				r, err := pb.ReadEverything(bytes.Clone(x.Bytes()))
				if err != nil {
					t.Fatalf("%v %d bytes, cycle %d: %v", tuning, size, cycle, err)
				}
				if got := r.Any().Value(ts).Get(seconds).Int(); r.OptInt32() != int32(cycle) || r.Inner().S() != "inner" || cycle >= 3 && got != int64(cycle) {
					t.Fatalf("%v %d bytes, cycle %d: read back opt_int32 %d, inner %q, any's seconds %d", tuning, size, cycle, r.OptInt32(), r.Inner().S(), got)
				}
			}
		}
	}
	if ran == 0 {
		t.Fatal("no fill fit")
	}
}
