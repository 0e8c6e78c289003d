package impl_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// keepType returns a root type of singular fields (two strings, a nested
// Timestamp, a scalar) and a repeated scalar, whose format-3 Clear keeps its
// blocks.
func keepType(t testing.TB) *impl.Type { return keepTypeOf(t, true) }

// keepFlatType is keepType without the Timestamp: a flat plan (keepFlat).
func keepFlatType(t testing.TB) *impl.Type { return keepTypeOf(t, false) }

// keepROSType is keepType with the ROS frontend, and a message field inner
// of type Inner {string s; Timestamp when}: stamp, inner and inner's when
// are inline messages (format 3), inner's string a block of the root's
// Clear.
func keepROSType(t testing.TB) *impl.Type {
	t.Helper()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	fields := append(keepFieldProtos(), fieldProto("inner", 6, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, opt, ".phasertest.keepros.Inner"))
	inner := &descriptorpb.DescriptorProto{Name: gproto.String("Inner"), Field: []*descriptorpb.FieldDescriptorProto{
		fieldProto("s", 1, descriptorpb.FieldDescriptorProto_TYPE_STRING, opt, ""),
		fieldProto("when", 2, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, opt, ".google.protobuf.Timestamp"),
	}}
	return keepTypeFrom(t, "keepros", fields, impl.ROSFrontend, inner)
}

// keepFieldProtos returns the fields of keepType's Keep.
func keepFieldProtos() []*descriptorpb.FieldDescriptorProto {
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	return []*descriptorpb.FieldDescriptorProto{
		fieldProto("a", 1, descriptorpb.FieldDescriptorProto_TYPE_STRING, opt, ""),
		fieldProto("b", 2, descriptorpb.FieldDescriptorProto_TYPE_BYTES, opt, ""),
		fieldProto("stamp", 3, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, opt, ".google.protobuf.Timestamp"),
		fieldProto("n", 4, descriptorpb.FieldDescriptorProto_TYPE_UINT32, opt, ""),
		fieldProto("v", 5, descriptorpb.FieldDescriptorProto_TYPE_FIXED32, descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(), ""),
	}
}

// keepTypeOf returns keepType, or keepFlatType when stamp is false.
func keepTypeOf(t testing.TB, stamp bool) *impl.Type {
	t.Helper()
	fields, name := keepFieldProtos(), "keep"
	if !stamp {
		fields, name = append(fields[:2], fields[3:]...), "keepflat"
	}
	return keepTypeFrom(t, name, fields, impl.ProtobufFrontend)
}

// keepTypeFrom compiles message Keep of fields, in a file of package
// phasertest.<name> with messages more beside it, for frontend fe.
func keepTypeFrom(t testing.TB, name string, fields []*descriptorpb.FieldDescriptorProto, fe impl.Frontend, more ...*descriptorpb.DescriptorProto) *impl.Type {
	t.Helper()
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name:        gproto.String("phasertest/" + name + ".proto"),
		Package:     gproto.String("phasertest." + name),
		Syntax:      gproto.String("proto3"),
		Dependency:  []string{"google/protobuf/timestamp.proto"},
		MessageType: append([]*descriptorpb.DescriptorProto{{Name: gproto.String("Keep"), Field: fields}}, more...),
	}, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := impl.TypeFor(fd.Messages().Get(0), fe)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// keepModel is what a Keep message holds, as the operations left it.
type keepModel struct {
	a, b    string
	seconds uint64
	stamp   bool
	n       uint32
	v       []uint32
	inner   bool   // keepROSType's inner message is present
	s       string // its string
	when    uint64 // its when's seconds
}

// FuzzClearKeeps runs operations decoded from the input on a Keep root in
// a buffer of a size the input chooses (fixed or owned), Clears among
// them: the root's Clear keeps the root's blocks for the fields set next,
// and an allocation that finds no room frees them. After every operation
// the message reads what a model of it holds (unless the buffer filled
// up), the payload's allocator structures make sense (payloadbuffer.Open),
// a reader of its bytes reads the same, and after a Clear the bytes of a
// scrubbing buffer hold none of the strings the Clear dropped.
func FuzzClearKeeps(f *testing.F) {
	typ := keepType(f)
	for _, seed := range [][]byte{
		{0, 0, 5, 1, 7, 3, 9, 6, 5, 0, 5, 1, 7, 3, 9},
		{1, 0, 40, 5, 1, 41, 0, 42, 5, 0, 43, 1, 44},
		{2, 0, 200, 5, 1, 200, 5, 0, 200, 5, 4, 5, 0, 1, 5, 2},
		{3, 3, 1, 2, 5, 8, 20, 5, 9, 5, 6, 30, 5, 7, 5},
		{0, 1, 250, 5, 0, 250, 5, 1, 250, 5, 0, 250},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in []byte) { keepRun(t, typ, in) })
}

