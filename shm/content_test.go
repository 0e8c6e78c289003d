//go:build linux && (amd64 || arm64)

package shm

import (
	"fmt"
	"math"
	"strconv"

	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// The test messages: every field of a testpb.Scalars derived from the
// publisher run and the sequence number, so that a subscriber can tell a
// message from another run, another sequence number or a mix of two.

var scalarsType = testpbphaser.Scalars{}.PhaserType().Name()

const testSlotSize = 1024

func patternLen(seq uint64) int { return int(seq*37) % 601 }

func patternByte(run, seq uint64, i int) byte { return byte(seq*31 + run*7 + uint64(i)*13) }

// build builds message seq of run in slot and returns its payload length.
func build(slot []byte, run, seq uint64) (int, error) {
	x, err := testpbphaser.NewScalarsIn(slot)
	if err != nil {
		return 0, err
	}
	x.SetFInt64(int64(seq))
	x.SetFUint64(run)
	x.SetFDouble(float64(seq) / 3)
	x.SetFString("run " + strconv.FormatUint(run, 10) + " msg " + strconv.FormatUint(seq, 10))
	b := x.AllocateFBytes(patternLen(seq))
	for i := range b {
		b[i] = patternByte(run, seq, i)
	}
	x.SetFFixed32(uint32(seq) ^ 0xa5a5a5a5)
	if x.Failed() {
		return 0, x.Err()
	}
	return len(x.Bytes()), nil
}

// verify checks that data is message seq of run, reading it in place with
// the generated reader; it returns a description of the first difference.
func verify(p *runtime.Payload, data []byte, run, seq uint64) error {
	x, err := testpbphaser.ReadScalarsInto(p, data)
	if err != nil {
		return err
	}
	if got := x.FInt64(); got != int64(seq) {
		return fmt.Errorf("f_int64 %d", got)
	}
	if got := x.FUint64(); got != run {
		return fmt.Errorf("f_uint64 (run) %d", got)
	}
	if got := x.FDouble(); math.Float64bits(got) != math.Float64bits(float64(seq)/3) {
		return fmt.Errorf("f_double %v", got)
	}
	want := "run " + strconv.FormatUint(run, 10) + " msg " + strconv.FormatUint(seq, 10)
	if got := x.FStringBytes(); string(got) != want {
		return fmt.Errorf("f_string %q", got)
	}
	b := x.FBytesBytes()
	if len(b) != patternLen(seq) {
		return fmt.Errorf("f_bytes of %d bytes, want %d", len(b), patternLen(seq))
	}
	for i := range b {
		if b[i] != patternByte(run, seq, i) {
			return fmt.Errorf("f_bytes[%d] = %#x", i, b[i])
		}
	}
	if got := x.FFixed32(); got != uint32(seq)^0xa5a5a5a5 {
		return fmt.Errorf("f_fixed32 %#x", got)
	}
	return nil
}
