package testpbphaser_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// What scrubbing (format 3's default) costs, on and off, in three
// workloads: Build (a new Everything in fixed memory, the publisher's
// path), Churn (overwriting, erasing and clearing fields of one message,
// which frees blocks) and Image (a 1 MiB bytes field in fixed memory).
// bench/FINDINGS.md has the figures, counted with callgrind on
// TestScrubWorkload (instruction counts do not depend on the machine's
// load; the command is in FINDINGS.md).

var scrubWorkloads = map[string]func(opts runtime.Options, n int){
	"Build": scrubBuild,
	"Churn": scrubChurn,
	"Image": scrubImage,
}

var scrubModes = map[string]payloadbuffer.Scrub{"on": payloadbuffer.ScrubDefault, "off": payloadbuffer.ScrubOff}

func scrubBuild(opts runtime.Options, n int) {
	mem := make([]byte, 1<<14)
	for range n {
		x, err := pb.NewEverythingIn(mem, opts)
		if err != nil {
			panic(err)
		}
		buildGenerated(x)
	}
}

func scrubChurn(opts runtime.Options, n int) {
	x, err := pb.NewEverythingIn(make([]byte, 1<<14), opts)
	if err != nil {
		panic(err)
	}
	long := strings.Repeat("L", 200)
	for range n {
		x.SetName(long)
		x.SetName("short")
		l := x.MutableRepeated().RString()
		l.Append(long)
		l.Append("x")
		l.Erase(0, 1)
		l.Clear()
		x.MutableInner().SetS(long)
		x.ClearInner()
		x.Inners().Append().SetS("e")
		x.Inners().Clear()
		if x.Err() != nil {
			panic(x.Err())
		}
	}
}

var scrubImageBytes = bytes.Repeat([]byte{1, 2, 3, 4}, 1<<18)

func scrubImage(opts runtime.Options, n int) {
	mem := make([]byte, 1<<20+1<<16)
	for range n {
		x, err := pb.NewScalarsIn(mem, opts)
		if err != nil {
			panic(err)
		}
		x.SetFBytes(scrubImageBytes)
		if x.Err() != nil {
			panic(x.Err())
		}
	}
}

func BenchmarkScrub(b *testing.B) {
	for _, w := range []string{"Build", "Churn", "Image"} {
		for _, mode := range []string{"on", "off"} {
			b.Run(w+"/"+mode, func(b *testing.B) {
				scrubWorkloads[w](runtime.Options{Scrub: scrubModes[mode]}, b.N)
			})
		}
	}
}

// TestScrubWorkload runs one workload PHASER_SCRUB_WORKLOAD="Build on 1000"
// times (for callgrind); without it, it skips.
func TestScrubWorkload(t *testing.T) {
	f := strings.Fields(os.Getenv("PHASER_SCRUB_WORKLOAD"))
	if len(f) != 3 {
		t.Skip("set PHASER_SCRUB_WORKLOAD=\"Build|Churn|Image on|off N\" to run a scrubbing workload")
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || scrubWorkloads[f[0]] == nil {
		t.Fatalf("PHASER_SCRUB_WORKLOAD=%q", os.Getenv("PHASER_SCRUB_WORKLOAD"))
	}
	scrubWorkloads[f[0]](runtime.Options{Scrub: scrubModes[f[1]]}, n)
}
