package testpbphaser_test

import (
	"errors"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// TestFixedArray checks the fixed-length facade of phaser.array_size
// fields (grid: int32[4], labels: string[2], cells: Inner[3]): N elements
// from creation, a write of an element stores the N, and no write stores
// more than N.
func TestFixedArray(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		t.Run(v.String(), func(t *testing.T) {
			opts := runtime.Options{Version: v}
			x := pb.NewEverything(opts)
			md := x.PhaserType().Descriptor()
			stored := func(name string) int { return x.Msg().Len(md.Fields().ByName(protoreflect.Name(name))) }

			// A fresh message: N default elements, none stored.
			if got := x.Grid().AppendTo(nil); !slices.Equal(got, []int32{0, 0, 0, 0}) {
				t.Errorf("fresh Grid = %v, want 4 zeros", got)
			}
			if x.Labels().Len() != 2 || x.Labels().At(1) != "" || x.Cells().Len() != 3 || x.Cells().At(2).IsPresent() || x.Cells().At(2).A() != 0 {
				t.Errorf("fresh Labels %d, Cells %d elements", x.Labels().Len(), x.Cells().Len())
			}
			if n := len(slices.Collect(func(yield func(pb.Inner) bool) {
				for _, e := range x.Cells().All() {
					if !yield(e) {
						return
					}
				}
			})); n != 3 {
				t.Errorf("Cells().All gave %d elements, want 3", n)
			}
			if stored("grid")+stored("labels")+stored("cells") != 0 {
				t.Error("a fresh message stores fixed-array elements")
			}
			if b, err := x.MarshalProto(); err != nil || len(b) != 0 {
				t.Errorf("fresh MarshalProto = % x, %v", b, err)
			}

			// A write of one element stores the N.
			x.Grid().Set(2, 7)
			x.Labels().Set(1, "b")
			x.Cells().Mutable(1).SetA(5)
			if got := x.Grid().AppendTo(nil); !slices.Equal(got, []int32{0, 0, 7, 0}) {
				t.Errorf("Grid = %v after Set(2, 7)", got)
			}
			if x.Labels().At(0) != "" || x.Labels().At(1) != "b" || x.Cells().At(1).A() != 5 || !x.Cells().At(0).IsPresent() {
				t.Error("Labels or Cells after a write of one element")
			}
			if stored("grid") != 4 || stored("labels") != 2 || stored("cells") != 3 {
				t.Errorf("stored %d, %d, %d elements, want 4, 2, 3", stored("grid"), stored("labels"), stored("cells"))
			}
			if x.Failed() || x.Err() != nil {
				t.Fatalf("writes in range: Failed %v, Err %v", x.Failed(), x.Err())
			}

			// No write stores more than N; each refusal is reported.
			for name, write := range map[string]func(x pb.Everything){
				"List.Set(4)":           func(x pb.Everything) { x.Grid().Set(4, 1) },
				"List.Append":           func(x pb.Everything) { x.Grid().Append(1) },
				"List.Resize(5)":        func(x pb.Everything) { x.Grid().Resize(5) },
				"List.Insert":           func(x pb.Everything) { x.Grid().Insert(0, 1) },
				"List.AppendN":          func(x pb.Everything) { x.Grid().AppendN(1, func(int) int32 { return 1 }) },
				"StringList.Set(2)":     func(x pb.Everything) { x.Labels().Set(2, "c") },
				"StringList.Append":     func(x pb.Everything) { x.Labels().Append("c") },
				"StringList.Insert":     func(x pb.Everything) { x.Labels().Insert(0, "c") },
				"MessageList.Append":    func(x pb.Everything) { x.Cells().Append() },
				"MessageList.Mutable":   func(x pb.Everything) { x.Cells().Mutable(3) },
				"MessageList.Allocate":  func(x pb.Everything) { x.Cells().Allocate(4) },
				"MessageList.Resize(4)": func(x pb.Everything) { x.Cells().Resize(4) },
			} {
				y := pb.NewEverything(opts)
				y.Msg().CopyFrom(x.Msg())
				write(y)
				x := y
				if !x.Failed() || !errors.Is(x.Err(), runtime.ErrArraySize) {
					t.Errorf("%s past N: Failed %v, Err %v", name, x.Failed(), x.Err())
				}
				if x.Grid().Len() != 4 || x.Labels().Len() != 2 || x.Cells().Len() != 3 || x.Grid().At(2) != 7 || x.Labels().At(1) != "b" {
					t.Errorf("%s past N changed the arrays", name)
				}
			}

			// Append stores up to N on an empty array.
			y := pb.NewEverything(opts)
			y.Grid().Append(3)
			y.Grid().Append(4)
			if got := y.Grid().AppendTo(nil); !slices.Equal(got, []int32{3, 4, 0, 0}) || y.Failed() {
				t.Errorf("two Appends: Grid = %v, Failed %v", got, y.Failed())
			}
		})
	}
}

// TestFixedArrayUnmarshal checks that protobuf bytes with more than N
// elements of a fixed array are refused, and that N or fewer round-trip
// unchanged (the protobuf bytes keep the elements stored).
func TestFixedArrayUnmarshal(t *testing.T) {
	grid := func(n int) []byte { // packed, as proto3 writes it
		var elems []byte
		for i := range n {
			elems = protowire.AppendVarint(elems, uint64(i+1))
		}
		return protowire.AppendBytes(protowire.AppendTag(nil, 70, protowire.BytesType), elems)
	}
	cells := func(n int) []byte {
		var b []byte
		for range n {
			b = protowire.AppendTag(b, 72, protowire.BytesType)
			b = protowire.AppendBytes(b, nil)
		}
		return b
	}
	labels := func(n int) []byte {
		var b []byte
		for range n {
			b = protowire.AppendTag(b, 71, protowire.BytesType)
			b = protowire.AppendString(b, "s")
		}
		return b
	}
	for _, tc := range []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"grid 3", grid(3), true},
		{"grid 4", grid(4), true},
		{"grid 5", grid(5), false},
		{"unpacked grid 5", protowire.AppendVarint(protowire.AppendTag(grid(4), 70, protowire.VarintType), 5), false},
		{"labels 2", labels(2), true},
		{"labels 3", labels(3), false},
		{"cells 3", cells(3), true},
		{"cells 4", cells(4), false},
	} {
		for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
			x := pb.NewEverything(runtime.Options{Version: v})
			err := x.UnmarshalProto(tc.in)
			if !tc.ok {
				if !errors.Is(err, runtime.ErrArraySize) {
					t.Errorf("%s %s: UnmarshalProto = %v, want ErrArraySize", tc.name, v, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: UnmarshalProto: %v", tc.name, v, err)
				continue
			}
			out, err := x.MarshalProto()
			if err != nil || string(out) != string(tc.in) {
				t.Errorf("%s %s: MarshalProto = % x, %v, want % x", tc.name, v, out, err, tc.in)
			}
		}
	}
}
