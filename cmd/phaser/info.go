package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/phaser-go/phaser/payloadbuffer"
)

var le = binary.LittleEndian

// Header constants (spec sections 1, 2.7, 4.5, 8.1, 8.5).
const (
	magicFixedV2   = 0xE5F6F1C4
	magicMovableV2 = 0xC5F6F1C4
	controlMagic   = 0x52544850 // "PHTR"
	hybridMagic    = 0x50484431
	maxListed      = 1000 // free blocks, runs or entries printed before giving up
)

func info(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) != 1 {
		if len(args) == 0 {
			return usagef("info: no payload file (use - for standard input)")
		}
		return usagef("info: want one payload file, got %d arguments", len(args))
	}
	data, err := readPayload(args[0], stdin)
	if err != nil {
		return err
	}
	var sb strings.Builder
	if err := describe(&sb, data); err != nil {
		return err
	}
	_, err = io.WriteString(stdout, sb.String())
	return err
}

// header is the decoded buffer header.
type header struct {
	version  payloadbuffer.Version
	movable  bool
	small    bool // Performance tuning
	failed   bool // v3 allocation-failed flag
	magic    uint32
	message  uint32
	hwm      uint32
	fullSize uint32
	freeList uint32
	metadata uint32
	slots    [4]uint32
}

func (h *header) size() uint32 {
	if h.movable {
		return payloadbuffer.MovableHeaderSize
	}
	return payloadbuffer.FixedHeaderSize
}

// parseHeader decodes the header of data, or reports why data is not a
// payload.
func parseHeader(data []byte) (*header, error) {
	if len(data) < payloadbuffer.FixedHeaderSize {
		return nil, fmt.Errorf("not a Phaser payload: %d bytes, the header needs %d", len(data), payloadbuffer.FixedHeaderSize)
	}
	h := &header{magic: le.Uint32(data)}
	switch {
	case data[0] == 'P' && data[1] == 'H':
		h.version = payloadbuffer.V3
		h.small = data[2]&1 != 0
		h.movable = data[2]&2 != 0
		h.failed = data[2]&4 != 0
		if data[3] != 3 {
			return nil, fmt.Errorf("not a Phaser payload: v3 magic with format major version %d", data[3])
		}
	case h.magic&^1 == magicFixedV2 || h.magic&^1 == magicMovableV2:
		h.version = payloadbuffer.V2
		h.small = h.magic&1 != 0
		h.movable = h.magic&^1 == magicMovableV2
	default:
		return nil, fmt.Errorf("not a Phaser payload: magic % x", data[:4])
	}
	h.message = le.Uint32(data[4:])
	h.hwm = le.Uint32(data[8:])
	h.fullSize = le.Uint32(data[12:])
	h.freeList = le.Uint32(data[16:])
	h.metadata = le.Uint32(data[20:])
	for i := range h.slots {
		h.slots[i] = le.Uint32(data[24+4*i:])
	}
	return h, nil
}

// within reports whether n bytes at off lie in data.
func within(data []byte, off uint32, n uint64) bool {
	return uint64(off)+n <= uint64(len(data))
}

// describe writes the description of payload data to w.
func describe(w *strings.Builder, data []byte) error {
	h, err := parseHeader(data)
	if err != nil {
		return err
	}
	kind := "fixed"
	if h.movable {
		kind = "movable"
	}
	tuning := "size"
	if h.small {
		tuning = "performance"
	}
	fmt.Fprintf(w, "bytes:          %d\n", len(data))
	fmt.Fprintf(w, "format:         %s (magic % x)\n", h.version, data[:4])
	fmt.Fprintf(w, "buffer:         %s (header %d bytes)\n", kind, h.size())
	fmt.Fprintf(w, "tuning:         %s\n", tuning)
	if h.version == payloadbuffer.V3 {
		fmt.Fprintf(w, "failed:         %t\n", h.failed)
	}
	fmt.Fprintf(w, "hwm:            %d%s\n", h.hwm, note(h.hwm != uint32(len(data)), "differs from the byte count"))
	fmt.Fprintf(w, "full_size:      %d\n", h.fullSize)
	fmt.Fprintf(w, "root offset:    %d%s\n", h.message, rangeNote(data, h.message, 4))
	if h.message != 0 && within(data, h.message, 4) {
		tab := le.Uint32(data[h.message:])
		fmt.Fprintf(w, "root table:     %d%s\n", tab, tableNote(data, tab))
	}
	fmt.Fprintf(w, "free list:      %d%s\n", h.freeList, rangeNote(data, h.freeList, 8))
	describeFreeList(w, data, h.freeList)
	describeSmall(w, data, h)
	fmt.Fprintf(w, "metadata:       %d%s\n", h.metadata, rangeNote(data, h.metadata, 20))
	describeControl(w, data, h)
	return nil
}

func note(cond bool, s string) string {
	if cond {
		return " (" + s + ")"
	}
	return ""
}

// rangeNote notes an offset whose n bytes are not in data.
func rangeNote(data []byte, off uint32, n uint64) string {
	switch {
	case off == 0:
		return " (none)"
	case !within(data, off, n):
		return " (beyond the payload)"
	}
	return ""
}

