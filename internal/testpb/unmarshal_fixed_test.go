package testpb_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	gproto "google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/payloadbuffer"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// TestUnmarshalFixedFull decodes messages into fixed buffers of every size
// from the smallest that holds the empty message up to one that holds the
// decoded message: the generated decoder and the interpreter both fail with
// ErrFull while the message does not fit (a string, list or nested message
// that found no room ends the decoding with an error, never silently), and
// both succeed with the same bytes from the same size on.
func TestUnmarshalFixedFull(t *testing.T) {
	registerAll(t)
	for i, root := range conformanceRoots() {
		md := root.ProtoReflect().Descriptor()
		typ, err := runtime.TypeOf(md)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		m := root.ProtoReflect().New()
		fill(rng, m, 1)
		data, err := gproto.MarshalOptions{Deterministic: true}.Marshal(m.Interface())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
			t.Run(fmt.Sprintf("%s/v%d", md.Name(), v), func(t *testing.T) {
				opts := runtime.Options{Version: v}
				first, full, fits := 0, 0, 0
				for n := 0; n <= 1<<16 && fits == 0; n++ {
					gen, err := runtime.NewIn(typ, make([]byte, n), opts)
					if err != nil {
						continue // the empty message does not fit yet
					}
					if first == 0 {
						first = n
					}
					in, err := runtime.NewIn(typ, make([]byte, n), opts)
					if err != nil {
						t.Fatalf("%d bytes: the second NewIn failed: %v", n, err)
					}
					genErr := generatedOf(t, gen).UnmarshalProto(data)
					inErr := phaserproto.Unmarshal(data, in)
					switch {
					case genErr == nil && inErr == nil:
						fits = n
						got, err := generatedOf(t, gen).MarshalProto()
						if err != nil {
							t.Fatalf("%d bytes: MarshalProto: %v", n, err)
						}
						want, err := phaserproto.Marshal(in)
						if err != nil || !bytes.Equal(got, want) {
							t.Fatalf("%d bytes: generated and interpreted decodings marshal differently (%v)\ngot:  % x\nwant: % x", n, err, got, want)
						}
					case errors.Is(genErr, runtime.ErrFull) && errors.Is(inErr, runtime.ErrFull):
						full++
						if !gen.Failed() {
							t.Fatalf("%d bytes: UnmarshalProto says %v, but the payload has not failed", n, genErr)
						}
					default:
						t.Fatalf("%d bytes: generated UnmarshalProto says %v, interpreted %v", n, genErr, inErr)
					}
				}
				// Every size from the empty message's up to fits failed.
				if fits == 0 || full != fits-first {
					t.Fatalf("%d bytes of input: the empty message fits in %d bytes, the decoded one in %d, %d sizes full", len(data), first, fits, full)
				}
			})
		}
	}
}
