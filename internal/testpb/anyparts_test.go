package testpb_test

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/runtime"
)

// TestAnyInParts checks, against protobuf-go, an Any that arrives in two
// parts (a message field that occurs twice merges; the last type URL and
// value win): a value of a registered type then one of a type the program
// does not know, the other way round, two unknown ones, and an empty
// value last, each part with an unknown field of its own.
func TestAnyInParts(t *testing.T) {
	registerAll(t)
	inner := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 7) // Inner{a: 7}
	known := "type.googleapis.com/phasertest.Inner"
	unknown := "type.googleapis.com/elsewhere.Thing"
	part := func(url string, value []byte, extra uint64) []byte {
		var b []byte
		b = protowire.AppendBytes(protowire.AppendTag(b, 1, protowire.BytesType), []byte(url))
		b = protowire.AppendBytes(protowire.AppendTag(b, 2, protowire.BytesType), value)
		b = protowire.AppendVarint(protowire.AppendTag(b, 15, protowire.VarintType), extra)
		return protowire.AppendBytes(protowire.AppendTag(nil, 50, protowire.BytesType), b)
	}
	for _, c := range []struct {
		name   string
		first  []byte
		second []byte
	}{
		{"known then unknown", part(known, inner, 1), part(unknown, []byte("abc"), 2)},
		{"unknown then known", part(unknown, []byte("abc"), 1), part(known, inner, 2)},
		{"unknown then unknown", part(unknown, []byte("abc"), 1), part(unknown, []byte("de"), 2)},
		{"unknown then empty", part(unknown, []byte("abc"), 1), part(unknown, nil, 2)},
		{"known then empty", part(known, inner, 1), part(unknown, nil, 2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			differential(t, &testpb.Everything{}, append(append([]byte(nil), c.first...), c.second...), runtime.Options{})
		})
	}
}
