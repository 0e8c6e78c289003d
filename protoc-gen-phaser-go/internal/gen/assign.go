package gen

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/ros"
)

// maxAssignBlocks bounds the string, bytes, repeated scalar and nested
// message fields of a message that gets an Assign, its nested messages' included (each pair of
// their blocks is compared).
const maxAssignBlocks = 10

// keepMax is the runtime's largest block a Clear keeps (impl's keep.go):
// a fixed array larger than it is never written by Assign's straight line.
const keepMax = 1024

// maxAssignDepth bounds the nesting of the messages an Assign fills (the
// runtime's keep plan holds 4 levels below the root).
const maxAssignDepth = 4

// An assignNode is a message an Assign fills: the root, or a nested
// message field's, with the expressions that name its values and bytes.
type assignNode struct {
	m       *protogen.Message
	lm      *layout.Message
	names   map[*protogen.Field]string // the accessor names of m's fields
	val     string                     // the expression of its XFields value ("v", "v.Stamp")
	mem     string                     // the variable of its compiled fields' bytes ("p", "qStamp")
	path    string                     // the Go names of the fields from the root ("", "Stamp")
	inline  bool                       // an inline message (ROS frontend): in its holder's bytes, which the holder's Clear zeroes
	handle  string                     // the variable of its handle in assignSetters ("x", "msgStamp")
	scalars []*protogen.Field
	strs    []assignBlock
	vecs    []assignBlock // repeated scalars
	msgs    []assignChild
}

// An assignBlock is a string, bytes or repeated scalar field of an
// assignNode and the variables of its block.
type assignBlock struct {
	f       *protogen.Field
	lf      *layout.Field
	blk, ok string
	max     int // a repeated scalar: its fixed array size (phaser.array_size), or 0
}

// An assignChild is a nested message field of an assignNode: blk is the
// variable of its block or, for an inline message, of the table word it
// takes (Inline's, whose result ok is); fields, of a message that is not
// inline, is the variable of the slice of its fields KeptFields returns.
type assignChild struct {
	f               *protogen.Field
	lf              *layout.Field
	blk, ok, fields string
	node            *assignNode
}

// assignPlan returns the tree of the messages the Assign of m fills, or nil
// if m gets no Assign: every field a singular scalar (viewable), a singular
// string or bytes field outside any oneof, a repeated scalar or enum field,
// or a singular message field outside any oneof (inline or not) of a type
// that gets an Assign itself, at most maxAssignDepth levels deep, with at
// most maxAssignBlocks strings, bytes, repeated scalars and (not inline)
// messages in all, in messages that are not map entries, not Any and
// declare no extension range.
func (g *fileGen) assignPlan(m *protogen.Message) *assignNode {
	a := &assignNames{taken: map[string]bool{"a": true, "b": true, "ok": true, "p": true, "v": true, "x": true}}
	n := g.assignNode(m, nil, "v", "p", "", 0, a)
	if n == nil || a.blocks > maxAssignBlocks {
		return nil
	}
	return n
}

// assignNames counts the blocks of an Assign and hands out its variables'
// names.
type assignNames struct {
	blocks int
	taken  map[string]bool
}

// name returns prefix+path+field, or with a number after it if taken.
func (a *assignNames) name(prefix, s string) string {
	n := prefix + s
	for i := 2; a.taken[n]; i++ {
		n = fmt.Sprint(prefix, s, i)
	}
	a.taken[n] = true
	return n
}

