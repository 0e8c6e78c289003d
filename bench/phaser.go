package bench

import (
	"bytes"

	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// phaser-go: build writes the payload in place in a warm buffer (Clear,
// then set; phaser-new: NewXIn on the same reused memory), the payload is
// what is published, and readers read it where it lies. The codecs of each
// shape are in ops.go (cmd/genops); this file holds the field code of the
// shapes, called directly from there.

// memSize is the fixed buffer of one message of a shape.
func memSize(shape string) int {
	switch shape {
	case "cloud":
		return 4 << 20
	case "image1M":
		return 1<<20 + 64<<10
	case "image16M":
		return 16<<20 + 64<<10
	}
	return 4096
}

// phaserMsg is what every generated handle has (used in set-up code only:
// the measured code calls the generated methods directly).
type phaserMsg interface {
	Bytes() []byte
	Failed() bool
}

// phaserNew makes a message in a fresh fixed buffer of the shape's size.
func phaserNew[T phaserMsg](shape string, newIn func([]byte, ...runtime.Options) (T, error), opts []runtime.Options) T {
	x, err := newIn(make([]byte, memSize(shape)), opts...)
	must(err)
	return x
}

// phaserSources returns value i of vals in its own payload for every i,
// read (ReadX) from its own right-sized copy of the payload bytes, as a
// receiver holds them: 16 sources in 4 KiB buffers would put their first
// bytes on the same cache sets, which no peer pays.
func phaserSources[T phaserMsg, V any](shape string, vals []V, newIn func([]byte, ...runtime.Options) (T, error),
	read func([]byte) (T, error), set func(T, *V), opts []runtime.Options) []T {
	src := make([]T, len(vals))
	for i := range vals {
		x := phaserNew(shape, newIn, opts)
		set(x, &vals[i])
		if x.Failed() {
			panic("phaser: " + shape + " does not fit")
		}
		var err error
		src[i], err = read(bytes.Clone(x.Bytes()))
		must(err)
	}
	return src
}

// phaserBuilt is phaserNew with value v set, for Republish.
func phaserBuilt[T phaserMsg, V any](shape string, v *V, newIn func([]byte, ...runtime.Options) (T, error), set func(T, *V), opts []runtime.Options) T {
	x := phaserNew(shape, newIn, opts)
	set(x, v)
	return x
}

// phaserResult reads back what an unmarshal wrote into dst.
func phaserResult[T phaserMsg](dst T, decode func([]byte) (any, error)) (any, error) {
	if dst.Failed() {
		return nil, errorf("phaser: buffer full")
	}
	return decode(dst.Bytes())
}

// phaserDecoder returns Codec.Decode: a fresh read, then get.
func phaserDecoder[T any](read func([]byte) (T, error), get func(T) any) func([]byte) (any, error) {
	return func(data []byte) (any, error) {
		x, err := read(data)
		if err != nil {
			return nil, err
		}
		return get(x), nil
	}
}

// SmallStruct.

// phSetSmall sets the strings, then the scalars in one SetScalars.
func phSetSmall(x pbphaser.SmallStruct, v *Small) {
	x.SetName(v.Name)
	x.SetPhone(v.Phone)
	x.SetScalars(&pbphaser.SmallStructScalars{BirthDay: v.BirthDay, Siblings: v.Siblings, Spouse: v.Spouse, Money: v.Money})
}

func phTouchSmall(x pbphaser.SmallStruct, v *Small) { x.SetMoney(v.Money) }

// phRefillSmall refills a built SmallStruct without Clear: every field is
// stored again, as protobuf-go's and vtprotobuf's Build refill a reused
// struct (a string whose block holds the new one is replaced in place).
func phRefillSmall(x pbphaser.SmallStruct, v *Small) { phSetSmall(x, v) }

func phGetSmall(x pbphaser.SmallStruct) any {
	return &Small{Name: x.Name(), BirthDay: x.BirthDay(), Phone: x.Phone(), Siblings: x.Siblings(), Spouse: x.Spouse(), Money: x.Money()}
}

func phAllSmall(x pbphaser.SmallStruct) uint64 {
	v := x.View()
	return useBytes(x.NameBytes()) + uint64(v.BirthDay()) + useBytes(x.PhoneBytes()) +
		uint64(v.Siblings()) + b2u(v.Spouse()) + f64(v.Money())
}

func phOneSmall(x pbphaser.SmallStruct) uint64 { return f64(x.Money()) }

// Header.

func phSetHeader(x pbphaser.Header, v *Header) {
	x.SetSeq(v.Seq)
	x.MutableStamp().SetScalars(&timestamppbphaser.TimestampScalars{Seconds: v.Sec, Nanos: v.Nsec})
	x.SetFrameId(v.FrameID)
}

func phTouchHeader(x pbphaser.Header, v *Header) { x.MutableStamp().SetNanos(v.Nsec) }

// phRefillHeader refills a built Header without Clear (MutableStamp returns
// the stamp already there).
func phRefillHeader(x pbphaser.Header, v *Header) { phSetHeader(x, v) }

func phGetHeader(x pbphaser.Header) any { h := phHeaderValue(x); return &h }

func phHeaderValue(x pbphaser.Header) Header {
	st := x.Stamp()
	return Header{Seq: x.Seq(), Sec: st.Seconds(), Nsec: st.Nanos(), FrameID: x.FrameId()}
}

func phAllHeader(x pbphaser.Header) uint64 {
	st := x.Stamp().View()
	return uint64(x.Seq()) + uint64(st.Seconds()) + uint64(st.Nanos()) + useBytes(x.FrameIdBytes())
}

func phOneHeader(x pbphaser.Header) uint64 { return uint64(x.Stamp().Nanos()) }

// Imu.

func phSetImu(x pbphaser.Imu, v *Imu) {
	phSetHeader(x.MutableHeader(), &v.Header)
	o := &v.Orientation
	x.MutableOrientation().SetScalars(&pbphaser.QuaternionScalars{X: o[0], Y: o[1], Z: o[2], W: o[3]})
	x.OrientationCovariance().Assign(v.OrientationCov[:]...)
	a := &v.AngularVelocity
	x.MutableAngularVelocity().SetScalars(&pbphaser.Vector3Scalars{X: a[0], Y: a[1], Z: a[2]})
	x.AngularVelocityCovariance().Assign(v.AngularVelocityCov[:]...)
	l := &v.LinearAcceleration
	x.MutableLinearAcceleration().SetScalars(&pbphaser.Vector3Scalars{X: l[0], Y: l[1], Z: l[2]})
	x.LinearAccelerationCovariance().Assign(v.LinearAccelerationCov[:]...)
}

// phRefillImu refills a built Imu without Clear: phSetImu stores every
// field again, the covariances with List.Assign, which keeps their storage
// (as pbSetImu appends to s[:0]).
func phRefillImu(x pbphaser.Imu, v *Imu) { phSetImu(x, v) }

func phTouchImu(x pbphaser.Imu, v *Imu) { x.MutableHeader().MutableStamp().SetNanos(v.Header.Nsec) }

func phGetImu(x pbphaser.Imu) any {
	v := &Imu{Header: phHeaderValue(x.Header())}
	o := x.Orientation()
	v.Orientation = [4]float64{o.X(), o.Y(), o.Z(), o.W()}
	a := x.AngularVelocity()
	v.AngularVelocity = [3]float64{a.X(), a.Y(), a.Z()}
	l := x.LinearAcceleration()
	v.LinearAcceleration = [3]float64{l.X(), l.Y(), l.Z()}
	oc, ac, lc := x.OrientationCovariance().AppendTo(nil), x.AngularVelocityCovariance().AppendTo(nil), x.LinearAccelerationCovariance().AppendTo(nil)
	if len(oc) != 9 || len(ac) != 9 || len(lc) != 9 {
		return nil
	}
	copy(v.OrientationCov[:], oc)
	copy(v.AngularVelocityCov[:], ac)
	copy(v.LinearAccelerationCov[:], lc)
	return v
}

func phAllImu(x pbphaser.Imu) uint64 {
	s := phAllHeader(x.Header())
	o := x.Orientation().View()
	s += f64(o.X()) + f64(o.Y()) + f64(o.Z()) + f64(o.W())
	a := x.AngularVelocity().View()
	s += f64(a.X()) + f64(a.Y()) + f64(a.Z())
	l := x.LinearAcceleration().View()
	s += f64(l.X()) + f64(l.Y()) + f64(l.Z())
	// Each repeated double in one AppendTo (one bounds check of the
	// field, not one per element) into a buffer on the stack.
	var buf [16]float64
	s += phSum64(x.OrientationCovariance().AppendTo(buf[:0]))
	s += phSum64(x.AngularVelocityCovariance().AppendTo(buf[:0]))
	return s + phSum64(x.LinearAccelerationCovariance().AppendTo(buf[:0]))
}

func phOneImu(x pbphaser.Imu) uint64 { return f64(x.LinearAcceleration().Z()) }

// phSum64 is the sum of a repeated double's values.
func phSum64(l []float64) uint64 {
	var s uint64
	for _, v := range l {
		s += f64(v)
	}
	return s
}

// Cloud.

func phSetCloud(x pbphaser.Cloud, v *Cloud) {
	phSetHeader(x.MutableHeader(), &v.Header)
	x.SetHeight(v.Height)
	x.SetWidth(v.Width)
	fs := x.Fields()
	for j := range v.Fields {
		phSetPointField(fs.Append(), &v.Fields[j])
	}
	phSetCloudRest(x, v)
	x.Points().Allocate(len(v.Points))
	phSetPoints(x.Points(), v.Points)
}

// phRefillCloud refills a built Cloud without Clear: the repeated messages
// are resized (their elements kept) and every element's fields stored
// again, as pbSetCloud reuses its elements.
func phRefillCloud(x pbphaser.Cloud, v *Cloud) {
	phSetHeader(x.MutableHeader(), &v.Header)
	x.SetHeight(v.Height)
	x.SetWidth(v.Width)
	fs := x.Fields()
	fs.Resize(len(v.Fields))
	for j, e := range fs.All() {
		phSetPointField(e, &v.Fields[j])
	}
	phSetCloudRest(x, v)
	x.Points().Resize(len(v.Points))
	phSetPoints(x.Points(), v.Points)
}

func phSetPointField(e pbphaser.PointField, f *PointField) {
	e.SetName(f.Name)
	e.SetOffset(f.Offset)
	e.SetDatatype(uint32(f.Datatype))
	e.SetCount(f.Count)
}

// phSetCloudRest sets the scalars and the data between the fields and the
// points.
func phSetCloudRest(x pbphaser.Cloud, v *Cloud) {
	x.SetIsBigendian(v.IsBigendian)
	x.SetPointStep(v.PointStep)
	x.SetRowStep(v.RowStep)
	x.SetData(v.Data)
	x.SetIsDense(v.IsDense)
}

// phSetPoints stores vs into the elements of ps, which has len(vs): each
// element's scalars in one SetScalars (one check of the element, stores at
// compile-time offsets), as pbSetCloud stores a reused element's fields.
func phSetPoints(ps pbphaser.PointList, vs []Point) {
	for j, e := range ps.All() {
		p := &vs[j]
		e.SetScalars(&pbphaser.PointScalars{X: p.X, Y: p.Y, Z: p.Z, Intensity: p.Intensity})
	}
}

func phTouchCloud(x pbphaser.Cloud, v *Cloud) {
	x.MutableHeader().MutableStamp().SetNanos(v.Header.Nsec)
}

func phGetCloud(x pbphaser.Cloud) any {
	v := &Cloud{Header: phHeaderValue(x.Header()), Height: x.Height(), Width: x.Width(),
		IsBigendian: x.IsBigendian(), PointStep: x.PointStep(), RowStep: x.RowStep(),
		Data: x.Data(), IsDense: x.IsDense()}
	fs := x.Fields()
	for j := range fs.Len() {
		f := fs.At(j)
		v.Fields = append(v.Fields, PointField{f.Name(), f.Offset(), uint8(f.Datatype()), f.Count()})
	}
	ps := x.Points()
	for j := range ps.Len() {
		p := ps.At(j)
		v.Points = append(v.Points, Point{p.X(), p.Y(), p.Z(), p.Intensity()})
	}
	return v
}

func phAllCloud(x pbphaser.Cloud) uint64 {
	v := x.View()
	s := phAllHeader(x.Header()) + uint64(v.Height()) + uint64(v.Width()) + b2u(v.IsBigendian()) +
		uint64(v.PointStep()) + uint64(v.RowStep()) + useBytes(x.DataBytes()) + b2u(v.IsDense())
	for _, f := range x.Fields().All() {
		fv := f.View()
		s += useBytes(f.NameBytes()) + uint64(fv.Offset()) + uint64(fv.Datatype()) + uint64(fv.Count())
	}
	for _, p := range x.Points().All() {
		p := p.View()
		s += f32(p.X()) + f32(p.Y()) + f32(p.Z()) + f32(p.Intensity())
	}
	return s
}

func phOneCloud(x pbphaser.Cloud) uint64 { return f32(x.Points().At(NPoints / 2).Z()) }

// Image.

func phSetImage(x pbphaser.Image, v *Image) {
	phSetHeader(x.MutableHeader(), &v.Header)
	x.SetHeight(v.Height)
	x.SetWidth(v.Width)
	x.SetEncoding(v.Encoding)
	x.SetIsBigendian(uint32(v.IsBigendian))
	x.SetStep(v.Step)
	x.SetData(v.Data)
}

// phRefillImage refills a built Image without Clear (the data replaced in
// its block when it fits).
func phRefillImage(x pbphaser.Image, v *Image) { phSetImage(x, v) }

func phTouchImage(x pbphaser.Image, v *Image) {
	x.MutableHeader().MutableStamp().SetNanos(v.Header.Nsec)
}

func phGetImage(x pbphaser.Image) any {
	return &Image{Header: phHeaderValue(x.Header()), Height: x.Height(), Width: x.Width(), Encoding: x.Encoding(),
		IsBigendian: uint8(x.IsBigendian()), Step: x.Step(), Data: x.Data()}
}

func phAllImage(x pbphaser.Image) uint64 {
	v := x.View()
	return phAllHeader(x.Header()) + uint64(v.Height()) + uint64(v.Width()) + useBytes(x.EncodingBytes()) +
		uint64(uint8(v.IsBigendian())) + uint64(v.Step()) + useBytes(x.DataBytes())
}

func phOneImage(x pbphaser.Image) uint64 { return useMid(x.DataBytes()) }

// phaserROSDecoder returns a Codec.Decode of ROS1 bytes through phaser's
// ROS1 decoder: for the checks of goroslib's bytes where goroslib cannot
// decode them.
func phaserROSDecoder[T interface {
	phaserMsg
	UnmarshalROS([]byte) error
}](shape string, newIn func([]byte, ...runtime.Options) (T, error), get func(T) any) func([]byte) (any, error) {
	return func(data []byte) (any, error) {
		x := phaserNew(shape, newIn, nil)
		if err := x.UnmarshalROS(data); err != nil {
			return nil, err
		}
		if x.Failed() {
			return nil, errorf("phaser: buffer full")
		}
		return get(x), nil
	}
}
