package testpb_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/phaser-go/phaser/payloadbuffer"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// Differential testing of the protobuf codecs on bytes nobody chose: the
// generated codec (UnmarshalProto, MarshalProto, ProtoSize), package
// proto's interpreter and protobuf-go parse the same input; they must agree
// on whether it is a message, and what parses must marshal to the same
// bytes in the three, unknown fields, extensions and fields of another wire
// type included.

// differential checks one input against one root type.
func differential(t *testing.T, root gproto.Message, data []byte, opts runtime.Options) {
	md := root.ProtoReflect().Descriptor()
	typ, err := runtime.TypeOf(md)
	if err != nil {
		t.Fatal(err)
	}
	ref := root.ProtoReflect().New().Interface()
	refErr := gproto.Unmarshal(data, ref)

	gen := runtime.New(typ, opts)
	genErr := generatedOf(t, gen).UnmarshalProto(data)
	// The generated decoding into a message that held another one (whose
	// blocks it may reuse: runtime/phaserimpl.StartDecode) must leave what
	// the decoding into a new message leaves.
	reused := runtime.New(typ, opts)
	if err := generatedOf(t, reused).UnmarshalProto(priorOf(t, root)); err != nil {
		t.Fatalf("%s: the prior message does not parse: %v", md.FullName(), err)
	}
	if reusedErr := generatedOf(t, reused).UnmarshalProto(data); (reusedErr == nil) != (genErr == nil) {
		t.Fatalf("%s: generated Unmarshal into a new message says %v, into a used one %v\n in: % x", md.FullName(), genErr, reusedErr, data)
	}
	in := runtime.New(typ, opts)
	inErr := phaserproto.Unmarshal(data, in)
	for name, err := range map[string]error{"generated": genErr, "interpreted": inErr} {
		if err != nil && !errors.Is(err, phaserproto.ErrInvalid) && !errors.Is(err, phaserproto.ErrRequired) &&
			!errors.Is(err, runtime.ErrArraySize) {
			t.Fatalf("%s: %s Unmarshal: unexpected error kind: %v", md.FullName(), name, err)
		}
	}
	if (genErr == nil) != (inErr == nil) {
		t.Fatalf("%s: generated Unmarshal says %v, interpreted %v (protobuf-go %v)\n in: % x", md.FullName(), genErr, inErr, refErr, data)
	}
	if errors.Is(genErr, runtime.ErrArraySize) || errors.Is(inErr, runtime.ErrArraySize) {
		// More elements than a fixed array holds: refused by design
		// (protobuf-go, which has no fixed arrays, takes them), by both
		// decoders alike.
		if !errors.Is(genErr, runtime.ErrArraySize) || !errors.Is(inErr, runtime.ErrArraySize) {
			t.Fatalf("%s: generated Unmarshal says %v, interpreted %v\n in: % x", md.FullName(), genErr, inErr, data)
		}
		return
	}
	if (genErr == nil) != (refErr == nil) {
		t.Fatalf("%s: generated Unmarshal says %v, protobuf-go %v\n in: % x", md.FullName(), genErr, refErr, data)
	}
	if refErr != nil {
		return
	}
	want, err := gproto.MarshalOptions{Deterministic: true}.Marshal(ref)
	if err != nil {
		t.Fatalf("%s: protobuf-go cannot marshal what it parsed: %v", md.FullName(), err)
	}
	for name, m := range map[string]runtime.Msg{"generated": gen, "interpreted": in, "generated, into a used message": reused} {
		c := generatedOf(t, m)
		got, err := c.MarshalProto()
		if err != nil || !sameMessage(t, root, got, want) {
			t.Fatalf("%s: %s Unmarshal, generated MarshalProto differs from protobuf-go (%v)\n in: % x\ngot: % x\nwant: % x", md.FullName(), name, err, data, got, want)
		}
		if n := c.ProtoSize(); n != len(got) {
			t.Fatalf("%s: %s Unmarshal, ProtoSize = %d, MarshalProto wrote %d\n in: % x", md.FullName(), name, n, len(got), data)
		}
		interp, err := phaserproto.Marshal(m)
		if err != nil || !bytes.Equal(interp, got) {
			t.Fatalf("%s: %s Unmarshal, the interpreted Marshal differs from the generated (%v)\n in: % x\ngot: % x\nwant: % x", md.FullName(), name, err, data, interp, got)
		}
	}
}

