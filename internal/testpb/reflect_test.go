package testpb_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// The reflection property test: random messages of schemas with every
// field kind (proto2 and proto3 scalars, enums open and closed, strings,
// bytes, nested and recursive messages, repeated packed and unpacked,
// oneofs, maps of every key kind, Any, the well-known types) are built in
// protobuf-go and, through the wire format, in Phaser payloads; the
// payloads' reflection views (generated handles and runtime.Msg, both
// payload formats and frontends, writable and read-only) must print as
// protobuf-go prints the message (protojson, prototext, with several
// options), compare equal to it (proto.Equal, protocmp), marshal to its
// bytes, and be rebuilt from its JSON, text and bytes and by proto.Merge
// through the views' setters.
//
// Half the messages also carry unknown fields on the wire (field numbers
// their schema does not declare, every wire type) in nested messages
// (singular, repeated, map values, oneof arms), a quarter at the top too;
// and the proto2 messages carry declared extensions of every kind at every
// depth. The payload keeps both; the views give the unknown fields back
// (GetUnknown, proto.Equal, the bytes, prototext's EmitUnknown; protojson,
// which drops them, rebuilds the message without them) and show the
// extensions as protobuf-go does, as fields. CopyFrom and clearing each
// field that holds messages give protobuf-go's bytes. To extend it: add the schema's fields to
// testdata/reflect, values to randomFill, and a root to propRoots.

// propRoot is a root message type of the property test.
type propRoot struct {
	name  string
	cases int
	// ref makes an empty protobuf-go message (generated, or dynamicpb of a
	// compiled schema), the reference.
	ref func() protoreflect.Message
	// create makes an empty phaser handle in a payload of options o;
	// read binds a read-only handle to payload bytes.
	create func(o runtime.Options) gproto.Message
	read   func(b []byte) (gproto.Message, error)
}

// generatedRoot is a root with generated handles of testpbphaser.
func generatedRoot[H gproto.Message](name string, cases int, ref gproto.Message, create func(...runtime.Options) H, read func([]byte) (H, error)) propRoot {
	return propRoot{
		name:   name,
		cases:  cases,
		ref:    func() protoreflect.Message { return ref.ProtoReflect().New() },
		create: func(o runtime.Options) gproto.Message { return create(o) },
		read:   func(b []byte) (gproto.Message, error) { return read(b) },
	}
}

// dynamicRoot is a root whose handles are runtime.Msg of the Type of md
// compiled for frontend fe, and whose reference is dynamicpb.
func dynamicRoot(t *testing.T, name string, cases int, md protoreflect.MessageDescriptor, fe runtime.Frontend) propRoot {
	typ, err := runtime.TypeFor(md, fe)
	if err != nil {
		t.Fatal(err)
	}
	return propRoot{
		name:   name,
		cases:  cases,
		ref:    func() protoreflect.Message { return dynamicpb.NewMessage(md) },
		create: func(o runtime.Options) gproto.Message { return runtime.New(typ, o) },
		read:   func(b []byte) (gproto.Message, error) { return runtime.Read(typ, b) },
	}
}

var (
	kindsOnce  sync.Once
	kindsFiles []protoreflect.FileDescriptor
)

