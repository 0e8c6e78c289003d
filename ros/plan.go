package ros

import (
	"fmt"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/layout"
	phaserproto "github.com/phaser-go/phaser/proto"
)

// Type is the ROS1 type of a field's values.
type Type uint8

// ROS1 types.
const (
	Bool Type = iota + 1
	Int8
	Uint8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float32
	Float64
	String
	Time
	Duration
	Message
)

var typeNames = map[string]Type{
	"bool": Bool, "int8": Int8, "byte": Int8, "uint8": Uint8, "char": Uint8,
	"int16": Int16, "uint16": Uint16, "int32": Int32, "uint32": Uint32,
	"int64": Int64, "uint64": Uint64, "float32": Float32, "float64": Float64,
	"string": String, "time": Time, "duration": Duration,
}

var typeText = [...]string{
	Bool: "bool", Int8: "int8", Uint8: "uint8", Int16: "int16", Uint16: "uint16",
	Int32: "int32", Uint32: "uint32", Int64: "int64", Uint64: "uint64",
	Float32: "float32", Float64: "float64", String: "string", Time: "time",
	Duration: "duration",
}

// Width returns the wire size of a ROS1 primitive (0 for strings and
// messages).
func (t Type) Width() int {
	switch t {
	case Bool, Int8, Uint8:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Uint32, Float32:
		return 4
	case Int64, Uint64, Float64, Time, Duration:
		return 8
	}
	return 0
}

func (t Type) float() bool { return t == Float32 || t == Float64 }

// Phaser option extension numbers (phaser/options.proto).
const (
	optArraySize = 50001 // FieldOptions: uint32
	optRosField  = 50002 // FieldOptions: RosField{type=1, name=2, nested_md5_text=3, nested_data_type=4}
	optRosMsg    = 50001 // MessageOptions: RosMessage{data_type=1, constants=2}
	optRosEnum   = 50001 // EnumOptions: RosEnum{type=1}
	optRosEnumV  = 50001 // EnumValueOptions: RosEnumValue{ignore=1, name=2, value=3}
)

// options returns the raw encoding of a descriptor's options, extensions
// included, whichever way they were resolved.
func options(d protoreflect.Descriptor) []byte {
	opts := d.Options()
	if opts == nil {
		return nil
	}
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(opts)
	return b
}

// ArraySize returns the phaser.array_size option of field fd (a ROS fixed
// array T[N]) and whether it is set, however the option was resolved (a
// parsed extension or unknown option bytes).
func ArraySize(fd protoreflect.FieldDescriptor) (uint32, bool) { return layout.ArraySize(fd) }

// optionField returns the last occurrence of field num in raw option bytes.
func optionField(b []byte, num protowire.Number) (protowire.Type, []byte, uint64, bool) {
	var typ protowire.Type
	var val []byte
	var v uint64
	found := false
	for len(b) > 0 {
		n, t, l := protowire.ConsumeTag(b)
		if l < 0 {
			break
		}
		b = b[l:]
		l = protowire.ConsumeFieldValue(n, t, b)
		if l < 0 {
			break
		}
		if n == num {
			found, typ = true, t
			switch t {
			case protowire.VarintType:
				v, _ = protowire.ConsumeVarint(b)
			case protowire.BytesType:
				val, _ = protowire.ConsumeBytes(b)
			}
		}
		b = b[l:]
	}
	return typ, val, v, found
}

// optionString returns string field num of a submessage option.
func optionString(msg []byte, num protowire.Number) string {
	_, v, _, _ := optionField(msg, num)
	return string(v)
}

// plan is how one message type is written to and read from ROS1.
type plan struct {
	t     *impl.Type
	items []*item // ROS order
	fixed int     // ROS size when it does not depend on content, else -1
	min   int     // smallest ROS size

	orderOnce sync.Once
	order     []orderedField // fields in protobuf order (ROSToProto)

	byNum     []itemRef                    // by field number, below denseMax (ProtoToROS)
	byNumHigh map[protowire.Number]itemRef // the field numbers from denseMax up
}

// itemRef says which item a protobuf field number is written by.
type itemRef struct {
	pos    int // 1 + the item's index in plan.items; 0 for no item
	member int // for a oneof, the member's index in item.members
}

// denseMax bounds the field numbers whose items are found by index rather
// than in a map.
const denseMax = 256

// itemOf returns the index of the item that field num belongs to (-1 for
// none) and, for a oneof, the member's index.
func (p *plan) itemOf(num protowire.Number) (int, int) {
	var r itemRef
	if num >= 0 && int(num) < len(p.byNum) {
		r = p.byNum[num]
	} else if num >= denseMax {
		r = p.byNumHigh[num]
	}
	return r.pos - 1, r.member
}

