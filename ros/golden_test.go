package ros_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

func registerGoldenTypes(t *testing.T, dir string) {
	t.Helper()
	mds, err := goldens.Messages(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range mds {
		if _, err := runtime.TypeOf(md); err != nil {
			t.Fatal(err)
		}
	}
}

// diverges lists the cases where phaser-go deliberately writes other ROS
// bytes than C++ Phaser 2.1, with at most a few bytes differing.
var diverges = map[string]string{
	// C++ copies N elements of a fixed array from storage even when fewer
	// are stored, reading past the vector (spec 7.3); phaser-go zero-pads.
	"ros_robot_pbfe_size": "fixed-array over-read",
	// C++ writes the stale bytes of a cleared scalar (spec 7.3); a cleared
	// field is 0 in phaser-go.
	"cont_core_scalars_fixed_perf": "stale value after clear",
	"cont_core_scalars_dyn_size":   "stale value after clear",
	// C++ writes a Duration's seconds and nanos as they are; ROS (genpy)
	// writes it canonically, 0 <= nsec < 1e9: (-4, -500) is (-5, 999999500).
	"ros_sensor_rosfe_fixed": "canonical duration",
	"ros_sensor_rosfe_dyn":   "canonical duration",
	"ros_sensor_pbfe":        "canonical duration",
}

// narrowed lists the cases whose messages have fields with a ROS type
// narrower than their protobuf type: C++ Phaser 2.1 writes those at protobuf
// width (its bug, spec 7.3/8.10); phaser-go writes the ROS width.
var narrowed = map[string]bool{"ros_gauge_rosfe": true, "ros_gauge_pbfe": true}

// TestGoldenROS checks ROS1 bytes against C++ Phaser: each golden payload
// serializes to exactly its .ros.bin, and .ros.bin parses into a payload
// that serializes back to the same bytes.
func TestGoldenROS(t *testing.T) {
	dir := goldens.Dir(t)
	fixedDir := goldens.FixedDir(t)
	registerGoldenTypes(t, dir)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src := dir
			if c.PBParse == "FAILED" {
				src = fixedDir
			}
			want, err := c.Read(src, ".ros.bin")
			if errors.Is(err, os.ErrNotExist) {
				t.Skipf("no .ros.bin (%s)", c.Notes)
			}
			if err != nil {
				t.Fatal(err)
			}
			md, err := c.MessageDescriptor(dir)
			if err != nil {
				t.Fatal(err)
			}
			typ, err := runtime.TypeOf(md)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := c.Read(src, ".phaser.bin")
			if err != nil {
				t.Fatal(err)
			}
			m, err := runtime.Read(typ, payload)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ros.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if why, ok := diverges[c.Name]; ok {
				diff := 0
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						diff++
					}
				}
				if len(got) != len(want) || diff == 0 || diff > 8 {
					t.Fatalf("expected a small known divergence (%s), got %d differing bytes\n got: % x\nwant: % x", why, diff, got, want)
				}
				t.Logf("known divergence from C++ 2.1: %s (%d bytes)", why, diff)
			} else if !narrowed[c.Name] && !bytes.Equal(got, want) {
				t.Fatalf("Marshal differs from .ros.bin\n got: % x\nwant: % x", got, want)
			}
			// C++'s bytes parse, and serialize back to the same bytes.
			if !narrowed[c.Name] {
				parsed := runtime.New(typ, runtime.Options{})
				if err := ros.Unmarshal(want, parsed); err != nil {
					t.Fatalf("Unmarshal .ros.bin: %v", err)
				}
				re, err := ros.Marshal(parsed)
				if err != nil {
					t.Fatal(err)
				}
				if _, known := diverges[c.Name]; !known && !bytes.Equal(re, want) {
					t.Fatalf(".ros.bin parsed and serialized differs\n got: % x\nwant: % x", re, want)
				}
			}
			// The direct converters agree with the payload path.
			if _, known := diverges[c.Name]; !known && !narrowed[c.Name] {
				pbSrc := src
				if c.FixedRTContent == "DIFFERENT" {
					pbSrc = fixedDir // C++ 2.1 serialized what it misread
				}
				pb, err := c.Read(pbSrc, ".pb.bin")
				if err != nil {
					t.Fatal(err)
				}
				direct, err := ros.ProtoToROS(nil, pb, typ)
				if err != nil {
					t.Fatalf("ProtoToROS: %v", err)
				}
				if !bytes.Equal(direct, want) {
					t.Errorf("ProtoToROS(.pb.bin) differs from .ros.bin\n got: % x\nwant: % x", direct, want)
				}
				conv, err := ros.ConvertToROS(nil, payload, typ)
				if err != nil || !bytes.Equal(conv, want) {
					t.Errorf("ConvertToROS(payload) = % x, %v", conv, err)
				}
				pbOut, err := ros.ROSToProto(nil, want, typ)
				if err != nil {
					t.Fatalf("ROSToProto: %v", err)
				}
				scratch := runtime.New(typ, runtime.Options{})
				if err := ros.Unmarshal(want, scratch); err != nil {
					t.Fatal(err)
				}
				ref, err := proto.Marshal(scratch)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(pbOut, ref) {
					t.Errorf("ROSToProto differs from Unmarshal+Marshal\n got: % x\nwant: % x", pbOut, ref)
				}
			}
			// Parse our bytes back: the same ROS bytes again.
			back := runtime.New(typ, runtime.Options{})
			if err := ros.Unmarshal(got, back); err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			again, err := ros.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, got) {
				t.Fatalf("round trip differs\n got: % x\nwant: % x", again, got)
			}
		})
	}
}