// kindsSchema compiles testdata/reflect and registers its messages with
// protobuf-go's global types (as dynamicpb types, so that protojson and
// protocmp resolve Any values holding them) and with the runtime.
func kindsSchema(t *testing.T) (kinds, kinds2 protoreflect.MessageDescriptor) {
	kindsOnce.Do(func() {
		c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(
			&protocompile.SourceResolver{ImportPaths: []string{"testdata/reflect"}})}
		files, err := c.Compile(context.Background(), "kinds.proto", "kinds2.proto")
		if err != nil {
			t.Fatalf("compile testdata/reflect: %v", err)
		}
		for _, f := range files {
			kindsFiles = append(kindsFiles, f)
			for i := range f.Messages().Len() {
				md := f.Messages().Get(i)
				if err := protoregistry.GlobalTypes.RegisterMessage(dynamicpb.NewMessageType(md)); err != nil {
					t.Fatal(err)
				}
				if _, err := runtime.TypeOf(md); err != nil {
					t.Fatal(err)
				}
			}
			for i := range f.Extensions().Len() {
				if err := protoregistry.GlobalTypes.RegisterExtension(dynamicpb.NewExtensionType(f.Extensions().Get(i))); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	if len(kindsFiles) != 2 {
		t.Fatal("testdata/reflect did not compile")
	}
	return kindsFiles[0].Messages().ByName("Kinds"), kindsFiles[1].Messages().ByName("Kinds2")
}

// registerWellKnown gives the well-known types an Any may hold a runtime
// Type (generated handles exist for some of them only).
func registerWellKnown(t *testing.T) {
	for _, m := range []gproto.Message{&structpb.Struct{}, &structpb.Value{}, &structpb.ListValue{}, &timestamppb.Timestamp{}, &wrapperspb.Int32Value{}, &emptypb.Empty{}} {
		if _, err := runtime.TypeOf(m.ProtoReflect().Descriptor()); err != nil {
			t.Fatal(err)
		}
	}
}

func propRoots(t *testing.T) []propRoot {
	kinds, kinds2 := kindsSchema(t)
	return []propRoot{
		generatedRoot("Everything", 600, &testpb.Everything{}, testpbphaser.NewEverything, testpbphaser.ReadEverything),
		dynamicRoot(t, "Everything/dynamic-ros", 200, (&testpb.Everything{}).ProtoReflect().Descriptor(), runtime.ROSFrontend),
		generatedRoot("Legacy", 300, &testpb.Legacy{}, testpbphaser.NewLegacy, testpbphaser.ReadLegacy),
		generatedRoot("Scalars", 100, &testpb.Scalars{}, testpbphaser.NewScalars, testpbphaser.ReadScalars),
		generatedRoot("Repeated", 100, &testpb.Repeated{}, testpbphaser.NewRepeated, testpbphaser.ReadRepeated),
		generatedRoot("Wide", 100, &testpb.Wide{}, testpbphaser.NewWide, testpbphaser.ReadWide),
		dynamicRoot(t, "Kinds", 600, kinds, runtime.ProtobufFrontend),
		dynamicRoot(t, "Kinds/ros", 200, kinds, runtime.ROSFrontend),
		dynamicRoot(t, "Kinds2", 400, kinds2, runtime.ProtobufFrontend),
	}
}

// diffEvery: one message in diffEvery gets the protocmp comparison, the
// costliest check (proto.Equal and the outputs check every message), and
// the clearing of each field that holds messages, as costly; one in
// extraEvery the generated codecs and CopyFrom (every message without the
// race detector, which makes the package's tests approach their time
// limit).
var (
	diffEvery  = map[bool]uint64{false: 4, true: 8}[raceEnabled]
	extraEvery = map[bool]uint64{false: 1, true: 4}[raceEnabled]
)

func TestReflectProperty(t *testing.T) {
	registerAll(t)
	registerWellKnown(t)
	total, nested, exts := 0, 0, 0
	for _, root := range propRoots(t) {
		if raceEnabled {
			// Half the messages under the race detector, a quarter of the
			// costliest roots (dynamic, every kind): the package's tests
			// approach their time limit, and 1,000 messages remain.
			root.cases /= 2
			if strings.HasPrefix(root.name, "Kinds/") || root.name == "Kinds" {
				root.cases /= 2
			}
		}
		t.Run(root.name, func(t *testing.T) {
			for seed := range uint64(root.cases) {
				rng := rand.New(rand.NewPCG(seed, 0x5eed))
				ref := root.ref()
				randomFill(rng, ref, 0)
				switch seed % 4 {
				case 3: // unknown fields at the top and in nested messages
					ref.SetUnknown(randomUnknown(rng, ref.Descriptor()))
					nestedUnknown(rng, ref, 2)
				case 1: // in nested messages only
					nestedUnknown(rng, ref, 2)
				}
				if nestedHasUnknown(ref) {
					nested++
				}
				if hasExtension(ref) {
					exts++
				}
				v := payloadbuffer.V3
				if seed%3 == 1 {
					v = payloadbuffer.V2
				}
				checkReflect(t, fmt.Sprintf("seed %d %s", seed, v), root, ref, runtime.Options{Version: v}, seed%diffEvery == 0, seed%extraEvery == 0)
			}
		})
		total += root.cases
	}
	if total < 1000 {
		t.Fatalf("%d messages; the property test promises at least 1000", total)
	}
	t.Logf("%d messages, %d with unknown fields in nested messages, %d with extensions", total, nested, exts)
	if nested < total/5 {
		t.Fatalf("only %d of %d messages have unknown fields in nested messages", nested, total)
	}
	if exts < total/10 {
		t.Fatalf("only %d of %d messages have extensions", exts, total)
	}
}

var (
	jsonOptions = []protojson.MarshalOptions{
		{},
		{EmitUnpopulated: true, UseProtoNames: true},
		{UseEnumNumbers: true, EmitDefaultValues: true, Multiline: true},
	}
	textOptions = []prototext.MarshalOptions{{}, {Multiline: true, EmitUnknown: true}}
	cmpOptions  = []cmp.Option{protocmp.Transform(), cmpopts.EquateNaNs()}
)

// randomUnknown is 1 to 4 fields of numbers md does not declare, of every
// wire type, in canonical (shortest) tags.
func randomUnknown(rng *rand.Rand, md protoreflect.MessageDescriptor) protoreflect.RawFields {
	var b []byte
	for range 1 + rng.IntN(4) {
		num := protowire.Number(1000 + rng.IntN(1<<20))
		if md.Fields().ByNumber(num) != nil || md.ExtensionRanges().Has(num) {
			continue
		}
		switch rng.IntN(4) {
		case 0:
			b = protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), rng.Uint64()>>rng.IntN(64))
		case 1:
			b = protowire.AppendFixed32(protowire.AppendTag(b, num, protowire.Fixed32Type), rng.Uint32())
		case 2:
			b = protowire.AppendFixed64(protowire.AppendTag(b, num, protowire.Fixed64Type), rng.Uint64())
		default:
			v := make([]byte, rng.IntN(20))
			for i := range v {
				v[i] = byte(rng.Uint32())
			}
			b = protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
		}
	}
	return b
}

// nestedUnknown gives unknown fields (randomUnknown) to about one in
// every in nested messages of m: singular, repeated, map values and oneof
// arms, at every depth (not to the well-known types, whose JSON forms
// have no place for them, nor inside Any values, which are bytes).
func nestedUnknown(rng *rand.Rand, m protoreflect.Message, every int) {
	if strings.HasPrefix(string(m.Descriptor().FullName()), "google.protobuf.") {
		return
	}
	visit := func(sub protoreflect.Message) {
		if strings.HasPrefix(string(sub.Descriptor().FullName()), "google.protobuf.") {
			return
		}
		if rng.IntN(every) == 0 {
			sub.SetUnknown(append(sub.GetUnknown(), randomUnknown(rng, sub.Descriptor())...))
		}
		nestedUnknown(rng, sub, every)
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, v protoreflect.Value) bool {
					visit(v.Message())
					return true
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for i := range v.List().Len() {
				visit(v.List().Get(i).Message())
			}
		default:
			visit(v.Message())
		}
		return true
	})
}

