package goldens

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
)

func TestValues(t *testing.T) {
	for set, dir := range goldenSets(t) {
		t.Run(set, func(t *testing.T) {
			cases, err := Manifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			types, err := Types(dir)
			if err != nil {
				t.Fatal(err)
			}
			goOrder := 0
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					m, err := c.Values(dir)
					if err != nil {
						t.Fatal(err)
					}
					if got := m.ProtoReflect().Descriptor().FullName(); string(got) != c.MessageType {
						t.Fatalf("message type %s, want %s", got, c.MessageType)
					}
					ref, err := c.Read(dir, ".pbref.bin")
					if errors.Is(err, os.ErrNotExist) {
						if c.PBRefBytes != -1 {
							t.Fatalf("no .pbref.bin but manifest says %d bytes", c.PBRefBytes)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					canon, err := MarshalCanonical(m, types)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(canon, ref) {
						t.Errorf("MarshalCanonical(values) != .pbref.bin\n got %x\nwant %x", canon, ref)
					}
					det, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(det, ref) {
						// proto.Marshal writes oneof fields after the others:
						// same content, different field order.
						goOrder++
						back := dynamicpb.NewMessage(m.ProtoReflect().Descriptor())
						if err := (proto.UnmarshalOptions{Resolver: types}).Unmarshal(ref, back); err != nil {
							t.Fatal(err)
						}
						if !proto.Equal(back, m) {
							t.Errorf(".pbref.bin does not decode to the content of .txt")
						}
					}
				})
			}
			t.Logf("%d of %d cases: proto.Marshal(Deterministic) differs from .pbref.bin only in field order", goOrder, len(cases))
		})
	}
}

func TestFilesMemoized(t *testing.T) {
	dir := Dir(t)
	a, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Files(dir + "/.")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("Files is not memoized per directory")
	}
	for _, name := range []string{"oracle.core.Record", "oracle.extra.AllRepeated", "oracle.ros.Sensor", "google.protobuf.Any", "std_msgs.Header", "oracle.p2.P2"} {
		if _, err := a.FindDescriptorByName(protoreflectName(name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Files(t.TempDir()); err == nil {
		t.Error("Files of a directory without protos: no error")
	}
}
