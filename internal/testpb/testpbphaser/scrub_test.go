package testpbphaser_test

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// secret is what the program writes and then deletes: no 6-byte window
// of it may stay in the payload.
const secret = "S3CR3T-p4ssw0rd-d0-n0t-publ1sh-th1s-v4lu3"

// secretBits is a scalar the program writes and then clears.
const secretBits = 0x5EC2E75EC2E75EC2

// leaks reports whether b holds a piece of secret or of secretBits.
func leaks(b []byte) bool {
	for i := 0; i+6 <= len(secret); i++ {
		if bytes.Contains(b, []byte(secret[i:i+6])) {
			return true
		}
	}
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], secretBits)
	return bytes.Contains(b, w[2:8])
}

// TestDeletedDataStays writes a secret, deletes it in one of many ways and
// requires that the payload no longer carries it, in format 3 (which
// scrubs by default) and in format 2 with Scrub: ScrubOn, in fixed memory
// full of 0xEE and in owned buffers; in format 2 by default the bytes are
// C++ 2.1's, and the secret stays.
func TestDeletedDataStays(t *testing.T) {
	deletions := []struct {
		name string
		do   func(x pb.Everything)
	}{
		{"string overwritten shorter", func(x pb.Everything) { x.SetName(secret); x.SetName("short") }},
		{"string cleared", func(x pb.Everything) { x.SetName(secret); x.ClearName() }},
		{"bytes overwritten empty", func(x pb.Everything) { x.SetBytes_([]byte(secret)); x.SetBytes_(nil) }},
		{"nested string cleared", func(x pb.Everything) { x.MutableInner().SetS(secret); x.MutableInner().ClearS() }},
		{"nested message cleared", func(x pb.Everything) { x.MutableInner().SetS(secret); x.ClearInner() }},
		{"scalar cleared", func(x pb.Everything) { x.MutableScalars().SetFUint64(secretBits); x.MutableScalars().ClearFUint64() }},
		{"scalar in a cleared message", func(x pb.Everything) { x.MutableScalars().SetFUint64(secretBits); x.MutableScalars().Clear() }},
		{"list cleared", func(x pb.Everything) {
			x.MutableRepeated().RString().Append("keep")
			x.MutableRepeated().RString().Append(secret)
			x.MutableRepeated().RString().Clear()
		}},
		{"list element erased", func(x pb.Everything) {
			l := x.MutableRepeated().RString()
			l.Append("keep")
			l.Append(secret)
			l.Append("keep too")
			l.Erase(1, 2)
		}},
		{"list shrunk", func(x pb.Everything) {
			l := x.MutableRepeated().RString()
			l.Append("keep")
			l.Append(secret)
			l.Resize(1)
		}},
		{"list element overwritten", func(x pb.Everything) {
			l := x.MutableRepeated().RString()
			l.Append(secret)
			l.Set(0, "x")
		}},
		{"scalar list erased", func(x pb.Everything) {
			l := x.MutableRepeated().RUint64()
			l.Append(1)
			l.Append(secretBits)
			l.Erase(1, 2)
		}},
		{"scalar list shrunk", func(x pb.Everything) {
			l := x.MutableRepeated().RUint64()
			l.Append(1)
			l.Append(secretBits)
			l.Resize(1)
		}},
		{"message list cleared", func(x pb.Everything) {
			x.Inners().Append().SetS("keep")
			x.Inners().Append().SetS(secret)
			x.Inners().Clear()
		}},
		{"message list shrunk", func(x pb.Everything) {
			x.Inners().Append().SetS("keep")
			x.Inners().Append().SetS(secret)
			x.Inners().Resize(1)
		}},
		{"oneof arm switched", func(x pb.Everything) { x.SetChoiceString(secret); x.SetChoiceBool(true) }},
		{"oneof scalar switched", func(x pb.Everything) { x.SetChoiceDouble(1.5e-300); x.SetChoiceBool(true) }},
		{"map entry cleared", func(x pb.Everything) {
			e := x.LabelsByKey().Append()
			e.SetKey(secret)
			e.SetValue(secret)
			x.LabelsByKey().Clear()
		}},
		{"Any cleared", func(x pb.Everything) { pb.MutableAnyInner(x.MutableAny()).SetS(secret); x.ClearAny() }},
		{"root cleared", func(x pb.Everything) { x.SetName(secret); x.Clear() }},
	}
	kinds := []struct {
		name  string
		opts  runtime.Options
		fixed bool
		leaks bool
	}{
		{"v3 fixed", runtime.Options{}, true, false},
		{"v3 owned", runtime.Options{}, false, false},
		{"v3 size", runtime.Options{Tuning: payloadbuffer.Size}, true, false},
		{"v2 scrub fixed", runtime.Options{Version: payloadbuffer.V2, Scrub: payloadbuffer.ScrubOn}, true, false},
		{"v2 scrub owned size", runtime.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size, Scrub: payloadbuffer.ScrubOn}, false, false},
		{"v2 default", runtime.Options{Version: payloadbuffer.V2}, true, true},
	}
	for _, k := range kinds {
		kept := 0
		for _, d := range deletions {
			x := pb.NewEverything(k.opts)
			if k.fixed {
				var err error
				if x, err = pb.NewEverythingIn(bytes.Repeat([]byte{0xEE}, 1<<14), k.opts); err != nil {
					t.Fatal(err)
				}
			}
			x.SetMode(pb.Everything_MODE_SLOW) // something else in the payload
			d.do(x)
			if x.Err() != nil {
				t.Fatalf("%s, %s: %v", k.name, d.name, x.Err())
			}
			got := leaks(x.Bytes())
			if got {
				kept++
			}
			if got && !k.leaks {
				i := strings.Index(string(x.Bytes()), secret[:6])
				t.Errorf("%s, %s: the payload still carries the deleted value (at %d)", k.name, d.name, i)
			}
		}
		if k.leaks && kept == 0 {
			t.Errorf("%s: no deletion left the secret in the payload; format 2 should keep C++ 2.1's stale bytes", k.name)
		}
		t.Logf("%s: %d of %d deletions leave the value in the payload", k.name, kept, len(deletions))
	}
}

// TestNoCallerMemory builds the same message in fixed memory that is
// zeroed and in memory full of 0xEE: in format 3 (scrubbing) the payloads
// are identical, so none of the caller's bytes reaches the payload; in
// format 2 (C++ 2.1: bytes no allocation writes keep the memory's) they
// differ.
func TestNoCallerMemory(t *testing.T) {
	for _, tc := range []struct {
		opts  runtime.Options
		equal bool
	}{
		{runtime.Options{}, true},
		{runtime.Options{Tuning: payloadbuffer.Size}, true},
		{runtime.Options{Version: payloadbuffer.V2, Scrub: payloadbuffer.ScrubOn}, true},
		{runtime.Options{Version: payloadbuffer.V2}, false},
	} {
		build := func(fill byte) []byte {
			x, err := pb.NewEverythingIn(bytes.Repeat([]byte{fill}, 1<<14), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			buildGenerated(x)
			x.Clear() // the reset of a format-3 root, then a refill
			buildGenerated(x)
			if x.Err() != nil {
				t.Fatal(x.Err())
			}
			return bytes.Clone(x.Bytes())
		}
		zero, dirty := build(0), build(0xEE)
		if bytes.Equal(zero, dirty) != tc.equal {
			t.Errorf("%+v: payloads built in zeroed and in 0xEE memory are equal: %t, want %t", tc.opts, !tc.equal, tc.equal)
		}
	}
}
