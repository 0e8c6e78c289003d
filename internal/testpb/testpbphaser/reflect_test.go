package testpbphaser_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// Behaviour of the handles' protobuf reflection views that the property
// test (internal/testpb/reflect_test.go) does not reach: read-only and
// absent messages, what a payload cannot store, duplicate map keys, list
// edits, presence and defaults, the handle types the views give.

var everythingFields = (&testpb.Everything{}).ProtoReflect().Descriptor().Fields()

func field(name protoreflect.Name) protoreflect.FieldDescriptor { return everythingFields.ByName(name) }

// mustPanic runs f and checks that it panics with a message containing
// want.
func mustPanic(t *testing.T, what, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", what)
			return
		}
		if !strings.Contains(fmt.Sprint(r), want) {
			t.Errorf("%s: panic %q, want it to say %q", what, r, want)
		}
	}()
	f()
}

func TestReflectReadOnly(t *testing.T) {
	x := testpbphaser.NewEverything()
	x.SetName("n")
	x.MutableInner().SetA(1)
	x.Modes().Append(testpbphaser.Everything_MODE_FAST)
	e := x.Msg().AppendMessage(field("counts"))
	e.Set(e.Type().Descriptor().Fields().ByName("key"), protoreflect.ValueOfString("k"))
	ro, err := testpbphaser.ReadEverything(x.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	v := ro.ProtoReflect()
	if !v.IsValid() || v.Get(field("name")).String() != "n" {
		t.Fatal("read-only view does not read the payload")
	}
	const ro1 = "modification of read-only message"
	mustPanic(t, "Set", ro1, func() { v.Set(field("name"), protoreflect.ValueOfString("m")) })
	mustPanic(t, "Clear of a populated field", ro1, func() { v.Clear(field("name")) })
	mustPanic(t, "Mutable", ro1, func() { v.Mutable(field("inner")) })
	mustPanic(t, "nested Set", ro1, func() { v.Get(field("inner")).Message().Set(innerA, protoreflect.ValueOfInt32(2)) })
	mustPanic(t, "list Append", ro1, func() { v.Get(field("modes")).List().Append(protoreflect.ValueOfEnum(1)) })
	mustPanic(t, "map Set", ro1, func() {
		v.Get(field("counts")).Map().Set(protoreflect.ValueOfString("j").MapKey(), protoreflect.ValueOfInt32(1))
	})
	mustPanic(t, "SetUnknown", ro1, func() { v.SetUnknown(protoreflect.RawFields{8, 1}) })
	v.Clear(field("clear")) // unpopulated: nothing to do, no panic
	if err := ro.Err(); err != nil {
		t.Errorf("Err after refused writes = %v; the view panics instead of recording", err)
	}
	if ro.Name() != "n" || ro.Inner().A() != 1 {
		t.Error("the refused writes changed the payload")
	}

	// proto.Unmarshal into a read-only message fails without panicking
	// when there is nothing to reset.
	empty, err := testpbphaser.ReadEverything(testpbphaser.NewEverything().Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := gproto.Unmarshal([]byte{0xfa, 0x03, 0x01, 'x'}, empty); !errors.Is(err, runtime.ErrReadOnly) {
		t.Errorf("proto.Unmarshal into a read-only message: %v, want ErrReadOnly", err)
	}
}

var innerA = (&testpb.Inner{}).ProtoReflect().Descriptor().Fields().ByName("a")

func TestReflectAbsent(t *testing.T) {
	var zero testpbphaser.Everything
	v := zero.ProtoReflect()
	if v.IsValid() {
		t.Error("the zero handle's view is valid")
	}
	if v.Descriptor().FullName() != "phasertest.Everything" {
		t.Errorf("zero view descriptor %v", v.Descriptor().FullName())
	}
	if b, err := protojson.Marshal(zero); err != nil || string(b) != "{}" {
		t.Errorf("protojson of the zero handle = %s, %v", b, err)
	}
	mustPanic(t, "Set on the zero handle", "read-only", func() { v.Set(field("name"), protoreflect.ValueOfString("m")) })
	if !gproto.Equal(zero, testpbphaser.Everything{}) || gproto.Equal(zero, testpbphaser.NewEverything()) {
		t.Error("an invalid message equals only invalid messages of its type")
	}
	if c := zero.Clone(); c.IsPresent() {
		t.Error("Clone of the zero handle is present")
	}

	// An absent nested message reads as an invalid, empty message.
	x := testpbphaser.NewEverything()
	inner := x.ProtoReflect().Get(field("inner")).Message()
	if inner.IsValid() || inner.Has(innerA) {
		t.Error("the view of an absent nested message is valid or populated")
	}
	if x.ProtoReflect().Has(field("inner")) {
		t.Error("Get populated the field")
	}
}

func TestReflectHandleTypes(t *testing.T) {
	x := testpbphaser.NewEverything()
	x.MutableInner().SetA(3)
	x.MutableAt().SetSeconds(5)
	v := x.ProtoReflect()
	if _, ok := v.Interface().(testpbphaser.Everything); !ok {
		t.Errorf("Interface() is %T", v.Interface())
	}
	if got, ok := v.Get(field("inner")).Message().Interface().(testpbphaser.Inner); !ok || got.A() != 3 {
		t.Errorf("nested Interface() is %T", v.Get(field("inner")).Message().Interface())
	}
	if _, ok := v.Get(field("at")).Message().Interface().(timestamppbphaser.Timestamp); !ok {
		t.Errorf("Timestamp field's Interface() is %T", v.Get(field("at")).Message().Interface())
	}
	if c, ok := gproto.Clone(x).(testpbphaser.Everything); !ok || c.Inner().A() != 3 {
		t.Errorf("proto.Clone gives %T", gproto.Clone(x))
	}
	if _, ok := v.Type().New().Interface().(testpbphaser.Everything); !ok {
		t.Error("Type().New() is not an Everything")
	}
	// A runtime.Msg view stays dynamic all the way down.
	d := x.Msg().ProtoReflect()
	if _, ok := d.Get(field("inner")).Message().Interface().(runtime.Msg); !ok {
		t.Errorf("dynamic nested Interface() is %T", d.Get(field("inner")).Message().Interface())
	}
	// The view reports protobuf-go's descriptor (linked into this test), so
	// that proto.Equal works against protobuf-go's messages.
	if v.Descriptor() != (&testpb.Everything{}).ProtoReflect().Descriptor() {
		t.Error("the view does not report protobuf-go's descriptor")
	}
	// Fields of another descriptor of the message work, matched by name.
	other := x.PhaserType().Descriptor().Fields().ByName("inner")
	if other == field("inner") {
		t.Fatal("expected phaser-go's own descriptor to be another object")
	}
	if got := v.Get(other).Message().Get(innerA).Int(); got != 3 {
		t.Errorf("Get with another descriptor's field = %d", got)
	}
	mustPanic(t, "Get of another message's field", "does not belong", func() { v.Get(innerA) })
}

func TestReflectPresenceAndDefaults(t *testing.T) {
	x := testpbphaser.NewScalars()
	v := x.ProtoReflect()
	fields := v.Descriptor().Fields()
	fi, fd := fields.ByName("f_int32"), fields.ByName("f_double")
	v.Set(fi, protoreflect.ValueOfInt32(0))
	if v.Has(fi) {
		t.Error("a proto3 scalar set to 0 is populated")
	}
	v.Set(fd, protoreflect.ValueOfFloat64(math.Copysign(0, -1)))
	if !v.Has(fd) {
		t.Error("-0.0 is not populated (protobuf-go keeps it)")
	}
	mustPanic(t, "Set with the wrong type", "invalid type", func() { v.Set(fi, protoreflect.ValueOfInt64(1)) })

	e := testpbphaser.NewEverything().ProtoReflect()
	e.Set(field("choice_int32"), protoreflect.ValueOfInt32(0))
	if !e.Has(field("choice_int32")) || e.WhichOneof(field("choice_int32").ContainingOneof()) != field("choice_int32") {
		t.Error("a oneof member set to 0 is not the populated member")
	}
	e.Mutable(field("choice_inner")).Message().Set(innerA, protoreflect.ValueOfInt32(4))
	if e.Has(field("choice_int32")) || e.WhichOneof(field("choice_int32").ContainingOneof()) != field("choice_inner") {
		t.Error("Mutable of a oneof member did not make it the active one")
	}

	// proto2: unpopulated fields read as their [default = ...].
	l := testpbphaser.NewLegacy().ProtoReflect()
	lf := l.Descriptor().Fields()
	for name, want := range map[protoreflect.Name]any{
		"name": "anon", "big": int64(-42), "kind": protoreflect.EnumNumber(2), "flag": true, "ratio": 1.5,
	} {
		if got := l.Get(lf.ByName(name)).Interface(); got != want {
			t.Errorf("Get(%s) of an unpopulated field = %v, want %v", name, got, want)
		}
	}
	if got := l.Get(lf.ByName("blob")).Bytes(); string(got) != "\x01\x02" {
		t.Errorf("Get(blob) = %q", got)
	}
}

func TestReflectRequired(t *testing.T) {
	l := testpbphaser.NewLegacy()
	err := gproto.CheckInitialized(l)
	if err == nil || !strings.Contains(err.Error(), "required field phasertest.Legacy.id not set") {
		t.Errorf("CheckInitialized of an empty Legacy = %v", err)
	}
	if _, err := protojson.Marshal(l); err == nil {
		t.Error("protojson.Marshal of a Legacy without its required fields succeeded")
	}
	if _, err := (protojson.MarshalOptions{AllowPartial: true}).Marshal(l); err != nil {
		t.Errorf("AllowPartial: %v", err)
	}
	l.SetId(1)
	l.SetLabel("x")
	child := l.MutableChild()
	if err := gproto.CheckInitialized(l); err == nil || !strings.Contains(err.Error(), "phasertest.Legacy.id") {
		t.Errorf("a nested message missing its required fields: %v", err)
	}
	child.SetId(2)
	child.SetLabel("y")
	if err := gproto.CheckInitialized(l); err != nil {
		t.Errorf("CheckInitialized of a complete Legacy: %v", err)
	}
}

func TestReflectNotStored(t *testing.T) {
	// Unknown fields are kept in the payload (GetUnknown, SetUnknown) and
	// marshaled after the known fields, as protobuf-go does.
	x := testpbphaser.NewEverything()
	x.SetMode(testpbphaser.Everything_MODE_FAST)
	unk := protoreflect.RawFields{0xa0, 0x06, 0x01} // field 100 = 1
	x.ProtoReflect().SetUnknown(unk)
	if err := x.Err(); err != nil {
		t.Errorf("Err after SetUnknown = %v", err)
	}
	if got := x.ProtoReflect().GetUnknown(); !bytes.Equal(got, unk) {
		t.Errorf("GetUnknown = % x, want % x", got, unk)
	}
	ref := &testpb.Everything{Mode: testpb.Everything_MODE_FAST}
	ref.ProtoReflect().SetUnknown(unk)
	want, _ := gproto.Marshal(ref)
	for name, marshal := range map[string]func() ([]byte, error){
		"proto.Marshal": func() ([]byte, error) { return gproto.Marshal(x) },
		"MarshalProto":  x.MarshalProto,
	} {
		if got, err := marshal(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s after SetUnknown = % x (%v), want % x", name, got, err, want)
		}
	}
	// Merge from protobuf-go's struct appends its unknown fields (through
	// GetUnknown and SetUnknown); an append to GetUnknown's slice does not
	// write the payload.
	m := testpbphaser.NewEverything()
	gproto.Merge(m, ref)
	gproto.Merge(m, ref)
	if got, wantU := m.ProtoReflect().GetUnknown(), append(append([]byte{}, unk...), unk...); !bytes.Equal(got, wantU) {
		t.Errorf("GetUnknown after two merges = % x, want % x", got, wantU)
	}
	_ = append(x.ProtoReflect().GetUnknown(), 0xff, 0xff, 0xff, 0xff)
	if got := x.ProtoReflect().GetUnknown(); !bytes.Equal(got, unk) {
		t.Errorf("GetUnknown after an append to it = % x", got)
	}
	x.ProtoReflect().SetUnknown(nil)
	if got := x.ProtoReflect().GetUnknown(); len(got) != 0 {
		t.Errorf("GetUnknown after SetUnknown(nil) = % x", got)
	}
	gproto.Reset(m)
	if err := gproto.Unmarshal(want, m); err != nil || !bytes.Equal(m.ProtoReflect().GetUnknown(), unk) {
		t.Errorf("proto.Unmarshal into the view: unknown fields % x (%v)", m.ProtoReflect().GetUnknown(), err)
	}

	// An Any value of a type the runtime does not know.
	src := &testpb.Everything{Any: &anypb.Any{TypeUrl: "type.googleapis.com/no.such.Type", Value: []byte{8, 1}}}
	y := testpbphaser.NewEverything()
	gproto.Merge(y, src)
	if err := y.Err(); !errors.Is(err, runtime.ErrNotStored) || !strings.Contains(err.Error(), "no.such.Type") {
		t.Errorf("Err after merging an Any of an unknown type = %v", err)
	}
	// The value comes before the type URL (dynamicpb's map order): kept
	// until the URL comes.
	z := testpbphaser.NewEverything()
	a := z.ProtoReflect().Mutable(field("any")).Message()
	af := a.Descriptor().Fields()
	inner, _ := gproto.Marshal(&testpb.Inner{A: 7})
	a.Set(af.ByNumber(2), protoreflect.ValueOfBytes(inner))
	if !errors.Is(z.Err(), runtime.ErrNotStored) {
		t.Errorf("Err with an Any value waiting for its URL = %v", z.Err())
	}
	a.Set(af.ByNumber(1), protoreflect.ValueOfString("type.googleapis.com/phasertest.Inner"))
	if err := z.Err(); err != nil {
		t.Errorf("Err once the URL came = %v", err)
	}
	if got, ok := testpbphaser.InnerFromAny(z.Any()); !ok || got.A() != 7 {
		t.Errorf("the Any holds %v (%v)", got, ok)
	}

	// A payload whose Any names a type nobody registered cannot be printed
	// or encoded, and says so.
	w := testpbphaser.NewEverything()
	testpbphaser.MutableAnyInner(w.MutableAny()).SetA(1)
	am := w.Any().Msg()
	am.Set(am.Type().Descriptor().Fields().ByNumber(1), protoreflect.ValueOfString("type.googleapis.com/no.such.Type"))
	if _, err := protojson.Marshal(w); err == nil || !strings.Contains(err.Error(), "no.such.Type") {
		t.Errorf("protojson of an Any of an unknown type: %v", err)
	}
	if _, err := gproto.Marshal(w); err == nil {
		t.Error("proto.Marshal of an Any of an unknown type succeeded")
	}
	_ = prototext.Format(w) // prints what it can, without panicking
}

func TestReflectFull(t *testing.T) {
	big := &testpb.Everything{Name: strings.Repeat("x", 4096)}
	js, err := protojson.Marshal(big)
	if err != nil {
		t.Fatal(err)
	}
	x, err := testpbphaser.NewEverythingIn(make([]byte, 2048))
	if err != nil {
		t.Fatal(err)
	}
	if err := protojson.Unmarshal(js, x); !errors.Is(err, runtime.ErrFull) {
		t.Errorf("protojson.Unmarshal into a full fixed buffer: %v, want ErrFull", err)
	}
	if _, err := protojson.Marshal(x); !errors.Is(err, runtime.ErrFull) {
		t.Errorf("protojson.Marshal of a failed payload: %v, want ErrFull", err)
	}
}

func TestReflectMapDuplicateKeys(t *testing.T) {
	for _, n := range []int{3, 40} { // pairwise comparison, then the hash index
		x := testpbphaser.NewEverything()
		counts := x.Counts()
		want := map[string]int32{}
		for i := range n {
			e := counts.Append()
			k := fmt.Sprintf("k%d", i%(n/2+1))
			e.SetKey(k)
			e.SetValue(int32(i))
			want[k] = int32(i) // the last entry of a key wins
		}
		m := x.ProtoReflect().Get(field("counts")).Map()
		if m.Len() != len(want) {
			t.Errorf("n=%d: Len %d, want %d distinct keys", n, m.Len(), len(want))
		}
		seen := map[string]bool{}
		m.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			if seen[k.String()] {
				t.Errorf("n=%d: Range visits %s twice", n, k)
			}
			seen[k.String()] = true
			if int32(v.Int()) != want[k.String()] {
				t.Errorf("n=%d: %s = %d, want %d", n, k, v.Int(), want[k.String()])
			}
			return true
		})
		if got := m.Get(protoreflect.ValueOfString("k0").MapKey()).Int(); int32(got) != want["k0"] {
			t.Errorf("n=%d: Get(k0) = %d, want %d", n, got, want["k0"])
		}
		ref := &testpb.Everything{Counts: want}
		if !gproto.Equal(x, ref) {
			t.Errorf("n=%d: not equal to protobuf-go's map", n)
		}
		m.Clear(protoreflect.ValueOfString("k0").MapKey())
		delete(want, "k0")
		if m.Has(protoreflect.ValueOfString("k0").MapKey()) || m.Len() != len(want) {
			t.Errorf("n=%d: Clear left a duplicate of the key", n)
		}
		m.Set(protoreflect.ValueOfString("k1").MapKey(), protoreflect.ValueOfInt32(-1))
		want["k1"] = -1
		if !gproto.Equal(x, &testpb.Everything{Counts: want}) {
			t.Errorf("n=%d: Set of a duplicated key: %v", n, x)
		}
	}
}

