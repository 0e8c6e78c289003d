package gen_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestAccessorsInline builds the bench module's generated handles (both
// frontends) with -gcflags=-m and requires their accessors to inline:
// every getter, setter, Has and Clear of a singular scalar field, the
// getter of a singular message field (its slot read), View and the view's
// getters, and the Len, At and All of message lists. Inlining is checked
// both ways: the accessor inlines into its callers ("can inline"), and each
// call in its body, the engine's accessor first, inlines into it
// ("inlining call to" at the call's position), so that the fast path of a
// compiled handle is a bounds check, a load or store and a presence bit in
// the caller, with only the general path out of line.
func TestAccessorsInline(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with:", err)
	}
	bench := filepath.Join(repoRoot, "bench")
	if _, err := os.Stat(filepath.Join(bench, "go.mod")); err != nil {
		// Under Bazel the test sees only its runfiles, not the bench
		// module to build; scripts/test runs it with go test.
		t.Skip("the bench module is not here to build:", err)
	}
	readBuildInputs(t)
	req := compile(t, []string{filepath.Join(bench, "schema"), filepath.Join(repoRoot, "proto")}, nil,
		[]string{"bench.proto"}, "module=github.com/phaser-go/phaser/bench")
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		t.Fatal(err)
	}
	var file *protogen.File
	for _, f := range plugin.Files {
		if f.Desc.Path() == "bench.proto" {
			file = f
		}
	}
	for _, dir := range []string{"gen/pb/pbphaser", "gen/pb/pbphaserros"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			s, n, c := checkPackageInlines(t, gobin, bench, dir, "bench.phaser.go", file)
			if s == 0 { // Point's and Vector3's SetScalars, for the loops that fill many elements
				t.Errorf("%s: no SetScalars store functions to check", dir)
			}
			if n == 0 { // SmallStruct, Header and Imu have Assigns with blocks (and, in pbphaserros, inline messages)
				t.Errorf("%s: no Assign calls to check", dir)
			}
			if c == 0 { // and so generated Clears with steps
				t.Errorf("%s: no Clear calls to check", dir)
			}
		})
	}
	// A caller that imports pbphaser but not the Timestamp's package
	// inlines the Timestamp's getters and setters, through pbphaser's
	// forwarders (reach.go). The caller is a file of its own, added to the
	// bench module by -overlay, so that no package of the bench decides
	// what this test sees.
	t.Run("foreign", func(t *testing.T) {
		const caller = `package foreigncaller

import "github.com/phaser-go/phaser/bench/gen/pb/pbphaser"

func Read(h pbphaser.Header) (int64, int32) { st := h.Stamp(); return st.Seconds(), st.Nanos() }

func ReadView(h pbphaser.Header) int32 { return h.Stamp().View().Nanos() }

func Write(h pbphaser.Header, s int64, n int32) {
	st := h.MutableStamp()
	st.SetSeconds(s)
	st.SetNanos(n)
}
`
		tmp := t.TempDir()
		src := filepath.Join(tmp, "foreigncaller.go")
		if err := os.WriteFile(src, []byte(caller), 0o644); err != nil {
			t.Fatal(err)
		}
		virtual := filepath.Join(bench, "internal", "foreigncaller", "foreigncaller.go")
		overlay := filepath.Join(tmp, "overlay.json")
		js := fmt.Sprintf(`{"Replace": {%q: %q}}`, virtual, src)
		if err := os.WriteFile(overlay, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(gobin, "build", "-overlay="+overlay, "-gcflags=-m", "./internal/foreigncaller")
		cmd.Dir = bench
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
		}
		in := parseInlining(out, "foreigncaller.go")
		for _, want := range []string{"timestamppbphaser.Timestamp.Nanos", "timestamppbphaser.Timestamp.Seconds", "timestamppbphaser.TimestampView.Nanos",
			"timestamppbphaser.Timestamp.SetNanos", "timestamppbphaser.Timestamp.SetSeconds"} {
			found := false
			for _, callees := range in.calls {
				found = found || slices.Contains(callees, want)
			}
			if !found {
				t.Errorf("foreign caller: no call of %s inlined", want)
			}
		}
	})
	// Getters of fields with defaults (proto2 [default = ...]) inline too.
	t.Run("defaults", func(t *testing.T) {
		req := compile(t, []string{filepath.Join(repoRoot, "internal/testpb"), filepath.Join(repoRoot, "proto")}, nil,
			[]string{"defaults.proto"}, "module=github.com/phaser-go/phaser")
		plugin, err := protogen.Options{}.New(req)
		if err != nil {
			t.Fatal(err)
		}
		checkPackageInlines(t, gobin, repoRoot, "internal/testpb/testpbphaser", "defaults.phaser.go", plugin.FilesByPath["defaults.proto"])
	})
}

