package ros

import (
	"fmt"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// maxDepth bounds nesting while reading (ROS messages are not recursive, so
// this only guards against corrupt schemas).
const maxDepth = 100

// Unmarshal replaces the content of message m with the ROS1
// serialization in data, writing straight into m's payload. Every scalar
// read becomes present, as in C++ Phaser. The input must be consumed
// exactly. A fixed buffer that fills up fails with impl.ErrFull. On error
// m holds what was read before it. (In format v3 the elements of an array
// of messages are made at once before any is read: a buffer without room
// for all of them fails before the first.)
func Unmarshal(data []byte, m runtime.Msg) error {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return fmt.Errorf("ros: unmarshal: no message")
	}
	return unmarshalMsg(data, d.Msg(), d.Type())
}

// unmarshalMsg is Unmarshal for the engine's handle m of type t.
func unmarshalMsg(data []byte, m impl.Msg, t *impl.Type) error {
	p, err := planOf(t)
	if err != nil {
		return err
	}
	if !m.IsPresent() {
		return fmt.Errorf("ros: unmarshal %s: no message", t.Name())
	}
	m.Clear(t)
	r := NewReader(data)
	if err := readMessage(r, m, p, 0); err != nil {
		return fmt.Errorf("ros: unmarshal %s: %w", t.Name(), err)
	}
	if r.Len() != 0 {
		return fmt.Errorf("ros: unmarshal %s: %d trailing bytes: %w", t.Name(), r.Len(), ErrInvalid)
	}
	if err := m.Err(); err != nil {
		return fmt.Errorf("ros: unmarshal %s: %w", t.Name(), err)
	}
	return nil
}

func readMessage(r *Reader, m impl.Msg, p *plan, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("messages nested deeper than %d: %w", maxDepth, ErrInvalid)
	}
	// Scalars through a Setter when m has its compiled layout (inlined
	// stores, which cannot fail), else through m.
	s, direct := m.Setter(p.t)
	for _, it := range p.items {
		switch it.op {
		case opCopy32:
			v, err := r.Uint32()
			if err != nil {
				return fieldErr(it.f, err)
			}
			if direct {
				s.Set32(it.f.Field, v)
				continue
			}
			m.Set32(it.f.Field, v)
		case opCopy64:
			v, err := r.Uint64()
			if err != nil {
				return fieldErr(it.f, err)
			}
			if direct {
				s.Set64(it.f.Field, v)
				continue
			}
			m.Set64(it.f.Field, v)
		default:
			if err := readItem(r, m, it, depth); err != nil {
				return err
			}
		}
		if m.Failed() {
			return impl.ErrFull
		}
	}
	return nil
}

func readItem(r *Reader, m impl.Msg, it *item, depth int) error {
	f := it.f
	switch {
	case it.union != nil:
		disc, err := r.Uint32()
		if err != nil {
			return err
		}
		if disc == 0 {
			return nil
		}
		for _, mi := range it.members {
			if mi.f.Number == disc {
				return readMember(r, m, mi, depth)
			}
		}
		return fmt.Errorf("oneof %s: unknown discriminator %d: %w", it.union.Name, disc, ErrInvalid)
	case it.array > 0 || f.Repeated:
		return readRepeated(r, m, it, depth)
	}
	switch it.rt {
	case String:
		s, err := r.String()
		if err != nil {
			return fieldErr(f, err)
		}
		m.SetBytes(f.Field, s)
		return nil
	case Message:
		return readSub(r, func() impl.Msg { return m.MutableMessage(f.Field, f.Type) }, it, depth)
	case Time, Duration:
		return readTime(r, m.MutableMessage(f.Field, f.Type), it.rt)
	}
	v, err := readScalar(r, it)
	if err != nil {
		return fieldErr(f, err)
	}
	switch it.size {
	case 1:
		m.Set8(f.Field, uint8(v))
	case 4:
		m.Set32(f.Field, uint32(v))
	default:
		m.Set64(f.Field, v)
	}
	return nil
}

func fieldErr(f *impl.FieldInfo, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("field %s: %w", f.Desc.FullName(), err)
}

func readMember(r *Reader, m impl.Msg, mi *item, depth int) error {
	f := mi.f
	switch mi.rt {
	case String:
		s, err := r.String()
		if err != nil {
			return fieldErr(f, err)
		}
		m.SetMemberBytes(f.Union, f.Field, s)
		return nil
	case Message:
		return readSub(r, func() impl.Msg { return m.MutableMember(f.Union, f.Field, f.Type) }, mi, depth)
	case Time, Duration:
		return readTime(r, m.MutableMember(f.Union, f.Field, f.Type), mi.rt)
	}
	v, err := readScalar(r, mi)
	if err != nil {
		return fieldErr(f, err)
	}
	switch mi.size {
	case 1:
		m.SetMember8(f.Union, f.Field, uint8(v))
	case 4:
		m.SetMember32(f.Union, f.Field, uint32(v))
	default:
		m.SetMember64(f.Union, f.Field, v)
	}
	return nil
}

