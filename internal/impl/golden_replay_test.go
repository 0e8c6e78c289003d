package impl_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros"
)

// TestGoldenReplay replays each case's .ops (the C++ statements that built
// the payload) through the Go runtime in format v2 with the same buffer
// kind, size and tuning, and requires the payload to be byte-identical to
// the golden: goldens/ where C++'s layout is unaffected by its 2.1 bugs,
// goldens_fixed/ where it is. Continuation cases are replayed on top of the
// base golden's bytes.
func TestGoldenReplay(t *testing.T) {
	dir := goldens.Dir(t)
	fixedDir := goldens.FixedDir(t)
	files := goldenTypes(t, dir)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			want := dir
			if c.FixedRTLayout == "different" {
				want = fixedDir
			}
			prog, err := c.Ops(dir)
			if err != nil {
				t.Fatal(err)
			}
			r := &replayer{t: t, files: files, c: c, dir: want, version: payloadbuffer.V2}
			got, err := r.run(prog)
			if err != nil {
				t.Fatal(err)
			}
			golden, err := c.Read(want, ".phaser.bin")
			if err != nil {
				t.Fatal(err)
			}
			if off, n, ok := c.Mask(); ok && len(got) >= off+n {
				clear(got[off : off+n])
			}
			if out := os.Getenv("PHASER_REPLAY_OUT"); out != "" {
				_ = os.WriteFile(filepath.Join(out, c.Name+".phaser.bin"), got, 0o644)
			}
			if d := firstDiff(got, golden); d >= 0 {
				t.Fatalf("payload differs from %s/%s.phaser.bin at offset %d (got %d bytes, want %d)\n got: % x\nwant: % x",
					want, c.Name, d, len(got), len(golden), window(got, d), window(golden, d))
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func window(b []byte, at int) []byte {
	lo, hi := max(0, at-8), min(len(b), at+24)
	if lo >= hi {
		return nil
	}
	return b[lo:hi]
}

// handle is a message handle in the replay.
type handle struct {
	m impl.Msg
	t *impl.Type
}

// span is the result of allocate_<string>(n): bytes to fill in place.
type span []byte

// msgVector is the result of allocate_<messages>(n).
type msgVector []handle

type replayer struct {
	t     *testing.T
	files *protoregistry.Files
	scope *goldens.Scope // the case's C++ names
	c     goldens.Case
	dir   string
	root  handle

	intrinsics []intrinsic // ROS frontend: cached until sync
	version    payloadbuffer.Version
}

// typeOf returns the Type of md compiled for the case's frontend, as the
// C++ code that wrote the case was.
func (r *replayer) typeOf(md protoreflect.MessageDescriptor) (*impl.Type, error) {
	fe := impl.ProtobufFrontend
	if r.c.Frontend == "ros" {
		fe = impl.ROSFrontend
	}
	return impl.TypeFor(md, fe)
}

func (r *replayer) run(prog *goldens.Program) ([]byte, error) {
	md, err := r.c.MessageDescriptor(r.dir)
	if err != nil {
		return nil, err
	}
	r.scope = goldens.NewScope(r.files, md)
	typ, err := r.typeOf(md)
	if err != nil {
		return nil, err
	}
	ev := &goldens.Evaluator{
		Vars: map[string]goldens.Value{},
		Call: func(c *goldens.Call, recv goldens.Value, args []goldens.Value) (goldens.Value, error) {
			return r.call(typ, c, recv, args)
		},
		Index: func(e *goldens.Index, x, index goldens.Value) (goldens.Value, error) {
			v, ok := x.(msgVector)
			i, iok := asInt(index)
			if !ok || !iok || i < 0 || i >= int64(len(v)) {
				return nil, fmt.Errorf("unsupported index %s", e)
			}
			return v[i], nil
		},
	}
	if r.c.Frontend == "ros" {
		r.rosHooks(ev)
	}
	if prog.Reopen != nil {
		base, err := goldens.Case{Name: prog.Reopen.Base}.Read(r.dir, ".phaser.bin")
		if err != nil {
			return nil, err
		}
		mem := make([]byte, r.c.HeaderFullSize)
		copy(mem, base)
		m, err := impl.Open(typ, mem)
		if err != nil {
			return nil, err
		}
		r.root = handle{m, typ}
		ev.Vars["m"] = r.root
	}
	for i := range prog.Stmts {
		if _, err := ev.Exec(&prog.Stmts[i]); err != nil {
			return nil, err
		}
	}
	if r.root.m.Payload() == nil {
		return nil, fmt.Errorf("the program created no message")
	}
	if err := r.syncIntrinsics(); err != nil {
		return nil, err
	}
	if err := r.root.m.Err(); err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return bytes.Clone(r.root.m.PayloadBytes()), nil
}

func (r *replayer) call(root *impl.Type, c *goldens.Call, recv goldens.Value, args []goldens.Value) (goldens.Value, error) {
	switch recv := recv.(type) {
	case nil:
		return r.function(root, c, args)
	case handle:
		return r.method(recv, c, args)
	case span:
		if c.Method == "data" {
			return recv, nil
		}
	case string: // a std::string (or a literal's char array)
		switch c.Method {
		case "data", "c_str":
			return recv, nil
		case "size", "length":
			return uint64(len(recv)), nil
		}
	case fieldRef:
		return r.rosCall(recv, c, args)
	}
	return nil, fmt.Errorf("unsupported call %s on %T", c, recv)
}

// function handles calls without a receiver: creation and memcpy.
func (r *replayer) function(root *impl.Type, c *goldens.Call, args []goldens.Value) (goldens.Value, error) {
	typeOf := func(suffix string) (*impl.Type, error) {
		name := strings.TrimSuffix(c.Method, suffix)
		d, err := r.scope.ResolveType(name)
		if err != nil {
			return nil, err
		}
		return r.typeOf(d.(protoreflect.MessageDescriptor))
	}
	switch {
	case strings.HasSuffix(c.Method, "::CreateMutable") && len(args) >= 2:
		t, err := typeOf("::CreateMutable")
		if err != nil {
			return nil, err
		}
		size, _ := asInt(args[1])
		m, err := impl.NewIn(t, make([]byte, size), impl.Options{Tuning: tuning(args), Version: r.version})
		if err != nil {
			return nil, err
		}
		return r.created(handle{m, t}), nil
	case strings.HasSuffix(c.Method, "::CreateDynamicMutable") && len(args) >= 1:
		t, err := typeOf("::CreateDynamicMutable")
		if err != nil {
			return nil, err
		}
		size, _ := asInt(args[0])
		return r.created(handle{impl.New(t, impl.Options{Tuning: tuning(args), InitialSize: int(size), Version: r.version}), t}), nil
	case c.Method == "::std_msgs::Header":
		return &rosHeader{}, nil
	case c.Method == "memcpy" && len(args) == 3:
		dst, ok := args[0].(span)
		src, sok := args[1].(string)
		n, nok := asInt(args[2])
		if !ok || !sok || !nok || int(n) > len(dst) || int(n) > len(src) {
			return nil, fmt.Errorf("bad memcpy")
		}
		copy(dst, src[:n])
		return nil, nil
	}
	return nil, fmt.Errorf("unsupported function %s", c)
}

// created records the first message created as the case's root.
func (r *replayer) created(h handle) handle {
	if r.root.m.Payload() == nil {
		r.root = h
	}
	return h
}

func tuning(args []goldens.Value) payloadbuffer.Tuning {
	for _, a := range args {
		if e, ok := a.(goldens.Enum); ok && e.Name == "kSize" {
			return payloadbuffer.Size
		}
	}
	return payloadbuffer.Performance
}

var fieldPrefixes = []string{"set_", "add_", "mutable_", "clear_", "reserve_", "resize_", "allocate_", "has_"}

// method performs a generated-accessor call on a message handle.
func (r *replayer) method(h handle, c *goldens.Call, args []goldens.Value) (goldens.Value, error) {
	switch c.Method {
	case "Finalize":
		h.m.Payload().Buffer().Finalize()
		return nil, nil
	case "Clear":
		h.m.Clear(h.t)
		return nil, nil
	case "PackFrom":
		src, ok := args[0].(handle)
		if !ok {
			return nil, fmt.Errorf("PackFrom of %T", args[0])
		}
		h.m.MutableAny(src.t).CopyFrom(src.t, src.m)
		return nil, nil
	case "MutableAny":
		if len(c.TemplateArgs) != 1 {
			return nil, fmt.Errorf("MutableAny needs a type")
		}
		d, err := r.scope.ResolveType(c.TemplateArgs[0])
		if err != nil {
			return nil, err
		}
		t, err := r.typeOf(d.(protoreflect.MessageDescriptor))
		if err != nil {
			return nil, err
		}
		return handle{h.m.MutableAny(t), t}, nil
	}
	action, name := "get", c.Method
	for _, p := range fieldPrefixes {
		if rest, ok := strings.CutPrefix(c.Method, p); ok && h.t.FieldByName(rest) != nil {
			action, name = strings.TrimSuffix(p, "_"), rest
			break
		}
	}
	if rest, ok := strings.CutSuffix(c.Method, "_size"); ok && h.t.FieldByName(rest) != nil && h.t.FieldByName(c.Method) == nil {
		action, name = "size", rest
	}
	f := h.t.FieldByName(name)
	if f == nil {
		return nil, fmt.Errorf("%s has no field for method %s", h.t.Name(), c.Method)
	}
	if f.Repeated {
		return r.repeated(h, f, action, args)
	}
	switch action {
	case "get":
		return r.get(h, f)
	case "has":
		_, ok := h.m.Value(f)
		return ok, nil
	case "clear":
		switch {
		case f.Union != nil:
			h.m.ClearOneof(f.Union, f.Field)
		case f.Kind == impl.String || f.Kind == impl.Bytes:
			h.m.ClearString(f.Field)
		case f.Kind == impl.Message:
			h.m.ClearMessage(f.Field, f.Type)
		default:
			h.m.ClearScalar(f.Field)
		}
		return nil, nil
	case "mutable":
		if f.Union != nil {
			return handle{h.m.MutableMember(f.Union, f.Field, f.Type), f.Type}, nil
		}
		return handle{h.m.MutableMessage(f.Field, f.Type), f.Type}, nil
	case "allocate":
		if len(args) != 1 {
			return nil, fmt.Errorf("%s: want 1 argument", c.Method)
		}
		n, ok := asInt(args[0])
		if !ok || n < 0 {
			return nil, fmt.Errorf("%s: bad length %v", c.Method, args[0])
		}
		if f.Kind != impl.String && f.Kind != impl.Bytes {
			return nil, fmt.Errorf("%s: %s is not a string or bytes field", c.Method, f.Name)
		}
		if f.Union != nil {
			// A oneof arm (a proto3 optional too): allocating makes it
			// the active member.
			return span(h.m.AllocateMember(f.Union, f.Field, int(n))), nil
		}
		return span(h.m.AllocateString(f.Field, int(n))), nil
	case "set":
		if len(args) != 1 {
			return nil, fmt.Errorf("%s: want 1 argument", c.Method)
		}
		return nil, r.set(h, f, args[0])
	}
	return nil, fmt.Errorf("unsupported method %s", c.Method)
}

func (r *replayer) get(h handle, f *impl.FieldInfo) (goldens.Value, error) {
	v, _ := h.m.Value(f)
	if f.Union == nil && f.Kind != impl.String && f.Kind != impl.Bytes && f.Kind != impl.Message {
		// C++ getters read the stored bytes without looking at presence.
		var bits uint64
		switch f.Size {
		case 1:
			bits = uint64(h.m.Raw8(f.Field))
		case 4:
			bits = uint64(h.m.Raw32(f.Field))
		default:
			bits = h.m.Raw64(f.Field)
		}
		v = impl.ScalarValue(f, bits)
	}
	switch f.Kind {
	case impl.String:
		return v.String(), nil
	case impl.Bytes:
		return string(v.Bytes()), nil
	case impl.Message:
		return handle{h.m.Message(f.Field, f.Type), f.Type}, nil
	case impl.Bool:
		return v.Bool(), nil
	case impl.Int32, impl.Enum:
		return int32(v.Int()), nil
	case impl.Int64:
		return v.Int(), nil
	case impl.Uint32:
		return uint32(v.Uint()), nil
	case impl.Uint64:
		return v.Uint(), nil
	case impl.Float:
		return float32(v.Float()), nil
	case impl.Double:
		return v.Float(), nil
	}
	return nil, fmt.Errorf("get %s", f.Name)
}

// set stores a singular value.
func (r *replayer) set(h handle, f *impl.FieldInfo, v goldens.Value) error {
	if f.Kind == impl.String || f.Kind == impl.Bytes {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: %T is not a string", f.Name, v)
		}
		if f.Union != nil {
			h.m.SetMemberString(f.Union, f.Field, s)
		} else {
			h.m.SetString(f.Field, s)
		}
		return nil
	}
	bits, err := r.bits(f, v)
	if err != nil {
		return err
	}
	switch f.Size {
	case 1:
		if f.Union != nil {
			h.m.SetMember8(f.Union, f.Field, uint8(bits))
		} else {
			h.m.Set8(f.Field, uint8(bits))
		}
	case 4:
		if f.Union != nil {
			h.m.SetMember32(f.Union, f.Field, uint32(bits))
		} else {
			h.m.Set32(f.Field, uint32(bits))
		}
	default:
		if f.Union != nil {
			h.m.SetMember64(f.Union, f.Field, bits)
		} else {
			h.m.Set64(f.Field, bits)
		}
	}
	return nil
}

// bits converts a replay value to the stored bits of scalar field f.
func (r *replayer) bits(f *impl.FieldInfo, v goldens.Value) (uint64, error) {
	if e, ok := v.(goldens.Enum); ok {
		n, err := e.Number(r.scope)
		if err != nil {
			if ed := f.Desc.Enum(); ed != nil {
				for i := range ed.Values().Len() {
					if ev := ed.Values().Get(i); strings.HasSuffix(e.Name, string(ev.Name())) {
						return uint64(int64(ev.Number())), nil
					}
				}
			}
			return 0, err
		}
		return uint64(int64(n)), nil
	}
	switch f.Kind {
	case impl.Float:
		x, ok := asFloat(v)
		if !ok {
			return 0, fmt.Errorf("%s: %T is not a number", f.Name, v)
		}
		return uint64(math.Float32bits(float32(x))), nil
	case impl.Double:
		x, ok := asFloat(v)
		if !ok {
			return 0, fmt.Errorf("%s: %T is not a number", f.Name, v)
		}
		return math.Float64bits(x), nil
	case impl.Bool:
		switch b := v.(type) {
		case bool:
			if b {
				return 1, nil
			}
			return 0, nil
		}
	}
	if n, ok := asBits(v); ok {
		return n, nil
	}
	return 0, fmt.Errorf("%s: cannot store %T (%v)", f.Name, v, v)
}

// repeated performs an accessor call on a repeated field.
func (r *replayer) repeated(h handle, f *impl.FieldInfo, action string, args []goldens.Value) (goldens.Value, error) {
	size := int(f.Size)
	switch f.Kind {
	case impl.String, impl.Bytes, impl.Message:
		size = 4
	default:
		size = map[impl.Kind]int{impl.Bool: 1, impl.Int64: 8, impl.Uint64: 8, impl.Double: 8}[f.Kind]
		if size == 0 {
			size = 4
		}
	}
	switch action {
	case "size":
		return int32(h.m.LenOf(f)), nil
	case "clear":
		h.m.ClearRepeated(f)
		return nil, nil
	case "reserve":
		n, _ := asInt(args[0])
		if f.Kind == impl.Message {
			h.m.ReserveMessages(f.Field, int(n), f.Type)
		} else {
			h.m.Reserve(f.Field, int(n), size)
		}
		return nil, nil
	case "resize":
		n, _ := asInt(args[0])
		if f.Kind == impl.Message {
			h.m.ResizeMessages(f.Field, int(n), f.Type)
		} else {
			h.m.Resize(f.Field, int(n), size)
		}
		return nil, nil
	case "allocate":
		n, _ := asInt(args[0])
		h.m.AllocateMessages(f.Field, int(n), f.Type)
		var v msgVector
		for i := range int(n) {
			v = append(v, handle{h.m.ElemMessage(f.Field, i, f.Type), f.Type})
		}
		return v, nil
	case "add":
		if f.Kind == impl.Message {
			return handle{h.m.AddMessage(f.Field, f.Type), f.Type}, nil
		}
		if len(args) != 1 {
			return nil, fmt.Errorf("add_%s: want 1 argument", f.Name)
		}
		if f.Kind == impl.String || f.Kind == impl.Bytes {
			s, ok := args[0].(string)
			if !ok {
				return nil, fmt.Errorf("add_%s: %T is not a string", f.Name, args[0])
			}
			h.m.PushString(f.Field, s)
			return nil, nil
		}
		bits, err := r.bits(f, args[0])
		if err != nil {
			return nil, err
		}
		switch size {
		case 1:
			h.m.Push8(f.Field, uint8(bits))
		case 4:
			h.m.Push32(f.Field, uint32(bits))
		default:
			h.m.Push64(f.Field, bits)
		}
		return nil, nil
	case "mutable":
		i, _ := asInt(args[0])
		return handle{h.m.MutableElem(f.Field, int(i), f.Type), f.Type}, nil
	case "set":
		if len(args) != 2 {
			return nil, fmt.Errorf("set_%s: want 2 arguments", f.Name)
		}
		i, _ := asInt(args[0])
		if f.Kind == impl.String || f.Kind == impl.Bytes {
			s, _ := args[1].(string)
			h.m.SetElemString(f.Field, int(i), s)
			return nil, nil
		}
		bits, err := r.bits(f, args[1])
		if err != nil {
			return nil, err
		}
		switch size {
		case 1:
			h.m.SetElem8(f.Field, int(i), uint8(bits))
		case 4:
			h.m.SetElem32(f.Field, int(i), uint32(bits))
		default:
			h.m.SetElem64(f.Field, int(i), bits)
		}
		return nil, nil
	case "get":
		if len(args) == 1 {
			i, _ := asInt(args[0])
			if f.Kind == impl.Message {
				return handle{h.m.ElemMessage(f.Field, int(i), f.Type), f.Type}, nil
			}
		}
	}
	return nil, fmt.Errorf("unsupported %s on repeated %s", action, f.Name)
}

func asInt(v goldens.Value) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case uint32:
		return int64(x), true
	case int64:
		return x, true
	case uint64:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}

