package ros_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/assigntest"
	roswireros "github.com/phaser-go/phaser/internal/testpb/roswire/roswireros/roswirephaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros/msgs/geometry_msgs/geometry_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/durationpbphaser"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// imuFields is an Imu value made from arg and i: a frame id of arg%40
// bytes, covariances of up to 10 elements (a fixed array of 9: List.Assign
// refuses 10) whose values change with arg, every element of them (so
// that an Assign that leaves part of an array's old values shows).
func imuFields(arg, i int) sensor_msgsphaser.ImuFields {
	cov := []float64{1.5, -2, 3, 4, 5, 6, 7, 8, 9, 10}
	for k := range cov {
		cov[k] += float64(arg%7) / 8
	}
	f := float64(arg) / 3
	return sensor_msgsphaser.ImuFields{
		Header: std_msgsphaser.HeaderFields{Seq: uint32(arg) * 3, FrameId: strings.Repeat(string(rune('a'+i%26)), arg%40),
			Stamp: timestamppbphaser.TimestampFields{Seconds: int64(arg) << 33, Nanos: int32(arg) * 1000}},
		Orientation:                  geometry_msgsphaser.QuaternionFields{X: f, Y: -f, Z: 2 * f, W: 1},
		OrientationCovariance:        cov[:9],
		AngularVelocity:              geometry_msgsphaser.Vector3Fields{X: f, Z: -f},
		AngularVelocityCovariance:    cov[:arg%11],
		LinearAcceleration:           geometry_msgsphaser.Vector3Fields{Y: f + 1},
		LinearAccelerationCovariance: cov[(arg*7)%11:],
	}
}

// assignInlineRun is FuzzAssignInline's run of in, assignNestedRun's (in
// internal/testpb/testpbphaser) for a message of the ROS frontend whose
// nested messages are inline, two levels deep (sensor_msgs/Imu: its header
// and the header's stamp): two roots in buffers of the same kind go through
// the same operations, one calling the generated Assign where the other
// calls Clear and the setters, and after each the payloads are byte for
// byte the same and fail alike. Among the operations: Assigns followed by
// the Clear of an inline message (whose table word the next Assign then
// finds zero), strings that fit, outgrow or are empty, inline messages
// cleared or made present by single setters between the Assigns, and bytes
// of the payload changed behind both handles.
//
// With bit 1 of in[1] set the message is the test schema's Stamped (a
// Timestamp and a Duration inline, and a string). Both take their straight
// line once filled; the fallback of an inline message whose type shares a
// slot of the table cache with another is TestAssignSharedSlot's (in
// internal/impl).
func assignInlineRun(t *testing.T, in []byte) {
	if len(in) < 3 || len(in) > 300 {
		return
	}
	if in[1]&2 != 0 {
		assignStampedRun(t, in)
		return
	}
	fast, slow, ok := assigntest.Twins(in, 256, sensor_msgsphaser.NewImu, sensor_msgsphaser.NewImuIn)
	if !ok {
		return
	}
	for i := 3; i < len(in); i++ {
		op := in[i] % 6
		arg := 0
		if i+1 < len(in) {
			arg = int(in[i+1])
		}
		switch op {
		case 0, 1: // Assign; arg chooses an inline message to clear after it
			i++
			v := imuFields(arg, i)
			fast.Assign(&v)
			assigntest.ImuSetters(slow, &v)
			if op == 1 {
				switch arg % 3 {
				case 0:
					fast.ClearHeader()
					slow.ClearHeader()
				case 1:
					fast.MutableHeader().ClearStamp()
					slow.MutableHeader().ClearStamp()
				default:
					fast.ClearOrientation()
					slow.ClearOrientation()
				}
			}
		case 2: // an inline message's string, or a vector, set between Assigns
			i++
			if arg&1 != 0 {
				v := imuFields(arg, i)
				fast.AngularVelocityCovariance().Assign(v.AngularVelocityCovariance...)
				slow.AngularVelocityCovariance().Assign(v.AngularVelocityCovariance...)
				break
			}
			s := strings.Repeat("z", arg%30)
			fast.MutableHeader().SetFrameId(s)
			slow.MutableHeader().SetFrameId(s)
		case 3: // an inline message made present by a setter
			i++
			fast.MutableLinearAcceleration().SetZ(float64(arg))
			slow.MutableLinearAcceleration().SetZ(float64(arg))
		case 4: // an inline message cleared
			i++
			fast.ClearAngularVelocity()
			slow.ClearAngularVelocity()
		case 5: // the same bytes changed behind both handles
			var ok bool
			if i, ok = assigntest.Poke(in, i, fast.Msg(), slow.Msg()); !ok {
				return
			}
		}
		assigntest.Same(t, i, op, fast.Msg(), slow.Msg())
	}
}

