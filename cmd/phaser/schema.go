package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// loadDescriptorSet reads a serialized FileDescriptorSet.
func loadDescriptorSet(path string) (*protoregistry.Files, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	set := new(descriptorpb.FileDescriptorSet)
	if err := proto.Unmarshal(raw, set); err != nil {
		return nil, fmt.Errorf("%s: not a FileDescriptorSet: %w", path, err)
	}
	if len(set.GetFile()) == 0 {
		return nil, fmt.Errorf("%s: FileDescriptorSet holds no files", path)
	}
	files, err := buildFiles(set)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return files, nil
}

// buildFiles turns a FileDescriptorSet into a registry. Files may come in
// any order; imports missing from the set are looked up among the files
// linked into this program (the well-known types).
func buildFiles(set *descriptorpb.FileDescriptorSet) (*protoregistry.Files, error) {
	byName := make(map[string]*descriptorpb.FileDescriptorProto, len(set.GetFile()))
	for _, f := range set.GetFile() {
		if f.GetName() == "" {
			return nil, errors.New("a file in the set has no name")
		}
		if _, dup := byName[f.GetName()]; !dup {
			byName[f.GetName()] = f
		}
	}
	files := new(protoregistry.Files)
	visiting := make(map[string]bool)
	var add func(name string) error
	add = func(name string) error {
		if _, err := files.FindFileByPath(name); err == nil {
			return nil
		}
		fdp, ok := byName[name]
		if !ok {
			if _, err := protoregistry.GlobalFiles.FindFileByPath(name); err == nil {
				return nil // resolved through the fallback below
			}
			return fmt.Errorf("import %q is not in the set (use protoc --include_imports)", name)
		}
		if visiting[name] {
			return fmt.Errorf("import cycle through %q", name)
		}
		visiting[name] = true
		for _, dep := range fdp.GetDependency() {
			if err := add(dep); err != nil {
				return err
			}
		}
		fd, err := protodesc.NewFile(fdp, fallback{files})
		if err != nil {
			return err
		}
		if err := files.RegisterFile(fd); err != nil {
			return err
		}
		return nil
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := add(n); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// fallback resolves in the set's files first, then in the files linked
// into the program.
type fallback struct{ files *protoregistry.Files }

func (r fallback) FindFileByPath(p string) (protoreflect.FileDescriptor, error) {
	if fd, err := r.files.FindFileByPath(p); err == nil {
		return fd, nil
	}
	return protoregistry.GlobalFiles.FindFileByPath(p)
}

func (r fallback) FindDescriptorByName(n protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := r.files.FindDescriptorByName(n); err == nil {
		return d, nil
	}
	return protoregistry.GlobalFiles.FindDescriptorByName(n)
}

// compileProtos compiles the .proto files with protoc and returns the
// resulting descriptors. With no files named, every .proto file under the
// include directories is compiled.
func compileProtos(protoc string, includes, protos []string) (*protoregistry.Files, error) {
	if len(protos) == 0 {
		var err error
		if protos, err = findProtos(includes); err != nil {
			return nil, err
		}
		if len(protos) == 0 {
			return nil, fmt.Errorf("no .proto files under %s", strings.Join(includes, ", "))
		}
	}
	bin, err := exec.LookPath(protoc)
	if err != nil {
		return nil, fmt.Errorf("protoc not found (%v): install protoc, pass -protoc, or use -descriptor_set", err)
	}
	tmp, err := os.MkdirTemp("", "phaser-dump-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "set.pb")
	args := []string{"--include_imports", "--descriptor_set_out=" + out}
	for _, dir := range includes {
		args = append(args, "-I"+dir)
	}
	args = append(args, protos...)
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("protoc failed: %s", msg)
	}
	return loadDescriptorSet(out)
}

// findProtos returns the .proto files under the include directories,
// relative to their directory; a path found under two directories is
// compiled once, from the first (as protoc resolves it).
func findProtos(includes []string) ([]string, error) {
	seen := make(map[string]bool)
	var names []string
	for _, dir := range includes {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == dir {
					return err
				}
				return nil // unreadable subdirectory: skip it
			}
			if d.IsDir() || !strings.HasSuffix(p, ".proto") {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if !seen[rel] {
				seen[rel] = true
				names = append(names, rel)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("include directory: %w", err)
		}
	}
	return names, nil
}

// findMessage returns the message named name (in files, or among the
// well-known types linked into the program), or an error suggesting the
// full names that end with it.
func findMessage(files *protoregistry.Files, name string) (protoreflect.MessageDescriptor, error) {
	name = strings.TrimPrefix(name, ".")
	full := protoreflect.FullName(name)
	if d, err := (fallback{files}).FindDescriptorByName(full); err == nil {
		if md, ok := d.(protoreflect.MessageDescriptor); ok {
			return md, nil
		}
		return nil, fmt.Errorf("%s is not a message type", name)
	}
	var near []string
	eachMessage(files, func(md protoreflect.MessageDescriptor) {
		if md.IsMapEntry() {
			return
		}
		n := string(md.FullName())
		if strings.HasSuffix(n, "."+name) || strings.EqualFold(n, name) {
			near = append(near, n)
		}
	})
	if len(near) > 0 {
		sort.Strings(near)
		return nil, fmt.Errorf("message type %q not found; did you mean %s?", name, strings.Join(near, " or "))
	}
	return nil, fmt.Errorf("message type %q not found in the %d schema files", name, files.NumFiles())
}

// eachMessage calls f for every message type of files, nested ones
// included.
func eachMessage(files *protoregistry.Files, f func(protoreflect.MessageDescriptor)) {
	var walk func(ms protoreflect.MessageDescriptors)
	walk = func(ms protoreflect.MessageDescriptors) {
		for i := range ms.Len() {
			f(ms.Get(i))
			walk(ms.Get(i).Messages())
		}
	}
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		walk(fd.Messages())
		return true
	})
}