func asBits(v goldens.Value) (uint64, bool) {
	switch x := v.(type) {
	case int32:
		return uint64(int64(x)), true
	case uint32:
		return uint64(x), true
	case int64:
		return uint64(x), true
	case uint64:
		return x, true
	case int:
		return uint64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case float32:
		return uint64(int64(x)), true
	case float64:
		return uint64(int64(x)), true
	}
	return 0, false
}

func asFloat(v goldens.Value) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	if n, ok := asInt(v); ok {
		return float64(n), true
	}
	return 0, false
}

// The ROS frontend (frontend=ros): public members instead of accessors.

// fieldRef is a member of a ROS-frontend message: m.field.
type fieldRef struct {
	h handle
	f *impl.FieldInfo
}

// rosHeader is a ::std_msgs::Header value held by the C++ program.
type rosHeader struct {
	seq   uint32
	stamp goldens.RosTime
	frame string
}

// intrinsic is a Time, Duration or Header member assignment, which the ROS
// frontend caches and writes into the payload only when it syncs (here:
// when the payload is taken).
type intrinsic struct {
	ref fieldRef
	v   goldens.Value
}

func (r *replayer) rosHooks(ev *goldens.Evaluator) {
	ev.Member = func(e *goldens.Member, x goldens.Value) (goldens.Value, error) {
		h, err := r.asHandle(x)
		if err != nil {
			return nil, err
		}
		f := h.t.FieldByName(e.Name)
		if f == nil {
			// A oneof is a variant member named after the oneof.
			for _, u := range h.t.Unions() {
				if u.Name == e.Name {
					return fieldRef{h, u.Members[0]}, nil
				}
			}
			return nil, fmt.Errorf("%s has no member %s", h.t.Name(), e.Name)
		}
		return fieldRef{h, f}, nil
	}
	ev.Index = func(e *goldens.Index, x, index goldens.Value) (goldens.Value, error) {
		i, ok := asInt(index)
		if !ok {
			return nil, fmt.Errorf("index %v", index)
		}
		switch x := x.(type) {
		case msgVector:
			if i < 0 || i >= int64(len(x)) {
				return nil, fmt.Errorf("index %d out of range", i)
			}
			return x[i], nil
		case fieldRef:
			if x.f.Kind != impl.Message {
				return arrayElem{x, int(i)}, nil
			}
			r.materialize(x)
			return handle{x.h.m.ElemMessage(x.f.Field, int(i), x.f.Type), x.f.Type}, nil
		}
		return nil, fmt.Errorf("unsupported index %s", e)
	}
	ev.Assign = func(a *goldens.Assign, obj, index, rhs goldens.Value) error {
		switch lhs := a.LHS.(type) {
		case *goldens.Member:
			if hdr, ok := obj.(*rosHeader); ok {
				return hdr.set(lhs.Name, rhs)
			}
			h, err := r.asHandle(obj)
			if err != nil {
				return err
			}
			f := h.t.FieldByName(lhs.Name)
			if f == nil {
				return fmt.Errorf("%s has no member %s", h.t.Name(), lhs.Name)
			}
			if isIntrinsic(f) {
				in := intrinsic{fieldRef{h, f}, rhs}
				if f.Type.Name() == "std_msgs.Header" {
					// Observed in the goldens: a Header member is
					// written when assigned, Time and Duration when
					// the payload is taken.
					return r.writeIntrinsic(in)
				}
				r.intrinsics = append(r.intrinsics, in)
				return nil
			}
			return r.set(h, f, rhs)
		case *goldens.Index:
			ref, ok := obj.(fieldRef)
			i, iok := asInt(index)
			if !ok || !iok {
				return fmt.Errorf("unsupported assignment %s", a)
			}
			r.materialize(ref)
			if ref.f.Kind == impl.String || ref.f.Kind == impl.Bytes {
				s, _ := rhs.(string)
				ref.h.m.SetElemString(ref.f.Field, int(i), s)
				return nil
			}
			_, err := r.repeated(ref.h, ref.f, "set", []goldens.Value{int64(i), rhs})
			return err
		}
		return fmt.Errorf("unsupported assignment %s", a)
	}
}

