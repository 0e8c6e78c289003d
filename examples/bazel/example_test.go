// Package bazel_test runs the handles that phaser_go_library generated:
// a payload written through them, its protobuf bytes, the protoc-gen-go
// type those bytes decode to, and back.
package bazel_test

import (
	"bytes"
	"fmt"
	"log"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/examples/bazel/telemetrypb"
	"github.com/phaser-go/phaser/examples/bazel/telemetrypb/telemetrypbphaser"
)

// Example writes a Sample through its handles, sends its protobuf bytes to
// a reader of the protoc-gen-go type, and turns that type back into a
// Phaser payload.
func Example() {
	s := telemetrypbphaser.NewSample()
	s.SetSensor("imu-0")
	s.MutableStamp().SetSeconds(1_700_000_000)
	s.SetStatus(telemetrypbphaser.Status_STATUS_OK)
	for _, v := range []float64{0, 0.5, 1, 1.5} {
		s.Window().Append(v)
	}
	s.Notes().Append("calibrated")
	if s.Failed() {
		log.Fatal(s.Err())
	}

	// Handles -> protobuf bytes -> the protoc-gen-go type.
	wire, err := s.MarshalProto()
	if err != nil {
		log.Fatal(err)
	}
	var pb telemetrypb.Sample
	if err := proto.Unmarshal(wire, &pb); err != nil {
		log.Fatal(err)
	}
	fmt.Println(pb.GetSensor(), pb.GetStamp().GetSeconds(), pb.GetStatus(), pb.GetWindow(), pb.GetNotes())

	// And back: protoc-gen-go type -> a payload.
	pb.Status = telemetrypb.Status_STATUS_FAULT
	back := telemetrypbphaser.NewSample()
	if err := back.FromProto(&pb); err != nil {
		log.Fatal(err)
	}
	fmt.Println(back.Sensor(), back.Status(), back.Window().Len(), back.Notes().At(0))
	// Output:
	// imu-0 1700000000 STATUS_OK [0 0.5 1 1.5] [calibrated]
	// imu-0 STATUS_FAULT 4 calibrated
}

// TestRoundTrip checks that the handles and protoc-gen-go agree byte for
// byte on a message written either way.
func TestRoundTrip(t *testing.T) {
	want := &telemetrypb.Sample{
		Sensor: "lidar-2",
		Stamp:  &timestamppb.Timestamp{Seconds: 42, Nanos: 7},
		Status: telemetrypb.Status_STATUS_FAULT,
		Window: []float64{1, 2, 3, 4},
		Notes:  []string{"a", "", "c"},
	}
	h := telemetrypbphaser.NewSample()
	if err := h.FromProto(want); err != nil {
		t.Fatal(err)
	}
	// The payload read back from its bytes alone, as a receiver would.
	got, err := telemetrypbphaser.ReadSample(h.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	pb, err := got.ToProto()
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(pb, want) {
		t.Errorf("ToProto = %v, want %v", pb, want)
	}
	wire, err := got.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := proto.MarshalOptions{Deterministic: true}.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(wire, ref) {
		t.Errorf("MarshalProto = %x, protoc-gen-go %x", wire, ref)
	}
}
