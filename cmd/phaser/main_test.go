package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// runCmd runs the command in-process.
func runCmd(stdin []byte, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// descriptorSet writes a FileDescriptorSet of the given files (and their
// imports) to a temporary file.
func descriptorSet(t *testing.T, fds ...protoreflect.FileDescriptor) string {
	t.Helper()
	set := new(descriptorpb.FileDescriptorSet)
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := range fd.Imports().Len() {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range fds {
		add(fd)
	}
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "set.pb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testPayload writes a google.protobuf.FieldDescriptorProto-typed payload
// with the runtime's generic accessors and returns its bytes and the
// expected content.
func testPayload(t testing.TB) ([]byte, *descriptorpb.FieldDescriptorProto) {
	t.Helper()
	want := &descriptorpb.FieldDescriptorProto{
		Name:     proto.String("field_one"),
		Number:   proto.Int32(7),
		Label:    descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(),
		TypeName: proto.String(".pkg.Msg"),
		Options:  &descriptorpb.FieldOptions{Packed: proto.Bool(true)},
	}
	typ, err := runtime.TypeOf(want.ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	m := runtime.New(typ, runtime.Options{Version: payloadbuffer.V2})
	fields := typ.Descriptor().Fields()
	m.Set(fields.ByName("name"), protoreflect.ValueOfString(want.GetName()))
	m.Set(fields.ByName("number"), protoreflect.ValueOfInt32(want.GetNumber()))
	m.Set(fields.ByName("label"), protoreflect.ValueOfEnum(protoreflect.EnumNumber(want.GetLabel())))
	m.Set(fields.ByName("type_name"), protoreflect.ValueOfString(want.GetTypeName()))
	of := fields.ByName("options")
	o := m.Mutable(of)
	o.Set(of.Message().Fields().ByName("packed"), protoreflect.ValueOfBool(true))
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(m.Bytes()), want
}

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "payload.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUsage(t *testing.T) {
	set := descriptorSet(t, descriptorpb.File_google_protobuf_descriptor_proto)
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no args", nil, "usage:"},
		{"unknown command", []string{"print"}, `unknown command "print"`},
		{"dump no type", []string{"dump", "-descriptor_set", set, "x"}, "-type is required"},
		{"dump no schema", []string{"dump", "-type", "a.B", "x"}, "no schema"},
		{"dump both schemas", []string{"dump", "-descriptor_set", set, "-I", ".", "-type", "a.B"}, "excludes"},
		{"dump bad format", []string{"dump", "-descriptor_set", set, "-type", "a.B", "-format", "xml"}, `unknown -format "xml"`},
		{"dump two files", []string{"dump", "-descriptor_set", set, "-type", "a.B", "x", "y"}, "more than one payload file"},
		{"dump unknown flag", []string{"dump", "-typo", "a.B"}, "flag provided but not defined: -typo"},
		{"dump flag without value", []string{"dump", "-type"}, "flag needs an argument"},
		{"info no file", []string{"info"}, "no payload file"},
		{"info two files", []string{"info", "a", "b"}, "want one payload file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(nil, tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage:") {
				t.Errorf("stderr %q does not contain %q and the usage", stderr, tc.want)
			}
		})
	}
	if code, stdout, _ := runCmd(nil, "help"); code != 0 || !strings.Contains(stdout, "phaser dump") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
	if code, stdout, _ := runCmd(nil, "dump", "-h"); code != 0 || !strings.Contains(stdout, "-descriptor_set file") {
		t.Errorf("dump -h: exit %d, %q", code, stdout)
	}
}

