package proto_test

import (
	"fmt"
	"testing"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// TestZeroAllocWire is the allocation budget of the protobuf wire path:
// AppendProto into a reused slice and UnmarshalProto into a warm buffer
// allocate nothing on the Go heap.
func TestZeroAllocWire(t *testing.T) {
	r := quickstartphaser.NewRobot()
	r.SetName("rover")
	r.SetId(9)
	r.MutablePose().SetX(1.5)
	r.MutableStamp().SetSeconds(100)
	for i := range 4 {
		r.BatteryCells().Append(float32(i))
		r.Path().Append().SetY(float64(i))
		r.Tags().Append("tag")
	}
	r.SetGoal("dock")
	wire, err := r.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(200, func() {
		buf, _ = r.AppendProto(buf[:0])
	}); n != 0 {
		t.Errorf("AppendProto: %v allocs/op, want 0", n)
	}
	dst := quickstartphaser.NewRobot()
	if err := dst.UnmarshalProto(wire); err != nil { // warm up: the buffer grows once
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(200, func() {
		if err := dst.UnmarshalProto(wire); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("UnmarshalProto: %v allocs/op, want 0", n)
	}
	if n := testing.AllocsPerRun(200, func() { _ = r.ProtoSize() }); n != 0 {
		t.Errorf("ProtoSize: %v allocs/op, want 0", n)
	}

	// Maps are written sorted by key, which needs scratch space: none on
	// the heap for up to 32 entries.
	e := testpbphaser.NewEverything()
	for _, k := range []string{"c", "a", "b", "a"} {
		kv := e.Counts().Append()
		kv.SetKey(k)
		kv.SetValue(int32(len(k)))
	}
	if n := testing.AllocsPerRun(100, func() {
		buf, _ = e.AppendProto(buf[:0])
	}); n != 0 {
		t.Errorf("AppendProto (map): %v allocs/op, want 0", n)
	}
}

// TestZeroAllocMaps is the allocation budget of writing maps: sorting the
// entries by key allocates nothing, whatever the key type.
func TestZeroAllocMaps(t *testing.T) {
	e := testpbphaser.NewEverything()
	for i := range 16 {
		kv := e.Counts().Append()
		kv.SetKey(fmt.Sprint("key", 15-i))
		kv.SetValue(int32(i))
		byID := e.ById().Append()
		byID.SetKey(int64(15 - i))
		byID.MutableValue().SetA(int32(i))
	}
	buf, err := e.AppendProto(nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		buf, _ = e.AppendProto(buf[:0])
	}); n != 0 {
		t.Errorf("AppendProto (maps of 16): %v allocs/op, want 0", n)
	}
}

// TestZeroAllocAny is the allocation budget of writing a
// google.protobuf.Any: finding the embedded type by name allocates nothing.
func TestZeroAllocAny(t *testing.T) {
	e := testpbphaser.NewEverything()
	testpbphaser.MutableAnyScalars(e.MutableAny()).SetFString("value")
	buf, err := e.AppendProto(nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		buf, _ = e.AppendProto(buf[:0])
	}); n != 0 {
		t.Errorf("AppendProto (Any): %v allocs/op, want 0", n)
	}
}
