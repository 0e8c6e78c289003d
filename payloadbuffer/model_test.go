package payloadbuffer

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// This file holds a model-based test of the allocator, strings and vectors:
// random programs run against a Buffer and a reference model (Go maps and
// slices of what every live block, string and vector must hold), and after
// every step checkHeap walks the buffer's structures. FuzzOps (fuzz_test.go)
// runs the same programs decoded from fuzzer bytes.

// kind is one of the eight buffer kinds.
type kind struct {
	v     Version
	t     Tuning
	fixed bool
	scrub Scrub // ScrubDefault in allKinds
}

func (k kind) String() string {
	f := "owned"
	if k.fixed {
		f = "fixed"
	}
	s := ""
	if k.scrub != ScrubDefault {
		s = "-scrub-" + k.scrub.String()
	}
	return fmt.Sprintf("%v-%v-%s%s", k.v, k.t, f, s)
}

func (k kind) opts() Options { return Options{Version: k.v, Tuning: k.t, Scrub: k.scrub} }

func allKinds() []kind {
	var ks []kind
	for _, v := range []Version{V2, V3} {
		for _, t := range []Tuning{Performance, Size} {
			for _, fixed := range []bool{true, false} {
				ks = append(ks, kind{v: v, t: t, fixed: fixed})
			}
		}
	}
	return ks
}

const guardByte = 0xA5

// guardSize is how many guard bytes follow a fixed buffer's memory.
const guardSize = 64

// newFixedGuarded returns a fixed buffer of size bytes whose memory is the
// start of a larger array; the rest of the array holds guard bytes. The
// buffer memory itself is filled with fill (garbage that the allocator must
// not rely on).
func newFixedGuarded(size int, opts Options, fill func([]byte)) (*Buffer, []byte, error) {
	backing := make([]byte, size+guardSize)
	fill(backing[:size])
	for i := size; i < len(backing); i++ {
		backing[i] = guardByte
	}
	b, err := NewFixed(backing[:size], opts)
	return b, backing, err
}

// guardIntact reports the first overwritten guard byte of backing after size.
func guardIntact(backing []byte, size int) error {
	for i := size; i < len(backing); i++ {
		if backing[i] != guardByte {
			return fmt.Errorf("guard byte %d past the buffer end overwritten with %#x", i-size, backing[i])
		}
	}
	return nil
}

// Root block layout: string slots, vector headers, string-vector headers.
const (
	nStr     = 6
	nVec     = 3
	nSVec    = 2
	rootSize = 4*nStr + 8*nVec + 8*nSVec
)

// vecElem is the element size of each scalar vector.
var vecElem = [nVec]int{1, 4, 8}

// opSource supplies the choices of a program: random, or decoded from fuzz
// input.
type opSource interface {
	intn(n int) int // in [0, n)
	done() bool
}

type randSource struct{ r *rand.Rand }

func (s randSource) intn(n int) int { return s.r.IntN(n) }
func (randSource) done() bool       { return false }

// byteSource decodes choices from bytes: one byte for n <= 256, two bytes
// otherwise. When the bytes run out it returns 0 and reports done.
type byteSource struct {
	b         []byte
	exhausted bool
}

func (s *byteSource) intn(n int) int {
	if n <= 1 {
		return 0
	}
	k := 1
	if n > 256 {
		k = 2
	}
	var v uint32
	for range k {
		if len(s.b) == 0 {
			s.exhausted = true
			return 0
		}
		v = v<<8 | uint32(s.b[0])
		s.b = s.b[1:]
	}
	return int(v % uint32(n))
}

func (s *byteSource) done() bool { return s.exhausted }

// model is the reference state of a buffer under test.
type model struct {
	t       testing.TB
	k       kind
	b       *Buffer
	src     opSource
	fill    *rand.Rand // block and string contents
	backing []byte     // fixed: buffer memory followed by guard bytes
	size    int        // fixed: buffer size
	root    uint32

	blocks map[uint32][]byte // live user blocks: data offset -> contents (BlockSize bytes)
	order  []uint32          // live user blocks in a deterministic order
	strs   [nStr][]byte      // nil: absent
	vecs   [nVec][]byte      // elements, vecElem[j] bytes each
	svecs  [nSVec][]string   // elements; absent reads as ""
	leaked []uint32          // v2 StringHeader blocks leaked by ClearStrings

	failed   bool // an operation has reported failure
	freeing  bool // the current operation only frees
	touching int  // adjacent free-block pairs after the last step
	liveBuf  []liveBlock
	log      []lazyString // ring of the last logSize operations
	logN     int
}

// newModel creates the buffer and its root block. It returns nil if a fixed
// buffer is smaller than its header; m.root is 0 (and the buffer has
// failed) if the root block does not fit.
func newModel(t testing.TB, k kind, size int, src opSource, seed uint64) *model {
	m := &model{
		t: t, k: k, src: src, size: size,
		fill:   rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15)),
		blocks: map[uint32][]byte{},
	}
	if k.fixed {
		b, backing, err := newFixedGuarded(size, k.opts(), m.randBytes)
		if err != nil {
			if size < FixedHeaderSize {
				return nil
			}
			t.Fatalf("NewFixed(%d): %v", size, err)
		}
		m.b, m.backing = b, backing
	} else {
		m.b = New(size, k.opts())
	}
	m.root = m.b.Allocate(rootSize, Zero)
	m.logf("root @%d", m.root)
	if m.root == 0 {
		m.failure(lazy("root allocation"))
		return m
	}
	m.check("create")
	return m
}

