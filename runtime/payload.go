package runtime

import (
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// Errors reported by messages.
var (
	// ErrReadOnly reports a write through a message read from received bytes.
	ErrReadOnly = impl.ErrReadOnly
	// ErrFull reports that a fixed buffer had no room for a write.
	ErrFull = impl.ErrFull
	// ErrTooSmall reports memory too small for the buffer header.
	ErrTooSmall = impl.ErrTooSmall
	// ErrNoFit reports memory that holds the header but not the message.
	ErrNoFit = impl.ErrNoFit
	// ErrNotPayload reports bytes that are not a Phaser payload.
	ErrNotPayload = impl.ErrNotPayload
	// ErrCorrupt reports a payload continued with Open whose bytes a write
	// found inconsistent (an offset, count or header it cannot follow): the
	// write is refused and the payload fails, as a full one does.
	ErrCorrupt = impl.ErrCorrupt
	// ErrWrongType reports a payload whose root message is of another type
	// than the one asked for (its control block names the root's type:
	// docs/format.md, "The root's type").
	ErrWrongType = impl.ErrWrongType
	// ErrArraySize reports a write of more elements than a fixed array
	// (phaser.array_size = N) holds. The write is not stored.
	ErrArraySize = impl.ErrArraySize
	// ErrNoMessage reports a write through a handle on no message: the
	// zero handle, the handle a failed NewXIn returns, or the handle a
	// getter gives for an absent nested message (MutableX creates it). The
	// write is not stored.
	ErrNoMessage = impl.ErrNoMessage
	// ErrNoField reports a write the message's own layout has no room for:
	// a payload of an older version of the .proto, continued with Open,
	// lacks a field added since, or stores a field narrower than the value
	// needs. The write is not stored; the error is a *FieldError.
	ErrNoField = impl.ErrNoField
	// ErrNotStored is wrapped by the error a payload records when a write
	// through protobuf reflection (ProtoReflect) gave it what the Phaser
	// layout has no place for: an Any value of a type the runtime does not
	// know (unknown fields and extensions are kept). The value is dropped; Err and
	// proto.CheckInitialized (which protojson, prototext and proto call
	// when they decode) report it.
	ErrNotStored = impl.ErrNotStored
)

// FieldError is the error of a write the message's own layout has no room
// for (errors.Is(err, ErrNoField)): see ErrNoField.
type FieldError = impl.FieldError

// Options choose the payload format and allocator tuning of a new message.
type Options struct {
	// Version is the payload format: payloadbuffer.V3 (Phaser 3, the
	// default for the zero value) or payloadbuffer.V2 (C++ Phaser 2.x, for
	// peers that run C++ Phaser 2).
	Version payloadbuffer.Version
	// Tuning is payloadbuffer.Performance (the C++ default, the zero value)
	// or payloadbuffer.Size.
	Tuning payloadbuffer.Tuning
	// InitialSize is the initial size of an owned buffer
	// (DefaultInitialSize if 0).
	InitialSize int
	// Scrub selects whether the payload zeroes what the program deletes
	// (a freed or replaced string, a cleared field or list, an erased
	// element) and never carries bytes it did not write (in caller memory,
	// bytes the writes do not reach are zeroed first): payloadbuffer.
	// ScrubDefault scrubs format 3 and not format 2, whose bytes are C++
	// Phaser 2.1's (stale ones included); ScrubOn and ScrubOff choose.
	Scrub payloadbuffer.Scrub
}

// DefaultInitialSize is the initial size of an owned buffer, as in C++.
const DefaultInitialSize = impl.DefaultInitialSize

// Payload is the buffer a tree of message handles shares: a writable
// payloadbuffer.Buffer, or read-only received bytes. A reader of many
// payloads keeps one Payload and reads each with ReadInto (or a generated
// ReadXInto), which allocates nothing.
type Payload impl.Payload

// Bytes returns the payload bytes a sender transmits.
func (p *Payload) Bytes() []byte { return (*impl.Payload)(p).Bytes() }

// Failed reports whether a write was not stored: it did not fit in a fixed
// buffer, it had no message or field to go to, or it found the bytes of a
// payload continued with Open inconsistent (Err says which).
func (p *Payload) Failed() bool { return (*impl.Payload)(p).Failed() }

// Err returns the first error a write reported: ErrFull, ErrCorrupt,
// ErrReadOnly, ErrNoMessage or a *FieldError (ErrNoField).
func (p *Payload) Err() error { return (*impl.Payload)(p).Err() }

// Buffer returns the payload buffer of a writable payload (nil if
// read-only).
func (p *Payload) Buffer() *payloadbuffer.Buffer { return (*impl.Payload)(p).Buffer() }

// Release drops p's reference to its bytes, for a p kept for reuse with
// ReadInto. Handles on p become invalid.
func (p *Payload) Release() { (*impl.Payload)(p).Release() }

func options(opts []Options) []impl.Options {
	if len(opts) == 0 {
		return nil
	}
	return []impl.Options{impl.Options(opts[0])}
}

// New creates a message of type t in an owned, growable buffer of
// opts.InitialSize bytes (DefaultInitialSize if 0; twice the message size if
// that is larger, as C++ does).
func New(t *Type, opts ...Options) Msg {
	return Msg(impl.DynamicOf(impl.New(t.impl(), options(opts)...), t.impl()))
}

// NewIn creates a message of type t in caller memory (e.g. shared memory),
// which is never grown. It fails with ErrTooSmall if mem cannot hold the
// buffer header and with ErrNoFit if the message does not fit.
func NewIn(t *Type, mem []byte, opts ...Options) (Msg, error) {
	return t.handle(impl.NewIn(t.impl(), mem, options(opts)...))
}

// Read binds a read-only message of type t to received payload bytes. Every
// access is bounded by len(data); the header's sizes are never trusted.
// Read fails only when data is not a Phaser payload (too short, bad magic,
// root offset outside data); fields that are out of range read as absent.
func Read(t *Type, data []byte) (Msg, error) {
	return t.handle(impl.Read(t.impl(), data))
}

// ReadInto is Read reusing p, whose earlier handles become invalid: a
// reader of many payloads (a bridge, a logger) allocates nothing per
// payload.
func ReadInto(p *Payload, t *Type, data []byte) (Msg, error) {
	return t.handle(impl.ReadInto((*impl.Payload)(p), t.impl(), data))
}

// Open continues writing a payload held in mem (created here or by C++
// Phaser): see payloadbuffer.Open. The root message must be of type t.
func Open(t *Type, mem []byte) (Msg, error) {
	return t.handle(impl.Open(t.impl(), mem))
}

// handle returns the handle m of type t, or the zero Msg and err.
func (t *Type) handle(m impl.Msg, err error) (Msg, error) {
	if err != nil {
		return Msg{}, err
	}
	return Msg(impl.DynamicOf(m, t.impl())), nil
}
