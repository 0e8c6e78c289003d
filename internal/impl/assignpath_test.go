package impl_test

import (
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	roswireros "github.com/phaser-go/phaser/internal/testpb/roswire/roswireros/roswirephaser"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/durationpbphaser"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// TestAssignStraightLine checks that the generated Assign takes its
// straight line where it should, which the differential tests (FuzzAssign,
// FuzzAssignNested, FuzzAssignInline), comparing bytes with Clear and the
// setters, cannot see: after a first fill, an Assign whose strings and
// elements fit the blocks held sets no block aside, where Clear and the
// setters set one aside for each string and vector. It covers a message
// with nested messages (the protobuf frontend) and messages with inline
// messages of the ROS frontend (std_msgs/Header's stamp; the test schema's
// Stamped, a Timestamp and a Duration), in an owned and a fixed buffer.
// (An inline message whose type shares its slot of the payload's table
// cache with another type of the payload takes the setters:
// TestAssignSharedSlot.)
func TestAssignStraightLine(t *testing.T) {
	rs := roswireros.StampedFields{Frame: "base", Stamp: timestamppbphaser.TimestampFields{Seconds: 1}, Span: durationpbphaser.DurationFields{Nanos: 2}}
	header := std_msgsphaser.HeaderFields{Seq: 4, FrameId: "map", Stamp: timestamppbphaser.TimestampFields{Seconds: 5}}
	stamped := pb.StampedFields{Seq: 6, FrameId: "odom", Stamp: timestamppbphaser.TimestampFields{Nanos: 7},
		Part: pb.Stamped_PartFields{N: 8, Tag: "tag", Colors: []pb.Color{1, 2}}, Blob: []byte("blob"), Covariance: []float64{1, 2}, Counts: []int32{3}}
	for _, fixed := range []bool{false, true} {
		opts := runtime.Options{Version: payloadbuffer.V3}
		var x roswireros.Stamped
		var h std_msgsphaser.Header
		var s pb.Stamped
		var err error
		if fixed {
			x, err = roswireros.NewStampedIn(make([]byte, 2048), opts)
			if err == nil {
				h, err = std_msgsphaser.NewHeaderIn(make([]byte, 2048), opts)
			}
			if err == nil {
				s, err = pb.NewStampedIn(make([]byte, 2048), opts)
			}
			if err != nil {
				t.Fatal(err)
			}
		} else {
			x, h, s = roswireros.NewStamped(opts), std_msgsphaser.NewHeader(opts), pb.NewStamped(opts)
		}
		for _, c := range []struct {
			name   string
			msg    runtime.Msg
			assign func()
			clear  func()
			blocks int // the strings, vectors and nested messages a Clear sets aside
		}{
			{"roswire Stamped (ROS frontend)", x.Msg(), func() { x.Assign(&rs) }, x.Clear, 1},
			{"std_msgs/Header", h.Msg(), func() { h.Assign(&header) }, h.Clear, 1},
			{"phasertest.Stamped", s.Msg(), func() { s.Assign(&stamped) }, s.Clear, 9},
		} {
			p := (*impl.Payload)(c.msg.Payload())
			c.assign() // the first fill: the setters
			for i := range 3 {
				c.assign()
				if n := impl.TakeSetAside(p); n != 0 {
					t.Errorf("fixed %v, %s: Assign %d set %d blocks aside: not its straight line", fixed, c.name, i, n)
				}
			}
			// What the check sees of a Clear: every block set aside.
			c.clear()
			if n := impl.TakeSetAside(p); n != c.blocks {
				t.Errorf("fixed %v, %s: Clear set %d blocks aside, want %d", fixed, c.name, n, c.blocks)
			}
		}
	}
}

// TestKeptMessageIsKeptFields checks that KeptMessage, which generated
// code of versions 6 to 8 calls, reports what KeptFields (version 9)
// does, for every word of a root that holds a nested message and for the
// nested message's type and another: true with the block {slot, extent}
// exactly when KeptFields returns the extent bytes of the payload there.
func TestKeptMessageIsKeptFields(t *testing.T) {
	s := pb.NewStamped(runtime.Options{Version: payloadbuffer.V3})
	f := pb.StampedFields{Seq: 1, FrameId: "odom", Part: pb.Stamped_PartFields{N: 2, Tag: "tag"}}
	s.Assign(&f)
	s.Assign(&f) // (a root whose Clear keeps its blocks)
	root, part := (*impl.Type)(s.Msg().Type()), (*impl.Type)(s.Part().Msg().Type())
	a, b, ok := impl.Msg(s).BeginAssign(root, root.Extent())
	if !ok {
		t.Fatal("BeginAssign: false on a root this process filled")
	}
	found := 0 // Part's slot
	for o := 0; o+4 <= len(b); o += 4 {
		slot := (*[4]byte)(b[o : o+4])
		for _, typ := range []*impl.Type{part, root} {
			blk, kept := a.KeptMessage(slot, typ, typ.Extent())
			fields := a.KeptFields(slot, typ, typ.Extent())
			if kept != (fields != nil) {
				t.Fatalf("word %d, %v: KeptMessage %v, KeptFields %d bytes", o, typ, kept, len(fields))
			}
			if !kept {
				continue
			}
			if typ == part && blk.Off == impl.Msg(s.Part()).Offset() {
				found++ // (the checks are of a slot's word, which any word passes that points where a message may lie)
			}
			mem := a.Memory()
			if want := (impl.KeptBlock{Off: uint32(slot[0]) | uint32(slot[1])<<8 | uint32(slot[2])<<16 | uint32(slot[3])<<24, Size: typ.Extent()}); blk != want {
				t.Errorf("word %d: block %+v, want %+v", o, blk, want)
			}
			if len(fields) != int(typ.Extent()) || &fields[0] != &mem[blk.Off] {
				t.Errorf("word %d: fields are %d bytes, not Memory()[%d:%d]", o, len(fields), blk.Off, blk.Off+blk.Size)
			}
		}
	}
	if found == 0 {
		t.Error("no word of Stamped's root kept as a nested message: not even Part's")
	}
}
