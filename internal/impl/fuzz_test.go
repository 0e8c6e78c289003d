package impl_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/importedpb"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// Hostile-input hardening of the read-only view (spec 6.2).
//
// FuzzRead reads arbitrary bytes as every message type of the golden
// schemas (when the goldens are present) and of a few rich schemas linked
// into Go (descriptor.proto, struct.proto, any.proto, ...), and exercises
// every read accessor through a generic walker over Type.Fields(), the
// writes that a read-only handle must ignore, ToProto and CopyFrom. It
// requires: no panic, payload bytes never modified, bounded results, and
// bounded work. Work is checked without risking a hang of the test process:
// the cost of ToProto and CopyFrom is first computed by a capped walker that
// follows the same references they do; above the cap the call runs in a
// child process that must finish within childTimeout, below it in-process
// under a watchdog.
//
// Seeds: the golden payloads (added at run time, never committed) and the
// payloads committed under testdata/fuzz/FuzzRead, which
// TestWriteFuzzSeeds regenerates (PHASER_WRITE_FUZZ_SEEDS=1).

const (
	walkDepth    = 12      // nesting depth the accessor walker follows
	walkBudget   = 500     // messages the accessor walker visits per type
	elemProbe    = 16      // elements probed at each end of a vector
	directCost   = 200_000 // ToProto/CopyFrom cost run in-process
	childTimeout = 2 * time.Second
	envChild     = "PHASER_FUZZ_CHILD"
)

var binaryLE = binary.LittleEndian

var fuzzSetup struct {
	once  sync.Once
	types []*impl.Type
	dir   string // golden directory, "" when absent
	err   error
}

// builtinFiles are schemas available in Go without the goldens.
var builtinFiles = []protoreflect.FileDescriptor{
	testpb.File_testpb_proto, // singular messages: inline in the ROS frontend
	importedpb.File_importedpb_imported_proto,
	descriptorpb.File_google_protobuf_descriptor_proto,
	structpb.File_google_protobuf_struct_proto,
	anypb.File_google_protobuf_any_proto,
	timestamppb.File_google_protobuf_timestamp_proto,
	durationpb.File_google_protobuf_duration_proto,
	wrapperspb.File_google_protobuf_wrappers_proto,
	emptypb.File_google_protobuf_empty_proto,
}

// goldenDirIfPresent locates the goldens like goldens.Dir, without skipping.
func goldenDirIfPresent() string {
	d := os.Getenv(goldens.EnvDir)
	if d == "" {
		root, err := goldens.ModuleRoot()
		if err != nil {
			return ""
		}
		d = filepath.Join(root, "..", "shared", "goldens")
	}
	if _, err := os.Stat(filepath.Join(d, goldens.ManifestName)); err != nil {
		return ""
	}
	return d
}

// fuzzTypes returns the types every input is read as, sorted by name.
func fuzzTypes(tb testing.TB) []*impl.Type {
	tb.Helper()
	fuzzSetup.once.Do(func() {
		seen := map[*impl.Type]bool{}
		var walk func(ms protoreflect.MessageDescriptors)
		walk = func(ms protoreflect.MessageDescriptors) {
			for i := range ms.Len() {
				md := ms.Get(i)
				t, err := impl.TypeOf(md)
				if err != nil {
					fuzzSetup.err = fmt.Errorf("TypeOf(%s): %w", md.FullName(), err)
					return
				}
				// The ROS frontend's type too where its layout differs
				// (inline messages: compiled offsets with table id 0xFF).
				rt, err := impl.TypeFor(md, impl.ROSFrontend)
				if err != nil {
					fuzzSetup.err = fmt.Errorf("TypeFor(%s, ros): %w", md.FullName(), err)
					return
				}
				for _, t := range []*impl.Type{t, rt} {
					if !seen[t] && (t == rt || !bytes.Equal(rt.Table(), t.Table())) {
						seen[t] = true
						fuzzSetup.types = append(fuzzSetup.types, t)
					}
				}
				walk(md.Messages())
			}
		}
		for _, fd := range builtinFiles {
			walk(fd.Messages())
		}
		if dir := goldenDirIfPresent(); dir != "" {
			files, err := goldens.Files(dir)
			if err != nil {
				fuzzSetup.err = err
				return
			}
			fuzzSetup.dir = dir
			files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
				walk(fd.Messages())
				return true
			})
		}
		slices.SortFunc(fuzzSetup.types, func(a, b *impl.Type) int {
			return cmp.Or(strings.Compare(a.Name(), b.Name()), cmp.Compare(a.Frontend(), b.Frontend()))
		})
	})
	if fuzzSetup.err != nil {
		tb.Fatal(fuzzSetup.err)
	}
	return fuzzSetup.types
}

func FuzzRead(f *testing.F) {
	types := fuzzTypes(f)
	if dir := fuzzSetup.dir; dir != "" {
		cases, err := goldens.Manifest(dir)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			data, err := c.Read(dir, ".phaser.bin")
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	} else {
		f.Logf("goldens not found: seeding with the committed corpus only")
	}
	// Each input is read as the types whose compiled table is its root's
	// table and two picked by its last byte (openWriteTypes), not as every
	// type: a few hundred read passes per input made the target run ten
	// inputs a second. The fuzzer reaches the other types by changing the
	// last byte.
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range openWriteTypes(types, data) {
			checkHostileRead(t, typ, data)
		}
	})
}

