package gen

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// unmarshal emits UnmarshalProto and XXX_UnmarshalProto: a loop over the
// input's tags, a case per field and wire type that stores at the compiled
// offset, and the fields the message does not declare (or declares with
// another wire type) kept as unknown fields.
func (c *codec) unmarshal() {
	g, recv := c.g, "func (x "+c.name+") "
	g.P("// UnmarshalProto replaces the content of x with the protobuf encoding in")
	g.P("// data, written straight into x's payload. Fields the message does not")
	g.P("// declare are kept in the payload, and MarshalProto writes them back (see")
	g.P("// package proto). On error x holds what was parsed before it.")
	g.P(recv, "UnmarshalProto(data []byte) error {")
	g.P("m := ", g.xm())
	// The state is made in place (StartDecode), not returned: a Wire
	// returned by value is copied twice per decoding.
	g.P("var w ", g.door("Wire"))
	g.P("if err := ", g.door("StartDecode"), "(&w, m, ", c.tv, "); err != nil {")
	g.P("return err")
	g.P("}")
	g.P("err := ", g.door("EndDecode"), "(m, ", c.tv, ", &w, x.XXX_UnmarshalProto(data, &w))")
	g.P("if ", g.door("DecodeAgain"), "(&w) {")
	g.P("// The decoding reused the blocks of the message it replaced and")
	g.P("// filled the buffer: it is done again into the message cleared.")
	g.P("if err = ", g.door("StartDecode"), "(&w, m, ", c.tv, "); err != nil {")
	g.P("return err")
	g.P("}")
	g.P("err = ", g.door("EndDecode"), "(m, ", c.tv, ", &w, x.XXX_UnmarshalProto(data, &w))")
	g.P("}")
	if reachesRequired(c.m.Desc) {
		g.P("if err == nil {")
		g.P("cw := ", g.door("Walker"), "(m)")
		g.P("err = x.XXX_CheckInitialized(&cw)")
		g.P("}")
	}
	g.P("return err")
	g.P("}")
	g.P()
	g.P("// XXX_UnmarshalProto merges the protobuf encoding b into x within the")
	g.P("// decoding w of a message that holds it. It is for generated code.")
	g.P(recv, "XXX_UnmarshalProto(b []byte, w *", g.door("Wire"), ") error {")
	g.P("m := ", g.xm())
	g.P("s, ok := m.Setter(", c.tv, ")")
	g.P("if !ok {")
	g.P("return ", g.door("UnmarshalProtoGeneral"), "(b, m, ", c.tv, ", w)")
	g.P("}")
	g.P("_ = s")
	g.P("if !w.EnterDecode() {")
	g.P("return ", g.door("DepthError"), "(", quote(c.full), ")")
	g.P("}")
	g.P("mark := w.Mark()")
	for _, cf := range c.fields {
		if cf.list && !cf.isMap && !cf.isAny && cf.kind == protoreflect.MessageKind {
			g.P("var ", appVar(cf), " ", g.door("MessageAppender"))
			g.P(appVar(cf), "ok := false")
		}
	}
	// The input is walked by index, b never resliced: a slice's new start
	// costs a bounds check and a pointer mask, an index one add.
	g.P("for i := 0; i < len(b); {")
	if !c.m.Desc.IsMapEntry() {
		g.P("at := i // the record's start, for an unknown field")
	}
	g.P("tag, n := ", g.door("ConsumeTagAt"), "(b, i)")
	g.P("if n < 0 {")
	g.P("return ", g.door("WireError"), "(", quote(c.full), ", \"\", n)")
	g.P("}")
	g.P("i = n")
	g.P("switch tag {")
	for _, cf := range c.fields {
		c.decodeField(cf)
	}
	g.P("default:")
	if c.m.Desc.IsMapEntry() {
		// protobuf-go drops the unknown fields of map entries.
		g.P("n, err := ", g.door("DropUnknown"), "(b[i:], tag)")
	} else {
		g.P("n, err := ", g.door("SkipUnknown"), "(b[at:], b[i:], tag, w)")
	}
	g.P("if err != nil {")
	g.P("return err")
	g.P("}")
	g.P("i += n")
	g.P("}")
	g.P("}")
	g.P("if w.Kept(mark) {")
	if c.m.Desc.ExtensionRanges().Len() > 0 {
		// Declared extensions are held as protobuf-go holds them.
		g.P("if err := w.KeepUnknownOf(m, mark, ", c.tv, "); err != nil {")
	} else {
		g.P("if err := w.KeepUnknown(m, mark); err != nil {")
	}
	g.P("return ", g.door("UnknownError"), "(", quote(c.full), ", err)")
	g.P("}")
	g.P("}")
	g.P("w.Leave()")
	g.P("return nil")
	g.P("}")
	g.P()
}

