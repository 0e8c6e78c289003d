package goldens

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Environment variables that override the default golden locations.
const (
	EnvDir      = "PHASER_GOLDENS"       // directory of the C++ 2.1 goldens
	EnvFixedDir = "PHASER_GOLDENS_FIXED" // directory of the bug-corrected goldens
)

// ManifestName is the name of the manifest file in a golden directory.
const ManifestName = "MANIFEST.tsv"

// Dir returns the directory of the C++ Phaser 2.1 goldens: $PHASER_GOLDENS
// when set (the test fails if it does not hold a MANIFEST.tsv), else
// ../shared/goldens relative to the module root (the nearest directory at or
// above the working directory that contains go.mod). The test is skipped
// when neither is available.
func Dir(tb testing.TB) string {
	tb.Helper()
	return locate(tb, EnvDir, func() (string, error) {
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		return filepath.Join(root, "..", "shared", "goldens"), nil
	})
}

// FixedDir returns the directory of the bug-corrected goldens:
// $PHASER_GOLDENS_FIXED when set (the test fails if it does not hold a
// MANIFEST.tsv), else the directory goldens_fixed next to [Dir]. The test is
// skipped when neither is available.
func FixedDir(tb testing.TB) string {
	tb.Helper()
	return locate(tb, EnvFixedDir, func() (string, error) {
		return filepath.Join(filepath.Dir(Dir(tb)), "goldens_fixed"), nil
	})
}

// locate implements Dir and FixedDir.
func locate(tb testing.TB, env string, fallback func() (string, error)) string {
	tb.Helper()
	if d, ok := os.LookupEnv(env); ok && d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			tb.Fatalf("goldens: $%s=%q: %v", env, d, err)
		}
		if err := checkDir(abs); err != nil {
			tb.Fatalf("goldens: $%s=%q: %v", env, d, err)
		}
		return abs
	}
	d, err := fallback()
	if err != nil {
		tb.Skipf("goldens not found: set %s (%v)", env, err)
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		tb.Skipf("goldens not found: set %s (%v)", env, err)
	}
	if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) {
		tb.Skipf("goldens not found: set %s to the golden directory (default %s does not exist)", env, abs)
	}
	if err := checkDir(abs); err != nil {
		tb.Fatalf("goldens: %s: %v", abs, err)
	}
	return abs
}

// checkDir reports whether dir is a directory holding a MANIFEST.tsv.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("not a directory")
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err != nil {
		return fmt.Errorf("no %s: %w", ManifestName, err)
	}
	return nil
}

// ModuleRoot returns the nearest directory at or above the working directory
// that contains a go.mod file.
func ModuleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod at or above %s", wd)
		}
		d = parent
	}
}
