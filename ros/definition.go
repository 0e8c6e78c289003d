package ros

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file computes the ROS1 identity of a message type the way genmsg does
// for a .msg file: its data type ("pkg/Name"), its message definition (the
// text a ROS publisher sends as message_definition in its connection header)
// and, in md5.go, its md5sum. The text is built from the descriptor and the
// Phaser options (phaser/options.proto):
//
//   - phaser.ros_message.data_type names the type; without it a package whose
//     name ends in ".proto" gives "pkg/Name" ("example_msgs.proto" ->
//     "example_msgs/Name"), and std_msgs.Header (a ROS intrinsic) is
//     "std_msgs/Header". google.protobuf.Timestamp and Duration are the ROS
//     builtins time and duration.
//   - phaser.ros_message.constants, or the values of the message's nested
//     enums that carry phaser.ros_enum (renamed, revalued or left out by
//     phaser.ros_enum_value), are the constants ("uint8 HIGH=200"), written
//     before the fields.
//   - A field's ROS type is phaser.ros_field.type, else inferred: bool, int32
//     (int32, sint32, sfixed32), uint32 (uint32, fixed32), int64, uint64,
//     float32, float64, string, uint8[] (bytes), time, duration, the enum's
//     phaser.ros_enum type (int32 without it), or the nested message's data
//     type (phaser.ros_field.nested_data_type when set). Repeated fields add
//     [] or [N] (phaser.array_size). Its name is phaser.ros_field.name, else
//     the protobuf name.
//   - A field whose ROS type is not a builtin and not a protobuf message
//     names its type with nested_data_type and gives that type's md5 text in
//     nested_md5_text, which is also its definition.
//
// Comments and blank lines of the original .msg files cannot be recovered,
// so the definition is the canonical comment-free text: one line per
// constant ("type NAME=value") and per field ("type name").

// separator precedes each dependency in a full message definition.
var separator = strings.Repeat("=", 80) + "\n"

// builtins are the ROS1 primitive type names.
var builtins = map[string]bool{
	"bool": true, "byte": true, "char": true, "int8": true, "uint8": true,
	"int16": true, "uint16": true, "int32": true, "uint32": true,
	"int64": true, "uint64": true, "float32": true, "float64": true,
	"string": true, "time": true, "duration": true,
}

// baseType strips an array suffix: "float64[9]" -> "float64".
func baseType(t string) string {
	if i := strings.IndexByte(t, '['); i >= 0 {
		return t[:i]
	}
	return t
}

// DataType returns the ROS data type of message md, "pkg/Name": the
// phaser.ros_message data_type option, else inferred from a package named
// "pkg.proto", else "std_msgs/Header" for std_msgs.Header.
// google.protobuf.Timestamp and Duration give the builtins "time" and
// "duration".
func DataType(md protoreflect.MessageDescriptor) (string, error) {
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		return "time", nil
	case "google.protobuf.Duration":
		return "duration", nil
	}
	if _, rm, _, ok := optionField(options(md), optRosMsg); ok {
		if dt := optionString(rm, 1); dt != "" {
			pkg, name, ok := strings.Cut(dt, "/")
			if !ok || pkg == "" || name == "" || strings.Contains(name, "/") {
				return "", fmt.Errorf("ros: %s: phaser.ros_message.data_type %q is not of the form pkg/Name", md.FullName(), dt)
			}
			return dt, nil
		}
	}
	if pkg, ok := strings.CutSuffix(string(md.ParentFile().Package()), ".proto"); ok && pkg != "" {
		return pkg + "/" + string(md.Name()), nil
	}
	if md.FullName() == "std_msgs.Header" {
		return "std_msgs/Header", nil
	}
	return "", fmt.Errorf("ros: cannot infer the ROS data type of %s: set phaser.ros_message.data_type or use a package named pkg.proto", md.FullName())
}

// Definition returns the full ROS1 message definition of message md, as a ROS
// publisher sends it in the message_definition field of its connection
// header: t's own text, then for each message type it depends on (depth
// first, each once, in field order, as genmsg orders them) a line of 80 '=',
// "MSG: pkg/Name" and that type's text. Nested types are written as .msg
// files usually write them: std_msgs/Header as "Header", a type of the same
// ROS package by its bare name, others as "pkg/Name".
func Definition(md protoreflect.MessageDescriptor) (string, error) {
	dt, err := notBuiltin(md)
	if err != nil {
		return "", err
	}
	s, err := specOf(md, dt)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(s.text())
	seen := map[string]bool{}
	if err := appendDeps(&b, s, seen, map[protoreflect.FullName]bool{md.FullName(): true}); err != nil {
		return "", err
	}
	return b.String(), nil
}

