package proto_test

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/proto"
)

// TestPackedRecords checks packed repeated scalars: a record appends its
// elements to those before it, and a malformed record is an error that
// leaves the field with the elements of the records before it.
func TestPackedRecords(t *testing.T) {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType) // r_double
	b = protowire.AppendBytes(b, protowire.AppendFixed64(protowire.AppendFixed64(nil, 0x3ff0000000000000), 0x4000000000000000))
	b = protowire.AppendTag(b, 3, protowire.BytesType) // r_int32
	b = protowire.AppendBytes(b, protowire.AppendVarint(protowire.AppendVarint(nil, uint64(1<<64-5)), 300))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, protowire.AppendVarint(nil, 7))
	b = protowire.AppendTag(b, 13, protowire.BytesType) // r_bool
	b = protowire.AppendBytes(b, []byte{1, 0, 1})

	r := testpbphaser.NewRepeated()
	if err := proto.Unmarshal(b, r.Msg()); err != nil {
		t.Fatal(err)
	}
	if got := r.RDouble(); got.Len() != 2 || got.At(0) != 1 || got.At(1) != 2 {
		t.Errorf("r_double: %v", collect(got.Len(), got.At))
	}
	if got := r.RInt32(); got.Len() != 3 || got.At(0) != -5 || got.At(1) != 300 || got.At(2) != 7 {
		t.Errorf("r_int32: %v", collect(got.Len(), got.At))
	}
	if got := r.RBool(); got.Len() != 3 || !got.At(0) || got.At(1) || !got.At(2) {
		t.Errorf("r_bool: %v", collect(got.Len(), got.At))
	}

	for _, bad := range []struct {
		name   string
		record []byte // a field 3 (int32) or 1 (double) record
		num    protowire.Number
	}{
		{"truncated varint", []byte{0x05, 0x80}, 3},
		{"overlong varint", append([]byte{0x01}, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), 3},
		{"partial double", append(protowire.AppendFixed64(nil, 0), 1, 2, 3), 1},
	} {
		in := protowire.AppendTag(nil, bad.num, protowire.BytesType)
		if bad.num == 1 {
			in = protowire.AppendBytes(in, protowire.AppendFixed64(nil, 9))
		} else {
			in = protowire.AppendBytes(in, protowire.AppendVarint(nil, 9))
		}
		in = protowire.AppendTag(in, bad.num, protowire.BytesType)
		in = protowire.AppendBytes(in, bad.record)
		r := testpbphaser.NewRepeated()
		err := proto.Unmarshal(in, r.Msg())
		if !errors.Is(err, proto.ErrInvalid) {
			t.Errorf("%s: error %v, want ErrInvalid", bad.name, err)
		}
		n := r.RInt32().Len()
		if bad.num == 1 {
			n = r.RDouble().Len()
		}
		if n != 1 {
			t.Errorf("%s: %d elements after the error, want the 1 of the record before", bad.name, n)
		}
	}
}

func collect[T any](n int, at func(int) T) []T {
	var out []T
	for i := range n {
		out = append(out, at(i))
	}
	return out
}