// FuzzReadInline is FuzzRead for the types whose ROS-frontend layout stores
// messages inline (spec 8.9), read through both frontends: fewer types per
// input, so many more inputs per second on the inline and v3 paths. Its
// corpus is testdata/fuzz/FuzzReadInline.
func FuzzReadInline(f *testing.F) {
	var types []*impl.Type
	for _, t := range fuzzTypes(f) {
		if t.Frontend() != impl.ROSFrontend {
			continue
		}
		pb, err := impl.TypeOf(t.Descriptor())
		if err != nil {
			f.Fatal(err)
		}
		types = append(types, t, pb)
	}
	if len(types) == 0 {
		f.Fatal("no type has an inline layout")
	}
	for _, s := range hostileSeeds(f) {
		if strings.HasPrefix(s.name, "ros_") {
			f.Add(s.data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range openWriteTypes(types, data) {
			checkHostileRead(t, typ, data)
		}
	})
}

// checkHostileRead reads data as typ and checks every read-only guarantee.
func checkHostileRead(t *testing.T, typ *impl.Type, data []byte) {
	orig := bytes.Clone(data)
	m, err := impl.Read(typ, data)
	if errors.Is(err, impl.ErrWrongType) {
		// Refused, naming another type: the rest reads it regardless, as a
		// hostile payload can claim any type.
		m, err = impl.ReadAsAny(typ, data)
	}
	if err != nil {
		if !errors.Is(err, impl.ErrNotPayload) {
			t.Fatalf("Read(%s): error %v does not wrap ErrNotPayload", typ.Name(), err)
		}
		return
	}
	if m.Payload() == nil {
		t.Fatalf("Read(%s): nil payload", typ.Name())
	}
	w := &fuzzWalker{t: t, data: data, budget: walkBudget}
	w.msg(m, typ, 0)
	// A second type bound to the same message: type confusion must be as
	// safe as a hostile table.
	w.msg(m, impl.AnyType(), walkDepth-2)
	if err := m.Err(); err != nil {
		t.Fatalf("%s: reads set Err() = %v", typ.Name(), err)
	}
	if !bytes.Equal(data, orig) {
		t.Fatalf("%s: reading modified the payload", typ.Name())
	}

	c := &fuzzCost{limit: directCost, visits: int64(len(data)/4 + 64)}
	toProtoWalk(m, typ, 0, c)
	switch {
	case c.n <= directCost:
		watchdog("ToProto of "+typ.Name(), data, func() {
			out, err := m.ToProto(typ)
			if err != nil {
				return
			}
			_, _ = proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(out)
			_ = prototext.MarshalOptions{Multiline: true, AllowPartial: true}.Format(out)
			if n := contentSize(out.ProtoReflect()); n > maxExpansion(data) {
				t.Errorf("ToProto of %s: a %d-byte payload expands to %d values (more than %d): "+
					"the copy follows repeated references to the same strings or vectors",
					typ.Name(), len(data), n, maxExpansion(data))
			}
		})
	default:
		runIsolated(t, "ToProto", typ, data, c.n)
	}
	switch c := copyCost(m, typ); {
	case c <= directCost:
		watchdog("CopyFrom of "+typ.Name(), data, func() {
			dst := impl.New(typ, impl.Options{})
			dst.CopyFrom(typ, m)
			if n := len(dst.PayloadBytes()); n > 8*len(data)+64<<10 {
				t.Errorf("CopyFrom of %s: a %d-byte payload makes a %d-byte copy: "+
					"the copy follows shared references without a bound", typ.Name(), len(data), n)
			}
		})
	default:
		runIsolated(t, "CopyFrom", typ, data, c)
	}

	tryWrites(t, m, typ)
	if !bytes.Equal(data, orig) {
		t.Fatalf("%s: a write through the read-only handle modified the payload", typ.Name())
	}
	if !errors.Is(m.Err(), impl.ErrReadOnly) {
		t.Fatalf("%s: writes through a read handle: Err() = %v, want ErrReadOnly", typ.Name(), m.Err())
	}
}

// fuzzWalker exercises every read accessor of a message and its fields.
type fuzzWalker struct {
	t      testing.TB
	data   []byte
	budget int
}

func (w *fuzzWalker) fail(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf(format, args...)
}

// inData reports whether b is empty or lies inside the payload, with no
// capacity past its end.
func (w *fuzzWalker) inData(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if cap(b) != len(b) || len(w.data) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	base := uintptr(unsafe.Pointer(unsafe.SliceData(w.data)))
	return p >= base && p-base+uintptr(len(b)) <= uintptr(len(w.data))
}

func isAnyType(t *impl.Type) bool { return t.Name() == "google.protobuf.Any" }

// elemSize is the size of one element of a repeated field of kind k.
func fuzzElemSize(k impl.Kind) int {
	switch k {
	case impl.Bool:
		return 1
	case impl.Int64, impl.Uint64, impl.Double:
		return 8
	}
	return 4
}

func (w *fuzzWalker) msg(m impl.Msg, typ *impl.Type, depth int) {
	if depth > walkDepth || w.budget <= 0 {
		return
	}
	w.budget--
	_ = m.Offset()
	_ = m.Failed()
	if m.IsPresent() && m.Payload() == nil {
		w.fail("%s: present message without payload", typ.Name())
	}
	if b := m.PayloadBytes(); m.Payload() != nil && len(b) != len(w.data) {
		w.fail("PayloadBytes: %d bytes, payload %d", len(b), len(w.data))
	}
	if isAnyType(typ) {
		w.any(m, depth)
	}
	for _, f := range typ.Fields() {
		w.field(m, typ, f, depth)
	}
	w.view(m, typ)
	// With a foreign or hostile table the members of a oneof need not
	// share an offset, so WhichOneof and HasMember may disagree: only
	// safety is checked.
	for _, u := range typ.Unions() {
		_ = m.WhichOneof(u)
	}
}

// view checks that ViewOf reads every singular scalar outside a oneof as
// the Msg getters do, at the field's width, whatever the table says.
func (w *fuzzWalker) view(m impl.Msg, typ *impl.Type) {
	for _, d := range viewDiffs(m.ViewOf(typ), m, typ) {
		w.fail("ViewOf: %s", d)
	}
}

func (w *fuzzWalker) any(m impl.Msg, depth int) {
	a := impl.AnyOf(m)
	_ = a.IsPresent()
	url := a.TypeURL()
	name := a.TypeName()
	if !strings.HasSuffix(url, name) {
		w.fail("Any: type name %q is not a suffix of %q", name, url)
	}
	_ = a.Is(impl.AnyType())
	if inner := impl.FindType(protoreflect.FullName(name)); inner != nil {
		w.msg(a.Value(inner), inner, depth+1)
	}
	w.msg(m.AnyValue(impl.AnyType()), impl.AnyType(), depth+1)
}

func (w *fuzzWalker) field(m impl.Msg, typ *impl.Type, f *impl.FieldInfo, depth int) {
	// Every width at every field: hostile tables can make any read land
	// at the end of the payload. (A compiled handle reads its compiled
	// offsets, each value as wide as its field, as generated code does.)
	switch size := f.Size; {
	case !m.Compiled():
		_, _, _ = m.Get8(f.Field), m.Get32(f.Field), m.Get64(f.Field)
		_ = m.Has(f.Field)
	case f.Union != nil:
		_ = m.Get32(f.Field) // the discriminator
	case size >= 8:
		_ = m.Get64(f.Field)
	case size >= 4:
		_ = m.Get32(f.Field)
	default:
		_ = m.Get8(f.Field)
	}
	_, _, _ = m.Raw8(f.Field), m.Raw32(f.Field), m.Raw64(f.Field)
	if s := m.StringBytes(f.Field); !w.inData(s) {
		w.fail("%s.%s: StringBytes outside the payload", typ.Name(), f.Name)
	}
	_ = m.HasString(f.Field)
	_ = m.HasMessage(f.Field)
	_, _, _ = m.Member8(f.Field), m.Member32(f.Field), m.Member64(f.Field)
	if s := m.MemberString(f.Field); !w.inData(s) {
		w.fail("%s.%s: MemberString outside the payload", typ.Name(), f.Name)
	}
	if f.Kind != impl.Message || f.Repeated {
		v, _ := m.Value(f)
		_ = v
	}
	sizes := []int{4}
	switch {
	case f.Repeated:
		sizes = []int{1, 4, 8}
	case m.Compiled():
		sizes = nil // the vector accessors of a compiled handle take its repeated fields
	}
	for _, size := range sizes {
		n := m.Len(f.Field, size)
		if n < 0 || uint64(n)*uint64(size) > uint64(len(w.data)) {
			w.fail("%s.%s: Len(%d) = %d with %d bytes", typ.Name(), f.Name, size, n, len(w.data))
		}
		if sp := m.Span(f.Field, size); len(sp) != n*size || !w.inData(sp) {
			w.fail("%s.%s: Span(%d) = %d bytes, want %d in the payload", typ.Name(), f.Name, size, len(sp), n*size)
		}
		for _, i := range []int{-1, n, math.MaxInt32, math.MinInt} {
			if o := m.Elem(f.Field, i, size); o != 0 {
				w.fail("%s.%s: Elem(%d) of %d = %d", typ.Name(), f.Name, i, n, o)
			}
		}
		if size != fuzzElemSize(f.Kind) {
			continue
		}
		for _, i := range probeIndices(n) {
			if o := m.Elem(f.Field, i, size); uint64(o)+uint64(size) > uint64(len(w.data)) || o == 0 {
				w.fail("%s.%s: Elem(%d, size %d) = %d with %d bytes", typ.Name(), f.Name, i, size, o, len(w.data))
			}
		}
	}
	switch {
	case f.Repeated:
		w.repeated(m, typ, f, depth)
	case f.Kind == impl.Message:
		var sub impl.Msg
		if f.Union != nil {
			sub = m.MemberMessage(f.Field, f.Type)
		} else {
			sub = m.Message(f.Field, f.Type)
		}
		w.msg(sub, f.Type, depth+1)
	}
}

// probe returns the indices of a vector of n elements the fuzzWalker reads.
func probeIndices(n int) []int {
	if n <= 2*elemProbe {
		r := make([]int, n)
		for i := range r {
			r[i] = i
		}
		return r
	}
	var r []int
	for i := range elemProbe {
		r = append(r, i, n-1-i)
	}
	return r
}

func (w *fuzzWalker) repeated(m impl.Msg, typ *impl.Type, f *impl.FieldInfo, depth int) {
	size := fuzzElemSize(f.Kind)
	n := m.Len(f.Field, size)
	facade := n // the length the list handles give: N for a fixed array
	if f.Fixed != 0 {
		facade = int(f.Fixed)
	}
	switch f.Kind {
	case impl.String, impl.Bytes:
		l := phaserimpl.Strings(m, f.Field)
		if l.Len() != facade {
			w.fail("%s.%s: StringList.Len %d, Len %d", typ.Name(), f.Name, l.Len(), facade)
		}
		for _, i := range probeIndices(n) {
			if s := m.ElemString(f.Field, i); !w.inData(s) {
				w.fail("%s.%s[%d]: ElemString outside the payload", typ.Name(), f.Name, i)
			}
			_ = l.At(i)
		}
		if l.AtBytes(facade) != nil || m.ElemString(f.Field, -1) != nil {
			w.fail("%s.%s: string element out of range is not nil", typ.Name(), f.Name)
		}
	case impl.Message:
		l := impl.NewMessageList(m, f.Field, f.Type)
		for _, i := range probeIndices(n) {
			w.msg(m.ElemMessage(f.Field, i, f.Type), f.Type, depth+1)
			_ = l.At(i)
		}
		if m.ElemMessage(f.Field, n, f.Type).IsPresent() || l.At(-1).IsPresent() {
			w.fail("%s.%s: message element out of range is present", typ.Name(), f.Name)
		}
		// All yields what At does (the first elements: a hostile count
		// may be far beyond what the payload holds).
		k := 0
		for i, e := range l.All() {
			if i != k || e != l.At(i) {
				w.fail("%s.%s[%d]: All gave %+v at step %d, At gives %+v", typ.Name(), f.Name, i, e, k, l.At(i))
			}
			if k++; k == 64 {
				break
			}
		}
		if k < min(l.Len(), 64) {
			w.fail("%s.%s: All stopped after %d of %d elements", typ.Name(), f.Name, k, l.Len())
		}
	default:
		for _, i := range probeIndices(n) {
			switch size {
			case 1:
				_ = m.Elem8(f.Field, i)
			case 4:
				_ = m.Elem32(f.Field, i)
			default:
				_ = m.Elem64(f.Field, i)
			}
		}
		_, _, _ = m.Elem8(f.Field, n), m.Elem32(f.Field, n), m.Elem64(f.Field, n)
		// The typed lists, and their iterators stopped early.
		for range phaserimpl.List[bool](m, f.Field).All() {
			break
		}
		_ = phaserimpl.List[int32](m, f.Field).At(0)
		_ = phaserimpl.List[uint32](m, f.Field).At(n - 1)
		_ = phaserimpl.List[int64](m, f.Field).At(0)
		_ = phaserimpl.List[uint64](m, f.Field).At(n - 1)
		_ = phaserimpl.List[float32](m, f.Field).At(0)
		_ = phaserimpl.List[float64](m, f.Field).At(n - 1)
		// AppendTo reads what At does.
		var got []uint64
		switch size {
		case 1:
			for _, v := range phaserimpl.List[bool](m, f.Field).AppendTo(nil) {
				got = append(got, uint64(b2u(v)))
			}
		case 4:
			for _, v := range phaserimpl.List[uint32](m, f.Field).AppendTo(nil) {
				got = append(got, uint64(v))
			}
		default:
			got = phaserimpl.List[uint64](m, f.Field).AppendTo(nil)
		}
		if len(got) != facade {
			w.fail("%s.%s: AppendTo gave %d elements, Len %d, stored %d", typ.Name(), f.Name, len(got), facade, n)
		}
		for _, i := range probeIndices(n) {
			want := m.Elem64(f.Field, i)
			switch size {
			case 1:
				want = uint64(b2u(m.Elem8(f.Field, i) != 0))
			case 4:
				want = uint64(m.Elem32(f.Field, i))
			}
			if i < len(got) && got[i] != want {
				w.fail("%s.%s[%d]: AppendTo gave %#x, At %#x", typ.Name(), f.Name, i, got[i], want)
			}
		}
	}
}

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// fuzzCost measures work: messages visited, elements and string bytes copied.
type fuzzCost struct {
	n     int64
	limit int64
	// visits left before ToProto gives up (its bound for received
	// payloads: len/4+64 messages and message elements); -1: no bound.
	visits int64
}

// visit charges one message visit, as ToProto does; false once ToProto
// would stop.
func (c *fuzzCost) visit() bool {
	if c.visits < 0 {
		return true
	}
	c.visits--
	return c.visits >= 0
}

func (c *fuzzCost) add(n int64) bool {
	c.n += n
	return c.n <= c.limit
}

const runtimeMaxDepth = 100 // runtime's bound on nesting (dynamic.go)

// toProtoWalk adds to c the work ToProto does on m (capped just above
// c.limit), following the references it follows in the same order and
// stopping where it stops (nesting deeper than runtimeMaxDepth, unknown Any
// type, visit budget spent: the runtime's bound for received payloads).
// Calls it estimates as cheap run in-process under a watchdog that crashes
// the test binary if the runtime ever loses that bound.
// It returns false when ToProto would stop (error) or the cap is reached.
func toProtoWalk(m impl.Msg, typ *impl.Type, depth int, c *fuzzCost) bool {
	if depth > runtimeMaxDepth || !c.add(1) || !c.visit() {
		return false
	}
	if !m.IsPresent() {
		return true
	}
	if isAnyType(typ) {
		if !m.HasString(typ.FieldByNumber(2).Field) {
			return true
		}
		inner := impl.FindType(protoreflect.FullName(m.AnyTypeName()))
		if inner == nil {
			return false
		}
		if !toProtoWalk(m.AnyValue(inner), inner, depth+1, c) {
			return false
		}
		return c.add(int64(depth)) // re-marshaling at every level
	}
	for _, f := range typ.Fields() {
		ok := true
		switch {
		case f.Repeated:
			n := m.Len(f.Field, fuzzElemSize(f.Kind))
			for i := range n {
				switch f.Kind {
				case impl.Message:
					ok = (f.Desc.IsMap() || c.visit()) && toProtoWalk(m.ElemMessage(f.Field, i, f.Type), f.Type, depth+1, c)
				case impl.String, impl.Bytes:
					ok = c.add(1 + int64(len(m.ElemString(f.Field, i)))/64)
				default:
					ok = c.add(1)
				}
				if !ok {
					break
				}
			}
		case f.Kind == impl.Message:
			switch {
			case f.Union != nil:
				if m.HasMember(f.Field) {
					ok = toProtoWalk(m.MemberMessage(f.Field, f.Type), f.Type, depth+1, c)
				}
			case m.HasMessage(f.Field):
				ok = toProtoWalk(m.Message(f.Field, f.Type), f.Type, depth+1, c)
			}
		case f.Kind == impl.String || f.Kind == impl.Bytes:
			ok = c.add(1 + int64(len(m.StringBytes(f.Field))+len(m.MemberString(f.Field)))/64)
		default:
			ok = c.add(1)
		}
		if !ok {
			return false
		}
	}
	return true
}

// copyCost returns the work CopyFrom does on m (capped): the references
// it follows, which do not stop at the depth bound (copy.go returns from
// the too-deep branch and goes on with the others).
func copyCost(m impl.Msg, typ *impl.Type) int64 {
	c := &fuzzCost{limit: directCost, visits: -1}
	copyWalk(m, typ, 0, c)
	return c.n
}

func copyWalk(m impl.Msg, typ *impl.Type, depth int, c *fuzzCost) bool {
	if !c.add(1) {
		return false
	}
	if !m.IsPresent() || depth > runtimeMaxDepth {
		return true
	}
	if isAnyType(typ) {
		if !m.HasString(typ.FieldByNumber(2).Field) {
			return true
		}
		inner := impl.FindType(protoreflect.FullName(m.AnyTypeName()))
		if inner == nil {
			return true
		}
		return copyWalk(m.AnyValue(inner), inner, depth+1, c)
	}
	for _, f := range typ.Fields() {
		ok := true
		switch {
		case f.Repeated:
			n := m.Len(f.Field, fuzzElemSize(f.Kind))
			for i := range n {
				switch f.Kind {
				case impl.Message:
					ok = copyWalk(m.ElemMessage(f.Field, i, f.Type), f.Type, depth+1, c)
				case impl.String, impl.Bytes:
					ok = c.add(1 + int64(len(m.ElemString(f.Field, i)))/64)
				default:
					ok = c.add(1)
				}
				if !ok {
					break
				}
			}
		case f.Kind == impl.Message:
			switch {
			case f.Union != nil:
				if m.HasMember(f.Field) {
					ok = copyWalk(m.MemberMessage(f.Field, f.Type), f.Type, depth+1, c)
				}
			case m.HasMessage(f.Field):
				ok = copyWalk(m.Message(f.Field, f.Type), f.Type, depth+1, c)
			}
		case f.Kind == impl.String || f.Kind == impl.Bytes:
			ok = c.add(1 + int64(len(m.StringBytes(f.Field))+len(m.MemberString(f.Field)))/64)
		default:
			ok = c.add(1)
		}
		if !ok {
			return false
		}
	}
	return true
}

// maxExpansion bounds the content a payload of data can hold: every
// message takes at least 4 bytes, every element at least 1, string bytes 1.
func maxExpansion(data []byte) int { return 2*len(data) + 256 }

// contentSize counts the values of m: messages, elements and map entries,
// and string and bytes content by 8 bytes.
func contentSize(m protoreflect.Message) int {
	n := 1
	value := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		switch {
		case fd.Message() != nil:
			n += contentSize(v.Message())
		case fd.Kind() == protoreflect.StringKind:
			n += 1 + len(v.String())/8
		case fd.Kind() == protoreflect.BytesKind:
			n += 1 + len(v.Bytes())/8
		default:
			n++
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				n++
				value(fd.MapValue(), mv)
				return true
			})
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				value(fd, l.Get(i))
			}
		default:
			value(fd, v)
		}
		return true
	})
	return n
}

