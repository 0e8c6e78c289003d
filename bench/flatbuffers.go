package bench

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/phaser-go/phaser/bench/gen/fb"
)

// FlatBuffers (flatc 2.0.8 output, v25.12.19 Go runtime): build with a
// reused Builder (Reset), publish FinishedBytes; readers Init a table on
// the stack (no allocation) and read in place. Republish mutates the
// changed scalar in place (flatc's MutateX), which works for a field that
// is present in the bytes, as every republished field here is.
//
// The Go runtime has no verifier: a read trusts the bytes, and hostile
// bytes make it panic (an index out of range). The flatbuffers-safe codecs
// (ops.go) are the same reads under a deferred recover, so that hostile
// bytes read as 0 instead of crashing the reader: the cheapest way to give
// a flatbuffers-go reader the safety phaser's reads have (every offset is
// bounded by the received length). TestFlatbuffersSafe checks both.
//
// The codecs are in ops.go; this file holds the field code of the shapes.

func fbRoot(data []byte) flatbuffers.UOffsetT {
	if len(data) < 4 {
		return 0
	}
	return flatbuffers.GetUOffsetT(data)
}

// fbDecoder returns Codec.Decode.
func fbDecoder(get func([]byte) any) func([]byte) (any, error) {
	return func(data []byte) (any, error) { return get(data), nil }
}

// fbPublished builds v into bytes of their own, for Republish.
func fbPublished[V any](v *V, build func(*flatbuffers.Builder, *V) flatbuffers.UOffsetT) []byte {
	b := flatbuffers.NewBuilder(1024)
	b.Finish(build(b, v))
	return b.FinishedBytes()
}

// fbMutated panics when a flatbuffers in-place mutation found no field to
// change (an absent scalar cannot be mutated).
func fbMutated(ok bool) {
	if !ok {
		panic("flatbuffers: the republished field is absent from the bytes")
	}
}

func fbHeader(b *flatbuffers.Builder, v *Header) flatbuffers.UOffsetT {
	frame := b.CreateString(v.FrameID)
	fb.HeaderStart(b)
	fb.HeaderAddSeq(b, v.Seq)
	fb.HeaderAddStamp(b, fb.CreateTime(b, v.Sec, v.Nsec))
	fb.HeaderAddFrameId(b, frame)
	return fb.HeaderEnd(b)
}

func fbHeaderValue(x *fb.Header) Header {
	var t fb.Time
	st := x.Stamp(&t)
	h := Header{Seq: x.Seq(), FrameID: string(x.FrameId())}
	if st != nil {
		h.Sec, h.Nsec = st.Sec(), st.Nsec()
	}
	return h
}

func fbUseHeader(x *fb.Header) uint64 {
	var t fb.Time
	s := uint64(x.Seq()) + useBytes(x.FrameId())
	if st := x.Stamp(&t); st != nil {
		s += uint64(st.Sec()) + uint64(st.Nsec())
	}
	return s
}

// fbTouchStamp sets the stamp's nsec of header x in place.
func fbTouchStamp(x *fb.Header, nsec int32) bool {
	var t fb.Time
	st := x.Stamp(&t)
	return st != nil && st.MutateNsec(nsec)
}

func fbFloats(b *flatbuffers.Builder, a []float64) flatbuffers.UOffsetT {
	b.StartVector(8, len(a), 8)
	for i := len(a) - 1; i >= 0; i-- {
		b.PrependFloat64(a[i])
	}
	return b.EndVector(len(a))
}

// SmallStruct.

func fbBuildSmall(b *flatbuffers.Builder, v *Small) flatbuffers.UOffsetT {
	name, phone := b.CreateString(v.Name), b.CreateString(v.Phone)
	fb.SmallStructStart(b)
	fb.SmallStructAddName(b, name)
	fb.SmallStructAddBirthDay(b, v.BirthDay)
	fb.SmallStructAddPhone(b, phone)
	fb.SmallStructAddSiblings(b, v.Siblings)
	fb.SmallStructAddSpouse(b, v.Spouse)
	fb.SmallStructAddMoney(b, v.Money)
	return fb.SmallStructEnd(b)
}

