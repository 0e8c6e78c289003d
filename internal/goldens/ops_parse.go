package goldens

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
)

// ParseError is the error ParseOps returns; it names the offending line.
type ParseError struct {
	Line int    // 1-based line number
	Text string // the line, trimmed
	Err  error  // what is wrong
}

// Error implements error.
func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d: %v (in %q)", e.Line, e.Err, e.Text)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

var (
	caseHeaderRE = regexp.MustCompile(`^case ([A-Za-z0-9_.-]+) \(([A-Za-z_][A-Za-z0-9_.]*), (fixed|dynamic), (performance|size)\)$`)
	reopenRE     = regexp.MustCompile(`^reopen ([A-Za-z0-9_.-]+)\.phaser\.bin as a mutable message(?: \((.*)\))?$`)
	repairRE     = regexp.MustCompile(`^rebuilt free block header @(\d+) \(beyond payload end (\d+)\) as length (\d+)$`)
	varRE        = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*) = (.+)$`)
)

// maxLineLen bounds the length of one .ops line.
const maxLineLen = 1 << 16

// ParseOps parses the content of an .ops file.
//
// The first non-blank line must be the "// case ..." header. It may be
// followed by "// reopen ..." and "// reopen repair: ..." lines (cont_*
// cases). Every other comment line must have the form "// NAME = EXPR" and
// sets a variable for the statements that follow (EXPR is evaluated at that
// point, see [Stmt.Vars]). Every other non-blank line is one C++ statement
// (see [Stmt]); anything the parser does not understand is a *[ParseError]
// naming the line.
func ParseOps(src []byte) (*Program, error) {
	prog := &Program{}
	var vars map[string]Value
	haveHeader := false
	lines := bytes.Split(src, []byte("\n"))
	for n, raw := range lines {
		lineNo := n + 1
		line := strings.TrimSpace(string(raw))
		if line == "" {
			continue
		}
		fail := func(err error) (*Program, error) {
			return nil, &ParseError{Line: lineNo, Text: line, Err: err}
		}
		if len(line) > maxLineLen {
			return fail(fmt.Errorf("line longer than %d bytes", maxLineLen))
		}
		if !haveHeader {
			m := caseHeaderRE.FindStringSubmatch(strings.TrimSpace(strings.TrimPrefix(line, "//")))
			if !strings.HasPrefix(line, "//") || m == nil {
				return fail(errors.New(`want the header "// case NAME (TYPE, fixed|dynamic, performance|size)"`))
			}
			prog.Header = CaseHeader{Name: m[1], MessageType: m[2], BufferKind: m[3], Tuning: m[4]}
			haveHeader = true
			continue
		}
		if strings.HasPrefix(line, "//") {
			text := strings.TrimSpace(line[2:])
			switch {
			case strings.HasPrefix(text, "case "):
				return fail(errors.New("second case header"))
			case strings.HasPrefix(text, "reopen repair:"):
				if prog.Reopen == nil {
					return fail(errors.New(`"reopen repair" without a preceding "reopen" line`))
				}
				if prog.Reopen.Repair != "" {
					return fail(errors.New(`second "reopen repair" line`))
				}
				if len(prog.Stmts) > 0 {
					return fail(errors.New(`"reopen repair" after the first statement`))
				}
				r := strings.TrimSpace(strings.TrimPrefix(text, "reopen repair:"))
				m := repairRE.FindStringSubmatch(r)
				if m == nil {
					return fail(errors.New(`unrecognized repair; want "rebuilt free block header @OFF (beyond payload end END) as length LEN"`))
				}
				prog.Reopen.Repair = r
				var err error
				for i, dst := range []*int{&prog.Reopen.RepairOffset, &prog.Reopen.RepairPayloadEnd, &prog.Reopen.RepairLength} {
					if *dst, err = strconv.Atoi(m[i+1]); err != nil {
						return fail(fmt.Errorf("repair number %q: %w", m[i+1], err))
					}
				}
			case strings.HasPrefix(text, "reopen "):
				if prog.Reopen != nil {
					return fail(errors.New(`second "reopen" line`))
				}
				if len(prog.Stmts) > 0 || vars != nil {
					return fail(errors.New(`"reopen" after the first statement`))
				}
				m := reopenRE.FindStringSubmatch(text)
				if m == nil {
					return fail(errors.New(`unrecognized reopen line; want "reopen BASE.phaser.bin as a mutable message (...)"`))
				}
				prog.Reopen = &Reopen{Base: m[1], Note: m[2]}
			default:
				m := varRE.FindStringSubmatch(text)
				if m == nil {
					return fail(errors.New(`unrecognized comment; want "// NAME = VALUE"`))
				}
				toks, err := lexLine(m[2])
				if err != nil {
					return fail(err)
				}
				p := &parser{toks: toks}
				e, err := p.parseExpr()
				if err == nil {
					err = p.expectEOF()
				}
				if err != nil {
					return fail(err)
				}
				v, err := Eval(e, vars)
				if err != nil {
					return fail(fmt.Errorf("variable %s: %w", m[1], err))
				}
				next := maps.Clone(vars)
				if next == nil {
					next = map[string]Value{}
				}
				next[m[1]] = v
				vars = next
			}
			continue
		}
		st, err := parseStmt(line)
		if err != nil {
			return fail(err)
		}
		st.Line = lineNo
		st.Text = line
		st.Vars = vars
		prog.Stmts = append(prog.Stmts, st)
	}
	if !haveHeader {
		return nil, &ParseError{Line: 1, Err: errors.New(`empty file: want the header "// case ..."`)}
	}
	return prog, nil
}

// ParseStmt parses one statement (a line of an .ops file without comments).
func ParseStmt(line string) (*Stmt, error) {
	st, err := parseStmt(strings.TrimSpace(line))
	if err != nil {
		return nil, err
	}
	st.Line = 1
	st.Text = strings.TrimSpace(line)
	return &st, nil
}

// ParseExpr parses one C++ expression in the .ops subset.
func ParseExpr(src string) (Expr, error) {
	toks, err := lexLine(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if err := p.expectEOF(); err != nil {
		return nil, err
	}
	return e, nil
}

func parseStmt(line string) (Stmt, error) {
	toks, err := lexLine(line)
	if err != nil {
		return Stmt{}, err
	}
	p := &parser{toks: toks}
	var st Stmt
	if p.peek().kind == tEOF {
		return Stmt{}, errors.New("empty statement")
	}
	// A declaration: TYPE NAME = EXPR.
	save := p.pos
	if ty, ok := p.parseType(); ok && p.peek().kind == tIdent && !isKeyword(p.peek().text) && p.peekAt(1).isPunct("=") {
		st.BindType = ty
		st.Bind = p.next().text
		p.next() // '='
		if st.Expr, err = p.parseExpr(); err != nil {
			return Stmt{}, err
		}
	} else {
		p.pos = save
		lhs, err := p.parseExpr()
		if err != nil {
			return Stmt{}, err
		}
		st.Expr = lhs
		if p.peek().isPunct("=") {
			switch lhs.(type) {
			case *Ident, *Member, *Index:
			default:
				return Stmt{}, p.errorf(p.peek(), "cannot assign to %s", lhs)
			}
			p.next()
			rhs, err := p.parseExpr()
			if err != nil {
				return Stmt{}, err
			}
			st.Expr = &Assign{LHS: lhs, RHS: rhs}
		}
	}
	if p.peek().isPunct(";") {
		p.next()
	}
	if err := p.expectEOF(); err != nil {
		return Stmt{}, err
	}
	switch st.Expr.(type) {
	case *Call, *Assign:
	default:
		if st.Bind == "" {
			return Stmt{}, fmt.Errorf("statement %s has no effect: want a call or an assignment", st.Expr)
		}
	}
	return st, nil
}

// maxDepth bounds expression nesting.
const maxDepth = 200

type parser struct {
	toks  []token
	pos   int
	depth int
}

func (t token) isPunct(s string) bool { return t.kind == tPunct && t.text == s }

func (p *parser) peek() token { return p.peekAt(0) }

func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1] // tEOF
}

func (p *parser) next() token {
	t := p.peek()
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return fmt.Errorf("col %d: %s", t.pos+1, fmt.Sprintf(format, args...))
}

func (p *parser) expect(s string) error {
	t := p.next()
	if !t.isPunct(s) {
		return p.errorf(t, "want %q, got %s", s, describe(t))
	}
	return nil
}

func (p *parser) expectEOF() error {
	if t := p.peek(); t.kind != tEOF {
		return p.errorf(t, "unexpected %s", describe(t))
	}
	return nil
}

func describe(t token) string {
	if t.kind == tEOF {
		return "end of line"
	}
	return strconv.Quote(t.text)
}

var keywords = map[string]bool{
	"auto": true, "const": true, "true": false, "false": false, "new": true, "delete": true,
	"return": true, "if": true, "else": true, "for": true, "while": true, "do": true,
	"sizeof": true, "nullptr": true, "this": true, "using": true, "namespace": true,
	"struct": true, "class": true, "template": true, "typename": true, "operator": true,
}

func isKeyword(s string) bool { return keywords[s] }

// typeWords are the builtin type keywords that may be combined ("unsigned long").
var typeWords = map[string]bool{
	"unsigned": true, "signed": true, "int": true, "long": true, "short": true,
	"char": true, "double": true, "float": true, "bool": true,
}

// parseType parses a type name such as "auto", "core::Part*", "auto&",
// "::std_msgs::Header", "std::numeric_limits<int64_t>" or "unsigned int".
// On failure it returns ok false without consuming input.
func (p *parser) parseType() (string, bool) {
	save := p.pos
	var sb strings.Builder
	if p.peek().kind == tIdent && p.peek().text == "const" {
		p.next()
		sb.WriteString("const ")
	}
	if p.peek().isPunct("::") {
		p.next()
		sb.WriteString("::")
	}
	t := p.next()
	if t.kind != tIdent || (isKeyword(t.text) && t.text != "auto") {
		p.pos = save
		return "", false
	}
	sb.WriteString(t.text)
	if typeWords[t.text] {
		for p.peek().kind == tIdent && typeWords[p.peek().text] {
			sb.WriteString(" " + p.next().text)
		}
	}
	for {
		if p.peek().isPunct("<") {
			args, ok := p.parseTemplateArgs()
			if !ok {
				p.pos = save
				return "", false
			}
			sb.WriteString("<" + strings.Join(args, ", ") + ">")
			continue
		}
		if p.peek().isPunct("::") && p.peekAt(1).kind == tIdent {
			p.next()
			sb.WriteString("::" + p.next().text)
			continue
		}
		break
	}
	for p.peek().isPunct("*") || p.peek().isPunct("&") || p.peek().isPunct("&&") {
		sb.WriteString(p.next().text)
	}
	return sb.String(), true
}

// parseTemplateArgs parses "<T, U>" starting at '<'. On failure (the '<'
// is a less-than operator) it returns ok false without consuming input.
func (p *parser) parseTemplateArgs() ([]string, bool) {
	save := p.pos
	p.next() // '<'
	var args []string
	for {
		t := p.peek()
		if t.kind == tInt {
			args = append(args, p.next().text)
		} else {
			ty, ok := p.parseType()
			if !ok {
				p.pos = save
				return nil, false
			}
			args = append(args, ty)
		}
		if p.peek().isPunct(",") {
			p.next()
			continue
		}
		if p.peek().isPunct(">") {
			p.next()
			return args, true
		}
		p.pos = save
		return nil, false
	}
}

// tryCallTemplateArgs parses template arguments that must be followed by
// '(' or '::' (a template call or a qualified name inside a template).
func (p *parser) tryCallTemplateArgs() ([]string, bool) {
	if !p.peek().isPunct("<") {
		return nil, false
	}
	save := p.pos
	args, ok := p.parseTemplateArgs()
	if !ok {
		return nil, false
	}
	if p.peek().isPunct("(") || p.peek().isPunct("::") {
		return args, true
	}
	p.pos = save
	return nil, false
}

func (p *parser) parseExpr() (Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.errorf(p.peek(), "expression nested too deeply")
	}
	return p.parseCond()
}

func (p *parser) parseCond() (Expr, error) {
	c, err := p.parseBinary(1)
	if err != nil {
		return nil, err
	}
	if !p.peek().isPunct("?") {
		return c, nil
	}
	p.next()
	then, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.errorf(p.peek(), "expression nested too deeply")
	}
	els, err := p.parseCond()
	if err != nil {
		return nil, err
	}
	return &Cond{Cond: c, Then: then, Else: els}, nil
}

var binaryPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7,
	"<<": 8, ">>": 8,
	"+": 9, "-": 9,
	"*": 10, "/": 10, "%": 10,
}

// binop returns the binary operator at the current position and the number
// of tokens it spans (">>" is lexed as two '>').
func (p *parser) binop() (string, int) {
	t := p.peek()
	if t.kind != tPunct {
		return "", 0
	}
	if t.text == ">" {
		if u := p.peekAt(1); u.isPunct(">") && u.pos == t.pos+1 {
			return ">>", 2
		}
	}
	if _, ok := binaryPrec[t.text]; ok {
		return t.text, 1
	}
	return "", 0
}

func (p *parser) parseBinary(minPrec int) (Expr, error) {
	x, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		op, n := p.binop()
		if n == 0 || binaryPrec[op] < minPrec {
			return x, nil
		}
		for range n {
			p.next()
		}
		p.depth++
		if p.depth > maxDepth {
			return nil, p.errorf(p.peek(), "expression nested too deeply")
		}
		y, err := p.parseBinary(binaryPrec[op] + 1)
		p.depth--
		if err != nil {
			return nil, err
		}
		x = &Binary{Op: op, X: x, Y: y}
	}
}

func (p *parser) parseUnary() (Expr, error) {
	t := p.peek()
	if t.kind == tPunct {
		switch t.text {
		case "-", "+", "~", "!":
			p.next()
			p.depth++
			defer func() { p.depth-- }()
			if p.depth > maxDepth {
				return nil, p.errorf(t, "expression nested too deeply")
			}
			x, err := p.parseUnary()
			if err != nil {
				return nil, err
			}
			return &Unary{Op: t.text, X: x}, nil
		case "*", "&":
			return nil, p.errorf(t, "pointer operator %q is not supported", t.text)
		}
	}
	return p.parsePostfix()
}

func (p *parser) parsePostfix() (Expr, error) {
	x, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.isPunct(".") || t.isPunct("->"):
			if isLiteral(x) {
				return nil, p.errorf(t, "member access on the literal %s", x)
			}
			p.next()
			name := p.next()
			if name.kind != tIdent {
				return nil, p.errorf(name, "want a member name after %q, got %s", t.text, describe(name))
			}
			targs, _ := p.tryCallTemplateArgs()
			if p.peek().isPunct("(") {
				args, err := p.parseArgs()
				if err != nil {
					return nil, err
				}
				x = &Call{Recv: x, Arrow: t.text == "->", Method: name.text, TemplateArgs: targs, Args: args}
				continue
			}
			if targs != nil {
				return nil, p.errorf(p.peek(), "template member %s is not called", name.text)
			}
			x = &Member{X: x, Arrow: t.text == "->", Name: name.text}
		case t.isPunct("["):
			if _, ok := x.(*StringLit); !ok && isLiteral(x) {
				return nil, p.errorf(t, "indexing the literal %s", x)
			}
			p.next()
			idx, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			x = &Index{X: x, Index: idx}
		case t.isPunct("("):
			return nil, p.errorf(t, "call of %s, which is not a name", x)
		default:
			return x, nil
		}
	}
}

func isLiteral(e Expr) bool {
	switch e.(type) {
	case *IntLit, *FloatLit, *StringLit, *CharLit, *BoolLit:
		return true
	}
	return false
}

func (p *parser) parseArgs() ([]Expr, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	args := []Expr{}
	if p.peek().isPunct(")") {
		p.next()
		return args, nil
	}
	for {
		a, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		t := p.next()
		if t.isPunct(")") {
			return args, nil
		}
		if !t.isPunct(",") {
			return nil, p.errorf(t, "want ',' or ')' in argument list, got %s", describe(t))
		}
	}
}

func (p *parser) parsePrimary() (Expr, error) {
	t := p.peek()
	switch t.kind {
	case tInt:
		p.next()
		return &IntLit{Text: t.text, Value: t.u, Base: t.base, Unsigned: t.unsigned, Longs: t.longs, Suffix: t.suffix}, nil
	case tFloat:
		p.next()
		return &FloatLit{Text: t.text, Value: t.f, Float32: t.f32}, nil
	case tChar:
		p.next()
		return &CharLit{Raw: t.text, Value: t.str[0]}, nil
	case tString:
		p.next()
		raw, val := t.text, t.str
		for p.peek().kind == tString {
			u := p.next()
			raw += " " + u.text
			val += u.str
		}
		return &StringLit{Raw: raw, Value: val}, nil
	case tEOF:
		return nil, p.errorf(t, "unexpected end of line: want an expression")
	}
	if t.isPunct("(") {
		p.next()
		x, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return &Paren{X: x}, nil
	}
	if t.kind == tIdent || t.isPunct("::") {
		return p.parseName()
	}
	return nil, p.errorf(t, "unexpected %s: want an expression", describe(t))
}

// parseName parses a possibly qualified name, an optional template argument
// list and, when followed by '(', the call of that name.
func (p *parser) parseName() (Expr, error) {
	global := false
	if p.peek().isPunct("::") {
		p.next()
		global = true
	}
	var parts []string
	var targs []string
	templateAt := 0
	for {
		t := p.next()
		if t.kind != tIdent {
			return nil, p.errorf(t, "want a name, got %s", describe(t))
		}
		if isKeyword(t.text) {
			return nil, p.errorf(t, "%q is not supported", t.text)
		}
		parts = append(parts, t.text)
		if ta, ok := p.tryCallTemplateArgs(); ok {
			if targs != nil {
				return nil, p.errorf(t, "more than one template argument list in %s", strings.Join(parts, "::"))
			}
			targs, templateAt = ta, len(parts)
		}
		if p.peek().isPunct("::") {
			p.next()
			continue
		}
		break
	}
	name := strings.Join(parts, "::")
	if global {
		name = "::" + name
	}
	if p.peek().isPunct("(") {
		args, err := p.parseArgs()
		if err != nil {
			return nil, err
		}
		c := &Call{Method: name, TemplateArgs: targs, Args: args}
		if targs != nil && templateAt < len(parts) {
			c.TemplateAfter = templateAt
		}
		return c, nil
	}
	if targs != nil {
		return nil, p.errorf(p.peek(), "template name %s is not called", name)
	}
	if len(parts) == 1 && !global {
		switch parts[0] {
		case "true":
			return &BoolLit{Value: true}, nil
		case "false":
			return &BoolLit{Value: false}, nil
		}
		return &Ident{Name: parts[0]}, nil
	}
	return &QualifiedName{Global: global, Parts: parts}, nil
}