// appVar names the appender of repeated message field cf.
func appVar(cf *codecField) string { return fmt.Sprintf("app%d", cf.fd.Number()) }

// decodeField emits the cases of field cf: one per wire type it accepts.
func (c *codec) decodeField(cf *codecField) {
	g := c.g
	if cf.isMap || cf.isAny {
		g.P("case ", tagValue(cf, protowire.BytesType), ": // ", cf.fd.Name())
		g.P("n, err := ", g.door("UnmarshalProtoField"), "(b[i:], tag, m, ", c.tv, ", w)")
		g.P("if err != nil {")
		g.P("return err")
		g.P("}")
		g.P("i += n")
		return
	}
	k := cf.kind
	wt := wireType(k)
	if cf.list && wt != protowire.BytesType {
		// Packed and unpacked are both accepted.
		g.P("case ", tagValue(cf, protowire.BytesType), ": // ", cf.fd.Name(), ", packed")
		c.consumeBytes(cf)
		size := storedSize(k)
		if wt == protowire.VarintType {
			g.P("if !", g.door("UnmarshalPackedVarint"), "(m, ", cf.lit, ", v, ", g.varintKind(k), ") {")
		} else {
			g.P("if !", g.door("UnmarshalPackedFixed"), "(m, ", cf.lit, ", v, ", size, ") {")
		}
		g.P("return ", g.door("WireError"), "(", quote(c.full), ", ", quote(cf.full), ", -1)")
		g.P("}")
		c.checkFull()
		g.P("i = n")
		g.P("case ", tagValue(cf, wt), ": // ", cf.fd.Name())
		switch wt {
		case protowire.VarintType:
			c.consumeVarint(cf)
			g.P(g.door("PushVarint"), "(m, ", cf.lit, ", v, ", g.varintKind(k), ")")
			c.checkFull()
			g.P("i = n")
		case protowire.Fixed32Type:
			c.needFixed(cf, 4)
			g.P("m.Push32(", cf.lit, ", ", g.leIdent(), ".Uint32(b[i:i+4]))")
			c.checkFull()
			g.P("i += 4")
		default:
			c.needFixed(cf, 8)
			g.P("m.Push64(", cf.lit, ", ", g.leIdent(), ".Uint64(b[i:i+8]))")
			c.checkFull()
			g.P("i += 8")
		}
		return
	}
	g.P("case ", tagValue(cf, wt), ": // ", cf.fd.Name())
	switch k {
	case protoreflect.MessageKind:
		c.consumeBytes(cf)
		typ, texpr := c.handleOf(cf)
		switch {
		case cf.list:
			a := appVar(cf)
			g.P("if !", a, "ok {")
			g.P(a, ", ", a, "ok = ", g.door("Messages"), "(m, ", cf.lit, ", ", texpr, ").Appender(), true")
			g.P("}")
			g.P("sub := ", a, ".Append()")
		case cf.f.Oneof != nil:
			g.P("sub := m.MutableMember(", unionVar(c.m, cf.f.Oneof), ", ", cf.lit, ", ", texpr, ")")
		case !cf.lf.Inline:
			// The slot at the compiled offset of the Setter's message.
			g.P("sub := s.MutableMessage(", cf.lf.Offset, ", ", texpr, ") // the slot at ", cf.lf.Offset)
		default:
			g.P("sub := m.MutableMessage(", cf.lit, ", ", texpr, ")")
		}
		g.P("if !sub.IsPresent() {")
		g.P("return ", g.door("FullError"), "(m, ", quote(c.full), ")")
		g.P("}")
		g.P("if err := ", typ, "(sub).XXX_UnmarshalProto(v, w); err != nil {")
		g.P("return err")
		g.P("}")
		g.P("i = n")
	case protoreflect.StringKind, protoreflect.BytesKind:
		c.consumeBytes(cf)
		if cf.utf8 {
			g.P("if !", g.door("ValidUTF8"), "(v) {")
			g.P("return ", g.door("InvalidUTF8"), "(", quote(c.full), ", ", quote(cf.full), ")")
			g.P("}")
		}
		switch {
		case cf.list:
			g.P("m.PushBytes(", cf.lit, ", v)")
		case cf.f.Oneof != nil:
			g.P("m.SetMemberBytes(", unionVar(c.m, cf.f.Oneof), ", ", cf.lit, ", v)")
		default:
			// The Setter's message has the compiled layout: the slot is
			// at the field's compiled offset.
			g.P("if !s.StoreBytes(", cf.lf.Offset, ", v) { // the slot at ", cf.lf.Offset)
			g.P("return ", g.door("FullError"), "(m, ", quote(c.full), ")")
			g.P("}")
			g.P("i = n")
			return
		}
		c.checkFull()
		g.P("i = n")
	default:
		var bits, width string
		next := "i = n"
		switch wt {
		case protowire.Fixed32Type:
			c.needFixed(cf, 4)
			bits, width, next = g.leIdent()+".Uint32(b[i:i+4])", "32", "i += 4"
		case protowire.Fixed64Type:
			c.needFixed(cf, 8)
			bits, width, next = g.leIdent()+".Uint64(b[i:i+8])", "64", "i += 8"
		default:
			c.consumeVarint(cf)
			switch k {
			case protoreflect.BoolKind:
				bits, width = g.door("BoolByte")+"(v != 0)", "8"
			case protoreflect.Sint32Kind:
				bits, width = g.door("Unzigzag32")+"(v)", "32"
			case protoreflect.Sint64Kind:
				bits, width = g.door("Unzigzag64")+"(v)", "64"
			case protoreflect.Int64Kind, protoreflect.Uint64Kind:
				bits, width = "v", "64"
			default:
				bits, width = "uint32(v)", "32"
			}
		}
		if cf.f.Oneof != nil {
			g.P("m.SetMember", width, "(", unionVar(c.m, cf.f.Oneof), ", ", cf.lit, ", ", bits, ")")
		} else {
			// The offset, presence byte and bit, as constants of the call.
			lf := cf.lf
			g.P("s.Store", width, "(", lf.Offset, ", ", 4+lf.ID>>3, ", ", fmt.Sprintf("%#02x", 1<<(lf.ID&7)), ", ", bits, ") // at ", lf.Offset, ", presence bit in byte ", 4+lf.ID>>3)
		}
		g.P(next)
	}
}