// nestedHasUnknown reports whether a message in m has unknown fields.
func nestedHasUnknown(m protoreflect.Message) bool {
	c := m.New()
	gproto.Merge(c.Interface(), m.Interface())
	c.SetUnknown(nil)
	return hasUnknown(c)
}

// hasExtension reports whether m or a message in it has an extension set.
func hasExtension(m protoreflect.Message) bool {
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsExtension():
			found = true
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, v protoreflect.Value) bool {
					found = hasExtension(v.Message())
					return !found
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for i := range v.List().Len() {
				if found = hasExtension(v.List().Get(i).Message()); found {
					break
				}
			}
		default:
			found = hasExtension(v.Message())
		}
		return !found
	})
	return found
}

// hasUnknown reports whether m or a message in it has unknown fields.
func hasUnknown(m protoreflect.Message) bool {
	found := len(m.GetUnknown()) > 0
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case found:
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, v protoreflect.Value) bool {
					found = hasUnknown(v.Message())
					return !found
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for i := range v.List().Len() {
				if found = hasUnknown(v.List().Get(i).Message()); found {
					break
				}
			}
		default:
			found = hasUnknown(v.Message())
		}
		return !found
	})
	return found
}

// checkReflect checks the views of one message, ref, against protobuf-go.
func checkReflect(t *testing.T, name string, root propRoot, ref protoreflect.Message, o runtime.Options, diffed, extra bool) {
	t.Helper()
	want := ref.Interface()
	wire, err := gproto.MarshalOptions{Deterministic: true}.Marshal(want)
	if err != nil {
		t.Fatalf("%s: protobuf-go Marshal: %v", name, err)
	}
	h := root.create(o)
	if err := phaserproto.Unmarshal(wire, msgOf(h)); err != nil {
		t.Fatalf("%s: phaser Unmarshal: %v", name, err)
	}
	ro, err := root.read(payloadOf(h))
	if err != nil {
		t.Fatalf("%s: Read: %v", name, err)
	}
	pw := printedOf(t, name, want)
	for _, got := range []struct {
		what string
		m    gproto.Message
	}{{"writable", h}, {"read-only", ro}} {
		sameOutput(t, name+" "+got.what, want, pw, got.m, diffed)
	}

	// The views' fast paths: bytes and sizes are protobuf-go's.
	if b, err := (gproto.MarshalOptions{Deterministic: true}).Marshal(ro); err != nil || !bytes.Equal(b, wire) {
		t.Fatalf("%s: proto.Marshal of the view: %v\n got % x\nwant % x", name, err, b, wire)
	}
	if n := gproto.Size(h); n != len(wire) {
		t.Fatalf("%s: proto.Size %d, want %d", name, n, len(wire))
	}

	// Writes through the views: JSON, text, bytes, Merge, Clone.
	js := pw.json[0] // protojson.Marshal's
	txt, err := prototext.Marshal(want)
	if err != nil {
		t.Fatalf("%s: prototext.Marshal: %v", name, err)
	}
	rebuilt := map[string]gproto.Message{}
	fromJSON := root.create(o)
	if err := protojson.Unmarshal(js, fromJSON); err != nil {
		t.Fatalf("%s: protojson.Unmarshal into the view: %v\n%s", name, err, js)
	}
	fromText := root.create(o)
	if err := prototext.Unmarshal(txt, fromText); err != nil {
		t.Fatalf("%s: prototext.Unmarshal into the view: %v\n%s", name, err, txt)
	}
	if !hasUnknown(ref) {
		rebuilt["protojson.Unmarshal"] = fromJSON
		rebuilt["prototext.Unmarshal"] = fromText
	} else {
		// JSON and text (without EmitUnknown) have no unknown fields:
		// the views rebuilt from them are the message without them.
		// (Not proto.Clone and SetUnknown(nil): protobuf-go's Clone drops
		// a proto3 -0.)
		known := ref.New().Interface()
		if err := (gproto.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(wire, known); err != nil {
			t.Fatalf("%s: protobuf-go Unmarshal: %v", name, err)
		}
		for how, m := range map[string]gproto.Message{"protojson.Unmarshal": fromJSON, "prototext.Unmarshal": fromText} {
			if !gproto.Equal(m, known) || gproto.Equal(m, want) {
				t.Fatalf("%s: %s of a message with unknown fields: %s", name, how, cmp.Diff(known, m, cmpOptions...))
			}
			if got := m.ProtoReflect().GetUnknown(); len(got) != 0 {
				t.Fatalf("%s: %s left unknown fields % x", name, how, got)
			}
		}
		if got := ro.ProtoReflect().GetUnknown(); !bytes.Equal(got, ref.GetUnknown()) {
			t.Fatalf("%s: GetUnknown of the view = % x, want % x", name, got, ref.GetUnknown())
		}
	}
	fromWire := root.create(o)
	if err := gproto.Unmarshal(wire, fromWire); err != nil {
		t.Fatalf("%s: proto.Unmarshal into the view: %v", name, err)
	}
	rebuilt["proto.Unmarshal"] = fromWire
	merged := root.create(o)
	gproto.Merge(merged, want)
	rebuilt["proto.Merge"] = merged
	rebuilt["proto.Clone"] = gproto.Clone(ro)
	for how, m := range rebuilt {
		if !gproto.Equal(m, want) || !gproto.Equal(m, ro) || !gproto.Equal(h, m) {
			t.Fatalf("%s: %s: %s", name, how, cmp.Diff(want, m, cmpOptions...))
		}
		if err := msgOf(m).Err(); err != nil {
			t.Fatalf("%s: %s: payload error %v", name, how, err)
		}
		if b, err := (gproto.MarshalOptions{Deterministic: true}).Marshal(m); err != nil || !bytes.Equal(b, wire) {
			t.Fatalf("%s: %s: marshals differently (%v)\n got % x\nwant % x", name, how, err, b, wire)
		}
	}

	// The generated codecs (the roots with generated handles) agree with
	// package proto's: MarshalProto of the payload and of a payload
	// decoded with UnmarshalProto are protobuf-go's bytes.
	type generatedCodec interface {
		MarshalProto() ([]byte, error)
		UnmarshalProto([]byte) error
	}
	if g, ok := ro.(generatedCodec); ok && extra {
		if b, err := g.MarshalProto(); err != nil || !bytes.Equal(b, wire) {
			t.Fatalf("%s: generated MarshalProto (%v)\n got % x\nwant % x", name, err, b, wire)
		}
		d := root.create(o).(generatedCodec)
		if err := d.UnmarshalProto(wire); err != nil {
			t.Fatalf("%s: generated UnmarshalProto: %v", name, err)
		}
		if b, err := d.MarshalProto(); err != nil || !bytes.Equal(b, wire) {
			t.Fatalf("%s: generated UnmarshalProto then MarshalProto (%v)\n got % x\nwant % x", name, err, b, wire)
		}
		if !gproto.Equal(d.(gproto.Message), want) {
			t.Fatalf("%s: generated UnmarshalProto: %s", name, cmp.Diff(want, d.(gproto.Message), cmpOptions...))
		}
	}

	// CopyFrom, into a payload of the other format, carries the unknown
	// fields at every depth: the copy marshals to the same bytes.
	if extra {
		v := payloadbuffer.V2
		if o.Version == payloadbuffer.V2 {
			v = payloadbuffer.V3
		}
		c := root.create(runtime.Options{Version: v})
		if !msgOf(c).CopyFrom(msgOf(ro)) {
			t.Fatalf("%s: CopyFrom into %s: %v", name, v, msgOf(c).Err())
		}
		if b, err := (gproto.MarshalOptions{Deterministic: true}).Marshal(c); err != nil || !bytes.Equal(b, wire) {
			t.Fatalf("%s: CopyFrom into %s marshals differently (%v)\n got % x\nwant % x", name, v, err, b, wire)
		}
	}

	// Clearing each populated field that holds messages (and so, perhaps,
	// unknown fields below it) gives protobuf-go's bytes for the message
	// with that field cleared (in the messages that get the protocmp diff:
	// it costs as much).
	ref.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		if !diffed {
			return false
		}
		if fd.Message() == nil && !(fd.IsMap() && fd.MapValue().Message() != nil) {
			return true
		}
		wantC := ref.New()
		if err := gproto.Unmarshal(wire, wantC.Interface()); err != nil {
			t.Fatalf("%s: protobuf-go Unmarshal: %v", name, err)
		}
		wantC.Clear(fd)
		wantB, err := gproto.MarshalOptions{Deterministic: true}.Marshal(wantC.Interface())
		if err != nil {
			t.Fatalf("%s: protobuf-go Marshal: %v", name, err)
		}
		c := root.create(o)
		if err := phaserproto.Unmarshal(wire, msgOf(c)); err != nil {
			t.Fatalf("%s: phaser Unmarshal: %v", name, err)
		}
		c.ProtoReflect().Clear(fd)
		if b, err := (gproto.MarshalOptions{Deterministic: true}).Marshal(c); err != nil || !bytes.Equal(b, wantB) {
			t.Fatalf("%s: cleared %s, marshals differently (%v)\n got % x\nwant % x", name, fd.FullName(), err, b, wantB)
		}
		return true
	})

	// Equal can fail: clearing a populated field of a clone makes it
	// differ, and leaves the original alone.
	var first protoreflect.FieldDescriptor
	ref.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		first = fd
		return false
	})
	if first != nil {
		c := gproto.Clone(h)
		c.ProtoReflect().Clear(first)
		if gproto.Equal(c, want) || gproto.Equal(c, h) {
			t.Fatalf("%s: clearing %s leaves the message equal", name, first.FullName())
		}
		if !gproto.Equal(h, want) {
			t.Fatalf("%s: clearing %s of a clone changed the original", name, first.FullName())
		}
	}
}

