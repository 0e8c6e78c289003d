package gen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/ros"
)

// reservedMethods are the methods every handle has; a field accessor that
// would clash gets a trailing underscore, as protoc-gen-go does.
var reservedMethods = map[string]bool{
	"Msg": true, "Bytes": true, "Failed": true, "Err": true, "Clear": true,
	"IsPresent": true, "PhaserType": true, "Finalize": true, "ToProto": true,
	"String": true, "CopyFrom": true, "MarshalProto": true, "AppendProto": true,
	"ProtoSize": true, "UnmarshalProto": true, "MarshalROS": true, "AppendROS": true,
	"ROSSize": true, "UnmarshalROS": true, "ROSDataType": true, "ROSDefinition": true,
	"ROSMD5": true, "FromProto": true, "View": true, "SetScalars": true, "Assign": true, "IsInitialized": true,
	"XXX_AppendProto": true, "XXX_ProtoSize": true, "XXX_UnmarshalProto": true, "XXX_CheckInitialized": true,
	"ProtoReflect": true, "Equal": true, "Clone": true, // reflect.go
}

const anyName = "google.protobuf.Any"

// typeVar names the package variable holding a message's runtime Type.
func typeVar(m *protogen.Message) string { return "phaserType_" + m.GoIdent.GoName }

// message emits the handle type of m, its constructors and accessors, and
// its list type.
func (g *fileGen) message(m *protogen.Message) {
	lm, _ := g.layouts.Of(m.Desc) // computed without error in generateFile
	name := m.GoIdent.GoName
	tv := typeVar(m)
	if g.opts.Frontend == "ros" && layout.FollowsFrontend(m.Desc) {
		g.P("var ", tv, " = ", g.rawVar, ".TypeFor(", fmt.Sprintf("%q", m.Desc.FullName()), ", ", g.door("ROSFrontend"), ")")
	} else {
		g.P("var ", tv, " = ", g.rawVar, ".Type(", fmt.Sprintf("%q", m.Desc.FullName()), ")")
	}
	g.P()
	if text := commentText(m.Comments.Leading); text != "" {
		g.P(text)
		g.P("//")
	}
	g.P("// ", name, " is a handle on a ", m.Desc.FullName(), " message in a Phaser payload. It")
	g.P("// holds the payload and the message's offset, never the field values: getters")
	g.P("// read the payload and setters write it. The zero ", name, " reads as the default")
	g.P("// message and ignores writes.")
	if text := commentText(m.Comments.Trailing); text != "" {
		g.P("//")
		g.P(text)
	}
	g.deprecation(m.Desc.Options())
	g.P("type ", name, " ", g.door("Msg"))
	g.P()
	g.names = accessorNames(m)
	g.defaults(m)
	g.constructors(m, name, tv)
	g.protoCodec(m, lm, name, tv)
	if err := g.wire(m, name, tv); err != nil {
		g.err = err
	}
	g.reflection(m, name, tv)
	for _, o := range m.Oneofs {
		if !o.Desc.IsSynthetic() {
			g.oneofCase(m, o, lm)
		}
	}
	for _, f := range m.Fields {
		lf := lm.FieldByNumber(f.Desc.Number())
		g.field(m, f, lf, lm)
	}
	g.view(m, lm, name, tv)
	g.scalars(m, lm, name)
	g.assign(m, lm, name, tv)
	g.list(m, name)
	g.rosCodec(m, lm, tv)
	if m.Desc.IsMapEntry() {
		g.mapType(m)
	}
}

func (g *fileGen) constructors(m *protogen.Message, name, tv string) {
	opts := g.rt("Options")
	newX, newIn, read, readInto, open, of := g.declName(m, declNew), g.declName(m, declNewIn), g.declName(m, declRead), g.declName(m, declReadInto), g.declName(m, declOpen), g.declName(m, declOf)
	g.P("// ", newX, " creates a ", name, " in a new owned buffer that grows as needed.")
	g.P("// opts choose the payload format and allocator tuning (default: Phaser 3")
	g.P("// format, performance tuning, 8 KiB).")
	g.P("func ", newX, "(opts ...", opts, ") ", name, " {")
	g.P("return ", name, "(", g.door("New"), "(", tv, ", opts))")
	g.P("}")
	g.P()
	g.P("// ", newIn, " creates a ", name, " in caller memory, such as a shared-memory")
	g.P("// segment, which is never grown: when it is full, writes fail and Failed")
	g.P("// reports it. It returns an error if mem cannot hold the message.")
	g.P("func ", newIn, "(mem []byte, opts ...", opts, ") (", name, ", error) {")
	g.P("m, err := ", g.door("NewIn"), "(", tv, ", mem, opts)")
	g.P("return ", name, "(m), err")
	g.P("}")
	g.P()
	g.P("// ", read, " returns a read-only ", name, " over received payload bytes. Every")
	g.P("// read is bounded by len(data); fields that lie outside it read as absent.")
	g.P("// Writes through the handle are ignored and reported by Err.")
	g.P("func ", read, "(data []byte) (", name, ", error) {")
	g.P("m, err := ", g.door("Read"), "(", tv, ", data)")
	g.P("return ", name, "(m), err")
	g.P("}")
	g.P()
	g.P("// ", readInto, " is ", read, " reusing p, so that a reader of many payloads")
	g.P("// allocates nothing per payload; handles from p's previous read become")
	g.P("// invalid.")
	// The named results keep the function within the inliner's budget, so
	// that a reader's call of ReadXInto is a call of the engine's ReadInto.
	g.P("func ", readInto, "(p *", g.rt("Payload"), ", data []byte) (x ", name, ", err error) {")
	g.P("m, err := ", g.door("ReadInto"), "(p, ", tv, ", data)")
	g.P("return ", name, "(m), err")
	g.P("}")
	g.P()
	g.P("// ", open, " continues writing a payload that holds a ", name, " (made here or by")
	g.P("// C++ Phaser) in mem, the whole buffer.")
	g.P("func ", open, "(mem []byte) (", name, ", error) {")
	g.P("m, err := ", g.door("Open"), "(", tv, ", mem)")
	g.P("return ", name, "(m), err")
	g.P("}")
	g.P()
	g.P("// ", of, " returns the ", name, " that m, the untyped handle of a ", m.Desc.FullName(), ",")
	g.P("// refers to.")
	g.P("func ", of, "(m ", g.rt("Msg"), ") ", name, " { return ", name, "(", g.door("Static"), "(m, ", tv, ")) }")
	g.P()
	g.P("// PhaserType returns the runtime type of ", name, ".")
	g.P("func (", name, ") PhaserType() *", g.rt("Type"), " { return ", g.door("UserType"), "(", tv, ") }")
	g.P()
	g.P("// Msg returns the untyped handle, the dynamic view of x.")
	g.P("func (x ", name, ") Msg() ", g.rt("Msg"), " { return ", g.door("Dynamic"), "("+g.xm()+", ", tv, ") }")
	g.P()
	g.P("// IsPresent reports whether x refers to a message in a payload.")
	g.P("func (x ", name, ") IsPresent() bool { return "+g.xm()+".IsPresent() }")
	g.P()
	g.P("// Bytes returns the payload that holds x, ready to send.")
	g.P("func (x ", name, ") Bytes() []byte { return "+g.xm()+".PayloadBytes() }")
	g.P()
	g.P("// Failed reports whether a write did not fit in a fixed buffer.")
	g.P("func (x ", name, ") Failed() bool { return "+g.xm()+".Failed() }")
	g.P()
	g.P("// Err returns the first error a write reported, or nil.")
	g.P("func (x ", name, ") Err() error { return "+g.xm()+".Err() }")
	g.P()
	g.clear(m, name, tv)
	if !g.opts.ProtoGo || m.Desc.IsMapEntry() { // protogo emits a typed ToProto
		g.P("// ToProto copies x into a dynamic protobuf message, for printing and")
		g.P("// comparison.")
		g.P("func (x ", name, ") ToProto() (", g.ident("google.golang.org/protobuf/reflect/protoreflect", "ProtoMessage"), ", error) { return "+g.xm()+".ToProto(", tv, ") }")
		g.P()
	}
	fromAny, mutableAny := g.declName(m, declFromAny), g.declName(m, declMutableAny)
	g.P("// ", fromAny, " returns the ", name, " held by an Any and whether it holds one.")
	g.P("func ", fromAny, "(a ", g.rt("Any"), ") (", name, ", bool) {")
	g.P("m, ok := ", g.door("FromAny"), "(a, ", tv, ")")
	g.P("return ", name, "(m), ok")
	g.P("}")
	g.P()
	g.P("// ", mutableAny, " makes an Any hold a new, empty ", name, " and returns it.")
	g.P("func ", mutableAny, "(a ", g.rt("Any"), ") ", name, " { return ", name, "(", g.door("MutableAny"), "(a, ", tv, ")) }")
	g.P()
}

