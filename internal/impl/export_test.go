package impl

import (
	"errors"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// ReadAsAny is Read without the check of the root's type, for tests that
// bind payloads to any type (type confusion must be as safe as a hostile
// table).
// A payload whose root is of another type is bound to t as ReadInto binds
// the root's nested messages.
func ReadAsAny(t *Type, data []byte) (Msg, error) {
	p := new(Payload)
	m, err := ReadInto(p, t, data)
	if !errors.Is(err, ErrWrongType) {
		return m, err
	}
	return p.bind(le.Uint32(data[4:8]), t), nil
}

// IsolatedType compiles md into Types of their own, outside the registry
// (md and the types it reaches): another version of a message whose name a
// registered Type already has, as a peer built from an older .proto has
// it. Types are keyed by name, so a program holds one version of each;
// schema evolution tests need two.
func IsolatedType(md protoreflect.MessageDescriptor) (*Type, error) {
	if _, err := TypeOf(AnyType().desc); err != nil { // the registry's caches exist
		return nil, err
	}
	registry.Lock()
	defer registry.Unlock()
	saved := registry.types
	registry.types = make(map[typeKey]*Type)
	defer func() { registry.types = saved }()
	return typeOfLocked(md, ProtobufFrontend)
}

// ElemMessageModel is element i of v3 repeated message field f of type t
// as ElemMessage found it before mvbElem fused its steps: the vector's
// count and block (mvbLen, mvb), the element's chunk (elem), then bind.
// FuzzMessageElem compares the two on hostile payloads.
func ElemMessageModel(m Msg, f Field, i int, t *Type) Msg {
	if f.Fixed != 0 && uint64(i) >= uint64(f.Fixed) || !m.v3() {
		return m.ElemMessage(f, i, t)
	}
	v, _, n := m.mvbLen(f)
	if i < 0 || i >= n {
		return Msg{p: m.p}
	}
	e, ok := m.p.elem(v, uint32(i))
	if !ok {
		return Msg{p: m.p}
	}
	return m.p.bind(e, t)
}

// TakeSetAside returns how many blocks the last Clear of p set aside for
// the setters (what a Clear through keepBlocks records, and an Assign on
// its straight line does not) since the last call, and forgets it once no
// block is left aside (every setter took its block back, or an Assign
// freed the rest).
func TakeSetAside(p *Payload) int {
	n := int(p.nreuse)
	if p.nlive == 0 {
		p.nreuse = 0
	}
	return n
}

// Slot returns the slot of t's entry in a payload's table cache.
func Slot(t *Type) uint32 { return t.slot }

// Reach returns the types t reaches, t first.
func Reach(t *Type) []*Type { return t.reach }

// ShareSlot gives t the slot of u, as two types of a payload that cannot
// both have one of their own share it, until the restore it returns. The
// table caches that the types' first matched blocks made are dropped
// then and on restore (they are copies of a cache laid out by slot).
func ShareSlot(t, u *Type) (restore func()) {
	dropBlockCaches := func() {
		registry.Lock()
		defer registry.Unlock()
		for _, r := range registry.types {
			r.blockCache.Store(nil)
		}
	}
	old := t.slot
	t.slot = u.slot
	dropBlockCaches()
	return func() {
		t.slot = old
		dropBlockCaches()
	}
}

// Registered returns every Type of the registry.
func Registered() []*Type {
	registry.Lock()
	defer registry.Unlock()
	var ts []*Type
	for _, t := range registry.types {
		ts = append(ts, t)
	}
	return ts
}

// IsolatedTypes is IsolatedType of the messages of ts in turn, compiled
// for frontend fe into one registry of their own, with gap ids left
// unused after each (as a program registers the types of other packages
// between them).
func IsolatedTypes(gap uint32, fe Frontend, ts ...*Type) ([]*Type, error) {
	registry.Lock()
	defer registry.Unlock()
	saved := registry.types
	registry.types = make(map[typeKey]*Type)
	defer func() { registry.types = saved }()
	var out []*Type
	for _, t := range ts {
		it, err := typeOfLocked(t.desc, fe)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
		registry.ids += gap
	}
	return out, nil
}

// ID returns t's id.
func ID(t *Type) uint32 { return t.id }

// TableCache returns p's table cache (tables.go).
func TableCache(p *Payload) [tableSlots]uint64 { return p.tables }

// AssignCopyModel is List.Assign without AssignElems's in-place case (a
// refill's): AssignCopy, which takes VectorAssign's.
// FuzzListAssign compares the two.
func AssignCopyModel[T Scalar](r Repeated, vs []T) bool {
	b := make([]byte, uintptr(len(vs))*SizeOf[T]())
	StoreElems(b, vs)
	return r.m.AssignCopy(r.f, b, int(SizeOf[T]()))
}

// MaxRun is maxRun, the longest Run of a payload that does not trust what
// it holds.
const MaxRun = maxRun

// UnknownIndex returns the offset of p's unknown-field index (0 if none).
func UnknownIndex(p *Payload) uint32 { return p.unknownIndex() }
