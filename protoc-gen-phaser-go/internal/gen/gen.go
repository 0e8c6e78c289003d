// Package gen is the code generator behind protoc-gen-phaser-go: for each
// .proto file it writes a Go package of message handles over Phaser
// payloads. It is split into small emit functions, one per kind of field,
// in the manner of protoc-gen-go's internal_gengo.
package gen

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// Version is the generator's version, printed by --version and in headers.
const Version = "v0.1.0"

// Options are the plugin parameters (--phaser-go_opt=k=v).
type Options struct {
	// PackageSuffix is appended to a file's Go package name to name the
	// package of its Phaser handles (default "phaser"): go_package
	// example.com/foo/foopb gives example.com/foo/foopb/foopbphaser.
	PackageSuffix string
	// Frontend is "protobuf" (default) or "ros", as in the C++ plugin. Both
	// give the same Go accessors; "ros" compiles the handles for the ROS
	// frontend's layout of format v3, which stores singular message fields
	// inline in their holder (spec 8.9). Either reads and writes the other's
	// payloads, and both write format v2 as Phaser 2.x does.
	Frontend string
	// ROSMetadata emits ROSDataType, ROSDefinition and ROSMD5 (C++
	// ros_metadata): the ROS identity of each message, computed the way ROS
	// computes it, as constants.
	ROSMetadata bool
	// ProtoGo emits FromProto and a typed ToProto that convert to and from
	// the protoc-gen-go types of the same file (its go_package), through the
	// wire format.
	ProtoGo bool
	// ImportMapping is what M<file>=<import path> parameters name:
	// "go_package" (default, as for protoc-gen-go) the file's Go package;
	// "handles" the package of its handles, as rules_go's go_proto_library
	// passes its importpath (see [Generate]).
	ImportMapping string

	handleMappings map[string]string // with ImportMapping "handles": file -> import path
}

// Set parses one plugin parameter; it is protogen.Options.ParamFunc.
func (o *Options) Set(name, value string) error {
	switch name {
	case "package_suffix":
		if value == "" || !isIdent(value) {
			return fmt.Errorf("package_suffix %q: not a Go identifier", value)
		}
		o.PackageSuffix = value
	case "frontend":
		switch value {
		case "", "protobuf":
			o.Frontend = "protobuf"
		case "ros":
			o.Frontend = "ros"
		default:
			return fmt.Errorf("frontend %q: want protobuf or ros", value)
		}
	case "ros_metadata":
		b, err := parseBool(value)
		if err != nil {
			return fmt.Errorf("ros_metadata: %w", err)
		}
		o.ROSMetadata = b
	case "protogo":
		b, err := parseBool(value)
		if err != nil {
			return fmt.Errorf("protogo: %w", err)
		}
		o.ProtoGo = b
	case "import_mapping":
		switch value {
		case "", importMappingGoPackage:
			o.ImportMapping = importMappingGoPackage
		case importMappingHandles:
			o.ImportMapping = importMappingHandles
		default:
			return fmt.Errorf("import_mapping %q: want %s or %s", value, importMappingGoPackage, importMappingHandles)
		}
	case "active_message":
		// C++ adds a std::any member that travels with the handle; a Go
		// handle is a small value that callers embed or wrap as they like.
		if _, err := parseBool(value); err != nil {
			return fmt.Errorf("active_message: %w", err)
		}
	case "add_namespace", "package_name", "target_name":
		// C++ output-path and namespace options; Go uses go_package.
	default:
		return fmt.Errorf("unknown parameter %q", name)
	}
	return nil
}

func parseBool(v string) (bool, error) {
	switch v {
	case "", "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean", v)
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// Run generates every file protoc asked for.
func Run(gen *protogen.Plugin, opts Options) error {
	if opts.PackageSuffix == "" {
		opts.PackageSuffix = "phaser"
	}
	if opts.Frontend == "" {
		opts.Frontend = "protobuf"
	}
	gen.SupportedFeatures = uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL)
	// One package doc per Go package: on the first of its files, naming
	// them all.
	sources := map[protogen.GoImportPath][]string{}
	for _, f := range gen.Files {
		if f.Generate && !skipFile(f) {
			pkg, _ := PackageOf(f.GoImportPath, f.GoPackageName, opts.PackageSuffix)
			sources[pkg] = append(sources[pkg], f.Desc.Path())
		}
	}
	for _, f := range gen.Files {
		if !f.Generate || skipFile(f) {
			continue
		}
		if err := checkHandleMapping(f, opts); err != nil {
			return fmt.Errorf("%s: %w", f.Desc.Path(), err)
		}
		pkg, _ := PackageOf(f.GoImportPath, f.GoPackageName, opts.PackageSuffix)
		var doc []string
		if srcs := sources[pkg]; srcs[0] == f.Desc.Path() {
			doc = srcs
		}
		if err := generateFile(gen, f, opts, doc); err != nil {
			return fmt.Errorf("%s: %w", f.Desc.Path(), err)
		}
	}
	return nil
}

