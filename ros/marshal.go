package ros

import (
	"errors"
	"fmt"
	"math"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// ErrFailed reports a payload whose fixed buffer filled up: it is not
// serialized.
var ErrFailed = errors.New("ros: payload buffer failed; not serialized")

// Marshal returns the ROS1 serialization of message m.
func Marshal(m runtime.Msg) ([]byte, error) {
	n, err := Size(m)
	if err != nil {
		return nil, err
	}
	return Append(make([]byte, 0, n), m)
}

// Append appends the ROS1 serialization of m to dst. It allocates nothing
// when dst has room.
func Append(dst []byte, m runtime.Msg) ([]byte, error) {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return dst, fmt.Errorf("ros: marshal: no message")
	}
	return appendMsg(dst, d.Msg(), d.Type())
}

// appendMsg is Append for the engine's handle m of type t.
func appendMsg(dst []byte, m impl.Msg, t *impl.Type) ([]byte, error) {
	if m.Failed() {
		return dst, ErrFailed
	}
	p, err := planOf(t)
	if err != nil {
		return dst, err
	}
	w := Writer{Buf: dst}
	err = writeMessage(&w, m, p)
	return w.Buf, err
}

// Size returns the length of m's ROS1 serialization.
func Size(m runtime.Msg) (int, error) {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return 0, fmt.Errorf("ros: marshal: no message")
	}
	m1, t := d.Msg(), d.Type()
	if m1.Failed() {
		return 0, ErrFailed
	}
	p, err := planOf(t)
	if err != nil {
		return 0, err
	}
	return sizeMessage(m1, p)
}

