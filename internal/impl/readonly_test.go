package impl_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// Read-only access rules (spec 6.2).

// TestReadTruncated reads every prefix of one golden payload: each reads
// without panic, fails with ErrNotPayload exactly when the header or the
// root's first word is cut off, and otherwise reads every value either as
// in the whole payload or, when it lies past the end, as absent.
func TestReadTruncated(t *testing.T) {
	const name = "rec_full_fixed_size" // every field kind, nested, repeated, oneofs, Any
	dir := goldens.Dir(t)
	goldenTypes(t, dir)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var c goldens.Case
	for _, cc := range cases {
		if cc.Name == name {
			c = cc
		}
	}
	if c.Name == "" {
		t.Fatalf("no case %s", name)
	}
	data, err := c.Read(dir, ".phaser.bin")
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
	types, err := goldens.Types(dir)
	if err != nil {
		t.Fatal(err)
	}
	full, err := impl.Read(typ, data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := full.ToProto(typ)
	if err != nil {
		t.Fatal(err)
	}
	root := binaryLE.Uint32(data[4:])
	tab := binaryLE.Uint32(data[root:])
	tableEnd := uint64(tab) + uint64(len(typ.Table()))

	for n := 0; n <= len(data); n++ {
		prefix := bytes.Clone(data[:n])
		m, err := impl.Read(typ, prefix)
		wantErr := n < payloadbuffer.FixedHeaderSize || uint64(root)+4 > uint64(n)
		if wantErr {
			if !errors.Is(err, impl.ErrNotPayload) {
				t.Fatalf("%d bytes: Read error %v, want ErrNotPayload", n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		w := &fuzzWalker{t: t, data: prefix, budget: walkBudget}
		w.msg(m, typ, 0)

		// The root's own fields, exactly (rules 2-4).
		tableOK := tableEnd <= uint64(n)
		for _, f := range typ.Fields() {
			if f.Repeated || f.Union != nil {
				continue
			}
			off := uint64(root) + uint64(f.Offset)
			switch f.Kind {
			case impl.String, impl.Bytes:
				var wantS []byte
				if s := full.StringBytes(f.Field); s != nil && tableOK && off+4 <= uint64(n) {
					hdr := uint64(binaryLE.Uint32(data[off:]))
					if hdr+4+uint64(len(s)) <= uint64(n) {
						wantS = s
					}
				}
				if got := m.StringBytes(f.Field); !bytes.Equal(got, wantS) || (got == nil) != (wantS == nil) {
					t.Fatalf("%d bytes: %s = %q, want %q", n, f.Name, got, wantS)
				}
			case impl.Message:
				if got, want := m.HasMessage(f.Field), tableOK && off+4 <= uint64(n) && full.HasMessage(f.Field); got != want {
					t.Fatalf("%d bytes: HasMessage(%s) = %t, want %t", n, f.Name, got, want)
				}
			default:
				pw := uint64(root) + 4 + 4*uint64(f.ID>>5)
				wantHas := tableOK && pw+4 <= uint64(n) && full.Has(f.Field)
				if got := m.Has(f.Field); got != wantHas {
					t.Fatalf("%d bytes: Has(%s) = %t, want %t", n, f.Name, got, wantHas)
				}
				size := uint64(fuzzElemSize(f.Kind))
				var wantV, gotV uint64
				switch size {
				case 1:
					wantV, gotV = uint64(full.Get8(f.Field)), uint64(m.Get8(f.Field))
				case 4:
					wantV, gotV = uint64(full.Get32(f.Field)), uint64(m.Get32(f.Field))
				default:
					wantV, gotV = full.Get64(f.Field), m.Get64(f.Field)
				}
				if !wantHas || off+size > uint64(n) {
					wantV = 0
				}
				if gotV != wantV {
					t.Fatalf("%d bytes: %s = %#x, want %#x", n, f.Name, gotV, wantV)
				}
			}
		}

		// The whole content: a subset of the full payload's (rules 5-7).
		got, err := m.ToProto(typ)
		if err != nil {
			t.Fatalf("%d bytes: ToProto: %v", n, err)
		}
		if n == len(data) {
			if !proto.Equal(got, want) {
				t.Fatalf("whole payload: content differs")
			}
			continue
		}
		if err := contentSubset(got.ProtoReflect(), want.ProtoReflect(), types, ""); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
	}
}

// contentSubset reports why got is not part of want: every value got holds must be
// want's value or the field's default (a value past the end of the
// payload); vectors are whole or empty.
func contentSubset(got, want protoreflect.Message, types *dynamicpb.Types, path string) error {
	if got.Descriptor().FullName() == "google.protobuf.Any" {
		return anySubset(got, want, types, path)
	}
	var err error
	got.Range(func(fd protoreflect.FieldDescriptor, gv protoreflect.Value) bool {
		p := path + "." + string(fd.Name())
		wv := want.Get(fd)
		switch {
		case fd.IsMap():
			gm, wm := gv.Map(), wv.Map()
			gm.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				if !wm.Has(k) {
					if k.Value().Equal(fd.MapKey().Default()) {
						return true // an entry whose key lies past the end
					}
					err = subsetErrorf("%s[%v]: key not in the whole payload", p, k)
					return false
				}
				err = valueSubset(fd.MapValue(), v, wm.Get(k), types, p)
				return err == nil
			})
		case fd.IsList():
			gl, wl := gv.List(), wv.List()
			if gl.Len() != wl.Len() {
				err = subsetErrorf("%s: %d elements, whole payload %d", p, gl.Len(), wl.Len())
				return false
			}
			for i := range gl.Len() {
				if err = valueSubset(fd, gl.Get(i), wl.Get(i), types, p); err != nil {
					return false
				}
			}
		default:
			err = valueSubset(fd, gv, wv, types, p)
		}
		return err == nil
	})
	return err
}

func valueSubset(fd protoreflect.FieldDescriptor, g, w protoreflect.Value, types *dynamicpb.Types, path string) error {
	if fd.Message() != nil {
		return contentSubset(g.Message(), w.Message(), types, path)
	}
	if sameScalar(fd, g, w) || sameScalar(fd, g, fd.Default()) {
		return nil
	}
	return subsetErrorf("%s = %v, whole payload %v", path, g, w)
}

func sameScalar(fd protoreflect.FieldDescriptor, a, b protoreflect.Value) bool {
	switch fd.Kind() {
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float()) || (a.Float() == 0 && b.Float() == 0)
	case protoreflect.BytesKind:
		return bytes.Equal(a.Bytes(), b.Bytes())
	}
	return a.Equal(b)
}

// anySubset compares two Any values by their unpacked content.
func anySubset(got, want protoreflect.Message, types *dynamicpb.Types, path string) error {
	fields := got.Descriptor().Fields()
	urlF, valF := fields.ByNumber(1), fields.ByNumber(2)
	gURL, wURL := got.Get(urlF).String(), want.Get(urlF).String()
	if gURL != "" && gURL != wURL {
		return subsetErrorf("%s: Any type URL %q, whole payload %q", path, gURL, wURL)
	}
	gv := got.Get(valF).Bytes()
	if len(gv) == 0 {
		return nil
	}
	mt, err := types.FindMessageByURL(wURL)
	if err != nil {
		return subsetErrorf("%s: %v", path, err)
	}
	gm, wm := mt.New(), mt.New()
	if err := proto.Unmarshal(gv, gm.Interface()); err != nil {
		return subsetErrorf("%s: Any value: %v", path, err)
	}
	if err := proto.Unmarshal(want.Get(valF).Bytes(), wm.Interface()); err != nil {
		return subsetErrorf("%s: Any value: %v", path, err)
	}
	return contentSubset(gm, wm, types, path+"("+wURL+")")
}

type subsetError string

func (e subsetError) Error() string { return string(e) }

func subsetErrorf(format string, args ...any) error {
	return subsetError(fmt.Sprintf(format, args...))
}

// TestReadInvalid: bytes that are not a payload fail with an error wrapping
// ErrNotPayload (rule 1).
func TestReadInvalid(t *testing.T) {
	typ := typeOfMessage(t, &descriptorpb.DescriptorProto{})
	valid, _, _ := buildPayload(t, &descriptorpb.DescriptorProto{Name: proto.String("M")}, impl.Options{})
	header := func(magic uint32, root uint32) []byte {
		b := make([]byte, 64)
		binaryLE.PutUint32(b, magic)
		binaryLE.PutUint32(b[4:], root)
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"short", valid[:payloadbuffer.FixedHeaderSize-1]},
		{"zeros", make([]byte, 64)},
		{"protobuf", []byte("\x0a\x01M")},
		{"protobuf_40", append([]byte("\x0a\x26"), bytes.Repeat([]byte("m"), 38)...)},
		{"magic_bit1", header(0xE5F6F1C6, 48)},
		{"magic_other", header(0xD5F6F1C4, 48)},
		{"magic_swapped", header(0xC4F1F6E5, 48)},
		{"v3_swapped", header(0x03005048, 48)}, // "HP"
		{"root_beyond", withWord32(valid, 4, uint32(len(valid)))},
		{"root_last_word", withWord32(valid, 4, uint32(len(valid))-3)},
		{"root_huge", withWord32(valid, 4, 0xFFFFFFFF)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := impl.Read(typ, tc.data)
			if !errors.Is(err, impl.ErrNotPayload) {
				t.Fatalf("Read: error %v, want one wrapping ErrNotPayload", err)
			}
		})
	}
	// The valid ones around them.
	for _, data := range [][]byte{valid, withWord32(valid, 4, 0), withWord32(valid, 4, uint32(len(valid))-4)} {
		if _, err := impl.Read(typ, data); err != nil {
			t.Errorf("Read: %v", err)
		}
	}
}

