//go:build !race

// The race detector reports what this test does on purpose (a goroutine
// writing bytes that others read), so it runs only without it: scripts/test
// runs it in its soak step.

package testpbphaser_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/prototext"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
)

// TestTornReads reads payloads through the public API while another
// goroutine changes their bytes, as a peer writing shared memory does: the
// getters of generated handles, views, lists and maps, the dynamic view,
// Any, protobuf and ROS1 size and marshal, ToProto, CopyFrom, PhaserToROS.
// A read of bytes that change may return anything, but must never panic,
// hang or read outside the payload. 10^6 read passes
// (PHASER_TORN_PASSES overrides), spread over seven payloads: an Everything
// in formats 3 and 2, an Inner written by a newer version of its schema (its
// fields are found through the payload's table), the format-2 Everything
// read by another version of its schema, a ROS-frontend PointCloud2 in
// format 3 (inline messages, repeated messages), and the protobuf and ROS1
// encodings of two of them, parsed by Unmarshal and the converters.
func TestTornReads(t *testing.T) {
	passes := 1_000_000
	if s := os.Getenv("PHASER_TORN_PASSES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		passes = n
	}
	payloads := tornPayloads(t)
	each := (passes + len(payloads) - 1) / len(payloads)
	start := time.Now()
	for _, tp := range payloads {
		t.Run(tp.name, func(t *testing.T) {
			tornRun(t, tp, each)
		})
	}
	t.Logf("%d read passes in %v", each*len(payloads), time.Since(start).Round(time.Millisecond))
}

// tornPayload is a payload and how to read it.
type tornPayload struct {
	name  string
	bytes []byte
	read  func(r *tornReader, b []byte) // one read pass
}

func tornPayloads(t *testing.T) []tornPayload {
	var out []tornPayload
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		x := pb.NewEverything(runtime.Options{Version: v})
		buildGenerated(x)
		x.Inners().Append().MutableDeep().Names().Append("deep")
		x.Remotes().Append().Parts().Append().SetTag("tag")
		x.LabelsByKey().Append().SetValue("v")
		pb.MutableAnyScalars(x.Anys().Append()).SetFInt32(5)
		x.MutableNode().Children().Append().SetValue(4)
		if x.Err() != nil {
			t.Fatal(x.Err())
		}
		out = append(out, tornPayload{"Everything/" + v.String(), x.Bytes(), (*tornReader).everything})
	}

	// The format-2 Everything read by another version of its schema: every
	// field is found through the payload's tables.
	other := evolvedEverything(t)
	out = append(out, tornPayload{"Everything/v2-evolved", anonymous(out[1].bytes), func(r *tornReader, b []byte) {
		m, err := runtime.ReadInto(&r.p, other, b)
		if !r.read(err) {
			return
		}
		r.walk(m, 0)
		r.heavy(m, b)
	}})

	// An Inner written by a newer schema: the generated handle reads it
	// through the payload's table.
	typ := evolvedType(t)
	d := dyn{runtime.New(typ)}
	d.set("added", int64(9))
	d.set("a", int32(3))
	d.set("s", "evolved")
	d.mutable("deep").set("x", int64(-4))
	out = append(out, tornPayload{"Inner/evolved", anonymous(d.m.Bytes()), (*tornReader).inner})

	pc := sensor_msgsphaser.NewPointCloud2()
	pc.MutableHeader().SetFrameId("map")
	pc.SetHeight(1)
	pc.SetWidth(3)
	for _, name := range []string{"x", "y", "z"} {
		f := pc.Fields().Append()
		f.SetName(name)
		f.SetDatatype(7)
		f.SetCount(1)
	}
	pc.SetData(make([]byte, 36))
	if pc.Err() != nil {
		t.Fatal(pc.Err())
	}
	out = append(out, tornPayload{"PointCloud2/v3-ros", pc.Bytes(), (*tornReader).pointCloud})

	// The wire formats' readers, on protobuf and ROS1 bytes that change
	// while they are parsed (each reads some of its input twice).
	pbBytes, err := proto.Marshal(must(pb.ReadEverything(out[0].bytes)).Msg())
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, tornPayload{"Everything/protobuf", pbBytes, func(r *tornReader, b []byte) {
		if !r.into.Msg().IsPresent() {
			r.into = pb.NewEverything()
		}
		r.into.Clear()
		r.sink += uint64(len(b))
		err := proto.Unmarshal(b, r.into.Msg())
		r.decoded("proto.Unmarshal", err, protoRefusals...)
		if err != nil {
			r.into = pb.Everything{} // a new message for the next pass
		}
		r.sink += uint64(ros.InferFormat(b))
	}})
	pcBytes, err := proto.Marshal(pc.Msg())
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, tornPayload{"PointCloud2/protobuf", pcBytes, func(r *tornReader, b []byte) {
		var err error
		r.dst, err = ros.ProtoToROS(r.dst[:0], b, pc.PhaserType())
		// Valid protobuf bytes of a value the ROS1 type cannot hold (a
		// changed datatype byte: 32767 into a uint8) are refused as out
		// of range.
		r.decoded("ros.ProtoToROS", err, protoToROSRefusals...)
		m := runtime.New(pc.PhaserType())
		r.decoded("proto.Unmarshal", proto.Unmarshal(b, m), protoRefusals...)
		r.dst, err = ros.ConvertToROS(r.dst[:0], b, pc.PhaserType())
		r.decoded("ros.ConvertToROS", err, protoToROSRefusals...)
	}})
	rosBytes, err := ros.Marshal(pc.Msg())
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, tornPayload{"PointCloud2/ros1", rosBytes, func(r *tornReader, b []byte) {
		var err error
		r.dst, err = ros.ROSToProto(r.dst[:0], b, pc.PhaserType())
		// A torn string byte can leave ROS1 bytes that are valid but
		// not UTF-8, which a proto3 string cannot carry.
		r.decoded("ros.ROSToProto", err, ros.ErrInvalid, proto.ErrInvalidUTF8)
		m := runtime.New(pc.PhaserType())
		r.decoded("ros.Unmarshal", ros.Unmarshal(b, m), ros.ErrInvalid)
		r.dst, err = ros.ConvertToROS(r.dst[:0], b, pc.PhaserType())
		r.decoded("ros.ConvertToROS", err, ros.ErrInvalid)
	}})
	return out
}

