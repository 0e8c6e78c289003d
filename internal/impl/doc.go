// Package impl is the engine of phaser-go's message layer: handles that
// read and write the fields of Phaser messages in place, in a payload built
// on package payloadbuffer, byte-compatible with the C++ Phaser runtime.
// Package runtime is its user-facing API, package runtime/phaserimpl its
// door for generated code, and packages proto and ros build their wire
// formats on it.
//
// A [Msg] is a payload and an offset, never the field values: getters read
// the payload, setters write it. Generated code wraps a Msg in a typed
// handle per message and passes each field's location to Msg's accessors as
// a constant [Field]; generic code (the dynamic view, [Msg.ToProto],
// [Msg.CopyFrom], the wire formats) walks a [Type]'s [FieldInfo]s instead.
//
// Payloads are created with [New] (an owned buffer that grows) or [NewIn]
// (caller memory, never grown: a write that does not fit is dropped and
// recorded), continued with [Open], and read with [Read] or [ReadInto],
// which never modify the bytes and bound every access by their length, so
// that a hostile payload reads as absent fields rather than panicking.
//
// A Type is the layout of a message type as the C++ generator computes it
// (package internal/layout): field offsets, presence ids and the field
// table stored in the payload. Payloads carry their own tables, so a handle
// reads and writes a message laid out by another version of the .proto, or
// by the other frontend, through the payload's table (schema evolution);
// only a message whose table is the compiled one uses the compiled offsets.
// A [View] of such a message reads its scalar fields with loads the
// compiler inlines, for loops over many messages; a [Setter] writes them.
// Types are compiled for a [Frontend]: [ProtobufFrontend] (the default) or
// [ROSFrontend], whose Phaser 3 layout stores singular messages inside their
// holder.
//
// Formats: new payloads use the Phaser 3 format unless [Options] asks for
// Phaser 2 (C++ Phaser 2.x peers); Open keeps a payload's format. The byte
// layouts, and the choices phaser-go made where Phaser 3 is not yet known,
// are described in docs/format.md.
package impl
