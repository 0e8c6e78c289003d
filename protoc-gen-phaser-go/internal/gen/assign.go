package gen

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
)

// maxAssignStrings bounds the string and bytes fields of a message that
// gets an Assign (each pair of their blocks is compared).
const maxAssignStrings = 8

// assignable reports whether message m gets Assign: every field a singular
// scalar (viewable) or a singular string or bytes field outside any oneof,
// with at least one of those and at most maxAssignStrings, in a message
// that is not a map entry, not Any and declares no extension range.
func assignable(m *protogen.Message) bool {
	if m.Desc.IsMapEntry() || m.Desc.ExtensionRanges().Len() > 0 || m.Desc.FullName() == anyName {
		return false
	}
	n := 0
	for _, f := range m.Fields {
		switch {
		case viewable(f):
		case (f.Desc.Kind() == protoreflect.StringKind || f.Desc.Kind() == protoreflect.BytesKind) &&
			!f.Desc.IsList() && f.Oneof == nil:
			n++
		default:
			return false
		}
	}
	return n > 0 && n <= maxAssignStrings
}

// assign emits Assign and its values type XFields for a message that
// assignable accepts: Clear and every field's setter in one call, which on
// a root whose Clear keeps its blocks and whose new strings fit them is
// one straight line at compile-time offsets (impl's assign.go).
func (g *fileGen) assign(m *protogen.Message, lm *layout.Message, name, tv string) {
	if !assignable(m) {
		return
	}
	vt, ext := g.companionName(m, "Fields"), extentOf(lm)
	g.P("// ", vt, " holds the value of every field of a ", name, ", for Assign.")
	g.P("type ", vt, " struct {")
	var scalars, strs []*protogen.Field
	for _, f := range m.Fields {
		goType := "string"
		switch {
		case viewable(f):
			scalars = append(scalars, f)
			goType = g.scalarOf(f.Desc, f).goType
		case f.Desc.Kind() == protoreflect.BytesKind:
			strs = append(strs, f)
			goType = "[]byte"
		default:
			strs = append(strs, f)
		}
		g.P(g.names[f], " ", goType, " // field ", f.Desc.Name(), " (", f.Desc.Number(), ")")
	}
	g.P("}")
	g.P()
	g.P("// Assign clears x and sets every field to its value in v: what Clear and")
	g.P("// then each field's setter do, to the same payload bytes (each scalar is")
	g.P("// then present). On the root of a payload whose Clear keeps the strings'")
	g.P("// blocks, when each new string fits the block its field holds, it is one")
	g.P("// call that checks the message and the blocks once and stores at")
	g.P("// compile-time offsets.")
	g.P("func (x ", name, ") Assign(v *", vt, ") {")
	g.P("if a, b, ok := ", g.xm(), ".BeginAssign(", tv, ", ", ext, "); ok {")
	g.P("p := (*[", ext, "]byte)(b)")
	var oks, blocks []string
	for _, f := range strs {
		lf := lm.FieldByNumber(f.Desc.Number())
		blk, ok := "s"+fmt.Sprint(lf.Offset), "ok"+fmt.Sprint(lf.Offset)
		slot := "p[" + fmt.Sprint(lf.Offset) + ":" + fmt.Sprint(lf.Offset+4) + "]"
		if f.Desc.Kind() == protoreflect.BytesKind {
			g.P(blk, ", ", ok, " := a.KeptBytes(", slot, ", v.", g.names[f], ")")
		} else {
			g.P(blk, ", ", ok, " := a.Kept(", slot, ", len(v.", g.names[f], "))")
		}
		oks, blocks = append(oks, ok), append(blocks, blk)
	}
	cond := strings.Join(oks, " && ")
	for i := range blocks { // no two blocks overlap (Assigner.Kept)
		for j := i + 1; j < len(blocks); j++ {
			x, y := blocks[i], blocks[j]
			cond += " && (uint64(" + x + ".Off)+uint64(" + x + ".Size) <= uint64(" + y + ".Off)-8 || uint64(" + y + ".Off)+uint64(" + y + ".Size) <= uint64(" + x + ".Off)-8)"
		}
	}
	g.P("if ", cond, " {")
	le := g.leIdent()
	for i, f := range strs {
		if f.Desc.Kind() == protoreflect.BytesKind {
			g.P("a.PutBytes(", blocks[i], ", v.", g.names[f], ")")
		} else {
			g.P("a.Put(", blocks[i], ", v.", g.names[f], ")")
		}
	}
	g.P("*(*[", ext-4, "]byte)(p[4:]) = [", ext-4, "]byte{} // Clear: the presence words and fields")
	for i, f := range strs {
		lf := lm.FieldByNumber(f.Desc.Number())
		g.P(le, ".PutUint32(p[", lf.Offset, ":], ", blocks[i], ".Off)")
	}
	g.storeScalars(scalars, lm)
	g.P("return")
	g.P("}")
	g.P("}")
	g.P("x.assignSetters(v)")
	g.P("}")
	g.P()
	// Out of Assign, so that Assign stays small: its calls of the
	// Assigner's methods inline, and its frame is the straight line's.
	g.P("// assignSetters is Assign's general path: Clear, then every field's setter.")
	g.P("func (x ", name, ") assignSetters(v *", vt, ") {")
	g.P("x.Clear()")
	for _, f := range m.Fields {
		g.P("x.Set", g.names[f], "(v.", g.names[f], ")")
	}
	g.P("}")
	g.P()
}