// printed is protobuf-go's output for a message with each of jsonOptions
// and textOptions.
type printed struct {
	json [][]byte
	text []string
}

func printedOf(t *testing.T, name string, want gproto.Message) printed {
	t.Helper()
	var p printed
	for i, o := range jsonOptions {
		w, err := o.Marshal(want)
		if err != nil {
			t.Fatalf("%s: protojson (options %d) of protobuf-go: %v", name, i, err)
		}
		p.json = append(p.json, w)
	}
	for _, o := range textOptions {
		p.text = append(p.text, o.Format(want))
	}
	return p
}

// sameOutput checks that got prints as want prints (p), compares equal to
// it both ways and, if diffed, has no protocmp diff (which costs more than
// the rest together).
func sameOutput(t *testing.T, name string, want gproto.Message, p printed, got gproto.Message, diffed bool) {
	t.Helper()
	for i, o := range jsonOptions {
		g, err := o.Marshal(got)
		if err != nil {
			t.Fatalf("%s: protojson (options %d) of the view: %v", name, i, err)
		}
		if !bytes.Equal(g, p.json[i]) {
			t.Fatalf("%s: protojson (options %d) differs%s\n got %s\nwant %s", name, i, firstDiff(string(g), string(p.json[i])), g, p.json[i])
		}
	}
	for i, o := range textOptions {
		if g := o.Format(got); g != p.text[i] {
			t.Fatalf("%s: prototext (options %d) differs%s\n got %s\nwant %s", name, i, firstDiff(g, p.text[i]), g, p.text[i])
		}
	}
	if !gproto.Equal(got, want) || !gproto.Equal(want, got) {
		t.Fatalf("%s: proto.Equal is false: %s", name, cmp.Diff(want, got, cmpOptions...))
	}
	if !diffed {
		return
	}
	if d := cmp.Diff(want, got, cmpOptions...); d != "" {
		t.Fatalf("%s: protocmp diff (-protobuf-go +view):\n%s", name, d)
	}
}