// checkPackageInlines builds package dir of the module at root with
// -gcflags=-m and checks the accessors of file's messages in its generated
// file name, its encoders' calls, its SetScalars' store functions, its
// Assigns' and its Clears' (it returns how many of the store functions,
// the Assigns' and the Clears' calls it checked).
// readBuildInputs reads every Go source file and go.mod and go.sum of the
// repository (tests and testdata aside), which the go build of a test
// that checks inlining compiles: go test records what a test opens, so
// that a change to any of them runs the test again rather than reporting
// its cached pass. (The build's own reads, in a child process, are not
// recorded.)
func readBuildInputs(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != repoRoot && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "bazel-")) {
				return filepath.SkipDir
			}
			return nil
		}
		if (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) || name == "go.mod" || name == "go.sum" {
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkPackageInlines(t *testing.T, gobin, root, dir, name string, file *protogen.File) (int, int, int) {
	t.Helper()
	cmd := exec.Command(gobin, "build", "-gcflags=-m", "./"+dir)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	in := parseInlining(out, name)
	checkInlined(t, filepath.Join(root, dir, name), in, required(file.Messages))
	src := filepath.Join(root, dir, name)
	if checkCallsInline(t, src, in, encoderInlines, "XXX_AppendProto", "XXX_ProtoSize") == 0 {
		t.Errorf("%s: no encoder calls to check", name)
	}
	return checkStoresInline(t, src, in), checkCallsInline(t, src, in, assignInlines, "Assign"), checkCallsInline(t, src, in, clearInlines, "Clear")
}

// checkStoresInline checks that each SetScalars of the generated file src
// has its store function (phaserStoreScalars_X, which the engine's
// StoreScalars calls) inlined into it where the function can inline, so
// that a SetScalars inlined into its caller makes no call there. It
// returns how many it checked.
func checkStoresInline(t *testing.T, src string, in inlining) int {
	t.Helper()
	fset, f := parseGo(t, src)
	n := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Name.Name != "SetScalars" {
			continue
		}
		store := "phaserStoreScalars_" + recvName(fd)
		if !in.can[store] {
			continue
		}
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok || !strings.HasSuffix(exprName(c.Fun), ".StoreScalars") {
				return true
			}
			n++
			p := fset.Position(c.Lparen)
			if !slices.Contains(in.calls[fmt.Sprintf("%d:%d", p.Line, p.Column)], store) { // (-m names a function of the package unqualified)
				t.Errorf("%s.SetScalars: %s is not inlined into it", recvName(fd), store)
			}
			return true
		})
	}
	return n
}

// clearInlines are the Keeper's calls a generated Clear makes that must
// inline into it: the root's offset, a string's or vector's step (a call
// of the step's body), the check that no step refused, the memory the
// nested messages are zeroed in, and the record.
var clearInlines = map[string]bool{
	"k.Root": true, "k.String": true, "k.Vector": true, "k.Kept": true, "k.End": true, "k.Memory": true,
}

