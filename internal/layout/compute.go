package layout

import (
	"fmt"
	"math"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

const anyFullName = "google.protobuf.Any"

// kindOf maps a field's proto kind to its storage kind.
func kindOf(fd protoreflect.FieldDescriptor) (Kind, error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return BoolKind, nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return Int32Kind, nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return Uint32Kind, nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return Int64Kind, nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return Uint64Kind, nil
	case protoreflect.FloatKind:
		return FloatKind, nil
	case protoreflect.DoubleKind:
		return DoubleKind, nil
	case protoreflect.EnumKind:
		return EnumKind, nil
	case protoreflect.StringKind:
		return StringKind, nil
	case protoreflect.BytesKind:
		return BytesKind, nil
	case protoreflect.MessageKind:
		if md := fd.Message(); md == nil || md.IsPlaceholder() {
			return 0, fmt.Errorf("layout: field %s: unresolved message type", fd.FullName())
		}
		return MessageKind, nil
	case protoreflect.GroupKind:
		return 0, &unsupportedError{fmt.Sprintf("field %s: groups are not supported", fd.FullName())}
	}
	return 0, fmt.Errorf("layout: field %s: unknown kind %v", fd.FullName(), fd.Kind())
}

func roundUp(x, n uint64) uint64 { return (x + n - 1) &^ (n - 1) }

// maxID is the largest id a table entry may carry under opts.
func (o Options) maxID() uint64 {
	if o.Version >= 3 {
		return uint64(InlineID) - 1
	}
	return math.MaxUint8
}

// inlines reports whether holder md inlines its singular non-oneof message
// fields (spec 8.9).
func (o Options) inlines(md protoreflect.MessageDescriptor) bool {
	return o.Version >= 3 && o.ROSFrontend && FollowsFrontend(md)
}

// FollowsFrontend reports whether the generator's frontend option applies to
// message type md: it does not to the types of packages starting with
// "google.protobuf", which always use the protobuf frontend.
func FollowsFrontend(md protoreflect.MessageDescriptor) bool {
	pkg := string(md.FullName())
	if f := md.ParentFile(); f != nil {
		pkg = string(f.Package())
	}
	return !strings.HasPrefix(pkg, "google.protobuf")
}

// reaches reports whether a chain of singular, non-oneof message fields
// leads from message from to message to (from == to included).
func reaches(from, to protoreflect.MessageDescriptor) bool {
	seen := map[protoreflect.FullName]bool{}
	stack := []protoreflect.MessageDescriptor{from}
	for len(stack) > 0 {
		md := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if md.FullName() == to.FullName() {
			return true
		}
		if seen[md.FullName()] {
			continue
		}
		seen[md.FullName()] = true
		fds := md.Fields()
		for i := range fds.Len() {
			fd := fds.Get(i)
			if fd.Kind() == protoreflect.MessageKind && fd.Cardinality() != protoreflect.Repeated &&
				fd.ContainingOneof() == nil && fd.Message() != nil {
				stack = append(stack, fd.Message())
			}
		}
	}
	return false
}

// anyLayout returns the hand-written AnyMessage layout: metadata word,
// type_url at 4, value at 8, 12 bytes, legacy table {2, {1,4,0}, {2,8,0}}.
func anyLayout(md protoreflect.MessageDescriptor) (*Message, error) {
	m := &Message{
		Desc:       md,
		FullName:   string(md.FullName()),
		IsAny:      true,
		HeaderSize: 4,
		FixedSize:  12,
		BinarySize: 12,
	}
	fds := md.Fields()
	want := []struct {
		num  protoreflect.FieldNumber
		kind protoreflect.Kind
		off  uint32
	}{{1, protoreflect.StringKind, 4}, {2, protoreflect.BytesKind, 8}}
	if fds.Len() != len(want) {
		return nil, fmt.Errorf("layout: %s: expected fields type_url = 1 and value = 2", md.FullName())
	}
	var entries []entry
	for _, w := range want {
		fd := fds.ByNumber(w.num)
		if fd == nil || fd.Kind() != w.kind || fd.Cardinality() == protoreflect.Repeated || fd.ContainingOneof() != nil {
			return nil, fmt.Errorf("layout: %s: expected fields type_url = 1 and value = 2", md.FullName())
		}
		k, _ := kindOf(fd)
		m.Fields = append(m.Fields, &Field{
			Desc:     fd,
			Number:   fd.Number(),
			Name:     string(fd.Name()),
			Kind:     k,
			Offset:   w.off,
			SlotSize: 4,
		})
		entries = append(entries, entry{uint32(w.num), pack(w.off, 0)})
	}
	m.Table = legacyTable(entries)
	m.index()
	return m, nil
}

// index builds the lookup maps.
func (m *Message) index() {
	m.byNumber = make(map[protoreflect.FieldNumber]*Field, len(m.Fields))
	m.byName = make(map[string]*Field, len(m.Fields))
	for _, f := range m.Fields {
		m.byNumber[f.Number] = f
		m.byName[f.Name] = f
	}
}