// fieldLit is the phaserimpl.Field literal of f.
func (g *fileGen) fieldLit(f *layout.Field) string { return g.fieldLitOf(f, false, true) }

// fieldLitSized is fieldLit, with a singular scalar's value size (the
// literal ClearX passes: a payload that scrubs zeroes the value). The other
// accessors leave it out: every field of the literal counts against the
// inlining budget of the accessor.
func (g *fileGen) fieldLitSized(f *layout.Field) string { return g.fieldLitOf(f, true, true) }

// readLit is the literal of f that getters, Has and the view's getters
// pass: without Signed, which the GetSignedN accessors of a signed field
// set on their general path. The compiler keeps a literal of at most 4
// fields as constants in the inlined accessor; one of more is copied from
// static data to the stack, and each use of a field is then a load.
func (g *fileGen) readLit(f *layout.Field) string { return g.fieldLitOf(f, false, false) }

// signedScalar reports whether f is a singular signed integer or enum,
// whose Field sets Signed: a narrower value of another version of the
// .proto is sign-extended.
func signedScalar(f *layout.Field) bool {
	return !f.Repeated && (f.Kind == layout.Int32Kind || f.Kind == layout.Int64Kind || f.Kind == layout.EnumKind)
}

// getter returns the accessor name of f's getter of width w ("32"), with
// "Or" for a field with a default.
func getter(f *layout.Field, w string, or bool) string {
	name := "Get"
	if signedScalar(f) && w != "8" {
		name = "GetSigned"
	}
	name += w
	if or {
		name += "Or"
	}
	return name
}

// fieldLitOf is the literal of f, with its value size if sized and
// SignedField (for a signed scalar) if signed.
func (g *fileGen) fieldLitOf(f *layout.Field, sized, signed bool) string {
	s := fmt.Sprintf("%s{Number: %d, Offset: %d", g.door("Field"), f.Number, f.Offset)
	if n, ok := layout.ArraySize(f.Desc); ok && f.Repeated && !f.Desc.IsMap() {
		s += fmt.Sprintf(", Fixed: %d", n) // phaser.array_size
	}
	var bits []string
	switch {
	case f.Inline:
		bits = append(bits, g.door("InlineField"))
	case !f.Repeated && f.Union == nil && f.Kind != layout.StringKind && f.Kind != layout.BytesKind && f.Kind != layout.MessageKind:
		// A scalar's presence bit (id ID is bit ID%8 of byte 4+ID/8).
		bits = append(bits, fmt.Sprintf("%d*%s", 4+f.ID>>3, g.door("PresenceByte")), fmt.Sprintf("%#02x*%s", 1<<(f.ID&7), g.door("PresenceMask")))
		if sized {
			bits = append(bits, fmt.Sprintf("%d*%s", f.SlotSize, g.door("ValueSize")))
		}
	}
	if signed && signedScalar(f) {
		bits = append(bits, g.door("SignedField"))
	}
	if len(bits) > 0 {
		s += ", Bits: " + strings.Join(bits, " | ")
	}
	return s + "}"
}

func unionVar(m *protogen.Message, o *protogen.Oneof) string {
	return "phaserUnion_" + m.GoIdent.GoName + "_" + o.GoName
}

