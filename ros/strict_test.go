package ros_test

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// strictProto has a field of each conversion between a stored kind and a
// narrower, wider or differently signed ROS type, times and durations.
const strictProto = `
syntax = "proto3";
package strict;
import "google/protobuf/duration.proto";
import "google/protobuf/timestamp.proto";
import "phaser/options.proto";
enum Small {
  option (phaser.ros_enum) = {type: "uint8"};
  SMALL_ZERO = 0;
  SMALL_BIG = 300;
}
message Narrow {
  uint32 u8 = 1 [(phaser.ros_field) = {type: "uint8"}];
  int32 i8 = 2 [(phaser.ros_field) = {type: "int8"}];
  int32 i32u8 = 3 [(phaser.ros_field) = {type: "uint8"}];
  int64 i64i32 = 4 [(phaser.ros_field) = {type: "int32"}];
  uint64 u64i64 = 5 [(phaser.ros_field) = {type: "int64"}];
  int32 i32u32 = 6 [(phaser.ros_field) = {type: "uint32"}];
  int32 i32i64 = 7 [(phaser.ros_field) = {type: "int64"}];
  uint32 u32i16 = 8 [(phaser.ros_field) = {type: "int16"}];
  double f64f32 = 9 [(phaser.ros_field) = {type: "float32"}];
  float f32f64 = 10 [(phaser.ros_field) = {type: "float64"}];
  Small small = 11;
  int32 flag = 12 [(phaser.ros_field) = {type: "bool"}];
  repeated uint32 bytes = 13 [(phaser.ros_field) = {type: "uint8[]"}];
  repeated int32 fixed = 14 [(phaser.array_size) = 3, (phaser.ros_field) = {type: "int16[3]"}];
}
message Times {
  google.protobuf.Timestamp t = 1;
  google.protobuf.Duration d = 2;
  repeated google.protobuf.Timestamp ts = 3;
}
`

func strictTypes(t *testing.T) (narrow, times *runtime.Type) {
	t.Helper()
	files := compileProtos(t, map[string]string{"strict.proto": strictProto}, "strict.proto")
	return typeIn(t, files, "strict.Narrow"), typeIn(t, files, "strict.Times")
}

