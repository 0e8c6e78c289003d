package impl_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/impl"
)

// goldenTypes registers the runtime Types of every message in the golden
// schemas (Any values are resolved by name through the registry).
func goldenTypes(t *testing.T, dir string) *protoregistry.Files {
	t.Helper()
	files, err := goldens.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	mds, err := goldens.Messages(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range mds {
		if _, err := impl.TypeOf(md); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestGoldenRead reads every C++ payload and checks it holds exactly the
// case's values. Where a C++ 2.1 bug corrupted the payload (pb_parse FAILED)
// the bug-free payload of goldens_fixed is read; where a bug made C++ read
// wrong values (fixed_rt_content DIFFERENT: presence of ids >= 32) the C++
// payload is read and compared with the bug-free values.
func TestGoldenRead(t *testing.T) {
	dir := goldens.Dir(t)
	fixedDir := goldens.FixedDir(t)
	goldenTypes(t, dir)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src := dir
			if c.PBParse == "FAILED" {
				src = fixedDir
			}
			data, err := c.Read(src, ".phaser.bin")
			if err != nil {
				t.Fatal(err)
			}
			valuesDir := src
			if c.FixedRTContent == "DIFFERENT" {
				valuesDir = fixedDir
			}
			want, err := c.Values(valuesDir)
			if err != nil {
				t.Fatal(err)
			}
			md, err := c.MessageDescriptor(dir)
			if err != nil {
				t.Fatal(err)
			}
			typ, err := impl.TypeOf(md)
			if err != nil {
				t.Fatal(err)
			}
			m, err := impl.Read(typ, data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.ToProto(typ)
			if err != nil {
				t.Fatal(err)
			}
			assertSameContent(t, got, want)
		})
	}
}

// assertSameContent compares two messages by their deterministic encoding,
// which also tells NaN payloads apart.
func assertSameContent(t *testing.T, got, want proto.Message) {
	t.Helper()
	opts := proto.MarshalOptions{Deterministic: true}
	gb, err := opts.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	wb, err := opts.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gb, wb) {
		t.Errorf("content differs\n got: %s\nwant: %s", prototext.Format(got), prototext.Format(want))
	}
}
