package proto_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
)

// A message written to the protobuf wire format straight from its payload,
// and parsed straight into another payload.
func ExampleMarshal() {
	h := std_msgsphaser.NewHeader()
	h.SetSeq(7)
	h.SetFrameId("map")
	b, err := proto.Marshal(h.Msg())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", b)

	back := std_msgsphaser.NewHeader()
	if err := proto.Unmarshal(b, back.Msg()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(back.Seq(), back.FrameId(), back.HasStamp())
	// Output:
	// 08 07 1a 03 6d 61 70
	// 7 map false
}

// Malformed input is an error that wraps proto.ErrInvalid and names the
// field; the message keeps what was parsed before it.
func ExampleUnmarshal_invalid() {
	h := std_msgsphaser.NewHeader()
	err := proto.Unmarshal([]byte{0x08, 0x07, 0x1a, 0x05, 'm'}, h.Msg())
	fmt.Println(errors.Is(err, proto.ErrInvalid), h.Seq())
	// Output: true 7
}
