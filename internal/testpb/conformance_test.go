package testpb_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// Conformance of the protobuf wire format against protobuf-go, the
// reference nobody here wrote: random messages of the test schemas are built
// both in protobuf-go and, through the runtime's setters, in a Phaser
// payload; the payload must marshal to exactly protobuf-go's deterministic
// bytes, and every encoding protobuf-go produces (deterministic or not,
// packed or unpacked) must parse into a payload that marshals to them again.
// Both codecs answer: the generated one (the handles' MarshalProto,
// ProtoSize, UnmarshalProto) and package proto's interpreter.

// wireCodec is the generated protobuf codec of a handle.
type wireCodec interface {
	MarshalProto() ([]byte, error)
	ProtoSize() int
	UnmarshalProto([]byte) error
}

// generatedOf returns the generated handle of m, a message of a root type.
func generatedOf(t testing.TB, m runtime.Msg) wireCodec {
	switch m.Type().Descriptor().FullName() {
	case "phasertest.Everything":
		return testpbphaser.EverythingOf(m)
	case "phasertest.Scalars":
		return testpbphaser.ScalarsOf(m)
	case "phasertest.Repeated":
		return testpbphaser.RepeatedOf(m)
	case "phasertest.Wide":
		return testpbphaser.WideOf(m)
	case "phasertest.Legacy":
		return testpbphaser.LegacyOf(m)
	}
	t.Fatalf("no generated handle for %s", m.Type().Descriptor().FullName())
	return nil
}

const conformanceCases = 2000

func conformanceRoots() []gproto.Message {
	return []gproto.Message{&testpb.Everything{}, &testpb.Scalars{}, &testpb.Repeated{}, &testpb.Wide{}, &testpb.Legacy{}}
}

func TestConformance(t *testing.T) {
	registerAll(t)
	for _, root := range conformanceRoots() {
		md := root.ProtoReflect().Descriptor()
		pbType, err := runtime.TypeOf(md)
		if err != nil {
			t.Fatal(err)
		}
		for _, fe := range []runtime.Frontend{runtime.ProtobufFrontend, runtime.ROSFrontend} {
			conformance(t, root, fe, pbType)
		}
	}
}

// conformance runs the conformance cases of one root type with handles
// compiled for frontend fe. Payloads of the ROS frontend (singular messages
// inline in format v3) must also read the same through pbType.
func conformance(t *testing.T, root gproto.Message, fe runtime.Frontend, pbType *runtime.Type) {
	md := root.ProtoReflect().Descriptor()
	typ, err := runtime.TypeFor(md, fe)
	if err != nil {
		t.Fatal(err)
	}
	t.Run(string(md.Name())+"/"+fe.String(), func(t *testing.T) {
		for seed := range uint64(conformanceCases) {
			rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
			src := root.ProtoReflect().New()
			fill(rng, src, 0)
			ref, err := gproto.MarshalOptions{Deterministic: true}.Marshal(src.Interface())
			if err != nil {
				t.Fatalf("seed %d: protobuf-go: %v", seed, err)
			}
			for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
				opts := runtime.Options{Version: v, Tuning: payloadbuffer.Tuning(seed % 2)}
				// (a) built in phaser-go, marshaled: protobuf-go's bytes.
				m := runtime.New(typ, opts)
				build(t, src, m)
				got, err := phaserproto.Marshal(m)
				if err != nil {
					t.Fatalf("seed %d %s: Marshal: %v", seed, v, err)
				}
				if !bytes.Equal(got, ref) {
					t.Fatalf("seed %d %s: Marshal differs from protobuf-go\n got: % x\nwant: % x", seed, v, got, ref)
				}
				gen := generatedOf(t, m)
				if got, err := gen.MarshalProto(); err != nil || !bytes.Equal(got, ref) {
					t.Fatalf("seed %d %s: generated MarshalProto differs from protobuf-go (%v)\n got: % x\nwant: % x", seed, v, err, got, ref)
				}
				if n := gen.ProtoSize(); n != len(ref) {
					t.Fatalf("seed %d %s: generated ProtoSize = %d, want %d", seed, v, n, len(ref))
				}
				if typ != pbType {
					r, err := runtime.Read(pbType, m.Bytes())
					if err != nil {
						t.Fatalf("seed %d %s: Read through the protobuf frontend: %v", seed, v, err)
					}
					if got, err := phaserproto.Marshal(r); err != nil || !bytes.Equal(got, ref) {
						t.Fatalf("seed %d %s: read through the protobuf frontend, Marshal gives another message (%v)\n got: % x\nwant: % x", seed, v, err, got, ref)
					}
				}
				back := root.ProtoReflect().New().Interface()
				if err := gproto.Unmarshal(got, back); err != nil || !gproto.Equal(back, src.Interface()) {
					t.Fatalf("seed %d %s: protobuf-go reads our bytes as another message (%v)", seed, v, err)
				}
				// (b) protobuf-go's encodings parse in phaser-go.
				plain, err := gproto.Marshal(src.Interface())
				if err != nil {
					t.Fatal(err)
				}
				for name, in := range map[string][]byte{"deterministic": ref, "default": plain, "unpacked": unpack(t, ref, md)} {
					p := runtime.New(typ, opts)
					if err := phaserproto.Unmarshal(in, p); err != nil {
						t.Fatalf("seed %d %s %s: Unmarshal: %v", seed, v, name, err)
					}
					out, err := phaserproto.Marshal(p)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(out, ref) {
						t.Fatalf("seed %d %s: %s input parsed and marshaled differs\n got: % x\nwant: % x", seed, v, name, out, ref)
					}
					g := runtime.New(typ, opts)
					if err := generatedOf(t, g).UnmarshalProto(in); err != nil {
						t.Fatalf("seed %d %s %s: generated UnmarshalProto: %v", seed, v, name, err)
					}
					for codec, marshal := range map[string]func() ([]byte, error){
						"interpreted": func() ([]byte, error) { return phaserproto.Marshal(g) },
						"generated":   generatedOf(t, g).MarshalProto,
					} {
						if out, err := marshal(); err != nil || !bytes.Equal(out, ref) {
							t.Fatalf("seed %d %s: %s input through the generated UnmarshalProto, %s marshal differs (%v)\n got: % x\nwant: % x", seed, v, name, codec, err, out, ref)
						}
					}
				}
			}
		}
	})
}