// sameMessage reports whether got is want, byte for byte, or differs only
// inside the values of Any fields of linked types: protobuf-go keeps those
// bytes as they arrived, Phaser parses them into the payload and writes
// them again in canonical form (an overlong varint shortened, fields in
// order), the same message.
func sameMessage(t *testing.T, root gproto.Message, got, want []byte) bool {
	if bytes.Equal(got, want) {
		return true
	}
	canon := func(b []byte) []byte {
		m := root.ProtoReflect().New()
		if err := (gproto.UnmarshalOptions{AllowPartial: true}).Unmarshal(b, m.Interface()); err != nil {
			return nil
		}
		if !canonicalAny(t, m) {
			return nil
		}
		out, err := gproto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(m.Interface())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	g, w := canon(got), canon(want)
	return g != nil && bytes.Equal(g, w)
}

// canonicalAny rewrites the value of every Any in m, recursively, in
// protobuf-go's deterministic encoding, and reports whether m holds one.
func canonicalAny(t *testing.T, m protoreflect.Message) bool {
	if a, ok := m.Interface().(*anypb.Any); ok {
		inner, err := a.UnmarshalNew()
		if err != nil {
			return false
		}
		canonicalAny(t, inner.ProtoReflect())
		a.Value, err = gproto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(inner)
		if err != nil {
			t.Fatal(err)
		}
		return true
	}
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
					found = canonicalAny(t, e.Message()) || found
					return true
				})
			}
		case fd.IsList():
			if fd.Message() != nil {
				for i := range v.List().Len() {
					found = canonicalAny(t, v.List().Get(i).Message()) || found
				}
			}
		case fd.Message() != nil:
			found = canonicalAny(t, v.Message()) || found
		}
		return true
	})
	return found
}

// priors holds, per root type, the message priorOf returns.
var priors sync.Map // protoreflect.FullName -> []byte

// priorOf returns the encoding of a message of root's type with every field
// filled, which differential decodes into a message before the input.
func priorOf(t testing.TB, root gproto.Message) []byte {
	name := root.ProtoReflect().Descriptor().FullName()
	if b, ok := priors.Load(name); ok {
		return b.([]byte)
	}
	m := root.ProtoReflect().New()
	fill(rand.New(rand.NewPCG(uint64(len(name)), 7)), m, 1)
	b, err := gproto.MarshalOptions{Deterministic: true}.Marshal(m.Interface())
	if err != nil {
		t.Fatal(err)
	}
	priors.Store(name, b)
	return b
}

// differentialSeeds are inputs the fuzzer starts from: conformance messages
// of every root, and hand-made records protobuf-go keeps as unknown
// fields or extensions.
func differentialSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for i, root := range conformanceRoots() {
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		m := root.ProtoReflect().New()
		fill(rng, m, 1)
		b, err := gproto.MarshalOptions{Deterministic: true}.Marshal(m.Interface())
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, append([]byte{byte(i)}, b...))
	}
	// Legacy (root 4): required fields, a declared extension (100), the
	// same number with another wire type, an undeclared one in the range,
	// an unknown field, a known field of another wire type, a group.
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 7)
	b = protowire.AppendTag(b, 999, protowire.BytesType)
	b = protowire.AppendString(b, "unknown")
	b = protowire.AppendTag(b, 100, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, 5)
	b = protowire.AppendTag(b, 101, protowire.VarintType)
	b = protowire.AppendVarint(b, 3)
	b = protowire.AppendTag(b, 11, protowire.BytesType)
	b = protowire.AppendString(b, "label")
	b = protowire.AppendTag(b, 100, protowire.VarintType)
	b = protowire.AppendVarint(b, 42)
	b = protowire.AppendTag(b, 2, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, 9)
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = protowire.AppendVarint(b, 77) // not a Kind: a closed enum keeps it unknown
	b = protowire.AppendTag(b, 50, protowire.StartGroupType)
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendTag(b, 50, protowire.EndGroupType)
	seeds = append(seeds, append([]byte{4}, b...))
	return seeds
}

func TestDifferentialSeeds(t *testing.T) {
	registerAll(t)
	roots := conformanceRoots()
	for _, s := range differentialSeeds(t) {
		for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
			differential(t, roots[int(s[0])%len(roots)], s[1:], runtime.Options{Version: v})
		}
	}
}

// TestDifferentialMutations runs the differential check on random
// mutations of the seeds, so that CI covers more than the seeds without
// running the fuzzer.
func TestDifferentialMutations(t *testing.T) {
	registerAll(t)
	roots := conformanceRoots()
	seeds := differentialSeeds(t)
	rng := rand.New(rand.NewPCG(12, 16))
	for range 20000 {
		s := bytes.Clone(seeds[rng.IntN(len(seeds))])
		for range 1 + rng.IntN(4) {
			if len(s) < 2 {
				break
			}
			i := 1 + rng.IntN(len(s)-1)
			switch rng.IntN(3) {
			case 0:
				s[i] = byte(rng.IntN(256))
			case 1:
				s = append(s[:i], s[i+1:]...)
			default:
				s = append(s[:i], append([]byte{byte(rng.IntN(256))}, s[i:]...)...)
			}
		}
		differential(t, roots[int(s[0])%len(roots)], s[1:], runtime.Options{Version: []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3}[rng.IntN(2)]})
	}
}

// FuzzDifferential is the differential check on fuzzed input: its first
// byte picks the root type.
func FuzzDifferential(f *testing.F) {
	registerAll(f)
	for _, s := range differentialSeeds(f) {
		f.Add(s)
	}
	roots := conformanceRoots()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 1<<14 {
			return
		}
		differential(t, roots[int(data[0])%len(roots)], data[1:], runtime.Options{})
	})
}