// assignNode returns the node of message m, laid out as lm (nil: m's own
// layout; an inline message's is the one its holder gives it), or nil if
// it cannot be assigned.
func (g *fileGen) assignNode(m *protogen.Message, lm *layout.Message, val, mem, path string, depth int, a *assignNames) *assignNode {
	if depth > maxAssignDepth || len(m.Fields) == 0 || m.Desc.IsMapEntry() || m.Desc.ExtensionRanges().Len() > 0 || m.Desc.FullName() == anyName {
		return nil
	}
	if lm == nil {
		var err error
		if lm, err = g.layouts.Of(m.Desc); err != nil {
			return nil
		}
	}
	n := &assignNode{m: m, lm: lm, names: accessorNames(m), val: val, mem: mem, path: path, handle: "x"}
	if path != "" {
		n.handle = a.name("msg", path)
	}
	for _, f := range m.Fields {
		lf := lm.FieldByNumber(f.Desc.Number())
		switch k := f.Desc.Kind(); {
		case viewable(f):
			n.scalars = append(n.scalars, f)
		case lf == nil || f.Desc.IsMap() || f.Oneof != nil:
			return nil
		case f.Desc.IsList():
			if k == protoreflect.StringKind || k == protoreflect.BytesKind || k == protoreflect.MessageKind || k == protoreflect.GroupKind {
				return nil
			}
			name := path + n.names[f]
			size, _ := ros.ArraySize(f.Desc)
			n.vecs = append(n.vecs, assignBlock{f: f, lf: lf, blk: a.name("s", name), ok: a.name("ok", name), max: int(size)})
			a.blocks++
		case k == protoreflect.StringKind || k == protoreflect.BytesKind:
			name := path + n.names[f]
			n.strs = append(n.strs, assignBlock{f: f, lf: lf, blk: a.name("s", name), ok: a.name("ok", name)})
			a.blocks++
		case k == protoreflect.MessageKind && lf.Inline:
			// Its XFields type is its own package's: one generated with
			// another frontend, which may lay it out with slots where this
			// one inlines (and count its blocks otherwise), is taken when
			// it holds no message field.
			if lf.Message == nil || !g.sameFrontend(f.Message) && hasMessageField(f.Message) {
				return nil
			}
			name := path + n.names[f]
			blk, ok := a.name("w", name), a.name("ok", name)
			c := g.assignNode(f.Message, lf.Message, val+"."+n.names[f], a.name("q", name), name, depth+1, a)
			if c == nil {
				return nil
			}
			c.inline = true
			n.msgs = append(n.msgs, assignChild{f: f, lf: lf, blk: blk, ok: ok, node: c})
		case k == protoreflect.MessageKind:
			name := path + n.names[f]
			blk, fields := a.name("m", name), a.name("f", name)
			c := g.assignNode(f.Message, nil, val+"."+n.names[f], a.name("q", name), name, depth+1, a)
			if c == nil {
				return nil
			}
			n.msgs = append(n.msgs, assignChild{f: f, lf: lf, blk: blk, fields: fields, node: c})
			a.blocks++
		default:
			return nil
		}
	}
	return n
}

// assign emits Assign and its values type XFields for a message that
// assignPlan accepts: Clear and every field's setter in one call, which on
// a root whose Clear keeps its blocks, whose new strings fit them and whose
// nested messages the Clear keeps, is one straight line at compile-time
// offsets (impl's assign.go).
func (g *fileGen) assign(m *protogen.Message, lm *layout.Message, name, tv string) {
	root := g.assignPlan(m)
	if root == nil {
		return
	}
	g.assignFields(root, name)
	g.P("// Assign clears x and sets every field to its value in v: what Clear and")
	g.P("// then each field's setter do, to the same payload bytes (each scalar is")
	g.P("// then present, and so is each nested message, filled as its own Assign")
	g.P("// would). On the root of a payload whose Clear keeps the blocks of its")
	g.P("// strings and nested messages, when each new string fits the block its")
	g.P("// field holds and each nested message was there, it is one call that")
	g.P("// checks the messages and the blocks once and stores at compile-time")
	g.P("// offsets.")
	ext := extentOf(lm)
	g.P("func (x ", name, ") Assign(v *", g.declName(m, declFields), ") {")
	if len(root.strs) == 0 && len(root.vecs) == 0 && len(root.msgs) == 0 { // scalars only: no block to check
		g.P("if _, b, ok := ", g.xm(), ".BeginAssign(", tv, ", ", ext, "); ok {")
		g.P("p := (*[", ext, "]byte)(b)")
		g.assignStores(root)
		g.P("return")
		g.P("}")
	} else {
		g.P("if a, b, ok := ", g.xm(), ".BeginAssign(", tv, ", ", ext, "); ok {")
		g.P("p := (*[", ext, "]byte)(b)")
		var oks []string
		depth := g.assignChecks(root, &oks)
		// No two blocks overlap (Assigner.Block), listed in field order:
		// the order of a fill's allocations, which Disjoint checks first.
		blocks := root.blocksInOrder(nil)
		var conds []string
		if len(oks) > 0 {
			conds = append(conds, strings.Join(oks, " &&\n"))
		}
		switch len(blocks) {
		case 0, 1:
		case 2:
			conds = append(conds, blocks[0]+".Apart("+blocks[1]+")")
		default: // each block before the next, or Disjoint's compare of every pair
			var chain []string
			for i := 1; i < len(blocks); i++ {
				chain = append(chain, blocks[i-1]+".Before("+blocks[i]+")")
			}
			conds = append(conds, "("+strings.Join(chain, " &&\n")+" ||\n"+g.door("Disjoint")+"("+strings.Join(blocks, ", ")+"))")
		}
		cond := strings.Join(conds, " &&\n")
		if cond != "" {
			g.P("if ", cond, " {")
		}
		g.assignPuts(root)
		g.assignStores(root)
		g.P("return")
		if cond != "" {
			g.P("}")
		}
		for range depth {
			g.P("}")
		}
		g.P("}")
	}
	g.P("x.assignSetters(v)")
	g.P("}")
	g.P()
	// Out of Assign, so that Assign stays small: its calls of the
	// Assigner's methods inline, and its frame is the straight line's.
	g.P("// assignSetters is Assign's general path: Clear, then every field's setter.")
	g.P("func (x ", name, ") assignSetters(v *", g.declName(m, declFields), ") {")
	g.P("x.Clear()")
	g.assignSetterCalls(root)
	g.P("}")
	g.P()
}