// FuzzClearKeepsFlat is FuzzClearKeeps of a type with no nested message,
// whose Clear takes keepFlat's path (the stamp's operations do nothing).
func FuzzClearKeepsFlat(f *testing.F) {
	typ := keepFlatType(f)
	for _, seed := range [][]byte{
		{0, 0, 0, 2, 1, 3, 5, 0, 3, 1, 2, 10, 9, 5, 0, 1},
		{1, 0, 40, 5, 1, 41, 10, 42, 5, 0, 43, 1, 44, 10, 40},
		{2, 0, 200, 5, 1, 200, 5, 0, 200, 5, 10, 5, 5, 0, 1, 5, 2},
		{0, 1, 6, 20, 5, 6, 9, 5, 6, 2, 11, 40, 5, 11, 8},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in []byte) { keepRun(t, typ, in) })
}

// FuzzClearKeepsInline is FuzzClearKeeps of keepROSType, whose inline
// messages (stamp, inner, inner's when) lie in the root's body: the
// Clear keeps the block of inner's string when inner is present.
func FuzzClearKeepsInline(f *testing.F) {
	typ := keepROSType(f)
	for _, seed := range [][]byte{
		{0, 0, 12, 5, 0, 7, 5, 12, 9, 0, 3, 5, 12, 3},
		{1, 0, 12, 40, 14, 3, 5, 12, 41, 5, 13, 5, 12, 2},
		{2, 0, 12, 200, 5, 12, 200, 0, 9, 5, 13, 12, 1, 5},
		{3, 3, 12, 6, 14, 9, 3, 2, 5, 14, 1, 12, 8, 5, 13},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in []byte) { keepRun(t, typ, in) })
}

// keepFields are the fields keepRun writes and keepReads reads (stamp,
// secs: nil in keepFlatType; inner, s, when, whenSecs: keepROSType's).
type keepFields struct {
	a, b, stamp, n, v, secs     *impl.FieldInfo
	inner, s, when, whenSeconds *impl.FieldInfo
}

