package phaserimpl

import (
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
)

// ProtoType is the protobuf reflection type (protoreflect.MessageType) of
// a generated handle type: its Message method gives a handle's
// protoreflect.Message view.
type ProtoType = impl.MessageType

// RegisterHandleType returns the ProtoType of the generated handle type
// that wrap makes from the engine's handles on messages of type t, and
// makes it the type that reflection gives fields of type t. Generated code
// calls it once per message, in a package variable.
func RegisterHandleType(t *Type, wrap func(Msg) protoreflect.ProtoMessage) *ProtoType {
	return impl.RegisterHandleType(t, wrap)
}

// MessageString returns m in the protobuf text format (the generated
// String methods).
func MessageString(m protoreflect.ProtoMessage) string { return prototext.MarshalOptions{}.Format(m) }

// Equal reports whether x and y hold the same message (the generated Equal
// methods): proto.Equal.
func Equal(x, y protoreflect.ProtoMessage) bool { return proto.Equal(x, y) }

// Clone returns a copy of m, a message of type t, in a new owned payload
// of m's format; an absent message gives the zero handle (the generated
// Clone methods).
func Clone(m Msg, t *Type) Msg { return impl.Clone(m, t) }
