package phaserimpl

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	phaserproto "github.com/phaser-go/phaser/proto"
)

// The protobuf codecs generated per message (MarshalProto, AppendProto,
// ProtoSize, UnmarshalProto, IsInitialized) call what this file declares:
// the state of a walk, the general codec (package proto's plan
// interpreter) they fall back on out of line, and the small helpers whose
// bodies inline into them. Every encoder reads the payload only through
// bounds-checked loads: a hostile payload makes it write absent fields or
// fail, never panic.

// Wire is the state of one protobuf encoding or decoding of a message tree
// (see impl.Wire): the work budget, the nesting depth, the payload's
// unknown fields, the options.
type Wire = impl.Wire

// MessageAppender appends the elements of a repeated message field in a
// row (a decoder's): see impl.MessageAppender.
type MessageAppender = impl.MessageAppender

var le = binary.LittleEndian

// Encoder returns the state of an encoding of m, or ErrFailed's error for a
// payload whose fixed buffer filled up.
func Encoder(m Msg) (Wire, error) { return impl.Encoder(m) }

// Walker returns the state of a check of required fields of m.
func Walker(m Msg) Wire { return impl.Walker(m) }

// StartDecode clears m, of type t, for an UnmarshalProto and makes *w
// (overwritten whole) the state of the decoding. The root of a payload this
// process wrote, of a type of strings, scalars and flat messages, is not
// reset: its blocks are set aside for the decoding to reuse (the same
// message results, in other blocks). If EndDecode then reports
// DecodeAgain, the decoding filled the buffer that way, and is done again
// from StartDecode. w is the generated UnmarshalProto's, in its frame: the
// state is made in place, not returned (a Wire returned by value is copied
// out of registers to the stack, and again into the variable).
func StartDecode(w *Wire, m Msg, t *Type) error {
	if rw, ok := impl.DecoderReusing(m, t); ok {
		*w = rw
		return nil
	}
	if !m.IsPresent() {
		*w = Wire{}
		return fmt.Errorf("phaser: unmarshal %s: no message", t.Name())
	}
	m.Clear(t)
	if err := m.Err(); err != nil {
		*w = Wire{}
		return fmt.Errorf("phaser: unmarshal %s: %w", t.Name(), err)
	}
	*w = impl.Decoder(m)
	return nil
}

// BeginDecode is StartDecode returning the state: the call of code
// generated before StartDecode.
func BeginDecode(m Msg, t *Type) (Wire, error) {
	var w Wire
	err := StartDecode(&w, m, t)
	return w, err
}

// DecodeAgain reports whether the decoding w, ended by EndDecode, must be
// done again from StartDecode. It is w.Again, inline in the generated
// UnmarshalProto: a method of package impl inlines into a package that
// imports this one (and not impl) only when an inlinable function of this
// package refers to it, which puts its body in this package's export data;
// w.Again, called there directly, was a call.
func DecodeAgain(w *Wire) bool { return w.Again() }

// EndDecode ends the decoding w into m, of type t, that returned err.
func EndDecode(m Msg, t *Type, w *Wire, err error) error {
	w.Release()
	w.EndReuse(m)
	if err != nil {
		return err
	}
	if err := m.Err(); err != nil {
		return fmt.Errorf("phaser: unmarshal %s: %w", t.Name(), err)
	}
	return nil
}

// AppendProtoGeneral appends the encoding of m, of type t, as package proto
// writes it: the generated encoders' path for a message not laid out with
// its compiled table.
func AppendProtoGeneral(b []byte, m Msg, t *Type, w *Wire) (_ []byte, err error) {
	b, *w, err = impl.ProtoGeneralCodec().Append(b, m, t, *w)
	return b, err
}

// SizeProtoGeneral returns the length of m's encoding, as package proto
// computes it.
func SizeProtoGeneral(m Msg, t *Type, w *Wire) (n int, err error) {
	n, *w, err = impl.ProtoGeneralCodec().Size(m, t, *w)
	return n, err
}

// AppendProtoField appends field num of m, of type t, as package proto
// writes it (a map or an Any).
func AppendProtoField(b []byte, m Msg, t *Type, num uint32, w *Wire) (_ []byte, err error) {
	b, *w, err = impl.ProtoGeneralCodec().AppendField(b, m, t, num, *w)
	return b, err
}

