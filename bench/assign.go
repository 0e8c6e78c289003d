package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaserros"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// phaser-assign: phaser's build through the generated Assign, which is
// Clear and every field's setter in one call (one straight line at
// compile-time offsets when the strings and elements fit the blocks the
// message holds). The generator makes Assign for messages of singular
// scalars, strings, bytes, repeated scalars and nested messages of such
// types (and, with the frontend=ros handles, inline messages of such
// types): of the bench shapes, small, header and imu. Their codecs
// (phaserAssign<Fn>Codec, and phaser-ros-assign's phaserROSAssign<Fn>Codec
// for header and imu) are generated into ops.go (internal/opsgen).

// phAssignSmall is phSetSmall after a Clear, through Assign.
func phAssignSmall(x pbphaser.SmallStruct, v *Small) {
	x.Assign(&pbphaser.SmallStructFields{Name: v.Name, BirthDay: v.BirthDay, Phone: v.Phone, Siblings: v.Siblings, Spouse: v.Spouse, Money: v.Money})
}

// phAssignHeader is phSetHeader after a Clear, through Assign.
func phAssignHeader(x pbphaser.Header, v *Header) {
	h := headerFields(v)
	x.Assign(&h)
}

// headerFields is the Assign value of a Header.
func headerFields(v *Header) pbphaser.HeaderFields {
	return pbphaser.HeaderFields{Seq: v.Seq, Stamp: timestamppbphaser.TimestampFields{Seconds: v.Sec, Nanos: v.Nsec}, FrameId: v.FrameID}
}

// phAssignImu is phSetImu after a Clear, through Assign.
func phAssignImu(x pbphaser.Imu, v *Imu) {
	o, a, l := &v.Orientation, &v.AngularVelocity, &v.LinearAcceleration
	x.Assign(&pbphaser.ImuFields{
		Header:                       headerFields(&v.Header),
		Orientation:                  pbphaser.QuaternionFields{X: o[0], Y: o[1], Z: o[2], W: o[3]},
		OrientationCovariance:        v.OrientationCov[:],
		AngularVelocity:              pbphaser.Vector3Fields{X: a[0], Y: a[1], Z: a[2]},
		AngularVelocityCovariance:    v.AngularVelocityCov[:],
		LinearAcceleration:           pbphaser.Vector3Fields{X: l[0], Y: l[1], Z: l[2]},
		LinearAccelerationCovariance: v.LinearAccelerationCov[:],
	})
}

// phrAssignHeader is phAssignHeader with the frontend=ros handles (the
// stamp inline).
func phrAssignHeader(x pbphaserros.Header, v *Header) {
	h := pbphaserros.HeaderFields{Seq: v.Seq, Stamp: timestamppbphaser.TimestampFields{Seconds: v.Sec, Nanos: v.Nsec}, FrameId: v.FrameID}
	x.Assign(&h)
}

// phrAssignImu is phAssignImu with the frontend=ros handles (the header,
// its stamp and the vectors inline).
func phrAssignImu(x pbphaserros.Imu, v *Imu) {
	o, a, l, h := &v.Orientation, &v.AngularVelocity, &v.LinearAcceleration, &v.Header
	x.Assign(&pbphaserros.ImuFields{
		Header:                       pbphaserros.HeaderFields{Seq: h.Seq, Stamp: timestamppbphaser.TimestampFields{Seconds: h.Sec, Nanos: h.Nsec}, FrameId: h.FrameID},
		Orientation:                  pbphaserros.QuaternionFields{X: o[0], Y: o[1], Z: o[2], W: o[3]},
		OrientationCovariance:        v.OrientationCov[:],
		AngularVelocity:              pbphaserros.Vector3Fields{X: a[0], Y: a[1], Z: a[2]},
		AngularVelocityCovariance:    v.AngularVelocityCov[:],
		LinearAcceleration:           pbphaserros.Vector3Fields{X: l[0], Y: l[1], Z: l[2]},
		LinearAccelerationCovariance: v.LinearAccelerationCov[:],
	})
}
