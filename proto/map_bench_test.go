package proto_test

import (
	"fmt"
	"testing"

	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/proto"
)

// BenchmarkAppendMap writes a message holding two maps of 16 entries, one
// of scalars and one of messages.
func BenchmarkAppendMap(b *testing.B) {
	e := testpbphaser.NewEverything()
	for i := range 16 {
		kv := e.Counts().Append()
		kv.SetKey(fmt.Sprint("key", i))
		kv.SetValue(int32(i * 1000))
		byID := e.ById().Append()
		byID.SetKey(int64(i))
		byID.MutableValue().SetA(int32(i))
		byID.MutableValue().SetS("inner")
	}
	buf, err := proto.Append(nil, e.Msg(), e.PhaserType())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = proto.Append(buf[:0], e.Msg(), e.PhaserType())
	}
}
