package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb"
	protobuf "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// protobuf-go (protoc-gen-go) and vtprotobuf share the generated structs:
// build sets the fields of a reused struct and marshals into a reused
// buffer; readers unmarshal into a reused struct (Reset first, as
// proto.Unmarshal does), then read it.

// pbShape holds the struct functions of one shape.
type pbShape[M protobuf.Message] struct {
	shape string
	new   func() M
	set   func(M, int) // set value i's fields on a (reused) struct
	get   func(M) any
	all   func(M) uint64
	one   func(M) uint64
}

func (s pbShape[M]) sources() []M {
	src := make([]M, N(s.shape))
	for i := range src {
		src[i] = s.new()
		s.set(src[i], i)
	}
	return src
}

func protobufCodec[M protobuf.Message](s pbShape[M]) func() *Codec {
	return func() *Codec {
		n := N(s.shape)
		warm, rd, dst, src := s.new(), s.new(), s.new(), s.sources()
		var out []byte
		opts := protobuf.MarshalOptions{}
		var err error
		return &Codec{
			Build: func(i int) []byte {
				s.set(warm, i)
				out, err = opts.MarshalAppend(out[:0], warm)
				must(err)
				return out
			},
			Decode: func(data []byte) (any, error) {
				m := s.new()
				if err := protobuf.Unmarshal(data, m); err != nil {
					return nil, err
				}
				return s.get(m), nil
			},
			ReadAll: func(data []byte) uint64 {
				if protobuf.Unmarshal(data, rd) != nil {
					return 0
				}
				return s.all(rd)
			},
			ReadOne: func(data []byte) uint64 {
				if protobuf.Unmarshal(data, rd) != nil {
					return 0
				}
				return s.one(rd)
			},
			ProtoMarshal: func(i int) []byte {
				out, err = opts.MarshalAppend(out[:0], src[i%n])
				must(err)
				return out
			},
			ProtoUnmarshal: func(pb []byte) error { return protobuf.Unmarshal(pb, dst) },
			ProtoResult:    func() (any, error) { return s.get(dst), nil },
		}
	}
}

