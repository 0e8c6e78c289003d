package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// phaser-assign: phaser's build through the generated Assign, which is
// Clear and every field's setter in one call (one straight line at
// compile-time offsets when the strings fit the blocks the message holds).
// The generator makes Assign for messages of singular scalars, strings and
// bytes only: of the bench shapes, small.

// phAssignSmall is phSetSmall after a Clear, through Assign.
func phAssignSmall(x pbphaser.SmallStruct, v *Small) {
	x.Assign(&pbphaser.SmallStructFields{Name: v.Name, BirthDay: v.BirthDay, Phone: v.Phone, Siblings: v.Siblings, Spouse: v.Spouse, Money: v.Money})
}

// phaserAssignSmallCodec is phaser-assign for SmallStruct: build in a warm
// fixed buffer as phaser's Build (Assign, then Bytes), read as phaser's.
//
//go:noinline
func phaserAssignSmallCodec(shape string, vals []Small) func() *Codec {
	return func() *Codec {
		warm := phaserNew(shape, pbphaser.NewSmallStructIn, nil)
		rp := new(runtime.Payload)
		return &Codec{
			Build: func(i int) []byte {
				phAssignSmall(warm, &vals[i])
				return warm.Bytes()
			},
			Decode: phaserDecoder(pbphaser.ReadSmallStruct, phGetSmall),
			ReadAll: func(data []byte) uint64 {
				x, err := pbphaser.ReadSmallStructInto(rp, data)
				if err != nil {
					return 0
				}
				return phAllSmall(x)
			},
		}
	}
}
