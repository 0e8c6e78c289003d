package testpb_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/roswire/roswirephaser"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// A message reused across decodes must not remember a decode that failed:
// after UnmarshalProto or UnmarshalROS of truncated, torn or mutated bytes
// (which may fail anywhere: inside a nested message, a list, a map entry,
// an unknown field, or with the fixed buffer full), the next decode of a
// valid input into the same handle must succeed and give exactly the
// message that input holds, as a fresh handle decodes it. Every buffer
// kind (owned; fixed, roomy and tight), both formats, with and without a
// Clear between the failed decode and the valid one.

// reuseCodec is one wire format of the reuse test.
type reuseCodec struct {
	name      string
	roots     string // "proto" or "ros": the roots it decodes
	unmarshal func(h reuseHandle, b []byte) error
	marshal   func(h reuseHandle) ([]byte, error)
}

// reuseHandle is what the test needs of a generated handle.
type reuseHandle interface {
	gproto.Message
	UnmarshalProto([]byte) error
	MarshalProto() ([]byte, error)
	UnmarshalROS([]byte) error
	MarshalROS() ([]byte, error)
	Clear()
	Err() error
	Bytes() []byte
}

var reuseCodecs = []reuseCodec{
	{"UnmarshalProto", "proto", reuseHandle.UnmarshalProto, reuseHandle.MarshalProto},
	{"proto.Unmarshal", "proto", // package proto's general path
		func(h reuseHandle, b []byte) error { return phaserproto.Unmarshal(b, msgOf(h)) },
		func(h reuseHandle) ([]byte, error) { return phaserproto.Marshal(msgOf(h)) }},
	{"protobuf-go", "proto", // protobuf-go's Unmarshal through the reflection view
		func(h reuseHandle, b []byte) error { return gproto.Unmarshal(b, h) },
		func(h reuseHandle) ([]byte, error) { return gproto.MarshalOptions{Deterministic: true}.Marshal(h) }},
	{"UnmarshalROS", "ros", reuseHandle.UnmarshalROS, reuseHandle.MarshalROS},
}

// reuseRoot is a root message type of the reuse test.
type reuseRoot struct {
	name   string
	ref    func() protoreflect.Message
	create func(...runtime.Options) reuseHandle
	in     func([]byte, ...runtime.Options) (reuseHandle, error)
}

func reuseRootOf[H reuseHandle](name string, ref gproto.Message, create func(...runtime.Options) H, in func([]byte, ...runtime.Options) (H, error)) reuseRoot {
	return reuseRoot{
		name:   name,
		ref:    func() protoreflect.Message { return ref.ProtoReflect().New() },
		create: func(o ...runtime.Options) reuseHandle { return create(o...) },
		in:     func(mem []byte, o ...runtime.Options) (reuseHandle, error) { return in(mem, o...) },
	}
}

// mutate returns a broken copy of valid: truncated, torn (a prefix of one
// input and the rest of another, as a reader of a slot being rewritten
// sees it), bytes flipped, inserted or deleted, a length varint made to
// lie, or the input repeated (too large for a tight buffer).
func mutate(rng *rand.Rand, valid, other []byte) []byte {
	b := bytes.Clone(valid)
	switch rng.IntN(7) {
	case 6: // grown: the input repeated (protobuf merges the copies, so
		// repeated fields and unknown fields grow until a tight buffer
		// is full), perhaps cut short
		for range 2 + rng.IntN(6) {
			b = append(b, valid...)
		}
		if rng.IntN(2) == 0 {
			b = b[:len(b)-rng.IntN(len(valid)+1)]
		}
	case 0: // truncated
		if len(b) > 0 {
			b = b[:rng.IntN(len(b))]
		}
	case 1: // torn
		cut := rng.IntN(len(b) + 1)
		b = append(b[:cut:cut], other[min(cut, len(other)):]...)
	case 2: // flipped
		for range 1 + rng.IntN(4) {
			if len(b) > 0 {
				b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
			}
		}
	case 3: // inserted
		at := rng.IntN(len(b) + 1)
		ins := make([]byte, 1+rng.IntN(8))
		for i := range ins {
			ins[i] = byte(rng.Uint32())
		}
		b = append(b[:at:at], append(ins, b[at:]...)...)
	case 4: // deleted
		if len(b) > 1 {
			at := rng.IntN(len(b) - 1)
			b = append(b[:at:at], b[at+1+rng.IntN(min(8, len(b)-at-1)):]...)
		}
	default: // a byte set to a large value (a lying length or count)
		if len(b) > 0 {
			b[rng.IntN(len(b))] = 0xff
		}
	}
	return b
}

