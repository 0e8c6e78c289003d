package goldens

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeTB records Fatal and Skip calls.
type fakeTB struct {
	testing.TB
	fatal, skip string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = format
	runtime.Goexit()
}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skip = format
	runtime.Goexit()
}

// run calls fn with a fakeTB in its own goroutine.
func run(t *testing.T, fn func(testing.TB) string) (string, *fakeTB) {
	f := &fakeTB{TB: t}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = fn(f)
	}()
	<-done
	return got, f
}

func TestDirEnv(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(EnvDir, empty)
	if _, f := run(t, Dir); f.fatal == "" {
		t.Error("$PHASER_GOLDENS without MANIFEST.tsv: no Fatal")
	}
	t.Setenv(EnvDir, filepath.Join(empty, "missing"))
	if _, f := run(t, Dir); f.fatal == "" {
		t.Error("missing $PHASER_GOLDENS: no Fatal")
	}
	good := t.TempDir()
	if err := os.WriteFile(filepath.Join(good, ManifestName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvDir, good)
	if got, f := run(t, Dir); f.fatal != "" || f.skip != "" || got != good {
		t.Errorf("Dir = %q (fatal %q, skip %q), want %q", got, f.fatal, f.skip, good)
	}
	// FixedDir defaults to the sibling goldens_fixed, which does not exist.
	t.Setenv(EnvFixedDir, "")
	if _, f := run(t, FixedDir); !strings.Contains(f.skip, "goldens not found") {
		t.Errorf("FixedDir without goldens_fixed: skip %q fatal %q", f.skip, f.fatal)
	}
	t.Setenv(EnvFixedDir, good)
	if got, f := run(t, FixedDir); got != good {
		t.Errorf("FixedDir = %q (fatal %q, skip %q), want %q", got, f.fatal, f.skip, good)
	}
}

func TestModuleRoot(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Error(err)
	}
	wd, _ := os.Getwd()
	if !strings.HasPrefix(wd, root) {
		t.Errorf("module root %s is not above %s", root, wd)
	}
}
