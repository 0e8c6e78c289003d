package testpbphaser_test

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// TestReadWrongType reads payloads as another message type: ReadX and OpenX
// refuse them with an error naming both types, in either format, and
// accept the payload's own type (and, in format v3, a payload that names no
// type: a root that reaches no other message has no control block).
func TestReadWrongType(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		x := pb.NewEverything(runtime.Options{Version: v})
		x.MutableScalars().SetFDouble(4.31)
		x.MutableInner().SetA(1)
		data := x.Bytes()
		if _, err := pb.ReadEverything(data); err != nil {
			t.Fatalf("v%d: ReadEverything of its own payload: %v", v, err)
		}
		for name, read := range map[string]func([]byte) error{
			"ReadScalars": func(b []byte) error { _, err := pb.ReadScalars(b); return err },
			"ReadInner":   func(b []byte) error { _, err := pb.ReadInner(b); return err },
			"OpenScalars": func([]byte) error {
				_, err := pb.OpenScalars(append([]byte(nil), x.Msg().Payload().Buffer().Memory()...))
				return err
			},
			"runtime.Read": func(b []byte) error { _, err := runtime.Read(pb.Scalars{}.PhaserType(), b); return err },
			"ReadScalarsInto": func(b []byte) error {
				_, err := pb.ReadScalarsInto(new(runtime.Payload), b)
				return err
			},
		} {
			err := read(data)
			if !errors.Is(err, runtime.ErrWrongType) || !strings.Contains(err.Error(), "phasertest.Everything") ||
				!strings.Contains(err.Error(), "phasertest.") || strings.Count(err.Error(), "phasertest.") < 2 {
				t.Errorf("v%d: %s of an Everything payload: %v", v, name, err)
			}
		}

		// A payload of a message that reaches no other: its format v2
		// control block names it; format v3 has no control block.
		e := pb.NewEmpty(runtime.Options{Version: v})
		_, err := pb.ReadScalars(e.Bytes())
		switch {
		case v == payloadbuffer.V2 && !errors.Is(err, runtime.ErrWrongType):
			t.Errorf("v2: ReadScalars of an Empty payload: %v", err)
		case v == payloadbuffer.V3 && err != nil:
			t.Errorf("v3: ReadScalars of an Empty payload, which names no type: %v", err)
		}
	}
}

// TestZeroHandle writes through handles on no message: the zero handle,
// the one a failed NewXIn returns and an absent nested message. Nothing is
// stored, and Failed and Err say so.
func TestZeroHandle(t *testing.T) {
	var zero pb.Scalars
	zero.SetFInt32(1)
	if !zero.Failed() || !errors.Is(zero.Err(), runtime.ErrNoMessage) || zero.FInt32() != 0 || zero.IsPresent() {
		t.Errorf("zero handle: Failed %v, Err %v, FInt32 %d", zero.Failed(), zero.Err(), zero.FInt32())
	}

	x, err := pb.NewEverythingIn(make([]byte, 48))
	if !errors.Is(err, runtime.ErrNoFit) {
		t.Fatalf("NewEverythingIn of 48 bytes: %v", err)
	}
	x.MutableScalars().SetFInt32(1)
	x.SetName("n")
	if !x.Failed() || !errors.Is(x.Err(), runtime.ErrNoFit) || x.Err().Error() != err.Error() || x.Scalars().FInt32() != 0 {
		t.Errorf("failed NewEverythingIn: Failed %v, Err %v (NewIn: %v)", x.Failed(), x.Err(), err)
	}
	x, err = pb.NewEverythingIn(make([]byte, 8))
	if !errors.Is(err, runtime.ErrTooSmall) || !errors.Is(x.Err(), runtime.ErrTooSmall) {
		t.Errorf("NewEverythingIn of 8 bytes: %v, handle's Err %v", err, x.Err())
	}

	for _, m := range makers(pb.NewEverything, pb.NewEverythingIn) {
		x := m.new(t)
		x.ClearInner() // nothing to clear: nothing lost
		x.Inner().ClearA()
		if x.Failed() || x.Err() != nil {
			t.Fatalf("%s: clears of an absent message: Failed %v, Err %v", m.name, x.Failed(), x.Err())
		}
		x.Inner().SetA(5) // Inner is absent: MutableInner creates it
		if !x.Failed() || !errors.Is(x.Err(), runtime.ErrNoMessage) || x.HasInner() {
			t.Errorf("%s: write through an absent message: Failed %v, Err %v", m.name, x.Failed(), x.Err())
		}
		x.Clear() // the root's Clear starts the payload afresh
		x.MutableInner().SetA(5)
		if x.Failed() || x.Err() != nil || x.Inner().A() != 5 {
			t.Errorf("%s: after Clear: Failed %v, Err %v", m.name, x.Failed(), x.Err())
		}
	}
}

// TestSetIndex writes elements of repeated fields by descriptor.
func TestSetIndex(t *testing.T) {
	x := pb.NewRepeated()
	x.RInt32().Append(1)
	x.RInt32().Append(2)
	x.RString().Append("a")
	m := x.Msg()
	fields := m.Type().Descriptor().Fields()
	m.SetIndex(fields.ByName("r_int32"), 1, protoreflect.ValueOfInt32(-7))
	m.SetIndex(fields.ByName("r_string"), 0, protoreflect.ValueOfString("b"))
	if x.RInt32().At(1) != -7 || x.RString().At(0) != "b" || x.Failed() {
		t.Errorf("SetIndex: %d, %q, Failed %v", x.RInt32().At(1), x.RString().At(0), x.Failed())
	}
	for _, bad := range []func(){
		func() { m.SetIndex(fields.ByName("r_int32"), 2, protoreflect.ValueOfInt32(1)) },     // out of range
		func() { m.SetIndex(fields.ByName("r_int32"), 0, protoreflect.ValueOfInt64(1)) },     // another kind
		func() { m.SetIndex(fields.ByName("r_string"), -1, protoreflect.ValueOfString("")) }, // out of range
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("SetIndex did not panic")
				}
			}()
			bad()
		}()
	}
}
