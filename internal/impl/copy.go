package impl

import "google.golang.org/protobuf/reflect/protoreflect"

// CopyFrom clears m and copies into it the content of src, a message of the
// same type t that may live in another payload (C++ CloneFrom). Fields are
// copied in declaration order, then the oneofs, then the unknown fields
// src keeps, so the same copy gives the same bytes. It reports false if m's
// buffer filled up.
func (m Msg) CopyFrom(t *Type, src Msg) bool {
	if !m.writable() {
		return false
	}
	m.Clear(t)
	return m.copyFields(t, src, newWalk(src))
}

// The copy is bounded like ToProto: a hostile source whose offsets are
// shared or cyclic stops the copy (CopyFrom reports false) instead of
// growing it exponentially.

func (m Msg) copyFields(t *Type, src Msg, w *walk) bool {
	if src.off == 0 {
		return true
	}
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxDepth || w.visit(t) != nil {
		return false
	}
	if t.isAny {
		return m.copyAny(src, w)
	}
	for _, f := range t.fields {
		if f.Union == nil && !m.copyField(f, src, w) {
			return false
		}
	}
	for _, u := range t.unions {
		for _, f := range u.Members {
			if src.HasMember(f.Field) && !m.copyField(f, src, w) {
				return false
			}
		}
	}
	// The unknown fields (and extensions) src keeps go with it.
	if u := src.UnknownFields(); len(u) > 0 {
		if w.charge(len(u), t.name) != nil || !m.SetUnknownFields(u) {
			return false
		}
	}
	return !m.p.Failed()
}

func (m Msg) copyField(f *FieldInfo, src Msg, w *walk) bool {
	if f.Repeated {
		return m.copyRepeated(f, src, w)
	}
	switch f.Kind {
	case String, Bytes:
		if f.Union != nil {
			s := src.MemberString(f.Field)
			if w.charge(len(s), f.Name) != nil {
				return false
			}
			m.SetMemberBytes(f.Union, f.Field, s)
		} else if src.HasString(f.Field) {
			s := src.StringBytes(f.Field)
			if w.charge(len(s), f.Name) != nil {
				return false
			}
			m.SetBytes(f.Field, s)
		}
	case Message:
		if f.Union != nil {
			return m.MutableMember(f.Union, f.Field, f.Type).copyFields(f.Type, src.MemberMessage(f.Field, f.Type), w)
		} else if src.HasMessage(f.Field) {
			return m.MutableMessage(f.Field, f.Type).copyFields(f.Type, src.Message(f.Field, f.Type), w)
		}
	default:
		if f.Union != nil {
			switch f.Size {
			case 1:
				m.SetMember8(f.Union, f.Field, src.Member8(f.Field))
			case 4:
				m.SetMember32(f.Union, f.Field, src.Member32(f.Field))
			default:
				m.SetMember64(f.Union, f.Field, src.Member64(f.Field))
			}
			return true
		}
		if !src.Has(f.Field) {
			return true
		}
		switch f.Size {
		case 1:
			m.Set8(f.Field, src.Get8(f.Field))
		case 4:
			m.Set32(f.Field, src.Get32(f.Field))
		default:
			m.Set64(f.Field, src.Get64(f.Field))
		}
	}
	return true
}

func (m Msg) copyRepeated(f *FieldInfo, src Msg, w *walk) bool {
	size := elemSize(f.Kind)
	n := src.LenOf(f)
	switch f.Kind {
	case String, Bytes:
		for i := range n {
			s := src.ElemString(f.Field, i)
			if w.charge(4+len(s), f.Name) != nil {
				return false
			}
			m.PushBytes(f.Field, s)
		}
	case Message:
		for i := range n {
			if !m.AddMessage(f.Field, f.Type).copyFields(f.Type, src.ElemMessage(f.Field, i, f.Type), w) {
				return false
			}
		}
	default:
		if w.charge(n*size, f.Name) != nil {
			return false
		}
		for i := range n {
			switch size {
			case 1:
				m.Push8(f.Field, src.Elem8(f.Field, i))
			case 4:
				m.Push32(f.Field, src.Elem32(f.Field, i))
			default:
				m.Push64(f.Field, src.Elem64(f.Field, i))
			}
		}
	}
	return !m.p.Failed()
}

// copyAny copies an Any: the type URL and the embedded message, which must
// be of a registered type.
func (m Msg) copyAny(src Msg, w *walk) bool {
	if !src.HasString(anyValue) {
		if src.HasString(anyTypeURL) {
			m.SetBytes(anyTypeURL, src.StringBytes(anyTypeURL))
		}
		return true
	}
	t := FindType(protoreflect.FullName(src.AnyTypeName()))
	if t == nil {
		return false
	}
	inner := m.MutableAny(t)
	if url := src.StringBytes(anyTypeURL); string(url) != AnyURLPrefix+t.name {
		m.SetBytes(anyTypeURL, url) // MutableAny wrote the default prefix
	}
	return inner.copyFields(t, src.AnyValue(t), w)
}