// registerAll gives every test schema message a runtime Type (Any values
// are resolved by name).
func registerAll(t testing.TB) {
	protoregistry.GlobalFiles.RangeFilesByPackage("phasertest", func(fd protoreflect.FileDescriptor) bool {
		for i := range fd.Messages().Len() {
			if _, err := runtime.TypeOf(fd.Messages().Get(i)); err != nil {
				t.Fatal(err)
			}
		}
		return true
	})
}

// fill sets random values in m, nested messages to a bounded depth.
func fill(rng *rand.Rand, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			continue // oneofs below
		}
		if fd.Cardinality() != protoreflect.Required && rng.IntN(3) == 0 {
			continue
		}
		setRandom(rng, m, fd, depth)
	}
	oneofs := m.Descriptor().Oneofs()
	for i := range oneofs.Len() {
		od := oneofs.Get(i)
		if od.IsSynthetic() || rng.IntN(4) == 0 {
			continue
		}
		setRandom(rng, m, od.Fields().Get(rng.IntN(od.Fields().Len())), depth)
	}
}

func setRandom(rng *rand.Rand, m protoreflect.Message, fd protoreflect.FieldDescriptor, depth int) {
	switch {
	case fd.IsMap():
		mp := m.Mutable(fd).Map()
		for range rng.IntN(4) {
			k := randomScalar(rng, fd.MapKey())
			var v protoreflect.Value
			if fd.MapValue().Message() != nil {
				v = mp.NewValue()
				if depth < 3 {
					fill(rng, v.Message(), depth+1)
				}
			} else {
				v = randomScalar(rng, fd.MapValue())
			}
			mp.Set(k.MapKey(), v)
		}
	case fd.IsList():
		l := m.Mutable(fd).List()
		for range randomLen(rng, fd) {
			if fd.Message() != nil {
				e := l.NewElement()
				if depth < 3 {
					fillMessage(rng, e.Message(), depth+1)
				}
				l.Append(e)
			} else {
				l.Append(randomScalar(rng, fd))
			}
		}
	case fd.Message() != nil:
		if depth >= 3 {
			return
		}
		v := m.NewField(fd)
		fillMessage(rng, v.Message(), depth+1)
		m.Set(fd, v)
	default:
		m.Set(fd, randomScalar(rng, fd))
	}
}

// fillMessage fills a nested message; an Any gets a packed Inner.
// randomLen returns a random number of elements for repeated field fd: 0
// to 4, at most N for a fixed array (phaser.array_size = N).
func randomLen(rng *rand.Rand, fd protoreflect.FieldDescriptor) int {
	if size, ok := layout.ArraySize(fd); ok {
		return rng.IntN(int(size) + 1)
	}
	return rng.IntN(5)
}

func fillMessage(rng *rand.Rand, m protoreflect.Message, depth int) {
	if m.Descriptor().FullName() == "google.protobuf.Any" {
		inner := (&testpb.Inner{}).ProtoReflect()
		fill(rng, inner, depth+1)
		a, err := anypb.New(inner.Interface())
		if err != nil {
			panic(err)
		}
		b, _ := gproto.MarshalOptions{Deterministic: true}.Marshal(a)
		if err := gproto.Unmarshal(b, m.Interface()); err != nil {
			panic(err)
		}
		return
	}
	fill(rng, m, depth)
}