// oneofCase emits the case type of a real oneof and its Which/Clear methods.
func (g *fileGen) oneofCase(m *protogen.Message, o *protogen.Oneof, lm *layout.Message) {
	name := m.GoIdent.GoName
	ct, notSet := g.oneofName(o, "Case"), g.oneofName(o, "NotSet")
	uv := unionVar(m, o)
	g.P("var ", uv, " = ", typeVar(m), ".Unions()[", unionIndex(lm, o.Desc), "]")
	g.P()
	g.P("// ", ct, " is the field number of the active member of oneof ", o.Desc.Name(), ", or 0.")
	g.protoComments(o.Comments)
	g.P("type ", ct, " uint32")
	g.P()
	g.P("// Cases of oneof ", o.Desc.Name(), ".")
	g.P("const (")
	g.P(notSet, " ", ct, " = 0")
	for _, f := range o.Fields {
		g.P(g.caseName(f), " ", ct, " = ", f.Desc.Number())
	}
	g.P(")")
	g.P()
	g.P("// String returns the name of the active member's field, or \"\" if none")
	g.P("// (its number if it is not a member).")
	g.P("func (c ", ct, ") String() string {")
	g.P("switch c {")
	g.P("case ", notSet, ":")
	g.P("return \"\"")
	for _, f := range o.Fields {
		g.P("case ", g.caseName(f), ":")
		g.P("return ", strconv.Quote(string(f.Desc.Name())))
	}
	g.P("}")
	g.P("return ", g.ident("strconv", "Itoa"), "(int(c))")
	g.P("}")
	g.P()
	g.P("// Which", o.GoName, " returns the active member of oneof ", o.Desc.Name(), ".")
	g.P("func (x ", name, ") Which", o.GoName, "() ", ct, " { return ", ct, "("+g.xm()+".WhichOneof(", uv, ")) }")
	g.P()
}

func unionIndex(lm *layout.Message, od protoreflect.OneofDescriptor) int {
	for i, u := range lm.Unions {
		if u.Desc.FullName() == od.FullName() {
			return i
		}
	}
	return -1
}

// accessorNames names the accessors of m's fields: the field's Go name, with
// underscores appended while one of the methods it would get clashes with a
// method every handle has (as protoc-gen-go does), with the Which method of
// a oneof, or with a method of an earlier field (name and name_bytes both
// want NameBytes; value and has_value both want HasValue). Fields are named
// in declaration order.
func accessorNames(m *protogen.Message) map[*protogen.Field]string {
	taken := make(map[string]bool, len(reservedMethods))
	for k := range reservedMethods {
		taken[k] = true
	}
	for _, o := range m.Oneofs {
		if !o.Desc.IsSynthetic() {
			taken["Which"+o.GoName] = true
		}
	}
	names := make(map[*protogen.Field]string, len(m.Fields))
	for _, f := range m.Fields {
		n := f.GoName
		for slices.ContainsFunc(methodsOf(f, n), func(s string) bool { return taken[s] }) {
			n += "_"
		}
		for _, s := range methodsOf(f, n) {
			taken[s] = true
		}
		names[f] = n
	}
	return names
}

// methodsOf lists the methods that field f gets under accessor name n.
func methodsOf(f *protogen.Field, n string) []string {
	switch k := f.Desc.Kind(); {
	case f.Desc.IsList() || f.Desc.IsMap():
		return []string{n}
	case k == protoreflect.MessageKind:
		return []string{n, "Mutable" + n, "Has" + n, "Clear" + n}
	case k == protoreflect.StringKind || k == protoreflect.BytesKind:
		return []string{n, n + "Bytes", "Set" + n, "Set" + n + "Bytes", "Allocate" + n, "Has" + n, "Clear" + n}
	}
	return []string{n, "Set" + n, "Has" + n, "Clear" + n}
}

// field emits the accessors of one field.
func (g *fileGen) field(m *protogen.Message, f *protogen.Field, lf *layout.Field, lm *layout.Message) {
	switch {
	case f.Desc.IsList() || f.Desc.IsMap():
		g.repeated(m, f, lf)
	case f.Desc.Kind() == protoreflect.MessageKind:
		g.messageField(m, f, lf, lm)
	case f.Desc.Kind() == protoreflect.StringKind || f.Desc.Kind() == protoreflect.BytesKind:
		g.stringField(m, f, lf, lm)
	default:
		g.scalarField(m, f, lf, lm)
	}
}

// scalar describes how a scalar kind is stored: the runtime width suffix,
// the Go type, and conversions from and to the stored bits.
type scalar struct {
	width    string // "8", "32", "64"
	goType   string
	get, put string // fmt patterns over the bits / the value
}

func (g *fileGen) scalarOf(fd protoreflect.FieldDescriptor, f *protogen.Field) scalar {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return scalar{"8", "bool", "%s != 0", g.door("BoolByte") + "(%s)"}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return scalar{"32", "int32", "int32(%s)", "uint32(%s)"}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return scalar{"32", "uint32", "%s", "%s"}
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return scalar{"64", "int64", "int64(%s)", "uint64(%s)"}
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return scalar{"64", "uint64", "%s", "%s"}
	case protoreflect.FloatKind:
		return scalar{"32", "float32", g.ident("math", "Float32frombits") + "(%s)", g.ident("math", "Float32bits") + "(%s)"}
	case protoreflect.DoubleKind:
		return scalar{"64", "float64", g.ident("math", "Float64frombits") + "(%s)", g.ident("math", "Float64bits") + "(%s)"}
	case protoreflect.EnumKind:
		et := g.enumType(f.Enum)
		return scalar{"32", et, et + "(int32(%s))", "uint32(%s)"}
	}
	panic(fmt.Sprintf("phaser-go generator: %v is not a scalar kind", fd.Kind()))
}

// elemType returns the Go type of the elements of repeated scalar or enum
// field f.
func (g *fileGen) elemType(f *protogen.Field) string {
	switch f.Desc.Kind() {
	case protoreflect.BoolKind:
		return "bool"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return "int64"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "uint64"
	case protoreflect.FloatKind:
		return "float32"
	case protoreflect.DoubleKind:
		return "float64"
	case protoreflect.EnumKind:
		return g.enumType(f.Enum)
	}
	panic(fmt.Sprintf("phaser-go generator: %v is not a scalar kind", f.Desc.Kind()))
}

// enumType returns the Go name of an enum's Phaser type, qualified if it
// lives in another file's package.
func (g *fileGen) enumType(e *protogen.Enum) string {
	return g.QualifiedGoIdent(protogen.GoIdent{GoName: e.GoIdent.GoName, GoImportPath: g.phaserPkg(e.Desc.ParentFile())})
}

