package ros_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// seedRobot returns the ROS bytes of a populated quickstart Robot.
func seedRobot(t testing.TB) []byte {
	r := quickstartphaser.NewRobot()
	r.SetName("rover")
	r.SetId(3)
	r.MutablePose().SetX(1)
	r.MutableStamp().SetSeconds(5)
	r.BatteryCells().Append(3.5)
	r.Path().Append().SetY(2)
	r.Tags().Append("t")
	r.SetDock(4)
	b, err := ros.Marshal(r.Msg())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzUnmarshalROS parses arbitrary bytes as a ROS1 Robot: no panic, errors
// wrap ErrInvalid (or ErrFull for the fixed buffer), the payload stays in
// proportion to the input, and what parses serializes back to the input and
// converts to protobuf like the payload does.
func FuzzUnmarshalROS(f *testing.F) {
	typ := quickstartphaser.Robot{}.PhaserType()
	seed := seedRobot(f)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		fixed, err := runtime.NewIn(typ, make([]byte, 2048))
		if err != nil {
			t.Fatal(err)
		}
		if err := ros.Unmarshal(data, fixed); err != nil && !errors.Is(err, ros.ErrInvalid) && !errors.Is(err, runtime.ErrFull) {
			t.Fatalf("error kind: %v", err)
		}
		m := runtime.New(typ)
		err = ros.Unmarshal(data, m)
		pb, cerr := ros.ROSToProto(nil, data, typ)
		if err != nil {
			if !errors.Is(err, ros.ErrInvalid) {
				t.Fatalf("error kind: %v", err)
			}
			if cerr == nil {
				t.Fatalf("ROSToProto accepts what Unmarshal rejects (%v)", err)
			}
			return
		}
		if errors.Is(cerr, proto.ErrInvalidUTF8) {
			// A ROS1 string that protobuf cannot carry: the payload
			// holds it, and its Marshal refuses it as ROSToProto does.
			if _, err := proto.Marshal(m); !errors.Is(err, proto.ErrInvalidUTF8) {
				t.Fatalf("ROSToProto: %v; proto.Marshal: %v", cerr, err)
			}
			return
		}
		if cerr != nil {
			t.Fatalf("ROSToProto rejects what Unmarshal accepts: %v", cerr)
		}
		if n := len(m.Bytes()); n > 64*len(data)+1<<14 {
			t.Fatalf("%d input bytes made a %d-byte payload", len(data), n)
		}
		back, err := ros.Marshal(m)
		if errors.Is(err, ros.ErrRange) {
			// A ROS time whose nanoseconds carry its seconds past
			// 2^32-1 reads, normalized as genpy's canon() does, as a
			// value ROS1 cannot write back; protobuf holds it.
			if ref, err := proto.Marshal(m); err != nil || !bytes.Equal(pb, ref) {
				t.Fatalf("ROSToProto of a time out of the ROS range\n got: % x\nwant: % x (%v)", pb, ref, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		// Serializing is canonical (bools 0/1, time and duration
		// normalized): a second round trip changes nothing.
		again := runtime.New(typ)
		if err := ros.Unmarshal(back, again); err != nil {
			t.Fatalf("our own bytes do not parse: %v", err)
		}
		if b2, _ := ros.Marshal(again); !bytes.Equal(b2, back) {
			t.Fatalf("round trip\n got: % x\nwant: % x", b2, back)
		}
		if len(back) != len(data) {
			t.Fatalf("round trip changed the length: %d -> %d", len(data), len(back))
		}
		ref, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pb, ref) {
			t.Fatalf("ROSToProto\n got: % x\nwant: % x", pb, ref)
		}
		direct, err := ros.ProtoToROS(nil, pb, typ)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(direct, back) {
			t.Fatalf("ProtoToROS(ROSToProto(x))\n got: % x\nwant: % x", direct, back)
		}
	})
}

// TestZeroAllocROS is the allocation budget of the ROS1 path: AppendROS into
// a reused slice, UnmarshalROS into a warm buffer and ProtoToROS into a
// reused slice allocate nothing on the Go heap.
func TestZeroAllocROS(t *testing.T) {
	r := quickstartphaser.NewRobot()
	r.SetName("rover")
	r.MutablePose().SetX(1)
	r.MutableStamp().SetSeconds(5)
	for i := range 4 {
		r.BatteryCells().Append(float32(i))
		r.Path().Append().SetY(float64(i))
		r.Tags().Append("t")
	}
	r.SetDock(3)
	wire, err := r.MarshalROS()
	if err != nil {
		t.Fatal(err)
	}
	pb, err := r.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	dst := quickstartphaser.NewRobot()
	if err := dst.UnmarshalROS(wire); err != nil {
		t.Fatal(err)
	}
	typ := r.PhaserType()
	for name, fn := range map[string]func(){
		"AppendROS":    func() { buf, _ = r.AppendROS(buf[:0]) },
		"UnmarshalROS": func() { _ = dst.UnmarshalROS(wire) },
		"ProtoToROS":   func() { buf, _ = ros.ProtoToROS(buf[:0], pb, typ) },
		"ROSSize":      func() { _ = r.ROSSize() },
		"ROSToProto":   func() { buf, _ = ros.ROSToProto(buf[:0], wire, typ) },
		"PhaserToROS":  func() { buf, _ = ros.PhaserToROS(buf[:0], r.Bytes(), typ) },
		"ConvertToROS": func() { buf, _ = ros.ConvertToROS(buf[:0], pb, typ) },
	} {
		n := testing.AllocsPerRun(100, fn)
		t.Logf("%s: %v allocs/op", name, n)
		if n != 0 {
			t.Errorf("%s: %v allocs/op, want 0", name, n)
		}
	}
}
