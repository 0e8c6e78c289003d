package impl

import (
	"fmt"
	"unsafe"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// The view of a google.protobuf.Any. Phaser stores an Any's value as the
// embedded Phaser message, not as its protobuf encoding: the view gives
// field value as that message's protobuf encoding (written from the
// payload when read) and parses a value that is set into an embedded
// message of the type its type URL names. protojson and prototext, which
// print an Any as its type and the fields of its value, and proto.Equal,
// which compares the encodings, see what they see of a protobuf-go Any.

// dropPending forgets x's pending value and the error it recorded.
func (x *message) dropPending() {
	if x.extra == nil || x.extra.pending == nil {
		return
	}
	if x.m.p.err == x.extra.pendingErr {
		x.m.p.err = nil
	}
	x.extra.pending, x.extra.pendingErr = nil, nil
}

// pendingValue returns the Any value waiting for its type URL, or nil.
func (x *message) pendingValue() []byte {
	if x.extra == nil {
		return nil
	}
	return x.extra.pending
}

// anyContent returns the embedded message of the Any x and its type;
// present reports whether the Any holds a value at all, whose type t is nil
// if the runtime does not know it.
func (x *message) anyContent() (inner Msg, t *Type, present bool) {
	if !x.m.HasString(anyValue) {
		return Msg{}, nil, false
	}
	t = FindType(protoreflect.FullName(x.m.AnyTypeName()))
	if t == nil {
		return Msg{}, nil, true
	}
	return x.m.AnyValue(t), t, true
}

// anyBytes returns the protobuf encoding of x's value (nil if it has none
// or it cannot be encoded; CheckInitialized reports why).
func (x *message) anyBytes() []byte {
	inner, t, _ := x.anyContent()
	if t == nil || wire == nil {
		return nil
	}
	b, err := wire.Append(nil, inner, t)
	if err != nil {
		return nil
	}
	return b
}

// anyErr reports why x's value cannot be read, or nil.
func (x *message) anyErr() error {
	_, t, present := x.anyContent()
	if present && t == nil {
		return fmt.Errorf("phaser: google.protobuf.Any holds %q, whose type is not registered", x.m.AnyTypeName())
	}
	return nil
}

func (x *message) hasAny(rf *rfield) bool {
	if rf.Number == anyTypeURL.Number {
		return len(x.m.StringBytes(anyTypeURL)) > 0
	}
	if x.pendingValue() != nil {
		return true
	}
	inner, t, present := x.anyContent()
	if !present {
		return false
	}
	if t == nil || wire == nil {
		return true // a value that cannot be read is not an empty one
	}
	n, err := wire.Size(inner, t)
	return n > 0 || err != nil
}

func (x *message) getAny(rf *rfield) protoreflect.Value {
	if rf.Number == anyTypeURL.Number {
		return protoreflect.ValueOfString(x.m.AnyTypeURL())
	}
	if b := x.pendingValue(); b != nil {
		return protoreflect.ValueOfBytes(b)
	}
	return protoreflect.ValueOfBytes(x.anyBytes())
}

func (x *message) rangeAny(f func(protoreflect.FieldDescriptor, protoreflect.Value) bool) {
	for i := range x.info.fields {
		rf := x.info.fields[i]
		if x.hasAny(rf) && !f(rf.fd, x.getAny(rf)) {
			return
		}
	}
}

func (x *message) setAny(rf *rfield, v protoreflect.Value) {
	checkScalar(rf.fd, v)
	if rf.Number == anyValue.Number {
		x.storeAnyValue(v.Bytes())
		return
	}
	url := v.String()
	if b := x.pendingValue(); b != nil {
		// The value came first.
		x.dropPending()
		x.setAnyURL(url)
		x.storeAnyValue(b)
		return
	}
	_, t, _ := x.anyContent()
	if t != nil && typeNameOf(url) != t.name {
		// The value is reinterpreted as the new type, as protobuf would
		// when it decodes the value bytes.
		b := x.anyBytes()
		x.setAnyURL(url)
		x.storeAnyValue(b)
		return
	}
	x.setAnyURL(url)
}

func (x *message) setAnyURL(url string) {
	if url == "" {
		x.m.ClearString(anyTypeURL)
		return
	}
	x.m.SetString(anyTypeURL, url)
}

// typeNameOf returns the message name of a type URL (after the last /).
func typeNameOf(url string) string {
	for i := len(url) - 1; i >= 0; i-- {
		if url[i] == '/' {
			return url[i+1:]
		}
	}
	return url
}

// storeAnyValue parses b, the encoding of a message of the type x's URL
// names, into x's embedded message. A type the runtime does not know
// cannot be stored: that is recorded in the payload (ErrNotStored).
func (x *message) storeAnyValue(b []byte) {
	x.clearAnyValue()
	if len(b) == 0 {
		return
	}
	url := x.m.AnyTypeURL()
	t := FindType(protoreflect.FullName(typeNameOf(url)))
	if t == nil || wire == nil {
		// Kept until a type URL the runtime knows comes (setAny).
		if x.extra == nil {
			x.extra = new(viewExtra)
		}
		x.extra.pending = append([]byte(nil), b...)
		what := fmt.Sprintf("google.protobuf.Any value of type %q, which is not registered", url)
		if url == "" {
			what = "google.protobuf.Any value without a type URL"
		}
		if x.m.p.err == nil {
			x.m.p.notStored(what)
			x.extra.pendingErr = x.m.p.err
		}
		return
	}
	if overlaps(b, x.m.p.mem) {
		b = append([]byte(nil), b...) // the parse writes the payload b is in
	}
	inner := x.m.MutableAny(t)
	if url != AnyURLPrefix+t.name {
		x.m.SetString(anyTypeURL, url) // keep the caller's URL
	}
	if !inner.IsPresent() {
		return // the buffer is full: recorded
	}
	if err := wire.Unmarshal(b, inner, t); err != nil && x.m.p.err == nil {
		x.m.p.err = fmt.Errorf("phaser: google.protobuf.Any value of type %s: %w", t.name, err)
	}
}

func (x *message) clearAnyValue() {
	x.dropPending()
	inner, t, present := x.anyContent()
	if !present {
		return
	}
	if t != nil {
		inner.Clear(t)
	}
	x.m.ClearString(anyValue)
}

func (x *message) clearAny(rf *rfield) {
	if !x.hasAny(rf) {
		return
	}
	x.writable(rf.fd)
	if rf.Number == anyTypeURL.Number {
		x.m.ClearString(anyTypeURL)
		return
	}
	x.clearAnyValue()
}

// overlaps reports whether a and b share memory.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