// phaserPkg returns the Phaser package of a .proto file.
func (g *fileGen) phaserPkg(fd protoreflect.FileDescriptor) protogen.GoImportPath {
	if fd.Path() == g.file.Desc.Path() {
		return g.pkg
	}
	if f, ok := g.plugin.FilesByPath[fd.Path()]; ok {
		p, _ := PackageOf(f.GoImportPath, f.GoPackageName, g.opts.PackageSuffix)
		return p
	}
	return g.pkg
}

// doc writes the doc comment of accessor method of field f: the field's
// .proto comments on its getter, its deprecation on every accessor.
func (g *fileGen) doc(method string, f *protogen.Field, what string) {
	g.P("// ", method, " ", what, " field ", f.Desc.Name(), " (", f.Desc.Number(), ").")
	if method == g.names[f] {
		g.protoComments(f.Comments)
	}
	g.deprecation(f.Desc.Options())
}

func (g *fileGen) scalarField(m *protogen.Message, f *protogen.Field, lf *layout.Field, lm *layout.Message) {
	recv := "func (x " + m.GoIdent.GoName + ") "
	n, fl, s := g.names[f], g.fieldLit(lf), g.scalarOf(f.Desc, f)
	if f.Oneof != nil {
		uv := g.memberUnion(m, f, lm)
		if hasDefault(f) {
			g.doc(n, f, "returns (its default unless active) oneof member")
			g.P(recv, n, "() ", s.goType, " {")
			g.P("if !", g.xm(), ".HasMember(", fl, ") {")
			g.P("return ", g.defaultName(m, f))
			g.P("}")
			g.P("return ", fmt.Sprintf(s.get, g.xm()+".Member"+s.width+"("+fl+")"))
			g.P("}")
		} else {
			g.doc(n, f, "returns oneof member")
			g.P(recv, n, "() ", s.goType, " { return ", fmt.Sprintf(s.get, g.xm()+".Member"+s.width+"("+fl+")"), " }")
		}
		g.P()
		g.doc("Set"+n, f, "makes active and sets oneof member")
		g.P(recv, "Set", n, "(v ", s.goType, ") { "+g.xm()+".SetMember", s.width, "(", uv, ", ", fl, ", ", fmt.Sprintf(s.put, "v"), ") }")
		g.P()
		g.memberHasClear(recv, f, n, fl, uv)
		return
	}
	rl := g.readLit(lf)
	if getter(lf, s.width, false) == "Get"+s.width { // no GetSigned to set Signed
		rl = fl
	}
	if hasDefault(f) {
		bits, what := defaultBits(f)
		g.doc(n, f, "returns (its default, "+g.defaultName(m, f)+", if absent)")
		g.P(recv, n, "() ", s.goType, " {")
		g.P("return ", fmt.Sprintf(s.get, g.xm()+"."+getter(lf, s.width, true)+"("+rl+", "+bits+")"), " // ", what)
		g.P("}")
	} else {
		g.doc(n, f, "returns")
		g.P(recv, n, "() ", s.goType, " { return ", fmt.Sprintf(s.get, g.xm()+"."+getter(lf, s.width, false)+"("+rl+")"), " }")
	}
	g.P()
	g.doc("Set"+n, f, "sets")
	g.P(recv, "Set", n, "(v ", s.goType, ") { "+g.xm()+".Set", s.width, "(", fl, ", ", fmt.Sprintf(s.put, "v"), ") }")
	g.P()
	g.doc("Has"+n, f, "reports the presence of")
	g.P(recv, "Has", n, "() bool { return "+g.xm()+".Has(", rl, ") }")
	g.P()
	g.doc("Clear"+n, f, "clears")
	g.P(recv, "Clear", n, "() { "+g.xm()+".ClearScalar(", g.fieldLitSized(lf), ") }")
	g.P()
}

// memberUnion returns the variable of a member's union, declaring it for
// the synthetic oneof of a proto3 optional field.
func (g *fileGen) memberUnion(m *protogen.Message, f *protogen.Field, lm *layout.Message) string {
	uv := unionVar(m, f.Oneof)
	if f.Oneof.Desc.IsSynthetic() {
		g.P("var ", uv, " = ", typeVar(m), ".Unions()[", unionIndex(lm, f.Oneof.Desc), "]")
		g.P()
	}
	return uv
}

func (g *fileGen) memberHasClear(recv string, f *protogen.Field, n, fl, uv string) {
	g.doc("Has"+n, f, "reports whether it is the active member:")
	g.P(recv, "Has", n, "() bool { return "+g.xm()+".HasMember(", fl, ") }")
	g.P()
	g.doc("Clear"+n, f, "clears, if active,")
	g.P(recv, "Clear", n, "() { "+g.xm()+".ClearOneof(", uv, ", ", fl, ") }")
	g.P()
}

