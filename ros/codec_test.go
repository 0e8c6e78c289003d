package ros_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/testpb/roswire/roswirephaser"
	roswireros "github.com/phaser-go/phaser/internal/testpb/roswire/roswireros/roswirephaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// The differential tests of the generated ROS1 codecs: on the same
// payloads and the same ROS1 bytes, each generated function (called
// through the codec its type registered, without the fallback on package
// ros its methods have) must give what package ros gives, or give up
// where package ros fails. Giving up where package ros succeeds is
// allowed only for a message that is not laid out with its compiled
// table (a payload of the other frontend, another version of the schema),
// and counted.

// codecType is a generated message type under test.
type codecType struct {
	name string
	t    *runtime.Type
	// exact: every message a payload built here holds is compiled, so the
	// generated code must not give up on one that package ros writes. (The
	// ROS frontend's Nested holds an importedpb Remote inline, whose
	// handles are the protobuf frontend's: its codec does not know the
	// inline layout, and gives up to package ros.)
	exact bool
}

var codecTypes = []codecType{
	{"roswire.Nested", roswirephaser.Nested{}.PhaserType(), true},
	{"roswireros.Nested", roswireros.Nested{}.PhaserType(), false},
	{"roswire.Scalars", roswirephaser.Scalars{}.PhaserType(), true},
	{"roswire.Converted", roswirephaser.Converted{}.PhaserType(), true},
	{"roswire.Arrays", roswirephaser.Arrays{}.PhaserType(), true},
	{"roswireros.Stamped", roswireros.Stamped{}.PhaserType(), true},
	{"sensor_msgs.Imu", sensor_msgsphaser.Imu{}.PhaserType(), true},
	{"sensor_msgs.PointCloud2", sensor_msgsphaser.PointCloud2{}.PhaserType(), true},
	{"quickstart.Robot", quickstartphaser.Robot{}.PhaserType(), true},
}

// codecOf returns the generated codec of t.
func codecOf(tb testing.TB, t *runtime.Type) *phaserimpl.ROSCodec {
	c := phaserimpl.ROSCodecOf(phaserimpl.EngineType(t))
	if c == nil {
		tb.Fatalf("%s has no generated ROS1 codec", t.Name())
	}
	return c
}

// diffStats counts what the differential checks saw.
type diffStats struct {
	fast, slow, rejected int // marshal: generated ok, generated gave up, both failed
	read, readSlow       int // unmarshal: generated ok, generated gave up
}

// checkMarshal compares the generated size and append of m with package
// ros's. exact requires the generated code not to give up where package
// ros succeeds.
func checkMarshal(tb testing.TB, c *phaserimpl.ROSCodec, m runtime.Msg, exact bool, st *diffStats) {
	tb.Helper()
	d := impl.Dynamic(m)
	em := d.Msg()
	want, werr := ros.Append(nil, m)
	if m.Failed() {
		// The generated methods refuse a failed payload before they call
		// the codec's functions (TestROSCodecMethods), as package ros does.
		if werr == nil {
			tb.Fatalf("%s: ros Append of a failed payload: no error", d.Type().Name())
		}
		st.rejected++
		return
	}
	got, _, ok := c.Append(nil, em, em.WorkBudget())
	switch {
	case ok && werr != nil:
		tb.Fatalf("%s: generated Append writes %x where ros fails: %v", d.Type().Name(), got, werr)
	case ok && !bytes.Equal(got, want):
		tb.Fatalf("%s: generated Append\n got %x\nwant %x", d.Type().Name(), got, want)
	case ok:
		st.fast++
	case werr == nil:
		if exact && !m.Failed() {
			tb.Fatalf("%s: generated Append gives up where ros writes %x", d.Type().Name(), want)
		}
		st.slow++
	default:
		st.rejected++
	}
	n, _, ok := c.Size(em, em.WorkBudget())
	wn, serr := ros.Size(m)
	switch {
	case ok && (serr != nil || n != wn):
		tb.Fatalf("%s: generated Size %d, ros %d, %v", d.Type().Name(), n, wn, serr)
	case !ok && serr == nil && exact && !m.Failed():
		tb.Fatalf("%s: generated Size gives up where ros gives %d", d.Type().Name(), wn)
	}
	if werr == nil && serr == nil && wn != len(want) {
		tb.Fatalf("%s: ros Size %d, Append %d bytes", d.Type().Name(), wn, len(want))
	}
}

