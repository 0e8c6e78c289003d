package testpbphaser_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/assigntest"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// assignNestedSlow is the generated Stamped.Assign written out as what it
// is defined as: Clear, then every field's setter, a nested message's
// through its Mutable.
func assignNestedSlow(x pb.Stamped, v *pb.StampedFields) {
	x.Clear()
	stampedFill(x, v)
}

// stampedFill is assignNestedSlow without the Clear.
func stampedFill(x pb.Stamped, v *pb.StampedFields) {
	x.SetSeq(v.Seq)
	s := x.MutableStamp()
	s.SetSeconds(v.Stamp.Seconds)
	s.SetNanos(v.Stamp.Nanos)
	x.SetFrameId(v.FrameId)
	p := x.MutablePart()
	p.SetN(v.Part.N)
	p.SetTag(v.Part.Tag)
	a := p.MutableAt()
	a.SetSeconds(v.Part.At.Seconds)
	a.SetNanos(v.Part.At.Nanos)
	p.Colors().Assign(v.Part.Colors...)
	x.SetBlob(v.Blob)
	x.SetValue(v.Value)
	x.Covariance().Assign(v.Covariance...)
	x.Counts().Assign(v.Counts...)
}

// assignNestedRun is FuzzAssignNested's run of in, assignRun's for a
// message with nested messages two levels deep (Stamped): two roots in
// buffers of the same kind go through the same operations, one calling the
// generated Assign where the other calls Clear and the setters, and after
// each the payloads are byte for byte the same and fail alike. Among the
// operations: Assigns followed by the Clear of a nested message (so that
// the next Clear finds its slot empty), strings that fit, outgrow or are
// empty, nested messages cleared or created by single setters between the
// Assigns, and bytes of the payload changed behind both handles.
func assignNestedRun(t *testing.T, in []byte) {
	if len(in) < 3 || len(in) > 300 {
		return
	}
	fast, slow, ok := assigntest.Twins(in, 128, pb.NewStamped, pb.NewStampedIn)
	if !ok {
		return
	}
	text := func(c byte, n int) string { return strings.Repeat(string(rune('a'+c%26)), n) }
	colors := []pb.Color{pb.Color(1), pb.Color(-1), pb.Color(2), pb.Color(0), pb.Color(1)}
	covariance := []float64{1.5, -2, 3, 4, 5}
	counts := make([]int32, 40)
	for k := range counts {
		counts[k] = int32(k * 3)
	}
	for i := 3; i < len(in); i++ {
		op := in[i] % 8
		arg := 0
		if i+1 < len(in) {
			arg = int(in[i+1])
		}
		switch op {
		case 0, 1, 2, 3: // Assign; op chooses a nested message to clear after it
			i++
			v := pb.StampedFields{
				Seq: uint32(arg) * 3, FrameId: text(byte(i), arg%40), Blob: []byte(text(byte(i+3), (arg*5)%30)),
				Value: float64(arg) / 7, Stamp: timestamppbphaser.TimestampFields{Seconds: int64(arg) << 33, Nanos: int32(arg) * 1000},
				Part: pb.Stamped_PartFields{N: -int32(arg), Tag: text(byte(i+7), (arg*3)%20), At: timestamppbphaser.TimestampFields{Seconds: int64(arg), Nanos: int32(arg)},
					Colors: colors[:arg%len(colors)]},
				// up to 5 elements in a fixed array of 4 (List.Assign refuses 5), and up to 40
				Covariance: covariance[:arg%6], Counts: counts[:(arg*7)%41],
			}
			fast.Assign(&v)
			assignNestedSlow(slow, &v)
			switch op {
			case 1:
				fast.ClearStamp()
				slow.ClearStamp()
			case 2:
				fast.ClearPart()
				slow.ClearPart()
			case 3:
				if arg&1 != 0 {
					fast.MutablePart().ClearAt()
					slow.MutablePart().ClearAt()
				}
			}
		case 4: // a nested message's string, or a vector, set between Assigns
			i++
			if arg&1 != 0 {
				fast.Counts().Assign(counts[:arg%41]...)
				slow.Counts().Assign(counts[:arg%41]...)
				break
			}
			s := text(byte(i), arg%30)
			fast.MutablePart().SetTag(s)
			slow.MutablePart().SetTag(s)
		case 5: // a nested message cleared, or created
			i++
			switch arg % 3 {
			case 0:
				fast.ClearStamp()
				slow.ClearStamp()
			case 1:
				fast.ClearPart()
				slow.ClearPart()
			default:
				fast.MutablePart().MutableAt().SetNanos(int32(arg))
				slow.MutablePart().MutableAt().SetNanos(int32(arg))
			}
		case 6: // bytes aliasing the payload
			i++
			v := pb.StampedFields{Seq: uint32(arg), FrameId: text(byte(i), arg%24), Stamp: timestamppbphaser.TimestampFields{Nanos: 1}}
			vs := v
			v.Blob, vs.Blob = fast.FrameIdBytes(), slow.FrameIdBytes()
			fast.Assign(&v)
			assignNestedSlow(slow, &vs)
		case 7: // the same bytes changed behind both handles
			var ok bool
			if i, ok = assigntest.Poke(in, i, fast.Msg(), slow.Msg()); !ok {
				return
			}
		}
		assigntest.Same(t, i, op, fast.Msg(), slow.Msg())
	}
}