// tableNote describes the field table at tab.
func tableNote(data []byte, tab uint32) string {
	if tab == 0 {
		return " (none)"
	}
	if !within(data, tab, 4) {
		return " (beyond the payload)"
	}
	if le.Uint32(data[tab:]) == hybridMagic {
		if !within(data, tab, 16) {
			return " (hybrid, truncated)"
		}
		base, span, sparse := le.Uint32(data[tab+4:]), le.Uint32(data[tab+8:]), le.Uint32(data[tab+12:])
		size := 16 + 4*uint64(span) + 8*uint64(sparse)
		dense := "no dense range"
		if span > 0 {
			dense = fmt.Sprintf("dense fields %d..%d", base, uint64(base)+uint64(span)-1)
		}
		return fmt.Sprintf(" (hybrid: %s, %d sparse, %d bytes%s)",
			dense, sparse, size, note(!within(data, tab, size), "truncated"))
	}
	count := le.Uint32(data[tab:])
	size := 4 + 8*uint64(count)
	return fmt.Sprintf(" (legacy: %d fields, %d bytes%s)", count, size, note(!within(data, tab, size), "truncated"))
}

// describeFreeList lists the free blocks {uint32 length; uint32 next}.
func describeFreeList(w *strings.Builder, data []byte, off uint32) {
	var total uint64
	n := 0
	prev := uint32(0)
	for off != 0 {
		if n == maxListed {
			fmt.Fprintf(w, "  ... (more than %d blocks, stopped)\n", maxListed)
			return
		}
		if !within(data, off, 8) {
			fmt.Fprintf(w, "  block @%d: header beyond the payload\n", off)
			break
		}
		if off <= prev {
			fmt.Fprintf(w, "  block @%d: not after the previous block (corrupt list, stopped)\n", off)
			return
		}
		length, next := le.Uint32(data[off:]), le.Uint32(data[off+4:])
		fmt.Fprintf(w, "  block @%d: length %d, next %d%s\n", off, length, next,
			note(!within(data, off, uint64(length)), "extends past the payload"))
		total += uint64(length)
		n++
		prev, off = off, next
	}
	fmt.Fprintf(w, "  %d free blocks, %d bytes\n", n, total)
}

var classSize = [4]uint32{16, 32, 64, 128}

// describeSmall describes the four small-block slots: bitmap run vectors
// (v2) or LIFO free-list heads (v3).
func describeSmall(w *strings.Builder, data []byte, h *header) {
	if h.version == payloadbuffer.V3 {
		for c, head := range h.slots {
			fmt.Fprintf(w, "small %3d:      free-list head %d%s\n", classSize[c], head, rangeNote(data, head, 8))
		}
		return
	}
	for c, vh := range h.slots {
		fmt.Fprintf(w, "small %3d:      %d%s", classSize[c], vh, rangeNote(data, vh, 8))
		if vh == 0 || !within(data, vh, 8) {
			fmt.Fprintln(w)
			continue
		}
		num, runs := le.Uint32(data[vh:]), le.Uint32(data[vh+4:])
		if !within(data, runs, 4*uint64(num)) {
			fmt.Fprintf(w, " (%d runs at %d, beyond the payload)\n", num, runs)
			continue
		}
		used, slots := 0, 0
		var bad []string
		for i := range min(num, maxListed) {
			r := le.Uint32(data[runs+4*i:])
			if !within(data, r, 8) {
				bad = append(bad, strconv.FormatUint(uint64(r), 10))
				continue
			}
			bits, cnt := le.Uint32(data[r:]), data[r+5]
			for b := range min(cnt, 32) {
				if bits&(1<<b) != 0 {
					used++
				}
			}
			slots += int(cnt)
		}
		fmt.Fprintf(w, " (%d runs, %d of %d blocks in use", num, used, slots)
		if len(bad) > 0 {
			fmt.Fprintf(w, "; runs beyond the payload: %s", strings.Join(bad, " "))
		}
		fmt.Fprintln(w, ")")
	}
}

// describeControl describes the runtime control block (spec 4.5, 8.5).
func describeControl(w *strings.Builder, data []byte, h *header) {
	cb := h.metadata
	if cb == 0 || !within(data, cb, 20) {
		return
	}
	if le.Uint32(data[cb:]) != controlMagic {
		fmt.Fprintf(w, "  not a control block (magic % x): user metadata\n", data[cb:cb+4])
		return
	}
	version, user := le.Uint32(data[cb+4:]), le.Uint32(data[cb+8:])
	count, capacity := le.Uint32(data[cb+12:]), le.Uint32(data[cb+16:])
	fmt.Fprintf(w, "  control block v%d: user_metadata %d, %d entries, capacity %d\n", version, user, count, capacity)
	var base, es uint32
	switch version {
	case 1:
		base, es = cb+20, 12
	case 2:
		base, es = cb+24, 16
	default:
		fmt.Fprintf(w, "  unknown control block version %d\n", version)
		return
	}
	for i := range count {
		if i == maxListed {
			fmt.Fprintf(w, "  ... (more than %d entries, stopped)\n", maxListed)
			return
		}
		e := uint64(base) + uint64(i)*uint64(es)
		if e+uint64(es) > uint64(len(data)) {
			fmt.Fprintf(w, "  entry %d: beyond the payload\n", i)
			return
		}
		if version == 2 {
			hash, tab := le.Uint64(data[e:]), le.Uint32(data[e+8:])
			fmt.Fprintf(w, "  entry %d: name hash %#016x, table %d%s\n", i, hash, tab, tableNote(data, tab))
			continue
		}
		name, tab, size := le.Uint32(data[e:]), le.Uint32(data[e+4:]), le.Uint32(data[e+8:])
		n := "(name beyond the payload)"
		if within(data, name, uint64(size)) {
			n = strconv.Quote(string(data[name : name+size]))
			if s := n[1 : len(n)-1]; s == string(data[name:name+size]) {
				n = s // a plain name needs no quotes
			}
		}
		fmt.Fprintf(w, "  entry %d: %s, table %d%s\n", i, n, tab, tableNote(data, tab))
	}
}
