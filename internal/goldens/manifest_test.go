package goldens

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestManifest(t *testing.T) {
	for set, dir := range goldenSets(t) {
		t.Run(set, func(t *testing.T) {
			cases, err := Manifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(cases) != 132 {
				t.Fatalf("%d cases, want 132", len(cases))
			}
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					if set == "goldens" && (c.FixedRTContent == "" || c.FixedRTLayout == "") {
						t.Errorf("fixed_rt columns empty: %+v", c)
					}
					if set == "goldens_fixed" && (c.FixedRTContent != "" || c.FixedRTLayout != "") {
						t.Errorf("fixed_rt columns set in the fixed set: %+v", c)
					}
					for _, f := range []struct {
						ext  string
						size int
					}{
						{".phaser.bin", c.ByteSize},
						{".pb.bin", c.PBBytes},
						{".pbref.bin", c.PBRefBytes},
						{".ros.bin", c.ROSBytes},
					} {
						b, err := c.Read(dir, f.ext)
						switch {
						case f.size == -1 && !errors.Is(err, os.ErrNotExist):
							t.Errorf("%s: manifest says absent, Read error %v", f.ext, err)
						case f.size >= 0 && err != nil:
							t.Errorf("%s: %v", f.ext, err)
						case f.size >= 0 && len(b) != f.size:
							t.Errorf("%s: %d bytes, manifest says %d", f.ext, len(b), f.size)
						}
					}
					off, n, ok := c.Mask()
					if ok != c.Dynamic() || (ok && (off != 40 || n != 8)) {
						t.Errorf("Mask() = %d, %d, %v for a %s buffer (%q)", off, n, ok, c.BufferKind, c.MaskedRange)
					}
				})
			}
		})
	}
}

func TestParseManifestErrors(t *testing.T) {
	header := strings.Join([]string{"name", "proto_file", "message_type", "buffer_kind", "tuning", "byte_size", "frontend",
		"header_full_size", "create_size", "pb_bytes", "pbref_bytes", "ros_bytes", "masked_range", "pb_vs_pbref",
		"pb_parse", "nonzero_beyond_hwm", "notes"}, "\t")
	row := "x\ta.proto\ta.B\tfixed\tsize\t10\tprotobuf\t20\t20\t-\t0\t-\t-\tsame\tok\t0\tnote"
	good, err := parseManifest([]byte(header + "\n" + row + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Case{Name: "x", ProtoFile: "a.proto", MessageType: "a.B", BufferKind: "fixed", Tuning: "size", ByteSize: 10,
		Frontend: "protobuf", HeaderFullSize: 20, CreateSize: 20, PBBytes: -1, PBRefBytes: 0, ROSBytes: -1,
		MaskedRange: "-", PBVsPBRef: "same", PBParse: "ok", Notes: "note"}
	if len(good) != 1 || good[0] != want {
		t.Fatalf("got %+v\nwant %+v", good, want)
	}
	for name, in := range map[string]string{
		"empty":          "",
		"unknown column": header + "\tcolour\n",
		"missing column": strings.Replace(header, "\tnotes", "", 1) + "\n",
		"short row":      header + "\nx\ta.proto\n",
		"bad size":       header + "\n" + strings.Replace(row, "\t10\t", "\tten\t", 1) + "\n",
		"negative size":  header + "\n" + strings.Replace(row, "\t10\t", "\t-3\t", 1) + "\n",
		"dash size":      header + "\n" + strings.Replace(row, "\t10\t", "\t-\t", 1) + "\n",
		"bad kind":       header + "\n" + strings.Replace(row, "fixed", "elastic", 1) + "\n",
		"duplicate case": header + "\n" + row + "\n" + row + "\n",
		"path name":      header + "\n" + strings.Replace(row, "x", "../x", 1) + "\n",
	} {
		if _, err := parseManifest([]byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := (Case{Name: "x"}).Read(t.TempDir(), ".ops"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read of a missing file: %v, want os.ErrNotExist", err)
	}
	if _, err := (Case{Name: "x"}).Read(t.TempDir(), "/etc/passwd"); err == nil {
		t.Error("Read with a path as extension: no error")
	}
}