func (m *model) randBytes(p []byte) {
	for len(p) >= 8 {
		binary.LittleEndian.PutUint64(p, m.fill.Uint64())
		p = p[8:]
	}
	for i := range p {
		p[i] = byte(m.fill.Uint32())
	}
}

// lazyString is a message formatted only when it is printed: the log of
// the last operations costs little until a check fails.
type lazyString struct {
	format string
	args   []any
}

func lazy(format string, args ...any) lazyString { return lazyString{format, args} }

func (l lazyString) String() string { return fmt.Sprintf(l.format, l.args...) }

const logSize = 40

func (m *model) logOp(op lazyString) {
	if len(m.log) < logSize {
		m.log = append(m.log, op)
	} else {
		m.log[m.logN%logSize] = op
	}
	m.logN++
}

func (m *model) logf(format string, args ...any) { m.logOp(lazy(format, args...)) }

func (m *model) fatalf(format string, args ...any) {
	m.t.Helper()
	var ops []string
	for i := max(0, m.logN-logSize); i < m.logN; i++ {
		ops = append(ops, m.log[i%logSize].String())
	}
	m.t.Fatalf("%v: %s\nlast operations:\n  %s", m.b, fmt.Sprintf(format, args...), strings.Join(ops, "\n  "))
}

func (m *model) strSlot(i int) uint32  { return m.root + 4*uint32(i) }
func (m *model) vecSlot(j int) uint32  { return m.root + 4*nStr + 8*uint32(j) }
func (m *model) svecSlot(k int) uint32 { return m.root + 4*nStr + 8*nVec + 8*uint32(k) }

// failure records an operation that reported failure: only a fixed buffer
// can be full, and it must say so.
func (m *model) failure(op fmt.Stringer) {
	if !m.k.fixed {
		m.fatalf("%s failed on an owned buffer", op)
	}
	if !m.b.Failed() {
		m.fatalf("%s failed but Failed() is false", op)
	}
	m.failed = true
}

// mustFail checks that an allocating operation failed after an earlier
// failure (failures are sticky).
func (m *model) mustFail(op fmt.Stringer, ok bool) {
	if m.failed && ok {
		m.fatalf("%s succeeded on a failed buffer", op)
	}
}

// size picks a request size: mostly small, sometimes large.
func (m *model) reqSize() int {
	switch m.src.intn(10) {
	case 0, 1, 2:
		return 1 + m.src.intn(16)
	case 3, 4, 5:
		return 1 + m.src.intn(128)
	case 6, 7, 8:
		return 1 + m.src.intn(300)
	}
	return 1 + m.src.intn(1200)
}

func (m *model) flags() Flags { return Flags(m.src.intn(4)) }

func (m *model) addBlock(p uint32) {
	c := make([]byte, m.b.BlockSize(p))
	m.randBytes(c)
	copy(m.b.Slice(p, uint32(len(c))), c)
	m.blocks[p] = c
	m.order = append(m.order, p)
}

func (m *model) removeBlock(i int) uint32 {
	p := m.order[i]
	m.order[i] = m.order[len(m.order)-1]
	m.order = m.order[:len(m.order)-1]
	delete(m.blocks, p)
	return p
}

func (m *model) randString() []byte {
	var n int
	switch m.src.intn(8) {
	case 0:
		n = 0
	case 1, 2, 3, 4:
		n = m.src.intn(24)
	case 5, 6:
		n = m.src.intn(130)
	default:
		n = m.src.intn(400)
	}
	s := make([]byte, n)
	m.randBytes(s)
	return s
}

// sub picks a random sub-slice of s.
func (m *model) sub(s []byte) []byte {
	if len(s) == 0 {
		return s
	}
	if m.src.intn(3) == 0 {
		return s
	}
	i := m.src.intn(len(s) + 1)
	j := i + m.src.intn(len(s)-i+1)
	return s[i:j]
}

