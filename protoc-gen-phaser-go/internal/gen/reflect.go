package gen

import "google.golang.org/protobuf/compiler/protogen"

const protoreflectPkg = protogen.GoImportPath("google.golang.org/protobuf/reflect/protoreflect")

// protoTypeVar names the package variable holding a message's protobuf
// reflection type.
func protoTypeVar(m *protogen.Message) string { return "phaserProto_" + m.GoIdent.GoName }

// reflection emits what makes a handle a proto.Message and the methods
// protobuf-go's messages have on top: ProtoReflect (the zero-copy
// protoreflect.Message view of the payload), String (text format), Equal
// (proto.Equal) and Clone (a copy in a new owned payload).
func (g *fileGen) reflection(m *protogen.Message, name, tv string) {
	pv := protoTypeVar(m)
	pm := g.ident(protoreflectPkg, "ProtoMessage")
	recv := "func (x " + name + ") "
	for _, l := range []string{
		"// " + pv + " is the protobuf reflection type of " + name + ".",
		"var " + pv + " = " + g.door("RegisterHandleType") + "(" + tv + ", func(m " + g.door("Msg") + ") " + pm + " { return " + name + "(m) })",
		"",
		"// ProtoReflect returns a protoreflect.Message view of x's payload, which",
		"// reads values from the payload when asked and writes them into it",
		"// (nothing is copied), so that protojson, prototext, proto.Equal,",
		"// proto.Marshal and protocmp take x as a proto.Message. Modifying a",
		"// read-only x through it panics, as protobuf-go's read-only messages do.",
		recv + "ProtoReflect() " + g.ident(protoreflectPkg, "Message") + " { return " + pv + ".Message(" + g.xm() + ") }",
		"",
		"// String returns x in the protobuf text format, as protobuf-go's String",
		"// methods do (for people to read: the format is not stable).",
		recv + "String() string { return " + g.door("MessageString") + "(x) }",
		"",
		"// Equal reports whether x and y hold the same message, as proto.Equal",
		"// does.",
		recv + "Equal(y " + name + ") bool { return " + g.door("Equal") + "(x, y) }",
		"",
		"// Clone returns a copy of x in a new owned payload of x's format (the",
		"// zero " + name + " if x is absent).",
		recv + "Clone() " + name + " { return " + name + "(" + g.door("Clone") + "(" + g.xm() + ", " + tv + ")) }",
		"",
	} {
		g.P(l)
	}
}
