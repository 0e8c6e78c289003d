package gen_test

import (
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rosInlined are the calls of the generated ROS1 codec's append functions
// that must inline into them: the message's bytes, the stores and their
// window, the elements of a scalar array. (Calls that do not: Nested,
// StringBytes, Cursor.Next, the nested messages' codecs.)
var rosInlined = map[string]bool{
	"View": true, "Bytes": true, "ROSGet8": true, "ROSGet32": true, "ROSGet64": true,
	"ROSGrow": true, "ROSPutString": true, "Elems": true, "Len": true, "ROSBool": true,
	"PutUint16": true, "PutUint32": true, "PutUint64": true, "Uint32": true, "Uint64": true,
}

// TestROSCodecInlines builds the bench module's generated handles (both
// frontends) with -gcflags=-m and requires the calls rosInlined names to
// inline into every phaserROSAppend_ function: what keeps the generated
// writer straight-line.
func TestROSCodecInlines(t *testing.T) {
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
	for _, dir := range []string{"gen/pb/pbphaser", "gen/pb/pbphaserros"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cmd := exec.Command(gobin, "build", "-gcflags=-m", "./"+dir)
			cmd.Dir = bench
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
			}
			in := parseInlining(out, "bench.phaser.go")
			src := filepath.Join(bench, dir, "bench.phaser.go")
			fset, f := parseGo(t, src)
			checked := 0
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "phaserROSAppend_") {
					continue
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok || !rosInlined[sel.Sel.Name] {
						return true
					}
					checked++
					p := fset.Position(call.Lparen)
					if len(in.calls[fmt.Sprintf("%d:%d", p.Line, p.Column)]) == 0 {
						t.Errorf("%s: the call of %s at line %d is not inlined", fd.Name.Name, exprName(call.Fun), p.Line)
					}
					return true
				})
			}
			if checked == 0 {
				t.Fatal("no call checked: no phaserROSAppend_ function?")
			}
		})
	}
}
