package runtime_test

import (
	"errors"
	"fmt"
	"log"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// The dynamic view: a message known only by its descriptor, written and
// read by field, then converted to a protobuf-go message.
func ExampleMsg() {
	md := (&timestamppb.Timestamp{}).ProtoReflect().Descriptor()
	t, err := runtime.TypeOf(md)
	if err != nil {
		log.Fatal(err)
	}
	seconds, nanos := md.Fields().ByName("seconds"), md.Fields().ByName("nanos")
	m := runtime.New(t)
	m.Set(seconds, protoreflect.ValueOfInt64(1700000000))
	m.Set(nanos, protoreflect.ValueOfInt32(5))

	fmt.Println(m.Get(seconds).Int(), m.Has(seconds))
	pb, err := m.ToProto()
	if err != nil {
		log.Fatal(err)
	}
	b, err := proto.Marshal(pb)
	if err != nil {
		log.Fatal(err)
	}
	var ts timestamppb.Timestamp
	if err := proto.Unmarshal(b, &ts); err != nil {
		log.Fatal(err)
	}
	fmt.Println(ts.AsTime().UTC())
	// Output:
	// 1700000000 true
	// 2023-11-14 22:13:20.000000005 +0000 UTC
}

// Reading received bytes: Read never modifies them and bounds every access
// by their length.
func ExampleRead() {
	md := (&timestamppb.Timestamp{}).ProtoReflect().Descriptor()
	t, err := runtime.TypeOf(md)
	if err != nil {
		log.Fatal(err)
	}
	w := runtime.New(t)
	w.Set(md.Fields().ByName("seconds"), protoreflect.ValueOfInt64(42))

	m, err := runtime.Read(t, w.Bytes()) // as a receiver would
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Get(md.Fields().ByName("seconds")).Int())
	m.Set(md.Fields().ByName("nanos"), protoreflect.ValueOfInt32(1)) // ignored
	fmt.Println(m.Err())
	// Output:
	// 42
	// phaser: message is read-only
}

// A message in caller memory that is too small: NewIn says which limit was
// hit, and once a buffer is full, writes that do not fit are dropped and
// recorded while what was written stays.
func ExampleNewIn() {
	md := (&timestamppb.Timestamp{}).ProtoReflect().Descriptor()
	t, err := runtime.TypeOf(md)
	if err != nil {
		log.Fatal(err)
	}
	_, err = runtime.NewIn(t, make([]byte, 16))
	fmt.Println(errors.Is(err, runtime.ErrTooSmall))

	m, err := runtime.NewIn(t, make([]byte, 256), runtime.Options{Version: payloadbuffer.V3})
	if err != nil {
		log.Fatal(err)
	}
	m.Set(md.Fields().ByName("seconds"), protoreflect.ValueOfInt64(42))
	fmt.Println(m.Failed(), len(m.Bytes()) <= 256)
	// Output:
	// true
	// false true
}
