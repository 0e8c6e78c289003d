package goldens

import (
	"fmt"
	"strconv"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tChar
	tPunct
)

type token struct {
	kind tokKind
	text string // source spelling
	pos  int    // byte offset in the line (0-based)

	// Decoded literal values.
	str      string // tString, tChar: decoded bytes
	u        uint64 // tInt: magnitude
	base     int    // tInt
	unsigned bool   // tInt
	longs    int    // tInt
	suffix   string // tInt, tFloat
	f        float64
	f32      bool
}

// puncts lists the punctuators, longest first.
var puncts = []string{
	"::", "->", "<<", "==", "!=", "<=", ">=", "&&", "||",
	".", ",", "(", ")", "[", "]", "{", "}", "<", ">", "=", "+", "-", "*",
	"/", "%", "~", "!", "?", ":", ";", "&", "|", "^",
}

// lexLine splits one source line into tokens. It ignores a trailing "//"
// comment and "/* */" comments.
func lexLine(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case strings.HasPrefix(s[i:], "//"):
			i = len(s)
			continue
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("col %d: unterminated /* comment", i+1)
			}
			i += 2 + end + 2
			continue
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: s[i:j], pos: i})
			i = j
			continue
		case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
			t, n, err := lexNumber(s[i:])
			if err != nil {
				return nil, fmt.Errorf("col %d: %w", i+1, err)
			}
			t.pos = i
			toks = append(toks, t)
			i += n
			continue
		case c == '"' || c == '\'':
			val, n, err := lexQuoted(s[i:])
			if err != nil {
				return nil, fmt.Errorf("col %d: %w", i+1, err)
			}
			t := token{kind: tString, text: s[i : i+n], pos: i, str: val}
			if c == '\'' {
				if len(val) != 1 {
					return nil, fmt.Errorf("col %d: character literal %s must hold exactly one byte", i+1, t.text)
				}
				t.kind = tChar
			}
			toks = append(toks, t)
			i += n
			continue
		}
		matched := false
		for _, p := range puncts {
			if strings.HasPrefix(s[i:], p) {
				toks = append(toks, token{kind: tPunct, text: p, pos: i})
				i += len(p)
				matched = true
				break
			}
		}
		if !matched {
			return nil, fmt.Errorf("col %d: unexpected character %q", i+1, rune(c))
		}
	}
	return append(toks, token{kind: tEOF, pos: len(s)}), nil
}

func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isHex(c byte) bool        { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// lexNumber scans an integer or floating literal at the start of s.
func lexNumber(s string) (token, int, error) {
	i := 0
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		i = 2
		for i < len(s) && isHex(s[i]) {
			i++
		}
		if i == 2 {
			return token{}, 0, fmt.Errorf("malformed hex literal %q", s[:i])
		}
		return intToken(s, 2, i, 16)
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	isFloat := false
	if i < len(s) && s[i] == '.' {
		isFloat = true
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j >= len(s) || !isDigit(s[j]) {
			return token{}, 0, fmt.Errorf("malformed exponent in %q", s[:j])
		}
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		isFloat = true
		i = j
	}
	if !isFloat {
		if i > 1 && s[0] == '0' {
			return intToken(s, 1, i, 8)
		}
		return intToken(s, 0, i, 10)
	}
	body := s[:i]
	t := token{kind: tFloat}
	if i < len(s) && (s[i] == 'f' || s[i] == 'F') {
		t.f32 = true
		t.suffix = s[i : i+1]
		i++
	} else if i < len(s) && (s[i] == 'l' || s[i] == 'L') {
		return token{}, 0, fmt.Errorf("long double literal %q is not supported", s[:i+1])
	}
	if i < len(s) && isIdentChar(s[i]) {
		return token{}, 0, fmt.Errorf("bad suffix on floating literal %q", s[:i+1])
	}
	bits := 64
	if t.f32 {
		bits = 32
	}
	f, err := strconv.ParseFloat(body, bits)
	if err != nil {
		return token{}, 0, fmt.Errorf("floating literal %q out of range", s[:i])
	}
	t.f = f
	t.text = s[:i]
	return t, i, nil
}

// intToken finishes an integer literal whose digits are s[start:end].
func intToken(s string, start, end, base int) (token, int, error) {
	digits := s[start:end]
	i := end
	for i < len(s) && isIdentChar(s[i]) {
		i++
	}
	suffix := s[end:i]
	t := token{kind: tInt, text: s[:i], base: base, suffix: suffix}
	switch strings.ToLower(suffix) {
	case "":
	case "u":
		t.unsigned = true
	case "l":
		t.longs = 1
	case "ll":
		t.longs = 2
	case "ul", "lu":
		t.unsigned, t.longs = true, 1
	case "ull", "llu":
		t.unsigned, t.longs = true, 2
	default:
		return token{}, 0, fmt.Errorf("bad suffix on integer literal %q", s[:i])
	}
	if strings.Contains(suffix, "lL") || strings.Contains(suffix, "Ll") {
		return token{}, 0, fmt.Errorf("bad suffix on integer literal %q", s[:i])
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return token{}, 0, fmt.Errorf("integer literal %q does not fit in 64 bits", s[:i])
	}
	t.u = u
	return t, i, nil
}

// lexQuoted scans a string or character literal at the start of s and
// returns its decoded bytes and length in s.
func lexQuoted(s string) (string, int, error) {
	q := s[0]
	var b []byte
	i := 1
	for {
		if i >= len(s) {
			return "", 0, fmt.Errorf("unterminated literal %s", s)
		}
		c := s[i]
		if c == q {
			return string(b), i + 1, nil
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		i++
		if i >= len(s) {
			return "", 0, fmt.Errorf("unterminated escape in %s", s)
		}
		e := s[i]
		i++
		switch e {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'a':
			b = append(b, '\a')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'v':
			b = append(b, '\v')
		case '\\', '\'', '"', '?':
			b = append(b, e)
		case 'x':
			j := i
			for j < len(s) && isHex(s[j]) {
				j++
			}
			if j == i {
				return "", 0, fmt.Errorf(`\x without hex digits in %s`, s[:j])
			}
			v, err := strconv.ParseUint(s[i:j], 16, 64)
			if err != nil || v > 0xff {
				return "", 0, fmt.Errorf("hex escape %s out of range", s[i-2:j])
			}
			b = append(b, byte(v))
			i = j
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i - 1
			for j < len(s) && j < i+2 && '0' <= s[j] && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i-1:j], 8, 64)
			if v > 0xff {
				return "", 0, fmt.Errorf("octal escape %s out of range", s[i-2:j])
			}
			b = append(b, byte(v))
			i = j
		default:
			return "", 0, fmt.Errorf(`unknown escape \%c`, e)
		}
	}
}
