package gen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/ros"
)

// The generated ROS1 codec (see runtime/phaserimpl/roscodec.go for the
// contract): per message, straight-line size, append and read functions
// over the compiled layout, with widths, offsets and ROS types as
// constants, and the MarshalROS, AppendROS, ROSSize and UnmarshalROS
// methods that call them and fall back on package ros. A message whose
// ROS1 form is not known here (a recursive type, options that do not fit
// the field: errors package ros reports) gets the methods alone, calling
// package ros.

// rosShape is what the generator knows of a message type's ROS1 form.
type rosShape struct {
	fixed int   // the ROS1 size when it does not depend on content, else -1
	min   int   // the smallest ROS1 size: that of the default message
	err   error // why the type has no generated codec
}

// rosShapeOf returns the ROS1 shape of md, computed once per file.
func (g *fileGen) rosShapeOf(md protoreflect.MessageDescriptor) *rosShape {
	if g.rosShapes == nil {
		g.rosShapes = map[protoreflect.FullName]*rosShape{}
	}
	if s := g.rosShapes[md.FullName()]; s != nil {
		return s
	}
	s := &rosShape{err: fmt.Errorf("%s contains itself: ROS1 has no recursive messages", md.FullName())}
	g.rosShapes[md.FullName()] = s // a cycle finds this one
	fixed, min, err := 0, 0, error(nil)
	fields := md.Fields()
	seen := map[protoreflect.OneofDescriptor]bool{}
	for i := range fields.Len() {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil {
			if seen[od] {
				continue
			}
			seen[od] = true
			for j := range od.Fields().Len() {
				if _, _, e := g.rosElemShape(od.Fields().Get(j)); e != nil && err == nil {
					err = e
				}
			}
			fixed, min = -1, min+4
			continue
		}
		f, m, e := g.rosElemShape(fd)
		if e != nil && err == nil {
			err = e
		}
		n, _ := ros.ArraySize(fd)
		switch {
		case n > 0:
			if f >= 0 {
				f *= int(n)
			}
			m *= int(n)
		case fd.IsList() || fd.IsMap():
			f, m = -1, 4
		}
		if f < 0 || fixed < 0 {
			fixed = -1
		} else {
			fixed += f
		}
		min += m
	}
	*s = rosShape{fixed: fixed, min: min, err: err}
	return s
}

// rosElemShape returns the fixed and smallest ROS1 size of one value of
// field fd (an element of a repeated field).
func (g *fileGen) rosElemShape(fd protoreflect.FieldDescriptor) (fixed, min int, err error) {
	rt, err := ros.FieldType(fd)
	if err != nil {
		return 0, 0, err
	}
	switch rt {
	case ros.String:
		return -1, 4, nil
	case ros.Message:
		if fd.Message().FullName() == anyName {
			return 8, 8, nil
		}
		s := g.rosShapeOf(fd.Message())
		return s.fixed, s.min, s.err
	}
	return rt.Width(), rt.Width(), nil
}

// rosField is one field of a message in ROS order, as the codec emitters
// see it.
type rosField struct {
	f     *protogen.Field
	lf    *layout.Field
	fl    string   // its phaserimpl.Field literal
	rt    ros.Type // the ROS type of its values
	array int      // phaser.array_size, 0 if none
	size  int      // stored element size of a scalar: 1, 4 or 8
	fixed int      // the fixed ROS size of one value, -1 if it varies
	min   int      // the smallest ROS size of one value
	typ   string   // the Type expression of a message field
	sub   string   // the name suffix of a nested message's codec functions, "" for a foreign one
	codec string   // the ROSCodec variable of a message of another package
}

// repeated reports whether the field is repeated (or a map).
func (r *rosField) repeated() bool { return r.f.Desc.IsList() || r.f.Desc.IsMap() }

// rosItem is a field, or a whole oneof at the position of its first
// member, in ROS order.
type rosItem struct {
	*rosField
	oneof   *protogen.Oneof
	members []*rosField
}

// rosItems returns the items of m in ROS order.
func (g *fileGen) rosItems(m *protogen.Message, lm *layout.Message) []*rosItem {
	var items []*rosItem
	seen := map[*protogen.Oneof]bool{}
	for _, f := range m.Fields {
		if f.Oneof != nil {
			if seen[f.Oneof] {
				continue
			}
			seen[f.Oneof] = true
			it := &rosItem{oneof: f.Oneof}
			for _, mf := range f.Oneof.Fields {
				it.members = append(it.members, g.rosFieldOf(mf, lm))
			}
			items = append(items, it)
			continue
		}
		items = append(items, &rosItem{rosField: g.rosFieldOf(f, lm)})
	}
	return items
}

func (g *fileGen) rosFieldOf(f *protogen.Field, lm *layout.Message) *rosField {
	lf := lm.FieldByNumber(f.Desc.Number())
	rt, _ := ros.FieldType(f.Desc) // checked by rosShapeOf
	n, _ := ros.ArraySize(f.Desc)
	r := &rosField{f: f, lf: lf, fl: g.fieldLit(lf), rt: rt, array: int(n), size: int(lf.Kind.Size())}
	r.fixed, r.min, _ = g.rosElemShape(f.Desc)
	if f.Message != nil {
		if f.Message.Desc.FullName() == anyName {
			r.typ = g.door("AnyType") + "()"
		} else {
			_, r.typ, _ = g.msgRef(f.Message)
			if g.phaserPkg(f.Message.Desc.ParentFile()) == g.pkg {
				r.sub = f.Message.GoIdent.GoName
			} else {
				r.codec = "phaserROSCodec_" + strings.TrimPrefix(r.typ, "phaserType_")
			}
		}
	}
	return r
}

// rosHasCodec reports whether m gets the generated codec.
func (g *fileGen) rosHasCodec(m *protogen.Message) bool {
	return g.rosShapeOf(m.Desc).err == nil
}

// rosForeignCodecs declares the ROSCodec variables of the messages of
// other packages that the codecs of the file's messages call, in order of
// first use.
func (g *fileGen) rosForeignCodecs() {
	seen := map[string]bool{}
	for _, m := range allMessages(g.file.Messages) {
		if !g.rosHasCodec(m) {
			continue
		}
		for _, f := range m.Fields {
			msg := f.Message
			if msg == nil || msg.Desc.FullName() == anyName || g.phaserPkg(msg.Desc.ParentFile()) == g.pkg {
				continue
			}
			if rt, _ := ros.FieldType(f.Desc); rt != ros.Message {
				continue // time and duration are written here
			}
			_, tv, _ := g.msgRef(msg)
			cv := "phaserROSCodec_" + strings.TrimPrefix(tv, "phaserType_")
			if seen[cv] {
				continue
			}
			if len(seen) == 0 {
				g.P("// The generated ROS1 codecs of the messages of other packages that")
				g.P("// fields refer to (nil for a type without one: package ros then does")
				g.P("// the work).")
				g.P("var (")
			}
			seen[cv] = true
			g.P(cv, " = ", g.door("ROSCodecOf"), "(", tv, ")")
		}
	}
	if len(seen) > 0 {
		g.P(")")
		g.P()
	}
}

