package ros

import (
	"errors"
	"fmt"

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
	e := encoder{Writer: Writer{Buf: dst}, left: m.WorkBudget()}
	err = writeMessage(&e, m, p)
	return e.Buf, err
}

// encoder writes the ROS1 serialization of messages in a payload, charging
// what it reads against a work budget.
type encoder struct {
	Writer
	// left is the work budget: what is left of the payload's length, which
	// every string, element and scalar array read is charged against. A
	// payload holds each of them once; one whose offsets are shared or form
	// cycles (possible only in hostile input) refers to more, and fails
	// when the budget is spent, so that the output stays in proportion to
	// the input. Singular messages are not charged: ROS1 messages are not
	// recursive, so how often one is reached is bounded by the schema and
	// by the charged elements that hold it.
	left int
}

// ErrSharedOffsets is wrapped by the error of a payload that refers to
// more data than it holds: its offsets share strings, elements or arrays,
// or form cycles, which only hostile input does.
var ErrSharedOffsets = errors.New("payload refers to more data than it holds (shared or cyclic offsets)")

// charge spends n units of the budget *left, failing once it is spent.
func charge(left *int, n int, it *item) error {
	if *left -= n; *left < 0 {
		return fmt.Errorf("ros: %s: %w", it.f.Desc.FullName(), ErrSharedOffsets)
	}
	return nil
}

// chargeElems charges the n elements of repeated item it: the bytes a
// payload stores them in at least (4 for a string or message, whose bytes
// are charged as they are read; a scalar's size).
func chargeElems(left *int, n int, it *item) error { return charge(left, n*it.size, it) }

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
	left := m1.WorkBudget()
	return sizeMessage(m1, p, &left)
}