// source picks the bytes of a SetBytes-like call: outside bytes, or bytes
// that alias the buffer (a user block, a string including the one being
// replaced, the root block, vector elements). own is the slot of the string
// being replaced (0 if none). With noRoot the root block is not a source:
// the operation itself writes slots there before it copies (SetBytesAt
// resizes the vector first), and a source that the call overwrites has no
// defined value. It returns the slice and a description.
func (m *model) source(own uint32, noRoot bool) ([]byte, string) {
	b := m.b
	for range 4 {
		switch m.src.intn(8) {
		case 0, 1:
			return m.randString(), "outside"
		case 2:
			if own != 0 && b.get32(own) != 0 {
				return m.sub(b.StringAt(own)), "own string"
			}
		case 3:
			if own != 0 && b.get32(own) != 0 {
				s := b.get32(own)
				return m.sub(b.Slice(s, 4+b.get32(s))), "own string block with length word"
			}
		case 4:
			if len(m.order) > 0 {
				p := m.order[m.src.intn(len(m.order))]
				return m.sub(b.Slice(p, b.BlockSize(p))), fmt.Sprintf("block @%d", p)
			}
		case 5:
			i := m.src.intn(nStr)
			if b.get32(m.strSlot(i)) != 0 {
				return m.sub(b.StringAt(m.strSlot(i))), fmt.Sprintf("string %d", i)
			}
		case 6:
			if !noRoot {
				return m.sub(b.Slice(m.root, rootSize)), "root block"
			}
		case 7:
			j := m.src.intn(nVec)
			if d := b.VectorData(m.vecSlot(j)); d != 0 {
				return m.sub(b.Slice(d, uint32(len(m.vecs[j])))), fmt.Sprintf("vector %d", j)
			}
		}
	}
	return m.randString(), "outside"
}

func clone(s []byte) []byte { return append([]byte{}, s...) }

// The operations. Each runs one call on the buffer, checks what the call
// returned and updates the model; a failure must come from a full fixed
// buffer, and an allocating call on a failed buffer must fail.

func (m *model) allocate(n int, fl Flags) uint32 {
	b := m.b
	p := b.Allocate(n, fl)
	what := lazy("Allocate(%d, %d) = %d", n, fl, p)
	m.logOp(what)
	m.mustFail(what, p != 0)
	if p == 0 {
		m.failure(what)
		return 0
	}
	if p%8 != 0 || b.BlockSize(p) < uint32(n) {
		m.fatalf("%s: block of %d bytes", what, b.BlockSize(p))
	}
	if _, dup := m.blocks[p]; dup {
		m.fatalf("%s: block already live", what)
	}
	if fl&Zero != 0 && !allZero(b.Slice(p, uint32(n))) {
		m.fatalf("%s: not zeroed", what)
	}
	m.addBlock(p)
	return p
}

func (m *model) free(p uint32) {
	m.logf("Free(%d)", p)
	m.removeBlock(slices.Index(m.order, p))
	m.b.Free(p)
	m.freeing = true
}

func (m *model) realloc(p uint32, n int, fl Flags) uint32 {
	b := m.b
	old := m.blocks[p]
	np := b.Realloc(p, n, fl)
	what := lazy("Realloc(%d [%d], %d, %d) = %d", p, len(old), n, fl, np)
	m.logOp(what)
	m.mustFail(what, np != 0)
	if np == 0 {
		m.failure(what)
		return 0
	}
	newCap := b.BlockSize(np)
	if np%8 != 0 || newCap < uint32(n) {
		m.fatalf("%s: block of %d bytes", what, newCap)
	}
	keep := min(uint32(len(old)), newCap)
	if !bytes.Equal(b.Slice(np, keep), old[:keep]) {
		m.fatalf("%s: contents not kept", what)
	}
	if fl&Zero != 0 && n > len(old) && !allZero(b.Slice(np+uint32(len(old)), uint32(n-len(old)))) {
		m.fatalf("%s: grown bytes not zeroed", what)
	}
	if p != 0 {
		m.removeBlock(slices.Index(m.order, p))
	}
	if _, dup := m.blocks[np]; dup {
		m.fatalf("%s: block already live", what)
	}
	c := make([]byte, newCap)
	copy(c, old[:keep])
	m.randBytes(c[keep:])
	copy(b.Slice(np, newCap), c)
	m.blocks[np] = c
	m.order = append(m.order, np)
	return np
}

// setString stores s in string slot i: with SetBytes if alias (s may then
// alias the buffer), else with SetString.
func (m *model) setString(i int, s []byte, alias bool, desc string) bool {
	slot := m.strSlot(i)
	want := clone(s)
	var ok bool
	if alias {
		ok = m.b.SetBytes(slot, s)
	} else {
		// RefillString first for odd lengths, as a setter tries it: the
		// same result as SetString's.
		ok = len(s)%2 == 1 && m.b.RefillString(slot, string(s)) || m.b.SetString(slot, string(s))
	}
	what := lazy("SetString(str %d, %d bytes of %s, bytes %t)", i, len(want), desc, alias)
	m.logOp(lazy("%v = %t", what, ok))
	m.mustFail(what, ok)
	if !ok {
		m.failure(what)
		return false
	}
	m.strs[i] = want
	return true
}

func (m *model) clearString(i int) {
	m.logf("ClearString(str %d)", i)
	m.b.ClearString(m.strSlot(i))
	m.strs[i] = nil
	m.freeing = true
}

func (m *model) vectorPush(j int) uint32 {
	b := m.b
	size := vecElem[j]
	e := b.VectorPush(m.vecSlot(j), size)
	what := lazy("VectorPush(vec %d) = %d", j, e)
	m.logOp(what)
	if e == 0 {
		m.failure(what)
		return 0
	}
	if want := b.VectorData(m.vecSlot(j)) + uint32(len(m.vecs[j])); e != want {
		m.fatalf("%s: element at %d, want %d", what, e, want)
	}
	v := make([]byte, size)
	m.randBytes(v)
	copy(b.Slice(e, uint32(size)), v)
	m.vecs[j] = append(m.vecs[j], v...)
	return e
}

