package gen

import (
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// foreignReach emits, for each message type of another package that a
// singular message field of the file refers to (a Header's
// google.protobuf.Timestamp), one forwarder per accessor of that type: its
// getters, setters, Has, Mutable and View, and its view's getters. The Go compiler
// inlines a function of another package from the export data of the
// packages the caller imports, and a package's export data carries the
// inline bodies of another package's functions only when one of its own
// inline bodies reaches them. A user's package that imports this one but
// not the other (it reads header.Stamp().Nanos() or calls
// header.MutableStamp().SetNanos(n) without naming the Timestamp's
// package) inlines those accessors through these forwarders,
// which nothing calls. TestAccessorsInline checks that they inline.
func (g *fileGen) foreignReach() {
	seen := map[string]bool{}
	for _, m := range allMessages(g.file.Messages) {
		for _, f := range m.Fields {
			msg := f.Message
			if msg == nil || f.Desc.IsList() || f.Desc.IsMap() || msg.Desc.FullName() == anyName ||
				g.phaserPkg(msg.Desc.ParentFile()) == g.pkg {
				continue
			}
			typ, _, _ := g.msgRef(msg)
			if seen[typ] {
				continue
			}
			if len(seen) == 0 {
				g.P("// Forwarders that put the read accessors of the message types of other")
				g.P("// packages that fields refer to in this package's export data, so that")
				g.P("// a caller that does not import those packages inlines them too (the")
				g.P("// compiler inlines only the bodies the export data of an imported")
				g.P("// package carries). Nothing calls them.")
			}
			seen[typ] = true
			g.reachAccessors(msg, typ)
		}
	}
	if len(seen) > 0 {
		g.P()
	}
}

// reachAccessors emits the forwarders of the read accessors of msg, whose
// handle type is typ here.
func (g *fileGen) reachAccessors(msg *protogen.Message, typ string) {
	prefix := "phaserReach_" + strings.ReplaceAll(typ, ".", "_") + "_"
	names := accessorNames(msg)
	hasView := false
	for _, f := range msg.Fields {
		if f.Desc.IsList() || f.Desc.IsMap() || f.Oneof != nil {
			continue
		}
		n := names[f]
		methods := []string{n, "Has" + n}
		var set string // the setter's argument type
		switch f.Desc.Kind() {
		case protoreflect.StringKind:
			methods, set = append(methods, n+"Bytes"), "string"
		case protoreflect.BytesKind:
			methods, set = append(methods, n+"Bytes"), "[]byte"
		case protoreflect.MessageKind, protoreflect.GroupKind:
			methods = append(methods, "Mutable"+n)
		default:
			hasView, set = true, g.scalarOf(f.Desc, f).goType
		}
		for _, meth := range methods {
			g.P("func ", prefix, meth, "(x ", typ, ") { _ = x.", meth, "() }")
		}
		if set != "" {
			g.P("func ", prefix, "Set", n, "(x ", typ, ", v ", set, ") { x.Set", n, "(v) }")
		}
	}
	if !hasView {
		return
	}
	pkg := g.phaserPkg(msg.Desc.ParentFile())
	view := g.QualifiedGoIdent(protogen.GoIdent{GoName: g.declName(msg, declView), GoImportPath: pkg})
	g.P("func ", prefix, "View(x ", typ, ") { _ = x.View() }")
	for _, f := range msg.Fields {
		if viewable(f) {
			g.P("func ", prefix, "View_", names[f], "(v ", view, ") { _ = v.", names[f], "() }")
		}
	}
}