func writeMessage(w *encoder, m impl.Msg, p *plan) error {
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
			if err := w.str(m.StringBytes(it.f.Field), it); err != nil {
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

// str writes string s of item it, charging its bytes.
func (w *encoder) str(s []byte, it *item) error {
	if err := charge(&w.left, len(s), it); err != nil {
		return err
	}
	return w.String(s)
}

// arrayError is the error of a fixed array of item it that stores n
// elements.
func arrayError(it *item, n int) error {
	return fmt.Errorf("ros: %s: %d elements in a fixed array of %d", it.f.Desc.FullName(), n, it.array)
}

func writeItem(w *encoder, m impl.Msg, it *item) error {
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
			return arrayError(it, n)
		}
		if err := chargeElems(&w.left, n, it); err != nil {
			return err
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
		if err := chargeElems(&w.left, n, it); err != nil {
			return err
		}
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
		return w.str(m.StringBytes(f.Field), it)
	case Message:
		return writeSub(w, m.Message(f.Field, f.Type), it)
	case Time, Duration:
		return writeTime(w, m.Message(f.Field, f.Type), it)
	}
	return writeScalar(&w.Writer, it, scalarBits(m, it))
}

// writeRawArray writes a fixed array of scalars stored as their ROS bytes:
// one copy of the stored elements, then zeros for those not stored.
func writeRawArray(w *encoder, m impl.Msg, it *item) error {
	s := storedElems(m, it)
	if n := len(s) / it.size; n > it.array {
		return arrayError(it, n)
	}
	if err := charge(&w.left, len(s), it); err != nil {
		return err
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
func writeMember(w *encoder, m impl.Msg, mi *item) error {
	f := mi.f
	switch mi.rt {
	case String:
		return w.str(m.MemberString(f.Field), mi)
	case Message:
		return writeSub(w, m.MemberMessage(f.Field, f.Type), mi)
	case Time, Duration:
		return writeTime(w, m.MemberMessage(f.Field, f.Type), mi)
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
	return writeScalar(&w.Writer, mi, v)
}

// messages reports whether the elements of repeated field it are messages
// (time and duration included).
func (it *item) messages() bool {
	return it.rt == Message || it.rt == Time || it.rt == Duration
}

// writeElemMessage writes element e of a repeated message field; the zero
// Msg is the default element of a fixed array.
func writeElemMessage(w *encoder, e impl.Msg, it *item) error {
	if it.rt == Message {
		return writeSub(w, e, it)
	}
	return writeTime(w, e, it)
}

// writeElem writes element i of a repeated field of strings or scalars, or
// its default when it is not stored (fixed arrays).
func writeElem(w *encoder, m impl.Msg, it *item, i int, stored bool) error {
	f := it.f
	if it.rt == String {
		if !stored {
			w.Uint32(0)
			return nil
		}
		return w.str(m.ElemString(f.Field, i), it)
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
	return writeScalar(&w.Writer, it, v)
}

// writeSub writes a nested message inline (a default one when absent).
func writeSub(w *encoder, m impl.Msg, it *item) error {
	if it.isAny {
		if !m.IsEmptyAny() {
			return fmt.Errorf("ros: %s: a populated google.protobuf.Any has no ROS1 form", it.f.Desc.FullName())
		}
		w.Uint32(0)
		w.Uint32(0)
		return nil
	}
	return writeMessage(w, m, it.sub)
}

// Timestamp and Duration: seconds (1) and nanos (2) in both.
var tsSeconds, tsNanos = impl.SecondsField, impl.NanosField

// writeTime writes the Timestamp or Duration m of item it (rt Time or
// Duration) as a ROS time or duration, which must hold it.
func writeTime(w *encoder, m impl.Msg, it *item) error {
	seconds, nanos := int64(m.Get64(tsSeconds)), int32(m.Get32(tsNanos))
	sec, nsec, ok := rosWords(it.rt, seconds, nanos)
	if !ok {
		return timeError(string(it.f.Desc.FullName()), it.rt, seconds, nanos)
	}
	w.Uint32(sec) // time: uint32; duration: int32 (the same bits)
	w.Uint32(nsec)
	return nil
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

// writeScalar writes stored bits at the width of the ROS type, converted
// (rosBits): a value the ROS type cannot hold is an error.
func writeScalar(w *Writer, it *item, v uint64) error {
	b, err := rosBits(it, v)
	if err != nil {
		return err
	}
	switch it.rt.Width() {
	case 1:
		w.Uint8(uint8(b))
	case 2:
		w.Uint16(uint16(b))
	case 4:
		w.Uint32(uint32(b))
	default:
		w.Uint64(b)
	}
	return nil
}

func sizeMessage(m impl.Msg, p *plan, left *int) (int, error) {
	if p.fixed >= 0 {
		return p.fixed, nil
	}
	n := 0
	for _, it := range p.items {
		s, err := sizeItem(m, it, left)
		if err != nil {
			return 0, err
		}
		n += s
	}
	return n, nil
}

func sizeItem(m impl.Msg, it *item, left *int) (int, error) {
	f := it.f
	if fixed, _ := it.sizes(); fixed >= 0 {
		return fixed, nil
	}
	switch {
	case it.union != nil:
		disc := m.WhichOneof(it.union)
		for _, mi := range it.members {
			if mi.f.Number == disc {
				s, err := sizeMember(m, mi, left)
				return 4 + s, err
			}
		}
		return 4, nil
	case it.array > 0 || f.Repeated:
		n := m.LenOf(f)
		count, total := n, 4
		if it.array > 0 {
			if n > it.array {
				return 0, arrayError(it, n)
			}
			count, total = it.array, 0
		}
		if err := chargeElems(left, n, it); err != nil {
			return 0, err
		}
		if it.rt == Message {
			for _, e := range m.MessagesOf(f) {
				s, err := sizeSub(e, it, left)
				if err != nil {
					return 0, err
				}
				total += s
			}
			for range count - n {
				s, err := sizeSub(impl.Msg{}, it, left)
				if err != nil {
					return 0, err
				}
				total += s
			}
			return total, nil
		}
		if it.rt != String {
			return total + count*it.rt.Width(), nil
		}
		for i := range count {
			if i >= n {
				total += 4
				continue
			}
			s := m.ElemString(f.Field, i)
			if err := charge(left, len(s), it); err != nil {
				return 0, err
			}
			total += 4 + len(s)
		}
		return total, nil
	}
	switch it.rt {
	case String:
		return sizeString(m.StringBytes(f.Field), it, left)
	case Message:
		return sizeSub(m.Message(f.Field, f.Type), it, left)
	}
	return it.rt.Width(), nil
}

// sizeString returns the size of string s of item it, charging its bytes.
func sizeString(s []byte, it *item, left *int) (int, error) {
	if err := charge(left, len(s), it); err != nil {
		return 0, err
	}
	return 4 + len(s), nil
}

func sizeMember(m impl.Msg, mi *item, left *int) (int, error) {
	switch mi.rt {
	case String:
		return sizeString(m.MemberString(mi.f.Field), mi, left)
	case Message:
		return sizeSub(m.MemberMessage(mi.f.Field, mi.f.Type), mi, left)
	}
	return mi.rt.Width(), nil
}

func sizeSub(m impl.Msg, it *item, left *int) (int, error) {
	if it.isAny {
		return 8, nil
	}
	return sizeMessage(m, it.sub, left)
}
