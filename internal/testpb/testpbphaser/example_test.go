package testpbphaser_test

import (
	"fmt"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// A message built in caller memory (here a plain slice; it could be a
// shared-memory segment) and read back from its bytes, as a receiver does.
func ExampleNewInnerIn() {
	mem := make([]byte, 4096)
	x, err := pb.NewInnerIn(mem)
	if err != nil {
		panic(err)
	}
	x.SetA(7)
	x.SetS("hello")
	deep := x.MutableDeep()
	deep.SetX(-3)
	deep.Names().Append("a")
	deep.Names().Append("b")
	if x.Failed() {
		panic("the buffer is full")
	}

	r, err := pb.ReadInner(x.Bytes())
	if err != nil {
		panic(err)
	}
	fmt.Println(r.A(), r.S(), r.Deep().X(), r.Deep().Names().Len())
	for i, name := range r.Deep().Names().All() {
		fmt.Println(i, string(name))
	}
	// Output:
	// 7 hello -3 2
	// 0 a
	// 1 b
}

// Oneofs, maps and Any in a fixed buffer.
func ExampleNewEverythingIn() {
	x, err := pb.NewEverythingIn(make([]byte, 8192))
	if err != nil {
		panic(err)
	}
	x.SetChoiceString("text")
	x.SetChoiceInt32(5) // switches the oneof's arm
	e := x.Counts().Append()
	e.SetKey("apples")
	e.SetValue(3)
	pb.MutableAnyInner(x.MutableAny()).SetS("packed")

	r, err := pb.ReadEverything(x.Bytes())
	if err != nil {
		panic(err)
	}
	fmt.Println(r.WhichChoice() == pb.Everything_ChoiceInt32_Case, r.ChoiceInt32(), r.ChoiceString() == "")
	for _, e := range r.Counts().All() {
		fmt.Println(e.Key(), e.Value())
	}
	if in, ok := pb.InnerFromAny(r.Any()); ok {
		fmt.Println(r.Any().TypeName(), in.S())
	}
	// Output:
	// true 5 true
	// apples 3
	// phasertest.Inner packed
}

// A buffer that is too small is reported when the message is created.
func ExampleNewScalarsIn_tooSmall() {
	_, err := pb.NewScalarsIn(make([]byte, 16))
	fmt.Println(err != nil)
	// Output: true
}

// A publisher that fills every field of a message for each send clears and
// fills it in one call with the generated Assign: on the second and later
// sends, strings that fit the blocks the message holds are written over
// them, and the payload does not grow.
func ExampleScalars_Assign() {
	x, err := pb.NewScalarsIn(make([]byte, 1024))
	if err != nil {
		panic(err)
	}
	var size int
	for i, name := range []string{"first reading", "second", "third one"} {
		x.Assign(&pb.ScalarsFields{FInt32: int32(i), FString: name, FBool: true})
		if i == 0 {
			size = len(x.Bytes())
		}
		r, err := pb.ReadScalars(x.Bytes()) // what a subscriber reads
		if err != nil {
			panic(err)
		}
		fmt.Println(r.FInt32(), r.FString(), r.FBool(), len(x.Bytes()) == size)
	}
	// Output:
	// 0 first reading true true
	// 1 second true true
	// 2 third one true true
}

// Assign fills nested messages and repeated fields as well: each nested
// message is a Fields value of its own type, each repeated field a slice.
// After the Assign every nested message is present.
func ExampleStamped_Assign() {
	x, err := pb.NewStampedIn(make([]byte, 2048))
	if err != nil {
		panic(err)
	}
	for seq, frame := range []string{"base_link", "odom"} {
		x.Assign(&pb.StampedFields{
			Seq:        uint32(seq),
			Stamp:      timestamppbphaser.TimestampFields{Seconds: 1700000000 + int64(seq)},
			FrameId:    frame,
			Part:       pb.Stamped_PartFields{N: 7, Tag: "wheel"},
			Covariance: []float64{0.5, 0, 0, 0.5},
		})
		r, err := pb.ReadStamped(x.Bytes())
		if err != nil {
			panic(err)
		}
		fmt.Println(r.Seq(), r.Stamp().Seconds(), r.FrameId(), r.Part().Tag(), r.Part().HasAt(), r.Covariance().At(3))
	}
	// Output:
	// 0 1700000000 base_link wheel true 0.5
	// 1 1700000001 odom wheel true 0.5
}
