package impl

import (
	"sync/atomic"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// What the wire codecs, interpreted and generated, read besides the
// accessors.

// WorkBudgetSlack is what the work budget of an encoder adds to the length
// of the payload it reads (WorkBudget).
const WorkBudgetSlack = 4096

// WorkBudget returns the work budget of an encoder of m's payload: the
// length of its memory, which every offset in it addresses, and
// WorkBudgetSlack. An encoder charges each string, element and array it
// reads against it: a payload holds each of them once, so only one whose
// offsets are shared or cyclic (hostile input) runs out.
func (m Msg) WorkBudget() int {
	if m.p == nil {
		return WorkBudgetSlack
	}
	return len(m.p.mem) + WorkBudgetSlack
}

// Charge returns what an encoder charges m, a message of type t, against
// its work budget on entering it (Type.Charge, in the format of m's
// payload).
func (m Msg) Charge(t *Type) uint32 {
	if m.v3() {
		return t.Charge(payloadbuffer.V3)
	}
	return t.Charge(payloadbuffer.V2)
}

// FormatV3 reports whether m lives in a payload of format v3, whose
// repeated messages are MessageVectorBlocks (MessageList.Allocate makes n
// elements at once).
func (m Msg) FormatV3() bool { return m.v3() }

// Len returns the number of elements the cursor walks.
func (c *Cursor) Len() int { return c.n }

// The fields of google.protobuf.Timestamp and Duration: seconds (1) and
// nanos (2) in both, presence ids 0 and 1 (bits 0 and 1 of byte 4).
var (
	SecondsField = Field{Number: 1, Offset: 8, Bits: Presence(0)}
	NanosField   = Field{Number: 2, Offset: 16, Bits: Presence(1)}
)

// IsEmptyAny reports whether the google.protobuf.Any message m is absent or
// holds neither a type URL nor a value: the only Any ROS1 can carry (as
// two empty strings).
func (m Msg) IsEmptyAny() bool {
	return !m.IsPresent() || len(m.StringBytes(anyTypeURL)) == 0 && !m.HasString(anyValue)
}

// Nested returns message field f (not inline) of type t, as Message does,
// for the codecs: in one call, the table of a nested message of a
// received payload compared with the one its cache knows for t, so that a
// holder reached through its fields does not go through bind for each.
func (m Msg) Nested(f Field, t *Type) Msg {
	if m.acc != throughTable && !f.Inline() {
		mem := m.p.mem
		s := le.Uint32(mem[m.off+f.Offset:])
		if s == 0 {
			return Msg{p: m.p}
		}
		if uint64(s)+uint64(t.extent) <= uint64(len(mem)) &&
			(m.p.trust&t.trust != 0 || m.p.knownCompiled(t, le.Uint32(mem[s:]))) {
			return Msg{m.p, s, m.acc}
		}
	}
	return m.messageGeneral(f, t)
}

// Elems returns the stored elements of a repeated scalar field whose
// VectorHeader holds num and data, n elements of size bytes, as Span does
// (nil unless they all lie in m's payload), for generated code that read
// the VectorHeader from the message's View bytes.
func (m Msg) Elems(num, data uint32, size int) []byte {
	if m.p == nil || num == 0 || data == 0 {
		return nil
	}
	mem := m.p.mem
	end := uint64(data) + uint64(num)*uint64(size)
	if end > uint64(len(mem)) {
		return nil
	}
	return mem[data:end:end]
}

// Run returns the elements the cursor walks next that Next would give at
// their compiled offsets without a check of its own (every element of a
// payload that trusts what it wrote; else each one whose table is the one
// found to be the compiled table), as the bytes of n consecutive elements
// of stride bytes each, and moves the cursor past them: for generated code
// that writes the elements of a flat message type from their bytes, one
// call per chunk. n is 0 where Next must give the next element (a new
// chunk, an element of another table or of a lost chunk, a Phaser 2
// payload, the end of the walk).
func (c *Cursor) Run() (b []byte, stride, n int) {
	o, end := c.e, c.end
	if o >= end {
		return nil, 0, 0
	}
	mem := c.m.p.mem
	k := end
	if !c.trust {
		k = o
		for k < end && uint64(le.Uint32(mem[k:])) == c.tab {
			k += c.stride
		}
	}
	n = int((k - o) / c.stride)
	c.e = k
	c.i += n
	return mem[o:k:k], int(c.stride), n
}

// NestedBytes returns, for a generated encoder, the first n bytes (n is
// t's extent, a constant in the encoder) of the message of type t whose
// offset s the compiled message m holds in a message slot, and true, when
// that message is one the encoder reads at its compiled offsets: present,
// out of a writable payload's header, lying whole in the payload, and its
// table t's compiled one (as bind finds it: the payload trusts what it
// wrote, or its table cache knows the table). Otherwise it returns false,
// and the encoder asks NestedAt what the message is (absent, another
// layout, or a table to compare). It is NestedAt and CompiledBytes in one
// inline step, for the encoders' common case.
func (m Msg) NestedBytes(s uint32, t *Type, n uint32) (q []byte, ok bool) {
	p, o, end := m.p, int(s), int(s)+int(n)
	if s >= max(p.floor, 1) && end <= len(p.mem) {
		q = p.mem[o:end:end]
		// knownCompiled, written out: its call would put NestedBytes over
		// the inliner's budget.
		ok = p.trust&t.trust != 0 || atomic.LoadUint64(&p.tables[t.slot%tableSlots])&^tableRegistered == uint64(t.id)<<34|tableCompiled|uint64(le.Uint32(q))
	}
	return q, ok
}