func (m *model) vectorReserve(j, n int) bool {
	ok := m.b.VectorReserve(m.vecSlot(j), n, vecElem[j])
	what := lazy("VectorReserve(vec %d, %d) = %t", j, n, ok)
	m.logOp(what)
	if !ok {
		m.failure(what)
		return false
	}
	if c := m.b.VectorCap(m.vecSlot(j), vecElem[j]); c < n {
		m.fatalf("%s: capacity %d", what, c)
	}
	return true
}

func (m *model) vectorResize(j, n int) bool {
	size := vecElem[j]
	ok := m.b.VectorResize(m.vecSlot(j), n, size)
	what := lazy("VectorResize(vec %d, %d) = %t", j, n, ok)
	m.logOp(what)
	if !ok {
		m.failure(what)
		return false
	}
	if n*size <= len(m.vecs[j]) {
		m.vecs[j] = m.vecs[j][:n*size]
	} else {
		m.vecs[j] = append(m.vecs[j], make([]byte, n*size-len(m.vecs[j]))...)
	}
	return true
}

// vectorAssign replaces vector j's elements with n elements of random
// bytes (VectorAssign, as List.Assign stores them).
func (m *model) vectorAssign(j, n int) bool {
	size := vecElem[j]
	src := make([]byte, n*size)
	for i := range src {
		src[i] = byte(m.src.intn(256))
	}
	ok := m.b.VectorAssign(m.vecSlot(j), src, size)
	what := lazy("VectorAssign(vec %d, %d elements) = %t", j, n, ok)
	m.logOp(what)
	if !ok {
		m.failure(what)
		return false
	}
	m.vecs[j] = src
	return true
}

func (m *model) vectorClear(j int) {
	m.logf("VectorClear(vec %d)", j)
	m.b.VectorClear(m.vecSlot(j))
	m.vecs[j] = nil
	m.freeing = true
}

// pushString appends s to string vector k: with PushBytes if alias.
func (m *model) pushString(k int, s []byte, alias bool, desc string) bool {
	slot := m.svecSlot(k)
	want := clone(s)
	var ok bool
	if alias {
		ok = m.b.PushBytes(slot, s)
	} else {
		ok = m.b.PushString(slot, string(s))
	}
	what := lazy("PushString(svec %d, %d bytes of %s, bytes %t)", k, len(want), desc, alias)
	m.logOp(lazy("%v = %t", what, ok))
	m.mustFail(what, ok)
	if !ok {
		m.failure(what)
		return false
	}
	m.svecs[k] = append(m.svecs[k], string(want))
	return true
}

// setStringAt stores s as element i of string vector k: with SetBytesAt if
// alias.
func (m *model) setStringAt(k, i int, s []byte, alias bool, desc string) bool {
	b := m.b
	slot := m.svecSlot(k)
	oldLen := len(m.svecs[k])
	want := clone(s)
	var ok bool
	if alias {
		ok = b.SetBytesAt(slot, i, s)
	} else {
		ok = b.SetStringAt(slot, i, string(s))
	}
	what := lazy("SetStringAt(svec %d, %d, %d bytes of %s, bytes %t)", k, i, len(want), desc, alias)
	m.logOp(lazy("%v = %t", what, ok))
	m.mustFail(what, ok)
	if ok {
		for len(m.svecs[k]) <= i {
			m.svecs[k] = append(m.svecs[k], "")
		}
		m.svecs[k][i] = string(want)
		return true
	}
	m.failure(what)
	// The vector may have grown with empty elements before the failure;
	// the old elements are unchanged.
	if n := b.VectorLen(slot); n != oldLen {
		if i < oldLen || n != i+1 {
			m.fatalf("%s: failed with length %d (was %d)", what, n, oldLen)
		}
		for len(m.svecs[k]) < n {
			m.svecs[k] = append(m.svecs[k], "")
		}
	}
	return false
}

func (m *model) clearStrings(k int) {
	b := m.b
	slot := m.svecSlot(k)
	m.logf("ClearStrings(svec %d)", k)
	if m.k.v == V2 {
		for i := range len(m.svecs[k]) {
			if h := b.StringElem(slot, i); h != 0 {
				m.leaked = append(m.leaked, h)
			}
		}
	}
	b.ClearStrings(slot)
	m.svecs[k] = nil
	m.freeing = true
}

