package impl

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// listView is the protoreflect.List of a repeated field of a message in a
// payload: the holder and the field, never the elements.
type listView struct {
	m  Msg
	rf *rfield
	mt *MessageType // the holder's: element handles are of its kind
}

var _ protoreflect.List = (*listView)(nil)

// Len returns the number of elements.
func (l *listView) Len() int { return l.m.LenOf(l.rf.FieldInfo) }

func (l *listView) index(i int) {
	if n := l.Len(); i < 0 || i >= n {
		panic(fmt.Errorf("phaser: %v: index %d out of range [0:%d]", l.rf.fd.FullName(), i, n))
	}
}

// Get returns element i; it panics if i is out of range.
func (l *listView) Get(i int) protoreflect.Value {
	l.index(i)
	return l.elem(i)
}

func (l *listView) elem(i int) protoreflect.Value {
	m, f := l.m, l.rf.FieldInfo
	switch f.Kind {
	case String:
		return protoreflect.ValueOfString(string(m.ElemString(f.Field, i)))
	case Bytes:
		return protoreflect.ValueOfBytes(m.ElemString(f.Field, i))
	case Message:
		return protoreflect.ValueOfMessage(l.mt.field(l.rf).readView(m.ElemMessage(f.Field, i, f.Type)))
	}
	return scalarValue(f, elemBits(m, f, i))
}

func (l *listView) writable() {
	if l.m.readOnlyPayload() {
		panic(readOnlyError(l.rf.fd.FullName()))
	}
}

// Set stores v as element i; it panics if i is out of range or v is not of
// the element type. A message is copied into the payload.
func (l *listView) Set(i int, v protoreflect.Value) {
	l.writable()
	l.index(i)
	m, f := l.m, l.rf.FieldInfo
	switch f.Kind {
	case Message:
		src := messageValue(l.rf.fd, v)
		copyInto(m.MutableElem(f.Field, i, f.Type), l.mt.field(l.rf), src)
		return
	case String, Bytes:
		checkScalar(l.rf.fd, v)
		if s, ok := v.Interface().(string); ok {
			m.SetElemString(f.Field, i, s)
		} else {
			m.SetElemBytes(f.Field, i, v.Bytes())
		}
		return
	}
	checkScalar(l.rf.fd, v)
	bits, _ := valueBits(f, v)
	m.setElemBits(f, i, bits)
}

// Append appends v; it panics if v is not of the element type. A message
// is copied into the payload.
func (l *listView) Append(v protoreflect.Value) {
	l.writable()
	f := l.rf.FieldInfo
	if f.Kind == Message {
		src := messageValue(l.rf.fd, v)
		copyInto(l.m.AddMessage(f.Field, f.Type), l.mt.field(l.rf), src)
		return
	}
	checkScalar(l.rf.fd, v)
	l.m.AppendValue(f, v)
}

// AppendMutable appends a new, empty message and returns it; it panics for
// lists of scalars.
func (l *listView) AppendMutable() protoreflect.Value {
	f := l.rf.FieldInfo
	if f.Kind != Message {
		panic(fmt.Errorf("phaser: %v: AppendMutable of a list of %v", l.rf.fd.FullName(), l.rf.fd.Kind()))
	}
	l.writable()
	return protoreflect.ValueOfMessage(l.mt.field(l.rf).view(l.m.AddMessage(f.Field, f.Type)))
}

// Truncate removes the elements from n on; it panics if n is out of range.
func (l *listView) Truncate(n int) {
	have := l.Len()
	if n < 0 || n > have {
		panic(fmt.Errorf("phaser: %v: Truncate(%d) of a list of %d", l.rf.fd.FullName(), n, have))
	}
	if n == have {
		return
	}
	l.writable()
	m, f := l.m, l.rf.FieldInfo
	switch f.Kind {
	case Message:
		m.EraseMessages(f.Field, n, have, f.Type)
	case String, Bytes:
		m.EraseStrings(f.Field, n, have)
	default:
		m.EraseElems(f.Field, n, have, elemSize(f.Kind))
	}
}

// NewElement returns a new value for an element: a new message in a
// payload of its own (Append copies it), or the zero value of a scalar.
func (l *listView) NewElement() protoreflect.Value {
	if l.rf.Kind == Message {
		return protoreflect.ValueOfMessage(l.mt.field(l.rf).newIn(l.m.p))
	}
	return defaultValue(l.rf.fd)
}

// IsValid reports whether the holder is present in a payload.
func (l *listView) IsValid() bool { return l.m.IsPresent() }

// setList replaces the elements of repeated field rf with those of src.
func (x *message) setList(rf *rfield, src protoreflect.List) {
	if s, ok := src.(*listView); ok && s.m.p == x.m.p && x.m.p != nil {
		if s.m.off == x.m.off && s.rf.Number == rf.Number {
			return
		}
		// src lives in this payload, maybe inside this field: copy it out
		// first.
		tmp := &listView{m: New(s.mt.t, reflectOptions(nil)), rf: s.rf, mt: s.mt}
		for i := range s.Len() {
			tmp.Append(s.elem(i))
		}
		src = tmp
	}
	x.m.ClearRepeated(rf.FieldInfo)
	dst := &listView{m: x.m, rf: rf, mt: x.mt}
	for i := range src.Len() {
		dst.Append(src.Get(i))
	}
}
