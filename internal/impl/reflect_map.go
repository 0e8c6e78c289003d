package impl

import (
	"bytes"
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// mapView is the protoreflect.Map of a map field of a message in a payload.
// A Phaser map is a repeated field of entry messages (key, value) in
// insertion order, which may hold a key more than once (a payload written
// by appending entries, or by C++); as protobuf does, the last entry of a
// key is its value, and the view shows each key once.
//
// Lookups (Get, Has, Set, Mutable, Clear) scan the entries from the end:
// O(n) for a map of n entries. Len and Range are O(n) for up to
// smallMap entries with distinct keys (O(n²) comparisons of the stored
// keys, without allocating) and O(n) with a hash index above.
type mapView struct {
	m  Msg
	rf *rfield
	mt *MessageType // the holder's: value handles are of its kind
}

var _ protoreflect.Map = (*mapView)(nil)

// smallMap is the size up to which Len and Range find duplicate keys by
// comparing entries pairwise.
const smallMap = 16

func (mv *mapView) n() int { return mv.m.MessagesLen(mv.rf.Field) }

func (mv *mapView) entry(i int) Msg { return mv.m.ElemMessage(mv.rf.Field, i, mv.rf.Type) }

// keyIs reports whether entry e's key is k.
func (mv *mapView) keyIs(e Msg, k protoreflect.MapKey) bool {
	kf := mv.rf.key.FieldInfo
	switch kf.Kind {
	case String:
		return string(e.fieldString(kf)) == k.String()
	case Bool:
		return (e.scalarBits(kf) != 0) == k.Bool()
	case Int32, Int64:
		return scalarValue(kf, e.scalarBits(kf)).Int() == k.Int()
	}
	return scalarValue(kf, e.scalarBits(kf)).Uint() == k.Uint()
}

// sameKey reports whether entries a and b have the same key.
func (mv *mapView) sameKey(a, b Msg) bool {
	kf := mv.rf.key.FieldInfo
	if kf.Kind == String {
		return bytes.Equal(a.fieldString(kf), b.fieldString(kf))
	}
	return a.scalarBits(kf) == b.scalarBits(kf)
}

// keyOf returns entry e's key.
func (mv *mapView) keyOf(e Msg) protoreflect.MapKey {
	kf := mv.rf.key.FieldInfo
	if kf.Kind == String {
		return protoreflect.ValueOfString(string(e.fieldString(kf))).MapKey()
	}
	return scalarValue(kf, e.scalarBits(kf)).MapKey()
}

// valueOf returns entry e's value.
func (mv *mapView) valueOf(e Msg) protoreflect.Value {
	vf := mv.rf.val
	if vf.Kind == Message {
		return protoreflect.ValueOfMessage(mv.mt.field(vf).readView(e.MessageField(vf.FieldInfo)))
	}
	return getScalar(e, vf)
}

// each calls yield with every entry that is the last of its key, until
// yield returns false.
func (mv *mapView) each(yield func(Msg) bool) {
	n := mv.n()
	if n <= smallMap {
		var buf [smallMap]Msg
		es := buf[:n]
		for i := range es {
			es[i] = mv.entry(i)
		}
	next:
		for i, e := range es {
			for _, later := range es[i+1:] {
				if mv.sameKey(e, later) {
					continue next
				}
			}
			if !yield(e) {
				return
			}
		}
		return
	}
	es := make([]Msg, n)
	for i := range es {
		es[i] = mv.entry(i)
	}
	kf := mv.rf.key.FieldInfo
	if kf.Kind == String {
		last := make(map[string]int, n)
		for i, e := range es {
			last[string(e.fieldString(kf))] = i
		}
		for i, e := range es {
			if last[string(e.fieldString(kf))] == i && !yield(e) {
				return
			}
		}
		return
	}
	last := make(map[uint64]int, n)
	for i, e := range es {
		last[e.scalarBits(kf)] = i
	}
	for i, e := range es {
		if last[e.scalarBits(kf)] == i && !yield(e) {
			return
		}
	}
}

// find returns the index of the last entry of key k, or -1.
func (mv *mapView) find(k protoreflect.MapKey) int {
	for i := mv.n() - 1; i >= 0; i-- {
		if mv.keyIs(mv.entry(i), k) {
			return i
		}
	}
	return -1
}

// Len returns the number of distinct keys.
func (mv *mapView) Len() int {
	n := 0
	mv.each(func(Msg) bool { n++; return true })
	return n
}

// Range visits every key once, with its value, in insertion order of the
// last entry of each key.
func (mv *mapView) Range(f func(protoreflect.MapKey, protoreflect.Value) bool) {
	mv.each(func(e Msg) bool { return f(mv.keyOf(e), mv.valueOf(e)) })
}

// Has reports whether key k is present.
func (mv *mapView) Has(k protoreflect.MapKey) bool { return mv.find(k) >= 0 }

// Get returns the value of key k, or the invalid Value if k is absent.
func (mv *mapView) Get(k protoreflect.MapKey) protoreflect.Value {
	if i := mv.find(k); i >= 0 {
		return mv.valueOf(mv.entry(i))
	}
	return protoreflect.Value{}
}

func (mv *mapView) writable() {
	if mv.m.readOnlyPayload() {
		panic(readOnlyError(mv.rf.fd.FullName()))
	}
}

// entryFor returns the last entry of key k, appending one if k is absent.
func (mv *mapView) entryFor(k protoreflect.MapKey) Msg {
	if i := mv.find(k); i >= 0 {
		return mv.entry(i)
	}
	e := mv.m.AddMessage(mv.rf.Field, mv.rf.Type)
	if e.IsPresent() {
		e.setScalar(mv.rf.key, k.Value())
	}
	return e
}

// Set stores v as the value of key k; it panics if k or v is not of the
// map's key or value type. A message is copied into the payload.
func (mv *mapView) Set(k protoreflect.MapKey, v protoreflect.Value) {
	mv.writable()
	checkScalar(mv.rf.key.fd, k.Value())
	vf := mv.rf.val
	if vf.Kind == Message {
		src := messageValue(vf.fd, v)
		e := mv.entryFor(k)
		copyInto(e.MutableField(vf.FieldInfo), mv.mt.field(vf), src)
		return
	}
	checkScalar(vf.fd, v)
	if e := mv.entryFor(k); e.IsPresent() {
		e.SetValue(vf.FieldInfo, v) // the value even if zero: entries are written whole
	}
}

// Clear removes key k (every entry of it).
func (mv *mapView) Clear(k protoreflect.MapKey) {
	for i := mv.n() - 1; i >= 0; i-- {
		if mv.keyIs(mv.entry(i), k) {
			mv.writable()
			mv.m.EraseMessages(mv.rf.Field, i, i+1, mv.rf.Type)
		}
	}
}

// Mutable returns the message value of key k, adding the key with an
// empty message if absent; it panics for maps of scalars.
func (mv *mapView) Mutable(k protoreflect.MapKey) protoreflect.Value {
	vf := mv.rf.val
	if vf.Kind != Message {
		panic(fmt.Errorf("phaser: %v: Mutable of a map of %v", mv.rf.fd.FullName(), vf.fd.Kind()))
	}
	mv.writable()
	checkScalar(mv.rf.key.fd, k.Value())
	e := mv.entryFor(k)
	return protoreflect.ValueOfMessage(mv.mt.field(vf).view(e.MutableField(vf.FieldInfo)))
}

// NewValue returns a new value for the map: a new message in a payload of
// its own (Set copies it), or the zero value of a scalar.
func (mv *mapView) NewValue() protoreflect.Value {
	vf := mv.rf.val
	if vf.Kind == Message {
		return protoreflect.ValueOfMessage(mv.mt.field(vf).newIn(mv.m.p))
	}
	return defaultValue(vf.fd)
}

// IsValid reports whether the holder is present in a payload.
func (mv *mapView) IsValid() bool { return mv.m.IsPresent() }

// setMap replaces the entries of map field rf with those of src.
func (x *message) setMap(rf *rfield, src protoreflect.Map) {
	if s, ok := src.(*mapView); ok && s.m.p == x.m.p && x.m.p != nil {
		if s.m.off == x.m.off && s.rf.Number == rf.Number {
			return
		}
		tmp := &mapView{m: New(s.mt.t, reflectOptions(nil)), rf: s.rf, mt: s.mt}
		s.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			tmp.Set(k, v)
			return true
		})
		src = tmp
	}
	x.m.ClearRepeated(rf.FieldInfo)
	dst := &mapView{m: x.m, rf: rf, mt: x.mt}
	src.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		dst.Set(k, v)
		return true
	})
}
