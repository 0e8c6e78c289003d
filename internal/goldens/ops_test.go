package goldens

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// sameValue compares values including their dynamic type and float bits.
func sameValue(a, b Value) bool {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return false
	}
	switch a := a.(type) {
	case float64:
		return math.Float64bits(a) == math.Float64bits(b.(float64))
	case float32:
		return math.Float32bits(a) == math.Float32bits(b.(float32))
	}
	return reflect.DeepEqual(a, b)
}

func TestParseStmtTable(t *testing.T) {
	ident := func(n string) *Ident { return &Ident{Name: n} }
	m := ident("m")
	tests := []struct {
		line     string
		vars     map[string]Value
		bind     string
		bindType string
		method   string // top-level call's Method, or "=" for an assignment
		args     []Value
		ast      Expr   // full AST, when given
		str      string // String(), when it differs from line without ';'
	}{
		{line: "auto m = Record::CreateMutable(zeroed_buffer, 8192, ::phaser::Tuning::kPerformance);", bind: "m", bindType: "auto",
			method: "Record::CreateMutable", args: []Value{ZeroedBuffer{}, int32(8192), Enum{Type: "phaser::Tuning", Name: "kPerformance"}}},
		{line: "auto m = Deep::CreateDynamicMutable(2048, ::phaser::Tuning::kSize);", bind: "m", bindType: "auto",
			method: "Deep::CreateDynamicMutable", args: []Value{int32(2048), Enum{Type: "phaser::Tuning", Name: "kSize"}}},
		{line: "m.set_total(-9000000000LL)", method: "set_total", args: []Value{int64(-9000000000)},
			ast: &Call{Recv: m, Method: "set_total", Args: []Expr{&Unary{Op: "-", X: &IntLit{Text: "9000000000LL", Value: 9000000000, Base: 10, Longs: 2, Suffix: "LL"}}}}},
		{line: "m.set_total(-9223372036854775807LL-1)", method: "set_total", args: []Value{int64(math.MinInt64)}, str: "m.set_total(-9223372036854775807LL - 1)"},
		{line: "m.set_first_f64(0xfedcba9876543210ULL)", method: "set_first_f64", args: []Value{uint64(0xfedcba9876543210)}},
		{line: "m.set_flags(0xbeef)", method: "set_flags", args: []Value{int32(0xbeef)}},
		{line: "m.set_v_uint32(4000000000u)", method: "set_v_uint32", args: []Value{uint32(4000000000)}},
		{line: "m.set_ratio(1.5f)", method: "set_ratio", args: []Value{float32(1.5)}},
		{line: "m.set_ratio(-0.0f)", method: "set_ratio", args: []Value{float32(math.Copysign(0, -1))}},
		{line: "m.set_v_double(-6.5e-7)", method: "set_v_double", args: []Value{-6.5e-7}},
		{line: "m.set_weight(1e300)", method: "set_weight", args: []Value{1e300}},
		{line: "m.set_blob(kBin)", method: "set_blob", args: []Value{"\x00\x01\x02\x7f\x80\xfe\xff"}},
		{line: "m.add_titles(Pattern(30))", method: "add_titles", args: []Value{"abcdefghijklmnopqrstuvwxyzabcd"}},
		{line: "m.set_titles(0, Pattern(28, 'A'))", method: "set_titles", args: []Value{int32(0), "ABCDEFGHIJKLMNOPQRSTUVWXYZAB"}},
		{line: "m.add_titles(Pattern(static_cast<size_t>(i * 7)))", vars: map[string]Value{"i": int32(2)}, method: "add_titles", args: []Value{"abcdefghijklmn"}},
		{line: "m.add_counts(i * 1000 - 2)", vars: map[string]Value{"i": int32(3)}, method: "add_counts", args: []Value{int32(2998)}},
		{line: "core::Part* in = m.mutable_part();", bind: "in", bindType: "core::Part*", method: "mutable_part", args: []Value{}},
		{line: "in->set_label(str)", vars: map[string]Value{"str": "part label"}, method: "set_label", args: []Value{"part label"},
			ast: &Call{Recv: ident("in"), Arrow: true, Method: "set_label", Args: []Expr{ident("str")}}},
		{line: "auto part_any = m.mutable_extra()->MutableAny<core::Part>();", bind: "part_any", bindType: "auto", method: "MutableAny",
			ast: &Call{Recv: &Call{Recv: m, Method: "mutable_extra", Args: []Expr{}}, Arrow: true, Method: "MutableAny", TemplateArgs: []string{"core::Part"}, Args: []Expr{}}},
		{line: "m.set_v_int64(std::numeric_limits<int64_t>::min())", method: "set_v_int64", args: []Value{int64(math.MinInt64)},
			ast: &Call{Recv: m, Method: "set_v_int64", Args: []Expr{&Call{Method: "std::numeric_limits::min", TemplateArgs: []string{"int64_t"}, TemplateAfter: 2, Args: []Expr{}}}}},
		{line: "m.set_v_int32(std::numeric_limits<int32_t>::min())", method: "set_v_int32", args: []Value{int32(math.MinInt32)}},
		{line: "m.set_v_uint64(std::numeric_limits<uint64_t>::max())", method: "set_v_uint64", args: []Value{uint64(math.MaxUint64)}},
		{line: "m.set_v_float(-std::numeric_limits<float>::infinity())", method: "set_v_float", args: []Value{float32(math.Inf(-1))}},
		{line: "m.set_v_double(std::numeric_limits<double>::denorm_min())", method: "set_v_double", args: []Value{5e-324}},
		{line: "m.set_v_double(std::numeric_limits<double>::quiet_NaN())", method: "set_v_double", args: []Value{math.Float64frombits(0x7ff8000000000000)}},
		{line: `m.set_v_string(std::string("nul\0inside", 10))`, method: "set_v_string", args: []Value{"nul\x00inside"}},
		{line: `m.set_v_bytes(std::string("\x01\x02", 2))`, method: "set_v_bytes", args: []Value{"\x01\x02"}},
		{line: `m.set_v_bytes(std::string(3, '\xff'))`, method: "set_v_bytes", args: []Value{"\xff\xff\xff"}},
		{line: `m.add_items(std::string(2, '\0'))`, method: "add_items", args: []Value{"\x00\x00"}},
		{line: "m.set_v_enum(static_cast<core::Level>(12345))", method: "set_v_enum", args: []Value{Enum{Type: "core::Level", Value: 12345}}},
		{line: "m.set_phase(core::Simple_Phase::Simple_Phase_PHASE_RISING)", method: "set_phase", args: []Value{Enum{Type: "core::Simple_Phase", Name: "Simple_Phase_PHASE_RISING"}}},
		{line: "m.add_r_int64(-(int64_t(1) << (i % 60)))", vars: map[string]Value{"i": int32(61)}, method: "add_r_int64", args: []Value{int64(-2)}},
		{line: "m.add_longs(-(int64_t(1) << (20 * i)))", vars: map[string]Value{"i": int32(3)}, method: "add_longs", args: []Value{int64(-1 << 60)}},
		{line: "m.add_r_sint32(i % 2 ? -i : i)", vars: map[string]Value{"i": int32(3)}, method: "add_r_sint32", args: []Value{int32(-3)},
			ast: &Call{Recv: m, Method: "add_r_sint32", Args: []Expr{&Cond{
				Cond: &Binary{Op: "%", X: ident("i"), Y: &IntLit{Text: "2", Value: 2, Base: 10}},
				Then: &Unary{Op: "-", X: ident("i")}, Else: ident("i")}}}},
		{line: "m.add_r_fixed64(~uint64_t(i))", vars: map[string]Value{"i": int32(5)}, method: "add_r_fixed64", args: []Value{^uint64(5)}},
		{line: "m.add_r_sint64(int64_t(-1000000007) * i)", vars: map[string]Value{"i": int32(3)}, method: "add_r_sint64", args: []Value{int64(-3000000021)}},
		{line: "m.add_r_uint32(uint32_t(i) * 100000u)", vars: map[string]Value{"i": int32(42950)}, method: "add_r_uint32", args: []Value{uint32(32704)}},
		{line: "m.add_r_float(float(i) / 4.0f)", vars: map[string]Value{"i": int32(3)}, method: "add_r_float", args: []Value{float32(0.75)}},
		{line: "m.add_r_double(i * -1.125)", vars: map[string]Value{"i": int32(2)}, method: "add_r_double", args: []Value{-2.25}},
		{line: "m.add_r_bool(i % 3 == 0)", vars: map[string]Value{"i": int32(6)}, method: "add_r_bool", args: []Value{true}},
		{line: "m.add_r_bytes(std::string(size_t(i % 4), char(i)))", vars: map[string]Value{"i": int32(7)}, method: "add_r_bytes", args: []Value{"\x07\x07\x07"}},
		{line: "m.add_r_enum(i % 2 ? xph::Color::COLOR_NEGATIVE : xph::Color::COLOR_BIG)", vars: map[string]Value{"i": int32(1)}, method: "add_r_enum",
			args: []Value{Enum{Type: "xph::Color", Name: "COLOR_NEGATIVE"}}},
		{line: "m.add_words(uint64_t(i) * 0x1111111111111111ULL)", vars: map[string]Value{"i": int32(15)}, method: "add_words", args: []Value{uint64(math.MaxUint64)}},
		{line: `p.set_label("part" + std::to_string(i))`, vars: map[string]Value{"i": int32(12)}, method: "set_label", args: []Value{"part12"}},
		{line: "memcpy(sp.data(), \"12345\", 5)", method: "memcpy",
			ast: &Call{Method: "memcpy", Args: []Expr{&Call{Recv: ident("sp"), Method: "data", Args: []Expr{}}, &StringLit{Raw: `"12345"`, Value: "12345"}, &IntLit{Text: "5", Value: 5, Base: 10}}}},
		{line: "ps[1].set_label(\"allocated 1\")", method: "set_label",
			ast: &Call{Recv: &Index{X: ident("ps"), Index: &IntLit{Text: "1", Value: 1, Base: 10}}, Method: "set_label", Args: []Expr{&StringLit{Raw: `"allocated 1"`, Value: "allocated 1"}}}},
		// ROS frontend.
		{line: "m.grid[0] = 11", method: "=",
			ast: &Assign{LHS: &Index{X: &Member{X: m, Name: "grid"}, Index: &IntLit{Text: "0", Value: 0, Base: 10}}, RHS: &IntLit{Text: "11", Value: 11, Base: 10}}},
		{line: "m.limbs[1]->index = 141", method: "=",
			ast: &Assign{LHS: &Member{X: &Index{X: &Member{X: m, Name: "limbs"}, Index: &IntLit{Text: "1", Value: 1, Base: 10}}, Arrow: true, Name: "index"}, RHS: &IntLit{Text: "141", Value: 141, Base: 10}}},
		{line: "m.joint->index = 6", method: "="},
		{line: "m.aliases.push_back(\"a1\")", method: "push_back", args: []Value{"a1"}},
		{line: "auto j = m.joints.Add();", bind: "j", bindType: "auto", method: "Add"},
		{line: "m.mode.emplace<rosfe::Robot::ModeNameAlternative>(\"mode name\")", method: "emplace", args: []Value{"mode name"},
			ast: &Call{Recv: &Member{X: m, Name: "mode"}, Method: "emplace", TemplateArgs: []string{"rosfe::Robot::ModeNameAlternative"}, Args: []Expr{&StringLit{Raw: `"mode name"`, Value: "mode name"}}}},
		{line: "m.mode.emplace<RB::ModeCountAlternative>(7)", method: "emplace", args: []Value{int32(7)}},
		{line: "auto& rp = m.reading.emplace<rosfe::Sensor::ReadingProbeAlternative>();", bind: "rp", bindType: "auto&", method: "emplace"},
		{line: "rosfe::Joint& j = m.mode.emplace<RB::ModeJointAlternative>();", bind: "j", bindType: "rosfe::Joint&", method: "emplace"},
		{line: "auto* h = m.mutable_header();", bind: "h", bindType: "auto*", method: "mutable_header"},
		{line: "::std_msgs::Header h = ::std_msgs::Header();", bind: "h", bindType: "::std_msgs::Header", method: "::std_msgs::Header", args: []Value{}},
		{line: "m.shade = rosfe::Shade::SHADE_DARK", method: "="},
		{line: "m.temperature = -40.5f", method: "="},
		{line: "auto src = xph::Leaf::CreateDynamicMutable(1024);", bind: "src", bindType: "auto", method: "xph::Leaf::CreateDynamicMutable", args: []Value{int32(1024)}},
		{line: "m.mutable_any()->PackFrom(src)", method: "PackFrom"},
		{line: "m.Clear()", method: "Clear", args: []Value{}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			s, err := ParseStmt(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if s.Bind != tt.bind || s.BindType != tt.bindType {
				t.Errorf("bind %q %q, want %q %q", s.BindType, s.Bind, tt.bindType, tt.bind)
			}
			want := strings.TrimSuffix(tt.line, ";")
			if tt.str != "" {
				want = tt.str
			}
			if got := s.String(); got != want {
				t.Errorf("String() = %q, want %q", got, want)
			}
			if tt.ast != nil && !reflect.DeepEqual(s.Expr, tt.ast) {
				t.Errorf("AST\n got %#v\nwant %#v", s.Expr, tt.ast)
			}
			switch e := s.Expr.(type) {
			case *Assign:
				if tt.method != "=" {
					t.Fatalf("got an assignment, want a call of %s", tt.method)
				}
				if _, err := Eval(e.RHS, tt.vars); err != nil {
					t.Errorf("RHS: %v", err)
				}
			case *Call:
				if e.Method != tt.method {
					t.Errorf("method %q, want %q", e.Method, tt.method)
				}
				if tt.args == nil {
					return
				}
				if len(e.Args) != len(tt.args) {
					t.Fatalf("%d args, want %d", len(e.Args), len(tt.args))
				}
				for i, a := range e.Args {
					v, err := Eval(a, tt.vars)
					if err != nil {
						t.Errorf("arg %d: %v", i, err)
					} else if !sameValue(v, tt.args[i]) {
						t.Errorf("arg %d = %#v (%T), want %#v (%T)", i, v, v, tt.args[i], tt.args[i])
					}
				}
			default:
				t.Fatalf("expression %T", e)
			}
		})
	}
}

