package impl

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
	if data == 0 || data < p.floor || uint64(data)+mvbHeader > uint64(len(mem)) {
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
	var k uint32  // the chunk: 0 without a division for the first c elements
	if v.c == 0 { // (the zero msgVec: no vector)
		return 0, false
	}
	if i >= v.c {
		k = uint32(bits.Len64(uint64(i)/uint64(v.c)+1) - 1)
	}
	if k >= v.chunks {
		return 0, false
	}
	base := le.Uint32(p.mem[v.data+mvbChunk+4*k:])
	idx := uint64(i) - uint64(v.c)*(1<<uint64(k)-1)
	end := uint64(base) + (uint64(v.c)<<k)*uint64(v.stride)
	if base == 0 || base < p.floor || end > uint64(len(p.mem)) {
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

// mvbElem returns element i of v3 repeated message field f of type t (a
// default message if out of range or absent): mvbLen, then elem, then
// bind, with their checks in one function. MessageList.At on a received
// payload is ElemMessage, this and bind: the vector header's slot is found
// in line for a compiled handle (at's common case), and the block's header
// is read through one bounds check.
func (m Msg) mvbElem(f Field, i int, t *Type) Msg {
	p := m.p
	mem := p.mem
	var o uint64
	if m.compiled() {
		o = uint64(m.off) + uint64(f.Offset)
	} else if at, ok := m.at(f, 8); ok {
		o = uint64(at)
	} else {
		return Msg{p: p}
	}
	if o+8 > uint64(len(mem)) || i < 0 {
		return Msg{p: p}
	}
	h := (*[8]byte)(mem[o : o+8])
	num, data := le.Uint32(h[:]), le.Uint32(h[4:])
	if uint64(i) >= uint64(num) || data == 0 || data < p.floor || uint64(data)+mvbHeader > uint64(len(mem)) {
		return Msg{p: p}
	}
	b := (*[mvbHeader]byte)(mem[data:])
	stride, c, chunks := le.Uint32(b[mvbStride:]), le.Uint32(b[mvbCap:]), le.Uint32(b[mvbChunks:])
	// mvb's checks of the block, then mvbLen's of the count.
	if stride < 4 || stride%4 != 0 || c == 0 || chunks-1 >= mvbMaxChunk ||
		uint64(data)+mvbHeader+uint64(c)*uint64(stride) > uint64(len(mem)) ||
		uint64(num) > uint64(c)*(1<<uint64(chunks)-1) || uint64(num)*uint64(stride) > uint64(len(mem)) {
		return Msg{p: p}
	}
	// elem: element i of the first chunk (chunk[0], c elements), or the
	// chunk k of c<<k elements it lies in (i < num <= capacity puts k
	// below chunks; the test stays, cheap).
	idx, span := uint64(i), uint64(c)
	var k uint32
	if uint32(i) >= c {
		k = uint32(bits.Len64(uint64(i)/uint64(c)+1) - 1)
		if k >= chunks {
			return Msg{p: p}
		}
		idx, span = uint64(i)-uint64(c)*(1<<uint64(k)-1), uint64(c)<<k
	}
	base := le.Uint32(b[mvbChunk+4*(k%mvbMaxChunk):])
	if base == 0 || base < p.floor || uint64(base)+span*uint64(stride) > uint64(len(mem)) {
		return Msg{p: p}
	}
	return p.bind(base+uint32(idx)*stride, t)
}

// eachMessage calls yield with each element of repeated message field f of
// type t, in order, until it returns false (MessageList.All).
func (m Msg) eachMessage(f Field, t *Type, yield func(int, Msg) bool) {
	c := m.cursor(f, t)
	for {
		i := c.i
		e, ok := c.next((*Cursor).step)
		if !ok || !yield(i, e) {
			return
		}
	}
}

// A Cursor walks the elements of a repeated message field in order, as
// MessageList.At gives them: the field is resolved once, and in a Phaser 3
// payload each chunk of the MessageVectorBlock is checked once, and each
// element's table compared with the one found to be its Type's compiled
// table (not at all in a payload that trusts what it wrote). Next is small
// enough to inline: a loop over a Cursor makes no call per element, but one
// per chunk, and one per element whose table is another one. The elements
// are those of the field when the walk starts: after adding, erasing or
// clearing elements during it, the elements it yields are unspecified
// (each reads within the payload's bounds, like any handle).
type Cursor struct {
	m      Msg // the holder; m.p is the payload
	f      Field
	t      *Type
	acc    access // the access of an element whose table is tab
	tab    uint64 // a table offset found to be t's compiled table; 1<<32 (no table) until then
	trust  bool   // the payload trusts what it wrote: every element is compiled
	e, end uint32 // v3: the next element of the chunk walked, and the chunk's end
	stride uint32
	i, n   int    // the index of the next element, and the count
	fixed  int    // a fixed array's N, for its list (facade): elements from n to N read as absent
	lost   int    // v3: the elements left of a chunk the payload lost
	k      uint32 // v3: the chunk walked
	v      msgVec
}

// Cursor returns a cursor on repeated message field f of type t: the
// elements it stores (a fixed array's list, MessageList.All, gives N).
func (m Msg) Cursor(f Field, t *Type) Cursor { return m.cursor(f, t) }

// facade makes c walk the elements of the field's list handle: the N of a
// fixed array, those it does not store read as absent.
func (c *Cursor) facade() {
	if c.fixed = int(c.f.Fixed); c.fixed != 0 {
		c.n = min(c.n, c.fixed)
	}
}

func (m Msg) cursor(f Field, t *Type) Cursor {
	c := Cursor{m: m, f: f, t: t, tab: 1 << 32}
	if m.p == nil {
		return c
	}
	c.acc = m.p.compiledAccess()
	c.trust = m.p.trust&t.trust != 0
	if !m.v3() {
		c.n = m.MessagesLen(f)
	} else {
		c.v, _, c.n = m.mvbLen(f)
	}
	if !m.v3() {
		return c
	}
	c.stride = c.v.stride
	c.k = ^uint32(0) // before chunk 0
	return c
}

// Next returns the next element, and false when there is none.
func (c *Cursor) Next() (Msg, bool) { return c.next((*Cursor).step) }

func (c *Cursor) next(step func(*Cursor) (Msg, bool)) (Msg, bool) {
	if o := c.e; o < c.end && (c.trust || uint64(le.Uint32(c.m.p.mem[o:])) == c.tab) {
		c.e += c.stride
		c.i++
		return Msg{c.m.p, o, c.acc}, true
	}
	return step(c)
}

// step is Next's general path: the end of the walk, the next chunk, an
// element of a Phaser 2 payload, one of a lost chunk, or one whose table is
// not tab.
func (c *Cursor) step() (Msg, bool) {
	if c.i >= c.n {
		if c.i < c.fixed { // a fixed array's elements not stored
			c.i++
			return Msg{p: c.m.p}, true
		}
		return Msg{}, false
	}
	p := c.m.p
	if !c.m.v3() {
		e := c.m.ElemMessage(c.f, c.i, c.t)
		c.i++
		return e, true
	}
	if c.e >= c.end && c.lost == 0 { // the next chunk: its elements up to the count
		c.k++
		first := uint64(c.v.c) * (1<<uint64(c.k) - 1) // the index of its first element, c.i
		size := uint64(c.v.c) << c.k
		count := uint32(min(size, uint64(c.n)-first))
		var base uint32
		if c.k < c.v.chunks && uint64(c.v.data)+mvbHeader <= uint64(len(p.mem)) {
			base = le.Uint32(p.mem[c.v.data+mvbChunk+4*c.k:])
		}
		if base == 0 || base < p.floor || uint64(base)+size*uint64(c.stride) > uint64(len(p.mem)) {
			c.lost = int(count) // its elements read as absent, as At has them
		} else {
			c.e, c.end = base, base+count*c.stride
		}
		if c.t.extent > c.stride { // elements too small for the compiled fields
			c.trust, c.tab = false, 1<<32
		}
	}
	c.i++
	if c.lost > 0 {
		c.lost--
		return Msg{p: p}, true
	}
	o := c.e
	c.e += c.stride
	e := p.bind(o, c.t)
	if e.compiled() && c.t.extent <= c.stride {
		c.tab = uint64(le.Uint32(p.mem[o:]))
	}
	return e, true
}

// Runs walks the elements of a repeated message field as a Cursor does,
// run by run: the elements of a run lie one after the other, stride bytes
// apart, with the same access (up to maxRun elements of a chunk of a
// Phaser 3 vector whose tables are the one found to be the compiled one;
// every element of a chunk in a payload that trusts what it wrote), so
// that MessageField.All's and a generated codec's loop over them makes no
// call per element. An element the Cursor takes its general path for is a
// run of its own.
type Runs struct{ c Cursor }

// maxRun is the most elements a Run of a payload that does not trust what
// it holds (a received one) has: Runs.Next checks each one's table word
// before it returns the run.
const maxRun = 128

// Runs returns the runs of repeated message field f of type t.
func (m Msg) Runs(f Field, t *Type) Runs { return Runs{m.cursor(f, t)} }

// Run is a run of elements of a repeated message field.
type Run struct {
	p           *Payload
	off, stride uint32
	n           int
	acc         access
}

// Len returns the number of elements of the run.
func (r Run) Len() int { return r.n }

// At returns element i of the run (a default message if out of range).
func (r Run) At(i int) Msg {
	if uint(i) < uint(r.n) {
		return Msg{r.p, r.off + uint32(i)*r.stride, r.acc}
	}
	return Msg{p: r.p}
}

// Next returns the next run, and false when there is none.
func (r *Runs) Next() (Run, bool) {
	c := &r.c
	if o := c.e; o < c.end {
		n := 0
		if c.trust {
			n = int((c.end - o) / c.stride)
		} else {
			// At most maxRun elements' table words, checked ahead of the
			// caller: a loop that stops early (a search) reads no more
			// than that beyond the element it stops at.
			mem, stride := c.m.p.mem, uint64(c.stride)
			end := min(uint64(c.end), uint64(o)+maxRun*stride)
			if end+3 > uint64(len(mem)) { // each element's table word lies in mem
				end = max(uint64(len(mem)), 3) - 3
			}
			for e := uint64(o); e < end && uint64(le.Uint32(mem[e:])) == c.tab; e += stride {
				n++
			}
		}
		if n > 0 {
			c.e += uint32(n) * c.stride
			c.i += n
			return Run{c.m.p, o, c.stride, n, c.acc}, true
		}
	}
	e, ok := c.step()
	if !ok {
		return Run{}, false
	}
	return Run{p: e.p, off: e.off, n: 1, acc: e.acc}, true
}

// newMVB creates the block of an empty vector at header offset o with room
// for c elements of type t.
func (p *Payload) newMVB(o uint32, c uint32, t *Type) (msgVec, bool) {
	stride := (t.BinarySize(p.version) + 7) &^ 7
	if uint64(c)*uint64(stride) > 1<<31 { // as growMVB: no chunk that big
		p.fail()
		return msgVec{}, false
	}
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

// chunksOK reports whether every chunk the block says it uses lies in the
// payload: the capacity a write trusts (to grow the vector by a chunk as
// large as all of them, or to append into room that exists) must be room
// the payload holds, not a count read from a payload continued with Open
// (a 640-byte payload claiming 2^30 elements had one Append allocate a
// gigabyte).
func (p *Payload) chunksOK(v msgVec) bool {
	for k := range v.chunks {
		base := le.Uint32(p.mem[v.data+mvbChunk+4*k:])
		if base == 0 || base < p.floor || uint64(base)+(uint64(v.c)<<k)*uint64(v.stride) > uint64(len(p.mem)) {
			return false
		}
	}
	return true
}

// growMVB adds chunks until the vector holds n elements.
func (p *Payload) growMVB(v msgVec, n uint64) (msgVec, bool) {
	if v.capacity() < n && !p.chunksOK(v) {
		p.corrupt()
		return v, false
	}
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
	if uint64(num) > v.capacity() { // more elements than the chunks hold
		m.p.corrupt()
		return Msg{p: m.p}
	}
	if v, ok = m.p.growMVB(v, uint64(num)+1); !ok {
		return Msg{p: m.p}
	}
	e, ok := m.p.elem(v, num)
	if !ok { // a chunk a received payload lost: no room to write into
		m.p.corrupt()
		return Msg{p: m.p}
	}
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
		// The chunk's elements as one slice, sliced once (in bounds: the
		// check above), so that the loop keeps it in registers.
		chunk, stride := p.mem[base:base+size*uint64(v.stride)], uint64(v.stride)
		for e := uint64(0); e+4 <= uint64(len(chunk)); e += stride { // (e < len: both multiples of 4, mvb)
			le.PutUint32(chunk[e:e+4:e+4], meta)
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
	o, ok := m.cslot(f)
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

// mvbMove copies element images: dst and src are element indexes. An
// element whose chunk a received payload lost is neither read nor written.
func (p *Payload) mvbMove(v msgVec, dst, src uint32) {
	d, okd := p.elem(v, dst)
	s, oks := p.elem(v, src)
	if okd && oks {
		copy(p.mem[d:d+v.stride], p.mem[s:s+v.stride])
		p.moveUnknown(d, s, v.stride)
	}
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
	// The vector read again after mvbAdd's allocation: in a payload
	// continued with Open its header can lie in memory the allocator held
	// free, which the allocation may have overwritten.
	v, _, n1 := m.mvbLen(f)
	if n1 != n+1 {
		m.p.corrupt()
		return Msg{p: m.p}
	}
	for k := uint32(n); k > uint32(i); k-- {
		m.p.mvbMove(v, k, k-1)
	}
	e, ok := m.p.elem(v, uint32(i))
	if !ok { // a chunk a received payload lost
		m.p.corrupt()
		return Msg{p: m.p}
	}
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
		if e, ok := m.p.elem(v, uint32(k)); ok {
			clear(m.p.mem[e : e+v.stride])
		}
	}
	if j > i {
		le.PutUint32(m.p.mem[o:], uint32(n-(j-i)))
	}
	return true
}

// MessageAppender appends elements to one repeated message field, as
// MessageList.Append does, for a caller that appends many in a row (a
// decoder whose elements arrive one by one). Between its own appends it
// keeps the field's vector as its last append left it: an append first
// checks that the payload still holds exactly that state (the same buffer,
// no shorter, the same count, block header and chunk), writes the element
// in the room that chunk has, and otherwise (the first append, a new chunk,
// a write through another handle, a Phaser 2 payload, a holder read
// through a received table) takes Append's full path. Every append returns
// and writes what Append would.
//
// The zero MessageAppender appends to nothing. An appender is not safe for
// concurrent use; it holds no memory of its own beyond its size.
type MessageAppender struct {
	l MessageList

	// The state after the last append, valid when ok.
	ok         bool
	buf        *payloadbuffer.Buffer
	n          int    // len(mem) when checked: what was in bounds stays so
	o          uint32 // the VectorHeader {num, data}
	num, data  uint32 // its words
	head0      uint64 // block words stride, c
	head1      uint64 // block words metadata, chunks in use
	base       uint32 // chunk k's offset
	k          uint32 // the chunk of element num
	start, end uint64 // the indexes chunk k holds, [start, end)
}

// Appender returns an appender to the list (see MessageAppender).
func (l MessageList) Appender() MessageAppender { return MessageAppender{l: l} }

// Append adds a new, empty element and returns it, as MessageList.Append.
func (a *MessageAppender) Append() Msg {
	if a.ok {
		p := a.l.m.p
		mem := p.mem
		if p.buf == a.buf && len(mem) >= a.n && uint64(a.num) < a.end && (a.l.f.Fixed == 0 || a.num < a.l.f.Fixed) &&
			le.Uint64(mem[a.o:]) == uint64(a.num)|uint64(a.data)<<32 &&
			le.Uint64(mem[a.data:]) == a.head0 && le.Uint64(mem[a.data+mvbMeta:]) == a.head1 &&
			le.Uint32(mem[a.data+mvbChunk+4*a.k:]) == a.base {
			// mvbAdd's writes, for the state it would find.
			stride := uint32(a.head0)
			e := a.base + uint32(uint64(a.num)-a.start)*stride
			clear(mem[e : e+stride])
			le.PutUint32(mem[e:], uint32(a.head1))
			a.num++
			le.PutUint32(mem[a.o:], a.num)
			// bind, its common case first: the table last found to be t's.
			if p.knownCompiled(a.l.t, uint32(a.head1)) && p.whole(e, a.l.t) {
				return Msg{p: p, off: e, acc: compiledWrite}
			}
			return p.bind(e, a.l.t)
		}
	}
	e := a.l.m.AddMessage(a.l.f, a.l.t)
	a.keep(e)
	return e
}

// keep records the state an append left, if the next append can use it:
// the holder's field resolves without its table, the vector is a valid
// block and its next element lies in an allocated chunk.
func (a *MessageAppender) keep(e Msg) {
	a.ok = false
	m := a.l.m
	if !e.IsPresent() || !m.compiled() || !m.v3() || m.p.buf == nil {
		return
	}
	o, ok := m.at(a.l.f, 8)
	if !ok {
		return
	}
	mem := m.p.mem
	num := le.Uint32(mem[o:])
	v, ok := m.p.mvb(o)
	if !ok || uint64(num) >= v.capacity() {
		return
	}
	var k uint32 // as elem finds it
	if num >= v.c {
		k = uint32(bits.Len64(uint64(num)/uint64(v.c)+1) - 1)
	}
	size := uint64(v.c) << k
	base := le.Uint32(mem[v.data+mvbChunk+4*k:])
	if k >= v.chunks || base == 0 || base < m.p.floor || uint64(base)+size*uint64(v.stride) > uint64(len(mem)) {
		return
	}
	a.ok, a.buf, a.n, a.o, a.num, a.data = true, m.p.buf, len(mem), o, num, v.data
	a.head0, a.head1 = le.Uint64(mem[v.data:]), le.Uint64(mem[v.data+mvbMeta:])
	a.base, a.k = base, k
	a.start = uint64(v.c) * (1<<uint64(k) - 1)
	a.end = a.start + size
}
