package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/protocommon"

	"github.com/phaser-go/phaser/bench/gen/pb"
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// TestFloorLayout checks the floor's offsets and presence ids against the
// Phaser 3 layout of the bench messages (internal/layout, the spec's
// algorithm), so that a layout change breaks this test with a clear
// message rather than only TestFloor.
func TestFloorLayout(t *testing.T) {
	lc := layout.NewCache(layout.Options{Version: 3})
	type field struct {
		name   string
		offset uint32
		id     int // -1: no presence bit (string, message, repeated)
	}
	for _, c := range []struct {
		desc   protoreflect.MessageDescriptor
		size   uint32
		fields []field
	}{
		{(*pb.SmallStruct)(nil).ProtoReflect().Descriptor(), smallSize, []field{{"name", smallName, -1}, {"birth_day", smallBirthDay, smallBirthDayID},
			{"phone", smallPhone, -1}, {"siblings", smallSiblings, smallSiblingsID}, {"spouse", smallSpouse, smallSpouseID}, {"money", smallMoney, smallMoneyID}}},
		{(*pb.Header)(nil).ProtoReflect().Descriptor(), headerSize, []field{{"seq", headerSeq, headerSeqID}, {"stamp", headerStamp, -1}, {"frame_id", headerFrameID, -1}}},
		{(*timestamppb.Timestamp)(nil).ProtoReflect().Descriptor(), timeSize, []field{{"seconds", timeSeconds, timeSecondsID}, {"nanos", timeNanos, timeNanosID}}},
		{(*pb.Imu)(nil).ProtoReflect().Descriptor(), imuSize, []field{{"header", imuHeader, -1}, {"orientation", imuOrientation, -1},
			{"orientation_covariance", imuOrientationCov, -1}, {"angular_velocity", imuAngularVelocity, -1},
			{"angular_velocity_covariance", imuAngularVelocityCov, -1}, {"linear_acceleration", imuLinearAcceleration, -1},
			{"linear_acceleration_covariance", imuLinearAccelerationCov, -1}}},
		{(*pb.Quaternion)(nil).ProtoReflect().Descriptor(), quatSize, []field{{"x", 8, 0}, {"y", 16, 1}, {"z", 24, 2}, {"w", 32, 3}}},
		{(*pb.Vector3)(nil).ProtoReflect().Descriptor(), vec3Size, []field{{"x", 8, 0}, {"y", 16, 1}, {"z", 24, 2}}},
		{(*pb.Cloud)(nil).ProtoReflect().Descriptor(), cloudSize, []field{{"header", cloudHeader, -1}, {"height", cloudHeight, cloudHeightID},
			{"width", cloudWidth, cloudWidthID}, {"fields", cloudFields, -1}, {"is_bigendian", cloudIsBigendian, cloudIsBigendianID},
			{"point_step", cloudPointStep, cloudPointStepID}, {"row_step", cloudRowStep, cloudRowStepID}, {"data", cloudData, -1},
			{"is_dense", cloudIsDense, cloudIsDenseID}, {"points", cloudPoints, -1}}},
		{(*pb.PointField)(nil).ProtoReflect().Descriptor(), fieldSize, []field{{"name", fieldName, -1}, {"offset", fieldOffset, fieldOffsetID},
			{"datatype", fieldDatatype, fieldDatatypeID}, {"count", fieldCount, fieldCountID}}},
		{(*pb.Point)(nil).ProtoReflect().Descriptor(), pointSize, []field{{"x", 8, 0}, {"y", 12, 1}, {"z", 16, 2}, {"intensity", 20, 3}}},
		{(*pb.Image)(nil).ProtoReflect().Descriptor(), imageSize, []field{{"header", imageHeader, -1}, {"height", imageHeight, imageHeightID},
			{"width", imageWidth, imageWidthID}, {"encoding", imageEncoding, -1}, {"is_bigendian", imageIsBigendian, imageIsBigendianID},
			{"step", imageStep, imageStepID}, {"data", imageData, -1}}},
	} {
		m, err := lc.Of(c.desc)
		if err != nil {
			t.Fatal(err)
		}
		if m.BinarySize != c.size || m.HeaderSize != 8 {
			t.Errorf("%s: size %d, header %d; floor %d, 8", m.FullName, m.BinarySize, m.HeaderSize, c.size)
		}
		if len(m.Fields) != len(c.fields) {
			t.Errorf("%s: %d fields, floor %d", m.FullName, len(m.Fields), len(c.fields))
		}
		for _, f := range c.fields {
			var fi *layout.Field
			for _, x := range m.Fields {
				if x.Name == f.name {
					fi = x
				}
			}
			if fi == nil {
				t.Errorf("%s.%s: no such field", m.FullName, f.name)
				continue
			}
			if fi.Offset != f.offset || fi.HasPresenceBit() != (f.id >= 0) || (f.id >= 0 && int(fi.ID) != f.id) {
				t.Errorf("%s.%s: offset %d id %d, floor %d %d", m.FullName, f.name, fi.Offset, fi.ID, f.offset, f.id)
			}
		}
	}
}

