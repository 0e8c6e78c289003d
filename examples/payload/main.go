// Command payload builds strings and vectors in a fixed buffer with package
// payloadbuffer, the heap under every phaser-go message, and prints the
// payload a sender would transmit.
package main

import (
	"encoding/hex"
	"fmt"
	"log"

	"github.com/phaser-go/phaser/payloadbuffer"
)

func main() {
	// Caller memory, as a shared-memory segment would be. A real message
	// keeps its fields in a root block; here one 16-byte block stands in for
	// it: a StringHeader at +0 and a VectorHeader at +8.
	mem := make([]byte, 512)
	buf, err := payloadbuffer.NewFixed(mem, payloadbuffer.Options{Version: payloadbuffer.V3})
	if err != nil {
		log.Fatal(err)
	}
	root := buf.Allocate(16, payloadbuffer.Zero)
	buf.SetMessage(root)

	buf.SetString(root, "hello, shared memory")
	for _, v := range []uint32{2, 3, 5, 7, 11} {
		buf.PutUint32(buf.VectorPush(root+8, 4), v)
	}
	buf.SetString(root, "hi") // replaced in place

	fmt.Printf("string %q, vector of %d, %d of %d bytes used, failed=%t\n",
		buf.StringAt(root), buf.VectorLen(root+8), buf.HWM(), buf.Len(), buf.Failed())
	fmt.Print(hex.Dump(buf.Bytes()))
}
