package testpbprotogo_test

import (
	"math/rand/v2"
	"testing"

	gproto "google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/internal/testpb/testpbprotogo"
)

// TestFromToProto converts protoc-gen-go messages into Phaser payloads with
// the generated FromProto (option protogo) and back with the typed ToProto.
func TestFromToProto(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		src := &testpb.Scalars{
			FInt32:  rng.Int32(),
			FInt64:  rng.Int64(),
			FSint32: -rng.Int32(),
			FDouble: rng.Float64(),
			FUint64: rng.Uint64(),
		}
		x := testpbprotogo.NewScalars()
		if err := x.FromProto(src); err != nil {
			t.Fatal(err)
		}
		if x.FInt64() != src.FInt64 || x.FSint32() != src.FSint32 {
			t.Fatalf("seed %d: FromProto wrote %d %d", seed, x.FInt64(), x.FSint32())
		}
		back, err := x.ToProto()
		if err != nil {
			t.Fatal(err)
		}
		if !gproto.Equal(back, src) {
			t.Fatalf("seed %d: round trip %v, want %v", seed, back, src)
		}
	}
}