// rosMethods emits MarshalROS, AppendROS, ROSSize and UnmarshalROS of m,
// and its codec functions.
func (g *fileGen) rosMethods(m *protogen.Message, name, tv string) {
	recv := "func (x " + name + ") "
	rp := func(n string) string { return g.ident(rosPkg, n) }
	if !g.rosHasCodec(m) {
		for _, l := range []string{
			"// MarshalROS returns the ROS1 serialization of x.",
			recv + "MarshalROS() ([]byte, error) { return " + rp("Marshal") + "(x.Msg()) }",
			"",
			"// AppendROS appends the ROS1 serialization of x to dst; it allocates",
			"// nothing when dst has room.",
			recv + "AppendROS(dst []byte) ([]byte, error) { return " + rp("Append") + "(dst, x.Msg()) }",
			"",
			"// ROSSize returns the length of x's ROS1 serialization (0 if it cannot be",
			"// serialized; MarshalROS then says why).",
			recv + "ROSSize() int {",
			"n, _ := " + rp("Size") + "(x.Msg())",
			"return n",
			"}",
			"",
			"// UnmarshalROS replaces the content of x with the ROS1 serialization in",
			"// data, written straight into x's payload.",
			recv + "UnmarshalROS(data []byte) error { return " + rp("Unmarshal") + "(data, x.Msg()) }",
			"",
		} {
			g.P(l)
		}
		return
	}
	sh := g.rosShapeOf(m.Desc)
	gn := m.GoIdent.GoName
	msg, budget := g.door("Msg"), g.door("ROSBudget")
	g.P("// MarshalROS returns the ROS1 serialization of x.")
	g.P(recv, "MarshalROS() ([]byte, error) {")
	g.P("m := ", msg, "(x)")
	g.P("if !m.Failed() {")
	if sh.fixed >= 0 {
		g.P("if b, _, ok := phaserROSAppend_", gn, "(make([]byte, 0, ", sh.fixed, "), m, ", budget, "(m)); ok {")
		g.P("return b, nil")
		g.P("}")
	} else {
		g.P("if n, _, ok := phaserROSSize_", gn, "(m, ", budget, "(m)); ok {")
		g.P("if b, _, ok := phaserROSAppend_", gn, "(make([]byte, 0, n), m, ", budget, "(m)); ok {")
		g.P("return b, nil")
		g.P("}")
		g.P("}")
	}
	g.P("}")
	g.P("return ", rp("Marshal"), "(x.Msg()) // the error, or a layout the generated code does not know")
	g.P("}")
	g.P()
	g.P("// AppendROS appends the ROS1 serialization of x to dst; it allocates")
	g.P("// nothing when dst has room.")
	g.P(recv, "AppendROS(dst []byte) ([]byte, error) {")
	g.P("m := ", msg, "(x)")
	g.P("if !m.Failed() {")
	g.P("if b, _, ok := phaserROSAppend_", gn, "(dst, m, ", budget, "(m)); ok {")
	g.P("return b, nil")
	g.P("}")
	g.P("}")
	g.P("return ", rp("Append"), "(dst, x.Msg())")
	g.P("}")
	g.P()
	g.P("// ROSSize returns the length of x's ROS1 serialization (0 if it cannot be")
	g.P("// serialized; MarshalROS then says why).")
	g.P(recv, "ROSSize() int {")
	g.P("m := ", msg, "(x)")
	g.P("if !m.Failed() {")
	if sh.fixed >= 0 {
		g.P("return ", sh.fixed)
	} else {
		g.P("if n, _, ok := phaserROSSize_", gn, "(m, ", budget, "(m)); ok {")
		g.P("return n")
		g.P("}")
	}
	g.P("}")
	g.P("n, _ := ", rp("Size"), "(x.Msg())")
	g.P("return n")
	g.P("}")
	g.P()
	g.P("// UnmarshalROS replaces the content of x with the ROS1 serialization in")
	g.P("// data, written straight into x's payload.")
	g.P(recv, "UnmarshalROS(data []byte) error {")
	g.P("m := ", msg, "(x)")
	g.P("if _, ok := m.Setter(", tv, "); ok {")
	g.P("reused := ", g.door("PrepareDecode"), "(m, ", tv, ")")
	g.P("rest, ok := phaserROSRead_", gn, "(data, m)")
	g.P(g.door("FinishDecode"), "(m, reused)")
	g.P("if ok && len(rest) == 0 && !m.Failed() && m.Err() == nil {")
	g.P("return nil")
	g.P("}")
	g.P("}")
	g.P("return ", rp("Unmarshal"), "(data, x.Msg()) // the error, or a layout the generated code does not know")
	g.P("}")
	g.P()
}

// rosCodec emits the codec functions of m and registers them.
func (g *fileGen) rosCodec(m *protogen.Message, lm *layout.Message, tv string) {
	if !g.rosHasCodec(m) {
		return
	}
	items := g.rosItems(m, lm)
	gn := m.GoIdent.GoName
	g.P("var _ = ", g.door("RegisterROS"), "(", tv, ", &", g.door("ROSCodec"), "{Size: phaserROSSize_", gn,
		", Append: phaserROSAppend_", gn, ", Read: phaserROSRead_", gn, "})")
	g.P()
	g.rosSize(m, items)
	g.rosAppend(m, lm, items, tv)
	g.rosRead(m, items, tv)
}

// body collects the lines of a function body and what they use.
type body struct {
	lines []string
	uses  map[string]bool
	tmp   int
}

func (b *body) p(parts ...any) {
	var sb strings.Builder
	for _, p := range parts {
		fmt.Fprint(&sb, p)
	}
	b.lines = append(b.lines, sb.String())
}

// use records that the body uses variable v.
func (b *body) use(v string) string {
	if b.uses == nil {
		b.uses = map[string]bool{}
	}
	b.uses[v] = true
	return v
}

// name returns a new local name with prefix p.
func (b *body) name(p string) string {
	b.tmp++
	return p + strconv.Itoa(b.tmp)
}

func (g *fileGen) emit(b *body) {
	for _, l := range b.lines {
		g.P(l)
	}
}

// rosSize emits phaserROSSize_M.
func (g *fileGen) rosSize(m *protogen.Message, items []*rosItem) {
	gn := m.GoIdent.GoName
	sh := g.rosShapeOf(m.Desc)
	g.P("// phaserROSSize_", gn, " returns the ROS1 size of m, a ", gn, " (absent: the")
	g.P("// default message), and what is left of the work budget left (see")
	g.P("// phaserimpl.ROSCodec).")
	g.P("func phaserROSSize_", gn, "(m ", g.door("Msg"), ", left int) (int, int, bool) {")
	if sh.fixed >= 0 {
		g.P("return ", sh.fixed, ", left, true")
		g.P("}")
		g.P()
		return
	}
	var b body
	fixed := 0 // the sizes known here
	fail := "return 0, left, false"
	for _, it := range items {
		if it.oneof != nil {
			fixed += 4
			b.p("// ", it.oneof.Desc.Name(), " (oneof)")
			b.p("switch m.WhichOneof(", unionVar(m, it.oneof), ") {")
			for _, mf := range it.members {
				b.p("case ", mf.f.Desc.Number(), ":")
				switch {
				case mf.rt == ros.String:
					s := b.name("s")
					b.p(s, " := m.MemberString(", mf.fl, ")")
					b.p("if left -= len(", s, "); left < 0 {")
					b.p(fail)
					b.p("}")
					b.p("n += 4 + len(", s, ")")
				case mf.fixed >= 0:
					b.p("n += ", mf.fixed)
				default:
					g.rosSizeCall(&b, mf, "m.MemberMessage("+mf.fl+", "+mf.typ+")", "n", fail)
				}
			}
			b.p("}")
			continue
		}
		r := it.rosField
		switch {
		case r.array > 0 && r.fixed >= 0:
			fixed += r.array * r.fixed
		case !r.repeated() && r.fixed >= 0:
			fixed += r.fixed
		case !r.repeated() && r.rt == ros.String:
			fixed += 4
			s := b.name("s")
			b.p("// ", r.f.Desc.Name(), " (string)")
			b.p(s, " := m.StringBytes(", r.fl, ")")
			b.p("if left -= len(", s, "); left < 0 {")
			b.p(fail)
			b.p("}")
			b.p("n += len(", s, ")")
		case !r.repeated():
			b.p("// ", r.f.Desc.Name())
			g.rosSizeCall(&b, r, g.rosSubExpr(r), "n", fail)
		default:
			g.rosSizeRepeated(&b, m, r, &fixed, fail)
		}
	}
	g.P("n := ", fixed)
	g.emit(&b)
	g.P("return n, left, true")
	g.P("}")
	g.P()
}

// rosSubExpr is the handle of singular message field r of m. An inline
// message of this package is read with InlineMessage, whose Type is the
// one it is laid out with; one of another package with Message, which
// checks its table against that package's Type (generated for either
// frontend): when they differ, the codec of that Type finds the message
// not compiled and package ros does the work.
func (g *fileGen) rosSubExpr(r *rosField) string {
	switch {
	case r.lf.Inline && r.sub != "":
		return "m.InlineMessage(" + r.fl + ", " + r.typ + ")"
	case r.lf.Inline:
		return "m.Message(" + r.fl + ", " + r.typ + ")"
	}
	return "m.Nested(" + r.fl + ", " + r.typ + ")"
}

