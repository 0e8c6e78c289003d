package ros_test

import (
	"bytes"
	"strings"
	"testing"

	roswireros "github.com/phaser-go/phaser/internal/testpb/roswire/roswireros/roswirephaser"
)

// TestAssignROSFrontend checks the generated Assign of a frontend=ros
// message (its layout is the ROS frontend's) against Clear and every
// setter, value after value, in an owned and a fixed buffer: the payloads
// are the same bytes, on Assign's straight line (strings that fit the
// blocks held) and off it (strings that outgrow them, empty ones).
func TestAssignROSFrontend(t *testing.T) {
	slow := func(x roswireros.Scalars, v *roswireros.ScalarsFields) {
		x.Clear()
		x.SetFDouble(v.FDouble)
		x.SetFFloat(v.FFloat)
		x.SetFInt32(v.FInt32)
		x.SetFInt64(v.FInt64)
		x.SetFUint32(v.FUint32)
		x.SetFUint64(v.FUint64)
		x.SetFSint32(v.FSint32)
		x.SetFSint64(v.FSint64)
		x.SetFFixed32(v.FFixed32)
		x.SetFFixed64(v.FFixed64)
		x.SetFSfixed32(v.FSfixed32)
		x.SetFSfixed64(v.FSfixed64)
		x.SetFBool(v.FBool)
		x.SetFString(v.FString)
		x.SetFBytes(v.FBytes)
	}
	for _, fixed := range []bool{false, true} {
		mk := func() roswireros.Scalars {
			if !fixed {
				return roswireros.NewScalars()
			}
			x, err := roswireros.NewScalarsIn(make([]byte, 2048))
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
		a, b := mk(), mk()
		for i, n := range []int{12, 12, 5, 30, 0, 9, 40, 3, 16} {
			v := roswireros.ScalarsFields{FDouble: float64(i) / 7, FInt32: int32(-i), FUint64: uint64(i) << 50, FBool: i%2 == 0,
				FString: strings.Repeat("s", n), FBytes: []byte(strings.Repeat("b", (n*3)%20))}
			a.Assign(&v)
			slow(b, &v)
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("fixed %v, value %d: Assign's payload differs from Clear and the setters':\n%x\n%x", fixed, i, a.Bytes(), b.Bytes())
			}
			if a.FString() != v.FString || string(a.FBytes()) != string(v.FBytes) || a.FInt32() != v.FInt32 {
				t.Fatalf("fixed %v, value %d: reads %q %q %d", fixed, i, a.FString(), a.FBytes(), a.FInt32())
			}
		}
	}
}
