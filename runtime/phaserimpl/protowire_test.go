package phaserimpl_test

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// TestValidUTF8 checks the short-string fast path of ValidUTF8 against
// unicode/utf8 for every length up to 40 with a non-ASCII byte, a bad
// byte or none at each position.
func TestValidUTF8(t *testing.T) {
	for n := range 41 {
		for pos := -1; pos < n; pos++ {
			for _, c := range []string{"é", "\xff", "\xc3"} {
				s := make([]byte, 0, n+2)
				for i := range n {
					if i == pos {
						s = append(s, c...)
						continue
					}
					s = append(s, 'a'+byte(i%26))
				}
				if got, want := phaserimpl.ValidUTF8(s), utf8.Valid(s); got != want {
					t.Fatalf("ValidUTF8(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}

// TestZigzag checks the zigzag helpers against protowire's definition.
func TestZigzag(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 2, -2, 1 << 31, -1 << 31, 1<<31 - 1, 1<<63 - 1, -1 << 63} {
		if got, want := phaserimpl.Zigzag64(uint64(v)), uint64(v<<1)^uint64(v>>63); got != want {
			t.Errorf("Zigzag64(%d) = %d, want %d", v, got, want)
		}
		if got := phaserimpl.Unzigzag64(phaserimpl.Zigzag64(uint64(v))); got != uint64(v) {
			t.Errorf("Unzigzag64(Zigzag64(%d)) = %d", v, int64(got))
		}
		v32 := int32(v)
		if got, want := phaserimpl.Zigzag32(uint32(v32)), uint64(uint32(v32<<1)^uint32(v32>>31)); got != want {
			t.Errorf("Zigzag32(%d) = %d, want %d", v32, got, want)
		}
		if got := phaserimpl.Unzigzag32(phaserimpl.Zigzag32(uint32(v32)) | 1<<40); got != uint32(v32) {
			t.Errorf("Unzigzag32 of %d with high bits set = %d", v32, int32(got))
		}
	}
}

// TestConsumeVarintAt checks ConsumeVarintAt and ConsumeTagAt against
// protowire.ConsumeVarint at every offset of inputs that hold varints of
// every length (overlong ones, a tenth byte of every value, the ends of
// truncated ones) followed by nothing, by more varints or by junk, alone
// and after 8 bytes of other varints.
func TestConsumeVarintAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var inputs [][]byte
	for bitsLen := 0; bitsLen <= 64; bitsLen++ {
		for range 8 {
			v := rng.Uint64()
			if bitsLen < 64 {
				v &= 1<<bitsLen - 1
			}
			b := protowire.AppendVarint(nil, v)
			inputs = append(inputs, b, append(b, 0x80, 0x01), append(b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
			for n := range b {
				inputs = append(inputs, b[:n]) // truncated
			}
		}
	}
	for last := range 256 { // the tenth byte
		b := append(bytes.Repeat([]byte{0x80}, 9), byte(last))
		inputs = append(inputs, b, append(b, 0x01))
	}
	for n := 1; n <= 11; n++ { // overlong zeros
		b := append(bytes.Repeat([]byte{0x80}, n-1), 0x00)
		inputs = append(inputs, b, append(bytes.Repeat([]byte{0x01}, 3), b...))
	}
	for _, b := range inputs[:len(inputs):len(inputs)] {
		// After 8 bytes of one-byte varints, a varint near the end is
		// decoded from a load of the input's last 8 bytes.
		inputs = append(inputs, append(bytes.Repeat([]byte{0x05}, 8), b...))
	}
	for _, b := range inputs {
		checkVarintAt(t, b)
	}
}

// checkVarintAt checks ConsumeVarintAt and ConsumeTagAt against
// protowire.ConsumeVarint at every offset of b.
func checkVarintAt(t *testing.T, b []byte) {
	t.Helper()
	for i := 0; i <= len(b); i++ {
		v, n := protowire.ConsumeVarint(b[i:])
		want, wantN := uint64(0), n
		if n >= 0 {
			want, wantN = v, i+n
		}
		if got, gotN := phaserimpl.ConsumeVarintAt(b, i); got != want || gotN != wantN {
			t.Fatalf("ConsumeVarintAt(% x, %d) = %d, %d; want %d, %d", b, i, got, gotN, want, wantN)
		}
		if got, gotN := phaserimpl.ConsumeTagAt(b, i); got != want || gotN != wantN {
			t.Fatalf("ConsumeTagAt(% x, %d) = %d, %d; want %d, %d", b, i, got, gotN, want, wantN)
		}
	}
}

// TestConsumeBytesAt checks ConsumeBytesAt against protowire.ConsumeBytes
// at every offset, lengths of one and more bytes, truncated or not.
func TestConsumeBytesAt(t *testing.T) {
	var inputs [][]byte
	for _, n := range []int{0, 1, 5, 127, 128, 300} {
		b := protowire.AppendBytes(nil, bytes.Repeat([]byte{0xab}, n))
		for k := 0; k <= len(b); k++ {
			inputs = append(inputs, b[:k], append(b[:k:k], 0x05, 0x00))
		}
	}
	for _, b := range inputs {
		for i := 0; i <= len(b); i++ {
			v, n := protowire.ConsumeBytes(b[i:])
			start, end := phaserimpl.ConsumeBytesAt(b, i)
			switch {
			case n < 0:
				if end != n {
					t.Fatalf("ConsumeBytesAt(% x, %d) = %d, %d; want an error %d", b, i, start, end, n)
				}
			case end != i+n || !bytes.Equal(b[start:end], v):
				t.Fatalf("ConsumeBytesAt(% x, %d) = %d, %d; want the value % x ending at %d", b, i, start, end, v, i+n)
			}
		}
	}
}

// FuzzConsumeVarintAt checks ConsumeVarintAt and ConsumeTagAt against
// protowire at every offset of any input.
func FuzzConsumeVarintAt(f *testing.F) {
	f.Add([]byte{0x96, 0x01})
	f.Add([]byte{0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add(bytes.Repeat([]byte{0xff}, 12))
	f.Fuzz(checkVarintAt)
}
