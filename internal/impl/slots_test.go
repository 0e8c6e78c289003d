package impl_test

import (
	"bytes"
	"testing"

	"github.com/phaser-go/phaser/internal/assigntest"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros/msgs/geometry_msgs/geometry_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// TestTableSlotsApart checks the slots of the table cache that types take
// (tableSlot): a type's slot is apart from those of the types it reaches
// whenever it reaches fewer than the cache has and none of them reaches it
// back, for every type registered in this test binary; the five types of
// a sensor_msgs/Imu payload have five slots; and a std_msgs/Header
// registered a multiple of the cache's size of ids after the Timestamp it
// holds (as one program registered them, two packages apart: they shared a
// slot, which made sensor_msgs/Imu's Assign take the setters) takes
// another slot than the Timestamp's.
func TestTableSlotsApart(t *testing.T) {
	stamp := (*impl.Type)(timestamppbphaser.NewTimestamp().PhaserType())
	hdr := (*impl.Type)(std_msgsphaser.NewHeader().PhaserType())
	ts, err := impl.IsolatedTypes(7, impl.ROSFrontend, stamp, hdr)
	if err != nil {
		t.Fatal(err)
	}
	if id0, id1 := impl.ID(ts[0]), impl.ID(ts[1]); (id1-id0)%8 != 0 {
		t.Fatalf("Timestamp and Header registered as ids %d and %d: not a multiple of 8 apart", id0, id1)
	}
	if impl.Slot(ts[0]) == impl.Slot(ts[1]) {
		t.Errorf("std_msgs/Header has the slot (%d) of the Timestamp it holds", impl.Slot(ts[1]))
	}
	imu := (*impl.Type)(sensor_msgsphaser.NewImu().PhaserType())
	slots := map[uint32]string{}
	for _, r := range impl.Reach(imu) {
		if other, ok := slots[impl.Slot(r)]; ok {
			t.Errorf("sensor_msgs/Imu: %s and %s share slot %d", r.Name(), other, impl.Slot(r))
		}
		slots[impl.Slot(r)] = r.Name()
	}
	if len(slots) != 5 {
		t.Errorf("sensor_msgs/Imu reaches %d types, want 5", len(slots))
	}
	checked := 0
	for _, ty := range impl.Registered() {
		reach := map[*impl.Type]bool{}
		for _, r := range impl.Reach(ty) {
			if r != ty {
				reach[r] = true
			}
		}
		cyclic := false
		for r := range reach {
			for _, rr := range impl.Reach(r) {
				cyclic = cyclic || rr == ty
			}
		}
		if cyclic || len(reach) == 0 || len(reach) >= 8 {
			continue
		}
		checked++
		for r := range reach {
			if impl.Slot(r) == impl.Slot(ty) {
				t.Errorf("%s (slot %d) shares its slot with %s, which it reaches", ty.Name(), impl.Slot(ty), r.Name())
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d types that reach others, want the test binary's many", checked)
	}
}

// TestAssignSharedSlot checks the generated Assign of a message whose
// inline messages are of two types sharing a slot of the table cache (a
// payload of more types than slots, or of types whose slots were chosen
// apart from each other): the cache holds the table of one of them only,
// so that Assigner.Inline reports false for the other and the Assign takes
// Clear and the setters, writing the same bytes as they do. Once the types
// have slots of their own again, the Assign takes its straight line.
func TestAssignSharedSlot(t *testing.T) {
	opts := runtime.Options{Version: payloadbuffer.V3}
	fast, slow := sensor_msgsphaser.NewImu(opts), sensor_msgsphaser.NewImu(opts)
	var header, stamp *impl.Type
	for _, r := range impl.Reach((*impl.Type)(fast.PhaserType())) {
		switch r.Name() {
		case "std_msgs.Header":
			header = r
		case "google.protobuf.Timestamp":
			stamp = r
		}
	}
	if header == nil || stamp == nil {
		t.Fatal("sensor_msgs/Imu reaches no std_msgs.Header or google.protobuf.Timestamp")
	}
	cov := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	v := sensor_msgsphaser.ImuFields{
		Header:                       std_msgsphaser.HeaderFields{Seq: 3, FrameId: "imu_link", Stamp: timestamppbphaser.TimestampFields{Seconds: 9, Nanos: 10}},
		Orientation:                  geometry_msgsphaser.QuaternionFields{W: 1},
		OrientationCovariance:        cov,
		AngularVelocity:              geometry_msgsphaser.Vector3Fields{X: 0.5},
		AngularVelocityCovariance:    cov[:3],
		LinearAcceleration:           geometry_msgsphaser.Vector3Fields{Z: 9.81},
		LinearAccelerationCovariance: cov[2:],
	}
	p := (*impl.Payload)(fast.Msg().Payload())
	// straight: 1 the Assign takes its straight line, -1 the setters, 0
	// either (a first fill has nothing to set aside).
	assign := func(what string, straight int) {
		t.Helper()
		fast.Assign(&v)
		assigntest.ImuSetters(slow, &v)
		if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
			t.Errorf("%s: Assign wrote other bytes than Clear and the setters", what)
		}
		if n := impl.TakeSetAside(p); straight != 0 && (n == 0) != (straight > 0) {
			t.Errorf("%s: Assign set %d blocks aside; want its straight line %v", what, n, straight > 0)
		}
	}
	assign("first fill", 0)
	assign("refill", 1)
	restore := impl.ShareSlot(header, stamp)
	assign("shared slot", -1)
	assign("shared slot, again", -1)
	restore()
	assign("own slots again", 0)
	assign("own slots again, refill", 1)
}
