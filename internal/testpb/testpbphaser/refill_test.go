package testpbphaser_test

import (
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// refillScalars writes the fields a refill writes again.
func refillScalars(x pb.Scalars, i int) {
	x.SetFString("rover-7 left wing")
	x.SetFBytes([]byte("0123456789"))
	x.SetFInt64(int64(i))
	x.SetFDouble(float64(i) / 2)
	x.SetFBool(i%2 == 0)
}

// TestRefillInPlace writes the same shape into one message again without
// Clear: the strings are overwritten in their blocks, so the payload does
// not grow, and allocates nothing.
func TestRefillInPlace(t *testing.T) {
	x := must(pb.NewScalarsIn(make([]byte, 4096)))
	refillScalars(x, 0)
	n := len(x.Bytes())
	if allocs := testing.AllocsPerRun(100, func() { refillScalars(x, 1) }); allocs != 0 {
		t.Errorf("refill: %v allocations", allocs)
	}
	if len(x.Bytes()) != n || x.FInt64() != 1 || x.FString() != "rover-7 left wing" {
		t.Errorf("refill: %d payload bytes (first fill %d), f_int64 %d", len(x.Bytes()), n, x.FInt64())
	}
}

// BenchmarkRefill compares a refill of the same shape with Clear before it
// (the payload reset to its creation image, every string allocated again)
// and without (the strings overwritten in place).
func BenchmarkRefill(b *testing.B) {
	for _, clear := range []bool{true, false} {
		name := "in-place"
		if clear {
			name = "clear"
		}
		b.Run(name, func(b *testing.B) {
			x, err := pb.NewScalarsIn(make([]byte, 4096))
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				if clear {
					x.Clear()
				}
				refillScalars(x, i)
				i++
			}
		})
	}
}