// anonymous returns a copy of payload without its control block (the
// header's metadata word zeroed), which names the root's type: Read refuses
// a root whose type has another name (ErrWrongType), and the evolved
// schemas here have other names (the runtime keys types by name). Read
// then takes the root as the type asked for, as it does for any payload
// without a control block.
func anonymous(payload []byte) []byte {
	b := append([]byte(nil), payload...)
	clear(b[20:24])
	return b
}

// evolvedEverything returns the Type of phasertest.Everything as another
// version of its schema declares it (under another package name): a field
// added before the others, so that no message of it has the generated
// layout.
func evolvedEverything(t *testing.T) *runtime.Type {
	t.Helper()
	fd := pb.Everything{}.PhaserType().Descriptor().ParentFile()
	fdp := protodesc.ToFileDescriptorProto(fd)
	fdp.Name = gproto.String("torn_evolved.proto")
	fdp.Package = gproto.String("tornevolved")
	own := map[string]bool{}
	var names func(prefix string, ms []*descriptorpb.DescriptorProto, es []*descriptorpb.EnumDescriptorProto)
	names = func(prefix string, ms []*descriptorpb.DescriptorProto, es []*descriptorpb.EnumDescriptorProto) {
		for _, e := range es {
			own[prefix+e.GetName()] = true
		}
		for _, m := range ms {
			own[prefix+m.GetName()] = true
			names(prefix+m.GetName()+".", m.NestedType, m.EnumType)
		}
	}
	names(".phasertest.", fdp.MessageType, fdp.EnumType)
	var rename func(ms []*descriptorpb.DescriptorProto)
	rename = func(ms []*descriptorpb.DescriptorProto) {
		for _, m := range ms {
			for _, f := range m.Field {
				if own[f.GetTypeName()] {
					f.TypeName = gproto.String(".tornevolved." + strings.TrimPrefix(f.GetTypeName(), ".phasertest."))
				}
			}
			rename(m.NestedType)
		}
	}
	rename(fdp.MessageType)
	for _, m := range fdp.MessageType {
		if m.GetName() == "Everything" {
			added := &descriptorpb.FieldDescriptorProto{
				Name:     gproto.String("torn_added"),
				JsonName: gproto.String("tornAdded"),
				Number:   gproto.Int32(300),
				Label:    descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
				Type:     descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum(),
			}
			m.Field = append([]*descriptorpb.FieldDescriptorProto{added}, m.Field...)
		}
	}
	var deps protoregistry.Files
	for i := range fd.Imports().Len() {
		if err := deps.RegisterFile(fd.Imports().Get(i).FileDescriptor); err != nil {
			t.Fatal(err)
		}
	}
	efd, err := protodesc.NewFile(fdp, &deps)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := runtime.TypeOf(efd.Messages().ByName("Everything"))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// tornRun runs passes read passes of tp, spread over two readers, while a
// writer changes the bytes.
func tornRun(t *testing.T, tp tornPayload, passes int) {
	mem := append([]byte(nil), tp.bytes...)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the writer: restore, then change bytes one at a time
		defer wg.Done()
		r := rand.New(rand.NewPCG(1, uint64(len(mem))))
		for !stop.Load() {
			copy(mem, tp.bytes)
			for range 1 + r.IntN(24) {
				flip(r, mem)
			}
			// Then four words toggled between their value and a lie many
			// times: a reader that checks a value and reads it again sees
			// both. One store per iteration, chosen by the counter (two in
			// a row would be one: the compiler drops the first).
			var at [4]int
			var old, now [4][4]byte
			for w := range at {
				at[w] = r.IntN(len(mem)/4) * 4
				old[w], now[w] = [4]byte(mem[at[w]:]), lie(r, mem)
			}
			for k := range 8192 {
				w := k & 3
				v := &old[w]
				if k&4 != 0 {
					v = &now[w]
				}
				copy(mem[at[w]:], v[:])
			}
		}
	}()
	const readers = 2
	var failure atomic.Value
	var done atomic.Int64
	var rds [readers]tornReader
	for k := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd := &rds[k]
			for i := k; i < passes; i += readers {
				if failure.Load() != nil {
					return
				}
				if err := rd.pass(tp, mem, i); err != nil {
					failure.Store(err)
					return
				}
				done.Add(1)
			}
		}()
	}
	// The readers end, or one of them hangs: a pass taking more than a
	// minute is reported as a hang.
	finished := make(chan struct{})
	go func() {
		for failure.Load() == nil && done.Load() < int64(passes) {
			last := done.Load()
			select {
			case <-finished:
				return
			case <-time.After(time.Minute):
			}
			if done.Load() == last && failure.Load() == nil {
				failure.Store(fmt.Errorf("no read pass finished for a minute after %d passes (a hang)", last))
			}
		}
	}()
	for failure.Load() == nil && done.Load() < int64(passes) {
		time.Sleep(10 * time.Millisecond)
	}
	close(finished)
	stop.Store(true)
	if err := failure.Load(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	// The readers read (some passes see bytes that parse: most of a
	// payload's, a few of the protobuf encoding's, where one changed byte
	// is usually invalid), or the test does not test what it says; how many
	// the writer's lies had refused is logged (format 2's Read checks
	// little, so its lies reach the getters).
	var ok, refused int
	for i := range rds {
		ok += rds[i].ok
		refused += rds[i].refused
	}
	t.Logf("%d passes: %d reads or decodes succeeded, %d refused with the documented error", passes, ok, refused)
	if ok < passes/100 {
		t.Errorf("%d of %d read passes read anything", ok, passes)
	}
}