func (g *fileGen) stringField(m *protogen.Message, f *protogen.Field, lf *layout.Field, lm *layout.Message) {
	recv := "func (x " + m.GoIdent.GoName + ") "
	n, fl := g.names[f], g.fieldLit(lf)
	goType, conv := "string", "string(%s)"
	if f.Desc.Kind() == protoreflect.BytesKind {
		goType, conv = "[]byte", "append([]byte(nil), %s...)"
	}
	get, set, setb := g.xm()+".StringBytes("+fl+")", g.xm()+".SetString("+fl+", v)", g.xm()+".SetBytes("+fl+", v)"
	var uv string
	if f.Oneof != nil {
		uv = g.memberUnion(m, f, lm)
		get = g.xm() + ".MemberString(" + fl + ")"
		set = g.xm() + ".SetMemberString(" + uv + ", " + fl + ", v)"
		setb = g.xm() + ".SetMemberBytes(" + uv + ", " + fl + ", v)"
	}
	if hasDefault(f) {
		def := g.defaultName(m, f)
		g.doc(n, f, "returns (its default, "+def+", if absent) a copy of")
		g.P(recv, n, "() ", goType, " {")
		g.P("if b := ", get, "; b != nil {")
		g.P("return ", fmt.Sprintf(conv, "b"))
		g.P("}")
		if goType == "string" {
			g.P("return ", def)
		} else {
			g.P("return append([]byte(nil), ", def, "...)")
		}
		g.P("}")
	} else {
		g.doc(n, f, "returns a copy of")
		g.P(recv, n, "() ", goType, " { return ", fmt.Sprintf(conv, get), " }")
	}
	g.P()
	g.doc(n+"Bytes", f, "returns without copying")
	g.P("// The slice aliases the payload: it is valid until the field is written")
	g.P("// or an owned buffer grows, and must not be modified.")
	if hasDefault(f) {
		g.P("// It is nil if the field is absent (", n, " returns the default).")
	}
	g.P(recv, n, "Bytes() []byte { return ", get, " }")
	g.P()
	if goType == "string" {
		g.doc("Set"+n, f, "sets")
		g.P(recv, "Set", n, "(v string) { ", set, " }")
		g.P()
		g.doc("Set"+n+"Bytes", f, "sets from bytes (which may alias the payload)")
		g.P(recv, "Set", n, "Bytes(v []byte) { ", setb, " }")
		g.P()
	} else {
		g.doc("Set"+n, f, "sets (v may alias the payload)")
		g.P(recv, "Set", n, "(v []byte) { ", setb, " }")
		g.P()
	}
	if f.Oneof != nil {
		g.doc("Allocate"+n, f, "makes active, n bytes long, and returns to fill in place oneof member")
		g.P(recv, "Allocate", n, "(n int) []byte { return ", g.xm(), ".AllocateMember(", uv, ", ", fl, ", n) }")
		g.P()
		g.memberHasClear(recv, f, n, fl, uv)
		return
	}
	g.doc("Allocate"+n, f, "makes n bytes long and returns them to fill in place:")
	g.P(recv, "Allocate", n, "(n int) []byte { return "+g.xm()+".AllocateString(", fl, ", n) }")
	g.P()
	g.doc("Has"+n, f, "reports the presence of")
	g.P(recv, "Has", n, "() bool { return "+g.xm()+".HasString(", fl, ") }")
	g.P()
	g.doc("Clear"+n, f, "clears")
	g.P(recv, "Clear", n, "() { "+g.xm()+".ClearString(", fl, ") }")
	g.P()
}

// msgRef returns the handle type name of a message and the expressions that
// give its runtime Type and wrap an engine handle into it.
func (g *fileGen) msgRef(msg *protogen.Message) (typ, typeExpr, wrap string) {
	pkg := g.phaserPkg(msg.Desc.ParentFile())
	if pkg == g.pkg {
		return msg.GoIdent.GoName, typeVar(msg), msg.GoIdent.GoName + "(%s)"
	}
	typ = g.QualifiedGoIdent(protogen.GoIdent{GoName: msg.GoIdent.GoName, GoImportPath: pkg})
	return typ, foreignTypeVar(typ), typ + "(%s)"
}

// foreignTypeVar names the package variable holding the Type of a message
// of another package, qualified as typ.
func foreignTypeVar(typ string) string { return "phaserType_" + strings.ReplaceAll(typ, ".", "_") }

// foreignTypes declares the variables that hold the Types of the messages
// of other packages that the file's fields refer to, in order of first
// use, then those of the nested messages of other packages that an Assign
// fills (an Imu's header's stamp).
func (g *fileGen) foreignTypes() {
	seen := map[string]bool{}
	var refs []*protogen.Message
	for _, m := range allMessages(g.file.Messages) {
		for _, f := range m.Fields {
			refs = append(refs, f.Message)
		}
	}
	for _, m := range allMessages(g.file.Messages) {
		if n := g.assignPlan(m); n != nil {
			refs = n.nestedTypes(refs)
		}
	}
	for _, msg := range refs {
		if msg == nil || msg.Desc.FullName() == anyName || g.phaserPkg(msg.Desc.ParentFile()) == g.pkg {
			continue
		}
		typ, tv, _ := g.msgRef(msg)
		if seen[tv] {
			continue
		}
		if len(seen) == 0 {
			g.P("// The types of the messages of other packages that fields refer to.")
			g.P("var (")
		}
		seen[tv] = true
		g.P(tv, " = ", g.door("EngineType"), "(", typ, "{}.PhaserType())")
	}
	if len(seen) > 0 {
		g.P(")")
		g.P()
	}
}

func (g *fileGen) messageField(m *protogen.Message, f *protogen.Field, lf *layout.Field, lm *layout.Message) {
	recv := "func (x " + m.GoIdent.GoName + ") "
	n, fl := g.names[f], g.fieldLit(lf)
	var typ, texpr, wrap string
	if f.Message.Desc.FullName() == anyName {
		typ, texpr, wrap = g.rt("Any"), g.door("AnyType")+"()", g.door("Any")+"(%s)"
	} else {
		typ, texpr, wrap = g.msgRef(f.Message)
	}
	if f.Oneof != nil {
		uv := g.memberUnion(m, f, lm)
		g.doc(n, f, "returns (a default message unless active) oneof member")
		g.P(recv, n, "() ", typ, " { return ", fmt.Sprintf(wrap, g.xm()+".MemberMessage("+fl+", "+texpr+")"), " }")
		g.P()
		g.doc("Mutable"+n, f, "makes active, creating it, oneof member")
		g.P(recv, "Mutable", n, "() ", typ, " { return ", fmt.Sprintf(wrap, g.xm()+".MutableMember("+uv+", "+fl+", "+texpr+")"), " }")
		g.P()
		g.memberHasClear(recv, f, n, fl, uv)
		return
	}
	get := "SlotMessage"
	if lf.Inline {
		get = "InlineMessage"
	}
	g.doc(n, f, "returns (a default message if absent)")
	g.P(recv, n, "() ", typ, " { return ", fmt.Sprintf(wrap, g.xm()+"."+get+"("+fl+", "+texpr+")"), " }")
	g.P()
	if lf.Inline {
		g.P("// Mutable", n, " returns field ", f.Desc.Name(), " (", f.Desc.Number(), "), marking it present if absent.")
		g.P("// In format v3 it is stored inside the message (ROS frontend): this allocates nothing.")
	} else {
		g.doc("Mutable"+n, f, "returns, creating it if absent,")
	}
	g.P(recv, "Mutable", n, "() ", typ, " { return ", fmt.Sprintf(wrap, g.xm()+".MutableMessage("+fl+", "+texpr+")"), " }")
	g.P()
	g.doc("Has"+n, f, "reports the presence of")
	g.P(recv, "Has", n, "() bool { return "+g.xm()+".HasMessage(", fl, ") }")
	g.P()
	if lf.Inline {
		g.doc("Clear"+n, f, "clears, freeing what it holds,")
	} else {
		g.doc("Clear"+n, f, "clears and frees")
	}
	g.P(recv, "Clear", n, "() { "+g.xm()+".ClearMessage(", fl, ", ", texpr, ") }")
	g.P()
}