// TestFloor checks that the floor writes, for every value of every shape,
// the bytes phaser's ROSMarshal writes and goroslib's reference bytes.
func TestFloor(t *testing.T) {
	for _, shape := range Shapes {
		floor, ph := NewCodec("ros1-floor", shape), NewCodec("phaser", shape)
		for i, want := range ROS(shape) {
			got := bytes.Clone(floor.ROSMarshal(i))
			if !bytes.Equal(got, ph.ROSMarshal(i)) {
				t.Errorf("%s value %d: the floor's %d bytes differ from phaser's", shape, i, len(got))
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s value %d: the floor's %d bytes differ from goroslib's %d", shape, i, len(got), len(want))
			}
		}
	}
}

// floorWriters are the floor's functions by shape.
var floorWriters = map[string]func(dst, p []byte) ([]byte, error){
	"small": floorSmall, "header": floorHeader, "imu": floorImu, "cloud": floorCloud, "image1M": floorImage,
}

// floorPayloads returns phaser's payloads of every value of shape.
func floorPayloads(shape string) [][]byte { return Payloads(NewCodec("phaser", shape), shape) }

// TestFloorHostile feeds the floor cut and corrupted payloads: it must
// return an error or bytes, never panic; and where it writes a cut
// payload, phaser must read that payload and write the same bytes.
func TestFloorHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for shape, write := range floorWriters {
		ph := phaserROS[shape]
		accepted := 0
		for _, p := range floorPayloads(shape) {
			for cut := range len(p) {
				if len(p) > 4096 && cut > 300 && cut < len(p)-300 {
					continue
				}
				q := p[:cut]
				got, err := floorTry(t, write, q)
				if err != nil {
					continue
				}
				accepted++
				want, err := ph(q)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: the floor wrote %d bytes from a payload cut to %d, phaser %d (%v)", shape, len(got), cut, len(want), err)
				}
			}
			for range 2000 {
				q := bytes.Clone(p)
				for range 1 + r.IntN(4) {
					q[r.IntN(min(len(q), 4096))] = byte(r.Uint32())
				}
				floorTry(t, write, q)
			}
		}
		t.Logf("%s: %d cut payloads written, the same bytes as phaser's", shape, accepted)
	}
}

func floorTry(t *testing.T, write func(dst, p []byte) ([]byte, error), p []byte) ([]byte, error) {
	t.Helper()
	defer func() {
		if e := recover(); e != nil {
			t.Fatalf("the floor panicked on %d bytes: %v", len(p), e)
		}
	}()
	out, err := write(nil, p)
	if err == nil && len(out) > 64<<20 {
		t.Fatalf("%d bytes written from %d", len(out), len(p))
	}
	return out, err
}

// phaserROS are phaser's ROS1 writers of a received payload, by shape:
// the generated codec (AppendROS, with package ros as its fallback) and
// package ros alone (the interpreter, the reference the generated code must
// agree with).
var phaserROS, phaserROSGeneric = map[string]func(p []byte) ([]byte, error){
	"small":   phaserROSOf(pbphaser.ReadSmallStruct),
	"header":  phaserROSOf(pbphaser.ReadHeader),
	"imu":     phaserROSOf(pbphaser.ReadImu),
	"cloud":   phaserROSOf(pbphaser.ReadCloud),
	"image1M": phaserROSOf(pbphaser.ReadImage),
}, map[string]func(p []byte) ([]byte, error){
	"small":   phaserROSGenericOf(pbphaser.ReadSmallStruct),
	"header":  phaserROSGenericOf(pbphaser.ReadHeader),
	"imu":     phaserROSGenericOf(pbphaser.ReadImu),
	"cloud":   phaserROSGenericOf(pbphaser.ReadCloud),
	"image1M": phaserROSGenericOf(pbphaser.ReadImage),
}