// index fills byNum and byNumHigh.
func (p *plan) index() {
	add := func(i int, f *impl.FieldInfo, member int) {
		num, r := protowire.Number(f.Number), itemRef{pos: i + 1, member: member}
		if num >= denseMax {
			if p.byNumHigh == nil {
				p.byNumHigh = map[protowire.Number]itemRef{}
			}
			p.byNumHigh[num] = r
			return
		}
		if int(num) >= len(p.byNum) {
			p.byNum = append(p.byNum, make([]itemRef, int(num)+1-len(p.byNum))...)
		}
		p.byNum[num] = r
	}
	for i, it := range p.items {
		if it.union == nil {
			add(i, it.f, 0)
			continue
		}
		for j, mi := range it.members {
			add(i, mi.f, j)
		}
	}
}

// item is a field, or a whole oneof, in ROS order.
type item struct {
	f       *impl.FieldInfo // the field (the first member for a oneof)
	union   *impl.Union
	members []*item // oneof members
	rt      Type    // ROS type of the values
	size    int     // stored element size: 1, 4 or 8 (4 for strings and messages)
	array   int     // phaser.array_size, 0 if none
	name    string  // ROS field name
	isAny   bool
	kind    protoreflect.Kind // the field's protobuf kind
	wire    protowire.Type    // the wire type of its protobuf values
	raw     bool              // repeated scalar whose stored elements are its ROS bytes
	op      itemOp            // how writeMessage and readMessage handle the item
	sub     *plan
}

// itemOp selects writeMessage's code for an item, and readMessage's for
// the scalar ones: the common singular fields get their own, every other
// item (repeated fields, oneofs, conversions, time, Any) opItem, the
// general code.
type itemOp uint8

const (
	opItem    itemOp = iota
	opCopy32         // scalar stored as its 4 ROS bytes
	opCopy64         // scalar stored as its 8 ROS bytes
	opString         // string, or bytes as uint8[]
	opMessage        // nested message (not Any)
)

// opOf returns the itemOp of an item that is not a oneof.
func opOf(it *item) itemOp {
	switch {
	case it.f.Repeated || it.f.Union != nil:
		return opItem
	case it.rt == String:
		return opString
	case it.rt == Message && !it.isAny:
		return opMessage
	case !identity(it.f.Kind, it.rt):
		return opItem // converted and range checked, or a bool (normalized to 0 or 1)
	case it.size == 4:
		return opCopy32
	case it.size == 8:
		return opCopy64
	}
	return opItem
}

// planOf returns the ROS plan of t, built on first use and kept in t's
// impl.ROSPlan slot.
func planOf(t *impl.Type) (*plan, error) {
	if p, ok := t.Plan(impl.ROSPlan).(*plan); ok {
		return p, nil
	}
	p, err := buildPlan(t, map[*impl.Type]bool{})
	if err != nil {
		return nil, err
	}
	return t.StorePlan(impl.ROSPlan, p).(*plan), nil
}

func buildPlan(t *impl.Type, visiting map[*impl.Type]bool) (*plan, error) {
	if p, ok := t.Plan(impl.ROSPlan).(*plan); ok {
		return p, nil
	}
	if visiting[t] {
		return nil, fmt.Errorf("ros: %s contains itself: ROS1 has no recursive messages", t.Name())
	}
	visiting[t] = true
	defer delete(visiting, t)
	p := &plan{t: t}
	seen := map[*impl.Union]bool{}
	for _, f := range t.Fields() {
		if f.Union != nil {
			if seen[f.Union] {
				continue
			}
			seen[f.Union] = true
			u := &item{f: f, union: f.Union, rt: Uint32, size: 4, name: f.Union.Name}
			for _, mf := range f.Union.Members {
				mi, err := newItem(mf, visiting)
				if err != nil {
					return nil, err
				}
				u.members = append(u.members, mi)
			}
			p.items = append(p.items, u)
			continue
		}
		it, err := newItem(f, visiting)
		if err != nil {
			return nil, err
		}
		it.op = opOf(it)
		p.items = append(p.items, it)
	}
	p.fixed, p.min = p.sizes()
	p.index()
	if !t.IsAny() {
		p = t.StorePlan(impl.ROSPlan, p).(*plan)
	}
	return p, nil
}

func newItem(f *impl.FieldInfo, visiting map[*impl.Type]bool) (*item, error) {
	it := &item{f: f, name: string(f.Desc.Name()), size: 4, kind: f.Desc.Kind()}
	it.wire = phaserproto.WireType(it.kind)
	rt, array, name, err := fieldType(f.Desc)
	if err != nil {
		return nil, err
	}
	it.rt, it.array = rt, array
	if name != "" {
		it.name = name
	}
	switch rt {
	case Message:
		it.isAny = f.Type.IsAny()
		if !it.isAny {
			sub, err := buildPlan(f.Type, visiting)
			if err != nil {
				return nil, err
			}
			it.sub = sub
		}
		return it, nil
	case Time, Duration, String:
		return it, nil
	}
	it.size = storedSize(f.Kind)
	// Stored little-endian as their ROS bits (bools excepted: a stored
	// byte other than 0 or 1 is written as 1).
	it.raw = f.Repeated && identity(f.Kind, it.rt)
	return it, nil
}