// TestMarshalNarrowRange checks that a stored value its ROS type cannot
// hold fails MarshalROS (and ROSSize's caller, Marshal, PhaserToROS and
// ProtoToROS) with ErrRange, and that the values at the edges of each
// range are written.
func TestMarshalNarrowRange(t *testing.T) {
	narrow, _ := strictTypes(t)
	for _, tc := range []struct {
		field string
		ok    []protoreflect.Value
		bad   []protoreflect.Value
	}{
		{"u8", vals(protoreflect.ValueOfUint32, 0, 255), vals(protoreflect.ValueOfUint32, 256, 300, math.MaxUint32)},
		{"i8", vals(protoreflect.ValueOfInt32, -128, 127), vals(protoreflect.ValueOfInt32, -129, 128, math.MinInt32)},
		{"i32u8", vals(protoreflect.ValueOfInt32, 0, 255), vals(protoreflect.ValueOfInt32, -1, 256)},
		{"i64i32", vals(protoreflect.ValueOfInt64, math.MinInt32, math.MaxInt32), vals(protoreflect.ValueOfInt64, 1<<40, math.MinInt32-1)},
		{"u64i64", vals(protoreflect.ValueOfUint64, math.MaxInt64), vals(protoreflect.ValueOfUint64, 1<<63, math.MaxUint64)},
		{"i32u32", vals(protoreflect.ValueOfInt32, 0, math.MaxInt32), vals(protoreflect.ValueOfInt32, -1, math.MinInt32)},
		{"i32i64", vals(protoreflect.ValueOfInt32, math.MinInt32, math.MaxInt32), nil},
		{"u32i16", vals(protoreflect.ValueOfUint32, 32767), vals(protoreflect.ValueOfUint32, 32768, 65535)},
		// Rounded to float32 (1e-300 to 0), not an error.
		{"f64f32", vals(protoreflect.ValueOfFloat64, math.MaxFloat32, -1e38, math.Inf(1), 1e-300), vals(protoreflect.ValueOfFloat64, 1e39, -1e300, math.MaxFloat64)},
		{"f32f64", vals(protoreflect.ValueOfFloat32, math.MaxFloat32, float32(math.Inf(-1))), nil},
		{"small", []protoreflect.Value{protoreflect.ValueOfEnum(0), protoreflect.ValueOfEnum(255)}, []protoreflect.Value{protoreflect.ValueOfEnum(300), protoreflect.ValueOfEnum(-1)}},
		{"flag", vals(protoreflect.ValueOfInt32, 0, 1), vals(protoreflect.ValueOfInt32, 2, -1, 256)},
	} {
		fd := field(narrow, tc.field)
		for _, v := range tc.ok {
			m := runtime.New(narrow)
			m.Set(fd, v)
			b, err := ros.Marshal(m)
			if err != nil {
				t.Errorf("%s = %v: %v", tc.field, v, err)
				continue
			}
			back := runtime.New(narrow)
			if err := ros.Unmarshal(b, back); err != nil {
				t.Errorf("%s = %v: Unmarshal: %v", tc.field, v, err)
			} else if got := back.Get(fd); got.Interface() != v.Interface() && !(tc.field == "f64f32" && got.Float() == float64(float32(v.Float()))) {
				t.Errorf("%s = %v: round trip gives %v", tc.field, v, got)
			}
		}
		for _, v := range tc.bad {
			m := runtime.New(narrow)
			m.Set(fd, v)
			b, err := ros.Marshal(m)
			if !errors.Is(err, ros.ErrRange) {
				t.Errorf("%s = %v: Marshal = %x, %v; want ErrRange", tc.field, v, b, err)
			}
			if _, err := ros.PhaserToROS(nil, m.Bytes(), narrow); !errors.Is(err, ros.ErrRange) {
				t.Errorf("%s = %v: PhaserToROS: %v; want ErrRange", tc.field, v, err)
			}
			pb, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ros.ProtoToROS(nil, pb, narrow); !errors.Is(err, ros.ErrRange) {
				t.Errorf("%s = %v: ProtoToROS: %v; want ErrRange", tc.field, v, err)
			}
		}
	}
	// Repeated and fixed arrays convert each element.
	m := runtime.New(narrow)
	m.Append(field(narrow, "bytes"), protoreflect.ValueOfUint32(7))
	m.Append(field(narrow, "bytes"), protoreflect.ValueOfUint32(256))
	if _, err := ros.Marshal(m); !errors.Is(err, ros.ErrRange) {
		t.Errorf("uint8[] element 256: %v; want ErrRange", err)
	}
	m = runtime.New(narrow)
	m.Append(field(narrow, "fixed"), protoreflect.ValueOfInt32(-32769))
	if _, err := ros.Marshal(m); !errors.Is(err, ros.ErrRange) {
		t.Errorf("int16[3] element -32769: %v; want ErrRange", err)
	}
}

func vals[T any](of func(T) protoreflect.Value, xs ...T) []protoreflect.Value {
	var out []protoreflect.Value
	for _, x := range xs {
		out = append(out, of(x))
	}
	return out
}

