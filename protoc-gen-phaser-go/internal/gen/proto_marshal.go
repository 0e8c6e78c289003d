package gen

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// marshal emits MarshalProto, AppendProto and XXX_AppendProto, the
// encoder a message's holders call.
func (c *codec) marshal() {
	g, recv := c.g, "func (x "+c.name+") "
	g.P("// MarshalProto returns the protobuf encoding of x: what protobuf-go's")
	g.P("// deterministic Marshal gives for the same message. It fails on a proto2")
	g.P("// required field that is not set, a proto3 string that is not valid UTF-8,")
	g.P("// and a payload that refers to more data than it holds.")
	g.P(recv, "MarshalProto() ([]byte, error) {")
	g.P("var w ", g.door("Wire"))
	g.P("if err := w.Encode(", g.xm(), "); err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("n, err := x.XXX_ProtoSize(&w)")
	g.P("if err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("return x.AppendProto(make([]byte, 0, n))")
	g.P("}")
	g.P()
	g.P("// AppendProto appends the protobuf encoding of x to dst (see MarshalProto);")
	g.P("// it allocates nothing when dst has room.")
	g.P(recv, "AppendProto(dst []byte) ([]byte, error) {")
	g.P("var w ", g.door("Wire"))
	g.P("if !w.EncodeReady(", g.xm(), ") { // Encode's common case, inline")
	g.P("if err := w.Encode(", g.xm(), "); err != nil {")
	g.P("return dst, err")
	g.P("}")
	g.P("}")
	g.P("return x.XXX_AppendProto(dst, &w)")
	g.P("}")
	g.P()
	c.flatGuards()
	g.P("// XXX_AppendProto appends the protobuf encoding of x within the encoding w")
	g.P("// of a message that holds it. It is for generated code.")
	g.P(recv, "XXX_AppendProto(b []byte, w *", g.door("Wire"), ") ([]byte, error) {")
	g.P("m := ", g.xm())
	g.P("msg, mem, ok := m.CompiledBytes(", c.extent, ")")
	g.P("if !ok {")
	g.P("return ", g.door("AppendProtoGeneral"), "(b, m, ", c.tv, ", w)")
	g.P("}")
	g.P("if !w.Enter(", c.charge, ") {")
	g.P("return b, w.Err(", quote(c.full), ")")
	g.P("}")
	g.P("p := (*[", c.extent, "]byte)(msg)")
	g.P("_, _ = p, mem")
	if req := c.required(); len(req) > 0 {
		g.P("if !w.AllowPartial {")
		for _, cf := range req {
			g.P("if ", c.missing(cf), " {")
			g.P("return b, ", g.door("RequiredError"), "(", quote(cf.full), ")")
			g.P("}")
		}
		g.P("}")
	}
	g.P("var unknown []byte")
	if c.extensible() {
		g.P("exts := false")
	}
	g.P("if w.HasUnknown() {")
	g.P("if unknown = w.Unknown(m); !w.Charge(len(unknown)) {")
	g.P("return b, w.Err(", quote(c.full), ")")
	g.P("}")
	if c.extensible() {
		g.P("b, exts = ", g.door("AppendExtensions"), "(b, unknown, ", c.tv, ")")
	}
	g.P("}")
	plain, oneofs := c.ordered()
	for _, cf := range plain {
		c.appendField(cf)
	}
	for _, members := range oneofs {
		c.appendOneof(members)
	}
	g.P("if len(unknown) > 0 {")
	if c.extensible() {
		g.P("if exts {")
		g.P("b = ", g.door("AppendNonExtensions"), "(b, unknown, ", c.tv, ")")
		g.P("} else {")
		g.P("b = append(b, unknown...)")
		g.P("}")
	} else {
		g.P("b = append(b, unknown...)")
	}
	g.P("}")
	g.P("w.Leave()")
	g.P("return b, nil")
	g.P("}")
	g.P()
}

// missing returns the condition of required field cf not set.
func (c *codec) missing(cf *codecField) string {
	lf := cf.lf
	switch {
	case cf.kind == protoreflect.MessageKind || cf.kind == protoreflect.StringKind || cf.kind == protoreflect.BytesKind:
		// A slot (or an inline message's table word) of 0.
		return fmt.Sprintf("%s.Uint32(p[%d:]) == 0", c.g.leIdent(), lf.Offset)
	}
	return fmt.Sprintf("p[%d]&%#02x == 0", 4+lf.ID>>3, 1<<(lf.ID&7))
}

// presenceBit returns the condition of scalar field cf's presence bit.
func presenceBit(cf *codecField) string {
	return fmt.Sprintf("p[%d]&%#02x != 0", 4+cf.lf.ID>>3, 1<<(cf.lf.ID&7))
}

// appendField emits the encoding of field cf (not a member of a real
// oneof).
func (c *codec) appendField(cf *codecField) {
	g := c.g
	g.P("// ", cf.fd.Name(), " (", cf.fd.Number(), ")")
	switch {
	case cf.isMap || cf.isAny:
		c.appendGeneral(cf)
	case cf.list:
		c.appendList(cf)
	case cf.synthetic:
		u := cf.lf.Union
		g.P("if ", g.leIdent(), ".Uint32(p[", u.Offset, ":]) == ", cf.fd.Number(), " {")
		c.appendValue(cf, u.Offset+4)
		g.P("}")
	case cf.kind == protoreflect.MessageKind:
		typ, texpr := c.handleOf(cf)
		if fc, guard := c.flatCodec(cf); fc != nil && !cf.lf.Inline {
			c.flatSlot(cf, fc, guard, texpr, func() { c.appendFlat(cf, fc) }, func() { c.appendSub(cf, typ+"(sub)") })
			break
		}
		g.P("if sub := ", c.nested(cf, texpr), "; sub.IsPresent() {")
		c.appendSubInline(cf, "sub", typ+"(sub)")
		g.P("}")
	case cf.kind == protoreflect.StringKind || cf.kind == protoreflect.BytesKind:
		if cf.fd.HasPresence() {
			g.P("if h := ", g.leIdent(), ".Uint32(p[", cf.lf.Offset, ":]); h != 0 {")
			g.P("s := ", g.door("StringAt"), "(mem, h)")
		} else {
			g.P("if s := ", g.door("StringAt"), "(mem, ", g.leIdent(), ".Uint32(p[", cf.lf.Offset, ":])); len(s) > 0 {")
		}
		c.appendString(cf)
		g.P("}")
	case cf.presence:
		g.P("if ", presenceBit(cf), " {")
		c.appendScalar(cf, cf.lf.Offset, true)
		g.P("}")
	default:
		c.appendScalar(cf, cf.lf.Offset, false)
	}
}

// appendOneof emits the encoding of the active member of a real oneof.
func (c *codec) appendOneof(members []*codecField) {
	g := c.g
	u := members[0].lf.Union
	g.P("// oneof ", u.Desc.Name())
	g.P("switch ", g.leIdent(), ".Uint32(p[", u.Offset, ":]) {")
	for _, cf := range members {
		g.P("case ", cf.fd.Number(), ": // ", cf.fd.Name())
		if cf.isAny {
			c.appendGeneral(cf)
			continue
		}
		c.appendValue(cf, u.Offset+4)
	}
	g.P("}")
}

// appendValue emits the encoding of the value of an active oneof member
// (a real or synthetic oneof) stored at off: written whatever its value.
func (c *codec) appendValue(cf *codecField, off uint32) {
	g := c.g
	switch cf.kind {
	case protoreflect.MessageKind:
		if cf.isAny {
			c.appendGeneral(cf)
			return
		}
		typ, texpr := c.handleOf(cf)
		// An active member whose slot is 0 is written as an empty
		// message, as package proto writes it.
		c.appendSub(cf, typ+"(m.MemberMessage("+cf.lit+", "+texpr+"))")
	case protoreflect.StringKind, protoreflect.BytesKind:
		g.P("{")
		g.P("s := ", g.door("StringAt"), "(mem, ", g.leIdent(), ".Uint32(p[", off, ":]))")
		c.appendString(cf)
		g.P("}")
	default:
		c.appendScalar(cf, off, true)
	}
}

// appendSub emits the encoding of message field cf holding the handle
// expression sub: its tag, a byte reserved for the length, the message,
// and the length patched in.
func (c *codec) appendSub(cf *codecField, sub string) {
	g := c.g
	t, _ := tag(cf, protowire.BytesType)
	g.P("b = append(b, ", t, ", 0)")
	g.P("at := len(b) - 1")
	g.P("nb, err := ", sub, ".XXX_AppendProto(b, w)")
	g.P("if err != nil {")
	g.P("return nb, err")
	g.P("}")
	g.P("b = ", g.door("PatchLength"), "(nb, at)")
}

// appendSubInline emits the encoding of message field cf holding the
// message sub (handle is its typed handle): for a flat message type (see
// flatCodec), its fields written in line, no call, when sub is compiled
// and the payload keeps no unknown fields; else, or for another type, its
// encoder's call (appendSub). The length takes one byte: a flat message's
// encoding is shorter than 128 bytes.
func (c *codec) appendSubInline(cf *codecField, sub, handle string) {
	g := c.g
	fc, guard := c.flatCodec(cf)
	if fc == nil {
		c.appendSub(cf, handle)
		return
	}
	g.P("if ", fc.flatBytes(), ", _, ok := ", sub, ".CompiledBytes(", fc.extent, "); ok", andGuard(guard), " && !w.HasUnknown() {")
	c.appendFlat(cf, fc)
	g.P("} else {")
	c.appendSub(cf, handle)
	g.P("}")
}

// flatSlot emits the code for message field cf of flat type fc held in a
// slot: the slot read once, then flat (code that reads the nested
// message's compiled bytes, q) when NestedBytes checks them and their table
// in line (and guard holds), else other (code that reads the handle sub)
// for a message NestedAt finds present (another layout, a table to
// compare).
func (c *codec) flatSlot(cf *codecField, fc *codec, guard, texpr string, flat, other func()) {
	g := c.g
	g.P("if s := ", g.leIdent(), ".Uint32(p[", cf.lf.Offset, ":]); s != 0 {")
	g.P("if ", fc.flatBytes(), ", ok := m.NestedBytes(s, ", texpr, ", ", fc.extent, "); ok", andGuard(guard), " && !w.HasUnknown() {")
	flat()
	g.P("} else if sub := m.NestedAt(s, ", texpr, "); sub.IsPresent() {")
	other()
	g.P("}")
	g.P("}")
}

// andGuard returns the condition " && guard", or "" for no guard.
func andGuard(guard string) string {
	if guard == "" {
		return ""
	}
	return " && " + guard
}

// flatBytes returns the name the encoding of a flat message (fc) reads its
// compiled bytes through: "_" when it has no fields.
func (fc *codec) flatBytes() string {
	if len(fc.fields) == 0 {
		return "_"
	}
	return "q"
}

// appendFlat emits the encoding, in line, of message field cf of flat type
// fc, whose compiled bytes are q: its tag, its fields, the length patched
// into one byte.
func (c *codec) appendFlat(cf *codecField, fc *codec) {
	g := c.g
	t, _ := tag(cf, protowire.BytesType)
	g.P("if !w.Enter(", fc.charge, ") {")
	g.P("return b, w.Err(", quote(fc.full), ")")
	g.P("}")
	g.P("b = append(b, ", t, ", 0)")
	if len(fc.fields) > 0 {
		g.P("at := len(b) - 1")
		g.P("p := (*[", fc.extent, "]byte)(q)")
		plain, _ := fc.ordered()
		for _, f := range plain {
			fc.appendField(f)
		}
		g.P("b[at] = byte(len(b) - at - 1) // at most ", fc.flatMax(), " bytes")
	}
	g.P("w.Leave()")
}

// flatCodec returns the codec of the type of message field cf when it is
// flat: singular scalar fields only (no string, message, repeated field,
// oneof or required field), no extension ranges, and an encoding of at
// most 127 bytes; nil for any other type. A type declared in another file
// may have been generated from another version of its .proto: guard is
// then the variable (flatGuards) that says, from init on, whether the
// type's compiled layout is the one this file reads in line; "" for a
// type of this file, laid out by the same layouts as its holder.
func (c *codec) flatCodec(cf *codecField) (fc *codec, guard string) {
	md := cf.f.Message
	if md == nil || cf.isMap || cf.isAny || md.Desc.ExtensionRanges().Len() > 0 {
		return nil, ""
	}
	lm, err := c.g.layouts.Of(md.Desc)
	if err != nil {
		return nil, ""
	}
	fc = c.g.newCodec(md, lm, "", "")
	for _, f := range fc.fields {
		switch {
		case f.list, f.isMap, f.oneof != nil, f.synthetic, f.fd.Cardinality() == protoreflect.Required,
			f.kind == protoreflect.MessageKind, f.kind == protoreflect.GroupKind,
			f.kind == protoreflect.StringKind, f.kind == protoreflect.BytesKind:
			return nil, ""
		}
	}
	if fc.flatMax() > 127 {
		return nil, ""
	}
	if md.Desc.ParentFile() != c.m.Desc.ParentFile() {
		_, texpr := c.handleOf(cf)
		guard = "phaserFlat" + strings.TrimPrefix(texpr, "phaserType")
	}
	return fc, guard
}

// flatGuards emits, once a file, the variable of each flat message type
// of another file that c's encoder writes in line (flatCodec): whether
// its compiled layout is the one the encoder reads (phaserimpl.LaidOutAs).
func (c *codec) flatGuards() {
	g := c.g
	for _, cf := range c.fields {
		if cf.kind != protoreflect.MessageKind {
			continue
		}
		fc, guard := c.flatCodec(cf)
		if fc == nil || guard == "" || g.flatGuards[guard] {
			continue
		}
		if g.flatGuards == nil {
			g.flatGuards = map[string]bool{}
		}
		g.flatGuards[guard] = true
		_, texpr := c.handleOf(cf)
		var kinds strings.Builder
		lits := ""
		for _, f := range fc.fields {
			k := byte(f.kind)
			if f.fd.HasPresence() {
				k |= 0x80
			}
			fmt.Fprintf(&kinds, "\\x%02x", k)
			lits += ", " + f.lit
		}
		g.P("// ", guard, " reports whether ", fc.full, " is laid out as the encoders")
		g.P("// of this file write it in line.")
		g.P("var ", guard, " = ", g.door("LaidOutAs"), "(", texpr, ", ", fc.extent, ", \"", kinds.String(), "\"", lits, ")")
		g.P()
	}
}

// flatMax returns the most bytes the encoding of a flat message takes.
func (c *codec) flatMax() int {
	n := 0
	for _, f := range c.fields {
		_, tl := tag(f, wireType(f.kind))
		switch wireType(f.kind) {
		case protowire.Fixed32Type:
			n += tl + 4
		case protowire.Fixed64Type:
			n += tl + 8
		default:
			n += tl + 10
		}
	}
	return n
}

// appendGeneral emits the encoding of a field through the general codec
// (a map, an Any).
func (c *codec) appendGeneral(cf *codecField) {
	g := c.g
	g.P("{")
	g.P("nb, err := ", g.door("AppendProtoField"), "(b, m, ", c.tv, ", ", cf.fd.Number(), ", w)")
	g.P("if err != nil {")
	g.P("return nb, err")
	g.P("}")
	g.P("b = nb")
	g.P("}")
}

// appendString emits the encoding of string s of field cf.
func (c *codec) appendString(cf *codecField) {
	g := c.g
	g.P("if !w.Charge(len(s)) {")
	g.P("return b, w.Err(", quote(cf.full), ")")
	g.P("}")
	if cf.utf8 {
		g.P("if !", g.door("ValidUTF8"), "(s) {")
		g.P("return b, ", g.door("UTF8Error"), "(", quote(cf.full), ")")
		g.P("}")
	}
	t, _ := tag(cf, protowire.BytesType)
	g.P("b = append(b, ", t, ")")
	g.P("b = ", g.door("AppendVarint"), "(b, uint64(len(s)))")
	g.P("b = ", g.door("AppendBytes"), "(b, s)")
}

// appendScalar emits the encoding of scalar field cf stored at off:
// always when written is set (a present field of explicit presence, an
// active member), else when its bits are not 0 and its presence bit is
// set.
func (c *codec) appendScalar(cf *codecField, off uint32, written bool) {
	g := c.g
	k := cf.kind
	t, _ := tag(cf, wireType(k))
	v := g.load(k, off)
	if written {
		g.P("{")
		g.P("v := ", v)
	} else {
		g.P("if v := ", v, "; v != 0 && ", presenceBit(cf), " {")
	}
	switch wireType(k) {
	case protowire.Fixed32Type:
		g.P("b = ", g.leIdent(), ".AppendUint32(append(b, ", t, "), v)")
	case protowire.Fixed64Type:
		g.P("b = ", g.leIdent(), ".AppendUint64(append(b, ", t, "), v)")
	default:
		if k == protoreflect.BoolKind {
			if written {
				g.P("if v != 0 {")
				g.P("v = 1")
				g.P("}")
				g.P("b = append(b, ", t, ", v)")
			} else {
				g.P("b = append(b, ", t, ", 1)")
			}
			break
		}
		g.P("b = ", g.door("AppendVarint"), "(append(b, ", t, "), ", g.varintOf(k, "v"), ")")
	}
	g.P("}")
}

// appendList emits the encoding of repeated field cf (not a map).
func (c *codec) appendList(cf *codecField) {
	g := c.g
	if cf.kind == protoreflect.MessageKind {
		typ, texpr := c.handleOf(cf)
		c.forElements(cf, texpr)
		c.appendSubInline(cf, "e", typ+"(e)")
		g.P("}")
		g.P("}")
		return
	}
	off := cf.lf.Offset
	if cf.kind == protoreflect.StringKind || cf.kind == protoreflect.BytesKind {
		g.P("if s := ", g.door("Elems"), "(mem, p[", off, ":", off+8, "], 4); len(s) > 0 {")
		g.P("nb, err := ", g.door("AppendStrings"), "(b, ", tagString(cf, protowire.BytesType), ", mem, s, w, ", cf.utf8, ", ", quote(cf.full), ")")
		g.P("if err != nil {")
		g.P("return nb, err")
		g.P("}")
		g.P("b = nb")
		g.P("}")
		return
	}
	size := storedSize(cf.kind)
	g.P("if s := ", g.door("Elems"), "(mem, p[", off, ":", off+8, "], ", size, "); len(s) > 0 {")
	g.P("if !w.Charge(len(s)) {")
	g.P("return b, w.Err(", quote(cf.full), ")")
	g.P("}")
	fixed := wireType(cf.kind) != protowire.VarintType
	switch {
	case cf.packed && fixed:
		// Stored little-endian at their wire width: the bytes are the
		// record's.
		t, _ := tag(cf, protowire.BytesType)
		g.P("b = ", g.door("AppendVarint"), "(append(b, ", t, "), uint64(len(s)))")
		g.P("b = append(b, s...)")
	case cf.packed:
		g.P("b = ", g.door("AppendPackedVarint"), "(b, ", tagString(cf, protowire.BytesType), ", s, ", g.varintKind(cf.kind), ")")
	case fixed:
		g.P("b = ", g.door("AppendUnpackedFixed"), "(b, ", tagString(cf, wireType(cf.kind)), ", s, ", size, ")")
	default:
		g.P("b = ", g.door("AppendUnpackedVarint"), "(b, ", tagString(cf, protowire.VarintType), ", s, ", g.varintKind(cf.kind), ")")
	}
	g.P("}")
}
