package bench

import (
	"encoding/binary"
	"math"

	capnp "capnproto.org/go/capnp/v3"

	"github.com/phaser-go/phaser/bench/gen/capnpb"
)

// Cap'n Proto (capnpc-go v3.1.0-alpha.2, Debian capnp 0.9.2): build in a
// reused, zeroed single-segment buffer with 8 bytes kept in front for the
// stream frame, so the published bytes are the buffer itself (no
// Marshal copy); readers reuse one Message over a read-only arena on the
// received bytes (no allocation) and read in place.

// capnpWriter is a reusable single-segment builder.
type capnpWriter struct {
	buf  []byte // frame header (8 bytes), then the segment
	used int
	msg  capnp.Message
}

func (w *capnpWriter) begin() *capnp.Segment {
	clear(w.buf[8 : 8+w.used]) // capnp allocates from zeroed memory
	seg, err := w.msg.Reset(capnp.SingleSegment(w.buf[8:8]))
	must(err)
	return seg
}

func (w *capnpWriter) finish(seg *capnp.Segment) []byte {
	n := len(seg.Data())
	if n > len(w.buf)-8 || &seg.Data()[0] != &w.buf[8] {
		panic("capnp: message outgrew its buffer")
	}
	w.used = n
	binary.LittleEndian.PutUint32(w.buf[0:], 0) // one segment
	binary.LittleEndian.PutUint32(w.buf[4:], uint32(n/8))
	return w.buf[:8+n]
}

// capnpReader opens received bytes without allocating.
type capnpReader struct {
	ro  *capnp.ReadOnlySingleSegment
	msg capnp.Message
}

func (r *capnpReader) open(data []byte) (*capnp.Message, error) {
	if len(data) < 8 || binary.LittleEndian.Uint32(data) != 0 {
		return capnp.Unmarshal(data) // several segments: the general path
	}
	n := uint64(binary.LittleEndian.Uint32(data[4:])) * 8
	if n > uint64(len(data)-8) {
		return nil, errorf("capnp: segment of %d bytes beyond %d", n, len(data))
	}
	if r.ro == nil {
		r.ro = capnp.NewReadOnlySingleSegment(nil)
	}
	if _, err := r.msg.Reset(nil); err != nil { // releases r.ro
		return nil, err
	}
	r.ro.ReplaceData(data[8 : 8+n])
	if _, err := r.msg.Reset(r.ro); err != nil {
		return nil, err
	}
	return &r.msg, nil
}

// capnpRead opens data with r and returns its root (read with readRoot).
func capnpRead[T any](r *capnpReader, data []byte, readRoot func(*capnp.Message) (T, error)) (T, error) {
	msg, err := r.open(data)
	if err != nil {
		var zero T
		return zero, err
	}
	return readRoot(msg)
}

// capnpDecoder returns Codec.Decode: a fresh reader, then get.
func capnpDecoder[T any](readRoot func(*capnp.Message) (T, error), get func(T) (any, error)) func([]byte) (any, error) {
	return func(data []byte) (any, error) {
		x, err := capnpRead(&capnpReader{}, data, readRoot)
		if err != nil {
			return nil, err
		}
		return get(x)
	}
}

// capnpPublished builds v in a writer of its own, for Republish: the
// root to change and the bytes it publishes.
func capnpPublished[T any, V any](shape string, v *V, newRoot func(*capnp.Segment) (T, error), set func(T, *V) error) (T, []byte) {
	w := &capnpWriter{buf: make([]byte, 8+memSize(shape))}
	seg := w.begin()
	root, err := newRoot(seg)
	must(err)
	must(set(root, v))
	// Republish reads the pointers down to the field it changes, and capnp
	// charges every read to the message's read limit (64 MiB), meant for
	// received messages: a publisher's own message, changed millions of
	// times, would run out of it ("read traversal limit reached").
	seg.Message().ResetReadLimit(math.MaxUint64)
	return root, w.finish(seg)
}

func capnpSetHeader(x capnpb.Header, v *Header) error {
	x.SetSeq(v.Seq)
	st, err := x.NewStamp()
	if err != nil {
		return err
	}
	st.SetSec(v.Sec)
	st.SetNsec(v.Nsec)
	return x.SetFrameId(v.FrameID)
}