// SizeProtoField returns the length of field num of m.
func SizeProtoField(m Msg, t *Type, num uint32, w *Wire) (n int, err error) {
	n, *w, err = impl.ProtoGeneralCodec().SizeField(m, t, num, *w)
	return n, err
}

// UnmarshalProtoGeneral merges the encoding b into m, as package proto
// parses it: the generated decoders' path for a message that cannot be
// written at its compiled offsets.
func UnmarshalProtoGeneral(b []byte, m Msg, t *Type, w *Wire) (err error) {
	*w, err = impl.ProtoGeneralCodec().Unmarshal(b, m, t, *w)
	return err
}

// UnmarshalProtoField merges one value of the field of tag (b is what
// follows the tag) into m, as package proto parses it, and returns the
// bytes it consumed.
func UnmarshalProtoField(b []byte, tag uint64, m Msg, t *Type, w *Wire) (n int, err error) {
	n, *w, err = impl.ProtoGeneralCodec().UnmarshalField(b, tag, m, t, *w)
	return n, err
}

// CheckInitializedGeneral checks the required fields of m, as package
// proto checks them.
func CheckInitializedGeneral(m Msg, t *Type, w *Wire) (err error) {
	*w, err = impl.ProtoGeneralCodec().CheckInitialized(m, t, *w)
	return err
}

// RequiredError returns the error of required field name (a full name)
// not set.
func RequiredError(name string) error { return impl.RequiredError(name) }

// UTF8Error returns the error of proto3 string field name holding invalid
// UTF-8.
func UTF8Error(name string) error { return impl.UTF8Error(name) }

// ValidUTF8 reports whether s is valid UTF-8. An ASCII string of 8 to 16
// bytes (the common proto3 string field) is checked with two loads,
// inline; a shorter one with as few, out of line.
func ValidUTF8(s []byte) bool { return validUTF8(s, validUTF8Short) }

const hi8 = 0x8080808080808080

func validUTF8(s []byte, general func([]byte) bool) bool {
	if n := len(s); n >= 8 && n <= 16 && (le.Uint64(s)|le.Uint64(s[n-8:]))&hi8 == 0 {
		return true
	}
	return general(s)
}

// validUTF8Short is ValidUTF8's general path.
func validUTF8Short(s []byte) bool {
	switch n := len(s); {
	case n == 0:
		return true
	case n < 4:
		if s[0]|s[n>>1]|s[n-1] < 0x80 {
			return true
		}
	case n < 8:
		if (le.Uint32(s)|le.Uint32(s[n-4:]))&0x80808080 == 0 {
			return true
		}
	}
	return utf8.Valid(s)
}

// WireError returns the error of malformed input at field (a full name, or
// "" for a tag) of message msg; n is protowire's negative length.
func WireError(msg, field string, n int) error {
	if field == "" {
		field = "tag"
	}
	return fmt.Errorf("phaser: unmarshal %s: %s: %v: %w", msg, field, protowire.ParseError(n), phaserproto.ErrInvalid)
}

// InvalidUTF8 returns the error of a proto3 string field (a full name) of
// message msg that arrived with invalid UTF-8.
func InvalidUTF8(msg, field string) error {
	return fmt.Errorf("phaser: unmarshal %s: %s: string is not valid UTF-8: %w", msg, field, phaserproto.ErrInvalid)
}

// UnknownError returns the error err of keeping the unknown fields of
// message msg (a fixed buffer that filled up).
func UnknownError(msg string, err error) error {
	return fmt.Errorf("phaser: unmarshal %s: unknown fields: %w", msg, err)
}

// DepthError returns the error of a decoding nested too deep at message
// msg.
func DepthError(msg string) error {
	return fmt.Errorf("phaser: unmarshal %s: messages nested deeper than %d: %w", msg, impl.MaxWireDepth, phaserproto.ErrInvalid)
}

// FullError returns the error of a write into m, while message msg was
// decoded, that was not stored: what m's payload records (ErrFull,
// ErrArraySize, ...), ErrFull if it records nothing.
func FullError(m Msg, msg string) error {
	if err := m.Err(); err != nil {
		return fmt.Errorf("phaser: unmarshal %s: %w", msg, err)
	}
	return fmt.Errorf("phaser: unmarshal %s: %w", msg, impl.ErrFull)
}