// assignFields emits the XFields type of the root of an Assign.
func (g *fileGen) assignFields(n *assignNode, name string) {
	vt := g.declName(n.m, declFields)
	g.P("// ", vt, " holds the value of every field of a ", name, ", for Assign.")
	g.P("type ", vt, " struct {")
	for _, f := range n.m.Fields {
		var goType string
		switch k := f.Desc.Kind(); {
		case viewable(f):
			goType = g.scalarOf(f.Desc, f).goType
		case f.Desc.IsList():
			goType = "[]" + g.elemType(f)
		case k == protoreflect.BytesKind:
			goType = "[]byte"
		case k == protoreflect.StringKind:
			goType = "string"
		default: // a nested message, by value (a pointer would escape: Assign's v leaks to the setters)
			pkg := g.phaserPkg(f.Message.Desc.ParentFile())
			goType = g.declName(f.Message, declFields)
			if pkg != g.pkg {
				goType = g.QualifiedGoIdent(protogen.GoIdent{GoName: goType, GoImportPath: pkg})
			}
		}
		g.P(n.names[f], " ", goType, " // field ", f.Desc.Name(), " (", f.Desc.Number(), ")")
	}
	g.P("}")
	g.P()
}

// assignChecks emits the checks of n's blocks (Block and Fits, KeptBytes,
// KeptVector, KeptFields) and collects the results the straight line needs; each
// nested message opens an if that the caller closes (the count it
// returns), inside which its own fields' blocks are checked.
func (g *fileGen) assignChecks(n *assignNode, oks *[]string) int {
	for _, s := range n.strs {
		slot := fmt.Sprintf("%s[%d:%d]", n.mem, s.lf.Offset, s.lf.Offset+4)
		if s.f.Desc.Kind() == protoreflect.BytesKind {
			g.P(s.blk, ", ", s.ok, " := a.KeptBytes(", slot, ", ", n.val, ".", n.names[s.f], ")")
			*oks = append(*oks, s.ok)
			continue
		}
		// Block and Fits inline (Kept, their one call, did not).
		g.P(s.blk, ", ", s.ok, " := a.Block((*[4]byte)(", slot, "))")
		*oks = append(*oks, s.ok+" && "+s.blk+".Fits(len("+n.val+"."+n.names[s.f]+"))")
	}
	for _, s := range n.vecs {
		// The block of the elements is the one the header's data word holds.
		data := fmt.Sprintf("(*[4]byte)(%s[%d:%d])", n.mem, s.lf.Offset+4, s.lf.Offset+8)
		g.P(s.blk, ", ", s.ok, " := a.Block(", data, ")")
		*oks = append(*oks, fmt.Sprint(s.ok, " && ", s.blk, ".FitsElems(len(", n.val, ".", n.names[s.f], "), ", int(s.lf.Kind.Size()), ", ", s.max, ")"))
	}
	depth := 0
	for _, c := range n.msgs {
		_, texpr, _ := g.msgRef(c.f.Message)
		ext := extentOf(c.node.lm)
		slot := fmt.Sprintf("(*[4]byte)(%s[%d:%d])", n.mem, c.lf.Offset, c.lf.Offset+4)
		if c.node.inline { // its table word, and its fields in the holder's bytes
			g.P(c.blk, ", ", c.ok, " := a.Inline(", slot, ", ", texpr, ")")
			*oks = append(*oks, c.ok)
			g.P(c.node.mem, " := (*[", ext, "]byte)(", n.mem, "[", c.lf.Offset, ":])")
			depth += g.assignChecks(c.node, oks)
			continue
		}
		g.P("if ", c.fields, " := a.KeptFields(", slot, ", ", texpr, ", ", ext, "); ", c.fields, " != nil {")
		g.P(c.node.mem, " := (*[", ext, "]byte)(", c.fields, ")")
		g.P(c.blk, " := ", g.door("KeptBlock"), "{Off: ", g.leIdent(), ".Uint32(", n.mem, "[", c.lf.Offset, ":]), Size: ", ext, "} // (KeptFields's)")
		depth += 1 + g.assignChecks(c.node, oks)
	}
	return depth
}

