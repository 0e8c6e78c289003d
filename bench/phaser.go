package bench

import (
	"bytes"

	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// phaser-go: build writes the payload in place in a warm buffer (Clear,
// then set; phaser-new: NewXIn on the same reused memory), the payload is
// what is published, and readers read it where it lies.

// memSize is the fixed buffer of one message of a shape.
func memSize(shape string) int {
	if shape == "cloud" {
		return 4 << 20
	}
	return 4096
}

// phaserMsg is what every generated handle has.
type phaserMsg interface {
	Msg() runtime.Msg
	PhaserType() *runtime.Type
	Bytes() []byte
	Failed() bool
	Clear()
}

// phaserCodec assembles the Codec of a shape from its typed functions.
func phaserCodec[T phaserMsg](shape string, newIn func([]byte, ...runtime.Options) (T, error),
	read func([]byte) (T, error), readInto func(*runtime.Payload, []byte) (T, error), set func(T, int), get func(T) any, all, one func(T) uint64) func() *Codec {
	return func() *Codec {
		n := N(shape)
		// The warm message builds reuse, and the sources of the marshal
		// benchmarks: value i in its own payload.
		warm, err := newIn(make([]byte, memSize(shape)))
		must(err)
		// A source is read from its own copy of the payload bytes, as a
		// receiver holds them: 16 sources in 4 KiB buffers would put their
		// first bytes on the same cache sets, which no peer pays.
		src := make([]T, n)
		for i := range src {
			x, err := newIn(make([]byte, memSize(shape)))
			must(err)
			set(x, i)
			if x.Failed() {
				panic("phaser: " + shape + " does not fit")
			}
			src[i], err = read(bytes.Clone(x.Bytes()))
			must(err)
		}
		dst, err := newIn(make([]byte, memSize(shape)))
		must(err)
		out := make([]byte, 0, memSize(shape))
		t := warm.PhaserType()
		// Readers reuse one Payload (ReadXInto): ReadX allocates one per
		// call.
		rp := new(runtime.Payload)
		decode := func(data []byte) (any, error) {
			x, err := read(data)
			if err != nil {
				return nil, err
			}
			return get(x), nil
		}
		return &Codec{
			Build: func(i int) []byte {
				warm.Clear()
				set(warm, i)
				return warm.Bytes()
			},
			Decode: decode,
			ReadAll: func(data []byte) uint64 {
				x, err := readInto(rp, data)
				if err != nil {
					return 0
				}
				return all(x)
			},
			ReadOne: func(data []byte) uint64 {
				x, err := readInto(rp, data)
				if err != nil {
					return 0
				}
				return one(x)
			},
			ProtoMarshal: func(i int) []byte {
				s := src[i%n]
				out, err = proto.Append(out[:0], s.Msg())
				must(err)
				return out
			},
			ProtoUnmarshal: func(pb []byte) error { return proto.Unmarshal(pb, dst.Msg()) },
			ProtoResult: func() (any, error) {
				if dst.Failed() {
					return nil, errorf("phaser: buffer full")
				}
				return decode(dst.Bytes())
			},
			ROSMarshal: func(i int) []byte {
				s := src[i%n]
				out, err = ros.Append(out[:0], s.Msg())
				must(err)
				return out
			},
			ROSUnmarshal: func(b []byte) error { return ros.Unmarshal(b, dst.Msg()) },
			ROSResult: func() (any, error) {
				if dst.Failed() {
					return nil, errorf("phaser: buffer full")
				}
				return decode(dst.Bytes())
			},
			Transcode: func(pb []byte) ([]byte, error) {
				out, err = ros.ProtoToROS(out[:0], pb, t)
				return out, err
			},
		}
	}
}

// phaserNewCodec is phaser-new: Build makes a new message with NewXIn in the
// same reused memory each time.
func phaserNewCodec[T phaserMsg](shape string, newIn func([]byte, ...runtime.Options) (T, error),
	read func([]byte) (T, error), set func(T, int), get func(T) any) func() *Codec {
	return func() *Codec {
		mem := make([]byte, memSize(shape))
		return &Codec{
			Build: func(i int) []byte {
				x, err := newIn(mem)
				if err != nil {
					return nil
				}
				set(x, i)
				return x.Bytes()
			},
			Decode: func(data []byte) (any, error) {
				x, err := read(data)
				if err != nil {
					return nil, err
				}
				return get(x), nil
			},
		}
	}
}

func phaserRegister[T phaserMsg](shape string, newIn func([]byte, ...runtime.Options) (T, error),
	read func([]byte) (T, error), readInto func(*runtime.Payload, []byte) (T, error), set func(T, int), get func(T) any, all, one func(T) uint64) {
	register("phaser", shape, phaserCodec(shape, newIn, read, readInto, set, get, all, one))
	// phaser-v2: the same in the Phaser 2 format (C++ Phaser 2.x peers).
	newInV2 := func(mem []byte, _ ...runtime.Options) (T, error) {
		return newIn(mem, runtime.Options{Version: payloadbuffer.V2})
	}
	register("phaser-v2", shape, phaserCodec(shape, newInV2, read, readInto, set, get, all, one))
	register("phaser-new", shape, phaserNewCodec(shape, newIn, read, set, get))
}

func init() {
	phaserRegister("small", pbphaser.NewSmallStructIn, pbphaser.ReadSmallStruct, pbphaser.ReadSmallStructInto,
		func(x pbphaser.SmallStruct, i int) {
			v := &Values.Small[i%NSmall]
			x.SetName(v.Name)
			x.SetBirthDay(v.BirthDay)
			x.SetPhone(v.Phone)
			x.SetSiblings(v.Siblings)
			x.SetSpouse(v.Spouse)
			x.SetMoney(v.Money)
		},
		func(x pbphaser.SmallStruct) any {
			return &Small{Name: x.Name(), BirthDay: x.BirthDay(), Phone: x.Phone(), Siblings: x.Siblings(), Spouse: x.Spouse(), Money: x.Money()}
		},
		func(x pbphaser.SmallStruct) uint64 {
			v := x.View()
			return useBytes(x.NameBytes()) + uint64(v.BirthDay()) + useBytes(x.PhoneBytes()) +
				uint64(v.Siblings()) + b2u(v.Spouse()) + f64(v.Money())
		},
		func(x pbphaser.SmallStruct) uint64 { return f64(x.Money()) },
	)
	phaserRegister("header", pbphaser.NewHeaderIn, pbphaser.ReadHeader, pbphaser.ReadHeaderInto,
		func(x pbphaser.Header, i int) { phaserSetHeader(x, &Values.Header[i%NSmall]) },
		func(x pbphaser.Header) any { h := phaserGetHeader(x); return &h },
		phaserUseHeader,
		func(x pbphaser.Header) uint64 { return uint64(x.Stamp().Nanos()) },
	)
	phaserRegister("imu", pbphaser.NewImuIn, pbphaser.ReadImu, pbphaser.ReadImuInto,
		func(x pbphaser.Imu, i int) {
			v := &Values.Imu[i%NSmall]
			phaserSetHeader(x.MutableHeader(), &v.Header)
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
		func(x pbphaser.Imu) any {
			v := &Imu{Header: phaserGetHeader(x.Header())}
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
		func(x pbphaser.Imu) uint64 {
			s := phaserUseHeader(x.Header())
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
		func(x pbphaser.Imu) uint64 { return f64(x.LinearAcceleration().Z()) },
	)
	phaserRegister("cloud", pbphaser.NewCloudIn, pbphaser.ReadCloud, pbphaser.ReadCloudInto,
		func(x pbphaser.Cloud, i int) {
			v := &Values.Cloud[i%NCloud]
			phaserSetHeader(x.MutableHeader(), &v.Header)
			x.SetHeight(v.Height)
			x.SetWidth(v.Width)
			fs := x.Fields()
			for _, f := range v.Fields {
				e := fs.Append()
				e.SetName(f.Name)
				e.SetOffset(f.Offset)
				e.SetDatatype(uint32(f.Datatype))
				e.SetCount(f.Count)
			}
			x.SetIsBigendian(v.IsBigendian)
			x.SetPointStep(v.PointStep)
			x.SetRowStep(v.RowStep)
			x.SetData(v.Data)
			x.SetIsDense(v.IsDense)
			x.Points().Allocate(len(v.Points))
			for j, e := range x.Points().All() {
				p := &v.Points[j]
				e.SetX(p.X)
				e.SetY(p.Y)
				e.SetZ(p.Z)
				e.SetIntensity(p.Intensity)
			}
		},
		func(x pbphaser.Cloud) any {
			v := &Cloud{Header: phaserGetHeader(x.Header()), Height: x.Height(), Width: x.Width(),
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
		},
		func(x pbphaser.Cloud) uint64 {
			v := x.View()
			s := phaserUseHeader(x.Header()) + uint64(v.Height()) + uint64(v.Width()) + b2u(v.IsBigendian()) +
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
		},
		func(x pbphaser.Cloud) uint64 { return f32(x.Points().At(NPoints / 2).Z()) },
	)
}

func phaserSetHeader(x pbphaser.Header, v *Header) {
	x.SetSeq(v.Seq)
	st := x.MutableStamp()
	st.SetSeconds(v.Sec)
	st.SetNanos(v.Nsec)
	x.SetFrameId(v.FrameID)
}

func phaserGetHeader(x pbphaser.Header) Header {
	st := x.Stamp()
	return Header{Seq: x.Seq(), Sec: st.Seconds(), Nsec: st.Nanos(), FrameID: x.FrameId()}
}

func phaserUseHeader(x pbphaser.Header) uint64 {
	st := x.Stamp().View()
	return uint64(x.Seq()) + uint64(st.Seconds()) + uint64(st.Nanos()) + useBytes(x.FrameIdBytes())
}

// phaserSum64 reads a repeated double in one AppendTo (one bounds check
// of the field, not one per element) into a buffer on the stack.
func phaserSum64(l runtime.List[float64]) uint64 {
	var buf [16]float64
	var s uint64
	for _, v := range l.AppendTo(buf[:0]) {
		s += f64(v)
	}
	return s
}