// watchdogTimeout bounds an in-process call that the cost estimate found
// cheap; exceeding it means the estimate (or the runtime) is wrong.
const watchdogTimeout = 20 * time.Second

// watchdog runs f and crashes the process, naming what hung, if f does not
// return within watchdogTimeout (a hung test binary would only be killed
// by -timeout, much later and without the input).
func watchdog(what string, data []byte, f func()) {
	timer := time.AfterFunc(watchdogTimeout, func() {
		panic(fmt.Sprintf("%s on %d bytes did not return within %v: work is not bounded", what, len(data), watchdogTimeout))
	})
	defer timer.Stop()
	f()
}

// runIsolated runs op (ToProto or CopyFrom) on data read as typ in a child
// process, and fails if it does not return within childTimeout.
func runIsolated(t *testing.T, op string, typ *impl.Type, data []byte, c int64) {
	t.Helper()
	if os.Getenv(envChild) != "" {
		t.Fatalf("nested isolated run")
	}
	path := filepath.Join(t.TempDir(), "payload")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestFuzzReadChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envChild+"="+op+"\t"+typ.Name()+"\t"+path)
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 || ctx.Err() != nil {
		t.Errorf("%s of %s on %d bytes did not return within %v (it follows more than %d references: "+
			"work is not bounded by the payload size)", op, typ.Name(), len(data), childTimeout, c)
		return
	}
	t.Errorf("%s of %s on %d bytes failed in a child process: %v\n%s", op, typ.Name(), len(data), err, out)
}