// AppendExtensions appends the unknown fields of m (unknown, of type t)
// that are extensions, as protobuf-go writes extensions: before the known
// fields, by number. It reports whether it found any (AppendNonExtensions
// then writes the rest).
func AppendExtensions(b, unknown []byte, t *Type) ([]byte, bool) {
	return impl.AppendExtensions(b, unknown, t)
}

// AppendNonExtensions appends the unknown fields that are not extensions.
func AppendNonExtensions(b, unknown []byte, t *Type) []byte {
	return impl.AppendNonExtensions(b, unknown, t)
}

// SkipUnknown consumes the value of a field of tag (rec is the input from
// the tag on, b from the value on) that the decoding message does not
// declare, or declares with another wire type, keeping rec's record as an
// unknown field unless w discards them, and returns the value's length.
func SkipUnknown(rec, b []byte, tag uint64, w *Wire) (int, error) {
	n, err := consumeUnknown(b, tag)
	if err == nil && !w.DiscardUnknown {
		w.Keep(rec[:len(rec)-len(b)+n])
	}
	return n, err
}

// DropUnknown consumes the value of an unknown field of tag as SkipUnknown
// does, dropping it (a map entry's, which protobuf-go drops).
func DropUnknown(b []byte, tag uint64) (int, error) { return consumeUnknown(b, tag) }

func consumeUnknown(b []byte, tag uint64) (int, error) {
	if tag>>3 < uint64(protowire.MinValidNumber) || tag>>3 > uint64(protowire.MaxValidNumber) {
		return 0, fmt.Errorf("phaser: unmarshal: field number %d: %w", tag>>3, phaserproto.ErrInvalid)
	}
	num, typ := protowire.DecodeTag(tag)
	n := protowire.ConsumeFieldValue(num, typ, b)
	if n < 0 {
		return 0, fmt.Errorf("phaser: unmarshal: field %d: %v: %w", num, protowire.ParseError(n), phaserproto.ErrInvalid)
	}
	return n, nil
}

// Bytes of the payload.

// StringAt returns the string whose block starts at s (a StringHeader's
// value) in the payload mem, or nil if s is 0 or the string does not lie
// in mem.
func StringAt(mem []byte, s uint32) []byte {
	// In int arithmetic (s is at most 1<<32-1, no sum overflows), which
	// lets the compiler drop the bounds checks of the slices below.
	o := int(s)
	if o == 0 || o+4 > len(mem) {
		return nil
	}
	n := int(le.Uint32(mem[o : o+4]))
	if n > len(mem)-o-4 {
		return nil
	}
	return mem[o+4 : o+4+n : o+4+n]
}

// Elems returns the elements, size bytes each, of the repeated field whose
// VectorHeader is h (its count and data offset, as the message holds them),
// or nil if there are none or they do not lie in mem.
func Elems(mem, h []byte, size uint64) []byte {
	if len(h) < 8 {
		return nil
	}
	num, data := le.Uint32(h), le.Uint32(h[4:])
	end := uint64(data) + uint64(num)*size
	if num == 0 || data == 0 || end > uint64(len(mem)) {
		return nil
	}
	return mem[data:end:end]
}

// AppendBytes appends s, as append(b, s...) does: a string of 8 to 16
// bytes (the common proto3 string field) that fits b's capacity with two
// overlapping word stores, in line, not a call of memmove; anything else
// through append. It writes nothing past the bytes it appends.
func AppendBytes(b, s []byte) []byte {
	if l, n := len(b), len(s); n >= 8 && n <= 16 && cap(b)-l >= n {
		d := b[l : l+n]
		le.PutUint64(d, le.Uint64(s))
		le.PutUint64(d[n-8:], le.Uint64(s[n-8:]))
		return b[:l+n]
	}
	return append(b, s...)
}

// Varints and lengths.

// AppendVarint appends v as a varint.
func AppendVarint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return appendVarintLong(b, v)
}

