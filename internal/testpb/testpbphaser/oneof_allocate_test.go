package testpbphaser_test

import (
	"bytes"
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/testpb"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// AllocateX of a oneof string or bytes arm (a proto3 optional field
// included) makes the arm active, releasing the active one, exactly as
// SetX does: the same allocations, so the same payload bytes.
func TestAllocateOneofArm(t *testing.T) {
	for _, mk := range makers(pb.NewEverything, pb.NewEverythingIn) {
		t.Run(mk.name, func(t *testing.T) {
			a, b := mk.new(t), mk.new(t)
			a.SetChoiceInt32(5)
			b.SetChoiceInt32(5)
			copy(a.AllocateChoiceString(5), "hello")
			b.SetChoiceString("hello")
			if a.WhichChoice() != pb.Everything_ChoiceString_Case || a.ChoiceString() != "hello" || a.HasChoiceInt32() {
				t.Fatalf("after AllocateChoiceString: case %v, %q, int32 arm %v", a.WhichChoice(), a.ChoiceString(), a.HasChoiceInt32())
			}
			// From a string arm to a bytes arm: the string is freed.
			copy(a.AllocateChoiceBytes(3), "\x00\x01\x02")
			b.SetChoiceBytes([]byte("\x00\x01\x02"))
			// A proto3 optional string, allocated twice (the second
			// reuses or grows the first).
			copy(a.AllocateOptString(2), "ab")
			copy(a.AllocateOptString(7), "abcdefg")
			b.SetOptString("ab")
			b.SetOptString("abcdefg")
			if !a.HasOptString() || a.OptString() != "abcdefg" {
				t.Fatalf("after AllocateOptString: present %v, %q", a.HasOptString(), a.OptString())
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("Allocate and Set give different payloads\nallocate: % x\n     set: % x", a.Bytes(), b.Bytes())
			}
			got, err := a.ToProto()
			if err != nil {
				t.Fatal(err)
			}
			want := &testpb.Everything{
				Choice:    &testpb.Everything_ChoiceBytes{ChoiceBytes: []byte{0, 1, 2}},
				OptString: proto.String("abcdefg"),
			}
			gb, err := proto.MarshalOptions{Deterministic: true}.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			wb, _ := proto.MarshalOptions{Deterministic: true}.Marshal(want)
			if !bytes.Equal(gb, wb) {
				t.Errorf("content %v, want %v", got, want)
			}
			// Read back from the bytes alone.
			r, err := pb.ReadEverything(a.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if r.WhichChoice() != pb.Everything_ChoiceBytes_Case || string(r.ChoiceBytes()) != "\x00\x01\x02" || r.OptString() != "abcdefg" {
				t.Errorf("read back: case %v, % x, %q", r.WhichChoice(), r.ChoiceBytes(), r.OptString())
			}
		})
	}
}

// In a full fixed buffer AllocateX of a oneof arm returns nil and the
// message records the failure.
func TestAllocateOneofArmFull(t *testing.T) {
	x, err := pb.NewEverythingIn(make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	if s := x.AllocateChoiceString(1 << 20); s != nil {
		t.Fatalf("AllocateChoiceString(1 MiB) in a 4 KiB buffer returned %d bytes", len(s))
	}
	if !errors.Is(x.Err(), runtime.ErrFull) {
		t.Fatalf("Err() = %v, want ErrFull", x.Err())
	}
}
