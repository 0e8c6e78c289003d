package ros_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/phaser-go/phaser/internal/testpb/roswire/roswirephaser"
	"github.com/phaser-go/phaser/runtime"
)

// reuseCodec is what FuzzDecodeIntoUsed needs of a generated handle.
type reuseCodec interface {
	UnmarshalROS([]byte) error
	MarshalROS() ([]byte, error)
	UnmarshalProto([]byte) error
	MarshalProto() ([]byte, error)
	Bytes() []byte
}

// reuseTypes are flat messages (singular scalars, strings and bytes, flat
// singular messages), whose decoders reuse the blocks of the message they
// replace: each makes a new owned message, or one in a fixed buffer of n
// bytes.
var reuseTypes = []struct {
	name  string
	owned func() reuseCodec
	fixed func(n int) (reuseCodec, error)
}{
	{"Stamped", func() reuseCodec { return roswirephaser.NewStamped() },
		func(n int) (reuseCodec, error) { return roswirephaser.NewStampedIn(make([]byte, n)) }},
	{"Scalars", func() reuseCodec { return roswirephaser.NewScalars() },
		func(n int) (reuseCodec, error) { return roswirephaser.NewScalarsIn(make([]byte, n)) }},
	{"Converted", func() reuseCodec { return roswirephaser.NewConverted() },
		func(n int) (reuseCodec, error) { return roswirephaser.NewConvertedIn(make([]byte, n)) }},
}

// FuzzDecodeIntoUsed decodes hostile bytes into a message that already
// holds a decoded one, where the generated decoders take the old message's
// blocks back for the new values instead of clearing the buffer: the
// decoding succeeds exactly when it does into a new message, holds the same
// message (its protobuf and ROS1 bytes), and the payload stays in
// proportion to the two inputs. first fills the message, second replaces
// it; each is tried as ROS1 and as protobuf bytes, into an owned buffer and
// into a fixed one (where a reusing decoding that runs out of room is done
// again from a Clear, so it fails only where a new message would).
func FuzzDecodeIntoUsed(f *testing.F) {
	s := roswirephaser.NewStamped()
	s.MutableStamp().SetSeconds(1700000000)
	s.MutableStamp().SetNanos(5)
	s.MutableSpan().SetSeconds(-3)
	s.SetFrame("base_link")
	sc := roswirephaser.NewScalars()
	sc.SetFString("a string longer than the first")
	sc.SetFBytes([]byte{1, 2, 3})
	sc.SetFInt64(-7)
	for _, m := range []reuseCodec{s, sc} {
		ros, err := m.MarshalROS()
		if err != nil {
			f.Fatal(err)
		}
		pb, err := m.MarshalProto()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(ros, ros[:len(ros)/2])
		f.Add(pb, pb)
		f.Add(ros, []byte{})
		f.Add([]byte{}, pb)
	}
	type decode struct {
		name string
		do   func(m reuseCodec, b []byte) error
	}
	decoders := []decode{
		{"ROS1", reuseCodec.UnmarshalROS},
		{"protobuf", reuseCodec.UnmarshalProto},
	}
	f.Fuzz(func(t *testing.T, first, second []byte) {
		for _, rt := range reuseTypes {
			for _, dec := range decoders {
				for _, size := range []int{0, 1024, 8192} {
					mk := func() reuseCodec {
						if size == 0 {
							return rt.owned()
						}
						m, err := rt.fixed(size)
						if err != nil {
							t.Fatal(err)
						}
						return m
					}
					used, fresh := mk(), mk()
					_ = dec.do(used, first) // what it holds, if anything, is replaced
					errUsed, errFresh := dec.do(used, second), dec.do(fresh, second)
					where := rt.name + " " + dec.name
					if size > 0 {
						where += " fixed"
					}
					if (errUsed == nil) != (errFresh == nil) {
						t.Fatalf("%s: into a used message %v, into a new one %v", where, errUsed, errFresh)
					}
					if errUsed != nil {
						// The same kind of failure: a reusing decoding that
						// ran out of room was done again from a Clear.
						if errors.Is(errUsed, runtime.ErrFull) != errors.Is(errFresh, runtime.ErrFull) {
							t.Fatalf("%s: into a used message %v, into a new one %v", where, errUsed, errFresh)
						}
						continue
					}
					if n := len(used.Bytes()); n > 64*(len(first)+len(second))+1<<14 {
						t.Fatalf("%s: %d+%d input bytes made a %d-byte payload", where, len(first), len(second), n)
					}
					for _, enc := range []struct {
						name string
						do   func(reuseCodec) ([]byte, error)
					}{{"protobuf", reuseCodec.MarshalProto}, {"ROS1", reuseCodec.MarshalROS}} {
						got, gerr := enc.do(used)
						want, werr := enc.do(fresh)
						if (gerr == nil) != (werr == nil) || !bytes.Equal(got, want) {
							t.Fatalf("%s, as %s: into a used message % x (%v), into a new one % x (%v)",
								where, enc.name, got, gerr, want, werr)
						}
					}
				}
			}
		}
	})
}
