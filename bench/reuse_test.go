package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/bench/gen/pb"
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// The generated UnmarshalProto and UnmarshalROS into a root that holds a message reuses its
// blocks (strings written over the old ones, the nested Timestamp zeroed
// where it is) instead of resetting the buffer: TestUnmarshalReuse checks
// that a long run of decodings into one message, each with other fields
// present, other string lengths and the stamp there or not, leaves what a
// decoding into a new message leaves, in fixed buffers from the smallest
// that holds the largest message up, where reusing blocks can fill a
// buffer that a Clear would have emptied (the decoding is then done again).

// reuseString returns a string of 0 to 40 bytes, empty a quarter of the
// time.
func reuseString(rng *rand.Rand) string {
	if rng.IntN(4) == 0 {
		return ""
	}
	return strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(41))
}

// reuseInputs returns n random encodings of SmallStruct and of Header.
func reuseInputs(t *testing.T, rng *rand.Rand, n int) (small, header [][]byte) {
	for range n {
		s := &pb.SmallStruct{Name: reuseString(rng), Phone: reuseString(rng)}
		if rng.IntN(2) == 0 {
			s.BirthDay, s.Siblings, s.Spouse, s.Money = rng.Int64(), rng.Int32N(10), true, rng.Float64()
		}
		h := &pb.Header{FrameId: reuseString(rng)}
		if rng.IntN(2) == 0 {
			h.Seq = rng.Uint32()
		}
		if rng.IntN(3) != 0 {
			h.Stamp = &timestamppb.Timestamp{Seconds: rng.Int64N(1 << 33), Nanos: rng.Int32N(1e9)} // half in ROS time's range
			if rng.IntN(4) == 0 {
				h.Stamp = &timestamppb.Timestamp{} // present, empty
			}
		}
		for _, m := range []struct {
			msg gproto.Message
			out *[][]byte
		}{{s, &small}, {h, &header}} {
			b, err := gproto.MarshalOptions{Deterministic: true}.Marshal(m.msg)
			if err != nil {
				t.Fatal(err)
			}
			*m.out = append(*m.out, b)
		}
	}
	return small, header
}

// protoCodec is what the check needs of a generated message.
type protoCodec interface {
	UnmarshalProto([]byte) error
	MarshalProto() ([]byte, error)
	UnmarshalROS([]byte) error
	MarshalROS() ([]byte, error)
}

// checkReuse decodes inputs in turn into dst, and each into a message of
// its own that fresh makes, and compares them.
func checkReuse[T protoCodec](t *testing.T, name string, dst T, fresh func() T, inputs [][]byte) {
	t.Helper()
	for i, in := range inputs {
		f := fresh()
		freshErr := f.UnmarshalProto(in)
		if err := dst.UnmarshalProto(in); (err == nil) != (freshErr == nil) {
			t.Fatalf("%s, input %d: into a used message %v, into a new one %v", name, i, err, freshErr)
		}
		if freshErr != nil {
			continue // (too large for the buffer: the next one starts from a Clear)
		}
		got, err := dst.MarshalProto()
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.MarshalProto()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || !bytes.Equal(want, in) {
			t.Fatalf("%s, input %d: into a used message % x, into a new one % x, input % x", name, i, got, want, in)
		}
	}
}

// checkReuseROS is checkReuse for UnmarshalROS: each input, decoded into
// a new message and serialized as ROS1, is decoded into dst and into a new
// message again.
func checkReuseROS[T protoCodec](t *testing.T, name string, dst T, fresh func() T, inputs [][]byte) {
	t.Helper()
	for i, in := range inputs {
		src := fresh()
		if src.UnmarshalProto(in) != nil {
			continue
		}
		ros, err := src.MarshalROS()
		if err != nil {
			continue // (a stamp past ROS time's range)
		}
		f := fresh()
		freshErr := f.UnmarshalROS(ros)
		if err := dst.UnmarshalROS(ros); (err == nil) != (freshErr == nil) {
			t.Fatalf("%s, ROS1 input %d: into a used message %v, into a new one %v", name, i, err, freshErr)
		}
		if freshErr != nil {
			continue
		}
		got, err := dst.MarshalProto()
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.MarshalProto()
		if err != nil {
			t.Fatal(err)
		}
		gotROS, err := dst.MarshalROS()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || !bytes.Equal(gotROS, ros) {
			t.Fatalf("%s, ROS1 input %d: into a used message % x (ROS1 % x), into a new one % x (ROS1 % x)", name, i, got, gotROS, want, ros)
		}
	}
}

// fixed returns a message newIn makes in a new n-byte buffer.
func fixed[T any](t *testing.T, n int, newIn func([]byte, ...runtime.Options) (T, error)) func() T {
	return func() T {
		x, err := newIn(make([]byte, n))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

func TestUnmarshalReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	small, header := reuseInputs(t, rng, 400)
	// The smallest buffers that hold every input decoded into a new
	// message, and some larger ones.
	least := func(inputs [][]byte, decode func([]byte, []byte) error) int {
		for n := 64; ; n += 8 {
			ok := true
			for _, in := range inputs {
				if decode(make([]byte, n), in) != nil {
					ok = false
					break
				}
			}
			if ok {
				return n
			}
		}
	}
	ns := least(small, func(mem, in []byte) error {
		x, err := pbphaser.NewSmallStructIn(mem)
		if err != nil {
			return err
		}
		return x.UnmarshalProto(in)
	})
	nh := least(header, func(mem, in []byte) error {
		x, err := pbphaser.NewHeaderIn(mem)
		if err != nil {
			return err
		}
		return x.UnmarshalProto(in)
	})
	for extra := 0; extra <= 256; extra += 8 {
		newSmall, newHeader := fixed(t, ns+extra, pbphaser.NewSmallStructIn), fixed(t, nh+extra, pbphaser.NewHeaderIn)
		checkReuse(t, fmt.Sprintf("SmallStruct in %d bytes", ns+extra), newSmall(), newSmall, small)
		checkReuse(t, fmt.Sprintf("Header in %d bytes", nh+extra), newHeader(), newHeader, header)
		checkReuseROS(t, fmt.Sprintf("SmallStruct in %d bytes", ns+extra), newSmall(), newSmall, small)
		checkReuseROS(t, fmt.Sprintf("Header in %d bytes", nh+extra), newHeader(), newHeader, header)
	}
	// An owned buffer does not grow with the decodings.
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		opts := runtime.Options{Version: v}
		newHeader := func() pbphaser.Header { return pbphaser.NewHeader(opts) }
		x := newHeader()
		checkReuse(t, "Header (owned)", x, newHeader, header[:40])
		size := len(x.Bytes())
		for range 4 {
			checkReuse(t, "Header (owned)", x, newHeader, header)
		}
		if len(x.Bytes()) > 2*size {
			t.Errorf("%v: an owned Header grew from %d to %d bytes over %d decodings", v, size, len(x.Bytes()), 4*len(header))
		}
	}
}