// rosSizeCall adds the size of the message sub, of field r's type, to n.
func (g *fileGen) rosSizeCall(b *body, r *rosField, sub, n, fail string) {
	k := b.name("k")
	if r.sub != "" {
		b.p(k, ", left2, ok := phaserROSSize_", r.sub, "(", sub, ", left)")
	} else {
		b.p("if ", r.codec, " == nil {")
		b.p(fail)
		b.p("}")
		b.p(k, ", left2, ok := ", r.codec, ".Size(", sub, ", left)")
	}
	b.p("if left = left2; !ok {")
	b.p(fail)
	b.p("}")
	b.p(n, " += ", k)
}

// rosSizeRepeated emits the size of repeated field r.
func (g *fileGen) rosSizeRepeated(b *body, m *protogen.Message, r *rosField, fixed *int, fail string) {
	b.p("// ", r.f.Desc.Name(), " (repeated)")
	if r.array == 0 {
		*fixed += 4
	}
	switch {
	case r.rt == ros.String:
		c := b.name("c")
		b.p(c, " := m.Len(", r.fl, ", 4)")
		if r.array > 0 {
			*fixed += 4 * r.array
			b.p("if ", c, " > ", r.array, " {")
			b.p(fail)
			b.p("}")
		} else {
			b.p("n += 4 * ", c)
		}
		b.p("if left -= 4 * ", c, "; left < 0 {")
		b.p(fail)
		b.p("}")
		b.p("for i := range ", c, " {")
		b.p("s := m.ElemString(", r.fl, ", i)")
		b.p("if left -= len(s); left < 0 {")
		b.p(fail)
		b.p("}")
		b.p("n += len(s)")
		b.p("}")
	case r.f.Message == nil: // scalars (a fixed array of them is fixed-size, and not here)
		c := b.name("c")
		b.p(c, " := m.Len(", r.fl, ", ", r.size, ")")
		b.p("if left -= ", r.size, " * ", c, "; left < 0 {")
		b.p(fail)
		b.p("}")
		b.p("n += ", r.fixed, " * ", c)
	case r.fixed >= 0 && r.array == 0:
		c := b.name("c")
		b.p(c, " := m.MessagesLen(", r.fl, ")")
		b.p("if left -= 4 * ", c, "; left < 0 {")
		b.p(fail)
		b.p("}")
		b.p("n += ", r.fixed, " * ", c)
	default:
		c := b.name("c")
		b.p(c, " := m.Cursor(", r.fl, ", ", r.typ, ")")
		b.p("if left -= 4 * ", c, ".Len(); left < 0 {")
		b.p(fail)
		b.p("}")
		if r.array > 0 {
			b.p("if ", c, ".Len() > ", r.array, " {")
			b.p(fail)
			b.p("}")
			b.p("n += ", r.min, " * (", r.array, " - ", c, ".Len())")
		}
		b.p("for e, more := ", c, ".Next(); more; e, more = ", c, ".Next() {")
		g.rosSizeCall(b, r, "e", "n", fail)
		b.p("}")
	}
}

// rosAppend emits phaserROSAppend_M.
func (g *fileGen) rosAppend(m *protogen.Message, lm *layout.Message, items []*rosItem, tv string) {
	gn := m.GoIdent.GoName
	sh := g.rosShapeOf(m.Desc)
	g.P("// phaserROSAppend_", gn, " appends the ROS1 serialization of m, a ", gn, " (absent:")
	g.P("// the default message), charging what it reads against the work budget")
	g.P("// left (see phaserimpl.ROSCodec).")
	g.P("func phaserROSAppend_", gn, "(dst []byte, m ", g.door("Msg"), ", left int) ([]byte, int, bool) {")
	var b body
	fail := "return dst, left, false"
	var run []*rosItem
	flush := func() {
		if len(run) > 0 {
			g.rosAppendRun(&b, run, fail, "b", true)
			run = nil
		}
	}
	for _, it := range items {
		if it.oneof == nil && g.rosInRun(it.rosField) {
			run = append(run, it)
			continue
		}
		flush()
		if it.oneof != nil {
			g.rosAppendOneof(&b, m, it, fail)
			continue
		}
		r := it.rosField
		if !r.repeated() {
			b.p("// ", r.f.Desc.Name())
			g.rosAppendCall(&b, r, g.rosSubExpr(r), fail)
			continue
		}
		g.rosAppendRepeated(&b, r, fail)
	}
	flush()
	ext := extent(lm)
	if b.uses["b"] {
		// The message's bytes, and the payload's for its strings.
		mem := "_"
		if b.uses["mem"] {
			mem = "mem"
		}
		g.P("b, ", mem, ", ok := m.CompiledBytes(", ext, ")")
	} else {
		g.P("_, ok := m.View(", tv, ")")
	}
	g.P("if !ok {")
	g.P("if m.IsPresent() {")
	g.P("return dst, left, false // another layout")
	g.P("}")
	g.P("return ", g.door("ROSZeros"), "(dst, ", sh.min, "), left, true")
	g.P("}")
	if b.uses["b"] {
		g.P("if len(b) < ", ext, " { // never: for the compiler's bounds checks")
		g.P("return dst, left, false")
		g.P("}")
	}
	if b.uses["w"] {
		g.P("var w []byte")
	}
	if b.uses["o"] {
		g.P("var o int")
	}
	if b.uses["left2"] {
		g.P("var left2 int")
	}
	g.emit(&b)
	g.P("return dst, left, true")
	g.P("}")
	g.P()
}

// extent returns the end of the last field of lm: the bytes a compiled
// message of the type has in the payload (impl.Type's extent).
func extent(lm *layout.Message) uint32 {
	e := uint32(4)
	for _, f := range lm.Fields {
		e = max(e, f.Offset+f.SlotSize)
	}
	for _, u := range lm.Unions {
		e = max(e, u.Offset+u.Size)
	}
	return e
}

// rosInRun reports whether field r is written in a run: a fixed-width
// value read here (a scalar, a time or duration, an Any), a string, or a
// fixed array of scalars.
func (g *fileGen) rosInRun(r *rosField) bool {
	switch {
	case r.array > 0:
		return r.f.Message == nil && r.rt != ros.String
	case r.repeated():
		return false
	case r.rt == ros.Message:
		return r.f.Message.Desc.FullName() == anyName
	}
	return true
}

// scalarRead returns the expression of the stored bits of singular scalar
// r of the message bytes src (0 if absent).
func (g *fileGen) scalarRead(r *rosField, src string) string {
	switch r.size {
	case 1:
		return g.door("ROSGet8") + "(" + src + ", " + r.fl + ")"
	case 4:
		return g.door("ROSGet32") + "(" + src + ", " + r.fl + ")"
	}
	return g.door("ROSGet64") + "(" + src + ", " + r.fl + ")"
}

// put returns the statement that stores the width-w value v at w[o:].
func (g *fileGen) put(width int, o, v string) string { return g.putIn("w", width, o, v) }

// putIn is put into the window (or array of its first bytes) named w.
func (g *fileGen) putIn(w string, width int, o, v string) string {
	switch width {
	case 1:
		return w + "[" + o + "] = uint8(" + v + ")"
	case 2:
		return g.le() + ".PutUint16(" + w + "[" + o + ":], uint16(" + v + "))"
	case 4:
		return g.le() + ".PutUint32(" + w + "[" + o + ":], uint32(" + v + "))"
	}
	return g.le() + ".PutUint64(" + w + "[" + o + ":], uint64(" + v + "))"
}

// offset is a write position: a variable (or "") plus a constant.
type offset struct {
	v string
	c int
}

func (o offset) String() string {
	switch {
	case o.v == "":
		return strconv.Itoa(o.c)
	case o.c == 0:
		return o.v
	}
	return o.v + "+" + strconv.Itoa(o.c)
}

func (o offset) plus(n int) offset { return offset{o.v, o.c + n} }