func TestReflectListEdits(t *testing.T) {
	x := testpbphaser.NewEverything()
	v := x.ProtoReflect()
	l := v.Mutable(field("inners")).List()
	for i := range 4 {
		l.AppendMutable().Message().Set(innerA, protoreflect.ValueOfInt32(int32(i)))
	}
	n := l.NewElement()
	n.Message().Set(innerA, protoreflect.ValueOfInt32(9))
	l.Set(1, n)
	l.Truncate(3)
	mustPanic(t, "Get out of range", "out of range", func() { l.Get(3) })
	mustPanic(t, "Truncate past the end", "Truncate", func() { l.Truncate(4) })
	want := &testpb.Everything{Inners: []*testpb.Inner{{A: 0}, {A: 9}, {A: 2}}}
	if !gproto.Equal(x, want) {
		t.Errorf("list edits: %v", x)
	}
	// Setting a field to a value of the same payload (here: itself and
	// another of its lists) copies it first.
	v.Set(field("inners"), v.Get(field("inners")))
	v.Set(field("inner"), v.Get(field("inners")).List().Get(1))
	want.Inner = &testpb.Inner{A: 9}
	if !gproto.Equal(x, want) {
		t.Errorf("self assignment: %v", x)
	}
	s := v.Mutable(field("modes")).List()
	s.Append(protoreflect.ValueOfEnum(1))
	s.Append(protoreflect.ValueOfEnum(-5))
	s.Set(0, protoreflect.ValueOfEnum(0))
	mustPanic(t, "Append of the wrong type", "invalid type", func() { s.Append(protoreflect.ValueOfInt32(1)) })
	if got := x.Modes().AppendTo(nil); len(got) != 2 || got[0] != 0 || got[1] != testpbphaser.Everything_MODE_SLOW {
		t.Errorf("modes = %v", got)
	}
}

