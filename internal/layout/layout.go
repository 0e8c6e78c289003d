// Package layout computes the byte layout of Phaser messages from protobuf
// message descriptors, exactly as the C++ Phaser code generator does.
//
// For each message type it gives the presence-mask and header sizes, the
// offset, presence id and slot size of every field, the unions (oneofs), the
// size of the message block and the field-metadata table bytes that a writer
// copies into the payload (the hybrid format, or the legacy format for
// google.protobuf.Any). [Lookup] and [TableSize] read such tables back, as a
// runtime must when it reads a received payload, whose tables may describe a
// different schema version or be hostile.
//
// Two layout versions exist, selected by [Options.Version]:
//
//   - Version 2 is C++ Phaser 2.1. Its BinarySize counts the header twice, so
//     every message block has HeaderSize spare bytes at its end.
//   - Version 3 is Phaser 3.0: the header is counted once and, with the ROS
//     frontend, singular non-oneof message fields are stored inline.
//
// Version 2 layouts and tables are checked against payloads written by C++
// Phaser 2.1. The Version 3 inline layout and the [Message.Reachable] order
// follow proposals of the specification (3.0 sources are unavailable).
//
// Layouts are computed through a [Cache], which handles recursive types and
// computes each type once.
package layout

import (
	"errors"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Constants of the table formats.
const (
	// HybridMagic is the first word of a hybrid field-metadata table
	// (bytes 31 44 48 50). A table starting with any other word is legacy.
	HybridMagic uint32 = 0x50484431

	// InlineID is the id that a Version 3 ROS-frontend table gives to a
	// message stored inline in its holder (kInlineMessageFieldId). Presence
	// ids must therefore stay below it in Version 3.
	InlineID uint8 = 0xFF

	// MaxOffset is the largest offset a table entry can hold (24 bits).
	MaxOffset = 1<<24 - 1
)

// ErrUnsupported is matched (with [errors.Is]) by the errors that report a
// message Phaser cannot lay out: groups, offsets beyond 24 bits, too many
// presence ids.
var ErrUnsupported = errors.New("layout: not supported by Phaser")

// unsupportedError is an error that matches ErrUnsupported.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string        { return "layout: " + e.msg }
func (e *unsupportedError) Is(target error) bool { return target == ErrUnsupported }

// Options selects the layout rules.
type Options struct {
	// Version is 2 (C++ Phaser 2.1 layout; BinarySize counts the header
	// twice) or 3 (Phaser 3.0: BinarySize fix, inline messages with the ROS
	// frontend). Any other value makes [Cache.Of] fail.
	Version int

	// ROSFrontend selects the ROS frontend of the generator. In Version 3,
	// singular non-oneof message fields (Any and map-entry values included)
	// are then stored inline in their holder, unless their type can reach
	// the holder through such fields. Inline fields take no slot and no
	// presence id; they follow the unions, each 8-aligned, with table id
	// InlineID. Messages of packages starting with "google.protobuf" always
	// use the protobuf frontend. ROSFrontend has no effect in Version 2.
	ROSFrontend bool
}

// Kind is the storage kind of a field value (of one element, for repeated
// fields). sint and sfixed types are stored as their plain integer kinds;
// fixed types as the unsigned kinds.
type Kind uint8

// The storage kinds.
const (
	BoolKind    Kind = iota + 1 // bool: 1 byte, 0 or 1
	Int32Kind                   // int32, sint32, sfixed32: 4 bytes
	Uint32Kind                  // uint32, fixed32: 4 bytes
	Int64Kind                   // int64, sint64, sfixed64: 8 bytes
	Uint64Kind                  // uint64, fixed64: 8 bytes
	FloatKind                   // float: 4 bytes, IEEE-754 binary32
	DoubleKind                  // double: 8 bytes, IEEE-754 binary64
	EnumKind                    // enum: 4 bytes, int32
	StringKind                  // string: 4-byte offset of a string block
	BytesKind                   // bytes: 4-byte offset of a string block
	MessageKind                 // message (including maps' entries and Any): 4-byte offset
)

var kindNames = [...]string{
	BoolKind:    "bool",
	Int32Kind:   "int32",
	Uint32Kind:  "uint32",
	Int64Kind:   "int64",
	Uint64Kind:  "uint64",
	FloatKind:   "float",
	DoubleKind:  "double",
	EnumKind:    "enum",
	StringKind:  "string",
	BytesKind:   "bytes",
	MessageKind: "message",
}

// String returns the kind's name, such as "int32".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "invalid"
}

// Size returns the size (and alignment) of a singular value of kind k in
// its slot: 1, 4 or 8, or 0 for an invalid kind.
func (k Kind) Size() uint32 {
	switch k {
	case BoolKind:
		return 1
	case Int64Kind, Uint64Kind, DoubleKind:
		return 8
	case Int32Kind, Uint32Kind, FloatKind, EnumKind, StringKind, BytesKind, MessageKind:
		return 4
	}
	return 0
}