// rosAppendRun emits a run of fields written into one grown window: what
// must be read or checked first, then one ROSGrow, then the stores. src
// names the message's bytes (View.Bytes). With grow false the caller has
// grown the window w already, by the run's size (constant: no strings).
func (g *fileGen) rosAppendRun(b *body, run []*rosItem, fail, src string, grow bool) {
	size := 0
	var dyn []string // the variable parts of the size
	var stores []runStore
	for _, it := range run {
		r := it.rosField
		switch {
		case r.array > 0: // a fixed array of scalars
			a := b.name("a")
			b.p("// ", r.f.Desc.Name(), " (", r.rt, "[", r.array, "])")
			b.p(a, " := ", g.rosElems(b, r, src), "")
			b.p("if len(", a, ") > ", r.array*r.size, " {")
			b.p(fail, " // more elements than the array holds")
			b.p("}")
			b.p("if left -= len(", a, "); left < 0 {")
			b.p(fail)
			b.p("}")
			size += r.array * r.rt.Width()
			stores = append(stores, runStore{r: r, v: a})
		case r.rt == ros.String:
			s := b.name("s")
			b.p("// ", r.f.Desc.Name(), " (string)")
			if src == "b" { // the message's compiled bytes, and the payload's
				b.use("mem")
				b.p(s, " := ", g.door("StringAt"), "(mem, ", g.le(), ".Uint32(", b.use(src), "[", r.lf.Offset, ":]))")
			} else {
				b.p(s, " := m.StringBytes(", r.fl, ")")
			}
			b.p("if left -= len(", s, "); left < 0 {")
			b.p(fail)
			b.p("}")
			size += 4
			dyn = append(dyn, "len("+s+")")
			stores = append(stores, runStore{r: r, v: s})
		case r.rt == ros.Time || r.rt == ros.Duration:
			s, n := b.name("sec"), b.name("nsec")
			fn := "ROSTime"
			if r.rt == ros.Duration {
				fn = "ROSDuration"
			}
			b.p("// ", r.f.Desc.Name(), " (", r.rt, ")")
			if src == "b" && !r.lf.Inline { // the slot at its compiled offset
				// In line for a compiled message of a canonical value
				// (ROSTimeIn), else ROSTimeAt.
				slot := g.le() + ".Uint32(" + b.use(src) + "[" + strconv.Itoa(int(r.lf.Offset)) + ":])"
				b.p(s, ", ", n, ", ok := ", g.door(fn+"In"), "(m.NestedBytes(", slot, ", ", r.typ, ", ", timeExtent, "))")
				b.p("if !ok {")
				b.p(s, ", ", n, ", ok = ", g.door(fn+"At"), "(m, ", slot, ", ", r.typ, ")")
				b.p("}")
			} else {
				b.p(s, ", ", n, ", ok := ", g.door(fn), "(", g.rosSubExpr(r), ")")
			}
			b.use("ok")
			b.p("if !ok {")
			b.p(fail, " // out of the range of ROS ", r.rt)
			b.p("}")
			size += 8
			stores = append(stores, runStore{r: r, v: s, nsec: n})
		case r.rt == ros.Message: // an Any
			b.p("// ", r.f.Desc.Name(), " (Any: two empty strings)")
			b.p("if !", g.rosSubExpr(r), ".IsEmptyAny() {")
			b.p(fail, " // a populated Any has no ROS1 form")
			b.p("}")
			size += 8
			stores = append(stores, runStore{r: r})
		default:
			b.use(src)
			size += r.rt.Width()
			if identityKind(r) {
				stores = append(stores, runStore{r: r}) // read where it is stored
				continue
			}
			v, checks := g.rosBitsExpr(b, r, g.scalarRead(r, src))
			if checks != "" {
				x := b.name("x")
				b.p("// ", r.f.Desc.Name(), " (", r.rt, ")")
				b.p(x, " := ", v)
				b.p("if ", strings.ReplaceAll(checks, "$", x), " {")
				b.p(fail, " // out of the range of ROS ", r.rt)
				b.p("}")
				v = x
			}
			stores = append(stores, runStore{r: r, v: v})
		}
	}
	b.use("w")
	if grow {
		total := strconv.Itoa(size)
		if len(dyn) > 0 {
			total += " + " + strings.Join(dyn, " + ")
		}
		b.p("dst, w = ", g.door("ROSGrow"), "(dst, ", total, ")")
	}
	// The stores at constant offsets, up to the first string's length
	// word (all of the run without strings), go through win, the window's
	// first fixed bytes as an array: one length check for all of them,
	// where a window whose length is not a constant (strings, or the
	// caller's window) would check each store's.
	fixed := fixedPrefix(stores)
	if grow && len(dyn) == 0 {
		fixed = 0 // a window of constant length: the compiler drops the stores' checks
	}
	win, at := "", len(b.lines)
	in := func(o offset, width int) string {
		if o.v != "" || o.c+width > fixed {
			return "w"
		}
		if win == "" {
			win = b.name("win")
		}
		return win
	}
	o := offset{}
	for i := 0; i < len(stores); i++ {
		st := stores[i]
		last := i == len(stores)-1
		r := st.r
		switch {
		case r.array > 0:
			end := o.plus(r.array * r.rt.Width())
			if identityKind(r) {
				w := in(o, r.array*r.rt.Width())
				b.p("clear(", w, "[", o, "+copy(", w, "[", o, ":", end, "], ", st.v, "):", end, "])")
			} else {
				b.p("for i := range len(", st.v, ")/", r.size, " {")
				v, checks := g.rosBitsExpr(b, r, g.elemLoad(r.size, st.v))
				b.p("x := ", v)
				if checks != "" {
					b.p("if ", strings.ReplaceAll(checks, "$", "x"), " {")
					b.p(fail, " // out of the range of ROS ", r.rt)
					b.p("}")
				}
				b.p(g.put(r.rt.Width(), o.String()+"+i*"+strconv.Itoa(r.rt.Width()), "x"))
				b.p("}")
				b.p("clear(w[", o, "+len(", st.v, ")/", r.size, "*", r.rt.Width(), ":", end, "])")
			}
			o = end
		case r.rt == ros.String:
			if w := in(o, 4); w != "w" { // the length in win, the bytes after it
				b.p(g.putIn(w, 4, o.String(), "len("+st.v+")"))
				if last {
					b.p("copy(w[", o.plus(4), ":], ", st.v, ")")
					break
				}
				b.use("o")
				b.p("o = ", o.plus(4), " + copy(w[", o.plus(4), ":], ", st.v, ")")
				o = offset{v: "o"}
				break
			}
			if last {
				b.p(g.door("ROSPutString"), "(w, ", o, ", ", st.v, ")")
				break
			}
			b.use("o")
			b.p("o = ", g.door("ROSPutString"), "(w, ", o, ", ", st.v, ")")
			o = offset{v: "o"}
		case r.rt == ros.Time || r.rt == ros.Duration:
			b.p(g.putIn(in(o, 4), 4, o.String(), st.v))
			b.p(g.putIn(in(o.plus(4), 4), 4, o.plus(4).String(), st.nsec))
			o = o.plus(8)
		case r.rt == ros.Message:
			b.p(g.putIn(in(o, 8), 8, o.String(), "0"))
			o = o.plus(8)
		case st.v == "": // identity scalars, as stored: a contiguous group at once
			n := contiguous(stores[i:])
			if n > 1 {
				width := 0
				for _, st := range stores[i : i+n] {
					width += st.r.rt.Width()
				}
				g.rosCopyGroup(b, stores[i:i+n], src, in(o, width), o)
				o = o.plus(width)
				i += n - 1
				continue
			}
			b.p("// ", r.f.Desc.Name(), " (", r.rt, ")")
			b.p(g.putIn(in(o, r.rt.Width()), r.rt.Width(), o.String(), g.scalarRead(r, src)))
			o = o.plus(r.rt.Width())
		default:
			b.p(g.putIn(in(o, r.rt.Width()), r.rt.Width(), o.String(), st.v))
			o = o.plus(r.rt.Width())
		}
	}
	if win != "" {
		b.lines = slices.Insert(b.lines, at, win+" := (*["+strconv.Itoa(fixed)+"]byte)(w)")
	}
}

// fixedPrefix returns the length of the part of a run's window whose
// offsets are constants: up to the end of the first string's length word,
// or the whole run when it has no string.
func fixedPrefix(stores []runStore) int {
	n := 0
	for _, st := range stores {
		r := st.r
		switch {
		case r.array > 0:
			n += r.array * r.rt.Width()
		case r.rt == ros.String:
			return n + 4
		case r.rt == ros.Time || r.rt == ros.Duration || r.rt == ros.Message:
			n += 8
		default:
			n += r.rt.Width()
		}
	}
	return n
}