// checkUnmarshal compares the generated read of data into a new message of
// type t with package ros's Unmarshal.
func checkUnmarshal(tb testing.TB, c *phaserimpl.ROSCodec, t *runtime.Type, data []byte, exact bool, opts runtime.Options, st *diffStats) {
	tb.Helper()
	ref := runtime.New(t, opts)
	werr := ros.Unmarshal(data, ref)
	gen := runtime.New(t, opts)
	d := impl.Dynamic(gen)
	d.Msg().Clear(d.Type())
	rest, ok := c.Read(data, d.Msg())
	ok = ok && len(rest) == 0 && !gen.Failed() && gen.Err() == nil
	switch {
	case ok && werr != nil:
		tb.Fatalf("%s: generated Read accepts %x, which ros rejects: %v", t.Name(), data, werr)
	case !ok && werr == nil:
		if exact {
			tb.Fatalf("%s: generated Read gives up on %x, which ros reads", t.Name(), data)
		}
		st.readSlow++
		return
	case !ok:
		return
	}
	st.read++
	a, aerr := ros.Append(nil, ref)
	b, berr := ros.Append(nil, gen)
	if !bytes.Equal(a, b) || (aerr == nil) != (berr == nil) || aerr != nil && aerr.Error() != berr.Error() {
		tb.Fatalf("%s: after Unmarshal of %x: ros's message writes %x (%v), the generated one's %x (%v)", t.Name(), data, a, aerr, b, berr)
	}
	// ROS1 strings are bytes; a proto3 string that is not UTF-8 fails
	// proto.Marshal, as protobuf-go's does: the two must agree.
	pa, aerr := proto.Marshal(ref)
	pb, berr := proto.Marshal(gen)
	if !bytes.Equal(pa, pb) || (aerr == nil) != (berr == nil) || aerr != nil && aerr.Error() != berr.Error() {
		tb.Fatalf("%s: after Unmarshal of %x: protobuf %x (%v) against %x (%v)", t.Name(), data, pa, aerr, pb, berr)
	}
}

// filler fills messages with random content that reaches every ROS1
// conversion's edges: values at and beyond each ROS type's range, times
// and durations beyond ROS's, fixed arrays short, full and too long, and
// now and then a populated Any.
type filler struct {
	r *rand.Rand
	// valid keeps every value within what ROS1 holds, so that the
	// serialization succeeds (most messages: three in four).
	valid bool
}

var edgeInts = []int64{0, 1, -1, 2, 127, 128, -128, -129, 200, 255, 256, 300, 32767, 32768, -32768, -32769,
	65535, 65536, math.MaxInt32, math.MinInt32, math.MaxUint32, 1 << 32, 1 << 40, math.MaxInt64, math.MinInt64}

var edgeFloats = []float64{0, 1.5, -2.25, math.MaxFloat32, -math.MaxFloat32, 1e39, -1e300, 1e-300,
	math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat32}

func (f *filler) int() int64 {
	if f.r.IntN(3) == 0 {
		return f.r.Int64() >> f.r.IntN(64)
	}
	return edgeInts[f.r.IntN(len(edgeInts))]
}

func (f *filler) bytes() []byte {
	b := make([]byte, f.r.IntN(12))
	for i := range b {
		b[i] = byte(f.r.Uint32())
	}
	return b
}

