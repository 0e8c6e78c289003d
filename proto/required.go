package proto

import (
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// CheckInitialized returns an error naming the first proto2 required field
// that is not set in m or in a message m holds, or nil if there is none, as
// protobuf-go's proto.CheckInitialized does (and, like it, it does not
// look into the values of Any fields). Marshal and Unmarshal check it
// unless AllowPartial is set. The walk is bounded as the encoders' are.
func CheckInitialized(m runtime.Msg) error {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return nil
	}
	w := impl.Walker(d.Msg())
	return checkInit(d.Msg(), planOf(d.Type()), &w)
}

// checkInit is CheckInitialized for m, of plan p.
func checkInit(m impl.Msg, p *plan, w *impl.Wire) error {
	if !m.IsPresent() || !p.initCheck {
		return nil
	}
	if !w.Enter(m.Charge(p.t)) {
		w.Leave()
		return w.Err(p.t.Name())
	}
	err := checkInitFields(m, p, w)
	w.Leave()
	return err
}

func checkInitFields(m impl.Msg, p *plan, w *impl.Wire) error {
	if err := checkRequired(m, p); err != nil {
		return err
	}
	for _, fp := range p.fields {
		f := fp.f
		if f.Kind != impl.Message || !fp.initCheck {
			continue
		}
		switch {
		case fp.isMap:
			vp := fp.val
			if vp.kind != protoreflect.MessageKind {
				continue
			}
			for _, e := range m.MessagesOf(f) {
				if err := checkInit(e.Message(vp.f.Field, vp.f.Type), vp.subPlan(), w); err != nil {
					return err
				}
			}
		case f.Repeated:
			sub := fp.subPlan()
			for _, e := range m.MessagesOf(f) {
				if err := checkInit(e, sub, w); err != nil {
					return err
				}
			}
		case f.Union != nil:
			if m.HasMember(f.Field) {
				if err := checkInit(m.MemberMessage(f.Field, f.Type), fp.subPlan(), w); err != nil {
					return err
				}
			}
		default:
			if err := checkInit(m.Message(f.Field, f.Type), fp.subPlan(), w); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReachesRequired reports whether a message of type md can hold, in itself
// or in a message it holds (not counting the values of Any fields), a
// proto2 required field.
func ReachesRequired(md protoreflect.MessageDescriptor) bool {
	return reachesRequired(md, map[protoreflect.FullName]bool{})
}

func reachesRequired(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if md == nil || seen[md.FullName()] || md.FullName() == "google.protobuf.Any" {
		return false
	}
	seen[md.FullName()] = true
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.Cardinality() == protoreflect.Required {
			return true
		}
		if fd.Message() != nil && reachesRequired(fd.Message(), seen) {
			return true
		}
	}
	return false
}