// timeExtent is the compiled extent of google.protobuf.Timestamp and
// Duration (seconds at 8, nanos at 16), the bytes phaserimpl.ROSTimeIn
// reads: the runtime's layout of the two, which no .proto changes.
const timeExtent = 20

// runStore is one store of a run: the field, and what to store.
type runStore struct {
	r    *rosField
	v    string // the ROS bits (converted scalars), the string or the stored array; "" for a scalar stored as its ROS bits
	nsec string // time and duration: the second word
}

// contiguous returns how many stores from the first are scalars stored as
// their ROS bits at consecutive offsets: their ROS bytes are their stored
// bytes, when every one is present.
func contiguous(stores []runStore) int {
	n := 0
	for i, st := range stores {
		r := st.r
		if st.v != "" || r.array > 0 || r.repeated() || r.f.Message != nil || r.rt == ros.String || !identityKind(r) {
			break
		}
		if i > 0 {
			p := stores[i-1].r.lf
			if r.lf.Offset != p.Offset+p.SlotSize {
				break
			}
		}
		n++
	}
	return n
}

// rosCopyGroup stores a contiguous group of scalars at w[o:] (w names the
// window or win, the array of its first bytes): their stored
// bytes, 8 at a time, when all are present (presence bits clear write 0).
func (g *fileGen) rosCopyGroup(b *body, group []runStore, src, w string, o offset) {
	masks := map[int]uint8{}
	var bytesOrder []int
	size := 0
	var names []string
	for _, st := range group {
		lf := st.r.lf
		by := 4 + int(lf.ID>>3)
		if _, ok := masks[by]; !ok {
			bytesOrder = append(bytesOrder, by)
		}
		masks[by] |= 1 << (lf.ID & 7)
		size += st.r.rt.Width()
		names = append(names, string(st.r.f.Desc.Name()))
	}
	var conds []string
	for _, by := range bytesOrder {
		conds = append(conds, fmt.Sprintf("%s[%d]&%#02x == %#02x", src, by, masks[by], masks[by]))
	}
	b.p("// ", strings.Join(names, ", "), ": their stored bytes when all are present")
	b.p("if ", strings.Join(conds, " && "), " {")
	from := int(group[0].r.lf.Offset)
	for k := 0; k < size; {
		switch {
		case size-k >= 8:
			b.p(g.le(), ".PutUint64(", w, "[", o.plus(k), ":], ", g.le(), ".Uint64(", src, "[", from+k, ":]))")
			k += 8
		case size-k >= 4:
			b.p(g.le(), ".PutUint32(", w, "[", o.plus(k), ":], ", g.le(), ".Uint32(", src, "[", from+k, ":]))")
			k += 4
		default:
			b.p(w, "[", o.plus(k), "] = ", src, "[", from+k, "]")
			k++
		}
	}
	b.p("} else {")
	for _, st := range group {
		b.p(g.putIn(w, st.r.rt.Width(), o.String(), g.scalarRead(st.r, src)))
		o = o.plus(st.r.rt.Width())
	}
	b.p("}")
}

// le qualifies binary.LittleEndian.
func (g *fileGen) le() string { return g.ident("encoding/binary", "LittleEndian") }

// rosElems returns the expression of the stored elements of repeated
// scalar field r, whose VectorHeader is read from the message bytes src.
func (g *fileGen) rosElems(b *body, r *rosField, src string) string {
	b.use(src)
	o := r.lf.Offset
	return fmt.Sprintf("m.Elems(%s.Uint32(%s[%d:]), %s.Uint32(%s[%d:]), %d)", g.le(), src, o, g.le(), src, o+4, r.size)
}

// elemLoad returns the expression of the stored bits of element i of the
// stored elements a (of size bytes each), as a uint64.
func (g *fileGen) elemLoad(size int, a string) string {
	switch size {
	case 1:
		return "uint64(" + a + "[i])"
	case 4:
		return "uint64(" + g.le() + ".Uint32(" + a + "[i*4:]))"
	}
	return g.le() + ".Uint64(" + a + "[i*8:])"
}

// identityKind reports whether scalar field r's stored bits are its ROS
// bits.
func identityKind(r *rosField) bool {
	k := r.f.Desc.Kind()
	switch r.rt {
	case ros.Int32:
		return k == protoreflect.Int32Kind || k == protoreflect.Sint32Kind || k == protoreflect.Sfixed32Kind || k == protoreflect.EnumKind
	case ros.Uint32:
		return k == protoreflect.Uint32Kind || k == protoreflect.Fixed32Kind
	case ros.Int64:
		return k == protoreflect.Int64Kind || k == protoreflect.Sint64Kind || k == protoreflect.Sfixed64Kind
	case ros.Uint64:
		return k == protoreflect.Uint64Kind || k == protoreflect.Fixed64Kind
	case ros.Float32:
		return k == protoreflect.FloatKind
	case ros.Float64:
		return k == protoreflect.DoubleKind
	}
	return false
}

// signedKind reports whether the stored integer of scalar field r is
// signed.
func signedKind(r *rosField) bool {
	switch r.f.Desc.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return true
	}
	return false
}

// storedRange returns the range of the stored values of integer field r.
func storedRange(r *rosField) (lo int64, hi uint64) {
	switch r.f.Desc.Kind() {
	case protoreflect.BoolKind:
		return 0, 1
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind:
		return math.MinInt32, math.MaxInt32
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return 0, math.MaxUint32
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return math.MinInt64, math.MaxInt64
	}
	return 0, math.MaxUint64
}

// rangeChecks returns the condition (over $, the value as int64 if signed,
// else uint64) under which a value of range [slo, shi] does not fit
// [lo, hi], or "" if every value fits.
func rangeChecks(signed bool, slo int64, shi uint64, lo int64, hi uint64) string {
	var c []string
	if signed {
		if slo < lo {
			c = append(c, "$ < "+strconv.FormatInt(lo, 10))
		}
		if shi > hi {
			c = append(c, "$ > "+strconv.FormatUint(hi, 10))
		}
	} else if shi > hi {
		c = append(c, "$ > "+strconv.FormatUint(hi, 10))
	}
	return strings.Join(c, " || ")
}

// rosBitsExpr returns the expression of the ROS bits of scalar field r
// whose stored bits are load, and the condition over its value ($) under
// which the ROS type cannot hold it ("" if it always can).
func (g *fileGen) rosBitsExpr(b *body, r *rosField, load string) (string, string) {
	k := r.f.Desc.Kind()
	math32 := func(n string) string { return g.ident("math", n) }
	switch {
	case identityKind(r):
		return load, ""
	case k == protoreflect.FloatKind: // as float64
		return math32("Float64bits") + "(float64(" + math32("Float32frombits") + "(uint32(" + load + "))))", ""
	case k == protoreflect.DoubleKind: // as float32
		return g.door("ROSFloat32") + "(" + load + ")", "$ > 0xFFFFFFFF"
	case k == protoreflect.BoolKind:
		return g.door("ROSBool") + "(uint8(" + load + "))", ""
	}
	slo, shi := storedRange(r)
	lo, hi := r.rt.Range()
	signed := signedKind(r)
	v := "uint64(" + load + ")"
	switch {
	case signed && r.size == 4:
		v = "int64(int32(" + load + "))"
	case signed:
		v = "int64(" + load + ")"
	}
	return v, rangeChecks(signed, slo, shi, lo, hi)
}

// rosAppendCall appends the message sub, of field r's type.
func (g *fileGen) rosAppendCall(b *body, r *rosField, sub, fail string) {
	b.use("left2")
	if r.sub != "" {
		b.p("dst, left2, ok = phaserROSAppend_", r.sub, "(dst, ", sub, ", left)")
	} else {
		b.p("if ", r.codec, " == nil {")
		b.p(fail)
		b.p("}")
		b.p("dst, left2, ok = ", r.codec, ".Append(dst, ", sub, ", left)")
	}
	b.p("if left = left2; !ok {")
	b.p(fail)
	b.p("}")
}