// appendVarintLong is AppendVarint's general path, for a varint of 2 to 10
// bytes, in line: four 7-bit groups at a time, in one 4-byte append, while
// more than four are left (a 5-byte varint, a uint32's or a timestamp's
// seconds, takes one and a byte; a 9-byte one, an int64 timestamp in
// nanoseconds, two and a byte), then a byte a turn. The byte loop alone
// took about twice the instructions for those; stores of whole words into
// room checked once, or a switch on the length, do not inline and cost
// more in the call's spills than they save.
func appendVarintLong(b []byte, v uint64) []byte {
	for v >= 1<<28 {
		b = le.AppendUint32(b, spread7x4(uint32(v))|0x80808080)
		v >>= 28
	}
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// spread7x4 returns the low 28 bits of v as four 7-bit groups, one in each
// byte, the first group in the low byte: four bytes of a varint without
// their continuation bits.
func spread7x4(v uint32) uint32 {
	x := v&0x3fff | v<<2&0x3fff0000
	return x&0x007f007f | x<<1&0x7f007f00
}

// SizeVarint returns the length of v as a varint.
func SizeVarint(v uint64) int { return protowire.SizeVarint(v) }

// SizeBytes returns the length of a length-delimited value of n bytes, its
// length included.
func SizeBytes(n int) int { return protowire.SizeBytes(n) }

// PatchLength writes the length of b[at+1:] at b[at], where the encoder
// reserved one byte before a nested message, and moves the message up when
// its length takes more than one byte: a nested message is written once,
// without a pass to size it first.
func PatchLength(b []byte, at int) []byte { return patchLength(b, at, phaserproto.PatchLength) }

// The helpers below take their general path as a parameter, the engine's
// accessors' way to stay within the inliner's budget (see impl.Msg.Get8):
// the exported function passes a constant, which inlining turns into a
// direct call, out of line.

func patchLength(b []byte, at int, general func([]byte, int) []byte) []byte {
	if size := len(b) - at - 1; size < 0x80 {
		b[at] = byte(size)
		return b
	}
	return general(b, at)
}

// ConsumeVarint parses a varint; the length is negative on error, as
// protowire reports it.
func ConsumeVarint(b []byte) (uint64, int) { return consumeVarint(b, protowire.ConsumeVarint) }

func consumeVarint(b []byte, general func([]byte) (uint64, int)) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return general(b)
}

// ConsumeBytes parses a length-delimited value.
func ConsumeBytes(b []byte) ([]byte, int) { return consumeBytes(b, protowire.ConsumeBytes) }

func consumeBytes(b []byte, general func([]byte) ([]byte, int)) ([]byte, int) {
	if len(b) > 0 && b[0] < 0x80 && int(b[0]) < len(b) {
		return b[1 : b[0]+1], int(b[0]) + 1
	}
	return general(b)
}

// ConsumeTag parses a tag as a varint (its number and wire type): the
// generated decoders switch on it whole.
func ConsumeTag(b []byte) (uint64, int) { return consumeVarint(b, protowire.ConsumeVarint) }

// The generated decoders walk their input by index (a reslice costs a
// bounds check and a pointer mask, an index one add): the At forms take
// the input and the index of the value, and return the index after it, or
// protowire's negative length on error. i is at most len(b).

// ConsumeTagAt parses the tag at b[i:] (ConsumeTag).
func ConsumeTagAt(b []byte, i int) (uint64, int) { return consumeVarintAt(b, i, consumeVarintAtLong) }

// ConsumeVarintAt parses the varint at b[i:] (ConsumeVarint).
func ConsumeVarintAt(b []byte, i int) (uint64, int) {
	return consumeVarintAt(b, i, consumeVarintAtLong)
}

func consumeVarintAt(b []byte, i int, general func([]byte, int) (uint64, int)) (uint64, int) {
	if uint(i) < uint(len(b)) && b[i] < 0x80 {
		return uint64(b[i]), i + 1
	}
	return general(b, i)
}

