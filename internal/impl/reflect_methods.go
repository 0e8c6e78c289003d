package impl

import (
	"errors"
	"fmt"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/runtime/protoiface"
)

// WireCodec is the protobuf wire format of package proto, which registers
// it (package proto imports this one). The views' ProtoMethods call it, so
// that proto.Marshal, proto.Unmarshal and proto.Size of a view run straight
// from and into the payload rather than through reflection.
type WireCodec struct {
	// Size returns the length of the encoding of m, of type t.
	Size func(m Msg, t *Type) (int, error)
	// Append appends the encoding of m, of type t, to b.
	Append func(b []byte, m Msg, t *Type) ([]byte, error)
	// Unmarshal replaces the content of m, of type t, with the encoding in
	// b.
	Unmarshal func(b []byte, m Msg, t *Type) error
}

var (
	wire         *WireCodec
	protoMethods *protoiface.Methods // nil until a codec is registered
)

// RegisterWireCodec makes c the protobuf wire format of the views. Package
// proto calls it when it is initialized; until then (a program that does
// not link package proto) protobuf-go encodes views through reflection.
func RegisterWireCodec(c WireCodec) {
	wire = &c
	protoMethods = &protoiface.Methods{
		Flags:            protoiface.SupportMarshalDeterministic | protoiface.SupportUnmarshalDiscardUnknown,
		Size:             sizeMethod,
		Marshal:          marshalMethod,
		Unmarshal:        unmarshalMethod,
		Merge:            mergeMethod,
		CheckInitialized: checkInitializedMethod,
		Equal:            equalMethod,
	}
}

func sizeMethod(in protoiface.SizeInput) protoiface.SizeOutput {
	x := in.Message.(*message)
	n, err := wire.Size(x.m, x.info.t)
	if err != nil {
		return protoiface.SizeOutput{} // Marshal reports the error
	}
	return protoiface.SizeOutput{Size: n}
}

func marshalMethod(in protoiface.MarshalInput) (protoiface.MarshalOutput, error) {
	x := in.Message.(*message)
	b, err := wire.Append(in.Buf, x.m, x.info.t)
	return protoiface.MarshalOutput{Buf: b}, err
}

// unmarshalMethod merges the encoding into the message, as protoiface
// requires: proto.Unmarshal has reset it already, and then the payload's
// own decoder writes straight into it; a message that holds fields
// (UnmarshalOptions.Merge) gets the decoded message merged in.
func unmarshalMethod(in protoiface.UnmarshalInput) (protoiface.UnmarshalOutput, error) {
	var out protoiface.UnmarshalOutput
	x := in.Message.(*message)
	t := x.info.t
	if !x.m.writableNoRecord() {
		return out, fmt.Errorf("phaser: unmarshal %s: %w", t.name, ErrReadOnly)
	}
	if !x.populatedAny() {
		return out, wire.Unmarshal(in.Buf, x.m, t)
	}
	tmp := New(t, reflectOptions(x.m.p))
	if err := wire.Unmarshal(in.Buf, tmp, t); err != nil {
		return out, err
	}
	gproto.Merge(x.Interface(), x.mt.Handle(tmp))
	return out, nil
}

// mergeMethod copies a view into an empty view through the engine, which is
// what proto.Clone does; other merges go through reflection.
func mergeMethod(in protoiface.MergeInput) protoiface.MergeOutput {
	dst, ok := in.Destination.(*message)
	src, ok2 := in.Source.(*message)
	if !ok || !ok2 || !src.m.IsPresent() || !dst.m.writableNoRecord() || dst.populatedAny() ||
		src.mt.t.name != dst.mt.t.name {
		return protoiface.MergeOutput{}
	}
	copyInto(dst.m, dst.mt, src)
	return protoiface.MergeOutput{Flags: protoiface.MergeComplete}
}

// populatedAny reports whether any field of x is populated.
func (x *message) populatedAny() bool {
	found := false
	x.Range(func(protoreflect.FieldDescriptor, protoreflect.Value) bool {
		found = true
		return false
	})
	return found
}

// checkInitializedMethod reports, besides proto2 required fields that are
// not set, what reflection could not know from the values: a payload whose
// fixed buffer filled up (its content is incomplete), a value a write
// through reflection could not store (ErrNotStored), an Any whose type the
// runtime does not know (its value cannot be read).
func checkInitializedMethod(in protoiface.CheckInitializedInput) (protoiface.CheckInitializedOutput, error) {
	x := in.Message.(*message)
	var out protoiface.CheckInitializedOutput
	if x.extra != nil && x.extra.err != nil {
		return out, x.extra.err
	}
	if !x.m.IsPresent() {
		return out, nil
	}
	if x.m.Failed() {
		return out, fmt.Errorf("phaser: %s: %w", x.info.t.name, ErrFull)
	}
	if err := x.m.p.err; err != nil && !errors.Is(err, ErrReadOnly) {
		return out, err
	}
	return out, x.check(0)
}

// check walks the message for CheckInitialized.
func (x *message) check(depth int) error {
	info := x.info
	if !info.walk || !x.m.IsPresent() {
		return nil
	}
	if depth > maxDepth {
		return fmt.Errorf("phaser: %s: messages nested deeper than %d", info.t.name, maxDepth)
	}
	if info.t.isAny {
		if err := x.anyErr(); err != nil {
			return err
		}
		if inner, t, _ := x.anyContent(); t != nil {
			return DynamicType(t).view(inner).check(depth + 1)
		}
		return nil
	}
	for i := range info.fields {
		rf := info.fields[i]
		if rf.required && !x.has(rf) {
			return fmt.Errorf("phaser: required field %v not set", rf.fd.FullName())
		}
		if rf.Kind != Message || !rf.nestedInfo().walk || !x.has(rf) {
			continue
		}
		var err error
		switch {
		case rf.isMap:
			if rf.val.Kind != Message {
				continue
			}
			mv := &mapView{m: x.m, rf: rf, mt: x.mt}
			mv.each(func(e Msg) bool {
				err = mv.valueOf(e).Message().(*message).check(depth + 1)
				return err == nil
			})
		case rf.Repeated:
			l := &listView{m: x.m, rf: rf, mt: x.mt}
			for i := range l.Len() {
				if err = l.elem(i).Message().(*message).check(depth + 1); err != nil {
					break
				}
			}
		default:
			err = x.get(rf).Message().(*message).check(depth + 1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
