package gen

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// initialized emits IsInitialized and XXX_CheckInitialized: the check of
// proto2 required fields, deep, that MarshalProto makes on the way and
// UnmarshalProto makes at the end. A message whose type cannot reach a
// required field has nothing to check.
func (c *codec) initialized() {
	g, recv := c.g, "func (x "+c.name+") "
	g.P("// IsInitialized reports whether every proto2 required field of x, and of")
	g.P("// every message it holds (the values of Any fields excepted, as in")
	g.P("// protobuf-go), is set.")
	if !reachesRequired(c.m.Desc) {
		g.P(recv, "IsInitialized() bool { return true }")
		g.P()
		g.P("// XXX_CheckInitialized checks the required fields of x within the walk w.")
		g.P("// It is for generated code; ", c.name, " has none to check.")
		g.P(recv, "XXX_CheckInitialized(w *", g.door("Wire"), ") error { return nil }")
		g.P()
		return
	}
	g.P(recv, "IsInitialized() bool {")
	g.P("w := ", g.door("Walker"), "(", g.xm(), ")")
	g.P("return x.XXX_CheckInitialized(&w) == nil")
	g.P("}")
	g.P()
	g.P("// XXX_CheckInitialized returns the error of the first required field not")
	g.P("// set in x or in a message it holds, within the walk w. It is for")
	g.P("// generated code.")
	g.P(recv, "XXX_CheckInitialized(w *", g.door("Wire"), ") error {")
	g.P("m := ", g.xm())
	for _, cf := range c.fields {
		if cf.isMap && reachesRequired(cf.f.Message.Desc) {
			// The values of a map: checked through its entries, as
			// package proto checks them.
			g.P("return ", g.door("CheckInitializedGeneral"), "(m, ", c.tv, ", w)")
			g.P("}")
			g.P()
			return
		}
	}
	g.P("if !m.IsPresent() {")
	g.P("return nil")
	g.P("}")
	g.P("msg, _, ok := m.CompiledBytes(", c.extent, ")")
	g.P("if !ok {")
	g.P("return ", g.door("CheckInitializedGeneral"), "(m, ", c.tv, ", w)")
	g.P("}")
	g.P("if !w.Enter(", c.charge, ") {")
	g.P("return w.Err(", quote(c.full), ")")
	g.P("}")
	g.P("p := (*[", c.extent, "]byte)(msg)")
	g.P("_ = p")
	for _, cf := range c.required() {
		g.P("if ", c.missing(cf), " {")
		g.P("return ", g.door("RequiredError"), "(", quote(cf.full), ")")
		g.P("}")
	}
	plain, oneofs := c.ordered()
	for _, cf := range plain {
		if cf.kind != protoreflect.MessageKind || cf.isAny || cf.isMap || !reachesRequired(cf.f.Message.Desc) {
			continue
		}
		typ, texpr := c.handleOf(cf)
		switch {
		case cf.list:
			c.forElements(cf, texpr)
			g.P("if err := ", typ, "(e).XXX_CheckInitialized(w); err != nil {")
			g.P("return err")
			g.P("}")
			g.P("}")
			g.P("}")
		case cf.synthetic:
			g.P("if ", g.leIdent(), ".Uint32(p[", cf.lf.Union.Offset, ":]) == ", cf.fd.Number(), " {")
			g.P("if err := ", typ, "(m.MemberMessage(", cf.lit, ", ", texpr, ")).XXX_CheckInitialized(w); err != nil {")
			g.P("return err")
			g.P("}")
			g.P("}")
		default:
			g.P("if err := ", typ, "(", c.nested(cf, texpr), ").XXX_CheckInitialized(w); err != nil {")
			g.P("return err")
			g.P("}")
		}
	}
	for _, members := range oneofs {
		for _, cf := range members {
			if cf.kind != protoreflect.MessageKind || cf.isAny || !reachesRequired(cf.f.Message.Desc) {
				continue
			}
			typ, texpr := c.handleOf(cf)
			g.P("if ", g.leIdent(), ".Uint32(p[", cf.lf.Union.Offset, ":]) == ", cf.fd.Number(), " {")
			g.P("if err := ", typ, "(m.MemberMessage(", cf.lit, ", ", texpr, ")).XXX_CheckInitialized(w); err != nil {")
			g.P("return err")
			g.P("}")
			g.P("}")
		}
	}
	g.P("w.Leave()")
	g.P("return nil")
	g.P("}")
	g.P()
}