// encoderInlines are the engine's calls the generated protobuf encoders
// make on their common path, each of which must inline into them: a flat
// nested message's bytes and table (NestedBytes, which the compiler
// inlines only through a forwarder of runtime/phaserimpl), the walk's
// budget and depth, strings and varints.
var encoderInlines = map[string]bool{
	"m.CompiledBytes": true, "m.NestedBytes": true, "m.NestedAt": true, "sub.IsPresent": true,
	"w.Enter": true, "w.Leave": true, "w.Charge": true, "w.HasUnknown": true,
	"phaserimpl.StringAt": true, "phaserimpl.AppendVarint": true, "phaserimpl.AppendBytes": true, "phaserimpl.SizeVarint": true,
	"phaserimpl.SizeBytes": true, "phaserimpl.ValidUTF8": true, "phaserimpl.PatchLength": true,
}

// assignInlines are the engine's calls a generated Assign makes on its
// straight line, each of which must inline into it: the check of a
// string's block and of its fit, of a nested message, of an inline
// message's table word, and of two blocks apart, and the write of a short
// string.
var assignInlines = map[string]bool{
	"a.Block": true, "a.KeptFields": true, "a.Memory": true, "a.Inline": true,
	"a.ShortAt": true, "a.PutShort": true,
}

// assignInlineSuffixes are the calls of assignInlines made on a block
// variable (sName.Fits, sName.Apart), by the method's name.
var assignInlineSuffixes = []string{".Fits", ".FitsElems", ".Apart", ".Before"}

// checkCallsInline checks that in every method named one of methods of the
// generated file src, each call of calls (or, for Assign, of a method of
// assignInlineSuffixes) is inlined ("inlining call to" at its position),
// and returns how many calls it checked.
func checkCallsInline(t *testing.T, src string, in inlining, calls map[string]bool, methods ...string) int {
	t.Helper()
	fset, f := parseGo(t, src)
	n := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || !slices.Contains(methods, fd.Name.Name) {
			continue
		}
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := exprName(c.Fun)
			if !calls[name] && !(fd.Name.Name == "Assign" && slices.ContainsFunc(assignInlineSuffixes, func(s string) bool { return strings.HasSuffix(name, s) })) {
				return true
			}
			n++
			p := fset.Position(c.Lparen)
			if len(in.calls[fmt.Sprintf("%d:%d", p.Line, p.Column)]) == 0 {
				t.Errorf("%s.%s: the call of %s at %s:%d is not inlined into it", recvName(fd), fd.Name.Name, exprName(c.Fun), filepath.Base(src), p.Line)
			}
			return true
		})
	}
	return n
}

// parseGo parses the Go file src.
func parseGo(t *testing.T, src string) (*token.FileSet, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, src, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f
}

// inlining is what -m reported for one file: the functions that can
// inline, and the positions (line:col) of the calls inlined.
type inlining struct {
	can   map[string]bool
	calls map[string][]string // position -> callees inlined there
}

var (
	canInline = regexp.MustCompile(`^(\S+\.go):\d+:\d+: can inline (\S+)`)
	inlinedAt = regexp.MustCompile(`^(\S+\.go):(\d+:\d+): inlining call to (\S+)`)
)

func parseInlining(out []byte, name string) inlining {
	in := inlining{can: map[string]bool{}, calls: map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "/"+name+":") && !strings.HasPrefix(line, name+":") {
			continue
		}
		if m := canInline.FindStringSubmatch(line); m != nil {
			in.can[m[2]] = true
		} else if m := inlinedAt.FindStringSubmatch(line); m != nil {
			in.calls[m[2]] = append(in.calls[m[2]], m[3])
		}
	}
	return in
}

