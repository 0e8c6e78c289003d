package testpbphaser_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// randomScalars returns values of every singular scalar of Scalars.
func randomScalars(r *rand.Rand) pb.ScalarsScalars {
	return pb.ScalarsScalars{
		FDouble: r.NormFloat64(), FFloat: float32(r.NormFloat64()), FInt32: int32(r.Uint32()),
		FInt64: int64(r.Uint64()), FUint32: r.Uint32(), FUint64: r.Uint64(), FSint32: int32(r.Uint32()),
		FSint64: int64(r.Uint64()), FFixed32: r.Uint32(), FFixed64: r.Uint64(), FSfixed32: int32(r.Uint32()),
		FSfixed64: int64(r.Uint64()), FBool: r.IntN(2) == 1, FColor: pb.Color(r.IntN(3)),
	}
}

// setEach is SetScalars through the field setters.
func setEach(x pb.Scalars, v *pb.ScalarsScalars) {
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
	x.SetFColor(v.FColor)
}

// TestSetScalars: SetScalars writes the payload byte for byte as the field
// setters do, in every format, tuning and buffer kind, on a new message,
// over values already there and after some fields were cleared; through a
// read-only handle it stores nothing and records what the setters record;
// it allocates nothing.
func TestSetScalars(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, mk := range makers(pb.NewScalars, pb.NewScalarsIn) {
		t.Run(mk.name, func(t *testing.T) {
			x, y := mk.new(t), mk.new(t)
			for i := range 50 {
				v := randomScalars(r)
				x.SetScalars(&v)
				setEach(y, &v)
				if !bytes.Equal(x.Bytes(), y.Bytes()) {
					t.Fatalf("round %d: SetScalars wrote\n%x\nthe setters\n%x", i, x.Bytes(), y.Bytes())
				}
				if got := x.View(); got.FSint64() != v.FSint64 || got.FColor() != v.FColor || math.Float64bits(got.FDouble()) != math.Float64bits(v.FDouble) {
					t.Fatalf("round %d: reads %d %v %v", i, got.FSint64(), got.FColor(), got.FDouble())
				}
				switch i % 3 {
				case 0:
					x.ClearFInt32()
					y.ClearFInt32()
					x.SetFString("s")
					y.SetFString("s")
				case 1:
					x.Clear()
					y.Clear()
				}
			}
			checkWritten(t, x)
			v := randomScalars(r)
			requireNoAllocs(t, "SetScalars", func() { x.SetScalars(&v) })

			ro, err := pb.ReadScalars(bytes.Clone(x.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			before := bytes.Clone(ro.Bytes())
			w := randomScalars(r)
			ro.SetScalars(&w)
			if !bytes.Equal(ro.Bytes(), before) || ro.Err() == nil {
				t.Fatalf("read-only: bytes changed %v, Err %v", !bytes.Equal(ro.Bytes(), before), ro.Err())
			}
			ro2, _ := pb.ReadScalars(bytes.Clone(x.Bytes()))
			ro2.SetFDouble(w.FDouble)
			if ro.Err().Error() != ro2.Err().Error() {
				t.Errorf("read-only: SetScalars records %v, a setter %v", ro.Err(), ro2.Err())
			}
			(pb.Scalars{}).SetScalars(&w) // ignored, as the setters ignore it
		})
	}
}
