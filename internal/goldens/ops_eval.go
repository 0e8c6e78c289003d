package goldens

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Value is the result of evaluating an expression. Pure expressions evaluate
// to one of:
//
//   - bool;
//   - int32 (C++ int, int32_t, char and the narrower integer types after
//     promotion), uint32 (unsigned, uint32_t), int64 (int64_t, long, long
//     long), uint64 (uint64_t, size_t, unsigned long long);
//   - float32 (float), float64 (double);
//   - string (C++ std::string or string literal; arbitrary bytes, for
//     example kBin or Pattern(n));
//   - [Enum] (an enumerator such as core::Mood::MOOD_CALM or
//     ::phaser::Tuning::kSize, or static_cast<core::Level>(12345));
//   - [RosTime], [RosDuration] (::ros::Time / ::ros::Duration);
//   - [ZeroedBuffer] (the identifier zeroed_buffer).
//
// The [Evaluator] hooks may return any other value (message handles); they
// may also return the Go types int, int8, int16, uint, uint8, uint16 and
// []byte, which the evaluator accepts as integers and strings.
type Value any

// Enum is an enumerator value.
type Enum struct {
	// Type is the C++ enum type as written, without a leading "::"
	// ("core::Mood", "core::Simple_Phase", "phaser::Tuning").
	Type string
	// Name is the enumerator as written ("MOOD_CALM",
	// "Simple_Phase_PHASE_RISING", "kPerformance"), or "" for a
	// static_cast<Type>(Number).
	Name string
	// Value is the number of a static_cast; it is 0 when Name is set (use
	// [Enum.Number] to look the enumerator up in the schema).
	Value int64
}

// String renders the enumerator as C++.
func (e Enum) String() string {
	if e.Name == "" {
		return fmt.Sprintf("static_cast<%s>(%d)", e.Type, e.Value)
	}
	return e.Type + "::" + e.Name
}

// RosTime is a ::ros::Time(sec, nsec) value. The arguments are kept as given
// (C++ Phaser's ROS types do not normalize them).
type RosTime struct{ Sec, Nsec uint32 }

// RosDuration is a ::ros::Duration(sec, nsec) value, kept as given.
type RosDuration struct{ Sec, Nsec int32 }

// ZeroedBuffer is the value of the identifier zeroed_buffer: the
// caller-owned, zero-filled buffer passed to CreateMutable.
type ZeroedBuffer struct{}

// KBin is the value of the identifier kBin.
const KBin = "\x00\x01\x02\x7f\x80\xfe\xff"

// MaxBuiltinLen bounds the length of strings built by Pattern and
// std::string(n, c).
const MaxBuiltinLen = 1 << 24

// Evaluator evaluates expressions of an .ops program. It computes literals,
// variables, kBin, Pattern, casts, std::string, std::to_string,
// std::numeric_limits, ::ros::Time / ::ros::Duration, enumerators and the
// C++ operators itself (with C++ integer promotions, usual arithmetic
// conversions and two's-complement wrap-around), and calls the hooks for
// everything that touches a message. A nil hook makes the corresponding
// expressions an error. An Evaluator is not safe for concurrent use.
type Evaluator struct {
	// Vars maps variable names to values: handles bound by declarations
	// (Exec stores them here) and anything the caller predefines.
	Vars map[string]Value

	// Call evaluates a method call (recv is the evaluated c.Recv) or a call
	// of a function the evaluator does not know (recv is nil), such as
	// Record::CreateMutable, ::std_msgs::Header or memcpy. args are the
	// evaluated arguments.
	Call func(c *Call, recv Value, args []Value) (Value, error)

	// Member evaluates x.Name / x->Name (ROS frontend members).
	Member func(e *Member, x Value) (Value, error)

	// Index evaluates x[index] when x is not a string.
	Index func(e *Index, x, index Value) (Value, error)

	// Assign performs a.LHS = rhs. For a *Member LHS obj is the evaluated
	// LHS.X and index is nil; for an *Index LHS obj is the evaluated
	// LHS.X and index the evaluated LHS.Index; for an *Ident LHS both are
	// nil.
	Assign func(a *Assign, obj, index, rhs Value) error

	stmtVars map[string]Value
}

// Eval evaluates a pure expression with the given variables (no hooks).
func Eval(e Expr, vars map[string]Value) (Value, error) {
	ev := &Evaluator{Vars: vars}
	return ev.Eval(e)
}