// step runs one random operation and checks the buffer afterwards.
func (m *model) step() {
	op := m.src.intn(24)
	if len(m.order) > 64 && (op < 3 || op >= 22) {
		op = 3 // keep the heap (and the time each check takes) bounded
	}
	switch op {
	case 0, 1, 2:
		m.allocate(m.reqSize(), m.flags())
	case 3, 4:
		if len(m.order) > 0 {
			m.free(m.order[m.src.intn(len(m.order))])
		}
	case 5, 6:
		var p uint32
		if len(m.order) > 0 && m.src.intn(8) != 0 {
			p = m.order[m.src.intn(len(m.order))]
		}
		m.realloc(p, m.reqSize(), m.flags())
	case 7, 8, 9:
		i := m.src.intn(nStr)
		if m.src.intn(2) == 0 {
			m.setString(i, m.randString(), false, "outside")
		} else {
			s, desc := m.source(m.strSlot(i), false)
			m.setString(i, s, true, desc)
		}
	case 10:
		m.clearString(m.src.intn(nStr))
	case 11, 12, 13:
		m.vectorPush(m.src.intn(nVec))
	case 14:
		m.vectorReserve(m.src.intn(nVec), m.src.intn(80))
	case 15:
		if m.src.intn(2) == 0 {
			m.vectorResize(m.src.intn(nVec), m.src.intn(80))
		} else {
			m.vectorAssign(m.src.intn(nVec), m.src.intn(80))
		}
	case 16:
		m.vectorClear(m.src.intn(nVec))
	case 17, 18:
		k := m.src.intn(nSVec)
		if m.src.intn(2) == 0 {
			m.pushString(k, m.randString(), false, "outside")
			break
		}
		var own uint32
		if n := len(m.svecs[k]); n > 0 {
			own = m.b.StringElem(m.svecSlot(k), m.src.intn(n))
		}
		s, desc := m.source(own, false)
		m.pushString(k, s, true, desc)
	case 19, 20:
		k := m.src.intn(nSVec)
		i := m.src.intn(len(m.svecs[k]) + 4)
		if m.src.intn(2) == 0 {
			m.setStringAt(k, i, m.randString(), false, "outside")
			break
		}
		var own uint32
		if i < len(m.svecs[k]) {
			own = m.b.StringElem(m.svecSlot(k), i)
		}
		s, desc := m.source(own, true)
		m.setStringAt(k, i, s, true, desc)
	case 21:
		m.clearStrings(m.src.intn(nSVec))
	default: // a burst of small allocations
		for range 1 + m.src.intn(6) {
			if m.allocate(1+m.src.intn(40), Small|Zero) == 0 {
				break
			}
		}
	}
	m.check(fmt.Sprintf("op %d", op))
}

func allZero(p []byte) bool {
	for _, c := range p {
		if c != 0 {
			return false
		}
	}
	return true
}

// check compares the buffer with the model and validates its structures.
func (m *model) check(after string) {
	touching, err := checkHeap(m.b, m.live(), !m.failed)
	if err != nil {
		m.fatalf("after %s: %v", after, err)
	}
	if m.freeing && touching > m.touching {
		m.fatalf("after %s: free blocks not coalesced (%d touching pairs, %d before)", after, touching, m.touching)
	}
	m.touching, m.freeing = touching, false
	if err := m.checkContents(); err != nil {
		m.fatalf("after %s: %v", after, err)
	}
	if m.k.fixed {
		if err := guardIntact(m.backing, m.size); err != nil {
			m.fatalf("after %s: %v", after, err)
		}
	}
	if m.b.Failed() != m.failed {
		m.fatalf("after %s: Failed() = %t, no operation reported failure", after, m.b.Failed())
	}
	if m.b.scrub {
		if err := checkScrubbed(m.b); err != nil {
			m.fatalf("after %s: %v", after, err)
		}
	}
}

// live lists every block the model knows to be allocated.
func (m *model) live() []liveBlock {
	b := m.b
	live := append(m.liveBuf[:0], liveBlock{m.root, liveRoot, 0})
	for _, p := range m.order {
		live = append(live, liveBlock{p, liveUser, 0})
	}
	for i := range nStr {
		if s := b.get32(m.strSlot(i)); s != 0 {
			live = append(live, liveBlock{s, liveString, i})
		}
	}
	for j := range nVec {
		if d := b.VectorData(m.vecSlot(j)); d != 0 {
			live = append(live, liveBlock{d, liveVector, j})
		}
	}
	for k := range nSVec {
		slot := m.svecSlot(k)
		d := b.VectorData(slot)
		if d == 0 {
			continue
		}
		live = append(live, liveBlock{d, liveStringVector, k})
		for i := range min(b.VectorLen(slot), int(b.BlockSize(d)/4)) {
			if h := b.StringElem(slot, i); h != 0 {
				live = append(live, liveBlock{h, liveElemHeader, k<<16 | i})
				if s := b.get32(h); s != 0 {
					live = append(live, liveBlock{s, liveElemString, k<<16 | i})
				}
			}
		}
	}
	for i, h := range m.leaked {
		live = append(live, liveBlock{h, liveLeaked, i})
	}
	m.liveBuf = live
	return live
}