func TestReflectStringEqualClone(t *testing.T) {
	ref := &testpb.Everything{Name: "rover", Inner: &testpb.Inner{A: 1, S: "é"}, Modes: []testpb.Everything_Mode{1}}
	b, _ := gproto.Marshal(ref)
	x := testpbphaser.NewEverything(runtime.Options{Version: payloadbuffer.V2})
	if err := x.UnmarshalProto(b); err != nil {
		t.Fatal(err)
	}
	if got, want := x.String(), ref.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := fmt.Sprint(x); got != x.String() {
		t.Errorf("fmt prints %q", got)
	}
	ro, _ := testpbphaser.ReadEverything(x.Bytes())
	c := ro.Clone()
	if !c.Equal(x) || !x.Equal(c) || !c.Equal(ro) {
		t.Error("a clone is not Equal to its original")
	}
	c.SetName("other")
	if c.Equal(x) || x.Name() != "rover" {
		t.Error("the clone shares the original's payload")
	}
	if err := c.Err(); err != nil {
		t.Errorf("Clone of a read-only message is not writable: %v", err)
	}
	if c.Msg().Payload().Buffer().Version() != payloadbuffer.V2 {
		t.Error("Clone does not keep the payload format")
	}
}

func TestReflectUnmarshalMerge(t *testing.T) {
	x := testpbphaser.NewEverything()
	x.SetName("kept")
	x.Modes().Append(testpbphaser.Everything_MODE_FAST)
	b, _ := gproto.Marshal(&testpb.Everything{Value: 3, Modes: []testpb.Everything_Mode{-5}})
	if err := (gproto.UnmarshalOptions{Merge: true}).Unmarshal(b, x); err != nil {
		t.Fatal(err)
	}
	want := &testpb.Everything{Name: "kept", Value: 3, Modes: []testpb.Everything_Mode{1, -5}}
	if !gproto.Equal(x, want) {
		t.Errorf("Unmarshal with Merge: %v", x)
	}
	if err := gproto.Unmarshal(b, x); err != nil || !gproto.Equal(x, &testpb.Everything{Value: 3, Modes: []testpb.Everything_Mode{-5}}) {
		t.Errorf("Unmarshal replaces: %v (%v)", x, err)
	}
}