// Exec evaluates a statement's expression with the statement's comment
// variables ([Stmt.Vars]) in scope and, for a declaration, binds the result
// to s.Bind in ev.Vars. Errors name the statement's line.
func (ev *Evaluator) Exec(s *Stmt) (Value, error) {
	ev.stmtVars = s.Vars
	defer func() { ev.stmtVars = nil }()
	v, err := ev.Eval(s.Expr)
	if err != nil {
		return nil, fmt.Errorf("line %d: %s: %w", s.Line, s.Text, err)
	}
	if s.Bind != "" {
		if ev.Vars == nil {
			ev.Vars = map[string]Value{}
		}
		ev.Vars[s.Bind] = v
	}
	return v, nil
}

// Eval evaluates e.
func (ev *Evaluator) Eval(e Expr) (Value, error) {
	switch e := e.(type) {
	case *IntLit:
		return intLitValue(e)
	case *FloatLit:
		if e.Float32 {
			return float32(e.Value), nil
		}
		return e.Value, nil
	case *StringLit:
		return e.Value, nil
	case *CharLit:
		return int32(int8(e.Value)), nil
	case *BoolLit:
		return e.Value, nil
	case *Ident:
		return ev.lookup(e.Name)
	case *QualifiedName:
		if len(e.Parts) < 2 {
			return nil, fmt.Errorf("bad qualified name %s", e)
		}
		return Enum{Type: strings.Join(e.Parts[:len(e.Parts)-1], "::"), Name: e.Parts[len(e.Parts)-1]}, nil
	case *Paren:
		return ev.Eval(e.X)
	case *Unary:
		x, err := ev.Eval(e.X)
		if err != nil {
			return nil, err
		}
		return unaryOp(e.Op, x)
	case *Binary:
		return ev.evalBinary(e)
	case *Cond:
		return ev.evalCond(e)
	case *Call:
		return ev.evalCall(e)
	case *Member:
		x, err := ev.Eval(e.X)
		if err != nil {
			return nil, err
		}
		if ev.Member == nil {
			return nil, fmt.Errorf("%s: member access needs a Member hook", e)
		}
		return ev.Member(e, x)
	case *Index:
		x, err := ev.Eval(e.X)
		if err != nil {
			return nil, err
		}
		i, err := ev.Eval(e.Index)
		if err != nil {
			return nil, err
		}
		if s, ok := asString(x); ok {
			n, ok := toNum(i)
			if !ok || n.isFloat() {
				return nil, fmt.Errorf("%s: string index is not an integer", e)
			}
			if n.signed() < 0 || n.signed() >= int64(len(s)) || (!n.isSigned() && n.u >= uint64(len(s))) {
				return nil, fmt.Errorf("%s: index out of range [0, %d)", e, len(s))
			}
			return int32(int8(s[n.signed()])), nil
		}
		if ev.Index == nil {
			return nil, fmt.Errorf("%s: indexing needs an Index hook", e)
		}
		return ev.Index(e, x, i)
	case *Assign:
		return ev.evalAssign(e)
	case nil:
		return nil, errors.New("nil expression")
	}
	return nil, fmt.Errorf("unsupported expression %T", e)
}

func (ev *Evaluator) lookup(name string) (Value, error) {
	if v, ok := ev.stmtVars[name]; ok {
		return v, nil
	}
	if v, ok := ev.Vars[name]; ok {
		return v, nil
	}
	switch name {
	case "kBin":
		return KBin, nil
	case "zeroed_buffer":
		return ZeroedBuffer{}, nil
	}
	return nil, fmt.Errorf("undefined: %s", name)
}

func (ev *Evaluator) evalAssign(a *Assign) (Value, error) {
	var obj, index Value
	var err error
	switch l := a.LHS.(type) {
	case *Member:
		if obj, err = ev.Eval(l.X); err != nil {
			return nil, err
		}
	case *Index:
		if obj, err = ev.Eval(l.X); err != nil {
			return nil, err
		}
		if index, err = ev.Eval(l.Index); err != nil {
			return nil, err
		}
	case *Ident:
	default:
		return nil, fmt.Errorf("cannot assign to %s", a.LHS)
	}
	rhs, err := ev.Eval(a.RHS)
	if err != nil {
		return nil, err
	}
	if ev.Assign == nil {
		return nil, fmt.Errorf("%s: assignment needs an Assign hook", a)
	}
	if err := ev.Assign(a, obj, index, rhs); err != nil {
		return nil, err
	}
	return rhs, nil
}