// consumeVarintAtLong is ConsumeVarintAt's general path. A varint of up
// to 8 bytes is decoded from one load, without a branch per byte: the first
// byte whose high bit is clear ends it, and three shift-and-mask steps pack
// its 7-bit groups (a 5-byte varint, a random uint32, in about half of
// protowire.ConsumeVarint's instructions). Near the end of the input, the
// load is of the last 8 bytes, shifted down to b[i] (never a byte past
// len(b)). Varints of 9 and 10 bytes take two more loads; what is left (an
// input shorter than 8 bytes, a long varint at its end) goes a byte a turn.
func consumeVarintAtLong(b []byte, i int) (uint64, int) {
	// One function without calls: no stack frame to set up.
	if uint(i)+10 <= uint(len(b)) {
		// The common case, 10 bytes or more left (any varint fits): the
		// same steps, without those for the input's end.
		x := le.Uint64(b[i : i+8])
		ends := ^x & hi8
		x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
		x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
		x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
		if ends != 0 {
			n := (bits.TrailingZeros64(ends) + 1) >> 3
			return x & (1<<(7*uint(n)&63) - 1), i + n
		}
		r := b[i+8 : i+10]
		x |= uint64(r[0]&0x7f) << 56
		if r[0] < 0x80 {
			return x, i + 9
		}
		if r[1] > 1 {
			return 0, errCodeOverflow
		}
		return x | uint64(r[1])<<63, i + 10
	}
	if avail := len(b) - i; avail > 0 && len(b) >= 8 {
		var x uint64
		if avail >= 8 {
			x = le.Uint64(b[i:])
		} else {
			x = le.Uint64(b[len(b)-8:]) >> (64 - 8*uint(avail))
		}
		ends := ^x & hi8 // the high bits of the bytes that can end it
		if avail < 8 {
			ends &= 1<<(8*uint(avail)&63) - 1
		}
		n := (bits.TrailingZeros64(ends) + 1) >> 3 // its length, 8 if no byte ends it
		x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
		x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
		x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
		switch {
		case ends != 0:
			return x & (1<<(7*uint(n)&63) - 1), i + n // 7n is at most 56
		case avail < 8:
			return 0, errCodeTruncated
		case avail >= 10: // a varint of 9 or 10 bytes (an int64 of 57 bits and more)
			c := b[i+8]
			x |= uint64(c&0x7f) << 56
			if c < 0x80 {
				return x, i + 9
			}
			if c = b[i+9]; c > 1 {
				return 0, errCodeOverflow
			}
			return x | uint64(c)<<63, i + 10
		}
	}
	// A byte a turn, with protowire.ConsumeVarint's errors: truncated
	// input, or a tenth byte above 1 (overflow).
	var v uint64
	for shift := uint(0); shift < 63; shift += 7 {
		if uint(i) >= uint(len(b)) {
			return 0, errCodeTruncated
		}
		c := b[i]
		i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i
		}
	}
	if uint(i) >= uint(len(b)) {
		return 0, errCodeTruncated
	}
	if c := b[i]; c <= 1 {
		return v | uint64(c)<<63, i + 1
	}
	return 0, errCodeOverflow
}

// protowire's negative lengths (protowire.ParseError reads them).
const (
	errCodeTruncated = -1
	errCodeOverflow  = -3
)

// ConsumeBytesAt parses the length-delimited value at b[i:]
// (ConsumeBytes) and returns the indexes of its first byte and of the byte
// after it: the value is b[start:end]. (Two indexes, not a slice, keep it
// within the inliner's budget.)
func ConsumeBytesAt(b []byte, i int) (start, end int) {
	return consumeBytesAt(b, i, consumeBytesAtLong)
}

func consumeBytesAt(b []byte, i int, general func([]byte, int) (int, int)) (int, int) {
	if i < len(b) {
		if j := i + 1 + int(b[i]); b[i] < 0x80 && j <= len(b) {
			return i + 1, j
		}
	}
	return general(b, i)
}

// consumeBytesAtLong is ConsumeBytesAt's general path.
func consumeBytesAtLong(b []byte, i int) (int, int) {
	v, n := protowire.ConsumeBytes(b[i:])
	if n < 0 {
		return 0, n
	}
	return i + n - len(v), i + n
}

// Zigzag32 returns the zigzag encoding of the int32 stored as v.
func Zigzag32(v uint32) uint64 { return uint64(uint32(v<<1) ^ uint32(int32(v)>>31)) }

// Unzigzag32 returns the int32, as stored, of zigzag varint v (its low 32
// bits, as protobuf-go reads a sint32).
func Unzigzag32(v uint64) uint32 { x := uint32(v); return x>>1 ^ -(x & 1) }

// Zigzag64 returns the zigzag encoding of the int64 stored as v.
func Zigzag64(v uint64) uint64 { return v<<1 ^ uint64(int64(v)>>63) }

// Unzigzag64 returns the int64, as stored, of zigzag varint v.
func Unzigzag64(v uint64) uint64 { return v>>1 ^ -(v & 1) }

// Repeated scalars.

// VarintKind is how the elements of a repeated varint field are stored
// and written.
type VarintKind uint8