func writeMessage(w *Writer, m impl.Msg, p *plan) error {
	// Scalars through the view when the message has its compiled layout
	// (inlined reads), else through m.
	v, view := m.View(p.t)
	for _, it := range p.items {
		switch it.op {
		case opCopy32:
			x := v.Get32(it.f.Field)
			if !view {
				x = m.Get32(it.f.Field)
			}
			w.Uint32(x)
		case opCopy64:
			x := v.Get64(it.f.Field)
			if !view {
				x = m.Get64(it.f.Field)
			}
			w.Uint64(x)
		case opString:
			if err := w.String(m.StringBytes(it.f.Field)); err != nil {
				return err
			}
		case opMessage:
			if err := writeMessage(w, m.Message(it.f.Field, it.f.Type), it.sub); err != nil {
				return err
			}
		default:
			if err := writeItem(w, m, it); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeItem(w *Writer, m impl.Msg, it *item) error {
	f := it.f
	switch {
	case it.union != nil:
		disc := m.WhichOneof(it.union)
		w.Uint32(disc)
		for _, mi := range it.members {
			if mi.f.Number == disc {
				return writeMember(w, m, mi)
			}
		}
		return nil
	case it.array > 0:
		if it.raw {
			return writeRawArray(w, m, it)
		}
		n := m.LenOf(f)
		if n > it.array {
			return fmt.Errorf("ros: %s: %d elements in a fixed array of %d", f.Desc.FullName(), n, it.array)
		}
		if it.messages() {
			for _, e := range m.MessagesOf(f) {
				if err := writeElemMessage(w, e, it); err != nil {
					return err
				}
			}
			for range it.array - n {
				if err := writeElemMessage(w, impl.Msg{}, it); err != nil {
					return err
				}
			}
			return nil
		}
		for i := range it.array {
			if err := writeElem(w, m, it, i, i < n); err != nil {
				return err
			}
		}
		return nil
	case f.Repeated:
		n := m.LenOf(f)
		w.Uint32(uint32(n))
		switch {
		case it.raw:
			w.Buf = append(w.Buf, storedElems(m, it)...)
			return nil
		case it.rt == Message && !it.isAny:
			for _, e := range m.MessagesOf(f) {
				if err := writeMessage(w, e, it.sub); err != nil {
					return err
				}
			}
			return nil
		case it.messages():
			for _, e := range m.MessagesOf(f) {
				if err := writeElemMessage(w, e, it); err != nil {
					return err
				}
			}
			return nil
		}
		for i := range n {
			if err := writeElem(w, m, it, i, true); err != nil {
				return err
			}
		}
		return nil
	}
	switch it.rt {
	case String:
		return w.String(m.StringBytes(f.Field))
	case Message:
		return writeSub(w, m.Message(f.Field, f.Type), it)
	case Time, Duration:
		writeTime(w, m.Message(f.Field, f.Type), it.rt)
		return nil
	}
	writeScalar(w, it, scalarBits(m, it))
	return nil
}

// writeRawArray writes a fixed array of scalars stored as their ROS bytes:
// one copy of the stored elements, then zeros for those not stored.
func writeRawArray(w *Writer, m impl.Msg, it *item) error {
	s := storedElems(m, it)
	if n := len(s) / it.size; n > it.array {
		return fmt.Errorf("ros: %s: %d elements in a fixed array of %d", it.f.Desc.FullName(), n, it.array)
	}
	w.Buf = append(w.Buf, s...)
	w.Buf = append(w.Buf, make([]byte, it.array*it.size-len(s))...)
	return nil
}

// storedElems returns the stored elements of repeated scalar it: none when
// m is the zero Msg, which the default element of a fixed array of
// messages is.
func storedElems(m impl.Msg, it *item) []byte {
	if !m.IsPresent() {
		return nil
	}
	return m.Span(it.f.Field, it.size)
}

// writeMember writes the active member of a oneof as its singular type.
func writeMember(w *Writer, m impl.Msg, mi *item) error {
	f := mi.f
	switch mi.rt {
	case String:
		return w.String(m.MemberString(f.Field))
	case Message:
		return writeSub(w, m.MemberMessage(f.Field, f.Type), mi)
	case Time, Duration:
		writeTime(w, m.MemberMessage(f.Field, f.Type), mi.rt)
		return nil
	}
	var v uint64
	switch mi.size {
	case 1:
		v = uint64(m.Member8(f.Field))
	case 4:
		v = uint64(m.Member32(f.Field))
	default:
		v = m.Member64(f.Field)
	}
	writeScalar(w, mi, v)
	return nil
}

// messages reports whether the elements of repeated field it are messages
// (time and duration included).
func (it *item) messages() bool {
	return it.rt == Message || it.rt == Time || it.rt == Duration
}

// writeElemMessage writes element e of a repeated message field; the zero
// Msg is the default element of a fixed array.
func writeElemMessage(w *Writer, e impl.Msg, it *item) error {
	if it.rt == Message {
		return writeSub(w, e, it)
	}
	writeTime(w, e, it.rt)
	return nil
}

// writeElem writes element i of a repeated field of strings or scalars, or
// its default when it is not stored (fixed arrays).
func writeElem(w *Writer, m impl.Msg, it *item, i int, stored bool) error {
	f := it.f
	if it.rt == String {
		if !stored {
			w.Uint32(0)
			return nil
		}
		return w.String(m.ElemString(f.Field, i))
	}
	var v uint64
	if stored {
		switch it.size {
		case 1:
			v = uint64(m.Elem8(f.Field, i))
		case 4:
			v = uint64(m.Elem32(f.Field, i))
		default:
			v = m.Elem64(f.Field, i)
		}
	}
	writeScalar(w, it, v)
	return nil
}

// writeSub writes a nested message inline (a default one when absent).
func writeSub(w *Writer, m impl.Msg, it *item) error {
	if it.isAny {
		if m.IsPresent() && (len(m.AnyTypeURL()) > 0 || m.AnyTypeName() != "" || hasAnyValue(m)) {
			return fmt.Errorf("ros: %s: a populated google.protobuf.Any has no ROS1 form", it.f.Desc.FullName())
		}
		w.Uint32(0)
		w.Uint32(0)
		return nil
	}
	return writeMessage(w, m, it.sub)
}

var anyValue = impl.Field{Number: 2, Offset: 8}

func hasAnyValue(m impl.Msg) bool { return m.HasString(anyValue) }

// Timestamp and Duration: seconds (1) and nanos (2) in both, presence ids
// 0 and 1 (bits 0 and 1 of byte 4).
var (
	tsSeconds = impl.Field{Number: 1, Offset: 8, Byte: 4, Mask: 1 << 0}
	tsNanos   = impl.Field{Number: 2, Offset: 16, Byte: 4, Mask: 1 << 1}
)

func writeTime(w *Writer, m impl.Msg, rt Type) {
	sec, nsec := toROS(int64(m.Get64(tsSeconds)), int32(m.Get32(tsNanos)))
	w.Uint32(uint32(sec)) // time: uint32; duration: int32 (the same bits)
	w.Uint32(nsec)
}

// scalarBits returns the stored bits of a singular scalar. Presence is not
// looked at: ROS has none, an unset field is written as 0.
func scalarBits(m impl.Msg, it *item) uint64 {
	switch it.size {
	case 1:
		return uint64(m.Get8(it.f.Field))
	case 4:
		return uint64(m.Get32(it.f.Field))
	}
	return m.Get64(it.f.Field)
}

// writeScalar writes stored bits at the width of the ROS type: integers are
// truncated (two's complement), floats converted.
func writeScalar(w *Writer, it *item, v uint64) {
	switch it.rt {
	case Bool:
		if v&0xFF != 0 {
			w.Uint8(1)
		} else {
			w.Uint8(0)
		}
	case Int8, Uint8:
		w.Uint8(uint8(v))
	case Int16, Uint16:
		w.Uint16(uint16(v))
	case Int32, Uint32:
		w.Uint32(uint32(v))
	case Int64, Uint64:
		w.Uint64(signExtend(it, v))
	case Float32:
		if it.size == 8 {
			w.Float32(float32(math.Float64frombits(v)))
		} else {
			w.Uint32(uint32(v))
		}
	case Float64:
		if it.size == 4 {
			w.Float64(float64(math.Float32frombits(uint32(v))))
		} else {
			w.Uint64(v)
		}
	}
}

// signExtend widens a 4-byte stored value written to a 64-bit ROS type.
func signExtend(it *item, v uint64) uint64 {
	if it.size != 4 {
		return v
	}
	switch it.f.Kind {
	case impl.Int32, impl.Enum:
		return uint64(int64(int32(v)))
	}
	return uint64(uint32(v))
}

func sizeMessage(m impl.Msg, p *plan) (int, error) {
	if p.fixed >= 0 {
		return p.fixed, nil
	}
	n := 0
	for _, it := range p.items {
		s, err := sizeItem(m, it)
		if err != nil {
			return 0, err
		}
		n += s
	}
	return n, nil
}

func sizeItem(m impl.Msg, it *item) (int, error) {
	f := it.f
	if fixed, _ := it.sizes(); fixed >= 0 {
		return fixed, nil
	}
	switch {
	case it.union != nil:
		disc := m.WhichOneof(it.union)
		for _, mi := range it.members {
			if mi.f.Number == disc {
				s, err := sizeMember(m, mi)
				return 4 + s, err
			}
		}
		return 4, nil
	case it.array > 0 || f.Repeated:
		n := m.LenOf(f)
		count, total := n, 4
		if it.array > 0 {
			if n > it.array {
				return 0, fmt.Errorf("ros: %s: %d elements in a fixed array of %d", f.Desc.FullName(), n, it.array)
			}
			count, total = it.array, 0
		}
		if it.rt == Message {
			for _, e := range m.MessagesOf(f) {
				s, err := sizeSub(e, it)
				if err != nil {
					return 0, err
				}
				total += s
			}
			for range count - n {
				s, err := sizeSub(impl.Msg{}, it)
				if err != nil {
					return 0, err
				}
				total += s
			}
			return total, nil
		}
		for i := range count {
			total += sizeElem(m, it, i, i < n)
		}
		return total, nil
	}
	switch it.rt {
	case String:
		return 4 + len(m.StringBytes(f.Field)), nil
	case Message:
		return sizeSub(m.Message(f.Field, f.Type), it)
	}
	return it.rt.Width(), nil
}

func sizeMember(m impl.Msg, mi *item) (int, error) {
	switch mi.rt {
	case String:
		return 4 + len(m.MemberString(mi.f.Field)), nil
	case Message:
		return sizeSub(m.MemberMessage(mi.f.Field, mi.f.Type), mi)
	}
	return mi.rt.Width(), nil
}

// sizeElem returns the size of element i of a repeated field that is not
// of messages, or of its default when it is not stored (fixed arrays).
func sizeElem(m impl.Msg, it *item, i int, stored bool) int {
	if it.rt == String {
		if !stored {
			return 4
		}
		return 4 + len(m.ElemString(it.f.Field, i))
	}
	return it.rt.Width()
}

func sizeSub(m impl.Msg, it *item) (int, error) {
	if it.isAny {
		return 8, nil
	}
	return sizeMessage(m, it.sub)
}