// TestReadOnlyWrites: a write through a message read from received bytes is
// ignored, the bytes are unchanged, and Err reports ErrReadOnly.
func TestReadOnlyWrites(t *testing.T) {
	desc := &descriptorpb.DescriptorProto{
		Name: proto.String("M"),
		Field: []*descriptorpb.FieldDescriptorProto{
			{Name: proto.String("a"), Number: proto.Int32(1)},
		},
		NestedType:   []*descriptorpb.DescriptorProto{{Name: proto.String("N")}},
		ReservedName: []string{"r"},
		Options:      &descriptorpb.MessageOptions{Deprecated: proto.Bool(true)},
	}
	descData, _, dt := buildPayload(t, desc, impl.Options{})
	val, err := structpb.NewValue([]any{"s", 1.0})
	if err != nil {
		t.Fatal(err)
	}
	valData, _, vt := buildPayload(t, val, impl.Options{})
	ts, err := anypb.New(timestamppb.Now())
	if err != nil {
		t.Fatal(err)
	}
	anyData, _, at := buildPayload(t, ts, impl.Options{})
	tsT := typeOfMessage(t, &timestamppb.Timestamp{})

	df := func(name string) *impl.FieldInfo { return dt.FieldByName(name) }
	vf := func(name string) *impl.FieldInfo { return vt.FieldByName(name) }
	kind := vt.Unions()[0]
	type op = func(m impl.Msg)
	for _, tc := range []struct {
		name string
		typ  *impl.Type
		data []byte
		op   op
	}{
		{"SetString", dt, descData, func(m impl.Msg) { m.SetString(df("name").Field, "changed") }},
		{"SetBytes", dt, descData, func(m impl.Msg) { m.SetBytes(df("name").Field, []byte("changed")) }},
		{"AllocateString", dt, descData, func(m impl.Msg) { m.AllocateString(df("name").Field, 9) }},
		{"ClearString", dt, descData, func(m impl.Msg) { m.ClearString(df("name").Field) }},
		{"MutableMessage", dt, descData, func(m impl.Msg) {
			o := m.MutableMessage(df("options").Field, df("options").Type)
			o.Set8(df("options").Type.FieldByName("deprecated").Field, 0)
		}},
		{"nested Set8", dt, descData, func(m impl.Msg) {
			o := m.Message(df("options").Field, df("options").Type)
			f := df("options").Type.FieldByName("deprecated")
			o.Set8(f.Field, 0)
			o.ClearScalar(f.Field)
		}},
		{"nested Set32", dt, descData, func(m impl.Msg) {
			f := df("field")
			e := m.ElemMessage(f.Field, 0, f.Type)
			e.Set32(f.Type.FieldByName("number").Field, 99)
			e.SetString(f.Type.FieldByName("name").Field, "z")
		}},
		{"absent nested", dt, descData, func(m impl.Msg) {
			f := df("nested_type")
			n := m.ElemMessage(f.Field, 0, f.Type)
			o := n.MutableMessage(f.Type.FieldByName("options").Field, df("options").Type)
			o.Set8(df("options").Type.FieldByName("deprecated").Field, 1)
			n.Message(f.Type.FieldByName("options").Field, df("options").Type).Set8(df("options").Type.FieldByName("deprecated").Field, 1)
		}},
		{"ClearMessage", dt, descData, func(m impl.Msg) { m.ClearMessage(df("options").Field, df("options").Type) }},
		{"AddMessage", dt, descData, func(m impl.Msg) { m.AddMessage(df("field").Field, df("field").Type) }},
		{"MutableElem", dt, descData, func(m impl.Msg) { m.MutableElem(df("nested_type").Field, 3, df("nested_type").Type) }},
		{"AllocateMessages", dt, descData, func(m impl.Msg) { m.AllocateMessages(df("nested_type").Field, 2, df("nested_type").Type) }},
		{"ClearMessages", dt, descData, func(m impl.Msg) { m.ClearMessages(df("field").Field, df("field").Type) }},
		{"PushString", dt, descData, func(m impl.Msg) { m.PushString(df("reserved_name").Field, "s") }},
		{"SetElemString", dt, descData, func(m impl.Msg) { m.SetElemString(df("reserved_name").Field, 0, "s") }},
		{"ClearStrings", dt, descData, func(m impl.Msg) { m.ClearStrings(df("reserved_name").Field) }},
		{"Resize", dt, descData, func(m impl.Msg) { m.Resize(df("reserved_name").Field, 0, 4) }},
		{"Reserve", dt, descData, func(m impl.Msg) { m.Reserve(df("reserved_name").Field, 64, 4) }},
		{"FixedStrings", dt, descData, func(m impl.Msg) { m.FixedStrings(df("reserved_name").Field, 4) }},
		{"ClearRepeated", dt, descData, func(m impl.Msg) { m.ClearRepeated(df("nested_type")) }},
		{"Clear", dt, descData, func(m impl.Msg) { m.Clear(dt) }},
		{"CopyFrom", dt, descData, func(m impl.Msg) {
			src := impl.New(dt, impl.Options{})
			src.SetString(df("name").Field, "other")
			if m.CopyFrom(dt, src) {
				t.Errorf("CopyFrom into a read-only message reported success")
			}
		}},
		{"SetMember64", vt, valData, func(m impl.Msg) { m.SetMember64(kind, vf("number_value").Field, math.Float64bits(2)) }},
		{"SetMemberString", vt, valData, func(m impl.Msg) { m.SetMemberString(kind, vf("string_value").Field, "s") }},
		{"MutableMember", vt, valData, func(m impl.Msg) { m.MutableMember(kind, vf("struct_value").Field, vf("struct_value").Type) }},
		{"ClearOneof", vt, valData, func(m impl.Msg) { m.ClearOneof(kind, vf("list_value").Field) }},
		{"nested list Push", vt, valData, func(m impl.Msg) {
			l := m.MemberMessage(vf("list_value").Field, vf("list_value").Type)
			values := vf("list_value").Type.FieldByName("values")
			l.AddMessage(values.Field, values.Type)
			l.ElemMessage(values.Field, 1, values.Type).SetMember64(kind, vf("number_value").Field, 0)
		}},
		{"MutableAny", at, anyData, func(m impl.Msg) { m.MutableAny(tsT).Set64(tsT.FieldByName("seconds").Field, 1) }},
		{"Any value Set64", at, anyData, func(m impl.Msg) {
			impl.AnyOf(m).Value(tsT).Set64(tsT.FieldByName("seconds").Field, 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Clone(tc.data)
			m, err := impl.Read(tc.typ, data)
			if err != nil {
				t.Fatal(err)
			}
			before, err := m.ToProto(tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Err(); err != nil {
				t.Fatalf("Err before any write = %v", err)
			}
			tc.op(m)
			if !bytes.Equal(data, tc.data) {
				t.Fatalf("the write changed the payload bytes")
			}
			if err := m.Err(); !errors.Is(err, impl.ErrReadOnly) {
				t.Fatalf("Err = %v, want ErrReadOnly", err)
			}
			after, err := m.ToProto(tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(before, after) {
				t.Fatalf("content changed:\n%v\n%v", before, after)
			}
		})
	}
}