// rosAppendOneof appends oneof item it: the discriminator, then the active
// member as its singular type.
func (g *fileGen) rosAppendOneof(b *body, m *protogen.Message, it *rosItem, fail string) {
	d := b.name("d")
	b.p("// ", it.oneof.Desc.Name(), " (oneof: the active field's number, then its value)")
	b.p(d, " := m.WhichOneof(", unionVar(m, it.oneof), ")")
	b.p("dst = ", g.le(), ".AppendUint32(dst, ", d, ")")
	b.p("switch ", d, " {")
	for _, r := range it.members {
		b.p("case ", r.f.Desc.Number(), ":")
		switch {
		case r.rt == ros.String:
			b.p("s := m.MemberString(", r.fl, ")")
			b.p("if left -= len(s); left < 0 {")
			b.p(fail)
			b.p("}")
			b.p("dst = ", g.door("ROSAppendString"), "(dst, s)")
		case r.rt == ros.Time || r.rt == ros.Duration:
			fn := "ROSTime"
			if r.rt == ros.Duration {
				fn = "ROSDuration"
			}
			b.p("sec, nsec, ok := ", g.door(fn), "(m.MemberMessage(", r.fl, ", ", r.typ, "))")
			b.p("if !ok {")
			b.p(fail)
			b.p("}")
			b.p("dst = ", g.le(), ".AppendUint64(dst, uint64(sec)|uint64(nsec)<<32)")
		case r.rt == ros.Message && r.f.Message.Desc.FullName() == anyName:
			b.p("if !m.MemberMessage(", r.fl, ", ", r.typ, ").IsEmptyAny() {")
			b.p(fail)
			b.p("}")
			b.p("dst = ", g.le(), ".AppendUint64(dst, 0)")
		case r.rt == ros.Message:
			g.rosAppendCall(b, r, "m.MemberMessage("+r.fl+", "+r.typ+")", fail)
		default:
			load := "m.Member" + strconv.Itoa(8*r.size) + "(" + r.fl + ")"
			v, checks := g.rosBitsExpr(b, r, load)
			b.p("x := ", v)
			if checks != "" {
				b.p("if ", strings.ReplaceAll(checks, "$", "x"), " {")
				b.p(fail)
				b.p("}")
			}
			b.use("w")
			b.p("dst, w = ", g.door("ROSGrow"), "(dst, ", r.rt.Width(), ")")
			b.p(g.put(r.rt.Width(), "0", "x"))
		}
	}
	b.p("}")
}

// rosAppendRepeated appends repeated field r (fixed arrays of scalars are
// written in runs).
func (g *fileGen) rosAppendRepeated(b *body, r *rosField, fail string) {
	b.p("// ", r.f.Desc.Name(), " (repeated)")
	switch {
	case r.rt == ros.String:
		c := b.name("c")
		b.p(c, " := m.Len(", r.fl, ", 4)")
		b.p("if left -= 4 * ", c, "; left < 0 {")
		b.p(fail)
		b.p("}")
		n := c
		if r.array > 0 {
			b.p("if ", c, " > ", r.array, " {")
			b.p(fail, " // more elements than the array holds")
			b.p("}")
			n = strconv.Itoa(r.array)
		} else {
			b.p("dst = ", g.le(), ".AppendUint32(dst, uint32(", c, "))")
		}
		b.p("for i := range ", n, " {")
		b.p("s := m.ElemString(", r.fl, ", i)")
		b.p("if left -= len(s); left < 0 {")
		b.p(fail)
		b.p("}")
		b.p("dst = ", g.door("ROSAppendString"), "(dst, s)")
		b.p("}")
	case r.f.Message == nil: // scalars
		a := b.name("a")
		b.p(a, " := ", g.rosElems(b, r, "b"))
		b.p("if left -= len(", a, "); left < 0 {")
		b.p(fail)
		b.p("}")
		if identityKind(r) {
			b.p("dst = append(", g.le(), ".AppendUint32(dst, uint32(len(", a, ")/", r.size, ")), ", a, "...)")
			return
		}
		c := b.name("c")
		w := r.rt.Width()
		b.use("w")
		b.p(c, " := len(", a, ") / ", r.size)
		b.p("dst, w = ", g.door("ROSGrow"), "(dst, 4+", w, "*", c, ")")
		b.p(g.le(), ".PutUint32(w, uint32(", c, "))")
		b.p("for i := range ", c, " {")
		v, checks := g.rosBitsExpr(b, r, g.elemLoad(r.size, a))
		b.p("x := ", v)
		if checks != "" {
			b.p("if ", strings.ReplaceAll(checks, "$", "x"), " {")
			b.p(fail, " // out of the range of ROS ", r.rt)
			b.p("}")
		}
		b.p(g.put(w, "4+i*"+strconv.Itoa(w), "x"))
		b.p("}")
	case g.rosFlat(r) != nil:
		g.rosAppendFlatElems(b, r, fail)
	default: // messages, times, durations, Anys
		c := b.name("c")
		b.p(c, " := m.Cursor(", r.fl, ", ", r.typ, ")")
		b.p("if left -= 4 * ", c, ".Len(); left < 0 {")
		b.p(fail)
		b.p("}")
		if r.array > 0 {
			b.p("if ", c, ".Len() > ", r.array, " {")
			b.p(fail, " // more elements than the array holds")
			b.p("}")
		} else {
			b.p("dst = ", g.le(), ".AppendUint32(dst, uint32(", c, ".Len()))")
		}
		b.p("for e, more := ", c, ".Next(); more; e, more = ", c, ".Next() {")
		switch {
		case r.rt == ros.Time || r.rt == ros.Duration:
			fn := "ROSTime"
			if r.rt == ros.Duration {
				fn = "ROSDuration"
			}
			b.p("sec, nsec, ok := ", g.door(fn), "(e)")
			b.p("if !ok {")
			b.p(fail)
			b.p("}")
			b.p("dst = ", g.le(), ".AppendUint64(dst, uint64(sec)|uint64(nsec)<<32)")
		case r.f.Message.Desc.FullName() == anyName:
			b.p("if !e.IsEmptyAny() {")
			b.p(fail)
			b.p("}")
			b.p("dst = ", g.le(), ".AppendUint64(dst, 0)")
		default:
			g.rosAppendCall(b, r, "e", fail)
		}
		b.p("}")
		if r.array > 0 {
			b.p("dst = ", g.door("ROSZeros"), "(dst, ", r.min, "*(", r.array, "-", c, ".Len()))")
		}
	}
}

// rosFlat returns the items of the element type of repeated message field
// r when it is flat: a message of this package of singular scalars only,
// whose elements the holder writes itself, in one grown window. Else nil.
func (g *fileGen) rosFlat(r *rosField) []*rosItem {
	msg := r.f.Message
	if r.sub == "" || msg == nil || !g.rosHasCodec(msg) {
		return nil
	}
	for _, f := range msg.Fields {
		switch f.Desc.Kind() {
		case protoreflect.MessageKind, protoreflect.GroupKind, protoreflect.StringKind, protoreflect.BytesKind:
			return nil
		}
		if f.Desc.IsList() || f.Desc.IsMap() || f.Oneof != nil {
			return nil
		}
	}
	lm, err := g.layouts.Of(msg.Desc)
	if err != nil {
		return nil
	}
	return g.rosItems(msg, lm)
}

// rosAppendFlatElems appends repeated field r of a flat element type
// (rosFlat): one window for all its elements, each written in place from
// its bytes, a contiguous group of fields in one copy.
func (g *fileGen) rosAppendFlatElems(b *body, r *rosField, fail string) {
	items := g.rosFlat(r)
	lm, _ := g.layouts.Of(r.f.Message.Desc)
	k := r.fixed // the elements' ROS size
	c := b.name("c")
	b.use("w")
	b.p(c, " := m.Cursor(", r.fl, ", ", r.typ, ")")
	b.p("if left -= 4 * ", c, ".Len(); left < 0 {")
	b.p(fail)
	b.p("}")
	if r.array > 0 {
		b.p("if ", c, ".Len() > ", r.array, " {")
		b.p(fail, " // more elements than the array holds")
		b.p("}")
		b.p("dst, w = ", g.door("ROSGrow"), "(dst, ", k*r.array, ")")
	} else {
		b.p("dst, w = ", g.door("ROSGrow"), "(dst, 4+", k, "*", c, ".Len())")
		b.p(g.le(), ".PutUint32(w, uint32(", c, ".Len()))")
		b.p("w = w[4:]")
	}
	// The elements at compiled offsets come in runs (Cursor.Run), one
	// call per chunk; the others one at a time from Next.
	run, stride := b.name("run"), b.name("stride")
	b.p("var ", run, " []byte")
	b.p(stride, " := 0")
	b.p("for {")
	b.p("if len(", run, ") == 0 {")
	b.p(run, ", ", stride, ", _ = ", c, ".Run()")
	b.p("}")
	b.p("var eb []byte")
	b.p("if len(", run, ") > 0 {")
	b.p("eb, ", run, " = ", run, "[:", stride, "], ", run, "[", stride, ":]")
	b.p("} else {")
	b.p("e, more := ", c, ".Next()")
	b.p("if !more {")
	b.p("break")
	b.p("}")
	b.p("v, ok := e.View(", r.typ, ")")
	b.p("if !ok {")
	b.p("if e.IsPresent() {")
	b.p(fail, " // another layout")
	b.p("}")
	b.p("clear(w[:", k, "]) // a default element")
	b.p("w = w[", k, ":]")
	b.p("continue")
	b.p("}")
	b.p("eb = v.Bytes()")
	b.p("}")
	b.p("if len(eb) < ", extent(lm), " {")
	b.p(fail)
	b.p("}")
	g.rosAppendRun(b, items, fail, "eb", false)
	b.p("w = w[", k, ":]")
	b.p("}")
	if r.array > 0 {
		b.p("clear(w[:", k, "*(", r.array, "-", c, ".Len())])")
	}
}

