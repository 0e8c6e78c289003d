package goldens

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
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

// Values takes the bits of NaNs from .pbref.bin: text format writes -NaN
// and NaN payloads as "nan".
func TestValuesNaNBits(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "protos", "t"), 0o755); err != nil {
		t.Fatal(err)
	}
	schema := `syntax = "proto3";
package t.nan;
import "google/protobuf/any.proto";
message Inner { double d = 1; }
message N {
  double d = 1;
  float f = 2;
  repeated double ds = 3;
  Inner inner = 4;
  map<string, float> fs = 5;
  google.protobuf.Any any = 6;
  double plain = 7;
}
`
	if err := os.WriteFile(filepath.Join(dir, "protos", "t", "nan.proto"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	txt := "# case nan\n" + `d: nan
f: nan
ds: [1, nan, nan]
inner { d: nan }
fs { key: "k" value: nan }
any { [type.googleapis.com/t.nan.Inner] { d: nan } }
plain: nan
`
	c := Case{Name: "nan", MessageType: "t.nan.N"}
	if err := os.WriteFile(c.Path(dir, ".txt"), []byte(txt), 0o644); err != nil {
		t.Fatal(err)
	}
	const neg64, pay64, quiet64 = 0xfff8000000000000, 0x7ff8000000000123, 0x7ff8000000000000
	const neg32, quiet32 = 0xffc00000, 0x7fc00000
	f64 := math.Float64frombits
	files, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	md, err := files.FindDescriptorByName("t.nan.N")
	if err != nil {
		t.Fatal(err)
	}
	innerMD, _ := files.FindDescriptorByName("t.nan.Inner")
	fields := md.(protoreflect.MessageDescriptor).Fields()
	inner := dynamicpb.NewMessage(innerMD.(protoreflect.MessageDescriptor))
	inner.Set(inner.Descriptor().Fields().ByName("d"), protoreflect.ValueOfFloat64(f64(neg64)))
	innerBytes, err := proto.Marshal(inner)
	if err != nil {
		t.Fatal(err)
	}
	ref := dynamicpb.NewMessage(md.(protoreflect.MessageDescriptor))
	ref.Set(fields.ByName("d"), protoreflect.ValueOfFloat64(f64(neg64)))
	ref.Set(fields.ByName("f"), protoreflect.ValueOfFloat32(math.Float32frombits(neg32)))
	ds := ref.Mutable(fields.ByName("ds")).List()
	for _, v := range []float64{1, f64(pay64), f64(neg64)} {
		ds.Append(protoreflect.ValueOfFloat64(v))
	}
	ref.Mutable(fields.ByName("inner")).Message().Set(inner.Descriptor().Fields().ByName("d"), protoreflect.ValueOfFloat64(f64(neg64)))
	ref.Mutable(fields.ByName("fs")).Map().Set(protoreflect.ValueOfString("k").MapKey(), protoreflect.ValueOfFloat32(math.Float32frombits(neg32)))
	anyMsg := ref.Mutable(fields.ByName("any")).Message()
	anyMsg.Set(anyMsg.Descriptor().Fields().ByNumber(1), protoreflect.ValueOfString("type.googleapis.com/t.nan.Inner"))
	anyMsg.Set(anyMsg.Descriptor().Fields().ByNumber(2), protoreflect.ValueOfBytes(innerBytes))
	ref.Set(fields.ByName("plain"), protoreflect.ValueOfFloat64(f64(quiet64)))

	check := func(withRef bool) {
		t.Helper()
		got, err := c.Values(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := got.ProtoReflect()
		want64 := func(what string, v float64, bits uint64) {
			t.Helper()
			if !withRef {
				bits = quiet64
			}
			if math.Float64bits(v) != bits {
				t.Errorf("%s: bits %#x, want %#x", what, math.Float64bits(v), bits)
			}
		}
		want32 := func(what string, v float64, bits uint32) {
			t.Helper()
			if !withRef {
				bits = quiet32
			}
			if got := math.Float32bits(float32(v)); got != bits {
				t.Errorf("%s: bits %#x, want %#x", what, got, bits)
			}
		}
		want64("d", m.Get(fields.ByName("d")).Float(), neg64)
		want32("f", m.Get(fields.ByName("f")).Float(), neg32)
		l := m.Get(fields.ByName("ds")).List()
		want64("ds[1]", l.Get(1).Float(), pay64)
		want64("ds[2]", l.Get(2).Float(), neg64)
		want64("inner.d", m.Get(fields.ByName("inner")).Message().Get(inner.Descriptor().Fields().ByName("d")).Float(), neg64)
		want32("fs[k]", m.Get(fields.ByName("fs")).Map().Get(protoreflect.ValueOfString("k").MapKey()).Float(), neg32)
		want64("plain", m.Get(fields.ByName("plain")).Float(), quiet64)
		a := m.Get(fields.ByName("any")).Message()
		unpacked := dynamicpb.NewMessage(inner.Descriptor())
		if err := proto.Unmarshal(a.Get(a.Descriptor().Fields().ByNumber(2)).Bytes(), unpacked); err != nil {
			t.Fatal(err)
		}
		want64("any.d", unpacked.Get(inner.Descriptor().Fields().ByName("d")).Float(), neg64)
	}
	check(false)
	b, err := proto.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.Path(dir, ".pbref.bin"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	check(true)
}