func capnpGetHeader(x capnpb.Header) (Header, error) {
	st, err := x.Stamp()
	if err != nil {
		return Header{}, err
	}
	frame, err := x.FrameId()
	return Header{Seq: x.Seq(), Sec: st.Sec(), Nsec: st.Nsec(), FrameID: frame}, err
}

func capnpUseHeader(x capnpb.Header) uint64 {
	st, _ := x.Stamp()
	frame, _ := x.FrameIdBytes()
	return uint64(x.Seq()) + uint64(st.Sec()) + uint64(st.Nsec()) + useBytes(frame)
}

func capnpFloats(l capnp.Float64List, err error, v []float64) error {
	if err != nil {
		return err
	}
	for i, f := range v {
		l.Set(i, f)
	}
	return nil
}

func capnpSum(l capnp.Float64List, _ error) uint64 {
	var s uint64
	for i := range l.Len() {
		s += f64(l.At(i))
	}
	return s
}

func capnpGetFloats(dst []float64, l capnp.Float64List, err error) error {
	if err != nil {
		return err
	}
	if l.Len() != len(dst) {
		return errorf("capnp: %d floats, want %d", l.Len(), len(dst))
	}
	for i := range dst {
		dst[i] = l.At(i)
	}
	return nil
}

// capnpTouchStamp sets the stamp's nsec of header h in place.
func capnpTouchStamp(h capnpb.Header, err error, nsec int32) {
	must(err)
	st, err := h.Stamp()
	must(err)
	st.SetNsec(nsec)
}

// SmallStruct.

func capSetSmall(x capnpb.SmallStruct, v *Small) error {
	if err := x.SetName(v.Name); err != nil {
		return err
	}
	x.SetBirthDay(v.BirthDay)
	if err := x.SetPhone(v.Phone); err != nil {
		return err
	}
	x.SetSiblings(v.Siblings)
	x.SetSpouse(v.Spouse)
	x.SetMoney(v.Money)
	return nil
}

func capTouchSmall(x capnpb.SmallStruct, v *Small) { x.SetMoney(v.Money) }

func capGetSmall(x capnpb.SmallStruct) (any, error) {
	name, err := x.Name()
	if err != nil {
		return nil, err
	}
	phone, err := x.Phone()
	return &Small{name, x.BirthDay(), phone, x.Siblings(), x.Spouse(), x.Money()}, err
}

func capAllSmall(x capnpb.SmallStruct) uint64 {
	name, _ := x.NameBytes()
	phone, _ := x.PhoneBytes()
	return useBytes(name) + uint64(x.BirthDay()) + useBytes(phone) + uint64(x.Siblings()) + b2u(x.Spouse()) + f64(x.Money())
}

func capOneSmall(x capnpb.SmallStruct) uint64 { return f64(x.Money()) }

// Header.

func capSetHeader(x capnpb.Header, v *Header) error { return capnpSetHeader(x, v) }

func capTouchHeader(x capnpb.Header, v *Header) { capnpTouchStamp(x, nil, v.Nsec) }

func capGetHeader(x capnpb.Header) (any, error) { h, err := capnpGetHeader(x); return &h, err }

func capAllHeader(x capnpb.Header) uint64 { return capnpUseHeader(x) }

func capOneHeader(x capnpb.Header) uint64 { st, _ := x.Stamp(); return uint64(st.Nsec()) }

// Imu.

func capSetImu(x capnpb.Imu, v *Imu) error {
	h, err := x.NewHeader()
	if err != nil {
		return err
	}
	if err := capnpSetHeader(h, &v.Header); err != nil {
		return err
	}
	o, err := x.NewOrientation()
	if err != nil {
		return err
	}
	o.SetX(v.Orientation[0])
	o.SetY(v.Orientation[1])
	o.SetZ(v.Orientation[2])
	o.SetW(v.Orientation[3])
	if l, err := x.NewOrientationCovariance(9); capnpFloats(l, err, v.OrientationCov[:]) != nil {
		return err
	}
	a, err := x.NewAngularVelocity()
	if err != nil {
		return err
	}
	a.SetX(v.AngularVelocity[0])
	a.SetY(v.AngularVelocity[1])
	a.SetZ(v.AngularVelocity[2])
	if l, err := x.NewAngularVelocityCovariance(9); capnpFloats(l, err, v.AngularVelocityCov[:]) != nil {
		return err
	}
	la, err := x.NewLinearAcceleration()
	if err != nil {
		return err
	}
	la.SetX(v.LinearAcceleration[0])
	la.SetY(v.LinearAcceleration[1])
	la.SetZ(v.LinearAcceleration[2])
	if l, err := x.NewLinearAccelerationCovariance(9); capnpFloats(l, err, v.LinearAccelerationCov[:]) != nil {
		return err
	}
	return nil
}

