package runtime

import (
	"strings"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/phaser-go/phaser/internal/impl"
)

func init() {
	impl.SetDynamicHandle(func(d impl.Dynamic) protoreflect.ProtoMessage { return Msg(d) })
}

// ProtoReflect returns the protobuf reflection view of the message: a
// protoreflect.Message that reads its values from the payload when asked
// and writes them into it, without copying the message (see the package
// documentation, "Protobuf reflection"). It makes Msg a proto.Message, so
// that protojson, prototext, proto.Equal, proto.Marshal and protocmp take
// it as it is. The zero Msg has no type and panics.
func (m Msg) ProtoReflect() protoreflect.Message {
	t := m.dyn().Type()
	if t == nil {
		panic("phaser: ProtoReflect of the zero Msg")
	}
	return impl.DynamicType(t).Message(m.dyn().Msg())
}

// String returns the message in the protobuf text format, as protobuf-go's
// generated String methods do (for people: the format is not stable).
func (m Msg) String() string {
	if m.dyn().Type() == nil {
		return "<nil>"
	}
	return prototext.MarshalOptions{}.Format(m)
}

// ProtoTypes resolves message names and Any type URLs to the types of
// phaser-go's handles (a generated handle type, else Msg), then to
// protobuf-go's global registry. protojson and prototext resolve the type
// of an Any's value through protoregistry.GlobalTypes unless told
// otherwise: where the handles' messages have no protobuf-go type linked
// into the program, pass ProtoTypes as the Resolver of their options.
var ProtoTypes interface {
	protoregistry.MessageTypeResolver
	protoregistry.ExtensionTypeResolver
} = protoTypes{}

type protoTypes struct{}

func (protoTypes) FindMessageByName(name protoreflect.FullName) (protoreflect.MessageType, error) {
	if mt := impl.FindMessageType(name); mt != nil {
		return mt, nil
	}
	return protoregistry.GlobalTypes.FindMessageByName(name)
}

func (r protoTypes) FindMessageByURL(url string) (protoreflect.MessageType, error) {
	return r.FindMessageByName(protoreflect.FullName(url[strings.LastIndexByte(url, '/')+1:]))
}

func (protoTypes) FindExtensionByName(name protoreflect.FullName) (protoreflect.ExtensionType, error) {
	return protoregistry.GlobalTypes.FindExtensionByName(name)
}

func (protoTypes) FindExtensionByNumber(message protoreflect.FullName, field protoreflect.FieldNumber) (protoreflect.ExtensionType, error) {
	return protoregistry.GlobalTypes.FindExtensionByNumber(message, field)
}
