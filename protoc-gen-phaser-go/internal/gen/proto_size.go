package gen

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// size emits ProtoSize and XXX_ProtoSize, which compute what the encoder
// writes (proto_marshal.go) field by field, charging the same budget.
func (c *codec) size() {
	g, recv := c.g, "func (x "+c.name+") "
	g.P("// ProtoSize returns the length of x's protobuf encoding (0 if it cannot")
	g.P("// be encoded; MarshalProto then says why).")
	g.P(recv, "ProtoSize() int {")
	g.P("var w ", g.door("Wire"))
	g.P("if !w.EncodeReady(", g.xm(), ") && w.Encode(", g.xm(), ") != nil {")
	g.P("return 0")
	g.P("}")
	g.P("n, _ := x.XXX_ProtoSize(&w)")
	g.P("return n")
	g.P("}")
	g.P()
	g.P("// XXX_ProtoSize returns the length of x's protobuf encoding within the")
	g.P("// encoding w of a message that holds it. It is for generated code.")
	g.P(recv, "XXX_ProtoSize(w *", g.door("Wire"), ") (int, error) {")
	g.P("m := ", g.xm())
	g.P("msg, mem, ok := m.CompiledBytes(", c.extent, ")")
	g.P("if !ok {")
	g.P("return ", g.door("SizeProtoGeneral"), "(m, ", c.tv, ", w)")
	g.P("}")
	g.P("if !w.Enter(", c.charge, ") {")
	g.P("return 0, w.Err(", quote(c.full), ")")
	g.P("}")
	g.P("p := (*[", c.extent, "]byte)(msg)")
	g.P("_, _ = p, mem")
	g.P("n := 0")
	g.P("if w.HasUnknown() {")
	g.P("u := w.Unknown(m)")
	g.P("if !w.Charge(len(u)) {")
	g.P("return 0, w.Err(", quote(c.full), ")")
	g.P("}")
	g.P("n += len(u)")
	g.P("}")
	plain, oneofs := c.ordered()
	for _, cf := range plain {
		c.sizeField(cf)
	}
	for _, members := range oneofs {
		u := members[0].lf.Union
		g.P("// oneof ", u.Desc.Name())
		g.P("switch ", g.leIdent(), ".Uint32(p[", u.Offset, ":]) {")
		for _, cf := range members {
			g.P("case ", cf.fd.Number(), ": // ", cf.fd.Name())
			c.sizeValue(cf, u.Offset+4)
		}
		g.P("}")
	}
	g.P("w.Leave()")
	g.P("return n, nil")
	g.P("}")
	g.P()
}

// sizeField emits the size of field cf (not a member of a real oneof).
func (c *codec) sizeField(cf *codecField) {
	g := c.g
	g.P("// ", cf.fd.Name(), " (", cf.fd.Number(), ")")
	switch {
	case cf.isMap || cf.isAny:
		c.sizeGeneral(cf)
	case cf.list:
		c.sizeList(cf)
	case cf.synthetic:
		u := cf.lf.Union
		g.P("if ", g.leIdent(), ".Uint32(p[", u.Offset, ":]) == ", cf.fd.Number(), " {")
		c.sizeValue(cf, u.Offset+4)
		g.P("}")
	case cf.kind == protoreflect.MessageKind:
		typ, texpr := c.handleOf(cf)
		if fc, guard := c.flatCodec(cf); fc != nil && !cf.lf.Inline {
			// A flat message sized in line, as its encoder writes it
			// (appendFlat): its fields, its tag, a 1-byte length.
			_, tl := tag(cf, protowire.BytesType)
			c.flatSlot(cf, fc, guard, texpr, func() {
				g.P("if !w.Enter(", fc.charge, ") {")
				g.P("return 0, w.Err(", quote(fc.full), ")")
				g.P("}")
				if len(fc.fields) > 0 {
					g.P("p := (*[", fc.extent, "]byte)(q)")
					plain, _ := fc.ordered()
					for _, f := range plain {
						fc.sizeField(f)
					}
				}
				g.P("n += ", tl, " + 1")
				g.P("w.Leave()")
			}, func() { c.sizeSub(cf, typ+"(sub)") })
			break
		}
		g.P("if sub := ", c.nested(cf, texpr), "; sub.IsPresent() {")
		c.sizeSub(cf, typ+"(sub)")
		g.P("}")
	case cf.kind == protoreflect.StringKind || cf.kind == protoreflect.BytesKind:
		if cf.fd.HasPresence() {
			g.P("if h := ", g.leIdent(), ".Uint32(p[", cf.lf.Offset, ":]); h != 0 {")
			g.P("s := ", g.door("StringAt"), "(mem, h)")
		} else {
			g.P("if s := ", g.door("StringAt"), "(mem, ", g.leIdent(), ".Uint32(p[", cf.lf.Offset, ":])); len(s) > 0 {")
		}
		c.sizeString(cf)
		g.P("}")
	case cf.presence:
		g.P("if ", presenceBit(cf), " {")
		c.sizeScalar(cf, cf.lf.Offset, true)
		g.P("}")
	default:
		c.sizeScalar(cf, cf.lf.Offset, false)
	}
}