func fbTouchSmall(data []byte, v *Small) bool {
	var x fb.SmallStruct
	x.Init(data, fbRoot(data))
	return x.MutateMoney(v.Money)
}

func fbGetSmall(data []byte) any {
	var x fb.SmallStruct
	x.Init(data, fbRoot(data))
	return &Small{string(x.Name()), x.BirthDay(), string(x.Phone()), x.Siblings(), x.Spouse(), x.Money()}
}

func fbAllSmall(data []byte) uint64 {
	var x fb.SmallStruct
	x.Init(data, fbRoot(data))
	return useBytes(x.Name()) + uint64(x.BirthDay()) + useBytes(x.Phone()) + uint64(x.Siblings()) + b2u(x.Spouse()) + f64(x.Money())
}

func fbOneSmall(data []byte) uint64 {
	var x fb.SmallStruct
	x.Init(data, fbRoot(data))
	return f64(x.Money())
}

// Header.

func fbBuildHeader(b *flatbuffers.Builder, v *Header) flatbuffers.UOffsetT { return fbHeader(b, v) }

func fbTouchHeader(data []byte, v *Header) bool {
	var x fb.Header
	x.Init(data, fbRoot(data))
	return fbTouchStamp(&x, v.Nsec)
}

func fbGetHeader(data []byte) any {
	var x fb.Header
	x.Init(data, fbRoot(data))
	h := fbHeaderValue(&x)
	return &h
}

func fbAllHeader(data []byte) uint64 {
	var x fb.Header
	x.Init(data, fbRoot(data))
	return fbUseHeader(&x)
}

func fbOneHeader(data []byte) uint64 {
	var x fb.Header
	var t fb.Time
	x.Init(data, fbRoot(data))
	if st := x.Stamp(&t); st != nil {
		return uint64(st.Nsec())
	}
	return 0
}

// Imu.

func fbBuildImu(b *flatbuffers.Builder, v *Imu) flatbuffers.UOffsetT {
	h := fbHeader(b, &v.Header)
	oc := fbFloats(b, v.OrientationCov[:])
	ac := fbFloats(b, v.AngularVelocityCov[:])
	lc := fbFloats(b, v.LinearAccelerationCov[:])
	fb.ImuStart(b)
	fb.ImuAddHeader(b, h)
	fb.ImuAddOrientation(b, fb.CreateQuaternion(b, v.Orientation[0], v.Orientation[1], v.Orientation[2], v.Orientation[3]))
	fb.ImuAddOrientationCovariance(b, oc)
	fb.ImuAddAngularVelocity(b, fb.CreateVector3(b, v.AngularVelocity[0], v.AngularVelocity[1], v.AngularVelocity[2]))
	fb.ImuAddAngularVelocityCovariance(b, ac)
	fb.ImuAddLinearAcceleration(b, fb.CreateVector3(b, v.LinearAcceleration[0], v.LinearAcceleration[1], v.LinearAcceleration[2]))
	fb.ImuAddLinearAccelerationCovariance(b, lc)
	return fb.ImuEnd(b)
}

func fbTouchImu(data []byte, v *Imu) bool {
	var x fb.Imu
	var h fb.Header
	x.Init(data, fbRoot(data))
	return x.Header(&h) != nil && fbTouchStamp(&h, v.Header.Nsec)
}

func fbGetImu(data []byte) any {
	var x fb.Imu
	var h fb.Header
	var q fb.Quaternion
	var a, l fb.Vector3
	x.Init(data, fbRoot(data))
	v := &Imu{}
	if x.Header(&h) != nil {
		v.Header = fbHeaderValue(&h)
	}
	if x.Orientation(&q) != nil {
		v.Orientation = [4]float64{q.X(), q.Y(), q.Z(), q.W()}
	}
	if x.AngularVelocity(&a) != nil {
		v.AngularVelocity = [3]float64{a.X(), a.Y(), a.Z()}
	}
	if x.LinearAcceleration(&l) != nil {
		v.LinearAcceleration = [3]float64{l.X(), l.Y(), l.Z()}
	}
	if x.OrientationCovarianceLength() != 9 || x.AngularVelocityCovarianceLength() != 9 || x.LinearAccelerationCovarianceLength() != 9 {
		return nil
	}
	for j := range 9 {
		v.OrientationCov[j] = x.OrientationCovariance(j)
		v.AngularVelocityCov[j] = x.AngularVelocityCovariance(j)
		v.LinearAccelerationCov[j] = x.LinearAccelerationCovariance(j)
	}
	return v
}

