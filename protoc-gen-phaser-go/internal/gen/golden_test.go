package gen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/knowndesc"
	"github.com/phaser-go/phaser/protoc-gen-phaser-go/internal/gen"
)

// The golden tests run the generator in process, the protogen way: the
// .proto sources are compiled with protocompile into the
// CodeGeneratorRequest protoc would send, and the response must equal the
// checked-in generated files byte for byte.

const stale = "checked-in generated code is stale: run scripts/generate"

// The tests read the .proto sources and the checked-in generated files
// relative to the module root. Under Bazel they find them in the test's
// runfiles (data in BUILD.bazel), where //:go.mod marks the root, and
// BUILD.bazel names the inputs go test finds on its own:
const (
	// envPlugin names the plugin binary to run (Bazel: the
	// //protoc-gen-phaser-go it built); else TestVersion builds one.
	envPlugin = "PROTOC_GEN_PHASER_GO"
	// envProtocGenGo names the protoc-gen-go binary TestGoldenProtoGo runs
	// (Bazel: the @org_golang_google_protobuf//cmd/protoc-gen-go it built,
	// at go.mod's version); else it runs `go run` at go.mod's version.
	envProtocGenGo = "PROTOC_GEN_GO"
	// envWellKnown lists the well-known .proto files (Bazel:
	// @com_google_protobuf//:well_known_type_protos, paths relative to the
	// module root); else they come from defaultWellKnownDir.
	envWellKnown = "WELL_KNOWN_PROTOS"
)

// defaultWellKnownDir holds the well-known .proto sources scripts/generate
// gives protoc (Debian's libprotobuf-dev, which comes with
// protobuf-compiler).
const defaultWellKnownDir = "/usr/include"

var (
	// repoRoot is the module root: the nearest directory at or above the
	// working directory (this package's, with go test and with Bazel)
	// holding go.mod.
	repoRoot string
	// wellKnownDir is the import path of the well-known .proto sources.
	wellKnownDir string
)

func TestMain(m *testing.M) {
	var err error
	if repoRoot, err = goldens.ModuleRoot(); err == nil {
		wellKnownDir, err = wellKnownSources()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen_test:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// wellKnownSources returns the directory that $WELL_KNOWN_PROTOS's files
// are in, as imported (the directory above google/protobuf/), or
// defaultWellKnownDir.
func wellKnownSources() (string, error) {
	list := strings.Fields(os.Getenv(envWellKnown))
	if len(list) == 0 {
		return defaultWellKnownDir, nil
	}
	const sub = "google/protobuf/"
	i := strings.LastIndex(filepath.ToSlash(list[0]), sub)
	if i < 0 {
		return "", fmt.Errorf("$%s: %s is not in a %s directory", envWellKnown, list[0], sub)
	}
	dir := list[0][:i]
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(repoRoot, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, sub, "timestamp.proto")); err != nil {
		return "", fmt.Errorf("$%s: %w", envWellKnown, err)
	}
	return dir, nil
}

// compile compiles files (and their imports) found under importPaths, or
// in srcs when it is not nil, and returns the request protoc would send for
// them: every file in dependency order (protocompile, like protoc, fills in
// every field's json_name).
func compile(t *testing.T, importPaths []string, srcs map[string]string, files []string, param string) *pluginpb.CodeGeneratorRequest {
	t.Helper()
	res := &protocompile.SourceResolver{ImportPaths: importPaths}
	if srcs != nil {
		res.Accessor = protocompile.SourceAccessorFromMap(srcs)
	}
	// protoc sends the comments (source code info) of the files to generate.
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(res), SourceInfoMode: protocompile.SourceInfoStandard}
	compiled, err := c.Compile(context.Background(), files...)
	if err != nil {
		t.Fatalf("compile %v: %v", files, err)
	}
	req := &pluginpb.CodeGeneratorRequest{
		FileToGenerate:  files,
		Parameter:       proto.String(param),
		CompilerVersion: &pluginpb.Version{Major: proto.Int32(3), Minor: proto.Int32(21), Patch: proto.Int32(12)},
	}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, protodesc.ToFileDescriptorProto(fd))
	}
	for _, f := range compiled {
		add(f.(linker.File))
	}
	return req
}

// run runs the generator on req as protoc-gen-phaser-go does.
func run(req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	resp := gen.Generate(req)
	if resp.Error != nil {
		return nil, fmt.Errorf("%s", resp.GetError())
	}
	return resp, nil
}

// checkGolden requires the response to equal the checked-in files and the
// directories dirs to hold no other generated file.
func checkGolden(t *testing.T, resp *pluginpb.CodeGeneratorResponse, dirs ...string) {
	t.Helper()
	checkGoldenIn(t, resp, "", dirs...)
}

// checkGoldenIn is checkGolden for output names relative to the directory
// base of the repository, and dirs in it.
func checkGoldenIn(t *testing.T, resp *pluginpb.CodeGeneratorResponse, base string, dirs ...string) {
	t.Helper()
	root := filepath.Join(repoRoot, base)
	made := map[string]bool{}
	for _, f := range resp.File {
		made[f.GetName()] = true
		want, err := os.ReadFile(filepath.Join(root, f.GetName()))
		if err != nil {
			t.Errorf("%s: %v; %s", f.GetName(), err, stale)
			continue
		}
		if got := f.GetContent(); got != string(want) {
			t.Errorf("%s differs from the generator's output (%s)\n%s", f.GetName(), stale, firstDiff(string(want), got))
		}
	}
	if len(resp.File) == 0 {
		t.Fatal("the generator wrote no file")
	}
	for _, dir := range dirs {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".phaser.go") {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if !made[filepath.ToSlash(rel)] {
				t.Errorf("%s is not generated from any .proto (%s)", rel, stale)
			}
			return nil
		})
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  checked in: %q\n  generated:  %q", i+1, w, g)
		}
	}
	return "(same lines; trailing difference)"
}

// TestGoldenTestpb regenerates internal/testpb.
func TestGoldenTestpb(t *testing.T) {
	req := compile(t,
		[]string{filepath.Join(repoRoot, "internal/testpb"), filepath.Join(repoRoot, "proto")}, nil,
		[]string{"testpb.proto", "legacy.proto", "defaults.proto", "importedpb/imported.proto"},
		"module=github.com/phaser-go/phaser")
	resp, err := run(req)
	if err != nil {
		t.Fatal(err)
	}
	// The protogo variant of the same schemas, in packages of their own.
	req = compile(t,
		[]string{filepath.Join(repoRoot, "internal/testpb"), filepath.Join(repoRoot, "proto")}, nil,
		[]string{"testpb.proto", "importedpb/imported.proto"},
		"module=github.com/phaser-go/phaser,protogo=true,package_suffix=protogo")
	variant, err := run(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.File = append(resp.File, variant.File...)
	// The ROS1 wire test schema, in both frontends (the ROS frontend's in
	// a Go package of its own).
	for _, param := range []string{"", ",frontend=ros,Mroswire/roswire.proto=github.com/phaser-go/phaser/internal/testpb/roswire/roswireros"} {
		req = compile(t,
			[]string{filepath.Join(repoRoot, "internal/testpb"), filepath.Join(repoRoot, "proto")}, nil,
			[]string{"roswire/roswire.proto"}, "module=github.com/phaser-go/phaser"+param)
		wire, err := run(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.File = append(resp.File, wire.File...)
	}
	checkGolden(t, resp, "internal/testpb")
}

// TestGoldenROSMsgs regenerates ros/msgs (frontend=ros, ros_metadata).
func TestGoldenROSMsgs(t *testing.T) {
	req := compile(t,
		[]string{filepath.Join(repoRoot, "ros/msgs"), filepath.Join(repoRoot, "proto"), wellKnownDir}, nil,
		[]string{"std_msgs/std_msgs.proto", "geometry_msgs/geometry_msgs.proto", "sensor_msgs/sensor_msgs.proto"},
		"module=github.com/phaser-go/phaser,frontend=ros,ros_metadata=true")
	resp, err := run(req)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, resp, "ros/msgs")
}

// TestGoldenGRPC regenerates the handles of the gRPC codec's test service
// (grpccodec/internal/echopb).
func TestGoldenGRPC(t *testing.T) {
	req := compile(t, []string{filepath.Join(repoRoot, "grpccodec/internal/echopb"), wellKnownDir}, nil,
		[]string{"echo.proto"}, "module=github.com/phaser-go/phaser")
	resp, err := run(req)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, resp, "grpccodec/internal/echopb")
}