// compute lays out md under opts (spec 3.2, 4.1, 8.9, 8.11). Field.Message
// is left nil. inlineSize returns the BinarySize of a message type stored
// inline.
func compute(md protoreflect.MessageDescriptor, opts Options, inlineSize func(protoreflect.MessageDescriptor) (uint32, error)) (*Message, error) {
	if md.FullName() == anyFullName {
		return anyLayout(md)
	}
	name := md.FullName()
	m := &Message{Desc: md, FullName: string(name)}
	inlines := opts.inlines(md)
	maxID := opts.maxID()
	tooMany := func(fd protoreflect.FieldDescriptor, id uint64) error {
		return &unsupportedError{fmt.Sprintf("field %s: too many presence ids: id %d exceeds %d", fd.FullName(), id, maxID)}
	}

	// Step A: non-oneof fields in declaration order.
	fds := md.Fields()
	var (
		off     uint64 // relative to the fixed portion
		id      uint64 // next presence id
		topID   int64  = -1
		slots   bool   // some non-oneof field has a slot
		inlined []*Field
		rel     = make([]uint64, fds.Len())
	)
	for i := range fds.Len() {
		fd := fds.Get(i)
		k, err := kindOf(fd)
		if err != nil {
			return nil, err
		}
		f := &Field{
			Desc:     fd,
			Number:   fd.Number(),
			Name:     string(fd.Name()),
			Kind:     k,
			Repeated: fd.Cardinality() == protoreflect.Repeated,
			SlotSize: k.Size(),
		}
		m.Fields = append(m.Fields, f)
		if fd.ContainingOneof() != nil {
			if f.Repeated {
				return nil, fmt.Errorf("layout: field %s: repeated field in a oneof", fd.FullName())
			}
			continue
		}
		if inlines && k == MessageKind && !f.Repeated && !reaches(fd.Message(), md) {
			f.Inline = true
			f.ID = InlineID
			inlined = append(inlined, f)
			continue
		}
		var fid uint64
		switch {
		case f.Repeated:
			f.SlotSize = 8
			fid = id
		case k == StringKind || k == BytesKind || k == MessageKind:
			fid = 0
		default:
			fid = id
			id++
		}
		if fid > maxID {
			return nil, tooMany(fd, fid)
		}
		f.ID = uint8(fid)
		topID = max(topID, int64(fid))
		sz := uint64(f.SlotSize)
		off = roundUp(off, sz)
		rel[i] = off
		off += sz
		slots = true
	}

	// Step B: presence mask and header.
	if topID >= 0 {
		m.MaskSize = uint32(topID>>5+1) * 4
	}
	m.HeaderSize = 4 + m.MaskSize
	h := uint64(m.HeaderSize)
	pos := h
	for i, f := range m.Fields {
		if f.Desc.ContainingOneof() == nil && !f.Inline {
			o := h + rel[i]
			if o > MaxOffset {
				return nil, &unsupportedError{fmt.Sprintf("field %s: offset %d does not fit in 24 bits", f.Desc.FullName(), o)}
			}
			f.Offset = uint32(o)
		}
	}
	if slots {
		pos = roundUp(h+off, 4)
	}

	// Step C: unions in oneof declaration order, not aligned to each other.
	ods := md.Oneofs()
	for i := range ods.Len() {
		od := ods.Get(i)
		if pos > MaxOffset {
			return nil, &unsupportedError{fmt.Sprintf("oneof %s: offset %d does not fit in 24 bits", od.FullName(), pos)}
		}
		u := &Union{Desc: od, Offset: uint32(pos), Size: 4}
		members := od.Fields()
		if n := uint64(members.Len()); n > maxID+1 {
			return nil, tooMany(members.Get(int(maxID+1)), maxID+1)
		}
		for j := range members.Len() {
			f := m.Fields[members.Get(j).Index()]
			f.Union = u
			f.Offset = u.Offset
			f.ID = uint8(j)
			u.Members = append(u.Members, f)
			u.Size = max(u.Size, 4+f.SlotSize)
		}
		m.Unions = append(m.Unions, u)
		pos += uint64(u.Size)
	}

	// Version 3 ROS frontend: inline messages after the unions.
	for _, f := range inlined {
		pos = roundUp(pos, 8)
		if pos > MaxOffset {
			return nil, &unsupportedError{fmt.Sprintf("field %s: offset %d does not fit in 24 bits", f.Desc.FullName(), pos)}
		}
		sz, err := inlineSize(f.Desc.Message())
		if err != nil {
			return nil, err
		}
		f.Offset = uint32(pos)
		f.SlotSize = sz
		pos += uint64(sz)
	}

	// Step D: sizes.
	bin := pos
	if opts.Version < 3 {
		bin += h
	}
	if bin > math.MaxUint32 {
		return nil, &unsupportedError{fmt.Sprintf("%s: message size %d does not fit in 32 bits", name, bin)}
	}
	m.FixedSize = uint32(pos)
	m.BinarySize = uint32(bin)

	entries := make([]entry, len(m.Fields))
	for i, f := range m.Fields {
		entries[i] = entry{uint32(f.Number), pack(f.Offset, f.ID)}
	}
	m.Table = hybridTable(entries)
	m.index()
	return m, nil
}