func TestParseDump(t *testing.T) {
	cfg, err := parseDump([]string{"payload.bin", "-Ia", "-I=b", "-I", "c", "-type", ".x.Y", "-proto", "p.proto", "-format=json"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.includes, ","); got != "a,b,c" {
		t.Errorf("includes %s", got)
	}
	if cfg.payload != "payload.bin" || cfg.typeName != ".x.Y" || cfg.format != "json" || cfg.protos[0] != "p.proto" {
		t.Errorf("parsed %+v", cfg)
	}
	cfg, err = parseDump([]string{"-descriptor_set", "s.pb", "-type", "x.Y", "-"}, os.Stderr)
	if err != nil || cfg.payload != "-" {
		t.Errorf("stdin: %+v, %v", cfg, err)
	}
}

func TestDumpDescriptorSet(t *testing.T) {
	set := descriptorSet(t, descriptorpb.File_google_protobuf_descriptor_proto)
	data, want := testPayload(t)
	file := writeFile(t, data)
	const typ = "google.protobuf.FieldDescriptorProto"

	code, out, stderr := runCmd(nil, "dump", "-descriptor_set", set, "-type", typ, file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := new(descriptorpb.FieldDescriptorProto)
	if err := prototext.Unmarshal([]byte(out), got); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	if !proto.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if strings.Count(out, "\n") < 5 {
		t.Errorf("text output is not multiline:\n%s", out)
	}

	// Standard input, flags after the file, JSON.
	code, out, stderr = runCmd(data, "dump", "-", "-descriptor_set", set, "-format", "json", "-type", "."+typ)
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	got.Reset()
	if err := protojson.Unmarshal([]byte(out), got); err != nil || !proto.Equal(got, want) {
		t.Errorf("json: %v: %v", err, out)
	}

	// Hex: a dump of the protobuf encoding.
	code, out, stderr = runCmd(data, "dump", "-descriptor_set", set, "-format", "hex", "-type", typ)
	if code != 0 {
		t.Fatalf("hex: exit %d: %s", code, stderr)
	}
	wire, _ := proto.MarshalOptions{Deterministic: true}.Marshal(want)
	if out != hex.Dump(wire) {
		t.Errorf("hex:\n%s\nwant\n%s", out, hex.Dump(wire))
	}
}

// TestDumpAny: an Any is expanded when its type is in the schema.
func TestDumpAny(t *testing.T) {
	tsType, err := runtime.TypeOf((&timestamppb.Timestamp{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	anyType, err := runtime.TypeOf((&anypb.Any{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	m := runtime.New(anyType, runtime.Options{})
	v := runtime.AnyOf(m).Mutable(tsType)
	v.Set(tsType.Descriptor().Fields().ByName("seconds"), protoreflect.ValueOfInt64(1700000000))
	file := writeFile(t, bytes.Clone(m.Bytes()))
	set := descriptorSet(t, timestamppb.File_google_protobuf_timestamp_proto, descriptorpb.File_google_protobuf_descriptor_proto)
	code, out, stderr := runCmd(nil, "dump", "-descriptor_set", set, "-type", "google.protobuf.Any", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "[type.googleapis.com/google.protobuf.Timestamp]") || !strings.Contains(out, "1700000000") {
		t.Errorf("Any not expanded:\n%s", out)
	}
}

func TestDumpErrors(t *testing.T) {
	set := descriptorSet(t, descriptorpb.File_google_protobuf_descriptor_proto)
	data, _ := testPayload(t)
	file := writeFile(t, data)
	garbage := writeFile(t, bytes.Repeat([]byte("garbage!"), 20))
	notSet := writeFile(t, []byte("\xff\xff\xff"))
	for _, tc := range []struct {
		name  string
		stdin []byte
		args  []string
		want  string
	}{
		{"missing type", nil, []string{"-type", "google.protobuf.Nope", file}, `message type "google.protobuf.Nope" not found`},
		{"suggestion", nil, []string{"-type", "FieldDescriptorProto", file}, "did you mean google.protobuf.FieldDescriptorProto?"},
		{"enum type", nil, []string{"-type", "google.protobuf.FieldDescriptorProto.Type", file}, "is not a message type"},
		{"garbage payload", nil, []string{"-type", "google.protobuf.FieldDescriptorProto", garbage}, "not a Phaser payload"},
		{"empty stdin", nil, []string{"-type", "google.protobuf.FieldDescriptorProto"}, "0 bytes"},
		{"truncated payload", data[:20], []string{"-type", "google.protobuf.FieldDescriptorProto", "-"}, "not a Phaser payload"},
		{"missing file", nil, []string{"-type", "google.protobuf.FieldDescriptorProto", filepath.Join(t.TempDir(), "nope.bin")}, "no such file"},
		{"wrong type", nil, []string{"-type", "google.protobuf.DescriptorProto", file},
			"read google.protobuf.DescriptorProto: the payload's root message is a google.protobuf.FieldDescriptorProto"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(tc.stdin, append([]string{"dump", "-descriptor_set", set}, tc.args...)...)
			if code != exitError || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, set, want string }{
		{"missing descriptor set", filepath.Join(t.TempDir(), "none.pb"), "no such file"},
		{"bad descriptor set", notSet, "not a FileDescriptorSet"},
		{"empty descriptor set", writeFile(t, nil), "holds no files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(nil, "dump", "-descriptor_set", tc.set, "-type", "a.B", file)
			if code != exitError || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr, tc.want)
			}
		})
	}
	// A set whose imports are missing: the well-known types are found
	// anyway, others are reported.
	fdp := &descriptorpb.FileDescriptorProto{
		Name: proto.String("x.proto"), Package: proto.String("x"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/timestamp.proto", "y.proto"},
	}
	b, _ := proto.Marshal(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{fdp}})
	code, _, stderr := runCmd(nil, "dump", "-descriptor_set", writeFile(t, b), "-type", "x.M", file)
	if code != exitError || !strings.Contains(stderr, `import "y.proto" is not in the set`) {
		t.Errorf("missing import: exit %d, %q", code, stderr)
	}
	fdp.Dependency = fdp.Dependency[:1]
	b, _ = proto.Marshal(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{fdp}})
	code, _, stderr = runCmd(nil, "dump", "-descriptor_set", writeFile(t, b), "-type", "x.M", file)
	if code != exitError || !strings.Contains(stderr, `message type "x.M" not found`) {
		t.Errorf("well-known import: exit %d, %q", code, stderr)
	}
	// protoc that cannot be run.
	code, _, stderr = runCmd(nil, "dump", "-protoc", "/nonexistent/protoc", "-proto", "a.proto", "-type", "a.B", file)
	if code != exitError || !strings.Contains(stderr, "protoc not found") {
		t.Errorf("no protoc: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(nil, "dump", "-I", filepath.Join(t.TempDir(), "none"), "-type", "a.B", file)
	if code != exitError || !strings.Contains(stderr, "include directory") {
		t.Errorf("missing include: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(nil, "dump", "-I", t.TempDir(), "-type", "a.B", file)
	if code != exitError || !strings.Contains(stderr, "no .proto files") {
		t.Errorf("empty include: exit %d, %q", code, stderr)
	}
}

func TestInfo(t *testing.T) {
	data, _ := testPayload(t)
	code, out, stderr := runCmd(data, "info", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	root := binary.LittleEndian.Uint32(data[4:])
	for _, want := range []string{
		"format:         v2",
		"buffer:         movable (header 48 bytes)",
		"tuning:         performance",
		"root offset:    " + strconv.FormatUint(uint64(root), 10) + "\n",
		"control block v1",
		"entry 0: google.protobuf.FieldDescriptorProto, table",
		"entry 1: google.protobuf.FieldOptions, table",
		"free blocks",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}

	// v3, size tuning.
	typ, _ := runtime.TypeOf((&descriptorpb.FieldDescriptorProto{}).ProtoReflect().Descriptor())
	m3 := runtime.New(typ, runtime.Options{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size})
	m3.Set(typ.Descriptor().Fields().ByName("name"), protoreflect.ValueOfString("x"))
	code, out, stderr = runCmd(nil, "info", writeFile(t, bytes.Clone(m3.Bytes())))
	if code != 0 || !strings.Contains(out, "format:         v3") || !strings.Contains(out, "tuning:         size") ||
		!strings.Contains(out, "control block v2") {
		t.Errorf("v3: exit %d %s\n%s", code, stderr, out)
	}

	code, _, stderr = runCmd([]byte("not a payload at all, but long enough to hold a header"), "info", "-")
	if code != exitError || !strings.Contains(stderr, "not a Phaser payload: magic") {
		t.Errorf("garbage: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(nil, "info", filepath.Join(t.TempDir(), "nope"))
	if code != exitError || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
}

// TestInfoHostile: info on every prefix and on corrupted copies of a
// payload never panics.
func TestInfoHostile(t *testing.T) {
	data, _ := testPayload(t)
	check := func(b []byte) {
		var sb strings.Builder
		_ = describe(&sb, b) // no panic
	}
	for n := range len(data) + 1 {
		check(data[:n])
	}
	for off := 0; off+4 <= len(data); off += 4 {
		for _, v := range []uint32{0, 1, 8, 0xFFFFFFFF, 0x7FFFFFFF, uint32(len(data)), uint32(off)} {
			b := bytes.Clone(data)
			binary.LittleEndian.PutUint32(b[off:], v)
			check(b)
		}
	}
}

// Golden payloads.

var protocSet struct {
	once sync.Once
	path string
	err  error
}

// goldenSet compiles the golden schemas with protoc into a descriptor set,
// once; the test is skipped without goldens or protoc.
func goldenSet(t *testing.T) (dir, set string) {
	t.Helper()
	dir = goldens.Dir(t)
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Skipf("protoc not found in PATH (%v): install protoc to test dump with .proto files", err)
	}
	protocSet.once.Do(func() {
		tmp, err := os.MkdirTemp("", "phaser-cmd-test-")
		if err != nil {
			protocSet.err = err
			return
		}
		protocSet.path = filepath.Join(tmp, "goldens.pb")
		protos, err := findProtos([]string{filepath.Join(dir, "protos")})
		if err != nil {
			protocSet.err = err
			return
		}
		args := append([]string{"--include_imports", "--descriptor_set_out=" + protocSet.path, "-I" + filepath.Join(dir, "protos")}, protos...)
		if out, err := exec.Command("protoc", args...).CombinedOutput(); err != nil {
			protocSet.err = fmt.Errorf("protoc: %v\n%s", err, out)
		}
	})
	if protocSet.err != nil {
		t.Fatal(protocSet.err)
	}
	return dir, protocSet.path
}

// goldenCase returns the payload of c and the directory of its values,
// as TestGoldenRead chooses them (bug-free payloads where C++ 2.1 corrupted
// the content).
func goldenCase(t *testing.T, dir string, c goldens.Case) (data []byte, valuesDir string) {
	t.Helper()
	src := dir
	if c.PBParse == "FAILED" {
		src = goldens.FixedDir(t)
	}
	data, err := c.Read(src, ".phaser.bin")
	if err != nil {
		t.Fatal(err)
	}
	valuesDir = src
	if c.FixedRTContent == "DIFFERENT" {
		valuesDir = goldens.FixedDir(t)
	}
	return data, valuesDir
}

// checkDumped parses text (dump's output) as c's message type and compares
// it with the case's values.
func checkDumped(t *testing.T, dir string, c goldens.Case, valuesDir, text string) {
	t.Helper()
	want, err := c.Values(valuesDir)
	if err != nil {
		t.Fatal(err)
	}
	types, err := goldens.Types(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := want.ProtoReflect().New().Interface()
	if err := (prototext.UnmarshalOptions{Resolver: types}).Unmarshal([]byte(text), got); err != nil {
		t.Fatalf("output does not parse as %s: %v\n%s", c.MessageType, err, text)
	}
	if !proto.Equal(got, want) {
		t.Errorf("content differs\n got: %v\nwant: %v", got, want)
	}
}

// TestDumpGoldens dumps every golden payload in-process (schema from a
// descriptor set protoc made) and parses the text back.
func TestDumpGoldens(t *testing.T) {
	dir, set := goldenSet(t)
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			data, valuesDir := goldenCase(t, dir, c)
			code, out, stderr := runCmd(data, "dump", "-descriptor_set", set, "-type", c.MessageType, "-")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkDumped(t, dir, c, valuesDir, out)
			if code, out, stderr := runCmd(data, "info", "-"); code != 0 || !strings.Contains(out, "control block v1") {
				t.Errorf("info: exit %d %s\n%s", code, stderr, out)
			}
		})
	}
}

// envCommand names the phaser binary TestCommand runs (under Bazel, the
// //cmd/phaser it built, as a path relative to the module root); without
// it the test builds one with the go command.
const envCommand = "PHASER_COMMAND"

// command returns the phaser binary to run.
func command(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv(envCommand); bin != "" {
		if filepath.IsAbs(bin) {
			return bin
		}
		root, err := goldens.ModuleRoot()
		if err != nil {
			t.Fatalf("$%s=%s: %v", envCommand, bin, err)
		}
		return filepath.Join(root, bin)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go command not found: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "phaser")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCommand builds the command (or takes $PHASER_COMMAND) and runs it on a
// few golden payloads with the golden .proto files, and on error paths.
func TestCommand(t *testing.T) {
	dir, _ := goldenSet(t)
	bin := command(t)
	protos := filepath.Join(dir, "protos")
	cases, err := goldens.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	pick := map[string]bool{
		"core_scalars_extremes": true, "rec_full_fixed_size": true, "ox_any_deep": true,
		"ox_maps": true, "p2_full": true, "ros_robot_rosfe_size": true, "ox_manybits_all": true,
	}
	exe := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errb.String()
	}
	n := 0
	for _, c := range cases {
		if !pick[c.Name] {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			data, valuesDir := goldenCase(t, dir, c)
			file := writeFile(t, data)
			code, out, stderr := exe("dump", "-I", protos, "-I", "/usr/include", "-type", c.MessageType, file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkDumped(t, dir, c, valuesDir, out)
		})
	}
	if n != len(pick) {
		t.Errorf("found %d of the %d chosen cases", n, len(pick))
	}
	// Error paths and usage, through the binary's exit status.
	c := cases[0]
	file := c.Path(dir, ".phaser.bin")
	garbage := writeFile(t, bytes.Repeat([]byte{0xC4, 0xF1, 0xF6, 0xE5, 0xFF, 0xFF, 0xFF, 0x7F}, 8))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing type", []string{"dump", "-I", protos, "-type", "oracle.core.Nope", file}, 1, `message type "oracle.core.Nope" not found`},
		{"garbage payload", []string{"dump", "-I", protos, "-type", c.MessageType, garbage}, 1, "root offset 2147483647 beyond 64 bytes"},
		{"missing file", []string{"dump", "-I", protos, "-type", c.MessageType, filepath.Join(t.TempDir(), "nope.bin")}, 1, "no such file"},
		{"bad proto", []string{"dump", "-I", protos, "-proto", "oracle/Nope.proto", "-type", c.MessageType, file}, 1, "protoc failed"},
		{"type of another file", []string{"dump", "-I", protos, "-proto", "oracle/OracleCommon.proto", "-type", "oracle.extra.Nope", file}, 1, "read from oracle/OracleCommon.proto and what it imports: name the file that declares it with -proto"},
		{"usage", []string{"dump", "-I", protos, file}, 2, "-type is required"},
		{"info garbage", []string{"info", garbage}, 0, "root offset:    2147483647 (beyond the payload)"},
		{"info", []string{"info", file}, 0, "control block v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := exe(tc.args...)
			if code != tc.code || !strings.Contains(out+stderr, tc.want) {
				t.Errorf("exit %d, output %q %q; want exit %d and %q", code, out, stderr, tc.code, tc.want)
			}
		})
	}
}

// FuzzInfo: info never panics, and stops on its own limits.
func FuzzInfo(f *testing.F) {
	data, _ := testPayload(f)
	f.Add(data)
	f.Add(data[:40])
	f.Add(bytes.Repeat([]byte{0xC5, 0xF1, 0xF6, 0xE5, 0x28, 0, 0, 0}, 16))
	f.Add([]byte("PH\x07\x03" + strings.Repeat("\x30\x00\x00\x00", 30)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sb strings.Builder
		if err := describe(&sb, data); err == nil && sb.Len() == 0 {
			t.Fatal("no output and no error")
		}
	})
}