// arrayElem is an element of a fixed array (phaser.array_size).
type arrayElem struct {
	ref fieldRef
	i   int
}

func isIntrinsic(f *impl.FieldInfo) bool {
	if f.Kind != impl.Message || f.Repeated {
		return false
	}
	switch f.Type.Name() {
	case "google.protobuf.Timestamp", "google.protobuf.Duration", "std_msgs.Header":
		return true
	}
	return false
}

func (h *rosHeader) set(name string, v goldens.Value) error {
	switch name {
	case "seq":
		n, _ := asBits(v)
		h.seq = uint32(n)
	case "stamp":
		t, ok := v.(goldens.RosTime)
		if !ok {
			return fmt.Errorf("stamp = %T", v)
		}
		h.stamp = t
	case "frame_id":
		s, _ := v.(string)
		h.frame = s
	default:
		return fmt.Errorf("std_msgs::Header has no member %s", name)
	}
	return nil
}

// asHandle turns a member reference to a message into the message, creating
// it as the ROS frontend's mutable access does.
func (r *replayer) asHandle(x goldens.Value) (handle, error) {
	switch x := x.(type) {
	case handle:
		return x, nil
	case fieldRef:
		if x.f.Kind == impl.Message && !x.f.Repeated {
			if x.f.Union != nil {
				return handle{x.h.m.MutableMember(x.f.Union, x.f.Field, x.f.Type), x.f.Type}, nil
			}
			return handle{x.h.m.MutableMessage(x.f.Field, x.f.Type), x.f.Type}, nil
		}
	}
	return handle{}, fmt.Errorf("%T is not a message", x)
}