func fbAllImu(data []byte) uint64 {
	var x fb.Imu
	var h fb.Header
	var q fb.Quaternion
	var a, l fb.Vector3
	x.Init(data, fbRoot(data))
	var s uint64
	if x.Header(&h) != nil {
		s += fbUseHeader(&h)
	}
	if x.Orientation(&q) != nil {
		s += f64(q.X()) + f64(q.Y()) + f64(q.Z()) + f64(q.W())
	}
	if x.AngularVelocity(&a) != nil {
		s += f64(a.X()) + f64(a.Y()) + f64(a.Z())
	}
	if x.LinearAcceleration(&l) != nil {
		s += f64(l.X()) + f64(l.Y()) + f64(l.Z())
	}
	for j := range x.OrientationCovarianceLength() {
		s += f64(x.OrientationCovariance(j))
	}
	for j := range x.AngularVelocityCovarianceLength() {
		s += f64(x.AngularVelocityCovariance(j))
	}
	for j := range x.LinearAccelerationCovarianceLength() {
		s += f64(x.LinearAccelerationCovariance(j))
	}
	return s
}

func fbOneImu(data []byte) uint64 {
	var x fb.Imu
	var l fb.Vector3
	x.Init(data, fbRoot(data))
	if x.LinearAcceleration(&l) != nil {
		return f64(l.Z())
	}
	return 0
}

// Cloud.

func fbBuildCloud(b *flatbuffers.Builder, v *Cloud) flatbuffers.UOffsetT {
	h := fbHeader(b, &v.Header)
	var fields [8]flatbuffers.UOffsetT
	for j, f := range v.Fields {
		name := b.CreateString(f.Name)
		fb.PointFieldStart(b)
		fb.PointFieldAddName(b, name)
		fb.PointFieldAddOffset(b, f.Offset)
		fb.PointFieldAddDatatype(b, f.Datatype)
		fb.PointFieldAddCount(b, f.Count)
		fields[j] = fb.PointFieldEnd(b)
	}
	fb.CloudStartFieldsVector(b, len(v.Fields))
	for j := len(v.Fields) - 1; j >= 0; j-- {
		b.PrependUOffsetT(fields[j])
	}
	fs := b.EndVector(len(v.Fields))
	data := b.CreateByteVector(v.Data)
	fb.CloudStartPointsVector(b, len(v.Points))
	for j := len(v.Points) - 1; j >= 0; j-- {
		p := &v.Points[j]
		fb.CreatePoint(b, p.X, p.Y, p.Z, p.Intensity)
	}
	ps := b.EndVector(len(v.Points))
	fb.CloudStart(b)
	fb.CloudAddHeader(b, h)
	fb.CloudAddHeight(b, v.Height)
	fb.CloudAddWidth(b, v.Width)
	fb.CloudAddFields(b, fs)
	fb.CloudAddIsBigendian(b, v.IsBigendian)
	fb.CloudAddPointStep(b, v.PointStep)
	fb.CloudAddRowStep(b, v.RowStep)
	fb.CloudAddData(b, data)
	fb.CloudAddIsDense(b, v.IsDense)
	fb.CloudAddPoints(b, ps)
	return fb.CloudEnd(b)
}

func fbTouchCloud(data []byte, v *Cloud) bool {
	var x fb.Cloud
	var h fb.Header
	x.Init(data, fbRoot(data))
	return x.Header(&h) != nil && fbTouchStamp(&h, v.Header.Nsec)
}

