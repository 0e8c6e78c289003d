package proto

import "github.com/phaser-go/phaser/internal/impl"

// The protobuf reflection views of payloads (runtime.Msg.ProtoReflect and
// the generated handles' ProtoReflect) encode and decode through this
// package: proto.Marshal, proto.Unmarshal and proto.Size of a phaser handle
// run straight from and into its payload. protobuf-go checks required
// fields itself (through the views' CheckInitialized), so these are
// partial, as its own fast paths are.
func init() {
	impl.RegisterWireCodec(impl.WireCodec{Size: sizeMsg, Append: appendMsg, Unmarshal: unmarshalMsg})
}

func sizeMsg(m impl.Msg, t *impl.Type) (int, error) {
	w, err := impl.Encoder(m)
	if err != nil {
		return 0, err
	}
	w.AllowPartial = true
	return sizeMessage(m, planOf(t), &w)
}

func appendMsg(b []byte, m impl.Msg, t *impl.Type) ([]byte, error) {
	w, err := impl.Encoder(m)
	if err != nil {
		return b, err
	}
	w.AllowPartial = true
	return appendMessage(b, m, planOf(t), &w)
}

func unmarshalMsg(b []byte, m impl.Msg, t *impl.Type) error {
	return UnmarshalOptions{AllowPartial: true}.unmarshal(b, m, t)
}
