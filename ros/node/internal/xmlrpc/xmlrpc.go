// Package xmlrpc is the server side of XML-RPC as the ROS slave API uses
// it: a request decoder and a response encoder over plain Go values, and an
// HTTP server, each bounded for requests from peers that may be hostile.
//
// Values decode to int (i4, int, i8), bool, string, float64, []byte
// (base64), []any (array), map[string]any (struct), and nil (the <nil/>
// extension); dateTime.iso8601 decodes to its string. Encoding takes the
// same types (and []string, int64, int32). Every request is bounded in
// bytes, nesting depth, value count and time: see Limits.
package xmlrpc

import (
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits bound what a request may cost the server. The zero value of a
// field selects its default.
type Limits struct {
	MaxBody   int64 // request body bytes (default 1 MiB)
	MaxDepth  int   // nesting of arrays and structs (default 32)
	MaxValues int   // values in one request (default 65536)
}

func (l Limits) withDefaults() Limits {
	if l.MaxBody <= 0 {
		l.MaxBody = 1 << 20
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 32
	}
	if l.MaxValues <= 0 {
		l.MaxValues = 1 << 16
	}
	return l
}

// ErrMalformed wraps every error of a request that is not XML-RPC or
// exceeds the limits.
var ErrMalformed = errors.New("xmlrpc: malformed request")

// DecodeRequest decodes a methodCall read from r (at most lim.MaxBody
// bytes of it are read).
func DecodeRequest(r io.Reader, lim Limits) (method string, params []any, err error) {
	lim = lim.withDefaults()
	lr := &io.LimitedReader{R: r, N: lim.MaxBody + 1}
	d := &decoder{x: xml.NewDecoder(lr), lim: lim}
	d.x.Strict = true
	method, params, err = d.request()
	if lr.N <= 0 {
		return "", nil, fmt.Errorf("%w: over %d bytes", ErrMalformed, lim.MaxBody)
	}
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return method, params, nil
}

type decoder struct {
	x      *xml.Decoder
	lim    Limits
	values int
}

// token returns the next token that is not white space, a comment, a
// processing instruction or a directive.
func (d *decoder) token() (xml.Token, error) {
	for {
		t, err := d.x.Token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.CharData:
			if len(strings.TrimSpace(string(t))) != 0 {
				return nil, fmt.Errorf("unexpected text %q", clip(t))
			}
		case xml.Comment, xml.ProcInst, xml.Directive:
		default:
			return t, nil
		}
	}
}

func (d *decoder) start(name string) error {
	t, err := d.token()
	if err != nil {
		return err
	}
	if s, ok := t.(xml.StartElement); !ok || s.Name.Local != name {
		return fmt.Errorf("want <%s>, got %s", name, describe(t))
	}
	return nil
}

func (d *decoder) end(name string) error {
	t, err := d.token()
	if err != nil {
		return err
	}
	if e, ok := t.(xml.EndElement); !ok || e.Name.Local != name {
		return fmt.Errorf("want </%s>, got %s", name, describe(t))
	}
	return nil
}

// text reads the character data of an element whose start was consumed,
// and its end.
func (d *decoder) text(name string) (string, error) {
	var b []byte
	for {
		t, err := d.x.Token()
		if err != nil {
			return "", err
		}
		switch t := t.(type) {
		case xml.CharData:
			b = append(b, t...)
		case xml.Comment, xml.ProcInst:
		case xml.EndElement:
			if t.Name.Local != name {
				return "", fmt.Errorf("want </%s>, got </%s>", name, t.Name.Local)
			}
			return string(b), nil
		default:
			return "", fmt.Errorf("want the text of <%s>, got %s", name, describe(t))
		}
	}
}

func (d *decoder) request() (string, []any, error) {
	if err := d.start("methodCall"); err != nil {
		return "", nil, err
	}
	if err := d.start("methodName"); err != nil {
		return "", nil, err
	}
	method, err := d.text("methodName")
	if err != nil {
		return "", nil, err
	}
	method = strings.TrimSpace(method)
	t, err := d.token()
	if err != nil {
		return "", nil, err
	}
	var params []any
	switch t := t.(type) {
	case xml.EndElement: // no <params>
		if t.Name.Local != "methodCall" {
			return "", nil, fmt.Errorf("want </methodCall>, got </%s>", t.Name.Local)
		}
	case xml.StartElement:
		if t.Name.Local != "params" {
			return "", nil, fmt.Errorf("want <params>, got <%s>", t.Name.Local)
		}
		for {
			t, err := d.token()
			if err != nil {
				return "", nil, err
			}
			if e, ok := t.(xml.EndElement); ok && e.Name.Local == "params" {
				break
			}
			if s, ok := t.(xml.StartElement); !ok || s.Name.Local != "param" {
				return "", nil, fmt.Errorf("want <param>, got %s", describe(t))
			}
			if err := d.start("value"); err != nil {
				return "", nil, err
			}
			v, err := d.value(0)
			if err != nil {
				return "", nil, err
			}
			params = append(params, v)
			if err := d.end("param"); err != nil {
				return "", nil, err
			}
		}
		if err := d.end("methodCall"); err != nil {
			return "", nil, err
		}
	default:
		return "", nil, fmt.Errorf("want <params>, got %s", describe(t))
	}
	if t, err := d.token(); err != io.EOF {
		if err != nil {
			return "", nil, err
		}
		return "", nil, fmt.Errorf("%s after </methodCall>", describe(t))
	}
	return method, params, nil
}

