package gen

import (
	"fmt"
	"math"
	"strconv"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Defaults of absent fields. A getter of an absent field returns the
// field's default: proto2's [default = ...], the first value of a proto2
// enum (which need not be 0), else the zero value. The defaults are
// declared as protoc-gen-go declares them (Default_Msg_Field), and a
// scalar getter passes the default's stored bits to the engine as a
// constant, for its absent branch: it inlines as the others do.

// hasDefault reports whether singular field f reads as something other
// than the zero value when absent.
func hasDefault(f *protogen.Field) bool {
	fd := f.Desc
	if fd.IsList() || fd.IsMap() || fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		return false
	}
	return fd.HasDefault() || fd.Kind() == protoreflect.EnumKind && fd.Default().Enum() != 0
}

// defaultName names the declaration of field f's default.
func (g *fileGen) defaultName(m *protogen.Message, f *protogen.Field) string {
	return "Default_" + m.GoIdent.GoName + "_" + g.names[f]
}

// defaultBits returns the stored bits of field f's default (a scalar or
// enum) and a comment saying what they are.
func defaultBits(f *protogen.Field) (string, string) {
	d := f.Desc.Default()
	var bits uint64
	what := fmt.Sprint(d.Interface())
	switch f.Desc.Kind() {
	case protoreflect.BoolKind:
		if d.Bool() {
			bits = 1
		}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		bits = uint64(uint32(int32(d.Int())))
	case protoreflect.EnumKind:
		bits = uint64(uint32(int32(d.Enum())))
		what = string(defaultEnumValue(f).Desc.Name())
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		bits = d.Uint()
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		bits = uint64(d.Int())
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		bits = d.Uint()
	case protoreflect.FloatKind:
		bits = uint64(math.Float32bits(float32(d.Float())))
	case protoreflect.DoubleKind:
		bits = math.Float64bits(d.Float())
	}
	return fmt.Sprintf("%#x", bits), "the default, " + what
}

// defaults declares the defaults of m's fields, as protoc-gen-go does.
func (g *fileGen) defaults(m *protogen.Message) {
	var consts, vars []string
	for _, f := range m.Fields {
		if !hasDefault(f) {
			continue
		}
		name := g.defaultName(m, f)
		d := f.Desc.Default()
		switch k := f.Desc.Kind(); k {
		case protoreflect.StringKind:
			consts = append(consts, fmt.Sprintf("%s = %s", name, strconv.Quote(d.String())))
		case protoreflect.BytesKind:
			vars = append(vars, fmt.Sprintf("%s = []byte(%s)", name, strconv.Quote(string(d.Bytes()))))
		case protoreflect.EnumKind:
			val := defaultEnumValue(f)
			if g.phaserPkg(f.Enum.Desc.ParentFile()) == g.pkg {
				consts = append(consts, fmt.Sprintf("%s = %s", name, val.GoIdent.GoName))
			} else {
				consts = append(consts, fmt.Sprintf("%s = %s(%d) // %s", name, g.enumType(f.Enum), val.Desc.Number(), val.Desc.Name()))
			}
		case protoreflect.FloatKind, protoreflect.DoubleKind:
			goType := "float64"
			if k == protoreflect.FloatKind {
				goType = "float32"
			}
			switch v := d.Float(); {
			case math.IsInf(v, -1):
				vars = append(vars, fmt.Sprintf("%s = %s(%s(-1))", name, goType, g.ident("math", "Inf")))
			case math.IsInf(v, 1):
				vars = append(vars, fmt.Sprintf("%s = %s(%s(+1))", name, goType, g.ident("math", "Inf")))
			case math.IsNaN(v):
				vars = append(vars, fmt.Sprintf("%s = %s(%s())", name, goType, g.ident("math", "NaN")))
			default:
				consts = append(consts, fmt.Sprintf("%s = %s(%v)", name, goType, v))
			}
		default:
			consts = append(consts, fmt.Sprintf("%s = %s(%v)", name, g.scalarOf(f.Desc, f).goType, d.Interface()))
		}
	}
	if len(consts) > 0 {
		g.P("// Default values for ", m.GoIdent.GoName, " fields: what their getters return when they are")
		g.P("// absent.")
		g.P("const (")
		for _, c := range consts {
			g.P(c)
		}
		g.P(")")
		g.P()
	}
	if len(vars) > 0 {
		g.P("// Default values for ", m.GoIdent.GoName, " fields.")
		g.P("var (")
		for _, v := range vars {
			g.P(v)
		}
		g.P(")")
		g.P()
	}
}

// defaultEnumValue returns the value of enum field f's default: the
// declared one, else the enum's first value.
func defaultEnumValue(f *protogen.Field) *protogen.EnumValue {
	if ev := f.Desc.DefaultEnumValue(); ev != nil {
		return f.Enum.Values[ev.Index()]
	}
	return f.Enum.Values[0]
}
