package testpbphaser_test

import (
	"math"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/assigntest"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// assignSlow is what the generated Assign is defined as: Clear, then every
// field's setter. It is written out here rather than the generated
// fallback (assignSetters) called, so that FuzzAssign checks that fallback
// as well as the straight line.
func assignSlow(x pb.Scalars, v *pb.ScalarsFields) {
	x.Clear()
	x.SetFDouble(v.FDouble)
	x.SetFFloat(v.FFloat)
	x.SetFInt32(v.FInt32)
	x.SetFInt64(v.FInt64)
	x.SetFUint32(v.FUint32)
	x.SetFUint64(v.FUint64)
	x.SetFSint32(v.FSint32)
	x.SetFSint64(v.FSint64)
	x.SetFFixed32(v.FFixed32)
	x.SetFFixed64(v.FFixed64)
	x.SetFSfixed32(v.FSfixed32)
	x.SetFSfixed64(v.FSfixed64)
	x.SetFBool(v.FBool)
	x.SetFString(v.FString)
	x.SetFBytes(v.FBytes)
	x.SetFColor(v.FColor)
}

// assignRun is FuzzAssign's run of in: two Scalars roots in buffers of the
// same kind (fixed of a size in chooses, or owned; scrubbing or not) go
// through the same operations, except that where one calls the generated
// Assign the other calls Clear and every setter. After every operation the
// two payloads are byte for byte the same and fail alike. Among the
// operations: values whose strings fit the blocks kept, outgrow them or are
// empty, bytes that alias the payload, single setters and clears between
// the Assigns, and bytes of the payload changed behind both handles (the
// same change to each), so that Assign meets blocks whose length words are
// not what it wrote.
func assignRun(t *testing.T, in []byte) {
	if len(in) < 3 || len(in) > 300 {
		return
	}
	fast, slow, ok := assigntest.Twins(in, 128, pb.NewScalars, pb.NewScalarsIn)
	if !ok {
		return
	}
	text := func(c byte, n int) string { return strings.Repeat(string(rune('a'+c%26)), n) }
	for i := 3; i < len(in); i++ {
		op := in[i] % 8
		arg := 0
		if i+1 < len(in) {
			arg = int(in[i+1])
		}
		switch op {
		case 0, 1, 2, 3: // Assign, strings of up to 63 bytes
			i++
			v := pb.ScalarsFields{
				FDouble: float64(arg) / 3, FFloat: float32(arg), FInt32: -int32(arg), FInt64: int64(arg) << 40,
				FUint32: uint32(arg) * 7, FUint64: math.MaxUint64 - uint64(arg), FSint32: int32(arg) - 100,
				FSint64: -int64(arg) << 20, FFixed32: uint32(arg), FFixed64: uint64(arg) << 33, FSfixed32: int32(arg),
				FSfixed64: int64(arg), FBool: arg&1 != 0, FString: text(byte(i), arg%64),
				FBytes: []byte(text(byte(i+5), (arg*7)%40)), FColor: pb.Color(arg % 3),
			}
			fast.Assign(&v)
			assignSlow(slow, &v)
		case 4: // bytes aliasing the payload
			i++
			v := pb.ScalarsFields{FInt32: int32(arg), FString: text(byte(i), arg%24)}
			vs := v
			v.FBytes, vs.FBytes = fast.FStringBytes(), slow.FStringBytes()
			fast.Assign(&v)
			assignSlow(slow, &vs)
		case 5: // a setter between Assigns
			i++
			s := text(byte(i), arg%50)
			fast.SetFString(s)
			slow.SetFString(s)
		case 6:
			fast.ClearFBytes()
			slow.ClearFBytes()
		case 7: // the same bytes changed behind both handles
			var ok bool
			if i, ok = assigntest.Poke(in, i, fast.Msg(), slow.Msg()); !ok {
				return
			}
		}
		assigntest.Same(t, i, op, fast.Msg(), slow.Msg())
	}
}

// FuzzAssign runs assignRun on inputs the fuzzer makes.
func FuzzAssign(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 0, 10, 1, 12, 2, 11, 3, 40, 0, 9},
		{1, 0, 200, 0, 20, 0, 20, 0, 63, 0, 5, 0, 0},
		{2, 1, 9, 0, 8, 5, 30, 0, 8, 6, 0, 9, 4, 10, 0, 12},
		{3, 0, 50, 0, 16, 7, 60, 0, 200, 0, 16, 7, 33, 1, 8, 0, 16},
		{0, 1, 0, 2, 100, 4, 7, 0, 99, 5, 1, 1, 2},
	} {
		f.Add(seed)
	}
	f.Fuzz(assignRun)
}

// TestAssignRefill checks that an Assign whose strings fit the blocks the
// message holds allocates nothing and leaves the payload as long as it was,
// and reads what it set.
func TestAssignRefill(t *testing.T) {
	x, err := pb.NewScalarsIn(make([]byte, 1024), runtime.Options{Version: payloadbuffer.V3})
	if err != nil {
		t.Fatal(err)
	}
	v := pb.ScalarsFields{FInt32: 1, FString: "a string of 20 bytes", FBytes: []byte("twelve bytes")}
	x.Assign(&v)
	n := len(x.Bytes())
	w := pb.ScalarsFields{FInt32: 2, FString: "shorter", FBytes: []byte("eleven byte")}
	if allocs := testing.AllocsPerRun(100, func() { x.Assign(&w) }); allocs != 0 {
		t.Errorf("Assign allocates %v times", allocs)
	}
	if len(x.Bytes()) != n || x.FString() != w.FString || string(x.FBytes()) != string(w.FBytes) || x.FInt32() != 2 {
		t.Errorf("after Assign: %d bytes (was %d), %q, %q, %d", len(x.Bytes()), n, x.FString(), x.FBytes(), x.FInt32())
	}
}
