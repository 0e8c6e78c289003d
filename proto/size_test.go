package proto_test

import (
	"testing"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// TestSizeMatchesAppend checks that Size is the length of what Append
// writes, for messages of every kind of field: scalars (zero and not),
// strings, nested and repeated messages, packed scalars, oneofs, maps and
// Any.
func TestSizeMatchesAppend(t *testing.T) {
	robot := quickstartphaser.NewRobot()
	robot.SetName("rover")
	robot.SetId(300)
	robot.SetMode(2)
	robot.MutablePose().SetX(-1.5)
	robot.MutableStamp().SetSeconds(-100)
	robot.MutableStamp().SetNanos(5)
	for i := range 40 {
		robot.Path().Append().SetY(float64(i))
		robot.BatteryCells().Append(float32(i))
	}
	robot.Tags().Append("")
	robot.Tags().Append("tag")
	robot.SetDock(0)

	e := testpbphaser.NewEverything()
	for i := range 20 {
		kv := e.Counts().Append()
		kv.SetKey(string(rune('a' + i%7)))
		kv.SetValue(int32(-i))
		byID := e.ById().Append()
		byID.SetKey(int64(i % 5))
		byID.MutableValue().SetS("inner")
	}
	setScalars(testpbphaser.MutableAnyScalars(e.MutableAny()))
	scalars := testpbphaser.NewScalars()
	setScalars(scalars)

	r := testpbphaser.NewRepeated()
	for i := range 10 {
		r.RInt32().Append(int32(-i))
		r.RDouble().Append(float64(i))
		r.RBool().Append(i%2 == 0)
	}

	for _, c := range []struct {
		name string
		m    runtime.Msg
		t    *runtime.Type
	}{
		{"Robot", robot.Msg(), robot.PhaserType()},
		{"empty Robot", quickstartphaser.NewRobot().Msg(), robot.PhaserType()},
		{"Everything", e.Msg(), e.PhaserType()},
		{"Repeated", r.Msg(), r.PhaserType()},
		{"Scalars", scalars.Msg(), scalars.PhaserType()},
	} {
		b, err := proto.Append(nil, c.m)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := proto.Size(c.m); err != nil || n != len(b) {
			t.Errorf("%s: Size = %d, %v; Append wrote %d bytes", c.name, n, err, len(b))
		}
	}
}

// setScalars sets every field of s, negative integers included.
func setScalars(s testpbphaser.Scalars) {
	s.SetFDouble(1.5)
	s.SetFFloat(2.5)
	s.SetFInt32(-3)
	s.SetFInt64(-4)
	s.SetFUint32(5)
	s.SetFUint64(6 << 40)
	s.SetFSint32(-7)
	s.SetFSint64(-8)
	s.SetFFixed32(9)
	s.SetFFixed64(10)
	s.SetFSfixed32(-11)
	s.SetFSfixed64(-12)
	s.SetFBool(true)
	s.SetFString("thirteen")
}