// firstDiff shows where got and want first differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf(" at byte %d:\n got ...%s\nwant ...%s", i, got[from:min(len(got), i+60)], want[from:min(len(want), i+60)])
}

// msgOf returns the untyped handle of a phaser handle.
func msgOf(m gproto.Message) runtime.Msg {
	switch h := m.(type) {
	case runtime.Msg:
		return h
	case interface{ Msg() runtime.Msg }:
		return h.Msg()
	}
	panic(fmt.Sprintf("%T is not a phaser handle", m))
}

func payloadOf(m gproto.Message) []byte { return msgOf(m).Bytes() }

// randomFill sets random values in m, to a bounded depth, that every
// encoding protobuf-go has accepts (valid UTF-8, Timestamps and Durations
// in range, numbers in Values finite, known values of closed enums).
func randomFill(rng *rand.Rand, m protoreflect.Message, depth int) {
	if fillWellKnown(rng, m, depth) {
		return
	}
	md := m.Descriptor()
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			continue
		}
		// A third of the fields left out at the top, two thirds below: a
		// message with every kind stays small enough to check by the
		// thousand.
		if fd.Cardinality() != protoreflect.Required && rng.IntN(3) < min(depth+1, 2) {
			continue
		}
		randomField(rng, m, fd, depth)
	}
	for i := range md.Oneofs().Len() {
		od := md.Oneofs().Get(i)
		if !od.IsSynthetic() && rng.IntN(4) != 0 {
			randomField(rng, m, od.Fields().Get(rng.IntN(od.Fields().Len())), depth)
		}
	}
	// The extensions declared for the message (and registered with
	// protobuf-go), each set in one message of three.
	if md.ExtensionRanges().Len() > 0 {
		protoregistry.GlobalTypes.RangeExtensionsByMessage(md.FullName(), func(xt protoreflect.ExtensionType) bool {
			if rng.IntN(3) == 0 {
				randomField(rng, m, xt.TypeDescriptor(), depth)
			}
			return true
		})
	}
}

