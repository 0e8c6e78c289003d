package impl

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// bounded walks message m of type t as a full traversal of its views
// would, charging every message, element and string byte it reaches
// against w's budget (the payload's own length, as ToProto and CopyFrom
// do): it fails on a payload whose offsets are shared or cyclic, which
// only hostile bytes have, or that nests messages deeper than maxDepth. It
// allocates nothing.
func (m Msg) bounded(t *Type, w *walk) error {
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxDepth {
		return fmt.Errorf("phaser: %s: messages nested deeper than %d", t.name, maxDepth)
	}
	if err := w.visit(t); err != nil || m.off == 0 {
		return err
	}
	if t.isAny {
		if err := w.charge(len(m.StringBytes(anyTypeURL)), t.name); err != nil {
			return err
		}
		if !m.HasString(anyValue) {
			return nil
		}
		if it := FindType(protoreflect.FullName(m.AnyTypeName())); it != nil {
			return m.AnyValue(it).bounded(it, w)
		}
		return nil
	}
	for _, f := range t.fields {
		var err error
		switch {
		case f.Repeated && f.Kind == Message:
			for _, e := range m.MessagesOf(f) {
				if err = e.bounded(f.Type, w); err != nil {
					break
				}
			}
		case f.Repeated && (f.Kind == String || f.Kind == Bytes):
			for i := range m.LenOf(f) {
				if err = w.charge(4+len(m.ElemString(f.Field, i)), f.Name); err != nil {
					break
				}
			}
		case f.Repeated:
			err = w.charge(m.LenOf(f)*elemSize(f.Kind), f.Name)
		case f.Kind == Message:
			if f.Union == nil && !m.HasMessage(f.Field) || f.Union != nil && !m.HasMember(f.Field) {
				continue
			}
			err = m.MessageField(f).bounded(f.Type, w)
		case f.Kind == String || f.Kind == Bytes:
			err = w.charge(len(m.fieldString(f)), f.Name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