// assignStampedRun is assignInlineRun for the test schema's Stamped.
func assignStampedRun(t *testing.T, in []byte) {
	fast, slow, ok := assigntest.Twins(in, 128, roswireros.NewStamped, roswireros.NewStampedIn)
	if !ok {
		return
	}
	for i := 3; i < len(in); i++ {
		op := in[i] % 6
		arg := 0
		if i+1 < len(in) {
			arg = int(in[i+1])
		}
		switch op {
		case 0, 1: // Assign; arg chooses an inline message to clear after it
			i++
			v := roswireros.StampedFields{Frame: strings.Repeat(string(rune('a'+i%26)), arg%40),
				Stamp: timestamppbphaser.TimestampFields{Seconds: int64(arg) << 33, Nanos: int32(arg)},
				Span:  durationpbphaser.DurationFields{Seconds: -int64(arg), Nanos: -int32(arg)}}
			fast.Assign(&v)
			slow.Clear()
			slow.MutableStamp().SetSeconds(v.Stamp.Seconds)
			slow.MutableStamp().SetNanos(v.Stamp.Nanos)
			slow.MutableSpan().SetSeconds(v.Span.Seconds)
			slow.MutableSpan().SetNanos(v.Span.Nanos)
			slow.SetFrame(v.Frame)
			if op == 1 {
				if arg&1 == 0 {
					fast.ClearStamp()
					slow.ClearStamp()
				} else {
					fast.ClearSpan()
					slow.ClearSpan()
				}
			}
		case 2: // the string set between Assigns
			i++
			s := strings.Repeat("z", arg%30)
			fast.SetFrame(s)
			slow.SetFrame(s)
		case 3: // an inline message made present by a setter
			i++
			fast.MutableSpan().SetNanos(int32(arg))
			slow.MutableSpan().SetNanos(int32(arg))
		case 4: // an inline message cleared
			i++
			fast.ClearStamp()
			slow.ClearStamp()
		case 5: // the same bytes changed behind both handles
			var ok bool
			if i, ok = assigntest.Poke(in, i, fast.Msg(), slow.Msg()); !ok {
				return
			}
		}
		assigntest.Same(t, i, op, fast.Msg(), slow.Msg())
	}
}

// FuzzAssignInline runs assignInlineRun on inputs the fuzzer makes.
func FuzzAssignInline(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 0, 10, 0, 12, 0, 11, 0, 40, 0, 9},
		{1, 0, 200, 0, 20, 1, 20, 0, 33, 1, 4, 0, 7, 1, 5, 0, 5},
		{2, 1, 9, 0, 8, 2, 30, 0, 8, 2, 3, 0, 4, 3, 1, 0, 12, 4, 3, 0, 3},
		{3, 0, 50, 0, 16, 5, 60, 0, 200, 0, 16, 5, 33, 1, 8, 0, 16},
		{0, 1, 0, 0, 10, 1, 6, 0, 7, 1, 2, 0, 99, 4, 1, 0, 2},
		{0, 2, 0, 0, 10, 0, 12, 1, 7, 0, 5, 2, 3, 0, 9, 4, 0, 0, 6},
		{1, 3, 40, 0, 20, 0, 20, 3, 1, 0, 33, 5, 17, 0, 9, 0, 8},
		{2, 2, 9, 0, 8, 1, 8, 0, 8, 5, 200, 0, 0, 0, 12},
	} {
		f.Add(seed)
	}
	f.Fuzz(assignInlineRun)
}

