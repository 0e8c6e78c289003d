// Package assigntest holds what the differential tests of the generated
// Assign share: two roots go through the same operations, one calling
// Assign where the other calls Clear and the setters, and after each
// operation their payloads must be the same bytes and have failed alike.
// The fuzz tests of testpbphaser (a flat message, nested messages) and of
// ros (the ROS frontend's inline messages) drive it.
package assigntest

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// Poke is the operation "the same bytes changed behind both handles": the
// two input bytes after in[i] choose an offset past the fixed header of
// both buffers (of one length), the byte after them the value written
// there. It returns the index of the last input byte it used, and false
// when in has too few bytes left.
func Poke(in []byte, i int, fast, slow runtime.Msg) (int, bool) {
	if i+2 >= len(in) {
		return i, false
	}
	k, b := int(binary.LittleEndian.Uint16(in[i+1:])), in[i+2]
	pf, ps := fast.Payload().Buffer().Memory(), slow.Payload().Buffer().Memory()
	if h := payloadbuffer.FixedHeaderSize; len(pf) == len(ps) && len(pf) > h {
		k = h + k%(len(pf)-h)
		pf[k], ps[k] = b, b
	}
	return i + 2, true
}

// Same fails t unless fast's and slow's payloads are the same bytes and
// failed alike, after operation op (in[i]).
func Same(t testing.TB, i int, op byte, fast, slow runtime.Msg) {
	t.Helper()
	if f, s := fast.Bytes(), slow.Bytes(); !bytes.Equal(f, s) {
		t.Fatalf("op %d (%d): Assign's payload differs from Clear and the setters':\n%x\n%x", i, op, f, s)
	}
	if fast.Failed() != slow.Failed() {
		t.Fatalf("op %d (%d): Assign failed %v, Clear and the setters %v", i, op, fast.Failed(), slow.Failed())
	}
}