// FuzzAssignNested runs assignNestedRun on inputs the fuzzer makes.
func FuzzAssignNested(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 0, 10, 0, 12, 0, 11, 0, 40, 0, 9},
		{1, 0, 200, 0, 20, 1, 20, 0, 33, 2, 5, 0, 7},
		{2, 1, 9, 0, 8, 4, 30, 0, 8, 5, 0, 0, 4, 5, 1, 0, 12, 3, 3, 0, 3},
		{3, 0, 50, 0, 16, 7, 60, 0, 200, 0, 16, 7, 33, 1, 8, 0, 16},
		{0, 1, 0, 6, 10, 0, 7, 5, 2, 0, 99, 6, 1, 0, 2},
	} {
		f.Add(seed)
	}
	f.Fuzz(assignNestedRun)
}

// TestAssignNestedRefill checks that an Assign of a message with nested
// messages, whose strings fit the blocks the message holds, allocates
// nothing, leaves the payload as long as it was, and reads what it set;
// and that it took the straight line: the payload is the one Clear and the
// setters make.
func TestAssignNestedRefill(t *testing.T) {
	x, err := pb.NewStampedIn(make([]byte, 1024), runtime.Options{Version: payloadbuffer.V3})
	if err != nil {
		t.Fatal(err)
	}
	v := pb.StampedFields{
		Seq: 1, Stamp: timestamppbphaser.TimestampFields{Seconds: 2, Nanos: 3}, FrameId: "a frame of 20 bytes!",
		Part: pb.Stamped_PartFields{N: 4, Tag: "a tag", At: timestamppbphaser.TimestampFields{Seconds: 5}, Colors: []pb.Color{1, 2}},
		Blob: []byte("blob"), Covariance: []float64{1, 2, 3, 4}, Counts: []int32{5, 6, 7},
	}
	x.Assign(&v)
	n := len(x.Bytes())
	w := pb.StampedFields{
		Seq: 7, Stamp: timestamppbphaser.TimestampFields{Seconds: 8, Nanos: 9}, FrameId: "shorter",
		Part: pb.Stamped_PartFields{N: 10, Tag: "tag", At: timestamppbphaser.TimestampFields{Nanos: 11}, Colors: []pb.Color{2}},
		Blob: []byte("b"), Value: 1.5, Covariance: []float64{9, 8}, Counts: []int32{1, 2, 3},
	}
	if allocs := testing.AllocsPerRun(100, func() { x.Assign(&w) }); allocs != 0 {
		t.Errorf("Assign allocates %v times", allocs)
	}
	if len(x.Bytes()) != n || x.FrameId() != w.FrameId || x.Stamp().Nanos() != 9 || x.Part().Tag() != "tag" ||
		x.Part().At().Nanos() != 11 || !x.Part().At().HasSeconds() || x.Value() != 1.5 || x.Covariance().At(1) != 8 ||
		x.Counts().Len() != 3 || x.Counts().At(2) != 3 || x.Part().Colors().Len() != 1 {
		t.Errorf("after Assign: %d bytes (was %d), %q %d %q %d %v", len(x.Bytes()), n, x.FrameId(), x.Stamp().Nanos(),
			x.Part().Tag(), x.Part().At().Nanos(), x.Value())
	}
}

// TestAssignSpan checks the Assign of a message of nested messages only
// (no string to check) against Clear and the setters, through the straight
// line (the second and later Assigns) and after a nested message cleared.
func TestAssignSpan(t *testing.T) {
	opts := runtime.Options{Version: payloadbuffer.V3}
	fast, slow := pb.NewSpan(opts), pb.NewSpan(opts)
	for i := range int64(4) {
		v := pb.SpanFields{Start: timestamppbphaser.TimestampFields{Seconds: i, Nanos: 1}, End: timestamppbphaser.TimestampFields{Seconds: i + 1}}
		fast.Assign(&v)
		slow.Clear()
		slow.MutableStart().SetSeconds(v.Start.Seconds)
		slow.MutableStart().SetNanos(v.Start.Nanos)
		slow.MutableEnd().SetSeconds(v.End.Seconds)
		slow.MutableEnd().SetNanos(v.End.Nanos)
		if i == 2 {
			fast.ClearEnd()
			slow.ClearEnd()
		}
		if f, s := fast.Bytes(), slow.Bytes(); !bytes.Equal(f, s) {
			t.Fatalf("Assign %d: the payload differs from Clear and the setters':\n%x\n%x", i, f, s)
		}
	}
	if allocs := testing.AllocsPerRun(50, func() { fast.Assign(&pb.SpanFields{End: timestamppbphaser.TimestampFields{Nanos: 5}}) }); allocs != 0 {
		t.Errorf("Assign allocates %v times", allocs)
	}
	if fast.End().Nanos() != 5 || !fast.HasStart() || fast.Start().Seconds() != 0 {
		t.Errorf("after Assign: end %d, start present %v, %d", fast.End().Nanos(), fast.HasStart(), fast.Start().Seconds())
	}
}
