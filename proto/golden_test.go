package proto_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	gproto "google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// registerGoldenTypes makes every golden schema message known to the
// runtime (Any values are resolved by name).
func registerGoldenTypes(t *testing.T, dir string) {
	t.Helper()
	mds, err := goldens.Messages(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range mds {
		if _, err := runtime.TypeOf(md); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGoldenProtoWire checks the wire format against C++ Phaser and
// libprotobuf: each golden payload marshals to exactly .pbref.bin
// (libprotobuf's deterministic encoding of the same content), and C++
// Phaser's own .pb.bin parses into a payload with the case's content.
func TestGoldenProtoWire(t *testing.T) {
	dir := goldens.Dir(t)
	fixedDir := goldens.FixedDir(t)
	registerGoldenTypes(t, dir)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src := dir
			if c.PBParse == "FAILED" || c.FixedRTContent == "DIFFERENT" {
				src = fixedDir // the content C++ meant to write
			}
			md, err := c.MessageDescriptor(dir)
			if err != nil {
				t.Fatal(err)
			}
			typ, err := runtime.TypeOf(md)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := c.Read(src, ".phaser.bin")
			if err != nil {
				t.Fatal(err)
			}
			m, err := runtime.Read(typ, payload)
			if err != nil {
				t.Fatal(err)
			}
			got, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if n, err := proto.Size(m); err != nil || n != len(got) {
				t.Errorf("Size = %d, %v; Marshal wrote %d bytes", n, err, len(got))
			}
			// Byte-equal to protobuf-go's deterministic encoding of the
			// case's values, and the same content as libprotobuf's
			// (.pbref.bin: every field by number, where protobuf-go puts
			// oneofs last).
			values, err := c.Values(src)
			if err != nil {
				t.Fatal(err)
			}
			want, err := gproto.MarshalOptions{Deterministic: true}.Marshal(values)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Marshal differs from protobuf-go\n got: % x\nwant: % x", got, want)
			}
			if ref, err := c.Read(src, ".pbref.bin"); err == nil {
				fromRef := runtime.New(typ)
				if err := proto.Unmarshal(ref, fromRef); err != nil {
					t.Fatalf("Unmarshal .pbref.bin: %v", err)
				}
				again, err := proto.Marshal(fromRef)
				if err != nil || !bytes.Equal(again, got) {
					t.Errorf(".pbref.bin parses to other content: % x, %v", again, err)
				}
			} else if !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}

			pb, err := c.Read(src, ".pb.bin")
			if err != nil {
				t.Fatal(err)
			}
			for _, tuning := range []runtime.Options{{}, {Tuning: 1}} {
				dst := runtime.New(typ, tuning)
				if err := proto.Unmarshal(pb, dst); err != nil {
					t.Fatalf("Unmarshal .pb.bin: %v", err)
				}
				values, err := c.Values(src)
				if err != nil {
					t.Fatal(err)
				}
				content, err := dst.ToProto()
				if err != nil {
					t.Fatal(err)
				}
				// Compare encodings: values may come from another
				// compilation of the schemas (goldens_fixed).
				cb, _ := gproto.MarshalOptions{Deterministic: true}.Marshal(content)
				vb, _ := gproto.MarshalOptions{Deterministic: true}.Marshal(values)
				if !bytes.Equal(cb, vb) {
					t.Errorf("Unmarshal .pb.bin gives\n%s\nwant\n%s", prototext.Format(content), prototext.Format(values))
				}
			}
		})
	}
}