// skipFile reports files that produce no output, as in C++: no messages or
// enums, descriptor.proto and Phaser's own options.
func skipFile(f *protogen.File) bool {
	p := f.Desc.Path()
	return len(f.Messages) == 0 && len(f.Enums) == 0 ||
		p == "google/protobuf/descriptor.proto" || p == "phaser/options.proto"
}

// The import paths of the runtime's user-facing API and of its door for
// generated code.
const (
	runtimePkg = protogen.GoImportPath("github.com/phaser-go/phaser/runtime")
	doorPkg    = protogen.GoImportPath("github.com/phaser-go/phaser/runtime/phaserimpl")
)

// modulePath is the module of phaser-go.
const modulePath = "github.com/phaser-go/phaser"

// hasParam reports whether protoc passed the plugin parameter name (which
// protogen handles itself for module, paths and M).
func hasParam(plugin *protogen.Plugin, name string) bool {
	for _, p := range strings.Split(plugin.Request.GetParameter(), ",") {
		if k, _, _ := strings.Cut(p, "="); k == name {
			return true
		}
	}
	return false
}

// wellKnownRoot is where the handles of google/protobuf/*.proto live.
const wellKnownRoot = modulePath + "/types/known/"

// shippedROSRoot is where the ROS message mirrors of ros/msgs (go_package
// github.com/phaser-go/phaser/ros/msgs/...) have their shipped handles.
const shippedROSRoot = modulePath + "/ros/msgs/"

// shippedSuffix is the package suffix of the handles shipped in this
// module (the default).
const shippedSuffix = "phaser"

// PackageOf returns the import path and package name of the Phaser handles
// of a file with the given Go import path and package name: the go_package
// plus suffix, except for the files whose handles ship in this module (the
// well-known types and the ROS messages of ros/msgs), which have their
// shipped packages whatever suffix the user's files use.
func PackageOf(importPath protogen.GoImportPath, pkgName protogen.GoPackageName, suffix string) (protogen.GoImportPath, string) {
	if strings.HasPrefix(string(importPath), "google.golang.org/protobuf/types/") {
		name := string(pkgName) + shippedSuffix
		return protogen.GoImportPath(wellKnownRoot + name), name
	}
	if strings.HasPrefix(string(importPath), shippedROSRoot) {
		suffix = shippedSuffix
	}
	name := string(pkgName) + suffix
	return protogen.GoImportPath(string(importPath) + "/" + name), name
}

type fileGen struct {
	*protogen.GeneratedFile
	plugin  *protogen.Plugin
	file    *protogen.File
	opts    Options
	pkg     protogen.GoImportPath
	layouts *layout.Cache
	rawVar  string                     // name of the registered-file variable
	names   map[*protogen.Field]string // accessor names of the current message's fields
	// rosShapes are the ROS1 shapes of the message types the file's codecs
	// reach (roscodec.go).
	rosShapes map[protoreflect.FullName]*rosShape
	// flatGuards are the guard variables of flat message types of other
	// files emitted so far (proto_marshal.go's flatGuards).
	flatGuards map[string]bool
	// decls are the package-level names of the handles of the files this
	// one's refer to, by .proto path (names.go).
	decls map[string]declNames
	err   error // the first error of an emit function
}

// generateFile writes the handles of f; the package doc, naming the files
// of the package docFor, when docFor is not empty.
func generateFile(plugin *protogen.Plugin, f *protogen.File, opts Options, docFor []string) error {
	pkg, name := PackageOf(f.GoImportPath, f.GoPackageName, opts.PackageSuffix)
	dir, base := path.Split(f.GeneratedFilenamePrefix)
	filename := path.Join(dir, name, base+".phaser.go")
	if strings.HasPrefix(string(pkg), wellKnownRoot) {
		// The well-known types' handles ship in this module; the output
		// is relative to its root. With module= (which protogen strips
		// from every output name) it is the full import path.
		filename = path.Join(string(pkg), base+".phaser.go")
		if !hasParam(plugin, "module") {
			filename = strings.TrimPrefix(filename, modulePath+"/")
		}
	}
	g := &fileGen{
		GeneratedFile: plugin.NewGeneratedFile(filename, pkg),
		plugin:        plugin,
		file:          f,
		opts:          opts,
		pkg:           pkg,
		layouts:       layout.NewCache(layout.Options{Version: 3, ROSFrontend: opts.Frontend == "ros"}),
		rawVar:        "file_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(f.Desc.Path()),
	}
	// The runtime lays every type out in both formats: any layout that
	// cannot be computed is an error now rather than a panic when the
	// generated package initializes.
	v2 := layout.NewCache(layout.Options{Version: 2})
	for _, m := range allMessages(f.Messages) {
		if _, err := g.layouts.Of(m.Desc); err != nil {
			return err
		}
		if _, err := v2.Of(m.Desc); err != nil {
			return err
		}
		for _, fld := range m.Fields {
			if err := validateArraySize(fld.Desc); err != nil {
				return err
			}
			if err := checkHandles(fld.Desc); err != nil {
				return err
			}
		}
	}
	g.header(name, docFor)
	if err := g.registration(); err != nil {
		return err
	}
	g.foreignTypes()
	g.foreignReach()
	g.rosForeignCodecs()
	g.extensionsNote()
	for _, e := range allEnums(f) {
		g.enum(e)
	}
	for _, m := range allMessages(f.Messages) {
		g.message(m)
	}
	return g.err
}

