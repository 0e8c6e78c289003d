package gen

import (
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// The .proto file's comments, carried onto the Go declarations as
// protoc-gen-go carries them: a declaration's leading comments, then its
// trailing ones, each as a paragraph of the Go doc comment, and a
// deprecation notice for a deprecated declaration, so that tools flag its
// use.

// protoComments writes the leading and trailing comments of c, each after
// an empty comment line (they follow the declaration's first sentence).
func (g *fileGen) protoComments(c protogen.CommentSet) {
	for _, s := range []protogen.Comments{c.Leading, c.Trailing} {
		if text := commentText(s); text != "" {
			g.P("//")
			g.P(text)
		}
	}
}

// commentText returns c as // lines without the final newline, or "".
// A line that does not start with a blank gets one, so that no .proto
// comment becomes a Go directive: "//go:generate", "//go:build" (which
// go/format moves to the file's header, where it would drop the file from
// the build), "//line", "//export" are comments only with a space after
// the slashes.
func commentText(c protogen.Comments) string {
	if strings.TrimSpace(string(c)) == "" {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(string(c), "\n"), "\n")
	for i, l := range lines {
		if l != "" && l[0] != ' ' && l[0] != '\t' {
			l = " " + l
		}
		lines[i] = "//" + l
	}
	return strings.Join(lines, "\n")
}

// deprecation writes the deprecation notice of a declaration with options
// opts, if it is deprecated.
func (g *fileGen) deprecation(opts protoreflect.ProtoMessage) {
	var deprecated bool
	switch o := opts.(type) {
	case *descriptorpb.MessageOptions:
		deprecated = o.GetDeprecated()
	case *descriptorpb.FieldOptions:
		deprecated = o.GetDeprecated()
	case *descriptorpb.EnumOptions:
		deprecated = o.GetDeprecated()
	case *descriptorpb.EnumValueOptions:
		deprecated = o.GetDeprecated()
	}
	if deprecated {
		g.P("//")
		g.P("// Deprecated: Marked as deprecated in ", g.file.Desc.Path(), ".")
	}
}

// trailing returns the trailing comment of a declaration written on one
// line (an enum value's), as an end-of-line comment, or "".
func trailing(c protogen.CommentSet) string {
	text := commentText(c.Trailing)
	if text == "" || strings.Contains(text, "\n") {
		return ""
	}
	return " " + text
}