// TestGoldenExamples regenerates the quickstart example's handles, as
// scripts/example and scripts/generate make them (paths=source_relative,
// from examples/quickstart).
func TestGoldenExamples(t *testing.T) {
	req := compile(t, []string{filepath.Join(repoRoot, "examples/quickstart")}, nil,
		[]string{"robot.proto"}, "paths=source_relative")
	resp, err := run(req)
	if err != nil {
		t.Fatal(err)
	}
	checkGoldenIn(t, resp, "examples/quickstart", ".")
}

// TestGoldenBench regenerates the bench module's phaser-go handles, in both
// frontends, as scripts/generate and bench/generate make them.
func TestGoldenBench(t *testing.T) {
	paths := []string{filepath.Join(repoRoot, "bench/schema"), filepath.Join(repoRoot, "proto")}
	const mod = "module=github.com/phaser-go/phaser/bench"
	resp, err := run(compile(t, paths, nil, []string{"bench.proto"}, mod))
	if err != nil {
		t.Fatal(err)
	}
	ros, err := run(compile(t, paths, nil, []string{"bench.proto"}, mod+",frontend=ros,package_suffix=phaserros"))
	if err != nil {
		t.Fatal(err)
	}
	resp.File = append(resp.File, ros.File...)
	checkGoldenIn(t, resp, "bench", "gen")
}

// TestGoldenWellKnown regenerates types/known from the .proto sources
// scripts/generate uses (Debian's libprotobuf-dev, or $WELL_KNOWN_PROTOS).
// Without them it skips, unless $WELL_KNOWN_PROTOS is set (scripts/test
// sets it): protobuf-go's compiled-in descriptors of the same files carry
// no comments, which the generated files do.
func TestGoldenWellKnown(t *testing.T) {
	files := []string{
		"google/protobuf/timestamp.proto", "google/protobuf/duration.proto",
		"google/protobuf/wrappers.proto", "google/protobuf/empty.proto",
		"google/protobuf/struct.proto", "google/protobuf/field_mask.proto",
		"google/protobuf/source_context.proto",
	}
	srcs := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(wellKnownDir, f))
		if err != nil {
			if os.Getenv(envWellKnown) != "" {
				t.Fatal(err)
			}
			t.Skipf("%v: the well-known .proto sources are missing (scripts/install-protoc installs them); protobuf-go's descriptors of them carry no comments to compare", err)
		}
		srcs[f] = string(b)
	}
	for _, param := range []string{"", "module=github.com/phaser-go/phaser"} { // module= gives the same files
		resp, err := run(compile(t, nil, srcs, files, param))
		if err != nil {
			t.Fatal(err)
		}
		linked, err := run(linkedWellKnown(t, srcs, param))
		if err != nil {
			t.Fatal(err)
		}
		resp.File = append(resp.File, linked.File...)
		checkGolden(t, resp, "types/known")
	}
}

// linkedWellKnown is the request for type.proto and api.proto that
// scripts/generate makes: protobuf-go's descriptors of them (knowndesc),
// with the comments of their older sources when srcs has them.
func linkedWellKnown(t *testing.T, srcs map[string]string, param string) *pluginpb.CodeGeneratorRequest {
	t.Helper()
	files := []string{"google/protobuf/type.proto", "google/protobuf/api.proto"}
	var comments *descriptorpb.FileDescriptorSet
	if len(srcs) > 0 {
		older := map[string]string{}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(wellKnownDir, f))
			if err != nil {
				t.Fatal(err)
			}
			older[f] = string(b)
		}
		comments = &descriptorpb.FileDescriptorSet{File: compile(t, nil, older, files, "").ProtoFile}
	}
	set, err := knowndesc.Set(files, comments)
	if err != nil {
		t.Fatal(err)
	}
	return &pluginpb.CodeGeneratorRequest{
		FileToGenerate:  files,
		Parameter:       proto.String(param),
		CompilerVersion: &pluginpb.Version{Major: proto.Int32(3), Minor: proto.Int32(21), Patch: proto.Int32(12)},
		ProtoFile:       set.File,
	}
}

// generateSource runs the generator on one in-memory .proto file.
func generateSource(t *testing.T, src, param string) (*pluginpb.CodeGeneratorResponse, error) {
	t.Helper()
	srcs := map[string]string{"x.proto": src}
	opts, err := os.ReadFile(filepath.Join(repoRoot, "proto/phaser/options.proto"))
	if err != nil {
		t.Fatal(err)
	}
	srcs["phaser/options.proto"] = string(opts)
	return run(compile(t, nil, srcs, []string{"x.proto"}, param))
}

const simpleProto = `syntax = "proto3";
package x;
option go_package = "example.com/xpb";
message M { int32 a = 1; }
`

func TestGroupIsAnError(t *testing.T) {
	_, err := generateSource(t, `syntax = "proto2";
package x;
option go_package = "example.com/xpb";
message M {
  optional group G = 1 { optional int32 a = 2; }
}
`, "")
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "group") {
		t.Fatalf("error = %v, want one about groups", err)
	}
}

func TestParameters(t *testing.T) {
	for _, tc := range []struct{ param, want string }{
		{"bogus=1", `unknown parameter "bogus"`},
		{"frontend=cpp", `frontend "cpp"`},
		{"package_suffix=1x", "package_suffix"},
		{"ros_metadata=maybe", "ros_metadata"},
		// As in C++: ROS metadata needs a data type it can infer.
		{"ros_metadata", "cannot infer the ROS data type"},
		{"protogo=2", "protogo"},
		{"import_mapping=paths", "import_mapping"},
	} {
		_, err := generateSource(t, simpleProto, tc.param)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want one containing %q", tc.param, err, tc.want)
		}
	}
	for _, param := range []string{"", "frontend=ros", "frontend=protobuf", "frontend=", "protogo", "active_message=true", "package_suffix=ph", "paths=source_relative", "import_mapping=go_package", "import_mapping=handles"} {
		if _, err := generateSource(t, simpleProto, param); err != nil {
			t.Errorf("%q: %v", param, err)
		}
	}
}

func TestOutputNames(t *testing.T) {
	for _, tc := range []struct{ param, want string }{
		{"", "example.com/xpb/xpbphaser/x.phaser.go"},
		{"paths=source_relative", "xpbphaser/x.phaser.go"},
		{"package_suffix=ph", "example.com/xpb/xpbph/x.phaser.go"},
		{"module=example.com", "xpb/xpbphaser/x.phaser.go"},
	} {
		resp, err := generateSource(t, simpleProto, tc.param)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.File) != 1 || resp.File[0].GetName() != tc.want {
			var names []string
			for _, f := range resp.File {
				names = append(names, f.GetName())
			}
			t.Errorf("%q: files %v, want [%s]", tc.param, names, tc.want)
		}
	}
}

