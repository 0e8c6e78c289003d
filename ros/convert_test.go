package ros_test

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/ros"
)

// TestProtoToROSWireTypes checks that ProtoToROS rejects a value whose wire
// type is not its field's, whatever the width of the value it holds, and
// accepts each with the right one.
func TestProtoToROSWireTypes(t *testing.T) {
	typ := quickstartphaser.Robot{}.PhaserType()
	fixed32 := func(num protowire.Number) []byte {
		return protowire.AppendFixed32(protowire.AppendTag(nil, num, protowire.Fixed32Type), 7)
	}
	fixed64 := func(num protowire.Number) []byte {
		return protowire.AppendFixed64(protowire.AppendTag(nil, num, protowire.Fixed64Type), 7)
	}
	varint := func(num protowire.Number) []byte {
		return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), 7)
	}
	pose := func(rec []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, 4, protowire.BytesType), rec)
	}
	for _, c := range []struct {
		name string
		pb   []byte
		ok   bool
	}{
		{"id uint32 as varint", varint(2), true},
		{"id uint32 as fixed32", fixed32(2), false},
		{"mode enum as varint", varint(3), true},
		{"mode enum as fixed32", fixed32(3), false},
		{"mode enum as fixed64", fixed64(3), false},
		{"pose.x double as fixed64", pose(fixed64(1)), true},
		{"pose.x double as fixed32", pose(fixed32(1)), false},
		{"pose.x double as varint", pose(varint(1)), false},
		{"dock uint32 (oneof) as fixed32", fixed32(10), false},
		{"battery_cells float as fixed32", fixed32(6), true},
		{"battery_cells float as fixed64", fixed64(6), false},
	} {
		_, err := ros.ProtoToROS(nil, c.pb, typ)
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && !errors.Is(err, ros.ErrInvalid):
			t.Errorf("%s: error %v, want ErrInvalid", c.name, err)
		}
	}
}
