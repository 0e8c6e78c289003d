package goldens

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// schema is the memoized result of compiling dir/protos.
type schema struct {
	once  sync.Once
	files *protoregistry.Files
	types *dynamicpb.Types
	err   error
}

var (
	schemasMu sync.Mutex
	schemas   = map[string]*schema{}
)

// loadSchema compiles dir/protos once per (absolute) dir.
func loadSchema(dir string) (*schema, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("goldens: %w", err)
	}
	schemasMu.Lock()
	s := schemas[abs]
	if s == nil {
		s = &schema{}
		schemas[abs] = s
	}
	schemasMu.Unlock()
	s.once.Do(func() {
		s.files, s.err = compileProtos(filepath.Join(abs, "protos"))
		if s.err == nil {
			s.types = dynamicpb.NewTypes(s.files)
		}
	})
	return s, s.err
}

// Files returns every .proto file under dir/protos compiled with protocompile
// (google/protobuf/*.proto come from the standard imports), together with the
// files they import. The result is computed once per directory and shared:
// callers must not register more files in it.
func Files(dir string) (*protoregistry.Files, error) {
	s, err := loadSchema(dir)
	if err != nil {
		return nil, err
	}
	return s.files, nil
}

// Types returns a type resolver over [Files](dir), suitable for
// prototext/protojson/proto unmarshal options (it resolves the message types
// named by google.protobuf.Any type URLs to dynamic messages).
func Types(dir string) (*dynamicpb.Types, error) {
	s, err := loadSchema(dir)
	if err != nil {
		return nil, err
	}
	return s.types, nil
}

func compileProtos(root string) (*protoregistry.Files, error) {
	var names []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".proto") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("goldens: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("goldens: no .proto files under %s", root)
	}
	sort.Strings(names)
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: []string{root}}),
	}
	compiled, err := c.Compile(context.Background(), names...)
	if err != nil {
		return nil, fmt.Errorf("goldens: compiling %s: %w", root, err)
	}
	files := new(protoregistry.Files)
	var register func(fd protoreflect.FileDescriptor) error
	register = func(fd protoreflect.FileDescriptor) error {
		if _, err := files.FindFileByPath(fd.Path()); err == nil {
			return nil
		}
		imports := fd.Imports()
		for i := 0; i < imports.Len(); i++ {
			if err := register(imports.Get(i).FileDescriptor); err != nil {
				return err
			}
		}
		return files.RegisterFile(fd)
	}
	for _, fd := range compiled {
		if err := register(fd); err != nil {
			return nil, fmt.Errorf("goldens: registering %s: %w", fd.Path(), err)
		}
	}
	return files, nil
}

// MessageDescriptor returns the descriptor of the case's root message type.
func (c Case) MessageDescriptor(dir string) (protoreflect.MessageDescriptor, error) {
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(c.MessageType))
	if err != nil {
		return nil, fmt.Errorf("goldens: case %s: message type %s: %w", c.Name, c.MessageType, err)
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("goldens: case %s: %s is not a message", c.Name, c.MessageType)
	}
	return md, nil
}

// Values parses NAME.txt (protobuf text format; the leading '#' lines are
// comments) into a dynamic message of the case's MessageType. Any fields
// written with the [type.googleapis.com/...] expansion are resolved against
// [Files](dir).
//
// Text format writes every NaN as "nan", losing its sign and payload, so
// each NaN takes its bits from the same value in NAME.pbref.bin (the same
// content in binary) when that file exists, and is the canonical quiet NaN
// (what protoc's text parser gives) otherwise. Compare the result by bits
// (for example by its deterministic encoding), not through text.
func (c Case) Values(dir string) (proto.Message, error) {
	md, err := c.MessageDescriptor(dir)
	if err != nil {
		return nil, err
	}
	types, err := Types(dir)
	if err != nil {
		return nil, err
	}
	txt, err := c.Read(dir, ".txt")
	if err != nil {
		return nil, err
	}
	m := dynamicpb.NewMessage(md)
	if err := (prototext.UnmarshalOptions{Resolver: types}).Unmarshal(txt, m); err != nil {
		return nil, fmt.Errorf("goldens: %s.txt: %w", c.Name, err)
	}
	canonicalNaNs(m, types)
	ref, err := c.Read(dir, ".pbref.bin")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return nil, err
	}
	bin := dynamicpb.NewMessage(md)
	if err := (proto.UnmarshalOptions{Resolver: types}).Unmarshal(ref, bin); err != nil {
		return nil, fmt.Errorf("goldens: %s.pbref.bin: %w", c.Name, err)
	}
	nanBitsFrom(m, bin, types)
	return m, nil
}