func TestArraySizeValidation(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{`int32 a = 1 [(phaser.array_size) = 3];`, "non-map repeated"},
		{`map<int32, int32> a = 1 [(phaser.array_size) = 3];`, "non-map repeated"},
		{`repeated int32 a = 1 [(phaser.array_size) = 0];`, "greater than 0"},
		{`repeated int32 a = 1 [(phaser.array_size) = 3];`, ""},
	} {
		_, err := generateSource(t, `syntax = "proto3";
package x;
import "phaser/options.proto";
option go_package = "example.com/xpb";
message M { `+tc.field+` }
`, "")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.field, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error = %v, want one containing %q", tc.field, err, tc.want)
		}
	}
}

// TestNameClashes checks that accessors never collide, whatever the field
// names: earlier fields keep their names, later ones and those that clash
// with the handle's own methods get underscores.
func TestNameClashes(t *testing.T) {
	resp, err := generateSource(t, `syntax = "proto3";
package x;
option go_package = "example.com/xpb";
message M {
  string name_bytes = 1;
  string name = 2;
  bool has_value = 3;
  int32 value = 4;
  int32 which_pick = 5;
  oneof pick { int32 p = 6; }
  bytes bytes = 7;
  int32 clear = 8;
  string set_x_bytes = 9;
  string x = 10;
  int32 phaser_type = 11;
  string title = 12;
  string set_title = 13;
  int32 mutable_part = 14;
  M part = 15;
}
`, "")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]bool{}
	for _, line := range strings.Split(resp.File[0].GetContent(), "\n") {
		if !strings.HasPrefix(line, "func (x M) ") && !strings.HasPrefix(line, "func (M) ") {
			continue
		}
		name := line[strings.Index(line, ") ")+2:]
		name = name[:strings.IndexByte(name, '(')]
		if methods[name] {
			t.Errorf("method %s generated twice", name)
		}
		methods[name] = true
	}
	for _, m := range []string{"NameBytes", "Name_", "HasValue", "Value_", "WhichPick", "WhichPick_", "Bytes", "Bytes_", "Clear", "Clear_", "PhaserType", "PhaserType_", "SetXBytes", "X_",
		// protoc-gen-go's rule: a later field whose accessors would clash
		// takes an underscore on all of them.
		"Title", "SetTitle", "SetTitle_", "SetSetTitle_", "HasSetTitle_", "MutablePart", "Part_", "MutablePart_", "HasPart_"} {
		if !methods[m] {
			t.Errorf("no method %s; have %v", m, methods)
		}
	}
}

// plugin returns the plugin binary: $PROTOC_GEN_PHASER_GO's, or one it
// builds.
func plugin(t *testing.T) string {
	if bin := os.Getenv(envPlugin); bin != "" {
		if !filepath.IsAbs(bin) {
			bin = filepath.Join(repoRoot, bin)
		}
		return bin
	}
	if testing.Short() {
		t.Skip("builds the plugin")
	}
	bin := filepath.Join(t.TempDir(), "protoc-gen-phaser-go")
	build := exec.Command("go", "build", "-o", bin, "github.com/phaser-go/phaser/protoc-gen-phaser-go")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestVersion runs the plugin binary: --version, and requests on stdin.
func TestVersion(t *testing.T) {
	bin := plugin(t)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "protoc-gen-phaser-go " + gen.Version + "\n"; string(out) != want {
		t.Errorf("--version printed %q, want %q", out, want)
	}

	// As a plugin: a request on stdin, a response on stdout; an error is
	// reported in the response, not by a crash.
	req := compile(t, nil, map[string]string{"x.proto": simpleProto}, []string{"x.proto"}, "frontend=cpp")
	in, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err == nil {
		resp := new(pluginpb.CodeGeneratorResponse)
		if err := proto.Unmarshal(out, resp); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.GetError(), "frontend") {
			t.Errorf("response error = %q, want one about frontend", resp.GetError())
		}
	} else if !strings.Contains(stderr.String(), "frontend") {
		t.Errorf("plugin failed with %v, stderr %q; want a message about frontend", err, stderr.String())
	}
	req.Parameter = nil
	in, _ = proto.Marshal(req)
	cmd = exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	out, err = cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	resp := new(pluginpb.CodeGeneratorResponse)
	if err := proto.Unmarshal(out, resp); err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil || len(resp.File) != 1 || !strings.Contains(resp.File[0].GetContent(), "func NewM(") {
		t.Errorf("response: error %q, %d files", resp.GetError(), len(resp.File))
	}
}

func TestTypesWithoutHandles(t *testing.T) {
	for _, tc := range []struct{ imp, field, want string }{
		{"google/protobuf/struct.proto", "google.protobuf.Struct s = 1;", ""},
		{"google/protobuf/struct.proto", "map<string, google.protobuf.Value> s = 1;", ""},
		{"google/protobuf/struct.proto", "google.protobuf.NullValue s = 1;", ""},
		{"google/protobuf/field_mask.proto", "google.protobuf.FieldMask s = 1;", ""},
		{"google/protobuf/api.proto", "repeated google.protobuf.Api s = 1;", ""},
		{"google/protobuf/type.proto", "google.protobuf.Type s = 1;", ""},
		{"google/protobuf/descriptor.proto", "google.protobuf.FileDescriptorProto s = 1;", "no Phaser handles"},
		{"phaser/options.proto", "phaser.RosField s = 1;", "no Phaser handles"},
		{"google/protobuf/any.proto", "repeated google.protobuf.Any s = 1;", ""},
		{"google/protobuf/wrappers.proto", "map<int32, google.protobuf.Int64Value> s = 1;", ""},
	} {
		_, err := generateSource(t, `syntax = "proto3";
package x;
import "`+tc.imp+`";
option go_package = "example.com/xpb";
message M { `+tc.field+` }
`, "")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.field, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error = %v, want one containing %q", tc.field, err, tc.want)
		}
	}
}

// TestROSMetadata generates ROS metadata for a message with a ROS data type
// and checks the md5sum against the one ROS publishes for std_msgs/String.
func TestROSMetadata(t *testing.T) {
	resp, err := generateSource(t, `syntax = "proto3";
package std_msgs.proto;
option go_package = "example.com/stdmsgs";
message String { string data = 1; }
`, "ros_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, f := range resp.GetFile() {
		src += f.GetContent()
	}
	for _, want := range []string{
		`ROSDataType() string { return "std_msgs/String" }`,
		`ROSMD5() string { return "992ce8a1687cec8c8bd883ec73ca41d1" }`,
		`ROSDefinition() string { return "string data`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated code lacks %s", want)
		}
	}
}