func (g *fileGen) repeated(m *protogen.Message, f *protogen.Field, lf *layout.Field) {
	recv := "func (x " + m.GoIdent.GoName + ") "
	n, fl := g.names[f], g.fieldLit(lf)
	var typ, expr string
	switch k := f.Desc.Kind(); {
	case f.Desc.IsMap() || k == protoreflect.MessageKind:
		msg := f.Message
		if msg.Desc.FullName() == anyName {
			typ = g.rt("AnyList")
			expr = g.door("Anys") + "(" + g.xm() + ", " + fl + ")"
			break
		}
		ln := g.listName(msg)
		typ = ln
		if pkg := g.phaserPkg(msg.Desc.ParentFile()); pkg != g.pkg {
			typ = g.QualifiedGoIdent(protogen.GoIdent{GoName: ln, GoImportPath: pkg})
		}
		expr = typ + "(" + g.door("MessagesOf") + "(" + g.xm() + ", " + fl + "))"
	case k == protoreflect.StringKind || k == protoreflect.BytesKind:
		typ, expr = g.rt("StringList"), g.door("Strings")+"("+g.xm()+", "+fl+")"
	default:
		et := g.elemType(f)
		typ = g.rt("List") + "[" + et + "]"
		expr = g.door("List") + "[" + et + "](" + g.xm() + ", " + fl + ")"
	}
	what := "returns the list handle of repeated"
	if f.Desc.IsMap() {
		what = "returns the entries (in insertion order, keys not de-duplicated) of map"
	}
	g.doc(n, f, what)
	if size, ok := ros.ArraySize(f.Desc); ok {
		g.P("// (phaser.array_size) = ", size, ": a fixed array of ", size, " elements. Its list")
		g.P("// has ", size, " elements from creation, those not stored reading as defaults;")
		g.P("// a write of an element stores the ", size, ", and one past them is refused")
		g.P("// (Failed, runtime.ErrArraySize). Append and Resize store up to ", size, ".")
	}
	g.P(recv, n, "() ", typ, " { return ", expr, " }")
	g.P()
}

// listName names the list type of message m.
func (g *fileGen) listName(m *protogen.Message) string { return g.declName(m, declList) }

// viewable reports whether field f of a message gets a view getter: a
// singular scalar outside any oneof (what runtime.View reads).
func viewable(f *protogen.Field) bool {
	switch f.Desc.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind, protoreflect.StringKind, protoreflect.BytesKind:
		return false
	}
	return !f.Desc.IsList() && !f.Desc.IsMap() && f.Oneof == nil
}

// view emits the view type of m when it has singular scalar fields: their
// getters read a runtime.View, so that they inline.
func (g *fileGen) view(m *protogen.Message, lm *layout.Message, name, tv string) {
	if !slices.ContainsFunc(m.Fields, viewable) {
		return
	}
	v := g.declName(m, declView)
	g.P("// ", v, " reads the singular scalar fields of a ", name, " in place with")
	g.P("// loads the compiler inlines, for loops over many")
	g.P("// messages. Like the bytes of a string, it is valid until the payload is")
	g.P("// next written.")
	g.P("type ", v, " ", g.door("View"))
	g.P()
	g.P("// View returns a view of x's singular scalar fields (copied once, here,")
	g.P("// when x was written with another version of the schema).")
	g.P("func (x ", name, ") View() ", v, " { return ", v, "(", g.xm(), ".ViewOf(", tv, ")) }")
	g.P()
	recv := "func (v " + v + ") "
	for _, f := range m.Fields {
		if !viewable(f) {
			continue
		}
		// A view reads the compiled layout only: no general path to
		// sign-extend, so no Signed (readLit).
		n, fl, s := g.names[f], g.readLit(lm.FieldByNumber(f.Desc.Number())), g.scalarOf(f.Desc, f)
		if hasDefault(f) {
			bits, what := defaultBits(f)
			g.doc(n, f, "returns (its default, "+g.defaultName(m, f)+", if absent)")
			g.P(recv, n, "() ", s.goType, " {")
			g.P("return ", fmt.Sprintf(s.get, g.door("View")+"(v).Get"+s.width+"Or("+fl+", "+bits+")"), " // ", what)
			g.P("}")
		} else {
			g.doc(n, f, "returns")
			g.P(recv, n, "() ", s.goType, " { return ", fmt.Sprintf(s.get, g.door("View")+"(v).Get"+s.width+"("+fl+")"), " }")
		}
		g.P()
		g.doc("Has"+n, f, "reports the presence of")
		g.P(recv, "Has", n, "() bool { return ", g.door("View"), "(v).Has(", fl, ") }")
		g.P()
	}
}