func TestReuseAfterFailedUnmarshal(t *testing.T) {
	registerAll(t)
	registerWellKnown(t)
	kindsSchema(t) // the types random Any values hold
	roots := map[string][]reuseRoot{
		"proto": {
			reuseRootOf("Everything", &testpb.Everything{}, testpbphaser.NewEverything, testpbphaser.NewEverythingIn),
			reuseRootOf("Legacy", &testpb.Legacy{}, testpbphaser.NewLegacy, testpbphaser.NewLegacyIn),
			reuseRootOf("Repeated", &testpb.Repeated{}, testpbphaser.NewRepeated, testpbphaser.NewRepeatedIn),
		},
		// ROS1 roots: types with a ROS1 form (random values through the
		// handles' reflection view; those ROS1 cannot express are left out).
		"ros": {
			reuseRootOf("ros.Nested", roswirephaser.NewNested(), roswirephaser.NewNested, roswirephaser.NewNestedIn),
			reuseRootOf("ros.Arrays", roswirephaser.NewArrays(), roswirephaser.NewArrays, roswirephaser.NewArraysIn),
			reuseRootOf("ros.Scalars", roswirephaser.NewScalars(), roswirephaser.NewScalars, roswirephaser.NewScalarsIn),
		},
	}
	const inputs, rounds = 24, 400
	failures := 0
	for _, codec := range reuseCodecs {
		for _, root := range roots[codec.roots] {
			for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
				o := runtime.Options{Version: v}
				// The valid inputs: random messages (one in three with
				// unknown fields, for protobuf) in this codec's bytes, as
				// a fresh owned handle decodes them, and the payload size
				// each needs.
				var (
					valid [][]byte
					want  []reuseHandle
					need  int
				)
				rng := rand.New(rand.NewPCG(uint64(len(root.name)), 0x2e05e))
				// Random values that a codec cannot express are skipped;
				// how many varies from run to run (13 to 20 of 24 for
				// ros.Nested in ROS1, and once 11 in CI, under the half
				// required below), so values are drawn until there are
				// inputs valid ones, or 4*inputs were drawn.
				for i := 0; i < 4*inputs && len(valid) < inputs; i++ {
					ref := root.ref()
					randomFill(rng, ref, 0)
					if codec.roots == "ros" {
						rosFit(ref)
					}
					if i%3 == 2 && codec.roots == "proto" {
						ref.SetUnknown(randomUnknown(rng, ref.Descriptor()))
					}
					wire, err := gproto.MarshalOptions{Deterministic: true}.Marshal(ref.Interface())
					if err != nil {
						t.Fatal(err)
					}
					h := root.create(o)
					if err := h.UnmarshalProto(wire); err != nil {
						if codec.roots == "ros" {
							continue // a value the ROS1 types refuse (a fixed array's length)
						}
						t.Fatalf("%s: valid input %d: %v", root.name, i, err)
					}
					b, err := codec.marshal(h)
					if err != nil {
						continue // not expressible in this codec (ROS: an unknown field, an Any, ...)
					}
					fresh := root.create(o)
					if err := codec.unmarshal(fresh, b); err != nil {
						t.Fatalf("%s %s: valid input %d does not decode: %v", root.name, codec.name, i, err)
					}
					valid, want = append(valid, b), append(want, fresh)
					need = max(need, len(fresh.Bytes()))
				}
				if len(valid) < inputs/2 {
					t.Fatalf("%s %s %s: only %d of %d inputs are valid", root.name, codec.name, v, len(valid), inputs)
				}
				buffers := []struct {
					name string
					size int // 0: owned
				}{{"owned", 0}, {"fixed", 4*need + 4096}, {"tight", need + need/4 + 256}}
				for _, buf := range buffers {
					name := fmt.Sprintf("%s/%s/%s/%s", root.name, codec.name, v, buf.name)
					var h reuseHandle
					if buf.size == 0 {
						h = root.create(o)
					} else {
						var err error
						if h, err = root.in(make([]byte, buf.size), o); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
					}
					refused, full := 0, 0
					for r := range rounds {
						// One to three broken decodes in a row, then a
						// valid one.
						var bad []byte
						var badErr error
						for range 1 + rng.IntN(3) {
							i, j := rng.IntN(len(valid)), rng.IntN(len(valid))
							bad = mutate(rng, valid[i], valid[j])
							if badErr = codec.unmarshal(h, bad); badErr != nil {
								refused++
								if errors.Is(badErr, runtime.ErrFull) {
									full++
								}
							}
						}
						if r%2 == 1 {
							h.Clear()
						}
						k := rng.IntN(len(valid))
						if err := codec.unmarshal(h, valid[k]); err != nil {
							failures++
							t.Errorf("%s round %d: valid input %d after a decode of broken bytes (err %v) fails: %v\nbroken % x", name, r, k, badErr, err, bad)
							break
						}
						if err := h.Err(); err != nil {
							failures++
							t.Errorf("%s round %d: payload error %v after a valid decode", name, r, err)
							break
						}
						if !gproto.Equal(h, want[k]) {
							failures++
							t.Errorf("%s round %d: valid input %d after a decode of broken bytes (err %v) decodes differently: %s", name, r, k, badErr, cmp.Diff(want[k], h, cmpOptions...))
							break
						}
						got, err := codec.marshal(h)
						if err != nil || !bytes.Equal(got, valid[k]) {
							failures++
							t.Errorf("%s round %d: re-marshal of valid input %d (err %v):\n got % x\nwant % x", name, r, k, err, got, valid[k])
							break
						}
						if failures > 10 {
							t.FailNow()
						}
					}
					t.Logf("%s: %d broken inputs refused over %d rounds (%d with the buffer full)", name, refused, rounds, full)
					if refused < rounds/2 {
						t.Errorf("%s: only %d broken inputs were refused in %d rounds: the test does not reach the failure paths", name, refused, rounds)
					}
				}
			}
		}
	}
}

