package runtime_test

import (
	"errors"
	"fmt"
	"log"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// The dynamic view: a message known only by its descriptor, written and
// read by field name, then converted to a protobuf-go message.
func ExampleTypeOf() {
	t, err := runtime.TypeOf((&timestamppb.Timestamp{}).ProtoReflect().Descriptor())
	if err != nil {
		log.Fatal(err)
	}
	m := runtime.New(t)
	seconds, nanos := t.FieldByName("seconds"), t.FieldByName("nanos")
	m.Set64(seconds.Field, 1700000000)
	m.Set32(nanos.Field, 5)

	v, present := m.Value(seconds)
	fmt.Println(v.Int(), present)
	pb, err := m.ToProto(t)
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

// A message in caller memory that is too small: NewIn says which limit was
// hit, and once a buffer is full, writes that do not fit are dropped and
// recorded while what was written stays.
func ExampleNewIn() {
	t, err := runtime.TypeOf((&timestamppb.Timestamp{}).ProtoReflect().Descriptor())
	if err != nil {
		log.Fatal(err)
	}
	_, err = runtime.NewIn(t, make([]byte, 16))
	fmt.Println(errors.Is(err, runtime.ErrTooSmall))

	m, err := runtime.NewIn(t, make([]byte, 256), runtime.Options{Version: payloadbuffer.V3})
	if err != nil {
		log.Fatal(err)
	}
	m.Set64(t.FieldByName("seconds").Field, 42)
	fmt.Println(m.Failed(), len(m.PayloadBytes()) <= 256)
	// Output:
	// true
	// false true
}

// Reading the scalars of many messages: a View of a message laid out with
// its compiled table reads them with loads the compiler inlines. Generated
// handles wrap it as x.View().
func ExampleMsg_View() {
	t, err := runtime.TypeOf((&timestamppb.Timestamp{}).ProtoReflect().Descriptor())
	if err != nil {
		log.Fatal(err)
	}
	seconds, nanos := t.FieldByName("seconds"), t.FieldByName("nanos")
	w := runtime.New(t)
	w.Set64(seconds.Field, 1700000000)
	w.Set32(nanos.Field, 5)

	m, err := runtime.Read(t, w.PayloadBytes()) // as a receiver would
	if err != nil {
		log.Fatal(err)
	}
	v, ok := m.View(t)
	fmt.Println(ok, int64(v.Get64(seconds.Field)), int32(v.Get32(nanos.Field)))
	// Output:
	// true 1700000000 5
}
