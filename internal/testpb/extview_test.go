package testpb_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// The reflection view shows a declared proto2 extension as protobuf-go
// does, as a field (the payload keeps it with the unknown fields): read
// with proto.GetExtension, printed by protojson and prototext, compared
// by proto.Equal, written with proto.SetExtension and ClearExtension,
// and left out of GetUnknown.
func TestViewExtensions(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		want := &testpb.Legacy{Id: gproto.Int32(7), Label: gproto.String("l")}
		gproto.SetExtension(want, testpb.E_LegacyExt, int32(-42))
		wire, err := gproto.MarshalOptions{Deterministic: true}.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		h := testpbphaser.NewLegacy(runtime.Options{Version: v})
		if err := h.UnmarshalProto(wire); err != nil {
			t.Fatal(err)
		}
		ro, err := testpbphaser.ReadLegacy(h.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, view := range []gproto.Message{h, ro} {
			if !gproto.HasExtension(view, testpb.E_LegacyExt) {
				t.Fatalf("%s: HasExtension is false", v)
			}
			if got := gproto.GetExtension(view, testpb.E_LegacyExt).(int32); got != -42 {
				t.Fatalf("%s: GetExtension = %d, want -42", v, got)
			}
			if u := view.ProtoReflect().GetUnknown(); len(u) != 0 {
				t.Fatalf("%s: GetUnknown = % x, want none (the extension is a field)", v, u)
			}
			if !gproto.Equal(view, want) || !gproto.Equal(want, view) {
				t.Fatalf("%s: proto.Equal is false", v)
			}
			for _, o := range jsonOptions {
				g, _ := o.Marshal(view)
				w, _ := o.Marshal(want)
				if !bytes.Equal(g, w) || !bytes.Contains(g, []byte("[phasertest.legacy_ext]")) {
					t.Fatalf("%s: protojson\n got %s\nwant %s", v, g, w)
				}
			}
			if g, w := prototext.Format(view), prototext.Format(want); g != w {
				t.Fatalf("%s: prototext\n got %s\nwant %s", v, g, w)
			}
		}

		// Writes: SetExtension replaces the records, ClearExtension drops
		// them, and the bytes are protobuf-go's each time.
		gproto.SetExtension(h, testpb.E_LegacyExt, int32(9))
		gproto.SetExtension(want, testpb.E_LegacyExt, int32(9))
		sameBytes(t, v.String()+" after SetExtension", h, want)
		gproto.ClearExtension(h, testpb.E_LegacyExt)
		gproto.ClearExtension(want, testpb.E_LegacyExt)
		sameBytes(t, v.String()+" after ClearExtension", h, want)
		if gproto.HasExtension(h, testpb.E_LegacyExt) {
			t.Fatalf("%s: HasExtension after ClearExtension", v)
		}

		// JSON with the extension, decoded into a view, keeps it.
		gproto.SetExtension(want, testpb.E_LegacyExt, int32(5))
		js, err := protojson.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		fromJSON := testpbphaser.NewLegacy(runtime.Options{Version: v})
		if err := protojson.Unmarshal(js, fromJSON); err != nil {
			t.Fatalf("%s: protojson.Unmarshal: %v", v, err)
		}
		sameBytes(t, v.String()+" from JSON", fromJSON, want)
		if err := fromJSON.Err(); err != nil {
			t.Fatalf("%s: payload error %v", v, err)
		}
	}
}

func sameBytes(t *testing.T, name string, got, want gproto.Message) {
	t.Helper()
	g, err := gproto.MarshalOptions{Deterministic: true}.Marshal(got)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	w, _ := gproto.MarshalOptions{Deterministic: true}.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Fatalf("%s:\n got % x\nwant % x", name, g, w)
	}
}

// proto.Equal of two views compares their unknown fields, as it does for
// protobuf-go's messages: views that differ only there are not equal
// (they compared equal before, the payloads' fast path looked at known
// fields only), and declared extensions compare by value, whatever the
// order their records arrived in.
func TestViewEqualUnknown(t *testing.T) {
	base := &testpb.Legacy{Id: gproto.Int32(1), Label: gproto.String("x")}
	wire, err := gproto.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	unknownA := protowire.AppendVarint(protowire.AppendTag(nil, 1000, protowire.VarintType), 1)
	unknownB := protowire.AppendVarint(protowire.AppendTag(nil, 1000, protowire.VarintType), 2)
	ext := func(n int32) []byte {
		return protowire.AppendVarint(protowire.AppendTag(nil, 100, protowire.VarintType), uint64(n))
	}
	decode := func(parts ...[]byte) testpbphaser.Legacy {
		h := testpbphaser.NewLegacy()
		if err := h.UnmarshalProto(append(bytes.Clone(wire), bytes.Join(parts, nil)...)); err != nil {
			t.Fatal(err)
		}
		return h
	}
	for _, c := range []struct {
		name  string
		a, b  testpbphaser.Legacy
		equal bool
	}{
		{"same unknown", decode(unknownA), decode(unknownA), true},
		{"other unknown value", decode(unknownA), decode(unknownB), false},
		{"unknown on one side", decode(unknownA), decode(), false},
		{"other extension value", decode(ext(1)), decode(ext(2)), false},
		{"extension on one side", decode(ext(1)), decode(), false},
		{"extension and unknown, either order", decode(ext(3), unknownA), decode(unknownA, ext(3)), true},
	} {
		if got := gproto.Equal(c.a, c.b); got != c.equal {
			t.Errorf("%s: proto.Equal = %v, want %v", c.name, got, c.equal)
		}
		if got := c.a.Equal(c.b); got != c.equal {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.equal)
		}
		// protobuf-go agrees.
		pa, pb := new(testpb.Legacy), new(testpb.Legacy)
		ba, _ := c.a.MarshalProto()
		bb, _ := c.b.MarshalProto()
		if err := gproto.Unmarshal(ba, pa); err != nil {
			t.Fatal(err)
		}
		if err := gproto.Unmarshal(bb, pb); err != nil {
			t.Fatal(err)
		}
		if got := gproto.Equal(pa, pb); got != c.equal {
			t.Errorf("%s: protobuf-go's proto.Equal = %v, the test expects %v", c.name, got, c.equal)
		}
	}
}