func (ev *Evaluator) evalBinary(e *Binary) (Value, error) {
	x, err := ev.Eval(e.X)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "&&", "||":
		bx, err := truth(x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
		if bx == (e.Op == "||") {
			return bx, nil
		}
		y, err := ev.Eval(e.Y)
		if err != nil {
			return nil, err
		}
		by, err := truth(y)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
		return by, nil
	}
	y, err := ev.Eval(e.Y)
	if err != nil {
		return nil, err
	}
	v, err := binaryOp(e.Op, x, y)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e, err)
	}
	return v, nil
}

func (ev *Evaluator) evalCond(e *Cond) (Value, error) {
	c, err := ev.Eval(e.Cond)
	if err != nil {
		return nil, err
	}
	b, err := truth(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e, err)
	}
	chosen, other := e.Then, e.Else
	if !b {
		chosen, other = other, chosen
	}
	v, err := ev.Eval(chosen)
	if err != nil {
		return nil, err
	}
	// The C++ result type is the common type of both arms: evaluate the
	// other arm too when that has no side effects.
	if isPure(other) {
		if w, err := ev.Eval(other); err == nil {
			a, okA := toNum(v)
			b, okB := toNum(w)
			if okA && okB {
				return a.convert(commonKind(a.k, b.k)).value(), nil
			}
		}
	}
	return v, nil
}

// isPure reports whether evaluating e calls no hook.
func isPure(e Expr) bool {
	switch e := e.(type) {
	case *IntLit, *FloatLit, *StringLit, *CharLit, *BoolLit, *Ident, *QualifiedName:
		return true
	case *Paren:
		return isPure(e.X)
	case *Unary:
		return isPure(e.X)
	case *Binary:
		return isPure(e.X) && isPure(e.Y)
	case *Cond:
		return isPure(e.Cond) && isPure(e.Then) && isPure(e.Else)
	case *Call:
		if e.Recv != nil || !isBuiltin(e) {
			return false
		}
		for _, a := range e.Args {
			if !isPure(a) {
				return false
			}
		}
		return true
	}
	return false
}

// canonicalFunc strips the leading "::" of a function name.
func canonicalFunc(name string) string {
	name = strings.TrimPrefix(name, "::")
	return name
}

func isBuiltin(c *Call) bool {
	name := canonicalFunc(c.Method)
	switch name {
	case "Pattern", "std::string", "std::to_string", "static_cast", "ros::Time", "ros::Duration":
		return true
	}
	if strings.HasPrefix(name, "std::numeric_limits::") {
		return true
	}
	_, ok := scalarTypes[strings.TrimPrefix(name, "std::")]
	return ok && len(c.TemplateArgs) == 0
}

func (ev *Evaluator) evalCall(c *Call) (Value, error) {
	var recv Value
	if c.Recv != nil {
		var err error
		if recv, err = ev.Eval(c.Recv); err != nil {
			return nil, err
		}
	}
	args := make([]Value, len(c.Args))
	for i, a := range c.Args {
		v, err := ev.Eval(a)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	if c.Recv == nil && isBuiltin(c) {
		v, err := builtin(c, args)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c, err)
		}
		return v, nil
	}
	if ev.Call == nil {
		return nil, fmt.Errorf("%s: call needs a Call hook", c)
	}
	return ev.Call(c, recv, args)
}

