package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaserros"
	"github.com/phaser-go/phaser/runtime"
)

// phaser-ros: phaser-go's handles generated with frontend=ros, whose Phaser
// 3 layout stores singular messages (the Header, its stamp, the Imu's
// vectors) inside their holder. Only the shapes with singular messages are
// measured: the others have the protobuf frontend's layout.

func init() {
	register("phaser-ros", "header", phaserCodec("header", pbphaserros.NewHeaderIn, pbphaserros.ReadHeader, pbphaserros.ReadHeaderInto,
		func(x pbphaserros.Header, i int) { rosfeSetHeader(x, &Values.Header[i%NSmall]) },
		func(x pbphaserros.Header) any { h := rosfeGetHeader(x); return &h },
		rosfeUseHeader,
		func(x pbphaserros.Header) uint64 { return uint64(x.Stamp().Nanos()) },
	))
	register("phaser-ros", "imu", phaserCodec("imu", pbphaserros.NewImuIn, pbphaserros.ReadImu, pbphaserros.ReadImuInto,
		func(x pbphaserros.Imu, i int) {
			v := &Values.Imu[i%NSmall]
			rosfeSetHeader(x.MutableHeader(), &v.Header)
			o := x.MutableOrientation()
			o.SetX(v.Orientation[0])
			o.SetY(v.Orientation[1])
			o.SetZ(v.Orientation[2])
			o.SetW(v.Orientation[3])
			x.OrientationCovariance().Insert(0, v.OrientationCov[:]...)
			a := x.MutableAngularVelocity()
			a.SetX(v.AngularVelocity[0])
			a.SetY(v.AngularVelocity[1])
			a.SetZ(v.AngularVelocity[2])
			x.AngularVelocityCovariance().Insert(0, v.AngularVelocityCov[:]...)
			l := x.MutableLinearAcceleration()
			l.SetX(v.LinearAcceleration[0])
			l.SetY(v.LinearAcceleration[1])
			l.SetZ(v.LinearAcceleration[2])
			x.LinearAccelerationCovariance().Insert(0, v.LinearAccelerationCov[:]...)
		},
		func(x pbphaserros.Imu) any {
			v := &Imu{Header: rosfeGetHeader(x.Header())}
			o := x.Orientation()
			v.Orientation = [4]float64{o.X(), o.Y(), o.Z(), o.W()}
			a := x.AngularVelocity()
			v.AngularVelocity = [3]float64{a.X(), a.Y(), a.Z()}
			l := x.LinearAcceleration()
			v.LinearAcceleration = [3]float64{l.X(), l.Y(), l.Z()}
			for _, c := range []struct {
				l runtime.List[float64]
				a *[9]float64
			}{{x.OrientationCovariance(), &v.OrientationCov}, {x.AngularVelocityCovariance(), &v.AngularVelocityCov}, {x.LinearAccelerationCovariance(), &v.LinearAccelerationCov}} {
				if c.l.Len() != 9 {
					return nil
				}
				for i := range 9 {
					c.a[i] = c.l.At(i)
				}
			}
			return v
		},
		func(x pbphaserros.Imu) uint64 {
			s := rosfeUseHeader(x.Header())
			o := x.Orientation().View()
			s += f64(o.X()) + f64(o.Y()) + f64(o.Z()) + f64(o.W())
			a := x.AngularVelocity().View()
			s += f64(a.X()) + f64(a.Y()) + f64(a.Z())
			l := x.LinearAcceleration().View()
			s += f64(l.X()) + f64(l.Y()) + f64(l.Z())
			s += phaserSum64(x.OrientationCovariance()) + phaserSum64(x.AngularVelocityCovariance()) +
				phaserSum64(x.LinearAccelerationCovariance())
			return s
		},
		func(x pbphaserros.Imu) uint64 { return f64(x.LinearAcceleration().Z()) },
	))
}

func rosfeSetHeader(x pbphaserros.Header, v *Header) {
	x.SetSeq(v.Seq)
	st := x.MutableStamp()
	st.SetSeconds(v.Sec)
	st.SetNanos(v.Nsec)
	x.SetFrameId(v.FrameID)
}

func rosfeGetHeader(x pbphaserros.Header) Header {
	st := x.Stamp()
	return Header{Seq: x.Seq(), Sec: st.Seconds(), Nsec: st.Nanos(), FrameID: x.FrameId()}
}

func rosfeUseHeader(x pbphaserros.Header) uint64 {
	st := x.Stamp().View()
	return uint64(x.Seq()) + uint64(st.Seconds()) + uint64(st.Nanos()) + useBytes(x.FrameIdBytes())
}