// keepRun is FuzzClearKeeps's run of input in.
func keepRun(t *testing.T, typ *impl.Type, in []byte) {
	kf := keepFields{a: field(typ, "a"), b: field(typ, "b"), stamp: typ.FieldByName("stamp"), n: field(typ, "n"), v: field(typ, "v"), inner: typ.FieldByName("inner")}
	fa, fb, fst, fn, fv := kf.a, kf.b, kf.stamp, kf.n, kf.v
	var secs *impl.FieldInfo
	if fst != nil {
		secs = field(fst.Type, "seconds")
		kf.secs = secs
	}
	ops := 12
	if kf.inner != nil {
		kf.s, kf.when = field(kf.inner.Type, "s"), field(kf.inner.Type, "when")
		kf.whenSeconds = field(kf.when.Type, "seconds")
		ops = 15
	}
	elems := func(k, n int) []byte { // n elements valued k, k+1, ...
		b := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(k+i))
		}
		return b
	}
	if len(in) < 2 || len(in) > 256 { // (each operation checks the whole buffer)
		return
	}
	var m impl.Msg
	switch size := int(in[0] % 4); size {
	case 0:
		m = impl.New(typ)
	default:
		var err error
		if m, err = impl.NewIn(typ, make([]byte, 256*size+int(in[1])), impl.Options{}); err != nil {
			return
		}
	}
	var want keepModel
	text := func(c byte, n int) string {
		return strings.Repeat(string(rune('a'+c%26)), n)
	}
	cleared := []string{} // long strings a Clear dropped (scrubbing buffers must not show them)
	for i := 2; i < len(in); i++ {
		op := int(in[i]) % ops
		arg := 0
		if i+1 < len(in) {
			arg = int(in[i+1])
		}
		switch op {
		case 0: // a string, up to ~1.5 KiB (past what a Clear keeps)
			i++
			s := text(byte(i), arg*6)
			m.SetString(fa.Field, s)
			want.a = s
		case 1:
			i++
			s := text(byte(i+7), arg*6)
			m.SetBytes(fb.Field, []byte(s))
			want.b = s
		case 2: // bytes from the payload itself
			m.SetBytes(fb.Field, m.StringBytes(fa.Field))
			want.b = want.a
		case 3:
			i++
			if fst == nil {
				continue
			}
			m.MutableMessage(fst.Field, fst.Type).Set64(secs.Field, uint64(arg))
			want.seconds, want.stamp = uint64(arg), true
		case 4:
			if fst == nil {
				continue
			}
			m.ClearMessage(fst.Field, fst.Type)
			want.seconds, want.stamp = 0, false
		case 5:
			for _, s := range []string{want.a, want.b, want.s} {
				if len(s) >= 16 {
					cleared = append(cleared, s[:16])
				}
			}
			m.Clear(typ)
			want = keepModel{v: want.v[:0]}
		case 6: // filled in place
			i++
			s := text(byte(i+3), arg)
			copy(m.AllocateString(fa.Field, len(s)), s)
			want.a = s
		case 7:
			m.ClearString(fa.Field)
			want.a = ""
		case 8:
			i++
			m.Set32(fn.Field, uint32(arg))
			want.n = uint32(arg)
		case 9:
			m.ClearString(fb.Field)
			want.b = ""
		case 10: // a vector's elements replaced (List.Assign), up to 1.3 KiB
			i++
			m.AssignCopy(fv.Field, elems(i, arg*4/3), 4)
			want.v = want.v[:0]
			for k := range arg * 4 / 3 {
				want.v = append(want.v, uint32(i+k))
			}
		case 11: // appended (a decoder's packed field)
			i++
			m.AppendCopy(fv.Field, elems(i, arg/8), 4)
			for k := range arg / 8 {
				want.v = append(want.v, uint32(i+k))
			}
		case 12: // inner's string (inner made present)
			i++
			s := text(byte(i+5), arg*5)
			m.MutableMessage(kf.inner.Field, kf.inner.Type).SetString(kf.s.Field, s)
			want.inner, want.s = true, s
		case 13:
			m.ClearMessage(kf.inner.Field, kf.inner.Type)
			want.inner, want.s, want.when = false, "", 0
		case 14: // inner's when, an inline message in an inline message
			i++
			m.MutableMessage(kf.inner.Field, kf.inner.Type).MutableMessage(kf.when.Field, kf.when.Type).Set64(kf.whenSeconds.Field, uint64(arg))
			want.inner, want.when = true, uint64(arg)
		}
		if m.Failed() {
			if op != 5 {
				continue // the writes a full buffer refused are lost, as the model does not know
			}
			// A Clear of a failed root resets it: the model holds again.
		}
		data := bytes.Clone(m.PayloadBytes())
		if _, err := payloadbuffer.Open(bytes.Clone(m.Payload().Buffer().Memory())); err != nil {
			t.Fatalf("op %d (%d): payload does not open: %v", i, op, err)
		}
		if err := keepReads(m, kf, want); err != nil {
			t.Fatalf("op %d (%d): the handle: %v", i, op, err)
		}
		r, err := impl.Read(typ, data)
		if err != nil {
			t.Fatalf("op %d (%d): read: %v", i, op, err)
		}
		if err := keepReads(r, kf, want); err != nil {
			t.Fatalf("op %d (%d): a reader of the bytes: %v", i, op, err)
		}
		if op == 5 && m.Payload().Buffer().Scrubs() {
			for _, s := range cleared {
				if bytes.Contains(data, []byte(s)) {
					t.Fatalf("op %d: a cleared string is still in the payload", i)
				}
			}
			cleared = cleared[:0]
		}
	}
}

