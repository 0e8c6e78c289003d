package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb"
	protobuf "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// protobuf-go (protoc-gen-go) and vtprotobuf share the generated structs:
// build sets the fields of a reused struct and marshals into a reused
// buffer; readers unmarshal into a reused struct (Reset first, as
// proto.Unmarshal does), then read it. The codecs are in ops.go; this file
// holds the field code of the shapes.

// pbSources returns value i of vals in its own struct for every i.
func pbSources[M any, V any](vals []V, set func(M, *V)) []M {
	src := make([]M, len(vals))
	for i := range vals {
		src[i] = newOf[M]()
		set(src[i], &vals[i])
	}
	return src
}

// newOf returns a new *T for a pointer type M = *T.
func newOf[M any]() M {
	var m M
	switch any(m).(type) {
	case *pb.SmallStruct:
		return any(new(pb.SmallStruct)).(M)
	case *pb.Header:
		return any(new(pb.Header)).(M)
	case *pb.Imu:
		return any(new(pb.Imu)).(M)
	case *pb.Cloud:
		return any(new(pb.Cloud)).(M)
	case *pb.Image:
		return any(new(pb.Image)).(M)
	}
	panic("newOf: unknown message")
}

// pbDecoder returns Codec.Decode: protobuf-go Unmarshal into a new struct,
// then get.
func pbDecoder[M protobuf.Message](get func(M) any) func([]byte) (any, error) {
	return func(data []byte) (any, error) {
		m := newOf[M]()
		if err := protobuf.Unmarshal(data, m); err != nil {
			return nil, err
		}
		return get(m), nil
	}
}

// SmallStruct.

func pbSetSmall(m *pb.SmallStruct, v *Small) {
	m.Name = v.Name
	m.BirthDay = v.BirthDay
	m.Phone = v.Phone
	m.Siblings = v.Siblings
	m.Spouse = v.Spouse
	m.Money = v.Money
}

func pbTouchSmall(m *pb.SmallStruct, v *Small) { m.Money = v.Money }

func pbGetSmall(m *pb.SmallStruct) any {
	return &Small{m.Name, m.BirthDay, m.Phone, m.Siblings, m.Spouse, m.Money}
}

func pbAllSmall(m *pb.SmallStruct) uint64 {
	return useStr(m.Name) + uint64(m.BirthDay) + useStr(m.Phone) + uint64(m.Siblings) + b2u(m.Spouse) + f64(m.Money)
}

func pbOneSmall(m *pb.SmallStruct) uint64 { return f64(m.Money) }

// Header.

func pbSetHeader(m *pb.Header, v *Header) {
	m.Seq = v.Seq
	if m.Stamp == nil {
		m.Stamp = new(timestamppb.Timestamp)
	}
	m.Stamp.Seconds, m.Stamp.Nanos = v.Sec, v.Nsec
	m.FrameId = v.FrameID
}

func pbTouchHeader(m *pb.Header, v *Header) { m.Stamp.Nanos = v.Nsec }

func pbGetHeader(m *pb.Header) any { h := pbHeaderValue(m); return &h }

func pbHeaderValue(m *pb.Header) Header {
	return Header{Seq: m.GetSeq(), Sec: m.GetStamp().GetSeconds(), Nsec: m.GetStamp().GetNanos(), FrameID: m.GetFrameId()}
}

func pbAllHeader(m *pb.Header) uint64 {
	st := m.GetStamp()
	return uint64(m.GetSeq()) + uint64(st.GetSeconds()) + uint64(st.GetNanos()) + useStr(m.GetFrameId())
}

func pbOneHeader(m *pb.Header) uint64 { return uint64(m.GetStamp().GetNanos()) }

// Imu.

func pbSetImu(m *pb.Imu, v *Imu) {
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
}

func pbTouchImu(m *pb.Imu, v *Imu) { m.Header.Stamp.Nanos = v.Header.Nsec }

func pbGetImu(m *pb.Imu) any {
	v := &Imu{Header: pbHeaderValue(m.GetHeader())}
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
}

func pbAllImu(m *pb.Imu) uint64 {
	s := pbAllHeader(m.GetHeader())
	o, a, l := m.GetOrientation(), m.GetAngularVelocity(), m.GetLinearAcceleration()
	s += f64(o.GetX()) + f64(o.GetY()) + f64(o.GetZ()) + f64(o.GetW())
	s += f64(a.GetX()) + f64(a.GetY()) + f64(a.GetZ())
	s += f64(l.GetX()) + f64(l.GetY()) + f64(l.GetZ())
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

func pbOneImu(m *pb.Imu) uint64 { return f64(m.GetLinearAcceleration().GetZ()) }

// Cloud.

func pbSetCloud(m *pb.Cloud, v *Cloud) {
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
}

func pbTouchCloud(m *pb.Cloud, v *Cloud) { m.Header.Stamp.Nanos = v.Header.Nsec }

func pbGetCloud(m *pb.Cloud) any {
	v := &Cloud{Header: pbHeaderValue(m.GetHeader()), Height: m.Height, Width: m.Width,
		IsBigendian: m.IsBigendian, PointStep: m.PointStep, RowStep: m.RowStep,
		Data: append([]byte(nil), m.Data...), IsDense: m.IsDense}
	for _, f := range m.Fields {
		v.Fields = append(v.Fields, PointField{f.Name, f.Offset, uint8(f.Datatype), f.Count})
	}
	for _, p := range m.Points {
		v.Points = append(v.Points, Point{p.X, p.Y, p.Z, p.Intensity})
	}
	return v
}

func pbAllCloud(m *pb.Cloud) uint64 {
	s := pbAllHeader(m.GetHeader()) + uint64(m.Height) + uint64(m.Width) + b2u(m.IsBigendian) +
		uint64(m.PointStep) + uint64(m.RowStep) + useBytes(m.Data) + b2u(m.IsDense)
	for _, f := range m.Fields {
		s += useStr(f.Name) + uint64(f.Offset) + uint64(f.Datatype) + uint64(f.Count)
	}
	for _, p := range m.Points {
		s += f32(p.X) + f32(p.Y) + f32(p.Z) + f32(p.Intensity)
	}
	return s
}

func pbOneCloud(m *pb.Cloud) uint64 {
	if len(m.Points) <= NPoints/2 {
		return 0
	}
	return f32(m.Points[NPoints/2].GetZ())
}

// Image.

func pbSetImage(m *pb.Image, v *Image) {
	if m.Header == nil {
		m.Header = new(pb.Header)
	}
	pbSetHeader(m.Header, &v.Header)
	m.Height, m.Width, m.Encoding = v.Height, v.Width, v.Encoding
	m.IsBigendian, m.Step = uint32(v.IsBigendian), v.Step
	m.Data = v.Data // a Go slice: set without copying
}

func pbTouchImage(m *pb.Image, v *Image) { m.Header.Stamp.Nanos = v.Header.Nsec }

func pbGetImage(m *pb.Image) any {
	return &Image{Header: pbHeaderValue(m.GetHeader()), Height: m.Height, Width: m.Width, Encoding: m.Encoding,
		IsBigendian: uint8(m.IsBigendian), Step: m.Step, Data: append([]byte(nil), m.Data...)}
}

func pbAllImage(m *pb.Image) uint64 {
	return pbAllHeader(m.GetHeader()) + uint64(m.Height) + uint64(m.Width) + useStr(m.Encoding) +
		uint64(uint8(m.IsBigendian)) + uint64(m.Step) + useBytes(m.Data)
}

func pbOneImage(m *pb.Image) uint64 { return useMid(m.Data) }