// flip changes one thing in mem: a byte, or an aligned word set to a lie
// (written byte by byte, so that readers also see half-written words).
func flip(r *rand.Rand, mem []byte) {
	i := r.IntN(len(mem))
	if r.IntN(4) == 0 {
		mem[i] ^= byte(1 + r.IntN(255))
		return
	}
	i &^= 3
	if i+4 > len(mem) {
		return
	}
	v := lie(r, mem)
	mem[i], mem[i+1], mem[i+2], mem[i+3] = v[0], v[1], v[2], v[3]
}

// lie returns a word that makes offsets, counts and table words lie: an
// offset inside or just past the payload, a small count, all ones, or
// another word of the payload (an offset, a count, a magic).
func lie(r *rand.Rand, mem []byte) [4]byte {
	var v uint32
	switch r.IntN(4) {
	case 0:
		v = uint32(r.IntN(len(mem) + 64))
	case 1:
		v = uint32(r.IntN(64))
	case 2:
		v = math.MaxUint32 - uint32(r.IntN(16))
	default:
		return [4]byte(mem[r.IntN(len(mem)/4)*4:])
	}
	return [4]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
}

// tornReader reads payloads; it keeps its scratch between passes.
type tornReader struct {
	p    runtime.Payload
	dst  []byte
	sink uint64
	copy pb.Everything
	into pb.Everything
	// ok and refused count the reads and decodes that succeeded and those
	// refused with an error; bad is the first error of a class the API
	// does not document for the call.
	ok, refused int
	bad         error
}

