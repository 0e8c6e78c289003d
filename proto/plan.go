// Package proto writes and reads the protobuf wire format straight from and
// into Phaser payloads, with no intermediate message.
//
// The output is canonical: fields in protobuf-go's order (by field number,
// real oneofs last), proto3 fields with
// implicit presence omitted when zero, map entries sorted by key (the last of
// duplicate keys wins), exactly what protobuf-go's
// proto.MarshalOptions{Deterministic: true} gives for the same message. C++
// Phaser 2.1 writes differently (fields in declaration order with oneofs
// last, explicit zeros, and padding after unpacked repeated fields); both
// parse to the same content.
//
// Parsing replaces the message's content. Unknown fields are skipped and
// dropped. Malformed input returns an error naming the field; the message
// then holds what was parsed before the error.
package proto

import (
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
)

// plan is how one message type is written and read.
type plan struct {
	t        *impl.Type
	fields   []*fieldPlan // in field-number order
	byNum    map[protowire.Number]*fieldPlan
	dense    []*fieldPlan // by number, for numbers below denseMax
	required []*fieldPlan // proto2 required fields, by number
	// extensible is set for a message with extension ranges: the unknown
	// fields that are extensions this program declares are written first
	// (appendExtensions).
	extensible bool
	mapEntry   bool // a map entry, whose unknown fields are dropped
	// initCheck is set when the type can reach a required field
	// (ReachesRequired): CheckInitialized walks only such messages.
	initCheck bool
}

type fieldPlan struct {
	f        *impl.FieldInfo
	num      protowire.Number
	kind     protoreflect.Kind
	wire     protowire.Type // the element's wire type
	packed   bool           // written packed (repeated scalars)
	packable bool
	presence bool // explicit presence: written when set, even if zero
	utf8     bool // proto3 string: must be valid UTF-8
	size     int  // stored element size: 1, 4 or 8
	isMap    bool
	key, val *fieldPlan // map entry fields

	// initCheck is set for a message field whose type, or map value type,
	// can reach a required field.
	initCheck bool

	op     encodeOp // how appendMessage writes the field
	tag    [5]byte  // the field's tag (with its wire type) as written
	tagLen int
}

// encodeOp selects appendMessage's code for a field, and decodeMessage's
// for its scalars: singular messages and the common singular scalars and
// strings without explicit presence get their own, every other field
// (repeated, maps, oneof members, explicit presence, zigzag) opGeneric.
type encodeOp uint8

const (
	opGeneric  encodeOp = iota
	opFixed32           // float, fixed32, sfixed32: 4 stored bytes as they are
	opFixed64           // double, fixed64, sfixed64: 8 stored bytes as they are
	opInt32             // int32, enum: sign-extended varint
	opUint32            // uint32: varint
	opVarint64          // int64, uint64: varint
	opBool              // bool: 1
	opString            // string, bytes
	opMessage           // message
)

// scalar reports whether op is one of a singular scalar.
func (op encodeOp) scalar() bool { return op >= opFixed32 && op <= opBool }

// denseMax bounds the field numbers looked up by index rather than in the
// map when parsing.
const denseMax = 256

// field returns the plan of field num, or nil.
func (p *plan) field(num protowire.Number) *fieldPlan {
	if num >= 0 && int(num) < len(p.dense) {
		return p.dense[num]
	}
	if num < denseMax {
		return nil
	}
	return p.byNum[num]
}

