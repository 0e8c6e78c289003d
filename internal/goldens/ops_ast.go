package goldens

import (
	"strings"
)

// Program is a parsed NAME.ops file.
type Program struct {
	Header CaseHeader // from the first line, "// case NAME (TYPE, KIND, TUNING)"
	Reopen *Reopen    // cont_* cases: the re-opened golden; nil otherwise
	Stmts  []Stmt     // the statements, in order
}

// CaseHeader is the "// case NAME (message type, fixed|dynamic,
// performance|size)" line that starts every .ops file.
type CaseHeader struct {
	Name        string // case name
	MessageType string // full protobuf name of the root message
	BufferKind  string // "fixed" or "dynamic"
	Tuning      string // "performance" or "size"
}

// Reopen describes the "// reopen BASE.phaser.bin as a mutable message (...)"
// line of a continuation case and its optional "// reopen repair: ..." line.
// The statements of such a program use the variable m for the re-opened
// message without declaring it.
type Reopen struct {
	Base string // base case name (BASE.phaser.bin was re-opened)
	Note string // text in parentheses after "as a mutable message", if any

	// Repair is the text after "// reopen repair: ", or "" when the base
	// payload needed no repair. For the repair C++ performed ("rebuilt free
	// block header @OFF (beyond payload end END) as length LEN") the numbers
	// are in RepairOffset, RepairPayloadEnd and RepairLength.
	Repair           string
	RepairOffset     int
	RepairPayloadEnd int
	RepairLength     int
}

// Stmt is one statement line of an .ops file.
type Stmt struct {
	Line int    // 1-based line number in the .ops file
	Text string // the source line, trimmed

	// Bind is the variable declared by the statement ("auto x = ...",
	// "T* x = ...", "auto& x = ...", "::std_msgs::Header h = ...") or "".
	Bind string
	// BindType is the declared type as written, with any '*' or '&'
	// attached: "auto", "auto*", "auto&", "core::Part*", "rosfe::Joint&",
	// "::std_msgs::Header". It is "" when Bind is "".
	BindType string

	// Expr is the initializer of a declaration, or the statement's
	// expression: a *Call, or an *Assign for "x.f = v" / "x[i] = v".
	Expr Expr

	// Vars holds the values of the "// NAME = VALUE" comment variables in
	// effect for this statement (for example "i" as an int32 loop variable
	// or "str" as a string). It is nil when none is in effect; the map is
	// shared between statements and must not be modified.
	Vars map[string]Value
}

// String renders the statement as canonical C++ (without the trailing ';').
func (s *Stmt) String() string {
	if s.Bind != "" {
		return s.BindType + " " + s.Bind + " = " + exprString(s.Expr)
	}
	return exprString(s.Expr)
}

// Expr is a node of a statement's expression tree: one of *Ident,
// *QualifiedName, *IntLit, *FloatLit, *StringLit, *CharLit, *BoolLit,
// *Paren, *Unary, *Binary, *Cond, *Call, *Member, *Index, *Assign.
type Expr interface {
	// String renders the expression as canonical C++.
	String() string
	exprNode()
}

// Ident is an unqualified identifier: a variable ("m", "p0", "i", "str"),
// "kBin" or "zeroed_buffer".
type Ident struct {
	Name string
}

// QualifiedName is a name with at least one "::", used as a value: an enum
// constant ("core::Mood::MOOD_CALM", "::phaser::Tuning::kPerformance").
type QualifiedName struct {
	Global bool     // written with a leading "::"
	Parts  []string // the "::"-separated components
}

// IntLit is an integer literal. Value is its magnitude (a leading '-' is a
// *Unary); Text keeps the spelling, including the base prefix and suffix.
type IntLit struct {
	Text     string
	Value    uint64
	Base     int    // 8, 10 or 16
	Unsigned bool   // 'u' suffix
	Longs    int    // number of 'l's in the suffix (0, 1 or 2)
	Suffix   string // the suffix as written ("", "u", "LL", "ULL", ...)
}

// FloatLit is a floating-point literal; Float32 is set by an 'f' suffix (the
// value is then rounded to float32 precision).
type FloatLit struct {
	Text    string
	Value   float64
	Float32 bool
}

// StringLit is a string literal (adjacent literals concatenated) with C++
// escapes decoded to bytes in Value; Raw is the spelling with quotes.
type StringLit struct {
	Raw   string
	Value string
}

// CharLit is a character literal; Value is the char as a byte.
type CharLit struct {
	Raw   string
	Value byte
}

// BoolLit is true or false.
type BoolLit struct {
	Value bool
}

// Paren is a parenthesized expression.
type Paren struct {
	X Expr
}

// Unary is a prefix operator: "-", "+", "~" or "!".
type Unary struct {
	Op string
	X  Expr
}

// Binary is an infix operator: "*", "/", "%", "+", "-", "<<", ">>", "<",
// ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||".
type Binary struct {
	Op   string
	X, Y Expr
}

// Cond is the conditional operator "Cond ? Then : Else".
type Cond struct {
	Cond, Then, Else Expr
}