// assignPuts emits the writes of every string of n and of its nested
// messages over its block.
func (g *fileGen) assignPuts(n *assignNode) {
	for _, s := range n.strs {
		if s.f.Desc.Kind() == protoreflect.BytesKind {
			g.P("a.PutBytes(", s.blk, ", ", n.val, ".", n.names[s.f], ")")
		} else {
			// A name or an id (8 to 16 bytes) in line, any other string
			// through Put.
			val := n.val + "." + n.names[s.f]
			g.P("if w, z := a.ShortAt(", s.blk, ", len(", val, ")); w != nil {")
			g.P("a.PutShort(w, z, ", val, ")")
			g.P("} else {")
			g.P("a.Put(", s.blk, ", ", val, ")")
			g.P("}")
		}
	}
	for _, s := range n.vecs {
		slot := fmt.Sprintf("(*[8]byte)(%s[%d:%d])", n.mem, s.lf.Offset, s.lf.Offset+8)
		val, size := n.val+"."+n.names[s.f], int(s.lf.Kind.Size())
		put := "a.PutVector(" + s.blk + ", " + slot + ", " + g.door("ElemBytes") + "(" + val + "), " + fmt.Sprint(size) + ")"
		if s.max == 0 || s.max*size > keepMax {
			g.P(put)
			continue
		}
		// A fixed array given whole, over a block that held no more
		// elements (nothing of the old ones to scrub): one copy of a
		// compile-time size (KeptVector checked the block holds it).
		full := s.max * size
		g.P("if len(", val, ") == ", s.max, " && ", g.leIdent(), ".Uint32(", n.mem, "[", s.lf.Offset, ":]) <= ", s.max, " {")
		g.copyPieces(full, g.door("ElemBytes")+"("+val+")", "a.Memory()["+s.blk+".Off:]")
		g.P("} else {")
		g.P(put)
		g.P("}")
	}
	for _, c := range n.msgs {
		g.assignPuts(c.node)
	}
}

// assignStores emits the Clear of n's compiled fields and the stores of
// its slots and scalars, then its nested messages'.
func (g *fileGen) assignStores(n *assignNode) {
	ext := extentOf(n.lm)
	what := n.path
	if what == "" {
		what = "the root"
	}
	if !n.inline { // (an inline message's bytes are its holder's, which it cleared)
		g.P("*(*[", ext-4, "]byte)(", n.mem, "[4:]) = [", ext-4, "]byte{} // Clear of ", what, ": the presence words and fields")
	}
	le := g.leIdent()
	for _, s := range n.strs {
		g.P(le, ".PutUint32(", n.mem, "[", s.lf.Offset, ":], ", s.blk, ".Off)")
	}
	for _, s := range n.vecs { // the vector header {num, data}
		g.P(le, ".PutUint64(", n.mem, "[", s.lf.Offset, ":], uint64(len(", n.val, ".", n.names[s.f], "))|uint64(", s.blk, ".Off)<<32)")
	}
	for _, c := range n.msgs {
		if c.node.inline {
			g.P(le, ".PutUint32(", n.mem, "[", c.lf.Offset, ":], ", c.blk, ") // ", c.node.path, " present: its table")
			continue
		}
		g.P(le, ".PutUint32(", n.mem, "[", c.lf.Offset, ":], ", c.blk, ".Off)")
	}
	g.storeScalarsOf(n.scalars, n.lm, n.names, n.val, n.mem, true) // (the Clear above, or the holder's of an inline message, zeroed its presence words)
	for _, c := range n.msgs {
		g.assignStores(c.node)
	}
}

