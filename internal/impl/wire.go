package impl

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
)

// The state the protobuf codecs share: the generated ones (through
// runtime/phaserimpl) and package proto's plan interpreter, which the
// generated ones fall back on for a message that is not laid out with its
// compiled table, and which falls back on nothing.

// MaxWireDepth bounds the nesting of messages the protobuf codecs walk, as
// protobuf-go bounds recursion: the root is level 0, and a message nested
// deeper than MaxWireDepth levels is an error.
const MaxWireDepth = maxDepth

// Errors of the protobuf codecs.
var (
	// ErrRequired is wrapped by the error of a proto2 required field that
	// is not set, which Marshal and Unmarshal report as protobuf-go does
	// ("required field phasertest.Legacy.id not set").
	ErrRequired = errors.New("required field not set")
	// ErrBudget is wrapped by the error of a walk over a payload that
	// refers to more data than it holds: shared or cyclic offsets, possible
	// only in a payload nobody wrote through this runtime or C++ Phaser.
	ErrBudget = errors.New("payload refers to more data than it holds (shared or cyclic offsets)")
	// ErrInvalidUTF8 is wrapped by the error of a proto3 string field that
	// holds invalid UTF-8, which protobuf refuses on both sides of the
	// wire.
	ErrInvalidUTF8 = errors.New("string field contains invalid UTF-8")
)

// Wire is the state of one protobuf encoding or decoding of a message tree:
// the work budget and nesting depth of an encoder, where the payload keeps
// unknown fields, and the options. A codec makes one on its stack (Encoder,
// Decoder) and passes it down to the codecs of the nested messages, the
// generated ones and the interpreter alike.
//
// The budget makes every encoder's work and output proportional to the
// payload, whatever its offsets say: each message visited is charged the
// bytes it takes itself (Type.Charge: not counting the messages stored
// inside it, which are charged when visited), each string its
// length, each repeated field its elements' bytes, each unknown-field
// record its length. A payload holds each of them once, so a walk that
// charges more than the payload's length (plus 4096) has met offsets that
// are shared (a DAG, which doubles the output per level) or cyclic, and
// fails with ErrBudget rather than write what the payload cannot justify.
// The output is bounded by a constant times the payload: at most 6 bytes
// per byte charged (a 1-byte bool behind a 5-byte tag).
type Wire struct {
	budget int
	depth  int
	// unknown is the offset of the payload's unknown-field index (0 if it
	// has none): see unknown.go.
	unknown uint32
	// AllowPartial skips the checks of proto2 required fields.
	AllowPartial bool
	// DiscardUnknown makes a decoder drop the unknown fields it meets
	// instead of keeping them in the payload.
	DiscardUnknown bool
	// scratch collects a decoder's unknown fields, innermost message last.
	scratch *[]byte
	// reused marks a decoding that reuses the blocks of the message it
	// replaces (reuse.go); again, one that filled the buffer doing so.
	reused, again bool
}

// wireSlack is what a walk may charge beyond the payload's length: the
// same slack as ToProto's walk.
const wireSlack = 4096

// Encoder returns the state of an encoding of m and its nested messages,
// or an error if m's payload is one that is not encoded (a fixed buffer
// that filled up).
func Encoder(m Msg) (Wire, error) {
	var w Wire
	err := w.Encode(m)
	return w, err
}

// Encode makes w the state of an encoding of m (Encoder), in place.
// The general path is a direct call, not a function value: w must not
// escape where Encode is not inlined (builds with -race).
func (w *Wire) Encode(m Msg) error {
	if w.EncodeReady(m) {
		return nil
	}
	return w.encodeGeneral(m)
}

// EncodeReady is Encode's common case, inline where Encode (with its call)
// is too big to be: for a read-only payload whose unknown-field index was
// looked up already, it makes w the state of an encoding of m and reports
// true; otherwise it reports false, and the caller calls Encode.
func (w *Wire) EncodeReady(m Msg) bool {
	if p := m.p; p != nil && p.buf == nil {
		if u := atomic.LoadUint64(&p.unk); u != 0 {
			w.budget, w.unknown = len(p.mem)+wireSlack, uint32(u)
			return true
		}
	}
	return false
}

// encodeGeneral is Encode's general path.
func (w *Wire) encodeGeneral(m Msg) error {
	if m.p == nil {
		*w = Wire{budget: wireSlack}
		return nil
	}
	if m.p.Failed() {
		return ErrFailedPayload
	}
	*w = Wire{budget: len(m.p.mem) + wireSlack, unknown: m.p.unknownIndex()}
	return nil
}

