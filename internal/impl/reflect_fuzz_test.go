package impl_test

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// The reflection views of hostile payloads: protojson, prototext,
// proto.Equal and proto.Size over a view of any bytes return (an error or
// output bounded by the input), never panic, hang or modify the bytes.

// FuzzReflect reads data as every test type and runs protobuf-go's
// encoders over the views.
func FuzzReflect(f *testing.F) {
	types := fuzzTypes(f)
	for _, s := range hostileSeeds(f) {
		f.Add(s.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range types {
			checkHostileReflect(t, typ, data)
			checkHostileReflectWrite(t, typ, data)
		}
	})
}

// checkHostileReflectWrite continues data with Open and writes every field
// through reflection (Set, Mutable, list Append and Set, map Set and
// Mutable), as protojson.Unmarshal and proto.Merge write: where the bytes
// do not hold a message the writes reach, they are dropped and the payload
// says why (Err), never a panic.
func checkHostileReflectWrite(t *testing.T, typ *impl.Type, data []byte) {
	mem := make([]byte, len(data)+4096)
	copy(mem, data)
	m, err := impl.Open(typ, mem)
	if err != nil {
		return
	}
	h := runtime.Msg(impl.DynamicOf(m, typ))
	watchdog("writes through reflection to "+typ.Name()+" continued with Open", data, func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("writes through reflection to %s continued with Open: panic: %v", typ.Name(), r)
			}
		}()
		budget := 64
		fillReflect(h.ProtoReflect(), 0, &budget)
		_ = proto.Size(h)
	})
}

// fillReflect sets the fields of m through reflection: a value of each
// scalar, two elements of each list and map, the first member of each
// oneof, and nested messages to a depth of 3, until it has made budget
// writes.
func fillReflect(m protoreflect.Message, depth int, budget *int) {
	if depth > 3 {
		return
	}
	fds := m.Descriptor().Fields()
	for i := range fds.Len() {
		if *budget--; *budget < 0 {
			return
		}
		fd := fds.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() && o.Fields().Get(0) != fd {
			continue
		}
		switch {
		case fd.IsList():
			l := m.Mutable(fd).List()
			for k := range 2 {
				var v protoreflect.Value
				if fd.Message() != nil {
					v = l.NewElement()
					fillReflect(v.Message(), depth+1, budget)
				} else {
					v = reflectValue(fd, k)
				}
				if k < l.Len() {
					l.Set(k, v)
				} else {
					l.Append(v)
				}
			}
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for k := range 2 {
				key := reflectValue(fd.MapKey(), k).MapKey()
				if fd.MapValue().Message() != nil {
					fillReflect(mp.Mutable(key).Message(), depth+1, budget)
				} else {
					mp.Set(key, reflectValue(fd.MapValue(), k))
				}
			}
		case fd.Message() != nil:
			if fd.Message().FullName() != "google.protobuf.Any" {
				fillReflect(m.Mutable(fd).Message(), depth+1, budget)
			}
		default:
			m.Set(fd, reflectValue(fd, 1))
		}
	}
}

// reflectValue returns a value of field fd's kind, distinct for each k.
func reflectValue(fd protoreflect.FieldDescriptor, k int) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(k%2 == 0)
	case protoreflect.EnumKind:
		vs := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vs.Get(k % vs.Len()).Number())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(-3 * (k + 1)))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(-5 * (k + 1)))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(7 + k))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(9 + k))
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(k) + 0.5)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(float64(k) + 0.25)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(strings.Repeat("s", k+1))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte{byte(k), 0xff})
	}
	panic(fd.Kind())
}

// maxJSON bounds the protojson output of a view of n payload bytes: a
// payload cannot hold more values than its bytes, and no value prints in
// more than some tens of bytes (a field name, a float, an escaped rune).
func maxJSON(n int) int { return 64*n + 1<<16 }

func checkHostileReflect(t *testing.T, typ *impl.Type, data []byte) {
	orig := bytes.Clone(data)
	m, err := impl.Read(typ, data)
	if err != nil {
		return
	}
	h := runtime.Msg(impl.DynamicOf(m, typ))
	watchdog("protojson of a view of "+typ.Name(), data, func() {
		b, err := protojson.MarshalOptions{AllowPartial: true}.Marshal(h)
		if err == nil && len(b) > maxJSON(len(data)) {
			t.Errorf("protojson of a view of %s: %d bytes from a %d-byte payload", typ.Name(), len(b), len(data))
		}
		_, _ = protojson.Marshal(h)
		_ = prototext.Format(h)
		_ = proto.Equal(h, h)
		_ = proto.Size(h)
		_ = proto.CheckInitialized(h)
	})
	if !bytes.Equal(data, orig) {
		t.Fatalf("%s: a view modified the payload", typ.Name())
	}
}

// TestReflectHostile checks that the seeds whose offsets are shared or
// cyclic give an error from protojson, not output or a crash.
func TestReflectHostile(t *testing.T) {
	checked := 0
	for _, s := range hostileSeeds(t) {
		if !strings.Contains(s.name, "selfref") && !strings.Contains(s.name, "dag") {
			continue
		}
		checked++
		m, err := impl.Read(s.typ, s.data)
		if err != nil {
			continue
		}
		h := runtime.Msg(impl.DynamicOf(m, s.typ))
		var jerr error
		watchdog("protojson of "+s.name, s.data, func() { _, jerr = protojson.Marshal(h) })
		if jerr == nil || !strings.Contains(jerr.Error(), "shared or cyclic") && !strings.Contains(jerr.Error(), "deeper") {
			t.Errorf("%s: protojson of the view: %v, want an error about shared or cyclic offsets", s.name, jerr)
		}
	}
	if checked < 2 {
		t.Fatalf("%d hostile seeds with shared or cyclic offsets; expected the cycle and the DAG", checked)
	}
}