// builtin evaluates the pure functions.
func builtin(c *Call, args []Value) (Value, error) {
	name := canonicalFunc(c.Method)
	switch name {
	case "Pattern":
		if len(args) != 1 && len(args) != 2 {
			return nil, fmt.Errorf("Pattern takes 1 or 2 arguments, got %d", len(args))
		}
		n, err := lengthArg(args[0])
		if err != nil {
			return nil, err
		}
		base := byte('a')
		if len(args) == 2 {
			cv, ok := toNum(args[1])
			if !ok || cv.isFloat() {
				return nil, fmt.Errorf("Pattern: character argument is %s", typeName(args[1]))
			}
			base = byte(cv.bits())
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = base + byte(i%26)
		}
		return string(b), nil
	case "std::string":
		switch len(args) {
		case 0:
			return "", nil
		case 1:
			if s, ok := asString(args[0]); ok {
				return s, nil
			}
			return nil, fmt.Errorf("std::string of %s", typeName(args[0]))
		case 2:
			if s, ok := asString(args[0]); ok {
				n, err := lengthArg(args[1])
				if err != nil {
					return nil, err
				}
				if n > len(s) {
					return nil, fmt.Errorf("std::string: length %d exceeds the %d bytes of the literal", n, len(s))
				}
				return s[:n], nil
			}
			n, err := lengthArg(args[0])
			if err != nil {
				return nil, err
			}
			cv, ok := toNum(args[1])
			if !ok || cv.isFloat() {
				return nil, fmt.Errorf("std::string: character argument is %s", typeName(args[1]))
			}
			return strings.Repeat(string([]byte{byte(cv.bits())}), n), nil
		}
		return nil, fmt.Errorf("std::string takes at most 2 arguments, got %d", len(args))
	case "std::to_string":
		if len(args) != 1 {
			return nil, fmt.Errorf("std::to_string takes 1 argument, got %d", len(args))
		}
		n, ok := toNum(args[0])
		if !ok {
			return nil, fmt.Errorf("std::to_string of %s", typeName(args[0]))
		}
		switch {
		case n.isFloat():
			return strconv.FormatFloat(n.f, 'f', 6, 64), nil
		case n.isSigned():
			return strconv.FormatInt(n.i, 10), nil
		default:
			return strconv.FormatUint(n.u, 10), nil
		}
	case "static_cast":
		if len(c.TemplateArgs) != 1 || len(args) != 1 {
			return nil, errors.New("static_cast takes one template argument and one argument")
		}
		return castTo(c.TemplateArgs[0], args[0])
	case "ros::Time", "ros::Duration":
		var sec, nsec num
		switch len(args) {
		case 0:
			sec, nsec = num{k: kInt32}, num{k: kInt32}
		case 2:
			var ok1, ok2 bool
			sec, ok1 = toNum(args[0])
			nsec, ok2 = toNum(args[1])
			if !ok1 || !ok2 || sec.isFloat() || nsec.isFloat() {
				return nil, fmt.Errorf("%s takes two integers", name)
			}
		default:
			return nil, fmt.Errorf("%s takes 0 or 2 arguments, got %d", name, len(args))
		}
		if name == "ros::Time" {
			return RosTime{Sec: uint32(sec.bits()), Nsec: uint32(nsec.bits())}, nil
		}
		return RosDuration{Sec: int32(sec.bits()), Nsec: int32(nsec.bits())}, nil
	}
	if fn, ok := strings.CutPrefix(name, "std::numeric_limits::"); ok {
		if len(c.TemplateArgs) != 1 || len(args) != 0 {
			return nil, errors.New("std::numeric_limits<T>::f() takes one template argument and no arguments")
		}
		return numericLimit(c.TemplateArgs[0], fn)
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("cast to %s takes 1 argument, got %d", name, len(args))
	}
	return castTo(name, args[0])
}

// lengthArg converts a size argument, bounded by MaxBuiltinLen.
func lengthArg(v Value) (int, error) {
	n, ok := toNum(v)
	if !ok || n.isFloat() {
		return 0, fmt.Errorf("length is %s, not an integer", typeName(v))
	}
	if (n.isSigned() && (n.i < 0 || n.i > MaxBuiltinLen)) || (!n.isSigned() && n.u > MaxBuiltinLen) {
		return 0, fmt.Errorf("length %s out of range [0, %d]", n, MaxBuiltinLen)
	}
	return int(n.signed()), nil
}

// typeName names the dynamic type of a value for error messages.
func typeName(v Value) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", v)
}

// asString returns the bytes of a string-like value.
func asString(v Value) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), true
	}
	return "", false
}

func truth(v Value) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	n, ok := toNum(v)
	if !ok {
		return false, fmt.Errorf("%s used as a condition", typeName(v))
	}
	if n.isFloat() {
		return n.f != 0, nil
	}
	return n.bits() != 0, nil
}

// numKind is a C++ arithmetic type after integer promotion.
type numKind int

const (
	kInt32 numKind = iota
	kUint32
	kInt64
	kUint64
	kFloat32
	kFloat64
)

var kindNames = [...]string{"int", "unsigned int", "int64_t", "uint64_t", "float", "double"}

// num is a promoted arithmetic value: i for signed kinds, u for unsigned
// kinds, f for floating kinds.
type num struct {
	k numKind
	i int64
	u uint64
	f float64
}

func (n num) isFloat() bool  { return n.k == kFloat32 || n.k == kFloat64 }
func (n num) isSigned() bool { return n.k == kInt32 || n.k == kInt64 }
func (n num) width() uint {
	if n.k == kInt32 || n.k == kUint32 {
		return 32
	}
	return 64
}

// bits returns an integer value's two's-complement bits.
func (n num) bits() uint64 {
	if n.isSigned() {
		return uint64(n.i)
	}
	return n.u
}

// signed returns an integer value as int64 (unsigned values are
// reinterpreted).
func (n num) signed() int64 { return int64(n.bits()) }