// materialize extends a fixed array to its size on mutable access (5.10).
func (r *replayer) materialize(ref fieldRef) {
	size, _ := ros.ArraySize(ref.f.Desc)
	n := int(size)
	if n == 0 {
		return
	}
	m, f := ref.h.m, ref.f
	switch f.Kind {
	case impl.Message:
		for m.LenOf(f) < n {
			m.AddMessage(f.Field, f.Type)
		}
	case impl.String, impl.Bytes:
		m.FixedStrings(f.Field, n)
	default:
		size := elemSizeOf(f)
		if m.Len(f.Field, size) < n {
			m.Reserve(f.Field, n, size)
			m.Resize(f.Field, n, size)
		}
	}
}

func elemSizeOf(f *impl.FieldInfo) int {
	switch f.Kind {
	case impl.Bool:
		return 1
	case impl.Int64, impl.Uint64, impl.Double:
		return 8
	}
	return 4
}

// rosCall performs a method call on a ROS-frontend member.
func (r *replayer) rosCall(ref fieldRef, c *goldens.Call, args []goldens.Value) (goldens.Value, error) {
	m, f := ref.h.m, ref.f
	switch c.Method {
	case "push_back":
		_, err := r.repeated(ref.h, f, "add", args)
		return nil, err
	case "Add":
		return handle{m.AddMessage(f.Field, f.Type), f.Type}, nil
	case "emplace":
		if f.Union == nil || len(c.TemplateArgs) != 1 {
			return nil, fmt.Errorf("emplace on %s", f.Name)
		}
		alt := c.TemplateArgs[0]
		alt = strings.TrimSuffix(alt[strings.LastIndex(alt, ":")+1:], "Alternative")
		for _, mf := range f.Union.Members {
			if camel(mf.Name) != alt {
				continue
			}
			if mf.Kind == impl.Message {
				return handle{m.MutableMember(f.Union, mf.Field, mf.Type), mf.Type}, nil
			}
			if len(args) != 1 {
				return nil, fmt.Errorf("emplace %s: want 1 argument", alt)
			}
			return nil, r.set(ref.h, mf, args[0])
		}
		return nil, fmt.Errorf("oneof %s has no alternative %s", f.Union.Name, alt)
	}
	return nil, fmt.Errorf("unsupported ROS call %s", c)
}

