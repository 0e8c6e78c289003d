package bench

import "github.com/phaser-go/phaser/bench/gen/pb/pbphaserros"

// phaser-ros: phaser-go's handles generated with frontend=ros, whose Phaser
// 3 layout stores singular messages (the Header, its stamp, the Imu's
// vectors) inside their holder. Only header and imu are measured: they are
// the shapes whose cost the inline messages change most.

func phrSetHeader(x pbphaserros.Header, v *Header) {
	x.SetSeq(v.Seq)
	st := x.MutableStamp()
	st.SetSeconds(v.Sec)
	st.SetNanos(v.Nsec)
	x.SetFrameId(v.FrameID)
}

func phrTouchHeader(x pbphaserros.Header, v *Header) { x.MutableStamp().SetNanos(v.Nsec) }

func phrGetHeader(x pbphaserros.Header) any { h := phrHeaderValue(x); return &h }

func phrHeaderValue(x pbphaserros.Header) Header {
	st := x.Stamp()
	return Header{Seq: x.Seq(), Sec: st.Seconds(), Nsec: st.Nanos(), FrameID: x.FrameId()}
}

func phrAllHeader(x pbphaserros.Header) uint64 {
	st := x.Stamp().View()
	return uint64(x.Seq()) + uint64(st.Seconds()) + uint64(st.Nanos()) + useBytes(x.FrameIdBytes())
}

func phrOneHeader(x pbphaserros.Header) uint64 { return uint64(x.Stamp().Nanos()) }

func phrSetImu(x pbphaserros.Imu, v *Imu) {
	phrSetHeader(x.MutableHeader(), &v.Header)
	o := x.MutableOrientation()
	o.SetX(v.Orientation[0])
	o.SetY(v.Orientation[1])
	o.SetZ(v.Orientation[2])
	o.SetW(v.Orientation[3])
	x.OrientationCovariance().Assign(v.OrientationCov[:]...)
	a := x.MutableAngularVelocity()
	a.SetX(v.AngularVelocity[0])
	a.SetY(v.AngularVelocity[1])
	a.SetZ(v.AngularVelocity[2])
	x.AngularVelocityCovariance().Assign(v.AngularVelocityCov[:]...)
	l := x.MutableLinearAcceleration()
	l.SetX(v.LinearAcceleration[0])
	l.SetY(v.LinearAcceleration[1])
	l.SetZ(v.LinearAcceleration[2])
	x.LinearAccelerationCovariance().Assign(v.LinearAccelerationCov[:]...)
}

func phrTouchImu(x pbphaserros.Imu, v *Imu) { x.MutableHeader().MutableStamp().SetNanos(v.Header.Nsec) }

func phrGetImu(x pbphaserros.Imu) any {
	v := &Imu{Header: phrHeaderValue(x.Header())}
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

func phrAllImu(x pbphaserros.Imu) uint64 {
	s := phrAllHeader(x.Header())
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

func phrOneImu(x pbphaserros.Imu) uint64 { return f64(x.LinearAcceleration().Z()) }
