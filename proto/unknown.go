package proto

import (
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// Unknown fields: what Unmarshal keeps of the fields a message's type does
// not declare, written back after the known fields in the order they
// arrived, as protobuf-go writes its unknown fields. The fields of a
// message with extension ranges that are extensions this program declares
// (in a file of generated handles, or in protobuf-go's registry) are
// extensions to protobuf-go, which writes them before the known fields,
// ordered by number: so are they written here.

// DiscardUnknown drops the unknown fields of m and of every message it
// holds, as protobuf-go's proto.DiscardUnknown does.
func DiscardUnknown(m runtime.Msg) {
	d := impl.Dynamic(m)
	if d.Type() != nil {
		d.Msg().DiscardUnknown(d.Type())
	}
}