// TestFuzzReadChild is the child process of isolated; it does nothing in a
// normal run.
func TestFuzzReadChild(t *testing.T) {
	spec := os.Getenv(envChild)
	if spec == "" {
		t.Skip("run by FuzzRead in a child process")
	}
	parts := strings.Split(spec, "\t")
	if len(parts) != 3 {
		t.Fatalf("bad %s=%q", envChild, spec)
	}
	op, name, path := parts[0], parts[1], parts[2]
	fuzzTypes(t)
	typ := impl.FindType(protoreflect.FullName(name))
	if typ == nil {
		t.Fatalf("unknown type %s", name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := impl.Read(typ, data)
	if err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		switch op {
		case "ToProto":
			_, _ = m.ToProto(typ)
		case "CopyFrom":
			impl.New(typ, impl.Options{}).CopyFrom(typ, m)
		default:
			panic("unknown op " + op)
		}
	}()
	select {
	case <-done:
	case <-time.After(childTimeout):
		fmt.Fprintf(os.Stderr, "%s of %s: still running after %v\n", op, name, childTimeout)
		os.Exit(3)
	}
}

// tryWrites calls every write accessor on the read-only message m (and on
// an absent nested handle); the payload must stay unchanged.
func tryWrites(t *testing.T, m impl.Msg, typ *impl.Type) {
	// An absent handle in m's payload: element -1 of any list. (Accessors
	// take the fields of the handle's own type: a compiled handle reads a
	// Field of another type at its offset, unchecked.)
	absent := impl.NewMessageList(m, impl.Field{}, typ).At(-1)
	for _, h := range []impl.Msg{m, absent} {
		for _, f := range typ.Fields() {
			tryFieldWrites(h, f)
		}
		for _, u := range typ.Unions() {
			for _, f := range u.Members {
				h.SetMember8(u, f.Field, 1)
				h.SetMember32(u, f.Field, 1)
				h.SetMember64(u, f.Field, 1)
				h.SetMemberString(u, f.Field, "x")
				h.SetMemberBytes(u, f.Field, []byte("x"))
				if f.Type != nil {
					_ = h.MutableMember(u, f.Field, f.Type)
				}
				h.ClearOneof(u, f.Field)
			}
		}
		_ = h.MutableAny(typ)
		_ = impl.AnyOf(h).Mutable(typ)
		h.Clear(typ)
		if h.CopyFrom(typ, h) {
			t.Fatalf("%s: CopyFrom into a read-only message succeeded", typ.Name())
		}
	}
}

func tryFieldWrites(h impl.Msg, f *impl.FieldInfo) {
	h.Set8(f.Field, 1)
	h.Set32(f.Field, 1)
	h.Set64(f.Field, 1)
	h.ClearScalar(f.Field)
	h.SetString(f.Field, "x")
	h.SetBytes(f.Field, []byte("x"))
	if b := h.AllocateString(f.Field, 3); b != nil {
		panic("AllocateString on a read-only message returned bytes")
	}
	h.ClearString(f.Field)
	h.SetElem8(f.Field, 0, 1)
	h.SetElem32(f.Field, 0, 1)
	h.SetElem64(f.Field, 0, 1)
	h.Push8(f.Field, 1)
	h.Push32(f.Field, 1)
	h.Push64(f.Field, 1)
	h.Reserve(f.Field, 4, 4)
	h.Resize(f.Field, 4, 4)
	h.PushString(f.Field, "x")
	h.PushBytes(f.Field, []byte("x"))
	h.SetElemString(f.Field, 0, "x")
	h.SetElemBytes(f.Field, 0, []byte("x"))
	h.FixedStrings(f.Field, 3)
	h.ClearStrings(f.Field)
	h.ClearVector(f.Field)
	h.ClearRepeated(f)
	if f.Type != nil {
		_ = h.MutableMessage(f.Field, f.Type)
		_ = h.AddMessage(f.Field, f.Type)
		_ = h.MutableElem(f.Field, 0, f.Type)
		h.AllocateMessages(f.Field, 2, f.Type)
		a := impl.NewMessageList(h, f.Field, f.Type).Appender()
		_, _ = a.Append(), a.Append()
		h.ClearMessage(f.Field, f.Type)
		h.ClearMessages(f.Field, f.Type)
	}
}

// fill writes the content of pm into the writable message m of type typ
// through the generic accessors (the test's builder of seed payloads).
func fillMsg(m impl.Msg, typ *impl.Type, pm protoreflect.Message) {
	if isAnyType(typ) {
		url := pm.Get(pm.Descriptor().Fields().ByNumber(1)).String()
		val := pm.Get(pm.Descriptor().Fields().ByNumber(2)).Bytes()
		inner := impl.FindType(protoreflect.FullName(url[strings.LastIndexByte(url, '/')+1:]))
		if inner == nil {
			m.SetString(typ.FieldByNumber(1).Field, url)
			return
		}
		dm := dynamicpb.NewMessage(inner.Descriptor())
		if err := proto.Unmarshal(val, dm); err != nil {
			panic(err)
		}
		fillMsg(m.MutableAny(inner), inner, dm)
		return
	}
	pm.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		f := typ.FieldByNumber(uint32(fd.Number()))
		switch {
		case fd.IsMap():
			kf, vf := f.Type.FieldByNumber(1), f.Type.FieldByNumber(2)
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				e := m.AddMessage(f.Field, f.Type)
				fillSingular(e, kf, k.Value())
				fillSingular(e, vf, mv)
				return true
			})
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				ev := l.Get(i)
				switch f.Kind {
				case impl.String:
					m.PushString(f.Field, ev.String())
				case impl.Bytes:
					m.PushBytes(f.Field, ev.Bytes())
				case impl.Message:
					fillMsg(m.AddMessage(f.Field, f.Type), f.Type, ev.Message())
				default:
					switch bits := fillBits(f, ev); fuzzElemSize(f.Kind) {
					case 1:
						m.Push8(f.Field, uint8(bits))
					case 4:
						m.Push32(f.Field, uint32(bits))
					default:
						m.Push64(f.Field, bits)
					}
				}
			}
		default:
			fillSingular(m, f, v)
		}
		return true
	})
}

