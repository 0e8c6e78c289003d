package gen

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
	phaserproto "github.com/phaser-go/phaser/proto"
)

// The generated protobuf codec of a message: MarshalProto, AppendProto
// (proto_marshal.go), ProtoSize (proto_size.go), UnmarshalProto
// (proto_unmarshal.go) and IsInitialized (proto_init.go), in the manner of
// vtprotobuf's features: straight-line code per field at the compiled
// offsets, tags as constants, packed fixed-width fields copied in bulk,
// nested messages written once (their length patched in after them).
// Each method takes package proto's plan interpreter (through
// phaserimpl), out of line, for a message that is not laid out with its
// compiled table, and for the maps and Any fields. This file holds what
// they share: how each field is encoded.

// codec is what the codec emitters know of the message being generated.
type codec struct {
	g      *fileGen
	m      *protogen.Message
	lm     *layout.Message
	name   string // the handle type
	tv     string // the Type variable
	full   string // the full name, for errors
	extent uint32 // the compiled layout's extent (impl.Type.Extent)
	charge uint32 // what the encoders charge the message (chargeOf)
	fields []*codecField
}

// codecField is one field of the message, as the codecs encode it.
type codecField struct {
	f    *protogen.Field
	lf   *layout.Field
	fd   protoreflect.FieldDescriptor
	kind protoreflect.Kind
	lit  string // its phaserimpl.Field literal
	full string // its full name, for errors

	list, isMap, isAny bool
	oneof              *protogen.Oneof // a real oneof, or nil
	synthetic          bool            // a proto3 optional field: a one-member union
	presence           bool            // explicit presence of a singular non-oneof scalar (proto2)
	packed             bool
	utf8               bool // a string that must be valid UTF-8 (proto3)
}

// newCodec describes m, laid out as lm, for the codec emitters.
func (g *fileGen) newCodec(m *protogen.Message, lm *layout.Message, name, tv string) *codec {
	c := &codec{g: g, m: m, lm: lm, name: name, tv: tv, full: string(m.Desc.FullName()), extent: extentOf(lm), charge: chargeOf(lm)}
	for _, f := range m.Fields {
		lf := lm.FieldByNumber(f.Desc.Number())
		cf := &codecField{
			f: f, lf: lf, fd: f.Desc, kind: f.Desc.Kind(), lit: g.fieldLit(lf), full: string(f.Desc.FullName()),
			list: f.Desc.IsList(), isMap: f.Desc.IsMap(),
			isAny: f.Message != nil && f.Message.Desc.FullName() == anyName,
			utf8:  f.Desc.Kind() == protoreflect.StringKind && phaserproto.RequiresUTF8(f.Desc),
		}
		if o := f.Oneof; o != nil {
			if o.Desc.IsSynthetic() {
				cf.synthetic = true
			} else {
				cf.oneof = o
			}
		}
		if cf.list && wireType(cf.kind) != protowire.BytesType {
			cf.packed = f.Desc.IsPacked()
		}
		cf.presence = !cf.list && !cf.isMap && f.Oneof == nil && f.Desc.HasPresence() &&
			cf.kind != protoreflect.MessageKind && cf.kind != protoreflect.StringKind && cf.kind != protoreflect.BytesKind
		c.fields = append(c.fields, cf)
	}
	return c
}

// extentOf returns the extent of layout lm, as impl.Type computes it: the
// end of its last field or union, at least the table word.
func extentOf(lm *layout.Message) uint32 {
	e := uint32(4)
	for _, f := range lm.Fields {
		e = max(e, f.Offset+f.SlotSize)
	}
	for _, u := range lm.Unions {
		e = max(e, u.Offset+u.Size)
	}
	return e
}

// chargeOf returns what an encoder charges a message of layout lm against
// its work budget on entering it, as impl.Type.Charge computes it for
// format 3 (the payloads a compiled codec reads): its extent less the
// slots of the messages stored inside it, which are charged when the
// encoder enters them.
func chargeOf(lm *layout.Message) uint32 {
	c := extentOf(lm)
	for _, f := range lm.Fields {
		if f.Inline {
			c -= min(c, f.SlotSize)
		}
	}
	return max(c, 4)
}

// ordered returns the fields in protobuf-go's marshaling order: those
// outside real oneofs by number, then each real oneof's (in declaration
// order), by number.
func (c *codec) ordered() (plain []*codecField, oneofs [][]*codecField) {
	for _, cf := range c.fields {
		if cf.oneof == nil {
			plain = append(plain, cf)
		}
	}
	sortByNumber(plain)
	for _, o := range c.m.Oneofs {
		if o.Desc.IsSynthetic() {
			continue
		}
		var members []*codecField
		for _, cf := range c.fields {
			if cf.oneof == o {
				members = append(members, cf)
			}
		}
		sortByNumber(members)
		oneofs = append(oneofs, members)
	}
	return plain, oneofs
}

func sortByNumber(fs []*codecField) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].fd.Number() < fs[j-1].fd.Number(); j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

// required returns the proto2 required fields, by number.
func (c *codec) required() []*codecField {
	var req []*codecField
	for _, cf := range c.fields {
		if cf.fd.Cardinality() == protoreflect.Required {
			req = append(req, cf)
		}
	}
	sortByNumber(req)
	return req
}

// extensible reports whether the message has extension ranges: its
// unknown fields that are extensions are written first.
func (c *codec) extensible() bool { return c.m.Desc.ExtensionRanges().Len() > 0 }

