// Package bench compares phaser-go with other Go serialization libraries on
// the same shapes and the same values: see README.md and RESULTS.md.
//
// Every library's code for a shape lives in one file per library
// (phaser.go, protobuf.go, vtproto.go, flatbuffers.go, capnp.go,
// goroslib.go); bench_test.go runs them as Benchmark<Op>/<shape>/<lib>.
package bench

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// Shapes, in the order the benchmarks run them.
var Shapes = []string{"small", "header", "imu", "cloud", "image1M", "image16M"}

// The plain values every library is given, and compared with after a round
// trip.

// Small is go_serialization_benchmarks' SmallStruct (BirthDay in Unix ns).
type Small struct {
	Name     string
	BirthDay int64
	Phone    string
	Siblings int32
	Spouse   bool
	Money    float64
}

// Header is std_msgs/Header (stamp as seconds and nanoseconds).
type Header struct {
	Seq     uint32
	Sec     int64
	Nsec    int32
	FrameID string
}

// Imu is sensor_msgs/Imu.
type Imu struct {
	Header                Header
	Orientation           [4]float64 // x, y, z, w
	OrientationCov        [9]float64
	AngularVelocity       [3]float64
	AngularVelocityCov    [9]float64
	LinearAcceleration    [3]float64
	LinearAccelerationCov [9]float64
}

// PointField is sensor_msgs/PointField.
type PointField struct {
	Name     string
	Offset   uint32
	Datatype uint8
	Count    uint32
}

// Point is the fixed-size element of Cloud.
type Point struct{ X, Y, Z, Intensity float32 }

// Cloud is sensor_msgs/PointCloud2 plus a repeated fixed-size struct.
type Cloud struct {
	Header      Header
	Height      uint32
	Width       uint32
	Fields      []PointField
	IsBigendian bool
	PointStep   uint32
	RowStep     uint32
	Data        []byte
	IsDense     bool
	Points      []Point
}

// Image is sensor_msgs/Image.
type Image struct {
	Header      Header
	Height      uint32
	Width       uint32
	Encoding    string
	IsBigendian uint8
	Step        uint32
	Data        []byte
}

// Sizes of the value sets: benchmarks cycle through them.
const (
	NSmall  = 16 // values of small, header and imu
	NCloud  = 2  // values of cloud
	NImage  = 2  // values of each image shape
	NPoints = 32768
	// CloudData is the length of Cloud.Data: NPoints points of 16 bytes,
	// 512 KiB; the Points list is another 512 KiB.
	CloudData = NPoints * 16
	// The image shapes: bgra8 (4 bytes a pixel), 512 x 512 (1 MiB of
	// data) and 2048 x 2048 (16 MiB).
	Image1MSide  = 512
	Image16MSide = 2048
)

// Values holds the pre-generated random values, the same for every library.
type ValueSet struct {
	Small    []Small
	Header   []Header
	Imu      []Imu
	Cloud    []Cloud
	Image1M  []Image
	Image16M []Image
}

// Values is generated once from a fixed seed.
var Values = generate(rand.New(rand.NewPCG(0x9e3779b97f4a7c15, 0x2545f4914f6cdd1d)))