// FieldType returns the ROS1 type of the values of field fd (of each
// element for a repeated field): its phaser.ros_field type, else the one
// inferred from its protobuf type (see the package doc); Message for a
// nested message (Any included), Time and Duration for
// google.protobuf.Timestamp and Duration, String for strings and bytes.
// It fails where the options do not fit the field, as serializing does.
func FieldType(fd protoreflect.FieldDescriptor) (Type, error) {
	rt, _, _, err := fieldType(fd)
	return rt, err
}

// fieldType returns the ROS type of field fd's values, its fixed array
// size (0 if none) and its ROS name when ros_field gives one.
func fieldType(fd protoreflect.FieldDescriptor) (rt Type, array int, name string, err error) {
	repeated := fd.IsList() || fd.IsMap()
	raw := options(fd)
	if n, ok := ArraySize(fd); ok {
		if !repeated || fd.IsMap() || n == 0 {
			return 0, 0, "", fmt.Errorf("ros: %s: phaser.array_size needs a non-map repeated field and N > 0", fd.FullName())
		}
		array = int(n)
	}
	var rosType string
	if _, rf, _, ok := optionField(raw, optRosField); ok {
		rosType = optionString(rf, 1)
		if base, suffix, ok := strings.Cut(rosType, "["); ok {
			// An array suffix must say what the field is: [] for a
			// repeated field, [N] for a fixed array of N.
			want := "]"
			if array > 0 {
				want = fmt.Sprint(array) + "]"
			}
			if !repeated || suffix != want {
				return 0, 0, "", fmt.Errorf("ros: %s: ROS type %q does not match the field", fd.FullName(), rosType)
			}
			rosType = base
		}
		name = optionString(rf, 2)
	}
	switch k := fd.Kind(); k {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		switch fd.Message().FullName() {
		case "google.protobuf.Timestamp":
			return Time, array, name, nil
		case "google.protobuf.Duration":
			return Duration, array, name, nil
		}
		return Message, array, name, nil
	case protoreflect.StringKind, protoreflect.BytesKind:
		// string, and for bytes (a ROS uint8[]) its element type, are the
		// only ROS types of a string block.
		switch rosType {
		case "", "string":
		case "uint8", "char", "byte", "int8":
			if k != protoreflect.BytesKind || repeated {
				return 0, 0, "", fmt.Errorf("ros: %s: ROS type %q for a %v field", fd.FullName(), rosType, k)
			}
		default:
			return 0, 0, "", fmt.Errorf("ros: %s: ROS type %q for a %v field", fd.FullName(), rosType, k)
		}
		return String, array, name, nil
	}
	rt = inferred(fd)
	if rosType == "" && fd.Kind() == protoreflect.EnumKind {
		if _, re, _, ok := optionField(options(fd.Enum()), optRosEnum); ok {
			rosType = optionString(re, 1)
		}
	}
	if rosType != "" {
		t, ok := typeNames[rosType]
		if !ok || t == String || t == Time || t == Duration {
			return 0, 0, "", fmt.Errorf("ros: %s: ROS type %q for a field of type %v", fd.FullName(), rosType, fd.Kind())
		}
		isFloat := fd.Kind() == protoreflect.FloatKind || fd.Kind() == protoreflect.DoubleKind
		if t.float() != isFloat {
			return 0, 0, "", fmt.Errorf("ros: %s: ROS type %q for a %v field", fd.FullName(), rosType, fd.Kind())
		}
		rt = t
	}
	return rt, array, name, nil
}

func storedSize(k impl.Kind) int {
	switch k {
	case impl.Bool:
		return 1
	case impl.Int64, impl.Uint64, impl.Double:
		return 8
	}
	return 4
}

// inferred returns the ROS type of a scalar field without a ros_field
// option.
func inferred(fd protoreflect.FieldDescriptor) Type {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return Bool
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind:
		return Int32
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return Uint32
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return Int64
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return Uint64
	case protoreflect.FloatKind:
		return Float32
	case protoreflect.DoubleKind:
		return Float64
	}
	return String
}

// sizes returns the fixed ROS size of a plan (-1 if content-dependent) and
// its smallest size.
func (p *plan) sizes() (fixed, min int) {
	for _, it := range p.items {
		f, m := it.sizes()
		min += m
		if f < 0 || fixed < 0 {
			fixed = -1
		} else {
			fixed += f
		}
	}
	return fixed, min
}

func (it *item) elemSizes() (fixed, min int) {
	switch it.rt {
	case String:
		return -1, 4
	case Message:
		if it.isAny {
			return 8, 8
		}
		return it.sub.fixed, it.sub.min
	}
	w := it.rt.Width()
	return w, w
}

func (it *item) sizes() (fixed, min int) {
	if it.union != nil {
		return -1, 4
	}
	f, m := it.elemSizes()
	switch {
	case it.array > 0:
		if f >= 0 {
			f *= it.array
		}
		return f, m * it.array
	case it.f.Repeated:
		return -1, 4
	}
	return f, m
}
