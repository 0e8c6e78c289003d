package gen

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"
)

// Import mappings. protoc-gen-go reads M<file>=<import path> as the Go
// package of file's protoc-gen-go code, and so does this plugin by default:
// the file's handles go in the package below it (see [PackageOf]).
//
// With import_mapping=handles an M parameter names the package of the
// file's handles instead. That is how rules_go's go_proto_library passes the
// importpath of the library being built, so a go_proto_library of handles
// can have the handles' own import path (example.com/foopb/foopbphaser)
// and sit beside the protoc-gen-go library of the same files
// (example.com/foopb) in one Go target's deps. The plugin still derives
// every package from go_package: it checks the mapping of each file it
// generates against that package, and ignores the mappings of imported
// files (which, in a go_proto_library, come from whatever libraries are in
// deps, handles or protoc-gen-go code alike).
const (
	importMappingGoPackage = "go_package" // the default: M names the Go package
	importMappingHandles   = "handles"
)

// Generate runs the generator on a request, as protoc-gen-phaser-go does:
// plugin parameters, import mappings, then every file to generate.
func Generate(req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	var opts Options
	req, mapped, err := splitHandleMappings(req)
	if err != nil {
		return &pluginpb.CodeGeneratorResponse{Error: proto.String(err.Error())}
	}
	plugin, err := protogen.Options{ParamFunc: opts.Set}.New(req)
	if err != nil {
		return &pluginpb.CodeGeneratorResponse{Error: proto.String(err.Error())}
	}
	opts.handleMappings = mapped
	if err := Run(plugin, opts); err != nil {
		plugin.Error(err)
	}
	return plugin.Response()
}

// splitHandleMappings returns req without its M parameters when the
// parameters include import_mapping=handles, and those mappings (file ->
// handles' import path). Every file then needs a go_package option, since
// the handles' packages are derived from it.
func splitHandleMappings(req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorRequest, map[string]string, error) {
	params := strings.Split(req.GetParameter(), ",")
	handles := false
	for _, p := range params {
		if k, v, _ := strings.Cut(p, "="); k == "import_mapping" && v == importMappingHandles {
			handles = true
		}
	}
	if !handles {
		return req, nil, nil
	}
	mapped := map[string]string{}
	var kept []string
	for _, p := range params {
		if strings.HasPrefix(p, "M") {
			file, path, _ := strings.Cut(p[1:], "=")
			mapped[file] = path
			continue
		}
		kept = append(kept, p)
	}
	var missing []string
	for _, f := range req.GetProtoFile() {
		if _, ok := mapped[f.GetName()]; ok && f.GetOptions().GetGoPackage() == "" {
			missing = append(missing, f.GetName())
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, nil, fmt.Errorf("import_mapping=handles: %s: no go_package option (the handles' packages are derived from it)", strings.Join(missing, ", "))
	}
	out := proto.Clone(req).(*pluginpb.CodeGeneratorRequest)
	out.Parameter = proto.String(strings.Join(kept, ","))
	return out, mapped, nil
}

// checkHandleMapping reports a file to generate whose import mapping (with
// import_mapping=handles) is not the package its handles go to.
func checkHandleMapping(f *protogen.File, opts Options) error {
	want, ok := opts.handleMappings[f.Desc.Path()]
	if !ok {
		return nil
	}
	pkg, _ := PackageOf(f.GoImportPath, f.GoPackageName, opts.PackageSuffix)
	if string(pkg) != want {
		return fmt.Errorf("import path %s (M parameter; a go_proto_library's importpath) is not the handles' package: go_package %s gives %s",
			want, string(f.GoImportPath), string(pkg))
	}
	return nil
}