// keepReads reports how m differs from want.
func keepReads(m impl.Msg, kf keepFields, want keepModel) error {
	fa, fb, fst, fn, fv, secs := kf.a, kf.b, kf.stamp, kf.n, kf.v, kf.secs
	if kf.inner != nil {
		in := m.Message(kf.inner.Field, kf.inner.Type)
		wh := in.Message(kf.when.Field, kf.when.Type)
		if m.HasMessage(kf.inner.Field) != want.inner || string(in.StringBytes(kf.s.Field)) != want.s || wh.Get64(kf.whenSeconds.Field) != want.when {
			return fmt.Errorf("inner present %v, s %d bytes, when %d; want %v, %d bytes, %d",
				m.HasMessage(kf.inner.Field), len(in.StringBytes(kf.s.Field)), wh.Get64(kf.whenSeconds.Field), want.inner, len(want.s), want.when)
		}
	}
	if fst != nil { // (keepFlatType has none)
		if st := m.Message(fst.Field, fst.Type); m.HasMessage(fst.Field) != want.stamp || st.Get64(secs.Field) != want.seconds {
			return fmt.Errorf("stamp present %v seconds %d, want %v %d", m.HasMessage(fst.Field), st.Get64(secs.Field), want.stamp, want.seconds)
		}
	}
	switch {
	case string(m.StringBytes(fa.Field)) != want.a:
		return fmt.Errorf("a has %d bytes, want %d", len(m.StringBytes(fa.Field)), len(want.a))
	case string(m.StringBytes(fb.Field)) != want.b:
		return fmt.Errorf("b has %d bytes, want %d", len(m.StringBytes(fb.Field)), len(want.b))
	case m.Get32(fn.Field) != want.n:
		return fmt.Errorf("n %d, want %d", m.Get32(fn.Field), want.n)
	case m.LenOf(fv) != len(want.v):
		return fmt.Errorf("v has %d elements, want %d", m.LenOf(fv), len(want.v))
	}
	for k, e := range want.v {
		if got := m.Elem32(fv.Field, k); got != e {
			return fmt.Errorf("v[%d] = %d, want %d", k, got, e)
		}
	}
	return nil
}

// TestClearRefillStringLengths clears roots of keepType and keepFlatType
// holding strings of every length up to 40 bytes and refills them with
// strings of every such length, over the blocks the Clear kept: each
// reads what was set, the blocks are reused (the payload does not grow),
// and in a scrubbing buffer the bytes after the Clear, and after the
// refill, are the same whatever the cleared strings held (the Clear's word
// stores and the refill's copy leave nothing of them).
func TestClearRefillStringLengths(t *testing.T) {
	for _, typ := range []*impl.Type{keepType(t), keepFlatType(t)} {
		fa, fb := field(typ, "a"), field(typ, "b")
		for n := 0; n <= 40; n++ {
			for k := 0; k <= 40; k += 1 + k/8 {
				var cleared, refilled [2][]byte
				for j, c := range []string{"x", "y"} {
					m := impl.New(typ)
					m.SetString(fa.Field, strings.Repeat(c, n))
					m.SetBytes(fb.Field, []byte(strings.Repeat(c, n+3)))
					size := len(m.PayloadBytes())
					m.Clear(typ)
					if m.HasString(fa.Field) || m.HasString(fb.Field) {
						t.Fatalf("%d, %d: a cleared string reads present", n, k)
					}
					cleared[j] = bytes.Clone(m.PayloadBytes())
					a, b := strings.Repeat("z", k), strings.Repeat("w", max(k-2, 0))
					m.SetString(fa.Field, a)
					m.SetBytes(fb.Field, []byte(b))
					if got := string(m.StringBytes(fa.Field)); got != a {
						t.Fatalf("%d, %d: a reads %q, want %q", n, k, got, a)
					}
					if got := string(m.StringBytes(fb.Field)); got != b {
						t.Fatalf("%d, %d: b reads %q, want %q", n, k, got, b)
					}
					if r, err := impl.Read(typ, bytes.Clone(m.PayloadBytes())); err != nil || string(r.StringBytes(fa.Field)) != a || string(r.StringBytes(fb.Field)) != b {
						t.Fatalf("%d, %d: a reader of the bytes reads %q, %q (%v)", n, k, r.StringBytes(fa.Field), r.StringBytes(fb.Field), err)
					}
					if (k+4+7)&^7 <= (n+4+7)&^7 && len(m.PayloadBytes()) != size {
						t.Fatalf("%d, %d: the refill grew the payload from %d to %d bytes: a kept block not reused", n, k, size, len(m.PayloadBytes()))
					}
					refilled[j] = bytes.Clone(m.PayloadBytes())
				}
				if !bytes.Equal(cleared[0], cleared[1]) {
					t.Fatalf("%s %d: the bytes after a Clear depend on the strings cleared:\n%x\n%x", typ.Name(), n, cleared[0], cleared[1])
				}
				if !bytes.Equal(refilled[0], refilled[1]) {
					t.Fatalf("%d, %d: the bytes after a refill depend on the strings cleared", n, k)
				}
			}
		}
	}
}