// read records the outcome of a Read of changing bytes and reports whether
// the pass goes on: a Read refuses bytes with an error wrapping
// runtime.ErrNotPayload or runtime.ErrWrongType (a changed control block
// names another root type), or reads them.
func (r *tornReader) read(err error) bool {
	if errors.Is(err, runtime.ErrWrongType) {
		r.refused++
		return false
	}
	r.decoded("Read", err, runtime.ErrNotPayload)
	return err == nil
}

// The documented errors of decoding torn protobuf bytes: invalid bytes;
// valid bytes of a proto3 string that is not UTF-8, or of more elements
// than a fixed array holds; and, converted to ROS1, a value the ROS1 type
// cannot hold.
var (
	protoRefusals      = []error{proto.ErrInvalid, proto.ErrInvalidUTF8, runtime.ErrArraySize}
	protoToROSRefusals = []error{ros.ErrInvalid, ros.ErrRange, proto.ErrInvalidUTF8, runtime.ErrArraySize}
)

// decoded records the outcome of a call that checks its input: nil, or an
// error wrapping one of want.
func (r *tornReader) decoded(call string, err error, want ...error) {
	if err == nil {
		r.ok++
		return
	}
	for _, w := range want {
		if errors.Is(err, w) {
			r.refused++
			return
		}
	}
	if r.bad == nil {
		r.bad = fmt.Errorf("%s: error %q wraps none of %q", call, err, want)
	}
}

// pass runs one read pass (the i-th), turning a panic into an error.
func (r *tornReader) pass(tp tornPayload, mem []byte, i int) (err error) {
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("%s, pass %d: panic: %v\n%s", tp.name, i, e, debug.Stack())
		}
	}()
	r.sink += uint64(i)
	tp.read(r, mem)
	if r.bad != nil {
		return fmt.Errorf("%s, pass %d: %w", tp.name, i, r.bad)
	}
	return nil
}

// heavy runs, by the pass number, one of the whole-message paths.
func (r *tornReader) heavy(m runtime.Msg, b []byte) {
	var n int
	switch r.sink % 8 {
	case 0:
		n, _ = proto.Size(m)
	case 1:
		r.dst, _ = proto.Append(r.dst[:0], m)
	case 2:
		r.dst, _ = ros.Append(r.dst[:0], m)
	case 3:
		n, _ = ros.Size(m)
	case 4:
		if pm, err := m.ToProto(); err == nil && pm != nil {
			n = 1
		}
	case 5:
		if !r.copy.Msg().IsPresent() {
			r.copy = pb.NewEverything()
		}
		if m.Type() == r.copy.Msg().Type() {
			r.copy.Msg().CopyFrom(m)
		} else {
			c := runtime.New(m.Type())
			c.CopyFrom(m)
		}
	case 6:
		r.dst, _ = ros.PhaserToROS(r.dst[:0], b, m.Type())
	case 7:
		n = int(ros.InferFormat(b))
	}
	r.sink += uint64(n + len(r.dst))
}

