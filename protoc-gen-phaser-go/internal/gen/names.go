package gen

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
)

// The package-level names of a file's handles. Besides the .proto's own
// names (its messages, enums and enum values, named as protoc-gen-go names
// them), each message gets functions (NewX, ReadX, ...), companion types
// (XView, XList, ...) and, for each oneof, a case type and constants. A
// .proto may hold a message whose name is one of those (NewFoo, FooView,
// FooList beside Foo), so every such name is chosen here, once per Go
// package and in a fixed order, so that no two declarations of a package
// share a name:
//   - the .proto's own names are never changed;
//   - then each message's functions, in declaration order, take their
//     name, with underscores appended while it is taken;
//   - then the oneofs' case types and constants, the same way;
//   - then the companion types, with underscores after the message's name
//     (Foo_View) while the name is taken.
//
// Names that clash with nothing are the plain ones, whatever the order.
// The names are chosen over the files of the message's Go package that
// the request holds (every file of a package generated together, as
// protoc, buf and Bazel run the plugin), so that a message of one file
// and a message of another (Foo, FooList) do not clash either. A file of
// another package that refers to a message's list, view or Fields type
// names it from the files the request holds for that package: the files
// it imports, which name it alike unless the clash is with a file of that
// package it does not import.

// Roles of a message's package-level declarations.
const (
	// functions
	declNew        = "New"
	declNewIn      = "NewIn"
	declRead       = "Read"
	declReadInto   = "ReadInto"
	declOpen       = "Open"
	declOf         = "Of"
	declFromAny    = "FromAny"
	declMutableAny = "MutableAny"
	// companion types
	declView    = "View"
	declScalars = "Scalars"
	declFields  = "Fields"
	declList    = "List"
	declMap     = "Map"
)

// functionRoles are the functions every message gets, in the order their
// names are chosen, with the name each role has when nothing clashes.
var functionRoles = []struct {
	role string
	name func(string) string
}{
	{declNew, func(n string) string { return "New" + n }},
	{declNewIn, func(n string) string { return "New" + n + "In" }},
	{declRead, func(n string) string { return "Read" + n }},
	{declReadInto, func(n string) string { return "Read" + n + "Into" }},
	{declOpen, func(n string) string { return "Open" + n }},
	{declOf, func(n string) string { return n + "Of" }},
	{declFromAny, func(n string) string { return n + "FromAny" }},
	{declMutableAny, func(n string) string { return "MutableAny" + n }},
}

// companionRoles are the suffixes of the companion types, in the order
// their names are chosen. Not every message gets every one (a view only
// with singular scalars, a Map only for a map entry), but each is chosen
// for every message, so that the names do not depend on what the
// generator emits; since the companions are named last, a name reserved
// for a type that is not emitted can only move another companion, never
// a function or a .proto name.
var companionRoles = []string{declView, declScalars, declFields, declList, declMap}

// declNames are the package-level names of one file's handles, by key
// (declKey, oneofKey, caseKey).
type declNames map[string]string

func declKey(m *protogen.Message, role string) string { return string(m.Desc.FullName()) + "#" + role }

func oneofKey(o *protogen.Oneof, role string) string { return string(o.Desc.FullName()) + "#" + role }

func caseKey(f *protogen.Field) string { return string(f.Desc.FullName()) + "#case" }

// namesOf chooses the package-level names of the handles of files, the
// files of one Go package that the plugin knows, in the order of their
// paths.
func namesOf(files []*protogen.File) declNames {
	taken := map[string]bool{}
	var msgs []*protogen.Message
	for _, f := range files {
		msgs = append(msgs, allMessages(f.Messages)...)
		for _, e := range allEnums(f) {
			taken[e.GoIdent.GoName] = true
			for _, v := range e.Values {
				taken[v.GoIdent.GoName] = true
			}
		}
	}
	for _, m := range msgs {
		taken[m.GoIdent.GoName] = true
	}
	names := declNames{}
	choose := func(key, n string, next func(string) string) {
		for taken[n] {
			n = next(n)
		}
		taken[n] = true
		names[key] = n
	}
	underscore := func(n string) string { return n + "_" }
	for _, m := range msgs {
		for _, r := range functionRoles {
			choose(declKey(m, r.role), r.name(m.GoIdent.GoName), underscore)
		}
	}
	for _, m := range msgs {
		for _, o := range m.Oneofs {
			if o.Desc.IsSynthetic() {
				continue
			}
			prefix := m.GoIdent.GoName + "_"
			choose(oneofKey(o, "Case"), prefix+o.GoName+"Case", underscore)
			choose(oneofKey(o, "NotSet"), prefix+o.GoName+"_NotSet", underscore)
			for _, mf := range o.Fields {
				choose(caseKey(mf), prefix+mf.GoName+"_Case", underscore)
			}
		}
	}
	for _, m := range msgs {
		n := m.GoIdent.GoName
		for _, suffix := range companionRoles {
			choose(declKey(m, suffix), n+suffix, func(s string) string { return n + "_" + strings.TrimPrefix(s, n) })
		}
	}
	return names
}

// declName returns the package-level name of role for message m (a
// message of this file or of another).
func (g *fileGen) declName(m *protogen.Message, role string) string {
	return g.namesIn(m.Desc.ParentFile().Path())[declKey(m, role)]
}

// namesIn returns the names of the handles of the .proto file at path
// (this file when the plugin does not know it), chosen once for the files
// of its Go package that the plugin knows.
func (g *fileGen) namesIn(path string) declNames {
	if n, ok := g.decls[path]; ok {
		return n
	}
	f, ok := g.plugin.FilesByPath[path]
	if !ok {
		f = g.file
	}
	var pkg []*protogen.File
	for _, o := range g.plugin.Files {
		if o.GoImportPath == f.GoImportPath {
			pkg = append(pkg, o)
		}
	}
	if !slices.Contains(pkg, f) {
		pkg = append(pkg, f)
	}
	slices.SortFunc(pkg, func(a, b *protogen.File) int { return strings.Compare(a.Desc.Path(), b.Desc.Path()) })
	n := namesOf(pkg)
	if g.decls == nil {
		g.decls = map[string]declNames{}
	}
	for _, o := range pkg {
		g.decls[o.Desc.Path()] = n
	}
	return n
}

// oneofName returns the name of the case type (role "Case") or of the
// no-member constant (role "NotSet") of oneof o of this file.
func (g *fileGen) oneofName(o *protogen.Oneof, role string) string {
	return g.namesIn(g.file.Desc.Path())[oneofKey(o, role)]
}

// caseName returns the name of the case constant of oneof member f of this
// file.
func (g *fileGen) caseName(f *protogen.Field) string {
	return g.namesIn(g.file.Desc.Path())[caseKey(f)]
}