func (m *model) checkContents() error {
	b := m.b
	for p, c := range m.blocks {
		if got := b.Slice(p, uint32(len(c))); !bytes.Equal(got, c) {
			return fmt.Errorf("block @%d: contents changed", p)
		}
	}
	for i := range nStr {
		got := b.StringAt(m.strSlot(i))
		if (got == nil) != (m.strs[i] == nil) || !bytes.Equal(got, m.strs[i]) {
			return fmt.Errorf("string %d = %q (present %t), want %q (present %t)", i, got, got != nil, m.strs[i], m.strs[i] != nil)
		}
	}
	for j := range nVec {
		slot, size := m.vecSlot(j), vecElem[j]
		want := m.vecs[j]
		if n := b.VectorLen(slot); n*size != len(want) {
			return fmt.Errorf("vector %d: length %d, want %d", j, n, len(want)/size)
		}
		if len(want) == 0 {
			continue
		}
		if c := b.VectorCap(slot, size); c*size < len(want) {
			return fmt.Errorf("vector %d: capacity %d below length %d", j, c, len(want)/size)
		}
		if got := b.Slice(b.VectorData(slot), uint32(len(want))); !bytes.Equal(got, want) {
			return fmt.Errorf("vector %d: elements changed", j)
		}
	}
	for k := range nSVec {
		slot := m.svecSlot(k)
		want := m.svecs[k]
		if n := b.VectorLen(slot); n != len(want) {
			return fmt.Errorf("string vector %d: length %d, want %d", k, n, len(want))
		}
		if len(want) == 0 {
			continue
		}
		if c := b.VectorCap(slot, 4); c < len(want) {
			return fmt.Errorf("string vector %d: capacity %d below length %d", k, c, len(want))
		}
		for i, w := range want {
			var got []byte
			if h := b.StringElem(slot, i); h != 0 {
				got = b.StringAt(h)
			}
			if string(got) != w {
				return fmt.Errorf("string vector %d element %d = %q, want %q", k, i, got, w)
			}
		}
	}
	return nil
}

// liveBlock is a block known to be in use: its data offset and what it is.
type liveBlock struct {
	p    uint32
	what uint8
	idx  int
}

const (
	liveRoot = iota
	liveUser
	liveString
	liveVector
	liveStringVector
	liveElemHeader
	liveElemString
	liveLeaked
	structRunVector // allocator structures found by checkHeap
	structRunArray
	structRun
	structClassFree
	extHeader
	extFree
)

func (l liveBlock) String() string {
	switch l.what {
	case liveRoot:
		return "root block"
	case liveUser:
		return "user block"
	case liveString:
		return fmt.Sprintf("string %d", l.idx)
	case liveVector:
		return fmt.Sprintf("vector %d", l.idx)
	case liveStringVector:
		return fmt.Sprintf("string vector %d", l.idx)
	case liveElemHeader:
		return fmt.Sprintf("string vector %d element %d header", l.idx>>16, l.idx&0xFFFF)
	case liveElemString:
		return fmt.Sprintf("string vector %d element %d string", l.idx>>16, l.idx&0xFFFF)
	case liveLeaked:
		return "leaked string header"
	case structRunVector:
		return fmt.Sprintf("class %d run vector", l.idx)
	case structRunArray:
		return fmt.Sprintf("class %d run array", l.idx)
	case structRun:
		return fmt.Sprintf("class %d run", l.idx)
	case structClassFree:
		return fmt.Sprintf("class %d free block", l.idx)
	case extHeader:
		return "header"
	case extFree:
		return "free block"
	}
	return "?"
}

// extent is a byte range [start, end) of the buffer.
type extent struct {
	start, end uint32
	who        liveBlock
}

