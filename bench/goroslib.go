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
	protobuf "google.golang.org/protobuf/proto"

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

func rosGetHeader(h *std_msgs.Header) Header {
	return Header{Seq: h.Seq, Sec: h.Stamp.Unix(), Nsec: int32(h.Stamp.Nanosecond()), FrameID: h.FrameId}
}

// rosSmall etc. set value i on a (reused) goroslib struct.
func rosSetSmall(m *RosSmall, v *Small) {
	m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money = v.Name, v.BirthDay, v.Phone, v.Siblings, v.Spouse, v.Money
}

func rosSetImu(m *sensor_msgs.Imu, v *Imu) {
	m.Header = rosHeader(&v.Header)
	m.Orientation = geometry_msgs.Quaternion{X: v.Orientation[0], Y: v.Orientation[1], Z: v.Orientation[2], W: v.Orientation[3]}
	m.OrientationCovariance = v.OrientationCov
	m.AngularVelocity = geometry_msgs.Vector3{X: v.AngularVelocity[0], Y: v.AngularVelocity[1], Z: v.AngularVelocity[2]}
	m.AngularVelocityCovariance = v.AngularVelocityCov
	m.LinearAcceleration = geometry_msgs.Vector3{X: v.LinearAcceleration[0], Y: v.LinearAcceleration[1], Z: v.LinearAcceleration[2]}
	m.LinearAccelerationCovariance = v.LinearAccelerationCov
}

func rosGetImu(m *sensor_msgs.Imu) *Imu {
	return &Imu{
		Header:                rosGetHeader(&m.Header),
		Orientation:           [4]float64{m.Orientation.X, m.Orientation.Y, m.Orientation.Z, m.Orientation.W},
		OrientationCov:        m.OrientationCovariance,
		AngularVelocity:       [3]float64{m.AngularVelocity.X, m.AngularVelocity.Y, m.AngularVelocity.Z},
		AngularVelocityCov:    m.AngularVelocityCovariance,
		LinearAcceleration:    [3]float64{m.LinearAcceleration.X, m.LinearAcceleration.Y, m.LinearAcceleration.Z},
		LinearAccelerationCov: m.LinearAccelerationCovariance,
	}
}

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

func rosGetCloud(m *RosCloud) *Cloud {
	v := &Cloud{Header: rosGetHeader(&m.Header), Height: m.Height, Width: m.Width, IsBigendian: m.IsBigendian,
		PointStep: m.PointStep, RowStep: m.RowStep, Data: append([]byte(nil), m.Data...), IsDense: m.IsDense}
	for _, f := range m.Fields {
		v.Fields = append(v.Fields, PointField{f.Name, f.Offset, f.Datatype, f.Count})
	}
	for _, p := range m.Points {
		v.Points = append(v.Points, Point{p.X, p.Y, p.Z, p.Intensity})
	}
	return v
}

// From the protobuf-go structs, for the transcode peers.

func rosFromPbHeader(h *pb.Header) std_msgs.Header {
	st := h.GetStamp()
	return std_msgs.Header{Seq: h.GetSeq(), Stamp: time.Unix(st.GetSeconds(), int64(st.GetNanos())).UTC(), FrameId: h.GetFrameId()}
}

func rosFromPbSmall(m *RosSmall, p *pb.SmallStruct) {
	m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money = p.Name, p.BirthDay, p.Phone, p.Siblings, p.Spouse, p.Money
}

func rosFromPbImu(m *sensor_msgs.Imu, p *pb.Imu) {
	m.Header = rosFromPbHeader(p.GetHeader())
	o, a, l := p.GetOrientation(), p.GetAngularVelocity(), p.GetLinearAcceleration()
	m.Orientation = geometry_msgs.Quaternion{X: o.GetX(), Y: o.GetY(), Z: o.GetZ(), W: o.GetW()}
	copy(m.OrientationCovariance[:], p.OrientationCovariance)
	m.AngularVelocity = geometry_msgs.Vector3{X: a.GetX(), Y: a.GetY(), Z: a.GetZ()}
	copy(m.AngularVelocityCovariance[:], p.AngularVelocityCovariance)
	m.LinearAcceleration = geometry_msgs.Vector3{X: l.GetX(), Y: l.GetY(), Z: l.GetZ()}
	copy(m.LinearAccelerationCovariance[:], p.LinearAccelerationCovariance)
}

