package sensor_msgsphaser_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// fillImu sets every field of an Imu.
func fillImu(m sensor_msgsphaser.Imu) {
	h := m.MutableHeader()
	h.SetSeq(42)
	h.MutableStamp().SetSeconds(1700000000)
	h.MutableStamp().SetNanos(123456789)
	h.SetFrameId("imu_link")
	q := m.MutableOrientation()
	q.SetX(0.1)
	q.SetY(0.2)
	q.SetZ(0.3)
	q.SetW(0.9)
	av, la := m.MutableAngularVelocity(), m.MutableLinearAcceleration()
	av.SetX(1)
	av.SetY(2)
	av.SetZ(3)
	la.SetX(-9.81)
	for i := range 9 {
		m.OrientationCovariance().Append(float64(i))
		m.AngularVelocityCovariance().Append(float64(10 + i))
		m.LinearAccelerationCovariance().Append(float64(20 + i))
	}
}

// TestImuInline checks the ROS frontend's generated handles (spec 8.9): in
// format v3 Imu's singular messages (header, orientation, ...) and the
// header's stamp are stored inside their holders, so making them present
// allocates nothing; the payload holds the same message as one written in
// format v2 (which has no inline storage) and as read through the protobuf
// frontend's type.
func TestImuInline(t *testing.T) {
	mem := make([]byte, 4096)
	m, err := sensor_msgsphaser.NewImuIn(mem)
	if err != nil {
		t.Fatal(err)
	}
	if m.HasHeader() || m.Header().HasStamp() {
		t.Fatal("a new Imu has a header")
	}
	used := m.Msg().Payload().Buffer().HWM()
	h := m.MutableHeader()
	h.MutableStamp().SetSeconds(5)
	m.MutableOrientation().SetW(1)
	if got := m.Msg().Payload().Buffer().HWM(); got != used {
		t.Errorf("making inline messages present moved the high-water mark %d -> %d", used, got)
	}
	if !m.HasHeader() || !m.Header().HasStamp() || m.Header().Stamp().Seconds() != 5 || m.Orientation().W() != 1 {
		t.Fatal("inline messages do not read back")
	}
	offset := func(m runtime.Msg) uint32 { return impl.Dynamic(m).Msg().Offset() }
	size := impl.Dynamic(m.Msg()).Type().BinarySize(payloadbuffer.V3)
	if offset(h.Msg()) <= offset(m.Msg()) || offset(h.Msg()) >= offset(m.Msg())+size {
		t.Errorf("header at %d is not inside the Imu at %d (%d bytes)", offset(h.Msg()), offset(m.Msg()), size)
	}
	m.ClearHeader()
	if m.HasHeader() || m.Header().Stamp().Seconds() != 0 {
		t.Fatal("a cleared inline header is still present")
	}
	if !m.HasOrientation() {
		t.Fatal("clearing the header cleared the orientation")
	}

	m.Clear()
	fillImu(m)
	v2 := sensor_msgsphaser.NewImu(runtime.Options{Version: payloadbuffer.V2})
	fillImu(v2)
	want, err := v2.MarshalROS()
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalROS()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("v3 ROS-frontend Imu marshals to\n% x\nv2 to\n% x", got, want)
	}
	pbGot, err := m.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	pbWant, err := v2.MarshalProto()
	if err != nil || !bytes.Equal(pbGot, pbWant) {
		t.Fatalf("protobuf: v3 % x, v2 % x (%v)", pbGot, pbWant, err)
	}

	// Read through the protobuf frontend's type: it follows the inline
	// entries of the payload's table.
	pbType, err := runtime.TypeOf(m.PhaserType().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	table := func(t *runtime.Type) []byte { return phaserimpl.EngineType(t).Table() }
	if pbType == m.PhaserType() || bytes.Equal(table(pbType), table(m.PhaserType())) {
		t.Fatal("the protobuf frontend's Imu has the ROS frontend's layout")
	}
	r, err := runtime.Read(pbType, m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	viaPB, err := ros.Marshal(r)
	if err != nil || !bytes.Equal(viaPB, want) {
		t.Fatalf("read through the protobuf frontend: % x (%v), want % x", viaPB, err, want)
	}

	// A v2 payload continued by ROS-frontend handles stays v2, and the
	// other way round a v3 ROS payload continued by protobuf-frontend
	// handles keeps its inline storage.
	back, err := sensor_msgsphaser.ReadImu(v2.Bytes())
	if err != nil || back.Header().FrameId() != "imu_link" || back.AngularVelocityCovariance().At(8) != 18 {
		t.Fatalf("ReadImu of the v2 payload: %v", err)
	}
	cont, err := runtime.Open(pbType, bytes.Clone(mem))
	if err != nil {
		t.Fatal(err)
	}
	fields := pbType.Descriptor().Fields()
	hdr := fields.ByName("header")
	stamp := hdr.Message().Fields().ByName("stamp")
	seconds := stamp.Message().Fields().ByName("seconds")
	cont.Mutable(hdr).Mutable(stamp).Set(seconds, protoreflect.ValueOfInt64(77))
	// An absent inline message made present by a protobuf-frontend handle
	// gets the ROS frontend's layout, which its holder made room for.
	orient := fields.ByName("orientation")
	w := orient.Message().Fields().ByName("w")
	cont.ClearField(orient)
	if cont.Has(orient) {
		t.Fatal("orientation still present after ClearField")
	}
	cont.Mutable(orient).Set(w, protoreflect.ValueOfFloat64(0.5))
	if cont.Failed() || cont.Err() != nil {
		t.Fatal(cont.Err())
	}
	again, err := sensor_msgsphaser.ReadImu(cont.Bytes())
	if err != nil || again.Orientation().W() != 0.5 || again.Orientation().X() != 0 {
		t.Fatalf("orientation after a protobuf-frontend Mutable: %v, %v (%v)", again.Orientation().W(), again.Orientation().X(), err)
	}
	if err != nil || again.Header().Stamp().Seconds() != 77 || again.Header().FrameId() != "imu_link" {
		t.Fatalf("after a protobuf-frontend write: seconds %d, frame %q (%v)", again.Header().Stamp().Seconds(), again.Header().FrameId(), err)
	}
}

// TestImuIdentity checks the generated ROS metadata against ROS's own
// (sensor_msgs/Imu's md5sum, as rosmsg md5 prints it).
func TestImuIdentity(t *testing.T) {
	var m sensor_msgsphaser.Imu
	if m.ROSDataType() != "sensor_msgs/Imu" || m.ROSMD5() != "6a62c6daae103f4ff57a132d6f95cec2" {
		t.Fatalf("Imu is %s %s", m.ROSDataType(), m.ROSMD5())
	}
	md5, err := ros.MD5(m.PhaserType().Descriptor())
	if err != nil || md5 != m.ROSMD5() {
		t.Fatalf("ros.MD5 = %s (%v), generated %s", md5, err, m.ROSMD5())
	}
}

// TestImuAllocs: building an Imu in a warm buffer allocates nothing.
func TestImuAllocs(t *testing.T) {
	m, err := sensor_msgsphaser.NewImuIn(make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { m.Clear(); fillImu(m) }); n != 0 {
		t.Errorf("Clear+fill allocates %v times", n)
	}
}
