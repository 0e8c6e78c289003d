package bench

import (
	"bytes"
	"encoding/binary"
	"io"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msg"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/geometry_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/protocommon"

	"github.com/phaser-go/phaser/bench/gen/pb"
)

// goroslib (ROS1): its std_msgs/sensor_msgs structs for Header and Imu, and
// structs written with its msg conventions for SmallStruct and Cloud.
// protocommon.MessageEncode/MessageDecode speak TCPROS framing (a uint32
// length, then the message); the benchmarks compare the message body, which
// is what phaser-go's ros package writes and reads.

// RosSmall is SmallStruct as a ROS message.
type RosSmall struct {
	msg.Package `ros:"bench"`
	Name        string
	BirthDay    int64
	Phone       string
	Siblings    int32
	Spouse      bool
	Money       float64
}

// RosPoint is the fixed-size point of RosCloud.
type RosPoint struct {
	msg.Package `ros:"bench"`
	msg.Name    `ros:"Point"`
	X           float32
	Y           float32
	Z           float32
	Intensity   float32
}

// RosCloud is sensor_msgs/PointCloud2 plus the points.
type RosCloud struct {
	msg.Package `ros:"bench"`
	msg.Name    `ros:"Cloud"`
	Header      std_msgs.Header
	Height      uint32
	Width       uint32
	Fields      []sensor_msgs.PointField
	IsBigendian bool
	PointStep   uint32
	RowStep     uint32
	Data        []uint8
	IsDense     bool
	Points      []RosPoint
}

// framedReader yields the TCPROS length prefix, then body, without copying.
type framedReader struct {
	hdr  [4]byte
	body []byte
	off  int
}

func (r *framedReader) reset(body []byte) {
	binary.LittleEndian.PutUint32(r.hdr[:], uint32(len(body)))
	r.body, r.off = body, 0
}

