package goldens

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// ClearedScalars returns the singular scalar fields (numbers, bools and
// enums outside oneofs) that the program clears and does not set again:
// clear_x() or the Clear() of their message, and no later set_x(v) or
// ROS-frontend assignment of x. C++ Phaser 2.1 clears such a field by its
// presence bit only, so its serializers that do not look at presence (ROS1)
// still write the stale value.
//
// The analysis goes by field name over every message type reachable from
// root (and from the types the program names, resolved with scope): a
// clear_x() counts for every such type with a scalar field x, and Clear()
// for every scalar of root when called on the root message m, else of every
// type. It can report a field that is not stale; it does not miss one.
func (p *Program) ClearedScalars(root protoreflect.MessageDescriptor, scope *Scope) []protoreflect.FieldDescriptor {
	types := reachable(root)
	for i := range p.Stmts {
		walk(p.Stmts[i].Expr, func(e Expr) {
			c, ok := e.(*Call)
			if !ok || scope == nil {
				return
			}
			names := c.TemplateArgs
			if c.Recv == nil {
				if i := strings.LastIndex(c.Method, "::"); i > 0 {
					names = append(slices.Clip(names), c.Method[:i])
				}
			}
			for _, n := range names {
				if d, err := scope.ResolveType(n); err == nil {
					if md, ok := d.(protoreflect.MessageDescriptor); ok {
						types = append(types, reachable(md)...)
					}
				}
			}
		})
	}
	scalarsNamed := func(name string) []protoreflect.FieldDescriptor {
		var out []protoreflect.FieldDescriptor
		for _, md := range types {
			if fd := md.Fields().ByName(protoreflect.Name(name)); fd != nil && isPlainScalar(fd) {
				out = append(out, fd)
			}
		}
		return out
	}
	scalarsOf := func(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
		var out []protoreflect.FieldDescriptor
		for i := range md.Fields().Len() {
			if fd := md.Fields().Get(i); isPlainScalar(fd) {
				out = append(out, fd)
			}
		}
		return out
	}
	cleared := map[protoreflect.FieldDescriptor]bool{}
	for i := range p.Stmts {
		walk(p.Stmts[i].Expr, func(e Expr) {
			switch e := e.(type) {
			case *Call:
				if e.Recv == nil {
					return
				}
				switch name, ok := strings.CutPrefix(e.Method, "clear_"); {
				case ok && len(e.Args) == 0:
					for _, fd := range scalarsNamed(name) {
						cleared[fd] = true
					}
				case e.Method == "Clear" && len(e.Args) == 0:
					if id, ok := e.Recv.(*Ident); ok && id.Name == "m" {
						for _, fd := range scalarsOf(root) {
							cleared[fd] = true
						}
						return
					}
					for _, md := range types {
						for _, fd := range scalarsOf(md) {
							cleared[fd] = true
						}
					}
				}
				if name, ok := strings.CutPrefix(e.Method, "set_"); ok && len(e.Args) == 1 {
					for _, fd := range scalarsNamed(name) {
						delete(cleared, fd)
					}
				}
			case *Assign:
				if m, ok := e.LHS.(*Member); ok {
					for _, fd := range scalarsNamed(m.Name) {
						delete(cleared, fd)
					}
				}
			}
		})
	}
	var out []protoreflect.FieldDescriptor
	for fd := range cleared {
		out = append(out, fd)
	}
	slices.SortFunc(out, func(a, b protoreflect.FieldDescriptor) int {
		return strings.Compare(string(a.FullName()), string(b.FullName()))
	})
	return out
}

// isPlainScalar reports whether fd is a singular number, bool or enum field
// outside any oneof (proto3 optional fields are one-member oneofs).
func isPlainScalar(fd protoreflect.FieldDescriptor) bool {
	if fd.Cardinality() == protoreflect.Repeated || fd.ContainingOneof() != nil {
		return false
	}
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return false
	}
	return true
}

// reachable returns md and every message type its fields reach.
func reachable(md protoreflect.MessageDescriptor) []protoreflect.MessageDescriptor {
	if md == nil {
		return nil
	}
	seen := map[protoreflect.FullName]bool{}
	var out []protoreflect.MessageDescriptor
	var visit func(md protoreflect.MessageDescriptor)
	visit = func(md protoreflect.MessageDescriptor) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		out = append(out, md)
		for i := range md.Fields().Len() {
			if m := md.Fields().Get(i).Message(); m != nil {
				visit(m)
			}
		}
	}
	visit(md)
	return out
}