func TestReflectSetComposites(t *testing.T) {
	x := testpbphaser.NewEverything()
	v := x.ProtoReflect()
	// A message of another implementation is copied in through the setters.
	v.Set(field("inner"), protoreflect.ValueOfMessage((&testpb.Inner{A: 5, Deep: &testpb.Inner_Deep{X: 6}}).ProtoReflect()))
	// Lists and maps from NewField (dynamicpb's), then Set.
	l := v.NewField(field("inners"))
	l.List().Append(protoreflect.ValueOfMessage((&testpb.Inner{S: "a"}).ProtoReflect()))
	v.Set(field("inners"), l)
	mp := v.NewField(field("by_id"))
	mp.Map().Set(protoreflect.ValueOfInt64(9).MapKey(), protoreflect.ValueOfMessage((&testpb.Inner{A: 9}).ProtoReflect()))
	v.Set(field("by_id"), mp)
	// Mutable of a map's message value adds the key.
	byID := v.Mutable(field("by_id")).Map()
	byID.Mutable(protoreflect.ValueOfInt64(3).MapKey()).Message().Set(innerA, protoreflect.ValueOfInt32(3))
	mustPanic(t, "Mutable of a map of scalars", "Mutable", func() {
		v.Mutable(field("counts")).Map().Mutable(protoreflect.ValueOfString("k").MapKey())
	})
	// A map set to another map of the same payload.
	v.Set(field("remote_by_num"), v.Get(field("remote_by_num")))
	want := &testpb.Everything{
		Inner:  &testpb.Inner{A: 5, Deep: &testpb.Inner_Deep{X: 6}},
		Inners: []*testpb.Inner{{S: "a"}},
		ById:   map[int64]*testpb.Inner{9: {A: 9}, 3: {A: 3}},
	}
	if !gproto.Equal(x, want) {
		t.Errorf("composites set through the view: %v", x)
	}
	if err := x.Err(); err != nil {
		t.Error(err)
	}

	// Any fields cleared through the view.
	testpbphaser.MutableAnyInner(x.MutableAny()).SetA(1)
	a := v.Get(field("any")).Message()
	af := a.Descriptor().Fields()
	a.Clear(af.ByNumber(2))
	if a.Has(af.ByNumber(2)) || !a.Has(af.ByNumber(1)) {
		t.Error("Clear of an Any's value")
	}
	a.Clear(af.ByNumber(1))
	if a.Has(af.ByNumber(1)) || x.Any().TypeURL() != "" {
		t.Error("Clear of an Any's type URL")
	}
}

