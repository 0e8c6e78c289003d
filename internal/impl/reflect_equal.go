package impl

import (
	"bytes"
	"math"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/runtime/protoiface"
)

// equalMethod is proto.Equal of two views, compared in the payloads
// without making a Value of any field (protobuf-go's reflection makes one,
// and a view one per string and nested message). Other pairs go through
// protobuf-go's reflection.
func equalMethod(in protoiface.EqualInput) protoiface.EqualOutput {
	x, ok := in.MessageA.(*message)
	y, ok2 := in.MessageB.(*message)
	if !ok || !ok2 {
		return protoiface.EqualOutput{Equal: protoreflect.ValueOfMessage(in.MessageA).Equal(protoreflect.ValueOfMessage(in.MessageB))}
	}
	return protoiface.EqualOutput{Equal: equalMsg(x.m, x.info, y.m, y.info, 0)}
}

// equalMsg reports whether messages a and b, of the messages infos ai and
// bi describe, are equal as proto.Equal defines it.
func equalMsg(a Msg, ai *reflectInfo, b Msg, bi *reflectInfo, depth int) bool {
	if ai.md != bi.md || depth > maxDepth {
		return false
	}
	if ai.t.isAny {
		// The values are compared as their encodings, as protobuf-go does.
		x, y := ai.dynamic.view(a), bi.dynamic.view(b)
		return protoreflect.ValueOfMessage(x).Equal(protoreflect.ValueOfMessage(y))
	}
	for _, fa := range ai.fields {
		fb := bi.byIndex[fa.fd.Index()]
		if fb == nil {
			return false
		}
		pa, pb := populated(a, fa), populated(b, fb)
		if pa != pb {
			return false
		}
		if !pa {
			continue
		}
		var eq bool
		switch {
		case fa.isMap:
			eq = equalMap(a, fa, b, fb, depth)
		case fa.Repeated:
			eq = equalList(a, fa, b, fb, depth)
		case fa.Kind == Message:
			eq = equalMsg(a.MessageField(fa.FieldInfo), fa.nestedInfo(), b.MessageField(fb.FieldInfo), fb.nestedInfo(), depth+1)
		default:
			eq = equalSingular(a, fa, b, fb)
		}
		if !eq {
			return false
		}
	}
	return equalUnknown(a, ai, b, bi)
}

// equalUnknown compares the unknown fields of a and b as proto.Equal
// does: the declared extensions among them by value, the rest as bytes.
func equalUnknown(a Msg, ai *reflectInfo, b Msg, bi *reflectInfo) bool {
	ua, ub := a.UnknownFields(), b.UnknownFields()
	if bytes.Equal(ua, ub) {
		return true
	}
	if ai.t.desc == nil || ai.t.desc.ExtensionRanges().Len() == 0 {
		return false
	}
	xa, va, ra := (&message{m: a, info: ai}).extensions()
	xb, vb, rb := (&message{m: b, info: bi}).extensions()
	if len(xa) != len(xb) || !bytes.Equal(ra, rb) {
		return false
	}
	for i := range xa {
		if xa[i].TypeDescriptor().FullName() != xb[i].TypeDescriptor().FullName() || !va[i].Equal(vb[i]) {
			return false
		}
	}
	return true
}

// equalSingular compares the scalar, enum, string or bytes values of
// singular fields fa of a and fb of b.
func equalSingular(a Msg, fa *rfield, b Msg, fb *rfield) bool {
	if fa.Kind == String || fa.Kind == Bytes {
		return bytes.Equal(a.fieldString(fa.FieldInfo), b.fieldString(fb.FieldInfo))
	}
	return equalBits(fa.Kind, a.scalarBits(fa.FieldInfo), b.scalarBits(fb.FieldInfo))
}