func fillSingular(m impl.Msg, f *impl.FieldInfo, v protoreflect.Value) {
	switch f.Kind {
	case impl.String, impl.Bytes:
		var b []byte
		if f.Kind == impl.String {
			b = []byte(v.String())
		} else {
			b = v.Bytes()
		}
		if f.Union != nil {
			m.SetMemberBytes(f.Union, f.Field, b)
		} else {
			m.SetBytes(f.Field, b)
		}
	case impl.Message:
		var sub impl.Msg
		if f.Union != nil {
			sub = m.MutableMember(f.Union, f.Field, f.Type)
		} else {
			sub = m.MutableMessage(f.Field, f.Type)
		}
		fillMsg(sub, f.Type, v.Message())
	default:
		bits := fillBits(f, v)
		switch size := fuzzElemSize(f.Kind); {
		case f.Union != nil && size == 1:
			m.SetMember8(f.Union, f.Field, uint8(bits))
		case f.Union != nil && size == 4:
			m.SetMember32(f.Union, f.Field, uint32(bits))
		case f.Union != nil:
			m.SetMember64(f.Union, f.Field, bits)
		case size == 1:
			m.Set8(f.Field, uint8(bits))
		case size == 4:
			m.Set32(f.Field, uint32(bits))
		default:
			m.Set64(f.Field, bits)
		}
	}
}