func rosFromPbCloud(m *RosCloud, p *pb.Cloud) {
	m.Header = rosFromPbHeader(p.GetHeader())
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

// rosShape holds the goroslib functions of one shape.
type rosShape[R any, P vtMsg] struct {
	shape  string
	set    func(*R, int)
	get    func(*R) any
	reset  func(*R) // before decoding into a reused struct (goroslib appends to slices)
	newPb  func() P
	fromPb func(*R, P)
}

// rosEncode writes m's body into w (reused) and returns it.
func rosEncode(w *bytes.Buffer, m any) []byte {
	w.Reset()
	must(protocommon.MessageEncode(w, m))
	return w.Bytes()[4:]
}

func goroslibCodec[R any, P vtMsg](s rosShape[R, P]) func() *Codec {
	return func() *Codec {
		n := N(s.shape)
		src := make([]R, n)
		for i := range src {
			s.set(&src[i], i)
		}
		var dst R
		var w bytes.Buffer
		var r framedReader
		return &Codec{
			ROSMarshal: func(i int) []byte { return rosEncode(&w, &src[i%n]) },
			ROSUnmarshal: func(body []byte) error {
				s.reset(&dst)
				r.reset(body)
				return protocommon.MessageDecode(&r, &dst)
			},
			ROSResult: func() (any, error) { return s.get(&dst), nil },
		}
	}
}

// pbGoroslibCodec is protobuf+goroslib: transcode by protobuf-go Unmarshal,
// filling the goroslib struct, and MessageEncode.
func pbGoroslibCodec[R any, P vtMsg](s rosShape[R, P]) func() *Codec {
	return func() *Codec {
		var tmp R
		var w bytes.Buffer
		pbm := s.newPb()
		return &Codec{
			Transcode: func(pbb []byte) ([]byte, error) {
				if err := protobuf.Unmarshal(pbb, pbm); err != nil {
					return nil, err
				}
				s.fromPb(&tmp, pbm)
				return rosEncode(&w, &tmp), nil
			},
		}
	}
}

func vtGoroslibCodec[R any, P vtMsg](s rosShape[R, P]) func() *Codec {
	return func() *Codec {
		var tmp R
		var w bytes.Buffer
		pbm := s.newPb()
		return &Codec{
			Transcode: func(pbb []byte) ([]byte, error) {
				if err := vtUnmarshal(pbb, pbm); err != nil {
					return nil, err
				}
				s.fromPb(&tmp, pbm)
				return rosEncode(&w, &tmp), nil
			},
		}
	}
}

func rosRegister[R any, P vtMsg](s rosShape[R, P]) {
	register("goroslib", s.shape, goroslibCodec(s))
	register("protobuf+goroslib", s.shape, pbGoroslibCodec(s))
	register("vtproto+goroslib", s.shape, vtGoroslibCodec(s))
}

func init() {
	rosRegister(rosShape[RosSmall, *pb.SmallStruct]{
		shape: "small",
		set:   func(m *RosSmall, i int) { rosSetSmall(m, &Values.Small[i%NSmall]) },
		get: func(m *RosSmall) any {
			return &Small{m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money}
		},
		reset:  func(*RosSmall) {},
		newPb:  func() *pb.SmallStruct { return new(pb.SmallStruct) },
		fromPb: rosFromPbSmall,
	})
	rosRegister(rosShape[std_msgs.Header, *pb.Header]{
		shape:  "header",
		set:    func(m *std_msgs.Header, i int) { *m = rosHeader(&Values.Header[i%NSmall]) },
		get:    func(m *std_msgs.Header) any { h := rosGetHeader(m); return &h },
		reset:  func(*std_msgs.Header) {},
		newPb:  func() *pb.Header { return new(pb.Header) },
		fromPb: func(m *std_msgs.Header, p *pb.Header) { *m = rosFromPbHeader(p) },
	})
	rosRegister(rosShape[sensor_msgs.Imu, *pb.Imu]{
		shape:  "imu",
		set:    func(m *sensor_msgs.Imu, i int) { rosSetImu(m, &Values.Imu[i%NSmall]) },
		get:    func(m *sensor_msgs.Imu) any { return rosGetImu(m) },
		reset:  func(*sensor_msgs.Imu) {},
		newPb:  func() *pb.Imu { return new(pb.Imu) },
		fromPb: rosFromPbImu,
	})
	rosRegister(rosShape[RosCloud, *pb.Cloud]{
		shape: "cloud",
		set:   func(m *RosCloud, i int) { rosSetCloud(m, &Values.Cloud[i%NCloud]) },
		get:   func(m *RosCloud) any { return rosGetCloud(m) },
		// Data keeps its length: goroslib v2.1.5 decodes a []uint8 into
		// the old slice's capacity without resetting its length.
		reset:  func(m *RosCloud) { m.Fields, m.Points = m.Fields[:0], m.Points[:0] },
		newPb:  func() *pb.Cloud { return new(pb.Cloud) },
		fromPb: rosFromPbCloud,
	})
}
