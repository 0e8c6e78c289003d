package proto_test

import (
	"fmt"
	"testing"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/proto"
)

// BenchmarkAppendMap writes a message holding two maps of 16 entries, one
// of scalars and one of messages.
func BenchmarkAppendMap(b *testing.B) {
	e := testpbphaser.NewEverything()
	for i := range 16 {
		kv := e.Counts().Append()
		kv.SetKey(fmt.Sprint("key", i))
		kv.SetValue(int32(i * 1000))
		byID := e.ById().Append()
		byID.SetKey(int64(i))
		byID.MutableValue().SetA(int32(i))
		byID.MutableValue().SetS("inner")
	}
	buf, err := proto.Append(nil, e.Msg())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = proto.Append(buf[:0], e.Msg())
	}
}

// BenchmarkAppendAny writes a message holding a google.protobuf.Any whose
// value is a message of every scalar kind.
func BenchmarkAppendAny(b *testing.B) {
	e := testpbphaser.NewEverything()
	s := testpbphaser.MutableAnyScalars(e.MutableAny())
	s.SetFDouble(1.5)
	s.SetFFloat(2.5)
	s.SetFInt32(-3)
	s.SetFInt64(4 << 40)
	s.SetFUint32(5)
	s.SetFUint64(6)
	s.SetFSint32(-7)
	s.SetFSint64(-8)
	s.SetFFixed32(9)
	s.SetFFixed64(10)
	s.SetFBool(true)
	s.SetFString("eleven")
	buf, err := proto.Append(nil, e.Msg())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = proto.Append(buf[:0], e.Msg())
	}
}

// BenchmarkSize sizes a message of scalars, strings, nested messages and
// 64 repeated messages (what Marshal does before it writes).
func BenchmarkSize(b *testing.B) {
	r := quickstartphaser.NewRobot()
	r.SetName("rover")
	r.SetId(9)
	r.SetMode(1)
	r.MutablePose().SetX(1.5)
	r.MutableStamp().SetSeconds(100)
	for i := range 64 {
		p := r.Path().Append()
		p.SetX(float64(i))
		p.SetY(float64(-i))
		p.SetTheta(0.5)
		r.BatteryCells().Append(float32(i))
	}
	r.Tags().Append("tag")
	r.SetGoal("dock")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := proto.Size(r.Msg()); err != nil {
			b.Fatal(err)
		}
	}
}