// Decoder returns the state of a decoding into m.
func Decoder(m Msg) Wire {
	var w Wire
	if m.p != nil {
		w.unknown = m.p.unknownIndex()
	}
	return w
}

// ErrFailedPayload reports a payload whose fixed buffer filled up: its
// content is incomplete and is not serialized.
var ErrFailedPayload = errors.New("phaser: payload buffer failed; not serialized")

// Enter charges a message of n bytes (Msg.Charge) and goes down one
// level; it reports false when the budget is spent or the nesting is too
// deep (Err says which). Every Enter is paired with a Leave, also after a
// false.
func (w *Wire) Enter(n uint32) bool {
	w.budget -= int(n)
	w.depth++
	return w.budget >= 0 && w.depth <= MaxWireDepth+1
}

// Leave goes up one level.
func (w *Wire) Leave() { w.depth-- }

// Charge charges n bytes of strings or elements; it reports false when
// the budget is spent.
func (w *Wire) Charge(n int) bool {
	w.budget -= n
	return w.budget >= 0
}

// EnterDecode goes down one level of a decoding; it reports false when the
// nesting is too deep. Every EnterDecode is paired with a Leave.
func (w *Wire) EnterDecode() bool {
	w.depth++
	return w.depth <= MaxWireDepth+1
}

// Err returns the error of an Enter, Charge or EnterDecode that reported
// false, in what (the full name of a message type or field).
func (w *Wire) Err(what string) error {
	if w.depth > MaxWireDepth+1 {
		return fmt.Errorf("phaser: %s: messages nested deeper than %d", what, MaxWireDepth)
	}
	return fmt.Errorf("phaser: %s: %w", what, ErrBudget)
}

// Unknown returns the unknown fields m keeps (nil if none).
func (w *Wire) Unknown(m Msg) []byte { return m.unknownIn(w) }

// HasUnknown reports whether the payload keeps unknown fields, so that an
// encoder must look for those of each message.
func (w *Wire) HasUnknown() bool { return w.unknown != 0 }

// RequiredError returns the error of proto2 required field name (a full
// name) not set.
func RequiredError(name string) error {
	return fmt.Errorf("phaser: required field %s not set: %w", name, ErrRequired)
}

// UTF8Error returns the error of proto3 string field name (a full name)
// holding invalid UTF-8.
func UTF8Error(name string) error {
	return fmt.Errorf("phaser: %s: %w", name, ErrInvalidUTF8)
}

// The general protobuf codec: package proto's plan interpreter, which
// registers itself when it initializes (SetProtoGeneral). The generated
// codecs take it, out of line, for a message that is not laid out with its
// compiled table and for the fields they do not handle themselves (maps
// and Any).
var protoGeneral atomic.Pointer[ProtoGeneral]

// ProtoGeneral is the general protobuf codec, for generated codecs. Each
// function takes the state of the walk by value and returns it: the
// compiler cannot see into a call through a function value, and a pointer
// passed to one would move the state of every generated encoding to the
// heap.
type ProtoGeneral struct {
	// Append appends the encoding of m, of type t.
	Append func(b []byte, m Msg, t *Type, w Wire) ([]byte, Wire, error)
	// Size returns the length of the encoding of m.
	Size func(m Msg, t *Type, w Wire) (int, Wire, error)
	// AppendField appends field num of m.
	AppendField func(b []byte, m Msg, t *Type, num uint32, w Wire) ([]byte, Wire, error)
	// SizeField returns the length of field num of m.
	SizeField func(m Msg, t *Type, num uint32, w Wire) (int, Wire, error)
	// Unmarshal merges the encoding b into m.
	Unmarshal func(b []byte, m Msg, t *Type, w Wire) (Wire, error)
	// UnmarshalField merges one value of field num (tag is its tag, its
	// number and wire type; b is what follows it) into m and returns the
	// bytes it consumed.
	UnmarshalField func(b []byte, tag uint64, m Msg, t *Type, w Wire) (int, Wire, error)
	// CheckInitialized returns the error of the first required field not
	// set in m or the messages it holds.
	CheckInitialized func(m Msg, t *Type, w Wire) (Wire, error)
}

// SetProtoGeneral registers the general protobuf codec (package proto).
func SetProtoGeneral(g *ProtoGeneral) { protoGeneral.Store(g) }