// assignSetterCalls emits the setters of n's fields on its handle, in
// field order, a nested message's through its Mutable.
func (g *fileGen) assignSetterCalls(n *assignNode) {
	for _, f := range n.m.Fields {
		nm := n.names[f]
		if c := n.child(f); c != nil {
			g.P(c.node.handle, " := ", n.handle, ".Mutable", nm, "()")
			g.assignSetterCalls(c.node)
			continue
		}
		if f.Desc.IsList() {
			g.P(n.handle, ".", nm, "().Assign(", n.val, ".", nm, "...)")
			continue
		}
		g.P(n.handle, ".Set", nm, "(", n.val, ".", nm, ")")
	}
}

// blocksInOrder appends the variables of the blocks of n and of its nested
// messages in field order, a nested message's block before its own
// fields' (the order in which a fill by the setters allocates them).
func (n *assignNode) blocksInOrder(bs []string) []string {
	for _, f := range n.m.Fields {
		if c := n.child(f); c != nil {
			if !c.node.inline { // (an inline message has no block of its own)
				bs = append(bs, c.blk)
			}
			bs = c.node.blocksInOrder(bs)
			continue
		}
		for _, b := range append(n.strs, n.vecs...) {
			if b.f == f {
				bs = append(bs, b.blk)
			}
		}
	}
	return bs
}

// child returns the nested message of field f, or nil.
func (n *assignNode) child(f *protogen.Field) *assignChild {
	for i := range n.msgs {
		if n.msgs[i].f == f {
			return &n.msgs[i]
		}
	}
	return nil
}

// sameFrontend reports whether m's handles are generated with this file's
// options (its layout and its Assign planned as here): in this file's
// package, or from a file of this run.
func (g *fileGen) sameFrontend(m *protogen.Message) bool {
	if g.phaserPkg(m.Desc.ParentFile()) == g.pkg {
		return true
	}
	f, ok := g.plugin.FilesByPath[m.Desc.ParentFile().Path()]
	return ok && f.Generate && !skipFile(f)
}

// hasMessageField reports whether m has a message field.
func hasMessageField(m *protogen.Message) bool {
	for _, f := range m.Fields {
		if f.Desc.Kind() == protoreflect.MessageKind || f.Desc.Kind() == protoreflect.GroupKind {
			return true
		}
	}
	return false
}

// nestedTypes appends the message types of n's nested messages, theirs
// included.
func (n *assignNode) nestedTypes(ms []*protogen.Message) []*protogen.Message {
	for _, c := range n.msgs {
		ms = c.node.nestedTypes(append(ms, c.f.Message))
	}
	return ms
}

// copyPieces emits a copy of n bytes (a compile-time size) from src to
// dst, []byte expressions of at least n bytes, through local arrays: the
// compiler moves a local in 16-byte words where a copy between two slices
// is a call of memmove (they might overlap). A local of a size that is not
// a multiple of 16 is moved with a last word that overlaps the one before
// it, and the load of the word before it, which two stores then wrote,
// cannot take its bytes from them: a store-forwarding stall on every copy
// (sensor_msgs/Imu's Assign, three 72-byte covariances, ran 14-16%
// faster without them). So the copy is cut into a multiple of 16 bytes and pieces
// of 8, 4, 2 and 1, each loaded whole and stored whole.
func (g *fileGen) copyPieces(n int, src, dst string) {
	ps := copyCuts(n)
	if len(ps) == 1 {
		g.P("e := *(*[", n, "]byte)(", src, ") // (through a local: word moves, not memmove)")
		g.P("*(*[", n, "]byte)(", dst, ") = e")
		return
	}
	g.P("src, dst := (*[", n, "]byte)(", src, "), (*[", n, "]byte)(", dst, ") // copied in pieces that no move of the copy overlaps")
	for i, p := range ps {
		g.P("e", i, " := *(*[", p.size, "]byte)(src[", p.off, ":", p.off+p.size, "])")
	}
	for i, p := range ps {
		g.P("*(*[", p.size, "]byte)(dst[", p.off, ":", p.off+p.size, "]) = e", i)
	}
}

// piece is a part of a copy: size bytes from offset off.
type piece struct{ off, size int }

// copyCuts returns the pieces copyPieces cuts a copy of n bytes into, in
// order: a multiple of 16 bytes, then one each of 8, 4, 2 and 1 bytes as
// n needs them. They cover the n bytes and no two overlap.
func copyCuts(n int) []piece {
	var ps []piece
	if head := n &^ 15; head > 0 {
		ps = append(ps, piece{0, head})
	}
	for size := 8; size > 0; size /= 2 {
		if n&size != 0 {
			ps = append(ps, piece{n &^ (2*size - 1), size})
		}
	}
	return ps
}