func (n num) String() string {
	switch {
	case n.isFloat():
		return strconv.FormatFloat(n.f, 'g', -1, 64)
	case n.isSigned():
		return strconv.FormatInt(n.i, 10)
	}
	return strconv.FormatUint(n.u, 10)
}

// value converts back to the Go representation.
func (n num) value() Value {
	switch n.k {
	case kInt32:
		return int32(n.i)
	case kUint32:
		return uint32(n.u)
	case kInt64:
		return n.i
	case kUint64:
		return n.u
	case kFloat32:
		return float32(n.f)
	}
	return n.f
}

// fromBits builds an integer num of kind k, wrapping to its width.
func fromBits(k numKind, b uint64) num {
	switch k {
	case kInt32:
		return num{k: k, i: int64(int32(b))}
	case kUint32:
		return num{k: k, u: uint64(uint32(b))}
	case kInt64:
		return num{k: k, i: int64(b)}
	}
	return num{k: kUint64, u: b}
}

func fromFloat(k numKind, f float64) num {
	if k == kFloat32 {
		return num{k: k, f: float64(float32(f))}
	}
	return num{k: kFloat64, f: f}
}

// toNum promotes an arithmetic value (bool and narrow integers become int).
func toNum(v Value) (num, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return num{k: kInt32, i: 1}, true
		}
		return num{k: kInt32}, true
	case int8:
		return num{k: kInt32, i: int64(v)}, true
	case int16:
		return num{k: kInt32, i: int64(v)}, true
	case int32:
		return num{k: kInt32, i: int64(v)}, true
	case uint8:
		return num{k: kInt32, i: int64(v)}, true
	case uint16:
		return num{k: kInt32, i: int64(v)}, true
	case uint32:
		return num{k: kUint32, u: uint64(v)}, true
	case int:
		return num{k: kInt64, i: int64(v)}, true
	case int64:
		return num{k: kInt64, i: v}, true
	case uint:
		return num{k: kUint64, u: uint64(v)}, true
	case uint64:
		return num{k: kUint64, u: v}, true
	case float32:
		return num{k: kFloat32, f: float64(v)}, true
	case float64:
		return num{k: kFloat64, f: v}, true
	}
	return num{}, false
}

// commonKind implements the C++ usual arithmetic conversions.
func commonKind(a, b numKind) numKind {
	if a == kFloat64 || b == kFloat64 {
		return kFloat64
	}
	if a == kFloat32 || b == kFloat32 {
		return kFloat32
	}
	if a == b {
		return a
	}
	rank := func(k numKind) int {
		if k == kInt64 || k == kUint64 {
			return 2
		}
		return 1
	}
	signed := func(k numKind) bool { return k == kInt32 || k == kInt64 }
	if signed(a) == signed(b) {
		if rank(a) >= rank(b) {
			return a
		}
		return b
	}
	u, s := a, b
	if signed(a) {
		u, s = b, a
	}
	if rank(u) >= rank(s) {
		return u
	}
	return s // a signed type of higher rank represents every value of u
}

// convert converts n to kind k as a C++ implicit conversion would.
func (n num) convert(k numKind) num {
	if n.k == k {
		return n
	}
	if k == kFloat32 || k == kFloat64 {
		switch {
		case n.isFloat():
			return fromFloat(k, n.f)
		case n.isSigned():
			if k == kFloat32 {
				return num{k: k, f: float64(float32(n.i))}
			}
			return num{k: k, f: float64(n.i)}
		default:
			if k == kFloat32 {
				return num{k: k, f: float64(float32(n.u))}
			}
			return num{k: k, f: float64(n.u)}
		}
	}
	if n.isFloat() {
		// Callers check the range with floatToInt; truncate here.
		b, _ := floatToInt(n.f, k)
		return b
	}
	return fromBits(k, n.bits())
}

// floatToInt converts a floating value to an integer kind, truncating toward
// zero; ok is false when the value is out of range (undefined in C++).
func floatToInt(f float64, k numKind) (num, bool) {
	t := math.Trunc(f)
	switch k {
	case kInt32:
		if !(t >= math.MinInt32 && t <= math.MaxInt32) {
			return num{k: k}, false
		}
		return num{k: k, i: int64(t)}, true
	case kUint32:
		if !(t >= 0 && t <= math.MaxUint32) {
			return num{k: k}, false
		}
		return num{k: k, u: uint64(t)}, true
	case kInt64:
		if !(t >= -(1<<63) && t < 1<<63) {
			return num{k: k}, false
		}
		return num{k: k, i: int64(t)}, true
	}
	if !(t >= 0 && t < 1<<64) {
		return num{k: kUint64}, false
	}
	return num{k: kUint64, u: uint64(t)}, true
}