// TestComments checks that the .proto comments (leading, trailing) and
// deprecations reach the Go declarations, as protoc-gen-go carries them.
func TestComments(t *testing.T) {
	resp, err := generateSource(t, `syntax = "proto3";
package c;
option go_package = "example.com/c";

// Level says how loud.
enum Level {
  // Nothing at all.
  LEVEL_NONE = 0;
  LEVEL_LOUD = 1; // Turned up.
  LEVEL_OLD = 2 [deprecated = true];
}

// Ping is sent to check a peer.
message Ping {
  option deprecated = true;

  // The sequence number.
  uint32 seq = 1; // Wraps at 2^32.
  string note = 2 [deprecated = true];

  // What to ping.
  oneof target {
    string host = 3;
  }
}
`, "")
	if err != nil {
		t.Fatal(err)
	}
	out := resp.File[0].GetContent()
	for _, want := range []string{
		"// Level is the enum c.Level.\n//\n// Level says how loud.\ntype Level int32",
		"\t// Nothing at all.\n\tLevel_LEVEL_NONE Level = 0\n",
		"\tLevel_LEVEL_LOUD Level = 1 // Turned up.\n",
		"\t// Deprecated: Marked as deprecated in x.proto.\n\tLevel_LEVEL_OLD Level = 2\n",
		"// Ping is sent to check a peer.\n//\n// Ping is a handle on a c.Ping message",
		"// message and ignores writes.\n//\n// Deprecated: Marked as deprecated in x.proto.\ntype Ping phaserimpl.Msg",
		"// Seq returns field seq (1).\n//\n// The sequence number.\n//\n// Wraps at 2^32.\nfunc (x Ping) Seq() uint32",
		"// SetNote sets field note (2).\n//\n// Deprecated: Marked as deprecated in x.proto.\nfunc (x Ping) SetNote(v string)",
		"oneof target, or 0.\n//\n// What to ping.\ntype Ping_TargetCase uint32",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

// TestGoldenProtoGo regenerates the protoc-gen-go output scripts/generate
// checks in (Phaser's options and the test schemas' Go types), with
// protoc-gen-go at the version go.mod pins, run on the request protoc
// would send.
func TestGoldenProtoGo(t *testing.T) {
	protocGenGo := func() *exec.Cmd {
		if bin := os.Getenv(envProtocGenGo); bin != "" {
			if !filepath.IsAbs(bin) {
				bin = filepath.Join(repoRoot, bin)
			}
			return exec.Command(bin)
		}
		return exec.Command("go", "run", "google.golang.org/protobuf/cmd/protoc-gen-go")
	}
	for _, tc := range []struct {
		paths []string
		files []string
	}{
		{[]string{"proto"}, []string{"phaser/options.proto"}},
		{[]string{"internal/testpb", "proto"}, []string{"testpb.proto", "legacy.proto", "defaults.proto", "importedpb/imported.proto"}},
	} {
		var paths []string
		for _, p := range tc.paths {
			paths = append(paths, filepath.Join(repoRoot, p))
		}
		req, err := proto.Marshal(compile(t, paths, nil, tc.files, "module=github.com/phaser-go/phaser"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := protocGenGo()
		cmd.Dir = repoRoot
		cmd.Stdin = bytes.NewReader(req)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("protoc-gen-go: %v\n%s", err, stderr.Bytes())
		}
		resp := new(pluginpb.CodeGeneratorResponse)
		if err := proto.Unmarshal(out, resp); err != nil {
			t.Fatal(err)
		}
		if resp.GetError() != "" {
			t.Fatalf("protoc-gen-go: %s", resp.GetError())
		}
		checkGolden(t, resp)
	}
}

// TestImportMappingHandles checks import_mapping=handles, the parameters
// rules_go's go_proto_library passes: M of the files to generate names
// their handles' package and must match it; M of imported files (here a
// protoc-gen-go library's) is ignored.
func TestImportMappingHandles(t *testing.T) {
	srcs := map[string]string{
		"y.proto": `syntax = "proto3";
package y;
option go_package = "example.com/ypb";
message Y { int32 b = 1; }
`,
		"x.proto": `syntax = "proto3";
package x;
import "y.proto";
option go_package = "example.com/xpb";
message X { y.Y y = 1; }
`,
		"nopkg.proto": `syntax = "proto3";
package n;
message N { int32 c = 1; }
`,
	}
	for _, tc := range []struct{ file, param, want string }{
		{"x.proto", "import_mapping=handles,Mx.proto=example.com/xpb/xpbphaser,My.proto=example.com/ypb", `"example.com/ypb/ypbphaser"`},
		{"x.proto", "import_mapping=handles,Mx.proto=example.com/xpb/xpbphaser,My.proto=example.com/ypb/ypbphaser", `"example.com/ypb/ypbphaser"`},
		{"x.proto", "import_mapping=handles,package_suffix=h,Mx.proto=example.com/xpb/xpbh", `"example.com/ypb/ypbh"`},
		{"x.proto", "import_mapping=handles,Mx.proto=example.com/xpb", "error: is not the handles' package: go_package example.com/xpb gives example.com/xpb/xpbphaser"},
		{"x.proto", "import_mapping=handles,package_suffix=h,Mx.proto=example.com/xpb/xpbphaser", "error: gives example.com/xpb/xpbh"},
		{"nopkg.proto", "import_mapping=handles,Mnopkg.proto=example.com/npb/npbphaser", "error: nopkg.proto: no go_package option"},
	} {
		resp, err := run(compile(t, nil, srcs, []string{tc.file}, tc.param))
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error = %v, want one containing %q", tc.param, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.param, err)
			continue
		}
		if src := resp.File[0].GetContent(); !strings.Contains(src, tc.want) {
			t.Errorf("%s: the generated code does not import %s (the handles of y.proto):\n%s", tc.param, tc.want, src)
		}
	}
	// Without import_mapping=handles, M names the Go package, as for
	// protoc-gen-go: the handles go below it.
	resp, err := run(compile(t, nil, srcs, []string{"x.proto"}, "Mx.proto=example.com/other"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.File[0].GetName(), "example.com/other/xpbphaser/x.phaser.go"; got != want {
		t.Errorf("output %s, want %s", got, want)
	}
}

// TestShippedImportsBuild generates a file that imports the ROS messages
// phaser-go ships (ros/msgs) and a well-known type, with another
// package_suffix and the ROS frontend, and builds the output: the imports
// name the shipped packages, not the suffixed ones.
func TestShippedImportsBuild(t *testing.T) {
	// Under Bazel the test sees only its runfiles (the .proto files and
	// generated handles), not the module's sources to build with:
	// scripts/test runs it with go test.
	gobin := goForBuild(t)
	protoDir := t.TempDir()
	src := `syntax = "proto3";
package x;
import "std_msgs/std_msgs.proto";
import "sensor_msgs/sensor_msgs.proto";
import "google/protobuf/duration.proto";
option go_package = "example.com/xpb";
message Stamped {
  std_msgs.Header header = 1;
  sensor_msgs.Imu imu = 2;
  repeated std_msgs.Header history = 3;
  google.protobuf.Duration age = 4;
}
`
	if err := os.WriteFile(filepath.Join(protoDir, "x.proto"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, param := range []string{"frontend=ros,package_suffix=ros", "package_suffix=ph", ""} {
		req := compile(t, []string{protoDir, filepath.Join(repoRoot, "ros/msgs"), filepath.Join(repoRoot, "proto")}, nil, []string{"x.proto"}, param)
		resp, err := run(req)
		if err != nil {
			t.Fatalf("%q: %v", param, err)
		}
		content := resp.File[0].GetContent()
		for _, want := range []string{`"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"`, `"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"`} {
			if !strings.Contains(content, want) {
				t.Errorf("%q: the output does not import %s", param, want)
			}
		}
		if out, err := buildInModule(t, gobin, content); err != nil {
			t.Errorf("%q: the output does not build: %v\n%s", param, err, out)
		}
	}
}

// buildInModule builds content, a generated file, as a package of this
// module (an overlay), so that the packages it imports resolve from the
// checkout. It returns go build's output.
func buildInModule(t *testing.T, gobin, content string) ([]byte, error) {
	t.Helper()
	return buildFiles(t, gobin, map[string]string{"internal/generatedbuild/x.phaser.go": content})
}

// buildFiles builds the packages of files (by path in this module) as
// packages of this module, through an overlay.
func buildFiles(t *testing.T, gobin string, files map[string]string) ([]byte, error) {
	t.Helper()
	return goInModule(t, gobin, files, "build")
}

// goInModule runs the go command (args; with only the subcommand, on the
// packages of files) with files (by path in this module) laid over the
// module.
func goInModule(t *testing.T, gobin string, files map[string]string, args ...string) ([]byte, error) {
	t.Helper()
	dir := t.TempDir()
	replace := map[string]string{}
	pkgs := map[string]bool{}
	for name, content := range files {
		file := filepath.Join(dir, strings.ReplaceAll(name, "/", "_"))
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(repoRoot, name)] = file
		pkgs["./"+path.Dir(name)] = true
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmdArgs := []string{args[0], "-overlay", filepath.Join(dir, "overlay.json")}
	if len(args) > 1 {
		cmdArgs = append(cmdArgs, args[1:]...)
	} else {
		for p := range pkgs {
			cmdArgs = append(cmdArgs, p)
		}
	}
	cmd := exec.Command(gobin, cmdArgs...)
	cmd.Dir = repoRoot
	return cmd.CombinedOutput()
}

// goForBuild returns the go command, skipping the test where it cannot
// build generated code (see TestShippedImportsBuild).
func goForBuild(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with:", err)
	}
	if _, err := os.Stat(filepath.Join(repoRoot, "runtime", "msg.go")); err != nil {
		t.Skip("the module's sources are not here to build:", err)
	}
	return gobin
}

// TestPackageNameClashes generates a file whose message names are the
// names of other messages' functions and companion types (NewFoo, ReadFoo,
// FooView, FooList, ...) and whose nested names are those of oneof case
// types and constants, and builds it: every package-level declaration
// gets a name of its own (names.go), and the .proto's names are kept.
func TestPackageNameClashes(t *testing.T) {
	gobin := goForBuild(t)
	src := `syntax = "proto3";
package x;
option go_package = "example.com/xpb";
message Foo {
  message KindCase { int32 a = 1; }
  message A_Case { int32 a = 1; }
  oneof kind { int32 a = 1; string b = 2; Foo c = 3; }
  int32 v = 4;
  repeated Foo foos = 5;
  map<string, Foo> children = 6;
  FooView view_of = 7;
}
message FooView { int32 x = 1; string s = 2; }
message FooScalars { int32 x = 1; }
message FooFields { int32 x = 1; }
message FooList { int32 x = 1; repeated FooList more = 2; }
message Foo_Kind_NotSet { int32 x = 1; }
message NewFoo { int32 x = 1; }
message NewFooIn { int32 x = 1; }
message ReadFoo { int32 x = 1; }
message ReadFooInto { int32 x = 1; }
message OpenFoo { int32 x = 1; }
message FooOf { int32 x = 1; }
message FooFromAny { int32 x = 1; }
message MutableAnyFoo { int32 x = 1; }
enum E { E_ZERO = 0; }
message NewE { E e = 1; }
`
	for _, param := range []string{"", "frontend=ros"} {
		resp, err := generateSource(t, src, param)
		if err != nil {
			t.Fatalf("%q: %v", param, err)
		}
		content := resp.File[0].GetContent()
		// The .proto's names are the messages' type names.
		for _, m := range []string{"Foo", "Foo_KindCase", "Foo_A_Case", "FooView", "FooList", "Foo_Kind_NotSet", "NewFoo", "ReadFooInto", "MutableAnyFoo"} {
			if !strings.Contains(content, "\ntype "+m+" ") {
				t.Errorf("%q: no type %s", param, m)
			}
		}
		// The functions and companions that clash take underscores.
		for _, d := range []string{"func NewFoo_(", "func NewFooIn_(", "func ReadFoo_(", "func ReadFooInto_(", "func OpenFoo_(", "func FooOf_(", "func FooFromAny_(", "func MutableAnyFoo_(",
			"type Foo_View ", "type Foo_List ", "type Foo_KindCase_ ", "Foo_Kind_NotSet_ Foo_KindCase_ = 0", "Foo_A_Case_ Foo_KindCase_ = 1"} {
			// (gofmt aligns the constants: any run of blanks)
			re := regexp.MustCompile(`(?m)^\s*` + strings.ReplaceAll(regexp.QuoteMeta(d), " ", `\s+`))
			if !re.MatchString(content) {
				t.Errorf("%q: no %s", param, d)
			}
		}
		if out, err := buildInModule(t, gobin, content); err != nil {
			t.Errorf("%q: the output does not build: %v\n%s", param, err, out)
		}
	}
}

// TestPackageNameClashesAcrossFiles generates a file whose handles refer
// to the messages of another's whose companion types took underscores (a
// repeated field's list, an Assign's Fields, the view of the export data's
// forwarders), alone and with that file, and builds both packages: the two
// files name them alike.
func TestPackageNameClashesAcrossFiles(t *testing.T) {
	gobin := goForBuild(t)
	const base = "github.com/phaser-go/phaser/internal/generatedbuild/"
	srcs := map[string]string{
		"a.proto": `syntax = "proto3";
package a;
option go_package = "` + base + `apb";
message Foo { int32 x = 1; string s = 2; }
message FooView { int32 x = 1; }
message FooList { int32 x = 1; }
message FooFields { int32 x = 1; }
`,
		"b.proto": `syntax = "proto3";
package b;
import "a.proto";
option go_package = "` + base + `bpb";
message Bar {
  a.Foo foo = 1;
  int32 y = 2;
}
message Bars { repeated a.Foo foos = 1; }
`,
	}
	opts, err := os.ReadFile(filepath.Join(repoRoot, "proto/phaser/options.proto"))
	if err != nil {
		t.Fatal(err)
	}
	srcs["phaser/options.proto"] = string(opts)
	files := map[string]string{}
	for _, gen := range [][]string{{"a.proto"}, {"b.proto"}} {
		resp, err := run(compile(t, nil, srcs, gen, ""))
		if err != nil {
			t.Fatalf("%v: %v", gen, err)
		}
		for _, f := range resp.File {
			files[strings.TrimPrefix(f.GetName(), "github.com/phaser-go/phaser/")] = f.GetContent()
		}
	}
	a, b := files["internal/generatedbuild/apb/apbphaser/a.phaser.go"], files["internal/generatedbuild/bpb/bpbphaser/b.phaser.go"]
	if a == "" || b == "" {
		t.Fatalf("generated %v", slices.Collect(maps.Keys(files)))
	}
	for _, want := range []string{"type Foo_View ", "type Foo_List ", "type Foo_Fields "} {
		if !strings.Contains(a, "\n"+want) {
			t.Errorf("a: no %s", want)
		}
	}
	for _, want := range []string{"apbphaser.Foo_List", "apbphaser.Foo_Fields", "apbphaser.Foo_View"} {
		if !strings.Contains(b, want) {
			t.Errorf("b does not refer to %s", want)
		}
	}
	if out, err := buildFiles(t, gobin, files); err != nil {
		t.Errorf("the output does not build: %v\n%s", err, out)
	}
}

// The .proto scalar types, and those of them a map key may have.
var (
	scalarTypes = []string{"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
		"fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"}
	mapKeyTypes = []string{"int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string"}
)

// TestEveryFieldShapeBuilds generates, for each field type and each
// cardinality (singular, proto3 optional, repeated, a fixed-size array, a
// oneof member, a map's value and key), a message whose one field it is, in
// proto3 and in proto2 (with and without defaults, required), under both
// frontends, builds the output, and runs shapeProgram over every message:
// a message with nothing else to declare the variables a codec shares is
// where a stray declaration shows, and one field alone is where a codec's
// first or last step goes wrong.
func TestEveryFieldShapeBuilds(t *testing.T) {
	gobin := goForBuild(t)
	types := append(scalarTypes[:len(scalarTypes):len(scalarTypes)], "E", "Leaf", "google.protobuf.Timestamp", "google.protobuf.Any")
	keys := mapKeyTypes
	name := func(s string) string { // google.protobuf.Any: GoogleProtobufAny
		var n string
		for _, part := range strings.Split(s, ".") {
			n += strings.ToUpper(part[:1]) + part[1:]
		}
		return n
	}
	var p3, p2 strings.Builder
	header := func(b *strings.Builder, syntax, pkg string) {
		fmt.Fprintf(b, "syntax = %q;\npackage %s;\nimport \"google/protobuf/timestamp.proto\";\nimport \"google/protobuf/any.proto\";\nimport \"phaser/options.proto\";\noption go_package = \"example.com/xpb\";\n", syntax, pkg)
		label := ""
		if syntax == "proto2" {
			label = "optional "
		}
		fmt.Fprintf(b, "enum E { E_ZERO = 0; E_ONE = 1; }\nmessage Leaf { %sint32 a = 1; }\nmessage Empty {}\n", label)
	}
	header(&p3, "proto3", "x")
	header(&p2, "proto2", "y")
	for _, ty := range types {
		n := name(ty)
		fmt.Fprintf(&p3, "message Single%s { %s f = 1; }\n", n, ty)
		fmt.Fprintf(&p3, "message Repeated%s { repeated %s f = 1; }\n", n, ty)
		fmt.Fprintf(&p3, "message Oneof%s { oneof o { %s f = 1; } }\n", n, ty)
		fmt.Fprintf(&p3, "message MapValue%s { map<string, %s> f = 1; }\n", n, ty)
		fmt.Fprintf(&p3, "message Array%s { repeated %s f = 1 [(phaser.array_size) = 3]; }\n", n, ty)
		fmt.Fprintf(&p2, "message Optional%s { optional %s f = 1; }\n", n, ty)
		fmt.Fprintf(&p2, "message Required%s { required %s f = 1; }\n", n, ty)
		fmt.Fprintf(&p2, "message Repeated%s { repeated %s f = 1; }\n", n, ty)
		if !strings.Contains(ty, ".") && ty != "Leaf" {
			fmt.Fprintf(&p3, "message Optional%s { optional %s f = 1; }\n", n, ty)
		}
	}
	for _, k := range keys {
		fmt.Fprintf(&p3, "message MapKey%s { map<%s, Leaf> f = 1; }\n", name(k), k)
	}
	p2.WriteString(`message Defaults {
  optional int32 i = 1 [default = -7];
  optional double d = 2 [default = inf];
  optional float f = 3 [default = nan];
  optional string s = 4 [default = "é\"\\"];
  optional bytes b = 5 [default = "\001\377"];
  optional E e = 6 [default = E_ONE];
  optional bool t = 7 [default = true];
  optional uint64 u = 8 [default = 18446744073709551615];
}
message Packed { repeated int32 p = 1 [packed = true]; repeated int32 u = 2 [packed = false]; }
message Extendable { extensions 100 to 199; }
extend Extendable { optional int32 ext = 100; }
`)
	p3.WriteString("message Nothing { Empty e = 1; repeated Empty es = 2; }\n")
	// Messages stored inside their holders (the ROS frontend's format 3)
	// nested deep, each wide: a walk charges each one once.
	p3.WriteString("message Wide {")
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&p3, " double d%d = %d;", i, i)
	}
	p3.WriteString(" }\nmessage Deep1 { Wide w = 1; Wide v = 2; }\n")
	for d := 2; d <= 5; d++ {
		fmt.Fprintf(&p3, "message Deep%d { Deep%d x = 1; int32 k = 2; }\n", d, d-1)
	}
	top := regexp.MustCompile(`(?m)^message (\w+)`)
	for _, src := range []string{p3.String(), p2.String()} {
		var names []string
		for _, m := range top.FindAllStringSubmatch(src, -1) {
			names = append(names, m[1])
		}
		runShapes(t, gobin, "", src, names)
	}
}

// runShapes generates src under both frontends, builds the output and
// runs shapeProgram over the named messages; what names the run in
// errors and logs.
func runShapes(t *testing.T, gobin, what, src string, names []string) {
	t.Helper()
	for _, param := range []string{"", "frontend=ros"} {
		resp, err := generateSource(t, src, param)
		if err != nil {
			t.Errorf("%s%q: %v\n%s", what, param, err, src)
			continue
		}
		files := map[string]string{
			"internal/generatedbuild/x.phaser.go": resp.File[0].GetContent(),
			"internal/generatedbuild/run/main.go": shapeProgram(names),
		}
		out, err := goInModule(t, gobin, files, "run", "./internal/generatedbuild/run")
		if err != nil {
			t.Errorf("%s%q: the output does not build, or its messages do not round-trip: %v\n%s\n%s", what, param, err, out, src)
		}
		t.Logf("%s%q: %s", what, param, bytes.TrimSpace(out))
	}
}

// shapeProgram is a program that fills a message of each of the named
// types of the package at internal/generatedbuild through its
// ProtoReflect (every field, two elements of each list and map, one
// member of each oneof, nested messages to a depth of 3), in payload
// formats 3 and 2, and checks that
// its generated protobuf encoding is protobuf-go's deterministic one of
// the same message (ToProto), that it decodes back to the same encoding,
// that a read-only handle on its payload, its Clone, a CopyFrom into
// each format, a Clear followed by the same fill, a decoding into a filled
// message and protobuf-go's text format and JSON written back through the
// view all encode alike, that its ROS1 serialization (where the type has
// one) round-trips too, into a filled message as well, and
// that a copy of its payload continued with Open and filled again encodes
// as the message filled again does.
func shapeProgram(names []string) string {
	var b strings.Builder
	b.WriteString(`package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	x "github.com/phaser-go/phaser/internal/generatedbuild"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

var rosChecked int

var openMem = make([]byte, 4<<20)

type handle interface {
	Bytes() []byte
	Clear()
	MarshalProto() ([]byte, error)
	UnmarshalProto([]byte) error
	ToProto() (protoreflect.ProtoMessage, error)
	ProtoReflect() protoreflect.Message
	MarshalROS() ([]byte, error)
	UnmarshalROS([]byte) error
}

func value(fd protoreflect.FieldDescriptor, k int) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(k%2 == 0)
	case protoreflect.EnumKind:
		vs := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vs.Get((k + 1) % vs.Len()).Number())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(-1000003 * (k + 1)))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(-100000000007 * (k + 1)))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(4000000001 - k))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(1<<63 + uint64(k))
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(k) + 1.5)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(float64(k) - 2.25)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(fmt.Sprint("v", k))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte{byte(k), 0xff, 0})
	}
	panic(fd.Kind())
}

func key(fd protoreflect.FieldDescriptor, k int) protoreflect.MapKey {
	if fd.Kind() == protoreflect.StringKind {
		return protoreflect.ValueOfString(fmt.Sprint("k", k)).MapKey()
	}
	return value(fd, k).MapKey()
}

func fill(m protoreflect.Message, depth int) {
	if depth > 3 {
		return
	}
	fds := m.Descriptor().Fields()
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() && o.Fields().Get(0) != fd {
			continue
		}
		switch {
		case fd.IsList():
			l := m.Mutable(fd).List()
			for k := 0; k < 2; k++ {
				v := value0(fd, l, k, depth)
				if k < l.Len() { // a fixed-size array has its elements
					l.Set(k, v)
				} else {
					l.Append(v)
				}
			}
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for k := 0; k < 2; k++ {
				if fd.MapValue().Message() != nil {
					fill(mp.Mutable(key(fd.MapKey(), k)).Message(), depth+1)
				} else {
					mp.Set(key(fd.MapKey(), k), value(fd.MapValue(), k))
				}
			}
		case fd.Message() != nil:
			fill(m.Mutable(fd).Message(), depth+1)
		default:
			m.Set(fd, value(fd, 1))
		}
	}
}

func value0(fd protoreflect.FieldDescriptor, l protoreflect.List, k, depth int) protoreflect.Value {
	if fd.Message() == nil {
		return value(fd, k)
	}
	e := l.NewElement()
	fill(e.Message(), depth+1)
	return e
}

// formats are the payload formats each message is checked in.
var formats = []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2}

var rng = rand.New(rand.NewPCG(1, 2))

// hostile reads 64 damaged copies of payload p (a random byte set to a
// random value, sometimes then cut at a random length) as a read-only
// message and through Open, encodes each in every wire format and prints
// it, and fails on a panic.
func hostile(name string, p []byte, o ops, fail func(string, ...any)) {
	for range 64 {
		b := bytes.Clone(p)
		b[rng.IntN(len(b))] = byte(rng.Uint32())
		if rng.IntN(4) == 0 {
			b = b[:rng.IntN(len(b))]
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					fail("a damaged payload panics: %v\n%x", r, b)
				}
			}()
			if m, err := o.read(b); err == nil {
				m.MarshalProto()
				m.MarshalROS()
				m.ToProto()
				_ = fmt.Sprint(m)
			}
			mem := make([]byte, len(b)+4096)
			copy(mem, b)
			if m, err := o.open(mem); err == nil {
				m.MarshalProto()
				fill(m.ProtoReflect(), 0)
				m.MarshalProto()
			}
		}()
	}
}

// ops are the generated functions and typed methods of one message type.
type ops struct {
	newIn    func(...runtime.Options) handle
	open     func([]byte) (handle, error)
	read     func([]byte) (handle, error)
	clone    func(handle) handle
	copyFrom func(dst, src handle) bool
}

func check(name string, o ops) (failed bool) {
	for _, v := range formats {
		newX := func() handle { return o.newIn(runtime.Options{Version: v}) }
		failed = checkIn(fmt.Sprintf("%s (format %d)", name, v), newX, o) || failed
	}
	return failed
}

func checkIn(name string, newX func() handle, o ops) (failed bool) {
	fail := func(format string, a ...any) {
		fmt.Printf("FAIL %s: %s\n", name, fmt.Sprintf(format, a...))
		failed = true
	}
	same := func(what string, h handle, want []byte) {
		if got, err := h.MarshalProto(); err != nil || !bytes.Equal(got, want) {
			fail("%s: %v\n got %x\nwant %x", what, err, got, want)
		}
	}
	m := newX()
	fill(m.ProtoReflect(), 0)
	got, err := m.MarshalProto()
	pm, err2 := m.ToProto()
	if err2 != nil {
		fail("ToProto: %v", err2)
		return
	}
	want, err3 := proto.MarshalOptions{Deterministic: true}.Marshal(pm)
	switch {
	case (err == nil) != (err3 == nil):
		fail("MarshalProto: %v, protobuf-go: %v", err, err3)
	case err == nil && !bytes.Equal(got, want):
		fail("MarshalProto\n got %x\nwant %x", got, want)
	case err == nil:
		// Each decoder of those bytes, into a new message or (filled) one
		// that holds fields, which it replaces reusing their blocks; text
		// format and JSON through protobuf-go, written back through the
		// reflection view.
		type decoder struct {
			name   string
			filled bool
			decode func(handle) error
		}
		decoders := []decoder{
			{"UnmarshalProto", false, func(h handle) error { return h.UnmarshalProto(got) }},
			{"UnmarshalProto into a filled message", true, func(h handle) error { return h.UnmarshalProto(got) }},
		}
		if txt, err := prototext.Marshal(pm); err == nil {
			decoders = append(decoders, decoder{"prototext.Unmarshal", false, func(h handle) error {
				return prototext.Unmarshal(txt, h.ProtoReflect().Interface())
			}})
		}
		if js, err := protojson.Marshal(pm); err == nil {
			decoders = append(decoders, decoder{"protojson.Unmarshal", false, func(h handle) error {
				return protojson.Unmarshal(js, h.ProtoReflect().Interface())
			}})
		}
		for _, d := range decoders {
			h := newX()
			if d.filled {
				fill(h.ProtoReflect(), 0)
			}
			if err := d.decode(h); err != nil {
				fail("%s: %v", d.name, err)
			} else {
				same(d.name+" then MarshalProto", h, got)
			}
		}
		if r, err := o.read(m.Bytes()); err != nil {
			fail("Read: %v", err)
		} else {
			same("Read", r, got)
			if rp, err := r.ToProto(); err != nil {
				fail("ToProto of the read-only handle: %v", err)
			} else if b, _ := (proto.MarshalOptions{Deterministic: true}).Marshal(rp); !bytes.Equal(b, want) {
				fail("ToProto of the read-only handle\n got %x\nwant %x", b, want)
			}
		}
		same("Clone", o.clone(m), got)
		for _, v := range formats {
			d := o.newIn(runtime.Options{Version: v})
			if !o.copyFrom(d, m) {
				fail("CopyFrom into format %d failed", v)
			}
			same(fmt.Sprintf("CopyFrom into format %d", v), d, got)
		}
		// Clear, then the same fill, on a message filled once: Clear keeps
		// blocks for the setters that follow.
		c := newX()
		fill(c.ProtoReflect(), 0)
		c.Clear()
		if pm, err := c.ToProto(); err != nil {
			fail("ToProto after Clear: %v", err)
		} else if b, _ := (proto.MarshalOptions{AllowPartial: true}).Marshal(pm); len(b) != 0 {
			fail("Clear left %x", b)
		}
		fill(c.ProtoReflect(), 0)
		same("Clear then fill", c, got)
	}
	if r, err := m.MarshalROS(); err == nil {
		rosChecked++
		back := newX()
		if err := back.UnmarshalROS(r); err != nil {
			fail("UnmarshalROS: %v", err)
		} else if again, err := back.MarshalROS(); err != nil || !bytes.Equal(again, r) {
			fail("UnmarshalROS then MarshalROS: %v\n got %x\nwant %x", err, again, r)
		}
		used := newX()
		fill(used.ProtoReflect(), 0)
		if err := used.UnmarshalROS(r); err != nil {
			fail("UnmarshalROS into a filled message: %v", err)
		} else if again, err := used.MarshalROS(); err != nil || !bytes.Equal(again, r) {
			fail("UnmarshalROS into a filled message then MarshalROS: %v\n got %x\nwant %x", err, again, r)
		}
	}
	// Hostile copies of the payload (a byte changed, or cut short) read
	// through every decoder without a panic.
	hostile(name, m.Bytes(), o, fail)
	// A copy of the payload continued with Open takes the same writes
	// as the message it was copied from.
	{
		// (at least the buffer's full size, which Open requires)
		mem := openMem[:max(len(openMem)/2, 4*len(m.Bytes()))]
		clear(mem)
		copy(mem, m.Bytes())
		op, err := o.open(mem)
		if err != nil {
			fail("Open: %v", err)
			return failed
		}
		fill(op.ProtoReflect(), 0)
		fill(m.ProtoReflect(), 0)
		a, errA := m.MarshalProto()
		b, errB := op.MarshalProto()
		if (errA == nil) != (errB == nil) || !bytes.Equal(a, b) {
			fail("written again after Open: %v %v\n got %x\nwant %x", errB, errA, b, a)
		}
	}
	return failed
}

func main() {
	failed := false
`)
	for _, n := range names {
		fmt.Fprintf(&b, `	failed = check(%[1]q, ops{
		newIn:    func(o ...runtime.Options) handle { return x.New%[1]s(o...) },
		open:     func(b []byte) (handle, error) { return x.Open%[1]s(b) },
		read:     func(b []byte) (handle, error) { return x.Read%[1]s(b) },
		clone:    func(h handle) handle { return h.(x.%[1]s).Clone() },
		copyFrom: func(d, s handle) bool { return d.(x.%[1]s).CopyFrom(s.(x.%[1]s)) },
	}) || failed
`, n)
	}
	b.WriteString(`	if failed {
		os.Exit(1)
	}
	fmt.Println("ok:", rosChecked, "with ROS1 serializations")
}
`)
	return b.String()
}

// TestPackageNameClashesInPackage generates two files of one Go package,
// one with Foo, the other with messages named as Foo's list and view
// (FooList, FooView), and builds the package: names are chosen over the
// package's files.
func TestPackageNameClashesInPackage(t *testing.T) {
	gobin := goForBuild(t)
	const pkg = `option go_package = "github.com/phaser-go/phaser/internal/generatedbuild/cpb";
`
	srcs := map[string]string{
		"c1.proto": `syntax = "proto3";
package c;
` + pkg + `message Foo { int32 x = 1; repeated Foo more = 2; }
`,
		"c2.proto": `syntax = "proto3";
package c;
` + pkg + `message FooList { int32 x = 1; }
message FooView { int32 x = 1; }
message NewFoo { int32 x = 1; }
`,
	}
	opts, err := os.ReadFile(filepath.Join(repoRoot, "proto/phaser/options.proto"))
	if err != nil {
		t.Fatal(err)
	}
	srcs["phaser/options.proto"] = string(opts)
	resp, err := run(compile(t, nil, srcs, []string{"c1.proto", "c2.proto"}, ""))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range resp.File {
		files[strings.TrimPrefix(f.GetName(), "github.com/phaser-go/phaser/")] = f.GetContent()
	}
	c1 := files["internal/generatedbuild/cpb/cpbphaser/c1.phaser.go"]
	for _, want := range []string{"type Foo_List ", "type Foo_View ", "func NewFoo_("} {
		if !strings.Contains(c1, "\n"+want) {
			t.Errorf("c1: no %s", want)
		}
	}
	if out, err := buildFiles(t, gobin, files); err != nil {
		t.Errorf("the output does not build: %v\n%s", err, out)
	}
}

// TestCommentsAreNotDirectives generates a file whose .proto comments are
// written like Go directives (//go:generate, //go:build, //line, on a
// message, a field, an enum value and a oneof) and checks that the output
// holds no directive, so that it builds and go generate runs nothing the
// .proto says, and that the comments are still there.
func TestCommentsAreNotDirectives(t *testing.T) {
	gobin := goForBuild(t)
	resp, err := generateSource(t, `syntax = "proto3";
package x;
option go_package = "example.com/xpb";
//go:generate touch generated-by-a-comment
//go:build ignore
message C {
  //go:noinline
  int32 a = 1; //line c.go:1
  //export Exported
  oneof o { string s = 2; }
}
enum E {
  //go:build never
  E_ZERO = 0; //go:generate false
}
`, "")
	if err != nil {
		t.Fatal(err)
	}
	content := resp.File[0].GetContent()
	for i, line := range strings.Split(content, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "//go:") || strings.HasPrefix(l, "//line ") || strings.HasPrefix(l, "//export ") || strings.Contains(l, " //go:") {
			t.Errorf("line %d is a directive: %s", i+1, line)
		}
	}
	for _, want := range []string{"// go:generate touch generated-by-a-comment", "// go:build ignore", "// go:noinline", "// line c.go:1", "// export Exported", "// go:build never"} {
		if !strings.Contains(content, want) {
			t.Errorf("the comment %q is lost", want)
		}
	}
	if out, err := buildInModule(t, gobin, content); err != nil {
		t.Errorf("the output does not build: %v\n%s", err, out)
	}
}

// TestRandomSchemas generates .proto files of random messages (fixed
// seeds: the same files every run; PHASER_RANDOM_SCHEMAS=N makes N; odd
// seeds proto3, even ones proto2), each with a few fields of random types,
// cardinalities (required, with defaults, packed or not), oneofs and
// field numbers (sparse, up to the largest), some referring to earlier
// messages, and runs shapeProgram over them under both frontends: the combinations of fields that
// TestEveryFieldShapeBuilds does not make (alignment and padding between
// fields of mixed sizes, presence words past the first, oneofs beside
// lists and maps).
func TestRandomSchemas(t *testing.T) {
	gobin := goForBuild(t)
	scalars := append(scalarTypes[:len(scalarTypes):len(scalarTypes)], "E", "google.protobuf.Timestamp", "google.protobuf.Duration")
	keys := mapKeyTypes
	defaults := map[string]string{"double": "-1.5", "float": "inf", "int32": "-3", "int64": "-9000000000", "uint32": "7",
		"uint64": "18446744073709551615", "sint32": "-2", "sint64": "3", "fixed32": "4", "fixed64": "5", "sfixed32": "-6",
		"sfixed64": "-7", "bool": "true", "string": `"d\"é"`, "bytes": `"\001\377"`, "E": "E_NEG"}
	packable := func(ty string) bool {
		return !strings.HasPrefix(ty, "M") && !strings.Contains(ty, ".") && ty != "string" && ty != "bytes"
	}
	seeds := uint64(4) // PHASER_RANDOM_SCHEMAS=N runs N
	if n, err := strconv.ParseUint(os.Getenv("PHASER_RANDOM_SCHEMAS"), 10, 64); err == nil {
		seeds = n
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		proto2 := seed%2 == 0
		var src strings.Builder
		if proto2 {
			src.WriteString(`syntax = "proto2";`)
		} else {
			src.WriteString(`syntax = "proto3";`)
		}
		src.WriteString(`
package x;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
option go_package = "example.com/xpb";
enum E { E_ZERO = 0; E_ONE = 1; E_NEG = -7; }
`)
		var names []string
		for i := range 24 {
			name := fmt.Sprint("M", i)
			names = append(names, name)
			typ := func() string {
				if i > 0 && r.IntN(4) == 0 {
					return names[r.IntN(i)] // an earlier message (or this one's own kind)
				}
				return scalars[r.IntN(len(scalars))]
			}
			used := map[int32]bool{}
			number := func() int32 {
				for {
					var n int32
					switch r.IntN(3) {
					case 0:
						n = 1 + r.Int32N(16)
					case 1:
						n = 1 + r.Int32N(5000)
					default:
						n = 20000 + r.Int32N(536870911-20000)
					}
					if !used[n] {
						used[n] = true
						return n
					}
				}
			}
			fmt.Fprintf(&src, "message %s {\n", name)
			nf := 1 + r.IntN(8)
			for f := range nf {
				switch r.IntN(7) {
				case 0:
					ty, opt := typ(), ""
					if packable(ty) && r.IntN(2) == 0 {
						opt = fmt.Sprintf(" [packed = %t]", proto2) // (the other syntax's default)
					}
					fmt.Fprintf(&src, "  repeated %s f%d = %d%s;\n", ty, f, number(), opt)
				case 1:
					fmt.Fprintf(&src, "  map<%s, %s> f%d = %d;\n", keys[r.IntN(len(keys))], typ(), f, number())
				case 2:
					fmt.Fprintf(&src, "  oneof o%d {\n", f)
					for k := range 1 + r.IntN(3) {
						fmt.Fprintf(&src, "    %s f%d_%d = %d;\n", typ(), f, k, number())
					}
					src.WriteString("  }\n")
				case 3:
					if ty := typ(); proto2 || !strings.HasPrefix(ty, "M") && !strings.Contains(ty, ".") {
						fmt.Fprintf(&src, "  optional %s f%d = %d;\n", ty, f, number())
						continue
					}
					fallthrough
				default:
					ty, label, opt := typ(), "", ""
					if proto2 {
						label = "optional "
						if r.IntN(4) == 0 {
							label = "required "
						}
						if d, ok := defaults[ty]; ok && r.IntN(2) == 0 {
							opt = " [default = " + d + "]"
						}
					}
					fmt.Fprintf(&src, "  %s%s f%d = %d%s;\n", label, ty, f, number(), opt)
				}
			}
			src.WriteString("}\n")
		}
		runShapes(t, gobin, fmt.Sprintf("seed %d ", seed), src.String(), names)
	}
}
