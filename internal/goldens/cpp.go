package goldens

import (
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// A Scope resolves the C++ names of one case's .ops (message and enum types
// such as "core::Part", "xph::Level2", "core::Simple_Sub", "gph::Timestamp",
// "oracle::extra::phaser::Leaf") to the descriptors of the case's schema.
//
// Nothing about the golden set is built in. The C++ generator puts the
// classes of package a.b into namespace a::b, or a::b::X with the
// add_namespace=X parameter (spec 9.1), and the .ops may name that namespace
// by a shorter alias. A namespace is therefore matched, in this order,
//
//   - to a package it has already named in this case;
//   - by convention: a::b, a::b::X, or a trailing part of them (b, b::X);
//   - by the type it qualifies: the package among the case's .proto files
//     (the root message's file and its imports first, then every other file)
//     that declares a type of that name, preferring a package one of whose
//     name components the alias contains (pbfe_ros: oracle.ros) when several
//     do.
//
// A namespace that comes to name two packages is an error. A type name
// without a namespace is looked up in the root message's package first.
type Scope struct {
	files   *protoregistry.Files
	home    protoreflect.FullName   // the root message's package
	pkgs    []protoreflect.FullName // the root file's closure first, then the rest
	learned map[string]protoreflect.FullName
}

// NewScope returns the scope of a case whose root message is root, with
// every file of files visible.
func NewScope(files *protoregistry.Files, root protoreflect.MessageDescriptor) *Scope {
	s := &Scope{files: files, learned: map[string]protoreflect.FullName{}}
	seen := map[protoreflect.FullName]bool{}
	add := func(p protoreflect.FullName) {
		if !seen[p] {
			seen[p] = true
			s.pkgs = append(s.pkgs, p)
		}
	}
	if root != nil {
		s.home = root.ParentFile().Package()
		visited := map[string]bool{}
		queue := []protoreflect.FileDescriptor{root.ParentFile()}
		for len(queue) > 0 {
			fd := queue[0]
			queue = queue[1:]
			if visited[fd.Path()] {
				continue
			}
			visited[fd.Path()] = true
			add(fd.Package())
			for i := range fd.Imports().Len() {
				queue = append(queue, fd.Imports().Get(i).FileDescriptor)
			}
		}
	}
	var rest []protoreflect.FullName
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		rest = append(rest, fd.Package())
		return true
	})
	slices.Sort(rest)
	for _, p := range rest {
		add(p)
	}
	return s
}

// Package returns the package a C++ namespace ("core", "::oracle::core",
// "oracle::extra::phaser") names: one it has named in this scope already,
// else the first package it matches by the generator's convention.
func (s *Scope) Package(namespace string) (protoreflect.FullName, bool) {
	ns := splitNamespace(namespace)
	if len(ns) == 0 {
		return s.home, true
	}
	if p, ok := s.learned[strings.Join(ns, "::")]; ok {
		return p, true
	}
	if c := s.conventional(ns); len(c) > 0 {
		return c[0], true
	}
	return "", false
}

func splitNamespace(ns string) []string {
	ns = strings.TrimPrefix(ns, "::")
	if ns == "" {
		return nil
	}
	return strings.Split(ns, "::")
}

// conventional returns the packages ns names by the generator's namespace
// convention, best match first: a::b (the package a.b), a::b::X
// (add_namespace=X), then the trailing parts b and b::X.
func (s *Scope) conventional(ns []string) []protoreflect.FullName {
	var exact, added, suffix, suffixAdded []protoreflect.FullName
	for _, p := range s.pkgs {
		if p == "" {
			continue
		}
		parts := strings.Split(string(p), ".")
		switch {
		case slices.Equal(ns, parts):
			exact = append(exact, p)
		case len(ns) == len(parts)+1 && slices.Equal(ns[:len(parts)], parts):
			added = append(added, p)
		case len(ns) < len(parts) && slices.Equal(ns, parts[len(parts)-len(ns):]):
			suffix = append(suffix, p)
		case len(ns) >= 2 && len(ns)-1 < len(parts) && slices.Equal(ns[:len(ns)-1], parts[len(parts)-len(ns)+1:]):
			suffixAdded = append(suffixAdded, p)
		}
	}
	return slices.Concat(exact, added, suffix, suffixAdded)
}

// ResolveType returns the message or enum descriptor that the C++ type name
// cppName denotes. The name's last component is the C++ class name, whose
// '_' may stand for nesting ("Simple_Sub" is oracle.core.Simple.Sub);
// nesting may also be written with "::" ("core::Simple::Sub").
func (s *Scope) ResolveType(cppName string) (protoreflect.Descriptor, error) {
	parts := splitNamespace(cppName)
	if len(parts) == 0 {
		return nil, fmt.Errorf("goldens: empty C++ type name")
	}
	// Every split of the name into namespace :: type, the longest
	// namespace first.
	for k := len(parts) - 1; k >= 0; k-- {
		ns, rel := parts[:k], strings.Join(parts[k:], ".")
		if !protoreflect.FullName(rel).IsValid() {
			return nil, fmt.Errorf("goldens: %q is not a C++ type name", cppName)
		}
		if d, err := s.resolveIn(ns, rel); d != nil || err != nil {
			return d, err
		}
	}
	return nil, fmt.Errorf("goldens: C++ type %s: no message or enum of the case's schema matches", cppName)
}