// walk reads every field of m through the dynamic view, a few elements of
// each repeated field, to a depth of 4.
func (r *tornReader) walk(m runtime.Msg, depth int) {
	if depth > 4 || m.Type() == nil || !m.IsPresent() {
		return
	}
	md := m.Type().Descriptor()
	if md.FullName() == "google.protobuf.Any" {
		a := runtime.AnyOf(m)
		if t := runtime.FindType(protoreflect.FullName(a.TypeName())); t != nil {
			r.walk(a.Value(t), depth+1)
		}
		return
	}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if m.Has(fd) {
			r.sink++
		}
		switch {
		case fd.IsList() || fd.IsMap():
			n := m.Len(fd)
			r.sink += uint64(n)
			for j := range min(n, 3) {
				if fd.Message() != nil {
					r.walk(m.IndexMessage(fd, j), depth+1)
				} else {
					r.value(m.Index(fd, j))
				}
			}
		case fd.Message() != nil:
			r.walk(m.Message(fd), depth+1)
		default:
			r.value(m.Get(fd))
		}
	}
	for i := range md.Oneofs().Len() {
		if fd := m.WhichOneof(md.Oneofs().Get(i)); fd != nil {
			r.sink += uint64(fd.Number())
		}
	}
}

func (r *tornReader) value(v protoreflect.Value) {
	switch x := v.Interface().(type) {
	case string:
		r.sink += uint64(len(x))
	case []byte:
		r.sink += uint64(len(x))
	case int32:
		r.sink += uint64(x)
	case int64:
		r.sink += uint64(x)
	case uint32:
		r.sink += uint64(x)
	case uint64:
		r.sink += x
	case float64:
		r.sink += uint64(x)
	case protoreflect.EnumNumber:
		r.sink += uint64(x)
	}
}

// everything is a read pass of an Everything: generated getters, views,
// lists and maps, then the dynamic view or a whole-message path.
func (r *tornReader) everything(b []byte) {
	x, err := pb.ReadEverythingInto(&r.p, b)
	if !r.read(err) {
		return
	}
	s := x.Scalars()
	v := s.View()
	r.sink += uint64(s.FInt32()) + uint64(len(s.FString())) + uint64(v.FInt64()) + uint64(v.FDouble())
	if v.HasFBool() {
		r.sink++
	}
	rep := x.Repeated()
	for _, e := range rep.RInt32().All() {
		r.sink += uint64(e)
	}
	r.sink += uint64(len(rep.RDouble().AppendTo(nil)))
	for _, e := range rep.RString().All() {
		r.sink += uint64(len(e))
	}
	r.sink += uint64(rep.RBytes().Len()) + uint64(len(rep.RBytes().AtBytes(0)))
	for _, in := range x.Inners().All() {
		r.sink += uint64(in.A()) + uint64(len(in.S())) + uint64(in.Deep().Names().Len())
	}
	for i := range x.Remotes().Len() {
		rm := x.Remotes().At(i)
		r.sink += uint64(len(rm.Id())) + uint64(rm.Parts().Len()) + uint64(len(rm.Parts().At(0).Tag()))
	}
	for _, e := range x.Counts().All() {
		r.sink += uint64(len(e.Key())) + uint64(e.Value())
	}
	for _, e := range x.ById().All() {
		r.sink += uint64(e.Key()) + uint64(len(e.Value().S()))
	}
	for _, e := range x.LabelsByKey().All() {
		r.sink += uint64(len(e.Key())) + uint64(len(e.Value()))
	}
	if ai, ok := pb.InnerFromAny(x.Any()); ok {
		r.sink += uint64(ai.A())
	}
	for _, a := range x.Anys().All() {
		if sc, ok := pb.ScalarsFromAny(a); ok {
			r.sink += uint64(sc.FInt32())
		}
		r.sink += uint64(len(a.TypeURL()))
	}
	r.sink += uint64(x.WhichChoice()) + uint64(x.ChoiceInner().A()) + uint64(len(x.ChoiceString()))
	r.sink += uint64(x.Node().Children().Len()) + uint64(x.Node().Next().Next().Value())
	r.sink += uint64(x.At().Seconds()) + uint64(x.Grid().At(2)) + uint64(len(x.Labels().At(1))) + uint64(x.Cells().At(1).A())
	r.sink += uint64(x.OptInt32()) + uint64(len(x.OptString())) + uint64(x.Mode()) + uint64(x.Modes().Len())
	if r.sink%3 == 0 {
		r.walk(x.Msg(), 0)
		return
	}
	r.heavy(x.Msg(), b)
}

