package gen

import (
	"fmt"
	"strconv"

	"google.golang.org/protobuf/compiler/protogen"

	"github.com/phaser-go/phaser/ros"
)

const (
	rosPkg = protogen.GoImportPath("github.com/phaser-go/phaser/ros")
)

// wire emits the ROS1 wire methods of a message, its ROS metadata (option
// ros_metadata) and its protoc-gen-go converters (option protogo). The
// protobuf codec is protoCodec's (proto_codec.go).
func (g *fileGen) wire(m *protogen.Message, name, tv string) error {
	recv := "func (x " + name + ") "
	for _, l := range []string{
		"",
		"// CopyFrom replaces the content of x with that of src, which may live in",
		"// another payload. It reports false if x's buffer filled up.",
		recv + "CopyFrom(src " + name + ") bool { return " + g.xm() + ".CopyFrom(" + tv + ", " + g.door("Msg") + "(src)) }",
		"",
	} {
		g.P(l)
	}
	g.rosMethods(m, name, tv)
	if g.opts.ROSMetadata {
		if err := g.rosMetadata(m, recv); err != nil {
			return err
		}
	}
	if g.opts.ProtoGo && !m.Desc.IsMapEntry() { // protoc-gen-go has no map entry types
		g.protoGo(m, name, recv)
	}
	return nil
}

// rosMetadata emits the ROS data type, definition and md5sum of m,
// computed now from its descriptor.
func (g *fileGen) rosMetadata(m *protogen.Message, recv string) error {
	dt, err := ros.DataType(m.Desc)
	if err != nil {
		return fmt.Errorf("ros_metadata: %w", err)
	}
	def, err := ros.Definition(m.Desc)
	if err != nil {
		return fmt.Errorf("ros_metadata: %w", err)
	}
	sum, err := ros.MD5(m.Desc)
	if err != nil {
		return fmt.Errorf("ros_metadata: %w", err)
	}
	g.P("// ROSDataType returns the ROS data type of the message, ", strconv.Quote(dt), ".")
	g.P(recv, "ROSDataType() string { return ", strconv.Quote(dt), " }")
	g.P()
	g.P("// ROSDefinition returns the full ROS message definition, dependencies")
	g.P("// included, as ROS publishes it.")
	g.P(recv, "ROSDefinition() string { return ", strconv.Quote(def), " }")
	g.P()
	g.P("// ROSMD5 returns the ROS md5sum of the message definition.")
	g.P(recv, "ROSMD5() string { return ", strconv.Quote(sum), " }")
	g.P()
	return nil
}

// protoGo emits the converters to and from the protoc-gen-go type.
func (g *fileGen) protoGo(m *protogen.Message, name, recv string) {
	pb := g.QualifiedGoIdent(m.GoIdent)
	g.P("// FromProto replaces the content of x with that of the protoc-gen-go")
	g.P("// message src, through the wire format.")
	g.P(recv, "FromProto(src *", pb, ") error { return ", g.door("FromProto"), "(x.Msg(), src) }")
	g.P()
	g.P("// ToProto returns x as a new protoc-gen-go message, through the wire")
	g.P("// format.")
	g.P(recv, "ToProto() (*", pb, ", error) {")
	g.P("out := new(", pb, ")")
	g.P("if err := ", g.door("ToProto"), "(x.Msg(), out); err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("return out, nil")
	g.P("}")
	g.P()
}