// maxFillDepth bounds the nesting of random messages: singular messages
// to maxFillDepth, repeated and map ones to one less.
const maxFillDepth = 3

func randomField(rng *rand.Rand, m protoreflect.Message, fd protoreflect.FieldDescriptor, depth int) {
	switch {
	case fd.IsMap():
		if fd.MapValue().Message() != nil && depth >= maxFillDepth-1 {
			return
		}
		mp := m.Mutable(fd).Map()
		for range rng.IntN(4) {
			k := randomScalar(rng, fd.MapKey()).MapKey()
			if fd.MapValue().Message() != nil {
				v := mp.NewValue()
				randomFill(rng, v.Message(), depth+1)
				mp.Set(k, v)
			} else {
				mp.Set(k, randomValue(rng, fd.MapValue()))
			}
		}
	case fd.IsList():
		if fd.Message() != nil && depth >= maxFillDepth-1 {
			return
		}
		l := m.Mutable(fd).List()
		for range randomLen(rng, fd) {
			if fd.Message() != nil {
				randomFill(rng, l.AppendMutable().Message(), depth+1)
			} else {
				l.Append(randomValue(rng, fd))
			}
		}
	case fd.Message() != nil:
		if depth >= maxFillDepth && fd.Cardinality() != protoreflect.Required {
			return
		}
		randomFill(rng, m.Mutable(fd).Message(), depth+1)
	default:
		m.Set(fd, randomValue(rng, fd))
	}
}

