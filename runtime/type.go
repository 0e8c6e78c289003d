package runtime

import (
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
)

// Type is a message type known to the runtime: the layout of its fields in
// a payload and the field table the payload carries, computed from its
// descriptor as the C++ generator computes them. Generated handles give
// theirs with PhaserType; TypeOf and TypeFor compute one from any
// descriptor. Types of one name and frontend are shared.
//
// A Type is compiled for one Frontend. A message of the type in a payload
// whose table differs (another payload format, frontend or version of the
// .proto) is read and written through the payload's own table.
type Type impl.Type

func (t *Type) impl() *impl.Type { return (*impl.Type)(t) }

// Name returns the full protobuf name of the type.
func (t *Type) Name() string { return t.impl().Name() }

// Frontend returns the frontend the type is compiled with.
func (t *Type) Frontend() Frontend { return Frontend(t.impl().Frontend()) }

// Descriptor returns the type's protobuf descriptor.
func (t *Type) Descriptor() protoreflect.MessageDescriptor { return t.impl().Descriptor() }

// TypeOf returns the protobuf-frontend Type of a message descriptor,
// computing its layout the first time.
func TypeOf(md protoreflect.MessageDescriptor) (*Type, error) {
	return TypeFor(md, ProtobufFrontend)
}

// TypeFor returns the Type of a message descriptor compiled for frontend
// fe, computing its layout the first time.
func TypeFor(md protoreflect.MessageDescriptor, fe Frontend) (*Type, error) {
	t, err := impl.TypeFor(md, impl.Frontend(fe))
	return (*Type)(t), err
}

// FindType returns the protobuf-frontend Type of a message by full name if
// one was computed (a generated package registers its types when it is
// initialized), or nil.
func FindType(name protoreflect.FullName) *Type { return (*Type)(impl.FindType(name)) }

// Frontend is the generator frontend a message type is compiled with, as
// the C++ generator's frontend option: it decides the layout the type
// writes in the Phaser 3 format.
type Frontend uint8

// The frontends.
const (
	// ProtobufFrontend lays every message out as the protobuf frontend does:
	// a singular message field is a 4-byte slot holding the message's
	// offset.
	ProtobufFrontend = Frontend(impl.ProtobufFrontend)
	// ROSFrontend stores, in the Phaser 3 format, the singular non-oneof
	// message fields inside their holder (unless the field's type can reach
	// the holder), so that creating them allocates nothing. In the Phaser 2
	// format it writes the protobuf frontend's layout, as C++ Phaser 2.x
	// does. Types of packages starting with "google.protobuf" always use the
	// protobuf frontend.
	ROSFrontend = Frontend(impl.ROSFrontend)
)

// String returns "protobuf" or "ros".
func (f Frontend) String() string { return impl.Frontend(f).String() }
