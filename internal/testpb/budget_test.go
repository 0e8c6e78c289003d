package testpb_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	phaserproto "github.com/phaser-go/phaser/proto"
)

// TestEncodersBudget: a payload whose repeated string elements all name
// one 4,000-byte string (a 16 KB payload that would encode to 4 MB) gives
// ErrBudget from the generated and the interpreted encoders, not output
// the payload cannot justify; the same message with its strings apart
// encodes.
func TestEncodersBudget(t *testing.T) {
	const n = 1000
	d := testpbphaser.NewInner_Deep()
	d.SetX(1)
	names := d.Names()
	names.Append(strings.Repeat("x", 4000))
	for range n - 1 {
		names.Append("a")
	}
	if _, err := d.MarshalProto(); err != nil {
		t.Fatalf("MarshalProto of the honest payload: %v", err)
	}
	dyn := impl.Dynamic(d.Msg())
	f := dyn.Type().FieldByName("names")
	m := dyn.Msg()
	data := bytes.Clone(m.PayloadBytes())
	big := binary.LittleEndian.Uint32(data[m.Elem(f.Field, 0, 4):])
	for i := 1; i < n; i++ {
		binary.LittleEndian.PutUint32(data[m.Elem(f.Field, i, 4):], big)
	}
	r, err := testpbphaser.ReadInner_Deep(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names().Len(); got != n {
		t.Fatalf("the patched payload reads %d names, want %d", got, n)
	}
	bound := 6 * (len(data) + 4096)
	for name, marshal := range map[string]func() ([]byte, error){
		"generated MarshalProto": r.MarshalProto,
		"proto.Marshal":          func() ([]byte, error) { return phaserproto.Marshal(r.Msg()) },
		"generated AppendProto":  func() ([]byte, error) { return r.AppendProto(nil) },
	} {
		out, err := marshal()
		if !errors.Is(err, phaserproto.ErrBudget) {
			t.Errorf("%s of a payload of shared strings: %d bytes, %v; want ErrBudget", name, len(out), err)
		}
		if len(out) > bound {
			t.Errorf("%s wrote %d bytes from a %d-byte payload", name, len(out), len(data))
		}
	}
	if n := r.ProtoSize(); n > bound {
		t.Errorf("generated ProtoSize = %d from a %d-byte payload", n, len(data))
	}
	if _, err := phaserproto.Size(r.Msg()); !errors.Is(err, phaserproto.ErrBudget) {
		t.Errorf("proto.Size of a payload of shared strings: %v; want ErrBudget", err)
	}
}