// TestClearTakeBackChangedLengthWord changes the length words of the
// blocks a Clear kept (a payload written behind the handle's back, in
// shared memory) before the fill takes them back: the take-back uses the
// length the Clear checked, so every write stays inside the block the
// Clear checked and the memory, nothing panics, and the fill reads what
// was set.
func TestClearTakeBackChangedLengthWord(t *testing.T) {
	for _, typ := range []*impl.Type{keepType(t), keepFlatType(t)} {
		fa, fb, fv := field(typ, "a"), field(typ, "b"), field(typ, "v")
		for _, word := range []uint32{0, 1, 8, 0x7fffffff, 0xfffffff8, 0xffffffff} {
			m, err := impl.NewIn(typ, make([]byte, 1024), impl.Options{})
			if err != nil {
				t.Fatal(err)
			}
			m.SetString(fa.Field, "aaaaaaaaaaaaaaaaaaaa")
			m.SetBytes(fb.Field, []byte("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"))
			m.AssignCopy(fv.Field, make([]byte, 64), 4)
			mem := m.Payload().Buffer().Memory()
			var blocks []int
			for _, s := range []string{"aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"} {
				blocks = append(blocks, bytes.Index(mem, []byte(s))-4)
			}
			if blocks[0] < 8 || blocks[1] < 8 {
				t.Fatal("the strings are not in the payload")
			}
			m.Clear(typ)
			for _, b := range blocks {
				binary.LittleEndian.PutUint32(mem[b-8:], word)
			}
			a, bs := "zzzzzzzzzzzzzzzz", "wwwwwwwwwwwwwwwwwwwwwwww"
			m.SetString(fa.Field, a)
			m.SetBytes(fb.Field, []byte(bs))
			v := make([]byte, 48)
			for i := range v {
				v[i] = byte(i)
			}
			m.AssignCopy(fv.Field, v, 4)
			if m.Failed() {
				continue // a Free of a block whose length word is corrupt may fail the buffer: an error, no panic
			}
			if got := string(m.StringBytes(fa.Field)); got != a {
				t.Fatalf("word %#x: a reads %q, want %q", word, got, a)
			}
			if got := string(m.StringBytes(fb.Field)); got != bs {
				t.Fatalf("word %#x: b reads %q, want %q", word, got, bs)
			}
			if got := m.LenOf(fv); got != 12 {
				t.Fatalf("word %#x: v has %d elements, want 12", word, got)
			}
			if got := m.Elem32(fv.Field, 11); got != binary.LittleEndian.Uint32(v[44:]) {
				t.Fatalf("word %#x: v[11] = %#x", word, got)
			}
		}
	}
}

// TestClearKeepsInline checks that the Clear of a keepROSType root keeps
// the block of its inline message's string (the keep plan takes inline
// messages), and that the refill takes it back: nothing is allocated, and
// the inline message reads as set, in the handle and in a reader.
func TestClearKeepsInline(t *testing.T) {
	typ := keepROSType(t)
	fa, inner := field(typ, "a"), field(typ, "inner")
	fs := field(inner.Type, "s")
	m := impl.New(typ)
	m.SetString(fa.Field, "alpha")
	m.MutableMessage(inner.Field, inner.Type).SetString(fs.Field, "inner string")
	size := len(m.PayloadBytes())
	m.Clear(typ)
	if got := m.Payload().Buffer().Aside(); got != 2 {
		t.Fatalf("the Clear set %d blocks aside, want 2 (a's and inner's string)", got)
	}
	if m.HasMessage(inner.Field) || m.HasString(fa.Field) {
		t.Fatal("a cleared field reads present")
	}
	m.SetString(fa.Field, "beta")
	m.MutableMessage(inner.Field, inner.Type).SetString(fs.Field, "other string")
	if got := m.Payload().Buffer().Aside(); got != 0 {
		t.Fatalf("%d blocks are still set aside after the refill", got)
	}
	if n := len(m.PayloadBytes()); n != size {
		t.Fatalf("the refill grew the payload from %d to %d bytes", size, n)
	}
	r, err := impl.Read(typ, bytes.Clone(m.PayloadBytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []impl.Msg{m, r} {
		if got := string(x.Message(inner.Field, inner.Type).StringBytes(fs.Field)); got != "other string" || string(x.StringBytes(fa.Field)) != "beta" {
			t.Fatalf("reads a %q, inner.s %q", x.StringBytes(fa.Field), got)
		}
	}
}