// rosRead emits phaserROSRead_M.
func (g *fileGen) rosRead(m *protogen.Message, items []*rosItem, tv string) {
	gn := m.GoIdent.GoName
	g.P("// phaserROSRead_", gn, " reads the ROS1 serialization of a ", gn, " at the start")
	g.P("// of data into m, empty, and returns the bytes after it (see")
	g.P("// phaserimpl.ROSCodec).")
	g.P("func phaserROSRead_", gn, "(data []byte, m ", g.door("Msg"), ") ([]byte, bool) {")
	var b body
	fail := "return data, false"
	// A message with a singular scalar is read only with a Setter (a
	// message laid out with its compiled table): its strings and messages
	// then go through it too. One without is read through m, whatever its
	// layout (an inline message of the other frontend's).
	setter := false
	for _, it := range items {
		if it.oneof == nil && !it.repeated() && !rosThroughMsg(it.rosField) {
			setter = true
		}
	}
	for _, it := range items {
		if it.oneof != nil {
			g.rosReadOneof(&b, m, it, fail)
			continue
		}
		r := it.rosField
		switch {
		case r.repeated():
			g.rosReadRepeated(&b, r, fail)
		case r.rt == ros.String:
			b.p("// ", r.f.Desc.Name(), " (string)")
			s := b.name("s")
			b.use("ok")
			b.p("var ", s, " []byte")
			b.p(s, ", data, ok = ", g.door("ROSString"), "(data)")
			b.p("if !ok {")
			b.p(fail)
			b.p("}")
			if setter {
				// The Setter's message has the compiled layout: the slot
				// is at the field's compiled offset.
				b.p("if !s.StoreBytes(", r.lf.Offset, ", ", s, ") { // the slot at ", r.lf.Offset)
				b.p(fail)
				b.p("}")
			} else {
				b.p("m.SetBytes(", r.fl, ", ", s, ")")
			}
		case r.rt == ros.Time || r.rt == ros.Duration:
			fn := "SetROSTime"
			if r.rt == ros.Duration {
				fn = "SetROSDuration"
			}
			b.p("// ", r.f.Desc.Name(), " (", r.rt, ")")
			b.p("if len(data) < 8 || !", g.door(fn), "(", g.rosMutable(r, setter), ", ", g.le(), ".Uint32(data), ", g.le(), ".Uint32(data[4:])) {")
			b.p(fail)
			b.p("}")
			b.p("data = data[8:]")
		case r.rt == ros.Message && r.f.Message.Desc.FullName() == anyName:
			b.p("// ", r.f.Desc.Name(), " (Any: two empty strings)")
			b.p("if len(data) < 8 || ", g.le(), ".Uint64(data) != 0 || !m.MutableMessage(", r.fl, ", ", r.typ, ").IsPresent() {")
			b.p(fail)
			b.p("}")
			b.p("data = data[8:]")
		case r.rt == ros.Message:
			b.p("// ", r.f.Desc.Name())
			sub := b.name("sub")
			b.p(sub, " := ", g.rosMutable(r, setter))
			b.p("if !", sub, ".IsPresent() {")
			b.p(fail)
			b.p("}")
			g.rosReadCall(&b, r, sub, fail)
		default:
			b.use("s")
			w := r.rt.Width()
			b.p("// ", r.f.Desc.Name(), " (", r.rt, ")")
			b.p("if len(data) < ", w, " {")
			b.p(fail)
			b.p("}")
			v, checks := g.storedBitsExpr(r, g.rosLoad(w, "data"))
			if checks != "" {
				x := b.name("x")
				b.p(x, " := ", v)
				b.p("if ", strings.ReplaceAll(checks, "$", x), " {")
				b.p(fail, " // the field cannot hold it")
				b.p("}")
				v = x
			}
			// The offset, presence byte and bit, as constants of the call.
			lf := r.lf
			b.p("s.Store", 8*r.size, "(", lf.Offset, ", ", 4+lf.ID>>3, ", ", fmt.Sprintf("%#02x", 1<<(lf.ID&7)), ", uint", 8*r.size, "(", v, ")) // at ", lf.Offset, ", presence bit in byte ", 4+lf.ID>>3)
			b.p("data = data[", w, ":]")
		}
	}
	if b.uses["s"] {
		g.P("s, ok := m.Setter(", tv, ")")
		g.P("if !ok {")
		g.P("return data, false")
		g.P("}")
	} else if b.uses["ok"] {
		g.P("var ok bool")
	}
	g.emit(&b)
	g.P("return data, true")
	g.P("}")
	g.P()
}

// rosThroughMsg reports whether phaserROSRead writes singular field r
// without a Setter when its message has no scalar that needs one: a
// string, a message, a time or a duration.
func rosThroughMsg(r *rosField) bool {
	switch r.rt {
	case ros.String, ros.Time, ros.Duration, ros.Message:
		return true
	}
	return false
}

// rosMutable returns the expression of the message in singular message
// field r of m, created if absent: with a Setter (setter), the slot at its
// compiled offset of the Setter's message; else, or for an inline
// message, through m.
func (g *fileGen) rosMutable(r *rosField, setter bool) string {
	if !setter || r.lf.Inline {
		return "m.MutableMessage(" + r.fl + ", " + r.typ + ")"
	}
	return fmt.Sprintf("s.MutableMessage(%d, %s)", r.lf.Offset, r.typ)
}

// rosLoad returns the expression of the width-w ROS value at the start of
// data, as a uint64.
func (g *fileGen) rosLoad(w int, data string) string {
	switch w {
	case 1:
		return "uint64(" + data + "[0])"
	case 2:
		return "uint64(" + g.le() + ".Uint16(" + data + "))"
	case 4:
		return "uint64(" + g.le() + ".Uint32(" + data + "))"
	}
	return g.le() + ".Uint64(" + data + ")"
}

// storedBitsExpr returns the expression of the stored bits of scalar
// field r from the ROS value load (a uint64, zero-extended), and the
// condition over its value ($) under which the field cannot hold it.
func (g *fileGen) storedBitsExpr(r *rosField, load string) (string, string) {
	k := r.f.Desc.Kind()
	math32 := func(n string) string { return g.ident("math", n) }
	switch {
	case identityKind(r):
		return load, ""
	case k == protoreflect.DoubleKind: // from float32
		return math32("Float64bits") + "(float64(" + math32("Float32frombits") + "(uint32(" + load + "))))", ""
	case k == protoreflect.FloatKind: // from float64
		return g.door("ROSFloat32") + "(" + load + ")", "$ > 0xFFFFFFFF"
	case k == protoreflect.BoolKind && r.rt == ros.Bool:
		return load, "" // the byte as it is, as C++ copies it
	case r.rt == ros.Bool: // true, as genpy reads it, in an integer field
		return g.door("ROSBool") + "(uint8(" + load + "))", ""
	}
	lo, hi := storedRange(r)
	slo, shi := r.rt.Range()
	signed := r.rt == ros.Int8 || r.rt == ros.Int16 || r.rt == ros.Int32 || r.rt == ros.Int64
	v := load
	if signed {
		v = "int64(int" + strconv.Itoa(8*r.rt.Width()) + "(" + load + "))"
	}
	return v, rangeChecks(signed, slo, shi, lo, hi)
}

