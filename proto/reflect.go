package proto

import "github.com/phaser-go/phaser/internal/impl"

// The protobuf reflection views of payloads (runtime.Msg.ProtoReflect and
// the generated handles' ProtoReflect) encode and decode through this
// package: proto.Marshal, proto.Unmarshal and proto.Size of a phaser handle
// run straight from and into its payload.
func init() {
	impl.RegisterWireCodec(impl.WireCodec{Size: sizeMsg, Append: appendMsg, Unmarshal: unmarshalMsg})
}
