package bench

import (
	"bytes"
	"os"
	"testing"

	"github.com/phaser-go/phaser/bench/internal/opsgen"
)

// TestOpsGenerated fails when ops.go is not what cmd/genops writes (run
// go generate in bench/).
func TestOpsGenerated(t *testing.T) {
	want, err := opsgen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("ops.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("ops.go is stale: run `go generate` in bench/")
	}
}

// TestShapesMatch checks that the generator's shapes are the benchmark's.
func TestShapesMatch(t *testing.T) {
	if len(opsgen.Shapes) != len(Shapes) {
		t.Fatalf("opsgen has %d shapes, bench %d", len(opsgen.Shapes), len(Shapes))
	}
	for i, s := range opsgen.Shapes {
		if s.Name != Shapes[i] {
			t.Errorf("shape %d: opsgen %q, bench %q", i, s.Name, Shapes[i])
		}
	}
}

// TestPhaserAllocs is the goal "0 allocations on every phaser hot path":
// every operation of phaser, phaser-v2, phaser-ros, phaser-refill,
// phaser-assign and phaser-ros-assign allocates nothing
// once warm.
func TestPhaserAllocs(t *testing.T) {
	for _, lib := range []string{"phaser", "phaser-v2", "phaser-ros", "phaser-refill", "phaser-assign", "phaser-ros-assign"} {
		for _, shape := range Shapes {
			for _, op := range Ops {
				if !Takes(lib, shape, op) {
					continue
				}
				c := NewCodec(lib, shape)
				data := inputs(op, shape, c)
				i := 0
				run := func() {
					switch op {
					case "Build":
						c.Build(i)
					case "Republish":
						c.Republish(i)
					case "ReadAll":
						c.ReadAll(data[i])
					case "ReadOne":
						c.ReadOne(data[i])
					case "EndToEnd":
						c.ReadAll(c.Build(i))
					case "ProtoMarshal":
						c.ProtoMarshal(i)
					case "ProtoUnmarshal":
						must(c.ProtoUnmarshal(data[i]))
					case "ROSMarshal":
						c.ROSMarshal(i)
					case "ROSUnmarshal":
						must(c.ROSUnmarshal(data[i]))
					case "Transcode":
						_, err := c.Transcode(data[i])
						must(err)
					}
					if i++; i == N(shape) {
						i = 0
					}
				}
				runs := 20
				if shape == "image16M" || shape == "cloud" {
					runs = 3
				}
				// Warm: a format-2 root's first Clears record what C++'s
				// clear leaves behind and then switch to resetting (its
				// creation image is made once), which allocates.
				for range 3 {
					run()
				}
				if a := testing.AllocsPerRun(runs, run); a != 0 {
					t.Errorf("%s/%s/%s: %v allocations per op", op, shape, lib, a)
				}
			}
		}
	}
}

// TestTakes checks the declared operations of every codec against its
// functions.
func TestTakes(t *testing.T) {
	for _, lib := range Libs {
		for _, shape := range Shapes {
			c := NewCodec(lib, shape)
			for _, op := range Ops {
				has := c != nil && c.Has(op)
				if Takes(lib, shape, op) != has {
					t.Errorf("%s/%s/%s: declared %v, the codec has it: %v", op, shape, lib, Takes(lib, shape, op), has)
				}
			}
		}
	}
}