// required returns the accessors ("Type.Method") that must inline, per
// the fields of the messages.
func required(msgs []*protogen.Message) []string {
	var req []string
	for _, m := range msgs {
		name := m.GoIdent.GoName
		// Bytes, what a sender calls after every build: the payload's
		// Bytes is then its one call. ReadXInto, what a reader calls on
		// every payload: the engine's ReadInto is then its one call.
		req = append(req, name+".Bytes", "Read"+name+"Into")
		hasView := false
		for _, f := range m.Fields {
			n := f.GoName
			switch {
			case f.Desc.IsList() && f.Message != nil:
				l := f.Message.GoIdent.GoName + "List"
				req = append(req, n+"@"+name, l+".Len", l+".At", l+".All", l+".All.func1")
			case f.Desc.IsList() || f.Desc.IsMap() || f.Oneof != nil:
			case f.Desc.Kind() == protoreflect.MessageKind:
				req = append(req, name+"."+n)
			case f.Desc.Kind() == protoreflect.StringKind || f.Desc.Kind() == protoreflect.BytesKind:
			default:
				hasView = true
				req = append(req, name+"."+n, name+".Set"+n, name+".Has"+n, name+".Clear"+n,
					name+"View."+n, name+"View.Has"+n)
			}
		}
		if hasView {
			req = append(req, name+".View", name+".SetScalars")
		}
	}
	for i, r := range req {
		if n, typ, ok := strings.Cut(r, "@"); ok { // a list getter
			req[i] = typ + "." + n
		}
	}
	return req
}

// checkInlined checks each required accessor of the generated file src.
func checkInlined(t *testing.T, src string, in inlining, req []string) {
	t.Helper()
	fset, f := parseGo(t, src)
	types := typeNames(f)
	methods := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			methods[recvName(fd)+"."+fd.Name.Name] = fd
		} else if ok {
			methods[fd.Name.Name] = fd
		}
	}
	// The forwarders of the accessors of other packages' message types
	// (reach.go) inline, and so does the accessor each one calls: else the
	// export data does not carry the accessor's body.
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "phaserReach_") {
			continue
		}
		if !in.can[fd.Name.Name] {
			t.Errorf("%s does not inline (go build -gcflags=-m)", fd.Name.Name)
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				p := fset.Position(c.Lparen)
				if len(in.calls[fmt.Sprintf("%d:%d", p.Line, p.Column)]) == 0 {
					t.Errorf("%s: the call of %s is not inlined into it", fd.Name.Name, exprName(c.Fun))
				}
			}
			return true
		})
	}
	for _, r := range req {
		if !in.can[r] {
			t.Errorf("%s does not inline (go build -gcflags=-m)", r)
			continue
		}
		fd := methods[r]
		if fd == nil {
			if strings.HasSuffix(r, ".func1") {
				continue // the iterator All returns
			}
			t.Errorf("%s: no such function in %s", r, filepath.Base(src))
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // All's iterator: inlined where it is ranged over
			case *ast.CallExpr:
				if conversion(n, types) {
					return true
				}
				// -m gives a call's position as that of its parenthesis.
				p := fset.Position(n.Lparen)
				if len(in.calls[fmt.Sprintf("%d:%d", p.Line, p.Column)]) == 0 {
					t.Errorf("%s: the call of %s at %s:%d is not inlined into it", r, exprName(n.Fun), filepath.Base(src), p.Line)
				}
			}
			return true
		})
	}
}

// typeNames returns the names of the types src declares or makes composite
// literals of, and the door's handle types: a call of one is a conversion.
func typeNames(f *ast.File) map[string]bool {
	names := map[string]bool{"phaserimpl.Msg": true, "phaserimpl.View": true, "phaserimpl.MessageField": true, "unsafe.Pointer": true}
	for _, b := range []string{"bool", "int32", "uint32", "int64", "uint64", "float32", "float64", "uint8", "string"} {
		names[b] = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			names[n.Name.Name] = true
		case *ast.CompositeLit:
			names[exprName(n.Type)] = true
		}
		return true
	})
	return names
}

func conversion(n *ast.CallExpr, types map[string]bool) bool {
	return len(n.Args) == 1 && types[exprName(n.Fun)]
}

func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprName(e.X) + "." + e.Sel.Name
	}
	return ""
}

func recvName(fd *ast.FuncDecl) string {
	return exprName(fd.Recv.List[0].Type)
}