// inner is a read pass of an Inner written by a newer schema.
func (r *tornReader) inner(b []byte) {
	x, err := pb.ReadInnerInto(&r.p, b)
	if !r.read(err) {
		return
	}
	r.sink += uint64(x.A()) + uint64(len(x.S())) + uint64(x.Deep().X()) + uint64(x.Deep().Names().Len())
	if x.HasS() {
		r.sink++
	}
	r.walk(x.Msg(), 0)
	r.heavy(x.Msg(), b)
}

// pointCloud is a read pass of a ROS-frontend PointCloud2.
func (r *tornReader) pointCloud(b []byte) {
	x, err := sensor_msgsphaser.ReadPointCloud2Into(&r.p, b)
	if !r.read(err) {
		return
	}
	r.sink += uint64(len(x.Header().FrameId())) + uint64(x.Header().Stamp().Nanos()) + uint64(x.Width()) + uint64(len(x.Data()))
	for _, f := range x.Fields().All() {
		r.sink += uint64(len(f.Name())) + uint64(f.Offset()) + uint64(f.Datatype())
	}
	r.walk(x.Msg(), 0)
	r.heavy(x.Msg(), b)
}

// TestROSToProtoTorn converts ROS1 bytes whose element count another
// goroutine changes between the converter's two passes: the second must
// use the count the first checked against the input (it read the count
// again, and a count of 2^32-1 made it write four billion elements).
func TestROSToProtoTorn(t *testing.T) {
	x := pb.NewRepeated()
	x.RInt32().Append(1)
	x.RInt32().Append(2)
	x.RInt32().Append(3)
	b, err := ros.Marshal(x.Msg())
	if err != nil {
		t.Fatal(err)
	}
	// r_double and r_float are empty (a zero count each): r_int32's count
	// is the third word.
	if b[8] != 3 {
		t.Fatalf("ROS bytes % x: r_int32's count is not at 8", b[:16])
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// One store per iteration, chosen by the counter (two in a row
		// would be one: the compiler drops the first).
		for i := 0; !stop.Load(); i++ {
			v := byte(3)
			if i&1 != 0 {
				v = 0xFF
			}
			b[8], b[9], b[10], b[11] = v, v&0xFC, v&0xFC, v&0xFC
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	var dst []byte
	for i := range 200_000 {
		dst, _ = ros.ROSToProto(dst[:0], b, x.PhaserType())
		if len(dst) > 1<<10 {
			t.Fatalf("conversion %d: %d bytes of protobuf from %d ROS1 bytes", i, len(dst), len(b))
		}
	}
}

// evolvedInner is another version of phasertest.Inner (under another name,
// since the runtime keys its types by name): a field added before the
// others, fields reordered, and Deep with a new field. Its payloads have
// other layouts, which readers resolve through the payload's field tables.
const evolvedInner = `
name: "evolved.proto" package: "evolved" syntax: "proto3"
message_type {
  name: "Inner"
  field { name: "added" number: 4 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "s" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "flag" number: 5 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "a" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "deep" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".evolved.Inner.Deep" }
  nested_type {
    name: "Deep"
    field { name: "extra" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "names" number: 2 label: LABEL_REPEATED type: TYPE_STRING }
    field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 }
  }
}`

func evolvedType(t *testing.T) *runtime.Type {
	t.Helper()
	fdp := new(descriptorpb.FileDescriptorProto)
	if err := prototext.Unmarshal([]byte(evolvedInner), fdp); err != nil {
		t.Fatal(err)
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := runtime.TypeOf(fd.Messages().ByName("Inner"))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}