// consumeBytes emits the parsing of a length-delimited value v at index
// i; n is the index after it.
func (c *codec) consumeBytes(cf *codecField) {
	g := c.g
	g.P("start, n := ", g.door("ConsumeBytesAt"), "(b, i)")
	g.P("if n < 0 {")
	g.P("return ", g.door("WireError"), "(", quote(c.full), ", ", quote(cf.full), ", n)")
	g.P("}")
	g.P("v := b[start:n]")
}

// consumeVarint emits the parsing of a varint v at index i; n is the index
// after it.
func (c *codec) consumeVarint(cf *codecField) {
	g := c.g
	g.P("v, n := ", g.door("ConsumeVarintAt"), "(b, i)")
	g.P("if n < 0 {")
	g.P("return ", g.door("WireError"), "(", quote(c.full), ", ", quote(cf.full), ", n)")
	g.P("}")
}

// needFixed emits the check that a fixed-width value of size bytes is at
// index i.
func (c *codec) needFixed(cf *codecField, size int) {
	g := c.g
	g.P("if len(b)-i < ", size, " {")
	g.P("return ", g.door("WireError"), "(", quote(c.full), ", ", quote(cf.full), ", -1)")
	g.P("}")
}

// checkFull emits the check of a write that allocates: a fixed buffer
// that filled up ends the decoding.
func (c *codec) checkFull() {
	g := c.g
	g.P("if m.Failed() {")
	g.P("return ", g.door("FullError"), "(m, ", quote(c.full), ")")
	g.P("}")
}