// The varint kinds.
const (
	VarintInt32  VarintKind = iota // int32, enum: 4 bytes, sign-extended on the wire
	VarintUint32                   // uint32: 4 bytes
	VarintSint32                   // sint32: 4 bytes, zigzag
	VarintInt64                    // int64, uint64: 8 bytes
	VarintSint64                   // sint64: 8 bytes, zigzag
	VarintBool                     // bool: 1 byte, 0 or 1 on the wire
)

// size returns the stored size of an element.
func (k VarintKind) size() int {
	switch k {
	case VarintInt64, VarintSint64:
		return 8
	case VarintBool:
		return 1
	}
	return 4
}

// wire returns the varint of stored element e.
func (k VarintKind) wire(e []byte) uint64 {
	switch k {
	case VarintInt32:
		return uint64(int64(int32(le.Uint32(e))))
	case VarintUint32:
		return uint64(le.Uint32(e))
	case VarintSint32:
		return Zigzag32(le.Uint32(e))
	case VarintInt64:
		return le.Uint64(e)
	case VarintSint64:
		return Zigzag64(le.Uint64(e))
	}
	if e[0] != 0 {
		return 1
	}
	return 0
}

// store stores varint v as an element at e.
func (k VarintKind) store(e []byte, v uint64) {
	switch k {
	case VarintInt32, VarintUint32:
		le.PutUint32(e, uint32(v))
	case VarintSint32:
		le.PutUint32(e, Unzigzag32(v))
	case VarintInt64:
		le.PutUint64(e, v)
	case VarintSint64:
		le.PutUint64(e, Unzigzag64(v))
	default:
		e[0] = impl.BoolByte(v != 0)
	}
}

// AppendPackedVarint appends elems (stored elements of kind k) as one
// packed record with tag.
func AppendPackedVarint(b []byte, tag string, elems []byte, k VarintKind) []byte {
	b = append(b, tag...)
	at := len(b)
	b = append(b, 0)
	size := k.size()
	for i := 0; i+size <= len(elems); i += size {
		b = AppendVarint(b, k.wire(elems[i:]))
	}
	return PatchLength(b, at)
}

// SizePackedVarint returns the length of AppendPackedVarint's record for a
// tag of tagLen bytes.
func SizePackedVarint(tagLen int, elems []byte, k VarintKind) int {
	n, size := 0, k.size()
	for i := 0; i+size <= len(elems); i += size {
		n += protowire.SizeVarint(k.wire(elems[i:]))
	}
	return tagLen + protowire.SizeBytes(n)
}

// AppendUnpackedVarint appends elems (stored elements of kind k) as one
// record each with tag.
func AppendUnpackedVarint(b []byte, tag string, elems []byte, k VarintKind) []byte {
	size := k.size()
	for i := 0; i+size <= len(elems); i += size {
		b = AppendVarint(append(b, tag...), k.wire(elems[i:]))
	}
	return b
}

// SizeUnpackedVarint returns the length of AppendUnpackedVarint's records.
func SizeUnpackedVarint(tagLen int, elems []byte, k VarintKind) int {
	n, size := 0, k.size()
	for i := 0; i+size <= len(elems); i += size {
		n += tagLen + protowire.SizeVarint(k.wire(elems[i:]))
	}
	return n
}

// AppendUnpackedFixed appends elems (size bytes each, stored as the wire
// writes them) as one record each with tag.
func AppendUnpackedFixed(b []byte, tag string, elems []byte, size int) []byte {
	for i := 0; i+size <= len(elems); i += size {
		b = append(append(b, tag...), elems[i:i+size]...)
	}
	return b
}

// UnmarshalPackedFixed appends the elements of packed record v (size bytes
// each, as stored) to repeated field f of m. It reports false for a record
// that is not a whole number of elements; a full buffer is m.Failed.
func UnmarshalPackedFixed(m Msg, f Field, v []byte, size int) bool {
	if len(v)%size != 0 {
		return false
	}
	if len(v) > 0 {
		m.AppendCopy(f, v, size) // a refusal is the payload's error
	}
	return true
}

