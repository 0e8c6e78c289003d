package impl_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestStoreBytesAsSetBytes: Setter.StoreBytes, the decoders' string store
// (a new block of its own for an empty slot), writes the payload bytes
// Msg.SetBytes writes, in both formats and tunings, scrubbed or not, in
// owned buffers that grow and in fixed ones that fill up (where both fail
// at the same string), for strings into empty slots of messages cleared
// after holding others, replacing strings, and strings that alias the
// payload.
func TestStoreBytesAsSetBytes(t *testing.T) {
	_, strs, _ := testTypes(t)
	title, blob := field(strs, "title"), field(strs, "blob")
	lengths := []int{0, 1, 7, 8, 12, 100, 124, 125, 128, 200, 5000, 70000}
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, tu := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
			for _, sc := range []payloadbuffer.Scrub{payloadbuffer.ScrubOn, payloadbuffer.ScrubOff} {
				for _, fixed := range []int{0, 2048, 9000} {
					opts := impl.Options{Version: v, Tuning: tu, Scrub: sc}
					name := fmt.Sprintf("%v/%v/%v/fixed=%d", v, tu, sc, fixed)
					newMsg := func() impl.Msg {
						if fixed == 0 {
							return impl.New(strs, opts)
						}
						m, err := impl.NewIn(strs, make([]byte, fixed), opts)
						if err != nil {
							t.Fatal(err)
						}
						return m
					}
					// One pair of messages, cleared before each length:
					// the blocks are carved from memory that held strings.
					a, b := newMsg(), newMsg()
					for _, n := range lengths {
						s := []byte(strings.Repeat(string(rune('a'+n%26)), n))
						a.Clear(strs)
						b.Clear(strs)
						st, ok := b.Setter(strs)
						if !ok {
							t.Fatalf("%s: no setter", name)
						}
						check := func(step string, okA, okB bool) {
							t.Helper()
							if okA != okB || a.Failed() != b.Failed() || !bytes.Equal(a.PayloadBytes(), b.PayloadBytes()) {
								t.Fatalf("%s, %d bytes, %s: StoreBytes stored %v (failed %v, %d bytes), SetBytes %v (failed %v, %d bytes); payloads equal %v",
									name, n, step, okB, b.Failed(), len(b.PayloadBytes()), okA, a.Failed(), len(a.PayloadBytes()),
									bytes.Equal(a.PayloadBytes(), b.PayloadBytes()))
							}
						}
						setA := func(f *impl.FieldInfo, s []byte) bool {
							a.SetBytes(f.Field, s)
							return !a.Failed() && bytes.Equal(a.StringBytes(f.Field), s)
						}
						// An empty slot, then a string replaced by a shorter
						// and by a longer one.
						check("empty slot", setA(title, s), st.StoreBytes(title.Offset, s))
						check("shorter", setA(title, s[:n/2]), st.StoreBytes(title.Offset, s[:n/2]))
						longer := append(s, "and more"...)
						check("longer", setA(title, longer), st.StoreBytes(title.Offset, longer))
						// A string that lies in the payload, into an empty
						// slot: the other field's.
						check("aliased", setA(blob, a.StringBytes(title.Field)), st.StoreBytes(blob.Offset, b.StringBytes(title.Field)))
						if got := b.StringBytes(blob.Field); !b.Failed() && !bytes.Equal(got, longer) {
							t.Fatalf("%s, %d bytes: the aliased string stored reads %q", name, n, got)
						}
					}
				}
			}
		}
	}
}
