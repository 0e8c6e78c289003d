package runtime

import "google.golang.org/protobuf/reflect/protoreflect"

// CopyFrom clears m and copies into it the content of src, a message of the
// same type t that may live in another payload (C++ CloneFrom). Fields are
// copied in declaration order, then the oneofs, so the same copy gives the
// same bytes. It reports false if m's buffer filled up.
func (m Msg) CopyFrom(t *Type, src Msg) bool {
	if !m.writable() {
		return false
	}
	m.Clear(t)
	return m.copyFields(t, src, 0)
}

func (m Msg) copyFields(t *Type, src Msg, depth int) bool {
	if src.off == 0 || depth > maxDepth {
		return src.off == 0
	}
	if t.isAny {
		return m.copyAny(src, depth)
	}
	for _, f := range t.fields {
		if f.Union == nil {
			m.copyField(f, src, depth)
		}
	}
	for _, u := range t.unions {
		for _, f := range u.Members {
			if src.HasMember(f.Field) {
				m.copyField(f, src, depth)
			}
		}
	}
	return !m.p.Failed()
}

func (m Msg) copyField(f *FieldInfo, src Msg, depth int) {
	if f.Repeated {
		m.copyRepeated(f, src, depth)
		return
	}
	switch f.Kind {
	case String, Bytes:
		if f.Union != nil {
			m.SetMemberBytes(f.Union, f.Field, src.MemberString(f.Field))
		} else if src.HasString(f.Field) {
			m.SetBytes(f.Field, src.StringBytes(f.Field))
		}
	case Message:
		if f.Union != nil {
			m.MutableMember(f.Union, f.Field, f.Type).copyFields(f.Type, src.MemberMessage(f.Field, f.Type), depth+1)
		} else if src.HasMessage(f.Field) {
			m.MutableMessage(f.Field, f.Type).copyFields(f.Type, src.Message(f.Field, f.Type), depth+1)
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
			return
		}
		if !src.Has(f.Field) {
			return
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
}

func (m Msg) copyRepeated(f *FieldInfo, src Msg, depth int) {
	size := elemSize(f.Kind)
	n := src.LenOf(f)
	switch f.Kind {
	case String, Bytes:
		for i := range n {
			m.PushBytes(f.Field, src.ElemString(f.Field, i))
		}
	case Message:
		for i := range n {
			m.AddMessage(f.Field, f.Type).copyFields(f.Type, src.ElemMessage(f.Field, i, f.Type), depth+1)
		}
	default:
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
}

// copyAny copies an Any: the type URL and the embedded message, which must
// be of a registered type.
func (m Msg) copyAny(src Msg, depth int) bool {
	if !src.HasString(anyValue) {
		if src.HasString(anyTypeURL) {
			m.SetBytes(anyTypeURL, src.StringBytes(anyTypeURL))
		}
		return true
	}
	t := FindType(protoreflectName(src.AnyTypeName()))
	if t == nil {
		return false
	}
	return m.MutableAny(t).copyFields(t, src.AnyValue(t), depth+1)
}

func protoreflectName(s string) protoreflect.FullName { return protoreflect.FullName(s) }