func (r *framedReader) Read(p []byte) (int, error) {
	n := 0
	if r.off < 4 {
		n = copy(p, r.hdr[r.off:])
		r.off += n
		p = p[n:]
	}
	if len(p) > 0 && r.off >= 4 {
		k := copy(p, r.body[r.off-4:])
		r.off += k
		n += k
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

func rosHeader(v *Header) std_msgs.Header {
	return std_msgs.Header{Seq: v.Seq, Stamp: time.Unix(v.Sec, int64(v.Nsec)).UTC(), FrameId: v.FrameID}
}

func rosHeaderValue(h *std_msgs.Header) Header {
	return Header{Seq: h.Seq, Sec: h.Stamp.Unix(), Nsec: int32(h.Stamp.Nanosecond()), FrameID: h.FrameId}
}

// rosEncode writes m's body into w (reused) and returns it.
func rosEncode(w *bytes.Buffer, m any) []byte {
	w.Reset()
	must(protocommon.MessageEncode(w, m))
	return w.Bytes()[4:]
}

// rosDecoder returns Codec.Decode: goroslib's MessageDecode into a new
// struct, then get.
func rosDecoder[R any](get func(*R) any) func([]byte) (any, error) {
	return func(data []byte) (any, error) {
		var m R
		var r framedReader
		r.reset(data)
		if err := protocommon.MessageDecode(&r, &m); err != nil {
			return nil, err
		}
		return get(&m), nil
	}
}

func rosUseHeader(h *std_msgs.Header) uint64 {
	return uint64(h.Seq) + uint64(h.Stamp.Unix()) + uint64(h.Stamp.Nanosecond()) + useStr(h.FrameId)
}

// rosTouchStamp sets the nanoseconds of a header's stamp.
func rosTouchStamp(h *std_msgs.Header, nsec int32) {
	h.Stamp = time.Unix(h.Stamp.Unix(), int64(nsec)).UTC()
}

// SmallStruct.

func rosSetSmall(m *RosSmall, v *Small) {
	m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money = v.Name, v.BirthDay, v.Phone, v.Siblings, v.Spouse, v.Money
}

func rosTouchSmall(m *RosSmall, v *Small) { m.Money = v.Money }

func rosGetSmall(m *RosSmall) any {
	return &Small{m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money}
}

func rosAllSmall(m *RosSmall) uint64 {
	return useStr(m.Name) + uint64(m.BirthDay) + useStr(m.Phone) + uint64(m.Siblings) + b2u(m.Spouse) + f64(m.Money)
}

func rosOneSmall(m *RosSmall) uint64 { return f64(m.Money) }

func rosResetSmall(*RosSmall) {}

// Header.

func rosSetHeader(m *std_msgs.Header, v *Header) { *m = rosHeader(v) }

func rosTouchHeader(m *std_msgs.Header, v *Header) { rosTouchStamp(m, v.Nsec) }

func rosGetHeader(m *std_msgs.Header) any { h := rosHeaderValue(m); return &h }

func rosAllHeader(m *std_msgs.Header) uint64 { return rosUseHeader(m) }

func rosOneHeader(m *std_msgs.Header) uint64 { return uint64(m.Stamp.Nanosecond()) }

func rosResetHeader(*std_msgs.Header) {}

func rosFromPbHeader(m *std_msgs.Header, p *pb.Header) { *m = rosFromPb(p) }

// Imu.

func rosSetImu(m *sensor_msgs.Imu, v *Imu) {
	m.Header = rosHeader(&v.Header)
	m.Orientation = geometry_msgs.Quaternion{X: v.Orientation[0], Y: v.Orientation[1], Z: v.Orientation[2], W: v.Orientation[3]}
	m.OrientationCovariance = v.OrientationCov
	m.AngularVelocity = geometry_msgs.Vector3{X: v.AngularVelocity[0], Y: v.AngularVelocity[1], Z: v.AngularVelocity[2]}
	m.AngularVelocityCovariance = v.AngularVelocityCov
	m.LinearAcceleration = geometry_msgs.Vector3{X: v.LinearAcceleration[0], Y: v.LinearAcceleration[1], Z: v.LinearAcceleration[2]}
	m.LinearAccelerationCovariance = v.LinearAccelerationCov
}

func rosTouchImu(m *sensor_msgs.Imu, v *Imu) { rosTouchStamp(&m.Header, v.Header.Nsec) }

func rosGetImu(m *sensor_msgs.Imu) any {
	return &Imu{
		Header:                rosHeaderValue(&m.Header),
		Orientation:           [4]float64{m.Orientation.X, m.Orientation.Y, m.Orientation.Z, m.Orientation.W},
		OrientationCov:        m.OrientationCovariance,
		AngularVelocity:       [3]float64{m.AngularVelocity.X, m.AngularVelocity.Y, m.AngularVelocity.Z},
		AngularVelocityCov:    m.AngularVelocityCovariance,
		LinearAcceleration:    [3]float64{m.LinearAcceleration.X, m.LinearAcceleration.Y, m.LinearAcceleration.Z},
		LinearAccelerationCov: m.LinearAccelerationCovariance,
	}
}

func rosAllImu(m *sensor_msgs.Imu) uint64 {
	s := rosUseHeader(&m.Header)
	o, a, l := &m.Orientation, &m.AngularVelocity, &m.LinearAcceleration
	s += f64(o.X) + f64(o.Y) + f64(o.Z) + f64(o.W)
	s += f64(a.X) + f64(a.Y) + f64(a.Z)
	s += f64(l.X) + f64(l.Y) + f64(l.Z)
	for _, f := range m.OrientationCovariance {
		s += f64(f)
	}
	for _, f := range m.AngularVelocityCovariance {
		s += f64(f)
	}
	for _, f := range m.LinearAccelerationCovariance {
		s += f64(f)
	}
	return s
}

func rosOneImu(m *sensor_msgs.Imu) uint64 { return f64(m.LinearAcceleration.Z) }

func rosResetImu(*sensor_msgs.Imu) {}

// Cloud.

func rosSetCloud(m *RosCloud, v *Cloud) {
	m.Header = rosHeader(&v.Header)
	m.Height, m.Width = v.Height, v.Width
	m.Fields = m.Fields[:0]
	for _, f := range v.Fields {
		m.Fields = append(m.Fields, sensor_msgs.PointField{Name: f.Name, Offset: f.Offset, Datatype: f.Datatype, Count: f.Count})
	}
	m.IsBigendian, m.PointStep, m.RowStep = v.IsBigendian, v.PointStep, v.RowStep
	m.Data = v.Data
	m.IsDense = v.IsDense
	m.Points = m.Points[:0]
	for _, p := range v.Points {
		m.Points = append(m.Points, RosPoint{X: p.X, Y: p.Y, Z: p.Z, Intensity: p.Intensity})
	}
}

func rosTouchCloud(m *RosCloud, v *Cloud) { rosTouchStamp(&m.Header, v.Header.Nsec) }

func rosGetCloud(m *RosCloud) any {
	v := &Cloud{Header: rosHeaderValue(&m.Header), Height: m.Height, Width: m.Width, IsBigendian: m.IsBigendian,
		PointStep: m.PointStep, RowStep: m.RowStep, Data: append([]byte(nil), m.Data...), IsDense: m.IsDense}
	for _, f := range m.Fields {
		v.Fields = append(v.Fields, PointField{f.Name, f.Offset, f.Datatype, f.Count})
	}
	for _, p := range m.Points {
		v.Points = append(v.Points, Point{p.X, p.Y, p.Z, p.Intensity})
	}
	return v
}

func rosAllCloud(m *RosCloud) uint64 {
	s := rosUseHeader(&m.Header) + uint64(m.Height) + uint64(m.Width) + b2u(m.IsBigendian) +
		uint64(m.PointStep) + uint64(m.RowStep) + useBytes(m.Data) + b2u(m.IsDense)
	for _, f := range m.Fields {
		s += useStr(f.Name) + uint64(f.Offset) + uint64(f.Datatype) + uint64(f.Count)
	}
	for _, p := range m.Points {
		s += f32(p.X) + f32(p.Y) + f32(p.Z) + f32(p.Intensity)
	}
	return s
}

func rosOneCloud(m *RosCloud) uint64 {
	if len(m.Points) <= NPoints/2 {
		return 0
	}
	return f32(m.Points[NPoints/2].Z)
}

// rosResetCloud empties the lists before a decode into a reused struct
// (goroslib appends to them). Data keeps its length: goroslib v2.1.5
// decodes a []uint8 into the old slice's capacity without resetting its
// length.
func rosResetCloud(m *RosCloud) { m.Fields, m.Points = m.Fields[:0], m.Points[:0] }

// Image.

func rosSetImage(m *sensor_msgs.Image, v *Image) {
	m.Header = rosHeader(&v.Header)
	m.Height, m.Width, m.Encoding, m.IsBigendian, m.Step = v.Height, v.Width, v.Encoding, v.IsBigendian, v.Step
	m.Data = v.Data
}

func rosTouchImage(m *sensor_msgs.Image, v *Image) { rosTouchStamp(&m.Header, v.Header.Nsec) }

func rosGetImage(m *sensor_msgs.Image) any {
	return &Image{Header: rosHeaderValue(&m.Header), Height: m.Height, Width: m.Width, Encoding: m.Encoding,
		IsBigendian: m.IsBigendian, Step: m.Step, Data: append([]byte(nil), m.Data...)}
}

func rosAllImage(m *sensor_msgs.Image) uint64 {
	return rosUseHeader(&m.Header) + uint64(m.Height) + uint64(m.Width) + useStr(m.Encoding) +
		uint64(m.IsBigendian) + uint64(m.Step) + useBytes(m.Data)
}

func rosOneImage(m *sensor_msgs.Image) uint64 { return useMid(m.Data) }

// rosResetImage keeps Data, as rosResetCloud does.
func rosResetImage(*sensor_msgs.Image) {}

// From the protobuf-go structs, for the transcode peers.

func rosFromPb(h *pb.Header) std_msgs.Header {
	st := h.GetStamp()
	return std_msgs.Header{Seq: h.GetSeq(), Stamp: time.Unix(st.GetSeconds(), int64(st.GetNanos())).UTC(), FrameId: h.GetFrameId()}
}

func rosFromPbSmall(m *RosSmall, p *pb.SmallStruct) {
	m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money = p.Name, p.BirthDay, p.Phone, p.Siblings, p.Spouse, p.Money
}

func rosFromPbImu(m *sensor_msgs.Imu, p *pb.Imu) {
	m.Header = rosFromPb(p.GetHeader())
	o, a, l := p.GetOrientation(), p.GetAngularVelocity(), p.GetLinearAcceleration()
	m.Orientation = geometry_msgs.Quaternion{X: o.GetX(), Y: o.GetY(), Z: o.GetZ(), W: o.GetW()}
	copy(m.OrientationCovariance[:], p.OrientationCovariance)
	m.AngularVelocity = geometry_msgs.Vector3{X: a.GetX(), Y: a.GetY(), Z: a.GetZ()}
	copy(m.AngularVelocityCovariance[:], p.AngularVelocityCovariance)
	m.LinearAcceleration = geometry_msgs.Vector3{X: l.GetX(), Y: l.GetY(), Z: l.GetZ()}
	copy(m.LinearAccelerationCovariance[:], p.LinearAccelerationCovariance)
}

func rosFromPbCloud(m *RosCloud, p *pb.Cloud) {
	m.Header = rosFromPb(p.GetHeader())
	m.Height, m.Width = p.Height, p.Width
	m.Fields = m.Fields[:0]
	for _, f := range p.Fields {
		m.Fields = append(m.Fields, sensor_msgs.PointField{Name: f.Name, Offset: f.Offset, Datatype: uint8(f.Datatype), Count: f.Count})
	}
	m.IsBigendian, m.PointStep, m.RowStep = p.IsBigendian, p.PointStep, p.RowStep
	m.Data = p.Data
	m.IsDense = p.IsDense
	m.Points = m.Points[:0]
	for _, q := range p.Points {
		m.Points = append(m.Points, RosPoint{X: q.X, Y: q.Y, Z: q.Z, Intensity: q.Intensity})
	}
}

func rosFromPbImage(m *sensor_msgs.Image, p *pb.Image) {
	m.Header = rosFromPb(p.GetHeader())
	m.Height, m.Width, m.Encoding, m.IsBigendian, m.Step = p.Height, p.Width, p.Encoding, uint8(p.IsBigendian), p.Step
	m.Data = p.Data
}

// rosOverLimit is goroslib's codec for a shape over goroslib v2.1.5's
// message limit (protocommon's maxMessageLength, 16 MiB): MessageEncode
// writes it, MessageDecode refuses it. Only the writing operations take
// part; what they write is checked with decode (phaser's ROS1 decoder).
func rosOverLimit(mk func() *Codec, decode func([]byte) (any, error)) func() *Codec {
	return func() *Codec {
		c := mk()
		c.ReadAll, c.ReadOne, c.ROSUnmarshal, c.ROSResult = nil, nil, nil, nil
		c.Decode = decode
		return c
	}
}
