package testpbphaser_test

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/testpb"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// mapContent returns what Range gives of m, checking that it yields each
// key once.
func mapContent(t *testing.T, m pb.Everything_CountsEntryMap) map[string]int32 {
	t.Helper()
	got := map[string]int32{}
	m.Range(func(k string, v int32) bool {
		if _, dup := got[k]; dup {
			t.Errorf("Range yielded key %q twice", k)
		}
		got[k] = v
		return true
	})
	return got
}

// TestMapRandomOps applies random Set and Delete operations to a map
// field and to a Go map: Get, Len and Range agree with the Go map after
// every operation, and the payload marshals to protobuf-go's bytes of the
// same map.
func TestMapRandomOps(t *testing.T) {
	for _, mk := range makers(pb.NewEverything, pb.NewEverythingIn) {
		t.Run(mk.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 11))
			x := mk.new(t)
			m := x.Counts().Map()
			model := map[string]int32{}
			for op := range 400 {
				k := fmt.Sprintf("k%d", rng.IntN(12))
				if rng.IntN(3) == 0 {
					_, had := model[k]
					delete(model, k)
					if m.Delete(k) != had {
						t.Fatalf("op %d: Delete(%q) = %v, want %v", op, k, !had, had)
					}
				} else {
					v := rng.Int32N(1000) - 500
					model[k] = v
					m.Set(k, v)
				}
				if v, ok := m.Get(k); v != model[k] || ok != has(model, k) {
					t.Fatalf("op %d: Get(%q) = %d, %v, want %d", op, k, v, ok, model[k])
				}
				if m.Len() != len(model) || x.Counts().Len() != len(model) {
					t.Fatalf("op %d: Len %d, %d entries, want %d", op, m.Len(), x.Counts().Len(), len(model))
				}
			}
			if got := mapContent(t, m); !maps.Equal(got, model) {
				t.Fatalf("Range = %v, want %v", got, model)
			}
			if x.Failed() {
				t.Fatal(x.Err())
			}
			got, err := x.MarshalProto()
			want, err2 := proto.MarshalOptions{Deterministic: true}.Marshal(&testpb.Everything{Counts: model})
			if err != nil || err2 != nil {
				t.Fatal(err, err2)
			}
			// Entry order differs from protobuf-go's sorted keys: compare
			// the parsed messages.
			back := &testpb.Everything{}
			if err := proto.Unmarshal(got, back); err != nil || !maps.Equal(back.Counts, model) || len(got) != len(want) {
				t.Errorf("MarshalProto parses to %v (%v), %d bytes; want %v, %d bytes", back.Counts, err, len(got), model, len(want))
			}
		})
	}
}

func has(m map[string]int32, k string) bool { _, ok := m[k]; return ok }

// TestMapDuplicateKeys reads protobuf bytes that repeat a key, as a
// protobuf writer may: the entries are stored as they arrive (as C++
// Phaser stores them), and key access keeps the last value, as protobuf-go
// does.
func TestMapDuplicateKeys(t *testing.T) {
	entry := func(k string, v int32) []byte {
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendString(e, k)
		e = protowire.AppendTag(e, 2, protowire.VarintType)
		e = protowire.AppendVarint(e, uint64(v))
		return protowire.AppendBytes(protowire.AppendTag(nil, 40, protowire.BytesType), e)
	}
	in := bytes.Join([][]byte{entry("a", 1), entry("b", 2), entry("a", 3)}, nil)
	ref := &testpb.Everything{}
	if err := proto.Unmarshal(in, ref); err != nil {
		t.Fatal(err)
	}
	x := pb.NewEverything()
	if err := x.UnmarshalProto(in); err != nil {
		t.Fatal(err)
	}
	m := x.Counts().Map()
	if x.Counts().Len() != 3 {
		t.Errorf("%d entries stored, want the 3 received", x.Counts().Len())
	}
	if v, ok := m.Get("a"); v != 3 || !ok || m.Len() != 2 {
		t.Errorf("Get(a) = %d, %v, Len %d; want 3, true, 2", v, ok, m.Len())
	}
	if got := mapContent(t, m); !maps.Equal(got, ref.Counts) {
		t.Errorf("Range = %v, protobuf-go keeps %v", got, ref.Counts)
	}
	// Set writes the last entry of the key; Delete removes them all.
	m.Set("a", 4)
	if x.Counts().At(2).Value() != 4 || x.Counts().At(0).Value() != 1 || x.Counts().Len() != 3 {
		t.Error("Set of a repeated key did not write its last entry only")
	}
	if !m.Delete("a") || m.Delete("a") || x.Counts().Len() != 1 || m.Len() != 1 {
		t.Errorf("Delete of a repeated key left %d entries", x.Counts().Len())
	}
	if _, ok := m.Get("zz"); ok {
		t.Error("Get of a missing key reports it present")
	}
}

// TestMapMessageValues checks Mutable and Get of a map with message
// values.
func TestMapMessageValues(t *testing.T) {
	x := pb.NewEverything()
	m := x.ById().Map()
	m.Mutable(7).SetA(70)
	m.Mutable(-1).SetS("minus one")
	m.Mutable(7).SetS("seven") // the same entry
	if x.ById().Len() != 2 {
		t.Fatalf("%d entries, want 2", x.ById().Len())
	}
	if v, ok := m.Get(7); !ok || v.A() != 70 || v.S() != "seven" {
		t.Errorf("Get(7) = %v, %v", v, ok)
	}
	if v, ok := m.Get(8); ok || v.IsPresent() {
		t.Error("Get of a missing key")
	}
	want := &testpb.Everything{ById: map[int64]*testpb.Inner{7: {A: 70, S: "seven"}, -1: {S: "minus one"}}}
	if !proto.Equal(x, want) {
		t.Errorf("payload %v, want %v", x, want)
	}
}

func Example_mapKeyAccess() {
	x := pb.NewEverything()
	counts := x.Counts().Map()
	counts.Set("apples", 3)
	counts.Set("pears", 5)
	counts.Set("apples", 4) // overwrites: the map has one entry per key
	v, ok := counts.Get("apples")
	fmt.Println(v, ok, counts.Len())
	counts.Delete("pears")
	counts.Range(func(k string, v int32) bool {
		fmt.Println(k, v)
		return true
	})
	// Output:
	// 4 true 2
	// apples 4
}