// rosReadCall reads the message sub, of field r's type.
func (g *fileGen) rosReadCall(b *body, r *rosField, sub, fail string) {
	b.use("ok")
	if r.sub != "" {
		b.p("if data, ok = phaserROSRead_", r.sub, "(data, ", sub, "); !ok {")
	} else {
		b.p("if ", r.codec, " == nil {")
		b.p(fail)
		b.p("}")
		b.p("if data, ok = ", r.codec, ".Read(data, ", sub, "); !ok {")
	}
	b.p(fail)
	b.p("}")
}

// rosReadOneof reads oneof item it.
func (g *fileGen) rosReadOneof(b *body, m *protogen.Message, it *rosItem, fail string) {
	uv := unionVar(m, it.oneof)
	b.p("// ", it.oneof.Desc.Name(), " (oneof: the active field's number, then its value)")
	b.p("if len(data) < 4 {")
	b.p(fail)
	b.p("}")
	d := b.name("d")
	b.p(d, " := ", g.le(), ".Uint32(data)")
	b.p("data = data[4:]")
	b.p("switch ", d, " {")
	b.p("case 0:")
	for _, r := range it.members {
		b.p("case ", r.f.Desc.Number(), ":")
		switch {
		case r.rt == ros.String:
			b.use("ok")
			b.p("var s []byte")
			b.p("if s, data, ok = ", g.door("ROSString"), "(data); !ok {")
			b.p(fail)
			b.p("}")
			b.p("m.SetMemberBytes(", uv, ", ", r.fl, ", s)")
		case r.rt == ros.Time || r.rt == ros.Duration:
			fn := "SetROSTime"
			if r.rt == ros.Duration {
				fn = "SetROSDuration"
			}
			b.p("if len(data) < 8 || !", g.door(fn), "(m.MutableMember(", uv, ", ", r.fl, ", ", r.typ, "), ", g.le(), ".Uint32(data), ", g.le(), ".Uint32(data[4:])) {")
			b.p(fail)
			b.p("}")
			b.p("data = data[8:]")
		case r.rt == ros.Message && r.f.Message.Desc.FullName() == anyName:
			b.p("if len(data) < 8 || ", g.le(), ".Uint64(data) != 0 || !m.MutableMember(", uv, ", ", r.fl, ", ", r.typ, ").IsPresent() {")
			b.p(fail)
			b.p("}")
			b.p("data = data[8:]")
		case r.rt == ros.Message:
			b.p("sub := m.MutableMember(", uv, ", ", r.fl, ", ", r.typ, ")")
			b.p("if !sub.IsPresent() {")
			b.p(fail)
			b.p("}")
			g.rosReadCall(b, r, "sub", fail)
		default:
			w := r.rt.Width()
			b.p("if len(data) < ", w, " {")
			b.p(fail)
			b.p("}")
			v, checks := g.storedBitsExpr(r, g.rosLoad(w, "data"))
			b.p("x := ", v)
			if checks != "" {
				b.p("if ", strings.ReplaceAll(checks, "$", "x"), " {")
				b.p(fail)
				b.p("}")
			}
			b.p("m.SetMember", 8*r.size, "(", uv, ", ", r.fl, ", uint", 8*r.size, "(x))")
			b.p("data = data[", w, ":]")
		}
	}
	b.p("default:")
	b.p(fail, " // not a field of the oneof")
	b.p("}")
}

// rosReadRepeated reads repeated field r: a uint32 count (none for a
// fixed array), checked against the bytes left before anything is made,
// then the elements.
func (g *fileGen) rosReadRepeated(b *body, r *rosField, fail string) {
	b.p("// ", r.f.Desc.Name(), " (repeated)")
	c := b.name("c")
	if r.array > 0 {
		b.p(c, " := ", r.array)
		b.p("if len(data) < ", r.array*r.min, " {")
	} else {
		b.p("if len(data) < 4 {")
		b.p(fail)
		b.p("}")
		b.p(c, " := int(", g.le(), ".Uint32(data))")
		b.p("data = data[4:]")
		if r.min == 0 { // elements of no bytes: ros.Reader.Count's allowance
			b.p("if uint64(", c, ") > uint64(len(data))+", g.ident(rosPkg, "ZeroSizeElems"), " {")
		} else {
			b.p("if uint64(", c, ")*", r.min, " > uint64(len(data)) {")
		}
	}
	b.p(fail, " // more elements than the bytes left can hold")
	b.p("}")
	switch {
	case r.rt == ros.String:
		b.use("ok")
		b.p("for range ", c, " {")
		b.p("var s []byte")
		b.p("if s, data, ok = ", g.door("ROSString"), "(data); !ok {")
		b.p(fail)
		b.p("}")
		b.p("m.PushBytes(", r.fl, ", s)")
		b.p("}")
	case r.f.Message == nil: // scalars
		w := r.rt.Width()
		b.p("m.Resize(", r.fl, ", ", c, ", ", r.size, ")")
		a := b.name("a")
		b.p(a, " := m.MutableSpan(", r.fl, ", ", r.size, ")")
		b.p("if len(", a, ") != ", c, "*", r.size, " {")
		b.p(fail, " // the buffer is full")
		b.p("}")
		if identityKind(r) {
			b.p("data = data[copy(", a, ", data[:", c, "*", r.size, "]):]")
			return
		}
		b.p("for i := range ", c, " {")
		v, checks := g.storedBitsExpr(r, g.rosLoad(w, "data[i*"+strconv.Itoa(w)+":]"))
		b.p("x := ", v)
		if checks != "" {
			b.p("if ", strings.ReplaceAll(checks, "$", "x"), " {")
			b.p(fail, " // the field cannot hold it")
			b.p("}")
		}
		switch r.size {
		case 1:
			b.p(a, "[i] = uint8(x)")
		case 4:
			b.p(g.le(), ".PutUint32(", a, "[i*4:], uint32(x))")
		default:
			b.p(g.le(), ".PutUint64(", a, "[i*8:], uint64(x))")
		}
		b.p("}")
		b.p("data = data[", w, "*", c, ":]")
	default: // messages, times, durations, Anys: made at once in format v3
		l := b.name("l")
		b.p(l, " := ", g.door("Messages"), "(m, ", r.fl, ", ", r.typ, ")")
		b.p("if m.FormatV3() {")
		b.p("if ", c, " > 0 {")
		b.p(l, ".Allocate(", c, ")")
		b.p("}")
		b.p("} else {")
		b.p("for range ", c, " {")
		b.p(l, ".Append()")
		b.p("}")
		b.p("}")
		b.p("if ", l, ".Len() != ", c, " {")
		b.p(fail, " // the buffer is full")
		b.p("}")
		cur := b.name("cur")
		b.p(cur, " := m.Cursor(", r.fl, ", ", r.typ, ")")
		b.p("for e, more := ", cur, ".Next(); more; e, more = ", cur, ".Next() {")
		b.p("if !e.IsPresent() {")
		b.p(fail)
		b.p("}")
		switch {
		case r.rt == ros.Time || r.rt == ros.Duration:
			fn := "SetROSTime"
			if r.rt == ros.Duration {
				fn = "SetROSDuration"
			}
			b.p("if len(data) < 8 || !", g.door(fn), "(e, ", g.le(), ".Uint32(data), ", g.le(), ".Uint32(data[4:])) {")
			b.p(fail)
			b.p("}")
			b.p("data = data[8:]")
		case r.f.Message.Desc.FullName() == anyName:
			b.p("if len(data) < 8 || ", g.le(), ".Uint64(data) != 0 {")
			b.p(fail)
			b.p("}")
			b.p("data = data[8:]")
		default:
			if r.sub != "" {
				b.p("var ok2 bool")
				b.p("if data, ok2 = phaserROSRead_", r.sub, "(data, e); !ok2 {")
			} else {
				b.p("if ", r.codec, " == nil {")
				b.p(fail)
				b.p("}")
				b.p("var ok2 bool")
				b.p("if data, ok2 = ", r.codec, ".Read(data, e); !ok2 {")
			}
			b.p(fail)
			b.p("}")
		}
		b.p("}")
	}
}
