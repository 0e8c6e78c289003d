package runtime

import (
	"math/bits"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// Repeated messages in format v3 (spec 8.8 PROPOSAL): the VectorHeader
// {num, data} of the field points to a MessageVectorBlock
//
//	+0   uint32 stride           align8(BinarySize)
//	+4   uint32 first capacity c
//	+8   uint32 metadata         the element type's table
//	+12  uint32 chunks in use
//	+16  uint32 chunk[32]        chunk[0] = data+144; chunk k holds c<<k elements
//	+144 the first chunk
//
// Elements are complete message images (word 0 = metadata) laid out in the
// chunks; chunks never move, so a handle on an element stays valid while the
// field grows, and Add into room that exists calls no allocator.

const (
	mvbStride   = 0
	mvbCap      = 4
	mvbMeta     = 8
	mvbChunks   = 12
	mvbChunk    = 16
	mvbHeader   = 144
	mvbMaxChunk = 32
)

// msgVec is a validated view of a MessageVectorBlock.
type msgVec struct {
	data, stride, c, chunks uint32
}

// mvb returns the block of the vector at header offset o, checked against
// the payload (spec 8.8: validated once per access).
func (p *Payload) mvb(o uint32) (msgVec, bool) {
	mem := p.mem
	data := le.Uint32(mem[o+4:])
	if data == 0 || uint64(data)+mvbHeader > uint64(len(mem)) {
		return msgVec{}, false
	}
	v := msgVec{data: data, stride: le.Uint32(mem[data:]), c: le.Uint32(mem[data+mvbCap:]), chunks: le.Uint32(mem[data+mvbChunks:])}
	if v.stride < 4 || v.stride%4 != 0 || v.c == 0 || v.chunks == 0 || v.chunks > mvbMaxChunk ||
		uint64(data)+mvbHeader+uint64(v.c)*uint64(v.stride) > uint64(len(mem)) {
		return msgVec{}, false
	}
	return v, true
}

// capacity returns how many elements the allocated chunks hold.
func (v msgVec) capacity() uint64 { return uint64(v.c) * (1<<uint64(v.chunks) - 1) }

// elem returns the offset of element i, checking its chunk lies in the
// payload.
func (p *Payload) elem(v msgVec, i uint32) (uint32, bool) {
	var k uint32 // the chunk: 0 without a division for the first c elements
	if i >= v.c {
		k = uint32(bits.Len64(uint64(i)/uint64(v.c)+1) - 1)
	}
	if k >= v.chunks {
		return 0, false
	}
	base := le.Uint32(p.mem[v.data+mvbChunk+4*k:])
	idx := uint64(i) - uint64(v.c)*(1<<uint64(k)-1)
	end := uint64(base) + (uint64(v.c)<<k)*uint64(v.stride)
	if base == 0 || end > uint64(len(p.mem)) {
		return 0, false
	}
	return base + uint32(idx)*v.stride, true
}

// mvbLen returns the element count of a v3 message vector.
func (m Msg) mvbLen(f Field) (msgVec, uint32, int) {
	o, ok := m.at(f, 8)
	if !ok {
		return msgVec{}, 0, 0
	}
	num := le.Uint32(m.p.mem[o:])
	v, ok := m.p.mvb(o)
	// Each element takes stride bytes of its own: a count the payload
	// cannot hold is a lie, and reading it would be work the input cannot
	// justify (a few hundred bytes claiming 2^32 elements).
	if num == 0 || !ok || uint64(num) > v.capacity() || uint64(num)*uint64(v.stride) > uint64(len(m.p.mem)) {
		return msgVec{}, o, 0
	}
	return v, o, int(num)
}

// eachMessage calls yield with each element of repeated message field f of
// type t, in order, until it returns false (MessageList.All). In v3 it goes
// chunk by chunk, each chunk checked against the payload once, and binds an
// element without a table check when its table offset is one already found
// to be t's compiled table.
func (m Msg) eachMessage(f Field, t *Type, yield func(int, Msg) bool) {
	if !m.v3() {
		for i := range m.MessagesLen(f) {
			if !yield(i, m.ElemMessage(f, i, t)) {
				return
			}
		}
		return
	}
	v, _, n := m.mvbLen(f)
	var tab uint32 // a table offset verified as t's, or 0
	i := 0
	for k := uint32(0); i < n; k++ {
		size := uint64(v.c) << k // elements in chunk k
		var base uint32
		if k < v.chunks && uint64(v.data)+mvbHeader <= uint64(len(m.p.mem)) {
			base = le.Uint32(m.p.mem[v.data+mvbChunk+4*k:])
		}
		if base == 0 || uint64(base)+size*uint64(v.stride) > uint64(len(m.p.mem)) {
			base = 0 // its elements read as absent, as At has them
		}
		for j := uint64(0); j < size && i < n; j, i = j+1, i+1 {
			e := Msg{p: m.p}
			if o := base + uint32(j)*v.stride; base != 0 && uint64(o)+4 <= uint64(len(m.p.mem)) {
				if w := le.Uint32(m.p.mem[o:]); w == tab && tab != 0 {
					e = Msg{p: m.p, off: o, fast: true}
				} else if e = m.p.bind(o, t); e.fast {
					tab = w
				}
			}
			if !yield(i, e) {
				return
			}
		}
	}
}

// newMVB creates the block of an empty vector at header offset o with room
// for c elements of type t.
func (p *Payload) newMVB(o uint32, c uint32, t *Type) (msgVec, bool) {
	stride := (t.BinarySize(p.version) + 7) &^ 7
	data := p.buf.Allocate(int(mvbHeader+c*stride), payloadbuffer.Zero|payloadbuffer.Small)
	p.sync()
	if data == 0 {
		p.fail()
		return msgVec{}, false
	}
	le.PutUint32(p.mem[data:], stride)
	le.PutUint32(p.mem[data+mvbCap:], c)
	le.PutUint32(p.mem[data+mvbChunks:], 1)
	le.PutUint32(p.mem[data+mvbChunk:], data+mvbHeader)
	// The element type's table, installed through a scratch word.
	if !p.installMetadata(data+mvbMeta, t) {
		return msgVec{}, false
	}
	le.PutUint32(p.mem[o:], 0)
	le.PutUint32(p.mem[o+4:], data)
	return msgVec{data: data, stride: stride, c: c, chunks: 1}, true
}

// growMVB adds chunks until the vector holds n elements.
func (p *Payload) growMVB(v msgVec, n uint64) (msgVec, bool) {
	for v.capacity() < n {
		if v.chunks >= mvbMaxChunk {
			p.fail()
			return v, false
		}
		size := uint64(v.c) << v.chunks * uint64(v.stride)
		if size > 1<<31 {
			p.fail()
			return v, false
		}
		chunk := p.buf.Allocate(int(size), payloadbuffer.Zero|payloadbuffer.Small)
		p.sync()
		if chunk == 0 {
			p.fail()
			return v, false
		}
		le.PutUint32(p.mem[v.data+mvbChunk+4*v.chunks:], chunk)
		v.chunks++
		le.PutUint32(p.mem[v.data+mvbChunks:], v.chunks)
	}
	return v, true
}

// mvbAdd appends a new, empty element (zeroed image, metadata word set).
func (m Msg) mvbAdd(f Field, t *Type) Msg {
	o, ok := m.vslot(f)
	if !ok {
		return Msg{p: m.p}
	}
	num := le.Uint32(m.p.mem[o:])
	v, ok := m.p.mvb(o)
	if !ok {
		if v, ok = m.p.newMVB(o, 2, t); !ok {
			return Msg{p: m.p}
		}
		num = 0
	}
	if v, ok = m.p.growMVB(v, uint64(num)+1); !ok {
		return Msg{p: m.p}
	}
	e, _ := m.p.elem(v, num)
	clear(m.p.mem[e : e+v.stride])
	le.PutUint32(m.p.mem[e:], le.Uint32(m.p.mem[v.data+mvbMeta:]))
	le.PutUint32(m.p.mem[o:], num+1)
	return m.p.bind(e, t) // the vector's element table may be another writer's
}

// mvbFill appends n new, empty elements to the empty vector at header
// offset o whose chunks were just allocated (zeroed), or as many as they
// hold: it sets each element's metadata word chunk by chunk and the count
// once, where n calls of mvbAdd would validate the block n times.
func (p *Payload) mvbFill(o uint32, n int) {
	v, ok := p.mvb(o)
	if !ok || n <= 0 {
		return
	}
	meta := le.Uint32(p.mem[v.data+mvbMeta:])
	want := min(uint64(n), v.capacity())
	num := uint64(0)
	for k := uint32(0); num < want; k++ {
		base := uint64(le.Uint32(p.mem[v.data+mvbChunk+4*k:]))
		if base == 0 || base+(uint64(v.c)<<k)*uint64(v.stride) > uint64(len(p.mem)) {
			break // as elem has it
		}
		size := min(uint64(v.c)<<k, want-num) // elements to fill in chunk k
		for e := base; e < base+size*uint64(v.stride); e += uint64(v.stride) {
			le.PutUint32(p.mem[e:], meta)
		}
		num += size
	}
	le.PutUint32(p.mem[o:], uint32(num))
}

// mvbReserve makes room for n elements.
func (m Msg) mvbReserve(f Field, n int, t *Type) {
	o, ok := m.vslot(f)
	if !ok || n <= 0 {
		return
	}
	v, ok := m.p.mvb(o)
	if !ok {
		if v, ok = m.p.newMVB(o, uint32(n), t); !ok {
			return
		}
	}
	m.p.growMVB(v, uint64(n))
}

// mvbClear releases every element's contents, frees the chunks and the
// block, and empties the field.
func (m Msg) mvbClear(f Field, t *Type) {
	o, ok := m.vslot(f)
	if !ok {
		return
	}
	v, _, n := m.mvbLen(f)
	for i := range uint32(n) {
		if e, ok := m.p.elem(v, i); ok {
			m.p.bind(e, t).Clear(t)
		}
	}
	if v, ok := m.p.mvb(o); ok {
		for k := uint32(1); k < v.chunks; k++ {
			m.p.buf.Free(le.Uint32(m.p.mem[v.data+mvbChunk+4*k:]))
		}
		m.p.buf.Free(v.data)
	}
	le.PutUint64(m.p.mem[o:], 0)
}

// mvbMove copies element images: dst and src are element indexes.
func (p *Payload) mvbMove(v msgVec, dst, src uint32) {
	d, _ := p.elem(v, dst)
	s, _ := p.elem(v, src)
	copy(p.mem[d:d+v.stride], p.mem[s:s+v.stride])
}

// mvbInsert inserts a new, empty element at index i.
func (m Msg) mvbInsert(f Field, i int, t *Type) Msg {
	_, _, n := m.mvbLen(f)
	if i < 0 || i > n {
		return Msg{p: m.p}
	}
	last := m.mvbAdd(f, t)
	if !last.IsPresent() {
		return last
	}
	v, _, _ := m.mvbLen(f)
	for k := uint32(n); k > uint32(i); k-- {
		m.p.mvbMove(v, k, k-1)
	}
	e, _ := m.p.elem(v, uint32(i))
	clear(m.p.mem[e : e+v.stride])
	le.PutUint32(m.p.mem[e:], le.Uint32(m.p.mem[v.data+mvbMeta:]))
	return m.p.bind(e, t) // the vector's element table may be another writer's
}

// mvbErase removes elements [i, j), releasing their contents.
func (m Msg) mvbErase(f Field, i, j int, t *Type) bool {
	v, o, n := m.mvbLen(f)
	if i < 0 || j < i || j > n {
		return false
	}
	for k := i; k < j; k++ {
		if e, ok := m.p.elem(v, uint32(k)); ok {
			m.p.bind(e, t).Clear(t)
		}
	}
	for k := j; k < n; k++ {
		m.p.mvbMove(v, uint32(k-(j-i)), uint32(k))
	}
	for k := n - (j - i); k < n; k++ {
		e, _ := m.p.elem(v, uint32(k))
		clear(m.p.mem[e : e+v.stride])
	}
	if j > i {
		le.PutUint32(m.p.mem[o:], uint32(n-(j-i)))
	}
	return true
}