func camel(s string) string {
	var b strings.Builder
	up := true
	for _, c := range s {
		if c == '_' {
			up = true
			continue
		}
		if up && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b.WriteRune(c)
	}
	return b.String()
}

// syncIntrinsics writes the cached Time, Duration and Header members into
// the payload, as the ROS frontend does when the payload is taken.
func (r *replayer) syncIntrinsics() error {
	for _, in := range r.intrinsics {
		if err := r.writeIntrinsic(in); err != nil {
			return err
		}
	}
	return nil
}

// writeIntrinsic writes a Time, Duration or Header member into the payload.
func (r *replayer) writeIntrinsic(in intrinsic) error {
	{
		m := in.ref.h.m.MutableMessage(in.ref.f.Field, in.ref.f.Type)
		t := in.ref.f.Type
		sec, nsec := t.FieldByName("seconds"), t.FieldByName("nanos")
		switch v := in.v.(type) {
		case goldens.RosTime:
			m.Set64(sec.Field, uint64(int64(v.Sec)))
			m.Set32(nsec.Field, v.Nsec)
		case goldens.RosDuration:
			m.Set64(sec.Field, uint64(int64(v.Sec)))
			m.Set32(nsec.Field, uint32(v.Nsec))
		case *rosHeader:
			m.Set32(t.FieldByName("seq").Field, v.seq)
			m.SetString(t.FieldByName("frame_id").Field, v.frame)
			st := t.FieldByName("stamp")
			s := m.MutableMessage(st.Field, st.Type)
			s.Set64(st.Type.FieldByName("seconds").Field, uint64(v.stamp.Sec))
			s.Set32(st.Type.FieldByName("nanos").Field, v.stamp.Nsec)
		default:
			return fmt.Errorf("%s = %T", in.ref.f.Name, in.v)
		}
	}
	return nil
}