// wireType returns the wire type of a single value of kind k.
func wireType(k protoreflect.Kind) protowire.Type { return phaserproto.WireType(k) }

// tag returns the tag of field cf with wire type typ as a Go byte list
// ("0x0a" or "0x82, 0x01") and its length.
func tag(cf *codecField, typ protowire.Type) (string, int) {
	t := protowire.AppendTag(nil, cf.fd.Number(), typ)
	parts := make([]string, len(t))
	for i, b := range t {
		parts[i] = fmt.Sprintf("%#02x", b)
	}
	return strings.Join(parts, ", "), len(t)
}

// tagString returns the tag as a Go string literal, for the helpers that
// take one.
func tagString(cf *codecField, typ protowire.Type) string {
	t := protowire.AppendTag(nil, cf.fd.Number(), typ)
	var s strings.Builder
	s.WriteByte('"')
	for _, b := range t {
		fmt.Fprintf(&s, "\\x%02x", b)
	}
	s.WriteByte('"')
	return s.String()
}

// tagValue returns the tag as the varint the decoders switch on.
func tagValue(cf *codecField, typ protowire.Type) string {
	return fmt.Sprintf("%#x", uint64(cf.fd.Number())<<3|uint64(typ))
}

// storedSize returns the stored size of a scalar of kind k: 1, 4 or 8.
func storedSize(k protoreflect.Kind) int {
	switch k {
	case protoreflect.BoolKind:
		return 1
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Uint64Kind,
		protoreflect.Sfixed64Kind, protoreflect.Fixed64Kind, protoreflect.DoubleKind:
		return 8
	}
	return 4
}

// varintKind returns the phaserimpl.VarintKind of a varint kind.
func (g *fileGen) varintKind(k protoreflect.Kind) string {
	switch k {
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return g.door("VarintInt32")
	case protoreflect.Uint32Kind:
		return g.door("VarintUint32")
	case protoreflect.Sint32Kind:
		return g.door("VarintSint32")
	case protoreflect.Sint64Kind:
		return g.door("VarintSint64")
	case protoreflect.BoolKind:
		return g.door("VarintBool")
	}
	return g.door("VarintInt64")
}

// load returns the expression that loads the stored bits of a scalar of
// kind k at offset off of the message bytes p (a uint32 or uint64; a uint8
// for a bool).
func (g *fileGen) load(k protoreflect.Kind, off uint32) string {
	le := g.ident("encoding/binary", "LittleEndian")
	switch storedSize(k) {
	case 1:
		return fmt.Sprintf("p[%d]", off)
	case 4:
		return fmt.Sprintf("%s.Uint32(p[%d:])", le, off)
	}
	return fmt.Sprintf("%s.Uint64(p[%d:])", le, off)
}

// varintOf returns the varint written for stored bits v of kind k.
func (g *fileGen) varintOf(k protoreflect.Kind, v string) string {
	switch k {
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return "uint64(int64(int32(" + v + ")))"
	case protoreflect.Uint32Kind:
		return "uint64(" + v + ")"
	case protoreflect.Sint32Kind:
		return g.door("Zigzag32") + "(" + v + ")"
	case protoreflect.Sint64Kind:
		return g.door("Zigzag64") + "(" + v + ")"
	}
	return v
}

// handleOf returns the handle type of message field cf and its Type
// expression.
func (c *codec) handleOf(cf *codecField) (typ, texpr string) {
	typ, texpr, _ = c.g.msgRef(cf.f.Message)
	return typ, texpr
}

// nested returns the expression of the handle on singular message field cf
// (of Type texpr) of the compiled message m, whose bytes are p: its slot
// read at the compiled offset, or the inline message's handle.
func (c *codec) nested(cf *codecField, texpr string) string {
	if cf.lf.Inline {
		return "m.InlineMessage(" + cf.lit + ", " + texpr + ")"
	}
	return fmt.Sprintf("m.NestedAt(%s.Uint32(p[%d:]), %s)", c.g.leIdent(), cf.lf.Offset, texpr)
}

// forElements opens the loop over the elements e of repeated message
// field cf (of Type texpr), run by run (impl.Runs): the block it opens
// ends with two closing braces.
func (c *codec) forElements(cf *codecField, texpr string) {
	g := c.g
	g.P("for rs := m.Runs(", cf.lit, ", ", texpr, "); ; {")
	g.P("run, ok := rs.Next()")
	g.P("if !ok {")
	g.P("break")
	g.P("}")
	g.P("for i := range run.Len() {")
	g.P("e := run.At(i)")
}

// reachesRequired reports whether a message of type md can hold a
// required field (package proto's rule, which CheckInitialized follows).
func reachesRequired(md protoreflect.MessageDescriptor) bool { return phaserproto.ReachesRequired(md) }

// quote returns s as a Go string literal.
func quote(s string) string { return strconv.Quote(s) }

// leIdent is encoding/binary's LittleEndian.
func (g *fileGen) leIdent() string { return g.ident("encoding/binary", "LittleEndian") }

// protoCodec emits the protobuf codec of message m (the hook message.go
// calls).
func (g *fileGen) protoCodec(m *protogen.Message, lm *layout.Message, name, tv string) {
	c := g.newCodec(m, lm, name, tv)
	c.marshal()
	c.size()
	c.unmarshal()
	c.initialized()
}