var (
	pbSmall = pbShape[*pb.SmallStruct]{
		shape: "small",
		new:   func() *pb.SmallStruct { return new(pb.SmallStruct) },
		set: func(m *pb.SmallStruct, i int) {
			v := &Values.Small[i%NSmall]
			m.Name = v.Name
			m.BirthDay = v.BirthDay
			m.Phone = v.Phone
			m.Siblings = v.Siblings
			m.Spouse = v.Spouse
			m.Money = v.Money
		},
		get: func(m *pb.SmallStruct) any {
			return &Small{m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money}
		},
		all: func(m *pb.SmallStruct) uint64 {
			return useStr(m.Name) + uint64(m.BirthDay) + useStr(m.Phone) + uint64(m.Siblings) + b2u(m.Spouse) + f64(m.Money)
		},
		one: func(m *pb.SmallStruct) uint64 { return f64(m.Money) },
	}
	pbHeader = pbShape[*pb.Header]{
		shape: "header",
		new:   func() *pb.Header { return new(pb.Header) },
		set:   func(m *pb.Header, i int) { pbSetHeader(m, &Values.Header[i%NSmall]) },
		get:   func(m *pb.Header) any { h := pbGetHeader(m); return &h },
		all:   pbUseHeader,
		one:   func(m *pb.Header) uint64 { return uint64(m.GetStamp().GetNanos()) },
	}
	pbImu = pbShape[*pb.Imu]{
		shape: "imu",
		new:   func() *pb.Imu { return new(pb.Imu) },
		set: func(m *pb.Imu, i int) {
			v := &Values.Imu[i%NSmall]
			if m.Header == nil {
				m.Header = new(pb.Header)
				m.Orientation = new(pb.Quaternion)
				m.AngularVelocity = new(pb.Vector3)
				m.LinearAcceleration = new(pb.Vector3)
			}
			pbSetHeader(m.Header, &v.Header)
			o := m.Orientation
			o.X, o.Y, o.Z, o.W = v.Orientation[0], v.Orientation[1], v.Orientation[2], v.Orientation[3]
			m.OrientationCovariance = append(m.OrientationCovariance[:0], v.OrientationCov[:]...)
			a := m.AngularVelocity
			a.X, a.Y, a.Z = v.AngularVelocity[0], v.AngularVelocity[1], v.AngularVelocity[2]
			m.AngularVelocityCovariance = append(m.AngularVelocityCovariance[:0], v.AngularVelocityCov[:]...)
			l := m.LinearAcceleration
			l.X, l.Y, l.Z = v.LinearAcceleration[0], v.LinearAcceleration[1], v.LinearAcceleration[2]
			m.LinearAccelerationCovariance = append(m.LinearAccelerationCovariance[:0], v.LinearAccelerationCov[:]...)
		},
		get: func(m *pb.Imu) any {
			v := &Imu{Header: pbGetHeader(m.GetHeader())}
			o, a, l := m.GetOrientation(), m.GetAngularVelocity(), m.GetLinearAcceleration()
			v.Orientation = [4]float64{o.GetX(), o.GetY(), o.GetZ(), o.GetW()}
			v.AngularVelocity = [3]float64{a.GetX(), a.GetY(), a.GetZ()}
			v.LinearAcceleration = [3]float64{l.GetX(), l.GetY(), l.GetZ()}
			if copy(v.OrientationCov[:], m.OrientationCovariance) != 9 ||
				copy(v.AngularVelocityCov[:], m.AngularVelocityCovariance) != 9 ||
				copy(v.LinearAccelerationCov[:], m.LinearAccelerationCovariance) != 9 {
				return nil
			}
			return v
		},
		all: func(m *pb.Imu) uint64 {
			s := pbUseHeader(m.GetHeader())
			o, a, l := m.GetOrientation(), m.GetAngularVelocity(), m.GetLinearAcceleration()
			s += f64(o.GetX()) + f64(o.GetY()) + f64(o.GetZ()) + f64(o.GetW())
			s += f64(a.GetX()) + f64(a.GetY()) + f64(a.GetZ())
			s += f64(l.GetX()) + f64(l.GetY()) + f64(l.GetZ())
			for _, c := range [][]float64{m.OrientationCovariance, m.AngularVelocityCovariance, m.LinearAccelerationCovariance} {
				for _, f := range c {
					s += f64(f)
				}
			}
			return s
		},
		one: func(m *pb.Imu) uint64 { return f64(m.GetLinearAcceleration().GetZ()) },
	}
	pbCloud = pbShape[*pb.Cloud]{
		shape: "cloud",
		new:   func() *pb.Cloud { return new(pb.Cloud) },
		set: func(m *pb.Cloud, i int) {
			v := &Values.Cloud[i%NCloud]
			if m.Header == nil {
				m.Header = new(pb.Header)
			}
			pbSetHeader(m.Header, &v.Header)
			m.Height, m.Width = v.Height, v.Width
			for len(m.Fields) < len(v.Fields) {
				m.Fields = append(m.Fields, new(pb.PointField))
			}
			m.Fields = m.Fields[:len(v.Fields)]
			for j, f := range v.Fields {
				e := m.Fields[j]
				e.Name, e.Offset, e.Datatype, e.Count = f.Name, f.Offset, uint32(f.Datatype), f.Count
			}
			m.IsBigendian, m.PointStep, m.RowStep = v.IsBigendian, v.PointStep, v.RowStep
			m.Data = v.Data // a Go slice: set without copying
			m.IsDense = v.IsDense
			for len(m.Points) < len(v.Points) {
				m.Points = append(m.Points, new(pb.Point))
			}
			m.Points = m.Points[:len(v.Points)]
			for j := range v.Points {
				p, e := &v.Points[j], m.Points[j]
				e.X, e.Y, e.Z, e.Intensity = p.X, p.Y, p.Z, p.Intensity
			}
		},
		get: func(m *pb.Cloud) any {
			v := &Cloud{Header: pbGetHeader(m.GetHeader()), Height: m.Height, Width: m.Width,
				IsBigendian: m.IsBigendian, PointStep: m.PointStep, RowStep: m.RowStep,
				Data: append([]byte(nil), m.Data...), IsDense: m.IsDense}
			for _, f := range m.Fields {
				v.Fields = append(v.Fields, PointField{f.Name, f.Offset, uint8(f.Datatype), f.Count})
			}
			for _, p := range m.Points {
				v.Points = append(v.Points, Point{p.X, p.Y, p.Z, p.Intensity})
			}
			return v
		},
		all: func(m *pb.Cloud) uint64 {
			s := pbUseHeader(m.GetHeader()) + uint64(m.Height) + uint64(m.Width) + b2u(m.IsBigendian) +
				uint64(m.PointStep) + uint64(m.RowStep) + useBytes(m.Data) + b2u(m.IsDense)
			for _, f := range m.Fields {
				s += useStr(f.Name) + uint64(f.Offset) + uint64(f.Datatype) + uint64(f.Count)
			}
			for _, p := range m.Points {
				s += f32(p.X) + f32(p.Y) + f32(p.Z) + f32(p.Intensity)
			}
			return s
		},
		one: func(m *pb.Cloud) uint64 {
			if len(m.Points) <= NPoints/2 {
				return 0
			}
			return f32(m.Points[NPoints/2].GetZ())
		},
	}
)

func pbSetHeader(m *pb.Header, v *Header) {
	m.Seq = v.Seq
	if m.Stamp == nil {
		m.Stamp = new(timestamppb.Timestamp)
	}
	m.Stamp.Seconds, m.Stamp.Nanos = v.Sec, v.Nsec
	m.FrameId = v.FrameID
}

func pbGetHeader(m *pb.Header) Header {
	return Header{Seq: m.GetSeq(), Sec: m.GetStamp().GetSeconds(), Nsec: m.GetStamp().GetNanos(), FrameID: m.GetFrameId()}
}

func pbUseHeader(m *pb.Header) uint64 {
	st := m.GetStamp()
	return uint64(m.GetSeq()) + uint64(st.GetSeconds()) + uint64(st.GetNanos()) + useStr(m.GetFrameId())
}

func init() {
	register("protobuf", "small", protobufCodec(pbSmall))
	register("protobuf", "header", protobufCodec(pbHeader))
	register("protobuf", "imu", protobufCodec(pbImu))
	register("protobuf", "cloud", protobufCodec(pbCloud))
}