// checkHeap validates the allocator structures of b: the header, the free
// list (in bounds, aligned, address-sorted, not overlapping), the
// small-block structures (v2 bitmap runs, v3 class lists), the live blocks
// (each a block of the heap, none overlapping another, the header or a free
// block) and the high-water mark (covering the end of every block in use,
// at most the length). live lists every block known to be in use. With
// exact, every allocated byte must be accounted for: the heap is exactly
// tiled by the free blocks, the live blocks and the allocator's own blocks,
// and every used bitmap slot is a live block (no leak). Without it (after a
// failure, which may leak), gaps are followed through their length words.
//
// It returns the number of free blocks that start where the previous one
// ends. Free always coalesces, but a realloc that merges a block into the
// free block below leaves the remainder's free header next to a free block
// above it that was too small to grow into, as C++ 2.1's
// MergeWithFreeBlockBelow does (spec 2.6; the byte layout depends on it), so
// the model only checks that operations that free never add such a pair.
func checkHeap(b *Buffer, live []liveBlock, exact bool) (touching int, err error) {
	data := b.data
	n := uint32(len(data))
	hdr := b.hdr
	if got := b.get32(offFullSize); got != n {
		return 0, fmt.Errorf("full_size %d, len %d", got, n)
	}
	if b.version == V3 {
		if data[0] != 'P' || data[1] != 'H' || data[3] != 3 {
			return 0, fmt.Errorf("v3 magic % x", data[:4])
		}
		want := byte(0)
		if b.small {
			want |= v3FlagSmall
		}
		if b.movable {
			want |= v3FlagMovable
		}
		if b.failed {
			want |= v3FlagFailed
		}
		if data[2] != want {
			return 0, fmt.Errorf("v3 flags %#x, want %#x", data[2], want)
		}
	} else {
		want := uint32(magicFixedV2)
		if b.movable {
			want = magicMovableV2
		}
		if b.small {
			want |= magicSmallFlag
		}
		if got := b.get32(offMagic); got != want {
			return 0, fmt.Errorf("v2 magic %#x, want %#x", got, want)
		}
	}
	hwm := b.HWM()
	if hwm < hdr || hwm > n {
		return 0, fmt.Errorf("hwm %d outside [%d, %d]", hwm, hdr, n)
	}
	exts := []extent{{0, hdr, liveBlock{what: extHeader}}}

	// The free list.
	var lastEnd uint32
	nfree := 0
	for cur := b.get32(offFreeList); cur != 0; {
		if nfree++; nfree > int(n/8) {
			return 0, fmt.Errorf("free list cycle")
		}
		if cur%8 != 0 || cur < hdr || uint64(cur)+8 > uint64(n) {
			return 0, fmt.Errorf("free block at %d out of bounds", cur)
		}
		length, next := b.freeLen(cur), b.freeNext(cur)
		end := uint64(cur) + uint64(length)
		if length < 8 || end > uint64(n) || (length%8 != 0 && end != uint64(n)) {
			return 0, fmt.Errorf("free block at %d of length %d", cur, length)
		}
		if cur < lastEnd {
			return 0, fmt.Errorf("free list not sorted: %d after a block ending at %d", cur, lastEnd)
		}
		if cur == lastEnd {
			touching++
		}
		exts = append(exts, extent{cur, uint32(end), liveBlock{p: cur, what: extFree}})
		lastEnd, cur = uint32(end), next
	}
	if b.version == V3 && b.failed && nfree != 0 {
		return 0, fmt.Errorf("failed v3 buffer with a free list")
	}

	addTop := func(l liveBlock) error {
		p := l.p
		if p%8 != 0 || p < hdr+8 || p > n {
			return fmt.Errorf("%v at %d: bad offset", l, p)
		}
		w := b.word(p)
		if w>>32 != 0 {
			return fmt.Errorf("%v at %d: length word %#x", l, p, w)
		}
		end := uint64(p) + w
		if end > uint64(n) {
			return fmt.Errorf("%v at %d: %d bytes past the end", l, p, w)
		}
		exts = append(exts, extent{p - 8, uint32(end), l})
		return nil
	}

	// Small-block structures.
	type runInfo struct {
		bits, used uint32
		class      int
	}
	var runs map[uint32]*runInfo
	if b.small && b.version == V2 {
		runs = map[uint32]*runInfo{}
		for c, size := range classSize {
			vec := b.get32(offSmall + 4*uint32(c))
			if vec == 0 {
				continue
			}
			if err := addTop(liveBlock{vec, structRunVector, int(size)}); err != nil {
				return 0, err
			}
			num, arr := b.get32(vec), b.get32(vec+4)
			if err := addTop(liveBlock{arr, structRunArray, int(size)}); err != nil {
				return 0, err
			}
			if num*4 > b.BlockSize(arr) {
				return 0, fmt.Errorf("class %d: %d runs in an array of %d bytes", size, num, b.BlockSize(arr))
			}
			for i := range num {
				run := b.get32(arr + 4*i)
				if err := addTop(liveBlock{run, structRun, int(size)}); err != nil {
					return 0, err
				}
				count := runCount[c]
				if b.BlockSize(run) < 8+count*(size+8) {
					return 0, fmt.Errorf("class %d run %d at %d: %d bytes", size, i, run, b.BlockSize(run))
				}
				bits := b.get32(run)
				if uint32(data[run+4]) != size || uint32(data[run+5]) != count ||
					bits>>count != 0 || uint32(data[run+6])+uint32(popcount(bits)) != count {
					return 0, fmt.Errorf("class %d run %d at %d: header % x", size, i, run, data[run:run+8])
				}
				runs[run] = &runInfo{bits: bits, class: c}
			}
		}
	}
	if b.small && b.version == V3 {
		for c, size := range classSize {
			steps := 0
			for p := b.get32(offSmall + 4*uint32(c)); p != 0; p = b.get32(p) {
				if steps++; steps > int(n/16) {
					return 0, fmt.Errorf("class %d free list cycle", size)
				}
				if err := addTop(liveBlock{p, structClassFree, int(size)}); err != nil {
					return 0, err
				}
				if w := b.word(p); w != uint64(size) {
					return 0, fmt.Errorf("class %d free block at %d has length %d", size, p, w)
				}
			}
		}
	}

	// Live blocks: regular blocks join the extents (a block listed twice
	// shows as an overlap); v2 small blocks must be used slots of runs.
	for _, l := range live {
		p := l.p
		if p%8 != 0 || p < hdr+8 || p > n {
			return 0, fmt.Errorf("%v at %d: bad offset", l, p)
		}
		low := uint32(b.word(p))
		if b.version == V2 && low&smallBit != 0 {
			if !b.small {
				return 0, fmt.Errorf("%v at %d: small block in a size-tuned buffer", l, p)
			}
			run, slot, ok := b.decodeSmall(p, low)
			ri := runs[run]
			if !ok || ri == nil {
				return 0, fmt.Errorf("%v at %d: word %#x names no used small slot", l, p, low)
			}
			if ri.used&(1<<slot) != 0 {
				return 0, fmt.Errorf("%v at %d: small slot used twice", l, p)
			}
			if classOf(low&0xFF) != ri.class {
				return 0, fmt.Errorf("%v at %d: size %d in a class %d run", l, p, low&0xFF, classSize[ri.class])
			}
			ri.used |= 1 << slot
			continue
		}
		if err := addTop(l); err != nil {
			return 0, err
		}
	}
	if exact {
		for run, ri := range runs {
			if ri.used != ri.bits {
				return 0, fmt.Errorf("run at %d: bits %#x, live slots %#x (leak)", run, ri.bits, ri.used)
			}
		}
	}

	// No overlap; hwm covers everything in use; the extents tile the heap.
	// A failed v3 buffer has dropped its free lists: its free memory is
	// not walked.
	slices.SortFunc(exts, func(x, y extent) int { return cmp.Compare(x.start, y.start) })
	tile := !(b.version == V3 && b.failed)
	var x uint32 // end of the tiled prefix
	for i, e := range exts {
		if e.end > n || e.end <= e.start {
			return 0, fmt.Errorf("%v [%d, %d) outside the buffer", e.who, e.start, e.end)
		}
		if e.who.what != extFree && e.end > hwm {
			return 0, fmt.Errorf("%v [%d, %d) ends past hwm %d", e.who, e.start, e.end, hwm)
		}
		if i > 0 && exts[i-1].end > e.start {
			p := exts[i-1]
			return 0, fmt.Errorf("%v [%d, %d) overlaps %v [%d, %d)", p.who, p.start, p.end, e.who, e.start, e.end)
		}
		if tile {
			if x, err = walkGap(b, x, e.start, exact); err != nil {
				return 0, err
			}
			x = e.end
		}
	}
	if tile {
		if x == hdr && n-x < 8 && b.get32(offFreeList) == 0 {
			return touching, nil // no room for any block
		}
		if _, err = walkGap(b, x, n, exact); err != nil {
			return 0, err
		}
	}
	return touching, nil
}