// TestUnmarshalWideRange checks the other direction: a ROS value its field
// cannot hold fails Unmarshal and ROSToProto with ErrRange and ErrInvalid
// (ROS int64 2^40 into an int32 field; a negative ROS int8 or a ROS
// uint32 above 2^31-1 into a field that cannot hold it).
func TestUnmarshalWideRange(t *testing.T) {
	narrow, _ := strictTypes(t)
	base, err := ros.Marshal(runtime.New(narrow))
	if err != nil {
		t.Fatal(err)
	}
	// The ROS offsets of the fields of Narrow (all zero): u8 0, i8 1,
	// i32u8 2, i64i32 3, u64i64 7, i32u32 15, i32i64 19, u32i16 27,
	// f64f32 29, f32f64 33, small 41, flag 42, bytes 43 (count), fixed 47.
	le := binary.LittleEndian
	below32 := int64(math.MinInt32) - 1
	for _, tc := range []struct {
		name  string
		patch func(b []byte)
		bad   bool
	}{
		{"i32i64 = 2^31-1", func(b []byte) { le.PutUint64(b[19:], math.MaxInt32) }, false},
		{"i32i64 = 2^40", func(b []byte) { le.PutUint64(b[19:], 1<<40) }, true},
		{"i32i64 = -2^31-1", func(b []byte) { le.PutUint64(b[19:], uint64(below32)) }, true},
		{"i32u32 = 2^31", func(b []byte) { le.PutUint32(b[15:], 1<<31) }, true},
		{"u64i64 = -1", func(b []byte) { le.PutUint64(b[7:], math.MaxUint64) }, true},
		{"u32i16 = -5", func(b []byte) { le.PutUint16(b[27:], uint16(0xFFFB)) }, true},
		{"u32i16 = 32767", func(b []byte) { le.PutUint16(b[27:], 32767) }, false},
		{"f32f64 = 1e300", func(b []byte) { le.PutUint64(b[33:], math.Float64bits(1e300)) }, true},
		{"f32f64 = -Inf", func(b []byte) { le.PutUint64(b[33:], math.Float64bits(math.Inf(-1))) }, false},
		{"i8 = -128", func(b []byte) { b[1] = 0x80 }, false},
		{"flag = 7", func(b []byte) { b[42] = 7 }, false},
	} {
		b := append([]byte(nil), base...)
		tc.patch(b)
		m := runtime.New(narrow)
		err := ros.Unmarshal(b, m)
		_, cerr := ros.ROSToProto(nil, b, narrow)
		if !tc.bad {
			if err != nil || cerr != nil {
				t.Errorf("%s: Unmarshal: %v, ROSToProto: %v", tc.name, err, cerr)
			}
			continue
		}
		for what, err := range map[string]error{"Unmarshal": err, "ROSToProto": cerr} {
			if !errors.Is(err, ros.ErrRange) || !errors.Is(err, ros.ErrInvalid) {
				t.Errorf("%s: %s: %v; want ErrRange and ErrInvalid", tc.name, what, err)
			}
		}
	}
}

