package runtime

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// Kind is the storage kind of a field's value.
type Kind uint8

// Storage kinds.
const (
	Bool Kind = iota + 1
	Int32
	Uint32
	Int64
	Uint64
	Float
	Double
	Enum
	String
	Bytes
	Message
)

// Field locates a field in the compiled layout of its message type. The
// generated code passes Fields to Msg's accessors as constants.
type Field struct {
	Number uint32 // field number
	Offset uint32 // offset in the message; a oneof member's is its union's
	ID     uint8  // presence id, or the member's index in its oneof
}

// FieldInfo describes a field for generic code (Clear, the dynamic view,
// the wire formats).
type FieldInfo struct {
	Field
	Name     string
	Kind     Kind
	Repeated bool // repeated or map: a VectorHeader slot
	Size     uint32
	Union    *Union // the oneof the field belongs to, or nil
	Type     *Type  // the message type of a message-kind field
	Desc     protoreflect.FieldDescriptor
}

// Union describes a oneof (proto3 optional fields are one-member oneofs).
type Union struct {
	Name    string
	Offset  uint32 // the int32 discriminator; the value is at Offset+4
	Size    uint32 // discriminator and largest value
	Members []*FieldInfo
}

// Type is a message type known to the runtime: its layout, field table and
// name. Generated code obtains its Types from RegisterFile.
type Type struct {
	name      string
	hash      uint64 // FNV-1a of name (registry v2)
	table     []byte // compiled field table
	size      [2]uint32
	typeCount int
	isAny     bool
	fields    []*FieldInfo // declaration order, oneof members included
	byNumber  map[uint32]*FieldInfo
	byName    map[string]*FieldInfo
	unions    []*Union
	desc      protoreflect.MessageDescriptor
	reach     []*Type // this type, then the types reachable from it (BFS)

	plans typePlans // codec plans (plans.go)

	imagesMu sync.Mutex
	images   map[imageKey][]byte // creation images, for resetting failed buffers
}

// Name returns the full protobuf name of the type.
func (t *Type) Name() string { return t.name }

// Descriptor returns the type's protobuf descriptor.
func (t *Type) Descriptor() protoreflect.MessageDescriptor { return t.desc }

// BinarySize returns the size of a message of this type in format v.
func (t *Type) BinarySize(v payloadbuffer.Version) uint32 {
	if v == payloadbuffer.V3 {
		return t.size[1]
	}
	return t.size[0]
}

// Fields returns the type's fields in declaration order.
func (t *Type) Fields() []*FieldInfo { return t.fields }

// FieldByName returns the named field, or nil.
func (t *Type) FieldByName(name string) *FieldInfo { return t.byName[name] }

// FieldByNumber returns the field with number n, or nil.
func (t *Type) FieldByNumber(n uint32) *FieldInfo { return t.byNumber[n] }

// Unions returns the type's oneofs in declaration order.
func (t *Type) Unions() []*Union { return t.unions }

// IsAny reports whether t is google.protobuf.Any (the AnyMessage layout).
func (t *Type) IsAny() bool { return t.isAny }

// Table returns the compiled field-metadata table bytes.
func (t *Type) Table() []byte { return t.table }

func fnv1a(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

// registry holds every Type, by full name.
var registry struct {
	sync.Mutex
	types map[protoreflect.FullName]*Type
	v2    *layout.Cache
	v3    *layout.Cache
}

// TypeOf returns the Type of a message descriptor, computing its layout the
// first time. Types of one name are shared.
func TypeOf(md protoreflect.MessageDescriptor) (*Type, error) {
	registry.Lock()
	defer registry.Unlock()
	return typeOfLocked(md)
}

// FindType returns a registered Type by full name, or nil.
func FindType(name protoreflect.FullName) *Type {
	registry.Lock()
	defer registry.Unlock()
	return registry.types[name]
}

func typeOfLocked(md protoreflect.MessageDescriptor) (*Type, error) {
	if registry.types == nil {
		registry.types = make(map[protoreflect.FullName]*Type)
		registry.v2 = layout.NewCache(layout.Options{Version: 2})
		registry.v3 = layout.NewCache(layout.Options{Version: 3})
	}
	if t := registry.types[md.FullName()]; t != nil {
		return t, nil
	}
	l2, err := registry.v2.Of(md)
	if err != nil {
		return nil, fmt.Errorf("phaser: layout of %s: %w", md.FullName(), err)
	}
	l3, err := registry.v3.Of(md)
	if err != nil {
		return nil, fmt.Errorf("phaser: layout of %s: %w", md.FullName(), err)
	}
	t := &Type{
		name:      string(md.FullName()),
		hash:      fnv1a(string(md.FullName())),
		table:     l2.Table,
		size:      [2]uint32{l2.BinarySize, l3.BinarySize},
		typeCount: l2.TypeCount,
		isAny:     l2.IsAny,
		byNumber:  make(map[uint32]*FieldInfo),
		byName:    make(map[string]*FieldInfo),
		desc:      md,
	}
	registry.types[md.FullName()] = t // before recursing: types can be recursive
	defer func() {
		if registry.types[md.FullName()] != t {
			return
		}
		for _, r := range l2.Reachable() {
			if r.Desc.FullName() == md.FullName() {
				t.reach = append(t.reach, t)
			} else if rt := registry.types[r.Desc.FullName()]; rt != nil {
				t.reach = append(t.reach, rt)
			}
		}
	}()
	unions := make(map[*layout.Union]*Union)
	for _, lu := range l2.Unions {
		u := &Union{Name: string(lu.Desc.Name()), Offset: lu.Offset, Size: lu.Size}
		unions[lu] = u
		t.unions = append(t.unions, u)
	}
	for _, lf := range l2.Fields {
		f := &FieldInfo{
			Field:    Field{Number: uint32(lf.Number), Offset: lf.Offset, ID: lf.ID},
			Name:     lf.Name,
			Kind:     kindOf(lf.Kind),
			Repeated: lf.Repeated,
			Size:     lf.SlotSize,
			Desc:     lf.Desc,
		}
		if lf.Union != nil {
			f.Union = unions[lf.Union]
			f.Union.Members = append(f.Union.Members, f)
		}
		if f.Kind == Message {
			nt, err := typeOfLocked(lf.Desc.Message())
			if err != nil {
				delete(registry.types, md.FullName())
				return nil, err
			}
			f.Type = nt
		}
		t.fields = append(t.fields, f)
		t.byNumber[f.Number] = f
		t.byName[f.Name] = f
	}
	return t, nil
}

func kindOf(k layout.Kind) Kind {
	switch k {
	case layout.BoolKind:
		return Bool
	case layout.Int32Kind:
		return Int32
	case layout.Uint32Kind:
		return Uint32
	case layout.Int64Kind:
		return Int64
	case layout.Uint64Kind:
		return Uint64
	case layout.FloatKind:
		return Float
	case layout.DoubleKind:
		return Double
	case layout.EnumKind:
		return Enum
	case layout.StringKind:
		return String
	case layout.BytesKind:
		return Bytes
	}
	return Message
}

// ElemSize returns the stored size of one value of the field: 1, 4 or 8
// for scalars, 4 (an offset) for strings and messages. For a repeated field
// it is the element size (Size is the 8-byte VectorHeader slot).
func (f *FieldInfo) ElemSize() int { return elemSize(f.Kind) }

// elemSize returns the size of one element of a repeated field of kind k
// (a uint32 offset for strings and messages).
func elemSize(k Kind) int {
	switch k {
	case Bool:
		return 1
	case Int64, Uint64, Double:
		return 8
	}
	return 4
}