// randomValue is randomScalar with valid values of closed enums.
func randomValue(rng *rand.Rand, fd protoreflect.FieldDescriptor) protoreflect.Value {
	if fd.Kind() == protoreflect.EnumKind && fd.Enum().IsClosed() {
		vals := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vals.Get(rng.IntN(vals.Len())).Number())
	}
	v := randomScalar(rng, fd)
	if fd.Kind() == protoreflect.FloatKind && rng.IntN(8) == 0 {
		v = protoreflect.ValueOfFloat32(float32(math.NaN()))
	}
	return v
}

// anyTypes are the types random Any values hold: generated protobuf-go
// types, well-known types (which protojson prints in their own forms) and
// the compiled test schema's (dynamicpb).
var anyTypes = []protoreflect.FullName{
	"phasertest.Inner", "phasertest.Node", "google.protobuf.Struct", "google.protobuf.Value",
	"google.protobuf.Timestamp", "google.protobuf.Int32Value", "google.protobuf.Empty",
	"phaserreflect.Nested", "phaserreflect.Kinds2",
}

// fillWellKnown fills the well-known types whose values protojson
// constrains; it reports false for other messages.
func fillWellKnown(rng *rand.Rand, m protoreflect.Message, depth int) bool {
	fields := m.Descriptor().Fields()
	set := func(n protoreflect.FieldNumber, v protoreflect.Value) { m.Set(fields.ByNumber(n), v) }
	switch m.Descriptor().FullName() {
	case "google.protobuf.Timestamp":
		set(1, protoreflect.ValueOfInt64(rng.Int64N(253402300799+62135596800)-62135596800))
		set(2, protoreflect.ValueOfInt32(rng.Int32N(1e9)))
	case "google.protobuf.Duration":
		s, n := rng.Int64N(315576000000), rng.Int32N(1e9)
		if rng.IntN(2) == 0 {
			s, n = -s, -n
		}
		set(1, protoreflect.ValueOfInt64(s))
		set(2, protoreflect.ValueOfInt32(n))
	case "google.protobuf.FieldMask":
		l := m.Mutable(fields.ByNumber(1)).List()
		for range rng.IntN(3) {
			l.Append(protoreflect.ValueOfString(fmt.Sprintf("f_%c.sub_path", 'a'+rng.IntN(26))))
		}
	case "google.protobuf.Value":
		randomJSONValue(rng, m, depth)
	case "google.protobuf.Struct":
		mp := m.Mutable(fields.ByNumber(1)).Map()
		for range rng.IntN(4) {
			v := mp.NewValue()
			randomJSONValue(rng, v.Message(), depth+1)
			mp.Set(protoreflect.ValueOfString(fmt.Sprintf("k%d", rng.IntN(10))).MapKey(), v)
		}
	case "google.protobuf.ListValue":
		l := m.Mutable(fields.ByNumber(1)).List()
		for range rng.IntN(4) {
			randomJSONValue(rng, l.AppendMutable().Message(), depth+1)
		}
	case "google.protobuf.Any":
		if rng.IntN(6) == 0 {
			return true // an empty Any
		}
		name := anyTypes[rng.IntN(len(anyTypes))]
		mt, err := protoregistry.GlobalTypes.FindMessageByName(name)
		if err != nil {
			panic(err)
		}
		inner := mt.New()
		randomFill(rng, inner, depth+1)
		b, err := gproto.MarshalOptions{Deterministic: true}.Marshal(inner.Interface())
		if err != nil {
			panic(err)
		}
		prefix := "type.googleapis.com/"
		if rng.IntN(4) == 0 {
			prefix = "example.com/types/"
		}
		set(1, protoreflect.ValueOfString(prefix+string(name)))
		set(2, protoreflect.ValueOfBytes(b))
	default:
		return false
	}
	return true
}

// randomJSONValue fills a google.protobuf.Value (finite numbers only: JSON
// has no others).
func randomJSONValue(rng *rand.Rand, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	kind := rng.IntN(6)
	if depth >= maxFillDepth {
		kind %= 4
	}
	switch kind {
	case 0:
		m.Set(fields.ByName("null_value"), protoreflect.ValueOfEnum(0))
	case 1:
		m.Set(fields.ByName("number_value"), protoreflect.ValueOfFloat64([]float64{0, -1.5, 1e300, 3}[rng.IntN(4)]))
	case 2:
		m.Set(fields.ByName("string_value"), protoreflect.ValueOfString(strings.Repeat("é", rng.IntN(3))))
	case 3:
		m.Set(fields.ByName("bool_value"), protoreflect.ValueOfBool(rng.IntN(2) == 0))
	case 4:
		randomFill(rng, m.Mutable(fields.ByName("struct_value")).Message(), depth+1)
	case 5:
		randomFill(rng, m.Mutable(fields.ByName("list_value")).Message(), depth+1)
	}
}
