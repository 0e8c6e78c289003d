//go:build !race

// The race detector reports what this test does on purpose (a goroutine
// writing the bytes Unmarshal reads); scripts/test runs it without it.

package proto_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// TestUnmarshalTorn parses a packed record whose varints another goroutine
// changes, so that the count of its first pass and the elements of its
// second disagree: Unmarshal must not index past the room the first pass
// made (it panicked).
func TestUnmarshalTorn(t *testing.T) {
	typ := fileDescriptorType(t)
	// public_dependency (10, repeated int32) as one packed record of four
	// one-byte varints; byte 3 toggles between 0x01 and 0x81, which joins
	// two of them.
	data := []byte{0x52, 0x04, 0x01, 0x01, 0x01, 0x01}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// One store per iteration, chosen by the counter (two in a row
		// would be one: the compiler drops the first).
		for i := 0; !stop.Load(); i++ {
			data[3] = 0x01 | byte(i&1)<<7
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	m := runtime.New(typ)
	for range 1_000_000 {
		m.Clear()
		_ = proto.Unmarshal(data, m)
	}
}
