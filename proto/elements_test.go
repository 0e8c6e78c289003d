package proto_test

import (
	"bytes"
	"fmt"
	"testing"

	protogo "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// TestRepeatedMessageElements checks Append and Size against protobuf-go
// for repeated message fields and maps whose lengths end inside and at the
// edges of the chunks of a v3 message vector (2, 4, 8, 16, ... elements),
// in v3 and v2: every element is distinct, so one skipped, written twice or
// out of order changes the bytes.
func TestRepeatedMessageElements(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		for _, n := range []int{0, 1, 2, 3, 5, 6, 7, 13, 14, 15, 29, 30, 31, 40} {
			m := testpbphaser.NewEverything(runtime.Options{Version: v})
			want := &testpb.Everything{Counts: map[string]int32{}, ById: map[int64]*testpb.Inner{}}
			for i := range n {
				in := m.Inners().Append()
				in.SetA(int32(i + 1))
				in.SetS(fmt.Sprint("inner ", i))
				want.Inners = append(want.Inners, &testpb.Inner{A: int32(i + 1), S: fmt.Sprint("inner ", i)})

				m.Ats().Append().SetSeconds(int64(1000 + i))
				want.Ats = append(want.Ats, &timestamppb.Timestamp{Seconds: int64(1000 + i)})

				// Keys in reverse order, so that the map is sorted.
				kv := m.Counts().Append()
				kv.SetKey(fmt.Sprintf("k%03d", n-i))
				kv.SetValue(int32(i + 1))
				want.Counts[fmt.Sprintf("k%03d", n-i)] = int32(i + 1)
				byID := m.ById().Append()
				byID.SetKey(int64(3 * (n - i)))
				byID.MutableValue().SetA(int32(i + 1))
				want.ById[int64(3*(n-i))] = &testpb.Inner{A: int32(i + 1)}
			}
			wantB, err := protogo.MarshalOptions{Deterministic: true}.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := proto.Append(nil, m.Msg(), m.PhaserType())
			if err != nil {
				t.Fatalf("v%d, %d elements: %v", v, n, err)
			}
			if !bytes.Equal(got, wantB) {
				t.Fatalf("v%d, %d elements: Append\n got %x\nwant %x", v, n, got, wantB)
			}
			if size, err := proto.Size(m.Msg(), m.PhaserType()); err != nil || size != len(wantB) {
				t.Fatalf("v%d, %d elements: Size = %d, %v; want %d", v, n, size, err, len(wantB))
			}
		}
	}
}

// TestUnmarshalResetsRoot checks that Unmarshal into a used v3 root starts
// from the root's creation image (Clear's reset, docs/format.md) rather
// than clearing field by field: its payload is then as long as that of the
// same Unmarshal into a new message, where freeing every field would have
// left the freed blocks behind. (The bytes may differ in free memory.)
func TestUnmarshalResetsRoot(t *testing.T) {
	full, small := testpbphaser.NewEverything(), testpbphaser.NewEverything()
	for i := range 40 {
		full.Inners().Append().SetS(fmt.Sprint("inner ", i))
		full.Counts().Append().SetKey(fmt.Sprint("key ", i))
	}
	full.MutableAny()
	small.Inners().Append().SetA(1)
	fullB, err := proto.Marshal(full.Msg(), full.PhaserType())
	if err != nil {
		t.Fatal(err)
	}
	smallB, err := proto.Marshal(small.Msg(), small.PhaserType())
	if err != nil {
		t.Fatal(err)
	}
	fresh := testpbphaser.NewEverything()
	if err := proto.Unmarshal(smallB, fresh.Msg(), fresh.PhaserType()); err != nil {
		t.Fatal(err)
	}
	used := testpbphaser.NewEverything()
	for _, b := range [][]byte{fullB, smallB} {
		if err := proto.Unmarshal(b, used.Msg(), used.PhaserType()); err != nil {
			t.Fatal(err)
		}
	}
	if len(used.Msg().PayloadBytes()) != len(fresh.Msg().PayloadBytes()) {
		t.Fatalf("Unmarshal into a used root left %d payload bytes, into a new one %d", len(used.Msg().PayloadBytes()), len(fresh.Msg().PayloadBytes()))
	}
}