func unaryOp(op string, x Value) (Value, error) {
	if op == "!" {
		b, err := truth(x)
		if err != nil {
			return nil, err
		}
		return !b, nil
	}
	n, ok := toNum(x)
	if !ok {
		return nil, fmt.Errorf("operator %s on %s", op, typeName(x))
	}
	switch op {
	case "+":
		return n.value(), nil
	case "-":
		if n.isFloat() {
			// Negation flips the sign bit, of a NaN too (-NaN).
			return fromFloat(n.k, math.Float64frombits(math.Float64bits(n.f)^1<<63)).value(), nil
		}
		return fromBits(n.k, -n.bits()).value(), nil
	case "~":
		if n.isFloat() {
			return nil, errors.New("operator ~ on a floating value")
		}
		return fromBits(n.k, ^n.bits()).value(), nil
	}
	return nil, fmt.Errorf("unknown unary operator %q", op)
}

func binaryOp(op string, x, y Value) (Value, error) {
	sx, xs := asString(x)
	sy, ys := asString(y)
	if xs || ys {
		if !xs || !ys {
			return nil, fmt.Errorf("operator %s on %s and %s", op, typeName(x), typeName(y))
		}
		switch op {
		case "+":
			if len(sx)+len(sy) > MaxBuiltinLen {
				return nil, fmt.Errorf("string longer than %d bytes", MaxBuiltinLen)
			}
			return sx + sy, nil
		case "==":
			return sx == sy, nil
		case "!=":
			return sx != sy, nil
		case "<":
			return sx < sy, nil
		case ">":
			return sx > sy, nil
		case "<=":
			return sx <= sy, nil
		case ">=":
			return sx >= sy, nil
		}
		return nil, fmt.Errorf("operator %s on strings", op)
	}
	if ex, ok := x.(Enum); ok {
		ey, ok := y.(Enum)
		if !ok || (op != "==" && op != "!=") {
			return nil, fmt.Errorf("operator %s on %s and %s", op, typeName(x), typeName(y))
		}
		return (ex == ey) == (op == "=="), nil
	}
	a, okA := toNum(x)
	b, okB := toNum(y)
	if !okA || !okB {
		return nil, fmt.Errorf("operator %s on %s and %s", op, typeName(x), typeName(y))
	}
	if op == "<<" || op == ">>" {
		if a.isFloat() || b.isFloat() {
			return nil, fmt.Errorf("operator %s on a floating value", op)
		}
		if (b.isSigned() && b.i < 0) || b.bits() >= uint64(a.width()) {
			return nil, fmt.Errorf("shift count %s out of range for %s", b, kindNames[a.k])
		}
		s := uint(b.bits())
		if op == "<<" {
			return fromBits(a.k, a.bits()<<s).value(), nil
		}
		if a.isSigned() {
			return fromBits(a.k, uint64(a.i>>s)).value(), nil
		}
		return fromBits(a.k, a.u>>s).value(), nil
	}
	k := commonKind(a.k, b.k)
	a, b = a.convert(k), b.convert(k)
	if a.isFloat() {
		var r float64
		switch op {
		case "+":
			r = a.f + b.f
		case "-":
			r = a.f - b.f
		case "*":
			r = a.f * b.f
		case "/":
			r = a.f / b.f
		case "==":
			return a.f == b.f, nil
		case "!=":
			return a.f != b.f, nil
		case "<":
			return a.f < b.f, nil
		case ">":
			return a.f > b.f, nil
		case "<=":
			return a.f <= b.f, nil
		case ">=":
			return a.f >= b.f, nil
		default:
			return nil, fmt.Errorf("operator %s on floating values", op)
		}
		r = x86NaN(r, a.f, b.f)
		if k == kFloat32 {
			// IEEE float32 arithmetic: rounding the exact float64 result of
			// +, -, *, / on float32 operands gives the float32 result.
			return float32(r), nil
		}
		return r, nil
	}
	less := func() bool {
		if a.isSigned() {
			return a.i < b.i
		}
		return a.u < b.u
	}
	switch op {
	case "+":
		return fromBits(k, a.bits()+b.bits()).value(), nil
	case "-":
		return fromBits(k, a.bits()-b.bits()).value(), nil
	case "*":
		return fromBits(k, a.bits()*b.bits()).value(), nil
	case "/", "%":
		if b.bits() == 0 {
			return nil, errors.New("integer division by zero")
		}
		var q, r uint64
		if a.isSigned() {
			if b.i == -1 { // avoid the overflow of MinInt64 / -1
				q, r = -a.bits(), 0
			} else {
				q, r = uint64(a.i/b.i), uint64(a.i%b.i)
			}
		} else {
			q, r = a.u/b.u, a.u%b.u
		}
		if op == "/" {
			return fromBits(k, q).value(), nil
		}
		return fromBits(k, r).value(), nil
	case "&":
		return fromBits(k, a.bits()&b.bits()).value(), nil
	case "|":
		return fromBits(k, a.bits()|b.bits()).value(), nil
	case "^":
		return fromBits(k, a.bits()^b.bits()).value(), nil
	case "==":
		return a.bits() == b.bits(), nil
	case "!=":
		return a.bits() != b.bits(), nil
	case "<":
		return less(), nil
	case ">=":
		return !less(), nil
	case ">":
		return a.bits() != b.bits() && !less(), nil
	case "<=":
		return a.bits() == b.bits() || less(), nil
	}
	return nil, fmt.Errorf("unknown binary operator %q", op)
}