func capTouchImu(x capnpb.Imu, v *Imu) { h, err := x.Header(); capnpTouchStamp(h, err, v.Header.Nsec) }

func capGetImu(x capnpb.Imu) (any, error) {
	h, err := x.Header()
	if err != nil {
		return nil, err
	}
	v := &Imu{}
	if v.Header, err = capnpGetHeader(h); err != nil {
		return nil, err
	}
	o, err := x.Orientation()
	if err != nil {
		return nil, err
	}
	v.Orientation = [4]float64{o.X(), o.Y(), o.Z(), o.W()}
	a, err := x.AngularVelocity()
	if err != nil {
		return nil, err
	}
	v.AngularVelocity = [3]float64{a.X(), a.Y(), a.Z()}
	l, err := x.LinearAcceleration()
	if err != nil {
		return nil, err
	}
	v.LinearAcceleration = [3]float64{l.X(), l.Y(), l.Z()}
	oc, err := x.OrientationCovariance()
	if err := capnpGetFloats(v.OrientationCov[:], oc, err); err != nil {
		return nil, err
	}
	ac, err := x.AngularVelocityCovariance()
	if err := capnpGetFloats(v.AngularVelocityCov[:], ac, err); err != nil {
		return nil, err
	}
	lc, err := x.LinearAccelerationCovariance()
	if err := capnpGetFloats(v.LinearAccelerationCov[:], lc, err); err != nil {
		return nil, err
	}
	return v, nil
}

func capAllImu(x capnpb.Imu) uint64 {
	h, _ := x.Header()
	s := capnpUseHeader(h)
	o, _ := x.Orientation()
	s += f64(o.X()) + f64(o.Y()) + f64(o.Z()) + f64(o.W())
	a, _ := x.AngularVelocity()
	s += f64(a.X()) + f64(a.Y()) + f64(a.Z())
	l, _ := x.LinearAcceleration()
	s += f64(l.X()) + f64(l.Y()) + f64(l.Z())
	return s + capnpSum(x.OrientationCovariance()) + capnpSum(x.AngularVelocityCovariance()) + capnpSum(x.LinearAccelerationCovariance())
}

func capOneImu(x capnpb.Imu) uint64 { l, _ := x.LinearAcceleration(); return f64(l.Z()) }

// Cloud.

func capSetCloud(x capnpb.Cloud, v *Cloud) error {
	h, err := x.NewHeader()
	if err != nil {
		return err
	}
	if err := capnpSetHeader(h, &v.Header); err != nil {
		return err
	}
	x.SetHeight(v.Height)
	x.SetWidth(v.Width)
	fs, err := x.NewFields(int32(len(v.Fields)))
	if err != nil {
		return err
	}
	for j, f := range v.Fields {
		e := fs.At(j)
		if err := e.SetName(f.Name); err != nil {
			return err
		}
		e.SetOffset(f.Offset)
		e.SetDatatype(f.Datatype)
		e.SetCount(f.Count)
	}
	x.SetIsBigendian(v.IsBigendian)
	x.SetPointStep(v.PointStep)
	x.SetRowStep(v.RowStep)
	if err := x.SetData(v.Data); err != nil {
		return err
	}
	x.SetIsDense(v.IsDense)
	ps, err := x.NewPoints(int32(len(v.Points)))
	if err != nil {
		return err
	}
	for j := range v.Points {
		p, e := &v.Points[j], ps.At(j)
		e.SetX(p.X)
		e.SetY(p.Y)
		e.SetZ(p.Z)
		e.SetIntensity(p.Intensity)
	}
	return nil
}

