package proto_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
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
			got, err := proto.Append(nil, m.Msg())
			if err != nil {
				t.Fatalf("v%d, %d elements: %v", v, n, err)
			}
			if !bytes.Equal(got, wantB) {
				t.Fatalf("v%d, %d elements: Append\n got %x\nwant %x", v, n, got, wantB)
			}
			if size, err := proto.Size(m.Msg()); err != nil || size != len(wantB) {
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
	fullB, err := proto.Marshal(full.Msg())
	if err != nil {
		t.Fatal(err)
	}
	smallB, err := proto.Marshal(small.Msg())
	if err != nil {
		t.Fatal(err)
	}
	fresh := testpbphaser.NewEverything()
	if err := proto.Unmarshal(smallB, fresh.Msg()); err != nil {
		t.Fatal(err)
	}
	used := testpbphaser.NewEverything()
	for _, b := range [][]byte{fullB, smallB} {
		if err := proto.Unmarshal(b, used.Msg()); err != nil {
			t.Fatal(err)
		}
	}
	if len(used.Msg().Bytes()) != len(fresh.Msg().Bytes()) {
		t.Fatalf("Unmarshal into a used root left %d payload bytes, into a new one %d", len(used.Msg().Bytes()), len(fresh.Msg().Bytes()))
	}
}

// TestUnmarshalInterleavedMessages parses long repeated message fields whose
// elements arrive interleaved with each other's and with scalars and a
// singular message that merges (what makes Unmarshal's appender go back to
// the full path), in both formats, owned and in fixed buffers that fill up
// on the way: what parses reads back as protobuf-go parses the same bytes,
// and a full buffer keeps the elements parsed before the failure.
func TestUnmarshalInterleavedMessages(t *testing.T) {
	const n = 3000
	var wire []byte
	elem := func(num protowire.Number, m protogo.Message) {
		b, err := protogo.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		wire = protowire.AppendTag(wire, num, protowire.BytesType)
		wire = protowire.AppendBytes(wire, b)
	}
	for i := range n {
		in := &testpb.Inner{A: int32(i + 1)}
		if i%3 == 0 {
			in.S = fmt.Sprint("inner ", i)
		}
		elem(7, in) // inners
		switch {
		case i%97 == 0:
			elem(3, &testpb.Inner{S: fmt.Sprint("merged ", i)}) // inner, singular
		case i%13 == 0:
			elem(14, &testpb.Empty{}) // empties
		case i%11 == 0:
			wire = protowire.AppendTag(wire, 30, protowire.VarintType) // opt_int32
			wire = protowire.AppendVarint(wire, uint64(i))
		}
		if i > n-40 && i%2 == 0 {
			elem(14, &testpb.Empty{})
		}
	}
	want := &testpb.Everything{}
	if err := protogo.Unmarshal(wire, want); err != nil {
		t.Fatal(err)
	}
	wantB, err := protogo.MarshalOptions{Deterministic: true}.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		m := testpbphaser.NewEverything(runtime.Options{Version: v})
		if err := proto.Unmarshal(wire, m.Msg()); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		got, err := proto.Marshal(m.Msg())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantB) {
			t.Fatalf("%s: Marshal after Unmarshal differs from protobuf-go's", v)
		}
		full := len(m.Msg().Bytes())
		partial := 0
		for size := 4096; size < full+4096; size += 1531 {
			mem := make([]byte, size)
			fm, err := testpbphaser.NewEverythingIn(mem, runtime.Options{Version: v})
			if err != nil {
				t.Fatal(err)
			}
			err = proto.Unmarshal(wire, fm.Msg())
			k := fm.Inners().Len()
			if err != nil {
				if !errors.Is(err, runtime.ErrFull) {
					t.Fatalf("%s size %d: %v, want ErrFull", v, size, err)
				}
				if k > 0 && k < n {
					partial++
				}
			} else if k != n {
				t.Fatalf("%s size %d: %d inners, want %d", v, size, k, n)
			}
			for i, e := range fm.Inners().All() {
				if i == k-1 && err != nil {
					break // the element the buffer filled up in
				}
				if e.A() != want.Inners[i].A || e.S() != want.Inners[i].S {
					t.Fatalf("%s size %d: inner %d of %d reads {%d %q}, want {%d %q}", v, size, i, k, e.A(), e.S(), want.Inners[i].A, want.Inners[i].S)
				}
			}
		}
		if partial == 0 {
			t.Errorf("%s: no buffer filled up in the middle of the inners", v)
		}
	}
}