// bitsOf converts a scalar value to its stored bits.
func fillBits(f *impl.FieldInfo, v protoreflect.Value) uint64 {
	switch f.Kind {
	case impl.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case impl.Int32, impl.Int64:
		return uint64(v.Int())
	case impl.Uint32, impl.Uint64:
		return v.Uint()
	case impl.Float:
		return uint64(math.Float32bits(float32(v.Float())))
	case impl.Double:
		return math.Float64bits(v.Float())
	case impl.Enum:
		return uint64(int64(v.Enum()))
	}
	return 0
}

// hostileSeed is a constructed payload and the type it is meant to be read as.
type hostileSeed struct {
	name string
	typ  *impl.Type
	data []byte
}

func typeOfMessage(tb testing.TB, m proto.Message) *impl.Type {
	tb.Helper()
	t, err := impl.TypeOf(m.ProtoReflect().Descriptor())
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// build writes pm with the runtime and returns the payload bytes and the
// root message.
func buildPayload(tb testing.TB, pm proto.Message, opts impl.Options) ([]byte, impl.Msg, *impl.Type) {
	tb.Helper()
	return buildPayloadFor(tb, pm, opts, impl.ProtobufFrontend)
}

// buildPayloadFor is buildPayload with the types of frontend fe.
func buildPayloadFor(tb testing.TB, pm proto.Message, opts impl.Options, fe impl.Frontend) ([]byte, impl.Msg, *impl.Type) {
	tb.Helper()
	typ, err := impl.TypeFor(pm.ProtoReflect().Descriptor(), fe)
	if err != nil {
		tb.Fatal(err)
	}
	m := impl.New(typ, opts)
	fillMsg(m, typ, pm.ProtoReflect())
	if err := m.Err(); err != nil {
		tb.Fatalf("building %s: %v", typ.Name(), err)
	}
	return bytes.Clone(m.PayloadBytes()), m, typ
}

func word32(b []byte, off uint32) uint32 { return binaryLE.Uint32(b[off:]) }

func withWord32(b []byte, off, v uint32) []byte {
	b = bytes.Clone(b)
	binaryLE.PutUint32(b[off:], v)
	return b
}

// hostileSeeds builds the committed FuzzRead seeds: valid payloads of rich
// schemas, and mutations of one DescriptorProto payload that aim at every
// bound of spec 6.2.
func hostileSeeds(tb testing.TB) []hostileSeed {
	tb.Helper()
	fuzzTypes(tb)
	var seeds []hostileSeed
	add := func(name string, typ *impl.Type, data []byte) {
		seeds = append(seeds, hostileSeed{name, typ, data})
	}

	st, err := structpb.NewStruct(map[string]any{
		"a": 1.5, "b": "text", "c": []any{true, nil, map[string]any{"d": -2.0}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	data, _, typ := buildPayload(tb, st, impl.Options{Version: payloadbuffer.V2})
	add("struct_v2", typ, data)
	data, _, _ = buildPayload(tb, st, impl.Options{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size})
	add("struct_v3_size", typ, data)
	for _, fd := range []protoreflect.FileDescriptor{anypb.File_google_protobuf_any_proto, structpb.File_google_protobuf_struct_proto} {
		data, _, typ = buildPayload(tb, protodescToProto(fd), impl.Options{Version: payloadbuffer.V2})
		add("file_"+strings.TrimSuffix(filepath.Base(fd.Path()), ".proto"), typ, data)
	}
	ts, err := anypb.New(timestamppb.New(time.Unix(1700000000, 5)))
	if err != nil {
		tb.Fatal(err)
	}
	data, _, typ = buildPayload(tb, ts, impl.Options{Version: payloadbuffer.V2})
	add("any_timestamp", typ, data)
	inner, err := anypb.New(st)
	if err != nil {
		tb.Fatal(err)
	}
	outer, err := anypb.New(inner)
	if err != nil {
		tb.Fatal(err)
	}
	data, root, anyT := buildPayload(tb, outer, impl.Options{Version: payloadbuffer.V2})
	add("any_any_struct", anyT, data)
	// The inner Any names google.protobuf.Any and embeds itself.
	{
		r := root.Offset()
		urlSlot, valSlot := r+anyT.FieldByNumber(1).Offset, r+anyT.FieldByNumber(2).Offset
		s := word32(data, valSlot)
		d := withWord32(data, s+4+anyT.FieldByNumber(2).Offset, s)
		d = withWord32(d, s+4+anyT.FieldByNumber(1).Offset, word32(data, urlSlot))
		add("any_self", anyT, d)
	}

	// A Struct map entry without its value (ToProto panics on it).
	{
		typ := typeOfMessage(tb, &structpb.Struct{})
		f := typ.FieldByName("fields")
		m := impl.New(typ, impl.Options{Version: payloadbuffer.V2})
		e := m.AddMessage(f.Field, f.Type)
		e.SetString(f.Type.FieldByNumber(1).Field, "k")
		add("map_entry_without_value", typ, bytes.Clone(m.PayloadBytes()))
	}

	// Mutations of a DescriptorProto payload.
	dp := &descriptorpb.DescriptorProto{
		Name: proto.String("M"),
		Field: []*descriptorpb.FieldDescriptorProto{
			{Name: proto.String("a"), Number: proto.Int32(1), Type: descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum()},
			{Name: proto.String("b"), Number: proto.Int32(2), Type: descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum()},
		},
		NestedType:   []*descriptorpb.DescriptorProto{{Name: proto.String("N")}, {Name: proto.String("O")}},
		Options:      &descriptorpb.MessageOptions{Deprecated: proto.Bool(true)},
		ReservedName: []string{"x", "y"},
	}
	base, m, dt := buildPayload(tb, dp, impl.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size})
	r := m.Offset()
	tab := word32(base, r)
	slot := func(name string) uint32 { return r + dt.FieldByName(name).Offset }
	n := uint32(len(base))
	add("desc", dt, base)
	add("desc_trunc_header", dt, base[:39])
	add("desc_trunc_root", dt, base[:r+6])
	add("desc_trunc_half", dt, base[:n/2])
	add("desc_trunc_last", dt, base[:n-1])
	add("desc_root_outside", dt, withWord32(base, 4, n-2))
	add("desc_root_huge", dt, withWord32(base, 4, 0xFFFFFFFC))
	add("desc_root_in_header", dt, withWord32(base, 4, 8))
	add("desc_table_zero", dt, withWord32(base, r, 0))
	add("desc_table_self", dt, withWord32(base, r, r))
	add("desc_table_huge", dt, withWord32(base, r, 0xFFFFFFF0))
	add("desc_table_legacy_huge", dt, withWord32(base, tab, 0xFFFFFFFF))
	add("desc_table_legacy_small", dt, withWord32(withWord32(base, tab, 1), tab+4, 1))
	add("desc_table_span_huge", dt, withWord32(base, tab+8, 0xFFFFFFFF))
	add("desc_table_sparse_huge", dt, withWord32(base, tab+12, 0x7FFFFFFF))
	add("desc_presence_all", dt, withWord32(withWord32(base, r+4, 0xFFFFFFFF), r+8, 0xFFFFFFFF))
	add("desc_string_outside", dt, withWord32(base, slot("name"), 0xFFFFFFF0))
	add("desc_string_len_huge", dt, withWord32(base, word32(base, slot("name")), 0xFFFFFFFF))
	add("desc_string_at_end", dt, withWord32(base, slot("name"), n-4))
	add("desc_vector_count_huge", dt, withWord32(base, slot("field"), 0x7FFFFFFF))
	add("desc_vector_count_max", dt, withWord32(base, slot("reserved_name"), 0xFFFFFFFF))
	add("desc_vector_data_outside", dt, withWord32(base, slot("field")+4, n-4))
	add("desc_vector_data_root", dt, withWord32(base, slot("nested_type")+4, r))
	add("desc_vector_data_self", dt, withWord32(base, slot("nested_type")+4, slot("nested_type")))
	add("desc_nested_self", dt, withWord32(base, m.Elem(dt.FieldByName("nested_type").Field, 0, 4), r))
	add("desc_options_root", dt, withWord32(base, slot("options"), r))
	add("desc_options_outside", dt, withWord32(base, slot("options"), n))
	// Both nested_type elements are the root: a cycle with fan-out 2.
	{
		f := dt.FieldByName("nested_type")
		d := withWord32(base, m.Elem(f.Field, 0, 4), r)
		d = withWord32(d, m.Elem(f.Field, 1, 4), r)
		add("desc_selfref_pair", dt, d)
	}
	v3, _, _ := buildPayload(tb, dp, impl.Options{Version: payloadbuffer.V3})
	add("desc_v3", dt, v3)
	failed := bytes.Clone(v3)
	failed[2] |= 1 << 2
	add("desc_v3_failed", dt, failed)
	major := bytes.Clone(v3)
	major[3] = 9
	add("desc_v3_bad_major", dt, major)
	add("desc_magic_bad", dt, withWord32(base, 0, 0xE5F6F1C6))

	// The ROS frontend's v3 layout: singular messages inside their holder
	// (table id 0xFF), and mutations aimed at the inline storage.
	{
		ev := &testpb.Everything{
			Scalars: &testpb.Scalars{FInt32: -7, FString: "scalars", FDouble: 2.5},
			Inner:   &testpb.Inner{A: 3, S: "inner", Deep: &testpb.Inner_Deep{X: 9, Names: []string{"a", "b"}}},
			Deep:    &testpb.Inner_Deep{X: 11},
			Inners:  []*testpb.Inner{{A: 1}, {S: "two"}},
			Empty:   &testpb.Empty{},
			Node:    &testpb.Node{Value: 1, Next: &testpb.Node{Value: 2}},
		}
		data, m, et := buildPayloadFor(tb, ev, impl.Options{Version: payloadbuffer.V3}, impl.ROSFrontend)
		add("ros_inline_v3", et, data)
		inner := et.FieldByName("inner")
		if !inner.Inline() {
			tb.Fatal("Everything.inner is not inline in the ROS frontend")
		}
		r, in := m.Offset(), m.Offset()+inner.Offset
		add("ros_inline_word_out", et, withWord32(data, in, 0xFFFFFF00))
		add("ros_inline_word_holder", et, withWord32(data, in, word32(data, r)))
		add("ros_inline_root_inner_table", et, withWord32(data, r, word32(data, in)))
		add("ros_inline_truncated", et, bytes.Clone(data[:in+inner.Size/2]))
		pb, _, _ := buildPayloadFor(tb, ev, impl.Options{Version: payloadbuffer.V3}, impl.ProtobufFrontend)
		add("ros_pbfe_v3", et, pb)
		v2, _, _ := buildPayloadFor(tb, ev, impl.Options{Version: payloadbuffer.V2}, impl.ROSFrontend)
		add("ros_v2", et, v2)
	}

	// A chain of 30 messages, each holding two references to the next:
	// acyclic, shallow, 2^30 paths.
	{
		f := dt.FieldByName("nested_type")
		m := impl.New(dt, impl.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size})
		cur := m
		var patch [][2]uint32
		for range 30 {
			a := cur.AddMessage(f.Field, f.Type)
			cur.AddMessage(f.Field, f.Type)
			patch = append(patch, [2]uint32{cur.Elem(f.Field, 1, 4), a.Offset()})
			cur = a
		}
		d := bytes.Clone(m.PayloadBytes())
		for _, p := range patch {
			binaryLE.PutUint32(d[p[0]:], p[1])
		}
		add("desc_dag_doubling", dt, d)
	}
	return seeds
}

func protodescToProto(fd protoreflect.FileDescriptor) *descriptorpb.FileDescriptorProto {
	return protodesc.ToFileDescriptorProto(fd)
}

// TestWriteFuzzSeeds regenerates testdata/fuzz/FuzzRead from hostileSeeds
// when PHASER_WRITE_FUZZ_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("PHASER_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set PHASER_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz/FuzzRead")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzRead")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range hostileSeeds(t) {
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s.data)
		if err := os.WriteFile(filepath.Join(dir, s.name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadHostileBounded reads each constructed hostile payload as the type
// it targets, with every check of FuzzRead, and requires it to take well
// under a second: self-references, huge vector counts and offsets outside
// the payload must not make reading slow.
func TestReadHostileBounded(t *testing.T) {
	for _, s := range hostileSeeds(t) {
		t.Run(s.name, func(t *testing.T) {
			// The work is bounded by the output and copy size checks
			// inside (no timing: that belongs to benchmarks).
			checkHostileRead(t, s.typ, s.data)
		})
	}
}

// TestToProtoAmplification bounds the output of ToProto by the payload
// size: a received payload can make many references to one string or one
// vector, and a copy that follows each of them grows quadratically with the
// payload (a 1 MiB payload could ask for tens of GiB).
func TestToProtoAmplification(t *testing.T) {
	t.Run("shared_string", func(t *testing.T) {
		typ := typeOfMessage(t, &descriptorpb.DescriptorProto{})
		f := typ.FieldByName("reserved_name")
		m := impl.New(typ, impl.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size})
		m.PushString(f.Field, strings.Repeat("x", 32<<10))
		const n = 2048
		m.Resize(f.Field, n, 4)
		data := bytes.Clone(m.PayloadBytes())
		s := word32(data, m.Elem(f.Field, 0, 4))
		for i := 1; i < n; i++ {
			binaryLE.PutUint32(data[m.Elem(f.Field, i, 4):], s)
		}
		r, err := impl.Read(typ, data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.ToProto(typ)
		if err != nil {
			return // refusing is fine
		}
		total := 0
		l := out.ProtoReflect().Get(f.Desc).List()
		for i := range l.Len() {
			total += len(l.Get(i).String())
		}
		if total > 16*len(data) {
			t.Errorf("ToProto of a %d-byte payload copied %d string bytes (%d references to one %d-byte string)",
				len(data), total, l.Len(), 32<<10)
		}
	})
	t.Run("shared_vector", func(t *testing.T) {
		typ := typeOfMessage(t, &descriptorpb.SourceCodeInfo{})
		loc := typ.FieldByName("location")
		path := loc.Type.FieldByName("path")
		m := impl.New(typ, impl.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size})
		e := m.AddMessage(loc.Field, loc.Type)
		const n = 1024
		for i := range n {
			e.Push32(path.Field, uint32(i))
		}
		m.Resize(loc.Field, n, 4)
		data := bytes.Clone(m.PayloadBytes())
		for i := 1; i < n; i++ {
			binaryLE.PutUint32(data[m.Elem(loc.Field, i, 4):], e.Offset())
		}
		r, err := impl.Read(typ, data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.ToProto(typ)
		if err != nil {
			return
		}
		total := 0
		l := out.ProtoReflect().Get(loc.Desc).List()
		for i := range l.Len() {
			total += l.Get(i).Message().Get(path.Desc).List().Len()
		}
		if total > len(data) {
			t.Errorf("ToProto of a %d-byte payload made %d int32 elements (%d references to one %d-element vector)",
				len(data), total, l.Len(), n)
		}
	})
}