func capTouchCloud(x capnpb.Cloud, v *Cloud) {
	h, err := x.Header()
	capnpTouchStamp(h, err, v.Header.Nsec)
}

func capGetCloud(x capnpb.Cloud) (any, error) {
	h, err := x.Header()
	if err != nil {
		return nil, err
	}
	hv, err := capnpGetHeader(h)
	if err != nil {
		return nil, err
	}
	data, err := x.Data()
	if err != nil {
		return nil, err
	}
	v := &Cloud{Header: hv, Height: x.Height(), Width: x.Width(), IsBigendian: x.IsBigendian(),
		PointStep: x.PointStep(), RowStep: x.RowStep(), Data: append([]byte(nil), data...), IsDense: x.IsDense()}
	fs, err := x.Fields()
	if err != nil {
		return nil, err
	}
	for j := range fs.Len() {
		f := fs.At(j)
		name, err := f.Name()
		if err != nil {
			return nil, err
		}
		v.Fields = append(v.Fields, PointField{name, f.Offset(), f.Datatype(), f.Count()})
	}
	ps, err := x.Points()
	if err != nil {
		return nil, err
	}
	for j := range ps.Len() {
		p := ps.At(j)
		v.Points = append(v.Points, Point{p.X(), p.Y(), p.Z(), p.Intensity()})
	}
	return v, nil
}

func capAllCloud(x capnpb.Cloud) uint64 {
	h, _ := x.Header()
	data, _ := x.Data()
	s := capnpUseHeader(h) + uint64(x.Height()) + uint64(x.Width()) + b2u(x.IsBigendian()) +
		uint64(x.PointStep()) + uint64(x.RowStep()) + useBytes(data) + b2u(x.IsDense())
	fs, _ := x.Fields()
	for j := range fs.Len() {
		f := fs.At(j)
		name, _ := f.NameBytes()
		s += useBytes(name) + uint64(f.Offset()) + uint64(f.Datatype()) + uint64(f.Count())
	}
	ps, _ := x.Points()
	for j := range ps.Len() {
		p := ps.At(j)
		s += f32(p.X()) + f32(p.Y()) + f32(p.Z()) + f32(p.Intensity())
	}
	return s
}

func capOneCloud(x capnpb.Cloud) uint64 {
	ps, _ := x.Points()
	if ps.Len() <= NPoints/2 {
		return 0
	}
	return f32(ps.At(NPoints / 2).Z())
}

// Image.

func capSetImage(x capnpb.Image, v *Image) error {
	h, err := x.NewHeader()
	if err != nil {
		return err
	}
	if err := capnpSetHeader(h, &v.Header); err != nil {
		return err
	}
	x.SetHeight(v.Height)
	x.SetWidth(v.Width)
	if err := x.SetEncoding(v.Encoding); err != nil {
		return err
	}
	x.SetIsBigendian(v.IsBigendian)
	x.SetStep(v.Step)
	return x.SetData(v.Data)
}

func capTouchImage(x capnpb.Image, v *Image) {
	h, err := x.Header()
	capnpTouchStamp(h, err, v.Header.Nsec)
}

func capGetImage(x capnpb.Image) (any, error) {
	h, err := x.Header()
	if err != nil {
		return nil, err
	}
	hv, err := capnpGetHeader(h)
	if err != nil {
		return nil, err
	}
	enc, err := x.Encoding()
	if err != nil {
		return nil, err
	}
	data, err := x.Data()
	if err != nil {
		return nil, err
	}
	return &Image{Header: hv, Height: x.Height(), Width: x.Width(), Encoding: enc, IsBigendian: x.IsBigendian(),
		Step: x.Step(), Data: append([]byte(nil), data...)}, nil
}

func capAllImage(x capnpb.Image) uint64 {
	h, _ := x.Header()
	enc, _ := x.EncodingBytes()
	data, _ := x.Data()
	return capnpUseHeader(h) + uint64(x.Height()) + uint64(x.Width()) + useBytes(enc) +
		uint64(x.IsBigendian()) + uint64(x.Step()) + useBytes(data)
}

func capOneImage(x capnpb.Image) uint64 { data, _ := x.Data(); return useMid(data) }
