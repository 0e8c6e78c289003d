// Package robot_test uses phaser-go from another Bazel workspace: handles
// generated from robot.proto with phaser-go's compiler, and the
// protoc-gen-go types of the same file, in one test.
package robot_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"example.com/consumer/robotpb"
	"example.com/consumer/robotpb/robotpbph"
	"example.com/consumer/robotpb/robotpbphaser"
)

func TestRobot(t *testing.T) {
	// A payload written through the go_proto_library's handles.
	r := robotpbphaser.NewRobot()
	r.SetName("arm-1")
	r.MutableStamp().SetSeconds(1_700_000_000)
	for i, name := range []string{"shoulder", "elbow", "wrist"} {
		j := r.Joints().Append()
		j.SetName(name)
		j.SetPosition(float64(i) * 0.25)
	}
	c := r.Counters().Append() // map entries, in insertion order
	c.SetKey("cycles")
	c.SetValue(12)
	if r.Failed() {
		t.Fatal(r.Err())
	}

	// Its protobuf bytes, read as the protoc-gen-go type.
	wire, err := r.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	var pb robotpb.Robot
	if err := proto.Unmarshal(wire, &pb); err != nil {
		t.Fatal(err)
	}
	if pb.GetName() != "arm-1" || pb.GetStamp().GetSeconds() != 1_700_000_000 ||
		len(pb.GetJoints()) != 3 || pb.GetJoints()[2].GetName() != "wrist" || pb.GetCounters()["cycles"] != 12 {
		t.Fatalf("protoc-gen-go read %v", &pb)
	}

	// The protoc-gen-go type into the macro's handles (FromProto), and the
	// two payloads read back the same.
	h := robotpbph.NewRobot()
	if err := h.FromProto(&pb); err != nil {
		t.Fatal(err)
	}
	got, err := robotpbphaser.ReadRobot(h.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// joints has (phaser.array_size) = 6: its list is 6 long whatever is stored.
	if got.Name() != r.Name() || got.Joints().Len() != 6 || got.Joints().At(1).Position() != 0.25 {
		t.Errorf("payload from FromProto reads name %q, %d joints", got.Name(), got.Joints().Len())
	}
	back, err := h.ToProto()
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(back, &pb) {
		t.Errorf("ToProto = %v, want %v", back, &pb)
	}
}
