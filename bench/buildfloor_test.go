package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
)

// TestBuildFloor builds the same values with phaser's Build (Clear, then
// the setters) and with build-floor, each in its own warm buffer, and
// checks that the payload bytes are the same after every build: the floor
// does the work phaser does, no less. The values take both paths: strings
// that fit the blocks kept, ones that do not (longer, then empty), and
// both buffers' scrubbing.
func TestBuildFloor(t *testing.T) {
	vals := append([]Small(nil), Values.Small...)
	long := vals[0]
	long.Name = strings.Repeat("n", 40)
	empty := vals[1]
	empty.Phone = ""
	vals = append(vals, long, vals[2], empty, vals[3], long, vals[0])
	phaser, floor := phaserNew("small", pbphaser.NewSmallStructIn, nil), phaserBuilt("small", &vals[0], pbphaser.NewSmallStructIn, phSetSmall, nil)
	phaser.Clear()
	phSetSmall(phaser, &vals[0])
	buf := floor.Msg().Payload().Buffer()
	straight, fell := 0, 0
	for pass := range 3 {
		for i := range vals {
			phaser.Clear()
			phSetSmall(phaser, &vals[i])
			got, ok := floorBuildSmall(floor, buf, &vals[i])
			if ok {
				straight++
			} else {
				fell++
			}
			if want := phaser.Bytes(); !bytes.Equal(got, want) {
				t.Fatalf("pass %d, value %d: build-floor's payload differs from phaser's:\n%x\n%x", pass, i, got, want)
			}
			if got := phGetSmall(floor); *got.(*Small) != vals[i] {
				t.Fatalf("pass %d, value %d: reads %+v, want %+v", pass, i, got, vals[i])
			}
		}
	}
	if straight == 0 || fell == 0 {
		t.Fatalf("build-floor took its straight line %d times and phaser's path %d: the test must see both", straight, fell)
	}
	t.Logf("straight line %d builds, phaser's path %d", straight, fell)
}