// scalarType describes a C++ arithmetic type usable in casts and
// std::numeric_limits.
type scalarType struct {
	kind     numKind // promoted kind
	bits     uint    // width of the type itself (8, 16, 32, 64; 1 for bool)
	unsigned bool
}

var scalarTypes = map[string]scalarType{
	"bool":               {kInt32, 1, true},
	"char":               {kInt32, 8, false},
	"signed char":        {kInt32, 8, false},
	"int8_t":             {kInt32, 8, false},
	"unsigned char":      {kInt32, 8, true},
	"uint8_t":            {kInt32, 8, true},
	"short":              {kInt32, 16, false},
	"int16_t":            {kInt32, 16, false},
	"unsigned short":     {kInt32, 16, true},
	"uint16_t":           {kInt32, 16, true},
	"int":                {kInt32, 32, false},
	"signed":             {kInt32, 32, false},
	"signed int":         {kInt32, 32, false},
	"int32_t":            {kInt32, 32, false},
	"unsigned":           {kUint32, 32, true},
	"unsigned int":       {kUint32, 32, true},
	"uint32_t":           {kUint32, 32, true},
	"long":               {kInt64, 64, false},
	"long long":          {kInt64, 64, false},
	"int64_t":            {kInt64, 64, false},
	"ssize_t":            {kInt64, 64, false},
	"ptrdiff_t":          {kInt64, 64, false},
	"intptr_t":           {kInt64, 64, false},
	"unsigned long":      {kUint64, 64, true},
	"unsigned long long": {kUint64, 64, true},
	"uint64_t":           {kUint64, 64, true},
	"size_t":             {kUint64, 64, true},
	"uintptr_t":          {kUint64, 64, true},
	"float":              {kFloat32, 32, false},
	"double":             {kFloat64, 64, false},
}

// castTo converts v to the named C++ type (a functional or static_cast).
// A type that is not arithmetic is taken as an enum type.
func castTo(typ string, v Value) (Value, error) {
	st, ok := scalarTypes[strings.TrimPrefix(typ, "std::")]
	if !ok {
		if typ == "std::string" {
			if s, ok := asString(v); ok {
				return s, nil
			}
			return nil, fmt.Errorf("cast of %s to std::string", typeName(v))
		}
		if e, ok := v.(Enum); ok {
			return e, nil
		}
		n, ok := toNum(v)
		if !ok || n.isFloat() {
			return nil, fmt.Errorf("cast of %s to enum %s", typeName(v), typ)
		}
		return Enum{Type: strings.TrimPrefix(typ, "::"), Value: n.signed()}, nil
	}
	if e, ok := v.(Enum); ok {
		if e.Name != "" {
			return nil, fmt.Errorf("cast of enumerator %s needs the schema", e)
		}
		v = e.Value
	}
	n, ok := toNum(v)
	if !ok {
		return nil, fmt.Errorf("cast of %s to %s", typeName(v), typ)
	}
	if st.bits == 1 {
		b, _ := truth(v)
		return b, nil
	}
	if st.kind == kFloat32 || st.kind == kFloat64 {
		return n.convert(st.kind).value(), nil
	}
	wide := kUint64
	if !st.unsigned {
		wide = kInt64
	}
	var w num
	if n.isFloat() {
		w, ok = floatToInt(n.f, wide)
		if !ok {
			return nil, fmt.Errorf("%s out of range for %s", n, typ)
		}
		if st.bits < 64 {
			lim := uint64(1) << st.bits
			if st.unsigned && w.u >= lim || !st.unsigned && (w.i < -int64(lim/2) || w.i >= int64(lim/2)) {
				return nil, fmt.Errorf("%s out of range for %s", n, typ)
			}
		}
	} else {
		w = fromBits(wide, n.bits())
	}
	b := w.bits()
	switch {
	case st.bits == 8 && st.unsigned:
		return int32(uint8(b)), nil
	case st.bits == 8:
		return int32(int8(b)), nil
	case st.bits == 16 && st.unsigned:
		return int32(uint16(b)), nil
	case st.bits == 16:
		return int32(int16(b)), nil
	}
	return fromBits(st.kind, b).value(), nil
}

