package layout

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// compile compiles proto sources given by file name (google/protobuf/*
// imports come from the standard imports) and returns a registry of them
// and of everything they import.
func compile(t testing.TB, files map[string]string) *protoregistry.Files {
	t.Helper()
	var names []string
	for name := range files {
		names = append(names, name)
	}
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			Accessor: protocompile.SourceAccessorFromMap(files),
		}),
	}
	compiled, err := c.Compile(context.Background(), names...)
	if err != nil {
		t.Fatal(err)
	}
	return registry(t, compiled)
}

// registry returns a registry of files and of everything they import.
func registry(t testing.TB, files linker.Files) *protoregistry.Files {
	t.Helper()
	reg := new(protoregistry.Files)
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if _, err := reg.FindFileByPath(fd.Path()); err == nil {
			return
		}
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		if err := reg.RegisterFile(fd); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		add(f)
	}
	return reg
}

func findMessage(t testing.TB, res *protoregistry.Files, name string) protoreflect.MessageDescriptor {
	t.Helper()
	d, err := res.FindDescriptorByName(protoreflect.FullName(name))
	if err != nil {
		t.Fatal(err)
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		t.Fatalf("%s is not a message", name)
	}
	return md
}

func layoutOf(t testing.TB, opts Options, res *protoregistry.Files, name string) *Message {
	t.Helper()
	m, err := NewCache(opts).Of(findMessage(t, res, name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// words encodes little-endian uint32s.
func words(ws ...uint32) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// unhex decodes hex with spaces and "|" separators, as in the spec's dumps.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const testMessageProto = `
syntax = "proto3";
package foo.bar;
import "google/protobuf/any.proto";

enum Color { RED = 0; GREEN = 1; }

message InnerMessage {
  string str = 10;
  sfixed64 f = 20;
  Color e = 30;
  repeated Color ev = 40;
  oneof uv {
    uint32 uva = 50;
    Color uvb = 60;
  }
}

message TestMessage {
  int32 x = 100;
  int64 y = 101;
  string s = 102;
  InnerMessage m = 103;
  google.protobuf.Any any = 200;
  repeated int32 vi32 = 104;
  repeated string vstr = 105;
  repeated InnerMessage vm = 106;
  oneof u1 { uint32 u1a = 107; fixed64 u1b = 108; }
  oneof u2 { int64 u2a = 109; string u2b = 110; }
  oneof u3 { int64 u3a = 111; InnerMessage u3b = 112; }
  bytes buffer = 113;
  Color e = 114;
  float fl = 115;
  double db = 116;
  map<string, int32> values = 117;
}
`

type wantField struct {
	name   string
	number protoreflect.FieldNumber
	kind   Kind
	slot   uint32
	offset uint32
	id     uint8
}

func checkFields(t *testing.T, m *Message, want []wantField) {
	t.Helper()
	if len(m.Fields) != len(want) {
		t.Fatalf("%s: %d fields, want %d", m.FullName, len(m.Fields), len(want))
	}
	for i, w := range want {
		f := m.Fields[i]
		if f.Name != w.name || f.Number != w.number || f.Kind != w.kind || f.SlotSize != w.slot || f.Offset != w.offset || f.ID != w.id {
			t.Errorf("%s field %d = {%s %d %v slot %d @%d id %d}, want {%s %d %v slot %d @%d id %d}",
				m.FullName, i, f.Name, f.Number, f.Kind, f.SlotSize, f.Offset, f.ID,
				w.name, w.number, w.kind, w.slot, w.offset, w.id)
		}
		if m.FieldByNumber(w.number) != f || m.FieldByName(w.name) != f {
			t.Errorf("%s: FieldByNumber/FieldByName(%s) do not find field %d", m.FullName, w.name, i)
		}
	}
}

func checkSizes(t *testing.T, m *Message, mask, header, fixed, binary uint32) {
	t.Helper()
	if m.MaskSize != mask || m.HeaderSize != header || m.FixedSize != fixed || m.BinarySize != binary {
		t.Errorf("%s: mask %d header %d fixed %d binary %d, want %d %d %d %d",
			m.FullName, m.MaskSize, m.HeaderSize, m.FixedSize, m.BinarySize, mask, header, fixed, binary)
	}
}

func checkTable(t *testing.T, m *Message, want []byte) {
	t.Helper()
	if string(m.Table) != string(want) {
		t.Errorf("%s table:\n got % x\nwant % x", m.FullName, m.Table, want)
	}
}

// Spec 3.5: foo.bar.InnerMessage.
func TestInnerMessage(t *testing.T) {
	res := compile(t, map[string]string{"TestMessage.proto": testMessageProto})
	m := layoutOf(t, Options{Version: 2}, res, "foo.bar.InnerMessage")
	checkSizes(t, m, 4, 8, 48, 56)
	checkFields(t, m, []wantField{
		{"str", 10, StringKind, 4, 8, 0},
		{"f", 20, Int64Kind, 8, 16, 0},
		{"e", 30, EnumKind, 4, 24, 1},
		{"ev", 40, EnumKind, 8, 32, 2},
		{"uva", 50, Uint32Kind, 4, 40, 0},
		{"uvb", 60, EnumKind, 4, 40, 1},
	})
	if len(m.Unions) != 1 || m.Unions[0].Offset != 40 || m.Unions[0].Size != 8 || len(m.Unions[0].Members) != 2 {
		t.Errorf("unions: %+v", m.Unions)
	}
	// Spec 4.2: base 10, span 1, five sparse entries; A.1: 60 bytes.
	checkTable(t, m, words(HybridMagic, 10, 1, 5, 8,
		20, 16, 30, 24|1<<24, 40, 32|2<<24, 50, 40, 60, 40|1<<24))
	if m.TypeCount != 1 {
		t.Errorf("TypeCount = %d, want 1", m.TypeCount)
	}
	if !m.Fields[3].Repeated || m.Fields[3].Union != nil || m.Fields[4].Union != m.Unions[0] {
		t.Error("Repeated/Union flags wrong")
	}
	if m.Fields[1].HasPresenceBit() != true || m.Fields[0].HasPresenceBit() || m.Fields[3].HasPresenceBit() || m.Fields[4].HasPresenceBit() {
		t.Error("HasPresenceBit wrong")
	}
}

// Spec 3.5 and A.1: foo.bar.TestMessage.
func TestTestMessage(t *testing.T) {
	res := compile(t, map[string]string{"TestMessage.proto": testMessageProto})
	m := layoutOf(t, Options{Version: 2}, res, "foo.bar.TestMessage")
	checkSizes(t, m, 4, 8, 132, 140)
	checkFields(t, m, []wantField{
		{"x", 100, Int32Kind, 4, 8, 0},
		{"y", 101, Int64Kind, 8, 16, 1},
		{"s", 102, StringKind, 4, 24, 0},
		{"m", 103, MessageKind, 4, 28, 0},
		{"any", 200, MessageKind, 4, 32, 0},
		{"vi32", 104, Int32Kind, 8, 40, 2},
		{"vstr", 105, StringKind, 8, 48, 2},
		{"vm", 106, MessageKind, 8, 56, 2},
		{"u1a", 107, Uint32Kind, 4, 96, 0},
		{"u1b", 108, Uint64Kind, 8, 96, 1},
		{"u2a", 109, Int64Kind, 8, 108, 0},
		{"u2b", 110, StringKind, 4, 108, 1},
		{"u3a", 111, Int64Kind, 8, 120, 0},
		{"u3b", 112, MessageKind, 4, 120, 1},
		{"buffer", 113, BytesKind, 4, 64, 0},
		{"e", 114, EnumKind, 4, 68, 2},
		{"fl", 115, FloatKind, 4, 72, 3},
		{"db", 116, DoubleKind, 8, 80, 4},
		{"values", 117, MessageKind, 8, 88, 5},
	})
	var unions []string
	for _, u := range m.Unions {
		unions = append(unions, fmt.Sprintf("%s@%d+%d", u.Desc.Name(), u.Offset, u.Size))
	}
	if got := strings.Join(unions, " "); got != "u1@96+12 u2@108+12 u3@120+12" {
		t.Errorf("unions = %s", got)
	}
	// A.1: the table dump (96 bytes at 0x118).
	table := unhex(t, `
		31 44 48 50 64 00 00 00 12 00 00 00 01 00 00 00
		08 00 00 00 10 00 00 01 18 00 00 00 1c 00 00 00`)
	table = append(table, words(
		40|2<<24, 48|2<<24, 56|2<<24, // 104..106
		96, 96|1<<24, 108, 108|1<<24, 120, 120|1<<24, // 107..112
		64, 68|2<<24, 72|3<<24, 80|4<<24, 88|5<<24, // 113..117
	)...)
	table = append(table, unhex(t, "c8 00 00 00 20 00 00 00")...)
	checkTable(t, m, table)
	if len(m.Table) != 96 {
		t.Errorf("table is %d bytes, want 96", len(m.Table))
	}
	// A.1: the root block is 144 bytes; the control block (20 + 12 *
	// MetadataTypeCount) is 68.
	if got := (m.BinarySize + 7) &^ 7; got != 144 {
		t.Errorf("root block %d, want 144", got)
	}
	if m.TypeCount != 4 || 20+12*m.TypeCount != 68 {
		t.Errorf("TypeCount = %d, want 4", m.TypeCount)
	}
	var names []string
	for _, r := range m.Reachable() {
		names = append(names, r.FullName)
	}
	if got := strings.Join(names, " "); got != "foo.bar.TestMessage foo.bar.InnerMessage google.protobuf.Any foo.bar.TestMessage.ValuesEntry" {
		t.Errorf("Reachable = %s", got)
	}
	inner := m.FieldByName("m").Message
	if inner == nil || inner.FullName != "foo.bar.InnerMessage" || m.FieldByName("vm").Message != inner || m.FieldByName("u3b").Message != inner {
		t.Error("InnerMessage fields do not share one layout")
	}
	if a := m.FieldByName("any").Message; a == nil || !a.IsAny {
		t.Error("any field is not the AnyMessage")
	}

	// ValuesEntry: key @8 id 0, value @12 id 0, mask 4, binary_size_ 16,
	// BinarySize 24, dense 1..2, 24 bytes.
	ve := m.FieldByName("values").Message
	if ve == nil || ve.FullName != "foo.bar.TestMessage.ValuesEntry" {
		t.Fatalf("values entry layout: %v", ve)
	}
	checkSizes(t, ve, 4, 8, 16, 24)
	checkFields(t, ve, []wantField{
		{"key", 1, StringKind, 4, 8, 0},
		{"value", 2, Int32Kind, 4, 12, 0},
	})
	checkTable(t, ve, words(HybridMagic, 1, 2, 0, 8, 12))
}

// Spec 3.5, 4.4, 5.8: the hand-written AnyMessage.
func TestAny(t *testing.T) {
	res := compile(t, map[string]string{"a.proto": `syntax = "proto3"; import "google/protobuf/any.proto";`})
	for _, v := range []int{2, 3} {
		m := layoutOf(t, Options{Version: v, ROSFrontend: true}, res, "google.protobuf.Any")
		if !m.IsAny || m.TypeCount != 1 {
			t.Errorf("IsAny %v TypeCount %d", m.IsAny, m.TypeCount)
		}
		checkSizes(t, m, 0, 4, 12, 12)
		checkFields(t, m, []wantField{
			{"type_url", 1, StringKind, 4, 4, 0},
			{"value", 2, BytesKind, 4, 8, 0},
		})
		checkTable(t, m, unhex(t, "02000000 01000000 04000000 02000000 08000000"))
	}
}

// Spec 3.5 and 8.11: Timestamp and std_msgs.Header.
func TestTimestampHeader(t *testing.T) {
	res := compile(t, map[string]string{"h.proto": `
syntax = "proto3";
package std_msgs;
import "google/protobuf/timestamp.proto";
message Header {
  uint32 seq = 1;
  google.protobuf.Timestamp stamp = 2;
  string frame_id = 3;
}`})
	for _, v := range []struct {
		version           int
		tsBinary, hBinary uint32
	}{{2, 28, 28}, {3, 20, 20}} {
		ts := layoutOf(t, Options{Version: v.version}, res, "google.protobuf.Timestamp")
		checkSizes(t, ts, 4, 8, 20, v.tsBinary)
		checkFields(t, ts, []wantField{
			{"seconds", 1, Int64Kind, 8, 8, 0},
			{"nanos", 2, Int32Kind, 4, 16, 1},
		})
		checkTable(t, ts, words(HybridMagic, 1, 2, 0, 8, 16|1<<24))

		h := layoutOf(t, Options{Version: v.version}, res, "std_msgs.Header")
		checkSizes(t, h, 4, 8, 20, v.hBinary)
		checkFields(t, h, []wantField{
			{"seq", 1, Uint32Kind, 4, 8, 0},
			{"stamp", 2, MessageKind, 4, 12, 0},
			{"frame_id", 3, StringKind, 4, 16, 0},
		})
		if h.TypeCount != 2 {
			t.Errorf("Header TypeCount = %d, want 2", h.TypeCount)
		}
	}
}

// Spec 3.5: proto3 optional fields are one-member unions, not aligned.
func TestOptionals(t *testing.T) {
	res := compile(t, map[string]string{"o.proto": `
syntax = "proto3";
package oracle.extra;
enum Color { COLOR_UNSPECIFIED = 0; }
message Leaf { int32 id = 1; }
message Optionals {
  optional int32 o_int32 = 1;
  optional string o_string = 2;
  optional Leaf o_msg = 3;
  optional Color o_enum = 4;
  optional double o_double = 5;
  optional bool o_bool = 6;
  optional bytes o_bytes = 7;
  optional uint64 o_uint64 = 8;
  int32 plain_int32 = 9;
  string plain_string = 10;
}`})
	m := layoutOf(t, Options{Version: 2}, res, "oracle.extra.Optionals")
	checkSizes(t, m, 4, 8, 85, 93)
	wantOff := []uint32{16, 24, 32, 40, 48, 60, 65, 73}
	wantSize := []uint32{8, 8, 8, 8, 12, 5, 8, 12}
	if len(m.Unions) != 8 {
		t.Fatalf("%d unions", len(m.Unions))
	}
	for i, u := range m.Unions {
		if u.Offset != wantOff[i] || u.Size != wantSize[i] || len(u.Members) != 1 {
			t.Errorf("union %d: @%d size %d members %d, want @%d size %d", i, u.Offset, u.Size, len(u.Members), wantOff[i], wantSize[i])
		}
		if f := m.Fields[i]; f.Union != u || f.Offset != u.Offset || f.ID != 0 {
			t.Errorf("field %s: union %p offset %d id %d", f.Name, f.Union, f.Offset, f.ID)
		}
	}
	if f := m.FieldByName("plain_int32"); f.Offset != 8 || f.ID != 0 || f.Union != nil {
		t.Errorf("plain_int32 @%d id %d", f.Offset, f.ID)
	}
	if f := m.FieldByName("plain_string"); f.Offset != 12 || f.ID != 0 {
		t.Errorf("plain_string @%d id %d", f.Offset, f.ID)
	}
}

// denseLookupProto has n int32 fields value_01..value_n, numbered 1..n.
func denseLookupProto(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage bench;\nmessage DenseLookupBenchmarkMessage {\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  int32 value_%02d = %d;\n", i, i)
	}
	b.WriteString("}\n")
	return b.String()
}

// Spec 3.5 and A.5: 64 int32 fields: ids 0..63, mask 8, first field @12.
func TestDenseLookup(t *testing.T) {
	res := compile(t, map[string]string{"d.proto": denseLookupProto(64)})
	m := layoutOf(t, Options{Version: 2}, res, "bench.DenseLookupBenchmarkMessage")
	checkSizes(t, m, 8, 12, 12+64*4, 12+12+64*4)
	ws := []uint32{HybridMagic, 1, 64, 0}
	for i, f := range m.Fields {
		if f.Offset != uint32(12+4*i) || f.ID != uint8(i) {
			t.Errorf("%s @%d id %d", f.Name, f.Offset, f.ID)
		}
		ws = append(ws, uint32(12+4*i)|uint32(i)<<24)
	}
	checkTable(t, m, words(ws...))
	if f := m.FieldByName("value_33"); f.ID != 32 {
		t.Errorf("value_33 id %d, want 32", f.ID)
	}
}

// Spec 3.2 step B: a trailing repeated field after 32 scalars gets id 32 and
// grows the mask; strings and repeated-only messages still have a mask.
func TestMaskRules(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage m;\nmessage Many {\n")
	for i := 1; i <= 32; i++ {
		fmt.Fprintf(&b, "  bool b%d = %d;\n", i, i)
	}
	b.WriteString("  repeated int32 r = 33;\n}\n")
	b.WriteString("message OnlyString { string s = 1; }\nmessage OnlyRepeated { repeated int32 r = 1; }\nmessage Empty {}\n")
	b.WriteString("message OnlyOneof { oneof o { bool a = 1; double d = 2; } }\n")
	res := compile(t, map[string]string{"m.proto": b.String()})

	m := layoutOf(t, Options{Version: 2}, res, "m.Many")
	r := m.FieldByName("r")
	if r.ID != 32 || m.MaskSize != 8 || r.Offset != 12+32 {
		t.Errorf("r: id %d @%d mask %d", r.ID, r.Offset, m.MaskSize)
	}
	checkSizes(t, layoutOf(t, Options{Version: 2}, res, "m.OnlyString"), 4, 8, 12, 20)
	checkSizes(t, layoutOf(t, Options{Version: 2}, res, "m.OnlyRepeated"), 4, 8, 16, 24)
	e := layoutOf(t, Options{Version: 2}, res, "m.Empty")
	checkSizes(t, e, 0, 4, 4, 8)
	checkTable(t, e, words(HybridMagic, 0, 0, 0))
	o := layoutOf(t, Options{Version: 2}, res, "m.OnlyOneof")
	checkSizes(t, o, 0, 4, 16, 20)
	checkTable(t, o, words(HybridMagic, 1, 2, 0, 4, 4|1<<24))
}

// Spec 4.2 examples.
func TestDenseRangeExamples(t *testing.T) {
	for _, tc := range []struct {
		nums       []uint32
		base, span uint32
		sparse     []uint32
	}{
		{[]uint32{1, 3}, 1, 1, []uint32{3}},
		{[]uint32{10, 11, 13, 14, 15, 1000}, 10, 6, []uint32{1000}},
		{[]uint32{1, 100, 10000}, 1, 1, []uint32{100, 10000}},
		{[]uint32{10, 20, 30, 40, 50, 60}, 10, 1, []uint32{20, 30, 40, 50, 60}},
		{[]uint32{1000, 3000000, 536870000}, 1000, 1, []uint32{3000000, 536870000}},
		{nil, 0, 0, nil},
	} {
		var b strings.Builder
		b.WriteString("syntax = \"proto3\";\npackage d;\nmessage M {\n")
		for _, n := range tc.nums {
			fmt.Fprintf(&b, "  int32 f%d = %d;\n", n, n)
		}
		b.WriteString("}\n")
		m := layoutOf(t, Options{Version: 2}, compile(t, map[string]string{"d.proto": b.String()}), "d.M")
		want := words(HybridMagic, tc.base, tc.span, uint32(len(tc.sparse)))
		for n := tc.base; n < tc.base+tc.span; n++ {
			if f := m.FieldByNumber(protoreflect.FieldNumber(n)); f != nil {
				want = append(want, words(f.Offset|uint32(f.ID)<<24)...)
			} else {
				want = append(want, words(0)...)
			}
		}
		for _, n := range tc.sparse {
			f := m.FieldByNumber(protoreflect.FieldNumber(n))
			want = append(want, words(n, f.Offset|uint32(f.ID)<<24)...)
		}
		checkTable(t, m, want)
		if _, _, ok := Lookup(m.Table, 12); ok && tc.base == 10 && tc.span == 6 {
			t.Error("the hole at 12 was found")
		}
	}
}

// bruteDense finds the interval with the largest saving; among equal
// savings the earliest end, then the earliest start (what the generator's
// strict one-pass comparison yields).
func bruteDense(nums []uint32) (int, int, bool) {
	var best int64
	bi, bj, ok := 0, 0, false
	for j := range nums {
		for i := 0; i <= j; i++ {
			s := 8*int64(j-i+1) - 4*(int64(nums[j])-int64(nums[i])+1)
			if s > best {
				best, bi, bj, ok = s, i, j, true
			}
		}
	}
	return bi, bj, ok
}

func TestDenseRangeBrute(t *testing.T) {
	seed := uint32(1)
	rnd := func(n uint32) uint32 {
		seed = seed*1664525 + 1013904223
		return (seed >> 8) % n
	}
	for iter := 0; iter < 20000; iter++ {
		n := int(rnd(12))
		var nums []uint32
		cur := uint32(rnd(5))
		for range n {
			cur += 1 + rnd([]uint32{2, 4, 40}[rnd(3)])
			nums = append(nums, cur)
		}
		i, j, ok := denseRange(nums)
		bi, bj, bok := bruteDense(nums)
		if i != bi || j != bj || ok != bok {
			t.Fatalf("%v: denseRange = %d, %d, %v; brute force %d, %d, %v", nums, i, j, ok, bi, bj, bok)
		}
	}
}

// Spec 8.9 (PROPOSAL): Version 3 ROS-frontend inline messages.
const rosProto = `
syntax = "proto3";
package rt;
import "google/protobuf/timestamp.proto";
import "google/protobuf/any.proto";

message Joint { int32 index = 1; }
message Robot {
  string model = 1;
  Joint joint = 2;
  int32 serial = 3;
  oneof mode { int32 a = 4; Joint j = 5; }
  repeated Joint joints = 6;
  google.protobuf.Timestamp stamp = 7;
}
message A { B b = 1; }
message B { A a = 1; int32 x = 2; }
message Self { Self next = 1; }
message H { T t = 1; }
message T { repeated H hs = 1; }
message P { Q q = 1; }
message Q { oneof o { P p = 1; } }
message WithAny { google.protobuf.Any any = 1; bool flag = 2; }
message Inline2 { Joint j = 1; Joint k = 2; }
`

func TestROSInline(t *testing.T) {
	res := compile(t, map[string]string{"rt.proto": rosProto})
	ros3 := Options{Version: 3, ROSFrontend: true}

	m := layoutOf(t, ros3, res, "rt.Robot")
	checkSizes(t, m, 4, 8, 68, 68)
	checkFields(t, m, []wantField{
		{"model", 1, StringKind, 4, 8, 0},
		{"joint", 2, MessageKind, 12, 32, InlineID},
		{"serial", 3, Int32Kind, 4, 12, 0},
		{"a", 4, Int32Kind, 4, 24, 0},
		{"j", 5, MessageKind, 4, 24, 1},
		{"joints", 6, MessageKind, 8, 16, 1},
		{"stamp", 7, MessageKind, 20, 48, InlineID},
	})
	if !m.FieldByName("joint").Inline || !m.FieldByName("stamp").Inline || m.FieldByName("j").Inline || m.FieldByName("joints").Inline {
		t.Error("wrong Inline flags")
	}
	if m.FieldByName("joint").HasPresenceBit() {
		t.Error("inline message has a presence bit")
	}
	checkTable(t, m, words(HybridMagic, 1, 7, 0, 8, 32|0xFF<<24, 12, 24, 24|1<<24, 16|1<<24, 48|0xFF<<24))
	if off, id, ok := Lookup(m.Table, 7); !ok || off != 48 || id != InlineID {
		t.Errorf("Lookup(7) = %d, %d, %v", off, id, ok)
	}

	// Two inline messages, no slots: header 4, inline at align8.
	m = layoutOf(t, ros3, res, "rt.Inline2")
	checkSizes(t, m, 0, 4, 36, 36)
	if m.Fields[0].Offset != 8 || m.Fields[1].Offset != 24 {
		t.Errorf("Inline2 offsets %d %d", m.Fields[0].Offset, m.Fields[1].Offset)
	}

	inline := func(msg, field string) bool {
		return layoutOf(t, ros3, res, msg).FieldByName(field).Inline
	}
	for _, tc := range []struct {
		msg, field string
		want       bool
	}{
		{"rt.A", "b", false}, // B reaches A
		{"rt.B", "a", false}, // A reaches B
		{"rt.Self", "next", false},
		{"rt.H", "t", true}, // T reaches H only through a repeated field
		{"rt.P", "q", true}, // Q reaches P only through a oneof
		{"rt.WithAny", "any", true},
	} {
		if got := inline(tc.msg, tc.field); got != tc.want {
			t.Errorf("%s.%s inline = %v, want %v", tc.msg, tc.field, got, tc.want)
		}
	}
	w := layoutOf(t, ros3, res, "rt.WithAny")
	if f := w.FieldByName("any"); f.Offset != 16 || f.SlotSize != 12 || w.BinarySize != 28 {
		t.Errorf("WithAny: any @%d size %d, BinarySize %d", f.Offset, f.SlotSize, w.BinarySize)
	}

	// The protobuf frontend, and Version 2 with either frontend, never inline.
	for _, opts := range []Options{{Version: 3}, {Version: 2}, {Version: 2, ROSFrontend: true}} {
		m := layoutOf(t, opts, res, "rt.Robot")
		for _, f := range m.Fields {
			if f.Inline || f.ID == InlineID {
				t.Errorf("%+v: %s is inline", opts, f.Name)
			}
		}
	}
	v2 := layoutOf(t, Options{Version: 2}, res, "rt.Robot")
	v2ros := layoutOf(t, Options{Version: 2, ROSFrontend: true}, res, "rt.Robot")
	if string(v2.Table) != string(v2ros.Table) || v2.BinarySize != v2ros.BinarySize {
		t.Error("ROSFrontend changes the Version 2 layout")
	}
	v3 := layoutOf(t, Options{Version: 3}, res, "rt.Robot")
	if v3.BinarySize != v2.BinarySize-v2.HeaderSize || string(v3.Table) != string(v2.Table) {
		t.Errorf("Version 3 protobuf frontend: BinarySize %d (v2 %d), tables equal %v", v3.BinarySize, v2.BinarySize, string(v3.Table) == string(v2.Table))
	}
}

// google.protobuf packages always use the protobuf frontend.
func TestROSInlineGoogleProtobuf(t *testing.T) {
	res := compile(t, map[string]string{"a.proto": `syntax = "proto3"; import "google/protobuf/api.proto";`})
	m := layoutOf(t, Options{Version: 3, ROSFrontend: true}, res, "google.protobuf.Api")
	if f := m.FieldByName("source_context"); f == nil || f.Inline {
		t.Error("google.protobuf.Api.source_context is inline")
	}
}

func TestErrors(t *testing.T) {
	res := compile(t, map[string]string{
		"g.proto": `syntax = "proto2"; package g; message G { optional group Grp = 1 { optional int32 a = 2; } }
message UsesG { repeated G gs = 1; }`,
		"d255.proto": strings.Replace(denseLookupProto(255), "package bench;", "package b255;", 1),
		"d256.proto": strings.Replace(denseLookupProto(256), "package bench;", "package b256;", 1),
		"d257.proto": strings.Replace(denseLookupProto(257), "package bench;", "package b257;", 1),
		"o256.proto": bigOneofProto(256),
	})
	for _, tc := range []struct {
		opts Options
		msg  string
		want string // "" = no error
	}{
		{Options{Version: 2}, "g.G", "groups are not supported"},
		{Options{Version: 2}, "g.UsesG", "groups are not supported"},
		{Options{Version: 2}, "b255.DenseLookupBenchmarkMessage", ""},
		{Options{Version: 2}, "b256.DenseLookupBenchmarkMessage", ""},
		{Options{Version: 2}, "b257.DenseLookupBenchmarkMessage", "too many presence ids: id 256 exceeds 255"},
		{Options{Version: 3}, "b255.DenseLookupBenchmarkMessage", ""},
		{Options{Version: 3}, "b256.DenseLookupBenchmarkMessage", "too many presence ids: id 255 exceeds 254"},
		{Options{Version: 2}, "o256.O", ""},
		{Options{Version: 3}, "o256.O", "field o256.O.m256: too many presence ids: id 255 exceeds 254"},
	} {
		_, err := NewCache(tc.opts).Of(findMessage(t, res, tc.msg))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v %s: %v", tc.opts, tc.msg, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrUnsupported)):
			t.Errorf("%+v %s: error %v, want %q", tc.opts, tc.msg, err, tc.want)
		}
	}
	md := findMessage(t, res, "b255.DenseLookupBenchmarkMessage")
	for _, v := range []int{0, 1, 4} {
		if _, err := NewCache(Options{Version: v}).Of(md); err == nil {
			t.Errorf("Version %d accepted", v)
		}
	}
	if _, err := NewCache(Options{Version: 2}).Of(nil); err == nil {
		t.Error("nil descriptor accepted")
	}
}

// bigOneofProto has a message o<n>.O with a oneof of n int32 members.
func bigOneofProto(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "syntax = \"proto3\";\npackage o%d;\nmessage O {\n  oneof o {\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    int32 m%d = %d;\n", i, i)
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// Offsets beyond 24 bits: a chain of inline messages that doubles in size.
func TestOffsetOverflow(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage big;\nmessage L0 {")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, " int64 f%d = %d;", i, i)
	}
	b.WriteString(" }\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "message L%d { L%d a = 1; L%d b = 2; }\n", i, i-1, i-1)
	}
	res := compile(t, map[string]string{"big.proto": b.String()})
	c := NewCache(Options{Version: 3, ROSFrontend: true})
	m, err := c.Of(findMessage(t, res, "big.L17"))
	if err != nil {
		t.Fatal(err)
	}
	if m.BinarySize < 1<<23 {
		t.Errorf("L17 is %d bytes", m.BinarySize)
	}
	_, err = c.Of(findMessage(t, res, "big.L20"))
	if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "24 bits") {
		t.Errorf("L20: %v", err)
	}
	// The protobuf frontend has no problem with it.
	if _, err := NewCache(Options{Version: 3}).Of(findMessage(t, res, "big.L20")); err != nil {
		t.Error(err)
	}
}

func TestRecursive(t *testing.T) {
	res := compile(t, map[string]string{"rt.proto": rosProto})
	c := NewCache(Options{Version: 2})
	s, err := c.Of(findMessage(t, res, "rt.Self"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Fields[0].Message != s || s.TypeCount != 1 {
		t.Errorf("Self: %p %p TypeCount %d", s.Fields[0].Message, s, s.TypeCount)
	}
	a, err := c.Of(findMessage(t, res, "rt.A"))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := c.Of(findMessage(t, res, "rt.B"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Fields[0].Message != bm || bm.Fields[0].Message != a || a.TypeCount != 2 || bm.TypeCount != 2 {
		t.Error("A and B are not linked")
	}
	if r := bm.Reachable(); len(r) != 2 || r[0] != bm || r[1] != a {
		t.Errorf("B.Reachable = %v", r)
	}
}

func TestCacheConcurrent(t *testing.T) {
	res := compile(t, map[string]string{"TestMessage.proto": testMessageProto, "rt.proto": rosProto})
	names := []string{"foo.bar.TestMessage", "foo.bar.InnerMessage", "rt.Robot", "rt.A", "rt.B", "rt.H", "rt.T", "rt.WithAny", "rt.Inline2"}
	for _, opts := range []Options{{Version: 2}, {Version: 3, ROSFrontend: true}} {
		c := NewCache(opts)
		var wg sync.WaitGroup
		got := make([][]*Message, 16)
		for g := range got {
			wg.Go(func() {
				for i := range names {
					name := names[(i+g)%len(names)]
					m, err := c.Of(findMessage(t, res, name))
					if err != nil {
						t.Error(err)
						return
					}
					got[g] = append(got[g], m)
					_ = m.Reachable()
				}
			})
		}
		wg.Wait()
		for _, name := range names {
			m, err := c.Of(findMessage(t, res, name))
			if err != nil {
				t.Fatal(err)
			}
			for g := range got {
				found := false
				for _, x := range got[g] {
					found = found || x == m
				}
				if !found {
					t.Errorf("goroutine %d got a different layout of %s", g, name)
				}
			}
		}
	}
}