// knownHandles are the well-known files whose handles ship in types/known
// (scripts/generate makes them). google.protobuf.Any is runtime.Any.
// type.proto and api.proto are generated from protobuf-go's descriptors,
// not from protoc 3.21's older sources (which lack google.protobuf.Type's
// edition field): the handles' layout must be the one of the descriptors a
// Go program links.
var knownHandles = map[string]bool{
	"google/protobuf/timestamp.proto":      true,
	"google/protobuf/duration.proto":       true,
	"google/protobuf/wrappers.proto":       true,
	"google/protobuf/empty.proto":          true,
	"google/protobuf/struct.proto":         true,
	"google/protobuf/field_mask.proto":     true,
	"google/protobuf/source_context.proto": true,
	"google/protobuf/type.proto":           true,
	"google/protobuf/api.proto":            true,
}

// checkHandles reports a message or enum field whose type has no Phaser
// handles to refer to: a well-known type other than those of types/known
// and Any, or a type of descriptor.proto or phaser/options.proto, which
// produce no output. The generated code would import a package that does
// not exist.
func checkHandles(fd protoreflect.FieldDescriptor) error {
	var d protoreflect.Descriptor
	switch {
	case fd.Message() != nil:
		if fd.Message().FullName() == anyName {
			return nil
		}
		d = fd.Message() // a map's entry is checked as a message of the file
	case fd.Enum() != nil:
		d = fd.Enum()
	default:
		return nil
	}
	p := d.ParentFile().Path()
	if p == "google/protobuf/descriptor.proto" || p == "phaser/options.proto" ||
		strings.HasPrefix(p, "google/protobuf/") && d.ParentFile().Package() == "google.protobuf" && !knownHandles[p] {
		return fmt.Errorf("field %s: %s of %s has no Phaser handles (types/known has %s; Any is runtime.Any)",
			fd.FullName(), d.FullName(), p, "timestamp, duration, wrappers, empty, struct, field_mask, source_context, type and api")
	}
	return nil
}

// validateArraySize rejects (phaser.array_size) where C++ Phaser does
// (ValidateArraySizeOption): only non-map repeated fields take it, with a
// size above 0.
func validateArraySize(fd protoreflect.FieldDescriptor) error {
	n, ok := ros.ArraySize(fd)
	if !ok {
		return nil
	}
	if !fd.IsList() {
		return fmt.Errorf("field %s: (phaser.array_size) is only valid on non-map repeated fields", fd.FullName())
	}
	if n == 0 {
		return fmt.Errorf("field %s: (phaser.array_size) must be greater than 0", fd.FullName())
	}
	return nil
}

func allMessages(ms []*protogen.Message) []*protogen.Message {
	var out []*protogen.Message
	for _, m := range ms {
		out = append(out, m)
		out = append(out, allMessages(m.Messages)...)
	}
	return out
}

func allEnums(f *protogen.File) []*protogen.Enum {
	out := append([]*protogen.Enum{}, f.Enums...)
	for _, m := range allMessages(f.Messages) {
		out = append(out, m.Enums...)
	}
	return out
}

func (g *fileGen) header(pkgName string, docFor []string) {
	g.P("// Code generated by protoc-gen-phaser-go. DO NOT EDIT.")
	g.P("// versions:")
	g.P("// \tprotoc-gen-phaser-go ", Version)
	g.P("// source: ", g.file.Desc.Path())
	g.P()
	if len(docFor) > 0 {
		g.P("// Package ", pkgName, " holds Phaser message handles for ", strings.Join(docFor, ", "), ":")
		g.P("// values that read and write the fields of a message in place, in a Phaser")
		g.P("// payload that can live in shared memory or be sent as it is.")
	}
	g.P("package ", pkgName)
	g.P()
	v := strconv.Itoa(phaserimpl.GenVersion)
	g.P("const (")
	g.P("// Verify that this generated code is sufficiently up to date.")
	g.P("_ = ", g.door("EnforceVersion"), "(", v, " - ", g.door("MinVersion"), ")")
	g.P("// Verify that runtime/phaserimpl is sufficiently up to date.")
	g.P("_ = ", g.door("EnforceVersion"), "(", g.door("MaxVersion"), " - ", v, ")")
	g.P(")")
	g.P()
}

