// Package payloadbuffer implements the Phaser payload heap: a relocatable
// allocator that lives entirely inside a []byte and refers to its blocks by
// offset, never by pointer, so the bytes can be copied, mapped into shared
// memory, or sent over a network and read anywhere.
//
// The byte layout is the one written by the C++ Phaser runtime. Two formats
// exist and are chosen when a buffer is created ([V2], [V3]) and detected
// when one is opened ([Open]):
//
//   - V2 is the C++ Phaser 2.x format: magic 0xE5F6F1C4 (fixed) or
//     0xC5F6F1C4 (movable), an address-ordered first-fit free list and, with
//     [Performance] tuning, the bitmap-run small-block allocator. The same
//     sequence of operations gives the same bytes as C++ Phaser 2.1 with its
//     known allocator bugs corrected (see the project's docs/format.md).
//   - V3 is the Phaser 3 format: magic "PH", a flags byte and the format
//     version, the same free list with the corrected realloc, and per-size-class
//     LIFO free lists for blocks of at most 128 bytes.
//
// A buffer is either fixed (caller memory such as shared memory: never grown,
// never written past its length) or owned and growable (grown by at least
// doubling; offsets stay valid and the *Buffer stays the same object, so every
// handle sees the new bytes). When a fixed buffer is full, the allocation that
// did not fit returns offset 0, the buffer records the failure ([Buffer.Failed])
// and every later allocation fails too; what was written before stays intact.
//
// A buffer can scrub ([Options].Scrub, the default in V3): it zeroes the
// blocks it frees and never hands out bytes it did not write, so that its
// payload carries nothing deleted and none of the caller's old memory. V2
// does not by default: its bytes are C++ Phaser 2.1's.
//
// Offset 0 always means "absent". All integers are little-endian.
//
// Readers of received payloads do not need this package's allocator: they
// only follow offsets, with every access bounded by the received length.
package payloadbuffer