// TestGoldenReplayV3 replays every case (but the continuations, which
// continue v2 payloads) in format v3 and checks that the payload holds the
// same content as the C++ one: read back from its bytes, it converts to the
// case's values and marshals to the same protobuf.
func TestGoldenReplayV3(t *testing.T) {
	dir := goldens.Dir(t)
	fixedDir := goldens.FixedDir(t)
	files := goldenTypes(t, dir)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if strings.HasPrefix(c.Name, "cont_") {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			prog, err := c.Ops(dir)
			if err != nil {
				t.Fatal(err)
			}
			size := c.CreateSize
			r := &replayer{t: t, files: files, c: c, dir: dir, version: payloadbuffer.V3}
			got, err := r.run(prog)
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != 'P' || got[1] != 'H' {
				t.Fatalf("not a v3 payload: % x", got[:4])
			}
			md, err := c.MessageDescriptor(dir)
			if err != nil {
				t.Fatal(err)
			}
			valuesDir := dir
			if c.FixedRTContent == "DIFFERENT" || c.PBParse == "FAILED" {
				valuesDir = fixedDir
			}
			want, err := c.Values(valuesDir)
			if err != nil {
				t.Fatal(err)
			}
			// The payload reads back through the types of both frontends:
			// a ROS-frontend payload stores its singular messages inline
			// (spec 8.9), which protobuf-frontend readers follow.
			for _, fe := range []impl.Frontend{impl.ProtobufFrontend, impl.ROSFrontend} {
				typ, err := impl.TypeFor(md, fe)
				if err != nil {
					t.Fatal(err)
				}
				m, err := impl.Read(typ, got)
				if err != nil {
					t.Fatal(err)
				}
				content, err := m.ToProto(typ)
				if err != nil {
					t.Fatal(err)
				}
				assertSameContent(t, content, want)
			}
			if c.Frontend == "ros" {
				assertROSLayout(t, md, got)
			}
			v2, err := c.Read(dir, ".phaser.bin")
			if err == nil && c.PBParse != "FAILED" {
				t.Logf("payload: v3 %d bytes, v2 %d bytes (buffer %d)", len(got), len(v2), size)
			}
		})
	}
}