// readSub reads a nested message into the message mutable returns. An Any
// must be empty (ROS1 has no form for a populated one).
func readSub(r *Reader, mutable func() impl.Msg, it *item, depth int) error {
	if it.isAny {
		url, err := r.String()
		if err != nil {
			return fieldErr(it.f, err)
		}
		val, err := r.String()
		if err != nil {
			return fieldErr(it.f, err)
		}
		if len(url) > 0 || len(val) > 0 {
			return fmt.Errorf("field %s: a populated google.protobuf.Any has no ROS1 form: %w", it.f.Desc.FullName(), ErrInvalid)
		}
		mutable() // C++ Phaser leaves an empty Any
		return nil
	}
	sub := mutable()
	if !sub.IsPresent() {
		return impl.ErrFull
	}
	return readMessage(r, sub, it.sub, depth+1)
}

func readTime(r *Reader, m impl.Msg, rt Type) error {
	sec, err := r.Uint32()
	if err != nil {
		return err
	}
	nsec, err := r.Uint32()
	if err != nil {
		return err
	}
	seconds, nanos := rosPair(rt, sec, nsec)
	m.Set64(tsSeconds, uint64(seconds))
	m.Set32(tsNanos, uint32(nanos))
	return nil
}

// readScalar reads a value at the width of its ROS type and returns it as
// the bits its field stores (storedBits: integers sign- or zero-extended
// and range checked, floats converted).
func readScalar(r *Reader, it *item) (uint64, error) {
	var v uint64
	var err error
	switch it.rt.Width() {
	case 1:
		var b uint8
		b, err = r.Uint8()
		v = uint64(b)
	case 2:
		var b uint16
		b, err = r.Uint16()
		v = uint64(b)
	case 4:
		var b uint32
		b, err = r.Uint32()
		v = uint64(b)
	default:
		v, err = r.Uint64()
	}
	if err != nil {
		return 0, err
	}
	return storedBits(it, v)
}

func readRepeated(r *Reader, m impl.Msg, it *item, depth int) error {
	f := it.f
	_, min := it.elemSizes()
	n := it.array
	if n == 0 {
		var err error
		if n, err = r.Count(min); err != nil {
			return fieldErr(f, err)
		}
	} else if uint64(n)*uint64(min) > uint64(r.Len()) {
		return fieldErr(f, fmt.Errorf("fixed array of %d needs %d bytes, %d left: %w", n, n*min, r.Len(), ErrInvalid))
	}
	switch it.rt {
	case String:
		for range n {
			s, err := r.String()
			if err != nil {
				return fieldErr(f, err)
			}
			m.PushBytes(f.Field, s)
		}
		return nil
	case Message:
		if batches(m) {
			return readMessages(r, m, it, n, depth)
		}
		for range n {
			if err := readSub(r, func() impl.Msg { return m.AddMessage(f.Field, f.Type) }, it, depth); err != nil {
				return err
			}
		}
		return nil
	case Time, Duration:
		if batches(m) {
			return readMessages(r, m, it, n, depth)
		}
		for range n {
			if err := readTime(r, m.AddMessage(f.Field, f.Type), it.rt); err != nil {
				return fieldErr(f, err)
			}
		}
		return nil
	}
	m.Resize(f.Field, n, it.size)
	if m.Len(f.Field, it.size) != n {
		return impl.ErrFull
	}
	if it.raw {
		b, err := r.take(n * it.size)
		if err != nil {
			return fieldErr(f, err)
		}
		if copy(m.MutableSpan(f.Field, it.size), b) != len(b) {
			err := m.Err()
			if err == nil {
				err = impl.ErrCorrupt
			}
			return fieldErr(f, err)
		}
		return nil
	}
	for i := range n {
		v, err := readScalar(r, it)
		if err != nil {
			return fieldErr(f, err)
		}
		switch it.size {
		case 1:
			m.SetElem8(f.Field, i, uint8(v))
		case 4:
			m.SetElem32(f.Field, i, uint32(v))
		default:
			m.SetElem64(f.Field, i, v)
		}
	}
	return nil
}

// batches reports whether m's repeated message fields are Phaser 3
// MessageVectorBlocks, whose elements readMessages makes in one allocation.
// (In a Phaser 2 payload each element is a block of its own, as C++ adds
// them: elements are added one by one.)
func batches(m impl.Msg) bool {
	p := m.Payload()
	return p != nil && p.Buffer() != nil && p.Buffer().Version() == payloadbuffer.V3
}

// readMessages reads the n elements of the repeated message field of item
// it (messages, times or durations), empty as Unmarshal's Clear left it:
// all n are made at once (MessageList.Allocate), then filled in order. n
// was checked against the input left (each element takes at least its
// minimal encoded size), so a lying count fails before any allocation. On
// error the field keeps the elements up to the one that failed, as when
// each is added before it is read.
func readMessages(r *Reader, m impl.Msg, it *item, n, depth int) error {
	f := it.f
	if n == 0 {
		return nil
	}
	l := impl.NewMessageList(m, f.Field, f.Type)
	l.Allocate(n)
	if l.Len() != n {
		return impl.ErrFull // as readSub has it for an element not made
	}
	for i, e := range l.All() {
		var err error
		switch {
		case it.rt != Message:
			err = fieldErr(f, readTime(r, e, it.rt))
		case !e.IsPresent():
			err = impl.ErrFull // as readSub has it
		default:
			err = readSub(r, func() impl.Msg { return e }, it, depth)
		}
		if err != nil {
			l.Resize(i + 1)
			return err
		}
	}
	return nil
}
