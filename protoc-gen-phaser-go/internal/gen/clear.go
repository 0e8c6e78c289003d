package gen

import (
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// clear emits Clear. A message that has an Assign (assignPlan) gets the
// runtime's Clear of its keep plan written out at compile-time offsets
// (impl's keeper.go): BeginKeep, one Keeper step for each string, bytes,
// repeated scalar and nested message field, the root's and its nested
// messages', in the plan's order, the bodies zeroed, End. Anything the
// Keeper refuses, and every other message, is the runtime's Clear.
func (g *fileGen) clear(m *protogen.Message, name, tv string) {
	root := g.assignPlan(m)
	if root == nil {
		g.P("// Clear clears every field.")
		g.P("func (x ", name, ") Clear() { "+g.xm()+".Clear(", tv, ") }")
		g.P()
		return
	}
	ext := extentOf(root.lm)
	g.P("// Clear clears every field. On the root of a payload whose Clear keeps the")
	g.P("// blocks of its strings, vectors and nested messages for the setters that")
	g.P("// fill it next (format 3), it sets them aside at compile-time offsets.")
	g.P("func (x ", name, ") Clear() {")
	g.P("if k, b, ok := ", g.xm(), ".BeginKeep(", tv, ", ", ext, "); ok {")
	g.P("p := (*[", ext, "]byte)(b)")
	steps := root.hasBlocks()
	if steps {
		g.P("r := k.Root()")
		g.keepSteps(root, "r")
		g.P("if k.Kept() {")
	}
	g.P("*(*[", ext-4, "]byte)(p[4:]) = [", ext-4, "]byte{} // the presence words and fields")
	var mem bool
	g.keepZeros(root, &mem)
	g.P("k.End()")
	g.P("return")
	if steps {
		g.P("}")
	}
	g.P("}")
	g.P(g.xm(), ".Clear(", tv, ")")
	g.P("}")
	g.P()
}

// keepSteps emits the Keeper's steps of the fields of n, the message at
// base, in field order: each nested message's step before its own fields'
// (keepPlan's order).
func (g *fileGen) keepSteps(n *assignNode, base string) {
	for _, f := range n.m.Fields {
		lf := n.lm.FieldByNumber(f.Desc.Number())
		if c := n.child(f); c != nil {
			if !c.node.hasBlocks() && c.node.inline {
				continue // (zeroed with its holder, and nothing to set aside)
			}
			_, texpr, _ := g.msgRef(c.f.Message)
			v := keepVar(c.node)
			if c.node.inline {
				g.P(v, " := k.Inline(", base, ", ", lf.Offset, ", ", texpr, ", ", extentOf(c.node.lm), ", ", extentOf(n.lm), ") // ", f.Desc.Name())
			} else {
				g.P(v, " := k.Message(", base, ", ", lf.Offset, ", ", texpr, ", ", extentOf(c.node.lm), ") // ", f.Desc.Name())
			}
			g.keepSteps(c.node, v)
			continue
		}
		switch {
		case viewable(f):
		case f.Desc.IsList():
			g.P("k.Vector(", base, ", ", lf.Offset, ", ", int(lf.Kind.Size()), ") // ", f.Desc.Name())
		case f.Desc.Kind() == protoreflect.StringKind || f.Desc.Kind() == protoreflect.BytesKind:
			g.P("k.String(", base, ", ", lf.Offset, ") // ", f.Desc.Name())
		}
	}
}

// keepZeros emits the zeroing of the fields of the nested messages of n
// that are not inline (an inline message's bytes are its holder's), each
// one there in one store of a compile-time size in the payload's memory
// (mem, which the first of them takes: *mem).
func (g *fileGen) keepZeros(n *assignNode, mem *bool) {
	for _, f := range n.m.Fields {
		c := n.child(f)
		if c == nil || c.node.inline && !c.node.hasBlocks() {
			continue
		}
		if !c.node.inline {
			if !*mem {
				g.P("mem := k.Memory()")
				*mem = true
			}
			v, size := keepVar(c.node), extentOf(c.node.lm)-4
			g.P("if ", v, " != 0 {")
			g.P("*(*[", size, "]byte)(mem[", v, "+4:]) = [", size, "]byte{} // ", c.node.path, ": the presence words and fields")
			g.P("}")
		}
		g.keepZeros(c.node, mem)
	}
}

// keepVar is the variable of the offset of nested message n in Clear.
func keepVar(n *assignNode) string { return "m" + n.path }

// hasBlocks reports whether n or a message nested in it has a string,
// bytes, repeated scalar or (not inline) message field: a step of the
// Keeper.
func (n *assignNode) hasBlocks() bool {
	if len(n.strs) > 0 || len(n.vecs) > 0 {
		return true
	}
	for _, c := range n.msgs {
		if !c.node.inline || c.node.hasBlocks() {
			return true
		}
	}
	return false
}