// sizeValue emits the size of an active oneof member's value at off.
func (c *codec) sizeValue(cf *codecField, off uint32) {
	g := c.g
	switch cf.kind {
	case protoreflect.MessageKind:
		if cf.isAny {
			c.sizeGeneral(cf)
			return
		}
		typ, texpr := c.handleOf(cf)
		c.sizeSub(cf, typ+"(m.MemberMessage("+cf.lit+", "+texpr+"))")
	case protoreflect.StringKind, protoreflect.BytesKind:
		g.P("{")
		g.P("s := ", g.door("StringAt"), "(mem, ", g.leIdent(), ".Uint32(p[", off, ":]))")
		c.sizeString(cf)
		g.P("}")
	default:
		c.sizeScalar(cf, off, true)
	}
}

func (c *codec) sizeSub(cf *codecField, sub string) {
	g := c.g
	_, tl := tag(cf, protowire.BytesType)
	g.P("s, err := ", sub, ".XXX_ProtoSize(w)")
	g.P("if err != nil {")
	g.P("return 0, err")
	g.P("}")
	g.P("n += ", tl, " + ", g.door("SizeBytes"), "(s)")
}

func (c *codec) sizeGeneral(cf *codecField) {
	g := c.g
	g.P("{")
	g.P("s, err := ", g.door("SizeProtoField"), "(m, ", c.tv, ", ", cf.fd.Number(), ", w)")
	g.P("if err != nil {")
	g.P("return 0, err")
	g.P("}")
	g.P("n += s")
	g.P("}")
}

func (c *codec) sizeString(cf *codecField) {
	g := c.g
	_, tl := tag(cf, protowire.BytesType)
	g.P("if !w.Charge(len(s)) {")
	g.P("return 0, w.Err(", quote(cf.full), ")")
	g.P("}")
	g.P("n += ", tl, " + ", g.door("SizeBytes"), "(len(s))")
}

// sizeScalar emits the size of scalar field cf stored at off (see
// appendScalar).
func (c *codec) sizeScalar(cf *codecField, off uint32, written bool) {
	g := c.g
	k := cf.kind
	_, tl := tag(cf, wireType(k))
	var size string
	switch wireType(k) {
	case protowire.Fixed32Type:
		size = "4"
	case protowire.Fixed64Type:
		size = "8"
	default:
		size = g.door("SizeVarint") + "(" + g.varintOf(k, "v") + ")"
		if k == protoreflect.BoolKind {
			size = "1"
		}
	}
	if written {
		if size == "4" || size == "8" || size == "1" {
			g.P("n += ", tl, " + ", size)
			return
		}
		g.P("{")
		g.P("v := ", g.load(k, off))
	} else {
		g.P("if v := ", g.load(k, off), "; v != 0 && ", presenceBit(cf), " {")
	}
	g.P("n += ", tl, " + ", size)
	g.P("}")
}

// sizeList emits the size of repeated field cf (not a map).
func (c *codec) sizeList(cf *codecField) {
	g := c.g
	if cf.kind == protoreflect.MessageKind {
		typ, texpr := c.handleOf(cf)
		c.forElements(cf, texpr)
		c.sizeSub(cf, typ+"(e)")
		g.P("}")
		g.P("}")
		return
	}
	off := cf.lf.Offset
	if cf.kind == protoreflect.StringKind || cf.kind == protoreflect.BytesKind {
		_, tl := tag(cf, protowire.BytesType)
		g.P("if s := ", g.door("Elems"), "(mem, p[", off, ":", off+8, "], 4); len(s) > 0 {")
		g.P("k, err := ", g.door("SizeStrings"), "(", tl, ", mem, s, w, ", quote(cf.full), ")")
		g.P("if err != nil {")
		g.P("return 0, err")
		g.P("}")
		g.P("n += k")
		g.P("}")
		return
	}
	size := storedSize(cf.kind)
	g.P("if s := ", g.door("Elems"), "(mem, p[", off, ":", off+8, "], ", size, "); len(s) > 0 {")
	g.P("if !w.Charge(len(s)) {")
	g.P("return 0, w.Err(", quote(cf.full), ")")
	g.P("}")
	fixed := wireType(cf.kind) != protowire.VarintType
	switch {
	case cf.packed && fixed:
		_, tl := tag(cf, protowire.BytesType)
		g.P("n += ", tl, " + ", g.door("SizeBytes"), "(len(s))")
	case cf.packed:
		_, tl := tag(cf, protowire.BytesType)
		g.P("n += ", g.door("SizePackedVarint"), "(", tl, ", s, ", g.varintKind(cf.kind), ")")
	case fixed:
		_, tl := tag(cf, wireType(cf.kind))
		g.P("n += len(s) / ", size, " * (", tl, " + ", size, ")")
	default:
		_, tl := tag(cf, protowire.VarintType)
		g.P("n += ", g.door("SizeUnpackedVarint"), "(", tl, ", s, ", g.varintKind(cf.kind), ")")
	}
	g.P("}")
}
