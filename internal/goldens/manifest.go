package goldens

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Case is one row of MANIFEST.tsv. Lengths of optional files are -1 when the
// file is absent ("-" in the manifest).
type Case struct {
	Name             string // case name, the file prefix
	ProtoFile        string // .proto file relative to protos/
	MessageType      string // full protobuf name of the root message
	BufferKind       string // "fixed" or "dynamic"
	Tuning           string // "performance" or "size"
	ByteSize         int    // length of NAME.phaser.bin (the high-water mark)
	Frontend         string // "protobuf" or "ros"
	HeaderFullSize   int    // full_size field of the buffer header
	CreateSize       int    // size passed to CreateMutable / CreateDynamicMutable
	PBBytes          int    // length of NAME.pb.bin, -1 if absent
	PBRefBytes       int    // length of NAME.pbref.bin, -1 if absent
	ROSBytes         int    // length of NAME.ros.bin, -1 if absent
	MaskedRange      string // "40:8" when bytes 40..47 were zeroed, else "-"
	PBVsPBRef        string // "same", "differs" or "-"
	PBParse          string // "ok" or "FAILED"
	NonzeroBeyondHWM int    // non-zero bytes the writer left at or after Size()
	FixedRTContent   string // "same"/"DIFFERENT"; "" when the column is absent
	FixedRTLayout    string // "same"/"different"; "" when the column is absent
	Notes            string // free text
}

// Mask returns the byte range zeroed in NAME.phaser.bin (offset and length),
// with ok false when nothing was masked.
func (c Case) Mask() (off, n int, ok bool) {
	a, b, found := strings.Cut(c.MaskedRange, ":")
	if !found {
		return 0, 0, false
	}
	o, err1 := strconv.Atoi(a)
	l, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return o, l, true
}

// Dynamic reports whether the case used a growable buffer.
func (c Case) Dynamic() bool { return c.BufferKind == "dynamic" }

// Path returns the path of the case file with extension ext (for example
// ".phaser.bin") in dir.
func (c Case) Path(dir, ext string) string {
	return filepath.Join(dir, c.Name+ext)
}

