package impl

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	// The well-known types, which generated files import by path.
	_ "google.golang.org/protobuf/types/known/anypb"
	_ "google.golang.org/protobuf/types/known/durationpb"
	_ "google.golang.org/protobuf/types/known/emptypb"
	_ "google.golang.org/protobuf/types/known/structpb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
	_ "google.golang.org/protobuf/types/known/wrapperspb"
)

// File is a .proto file registered by generated code.
type File struct {
	desc protoreflect.FileDescriptor
}

// files holds the files generated code registered. It is separate from
// protobuf-go's global registry, so that protoc-gen-go output for the same
// .proto can be linked into the same program.
var files struct {
	sync.Mutex
	reg protoregistry.Files
}

// resolver finds a file among the registered ones, then protobuf-go's.
type resolver struct{}

// FindFileByPath finds a file by path, in the registered files first.
func (resolver) FindFileByPath(p string) (protoreflect.FileDescriptor, error) {
	if fd, err := files.reg.FindFileByPath(p); err == nil {
		return fd, nil
	}
	return protoregistry.GlobalFiles.FindFileByPath(p)
}

// FindDescriptorByName finds a descriptor by full name, in the registered
// files first.
func (resolver) FindDescriptorByName(n protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := files.reg.FindDescriptorByName(n); err == nil {
		return d, nil
	}
	return protoregistry.GlobalFiles.FindDescriptorByName(n)
}

// RegisterFile registers the serialized FileDescriptorProto of a generated
// file. Files it imports must be registered first (generated packages
// import each other, so Go's initialization order does this). It panics on
// a malformed descriptor, which only a broken generator produces.
func RegisterFile(raw []byte) *File {
	f, err := registerFile(raw)
	if err != nil {
		panic(err)
	}
	return f
}

func registerFile(raw []byte) (*File, error) {
	fdp := new(descriptorpb.FileDescriptorProto)
	if err := proto.Unmarshal(raw, fdp); err != nil {
		return nil, fmt.Errorf("phaser: register file: %w", err)
	}
	files.Lock()
	defer files.Unlock()
	if fd, err := files.reg.FindFileByPath(fdp.GetName()); err == nil {
		return &File{desc: fd}, nil
	}
	fd, err := protodesc.FileOptions{AllowUnresolvable: true}.New(fdp, resolver{})
	if err != nil {
		return nil, fmt.Errorf("phaser: register %s: %w", fdp.GetName(), err)
	}
	if err := files.reg.RegisterFile(fd); err != nil {
		return nil, fmt.Errorf("phaser: register %s: %w", fdp.GetName(), err)
	}
	recordExtensions(fd.Extensions(), fd.Messages())
	return &File{desc: fd}, nil
}

// extensions holds the extensions the registered files declare, by the
// full name of the message they extend and their number.
var extensions struct {
	sync.RWMutex
	of map[protoreflect.FullName]map[protoreflect.FieldNumber]protoreflect.FieldDescriptor
}

// recordExtensions records the extensions xs, and those declared in ms and
// their nested messages.
func recordExtensions(xs protoreflect.ExtensionDescriptors, ms protoreflect.MessageDescriptors) {
	extensions.Lock()
	defer extensions.Unlock()
	var walk func(xs protoreflect.ExtensionDescriptors, ms protoreflect.MessageDescriptors)
	walk = func(xs protoreflect.ExtensionDescriptors, ms protoreflect.MessageDescriptors) {
		for i := range xs.Len() {
			x := xs.Get(i)
			name := x.ContainingMessage().FullName()
			if extensions.of == nil {
				extensions.of = make(map[protoreflect.FullName]map[protoreflect.FieldNumber]protoreflect.FieldDescriptor)
			}
			if extensions.of[name] == nil {
				extensions.of[name] = make(map[protoreflect.FieldNumber]protoreflect.FieldDescriptor)
			}
			extensions.of[name][x.Number()] = x
		}
		for i := range ms.Len() {
			walk(ms.Get(i).Extensions(), ms.Get(i).Messages())
		}
	}
	walk(xs, ms)
}

// ExtensionDeclared reports whether a field num of the type that arrived
// with wire type typ is an extension this program declares (in a file of
// generated handles, or in protobuf-go's registry: protoc-gen-go output
// linked in) with a type of that wire type: what protobuf-go parses as an
// extension, where Unmarshal keeps it as an unknown field.
func (t *Type) ExtensionDeclared(num protoreflect.FieldNumber, typ protowire.Type) bool {
	if t.desc == nil || !t.desc.ExtensionRanges().Has(num) {
		return false
	}
	extensions.RLock()
	x := extensions.of[t.desc.FullName()][num]
	extensions.RUnlock()
	if x == nil {
		xt, err := protoregistry.GlobalTypes.FindExtensionByNumber(t.desc.FullName(), num)
		if err != nil {
			return false
		}
		x = xt.TypeDescriptor()
	}
	return acceptsWire(x, typ)
}

// acceptsWire reports whether field fd parses a value of wire type typ:
// its kind's, or a packed record of a repeated scalar.
func acceptsWire(fd protoreflect.FieldDescriptor, typ protowire.Type) bool {
	var want protowire.Type
	switch fd.Kind() {
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		want = protowire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		want = protowire.Fixed64Type
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		want = protowire.BytesType
	case protoreflect.GroupKind:
		want = protowire.StartGroupType
	default:
		want = protowire.VarintType
	}
	return typ == want || fd.IsList() && typ == protowire.BytesType && want != protowire.StartGroupType
}

// Descriptor returns the file's descriptor.
func (f *File) Descriptor() protoreflect.FileDescriptor { return f.desc }

// Type returns the protobuf-frontend runtime Type of a message declared in
// the file. It panics if there is none or its layout cannot be computed,
// which only a generator bug causes.
func (f *File) Type(name protoreflect.FullName) *Type {
	return f.TypeFor(name, ProtobufFrontend)
}

// TypeFor returns the runtime Type, compiled for frontend fe, of a message
// declared in the file. It panics as Type does.
func (f *File) TypeFor(name protoreflect.FullName, fe Frontend) *Type {
	d := f.desc.Messages().ByName(name.Name())
	if d == nil || d.FullName() != name {
		d = findMessage(f.desc.Messages(), name)
	}
	if d == nil {
		panic(fmt.Sprintf("phaser: %s does not declare %s", f.desc.Path(), name))
	}
	t, err := TypeFor(d, fe)
	if err != nil {
		panic(err)
	}
	return t
}

func findMessage(ms protoreflect.MessageDescriptors, name protoreflect.FullName) protoreflect.MessageDescriptor {
	for i := range ms.Len() {
		m := ms.Get(i)
		if m.FullName() == name {
			return m
		}
		if d := findMessage(m.Messages(), name); d != nil {
			return d
		}
	}
	return nil
}

// FindDescriptor finds a message descriptor among the registered files and
// protobuf-go's global registry.
func FindDescriptor(name protoreflect.FullName) (protoreflect.MessageDescriptor, bool) {
	files.Lock()
	defer files.Unlock()
	d, err := resolver{}.FindDescriptorByName(name)
	if err != nil {
		return nil, false
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	return md, ok
}
