// Package assigntest holds what the differential tests of the generated
// Assign share: two roots go through the same operations, one calling
// Assign where the other calls Clear and the setters, and after each
// operation their payloads must be the same bytes and have failed alike.
// The fuzz tests of testpbphaser (a flat message, nested messages) and of
// ros (the ROS frontend's inline messages) drive it.
package assigntest

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
)

// Twins makes the two roots of a run from its first three input bytes:
// in[1] bit 0 turns scrubbing off; in[0]%4 == 0 makes them in owned
// buffers (newOwned), else in fixed ones of unit*(in[0]%4)+in[2] bytes
// (newIn). It reports false when in is shorter than that or the buffer is
// too small for the root.
func Twins[T any](in []byte, unit int, newOwned func(...runtime.Options) T, newIn func([]byte, ...runtime.Options) (T, error)) (fast, slow T, ok bool) {
	if len(in) < 3 {
		return fast, slow, false
	}
	opts := runtime.Options{Version: payloadbuffer.V3, Scrub: payloadbuffer.ScrubOn}
	if in[1]&1 != 0 {
		opts.Scrub = payloadbuffer.ScrubOff
	}
	mk := func() (T, error) {
		if in[0]%4 == 0 {
			return newOwned(opts), nil
		}
		return newIn(make([]byte, unit*int(in[0]%4)+int(in[2])), opts)
	}
	fast, err1 := mk()
	slow, err2 := mk()
	return fast, slow, err1 == nil && err2 == nil
}

// Poke is the operation "the same bytes changed behind both handles": the
// two input bytes after in[i] choose an offset past the fixed header of
// both buffers (of one length), the byte after them the value written
// there. It returns the index of the last input byte it used, and false
// when in has too few bytes left.
func Poke(in []byte, i int, fast, slow runtime.Msg) (int, bool) {
	if i+2 >= len(in) {
		return i, false
	}
	k, b := int(binary.LittleEndian.Uint16(in[i+1:])), in[i+2]
	pf, ps := fast.Payload().Buffer().Memory(), slow.Payload().Buffer().Memory()
	if h := payloadbuffer.FixedHeaderSize; len(pf) == len(ps) && len(pf) > h {
		k = h + k%(len(pf)-h)
		pf[k], ps[k] = b, b
	}
	return i + 2, true
}

// Same fails t unless fast's and slow's payloads are the same bytes and
// failed alike, after operation op (in[i]).
func Same(t testing.TB, i int, op byte, fast, slow runtime.Msg) {
	t.Helper()
	same(t, i, op, fast, slow, "Assign", "Clear and the setters")
}

// same fails t unless fast's and slow's payloads are the same bytes and
// failed alike, naming what made each.
func same(t testing.TB, i int, op byte, fast, slow runtime.Msg, fastName, slowName string) {
	t.Helper()
	if f, s := fast.Bytes(), slow.Bytes(); !bytes.Equal(f, s) {
		t.Fatalf("op %d (%d): the payload of %s differs from that of %s:\n%x\n%x", i, op, fastName, slowName, f, s)
	}
	if fast.Failed() != slow.Failed() {
		t.Fatalf("op %d (%d): %s failed %v, %s %v", i, op, fastName, fast.Failed(), slowName, slow.Failed())
	}
}

// ImuSetters is the generated sensor_msgs/Imu Assign written out as what
// it is defined as: Clear, then every field's setter, an inline message's
// through its Mutable (the ROS frontend's) or a nested message's.
func ImuSetters(x sensor_msgsphaser.Imu, v *sensor_msgsphaser.ImuFields) {
	x.Clear()
	ImuFill(x, v)
}

// ImuFill is ImuSetters without the Clear.
func ImuFill(x sensor_msgsphaser.Imu, v *sensor_msgsphaser.ImuFields) {
	h := x.MutableHeader()
	h.SetSeq(v.Header.Seq)
	s := h.MutableStamp()
	s.SetSeconds(v.Header.Stamp.Seconds)
	s.SetNanos(v.Header.Stamp.Nanos)
	h.SetFrameId(v.Header.FrameId)
	o := x.MutableOrientation()
	o.SetX(v.Orientation.X)
	o.SetY(v.Orientation.Y)
	o.SetZ(v.Orientation.Z)
	o.SetW(v.Orientation.W)
	x.OrientationCovariance().Assign(v.OrientationCovariance...)
	a := x.MutableAngularVelocity()
	a.SetX(v.AngularVelocity.X)
	a.SetY(v.AngularVelocity.Y)
	a.SetZ(v.AngularVelocity.Z)
	x.AngularVelocityCovariance().Assign(v.AngularVelocityCovariance...)
	l := x.MutableLinearAcceleration()
	l.SetX(v.LinearAcceleration.X)
	l.SetY(v.LinearAcceleration.Y)
	l.SetZ(v.LinearAcceleration.Z)
	x.LinearAccelerationCovariance().Assign(v.LinearAccelerationCovariance...)
}

// ClearOps is what ClearRun does with the roots of one message type, each
// function applied to both roots alike.
type ClearOps[T any] struct {
	Msg    func(x T) runtime.Msg // the untyped handle
	Clear  func(x T)             // the generated Clear
	Fill   func(x T, arg, i int) // the setters of a value made from arg and i, without a Clear
	Assign func(x T, arg, i int) // the generated Assign of that value
	Edit   func(x T, arg int)    // a change between fills: a nested message cleared or made, a string or vector set
}

// ClearRun is the differential test of a generated Clear: two roots (Twins
// made from in) go through the same operations, one clearing with the
// generated Clear where the other clears with the runtime's (runtime.Msg's
// Clear, which interprets the type's keep plan), and after each operation
// their payloads must be the same bytes and have failed alike. The
// operations, chosen by the input bytes after in[2]: a Clear and the
// setters; a Clear alone; an Assign (the other root: the runtime's Clear
// and the setters); an edit; the same bytes changed behind both handles.
// The blocks a Clear sets aside are taken back by the setters that follow,
// so the record the Clears leave is compared too, through the bytes the
// fills then write.
func ClearRun[T any](t testing.TB, in []byte, fast, slow T, ops ClearOps[T]) {
	t.Helper()
	for i := 3; i < len(in); i++ {
		op := in[i] % 5
		arg := 0
		if i+1 < len(in) {
			arg = int(in[i+1])
		}
		switch op {
		case 0: // Clear and fill
			i++
			ops.Clear(fast)
			ops.Msg(slow).Clear()
			ops.Fill(fast, arg, i)
			ops.Fill(slow, arg, i)
		case 1: // Clear alone
			ops.Clear(fast)
			ops.Msg(slow).Clear()
		case 2: // Assign
			i++
			ops.Assign(fast, arg, i)
			ops.Msg(slow).Clear()
			ops.Fill(slow, arg, i)
		case 3:
			i++
			ops.Edit(fast, arg)
			ops.Edit(slow, arg)
		case 4:
			var ok bool
			if i, ok = Poke(in, i, ops.Msg(fast), ops.Msg(slow)); !ok {
				return
			}
		}
		same(t, i, byte(op), ops.Msg(fast), ops.Msg(slow), "the generated Clear", "the runtime's Clear")
	}
}