// ProtoGeneralCodec returns the general protobuf codec.
func ProtoGeneralCodec() *ProtoGeneral {
	g := protoGeneral.Load()
	if g == nil {
		panic("phaser: package proto is not linked (the generated codecs import it through runtime/phaserimpl)")
	}
	return g
}

// A decoder's unknown fields: each message being decoded collects its own
// in the decoder's scratch space, after those of the messages it is
// nested in (Mark, Keep), and stores them in the payload when it ends
// (KeepUnknown). The space comes from a pool the first time a decoding
// meets an unknown field, and goes back to it at the end (Release).

var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// Mark returns where the unknown fields of a message whose decoding starts
// now begin in the scratch space.
func (w *Wire) Mark() int {
	if w.scratch == nil {
		return 0
	}
	return len(*w.scratch)
}

// Keep adds the record rec (a field's tag and value, as received) to the
// unknown fields of the message being decoded.
func (w *Wire) Keep(rec []byte) {
	if w.scratch == nil {
		w.scratch = scratchPool.Get().(*[]byte)
		*w.scratch = (*w.scratch)[:0]
	}
	// protobuf-go writes a kept record's tag again (an overlong tag
	// comes out in its shortest form): so does Keep.
	tag, n := protowire.ConsumeVarint(rec)
	if n > 0 && n != protowire.SizeVarint(tag) {
		*w.scratch = protowire.AppendVarint(*w.scratch, tag)
		rec = rec[n:]
	}
	*w.scratch = append(*w.scratch, rec...)
}

// KeepFirst inserts rec before the unknown fields kept since mark.
func (w *Wire) KeepFirst(mark int, rec []byte) {
	w.Keep(rec)
	// Rotate the record, kept last, to mark: reverse both parts, then the whole.
	s := *w.scratch
	n := len(s) - keptLen(rec)
	slices.Reverse(s[mark:n])
	slices.Reverse(s[n:])
	slices.Reverse(s[mark:])
}

// keptLen is the length of rec as Keep writes it.
func keptLen(rec []byte) int {
	tag, n := protowire.ConsumeVarint(rec)
	if n > 0 {
		return len(rec) - n + protowire.SizeVarint(tag)
	}
	return len(rec)
}

// Kept reports whether unknown fields were kept since mark.
func (w *Wire) Kept(mark int) bool { return w.scratch != nil && len(*w.scratch) > mark }

// Truncate forgets the unknown fields kept since mark.
func (w *Wire) Truncate(mark int) {
	if w.scratch != nil {
		*w.scratch = (*w.scratch)[:mark]
	}
}

// KeepUnknown stores the unknown fields kept since mark as m's (after
// those m keeps already: a message that arrives in parts) and forgets
// them.
func (w *Wire) KeepUnknown(m Msg, mark int) error {
	rec := (*w.scratch)[mark:]
	ok := m.AddUnknownFields(rec)
	w.unknown = m.p.unknownIndex()
	*w.scratch = (*w.scratch)[:mark]
	if !ok {
		if err := m.Err(); err != nil {
			return err
		}
		return ErrFull
	}
	return nil
}

// KeepUnknownOf is KeepUnknown for a message m of type t that declares
// extension ranges: the declared extensions among m's unknown fields are
// then held as protobuf-go holds them after Unmarshal (canonicalExtensions:
// a singular extension that arrived twice keeps its last value), so that
// marshal and size write what protobuf-go writes.
func (w *Wire) KeepUnknownOf(m Msg, mark int, t *Type) error {
	if err := w.KeepUnknown(m, mark); err != nil {
		return err
	}
	if c, ok := canonicalExtensions(m.UnknownFields(), t); ok && !bytes.Equal(c, m.UnknownFields()) && !m.SetUnknownFields(c) {
		if err := m.Err(); err != nil {
			return err
		}
		return ErrFull
	}
	return nil
}

// Release gives the scratch space back.
func (w *Wire) Release() {
	if w.scratch != nil {
		if cap(*w.scratch) <= 64<<10 {
			scratchPool.Put(w.scratch)
		}
		w.scratch = nil
	}
}

// Walker returns the state of a walk over m that charges what it visits,
// as an encoder does, but writes nothing (a check of required fields).
func Walker(m Msg) Wire {
	if m.p == nil {
		return Wire{budget: wireSlack}
	}
	return Wire{budget: len(m.p.mem) + wireSlack}
}