// nanBitsFrom gives every NaN of dst the bits of the value at the same place
// in src, a message with the same content, and reports whether it changed
// one. Values whose places do not correspond are left alone. The payload of
// an Any is decoded with r, and re-encoded only when a NaN in it changed.
func nanBitsFrom(dst, src protoreflect.Message, r *dynamicpb.Types) bool {
	changed := false
	fix := func(fd protoreflect.FieldDescriptor, d, s protoreflect.Value) (protoreflect.Value, bool) {
		switch fd.Kind() {
		case protoreflect.DoubleKind, protoreflect.FloatKind:
			if math.IsNaN(d.Float()) && math.IsNaN(s.Float()) {
				if fd.Kind() == protoreflect.FloatKind {
					sb := math.Float32bits(float32(s.Float()))
					if sb != math.Float32bits(float32(d.Float())) {
						return protoreflect.ValueOfFloat32(math.Float32frombits(sb)), true
					}
				} else if sb := math.Float64bits(s.Float()); sb != math.Float64bits(d.Float()) {
					return protoreflect.ValueOfFloat64(math.Float64frombits(sb)), true
				}
			}
		case protoreflect.MessageKind, protoreflect.GroupKind:
			if nanBitsFrom(d.Message(), s.Message(), r) {
				changed = true
			}
		}
		return d, false
	}
	if dst.Descriptor().FullName() == "google.protobuf.Any" && src.Descriptor().FullName() == dst.Descriptor().FullName() {
		return nanBitsInAny(dst, src, r)
	}
	dst.Range(func(fd protoreflect.FieldDescriptor, dv protoreflect.Value) bool {
		if !src.Has(fd) {
			return true
		}
		sv := src.Get(fd)
		switch {
		case fd.IsMap():
			dm, sm := dv.Map(), sv.Map()
			dm.Range(func(k protoreflect.MapKey, ev protoreflect.Value) bool {
				if sm.Has(k) {
					if nv, ok := fix(fd.MapValue(), ev, sm.Get(k)); ok {
						dm.Set(k, nv)
						changed = true
					}
				}
				return true
			})
		case fd.IsList():
			dl, sl := dv.List(), sv.List()
			if dl.Len() != sl.Len() {
				return true
			}
			for i := range dl.Len() {
				if nv, ok := fix(fd, dl.Get(i), sl.Get(i)); ok {
					dl.Set(i, nv)
					changed = true
				}
			}
		default:
			if nv, ok := fix(fd, dv, sv); ok {
				dst.Set(fd, nv)
				changed = true
			}
		}
		return true
	})
	return changed
}

// nanBitsInAny applies nanBitsFrom to the payloads of two Any messages.
func nanBitsInAny(dst, src protoreflect.Message, r *dynamicpb.Types) bool {
	url := dst.Descriptor().Fields().ByNumber(1)
	if url == nil || dst.Get(url).String() != src.Get(url).String() {
		return false
	}
	s, ok := unpackAny(src, r)
	if !ok {
		return false
	}
	return inAny(dst, r, func(d protoreflect.Message) bool { return nanBitsFrom(d, s, r) })
}

// Canonical quiet NaNs: what C++ std::numeric_limits<T>::quiet_NaN() and
// protoc's text parser produce (Go's math.NaN() has a different payload).
var (
	nan64 = math.Float64frombits(0x7ff8000000000000)
	nan32 = math.Float32frombits(0x7fc00000)
)

// canonicalNaNs replaces every NaN float/double in m (the payloads of Any
// messages included, decoded with r) by the canonical quiet NaN, as protoc
// does when it parses "nan" from text format. It reports whether it changed
// one.
func canonicalNaNs(m protoreflect.Message, r *dynamicpb.Types) bool {
	if m.Descriptor().FullName() == "google.protobuf.Any" {
		return inAny(m, r, func(inner protoreflect.Message) bool { return canonicalNaNs(inner, r) })
	}
	changed := false
	fix := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) (protoreflect.Value, bool) {
		switch fd.Kind() {
		case protoreflect.DoubleKind:
			if math.IsNaN(v.Float()) && math.Float64bits(v.Float()) != math.Float64bits(nan64) {
				return protoreflect.ValueOfFloat64(nan64), true
			}
		case protoreflect.FloatKind:
			if math.IsNaN(v.Float()) && math.Float32bits(float32(v.Float())) != math.Float32bits(nan32) {
				return protoreflect.ValueOfFloat32(nan32), true
			}
		case protoreflect.MessageKind, protoreflect.GroupKind:
			if canonicalNaNs(v.Message(), r) {
				changed = true
			}
		}
		return v, false
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			mp := v.Map()
			mp.Range(func(k protoreflect.MapKey, ev protoreflect.Value) bool {
				if nv, ok := fix(fd.MapValue(), ev); ok {
					mp.Set(k, nv)
					changed = true
				}
				return true
			})
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				if nv, ok := fix(fd, l.Get(i)); ok {
					l.Set(i, nv)
					changed = true
				}
			}
		default:
			if nv, ok := fix(fd, v); ok {
				m.Set(fd, nv)
				changed = true
			}
		}
		return true
	})
	return changed
}

// inAny decodes the payload of the Any message m with r, applies f to it,
// and re-encodes the payload when f reports a change.
func inAny(m protoreflect.Message, r *dynamicpb.Types, f func(protoreflect.Message) bool) bool {
	inner, ok := unpackAny(m, r)
	if !ok || !f(inner) {
		return false
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(inner.Interface())
	if err != nil {
		return false
	}
	m.Set(m.Descriptor().Fields().ByNumber(2), protoreflect.ValueOfBytes(b))
	return true
}

// unpackAny decodes the payload of the Any message m with r.
func unpackAny(m protoreflect.Message, r *dynamicpb.Types) (protoreflect.Message, bool) {
	fields := m.Descriptor().Fields()
	url, value := fields.ByNumber(1), fields.ByNumber(2)
	if url == nil || value == nil {
		return nil, false
	}
	mt, err := r.FindMessageByURL(m.Get(url).String())
	if err != nil {
		return nil, false
	}
	inner := mt.New()
	if err := (proto.UnmarshalOptions{Resolver: r}).Unmarshal(m.Get(value).Bytes(), inner.Interface()); err != nil {
		return nil, false
	}
	return inner, true
}

// Messages returns every message type the golden schemas declare, nested
// ones included, for tests that register them with a runtime.
func Messages(dir string) ([]protoreflect.MessageDescriptor, error) {
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	var out []protoreflect.MessageDescriptor
	var walk func(ms protoreflect.MessageDescriptors)
	walk = func(ms protoreflect.MessageDescriptors) {
		for i := range ms.Len() {
			out = append(out, ms.Get(i))
			walk(ms.Get(i).Messages())
		}
	}
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		walk(fd.Messages())
		return true
	})
	return out, nil
}