func randomScalar(rng *rand.Rand, fd protoreflect.FieldDescriptor) protoreflect.Value {
	pick := func(vals ...uint64) uint64 {
		if rng.IntN(3) == 0 {
			return vals[rng.IntN(len(vals))]
		}
		return rng.Uint64() >> rng.IntN(64)
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(rng.IntN(2) == 0)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(pick(0, 1, math.MaxUint32, 1<<31, math.MaxInt32)))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(pick(0, 1, math.MaxUint32)))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(pick(0, 1, math.MaxUint64, 1<<63, math.MaxInt64)))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(pick(0, 1, math.MaxUint64))
	case protoreflect.FloatKind:
		f := []float32{0, float32(math.Copysign(0, -1)), 1.5, -3.25e10, math.MaxFloat32, float32(math.Inf(-1))}
		return protoreflect.ValueOfFloat32(f[rng.IntN(len(f))] * float32(rng.IntN(3)+1))
	case protoreflect.DoubleKind:
		f := []float64{0, math.Copysign(0, -1), 1.5, -3.25e100, math.SmallestNonzeroFloat64, math.Inf(1)}
		return protoreflect.ValueOfFloat64(f[rng.IntN(len(f))] * float64(rng.IntN(3)+1))
	case protoreflect.EnumKind:
		vals := fd.Enum().Values()
		if rng.IntN(5) == 0 {
			return protoreflect.ValueOfEnum(12345) // open enums keep unknown values
		}
		return protoreflect.ValueOfEnum(vals.Get(rng.IntN(vals.Len())).Number())
	case protoreflect.StringKind:
		s := fmt.Sprintf("s%d·%x", rng.IntN(1000), rng.Uint32())
		if rng.IntN(5) == 0 {
			s = ""
		}
		if !utf8.ValidString(s) {
			panic(s)
		}
		return protoreflect.ValueOfString(s)
	case protoreflect.BytesKind:
		b := make([]byte, rng.IntN(20))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return protoreflect.ValueOfBytes(b)
	}
	panic(fd.Kind())
}

// build writes src into the Phaser message m through the runtime's
// dynamic API, in field order.
func build(t *testing.T, src protoreflect.Message, m runtime.Msg) {
	t.Helper()
	if m.Type().Descriptor().FullName() == "google.protobuf.Any" {
		a := src.Interface().(*anypb.Any)
		inner, err := a.UnmarshalNew()
		if err != nil {
			t.Fatal(err)
		}
		it := runtime.FindType(inner.ProtoReflect().Descriptor().FullName())
		build(t, inner.ProtoReflect(), runtime.AnyOf(m).Mutable(it))
		return
	}
	src.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				e := m.AppendMessage(fd)
				setValue(t, e, fd.MapKey(), k.Value())
				setValue(t, e, fd.MapValue(), mv)
				return true
			})
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				if fd.Message() != nil {
					build(t, l.Get(i).Message(), m.AppendMessage(fd))
				} else {
					m.Append(fd, l.Get(i))
				}
			}
		default:
			setValue(t, m, fd, v)
		}
		return true
	})
}

func setValue(t *testing.T, m runtime.Msg, fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if fd.Message() != nil {
		build(t, v.Message(), m.Mutable(fd))
		return
	}
	m.Set(fd, v)
}

// unpack re-encodes every packed repeated field of b (a message of type md)
// one element per record, recursively, as a protobuf peer may send it.
func unpack(t *testing.T, b []byte, md protoreflect.MessageDescriptor) []byte {
	var out []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			t.Fatalf("bad reference encoding")
		}
		val := b[:n]
		b = b[n:]
		fd := md.Fields().ByNumber(num)
		switch {
		case fd != nil && fd.IsList() && typ == protowire.BytesType && fd.Message() == nil &&
			fd.Kind() != protoreflect.StringKind && fd.Kind() != protoreflect.BytesKind:
			data, _ := protowire.ConsumeBytes(val)
			wt := protowire.VarintType
			switch fd.Kind() {
			case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
				wt = protowire.Fixed32Type
			case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
				wt = protowire.Fixed64Type
			}
			for len(data) > 0 {
				k := protowire.ConsumeFieldValue(num, wt, data)
				out = protowire.AppendTag(out, num, wt)
				out = append(out, data[:k]...)
				data = data[k:]
			}
		case fd != nil && fd.Message() != nil && typ == protowire.BytesType && !fd.IsMap() && fd.Message().FullName() != "google.protobuf.Any":
			data, _ := protowire.ConsumeBytes(val)
			out = protowire.AppendTag(out, num, typ)
			out = protowire.AppendBytes(out, unpack(t, data, fd.Message()))
		default:
			out = protowire.AppendTag(out, num, typ)
			out = append(out, val...)
		}
	}
	return out
}
