package impl_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// newSchemaDir holds cases in the golden notation over a schema the golden
// set does not have (see its README.md).
var newSchemaDir = filepath.Join("testdata", "newschema")

// newSchemaCase is one .ops of newSchemaDir, with the Case the harness
// derives from its header line.
type newSchemaCase struct {
	c    goldens.Case
	prog *goldens.Program
}

func newSchemaCases(t *testing.T) []newSchemaCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(newSchemaDir, "*.ops"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no .ops in %s: %v", newSchemaDir, err)
	}
	var out []newSchemaCase
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := goldens.ParseOps(src)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		h := prog.Header
		out = append(out, newSchemaCase{goldens.Case{
			Name: h.Name, MessageType: h.MessageType, BufferKind: h.BufferKind,
			Tuning: h.Tuning, Frontend: "protobuf",
		}, prog})
	}
	return out
}

var createSize = regexp.MustCompile(`Create(?:Dynamic)?Mutable\((?:zeroed_buffer, )?(\d+)`)

// TestGoldenReplayNewSchema replays every case of newSchemaDir through the
// golden harness (the .ops evaluator, the C++ name scope, the replayer) in
// v2 and v3, and checks the payload's content against NAME.txt (NaN bits
// from NAME.pbref.bin) and, for dynamic buffers, that full_size is the
// initial size doubled (spec 2.8: 1001, 2002, 4004, ...).
func TestGoldenReplayNewSchema(t *testing.T) {
	files := goldenTypes(t, newSchemaDir)
	for _, nc := range newSchemaCases(t) {
		c := nc.c
		for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
			t.Run(c.Name+"/"+v.String(), func(t *testing.T) {
				r := &replayer{t: t, files: files, c: c, dir: newSchemaDir, version: v}
				got, err := r.run(nc.prog)
				if err != nil {
					t.Fatal(err)
				}
				md, err := c.MessageDescriptor(newSchemaDir)
				if err != nil {
					t.Fatal(err)
				}
				typ, err := impl.TypeOf(md)
				if err != nil {
					t.Fatal(err)
				}
				m, err := impl.Read(typ, got)
				if err != nil {
					t.Fatal(err)
				}
				content, err := m.ToProto(typ)
				if err != nil {
					t.Fatal(err)
				}
				want, err := c.Values(newSchemaDir)
				if err != nil {
					t.Fatal(err)
				}
				assertSameContent(t, content, want)
				if !c.Dynamic() {
					return
				}
				sm := createSize.FindStringSubmatch(nc.prog.Stmts[0].Text)
				if sm == nil {
					t.Fatalf("no create size in %q", nc.prog.Stmts[0].Text)
				}
				initial, _ := strconv.Atoi(sm[1])
				full := int(binary.LittleEndian.Uint32(got[12:]))
				if full%initial != 0 || bits.OnesCount(uint(full/initial)) != 1 {
					t.Errorf("full_size %d is not %d doubled", full, initial)
				}
				if last := lastFreeEnd(got, full); last != 0 && last != full {
					t.Errorf("the last free block ends at %d, not at full_size %d", last, full)
				}
			})
		}
	}
}

// lastFreeEnd returns where the last block of the payload's free list ends,
// or 0 if the list is empty or its last header lies past the payload.
func lastFreeEnd(payload []byte, full int) int {
	end := 0
	for cur, steps := binary.LittleEndian.Uint32(payload[16:]), 0; cur != 0 && steps < full/8; steps++ {
		if int(cur)+8 > len(payload) {
			return 0
		}
		end = int(cur) + int(binary.LittleEndian.Uint32(payload[cur:]))
		cur = binary.LittleEndian.Uint32(payload[cur+4:])
	}
	return end
}

// TestReplaySmallBlockMove replays resize_unpacked_ids(6);
// set_unpacked_ids(5, 7); clear_unpacked_ids(); resize_history(4);
// resize_history(5). With v2 performance tuning the history elements move
// from a 16-byte to a 32-byte small block, the one unpacked_ids freed; C++
// 2.1 zeroes exactly [16, 20) of it, so the 4 bytes after the 5 elements
// keep the 7 of unpacked_ids[5]. Size tuning and v3 zero them.
func TestReplaySmallBlockMove(t *testing.T) {
	files := goldenTypes(t, newSchemaDir)
	for _, nc := range newSchemaCases(t) {
		c := nc.c
		if c.Name != "fleet_small_move_perf" && c.Name != "fleet_small_move_size" {
			continue
		}
		for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
			t.Run(fmt.Sprintf("%s/%v", c.Tuning, v), func(t *testing.T) {
				r := &replayer{t: t, files: files, c: c, dir: newSchemaDir, version: v}
				got, err := r.run(nc.prog)
				if err != nil {
					t.Fatal(err)
				}
				typ := r.root.t
				m, err := impl.Read(typ, got)
				if err != nil {
					t.Fatal(err)
				}
				f := typ.FieldByName("history")
				last := m.Elem(f.Field, 4, 4)
				if last == 0 || m.Len(f.Field, 4) != 5 {
					t.Fatalf("history has %d elements", m.Len(f.Field, 4))
				}
				want := []byte{0, 0, 0, 0}
				if v == payloadbuffer.V2 && c.Tuning == "performance" {
					want = []byte{7, 0, 0, 0}
				}
				if tail := got[last+4 : last+8]; !bytes.Equal(tail, want) {
					t.Errorf("bytes after the 5 history elements = % x, want % x", tail, want)
				}
			})
		}
	}
}