func TestReflectTypes(t *testing.T) {
	mt := testpbphaser.Everything{}.ProtoReflect().Type()
	if mt.Descriptor().FullName() != "phasertest.Everything" || mt.Zero().IsValid() || !mt.New().IsValid() {
		t.Error("MessageType: Descriptor, Zero or New")
	}
	// ProtoTypes resolves type URLs to the handles' types (generated ones
	// where linked), for Any values whose protobuf-go types a program lacks.
	it, err := runtime.ProtoTypes.FindMessageByURL("type.googleapis.com/phasertest.Inner")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := it.New().Interface().(testpbphaser.Inner); !ok {
		t.Errorf("ProtoTypes gives %T", it.New().Interface())
	}
	x := testpbphaser.NewEverything()
	testpbphaser.MutableAnyInner(x.MutableAny()).SetA(4)
	b, err := protojson.MarshalOptions{Resolver: runtime.ProtoTypes}.Marshal(x)
	if err != nil || string(b) == "" || !strings.Contains(string(b), `"@type":"type.googleapis.com/phasertest.Inner"`) && !strings.Contains(string(b), `"@type": "type.googleapis.com/phasertest.Inner"`) {
		t.Errorf("protojson with ProtoTypes: %s (%v)", b, err)
	}
	back := testpbphaser.NewEverything()
	if err := (protojson.UnmarshalOptions{Resolver: runtime.ProtoTypes}).Unmarshal(b, back); err != nil || !back.Equal(x) {
		t.Errorf("protojson round trip with ProtoTypes: %v (%v)", back, err)
	}
	if _, err := runtime.ProtoTypes.FindMessageByName("no.such.Message"); err == nil {
		t.Error("ProtoTypes found a message nobody registered")
	}
}