// N returns the number of values of a shape.
func N(shape string) int {
	switch shape {
	case "cloud":
		return NCloud
	case "image1M", "image16M":
		return NImage
	}
	return NSmall
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

func randString(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// randFloat is a nonzero float in [-1000, 1000).
func randFloat(r *rand.Rand) float64 {
	for {
		if f := (r.Float64()*2 - 1) * 1000; f != 0 {
			return f
		}
	}
}

func randHeader(r *rand.Rand) Header {
	return Header{
		Seq:     r.Uint32(),
		Sec:     1_500_000_000 + r.Int64N(300_000_000), // fits ROS uint32 time
		Nsec:    r.Int32N(1_000_000_000),
		FrameID: randString(r, 8+r.IntN(8)),
	}
}

func generate(r *rand.Rand) ValueSet {
	var v ValueSet
	for range NSmall {
		v.Small = append(v.Small, Small{
			Name:     randString(r, 16),
			BirthDay: r.Int64N(math.MaxInt64),
			Phone:    randString(r, 10),
			Siblings: r.Int32N(5) + 1,
			Spouse:   r.IntN(2) == 1,
			Money:    randFloat(r),
		})
		v.Header = append(v.Header, randHeader(r))
		imu := Imu{Header: randHeader(r)}
		for _, a := range [][]float64{imu.Orientation[:], imu.OrientationCov[:], imu.AngularVelocity[:],
			imu.AngularVelocityCov[:], imu.LinearAcceleration[:], imu.LinearAccelerationCov[:]} {
			for i := range a {
				a[i] = randFloat(r)
			}
		}
		v.Imu = append(v.Imu, imu)
	}
	for range NCloud {
		c := Cloud{
			Header: randHeader(r),
			Height: 1,
			Width:  NPoints,
			Fields: []PointField{
				{Name: "x", Offset: 0, Datatype: 7, Count: 1},
				{Name: "y", Offset: 4, Datatype: 7, Count: 1},
				{Name: "z", Offset: 8, Datatype: 7, Count: 1},
				{Name: "intensity", Offset: 12, Datatype: 7, Count: 1},
			},
			IsBigendian: false,
			PointStep:   16,
			RowStep:     CloudData,
			Data:        make([]byte, CloudData),
			IsDense:     true,
			Points:      make([]Point, NPoints),
		}
		for i := range c.Data {
			c.Data[i] = byte(r.Uint32())
		}
		for i := range c.Points {
			c.Points[i] = Point{float32(randFloat(r)), float32(randFloat(r)), float32(randFloat(r)), float32(randFloat(r)) + 1001}
		}
		v.Cloud = append(v.Cloud, c)
	}
	// The images come last, so that the other shapes' values do not
	// depend on them.
	for _, side := range []uint32{Image1MSide, Image16MSide} {
		for range NImage {
			img := Image{Header: randHeader(r), Height: side, Width: side, Encoding: "bgra8",
				Step: 4 * side, Data: make([]byte, 4*int(side)*int(side))}
			for i := 0; i < len(img.Data); i += 8 {
				binary.LittleEndian.PutUint64(img.Data[i:], r.Uint64())
			}
			if side == Image1MSide {
				v.Image1M = append(v.Image1M, img)
			} else {
				v.Image16M = append(v.Image16M, img)
			}
		}
	}
	return v
}

// The "use" step: every reader sums what it read in the same way, so that
// nothing is optimised away and the sums can be checked against the values.

func useStr(s string) uint64 {
	if len(s) == 0 {
		return 0
	}
	return uint64(len(s)) + uint64(s[0]) + uint64(s[len(s)-1])
}

func useBytes(s []byte) uint64 {
	if len(s) == 0 {
		return 0
	}
	return uint64(len(s)) + uint64(s[0]) + uint64(s[len(s)-1])
}

// useMid is read-one of an image: the byte in the middle of its data.
func useMid(d []byte) uint64 {
	if len(d) == 0 {
		return 0
	}
	return uint64(d[len(d)/2])
}

func f64(v float64) uint64 { return math.Float64bits(v) }
func f32(v float32) uint64 { return uint64(math.Float32bits(v)) }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// UseAll is the sum every reader of v must return from read-all.
func UseAll(v any) uint64 {
	switch v := v.(type) {
	case *Small:
		return useStr(v.Name) + uint64(v.BirthDay) + useStr(v.Phone) + uint64(v.Siblings) + b2u(v.Spouse) + f64(v.Money)
	case *Header:
		return uint64(v.Seq) + uint64(v.Sec) + uint64(v.Nsec) + useStr(v.FrameID)
	case *Imu:
		s := UseAll(&v.Header)
		for _, a := range [][]float64{v.Orientation[:], v.OrientationCov[:], v.AngularVelocity[:],
			v.AngularVelocityCov[:], v.LinearAcceleration[:], v.LinearAccelerationCov[:]} {
			for _, f := range a {
				s += f64(f)
			}
		}
		return s
	case *Cloud:
		s := UseAll(&v.Header) + uint64(v.Height) + uint64(v.Width) + b2u(v.IsBigendian) +
			uint64(v.PointStep) + uint64(v.RowStep) + useBytes(v.Data) + b2u(v.IsDense)
		for _, f := range v.Fields {
			s += useStr(f.Name) + uint64(f.Offset) + uint64(f.Datatype) + uint64(f.Count)
		}
		for _, p := range v.Points {
			s += f32(p.X) + f32(p.Y) + f32(p.Z) + f32(p.Intensity)
		}
		return s
	case *Image:
		return UseAll(&v.Header) + uint64(v.Height) + uint64(v.Width) + useStr(v.Encoding) +
			uint64(v.IsBigendian) + uint64(v.Step) + useBytes(v.Data)
	}
	panic("UseAll: unknown shape")
}

// UseOne is the sum every reader of v must return from read-one: one
// field, nested where the shape nests.
//
//	small:  money
//	header: stamp.nsec
//	imu:    linear_acceleration.z
//	cloud:  points[NPoints/2].z
//	image:  data[len(data)/2], a byte of the middle row
func UseOne(v any) uint64 {
	switch v := v.(type) {
	case *Small:
		return f64(v.Money)
	case *Header:
		return uint64(v.Nsec)
	case *Imu:
		return f64(v.LinearAcceleration[2])
	case *Cloud:
		return f32(v.Points[NPoints/2].Z)
	case *Image:
		return useMid(v.Data)
	}
	panic("UseOne: unknown shape")
}

// Value returns value i (cyclically) of a shape.
func Value(shape string, i int) any {
	switch shape {
	case "small":
		return &Values.Small[i%NSmall]
	case "header":
		return &Values.Header[i%NSmall]
	case "imu":
		return &Values.Imu[i%NSmall]
	case "cloud":
		return &Values.Cloud[i%NCloud]
	case "image1M":
		return &Values.Image1M[i%NImage]
	case "image16M":
		return &Values.Image16M[i%NImage]
	}
	panic("unknown shape " + shape)
}

// Republished is what Republish(i) must publish: value 0 of the shape with
// the one field a publisher changes between sends set to value i's: money
// for small, the header's stamp.nsec for the others.
func Republished(shape string, i int) any {
	switch v := Value(shape, 0).(type) {
	case *Small:
		c := *v
		c.Money = Value(shape, i).(*Small).Money
		return &c
	case *Header:
		c := *v
		c.Nsec = Value(shape, i).(*Header).Nsec
		return &c
	case *Imu:
		c := *v
		c.Header.Nsec = Value(shape, i).(*Imu).Header.Nsec
		return &c
	case *Cloud:
		c := *v
		c.Header.Nsec = Value(shape, i).(*Cloud).Header.Nsec
		return &c
	case *Image:
		c := *v
		c.Header.Nsec = Value(shape, i).(*Image).Header.Nsec
		return &c
	}
	panic("unknown shape " + shape)
}