// resolveIn looks rel up in the package(s) the namespace ns names.
func (s *Scope) resolveIn(ns []string, rel string) (protoreflect.Descriptor, error) {
	if len(ns) == 0 {
		if d := findType(s.files, s.home, rel); d != nil {
			return d, nil
		}
		for _, p := range s.pkgs {
			if d := findType(s.files, p, rel); d != nil {
				return d, nil
			}
		}
		return nil, nil
	}
	key := strings.Join(ns, "::")
	if p, ok := s.learned[key]; ok {
		if d := findType(s.files, p, rel); d != nil {
			return d, nil
		}
	}
	var found []protoreflect.FullName
	for _, p := range s.conventional(ns) {
		if findType(s.files, p, rel) != nil {
			found = append(found, p)
			break
		}
	}
	if len(found) == 0 {
		// An alias: the packages that declare the type, those whose name
		// the alias echoes first.
		var echo []protoreflect.FullName
		for _, p := range s.pkgs {
			if findType(s.files, p, rel) == nil {
				continue
			}
			found = append(found, p)
			for _, part := range strings.Split(string(p), ".") {
				if part != "" && strings.Contains(key, part) {
					echo = append(echo, p)
					break
				}
			}
		}
		if len(echo) > 0 {
			found = echo
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	p := found[0]
	if prev, ok := s.learned[key]; ok && prev != p {
		return nil, fmt.Errorf("goldens: C++ namespace %s names both %s and %s", key, prev, p)
	}
	s.learned[key] = p
	return findType(s.files, p, rel), nil
}

// maxUnderscores bounds the '_' -> '.' combinations findType tries.
const maxUnderscores = 10

// findType returns the message or enum named rel in package pkg, reading
// the '_' of rel as nesting separators where the plain name does not exist,
// or nil.
func findType(files *protoregistry.Files, pkg protoreflect.FullName, rel string) protoreflect.Descriptor {
	var positions []int
	for i := 0; i < len(rel); i++ {
		if rel[i] == '_' {
			positions = append(positions, i)
		}
	}
	if len(positions) > maxUnderscores {
		positions = positions[:maxUnderscores]
	}
	// Try the name as written first, then with more and more of its '_'
	// read as nesting separators.
	for bitsSet := 0; bitsSet <= len(positions); bitsSet++ {
		for mask := 0; mask < 1<<len(positions); mask++ {
			if popcount(mask) != bitsSet {
				continue
			}
			b := []byte(rel)
			for j, pos := range positions {
				if mask&(1<<j) != 0 {
					b[pos] = '.'
				}
			}
			name := protoreflect.FullName(string(b))
			if pkg != "" {
				name = pkg + "." + name
			}
			if !name.IsValid() {
				continue
			}
			d, err := files.FindDescriptorByName(name)
			if err != nil {
				continue
			}
			switch d.(type) {
			case protoreflect.MessageDescriptor, protoreflect.EnumDescriptor:
				return d
			}
		}
	}
	return nil
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// Descriptor returns the protobuf enum type of e (see [Scope.ResolveType]).
func (e Enum) Descriptor(s *Scope) (protoreflect.EnumDescriptor, error) {
	d, err := s.ResolveType(e.Type)
	if err != nil {
		return nil, err
	}
	ed, ok := d.(protoreflect.EnumDescriptor)
	if !ok {
		return nil, fmt.Errorf("goldens: %s is a message, not an enum", e.Type)
	}
	return ed, nil
}

// Number returns the protobuf number of e: the value of a static_cast, or
// the number of the enumerator, whose C++ name is either the proto value
// name ("MOOD_CALM") or, for a nested enum, that name prefixed with the C++
// type name ("Simple_Phase_PHASE_RISING").
func (e Enum) Number(s *Scope) (protoreflect.EnumNumber, error) {
	ed, err := e.Descriptor(s)
	if err != nil {
		return 0, err
	}
	if e.Name == "" {
		return protoreflect.EnumNumber(e.Value), nil
	}
	values := ed.Values()
	if v := values.ByName(protoreflect.Name(e.Name)); v != nil {
		return v.Number(), nil
	}
	typeParts := strings.Split(e.Type, "::")
	if rest, ok := strings.CutPrefix(e.Name, typeParts[len(typeParts)-1]+"_"); ok {
		if v := values.ByName(protoreflect.Name(rest)); v != nil {
			return v.Number(), nil
		}
	}
	return 0, fmt.Errorf("goldens: %s: no such value in enum %s", e, ed.FullName())
}