func phaserROSOf[T interface{ AppendROS([]byte) ([]byte, error) }](read func([]byte) (T, error)) func([]byte) ([]byte, error) {
	return func(p []byte) ([]byte, error) {
		x, err := read(p)
		if err != nil {
			return nil, err
		}
		return x.AppendROS(nil)
	}
}

func phaserROSGenericOf[T interface{ Msg() runtime.Msg }](read func([]byte) (T, error)) func([]byte) ([]byte, error) {
	return func(p []byte) ([]byte, error) {
		x, err := read(p)
		if err != nil {
			return nil, err
		}
		return ros.Marshal(x.Msg())
	}
}

// phaserTypes are the bench messages' types by shape.
var phaserTypes = map[string]*runtime.Type{
	"small": pbphaser.SmallStruct{}.PhaserType(), "header": pbphaser.Header{}.PhaserType(),
	"imu": pbphaser.Imu{}.PhaserType(), "cloud": pbphaser.Cloud{}.PhaserType(), "image1M": pbphaser.Image{}.PhaserType(),
}

// rebuilt returns a payload built here with the values of the received
// payload p of shape (every message in its compiled layout: what the floor
// assumes), or false if p does not read.
func rebuilt(shape string, p []byte) ([]byte, bool) {
	t := phaserTypes[shape]
	m, err := runtime.Read(t, p)
	if err != nil {
		return nil, false
	}
	c := runtime.New(t)
	if !c.CopyFrom(m) {
		return nil, false
	}
	return c.Bytes(), true
}

// goroslibReencode parses b with goroslib as the ROS1 message of shape and
// writes it back: the bytes goroslib would publish for what it read.
func goroslibReencode(shape string, b []byte) ([]byte, error) {
	var m any
	switch shape {
	case "small":
		m = new(RosSmall)
	case "header":
		m = new(std_msgs.Header)
	case "imu":
		m = new(sensor_msgs.Imu)
	case "cloud":
		m = new(RosCloud)
	case "image1M":
		m = new(sensor_msgs.Image)
	default:
		return nil, fmt.Errorf("no goroslib message for shape %q", shape)
	}
	var r framedReader
	r.reset(b)
	if err := protocommon.MessageDecode(&r, m); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	return bytes.Clone(rosEncode(&w, m)), nil
}

// FuzzFloor is the differential fuzz test of phaser's ROS1 writers on
// received payloads (mutated from phaser's payloads of every shape): the
// floor never panics and writes at most what the payload can justify; the
// generated codec gives package ros's bytes and errors; the floor writes
// phaser's bytes from the same values in a payload built here (it assumes
// the compiled layout, which a mutated payload need not have); and what
// phaser writes goroslib reads and writes back byte for byte.
func FuzzFloor(f *testing.F) {
	for _, shape := range []string{"small", "header", "imu", "cloud"} {
		for _, p := range floorPayloads(shape)[:2] {
			f.Add(shape, p)
		}
	}
	f.Fuzz(func(t *testing.T, shape string, p []byte) {
		write := floorWriters[shape]
		if write == nil {
			return
		}
		out, err := write(nil, p)
		if err == nil && len(out) > 16*len(p)+1024 {
			t.Fatalf("%d bytes written from %d", len(out), len(p))
		}
		got, gerr := phaserROS[shape](p)
		want, werr := phaserROSGeneric[shape](p)
		if (gerr == nil) != (werr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s: generated codec %d bytes, %v; package ros %d bytes, %v", shape, len(got), gerr, len(want), werr)
		}
		if gerr != nil {
			return
		}
		// The floor assumes the compiled layout: it must write phaser's
		// bytes from the same values in a payload built here.
		if q, ok := rebuilt(shape, p); ok {
			out, err := write(nil, q)
			if err != nil || !bytes.Equal(out, got) {
				t.Fatalf("%s: the floor wrote %d bytes (%v) from the payload rebuilt here, phaser %d from the received one", shape, len(out), err, len(got))
			}
		}
		// goroslib reads a ROS time's seconds as an int32 (protocommon's
		// decoder): a stamp from 2038 on it does not write back. Every
		// shape but small has a header, whose stamp is at ROS offset 4.
		if shape != "small" && le.Uint32(got[4:]) >= 1<<31 {
			return
		}
		back, err := goroslibReencode(shape, got)
		if err != nil {
			t.Fatalf("%s: goroslib cannot read phaser's %d bytes: %v", shape, len(got), err)
		}
		if !bytes.Equal(back, got) {
			t.Fatalf("%s: goroslib reads phaser's %d bytes and writes %d others", shape, len(got), len(back))
		}
	})
}