// walkGap checks the bytes [x, end) between accounted extents: none with
// exact, else blocks leaked by failed operations, followed through their
// length words.
func walkGap(b *Buffer, x, end uint32, exact bool) (uint32, error) {
	if x == end {
		return x, nil
	}
	if exact {
		return 0, fmt.Errorf("unaccounted bytes [%d, %d): a leaked or lost block", x, end)
	}
	for x < end {
		if uint64(x)+8 > uint64(end) {
			return 0, fmt.Errorf("%d stray bytes at %d", end-x, x)
		}
		w := b.word(x + 8)
		if w>>32 != 0 || uint64(x)+8+w > uint64(end) {
			return 0, fmt.Errorf("stray block at %d with word %#x", x, w)
		}
		x += 8 + uint32(w)
	}
	return x, nil
}

func popcount(x uint32) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// runModel runs one random program on a buffer of kind k. A fixed buffer
// that fills up runs some more steps (all allocations must fail), then is
// Reset to its image right after the root block was created, and the
// program goes on.
func runModel(t *testing.T, k kind, seed uint64, steps int) {
	r := rand.New(rand.NewPCG(seed, uint64(k.v)<<8|uint64(k.t)<<4|boolBit(k.fixed)))
	size := 48 + r.IntN(400) // owned: starts small, grows
	if k.fixed {
		size = 400 + r.IntN(6000) // any length, not only multiples of 8
	}
	m := newModel(t, k, size, randSource{r}, seed)
	if m == nil || m.root == 0 {
		t.Fatalf("root block does not fit in %d bytes", size)
	}
	image := clone(m.b.Bytes())
	after, resets := -1, 0
	for i := 0; i < steps; i++ {
		m.step()
		if m.failed && after < 0 {
			after = i
		}
		if after >= 0 && i-after >= 10 {
			m.reset(image)
			after = -1
			resets++
		}
	}
	t.Logf("%v seed %d: size %d, len %d, hwm %d, %d live blocks, %d resets", k, seed, size, m.b.Len(), m.b.HWM(), len(m.order), resets)
}

// reset returns the buffer to image (taken right after the root block was
// created) and empties the model.
func (m *model) reset(image []byte) {
	m.logf("Reset")
	if err := m.b.Reset(image); err != nil {
		m.fatalf("Reset: %v", err)
	}
	if !bytes.Equal(m.b.Bytes(), image) {
		m.fatalf("Reset: payload differs from the image")
	}
	clear(m.blocks)
	m.order = m.order[:0]
	m.strs = [nStr][]byte{}
	m.vecs = [nVec][]byte{}
	m.svecs = [nSVec][]string{}
	m.leaked = nil
	m.failed = false
	m.touching = 0
	m.check("Reset")
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func TestModel(t *testing.T) {
	steps := 500
	if testing.Short() {
		steps = 150
	}
	// Every kind, and format 2 scrubbing and format 3 not (format 3
	// scrubs by default).
	kinds := allKinds()
	for _, k := range allKinds() {
		if k.v == V2 {
			k.scrub = ScrubOn
		} else {
			k.scrub = ScrubOff
		}
		kinds = append(kinds, k)
	}
	for _, k := range kinds {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			for _, seed := range []uint64{1, 2, 3, 42, 1234, 0xC0FFEE} {
				runModel(t, k, seed, steps)
			}
		})
	}
}