func (f *filler) scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	x := f.int()
	rt, _ := ros.FieldType(fd)
	if f.valid && rt != ros.Float32 && rt != ros.Float64 && rt != ros.String {
		// a value both the field and its ROS type hold
		lo, hi := rt.Range()
		for range 100 {
			v := f.scalarOf(fd, x)
			var s int64
			var u uint64
			switch i := v.Interface().(type) {
			case int32:
				s = int64(i)
			case int64:
				s = i
			case uint32:
				u = uint64(i)
			case uint64:
				u = i
			case protoreflect.EnumNumber:
				s = int64(i)
			case bool:
				return v
			}
			if s < 0 && s >= lo || s >= 0 && uint64(s) <= hi && u <= hi {
				return v
			}
			x = f.int()
		}
		x = 0
	}
	if f.valid && rt == ros.Float32 && fd.Kind() == protoreflect.DoubleKind {
		d := edgeFloats[f.r.IntN(len(edgeFloats))]
		if math.Abs(d) > math.MaxFloat32 && !math.IsInf(d, 0) {
			d = 1
		}
		return protoreflect.ValueOfFloat64(d)
	}
	return f.scalarOf(fd, x)
}

// scalarOf returns a value of field fd's kind made from x (and the
// generator, for floats, strings and bytes).
func (f *filler) scalarOf(fd protoreflect.FieldDescriptor, x int64) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(x&1 != 0)
	case protoreflect.EnumKind:
		if f.r.IntN(2) == 0 {
			vals := fd.Enum().Values()
			return protoreflect.ValueOfEnum(vals.Get(f.r.IntN(vals.Len())).Number())
		}
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(x)))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(x))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(x)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(x))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(x))
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(edgeFloats[f.r.IntN(len(edgeFloats))]))
	case protoreflect.DoubleKind:
		if f.r.IntN(4) == 0 {
			return protoreflect.ValueOfFloat64(f.r.NormFloat64())
		}
		return protoreflect.ValueOfFloat64(edgeFloats[f.r.IntN(len(edgeFloats))])
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(string(f.bytes()))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes(f.bytes())
	}
	panic(fd.Kind())
}

// time fills Timestamp or Duration m: in range mostly, sometimes not.
func (f *filler) time(m runtime.Msg) {
	fields := m.Type().Descriptor().Fields()
	sec := f.r.Int64N(1 << 31)
	if !f.valid && f.r.IntN(2) == 0 {
		sec = f.int()
	}
	nanos := int32(f.r.IntN(1_000_000_000))
	if !f.valid && f.r.IntN(2) == 0 {
		nanos = int32(f.int())
	}
	if f.r.IntN(3) > 0 {
		m.Set(fields.ByName("seconds"), protoreflect.ValueOfInt64(sec))
	}
	if f.r.IntN(3) > 0 {
		m.Set(fields.ByName("nanos"), protoreflect.ValueOfInt32(nanos))
	}
}

// count returns a list length for field fd: short, and for a fixed array
// N, fewer, or (rarely) more.
func (f *filler) count(fd protoreflect.FieldDescriptor) int {
	if n, ok := ros.ArraySize(fd); ok {
		switch f.r.IntN(8) {
		case 0:
			if f.valid {
				return int(n)
			}
			return int(n) + 1
		case 1, 2:
			return f.r.IntN(int(n))
		}
		return int(n)
	}
	return f.r.IntN(4)
}

func (f *filler) fill(m runtime.Msg, depth int) {
	md := m.Type().Descriptor()
	switch md.FullName() {
	case "google.protobuf.Timestamp", "google.protobuf.Duration":
		f.time(m)
		return
	case "google.protobuf.Any":
		if !f.valid && f.r.IntN(4) == 0 {
			m.Set(md.Fields().ByName("type_url"), protoreflect.ValueOfString("type.googleapis.com/x.Y"))
		}
		return
	}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil {
			if od.Fields().Get(0) != fd || f.r.IntN(3) == 0 {
				continue
			}
			fd = od.Fields().Get(f.r.IntN(od.Fields().Len()))
		} else if f.r.IntN(4) == 0 {
			continue
		}
		switch {
		case fd.IsList() || fd.IsMap():
			for range f.count(fd) {
				if fd.Message() != nil {
					if depth < 3 {
						f.fill(m.AppendMessage(fd), depth+1)
					} else {
						m.AppendMessage(fd)
					}
					continue
				}
				m.Append(fd, f.scalar(fd))
			}
		case fd.Message() != nil:
			if depth < 4 {
				f.fill(m.Mutable(fd), depth+1)
			}
		default:
			m.Set(fd, f.scalar(fd))
		}
	}
}