// scalars emits SetScalars and its values type when m has singular scalar
// fields (those its view reads): one call stores them all at compile-time
// offsets of the message's bytes, checked once, for loops that fill many
// messages (the elements of a repeated field).
func (g *fileGen) scalars(m *protogen.Message, lm *layout.Message, name string) {
	if !slices.ContainsFunc(m.Fields, viewable) {
		return
	}
	vt, ext := g.declName(m, declScalars), extentOf(lm)
	g.P("// ", vt, " holds the values of the singular scalar fields of a ", name, ",")
	g.P("// for SetScalars.")
	g.P("type ", vt, " struct {")
	var fields []*protogen.Field
	for _, f := range m.Fields {
		if viewable(f) {
			fields = append(fields, f)
			g.P(g.names[f], " ", g.scalarOf(f.Desc, f).goType, " // field ", f.Desc.Name(), " (", f.Desc.Number(), ")")
		}
	}
	g.P("}")
	g.P()
	g.P("// SetScalars sets every singular scalar field of x to its value in v")
	g.P("// (each field is then present): what the field setters do, in one call")
	g.P("// that checks the message once and stores at compile-time offsets.")
	store, general := "phaserStoreScalars_"+name, "phaserSetScalars_"+name
	ptr := g.ident("unsafe", "Pointer")
	g.P("func (x ", name, ") SetScalars(v *", vt, ") {")
	g.P(g.xm(), ".StoreScalars(", ext, ", ", ptr, "(v), ", store, ", ", general, ")")
	g.P("}")
	g.P()
	g.P("// ", store, " stores *vp, a ", vt, ", at compile-time")
	g.P("// offsets of b, a ", name, " laid out with its compiled table, for SetScalars.")
	g.P("func ", store, "(b []byte, vp ", ptr, ") {")
	g.P("v := (*", vt, ")(vp)")
	g.P("p := (*[", ext, "]byte)(b)")
	g.storeScalarsOf(fields, lm, g.names, "v", "p", false)
	g.P("}")
	g.P()
	g.P("// ", general, " is SetScalars through the field setters, for a")
	g.P("// message of another layout or not writable; vp is a *", vt, ".")
	g.P("func ", general, "(m ", g.door("Msg"), ", vp ", ptr, ") {")
	g.P("v, x := (*", vt, ")(vp), ", name, "(m)")
	for _, f := range fields {
		g.P("x.Set", g.names[f], "(v.", g.names[f], ")")
	}
	g.P("}")
	g.P()
}

// storeScalarsOf emits the stores of the singular scalar fields' values
// val.<Name> (names: the fields' accessor names) into mem (*[extent]byte,
// the message's bytes) at their compiled offsets, and the presence bits
// that make them present: or'd into the presence bytes, or stored as the
// whole byte where cleared says the message's presence words were just
// zeroed (Assign's Clear).
func (g *fileGen) storeScalarsOf(fields []*protogen.Field, lm *layout.Message, names map[*protogen.Field]string, val, mem string, cleared bool) {
	le := g.leIdent()
	masks := map[uint32]int{}
	var order []uint32
	for _, f := range fields {
		lf := lm.FieldByNumber(f.Desc.Number())
		sc := g.scalarOf(f.Desc, f)
		v := fmt.Sprintf(sc.put, val+"."+names[f])
		if sc.width == "8" {
			g.P(mem, "[", lf.Offset, "] = ", v)
		} else {
			g.P(le, ".PutUint", sc.width, "(", mem, "[", lf.Offset, ":], ", v, ")")
		}
		at := 4 + uint32(lf.ID>>3)
		if _, ok := masks[at]; !ok {
			order = append(order, at)
		}
		masks[at] |= 1 << (lf.ID & 7)
	}
	for _, at := range order {
		op := "|="
		if cleared {
			op = "="
		}
		g.P(mem, "[", at, "] ", op, " ", fmt.Sprintf("%#02x", masks[at]), " // presence")
	}
}

// list emits the list type for repeated fields of message type m.
func (g *fileGen) list(m *protogen.Message, name string) {
	l := g.listName(m)
	g.P("// ", l, " is a handle on a repeated field of ", name, " messages.")
	g.P("type ", l, " ", g.door("MessageField"))
	g.P()
	// The methods pass the element type to the field's (MessageField); the
	// rarely hot ones take the list handle of the dynamic runtime.
	tv := typeVar(m)
	ml := g.door("MessageField") + "(l)"
	dl := ml + ".List(" + tv + ")"
	for _, line := range []string{
		"// Len returns the number of elements.",
		"func (l " + l + ") Len() int { return " + ml + ".Len() }",
		"",
		"// At returns element i (a default message if out of range).",
		"func (l " + l + ") At(i int) " + name + " { return " + name + "(" + ml + ".At(i, " + tv + ")) }",
		"",
		"// Mutable returns element i, growing the list and creating it as needed.",
		"func (l " + l + ") Mutable(i int) " + name + " { return " + name + "(" + ml + ".Mutable(i, " + tv + ")) }",
		"",
		"// Append adds a new, empty element and returns it.",
		"func (l " + l + ") Append() " + name + " { return " + name + "(" + ml + ".Append(" + tv + ")) }",
		"",
		"// Allocate replaces the list with n new elements made in one allocation.",
		"func (l " + l + ") Allocate(n int) { " + dl + ".Allocate(n) }",
		"",
		"// Reserve makes room for n elements.",
		"func (l " + l + ") Reserve(n int) { " + dl + ".Reserve(n) }",
		"",
		"// Resize sets the length to n; new elements are absent until Mutable.",
		"func (l " + l + ") Resize(n int) { " + dl + ".Resize(n) }",
		"",
		"// Clear empties the list, clearing and freeing every element.",
		"func (l " + l + ") Clear() { " + dl + ".Clear() }",
		"",
		"// Insert inserts a new, empty element at index i (0 <= i <= Len) and",
		"// returns it (a message that ignores writes if i is out of range or the",
		"// buffer is full).",
		"func (l " + l + ") Insert(i int) " + name + " { return " + name + "(" + dl + ".Insert(i)) }",
		"",
		"// Erase removes elements [i, j), clearing and freeing them. It reports",
		"// false, changing nothing, if the range is invalid.",
		"func (l " + l + ") Erase(i, j int) bool { return " + dl + ".Erase(i, j) }",
		"",
		"// Swap exchanges the elements of l and o in O(1); both must be in the",
		"// same payload (it reports false otherwise).",
		"func (l " + l + ") Swap(o " + l + ") bool { return " + ml + ".Swap(" + g.door("MessageField") + "(o)) }",
		"",
		"// AppendN appends n new, empty elements and calls fill for each (i from",
		"// 0 to n-1) as it is made. It reports false if the buffer fills first.",
		"func (l " + l + ") AppendN(n int, fill func(i int, elem " + name + ")) bool {",
		"return " + ml + ".AppendN(n, " + tv + ", func(i int, e " + g.door("Msg") + ") { fill(i, " + name + "(e)) })",
		"}",
		"",
		"// All iterates over the elements as At returns them, resolving the field",
		"// and checking the element table once.",
		"func (l " + l + ") All() " + g.ident("iter", "Seq2") + "[int, " + name + "] {",
		"return func(yield func(int, " + name + ") bool) {",
		"for i, m := range " + ml + ".All(" + tv + ") {",
		"if !yield(i, " + name + "(m)) {",
		"return",
		"}",
		"}",
		"}",
		"}",
	} {
		g.P(line)
	}
	g.P()
}