// x86NaN gives a NaN result of a floating operation on x and y the bits
// that x86-64 SSE arithmetic (which wrote the goldens) gives it, whatever
// the machine running the replay: the first NaN operand, made quiet, or the
// "default NaN" 0xFFF8000000000000 (negative, -nan) when neither operand is
// a NaN (0.0/0.0, inf-inf, 0*inf). Converted to float32 it stays the
// matching float32 NaN (0xFFC00000 by default).
func x86NaN(r, x, y float64) float64 {
	if !math.IsNaN(r) {
		return r
	}
	const quiet = 1 << 51
	switch {
	case math.IsNaN(x):
		return math.Float64frombits(math.Float64bits(x) | quiet)
	case math.IsNaN(y):
		return math.Float64frombits(math.Float64bits(y) | quiet)
	}
	return math.Float64frombits(0xFFF8000000000000)
}

// numericLimit evaluates std::numeric_limits<typ>::fn().
func numericLimit(typ, fn string) (Value, error) {
	st, ok := scalarTypes[strings.TrimPrefix(typ, "std::")]
	if !ok {
		return nil, fmt.Errorf("std::numeric_limits of unsupported type %s", typ)
	}
	if st.kind == kFloat32 || st.kind == kFloat64 {
		f32 := st.kind == kFloat32
		var f float64
		switch fn {
		case "max":
			f = math.MaxFloat64
			if f32 {
				f = math.MaxFloat32
			}
		case "lowest":
			f = -math.MaxFloat64
			if f32 {
				f = -math.MaxFloat32
			}
		case "min":
			f = 0x1p-1022
			if f32 {
				f = 0x1p-126
			}
		case "denorm_min":
			f = math.SmallestNonzeroFloat64
			if f32 {
				f = math.SmallestNonzeroFloat32
			}
		case "epsilon":
			f = 0x1p-52
			if f32 {
				f = 0x1p-23
			}
		case "infinity":
			f = math.Inf(1)
		case "quiet_NaN":
			if f32 {
				return nan32, nil
			}
			return nan64, nil
		default:
			return nil, fmt.Errorf("std::numeric_limits<%s>::%s is not supported", typ, fn)
		}
		return fromFloat(st.kind, f).value(), nil
	}
	if st.bits == 1 {
		switch fn {
		case "min", "lowest":
			return false, nil
		case "max":
			return true, nil
		}
		return nil, fmt.Errorf("std::numeric_limits<%s>::%s is not supported", typ, fn)
	}
	var lo, hi num
	if st.unsigned {
		lo = num{k: kUint64}
		hi = num{k: kUint64, u: math.MaxUint64 >> (64 - st.bits)}
	} else {
		lo = num{k: kInt64, i: -1 << (st.bits - 1)}
		hi = num{k: kInt64, i: math.MaxInt64 >> (64 - st.bits)}
	}
	switch fn {
	case "min", "lowest":
		return castTo(typ, lo.value())
	case "max":
		return castTo(typ, hi.value())
	}
	return nil, fmt.Errorf("std::numeric_limits<%s>::%s is not supported for an integer type", typ, fn)
}

// intLitValue gives an integer literal its C++ type.
func intLitValue(e *IntLit) (Value, error) {
	v := e.Value
	fitsI32 := v <= math.MaxInt32
	fitsU32 := v <= math.MaxUint32
	fitsI64 := v <= math.MaxInt64
	decimal := e.Base == 10
	switch {
	case e.Unsigned && e.Longs == 0 && fitsU32:
		return uint32(v), nil
	case e.Unsigned:
		return v, nil
	case e.Longs == 0 && fitsI32:
		return int32(v), nil
	case e.Longs == 0 && !decimal && fitsU32:
		return uint32(v), nil
	case fitsI64:
		return int64(v), nil
	case !decimal:
		return v, nil
	}
	return nil, fmt.Errorf("integer literal %s is too large for any signed type", e.Text)
}
