package impl

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestPutMatchesPutAny checks Put's in-line path against putAny, the
// general one, byte for byte: every new length 0 to 24 over every old
// length 0 to 24, in blocks of every size that holds the new string (and
// some that do not), at the start and the end of the memory, scrubbing
// and not.
func TestPutMatchesPutAny(t *testing.T) {
	for _, scrub := range []bool{false, true} {
		for size := uint32(4); size <= 32; size++ {
			for old := 0; old <= 24; old++ {
				for n := 0; n <= 24; n++ {
					for _, at := range []string{"start", "end"} {
						name := fmt.Sprintf("scrub=%v/size=%d/old=%d/n=%d/%s", scrub, size, old, n, at)
						mem := make([]byte, 64)
						for i := range mem {
							mem[i] = byte(0xA0 + i)
						}
						off := uint32(8)
						if at == "end" {
							off = uint32(len(mem)) - size
						}
						blk := mem[off : off+size]
						blk[0], blk[1], blk[2], blk[3] = byte(old), 0, 0, 0
						for i := 4; i < 4+old && i < len(blk); i++ {
							blk[i] = 'o'
						}
						got := bytes.Clone(mem)
						want := bytes.Clone(mem)
						str := strings.Repeat("n", n)
						if n > 0 {
							str = str[:n-1] + "z" // the tail word lands where it should
						}
						b := KeptBlock{Off: off, Size: size}
						Assigner{&Payload{mem: got, scrub: scrub}}.Put(b, str)
						Assigner{&Payload{mem: want, scrub: scrub}}.putAny(b, str)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s:\nPut    %x\nputAny %x", name, got, want)
						}
					}
				}
			}
		}
	}
	// A block past the memory's end is written by neither.
	mem := make([]byte, 16)
	Assigner{&Payload{mem: mem, scrub: true}}.Put(KeptBlock{Off: 8, Size: 16}, "0123456789")
	if !bytes.Equal(mem, make([]byte, 16)) {
		t.Fatalf("Put wrote a block past the memory: %x", mem)
	}
}

// TestBlockSpan checks the span Block takes blocks in (assignSpan): a
// block whose length word and bytes lie in it is taken; an offset at the
// span's end or past it, below it, or not 8-aligned is not, nor is any
// offset (0 included) before a BeginAssign set a span; and a readInto,
// which rebinds the payload to other memory, clears the span, since Block
// reads the length word without a bounds check of its own.
func TestBlockSpan(t *testing.T) {
	mem := make([]byte, 256)
	p := &Payload{mem: mem, floor: 40}
	p.assigning = assignSpan{lo: 48, span: 256 - 48, root: 200, end: 248}
	a := Assigner{p}
	block := func(s uint32) (KeptBlock, bool) {
		var slot [4]byte
		le.PutUint32(slot[:], s)
		return a.Block(&slot)
	}
	le.PutUint32(mem[56:], 16) // the length word of a block at 64
	if b, ok := block(64); !ok || b != (KeptBlock{Off: 64, Size: 16}) {
		t.Fatalf("Block(64) = %v, %v; want {64 16}, true", b, ok)
	}
	for _, s := range []uint32{256, 264, 1 << 31, 40, 8, 0, 68} {
		if b, ok := block(s); ok {
			t.Errorf("Block(%d) = %v, true; want false (outside the span or misaligned)", s, b)
		}
	}
	if _, err := ReadInto(p, &Type{name: "test.T"}, make([]byte, 8)); err == nil {
		t.Fatal("ReadInto of 8 bytes: no error")
	}
	if p.assigning.span != 0 {
		t.Fatalf("ReadInto left the span %+v of the memory p had", p.assigning)
	}
	for _, s := range []uint32{0, 8, 64} {
		if b, ok := block(s); ok {
			t.Errorf("after readInto, Block(%d) = %v, true; want false", s, b)
		}
	}
}
