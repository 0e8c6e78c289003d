package testpbphaser_test

import (
	"testing"

	"github.com/phaser-go/phaser/runtime"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// TestReadIntoAllocs: a reader of many payloads reuses one Payload and
// allocates nothing per payload.
func TestReadIntoAllocs(t *testing.T) {
	x := pb.NewScalars()
	x.SetFInt64(42)
	x.SetFString("hello")
	data := x.Bytes()
	var p runtime.Payload
	var sum int64
	if n := testing.AllocsPerRun(200, func() {
		y, err := pb.ReadScalarsInto(&p, data)
		if err != nil {
			t.Fatal(err)
		}
		sum += y.FInt64() + int64(len(y.FStringBytes()))
	}); n != 0 {
		t.Errorf("ReadScalarsInto + reads: %v allocs/op, want 0", n)
	}
	if sum != 201*47 {
		t.Errorf("read sum %d", sum)
	}
}
