package layout

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// arraySizeOption is the field number of phaser.array_size, an extension of
// google.protobuf.FieldOptions (proto/phaser/options.proto).
const arraySizeOption = 50001

// ArraySize returns the phaser.array_size option of field fd (a ROS fixed
// array of N elements) and whether it is set, however the option was
// resolved (an extension the program links, or unknown option bytes). A
// repeated field of N > 0 is a fixed array; its storage is a plain
// repeated field (spec 5.10).
func ArraySize(fd protoreflect.FieldDescriptor) (uint32, bool) {
	opts := fd.Options()
	if opts == nil {
		return 0, false
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(opts)
	if err != nil {
		return 0, false
	}
	var n uint64
	found := false
	for len(b) > 0 {
		num, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			break
		}
		b = b[l:]
		if num == arraySizeOption && typ == protowire.VarintType {
			n, l = protowire.ConsumeVarint(b)
			found = l >= 0
		} else {
			l = protowire.ConsumeFieldValue(num, typ, b)
		}
		if l < 0 {
			break
		}
		b = b[l:]
	}
	return uint32(n), found
}