// UnmarshalPackedVarint appends the elements of packed record v (varints
// of kind k) to repeated field f of m. It reports false for a malformed
// record, having added nothing; a full buffer is m.Failed.
func UnmarshalPackedVarint(m Msg, f Field, v []byte, k VarintKind) bool {
	count := 0
	for rest := v; len(rest) > 0; count++ {
		_, n := ConsumeVarint(rest)
		if n < 0 {
			return false
		}
		rest = rest[n:]
	}
	size := k.size()
	if count == 0 || m.AppendElems(f, count, size) == 0 {
		return true
	}
	elems := m.MutableSpan(f, size)
	if len(elems) < count*size {
		return true
	}
	elems = elems[len(elems)-count*size:]
	// Parsed again, each element checked again: the input can change
	// between the passes (shared memory).
	for i := 0; i < count && len(v) > 0; i++ {
		x, n := ConsumeVarint(v)
		if n < 0 {
			return false
		}
		k.store(elems[i*size:], x)
		v = v[n:]
	}
	return true
}

// PushVarint appends varint v, of kind k, to repeated field f of m (one
// element of an unpacked record).
func PushVarint(m Msg, f Field, v uint64, k VarintKind) {
	switch k {
	case VarintInt32, VarintUint32:
		m.Push32(f, uint32(v))
	case VarintSint32:
		m.Push32(f, Unzigzag32(v))
	case VarintInt64:
		m.Push64(f, v)
	case VarintSint64:
		m.Push64(f, Unzigzag64(v))
	default:
		m.Push8(f, impl.BoolByte(v != 0))
	}
}

// Repeated strings.

// AppendStrings appends the elements of a repeated string or bytes field
// (hdrs: the offsets of their StringHeaders in mem) as one record each
// with tag, charging each against w; utf8 checks a proto3 string field's
// (name is its full name).
func AppendStrings(b []byte, tag string, mem, hdrs []byte, w *Wire, checkUTF8 bool, name string) ([]byte, error) {
	for i := 0; i+4 <= len(hdrs); i += 4 {
		s := stringAtHeader(mem, le.Uint32(hdrs[i:]))
		if !w.Charge(len(s)) {
			return b, w.Err(name)
		}
		if checkUTF8 && !utf8.Valid(s) {
			return b, impl.UTF8Error(name)
		}
		b = AppendVarint(append(b, tag...), uint64(len(s)))
		b = append(b, s...)
	}
	return b, nil
}

// SizeStrings returns the length of AppendStrings's records for a tag of
// tagLen bytes.
func SizeStrings(tagLen int, mem, hdrs []byte, w *Wire, name string) (int, error) {
	n := 0
	for i := 0; i+4 <= len(hdrs); i += 4 {
		s := stringAtHeader(mem, le.Uint32(hdrs[i:]))
		if !w.Charge(len(s)) {
			return 0, w.Err(name)
		}
		n += tagLen + protowire.SizeBytes(len(s))
	}
	return n, nil
}

// stringAtHeader returns the string whose StringHeader is at h.
func stringAtHeader(mem []byte, h uint32) []byte {
	if h == 0 || uint64(h)+4 > uint64(len(mem)) {
		return nil
	}
	return StringAt(mem, le.Uint32(mem[h:]))
}

// LaidOutAs reports whether the compiled layout of t is the one kinds and
// fields describe: extent n, exactly the fields fields (each as the
// generated Field literal has it: number, offset, presence bit),
// singular, outside oneofs, not required, of the kinds kinds gives (one
// byte a field: its protoreflect.Kind, |0x80 for explicit presence), and
// no extension ranges. Generated code of one package evaluates it once,
// at init, for a flat message type of another package whose fields it
// writes in line: if that package was generated from another version of
// the .proto, the layouts differ and the encoder calls the type's own
// instead.
func LaidOutAs(t *Type, n uint32, kinds string, fields ...Field) bool {
	if t == nil || t.Extent() != n || len(t.Fields()) != len(fields) || len(kinds) != len(fields) ||
		t.Descriptor() == nil || t.Descriptor().ExtensionRanges().Len() > 0 {
		return false
	}
	for i, f := range fields {
		fi := t.FieldByNumber(f.Number)
		if fi == nil || fi.Offset != f.Offset || fi.Byte() != f.Byte() || fi.Mask() != f.Mask() || fi.Inline() || fi.Fixed != 0 || fi.Repeated || fi.Union != nil || fi.Desc == nil ||
			fi.Desc.Cardinality() == protoreflect.Required {
			return false
		}
		k := byte(fi.Desc.Kind())
		if fi.Desc.HasPresence() {
			k |= 0x80
		}
		if k != kinds[i] {
			return false
		}
	}
	return true
}