// appendDeps writes the definitions s depends on, depth first.
func appendDeps(b *strings.Builder, s *spec, seen map[string]bool, visiting map[protoreflect.FullName]bool) error {
	for _, f := range s.fields {
		if f.builtin || seen[f.depType] {
			continue
		}
		seen[f.depType] = true
		b.WriteString(separator)
		b.WriteString("MSG: " + f.depType + "\n")
		if f.dep == nil {
			b.WriteString(f.md5Text + "\n")
			continue
		}
		if visiting[f.dep.FullName()] {
			return fmt.Errorf("ros: %s contains itself: ROS1 has no recursive messages", f.dep.FullName())
		}
		ds, err := specOf(f.dep, f.depType)
		if err != nil {
			return err
		}
		b.WriteString(ds.text())
		visiting[f.dep.FullName()] = true
		err = appendDeps(b, ds, seen, visiting)
		delete(visiting, f.dep.FullName())
		if err != nil {
			return err
		}
	}
	return nil
}

// notBuiltin fails for the message types that are ROS builtins.
func notBuiltin(md protoreflect.MessageDescriptor) (string, error) {
	dt, err := DataType(md)
	if err != nil {
		return "", err
	}
	if builtins[dt] {
		return "", fmt.Errorf("ros: %s is the ROS builtin %s, not a message", md.FullName(), dt)
	}
	return dt, nil
}

// spec is the ROS view of one message type.
type spec struct {
	dataType  string
	constants []string // "type NAME=value"
	fields    []specField
}

// specField is one field of a spec.
type specField struct {
	typ     string // type as written in the definition: "Header", "uint8[]", "geometry_msgs/Point[]"
	md5Type string // type as written in the md5 text, for builtins
	name    string
	builtin bool
	depType string                         // data type of a non-builtin field
	dep     protoreflect.MessageDescriptor // its message (nil when given by nested_md5_text)
	md5Text string                         // nested_md5_text
}

func (s *spec) text() string {
	var b strings.Builder
	for _, c := range s.constants {
		b.WriteString(c + "\n")
	}
	for _, f := range s.fields {
		b.WriteString(f.typ + " " + f.name + "\n")
	}
	return b.String()
}

// specOf reads the ROS view of message type md, of ROS data type dt, from
// its descriptor.
func specOf(md protoreflect.MessageDescriptor, dt string) (*spec, error) {
	s := &spec{dataType: dt}
	var err error
	if s.constants, err = constantsOf(md); err != nil {
		return nil, err
	}
	fds := md.Fields()
	for i := range fds.Len() {
		f, err := fieldOf(fds.Get(i), dt)
		if err != nil {
			return nil, err
		}
		s.fields = append(s.fields, f)
	}
	return s, nil
}

// rosFieldOption is a field's phaser.ros_field option.
type rosFieldOption struct {
	typ, name, md5Text, dataType string
}

func rosFieldOf(fd protoreflect.FieldDescriptor) (rosFieldOption, uint64, bool) {
	raw := options(fd)
	var o rosFieldOption
	if _, rf, _, ok := optionField(raw, optRosField); ok {
		o = rosFieldOption{optionString(rf, 1), optionString(rf, 2), optionString(rf, 3), optionString(rf, 4)}
	}
	_, _, n, hasSize := optionField(raw, optArraySize)
	return o, n, hasSize
}

