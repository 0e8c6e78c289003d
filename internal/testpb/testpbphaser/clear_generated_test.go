package testpbphaser_test

import (
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/assigntest"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// stampedValue is a Stamped value made from arg and i: strings that fit
// the blocks of the last fill, outgrow them or are empty, up to 5
// elements in a fixed array of 4 (List.Assign refuses 5), and up to 40.
func stampedValue(arg, i int) pb.StampedFields {
	text := func(c, n int) string { return strings.Repeat(string(rune('a'+c%26)), n) }
	colors := []pb.Color{1, -1, 2, 0, 1}
	covariance := []float64{1.5, -2, 3, 4, 5}
	counts := make([]int32, 40)
	for k := range counts {
		counts[k] = int32(k * 3)
	}
	return pb.StampedFields{
		Seq: uint32(arg) * 3, FrameId: text(i, arg%40), Blob: []byte(text(i+3, (arg*5)%30)),
		Value: float64(arg) / 7, Stamp: timestamppbphaser.TimestampFields{Seconds: int64(arg) << 33, Nanos: int32(arg) * 1000},
		Part: pb.Stamped_PartFields{N: -int32(arg), Tag: text(i+7, (arg*3)%20), At: timestamppbphaser.TimestampFields{Seconds: int64(arg), Nanos: int32(arg)},
			Colors: colors[:arg%len(colors)]},
		Covariance: covariance[:arg%6], Counts: counts[:(arg*7)%41],
	}
}

// stampedClearOps are ClearRun's operations on Stamped: a string, bytes,
// two vectors, a nested message with a string, a nested message and a
// vector of its own, and a Timestamp.
var stampedClearOps = assigntest.ClearOps[pb.Stamped]{
	Msg:   pb.Stamped.Msg,
	Clear: pb.Stamped.Clear,
	Fill: func(x pb.Stamped, arg, i int) {
		v := stampedValue(arg, i)
		stampedFill(x, &v)
	},
	Assign: func(x pb.Stamped, arg, i int) {
		v := stampedValue(arg, i)
		x.Assign(&v)
	},
	Edit: func(x pb.Stamped, arg int) {
		switch arg % 6 {
		case 0:
			x.ClearStamp()
		case 1:
			x.ClearPart()
		case 2:
			x.MutablePart().ClearAt()
		case 3:
			x.MutablePart().SetTag(strings.Repeat("t", arg%30))
		case 4:
			x.Counts().Assign(make([]int32, arg%50)...)
		default:
			x.SetBlob(x.FrameIdBytes()) // bytes aliasing the payload
		}
	},
}

// FuzzClearGenerated runs assigntest.ClearRun on Stamped, whose generated
// Clear sets aside strings, vectors and nested messages two levels deep,
// for inputs the fuzzer makes.
func FuzzClearGenerated(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 0, 10, 0, 12, 1, 0, 11, 0, 40, 0, 9},
		{1, 0, 200, 0, 20, 3, 1, 0, 20, 1, 2, 33, 0, 5, 1, 0, 7},
		{2, 1, 9, 0, 8, 3, 30, 0, 8, 3, 5, 0, 4, 4, 1, 0, 12, 0, 3},
		{3, 0, 50, 0, 16, 4, 60, 0, 200, 0, 16, 4, 33, 1, 8, 0, 16},
		{0, 1, 0, 2, 10, 0, 7, 3, 2, 0, 99, 3, 4, 1, 0, 2, 0, 40},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 300 {
			return
		}
		fast, slow, ok := assigntest.Twins(in, 128, pb.NewStamped, pb.NewStampedIn)
		if !ok {
			return
		}
		assigntest.ClearRun(t, in, fast, slow, stampedClearOps)
	})
}

// TestClearGenerated checks the generated Clear of a filled Stamped: the
// fill that follows leaves the payload as long as it was and reads back
// what it set, the Clear allocates nothing, and every field it cleared
// reads absent. (That its payload is the runtime's Clear's, byte for byte,
// is FuzzClearGenerated's check.)
func TestClearGenerated(t *testing.T) {
	x, err := pb.NewStampedIn(make([]byte, 1024), runtime.Options{Version: payloadbuffer.V3})
	if err != nil {
		t.Fatal(err)
	}
	v := stampedValue(17, 3)
	stampedFill(x, &v)
	n := len(x.Bytes())
	for range 3 {
		x.Clear()
		stampedFill(x, &v)
	}
	if allocs := testing.AllocsPerRun(100, x.Clear); allocs != 0 {
		t.Errorf("Clear: %v allocations, want 0", allocs)
	}
	stampedFill(x, &v)
	if len(x.Bytes()) != n {
		t.Errorf("after Clear and fill the payload is %d bytes, want %d (the blocks not taken back)", len(x.Bytes()), n)
	}
	if x.FrameId() != v.FrameId || x.Part().Tag() != v.Part.Tag || x.Counts().Len() != len(v.Counts) {
		t.Errorf("after Clear and fill: frame %q tag %q counts %d, want %q %q %d", x.FrameId(), x.Part().Tag(), x.Counts().Len(), v.FrameId, v.Part.Tag, len(v.Counts))
	}
	x.Clear()
	if x.HasFrameId() || x.HasPart() || x.Counts().Len() != 0 {
		t.Error("Clear left fields present")
	}
}