// TestAssignInline checks the generated Assign of frontend=ros messages
// whose nested messages are inline (std_msgs/Header's stamp; the test
// schema's Stamped, with a Timestamp and a Duration) against Clear and
// every setter, value after value, in an owned and a fixed buffer, and
// that once the strings fit the blocks held it allocates nothing and
// leaves the payload as long as it was.
func TestAssignInline(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		opts := runtime.Options{Version: payloadbuffer.V3}
		mk := func() std_msgsphaser.Header {
			if !fixed {
				return std_msgsphaser.NewHeader(opts)
			}
			x, err := std_msgsphaser.NewHeaderIn(make([]byte, 1024), opts)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
		a, b := mk(), mk()
		for i, n := range []int{12, 12, 5, 30, 0, 9, 40, 3, 16} {
			v := std_msgsphaser.HeaderFields{Seq: uint32(i), FrameId: strings.Repeat("f", n),
				Stamp: timestamppbphaser.TimestampFields{Seconds: int64(i) << 40, Nanos: int32(i)}}
			a.Assign(&v)
			b.Clear()
			b.SetSeq(v.Seq)
			b.MutableStamp().SetSeconds(v.Stamp.Seconds)
			b.MutableStamp().SetNanos(v.Stamp.Nanos)
			b.SetFrameId(v.FrameId)
			if i == 6 {
				a.ClearStamp()
				b.ClearStamp()
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("fixed %v, Header %d: Assign's payload differs from Clear and the setters':\n%x\n%x", fixed, i, a.Bytes(), b.Bytes())
			}
		}
		a.Assign(&std_msgsphaser.HeaderFields{Seq: 1, FrameId: "a frame of 20 bytes!", Stamp: timestamppbphaser.TimestampFields{Seconds: 1}})
		n := len(a.Bytes())
		w := std_msgsphaser.HeaderFields{Seq: 9, FrameId: "map", Stamp: timestamppbphaser.TimestampFields{Seconds: 2, Nanos: 3}}
		if allocs := testing.AllocsPerRun(50, func() { a.Assign(&w) }); allocs != 0 {
			t.Errorf("fixed %v: Header.Assign allocates %v times", fixed, allocs)
		}
		if len(a.Bytes()) != n || a.Seq() != 9 || a.FrameId() != "map" || !a.HasStamp() || a.Stamp().Seconds() != 2 || a.Stamp().Nanos() != 3 {
			t.Errorf("fixed %v: after Assign: %d bytes (was %d), %d %q %v %d %d", fixed, len(a.Bytes()), n, a.Seq(), a.FrameId(),
				a.HasStamp(), a.Stamp().Seconds(), a.Stamp().Nanos())
		}
	}

	opts := runtime.Options{Version: payloadbuffer.V3}
	a, b := roswireros.NewStamped(opts), roswireros.NewStamped(opts)
	for i := range 6 {
		v := roswireros.StampedFields{Frame: strings.Repeat("s", 4+i%3*9), Stamp: timestamppbphaser.TimestampFields{Seconds: int64(i)},
			Span: durationpbphaser.DurationFields{Seconds: -int64(i), Nanos: -1}}
		a.Assign(&v)
		b.Clear()
		b.MutableStamp().SetSeconds(v.Stamp.Seconds)
		b.MutableStamp().SetNanos(v.Stamp.Nanos)
		b.MutableSpan().SetSeconds(v.Span.Seconds)
		b.MutableSpan().SetNanos(v.Span.Nanos)
		b.SetFrame(v.Frame)
		if a.Frame() != v.Frame || a.Span().Nanos() != -1 || a.Stamp().Seconds() != int64(i) {
			t.Fatalf("Stamped %d: reads %q %d %d", i, a.Frame(), a.Span().Nanos(), a.Stamp().Seconds())
		}
		if i == 3 {
			a.ClearSpan()
			b.ClearSpan()
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("Stamped %d: Assign's payload differs from Clear and the setters':\n%x\n%x", i, a.Bytes(), b.Bytes())
		}
	}
}