// Field is the layout of one field. It must not be modified.
type Field struct {
	// Desc is the field's descriptor.
	Desc protoreflect.FieldDescriptor
	// Number is the field number.
	Number protoreflect.FieldNumber
	// Name is the field's proto name.
	Name string
	// Kind is the storage kind of the value (of one element if Repeated).
	Kind Kind
	// Repeated reports a repeated or map field, stored as an 8-byte
	// VectorHeader {uint32 num_elements; uint32 data}.
	Repeated bool
	// Offset is the offset from the message start as written in the table.
	// For oneof members it is the union's offset (its discriminator; the
	// value is at Offset+4). For inline messages it is where the inline
	// message starts.
	Offset uint32
	// ID is the table id: the presence id of a non-oneof field (0 for
	// strings, bytes and messages, which carry no presence bit; the current
	// id, not incremented, for repeated fields), the 0-based index within
	// the oneof for oneof members, and InlineID for inline messages.
	ID uint8
	// SlotSize is the size of the value slot: 1, 4 or 8 (8 for repeated
	// fields). For an inline message it is the inline message's BinarySize.
	SlotSize uint32
	// Union is the union of a oneof member (proto3 optional fields are
	// one-member unions), else nil.
	Union *Union
	// Inline reports a message stored inside its holder (Version 3, ROS
	// frontend).
	Inline bool
	// Message is the layout of the field's message type (the map entry
	// type for maps) for MessageKind fields, else nil.
	Message *Message
}

// HasPresenceBit reports whether the field has a presence bit in the mask:
// singular non-oneof scalars and enums. The bit is bit ID&31 of the mask
// word ID>>5, at message offset 4+4*(ID>>5).
func (f *Field) HasPresenceBit() bool {
	return f.Union == nil && !f.Repeated && !f.Inline &&
		f.Kind != StringKind && f.Kind != BytesKind && f.Kind != MessageKind
}

// Union is the layout of a oneof: an int32 discriminator (the active
// member's field number, or 0) followed by the value slot. It must not be
// modified.
type Union struct {
	// Desc is the oneof's descriptor.
	Desc protoreflect.OneofDescriptor
	// Offset is the discriminator's offset from the message start.
	Offset uint32
	// Size is 4 plus the largest member slot (at least 4).
	Size uint32
	// Members are the union's fields, in oneof order; a member's ID is its
	// index here.
	Members []*Field
}

// Message is the layout of one message type. It must not be modified.
type Message struct {
	// Desc is the message's descriptor.
	Desc protoreflect.MessageDescriptor
	// FullName is the proto full name, which is also the name the runtime
	// registers the table under.
	FullName string
	// IsAny reports google.protobuf.Any, which Phaser lays out as the
	// hand-written 12-byte AnyMessage with a legacy table.
	IsAny bool
	// MaskSize is the size of the presence mask in bytes (a multiple of 4).
	MaskSize uint32
	// HeaderSize is 4 (the metadata word) plus MaskSize.
	HeaderSize uint32
	// FixedSize is the end of the message's data counted from the message
	// start (C++ binary_size_): it includes the header once.
	FixedSize uint32
	// BinarySize is the size allocated for the message: HeaderSize+FixedSize
	// in Version 2 (the header counted twice), FixedSize in Version 3, and
	// 12 for Any.
	BinarySize uint32
	// Fields are all fields in declaration order, oneof members included.
	Fields []*Field
	// Unions are the oneofs in declaration order (synthetic oneofs of proto3
	// optional fields included, where the descriptor puts them).
	Unions []*Union
	// Table is the field-metadata table: hybrid format, or legacy for Any.
	Table []byte
	// TypeCount is the C++ MetadataTypeCount(): the number of distinct
	// message types reachable from this one through message fields of any
	// cardinality (oneof members, map entries and Any included), counting
	// this one.
	TypeCount int

	byNumber  map[protoreflect.FieldNumber]*Field
	byName    map[string]*Field
	reachable []*Message
}

// FieldByNumber returns the field with number n, or nil.
func (m *Message) FieldByNumber(n protoreflect.FieldNumber) *Field {
	return m.byNumber[n]
}

// FieldByName returns the field with proto name name, or nil.
func (m *Message) FieldByName(name string) *Field {
	return m.byName[name]
}

// Reachable returns m followed by the message types reachable from it, in
// breadth-first order with fields visited in declaration order. This is
// the order of the eagerly installed metadata tables in Version 3 (spec
// 8.7, a proposal). Its length is TypeCount. The slice is a copy.
func (m *Message) Reachable() []*Message {
	return slices.Clone(m.reachable)
}