// rosFit makes m expressible in ROS1: Timestamps and Durations in its
// ranges (uint32 and int32 seconds), integers small enough for the
// narrowest ros_field type, no populated Any.
func rosFit(m protoreflect.Message) {
	switch m.Descriptor().FullName() {
	case "google.protobuf.Timestamp", "google.protobuf.Duration":
		fd := m.Descriptor().Fields().ByNumber(1)
		s := m.Get(fd).Int()
		if m.Descriptor().Name() == "Timestamp" {
			s = int64(uint64(s) % (1 << 32))
		} else {
			s %= 1 << 31
		}
		m.Set(fd, protoreflect.ValueOfInt64(s))
		return
	}
	small := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) protoreflect.Value {
		switch fd.Kind() {
		case protoreflect.EnumKind:
			return protoreflect.ValueOfEnum(v.Enum() % 100)
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
			return protoreflect.ValueOfInt32(int32(v.Int() % 100))
		case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			return protoreflect.ValueOfInt64(v.Int() % 100)
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
			return protoreflect.ValueOfUint32(uint32(v.Uint() % 100))
		case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			return protoreflect.ValueOfUint64(v.Uint() % 100)
		}
		return v
	}
	var anys []protoreflect.FieldDescriptor
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() != nil && fd.Message().FullName() == "google.protobuf.Any":
			anys = append(anys, fd)
		case fd.Message() == nil && fd.IsList():
			for i := range v.List().Len() {
				v.List().Set(i, small(fd, v.List().Get(i)))
			}
		case fd.Message() == nil && !fd.IsMap():
			m.Set(fd, small(fd, v))
		case fd.Message() == nil:
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, v protoreflect.Value) bool {
					rosFit(v.Message())
					return true
				})
			}
		case fd.IsList():
			for i := range v.List().Len() {
				rosFit(v.List().Get(i).Message())
			}
		default:
			rosFit(m.Mutable(fd).Message())
		}
		return true
	})
	for _, fd := range anys {
		m.Clear(fd)
	}
}