// Call is a function or method call.
//
// For a method call ("m.set_count(1)", "h->set_seq(9)",
// "m.mutable_extra()->MutableAny<core::Part>()", "m.aliases.push_back(x)")
// Recv is the receiver expression, Arrow tells "->" from "." and Method is the
// method name.
//
// For a call of a (possibly qualified) function name ("Pattern(40, 'A')",
// "std::string(x)", "::ros::Time(1, 2)", "uint64_t(i)",
// "Record::CreateMutable(...)", "std::numeric_limits<int64_t>::max()",
// "static_cast<size_t>(x)", "memcpy(...)") Recv is nil and Method is the
// name as written without its template argument list, e.g.
// "std::numeric_limits::max" or "::ros::Time".
//
// TemplateArgs holds the template argument types ("core::Part",
// "RB::ModeCountAlternative", "int64_t"). They follow the last component of
// Method unless TemplateAfter is > 0, in which case they follow the
// TemplateAfter-th "::"-separated component (2 for
// "std::numeric_limits<T>::max").
type Call struct {
	Recv          Expr
	Arrow         bool
	Method        string
	TemplateArgs  []string
	TemplateAfter int
	Args          []Expr
}

// Member is a field access "X.Name" or "X->Name" (ROS frontend members).
type Member struct {
	X     Expr
	Arrow bool
	Name  string
}

// Index is "X[Index]".
type Index struct {
	X, Index Expr
}

// Assign is "LHS = RHS"; it only appears as a statement's top-level
// expression and LHS is an *Ident, *Member or *Index.
type Assign struct {
	LHS, RHS Expr
}

func (*Ident) exprNode()         {}
func (*QualifiedName) exprNode() {}
func (*IntLit) exprNode()        {}
func (*FloatLit) exprNode()      {}
func (*StringLit) exprNode()     {}
func (*CharLit) exprNode()       {}
func (*BoolLit) exprNode()       {}
func (*Paren) exprNode()         {}
func (*Unary) exprNode()         {}
func (*Binary) exprNode()        {}
func (*Cond) exprNode()          {}
func (*Call) exprNode()          {}
func (*Member) exprNode()        {}
func (*Index) exprNode()         {}
func (*Assign) exprNode()        {}

func exprString(e Expr) string {
	if e == nil {
		return "<nil>"
	}
	return e.String()
}

// String implements Expr.
func (e *Ident) String() string { return e.Name }

// String implements Expr.
func (e *QualifiedName) String() string {
	s := strings.Join(e.Parts, "::")
	if e.Global {
		return "::" + s
	}
	return s
}

// Text returns the name without a leading "::".
func (e *QualifiedName) Text() string { return strings.Join(e.Parts, "::") }

// String implements Expr.
func (e *IntLit) String() string { return e.Text }

// String implements Expr.
func (e *FloatLit) String() string { return e.Text }

// String implements Expr.
func (e *StringLit) String() string { return e.Raw }

// String implements Expr.
func (e *CharLit) String() string { return e.Raw }

// String implements Expr.
func (e *BoolLit) String() string {
	if e.Value {
		return "true"
	}
	return "false"
}

// String implements Expr.
func (e *Paren) String() string { return "(" + exprString(e.X) + ")" }

// String implements Expr.
func (e *Unary) String() string { return e.Op + exprString(e.X) }

// String implements Expr.
func (e *Binary) String() string { return exprString(e.X) + " " + e.Op + " " + exprString(e.Y) }

// String implements Expr.
func (e *Cond) String() string {
	return exprString(e.Cond) + " ? " + exprString(e.Then) + " : " + exprString(e.Else)
}

// String implements Expr.
func (e *Call) String() string {
	var sb strings.Builder
	if e.Recv != nil {
		sb.WriteString(exprString(e.Recv))
		if e.Arrow {
			sb.WriteString("->")
		} else {
			sb.WriteString(".")
		}
	}
	sb.WriteString(e.nameWithTemplate())
	sb.WriteString("(")
	for i, a := range e.Args {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(exprString(a))
	}
	sb.WriteString(")")
	return sb.String()
}

// nameWithTemplate renders Method with the template argument list in place.
func (e *Call) nameWithTemplate() string {
	if len(e.TemplateArgs) == 0 {
		return e.Method
	}
	tmpl := "<" + strings.Join(e.TemplateArgs, ", ") + ">"
	if e.TemplateAfter <= 0 {
		return e.Method + tmpl
	}
	prefix := ""
	name := e.Method
	if strings.HasPrefix(name, "::") {
		prefix, name = "::", name[2:]
	}
	parts := strings.Split(name, "::")
	if e.TemplateAfter >= len(parts) {
		return e.Method + tmpl
	}
	return prefix + strings.Join(parts[:e.TemplateAfter], "::") + tmpl + "::" + strings.Join(parts[e.TemplateAfter:], "::")
}

// String implements Expr.
func (e *Member) String() string {
	if e.Arrow {
		return exprString(e.X) + "->" + e.Name
	}
	return exprString(e.X) + "." + e.Name
}

// String implements Expr.
func (e *Index) String() string { return exprString(e.X) + "[" + exprString(e.Index) + "]" }

// String implements Expr.
func (e *Assign) String() string { return exprString(e.LHS) + " = " + exprString(e.RHS) }

// walk calls f for e and every sub-expression of e, parents first, the
// operands of a call (its receiver, then its arguments) in order.
func walk(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *Paren:
		walk(e.X, f)
	case *Unary:
		walk(e.X, f)
	case *Binary:
		walk(e.X, f)
		walk(e.Y, f)
	case *Cond:
		walk(e.Cond, f)
		walk(e.Then, f)
		walk(e.Else, f)
	case *Call:
		walk(e.Recv, f)
		for _, a := range e.Args {
			walk(a, f)
		}
	case *Member:
		walk(e.X, f)
	case *Index:
		walk(e.X, f)
		walk(e.Index, f)
	case *Assign:
		walk(e.LHS, f)
		walk(e.RHS, f)
	}
}