// TestTimeRange checks ROS time (uint32 seconds, genpy's "<2I") and
// duration (int32 seconds, "<2i") limits: a Timestamp of -5 s or 2^40 s,
// or a Duration of 2^31 s, is an error, never a value that wraps; the
// nanoseconds are folded in first (canonical: 0 <= nsec < 1e9).
func TestTimeRange(t *testing.T) {
	_, times := strictTypes(t)
	tf, df, tsf := field(times, "t"), field(times, "d"), field(times, "ts")
	set := func(m runtime.Msg, fd protoreflect.FieldDescriptor, sec int64, nanos int32) {
		x := m.Mutable(fd)
		x.Set(x.Type().Descriptor().Fields().ByName("seconds"), protoreflect.ValueOfInt64(sec))
		x.Set(x.Type().Descriptor().Fields().ByName("nanos"), protoreflect.ValueOfInt32(nanos))
	}
	for _, tc := range []struct {
		fd    protoreflect.FieldDescriptor
		sec   int64
		nanos int32
		want  []uint32 // the ROS words, nil for an error
	}{
		{tf, 0, 0, []uint32{0, 0}},
		{tf, math.MaxUint32, 999_999_999, []uint32{math.MaxUint32, 999_999_999}},
		{tf, -5, 0, nil},
		{tf, 1 << 40, 0, nil},
		{tf, 1 << 32, 0, nil},
		{tf, math.MaxUint32, 1_000_000_000, nil}, // folds to 2^32 s
		{tf, -1, 1_500_000_000, []uint32{0, 500_000_000}},
		{tf, 0, -1, nil}, // -1 ns before 1970
		{df, math.MaxInt32, 0, []uint32{math.MaxInt32, 0}},
		{df, math.MinInt32, 0, []uint32{1 << 31, 0}},
		{df, -4, -500, []uint32{uint32(0xFFFFFFFB), 999_999_500}},
		{df, 1 << 31, 0, nil},
		{df, math.MinInt32, -1, nil}, // folds below -2^31 s
		{df, math.MaxInt64, 0, nil},
		{df, math.MinInt64, -1, nil}, // folding wraps int64: still an error
	} {
		m := runtime.New(times)
		set(m, tc.fd, tc.sec, tc.nanos)
		b, err := ros.Marshal(m)
		pb, perr := proto.Marshal(m)
		if perr != nil {
			t.Fatal(perr)
		}
		direct, derr := ros.ProtoToROS(nil, pb, times)
		if tc.want == nil {
			if !errors.Is(err, ros.ErrRange) || !errors.Is(derr, ros.ErrRange) {
				t.Errorf("%s = %ds %dns: Marshal %x, %v; ProtoToROS %v; want ErrRange", tc.fd.Name(), tc.sec, tc.nanos, b, err, derr)
			}
			// The same in a repeated field.
			m := runtime.New(times)
			e := m.AppendMessage(tsf)
			e.Set(e.Type().Descriptor().Fields().ByName("seconds"), protoreflect.ValueOfInt64(tc.sec))
			e.Set(e.Type().Descriptor().Fields().ByName("nanos"), protoreflect.ValueOfInt32(tc.nanos))
			if tc.fd == tf {
				if _, err := ros.Marshal(m); !errors.Is(err, ros.ErrRange) {
					t.Errorf("ts[0] = %ds %dns: %v; want ErrRange", tc.sec, tc.nanos, err)
				}
			}
			continue
		}
		if err != nil || derr != nil {
			t.Errorf("%s = %ds %dns: Marshal: %v; ProtoToROS: %v", tc.fd.Name(), tc.sec, tc.nanos, err, derr)
			continue
		}
		at := 0
		if tc.fd == df {
			at = 8
		}
		le := binary.LittleEndian
		if s, n := le.Uint32(b[at:]), le.Uint32(b[at+4:]); s != tc.want[0] || n != tc.want[1] {
			t.Errorf("%s = %ds %dns: ROS (%d, %d), want (%d, %d)", tc.fd.Name(), tc.sec, tc.nanos, s, n, tc.want[0], tc.want[1])
		}
		if string(direct) != string(b) {
			t.Errorf("%s = %ds %dns: ProtoToROS %x, Marshal %x", tc.fd.Name(), tc.sec, tc.nanos, direct, b)
		}
	}
}

// TestUnmarshalFixedArrayLength checks that a fixed array (array_size N)
// parses into exactly N elements, and that MarshalROS of more than N is
// an error.
func TestUnmarshalFixedArrayLength(t *testing.T) {
	narrow, _ := strictTypes(t)
	fixed := field(narrow, "fixed")
	b, err := ros.Marshal(runtime.New(narrow))
	if err != nil {
		t.Fatal(err)
	}
	m := runtime.New(narrow)
	if err := ros.Unmarshal(b, m); err != nil {
		t.Fatal(err)
	}
	if n := m.Len(fixed); n != 3 {
		t.Errorf("fixed array of 3: %d elements after Unmarshal", n)
	}
	for range 4 {
		m.Append(fixed, protoreflect.ValueOfInt32(1))
	}
	if _, err := ros.Marshal(m); err == nil {
		t.Errorf("Marshal of 7 elements in a fixed array of 3: no error")
	}
}
