package impl

import (
	"fmt"
	"sync"
	"sync/atomic"

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
//
// A Field has four words so that the compiler keeps it in registers (Go
// keeps a struct of at most four fields out of memory): an accessor that
// inlines then folds a constant Field into its code, and a handle that
// holds one (a list's) is copied without the wide copies of a struct in
// memory, whose loads stall on the narrower stores that just wrote it.
type Field struct {
	Number uint32 // field number: where the payload's table has the field
	Offset uint32 // offset in the message; a oneof member's is its union's
	// Fixed is the length N of a fixed array (a repeated field with
	// phaser.array_size = N), 0 for other fields. Its storage is a plain
	// repeated field of at most N elements: every write that would store
	// more is refused (ErrArraySize); its list handles read N elements, the
	// ones not stored as defaults, and a write of an element stores the N
	// (spec 5.10, the C++ ROS frontend's facade).
	Fixed uint32
	// Bits holds the rest (see FieldBits), read with Byte, Mask, Size,
	// Inline and Signed.
	Bits FieldBits
}

// FieldBits are a Field's presence bit, value size and flags, packed in
// one word. Generated code writes them as a constant expression, as
//
//	Bits: 4*PresenceByte | 0x02*PresenceMask | 8*ValueSize | SignedField
//
// (a signed 8-byte scalar whose presence bit is bit 0x02 of byte 4), which
// costs an accessor that inlines nothing.
type FieldBits uint32

// The units and flags of FieldBits.
const (
	// PresenceByte is the unit of the byte of the message that holds a
	// singular scalar's presence bit (bits 0-7: Byte).
	PresenceByte FieldBits = 1
	// PresenceMask is the unit of the presence bit within that byte
	// (bits 8-15: Mask).
	PresenceMask FieldBits = 1 << 8
	// ValueSize is the unit of a singular scalar's value size, 1, 4 or 8
	// (bits 16-23: Size): what a payload that scrubs zeroes when the field
	// is cleared. Without it (and in code generated before it existed) the
	// value is left as it is, as in C++.
	ValueSize FieldBits = 1 << 16
	// InlineField marks a singular message stored inside its holder (ROS
	// frontend, format v3), rather than in a slot holding its offset.
	InlineField FieldBits = 1 << 24
	// SignedField marks a singular signed integer or enum field: a value
	// that a message laid out by another version of the .proto stores
	// narrower (an int32 the schema has since widened to int64) is
	// sign-extended.
	SignedField FieldBits = 1 << 25
)

// Presence is the presence bit of the scalar with presence id id: bit
// id%8 of byte 4+id/8 of the message (the presence words follow the table
// word).
func Presence(id uint8) FieldBits {
	return FieldBits(4+id>>3)*PresenceByte | FieldBits(uint8(1)<<(id&7))*PresenceMask
}

// Byte and Mask locate a singular scalar's presence bit: byte Byte of the
// message, bit Mask. They are 0 for other fields.
func (f Field) Byte() uint8 { return uint8(f.Bits) }

// Mask is the presence bit within byte Byte (see Byte).
func (f Field) Mask() uint8 { return uint8(f.Bits / PresenceMask) }

// Size is a singular scalar's value size (see ValueSize), 0 when not
// recorded.
func (f Field) Size() uint8 { return uint8(f.Bits / ValueSize) }

// Inline reports InlineField.
func (f Field) Inline() bool { return f.Bits&InlineField != 0 }

// Signed reports SignedField.
func (f Field) Signed() bool { return f.Bits&SignedField != 0 }

// fieldOf returns the Field of a compiled field at offset with presence id
// id (InlineID for an inline message).
func fieldOf(number, offset uint32, id uint8, scalar bool, size uint32) Field {
	f := Field{Number: number, Offset: offset}
	if id == InlineID {
		f.Bits |= InlineField
	}
	if scalar {
		f.Bits |= Presence(id) | FieldBits(size)*ValueSize
	}
	return f
}

// FieldInfo describes a field for generic code (Clear, the dynamic view,
// the wire formats).
type FieldInfo struct {
	Field
	ID       uint8 // presence id, or the member's index in its oneof
	Name     string
	Kind     Kind
	Repeated bool   // repeated or map: a VectorHeader slot
	Size     uint32 // the value slot; an inline message's BinarySize
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

// Frontend is the generator frontend a message type is compiled with, as
// the C++ generator's frontend option: it decides the layout the type
// writes in format v3 (spec 8.9).
type Frontend uint8

// The frontends.
const (
	// ProtobufFrontend lays every message out as the protobuf frontend does:
	// a singular message field is a 4-byte slot holding the message's
	// offset.
	ProtobufFrontend Frontend = iota
	// ROSFrontend stores, in format v3, the singular non-oneof message
	// fields inside their holder (unless the field's type can reach the
	// holder). In format v2 it writes the protobuf frontend's layout, as
	// C++ Phaser 2.x does. Types of packages starting with
	// "google.protobuf" always use the protobuf frontend.
	ROSFrontend
)

// String returns "protobuf" or "ros".
func (f Frontend) String() string {
	if f == ROSFrontend {
		return "ros"
	}
	return "protobuf"
}

// Type is a message type known to the runtime: its layout, field table and
// name. Generated code obtains its Types from RegisterFile.
//
// A Type is compiled for one frontend: its Fields carry the offsets of that
// frontend's layout in the default format (v3). A message of the type in a
// payload whose table differs (another format, frontend or version of the
// .proto) is read and written through the payload's own table.
type Type struct {
	name     string
	hash     uint64 // FNV-1a of name (registry v2)
	frontend Frontend
	table    []byte    // compiled field table: the one Fields' offsets are for
	tables   [2][]byte // the table a new message gets in format v2, v3
	nativeIn [2]bool   // tables[i] is table
	size     [2]uint32
	id       uint32 // unique, from 1: the key of the Type's entry in a payload's table cache
	slot     uint32 // where a payload's table cache holds that entry (tableSlot)
	trust    uint8  // the trust keys under which payloads give t its compiled table (tables.go)
	csize    uint32 // BinarySize of the compiled layout (table's)
	extent   uint32 // the end of the compiled layout's last field: what a compiled handle needs in the payload
	// charge is what a walk over a payload charges a message of the type
	// in each format, V2 then V3 (Charge).
	charge    [2]uint32
	typeCount int
	isAny     bool
	fields    []*FieldInfo // declaration order, oneof members included
	byNumber  map[uint32]*FieldInfo
	byName    map[string]*FieldInfo
	unions    []*Union
	desc      protoreflect.MessageDescriptor
	reach     []*Type // this type, then the types reachable from it (BFS)
	// block is the format 3 tables of reach back to back, as a new format
	// 3 payload installs them (createRootV3), when each of them is its
	// Type's compiled table (nil otherwise, and for a type that reaches no
	// other): a reader compares them at once (ReadInto). blockEntries are
	// the table cache entries (tables.go) a match makes, less the block's
	// offset.
	block        []byte
	blockEntries []tableEntry
	// blockCache is the table cache a match of block at one offset makes
	// (the offset a payload's first match had: every payload made as
	// createRootV3 makes it has its block there), copied whole by a
	// reader that finds the block at that offset (ReadInto).
	blockCache atomic.Pointer[blockCache]
	inlined    atomic.Pointer[Type] // the ROS-frontend type of this name (inlineType)

	plans typePlans // codec plans (plans.go)

	imagesMu sync.Mutex
	images   map[imageKey]*payloadbuffer.Image // creation images, for resetting failed buffers
}

// Name returns the full protobuf name of the type.
func (t *Type) Name() string { return t.name }

// Frontend returns the frontend the type is compiled with.
func (t *Type) Frontend() Frontend { return t.frontend }

// Descriptor returns the type's protobuf descriptor.
func (t *Type) Descriptor() protoreflect.MessageDescriptor { return t.desc }

// BinarySize returns the size of a message of this type in format v.
func (t *Type) BinarySize(v payloadbuffer.Version) uint32 {
	if v == payloadbuffer.V3 {
		return t.size[1]
	}
	return t.size[0]
}

// tableFor returns the field table a new message of the type gets in
// format v.
func (t *Type) tableFor(v payloadbuffer.Version) []byte {
	if v == payloadbuffer.V3 {
		return t.tables[1]
	}
	return t.tables[0]
}

// native reports whether a new message of the type in format v gets the
// compiled table, so that handles on it use the compiled offsets.
func (t *Type) native(v payloadbuffer.Version) bool {
	if v == payloadbuffer.V3 {
		return t.nativeIn[1]
	}
	return t.nativeIn[0]
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

// Extent returns the bytes the compiled fields of a message of the type
// take from its offset (its table word, presence words and fields): what a
// compiled handle needs in the payload, and what the protobuf encoders
// charge a message (Wire).
func (t *Type) Extent() uint32 { return t.extent }

// Table returns the compiled field-metadata table bytes: the table of the
// layout Fields' offsets are for.
func (t *Type) Table() []byte { return t.table }

func fnv1a(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

// typeKey identifies a Type: a message name compiled for a frontend.
type typeKey struct {
	name     protoreflect.FullName
	frontend Frontend
}

// registry holds every Type, by full name and frontend.
var registry struct {
	sync.Mutex
	types map[typeKey]*Type
	ids   uint32 // the last Type's id
	v2    *layout.Cache
	v3    *layout.Cache
	v3ROS *layout.Cache
}

// TypeOf returns the protobuf-frontend Type of a message descriptor,
// computing its layout the first time. Types of one name are shared.
func TypeOf(md protoreflect.MessageDescriptor) (*Type, error) {
	return TypeFor(md, ProtobufFrontend)
}

// TypeFor returns the Type of a message descriptor compiled for frontend
// fe, computing its layout the first time.
func TypeFor(md protoreflect.MessageDescriptor, fe Frontend) (*Type, error) {
	registry.Lock()
	defer registry.Unlock()
	return typeOfLocked(md, fe)
}

// FindType returns a registered protobuf-frontend Type by full name, or
// nil.
func FindType(name protoreflect.FullName) *Type {
	registry.Lock()
	defer registry.Unlock()
	return registry.types[typeKey{name, ProtobufFrontend}]
}

// typeByHash returns a registered Type whose name has FNV-1a hash h, or
// nil: what a format v3 control block entry names.
func typeByHash(h uint64) *Type {
	registry.Lock()
	defer registry.Unlock()
	for _, t := range registry.types {
		if t.hash == h {
			return t
		}
	}
	return nil
}

// frontendOf returns the frontend a type of md compiled for fe really uses.
func frontendOf(md protoreflect.MessageDescriptor, fe Frontend) Frontend {
	if fe != ProtobufFrontend && !layout.FollowsFrontend(md) {
		return ProtobufFrontend
	}
	return fe
}

func typeOfLocked(md protoreflect.MessageDescriptor, fe Frontend) (*Type, error) {
	if registry.types == nil {
		registry.types = make(map[typeKey]*Type)
		registry.v2 = layout.NewCache(layout.Options{Version: 2})
		registry.v3 = layout.NewCache(layout.Options{Version: 3})
		registry.v3ROS = layout.NewCache(layout.Options{Version: 3, ROSFrontend: true})
	}
	if fe > ROSFrontend {
		return nil, fmt.Errorf("phaser: type %s: unknown frontend %d", md.FullName(), fe)
	}
	fe = frontendOf(md, fe)
	key := typeKey{md.FullName(), fe}
	if t := registry.types[key]; t != nil {
		return t, nil
	}
	v3 := registry.v3
	if fe == ROSFrontend {
		v3 = registry.v3ROS
	}
	l2, err := registry.v2.Of(md)
	if err != nil {
		return nil, fmt.Errorf("phaser: layout of %s: %w", md.FullName(), err)
	}
	l3, err := v3.Of(md)
	if err != nil {
		return nil, fmt.Errorf("phaser: layout of %s: %w", md.FullName(), err)
	}
	// The compiled layout: the protobuf frontend's offsets and table are
	// the same in both formats (only BinarySize differs); the ROS
	// frontend's are v3's.
	lc := l2
	if fe == ROSFrontend {
		lc = l3
	}
	t := &Type{
		name:      string(md.FullName()),
		hash:      fnv1a(string(md.FullName())),
		frontend:  fe,
		table:     lc.Table,
		tables:    [2][]byte{l2.Table, l3.Table},
		size:      [2]uint32{l2.BinarySize, l3.BinarySize},
		csize:     lc.BinarySize,
		typeCount: l2.TypeCount,
		isAny:     l2.IsAny,
		byNumber:  make(map[uint32]*FieldInfo),
		byName:    make(map[string]*FieldInfo),
		desc:      md,
	}
	t.nativeIn = [2]bool{string(l2.Table) == string(lc.Table), string(l3.Table) == string(lc.Table)}
	registry.ids++
	t.id = registry.ids
	t.slot = t.id % tableSlots // until its reach is known (tableSlot)
	t.trust = trustOf(t, layout.FollowsFrontend(md))
	registry.types[key] = t // before recursing: types can be recursive
	fail := func(err error) (*Type, error) {
		delete(registry.types, key)
		return nil, err
	}
	defer func() {
		if registry.types[key] != t {
			return
		}
		for _, r := range lc.Reachable() {
			if r.Desc.FullName() == md.FullName() {
				t.reach = append(t.reach, t)
			} else if rt := registry.types[typeKey{r.Desc.FullName(), frontendOf(r.Desc, fe)}]; rt != nil {
				t.reach = append(t.reach, rt)
			}
		}
		t.slot = tableSlot(t)
		t.block, t.blockEntries = tableBlock(t)
	}()
	unions := make(map[*layout.Union]*Union)
	for _, lu := range lc.Unions {
		u := &Union{Name: string(lu.Desc.Name()), Offset: lu.Offset, Size: lu.Size}
		unions[lu] = u
		t.unions = append(t.unions, u)
	}
	for _, lf := range lc.Fields {
		kind := kindOf(lf.Kind)
		scalar := !lf.Repeated && lf.Union == nil && kind != String && kind != Bytes && kind != Message
		fld := fieldOf(uint32(lf.Number), lf.Offset, lf.ID, scalar, lf.SlotSize)
		if !lf.Repeated && (kind == Int32 || kind == Int64 || kind == Enum) {
			fld.Bits |= SignedField
		}
		if n, ok := layout.ArraySize(lf.Desc); ok && lf.Repeated && !lf.Desc.IsMap() {
			fld.Fixed = n
		}
		f := &FieldInfo{
			Field:    fld,
			ID:       lf.ID,
			Name:     lf.Name,
			Kind:     kind,
			Repeated: lf.Repeated,
			Size:     lf.SlotSize,
			Desc:     lf.Desc,
		}
		if lf.Union != nil {
			f.Union = unions[lf.Union]
			f.Union.Members = append(f.Union.Members, f)
		}
		if f.Kind == Message {
			nt, err := typeOfLocked(lf.Desc.Message(), fe)
			if err != nil {
				return fail(err)
			}
			f.Type = nt
		}
		t.fields = append(t.fields, f)
		t.byNumber[f.Number] = f
		t.byName[f.Name] = f
	}
	t.extent = 4 // the table word
	for _, f := range t.fields {
		t.extent = max(t.extent, f.Offset+f.Size)
	}
	for _, u := range t.unions {
		t.extent = max(t.extent, u.Offset+u.Size)
	}
	own := t.extent
	for _, f := range t.fields {
		if f.Inline() {
			own -= min(own, f.Size)
		}
	}
	t.charge = [2]uint32{max(4, min(own, t.size[0])), max(4, own)}
	return t, nil
}

// Charge is what a walk over a payload of format v (an encoder, ToProto,
// a copy) charges one message of the type against its work budget (the
// payload's length): the bytes of the message itself, at most its size in
// that format and not counting the messages stored inside it (the ROS
// frontend's inline messages in format 3), which are charged when the
// walk visits them. A payload holds each message once, so a walk of one
// whose offsets are not shared or cyclic stays within the budget, however
// deep its inline messages nest.
func (t *Type) Charge(v payloadbuffer.Version) uint32 {
	if v == payloadbuffer.V3 {
		return t.charge[1]
	}
	return t.charge[0]
}

// tableBlock returns t's block and blockEntries (see Type.block).
func tableBlock(t *Type) ([]byte, []tableEntry) {
	if len(t.reach) < 2 || len(t.reach) != t.typeCount {
		return nil, nil
	}
	var block []byte
	var entries []tableEntry
	for _, r := range t.reach {
		if !r.native(payloadbuffer.V3) {
			return nil, nil
		}
		entries = append(entries, uint64(r.id)<<34|tableCompiled|uint64(len(block)))
		block = append(block, r.tableFor(payloadbuffer.V3)...)
	}
	if len(block) > maxEagerMetadata {
		return nil, nil
	}
	return block, entries
}

// inlineType returns the Type an inline message of t's name is laid out
// with: the ROS frontend's, whatever the frontend of the handle that
// creates it (inline storage exists only in ROS-frontend layouts). It
// returns nil if that layout cannot be computed.
func (t *Type) inlineType() *Type {
	if t.frontend == ROSFrontend {
		return t
	}
	if it := t.inlined.Load(); it != nil {
		return it
	}
	return t.inlineTypeLocked()
}

// inlineTypeLocked is inlineType's first look-up of a type, under the
// registry's lock.
func (t *Type) inlineTypeLocked() *Type {
	registry.Lock()
	defer registry.Unlock()
	if it := t.inlined.Load(); it != nil {
		return it
	}
	it, _ := typeOfLocked(t.desc, ROSFrontend)
	if it != nil {
		t.inlined.Store(it)
	}
	return it
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