// equalBits compares two stored scalars of kind k: floating-point values
// by value, a NaN equal to a NaN.
func equalBits(k Kind, x, y uint64) bool {
	switch k {
	case Float:
		fx, fy := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		return fx == fy || fx != fx && fy != fy
	case Double:
		fx, fy := math.Float64frombits(x), math.Float64frombits(y)
		return fx == fy || math.IsNaN(fx) && math.IsNaN(fy)
	case Bool:
		return (x&0xFF != 0) == (y&0xFF != 0)
	}
	return x == y
}

func elemBits(m Msg, f *FieldInfo, i int) uint64 {
	switch elemSize(f.Kind) {
	case 1:
		return uint64(m.Elem8(f.Field, i))
	case 4:
		return uint64(m.Elem32(f.Field, i))
	}
	return m.Elem64(f.Field, i)
}

func equalList(a Msg, fa *rfield, b Msg, fb *rfield, depth int) bool {
	n := a.LenOf(fa.FieldInfo)
	if b.LenOf(fb.FieldInfo) != n {
		return false
	}
	switch fa.Kind {
	case Message:
		ai, bi := fa.nestedInfo(), fb.nestedInfo()
		for i := range n {
			if !equalMsg(a.ElemMessage(fa.Field, i, fa.Type), ai, b.ElemMessage(fb.Field, i, fb.Type), bi, depth+1) {
				return false
			}
		}
	case String, Bytes:
		for i := range n {
			if !bytes.Equal(a.ElemString(fa.Field, i), b.ElemString(fb.Field, i)) {
				return false
			}
		}
	default:
		for i := range n {
			if !equalBits(fa.Kind, elemBits(a, fa.FieldInfo, i), elemBits(b, fb.FieldInfo, i)) {
				return false
			}
		}
	}
	return true
}

// equalMap compares map fields fa of a and fb of b: the same keys (each
// key's last entry), with equal values.
func equalMap(a Msg, fa *rfield, b Msg, fb *rfield, depth int) bool {
	ma, mb := &mapView{m: a, rf: fa}, &mapView{m: b, rf: fb}
	if ma.Len() != mb.Len() {
		return false
	}
	ka, kb := fa.key.FieldInfo, fb.key.FieldInfo
	str := ka.Kind == String
	nb := mb.n()
	// b's entries by key, for a large map.
	var byString map[string]int
	var byBits map[uint64]int
	if nb > smallMap {
		if str {
			byString = make(map[string]int, nb)
		} else {
			byBits = make(map[uint64]int, nb)
		}
		for i := range nb {
			e := mb.entry(i)
			if str {
				byString[string(e.fieldString(kb))] = i
			} else {
				byBits[keyBits(e, kb)] = i
			}
		}
	}
	eq := true
	ma.each(func(ea Msg) bool {
		j, found := -1, false
		switch {
		case byString != nil:
			j, found = byString[string(ea.fieldString(ka))]
		case byBits != nil:
			j, found = byBits[keyBits(ea, ka)]
		default:
			for i := nb - 1; i >= 0 && !found; i-- {
				eb := mb.entry(i)
				if str && bytes.Equal(ea.fieldString(ka), eb.fieldString(kb)) || !str && keyBits(ea, ka) == keyBits(eb, kb) {
					j, found = i, true
				}
			}
		}
		if !found {
			eq = false
			return false
		}
		eb := mb.entry(j)
		va, vb := fa.val, fb.val
		if va.Kind == Message {
			eq = equalMsg(ea.MessageField(va.FieldInfo), va.nestedInfo(), eb.MessageField(vb.FieldInfo), vb.nestedInfo(), depth+1)
		} else {
			eq = equalSingular(ea, va, eb, vb)
		}
		return eq
	})
	return eq
}

// keyBits returns the stored bits of scalar key field kf of entry e (a
// bool as 0 or 1).
func keyBits(e Msg, kf *FieldInfo) uint64 {
	v := e.scalarBits(kf)
	if kf.Kind == Bool && v&0xFF != 0 {
		return 1
	}
	return v
}