// build makes a random message of type t in a new payload of format v.
func (f *filler) build(t *runtime.Type, opts runtime.Options) runtime.Msg {
	f.valid = f.r.IntN(4) > 0
	m := runtime.New(t, opts)
	f.fill(m, 0)
	return m
}

// mutate flips, cuts or overwrites a few bytes of a copy of b.
func (f *filler) mutate(b []byte) []byte {
	b = bytes.Clone(b)
	if len(b) == 0 {
		return b
	}
	for range 1 + f.r.IntN(3) {
		i := f.r.IntN(len(b))
		switch f.r.IntN(4) {
		case 0:
			b[i] ^= 1 << f.r.IntN(8)
		case 1:
			b[i] = byte(edgeInts[f.r.IntN(len(edgeInts))])
		case 2:
			b = b[:i]
			if len(b) == 0 {
				return b
			}
		default:
			b[i] = 0
		}
	}
	return b
}

var formats = []runtime.Options{{}, {Version: payloadbuffer.V2}}

// TestROSCodecDifferential runs the differential checks on random messages
// of every type under test, in both payload formats, on their bytes read
// through the other frontend's type, on mutated payloads, and on their
// ROS1 bytes, whole and mutated.
func TestROSCodecDifferential(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	f := filler{r: rand.New(rand.NewPCG(1, 2))}
	for _, ct := range codecTypes {
		t.Run(ct.name, func(t *testing.T) {
			c := codecOf(t, ct.t)
			var st diffStats
			for i := range n {
				opts := formats[i%2]
				// In format v2 the ROS frontend writes the protobuf
				// frontend's layout (as C++ 2.x does): its messages are
				// not compiled.
				exact := ct.exact && (opts.Version == payloadbuffer.V3 || (*impl.Type)(ct.t).Frontend() == impl.ProtobufFrontend)
				m := f.build(ct.t, opts)
				checkMarshal(t, c, m, exact, &st)
				// The same bytes as received, and read by the types of
				// the other tests (the other frontend's layout: not
				// compiled, so the generated code gives up).
				payload := bytes.Clone(m.Bytes())
				for _, other := range codecTypes {
					if rm, err := runtime.Read(other.t, payload); err == nil && other.t.Descriptor().FullName() == ct.t.Descriptor().FullName() {
						checkMarshal(t, codecOf(t, other.t), rm, other.t == ct.t && exact, &st)
					}
				}
				if rm, err := runtime.Read(ct.t, f.mutate(payload)); err == nil {
					checkMarshal(t, c, rm, false, &st)
				}
				wire, err := ros.Marshal(m)
				if err != nil {
					continue
				}
				checkUnmarshal(t, c, ct.t, wire, exact, opts, &st)
				checkUnmarshal(t, c, ct.t, f.mutate(wire), exact, opts, &st)
			}
			t.Logf("marshal: %d generated, %d gave up to ros, %d rejected by both; unmarshal: %d generated, %d gave up",
				st.fast, st.slow, st.rejected, st.read, st.readSlow)
			if st.fast == 0 || st.read == 0 {
				t.Errorf("the generated codec never did the work")
			}
		})
	}
}