// Read returns the content of the case file with extension ext (".phaser.bin",
// ".pb.bin", ".pb_api.bin", ".pbref.bin", ".ros.bin", ".txt", ".phaser.txt",
// ".ops") in dir. The error wraps os.ErrNotExist when the file is absent.
func (c Case) Read(dir, ext string) ([]byte, error) {
	if !strings.HasPrefix(ext, ".") || strings.ContainsAny(ext, `/\`) {
		return nil, fmt.Errorf("goldens: case %s: bad extension %q", c.Name, ext)
	}
	if c.Name == "" || strings.ContainsAny(c.Name, `/\`) {
		return nil, fmt.Errorf("goldens: bad case name %q", c.Name)
	}
	b, err := os.ReadFile(c.Path(dir, ext))
	if err != nil {
		return nil, fmt.Errorf("goldens: case %s: %w", c.Name, err)
	}
	return b, nil
}

// Ops reads and parses NAME.ops.
func (c Case) Ops(dir string) (*Program, error) {
	src, err := c.Read(dir, ".ops")
	if err != nil {
		return nil, err
	}
	p, err := ParseOps(src)
	if err != nil {
		return nil, fmt.Errorf("goldens: %s.ops: %w", c.Name, err)
	}
	return p, nil
}

// manifestColumns lists the MANIFEST.tsv columns; optional ones may be absent.
var manifestColumns = []struct {
	name     string
	optional bool
	set      func(c *Case, v string) error
}{
	{"name", false, str(func(c *Case) *string { return &c.Name })},
	{"proto_file", false, str(func(c *Case) *string { return &c.ProtoFile })},
	{"message_type", false, str(func(c *Case) *string { return &c.MessageType })},
	{"buffer_kind", false, oneOf(func(c *Case) *string { return &c.BufferKind }, "fixed", "dynamic")},
	{"tuning", false, oneOf(func(c *Case) *string { return &c.Tuning }, "performance", "size")},
	{"byte_size", false, sizeCol(func(c *Case) *int { return &c.ByteSize }, false)},
	{"frontend", false, oneOf(func(c *Case) *string { return &c.Frontend }, "protobuf", "ros")},
	{"header_full_size", false, sizeCol(func(c *Case) *int { return &c.HeaderFullSize }, false)},
	{"create_size", false, sizeCol(func(c *Case) *int { return &c.CreateSize }, false)},
	{"pb_bytes", false, sizeCol(func(c *Case) *int { return &c.PBBytes }, true)},
	{"pbref_bytes", false, sizeCol(func(c *Case) *int { return &c.PBRefBytes }, true)},
	{"ros_bytes", false, sizeCol(func(c *Case) *int { return &c.ROSBytes }, true)},
	{"masked_range", false, str(func(c *Case) *string { return &c.MaskedRange })},
	{"pb_vs_pbref", false, str(func(c *Case) *string { return &c.PBVsPBRef })},
	{"pb_parse", false, str(func(c *Case) *string { return &c.PBParse })},
	{"nonzero_beyond_hwm", false, sizeCol(func(c *Case) *int { return &c.NonzeroBeyondHWM }, false)},
	{"fixed_rt_content", true, str(func(c *Case) *string { return &c.FixedRTContent })},
	{"fixed_rt_layout", true, str(func(c *Case) *string { return &c.FixedRTLayout })},
	{"notes", false, str(func(c *Case) *string { return &c.Notes })},
}

func str(f func(*Case) *string) func(*Case, string) error {
	return func(c *Case, v string) error { *f(c) = v; return nil }
}

func oneOf(f func(*Case) *string, allowed ...string) func(*Case, string) error {
	return func(c *Case, v string) error {
		for _, a := range allowed {
			if v == a {
				*f(c) = v
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", v, strings.Join(allowed, ", "))
	}
}

func sizeCol(f func(*Case) *int, dashOK bool) func(*Case, string) error {
	return func(c *Case, v string) error {
		if dashOK && v == "-" {
			*f(c) = -1
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a size", v)
		}
		*f(c) = n
		return nil
	}
}

// Manifest parses dir/MANIFEST.tsv. The header row names the columns; every
// column listed on [Case] is required except fixed_rt_content and
// fixed_rt_layout, and unknown columns are an error.
func Manifest(dir string) ([]Case, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("goldens: %w", err)
	}
	cases, err := parseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("goldens: %s: %w", filepath.Join(dir, ManifestName), err)
	}
	return cases, nil
}

func parseManifest(data []byte) ([]Case, error) {
	lines := strings.Split(strings.TrimRight(string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))), "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return nil, fmt.Errorf("empty manifest")
	}
	header := strings.Split(lines[0], "\t")
	setters := make([]func(*Case, string) error, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		for _, col := range manifestColumns {
			if col.name == h {
				setters[i] = col.set
			}
		}
		if setters[i] == nil {
			return nil, fmt.Errorf("line 1: unknown column %q", h)
		}
		if seen[h] {
			return nil, fmt.Errorf("line 1: duplicate column %q", h)
		}
		seen[h] = true
	}
	for _, col := range manifestColumns {
		if !col.optional && !seen[col.name] {
			return nil, fmt.Errorf("line 1: missing column %q", col.name)
		}
	}
	var cases []Case
	names := map[string]int{}
	for n, line := range lines[1:] {
		lineNo := n + 2
		if line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != len(header) {
			return nil, fmt.Errorf("line %d: %d fields, want %d", lineNo, len(fields), len(header))
		}
		var c Case
		for i, v := range fields {
			if err := setters[i](&c, v); err != nil {
				return nil, fmt.Errorf("line %d: column %s: %w", lineNo, header[i], err)
			}
		}
		if c.Name == "" || strings.ContainsAny(c.Name, `/\`) {
			return nil, fmt.Errorf("line %d: bad case name %q", lineNo, c.Name)
		}
		if prev, dup := names[c.Name]; dup {
			return nil, fmt.Errorf("line %d: case %s already on line %d", lineNo, c.Name, prev)
		}
		names[c.Name] = lineNo
		cases = append(cases, c)
	}
	return cases, nil
}