// registration embeds the file descriptor and registers it with the
// runtime, which computes the layouts at init the way the constants below
// were computed.
func (g *fileGen) registration() error {
	fdp := proto.Clone(g.file.Proto).(*descriptorpb.FileDescriptorProto)
	fdp.SourceCodeInfo = nil
	raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(fdp)
	if err != nil {
		return fmt.Errorf("marshal descriptor: %w", err)
	}
	g.P("// ", g.rawVar, " is the file's descriptor, registered with the runtime.")
	g.P("var ", g.rawVar, " = ", g.door("RegisterFile"), "([]byte(", g.rawVar, "Desc))")
	g.P()
	g.P("const ", g.rawVar, "Desc = \"\" +")
	const chunk = 64
	for i := 0; i < len(raw); i += chunk {
		end := min(i+chunk, len(raw))
		sep := " +"
		if end == len(raw) {
			sep = ""
		}
		g.P("\t", strconv.Quote(string(raw[i:end])), sep)
	}
	g.P()
	return nil
}

func (g *fileGen) ident(pkg protogen.GoImportPath, name string) string {
	return g.QualifiedGoIdent(protogen.GoIdent{GoName: name, GoImportPath: pkg})
}

// rt qualifies a name of package runtime, the user-facing API.
func (g *fileGen) rt(name string) string { return g.ident(runtimePkg, name) }

// door qualifies a name of package phaserimpl, the door for generated code.
func (g *fileGen) door(name string) string { return g.ident(doorPkg, name) }

// xm is the engine's handle of the receiver x of a handle method: handle
// types are defined as phaserimpl.Msg, so that generated code of any
// package converts one to the other for free.
func (g *fileGen) xm() string { return g.door("Msg") + "(x)" }

// enum emits a Go enum type.
func (g *fileGen) enum(e *protogen.Enum) {
	name := e.GoIdent.GoName
	g.P("// ", name, " is the enum ", e.Desc.FullName(), ".")
	g.protoComments(e.Comments)
	g.deprecation(e.Desc.Options())
	g.P("type ", name, " int32")
	g.P()
	g.P("// Values of ", name, ".")
	g.P("const (")
	for _, v := range e.Values {
		if text := commentText(v.Comments.Leading); text != "" {
			g.P(text)
		}
		g.deprecation(v.Desc.Options())
		g.P(v.GoIdent.GoName, " ", name, " = ", v.Desc.Number(), trailing(v.Comments))
	}
	g.P(")")
	g.P()
	g.P("// String returns the value's name, or its number if it has none.")
	g.P("func (x ", name, ") String() string {")
	g.P("switch x {")
	seen := map[protoreflect.EnumNumber]bool{}
	for _, v := range e.Values {
		if seen[v.Desc.Number()] {
			continue
		}
		seen[v.Desc.Number()] = true
		g.P("case ", v.GoIdent.GoName, ":")
		g.P("return ", strconv.Quote(string(v.Desc.Name())))
	}
	g.P("}")
	g.P("return ", g.ident("strconv", "Itoa"), "(int(x))")
	g.P("}")
	g.P()
}

// extensionsNote says, in the generated file, what becomes of the file's
// extension declarations: handles have no accessors for them, and payloads
// keep them as unknown fields of the messages they extend.
func (g *fileGen) extensionsNote() {
	exts := slices.Clone(g.file.Extensions)
	for _, m := range allMessages(g.file.Messages) {
		exts = append(exts, m.Extensions...)
	}
	if len(exts) == 0 {
		return
	}
	g.P("// The extensions this file declares have no accessors of their own: a")
	g.P("// payload keeps each one among the unknown fields of the message it")
	g.P("// extends (written back when the message is marshalled). A handle is a")
	g.P("// proto.Message whose view shows them as fields, as protobuf-go does:")
	g.P("// proto.GetExtension, SetExtension, HasExtension and ClearExtension")
	g.P("// work on the handle, with an extension type from protoc-gen-go's output")
	g.P("// or one made from this file's descriptor (dynamicpb.NewExtensionType):")
	for _, x := range exts {
		g.P("//   - ", x.Desc.FullName(), " (field ", x.Desc.Number(), " of ", x.Desc.ContainingMessage().FullName(), ")")
	}
	g.P()
}