// TestROSCodecMethods checks that the generated methods give package ros's
// results, errors included: they are the codec with package ros as the
// fallback.
func TestROSCodecMethods(t *testing.T) {
	f := filler{r: rand.New(rand.NewPCG(3, 4))}
	for i := range 300 {
		x := roswirephaser.NewNested(formats[i%2])
		f.valid = i%4 > 0
		f.fill(x.Msg(), 0)
		want, werr := ros.Marshal(x.Msg())
		got, err := x.MarshalROS()
		if !bytes.Equal(got, want) || (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("MarshalROS = %x, %v; ros.Marshal = %x, %v", got, err, want, werr)
		}
		app, err := x.AppendROS([]byte("prefix"))
		if (err == nil) != (werr == nil) || err == nil && string(app) != "prefix"+string(want) {
			t.Fatalf("AppendROS = %x, %v", app, err)
		}
		wn, _ := ros.Size(x.Msg())
		if n := x.ROSSize(); n != wn {
			t.Fatalf("ROSSize = %d, ros.Size = %d", n, wn)
		}
		if werr != nil {
			continue
		}
		back := roswirephaser.NewNested()
		if err := back.UnmarshalROS(want); err != nil {
			t.Fatal(err)
		}
		again, err := back.MarshalROS()
		if err != nil || !bytes.Equal(again, want) {
			t.Fatalf("round trip: %x, %v; want %x", again, err, want)
		}
		cut := want[:len(want)/2]
		uerr := roswirephaser.NewNested().UnmarshalROS(cut)
		rerr := ros.Unmarshal(cut, roswirephaser.NewNested().Msg())
		if uerr == nil || rerr == nil || uerr.Error() != rerr.Error() {
			t.Fatalf("UnmarshalROS of a cut input: %v; ros.Unmarshal: %v", uerr, rerr)
		}
	}
}

// TestROSCodecBudget checks the generated codec's work budget on the
// payload of TestBudgetSharedString's finding: a repeated string whose 700
// elements all point at one 12 KB string.
func TestROSCodecBudget(t *testing.T) {
	x := roswirephaser.NewArrays()
	names := x.PhaserType().Descriptor().Fields().ByName("names")
	x.Names().Append(strings.Repeat("x", 12<<10))
	for range 699 {
		x.Names().Append("")
	}
	b := bytes.Clone(x.Bytes())
	shareElems(t, b, x.Msg(), names)
	r, err := roswirephaser.ReadArrays(b)
	if err != nil {
		t.Fatal(err)
	}
	c := codecOf(t, x.PhaserType())
	m := phaserimpl.Msg(r)
	if out, _, ok := c.Append(nil, m, m.WorkBudget()); ok {
		t.Errorf("generated Append wrote %d bytes from %d", len(out), len(b))
	}
	if n, _, ok := c.Size(m, m.WorkBudget()); ok {
		t.Errorf("generated Size: %d from %d", n, len(b))
	}
	if _, err := r.MarshalROS(); !errors.Is(err, ros.ErrSharedOffsets) {
		t.Errorf("MarshalROS: %v; want ErrSharedOffsets", err)
	}
	if out, err := r.AppendROS(nil); !errors.Is(err, ros.ErrSharedOffsets) {
		t.Errorf("AppendROS: %d bytes, %v; want ErrSharedOffsets", len(out), err)
	}
	if n := r.ROSSize(); n != 0 {
		t.Errorf("ROSSize: %d; want 0", n)
	}
}

// FuzzROSCodec is the differential test on arbitrary bytes, taken both as
// a received payload of each type under test (mutated from the seeds:
// payloads of random messages, both formats and frontends) and as ROS1
// bytes to parse.
func FuzzROSCodec(f *testing.F) {
	fl := filler{r: rand.New(rand.NewPCG(5, 6))}
	for i := range 24 {
		ct := codecTypes[i%len(codecTypes)]
		m := fl.build(ct.t, formats[i%2])
		f.Add(bytes.Clone(m.Bytes()))
		if wire, err := ros.Marshal(m); err == nil {
			f.Add(wire)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var st diffStats
		for _, ct := range codecTypes {
			c := codecOf(t, ct.t)
			if m, err := runtime.Read(ct.t, data); err == nil {
				checkMarshal(t, c, m, false, &st)
			}
			checkUnmarshal(t, c, ct.t, data, ct.exact, runtime.Options{}, &st)
		}
	})
}

// TestROSCodecCorpus keeps the committed corpus of FuzzROSCodec in use by
// a plain test: it must be there.
func TestROSCodecCorpus(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "fuzz", "FuzzROSCodec"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no committed corpus for FuzzROSCodec: %v", err)
	}
}