// fieldOf describes field fd of a message of ROS data type owner.
func fieldOf(fd protoreflect.FieldDescriptor, owner string) (specField, error) {
	fail := func(format string, args ...any) (specField, error) {
		return specField{}, fmt.Errorf("ros: %s: "+format, append([]any{fd.FullName()}, args...)...)
	}
	if fd.ContainingOneof() != nil {
		return fail("a oneof (or proto3 optional) field has no ROS1 message definition")
	}
	if fd.IsMap() {
		return fail("a map field has no ROS1 message definition")
	}
	opt, n, hasSize := rosFieldOf(fd)
	suffix := ""
	if fd.IsList() {
		suffix = "[]"
		if hasSize {
			if n == 0 {
				return fail("phaser.array_size must be positive")
			}
			suffix = "[" + strconv.FormatUint(n, 10) + "]"
		}
	} else if hasSize {
		return fail("phaser.array_size needs a repeated field")
	}
	f := specField{name: string(fd.Name())}
	if opt.name != "" {
		f.name = opt.name
	}
	var base string // inferred base type when no ros_field type
	switch fd.Kind() {
	case protoreflect.BoolKind:
		base = "bool"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		base = "int32"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		base = "uint32"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		base = "int64"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		base = "uint64"
	case protoreflect.FloatKind:
		base = "float32"
	case protoreflect.DoubleKind:
		base = "float64"
	case protoreflect.StringKind:
		base = "string"
	case protoreflect.BytesKind:
		if fd.IsList() {
			if opt.typ == "" {
				return fail("repeated bytes has no ROS1 type (ROS has no arrays of arrays)")
			}
		} else {
			base, suffix = "uint8", "[]"
		}
	case protoreflect.EnumKind:
		base = "int32"
		if _, re, _, ok := optionField(options(fd.Enum()), optRosEnum); ok {
			if t := optionString(re, 1); t != "" {
				base = t
			}
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if fd.Message().FullName() == "google.protobuf.Any" {
			return fail("google.protobuf.Any has no ROS1 message definition")
		}
		if opt.md5Text == "" {
			f.dep = fd.Message()
			dt, err := DataType(f.dep)
			switch {
			case err == nil && builtins[dt]:
				f.dep = nil
			case err == nil:
				f.depType = dt
			case opt.dataType == "":
				return fail("nested message: %v", err)
			}
			base = dt
		}
	}
	if opt.dataType != "" {
		f.depType = opt.dataType
		base = opt.dataType
	}
	typ := base + suffix
	if opt.typ != "" {
		typ = opt.typ
		switch {
		case strings.Contains(typ, "["):
		case fd.IsList():
			typ += suffix
		case fd.Kind() == protoreflect.BytesKind && typ != "string":
			typ += "[]" // "uint8" on bytes: uint8[]
		}
		if err := checkTypeOption(fd, typ, suffix); err != nil {
			return fail("phaser.ros_field.type %q: %v", opt.typ, err)
		}
	}
	if typ == "" || base == "" && opt.typ == "" {
		return fail("no ROS type: set phaser.ros_field.type")
	}
	f.builtin = builtins[baseType(typ)]
	if f.builtin {
		f.dep, f.depType = nil, ""
		f.typ, f.md5Type = typ, typ
		return f, nil
	}
	if opt.md5Text != "" {
		if opt.dataType == "" {
			return fail("phaser.ros_field.nested_md5_text needs nested_data_type")
		}
		f.dep, f.md5Text = nil, opt.md5Text
	} else if f.dep == nil {
		return fail("ROS type %q is neither a builtin nor a protobuf message: set nested_data_type and nested_md5_text", typ)
	}
	if err := checkDataType(f.depType); err != nil {
		return fail("%v", err)
	}
	if opt.typ != "" {
		f.typ = typ
	} else {
		f.typ = shortType(f.depType, owner) + suffix
	}
	return f, nil
}

// checkTypeOption checks that a phaser.ros_field type (array suffix added)
// describes the ROS1 bytes the field is written as: the same array suffix,
// a string type for strings, a byte array for bytes, a number of the same
// kind (integer or floating point) for numbers.
func checkTypeOption(fd protoreflect.FieldDescriptor, typ, suffix string) error {
	base := baseType(typ)
	if fd.Kind() == protoreflect.BytesKind && !fd.IsList() {
		switch typ {
		case "uint8[]", "char[]", "int8[]", "byte[]", "string":
			return nil
		}
		return fmt.Errorf("a bytes field is written as a ROS byte array (uint8[]) or string")
	}
	if got := typ[len(base):]; got != suffix {
		return fmt.Errorf("array suffix %q where the field has %q", got, suffix)
	}
	if !builtins[base] {
		return nil // a nested type: needs nested_data_type and nested_md5_text
	}
	switch fd.Kind() {
	case protoreflect.StringKind:
		if base != "string" {
			return fmt.Errorf("a string field is written as a ROS string")
		}
	case protoreflect.BytesKind: // repeated
		if base != "string" {
			return fmt.Errorf("repeated bytes are written as a ROS string array")
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		dt, _ := DataType(fd.Message())
		if base != dt {
			return fmt.Errorf("a %s field is not a ROS %s", fd.Message().FullName(), base)
		}
	default:
		isFloat := fd.Kind() == protoreflect.FloatKind || fd.Kind() == protoreflect.DoubleKind
		switch base {
		case "string", "time", "duration":
			return fmt.Errorf("a %v field is not a ROS %s", fd.Kind(), base)
		case "float32", "float64":
			if !isFloat {
				return fmt.Errorf("an integer field is not a ROS %s", base)
			}
		default:
			if isFloat {
				return fmt.Errorf("a floating-point field is not a ROS %s", base)
			}
		}
	}
	return nil
}

func checkDataType(dt string) error {
	pkg, name, ok := strings.Cut(dt, "/")
	if !ok || pkg == "" || name == "" || strings.Contains(name, "/") {
		return fmt.Errorf("ROS data type %q is not of the form pkg/Name", dt)
	}
	return nil
}

// shortType writes nested type dt as a .msg file of type owner would:
// "Header" for std_msgs/Header, the bare name within the same package.
func shortType(dt, owner string) string {
	if dt == "std_msgs/Header" {
		return "Header"
	}
	pkg, name, _ := strings.Cut(dt, "/")
	if opkg, _, _ := strings.Cut(owner, "/"); opkg == pkg {
		return name
	}
	return dt
}

// constantsOf returns the ROS constants of a message: those of its
// phaser.ros_message option, or the values of its nested enums that carry
// phaser.ros_enum. A message cannot have both.
func constantsOf(md protoreflect.MessageDescriptor) ([]string, error) {
	var consts []string
	if _, rm, _, ok := optionField(options(md), optRosMsg); ok {
		for _, c := range repeatedBytes(rm, 2) {
			typ, name, val := optionString(c, 1), optionString(c, 2), strings.TrimSpace(optionString(c, 3))
			if !builtins[typ] || typ == "time" || typ == "duration" || name == "" {
				return nil, fmt.Errorf("ros: %s: constant %q of type %q: constants need a name and a builtin type", md.FullName(), name, typ)
			}
			consts = append(consts, typ+" "+name+"="+val)
		}
	}
	fromMessage := len(consts) > 0
	enums := md.Enums()
	for i := range enums.Len() {
		ed := enums.Get(i)
		_, re, _, ok := optionField(options(ed), optRosEnum)
		if !ok {
			continue
		}
		if fromMessage {
			return nil, fmt.Errorf("ros: %s: phaser.ros_message.constants cannot be combined with phaser.ros_enum constants (enum %s)", md.FullName(), ed.Name())
		}
		typ := optionString(re, 1)
		if !builtins[typ] || typ == "string" || typ == "time" || typ == "duration" {
			return nil, fmt.Errorf("ros: enum %s: phaser.ros_enum.type %q is not a ROS integer type", ed.FullName(), typ)
		}
		vals := ed.Values()
		for j := range vals.Len() {
			vd := vals.Get(j)
			name, val := string(vd.Name()), strconv.Itoa(int(vd.Number()))
			if _, rv, _, ok := optionField(options(vd), optRosEnumV); ok {
				if _, _, ignore, _ := optionField(rv, 1); ignore != 0 {
					continue
				}
				if s := optionString(rv, 2); s != "" {
					name = s
				}
				if s := strings.TrimSpace(optionString(rv, 3)); s != "" {
					val = s
				}
			}
			consts = append(consts, typ+" "+name+"="+val)
		}
	}
	return consts, nil
}

// repeatedBytes returns every length-delimited occurrence of field num.
func repeatedBytes(b []byte, num protowire.Number) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n, t, l := protowire.ConsumeTag(b)
		if l < 0 {
			break
		}
		b = b[l:]
		l = protowire.ConsumeFieldValue(n, t, b)
		if l < 0 {
			break
		}
		if n == num && t == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b)
			out = append(out, v)
		}
		b = b[l:]
	}
	return out
}