// mapType emits the key-access type of the map field whose entries are
// map entry m: Get, Set (Mutable for message values), Delete, Range and
// Len over the entry list, with protobuf's semantics (a key's last entry
// wins) and the entries as C++ Phaser stores them.
func (g *fileGen) mapType(m *protogen.Message) {
	l, mt := g.listName(m), g.declName(m, declMap)
	kf, vf := m.Fields[0], m.Fields[1]
	kn, vn := g.names[kf], g.names[vf]
	kt := "string"
	keyOf := "e." + kn + "()"
	match := "string(e." + kn + "Bytes()) == key" // compares without copying
	if kf.Desc.Kind() != protoreflect.StringKind {
		kt = g.scalarOf(kf.Desc, kf).goType
		match = keyOf + " == key"
	}
	msgValue := vf.Desc.Kind() == protoreflect.MessageKind
	var vt string
	switch {
	case msgValue && vf.Message.Desc.FullName() == anyName:
		vt = g.rt("Any")
	case msgValue:
		vt, _, _ = g.msgRef(vf.Message)
	case vf.Desc.Kind() == protoreflect.StringKind:
		vt = "string"
	case vf.Desc.Kind() == protoreflect.BytesKind:
		vt = "[]byte"
	default:
		vt = g.scalarOf(vf.Desc, vf).goType
	}
	recv := "func (m " + mt + ") "
	g.P("// ", mt, " is key access to the map field whose entries are ", m.GoIdent.GoName, ",")
	g.P("// with protobuf's semantics over the entries as C++ Phaser stores them (a")
	g.P("// list in insertion order, which may repeat a key): a key's value is that of")
	g.P("// its last entry. Get, Set and Delete scan the entries from the end, O(n)")
	g.P("// without allocating; Len and Range are O(n) and allocate a Go map of the")
	g.P("// keys.")
	g.P("type ", mt, " ", g.door("MessageField"))
	g.P()
	g.P("// Map returns key access to the map of entries l.")
	g.P("func (l ", l, ") Map() ", mt, " { return ", mt, "(l) }")
	g.P()
	g.P("// Entries returns the entries, in insertion order.")
	g.P(recv, "Entries() ", l, " { return ", l, "(m) }")
	g.P()
	g.P("// find returns the index of the last entry of key, or -1.")
	g.P(recv, "find(key ", kt, ") int {")
	g.P("l := ", l, "(m)")
	g.P("for i := l.Len() - 1; i >= 0; i-- {")
	g.P("if e := l.At(i); ", match, " {")
	g.P("return i")
	g.P("}")
	g.P("}")
	g.P("return -1")
	g.P("}")
	g.P()
	if msgValue {
		g.P("// Get returns the value of key (a default message if the map lacks it or its")
		g.P("// entry has no value) and whether the map has key.")
	} else {
		g.P("// Get returns the value of key (the zero value if the map lacks it) and")
		g.P("// whether the map has key.")
	}
	g.P(recv, "Get(key ", kt, ") (", vt, ", bool) {")
	g.P("if i := m.find(key); i >= 0 {")
	g.P("return ", l, "(m).At(i).", vn, "(), true")
	g.P("}")
	g.P("var zero ", vt)
	g.P("return zero, false")
	g.P("}")
	g.P()
	if msgValue {
		g.P("// Mutable returns the value of key to write, creating it and, if the map")
		g.P("// lacks key, appending an entry for it.")
		g.P(recv, "Mutable(key ", kt, ") ", vt, " {")
		g.P("if i := m.find(key); i >= 0 {")
		g.P("return ", l, "(m).Mutable(i).Mutable", vn, "()")
		g.P("}")
		g.P("e := ", l, "(m).Append()")
		g.P("e.Set", kn, "(key)")
		g.P("return e.Mutable", vn, "()")
		g.P("}")
	} else {
		g.P("// Set stores v as the value of key: in its last entry, or in an entry")
		g.P("// appended if the map lacks key.")
		g.P(recv, "Set(key ", kt, ", v ", vt, ") {")
		g.P("if i := m.find(key); i >= 0 {")
		g.P(l, "(m).Mutable(i).Set", vn, "(v)")
		g.P("return")
		g.P("}")
		g.P("e := ", l, "(m).Append()")
		g.P("e.Set", kn, "(key)")
		g.P("e.Set", vn, "(v)")
		g.P("}")
	}
	g.P()
	g.P("// Delete removes every entry of key and reports whether there was one.")
	g.P(recv, "Delete(key ", kt, ") bool {")
	g.P("l, found := ", l, "(m), false")
	g.P("for i := l.Len() - 1; i >= 0; i-- {")
	g.P("if e := l.At(i); ", match, " {")
	g.P("l.Erase(i, i+1)")
	g.P("found = true")
	g.P("}")
	g.P("}")
	g.P("return found")
	g.P("}")
	g.P()
	g.P("// last returns the index of each key's last entry.")
	g.P(recv, "last() map[", kt, "]int {")
	g.P("l := ", l, "(m)")
	g.P("last := make(map[", kt, "]int, l.Len())")
	g.P("for i, e := range l.All() {")
	g.P("last[", keyOf, "] = i")
	g.P("}")
	g.P("return last")
	g.P("}")
	g.P()
	g.P("// Len returns the number of distinct keys.")
	g.P(recv, "Len() int { return len(m.last()) }")
	g.P()
	g.P("// Range calls f for each key and its value (its last entry's), in the order")
	g.P("// of those entries, until f returns false.")
	g.P(recv, "Range(f func(key ", kt, ", v ", vt, ") bool) {")
	g.P("last := m.last()")
	g.P("for i, e := range ", l, "(m).All() {")
	g.P("if k := ", keyOf, "; last[k] == i && !f(k, e.", vn, "()) {")
	g.P("return")
	g.P("}")
	g.P("}")
	g.P("}")
	g.P()
}