func TestParseOpsProgram(t *testing.T) {
	src := `// case cont_demo (oracle.core.Record, dynamic, size)
// reopen demo.phaser.bin as a mutable message (copied)
// reopen repair: rebuilt free block header @1016 (beyond payload end 608) as length 8

m.set_count(m.count() + 1)
// i = 0
m.add_counts(i * 2)
// i = 1
// str = "s" + std::to_string(i)
auto p = m.add_parts();
p.set_label(str)
`
	p, err := ParseOps([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := CaseHeader{Name: "cont_demo", MessageType: "oracle.core.Record", BufferKind: "dynamic", Tuning: "size"}
	if p.Header != want {
		t.Errorf("header %+v, want %+v", p.Header, want)
	}
	wantReopen := &Reopen{Base: "demo", Note: "copied", Repair: "rebuilt free block header @1016 (beyond payload end 608) as length 8",
		RepairOffset: 1016, RepairPayloadEnd: 608, RepairLength: 8}
	if !reflect.DeepEqual(p.Reopen, wantReopen) {
		t.Errorf("reopen %+v, want %+v", p.Reopen, wantReopen)
	}
	if len(p.Stmts) != 4 {
		t.Fatalf("%d statements, want 4", len(p.Stmts))
	}
	lines := []int{5, 7, 10, 11}
	vars := []map[string]Value{nil, {"i": int32(0)}, {"i": int32(1), "str": "s1"}, {"i": int32(1), "str": "s1"}}
	for i, s := range p.Stmts {
		if s.Line != lines[i] || !reflect.DeepEqual(s.Vars, vars[i]) {
			t.Errorf("stmt %d: line %d vars %v, want line %d vars %v", i, s.Line, s.Vars, lines[i], vars[i])
		}
	}

	// Replay with hooks that keep a tiny message model.
	type msg struct {
		fields map[string]Value
		list   []Value
	}
	root := &msg{fields: map[string]Value{"count": int32(41)}}
	ev := &Evaluator{Vars: map[string]Value{"m": root}}
	ev.Call = func(c *Call, recv Value, args []Value) (Value, error) {
		r, ok := recv.(*msg)
		if !ok {
			return nil, fmt.Errorf("%s on %T", c.Method, recv)
		}
		switch {
		case c.Method == "count":
			return r.fields["count"], nil
		case c.Method == "add_parts":
			part := &msg{fields: map[string]Value{}}
			r.list = append(r.list, part)
			return part, nil
		case strings.HasPrefix(c.Method, "set_"):
			r.fields[strings.TrimPrefix(c.Method, "set_")] = args[0]
			return nil, nil
		case strings.HasPrefix(c.Method, "add_"):
			r.list = append(r.list, args[0])
			return nil, nil
		}
		return nil, fmt.Errorf("unknown method %s", c.Method)
	}
	for i := range p.Stmts {
		if _, err := ev.Exec(&p.Stmts[i]); err != nil {
			t.Fatal(err)
		}
	}
	if root.fields["count"] != int32(42) || len(root.list) != 2 || root.list[0] != int32(0) {
		t.Errorf("replayed root %+v", root)
	}
	if part := root.list[1].(*msg); part.fields["label"] != "s1" {
		t.Errorf("replayed part %+v", part)
	}
	if ev.Vars["p"] != root.list[1] {
		t.Errorf("declaration did not bind p")
	}
}

func TestParseOpsErrors(t *testing.T) {
	const h = "// case x (a.B, fixed, size)\n"
	tests := []struct {
		src  string
		line int
	}{
		{"", 1},
		{"m.set_x(1)\n", 1},
		{"// case x (a.B, elastic, size)\n", 1},
		{h + "m.set_x(", 2},
		{h + "\n\nm.set_x(1 +)", 4},
		{h + "// something else", 2},
		{h + "m.set_x(1) junk", 2},
		{h + "m.x", 2},
		{h + "m.set_x(\"unterminated)", 2},
		{h + "m.set_x(99999999999999999999999)", 2},
		{h + "m.set_x(18446744073709551615)", 0}, // parses; Eval fails (no signed type)
		{h + "m.set_x('ab')", 2},
		{h + "m.set_x('\\q')", 2},
		{h + "m.set_x(1);;", 2},
		{h + "1 = 2", 2},
		{h + "// i = undefined_var", 2},
		{h + "// i = 1 / 0", 2},
		{h + "// reopen repair: rebuilt free block header @1 (beyond payload end 2) as length 3", 2},
		{h + "m.set_x(1)\n// reopen base.phaser.bin as a mutable message", 3},
		{h + "// reopen base.phaser.bin as a mutable message\n// reopen repair: something else", 3},
		{h + h, 2},
		{h + "m.set_x(1) /* open", 2},
		{h + "m.set_x(*p)", 2},
		{h + "m.set_x(1.5L)", 2},
		{h + "m.set_x(0x)", 2},
		{h + "m.set_x(1e)", 2},
		{h + "m.set_x(1zz)", 2},
		{h + "f(1)(2)", 2},
		{h + "m.get<int>", 2},
		{h + "a::b<int>", 2},
		{h + "m.set_x(" + strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500) + ")", 2},
		{h + "m.set_x(" + strings.Repeat("-", 500) + "1)", 2},
		{h + "m.set_x(1 ? 2 : " + strings.Repeat("1 ? 2 : ", 500) + "3)", 2},
		{h + "m.set_x(@)", 2},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := ParseOps([]byte(tt.src))
			if tt.line == 0 {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if pe.Line != tt.line {
				t.Errorf("error on line %d, want %d: %v", pe.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("line %d:", tt.line)) {
				t.Errorf("error %q does not name line %d", err, tt.line)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	for _, src := range []string{
		"undefined_var",
		"1 / 0",
		"1 % 0",
		"int64_t(1) << 64",
		"1 << -1",
		"1.5 << 1",
		"Pattern(-1)",
		"Pattern(1 << 30)",
		`std::string(1 << 30, 'a')`,
		`std::string("ab", 5)`,
		`"a" + 1`,
		`"a" * "b"`,
		"~1.5",
		"1.5 % 2.0",
		"int(1e20)",
		"uint8_t(300.0)",
		"std::numeric_limits<int>::infinity()",
		"std::numeric_limits<Foo>::max()",
		"static_cast<core::Level>(1.5)",
		"m.count()",
		"m.x",
		"m[1]",
		"f(1)",
		"core::Mood::MOOD_CALM + 1",
		`"abc"[3]`,
		"18446744073709551615",
		"::ros::Time(1)",
		"std::to_string(\"x\")",
	} {
		t.Run(src, func(t *testing.T) {
			e, err := ParseExpr(src)
			if err != nil {
				t.Fatal(err)
			}
			if v, err := Eval(e, nil); err == nil {
				t.Errorf("Eval = %#v, want an error", v)
			}
		})
	}
}

func TestEvalValues(t *testing.T) {
	for src, want := range map[string]Value{
		"1u - 2":                                uint32(math.MaxUint32),
		"-1 < 1u":                               false, // usual arithmetic conversions
		"-1 < 1LL":                              true,
		"int64_t(-1) < 1u":                      true,
		"uint8_t(300)":                          int32(44),
		"char(200)":                             int32(-56),
		"2147483647 + 1":                        int32(math.MinInt32),
		"2147483648":                            int64(2147483648),
		"0x80000000":                            uint32(0x80000000),
		"0xffffffffffffffff":                    uint64(math.MaxUint64),
		"010":                                   int32(8),
		"-7 / 2":                                int32(-3),
		"-7 % 2":                                int32(-1),
		"-9223372036854775807LL-1":              int64(math.MinInt64),
		"(-9223372036854775807LL-1) / -1":       int64(math.MinInt64),
		"-8 >> 1":                               int32(-4),
		"5 & 3 | 8 ^ 1":                         int32(9),
		"1 && 0 || !0":                          true,
		"1.0f / 3":                              float32(1.0 / 3.0),
		"0.1f + 0.2":                            float64(float32(0.1)) + 0.2,
		"int(-2.9)":                             int32(-2),
		"double(3)":                             3.0,
		"bool(2)":                               true,
		"std::to_string(1.5)":                   "1.500000",
		"std::to_string(uint64_t(0) - 1)":       "18446744073709551615",
		`"ab" "cd" + std::string("ef")`:         "abcdef",
		`"abc"[1]`:                              int32('b'),
		"std::numeric_limits<float>::max()":     float32(math.MaxFloat32),
		"std::numeric_limits<double>::lowest()": -math.MaxFloat64,
		"std::numeric_limits<uint8_t>::max()":   int32(255),
		"std::numeric_limits<int16_t>::min()":   int32(math.MinInt16),
		"std::numeric_limits<std::size_t>::max()": uint64(math.MaxUint64),
		// NaNs keep their sign; arithmetic gives the NaNs of x86-64.
		"std::numeric_limits<double>::quiet_NaN()":    math.Float64frombits(0x7ff8000000000000),
		"-std::numeric_limits<double>::quiet_NaN()":   math.Float64frombits(0xfff8000000000000),
		"-std::numeric_limits<float>::quiet_NaN()":    math.Float32frombits(0xffc00000),
		"-(-std::numeric_limits<float>::quiet_NaN())": math.Float32frombits(0x7fc00000),
		"0.0 / 0.0":    math.Float64frombits(0xfff8000000000000),
		"0.0f / 0.0f":  math.Float32frombits(0xffc00000),
		"-(0.0 / 0.0)": math.Float64frombits(0x7ff8000000000000),
		"std::numeric_limits<double>::quiet_NaN() + 1.0":   math.Float64frombits(0x7ff8000000000000),
		"1.0 - -std::numeric_limits<double>::quiet_NaN()":  math.Float64frombits(0xfff8000000000000),
		"double(-std::numeric_limits<float>::quiet_NaN())": math.Float64frombits(0xfff8000000000000),
		"-0.0":                   math.Float64frombits(1 << 63),
		"::ros::Time()":          RosTime{},
		"::ros::Duration(1, -2)": RosDuration{Sec: 1, Nsec: -2},
		"1 ? 2 : 3.0":            2.0, // common type of the arms
		"0 ? xph::Color::COLOR_RED : xph::Color::COLOR_BLUE": Enum{Type: "xph::Color", Name: "COLOR_BLUE"},
		"core::Mood::MOOD_CALM == core::Mood::MOOD_CALM":     true,
		"static_cast<int>(static_cast<core::Level>(5))":      int32(5),
	} {
		t.Run(src, func(t *testing.T) {
			e, err := ParseExpr(src)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Eval(e, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !sameValue(v, want) {
				t.Errorf("Eval = %#v (%T), want %#v (%T)", v, v, want, want)
			}
			again, err := ParseExpr(e.String())
			if err != nil || again.String() != e.String() || !reflect.DeepEqual(again, e) {
				t.Errorf("String() = %q does not round-trip (%v)", e.String(), err)
			}
		})
	}
}

func TestEnumNumber(t *testing.T) {
	files, err := Files(Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	root := func(name protoreflect.FullName) protoreflect.MessageDescriptor {
		d, err := files.FindDescriptorByName(name)
		if err != nil {
			t.Fatal(err)
		}
		return d.(protoreflect.MessageDescriptor)
	}
	for _, tt := range []struct {
		e    Enum
		root protoreflect.FullName
		want int32
	}{
		{Enum{Type: "core::Mood", Name: "MOOD_CALM"}, "oracle.core.Record", 0x93},
		{Enum{Type: "core::Simple_Phase", Name: "Simple_Phase_PHASE_RISING"}, "oracle.core.Record", 1},
		{Enum{Type: "pbfe_ros::Gauge_Limits", Name: "Gauge_Limits_LIMITS_HIGH"}, "oracle.ros.Gauge", 200},
		{Enum{Type: "rosfe::Shade", Name: "SHADE_LIGHT"}, "oracle.ros.Robot", 2},
		{Enum{Type: "core::Level", Value: 12345}, "oracle.core.Record", 12345},
		{Enum{Type: "Mood", Name: "MOOD_STORMY"}, "oracle.core.Record", 0xc8},
		{Enum{Type: "xph::Color", Name: "COLOR_BIG"}, "oracle.extra.AllRepeated", 100000},
		// The full namespace, with and without an add_namespace component.
		{Enum{Type: "::oracle::extra::Color", Name: "COLOR_NEGATIVE"}, "oracle.core.Record", -5},
		{Enum{Type: "oracle::extra::phaser::Color", Name: "COLOR_RED"}, "oracle.core.Record", 1},
		{Enum{Type: "extra::Color", Name: "COLOR_GREEN"}, "oracle.core.Record", 2},
	} {
		got, err := tt.e.Number(NewScope(files, root(tt.root)))
		if err != nil || int32(got) != tt.want {
			t.Errorf("%v.Number() = %d, %v; want %d", tt.e, got, err, tt.want)
		}
	}
	scope := NewScope(files, root("oracle.core.Record"))
	for _, e := range []Enum{{Type: "core::Mood", Name: "MOOD_NOPE"}, {Type: "core::Part", Name: "X"}, {Type: "phaser::Tuning", Name: "kSize"}} {
		if _, err := e.Number(scope); err == nil {
			t.Errorf("%v.Number(): no error", e)
		}
	}
	for name, want := range map[string]protoreflect.FullName{
		"core::Simple_Sub":           "oracle.core.Simple.Sub",
		"core::Simple::Sub":          "oracle.core.Simple.Sub",
		"gph::Timestamp":             "google.protobuf.Timestamp",
		"common::Badge":              "oracle.common.Badge",
		"xph::Leaf":                  "oracle.extra.Leaf",
		"Record":                     "oracle.core.Record",
		"::oracle::p2::phaser::P2":   "oracle.p2.P2",
		"std_msgs::Header":           "std_msgs.Header",
		"google::protobuf::Duration": "google.protobuf.Duration",
	} {
		d, err := scope.ResolveType(name)
		if err != nil || d.FullName() != want {
			t.Errorf("ResolveType(%s) = %v, %v; want %s", name, d, err, want)
		}
	}
	if p, ok := scope.Package("::xph"); !ok || p != "oracle.extra" {
		t.Errorf("Package(::xph) = %q, %v after xph::Leaf", p, ok)
	}
	if p, ok := scope.Package("oracle::p2::phaser"); !ok || p != "oracle.p2" {
		t.Errorf("Package(oracle::p2::phaser) = %q, %v", p, ok)
	}
	// An alias that has named one package cannot name another.
	if d, err := scope.ResolveType("xph::Badge"); err == nil {
		t.Errorf("ResolveType(xph::Badge) = %v after xph named oracle.extra", d)
	}
}

func FuzzParseOps(f *testing.F) {
	f.Add([]byte("// case a (x.Y, fixed, size)\nauto m = Y::CreateMutable(zeroed_buffer, 64, ::phaser::Tuning::kSize);\nm.set_a(1)\n"))
	f.Add([]byte("m.set_x(-(int64_t(1) << (i % 60)) + Pattern(3, 'A')[1])"))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Each line on its own, as a statement and as a pure expression.
		for _, line := range strings.Split(string(src), "\n") {
			if s, err := ParseStmt(line); err == nil {
				if again, err := ParseStmt(s.String()); err != nil || again.String() != s.String() {
					t.Fatalf("%q re-parses as %v, %v", s.String(), again, err)
				}
			}
			if e, err := ParseExpr(line); err == nil {
				if again, err := ParseExpr(e.String()); err != nil || again.String() != e.String() {
					t.Fatalf("%q re-parses as %v, %v", e.String(), again, err)
				}
				_, _ = Eval(e, map[string]Value{"i": int32(3)}) // must not panic
			}
		}
		p, err := ParseOps(src)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		ev, _ := recorder()
		ev.Vars = map[string]Value{"m": handle{"m"}}
		for i := range p.Stmts {
			s := &p.Stmts[i]
			// The canonical rendering re-parses to the same rendering.
			again, err := ParseStmt(s.String())
			if err != nil {
				t.Fatalf("line %d: %q re-parses with error %v", s.Line, s.String(), err)
			}
			if again.String() != s.String() {
				t.Fatalf("line %d: %q re-renders as %q", s.Line, s.String(), again.String())
			}
			_, _ = ev.Exec(s) // must not panic
		}
	})
}

func TestClearedScalars(t *testing.T) {
	files, err := Files(Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	msg := func(name protoreflect.FullName) protoreflect.MessageDescriptor {
		d, err := files.FindDescriptorByName(name)
		if err != nil {
			t.Fatal(err)
		}
		return d.(protoreflect.MessageDescriptor)
	}
	for _, tt := range []struct {
		root protoreflect.FullName
		ops  string
		want string
	}{
		{"oracle.core.Scalars", "m.set_v_bool(true)\nm.clear_v_bool()", "[oracle.core.Scalars.v_bool]"},
		{"oracle.core.Scalars", "m.clear_v_bool()\nm.set_v_bool(false)", "[]"},
		{"oracle.core.Scalars", "m.clear_v_string()\nm.clear_v_bytes()", "[]"},
		{"oracle.extra.Optionals", "m.clear_o_int32()\nm.clear_plain_int32()", "[oracle.extra.Optionals.plain_int32]"},
		// A nested message's scalar, reached through a handle.
		{"oracle.core.ScalarsList", "auto s = m.add_items();\ns->set_v_int32(3);\ns->clear_v_int32()", "[oracle.core.Scalars.v_int32]"},
		{"oracle.core.Scalars", "m.set_v_int32(1)\nm.Clear()\nm.set_v_int32(2)",
			"[oracle.core.Scalars.v_bool oracle.core.Scalars.v_double oracle.core.Scalars.v_enum oracle.core.Scalars.v_fixed32 oracle.core.Scalars.v_fixed64 " +
				"oracle.core.Scalars.v_float oracle.core.Scalars.v_int64 oracle.core.Scalars.v_sfixed32 oracle.core.Scalars.v_sfixed64 oracle.core.Scalars.v_sint32 " +
				"oracle.core.Scalars.v_sint64 oracle.core.Scalars.v_uint32 oracle.core.Scalars.v_uint64]"},
		// A type the program creates besides the root.
		{"oracle.extra.WithAny", "auto src = xph::Leaf::CreateDynamicMutable(256);\nsrc.clear_id()", "[oracle.extra.Leaf.id]"},
		// ROS-frontend assignment sets again.
		{"oracle.core.Scalars", "m.clear_v_int32()\nm.v_int32 = 4", "[]"},
	} {
		t.Run(tt.ops, func(t *testing.T) {
			src := fmt.Sprintf("// case t (%s, fixed, size)\n%s\n", tt.root, tt.ops)
			p, err := ParseOps([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			root := msg(tt.root)
			var names []string
			for _, fd := range p.ClearedScalars(root, NewScope(files, root)) {
				names = append(names, string(fd.FullName()))
			}
			if got := fmt.Sprint(names); got != tt.want && !(got == "[]" && tt.want == "[]") {
				t.Errorf("ClearedScalars = %s, want %s", got, tt.want)
			}
		})
	}
}
