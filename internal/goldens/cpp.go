package goldens

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// cppNamespaces maps the C++ namespace prefixes of the .ops files to
// protobuf packages.
var cppNamespaces = map[string]protoreflect.FullName{
	"core":     "oracle.core",
	"common":   "oracle.common",
	"xph":      "oracle.extra",
	"p2ph":     "oracle.p2",
	"pbfe_ros": "oracle.ros",
	"rosfe":    "oracle.ros",
	"gph":      "google.protobuf",
	"std_msgs": "std_msgs",
}

// Package returns the protobuf package that a C++ namespace prefix of the
// .ops files names ("core" -> "oracle.core", "xph" -> "oracle.extra",
// "rosfe" and "pbfe_ros" -> "oracle.ros", "gph" -> "google.protobuf", ...).
func Package(namespace string) (protoreflect.FullName, bool) {
	p, ok := cppNamespaces[strings.TrimPrefix(namespace, "::")]
	return p, ok
}

// maxUnderscores bounds the '_' -> '.' combinations tried by ResolveType.
const maxUnderscores = 10

// ResolveType finds the message or enum descriptor a C++ type name of the
// .ops files denotes: "core::Part", "xph::Level2", "core::Simple_Sub" (the
// C++ name of the nested type oracle.core.Simple.Sub), "gph::Timestamp". A
// name without a known namespace prefix ("Record") is looked up in pkg.
func ResolveType(files *protoregistry.Files, cppName string, pkg protoreflect.FullName) (protoreflect.Descriptor, error) {
	parts := strings.Split(strings.TrimPrefix(cppName, "::"), "::")
	if p, ok := cppNamespaces[parts[0]]; ok && len(parts) > 1 {
		pkg, parts = p, parts[1:]
	}
	rel := strings.Join(parts, ".")
	if !protoreflect.FullName(rel).IsValid() {
		return nil, fmt.Errorf("goldens: %q is not a C++ type name", cppName)
	}
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
				return d, nil
			}
		}
	}
	return nil, fmt.Errorf("goldens: C++ type %s: no message or enum in %q matches", cppName, pkg)
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// Descriptor returns the protobuf enum type of e (see [ResolveType]; pkg is
// used for a type without a namespace prefix).
func (e Enum) Descriptor(files *protoregistry.Files, pkg protoreflect.FullName) (protoreflect.EnumDescriptor, error) {
	d, err := ResolveType(files, e.Type, pkg)
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
func (e Enum) Number(files *protoregistry.Files, pkg protoreflect.FullName) (protoreflect.EnumNumber, error) {
	ed, err := e.Descriptor(files, pkg)
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