// value decodes a value whose <value> start was consumed, and its end.
func (d *decoder) value(depth int) (any, error) {
	if d.values++; d.values > d.lim.MaxValues {
		return nil, fmt.Errorf("more than %d values", d.lim.MaxValues)
	}
	// Text directly in <value> is a string; white space before a type
	// element is not.
	var text []byte
	for {
		t, err := d.x.Token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.CharData:
			text = append(text, t...)
			continue
		case xml.Comment, xml.ProcInst:
			continue
		case xml.EndElement:
			if t.Name.Local != "value" {
				return nil, fmt.Errorf("want </value>, got </%s>", t.Name.Local)
			}
			return string(text), nil
		case xml.StartElement:
			if len(strings.TrimSpace(string(text))) != 0 {
				return nil, fmt.Errorf("text %q beside <%s>", clip(text), t.Name.Local)
			}
			v, err := d.typed(t.Name.Local, depth)
			if err != nil {
				return nil, err
			}
			return v, d.end("value")
		default:
			return nil, fmt.Errorf("unexpected %s in <value>", describe(t))
		}
	}
}

// typed decodes the element of a value's type, whose start was consumed,
// and its end.
func (d *decoder) typed(name string, depth int) (any, error) {
	switch name {
	case "array":
		if depth >= d.lim.MaxDepth {
			return nil, fmt.Errorf("nested deeper than %d", d.lim.MaxDepth)
		}
		if err := d.start("data"); err != nil {
			return nil, err
		}
		a := []any{}
		for {
			t, err := d.token()
			if err != nil {
				return nil, err
			}
			if e, ok := t.(xml.EndElement); ok && e.Name.Local == "data" {
				break
			}
			if s, ok := t.(xml.StartElement); !ok || s.Name.Local != "value" {
				return nil, fmt.Errorf("want <value> in <data>, got %s", describe(t))
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, d.end("array")
	case "struct":
		if depth >= d.lim.MaxDepth {
			return nil, fmt.Errorf("nested deeper than %d", d.lim.MaxDepth)
		}
		m := map[string]any{}
		for {
			t, err := d.token()
			if err != nil {
				return nil, err
			}
			if e, ok := t.(xml.EndElement); ok && e.Name.Local == "struct" {
				return m, nil
			}
			if s, ok := t.(xml.StartElement); !ok || s.Name.Local != "member" {
				return nil, fmt.Errorf("want <member> in <struct>, got %s", describe(t))
			}
			if err := d.start("name"); err != nil {
				return nil, err
			}
			k, err := d.text("name")
			if err != nil {
				return nil, err
			}
			if err := d.start("value"); err != nil {
				return nil, err
			}
			if m[k], err = d.value(depth + 1); err != nil {
				return nil, err
			}
			if err := d.end("member"); err != nil {
				return nil, err
			}
		}
	case "nil":
		return nil, d.end("nil")
	}
	s, err := d.text(name)
	if err != nil {
		return nil, err
	}
	switch name {
	case "string", "dateTime.iso8601":
		return s, nil
	case "int", "i4", "i8":
		bits := 32
		if name == "i8" {
			bits = 64
		}
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, bits)
		if err != nil {
			return nil, fmt.Errorf("<%s>: %w", name, err)
		}
		return int(n), nil
	case "boolean":
		switch strings.TrimSpace(s) {
		case "0":
			return false, nil
		case "1":
			return true, nil
		}
		return nil, fmt.Errorf("<boolean>%s</boolean> is neither 0 nor 1", clip([]byte(s)))
	case "double":
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, fmt.Errorf("<double>: %w", err)
		}
		return f, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
		if err != nil {
			return nil, fmt.Errorf("<base64>: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("unknown value type <%s>", clip([]byte(name)))
}

func describe(t xml.Token) string {
	switch t := t.(type) {
	case xml.StartElement:
		return "<" + string(clip([]byte(t.Name.Local))) + ">"
	case xml.EndElement:
		return "</" + string(clip([]byte(t.Name.Local))) + ">"
	case xml.CharData:
		return fmt.Sprintf("text %q", clip(t))
	}
	return fmt.Sprintf("%T", t)
}

// clip shortens what an error quotes from a peer's bytes.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

// AppendResponse appends a methodResponse holding v to dst. It returns an
// error for a value of a type it cannot encode (or a float that is not
// finite) and then leaves dst as it was.
func AppendResponse(dst []byte, v any) ([]byte, error) {
	n := len(dst)
	dst = append(dst, `<?xml version="1.0"?>`+"\n<methodResponse><params><param>"...)
	dst, err := appendValue(dst, v)
	if err != nil {
		return dst[:n], err
	}
	return append(dst, "</param></params></methodResponse>\n"...), nil
}

// AppendFault appends a methodResponse carrying a fault to dst.
func AppendFault(dst []byte, code int, msg string) []byte {
	dst = append(dst, `<?xml version="1.0"?>`+"\n<methodResponse><fault><value><struct><member><name>faultCode</name><value><int>"...)
	dst = strconv.AppendInt(dst, int64(int32(code)), 10)
	dst = append(dst, "</int></value></member><member><name>faultString</name><value><string>"...)
	dst = appendEscaped(dst, msg)
	return append(dst, "</string></value></member></struct></value></fault></methodResponse>\n"...)
}

// AppendCall appends a methodCall of method with params to dst (what a
// client sends; the tests use it as a peer would).
func AppendCall(dst []byte, method string, params ...any) ([]byte, error) {
	n := len(dst)
	dst = append(dst, `<?xml version="1.0"?>`+"\n<methodCall><methodName>"...)
	dst = appendEscaped(dst, method)
	dst = append(dst, "</methodName><params>"...)
	for _, p := range params {
		var err error
		dst = append(dst, "<param>"...)
		if dst, err = appendValue(dst, p); err != nil {
			return dst[:n], err
		}
		dst = append(dst, "</param>"...)
	}
	return append(dst, "</params></methodCall>\n"...), nil
}

func appendValue(dst []byte, v any) ([]byte, error) {
	dst = append(dst, "<value>"...)
	switch v := v.(type) {
	case nil:
		dst = append(dst, "<nil/>"...)
	case bool:
		if v {
			dst = append(dst, "<boolean>1</boolean>"...)
		} else {
			dst = append(dst, "<boolean>0</boolean>"...)
		}
	case int:
		dst = appendInt(dst, int64(v))
	case int32:
		dst = appendInt(dst, int64(v))
	case int64:
		dst = appendInt(dst, v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return dst, fmt.Errorf("xmlrpc: cannot encode %v", v)
		}
		dst = append(dst, "<double>"...)
		dst = strconv.AppendFloat(dst, v, 'g', -1, 64)
		dst = append(dst, "</double>"...)
	case string:
		dst = append(dst, "<string>"...)
		dst = appendEscaped(dst, v)
		dst = append(dst, "</string>"...)
	case []byte:
		dst = append(dst, "<base64>"...)
		dst = base64.StdEncoding.AppendEncode(dst, v)
		dst = append(dst, "</base64>"...)
	case []string:
		dst = append(dst, "<array><data>"...)
		for _, s := range v {
			dst = append(dst, "<value><string>"...)
			dst = appendEscaped(dst, s)
			dst = append(dst, "</string></value>"...)
		}
		dst = append(dst, "</data></array>"...)
	case []any:
		dst = append(dst, "<array><data>"...)
		for _, e := range v {
			var err error
			if dst, err = appendValue(dst, e); err != nil {
				return dst, err
			}
		}
		dst = append(dst, "</data></array>"...)
	case map[string]any:
		dst = append(dst, "<struct>"...)
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			var err error
			dst = append(dst, "<member><name>"...)
			dst = appendEscaped(dst, k)
			dst = append(dst, "</name>"...)
			if dst, err = appendValue(dst, v[k]); err != nil {
				return dst, err
			}
			dst = append(dst, "</member>"...)
		}
		dst = append(dst, "</struct>"...)
	default:
		return dst, fmt.Errorf("xmlrpc: cannot encode a %T", v)
	}
	return append(dst, "</value>"...), nil
}

// appendInt writes an i4 when v fits in 32 bits (all XML-RPC promises), an
// i8 otherwise (Python's extension).
func appendInt(dst []byte, v int64) []byte {
	tag := "i4"
	if v != int64(int32(v)) {
		tag = "i8"
	}
	dst = append(dst, '<')
	dst = append(dst, tag...)
	dst = append(dst, '>')
	dst = strconv.AppendInt(dst, v, 10)
	dst = append(dst, "</"...)
	dst = append(dst, tag...)
	return append(dst, '>')
}

// appendEscaped appends s as XML character data: markup characters
// escaped, and characters XML 1.0 cannot hold (invalid UTF-8, most control
// characters) replaced by U+FFFD, so that a peer's text echoed in a reply
// never breaks the document.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '<':
			dst = append(dst, "&lt;"...)
		case r == '>':
			dst = append(dst, "&gt;"...)
		case r == '&':
			dst = append(dst, "&amp;"...)
		case r == '\r':
			dst = append(dst, "&#xD;"...)
		case r == utf8.RuneError && n == 1, !inXMLRange(r):
			dst = utf8.AppendRune(dst, utf8.RuneError)
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// inXMLRange reports whether r is a character XML 1.0 documents may hold.
func inXMLRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