// assertROSLayout checks that the root of a v3 payload written by
// ROS-frontend types carries the ROS frontend's table (inline messages,
// spec 8.9) and that every present inline message holds its type's table.
func assertROSLayout(t *testing.T, md protoreflect.MessageDescriptor, got []byte) {
	t.Helper()
	l, err := layout.NewCache(layout.Options{Version: 3, ROSFrontend: true}).Of(md)
	if err != nil {
		t.Fatal(err)
	}
	m, err := impl.Read(impl.FindType(md.FullName()), got)
	if err != nil {
		t.Fatal(err)
	}
	root := m.Offset()
	var check func(name string, off uint32, l *layout.Message)
	check = func(name string, off uint32, l *layout.Message) {
		tab := binary.LittleEndian.Uint32(got[off:])
		if !bytes.Equal(got[tab:tab+uint32(len(l.Table))], l.Table) {
			t.Errorf("%s at %d: table % x, want the ROS frontend's % x", name, off, got[tab:tab+uint32(len(l.Table))], l.Table)
			return
		}
		for _, f := range l.Fields {
			if !f.Inline {
				continue
			}
			if o := off + f.Offset; binary.LittleEndian.Uint32(got[o:]) != 0 {
				check(name+"."+f.Name, o, f.Message)
			}
		}
	}
	check(string(md.Name()), root, l)
}