// planOf returns the plan of t, built on first use and kept in t's
// impl.ProtoPlan slot.
func planOf(t *impl.Type) *plan {
	if p, ok := t.Plan(impl.ProtoPlan).(*plan); ok {
		return p
	}
	p := &plan{t: t, byNum: make(map[protowire.Number]*fieldPlan)}
	for _, f := range t.Fields() {
		fp := newFieldPlan(f)
		p.fields = append(p.fields, fp)
		p.byNum[fp.num] = fp
		if fp.num < denseMax {
			if int(fp.num) >= len(p.dense) {
				p.dense = append(p.dense, make([]*fieldPlan, int(fp.num)+1-len(p.dense))...)
			}
			p.dense[fp.num] = fp
		}
	}
	sort.Slice(p.fields, func(i, j int) bool { return legacyOrder(p.fields[i].f.Desc, p.fields[j].f.Desc) })
	for _, fp := range p.fields {
		if fp.f.Desc.Cardinality() == protoreflect.Required {
			p.required = append(p.required, fp)
		}
	}
	sort.SliceStable(p.required, func(i, j int) bool { return p.required[i].num < p.required[j].num })
	if md := t.Descriptor(); md != nil {
		p.extensible = md.ExtensionRanges().Len() > 0
		p.mapEntry = md.IsMapEntry()
		p.initCheck = ReachesRequired(md)
	}
	return t.StorePlan(impl.ProtoPlan, p).(*plan)
}

func newFieldPlan(f *impl.FieldInfo) *fieldPlan {
	fd := f.Desc
	fp := &fieldPlan{
		f:        f,
		num:      fd.Number(),
		kind:     fd.Kind(),
		presence: fd.HasPresence(),
		utf8:     fd.Kind() == protoreflect.StringKind && RequiresUTF8(fd),
		isMap:    fd.IsMap(),
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		fp.size = 1
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Uint64Kind,
		protoreflect.Sfixed64Kind, protoreflect.Fixed64Kind, protoreflect.DoubleKind:
		fp.size = 8
	default:
		fp.size = 4
	}
	fp.wire = WireType(fd.Kind())
	if fd.IsList() && fp.wire != protowire.BytesType {
		fp.packable = true
		fp.packed = fd.IsPacked()
	}
	if fp.isMap {
		e := f.Type
		fp.key = newFieldPlan(e.FieldByNumber(1))
		fp.val = newFieldPlan(e.FieldByNumber(2))
	}
	if md := fd.Message(); md != nil {
		fp.initCheck = ReachesRequired(md)
	}
	wire := fp.wire
	if fp.packed {
		wire = protowire.BytesType
	}
	fp.tagLen = len(protowire.AppendTag(fp.tag[:0], fp.num, wire))
	switch {
	case f.Repeated || f.Union != nil:
	case fp.kind == protoreflect.MessageKind:
		fp.op = opMessage // written when present, as HasPresence says
	case !fp.presence:
		fp.op = singularOp(fp.kind)
	}
	return fp
}

// singularOp returns the encodeOp of a singular scalar, string or bytes
// field of kind k with implicit presence.
func singularOp(k protoreflect.Kind) encodeOp {
	switch k {
	case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		return opFixed32
	case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		return opFixed64
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return opInt32
	case protoreflect.Uint32Kind:
		return opUint32
	case protoreflect.Int64Kind, protoreflect.Uint64Kind:
		return opVarint64
	case protoreflect.BoolKind:
		return opBool
	case protoreflect.StringKind, protoreflect.BytesKind:
		return opString
	}
	return opGeneric
}

// legacyOrder is protobuf-go's marshaling order: fields outside real oneofs
// by number, then each oneof's fields (oneofs in declaration order) by
// number. libprotobuf writes all fields by number; both parse the same.
func legacyOrder(x, y protoreflect.FieldDescriptor) bool {
	ox, oy := x.ContainingOneof(), y.ContainingOneof()
	if ox != nil && ox.IsSynthetic() {
		ox = nil
	}
	if oy != nil && oy.IsSynthetic() {
		oy = nil
	}
	switch {
	case (ox == nil) != (oy == nil):
		return ox == nil
	case ox != nil && ox != oy:
		return ox.Index() < oy.Index()
	}
	return x.Number() < y.Number()
}

// subPlan returns the plan of a message field's type. It is looked up when
// needed rather than when the plan is built, so that recursive types have
// finite plans.
func (fp *fieldPlan) subPlan() *plan { return planOf(fp.f.Type) }

// RequiresUTF8 reports whether string field fd must hold valid UTF-8:
// the fields of proto3 files, as protobuf-go has it.
func RequiresUTF8(fd protoreflect.FieldDescriptor) bool {
	return fd.ParentFile() != nil && fd.ParentFile().Syntax() == protoreflect.Proto3
}
