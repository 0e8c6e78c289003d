package payloadbuffer_test

import (
	"errors"
	"fmt"

	"github.com/phaser-go/phaser/payloadbuffer"
)

func ExampleNewFixed() {
	// Caller memory, e.g. shared memory: used as it is, never grown.
	mem := make([]byte, 256)
	b, err := payloadbuffer.NewFixed(mem, payloadbuffer.Options{Tuning: payloadbuffer.Size})
	if err != nil {
		panic(err)
	}
	p := b.Allocate(16, payloadbuffer.Zero)
	fmt.Println("block at", p, "payload", len(b.Bytes()), "bytes")

	// An allocation that does not fit returns 0, and the failure sticks.
	fmt.Println(b.Allocate(1000, 0), b.Failed(), b.Allocate(8, 0))

	_, err = payloadbuffer.NewFixed(make([]byte, 20), payloadbuffer.Options{})
	fmt.Println(errors.Is(err, payloadbuffer.ErrTooSmall))
	// Output:
	// block at 48 payload 72 bytes
	// 0 true 0
	// true
}

func ExampleNew() {
	// An owned buffer grows (at least doubling) as allocations need.
	b := payloadbuffer.New(64, payloadbuffer.Options{Version: payloadbuffer.V3})
	fmt.Println(b.Len(), b.Fixed(), b.HeaderSize())
	p := b.Allocate(100, payloadbuffer.Zero)
	fmt.Println(p, b.Len(), b.Version(), b.Tuning())
	// Output:
	// 64 false 48
	// 56 256 v3 performance
}

func ExampleBuffer_SetString() {
	b := payloadbuffer.New(256, payloadbuffer.Options{})
	slot := b.Allocate(4, payloadbuffer.Zero) // a StringHeader: 0 is absent
	fmt.Printf("%q\n", b.StringAt(slot))

	b.SetString(slot, "hello, world")
	fmt.Printf("%q\n", b.StringAt(slot))

	// The source may alias the buffer, even the string being replaced.
	b.SetBytes(slot, b.StringAt(slot)[7:])
	fmt.Printf("%q\n", b.StringAt(slot))

	b.ClearString(slot)
	fmt.Println(b.StringAt(slot) == nil)
	// Output:
	// ""
	// "hello, world"
	// "world"
	// true
}

func ExampleBuffer_VectorPush() {
	b := payloadbuffer.New(256, payloadbuffer.Options{Tuning: payloadbuffer.Size})
	slot := b.Allocate(8, payloadbuffer.Zero) // a VectorHeader {num, data}
	for i := range 5 {
		e := b.VectorPush(slot, 4) // room for one int32
		b.PutUint32(e, uint32(10*i))
	}
	data := b.VectorData(slot)
	for i := range b.VectorLen(slot) {
		fmt.Print(b.Uint32(data+4*uint32(i)), " ")
	}
	fmt.Println("cap", b.VectorCap(slot, 4))
	// Output:
	// 0 10 20 30 40 cap 8
}