func fbGetCloud(data []byte) any {
	var x fb.Cloud
	var h fb.Header
	x.Init(data, fbRoot(data))
	v := &Cloud{Height: x.Height(), Width: x.Width(), IsBigendian: x.IsBigendian(), PointStep: x.PointStep(),
		RowStep: x.RowStep(), Data: append([]byte(nil), x.DataBytes()...), IsDense: x.IsDense()}
	if x.Header(&h) != nil {
		v.Header = fbHeaderValue(&h)
	}
	var f fb.PointField
	for j := range x.FieldsLength() {
		x.Fields(&f, j)
		v.Fields = append(v.Fields, PointField{string(f.Name()), f.Offset(), f.Datatype(), f.Count()})
	}
	var p fb.Point
	for j := range x.PointsLength() {
		x.Points(&p, j)
		v.Points = append(v.Points, Point{p.X(), p.Y(), p.Z(), p.Intensity()})
	}
	return v
}

func fbAllCloud(data []byte) uint64 {
	var x fb.Cloud
	var h fb.Header
	x.Init(data, fbRoot(data))
	s := uint64(x.Height()) + uint64(x.Width()) + b2u(x.IsBigendian()) + uint64(x.PointStep()) +
		uint64(x.RowStep()) + useBytes(x.DataBytes()) + b2u(x.IsDense())
	if x.Header(&h) != nil {
		s += fbUseHeader(&h)
	}
	var f fb.PointField
	for j := range x.FieldsLength() {
		x.Fields(&f, j)
		s += useBytes(f.Name()) + uint64(f.Offset()) + uint64(f.Datatype()) + uint64(f.Count())
	}
	var p fb.Point
	for j := range x.PointsLength() {
		x.Points(&p, j)
		s += f32(p.X()) + f32(p.Y()) + f32(p.Z()) + f32(p.Intensity())
	}
	return s
}

func fbOneCloud(data []byte) uint64 {
	var x fb.Cloud
	var p fb.Point
	x.Init(data, fbRoot(data))
	if x.Points(&p, NPoints/2) {
		return f32(p.Z())
	}
	return 0
}

// Image.

func fbBuildImage(b *flatbuffers.Builder, v *Image) flatbuffers.UOffsetT {
	h := fbHeader(b, &v.Header)
	enc := b.CreateString(v.Encoding)
	data := b.CreateByteVector(v.Data)
	fb.ImageStart(b)
	fb.ImageAddHeader(b, h)
	fb.ImageAddHeight(b, v.Height)
	fb.ImageAddWidth(b, v.Width)
	fb.ImageAddEncoding(b, enc)
	fb.ImageAddIsBigendian(b, v.IsBigendian)
	fb.ImageAddStep(b, v.Step)
	fb.ImageAddData(b, data)
	return fb.ImageEnd(b)
}

func fbTouchImage(data []byte, v *Image) bool {
	var x fb.Image
	var h fb.Header
	x.Init(data, fbRoot(data))
	return x.Header(&h) != nil && fbTouchStamp(&h, v.Header.Nsec)
}

func fbGetImage(data []byte) any {
	var x fb.Image
	var h fb.Header
	x.Init(data, fbRoot(data))
	v := &Image{Height: x.Height(), Width: x.Width(), Encoding: string(x.Encoding()), IsBigendian: x.IsBigendian(),
		Step: x.Step(), Data: append([]byte(nil), x.DataBytes()...)}
	if x.Header(&h) != nil {
		v.Header = fbHeaderValue(&h)
	}
	return v
}

func fbAllImage(data []byte) uint64 {
	var x fb.Image
	var h fb.Header
	x.Init(data, fbRoot(data))
	s := uint64(x.Height()) + uint64(x.Width()) + useBytes(x.Encoding()) + uint64(x.IsBigendian()) +
		uint64(x.Step()) + useBytes(x.DataBytes())
	if x.Header(&h) != nil {
		s += fbUseHeader(&h)
	}
	return s
}

func fbOneImage(data []byte) uint64 {
	var x fb.Image
	x.Init(data, fbRoot(data))
	return useMid(x.DataBytes())
}
