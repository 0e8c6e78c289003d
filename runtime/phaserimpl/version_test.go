package phaserimpl_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// TestEnforceVersion compiles the version guard generated files carry,
// for the version this runtime's generator writes and for versions outside
// what the runtime accepts: the first compiles, the others fail to.
func TestEnforceVersion(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to compile with:", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// go build needs this module's source tree around the working
	// directory. Under Bazel the test runs in its runfiles, which hold none;
	// there rules_go compiles the guard of every generated package instead.
	if mod, err := exec.Command(gobin, "env", "GOMOD").Output(); err != nil ||
		strings.TrimSpace(string(mod)) == "" || strings.TrimSpace(string(mod)) == os.DevNull {
		t.Skipf("no Go module at %s to build in (go env GOMOD: %q, %v)", wd, strings.TrimSpace(string(mod)), err)
	}
	for _, tc := range []struct {
		version int
		ok      bool
	}{
		{phaserimpl.GenVersion, true},
		{phaserimpl.MaxVersion + 1, false}, // generated for a newer runtime
		{phaserimpl.MinVersion - 1, false}, // generated for an older one
	} {
		src := fmt.Sprintf(`package versiontest

import "github.com/phaser-go/phaser/runtime/phaserimpl"

const (
	_ = phaserimpl.EnforceVersion(%[1]d - phaserimpl.MinVersion)
	_ = phaserimpl.EnforceVersion(phaserimpl.MaxVersion - %[1]d)
)
`, tc.version)
		dir := t.TempDir()
		file := filepath.Join(dir, "x.go")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		// The package exists only in the overlay, inside this module.
		pkg := filepath.Join(wd, "internal", "versiontest")
		overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(pkg, "x.go"): file}})
		if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(gobin, "build", "-overlay", filepath.Join(dir, "overlay.json"), "./internal/versiontest")
		out, err := cmd.CombinedOutput()
		switch {
		case tc.ok && err != nil:
			t.Errorf("version %d: does not compile: %v\n%s", tc.version, err, out)
		case !tc.ok && err == nil:
			t.Errorf("version %d: compiles against a runtime for %d..%d", tc.version, phaserimpl.MinVersion, phaserimpl.MaxVersion)
		case !tc.ok && !strings.Contains(string(out), "overflows phaserimpl.EnforceVersion"):
			t.Errorf("version %d: fails for another reason:\n%s", tc.version, out)
		}
	}
}
